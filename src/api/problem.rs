//! Errors as `application/problem+json` (RFC 9457).
//!
//! Every error the API returns is an [`ApiError`]: an HTTP status, a stable machine-readable
//! [`ErrorCode`], a human `detail` that says what was wrong and where, and the optional members
//! that locate the fault (`field`, `rule`, `move`, `index`, `line`). Clients branch on `code`,
//! never on `title` or `detail`; the codes, with their statuses and titles, are
//! [`super::error_code`]'s. A panic in engine code is answered as a problem too
//! ([`problem_on_panic`]).

use std::panic::{AssertUnwindSafe, catch_unwind};

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

pub use super::error_code::ErrorCode;
use crate::limits::{DETAIL_CHARS, EXCERPT_CHARS, MAX_MOVES, excerpt, readable};
use moot_games::{InvalidOptions, InvalidState, MoveError, RecordError};

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An RFC 9457 problem details object, with Moot's extension members.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:moot:problem:illegal_move",
    "title": "Illegal move",
    "status": 422,
    "detail": "moves[1]: e5: illegal move (F3): e5 is occupied",
    "code": "illegal_move",
    "field": "moves[1]",
    "rule": "F3",
    "move": "e5",
    "index": 1,
    "rule_url": "/rules/herfor#F3",
    "request_id": "5f0c6e2a9b1d4c83"
}))]
pub struct Problem {
    /// A URI naming the problem type: `urn:moot:problem:` followed by the `code`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// A short summary of the problem type.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What was wrong in this request, and where.
    pub detail: String,
    /// The stable machine-readable error code.
    pub code: ErrorCode,
    /// The request member at fault, as a path (`state.black[1]`, `moves[2]`, `options.size`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The rule that forbids the move, or that the state breaks (`F3`, `T8`, `H8`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The move at fault, as sent.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// The 0-based position of the move at fault in the list of moves sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The 1-based line of the record at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Where the `rule` is written: its anchor on the game's rules page (`/rules/herfor#F3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub rule_url: Option<String>,
    /// For `streams_full`: the cap the stream met (the detail names the flag that raises it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<StreamCap>,
    /// The answer's `x-request-id`, to quote when reporting a problem (on every problem the
    /// server sends).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// Seconds to wait before retrying (`overloaded`, `rate_limited`): sent as `Retry-After`.
    #[serde(skip)]
    pub retry_after: Option<u64>,
}

/// The cap an event stream met, for a `streams_full` refusal: a client waits for its own
/// streams to close (`address`, `site`, `player`, `seat`), or for everyone's (`table`,
/// `server`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StreamCap {
    /// This address's share (an IPv6 address's /64): its own streams fill it.
    Address,
    /// The share of the site whose `Moot-Site-Key` was sent.
    Site,
    /// The player's share of its feed's streams (its tabs and devices).
    Player,
    /// The seat's share of its table's streams.
    Seat,
    /// The table's watchers (its seats still may follow it).
    Table,
    /// The server's: every stream of this kind it keeps is open.
    Server,
}

/// The anchor of a rule id on its game's rules page: `F3` → `/rules/herfor#F3`. Each game's
/// rule ids have their own letter.
pub fn rule_url(rule: &str) -> Option<String> {
    let game = moot_games::game_of_rule(rule)?;
    let number = &rule[1..];
    (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{}#{rule}", crate::paths::rules(game)))
}

/// The last rule id a reason cites in parentheses: `… in a row (F4)` → `F4`.
fn rule_cited(reason: &str) -> Option<&str> {
    reason
        .rmatch_indices('(')
        .filter_map(|(start, _)| {
            let inside = &reason[start + 1..];
            let end = inside.find(')')?;
            Some(&inside[..end])
        })
        .find(|rule| rule_url(rule).is_some())
}

/// An error response of the API; renders as a [`Problem`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{} ({}): {}", .0.title, .0.code.as_str(), .0.detail)]
pub struct ApiError(pub Box<Problem>);

impl ApiError {
    /// A problem of `code`, its status, title and type filled in; `detail` is cut to an excerpt
    /// of [`DETAIL_CHARS`], its control and hidden characters escaped (it may echo a client).
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        ApiError(Box::new(Problem {
            problem_type: format!("urn:moot:problem:{}", code.as_str()),
            title: code.title().to_owned(),
            status: code.status().as_u16(),
            detail: excerpt(&readable(&detail.into()), DETAIL_CHARS),
            code,
            field: None,
            rule: None,
            mv: None,
            index: None,
            line: None,
            rule_url: None,
            cap: None,
            request_id: None,
            retry_after: None,
        }))
    }

    /// The problem's JSON as sent, with the answer's request id when given (its last member).
    pub fn body(&self, request_id: Option<&str>) -> String {
        let problem = match request_id {
            Some(id) => &Problem {
                request_id: Some(id.to_owned()),
                ..(*self.0).clone()
            },
            None => &*self.0,
        };
        serde_json::to_string(problem).unwrap_or_else(|_| String::from("{}"))
    }

    /// The problem's stable code, as the access log records a client error.
    pub fn code(&self) -> ErrorCode {
        self.0.code
    }

    /// Names the member at fault; a name sent by the client is cut to an excerpt.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.0.field = Some(excerpt(&field.into(), EXCERPT_CHARS));
        self
    }

    /// Names the cap a stream met (`streams_full`).
    pub fn with_cap(mut self, cap: StreamCap) -> Self {
        self.0.cap = Some(cap);
        self
    }

    /// Asks the client to wait `seconds` before retrying (`Retry-After`).
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.0.retry_after = Some(seconds.max(1));
        self
    }

    /// More than [`MAX_MOVES`] moves in `field` (`moves`, `record`): `count` is what was sent.
    pub fn too_many_moves(field: &str, count: &str) -> Self {
        ApiError::new(
            ErrorCode::TooManyMoves,
            format!("{field}: {count}; one request carries at most {MAX_MOVES} moves"),
        )
        .with_field(field)
    }

    /// Locates a move error in a list of moves: sets `index` and `field` (`moves[3]`), and
    /// prefixes the detail with the field.
    pub fn at_move(mut self, list: &str, index: usize) -> Self {
        let field = format!("{list}[{index}]");
        self.0.detail = excerpt(&format!("{field}: {}", self.0.detail), DETAIL_CHARS);
        self.0.index = Some(index);
        self.0.field = Some(field);
        self
    }

    /// No game has the id `id` (404); the detail lists the ids there are.
    pub fn unknown_game(id: &str) -> Self {
        let known = moot_games::GAME_IDS.join(", ");
        ApiError::new(
            ErrorCode::UnknownGame,
            format!("no game has the id {id:?}; the games are: {known}"),
        )
    }

    /// Options the engine refuses; `field` names the option under `options` (`options.size`).
    pub fn invalid_options(e: InvalidOptions) -> Self {
        let field = prefixed("options", &e.field);
        ApiError::new(ErrorCode::InvalidOptions, format!("{field}: {}", e.reason)).with_field(field)
    }

    /// A state that breaks an invariant; `member` is where the state sits in the request. When
    /// the reason cites the rule it breaks (`… (F4)`, as the engines write them), the problem
    /// names it in `rule` and `rule_url`, as an illegal move's does.
    pub fn invalid_state(member: &str, e: InvalidState) -> Self {
        let field = prefixed(member, &e.path);
        let mut error = ApiError::new(ErrorCode::InvalidState, format!("{field}: {}", e.reason))
            .with_field(field);
        if let Some(rule) = rule_cited(&e.reason) {
            error.0.rule_url = rule_url(rule);
            error.0.rule = Some(rule.to_owned());
        }
        error
    }

    /// A move refused by the engine; `text` is the move as sent, echoed as an excerpt.
    pub fn from_move_error(text: &str, e: MoveError) -> Self {
        let text = excerpt(text, EXCERPT_CHARS);
        let detail = format!("{text}: {e}");
        let mut error = match e {
            MoveError::Unreadable { .. } => ApiError::new(ErrorCode::UnreadableMove, detail),
            MoveError::Illegal { rule, .. } => {
                let mut error = ApiError::new(ErrorCode::IllegalMove, detail);
                error.0.rule = Some(rule.to_owned());
                error.0.rule_url = rule_url(rule);
                error
            }
            MoveError::GameOver => ApiError::new(ErrorCode::GameOver, detail),
        };
        error.0.mv = Some(text);
        error
    }

    /// A record the game's reader refuses; `field` is `record` and `line` the line at fault.
    pub fn invalid_record(e: RecordError) -> Self {
        let mut error = ApiError::new(ErrorCode::InvalidRecord, e.to_string()).with_field("record");
        error.0.line = Some(e.line);
        error
    }

    /// A bug in the server (500): the request was not the cause.
    pub fn internal(detail: impl Into<String>) -> Self {
        ApiError::new(ErrorCode::InternalError, detail)
    }
}

/// Joins a request member and a path inside it: `state` + `black[1]` → `state.black[1]`.
pub fn prefixed(member: &str, path: &str) -> String {
    match path {
        "" | "." => member.to_owned(),
        _ if path.starts_with('[') => format!("{member}{path}"),
        _ => format!("{member}.{path}"),
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.0.code.status()
    }

    /// The problem without its request id, which the request-id middleware adds
    /// ([`ApiError::body`]): an error is made where the request is not at hand.
    fn error_response(&self) -> HttpResponse {
        let body = self.body(None);
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)));
        if let Some(seconds) = self.0.retry_after {
            response.insert_header((header::RETRY_AFTER, HeaderValue::from(seconds)));
        }
        if matches!(
            self.0.code,
            ErrorCode::Unauthorized | ErrorCode::UnknownPlayerKey
        ) {
            // RFC 9110: a 401 names the scheme it takes.
            response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
        }
        if self.0.code == ErrorCode::RequestTimeout {
            // The rest of the body may still come: the connection cannot be reused.
            response.force_close();
        }
        response.body(body)
    }
}

impl crate::extract::TablesOff for ApiError {
    fn tables_off() -> Self {
        ApiError::new(
            ErrorCode::TablesOff,
            "this server was started without tables",
        )
    }
}

/// Runs engine code so that a panic (a bug) becomes a 500 problem, never a dropped connection.
pub fn problem_on_panic<T>(work: impl FnOnce() -> Result<T, ApiError>) -> Result<T, ApiError> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_owned());
        tracing::error!(%message, "engine panicked");
        Err(ApiError::internal(format!(
            "the engine failed on this request: {message}"
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_id_is_a_problems_last_member() {
        let error = ApiError::new(ErrorCode::NotFound, "nothing here").with_field("x");
        let text = error.body(Some("r1"));
        assert!(text.ends_with(r#","request_id":"r1"}"#), "{text}");
        let body: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(
            (&body["field"], &body["code"]),
            (&"x".into(), &"not_found".into())
        );
        assert!(!error.body(None).contains("request_id"));
    }

    #[test]
    fn prefixed_joins_member_and_path_like_serde_path_to_error() {
        assert_eq!(prefixed("state", "black[1]"), "state.black[1]");
        assert_eq!(prefixed("state", "[0]"), "state[0]");
        assert_eq!(prefixed("state", "."), "state");
        assert_eq!(prefixed("options", ""), "options");
    }

    #[test]
    fn a_reason_names_the_last_rule_it_cites() {
        assert_eq!(
            rule_cited("the game is over exactly when both players have passed in a row (F4)"),
            Some("F4")
        );
        assert_eq!(
            rule_cited("a crew of 4 (H2) where at most 3 fit (H3)"),
            Some("H3")
        );
        assert_eq!(rule_cited("\"x\" is not a point name (such as e5)"), None);
        assert_eq!(rule_cited("no rule here"), None);
    }

    #[test]
    fn rule_urls_point_to_the_games_rules_pages() {
        assert_eq!(rule_url("F3").as_deref(), Some("/rules/herfor#F3"));
        assert_eq!(rule_url("T12").as_deref(), Some("/rules/tara#T12"));
        assert_eq!(rule_url("H8").as_deref(), Some("/rules/hirth#H8"));
        assert_eq!(rule_url("X1"), None);
        assert_eq!(rule_url("F"), None);
        assert_eq!(rule_url("F3a"), None);
    }
}
