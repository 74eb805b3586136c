//! Security headers. Every answer gets `X-Content-Type-Options: nosniff` and a
//! `Referrer-Policy` (the links hold whole games: they are not sent to other sites); HTML pages
//! also get a `Content-Security-Policy` that allows only this origin's stylesheet, script (the
//! play pages' `/static/moot.js`, no inline script), images, fetches and forms, and no framing
//! (`frame-ancestors 'none'`).
//!
//! Each header is added only when the answer lacks it, so a route may set its own: a page meant
//! to be framed (an embed) answers with its own `Content-Security-Policy` (`frame-ancestors *`
//! or the sites allowed), on its responses or with `DefaultHeaders` on its scope, and keeps it.
//! Swagger UI (`/docs/`) runs its own scripts and is left without the page policy.

use actix_web::Error;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;

/// The pages' policy: inline SVG is markup, not script or style, so it needs nothing here; the
/// play pages' script is a file of this origin and fetches pages of it, and registers this
/// origin's service worker (`/push-worker.js`, for notices): `worker-src` says so, rather than
/// leaving it to fall back on `script-src`.
pub const PAGE_POLICY: &str = "default-src 'none'; style-src 'self'; script-src 'self'; \
     worker-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; \
     base-uri 'none'; frame-ancestors 'none'";

/// The `Referrer-Policy` of every answer: a link holds a whole game, so only this origin gets it.
pub const REFERRER_POLICY: &str = "same-origin";

/// Adds the headers an answer lacks: `nosniff` and the referrer policy to all, the page policy
/// to HTML outside `/docs`.
pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let docs = request.path().starts_with("/docs");
    let mut response = next.call(request).await?;
    let headers = response.headers_mut();
    let mut default = |name: HeaderName, value: &'static str| {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    };
    default(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    default(header::REFERRER_POLICY, REFERRER_POLICY);
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if html
        && !docs
        && !response
            .headers()
            .contains_key(header::CONTENT_SECURITY_POLICY)
    {
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(PAGE_POLICY),
        );
    }
    Ok(response)
}
