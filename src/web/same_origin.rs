//! Whether a request that changes something for the cookie's player came from Moot's own pages.
//! The cookie is `SameSite=Lax`, which already keeps it off other sites' scripted requests;
//! this check refuses them outright, whatever a browser does with the cookie, and says why.

use actix_web::HttpRequest;
use actix_web::http::StatusCode;

use crate::api::problem::{ApiError, ErrorCode};
use crate::web::error::PageError;

/// Passes a request from this site's pages; refuses one a browser says came from another site
/// (`Sec-Fetch-Site` other than `same-origin`) or from another origin (`Origin`, for a browser
/// that sends no `Sec-Fetch-Site`). A request with neither is no browser's cross-site request
/// (browsers send `Origin` with every scripted POST and DELETE), and passes.
pub fn check(http: &HttpRequest, trust_forwarded: bool) -> Result<(), ApiError> {
    let header = |name: &str| http.headers().get(name).and_then(|v| v.to_str().ok());
    let refused = |from: &str| {
        Err(ApiError::new(
            ErrorCode::CorsRefused,
            format!("this route takes requests from Moot's own pages only, not from {from}"),
        ))
    };
    if let Some(site) = header("sec-fetch-site") {
        return if site.eq_ignore_ascii_case("same-origin") {
            Ok(())
        } else {
            refused(&format!("a page the browser calls {site}"))
        };
    }
    if let Some(origin) = header("origin") {
        return if origin == crate::client::origin_of(http, trust_forwarded) {
            Ok(())
        } else {
            refused(origin)
        };
    }
    Ok(())
}

/// The same for a page's form: refused with a page that says why (403).
pub fn check_page(http: &HttpRequest, trust_forwarded: bool) -> Result<(), PageError> {
    check(http, trust_forwarded).map_err(|error| {
        PageError::new(
            StatusCode::FORBIDDEN,
            "Not from Moot's pages",
            error.0.detail.clone(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn passes(headers: &[(&str, &str)]) -> bool {
        let mut request = TestRequest::post().insert_header(("host", "moot.example"));
        for header in headers {
            request = request.insert_header(*header);
        }
        check(&request.to_http_request(), false).is_ok()
    }

    #[test]
    fn only_this_sites_pages_pass() {
        assert!(passes(&[("sec-fetch-site", "same-origin")]));
        assert!(!passes(&[("sec-fetch-site", "cross-site")]));
        assert!(!passes(&[("sec-fetch-site", "same-site")]));
        // Sec-Fetch-Site decides where a browser sends it.
        assert!(!passes(&[
            ("sec-fetch-site", "cross-site"),
            ("origin", "http://moot.example")
        ]));
        assert!(passes(&[("origin", "http://moot.example")]));
        assert!(!passes(&[("origin", "https://evil.example")]));
        assert!(!passes(&[("origin", "null")]));
        assert!(passes(&[]));
    }
}
