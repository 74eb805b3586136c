//! Answers compressed as the client accepts them (brotli, gzip, deflate, zstd), with actix's
//! own encoders and negotiation, but only where compression pays: an answer of fewer than
//! [`SMALL_ANSWER_BYTES`] goes out as it is. With its headers it fits one TCP segment either
//! way, while each compressed answer costs a fresh encoder (actix's brotli allocates a 4 MB
//! window for it): compressing a table's answer after a move took a third of the server's CPU
//! for that move. Images other than SVG, and answers already encoded (event streams say
//! `identity`), are never compressed. Up to [`BROTLI_FROM_BYTES`] gzip is preferred where the
//! client takes it: on a few kilobytes brotli saves little more, and its encoder's setup costs
//! more than the whole of gzip's work.

use actix_http::encoding::Encoder;
use actix_web::body::{BodySize, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, AcceptEncoding, ContentEncoding, Encoding, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage, HttpResponse};

/// Below this many bytes an answer is sent uncompressed: with its headers (about 300 bytes) it
/// fits one TCP segment (1,460 bytes) whether compressed or not.
pub const SMALL_ANSWER_BYTES: u64 = 1024;

/// From this many bytes brotli is used where the client prefers it; below, gzip or deflate
/// where the client takes them too.
pub const BROTLI_FROM_BYTES: u64 = 64 * 1024;

/// The encodings offered, as actix's `Compress` offers them (identity first: it is always
/// acceptable unless refused).
const OFFERED: [Encoding; 5] = [
    Encoding::identity(),
    Encoding::brotli(),
    Encoding::gzip(),
    Encoding::deflate(),
    Encoding::zstd(),
];

/// The encodings whose encoders are cheap to set up, for answers under [`BROTLI_FROM_BYTES`].
const LIGHT: [Encoding; 2] = [Encoding::gzip(), Encoding::deflate()];

/// Negotiates the answer's encoding from `Accept-Encoding` (406 when the client refuses every
/// encoding offered, identity included) and compresses the answer if it is worth it.
pub async fn middleware(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<Encoder<impl MessageBody>>>, Error> {
    let accepted = request.get_header::<AcceptEncoding>();
    let light = accepted
        .as_ref()
        .and_then(|accepted| match accepted.negotiate(LIGHT.iter()) {
            // (Identity, acceptable unless refused, is not a lighter compression.)
            Some(Encoding::Known(
                encoding @ (ContentEncoding::Gzip | ContentEncoding::Deflate),
            )) => Some(encoding),
            _ => None,
        });
    let encoding = match accepted {
        // No header (or one that does not read): identity, as actix's `Compress` does.
        None => ContentEncoding::Identity,
        Some(accepted) => match accepted.negotiate(OFFERED.iter()) {
            Some(Encoding::Known(encoding)) => encoding,
            Some(Encoding::Unknown(_)) => ContentEncoding::Identity,
            None => {
                let offered = "br, gzip, deflate, zstd";
                let mut refused = HttpResponse::with_body(StatusCode::NOT_ACCEPTABLE, offered);
                refused
                    .headers_mut()
                    .insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
                return Ok(request
                    .into_response(refused.map_into_boxed_body())
                    .map_into_right_body());
            }
        },
    };
    let response = next.call(request).await?;
    Ok(response
        .map_body(move |head, body| {
            let size = body.size();
            let encoding = if !worth_compressing(head.headers.get(header::CONTENT_TYPE), size) {
                ContentEncoding::Identity
            } else {
                match (encoding, light) {
                    (ContentEncoding::Brotli, Some(light)) if below_brotli(size) => light,
                    _ => encoding,
                }
            };
            Encoder::response(encoding, head, body)
        })
        .map_into_left_body())
}

/// Whether an answer of this type and size is compressed: not when small, not images (SVG
/// aside) nor video, whose formats are compressed already.
fn worth_compressing(content_type: Option<&HeaderValue>, size: BodySize) -> bool {
    if matches!(size, BodySize::Sized(bytes) if bytes < SMALL_ANSWER_BYTES) {
        return false;
    }
    let kind = content_type
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if kind.starts_with("image/") {
        kind.starts_with("image/svg+xml")
    } else {
        !kind.starts_with("video/")
    }
}

/// Whether an answer is known to be smaller than [`BROTLI_FROM_BYTES`].
fn below_brotli(size: BodySize) -> bool {
    matches!(size, BodySize::Sized(bytes) if bytes < BROTLI_FROM_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_answers_and_images_are_sent_as_they_are() {
        let json = HeaderValue::from_static("application/json");
        let png = HeaderValue::from_static("image/png");
        let svg = HeaderValue::from_static("image/svg+xml");
        assert!(!worth_compressing(Some(&json), BodySize::Sized(600)));
        assert!(worth_compressing(
            Some(&json),
            BodySize::Sized(SMALL_ANSWER_BYTES)
        ));
        assert!(worth_compressing(Some(&json), BodySize::Stream));
        assert!(!worth_compressing(Some(&png), BodySize::Sized(50_000)));
        assert!(worth_compressing(Some(&svg), BodySize::Sized(50_000)));
        assert!(worth_compressing(None, BodySize::Sized(50_000)));
    }

    #[test]
    fn brotli_waits_for_answers_of_64_kib() {
        assert!(below_brotli(BodySize::Sized(BROTLI_FROM_BYTES - 1)));
        assert!(!below_brotli(BodySize::Sized(BROTLI_FROM_BYTES)));
        assert!(!below_brotli(BodySize::Stream));
    }
}
