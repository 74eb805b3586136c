//! Where a webhook may post. A URL names a receiver on the internet: `http` or `https`, no
//! user and password (the body is signed instead), and not this machine nor its private
//! networks — otherwise anyone who may create a table could make the server probe its own
//! network (server-side request forgery). A host given by name is checked where it resolves,
//! at every delivery ([`PublicOnly`]), so a name that later points inside is refused then.
//! `--allow-private-webhooks` lifts the address checks (a site on the same network; tests).

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use ipnet::{IpNet, Ipv6Net};
use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// The HTTP client that posts to receivers (webhooks, push services): answers within
/// `timeout`, never follows a redirect (following one would post the body where its owner did
/// not say), ignores proxies, names itself `user_agent`, and reaches only public addresses
/// unless `allow_private`.
pub fn client(
    timeout: Duration,
    allow_private: bool,
    user_agent: &'static str,
) -> reqwest::Result<reqwest::Client> {
    let mut client = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(5)))
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .user_agent(user_agent);
    if !allow_private {
        client = client.dns_resolver(Arc::new(PublicOnly));
    }
    client.build()
}

/// The longest webhook URL taken, in bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// Whether an address is on the public internet: not in any block of IANA's special-purpose
/// address registries that is not globally reachable, nor one that leads back into IPv4 space
/// (6to4, Teredo, NAT64, IPv4-mapped), nor multicast; for IPv6, within the global unicast space
/// (2000::/3) at all. Blocks the registries mark globally reachable but that no webhook
/// receiver sits in (anycast services inside 192.0.0.0/24) are refused with their block.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => !v4.is_multicast() && !in_blocks(IpAddr::V4(v4), SPECIAL_V4),
        IpAddr::V6(v6) => GLOBAL_UNICAST_V6.contains(&v6) && !in_blocks(IpAddr::V6(v6), SPECIAL_V6),
    }
}

fn in_blocks(ip: IpAddr, blocks: &[(&str, &str)]) -> bool {
    blocks.iter().any(|(block, _)| {
        block
            .parse::<IpNet>()
            .is_ok_and(|network| network.contains(&ip))
    })
}

/// IPv6's global unicast space: every other block (loopback, unspecified, IPv4-mapped and
/// -compatible, NAT64 `64:ff9b::/96`, discard-only `100::/64`, segment routing `5f00::/16`,
/// unique local `fc00::/7`, link-local `fe80::/10`, site-local `fec0::/10`, multicast) is not
/// the internet.
const GLOBAL_UNICAST_V6: Ipv6Net =
    Ipv6Net::new_assert(Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0), 3);

/// IANA's IPv4 special-purpose address registry: the blocks not globally reachable, and
/// those that are but hold no receiver (`192.0.0.0/24`'s anycast services, `192.88.99.0/24`'s
/// deprecated 6to4 relays).
pub const SPECIAL_V4: &[(&str, &str)] = &[
    ("0.0.0.0/8", "this network"),
    ("10.0.0.0/8", "private use"),
    ("100.64.0.0/10", "shared address space (carrier-grade NAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link local"),
    ("172.16.0.0/12", "private use"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation (TEST-NET-1)"),
    ("192.88.99.0/24", "6to4 relay anycast (deprecated)"),
    ("192.168.0.0/16", "private use"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation (TEST-NET-2)"),
    ("203.0.113.0/24", "documentation (TEST-NET-3)"),
    ("240.0.0.0/4", "reserved"),
    ("255.255.255.255/32", "limited broadcast"),
];

/// IANA's IPv6 special-purpose address registry, the blocks within the global unicast space
/// (2000::/3) that are not globally reachable or that lead into IPv4 space.
pub const SPECIAL_V6: &[(&str, &str)] = &[
    (
        "2001::/23",
        "IETF protocol assignments (Teredo 2001::/32 among them)",
    ),
    ("2001:db8::/32", "documentation"),
    ("2002::/16", "6to4"),
    ("3fff::/20", "documentation"),
];

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

    /// Each block of the registries, at its first and last address, and the IPv6 blocks
    /// outside the global unicast space: refused; their neighbours on the internet taken.
    #[test]
    fn every_special_purpose_block_is_refused_at_both_ends() {
        for (block, name) in SPECIAL_V4.iter().chain(SPECIAL_V6) {
            let network: IpNet = block.parse().expect("a block");
            for ip in [network.network(), network.broadcast()] {
                assert!(!is_public(ip), "{ip} ({name}, {block}) is refused");
            }
        }
        for ip in [
            "fec0::1",
            "2002:7f00:1::",
            "2001:0:7f00:1::",
            "100::1",
            "192.88.99.1",
            "64:ff9b:1::1",
            "5f00::1",
            "3fff::1",
            "224.0.0.1",
            "ff02::1",
            "::ffff:8.8.8.8",
            "::8.8.8.8",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "8.8.8.8",
            "192.31.196.1",
            "11.0.0.1",
            "2a00:1450:4001::1",
            "2001:4860::1",
        ] {
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
