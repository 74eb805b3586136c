//! The answers every page handler gives: a page of HTML, or a redirect after a form.

use actix_web::HttpResponse;
use actix_web::http::{StatusCode, header};

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
