//! One log line per request, and its metrics: method, route pattern, status, time taken and
//! request id. Client errors add only their problem `code` (the detail is the client's to read,
//! not the operator's); server errors log their detail at `error`, cut to [`MAX_FIELD_CHARS`].
//! Every field is bounded: the method and route are fixed labels, the request id is at most 64
//! safe characters, a code is Moot's own. Repeated refusals (each 4xx status, and 503) and
//! health checks are sampled, one line a second per kind counting those left out
//! ([`super::sampling`]).
//!
//! Cheap on purpose, it runs for every request: the route's pattern is looked up by the matched
//! resource's name (no string built per request), the request id is borrowed, and the line is
//! written by the log's own thread (see [`super::logging`]).

use std::sync::OnceLock;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage, HttpRequest, web};
use dashmap::DashMap;

use super::metrics::Metrics;
use super::request_id::RequestId;
use super::sampling::{Kind, Sampler};
use crate::api::ApiError;

/// The route of a request no route took: one label, whatever the path.
pub const UNMATCHED: &str = "unmatched";

/// The pattern of the route that took `request` (`/api/v1/games/{game}/apply`), or
/// [`UNMATCHED`]. Built once per route and kept under the resource's name: actix names every
/// route declared with its macros after the handler, and those names are unique here (a debug
/// build checks each lookup against the pattern actix builds).
pub fn route_of(request: &HttpRequest) -> &'static str {
    static PATTERNS: OnceLock<DashMap<String, &'static str>> = OnceLock::new();
    let Some(name) = request.match_name() else {
        return pattern_of(request);
    };
    let patterns = PATTERNS.get_or_init(DashMap::new);
    if let Some(pattern) = patterns.get(name) {
        debug_assert_eq!(*pattern, pattern_of(request), "two routes named {name}");
        return *pattern;
    }
    *patterns
        .entry(name.to_owned())
        .or_insert_with(|| pattern_of(request))
}

/// The pattern as actix builds it (a new string): interned, since there are few routes; an
/// unnamed route is looked up each time.
fn pattern_of(request: &HttpRequest) -> &'static str {
    static INTERNED: OnceLock<DashMap<String, &'static str>> = OnceLock::new();
    let Some(pattern) = request.match_pattern() else {
        return UNMATCHED;
    };
    let interned = INTERNED.get_or_init(DashMap::new);
    if let Some(known) = interned.get(&pattern) {
        return *known;
    }
    *interned
        .entry(pattern.clone())
        .or_insert_with(|| Box::leak(pattern.into_boxed_str()))
}

/// The method as metrics and the log name it: one of HTTP's own methods, else `other`. A client
/// may send any token as a method; each distinct one would be a new metrics series and a log
/// field as long as the client likes.
pub fn method_label(method: &actix_web::http::Method) -> &'static str {
    const KNOWN: [&str; 9] = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
    ];
    KNOWN
        .into_iter()
        .find(|known| *known == method.as_str())
        .unwrap_or("other")
}

/// The most characters of a free-text field (a server error's detail) a log line holds.
pub const MAX_FIELD_CHARS: usize = 256;

/// `text` cut to [`MAX_FIELD_CHARS`], marked with `…` where it was cut.
pub fn capped(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_FIELD_CHARS) {
        None => text.into(),
        Some((end, _)) => format!("{}…", &text[..end]).into(),
    }
}

/// Times the request, counts it in the [`Metrics`] (when the app has them) and logs its line.
pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let start = Instant::now();
    let method = method_label(request.method());
    let metrics = request.app_data::<web::Data<Metrics>>().cloned();
    let sampler = request.app_data::<web::Data<Sampler>>().cloned();
    let response = next.call(request).await?;
    let elapsed = start.elapsed();
    let route = route_of(response.request());
    let status = response.status();
    if let Some(metrics) = metrics {
        metrics.record(method, route, status, elapsed.as_secs_f64());
    }
    let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    let problem = response
        .response()
        .error()
        .and_then(|e| e.as_error::<ApiError>());
    let left_out = match (Kind::of(route, status.as_u16()), &sampler) {
        (Some(kind), Some(sampler)) => match sampler.admit(kind) {
            Some(left_out) => Some(left_out),
            None => return Ok(response),
        },
        _ => None,
    };
    {
        let extensions = response.request().extensions();
        let id = extensions
            .get::<RequestId>()
            .map_or("-", |id| id.0.as_str());
        let status = status.as_u16();
        let code = problem.map_or("", |p| p.code().as_str());
        if let Some(left_out) = left_out {
            // An overload refusal is expected under load, and tells the client to retry: not an
            // error of the server's. A sampled line counts the lines of its kind left out.
            if status == 503 {
                tracing::warn!(target: "moot::access", %method, route, status, micros, request_id = %id, code, left_out, "request");
            } else {
                tracing::info!(target: "moot::access", %method, route, status, micros, request_id = %id, code, left_out, "request");
            }
        } else if status == 503 {
            tracing::warn!(target: "moot::access", %method, route, status, micros, request_id = %id, code, "request");
        } else if status >= 500 {
            let detail = capped(problem.map_or("", |p| p.0.detail.as_str()));
            tracing::error!(target: "moot::access", %method, route, status, micros, request_id = %id, detail = %detail, "request");
        } else if problem.is_some() {
            tracing::info!(target: "moot::access", %method, route, status, micros, request_id = %id, code, "request");
        } else {
            tracing::info!(target: "moot::access", %method, route, status, micros, request_id = %id, "request");
        }
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_field_is_cut_with_a_mark_and_a_short_one_kept() {
        assert_eq!(capped("short"), "short");
        let long = "é".repeat(MAX_FIELD_CHARS + 100);
        let cut = capped(&long);
        assert_eq!(cut.chars().count(), MAX_FIELD_CHARS + 1);
        assert!(cut.ends_with("é…"));
        assert_eq!(
            capped(&long[..MAX_FIELD_CHARS * 2]),
            long[..MAX_FIELD_CHARS * 2]
        );
    }
}
