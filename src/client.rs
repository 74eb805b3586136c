//! Who the client is and what it asked for, from the request: its address, for its share of the
//! computer player (the shares themselves know no HTTP), and the origin the absolute URLs of
//! link previews and embeds start with. A proxy's `Forwarded`/`X-Forwarded-*` headers count
//! only when the server trusts its proxy (`--trust-forwarded`): anyone can send them.

use std::net::IpAddr;

/// The address a client's share is kept under: the connection's peer, or, when the server
/// trusts its reverse proxy (`--trust-forwarded`), the first `Forwarded`/`X-Forwarded-For`
/// address; behind a proxy every peer is the proxy, so all clients would share one share.
pub fn client_of(request: &actix_web::HttpRequest, trust_forwarded: bool) -> Option<IpAddr> {
    let peer = request.peer_addr().map(|peer| peer.ip());
    if !trust_forwarded {
        return peer;
    }
    let info = request.connection_info();
    let forwarded = info.realip_remote_addr().and_then(|addr| {
        addr.parse::<IpAddr>()
            .ok()
            .or_else(|| addr.parse::<std::net::SocketAddr>().ok().map(|a| a.ip()))
    });
    forwarded.or(peer)
}

/// The scheme and host the client asked for (`https://moot.example`): the absolute URLs of link
/// previews and embeds start with it. Moot itself serves plain HTTP, so the scheme is `http`
/// unless a trusted proxy says `https`; the host is the `Host` header's (or a trusted proxy's)
/// when it is a host name or address with an optional port, else `localhost`: never text a
/// client chose that could turn a link into something else (`javascript://x%0a…`).
pub fn origin_of(request: &actix_web::HttpRequest, trust_forwarded: bool) -> String {
    let (scheme, host) = if trust_forwarded {
        let info = request.connection_info();
        let scheme = match info.scheme() {
            "https" => "https",
            _ => "http",
        };
        (scheme, info.host().to_owned())
    } else {
        let host = request
            .headers()
            .get(actix_web::http::header::HOST)
            .and_then(|value| value.to_str().ok())
            .or_else(|| request.uri().authority().map(|a| a.as_str()))
            .unwrap_or_default();
        ("http", host.to_owned())
    };
    let host = if is_host(&host) {
        host
    } else {
        "localhost".to_owned()
    };
    format!("{scheme}://{host}")
}

/// Whether `text` is a host as a URL may name it: a name of letters, digits, `-` and `.`, or an
/// IPv6 address in brackets, with an optional port.
fn is_host(text: &str) -> bool {
    let is_port = |p: &str| (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = text.strip_prefix('[') {
        let Some((address, after)) = rest.split_once(']') else {
            return false;
        };
        let address_ok = !address.is_empty()
            && address
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
        return address_ok && (after.is_empty() || after.strip_prefix(':').is_some_and(is_port));
    }
    let (name, port) = match text.split_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (text, None),
    };
    let name_ok = (1..=253).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    name_ok && port.is_none_or(is_port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forwarded_address_names_the_client_only_when_the_proxy_is_trusted() {
        use actix_web::test::TestRequest;
        let proxy: std::net::SocketAddr = "10.0.0.2:41000".parse().unwrap();
        let request = TestRequest::default()
            .peer_addr(proxy)
            .insert_header(("x-forwarded-for", "203.0.113.7"))
            .to_http_request();
        assert_eq!(client_of(&request, false), Some(proxy.ip()));
        assert_eq!(client_of(&request, true), "203.0.113.7".parse().ok());
        // Without the header a trusting server falls back to the peer.
        let bare = TestRequest::default().peer_addr(proxy).to_http_request();
        assert_eq!(client_of(&bare, true), Some(proxy.ip()));
    }

    #[test]
    fn the_origin_takes_forwarded_headers_only_from_a_trusted_proxy_and_only_sane_ones() {
        use actix_web::test::TestRequest;
        let forged = || {
            TestRequest::default()
                .insert_header(("host", "moot.example:8080"))
                .insert_header(("x-forwarded-proto", "javascript"))
                .insert_header(("x-forwarded-host", "x%0aalert(document.domain)//"))
                .to_http_request()
        };
        assert_eq!(origin_of(&forged(), false), "http://moot.example:8080");
        // A trusted proxy may name another scheme and host, but only sane ones.
        assert_eq!(origin_of(&forged(), true), "http://localhost");
        let proxied = TestRequest::default()
            .insert_header(("host", "upstream"))
            .insert_header(("x-forwarded-proto", "https"))
            .insert_header(("x-forwarded-host", "games.example"))
            .to_http_request();
        assert_eq!(origin_of(&proxied, true), "https://games.example");
        assert_eq!(origin_of(&proxied, false), "http://upstream");
    }

    #[test]
    fn hosts_are_names_or_bracketed_addresses_with_an_optional_port() {
        for good in [
            "localhost",
            "moot.example:8080",
            "127.0.0.1:80",
            "[::1]",
            "[::1]:8080",
        ] {
            assert!(is_host(good), "{good}");
        }
        for bad in [
            "",
            "x%0aalert(1)//",
            "a b",
            "moot.example:",
            "moot.example:123456",
            "[]",
            "x/y",
            "a:b:c",
        ] {
            assert!(!is_host(bad), "{bad}");
        }
    }
}
