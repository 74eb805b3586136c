//! CORS: which other origins' pages may call Moot from a browser.
//!
//! Any origin by default: the API holds no credentials and no user data (the client sends the
//! whole state), so a page anywhere may call it, as any program can. A site may still name its
//! own origins (`--cors-origins`). Cookies are never allowed across origins.

use std::fmt;
use std::str::FromStr;

use actix_cors::Cors;
use actix_web::http::{Method, header};

/// The origins allowed to call the API from a browser.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Origins {
    /// Every origin (`*`).
    #[default]
    Any,
    /// Only these, e.g. `https://games.example`.
    Only(Vec<String>),
}

impl FromStr for Origins {
    type Err = String;

    /// `*`, or origins separated by commas (`scheme://host[:port]`, no path).
    fn from_str(text: &str) -> Result<Self, String> {
        if text.trim() == "*" {
            return Ok(Origins::Any);
        }
        let origins: Vec<String> = text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        if origins.is_empty() {
            return Err("name at least one origin, or * for any".to_owned());
        }
        for origin in &origins {
            let rest = origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"));
            match rest {
                Some(host) if !host.is_empty() && !host.contains('/') => {}
                _ => {
                    return Err(format!(
                        "{origin:?} is not an origin: write scheme://host[:port], e.g. https://games.example"
                    ));
                }
            }
        }
        Ok(Origins::Only(origins))
    }
}

impl fmt::Display for Origins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origins::Any => f.write_str("*"),
            Origins::Only(origins) => f.write_str(&origins.join(",")),
        }
    }
}

/// How long a browser may keep a preflight's answer.
pub const MAX_AGE_SECONDS: usize = 3600;

/// The CORS middleware. A preflight `OPTIONS` is answered here; a request from an origin not
/// allowed is still served, without CORS headers, so the browser keeps its answer from the page.
pub fn middleware(origins: &Origins) -> Cors {
    let cors = Cors::default()
        .allowed_methods([Method::GET, Method::HEAD, Method::POST])
        .allowed_headers([header::CONTENT_TYPE, header::ACCEPT])
        .allowed_header(super::request_id::HEADER)
        .expose_headers([header::RETRY_AFTER, header::ALLOW])
        .expose_headers([super::request_id::HEADER])
        .max_age(MAX_AGE_SECONDS)
        .block_on_origin_mismatch(false);
    match origins {
        Origins::Any => cors.allow_any_origin().send_wildcard(),
        Origins::Only(list) => list
            .iter()
            .fold(cors, |cors, origin| cors.allowed_origin(origin)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_read_from_a_flag() {
        assert_eq!("*".parse(), Ok(Origins::Any));
        assert_eq!(
            "https://a.example, http://localhost:3000".parse(),
            Ok(Origins::Only(vec![
                "https://a.example".to_owned(),
                "http://localhost:3000".to_owned()
            ]))
        );
        assert!("".parse::<Origins>().is_err());
        assert!("a.example".parse::<Origins>().is_err());
        assert!("https://a.example/path".parse::<Origins>().is_err());
    }
}
