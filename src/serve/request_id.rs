//! `x-request-id`: every answer carries one, taken from the request when it is sane (1 to 64
//! characters among letters, digits and `-_.:`), else made here. Problem bodies repeat it as
//! `request_id`, so a user can quote the id of the answer in front of them.

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage};

use crate::api::problem::PROBLEM_JSON;

/// The header, in requests and answers.
pub const HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// The longest id taken from a request.
pub const MAX_LEN: usize = 64;

/// The request's id, kept in the request's extensions for the handlers and the access log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId(pub String);

/// The id a client sent, if it is short and made of safe characters (it is logged and echoed).
pub fn sane(value: &HeaderValue) -> Option<String> {
    let text = value.to_str().ok()?;
    let safe = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':');
    (!text.is_empty() && text.len() <= MAX_LEN && text.chars().all(safe)).then(|| text.to_owned())
}

/// A new id: 16 random hexadecimal digits.
pub fn made() -> String {
    format!("{:016x}", rand::random::<u64>())
}

/// The middleware: reads or makes the id, answers it in `x-request-id` and in problem bodies.
pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody, BoxBody>>, Error> {
    let id = request
        .headers()
        .get(&HEADER)
        .and_then(sane)
        .unwrap_or_else(made);
    request.extensions_mut().insert(RequestId(id.clone()));
    // No clone of the request may be held here: routing needs the only reference to it.
    let mut response = next.call(request).await?.map_into_left_body();
    let value = HeaderValue::from_str(&id).unwrap_or_else(|_| HeaderValue::from_static("-"));
    response.headers_mut().insert(HEADER, value);
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == PROBLEM_JSON.as_bytes());
    if !is_problem {
        return Ok(response);
    }
    Ok(with_id_in_body(response, &id).await)
}

/// Adds `request_id` to a problem+json body (small: errors only).
async fn with_id_in_body<B: MessageBody + 'static>(
    response: ServiceResponse<EitherBody<B, BoxBody>>,
    id: &str,
) -> ServiceResponse<EitherBody<B, BoxBody>> {
    let (request, response) = response.into_parts();
    let (response, body) = response.into_parts();
    let bytes = match actix_web::body::to_bytes(body).await {
        Ok(bytes) => bytes,
        Err(_) => actix_web::web::Bytes::new(),
    };
    let rewritten = with_member(&bytes, id).map_or(bytes, Into::into);
    let response = response.set_body(BoxBody::new(rewritten));
    ServiceResponse::new(request, response).map_into_right_body()
}

/// A problem object with `"request_id": id` added last, its other members untouched; `None`
/// when the body is not a JSON object. The id is sane, so it needs no escaping.
fn with_member(body: &[u8], id: &str) -> Option<Vec<u8>> {
    serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(body).ok()?;
    let text = std::str::from_utf8(body).ok()?.trim_end();
    let inside = text.strip_suffix('}')?.trim_end();
    let separator = if inside.ends_with('{') { "" } else { "," };
    Some(format!("{inside}{separator}\"request_id\":\"{id}\"}}").into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sane_ids_are_short_and_made_of_safe_characters() {
        let sane_of = |s: &str| sane(&HeaderValue::from_str(s).unwrap());
        assert_eq!(sane_of("abc-123_X.y:z").as_deref(), Some("abc-123_X.y:z"));
        assert_eq!(sane_of(""), None);
        assert_eq!(sane_of("a b"), None);
        assert_eq!(sane_of("<script>"), None);
        assert_eq!(
            sane_of(&"a".repeat(MAX_LEN)).map(|s| s.len()),
            Some(MAX_LEN)
        );
        assert_eq!(sane_of(&"a".repeat(MAX_LEN + 1)), None);
        assert_eq!(
            sane(&HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap()),
            None
        );
    }

    #[test]
    fn the_id_joins_a_problem_object_last() {
        let added =
            |body: &str| with_member(body.as_bytes(), "r1").map(|b| String::from_utf8(b).unwrap());
        assert_eq!(
            added(r#"{"type":"t","status":422}"#).as_deref(),
            Some(r#"{"type":"t","status":422,"request_id":"r1"}"#)
        );
        assert_eq!(added("{}").as_deref(), Some(r#"{"request_id":"r1"}"#));
        assert_eq!(added("[1]"), None);
        assert_eq!(added("not json"), None);
    }

    #[test]
    fn made_ids_are_sane_and_differ() {
        let (a, b) = (made(), made());
        assert_ne!(a, b);
        assert!(sane(&HeaderValue::from_str(&a).unwrap()).is_some());
    }
}
