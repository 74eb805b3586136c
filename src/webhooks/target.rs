//! Where a webhook may post. A URL names a receiver on the internet: `http` or `https`, no
//! user and password (the body is signed instead), and not this machine nor its private
//! networks — otherwise anyone who may create a table could make the server probe its own
//! network (server-side request forgery). A host given by name is checked where it resolves,
//! at every delivery ([`PublicOnly`]), so a name that later points inside is refused then.
//! `--allow-private-webhooks` lifts the address checks (a site on the same network; tests).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// The longest webhook URL taken, in bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// Whether an address is on the public internet: not loopback, unspecified, private,
/// link-local, shared (carrier NAT), multicast, broadcast, documentation or reserved.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        // shared address space (carrier-grade NAT), 100.64.0.0/10
        || (a == 100 && (64..128).contains(&b))
        // IETF protocol assignments, 192.0.0.0/24
        || (a == 192 && b == 0 && c == 0)
        // benchmarking, 198.18.0.0/15
        || (a == 198 && (18..20).contains(&b))
        // reserved, 240.0.0.0/4
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        // unique local, fc00::/7
        || (first & 0xfe00) == 0xfc00
        // link-local, fe80::/10
        || (first & 0xffc0) == 0xfe80
        // documentation, 2001:db8::/32
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
        // NAT64 (64:ff9b::/96) and IPv4-compatible addresses reach IPv4 space: refused
        // rather than decoded
        || first == 0x0064
        || first == 0)
}

/// Checks a webhook URL: answers it parsed, or says what is wrong with it. With
/// `allow_private`, addresses on this machine and private networks are allowed.
pub fn check(url: &str, allow_private: bool) -> Result<Url, String> {
    if url.len() > MAX_URL_BYTES {
        return Err(format!("a URL of at most {MAX_URL_BYTES} bytes"));
    }
    let parsed = Url::parse(url).map_err(|e| format!("not a URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("an http or https URL, not {}:", parsed.scheme()));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err("no user or password in the URL: the body is signed with the secret".into());
    }
    let private = |what: &str| {
        Err(format!(
            "{what} is not on the public internet; this server posts only to public addresses"
        ))
    };
    match parsed.host() {
        None => return Err("a URL with a host".into()),
        Some(_) if allow_private => {}
        Some(url::Host::Ipv4(ip)) if !is_public(IpAddr::V4(ip)) => return private(&ip.to_string()),
        Some(url::Host::Ipv6(ip)) if !is_public(IpAddr::V6(ip)) => return private(&ip.to_string()),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            if name == "localhost" || name.ends_with(".localhost") {
                return private(&name);
            }
        }
        Some(_) => {}
    }
    Ok(parsed)
}

/// Resolves a webhook's host to its public addresses only, failing when it has none: the
/// check of a name made where the connection is made, so that no answer of the DNS can send a
/// delivery inside.
#[derive(Clone, Copy, Debug, Default)]
pub struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let public: Vec<SocketAddr> = found.into_iter().filter(|a| is_public(a.ip())).collect();
            if public.is_empty() {
                // Said without the host: a table's readers see its webhook's last error.
                return Err("the name resolves to no public address".into());
            }
            Ok(Box::new(public.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_local_addresses_are_not_public() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111"] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn a_webhook_url_is_http_or_https_to_a_public_host() {
        assert!(check("https://games.example/hooks/moot", false).is_ok());
        assert!(check("http://93.184.215.14:8080/h", false).is_ok());
        for (url, says) in [
            ("ftp://games.example/h", "http or https"),
            ("https://user:pw@games.example/h", "no user or password"),
            (
                "http://127.0.0.1:9000/h",
                "127.0.0.1 is not on the public internet",
            ),
            ("http://[::1]/h", "::1 is not on the public internet"),
            (
                "http://169.254.169.254/latest",
                "not on the public internet",
            ),
            (
                "http://localhost:9000/h",
                "localhost is not on the public internet",
            ),
            ("http://api.LOCALHOST./h", "api.localhost is not"),
            ("games.example/h", "not a URL"),
        ] {
            let error = check(url, false).unwrap_err();
            assert!(error.contains(says), "{url}: {error}");
        }
        let long = format!("https://games.example/{}", "a".repeat(MAX_URL_BYTES));
        assert!(check(&long, false).unwrap_err().contains("at most"));
    }

    #[test]
    fn allowing_private_addresses_lets_local_receivers_in() {
        assert!(check("http://127.0.0.1:9000/h", true).is_ok());
        assert!(check("http://localhost:9000/h", true).is_ok());
        assert!(check("file:///etc/passwd", true).is_err());
    }

    #[actix_web::test]
    async fn a_name_that_resolves_only_inside_is_refused_where_it_resolves() {
        let name: Name = "localhost".parse().unwrap();
        let error = match PublicOnly.resolve(name).await {
            Ok(_) => panic!("localhost resolved to a public address"),
            Err(e) => e.to_string(),
        };
        assert!(error.contains("no public address"), "{error}");
    }
}
