//! The two extractors every game endpoint starts with, in this order: the game id from the path
//! (an unknown game is refused before the body is read) and the body as JSON.
//!
//! Actix's `Json` extractor is not used: its errors are plain text, and the body's game-dependent
//! members can only be typed once the game is known. The body is read as bytes within
//! [`BODY_LIMIT`], decompressed as its `Content-Encoding` says, and every failure becomes an
//! [`ApiError`].
//!
//! While it arrives, and again whole before it is parsed, a body is walked
//! ([`json_scan`]): too deep, or holding too many objects or values, it is
//! refused as soon as it crosses the bound, before the rest is read or serde allocates; otherwise its
//! worst-case memory is taken from the server's decoding [`Budget`] (past it: 503 `overloaded`
//! with `Retry-After`) and held while the request runs. A member named twice in one object is
//! refused, naming it.

use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::sync::LazyLock;

use actix_web::dev::{Decompress, Payload};
use actix_web::http::header;
use actix_web::mime;
use actix_web::web::{Bytes, BytesMut};
use actix_web::{FromRequest, HttpRequest};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use super::json_scan;
use super::problem::{ApiError, ErrorCode, prefixed};
use crate::compute::budget::{Budget, Taken};
use crate::limits::{BODY_DEADLINE, MAX_MOVES};
use moot_games::GAME_IDS;

/// The largest body accepted, in bytes (1 MiB).
pub const BODY_LIMIT: usize = 1 << 20;

/// Bodies up to this many bytes are parsed, and their request run, on the async worker;
/// larger ones on the blocking pool.
pub const PARSE_ON_WORKER: usize = 16 * 1024;

/// The memory the server lets JSON bodies take at once while they are decoded and their
/// requests run, by each body's worst case (64 MiB: at least eight of the largest bodies) and,
/// for a list of moves, what playing them takes ([`BYTES_PER_MOVE`]).
pub const DECODING_BYTES: usize = 64 << 20;

/// What one move of a list costs while it is played and the answer written, plies included: a
/// 5,000-move Hirþ replay peaks at about 9 MB above the server's idle memory, 1.8 KB a move.
/// So a 5,000-move list takes 10 MiB of [`DECODING_BYTES`]: a few such replays run at once, the
/// next is refused (503) instead of a flood of them holding hundreds of megabytes.
pub const BYTES_PER_MOVE: usize = 2 << 10;

/// The server's budget for decoding bodies, shared by every worker: memory is the process's.
static DECODING: LazyLock<DecodingBudget> =
    LazyLock::new(|| DecodingBudget(Budget::new(DECODING_BYTES)));

/// The budget bodies are decoded under, when an app sets another than the process's (as
/// `app_data`; the tests use a small one).
#[derive(Clone, Debug)]
pub struct DecodingBudget(pub Budget);

/// The deadline for reading a body, when an app sets another than [`BODY_DEADLINE`] (as
/// `app_data`; the tests use a short one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyDeadline(pub std::time::Duration);

/// The id of a known game, taken from the `{game}` path segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameId(pub &'static str);

impl FromRequest for GameId {
    type Error = ApiError;
    type Future = Ready<Result<GameId, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let asked = req.match_info().get("game").unwrap_or_default();
        ready(
            GAME_IDS
                .iter()
                .find(|id| **id == asked)
                .map(|id| GameId(id))
                .ok_or_else(|| ApiError::unknown_game(asked)),
        )
    }
}

/// The request body parsed as JSON (an empty body reads as `{}`), and its share of the
/// decoding budget, held until the request is answered.
#[derive(Debug)]
pub struct JsonBody(pub serde_json::Value, pub BodyCost);

/// What a body costs: its length, and the memory it holds of the decoding budget.
#[derive(Debug, Default)]
pub struct BodyCost {
    bytes: usize,
    taken: Option<Taken>,
}

impl JsonBody {
    /// Whether the body is large enough that its request must run off the async workers.
    pub fn is_large(&self) -> bool {
        self.1.bytes > PARSE_ON_WORKER
    }

    /// Adds what playing the body's moves costs (its `moves`, or its `record`'s words, counted
    /// up to [`MAX_MOVES`]: more are refused by the operation) to the body's share of the
    /// decoding budget, or 503 `overloaded` when the budget has no room for them now.
    pub fn take_for_moves(&mut self) -> Result<(), ApiError> {
        let listed = self
            .0
            .get("moves")
            .and_then(serde_json::Value::as_array)
            .map_or(0, Vec::len);
        let recorded = self
            .0
            .get("record")
            .and_then(serde_json::Value::as_str)
            .map_or(0, |record| record.split_whitespace().count());
        let moves = (listed + recorded).min(MAX_MOVES);
        let Some(taken) = self.1.taken.as_mut() else {
            return Ok(());
        };
        if moves == 0 || taken.try_grow(moves * BYTES_PER_MOVE) {
            return Ok(());
        }
        Err(ApiError::new(
            ErrorCode::Overloaded,
            format!(
                "the server is playing as many moves as its memory budget ({} bytes) allows; retry shortly",
                taken.total()
            ),
        )
        .retry_after(1))
    }
}

impl FromRequest for JsonBody {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<JsonBody, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let payload = payload.take();
        Box::pin(async move {
            let declared = declared_media_type(&req)?;
            let budget = req
                .app_data::<DecodingBudget>()
                .unwrap_or(&DECODING)
                .0
                .clone();
            let mut reserved = reserve_for_large(&req, &budget)?;
            // A body shorter than its Content-Length, or trickled, must not hold the connection.
            let deadline = req
                .app_data::<BodyDeadline>()
                .map_or(BODY_DEADLINE, |d| d.0);
            let bytes = actix_web::rt::time::timeout(deadline, read(&req, payload, &mut reserved))
                .await
                .map_err(|_| {
                    ApiError::new(
                        ErrorCode::RequestTimeout,
                        format!("the body did not arrive within {} ms", deadline.as_millis()),
                    )
                })??;
            let bytes_len = bytes.len();
            crate::connection::body_read(&req, bytes_len);
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Ok(JsonBody(
                    serde_json::Value::Object(Default::default()),
                    BodyCost::default(),
                ));
            }
            if !declared {
                return Err(ApiError::new(
                    ErrorCode::UnsupportedMediaType,
                    "the body has no Content-Type; send it as application/json",
                ));
            }
            let parse = move || {
                let shape = json_scan::scan(&bytes).map_err(|refusal| {
                    ApiError::new(ErrorCode::PayloadTooLarge, refusal.to_string())
                })?;
                let worst_case = shape.worst_case_bytes(bytes_len);
                let taken = match reserved {
                    Some(mut taken) => {
                        taken.shrink_to(worst_case);
                        taken
                    }
                    None => admitted(&budget, worst_case)?,
                };
                let mut body: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
                    ApiError::new(
                        ErrorCode::MalformedJson,
                        format!("the body is not valid JSON: {e}"),
                    )
                })?;
                if let Some(path) = shape.duplicate {
                    return Err(ApiError::new(
                        ErrorCode::InvalidRequest,
                        format!("{path}: this member is named twice in its object; name each once"),
                    )
                    .with_field(path));
                }
                whole_numbers_as_integers(&mut body);
                Ok(JsonBody(
                    body,
                    BodyCost {
                        bytes: bytes_len,
                        taken: Some(taken),
                    },
                ))
            };
            if bytes_len <= PARSE_ON_WORKER {
                return parse();
            }
            // Parsing a large body takes milliseconds: not on an async worker.
            crate::blocking::off_workers(parse)
                .await
                .map_err(|e| ApiError::internal(format!("the body could not be parsed: {e}")))?
        })
    }
}

/// The body, whole and decompressed (as its `Content-Encoding` says), within [`BODY_LIMIT`]:
/// refused as soon as what has arrived crosses a bound of [`json_scan`], without reading the
/// rest (which the connection then does not drain: [`crate::connection`]). Such a refusal is
/// held by the [tarpit](crate::compute::tarpit), the body's share of the decoding budget
/// (`reserved`) given back first.
async fn read(
    req: &HttpRequest,
    payload: Payload,
    reserved: &mut Option<Taken>,
) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            ErrorCode::PayloadTooLarge,
            format!("the body is over the limit of {BODY_LIMIT} bytes"),
        )
    };
    if declared_length(req).is_some_and(|length| length > BODY_LIMIT as u64) {
        return Err(too_large());
    }
    let mut stream = Decompress::from_headers(payload, req.headers());
    let mut body = BytesMut::with_capacity(8 << 10);
    let mut arriving = json_scan::Arriving::default();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::new(
                ErrorCode::MalformedJson,
                format!("the body could not be read: {e}"),
            )
        })?;
        if body.len() + chunk.len() > BODY_LIMIT {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
        if arriving.feed(&chunk)
            && let Err(refusal) = json_scan::scan(&body)
        {
            // Held with the rest of the body unread (the stream kept: dropped, it would be
            // drained): no well-meaning client sends such a body.
            reserved.take();
            crate::compute::tarpit::hold().await;
            return Err(ApiError::new(
                ErrorCode::PayloadTooLarge,
                refusal.to_string(),
            ));
        }
    }
    Ok(body.freeze())
}

/// A large body's worst case for its declared length, taken before the body is read: a flood
/// of megabyte bodies is then refused (503) without reading them, instead of read whole and
/// refused after. `None` for a small body or one of unknown length (taken once it is scanned).
fn reserve_for_large(req: &HttpRequest, budget: &Budget) -> Result<Option<Taken>, ApiError> {
    declared_length(req)
        .and_then(|len| usize::try_from(len).ok())
        .filter(|len| (PARSE_ON_WORKER + 1..=BODY_LIMIT).contains(len))
        .map(|len| admitted(budget, json_scan::worst_case_bytes_of_any(len)))
        .transpose()
}

/// The body's length as the request's `Content-Length` declares it.
fn declared_length(req: &HttpRequest) -> Option<u64> {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.trim().parse::<u64>().ok())
}

/// `weight` bytes of worst-case memory taken from the decoding budget, or 503 `overloaded`.
fn admitted(budget: &Budget, weight: usize) -> Result<Taken, ApiError> {
    budget.try_take(weight).ok_or_else(|| {
        ApiError::new(
            ErrorCode::Overloaded,
            format!(
                "the server is decoding as many bodies as its memory budget ({} bytes) allows; retry shortly",
                budget.total()
            ),
        )
        .retry_after(1)
    })
}

/// JSON does not tell `7` from `7.0`, and JSON Schema calls both integers: a number with no
/// fractional part is read as the integer it is, so that `{"size": 7.0}` is `{"size": 7}`.
pub fn whole_numbers_as_integers(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(number) => {
            let whole = number
                .as_f64()
                .filter(|_| number.is_f64())
                .filter(|x| x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0);
            if let Some(x) = whole {
                *number = if x < 0.0 {
                    serde_json::Number::from(x as i64)
                } else {
                    serde_json::Number::from(x as u64)
                };
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        serde_json::Value::Object(members) => {
            members.values_mut().for_each(whole_numbers_as_integers)
        }
        _ => {}
    }
}

/// Whether the request says its body is JSON; a non-JSON Content-Type is refused with 415 before
/// the body is read.
fn declared_media_type(req: &HttpRequest) -> Result<bool, ApiError> {
    let Some(value) = req.headers().get(header::CONTENT_TYPE) else {
        return Ok(false);
    };
    let essence = value
        .to_str()
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim();
    let is_json = essence.parse::<mime::Mime>().is_ok_and(|m| {
        m.type_() == mime::APPLICATION
            && (m.subtype() == mime::JSON || m.suffix() == Some(mime::JSON))
    });
    if is_json {
        Ok(true)
    } else {
        Err(ApiError::new(
            ErrorCode::UnsupportedMediaType,
            format!("the body is sent as {essence:?}; send it as application/json"),
        ))
    }
}

/// Reads a JSON value into `T`, naming the member at fault: `member` is where the value sits in
/// the request (`""` for the whole body, `state`, `options`). Shape errors are `code`.
pub fn decode<T: DeserializeOwned>(
    value: &serde_json::Value,
    member: &str,
    code: ErrorCode,
) -> Result<T, ApiError> {
    // Objects only: a struct sent as a positional array is refused at every level.
    serde_path_to_error::deserialize(moot_games::json::Strict(value)).map_err(|e| {
        let path = e.path().to_string();
        let field = if member.is_empty() {
            path.trim_start_matches('.').to_owned()
        } else {
            prefixed(member, &path)
        };
        let detail = if field.is_empty() {
            e.inner().to_string()
        } else {
            format!("{field}: {}", e.inner())
        };
        let error = ApiError::new(code, detail);
        if field.is_empty() {
            error
        } else {
            error.with_field(field)
        }
    })
}
