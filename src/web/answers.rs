//! The answers the page handlers give: a page of HTML, or a redirect after a form; and the
//! headers that keep an answer holding a seat's credential private.

use actix_web::HttpResponse;
use actix_web::http::{StatusCode, header};
use actix_web::middleware::DefaultHeaders;

/// A page of HTML with `status`.
pub fn html(status: StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body)
}

/// `303 See Other` to `href`: where the browser goes after a form, or to the position a
/// link's action leads to.
pub fn see_other(href: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, href))
        .finish()
}

/// The headers of every answer that may hold a seat's credential (a seat's routes, the page
/// showing both seats), refusals included: kept from shared caches, from the next site's
/// `Referer` and from search engines. A route takes them with `wrap = "private()"`.
pub fn private() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::CACHE_CONTROL, "private, no-store"))
        .add((header::REFERRER_POLICY, "no-referrer"))
        .add(("x-robots-tag", "noindex"))
}
