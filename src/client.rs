//! Who the client is and what it asked for, from the request: its address, for its share of the
//! computer player (the shares themselves know no HTTP), and the origin the absolute URLs of
//! link previews and embeds start with. A proxy's `Forwarded`/`X-Forwarded-*` headers count
//! only when the server trusts its proxy (`--trust-forwarded`): anyone can send them. A site
//! that knows its public address says it once (`--public-url`), and every absolute link starts
//! with it whatever the request says.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

/// The address a client's share is kept under: the connection's peer, or, when the server
/// trusts its reverse proxy (`--trust-forwarded`), the first `Forwarded`/`X-Forwarded-For`
/// address; behind a proxy every peer is the proxy, so all clients would share one share.
/// The address is taken as [`share_key`] has it.
pub fn client_of(request: &actix_web::HttpRequest, trust_forwarded: bool) -> Option<IpAddr> {
    let peer = request.peer_addr().map(|peer| peer.ip());
    if !trust_forwarded {
        return peer.map(share_key);
    }
    let info = request.connection_info();
    let forwarded = info.realip_remote_addr().and_then(|addr| {
        addr.parse::<IpAddr>()
            .ok()
            .or_else(|| addr.parse::<std::net::SocketAddr>().ok().map(|a| a.ip()))
    });
    forwarded.or(peer).map(share_key)
}

/// Whom an address's share belongs to: an IPv6 address is its /64, the network one subscriber
/// gets and in which a host picks any address at will (so a client cannot take a share per
/// address); an IPv4 address (or one mapped into IPv6) is itself, as a /24 may hold many
/// households.
pub fn share_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
    }
}

/// The site's public address (`--public-url`): `http` or `https`, a host and an optional port,
/// nothing else. A path prefix is refused: the pages' own links (`/static/…`, `/play/…`) are
/// written from the root, so a site mounted under a prefix would get broken links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl(String);

impl PublicUrl {
    /// `https://games.example`: what absolute links start with (no trailing slash).
    pub fn origin(&self) -> &str {
        &self.0
    }
}

impl FromStr for PublicUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let (scheme, rest) = if let Some(rest) = text.strip_prefix("https://") {
            ("https", rest)
        } else if let Some(rest) = text.strip_prefix("http://") {
            ("http", rest)
        } else {
            return Err(format!(
                "{text:?} is not a public URL: write http:// or https:// and the host, e.g. https://games.example"
            ));
        };
        // One trailing slash is the root, said twice.
        let host = rest.strip_suffix('/').unwrap_or(rest);
        if host.contains('/') {
            return Err(format!(
                "{text:?} has a path: Moot serves from the root of its host, write scheme://host[:port]"
            ));
        }
        if !is_host(host) {
            return Err(format!(
                "{text:?} does not name a host: write scheme://host[:port] (letters, digits, '-' and '.', or [IPv6])"
            ));
        }
        Ok(PublicUrl(format!(
            "{scheme}://{}",
            host.to_ascii_lowercase()
        )))
    }
}

impl fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The scheme and host absolute links start with (`https://moot.example`), first found of: the
/// site's [`PublicUrl`] (`--public-url`, the application's `Option<PublicUrl>` data); a trusted proxy's
/// forwarded scheme and host (`--trust-forwarded`); the request's `Host`. Moot itself serves
/// plain HTTP, so the scheme is `http` unless one of the first two says `https`; a host is taken
/// only when it is a host name or address with an optional port, else `localhost`: never text a
/// client chose that could turn a link into something else (`javascript://x%0a…`).
pub fn origin_of(request: &actix_web::HttpRequest, trust_forwarded: bool) -> String {
    if let Some(Some(public)) = request.app_data::<Option<PublicUrl>>() {
        return public.origin().to_owned();
    }
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
    fn an_ipv6_client_is_its_64_an_ipv4_client_its_address() {
        let key = |text: &str| share_key(text.parse().unwrap());
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:ffff:1:2:3"));
        assert_eq!(
            key("2001:db8:1:2:aaaa::1"),
            "2001:db8:1:2::".parse::<IpAddr>().unwrap()
        );
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_ne!(key("203.0.113.7"), key("203.0.113.8"));
        assert_eq!(key("::ffff:203.0.113.7"), key("203.0.113.7"));
        use actix_web::test::TestRequest;
        let request = TestRequest::default()
            .peer_addr("[2001:db8:1:2::99]:41000".parse().unwrap())
            .insert_header(("x-forwarded-for", "2001:db8:7:7:1::5"))
            .to_http_request();
        assert_eq!(client_of(&request, false), Some(key("2001:db8:1:2::")));
        assert_eq!(client_of(&request, true), Some(key("2001:db8:7:7::")));
    }

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
    fn the_public_url_comes_before_forwarded_headers_and_the_host() {
        use actix_web::test::TestRequest;
        let public: PublicUrl = "https://Games.example/".parse().expect("a public URL");
        let request = TestRequest::default()
            .insert_header(("host", "upstream:8080"))
            .insert_header(("x-forwarded-proto", "http"))
            .insert_header(("x-forwarded-host", "proxy.example"))
            .app_data(Some(public))
            .to_http_request();
        assert_eq!(origin_of(&request, true), "https://games.example");
        assert_eq!(origin_of(&request, false), "https://games.example");
    }

    #[test]
    fn a_public_url_is_a_scheme_and_a_host_with_an_optional_port() {
        for (text, origin) in [
            ("https://games.example", "https://games.example"),
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"),
            ("https://[::1]:8443", "https://[::1]:8443"),
        ] {
            assert_eq!(
                text.parse::<PublicUrl>().map(|u| u.to_string()),
                Ok(origin.to_owned())
            );
        }
        for (bad, says) in [
            ("games.example", "http:// or https://"),
            ("ftp://games.example", "http:// or https://"),
            ("https://games.example/moot", "has a path"),
            ("https://", "does not name a host"),
            ("https://user@games.example", "does not name a host"),
            ("https://games.example?x=1", "does not name a host"),
        ] {
            let error = bad.parse::<PublicUrl>().expect_err(bad);
            assert!(error.contains(says), "{bad}: {error}");
        }
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
