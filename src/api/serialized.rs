//! An answer written to JSON where it was made: the operations that run on the blocking pool
//! (`apply`, `replay`, and any request with a large body) serialise their answer there too, so
//! that a large one (a 5,000-move replay's plies: about a megabyte) is never written on an async
//! worker, where it would hold up every cheap request behind it.

use std::marker::PhantomData;

use actix_web::body::BoxBody;
use actix_web::http::header::ContentType;
use actix_web::{HttpRequest, HttpResponse, Responder};
use bytes::Bytes;
use serde::Serialize;

use super::problem::ApiError;

/// The JSON of an answer of type `T`, as the document describes it (named for the reader and
/// the handler's signature): written from the game's own types (`ApplyResponse<HerforState>`
/// for `ApplyResponse`).
pub struct Serialized<T>(Bytes, PhantomData<fn() -> T>);

impl<T> Serialized<T> {
    /// `answer` written to JSON now, on the calling thread.
    pub fn of(answer: &impl Serialize) -> Result<Self, ApiError> {
        serde_json::to_vec(answer)
            .map(|json| Serialized(json.into(), PhantomData))
            .map_err(|e| ApiError::internal(format!("the answer could not be written: {e}")))
    }
}

impl<T> Responder for Serialized<T> {
    type Body = BoxBody;

    fn respond_to(self, _: &HttpRequest) -> HttpResponse {
        HttpResponse::Ok()
            .content_type(ContentType::json())
            .body(self.0)
    }
}
