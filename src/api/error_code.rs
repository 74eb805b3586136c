//! The stable codes of the API's problems: each code's name (what clients branch on), its HTTP
//! status and its title.

use actix_web::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

/// What went wrong, as a stable identifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: the body is not JSON.
    MalformedJson,
    /// 404: no route has this path.
    NotFound,
    /// 404: no game has this id.
    UnknownGame,
    /// 405: the route exists but not for this method.
    MethodNotAllowed,
    /// 403: a CORS preflight asked for an origin or a method this server does not allow.
    CorsRefused,
    /// 413: the body is over the size limit.
    PayloadTooLarge,
    /// 408: the body did not arrive within the server's deadline.
    RequestTimeout,
    /// 414: the request's target (path and query) is over the server's limit.
    UriTooLong,
    /// 415: the body is not sent as `application/json`.
    UnsupportedMediaType,
    /// 422: the JSON lacks a required member, has an unknown one, or a member has the wrong type.
    InvalidRequest,
    /// 422: the game's options are not acceptable.
    InvalidOptions,
    /// 422: the state is not a state of this game, or breaks one of its invariants (a rule it
    /// breaks is named in `rule`).
    InvalidState,
    /// 422: a move is not written in the game's notation.
    UnreadableMove,
    /// 422: a move is forbidden by a rule, named in `rule`.
    IllegalMove,
    /// 422: the game is over; no move can be played.
    GameOver,
    /// 422: a game record could not be read.
    InvalidRecord,
    /// 422: an `evaluate` budget over the server's cap (`field` names it, `detail` the cap).
    BudgetTooLarge,
    /// 422: more moves than one request may carry (`field`: `moves` or `record`).
    TooManyMoves,
    /// 429: this client sent more than its share (searches, tables created, wrong seat
    /// credentials); retry after `Retry-After` seconds.
    RateLimited,
    /// 500: a bug in the server; the request was not the cause.
    InternalError,
    /// 501: this server runs no evaluations (`--max-evaluations 0`); retrying will not help.
    EvaluateOff,
    /// 503: the server runs as many evaluations as it may; retry after `Retry-After` seconds.
    Overloaded,
    /// 404: no table has this id (or it was deleted after it finished).
    UnknownTable,
    /// 401: no seat credential was sent, or it is no seat's of this table.
    Unauthorized,
    /// 401: a `Moot-Site-Key` was sent that is no site's of this server.
    UnknownSiteKey,
    /// 403: the credential is the seat's that is not to act.
    NotYourTurn,
    /// 403: a claim on time by the seat whose move is awaited.
    NotWaiting,
    /// 409: the table has moved on since the ply the client saw.
    StalePly,
    /// 409: a claim on time before the deadline, or at a table with no clock.
    ClaimTooEarly,
    /// 409: a claim on time where no one has moved: a late first move aborts the table.
    NothingToClaim,
    /// 409: an abort once both seats have moved.
    BothMoved,
    /// 409: a rematch asked for while the table goes on.
    NotFinished,
    /// 409: the table's rematch was accepted; its table is named.
    AlreadyRematched,
    /// 409: a rematch declined where none is offered.
    NoRematchOffer,
    /// 409: a takeback asked for where the seat has nothing to take back.
    NothingToTakeBack,
    /// 409: a takeback answered where none is asked for.
    NoTakebackRequest,
    /// 410: the table is over; it takes no more moves, resignations or claims.
    TableFinished,
    /// 410: the awaited move's deadline passed at a table whose expired clock ends the game:
    /// the table was ended on time, and takes no more moves, resignations or claims.
    TimeExpired,
    /// 409: a vacation refused (the clock gives none, the seat's allowance is used up, it is
    /// on one already, or on none to end).
    VacationRefused,
    /// 501: this server keeps no tables.
    TablesOff,
    /// 503: the server keeps as many open tables as it may; retry later.
    TablesFull,
    /// 503: as many event streams are open as the server (or the table) allows; retry later.
    StreamsFull,
    /// 501: this server posts no webhooks.
    WebhooksOff,
    /// 503: the tables' database cannot be used now (down, full, read-only, lost); nothing
    /// was acknowledged; retry later.
    StorageUnavailable,
    /// 422: this `Idempotency-Key` was used for another request.
    IdempotencyKeyReused,
    /// 409: another request with this `Idempotency-Key` is being carried out; retry.
    IdempotencyKeyInUse,
    /// 401: no player credential was sent, or it is no player's of this server.
    UnknownPlayerKey,
    /// 409: another player holds the seat, or the player holds the table's other seat.
    SeatTaken,
    /// 400: a query parameter is unknown, repeated, or has a value it cannot take (`field`
    /// names it).
    InvalidQuery,
    /// 404: no challenge has this id.
    UnknownChallenge,
    /// 409: someone accepted the challenge first: its table is open.
    ChallengeTaken,
    /// 409: the challenge was declined, cancelled, or expired.
    ChallengeClosed,
    /// 409: the player keeps as many challenges open as a player may; cancel one.
    TooManyChallenges,
    /// 409: a player accepting its own challenge.
    OwnChallenge,
    /// 403: the challenge is an invitation to another player.
    NotInvited,
    /// 403: only a challenge's creator may cancel it.
    NotYourChallenge,
}

impl ErrorCode {
    /// Every code (a new code that is not listed here fails to compile in `listed`).
    pub const ALL: [ErrorCode; 56] = [
        ErrorCode::MalformedJson,
        ErrorCode::NotFound,
        ErrorCode::UnknownGame,
        ErrorCode::MethodNotAllowed,
        ErrorCode::CorsRefused,
        ErrorCode::PayloadTooLarge,
        ErrorCode::RequestTimeout,
        ErrorCode::UriTooLong,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::InvalidRequest,
        ErrorCode::InvalidOptions,
        ErrorCode::InvalidState,
        ErrorCode::UnreadableMove,
        ErrorCode::IllegalMove,
        ErrorCode::GameOver,
        ErrorCode::InvalidRecord,
        ErrorCode::BudgetTooLarge,
        ErrorCode::TooManyMoves,
        ErrorCode::RateLimited,
        ErrorCode::InternalError,
        ErrorCode::EvaluateOff,
        ErrorCode::Overloaded,
        ErrorCode::UnknownTable,
        ErrorCode::Unauthorized,
        ErrorCode::UnknownSiteKey,
        ErrorCode::NotYourTurn,
        ErrorCode::NotWaiting,
        ErrorCode::StalePly,
        ErrorCode::ClaimTooEarly,
        ErrorCode::NothingToClaim,
        ErrorCode::BothMoved,
        ErrorCode::NotFinished,
        ErrorCode::AlreadyRematched,
        ErrorCode::NoRematchOffer,
        ErrorCode::NothingToTakeBack,
        ErrorCode::NoTakebackRequest,
        ErrorCode::TableFinished,
        ErrorCode::TimeExpired,
        ErrorCode::VacationRefused,
        ErrorCode::TablesOff,
        ErrorCode::TablesFull,
        ErrorCode::StreamsFull,
        ErrorCode::WebhooksOff,
        ErrorCode::StorageUnavailable,
        ErrorCode::IdempotencyKeyReused,
        ErrorCode::IdempotencyKeyInUse,
        ErrorCode::UnknownPlayerKey,
        ErrorCode::SeatTaken,
        ErrorCode::InvalidQuery,
        ErrorCode::UnknownChallenge,
        ErrorCode::ChallengeTaken,
        ErrorCode::ChallengeClosed,
        ErrorCode::TooManyChallenges,
        ErrorCode::OwnChallenge,
        ErrorCode::NotInvited,
        ErrorCode::NotYourChallenge,
    ];

    /// The code as a client reads it in `code` and in the problem's `type` (`illegal_move`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MalformedJson => "malformed_json",
            ErrorCode::NotFound => "not_found",
            ErrorCode::UnknownGame => "unknown_game",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::CorsRefused => "cors_refused",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::RequestTimeout => "request_timeout",
            ErrorCode::UriTooLong => "uri_too_long",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::InvalidOptions => "invalid_options",
            ErrorCode::InvalidState => "invalid_state",
            ErrorCode::UnreadableMove => "unreadable_move",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::GameOver => "game_over",
            ErrorCode::InvalidRecord => "invalid_record",
            ErrorCode::BudgetTooLarge => "budget_too_large",
            ErrorCode::TooManyMoves => "too_many_moves",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::InternalError => "internal_error",
            ErrorCode::EvaluateOff => "evaluate_off",
            ErrorCode::Overloaded => "overloaded",
            ErrorCode::UnknownTable => "unknown_table",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::UnknownSiteKey => "unknown_site_key",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::NotWaiting => "not_waiting",
            ErrorCode::StalePly => "stale_ply",
            ErrorCode::ClaimTooEarly => "claim_too_early",
            ErrorCode::NothingToClaim => "nothing_to_claim",
            ErrorCode::BothMoved => "both_moved",
            ErrorCode::NotFinished => "not_finished",
            ErrorCode::AlreadyRematched => "already_rematched",
            ErrorCode::NoRematchOffer => "no_rematch_offer",
            ErrorCode::NothingToTakeBack => "nothing_to_take_back",
            ErrorCode::NoTakebackRequest => "no_takeback_request",
            ErrorCode::TableFinished => "table_finished",
            ErrorCode::TimeExpired => "time_expired",
            ErrorCode::VacationRefused => "vacation_refused",
            ErrorCode::TablesOff => "tables_off",
            ErrorCode::TablesFull => "tables_full",
            ErrorCode::StreamsFull => "streams_full",
            ErrorCode::WebhooksOff => "webhooks_off",
            ErrorCode::StorageUnavailable => "storage_unavailable",
            ErrorCode::IdempotencyKeyReused => "idempotency_key_reused",
            ErrorCode::IdempotencyKeyInUse => "idempotency_key_in_use",
            ErrorCode::UnknownPlayerKey => "unknown_player_key",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::InvalidQuery => "invalid_query",
            ErrorCode::UnknownChallenge => "unknown_challenge",
            ErrorCode::ChallengeTaken => "challenge_taken",
            ErrorCode::ChallengeClosed => "challenge_closed",
            ErrorCode::TooManyChallenges => "too_many_challenges",
            ErrorCode::OwnChallenge => "own_challenge",
            ErrorCode::NotInvited => "not_invited",
            ErrorCode::NotYourChallenge => "not_your_challenge",
        }
    }

    /// The HTTP status every problem of this code is answered with.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::MalformedJson | ErrorCode::InvalidQuery => StatusCode::BAD_REQUEST,
            ErrorCode::NotFound | ErrorCode::UnknownGame => StatusCode::NOT_FOUND,
            ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorCode::CorsRefused => StatusCode::FORBIDDEN,
            ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            ErrorCode::UriTooLong => StatusCode::URI_TOO_LONG,
            ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::InvalidRequest
            | ErrorCode::InvalidOptions
            | ErrorCode::InvalidState
            | ErrorCode::UnreadableMove
            | ErrorCode::IllegalMove
            | ErrorCode::GameOver
            | ErrorCode::InvalidRecord
            | ErrorCode::BudgetTooLarge
            | ErrorCode::TooManyMoves => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::EvaluateOff => StatusCode::NOT_IMPLEMENTED,
            ErrorCode::Overloaded
            | ErrorCode::TablesFull
            | ErrorCode::StreamsFull
            | ErrorCode::StorageUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::UnknownTable | ErrorCode::UnknownChallenge => StatusCode::NOT_FOUND,
            ErrorCode::ChallengeTaken
            | ErrorCode::ChallengeClosed
            | ErrorCode::TooManyChallenges
            | ErrorCode::OwnChallenge => StatusCode::CONFLICT,
            ErrorCode::NotInvited | ErrorCode::NotYourChallenge => StatusCode::FORBIDDEN,
            ErrorCode::Unauthorized | ErrorCode::UnknownSiteKey | ErrorCode::UnknownPlayerKey => {
                StatusCode::UNAUTHORIZED
            }
            ErrorCode::NotYourTurn => StatusCode::FORBIDDEN,
            ErrorCode::NotWaiting => StatusCode::FORBIDDEN,
            ErrorCode::StalePly => StatusCode::CONFLICT,
            ErrorCode::ClaimTooEarly | ErrorCode::NothingToClaim | ErrorCode::BothMoved => {
                StatusCode::CONFLICT
            }
            ErrorCode::NotFinished | ErrorCode::AlreadyRematched | ErrorCode::NoRematchOffer => {
                StatusCode::CONFLICT
            }
            ErrorCode::NothingToTakeBack | ErrorCode::NoTakebackRequest => StatusCode::CONFLICT,
            ErrorCode::IdempotencyKeyInUse | ErrorCode::SeatTaken => StatusCode::CONFLICT,
            ErrorCode::IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::TableFinished | ErrorCode::TimeExpired => StatusCode::GONE,
            ErrorCode::VacationRefused => StatusCode::CONFLICT,
            ErrorCode::TablesOff | ErrorCode::WebhooksOff => StatusCode::NOT_IMPLEMENTED,
        }
    }

    /// The RFC 9457 `title`: a short summary that is the same for every occurrence.
    pub fn title(self) -> &'static str {
        match self {
            ErrorCode::MalformedJson => "The body is not valid JSON",
            ErrorCode::NotFound => "No such resource",
            ErrorCode::UnknownGame => "No such game",
            ErrorCode::MethodNotAllowed => "Method not allowed",
            ErrorCode::CorsRefused => "The cross-origin request is not allowed",
            ErrorCode::PayloadTooLarge => "The body is too large",
            ErrorCode::RequestTimeout => "The body took too long to arrive",
            ErrorCode::UriTooLong => "The request target is too long",
            ErrorCode::UnsupportedMediaType => "The body must be JSON",
            ErrorCode::InvalidRequest => "The request does not have the expected shape",
            ErrorCode::InvalidOptions => "Invalid options",
            ErrorCode::InvalidState => "Invalid game state",
            ErrorCode::UnreadableMove => "Unreadable move",
            ErrorCode::IllegalMove => "Illegal move",
            ErrorCode::GameOver => "The game is over",
            ErrorCode::InvalidRecord => "Invalid game record",
            ErrorCode::BudgetTooLarge => "The search budget is over the server's cap",
            ErrorCode::TooManyMoves => "Too many moves for one request",
            ErrorCode::RateLimited => "Too many requests from this client",
            ErrorCode::InternalError => "Internal error",
            ErrorCode::EvaluateOff => "The computer player is off on this server",
            ErrorCode::Overloaded => "The server is busy",
            ErrorCode::UnknownTable => "No such table",
            ErrorCode::Unauthorized => "A seat credential is required",
            ErrorCode::UnknownSiteKey => "Unknown site key",
            ErrorCode::NotYourTurn => "Not your turn",
            ErrorCode::NotWaiting => "Only the waiting seat may claim",
            ErrorCode::StalePly => "The table has moved on",
            ErrorCode::ClaimTooEarly => "The deadline has not passed",
            ErrorCode::NothingToClaim => "No one has moved: nothing to claim",
            ErrorCode::BothMoved => "Both seats have moved",
            ErrorCode::NotFinished => "The table goes on",
            ErrorCode::AlreadyRematched => "The rematch was accepted",
            ErrorCode::NoRematchOffer => "No rematch is offered",
            ErrorCode::NothingToTakeBack => "Nothing to take back",
            ErrorCode::NoTakebackRequest => "No takeback is asked for",
            ErrorCode::TableFinished => "The table is over",
            ErrorCode::TimeExpired => "The clock ran out: the game ended on time",
            ErrorCode::VacationRefused => "No vacation can start or end now",
            ErrorCode::TablesOff => "This server keeps no tables",
            ErrorCode::TablesFull => "Too many open tables",
            ErrorCode::StreamsFull => "Too many open event streams",
            ErrorCode::WebhooksOff => "This server posts no webhooks",
            ErrorCode::StorageUnavailable => "The tables' database is unavailable",
            ErrorCode::IdempotencyKeyReused => "This Idempotency-Key was used for another request",
            ErrorCode::IdempotencyKeyInUse => "A request with this Idempotency-Key is under way",
            ErrorCode::UnknownPlayerKey => "A player credential is required",
            ErrorCode::SeatTaken => "The seat is another player's",
            ErrorCode::InvalidQuery => "A query parameter is not acceptable",
            ErrorCode::UnknownChallenge => "No such challenge",
            ErrorCode::ChallengeTaken => "The challenge was accepted already",
            ErrorCode::ChallengeClosed => "The challenge is closed",
            ErrorCode::TooManyChallenges => "Too many open challenges",
            ErrorCode::OwnChallenge => "A player cannot accept its own challenge",
            ErrorCode::NotInvited => "The challenge invites another player",
            ErrorCode::NotYourChallenge => "Only the challenge's creator may cancel it",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_code_once() {
        // Exhaustive: a new variant must be added here, and then to `ALL`.
        fn listed(code: ErrorCode) -> bool {
            match code {
                ErrorCode::MalformedJson
                | ErrorCode::NotFound
                | ErrorCode::UnknownGame
                | ErrorCode::MethodNotAllowed
                | ErrorCode::CorsRefused
                | ErrorCode::PayloadTooLarge
                | ErrorCode::RequestTimeout
                | ErrorCode::UriTooLong
                | ErrorCode::UnsupportedMediaType
                | ErrorCode::InvalidRequest
                | ErrorCode::InvalidOptions
                | ErrorCode::InvalidState
                | ErrorCode::UnreadableMove
                | ErrorCode::IllegalMove
                | ErrorCode::GameOver
                | ErrorCode::InvalidRecord
                | ErrorCode::BudgetTooLarge
                | ErrorCode::TooManyMoves
                | ErrorCode::RateLimited
                | ErrorCode::InternalError
                | ErrorCode::EvaluateOff
                | ErrorCode::Overloaded
                | ErrorCode::UnknownTable
                | ErrorCode::Unauthorized
                | ErrorCode::UnknownSiteKey
                | ErrorCode::NotYourTurn
                | ErrorCode::NotWaiting
                | ErrorCode::StalePly
                | ErrorCode::ClaimTooEarly
                | ErrorCode::NothingToClaim
                | ErrorCode::BothMoved
                | ErrorCode::NotFinished
                | ErrorCode::AlreadyRematched
                | ErrorCode::NoRematchOffer
                | ErrorCode::NothingToTakeBack
                | ErrorCode::NoTakebackRequest
                | ErrorCode::TableFinished
                | ErrorCode::TimeExpired
                | ErrorCode::VacationRefused
                | ErrorCode::TablesOff
                | ErrorCode::StreamsFull
                | ErrorCode::WebhooksOff
                | ErrorCode::StorageUnavailable
                | ErrorCode::IdempotencyKeyReused
                | ErrorCode::IdempotencyKeyInUse
                | ErrorCode::UnknownPlayerKey
                | ErrorCode::SeatTaken
                | ErrorCode::InvalidQuery
                | ErrorCode::UnknownChallenge
                | ErrorCode::ChallengeTaken
                | ErrorCode::ChallengeClosed
                | ErrorCode::TooManyChallenges
                | ErrorCode::OwnChallenge
                | ErrorCode::NotInvited
                | ErrorCode::NotYourChallenge
                | ErrorCode::TablesFull => ErrorCode::ALL.contains(&code),
            }
        }
        assert!(ErrorCode::ALL.into_iter().all(listed));
        let names: std::collections::BTreeSet<_> =
            ErrorCode::ALL.iter().map(|code| code.as_str()).collect();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }

    #[test]
    fn every_code_serialises_as_its_stable_name() {
        for code in [
            ErrorCode::MalformedJson,
            ErrorCode::IllegalMove,
            ErrorCode::InvalidRecord,
        ] {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, code.as_str());
        }
    }
}
