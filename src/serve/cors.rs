//! CORS: which other origins' pages may call Moot from a browser.
//!
//! Any origin by default: the API holds no credentials and no user data (the client sends the
//! whole state), so a page anywhere may call it, as any program can. A site may still name its
//! own origins (`--cors-origins`). Cookies are never allowed across origins, so any request
//! header may be sent (a page's tracing headers, `traceparent`, `sentry-trace`, included): a
//! preflight's `Access-Control-Request-Headers` is allowed as asked. A preflight refused (an
//! origin not named, a method the API does not serve) is a problem `cors_refused`, like every
//! other refusal of the API.

use std::fmt;
use std::str::FromStr;

use actix_cors::{Cors, CorsError};
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::HeaderValue;
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{Error, HttpResponse};

use crate::api::problem::{ApiError, ErrorCode};

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

/// The methods the API serves, the only ones a preflight may ask for.
const METHODS: [Method; 4] = [Method::GET, Method::HEAD, Method::POST, Method::PUT];

/// The CORS middleware. A preflight `OPTIONS` is answered here; a request from an origin not
/// allowed is still served, without CORS headers, so the browser keeps its answer from the page.
/// Wrap it in [`refusals`], which turns its refusals into problems.
pub fn middleware(origins: &Origins) -> Cors {
    let cors = Cors::default()
        .allowed_methods(METHODS)
        .allow_any_header()
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

/// Answers a preflight that [`middleware`] refused with a problem `cors_refused` (403) saying
/// what was refused, instead of actix-cors's plain-text 400. The answer varies on the preflight's
/// headers (so no cache serves it for another origin); when the origin was allowed and only the
/// method was not, it names the origin and the methods there are, so the browser's console says
/// which part failed.
pub async fn refusals(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let response = next.call(request).await?;
    let Some(refusal) = response
        .response()
        .error()
        .and_then(|error| error.as_error::<CorsError>())
    else {
        return Ok(response.map_into_left_body());
    };
    let origin_allowed = !matches!(
        refusal,
        CorsError::OriginNotAllowed | CorsError::MissingOrigin
    );
    let detail = refusal_detail(refusal, response.request());
    let mut answer = HttpResponse::from_error(ApiError::new(ErrorCode::CorsRefused, detail));
    let headers = answer.headers_mut();
    headers.insert(
        header::VARY,
        HeaderValue::from_static(
            "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
        ),
    );
    if origin_allowed && let Some(origin) = response.request().headers().get(header::ORIGIN) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, HEAD, POST, PUT"),
        );
    }
    let (request, _) = response.into_parts();
    Ok(ServiceResponse::new(request, answer).map_into_right_body())
}

/// What a refused preflight asked for that is not allowed, in the client's terms.
fn refusal_detail(refusal: &CorsError, request: &actix_web::HttpRequest) -> String {
    let sent = |name: header::HeaderName| {
        request
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(|text| crate::limits::excerpt(text, crate::limits::EXCERPT_CHARS))
            .unwrap_or_default()
    };
    match refusal {
        CorsError::OriginNotAllowed => format!(
            "the origin {:?} may not call this server from a browser (--cors-origins names the origins that may)",
            sent(header::ORIGIN)
        ),
        CorsError::MissingOrigin => {
            "a preflight must name its page's origin in the Origin header".to_owned()
        }
        CorsError::MethodNotAllowed | CorsError::BadRequestMethod => format!(
            "the method {:?} is not served here; the API serves GET, HEAD, POST and PUT",
            sent(header::ACCESS_CONTROL_REQUEST_METHOD)
        ),
        other => format!("the preflight is refused: {other}"),
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
