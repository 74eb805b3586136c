//! `x-request-id`: every answer carries one, taken from the request when it is sane (1 to 64
//! characters among letters, digits and `-_.:`), else made here. Problem bodies repeat it as
//! `request_id`, so a user can quote the id of the answer in front of them: a problem's body is
//! written again from the answer's typed error ([`ApiError`]), with the id.

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage};

use crate::api::ApiError;

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
/// Every problem is answered with its [`ApiError`] as the response's error
/// (`HttpResponse::from_error`, or a handler's `Err`), whence its body is written again.
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
    let mut response = next.call(request).await?;
    let value = HeaderValue::from_str(&id).unwrap_or_else(|_| HeaderValue::from_static("-"));
    response.headers_mut().insert(HEADER, value);
    let problem = response
        .response()
        .error()
        .and_then(|error| error.as_error::<ApiError>())
        .map(|problem| problem.body(Some(&id)));
    Ok(match problem {
        Some(body) => response.map_body(|_, _| EitherBody::right(BoxBody::new(body))),
        None => response.map_into_left_body(),
    })
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
    fn made_ids_are_sane_and_differ() {
        let (a, b) = (made(), made());
        assert_ne!(a, b);
        assert!(sane(&HeaderValue::from_str(&a).unwrap()).is_some());
    }
}
