//! Forged forwarded headers: `X-Forwarded-Proto: javascript` and a host with a line break and a
//! script, sent to an embed page of a server that does not trust forwarded headers. No link of
//! the page may start with `javascript:` or name the forged host `x`.

use std::net::SocketAddr;

use moot_load::http::fetch;

/// The embed page asked.
pub const EMBED: &str = "/embed/herfor?size=3&moves=c3";
/// The forged headers.
const FORGED: [(&str, &str); 2] = [
    ("x-forwarded-proto", "javascript"),
    ("x-forwarded-host", "x%0aalert(document.domain)//"),
];
/// The attributes that hold links (`content`: the link previews' `og:url` and `og:image`).
const LINK_ATTRIBUTES: [&str; 4] = ["href", "src", "action", "content"];

/// What the embed page gave.
pub struct Finding {
    /// The page's status.
    pub status: u16,
    /// Link attributes read.
    pub links: usize,
    /// Those that start with `javascript:` or name host `x`.
    pub forged: Vec<String>,
    /// The page's `Content-Security-Policy` header.
    pub policy: Option<String>,
}

/// Asks the embed page with the forged headers and reads its links.
pub fn check(addr: SocketAddr) -> Result<Finding, String> {
    let answer = fetch(addr, "GET", EMBED, &FORGED, b"").map_err(|e| format!("{EMBED}: {e}"))?;
    let page = String::from_utf8_lossy(&answer.body);
    let links = link_values(&page);
    Ok(Finding {
        status: answer.head.status,
        links: links.len(),
        forged: links.into_iter().filter(|l| is_forged(l)).collect(),
        policy: answer
            .head
            .header("content-security-policy")
            .map(str::to_owned),
    })
}

/// The values of the page's link attributes (`name="…"`), character references decoded.
pub fn link_values(page: &str) -> Vec<String> {
    let mut values = Vec::new();
    for name in LINK_ATTRIBUTES {
        for quote in ['"', '\''] {
            let opening = format!(" {name}={quote}");
            let mut rest = page;
            while let Some(at) = rest.find(&opening) {
                rest = &rest[at + opening.len()..];
                let end = rest.find(quote).unwrap_or(rest.len());
                values.push(decode_references(&rest[..end]));
                rest = &rest[end..];
            }
        }
    }
    values
}

/// Whether a link starts with `javascript:` (spaces and controls before it ignored, as
/// browsers do) or names the forged host `x`.
pub fn is_forged(link: &str) -> bool {
    let link = link
        .trim_start_matches(|c: char| c.is_whitespace() || c.is_control())
        .to_ascii_lowercase();
    link.starts_with("javascript:") || host_of(&link).is_some_and(|host| names_x(&host))
}

/// The host of an absolute (`scheme://host/…`) or scheme-relative (`//host/…`) link.
fn host_of(link: &str) -> Option<String> {
    let after = match link.find("://") {
        Some(at) if !link[..at].contains(['/', '?', '#']) => &link[at + 3..],
        _ => link.strip_prefix("//")?,
    };
    let authority = after.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    Some(host.split(':').next().unwrap_or("").to_owned())
}

/// `x`, or `x` followed by what the forged header put after it.
fn names_x(host: &str) -> bool {
    host == "x" || host.starts_with("x%") || host.starts_with("x\n")
}

/// `&amp;`, `&quot;`, `&#39;`, `&#x27;`, `&lt;`, `&gt;` and numeric references decoded.
fn decode_references(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';') else {
            break;
        };
        let name = &rest[1..end];
        let decoded = match name {
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "lt" => Some('<'),
            "gt" => Some('>'),
            _ => name
                .strip_prefix("#x")
                .or_else(|| name.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| name.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAN: &str = r#"<html><head><meta name="viewport" content="width=device-width"><link rel="stylesheet" href="/static/moot.css"><meta property="og:url" content="http://127.0.0.1:8080/embed/herfor?size=3&amp;moves=c3"></head><body><a href="http://127.0.0.1:8080/play/herfor?size=3&amp;moves=c3">Play</a></body></html>"#;

    fn flagged(page: &str) -> Vec<String> {
        link_values(page)
            .into_iter()
            .filter(|l| is_forged(l))
            .collect()
    }

    #[test]
    fn a_clean_page_has_no_forged_link() {
        assert_eq!(link_values(CLEAN).len(), 4);
        assert!(flagged(CLEAN).is_empty());
    }

    #[test]
    fn a_javascript_href_is_flagged_even_written_with_references_or_spaces() {
        let page = r#"<a href="javascript:alert(1)">a</a><a href=" &#106;avascript:alert(1)">b</a><a href='JavaScript:x'>c</a>"#;
        assert_eq!(flagged(page).len(), 3);
    }

    #[test]
    fn a_link_or_preview_naming_the_forged_host_is_flagged() {
        let page = r#"<meta property="og:url" content="http://x%0aalert(document.domain)///embed/herfor"><a href="//x/play">p</a><a href="https://x:443/">q</a>"#;
        assert_eq!(flagged(page).len(), 3);
    }

    #[test]
    fn hosts_that_only_start_with_x_and_paths_naming_x_are_not_flagged() {
        let page =
            r#"<a href="https://xample.org/x">a</a><a href="/x/y">b</a><a href="?host=x">c</a>"#;
        assert!(flagged(page).is_empty());
    }
}
