//! Who the client is, for its share of the computer player: an HTTP question (the peer, or a
//! trusted proxy's header), answered here so that the shares themselves know no HTTP.

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
}
