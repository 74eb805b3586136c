//! The tables' request and answer bodies, as the API reads and writes them, and how each is
//! made from what [`crate::tables`] keeps (`From` impls). Their examples in the document are
//! [`super::examples`]'s.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

#[allow(unused_imports)] // named by the `value_type` attributes below
use crate::api::schemas::{GameOptions, GameState};
use crate::tables::{self, EndedBy, Standing};
use moot_games::{Seat, Status};

pub use super::clock_bodies::{ClockExpiry, ClockKind, TableClock};

/// A table's URL in the API.
pub fn table_url(id: &str) -> String {
    crate::paths::table_api(id)
}

/// A time as RFC 3339 (UTC).
pub fn rfc3339(millis: tables::Millis) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}

/// `POST /api/v1/tables`: a new table.
#[derive(Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTableRequest {
    /// The game's id: `hirth`, `tara` or `herfor`.
    #[schema(example = "herfor")]
    pub game: String,
    /// The game's options (its defaults for those left out).
    #[schema(value_type = Option<GameOptions>)]
    pub options: Option<Value>,
    /// Days each move may take; past its deadline the waiting seat may claim a win. Shorthand
    /// for `clock: {"kind": "per_move", "hours": 24 × days, "on_expiry": "claim"}`; not with
    /// `clock`. No clock when both are left out.
    #[schema(minimum = 1, maximum = 60)]
    pub days_per_move: Option<u32>,
    /// The table's clock (not with `days_per_move`).
    pub clock: Option<TableClock>,
    /// The players' names, the first seat's first (at most 40 characters each; no control
    /// characters, bidirectional controls nor zero-width characters).
    pub names: Option<Vec<String>>,
    /// Player credentials (from `POST /api/v1/players`), the first seat's first: the player
    /// of each one given takes that seat (`null` leaves a seat to its credential alone). A seat
    /// left unnamed in `names` is named after its player.
    #[serde(default, deserialize_with = "player_credentials")]
    pub player_credentials: Option<Vec<Option<String>>>,
    /// Where to post each of the table's events, signed with the secret.
    pub webhook: Option<WebhookRequest>,
}

/// `player_credentials` as sent, refused without echoing what was sent (a credential sent where
/// the list belongs would otherwise come back in the problem's words).
fn player_credentials<'de, D>(deserializer: D) -> Result<Option<Vec<Option<String>>>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let value = Option::<Value>::deserialize(deserializer)?;
    let refused = || {
        serde::de::Error::custom(
            "expected a list of player credentials (strings) or nulls, one per seat",
        )
    };
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .into_iter()
            .map(|item| match item {
                Value::Null => Ok(None),
                Value::String(credential) => Ok(Some(credential)),
                _ => Err(refused()),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(refused()),
    }
}

impl std::fmt::Debug for CreateTableRequest {
    /// Without the player credentials: a debug line never holds a secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateTableRequest")
            .field("game", &self.game)
            .field("options", &self.options)
            .field("days_per_move", &self.days_per_move)
            .field("clock", &self.clock)
            .field("names", &self.names)
            .field("webhook", &self.webhook)
            .finish_non_exhaustive()
    }
}

/// A table's webhook: each event (move, resignation, win on time, closing as abandoned) is
/// posted to `url` as the event stream's JSON, with `Moot-Signature: t=<unix time>,v1=<hex
/// HMAC-SHA-256 of "<t>.<body>" keyed with the secret>`, `Moot-Event-Id` and `Moot-Event`;
/// retried for a day until a 2xx answer.
#[derive(Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "url": "https://games.example/hooks/moot",
    "secret": "a-long-random-secret-kept-by-the-site",
}))]
pub struct WebhookRequest {
    /// An `http` or `https` URL on the public internet.
    #[schema(example = "https://games.example/hooks/moot", format = "uri")]
    pub url: String,
    /// The secret that signs each delivery (16 to 256 characters): kept to sign, never shown.
    #[schema(example = "a-long-random-secret-kept-by-the-site")]
    pub secret: String,
}

impl std::fmt::Debug for WebhookRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookRequest")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// How a table's webhook fares.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookStatus {
    /// Every event so far was delivered or is on its way.
    Ok,
    /// The last delivery failed: it is retried (see `last_error`).
    Retrying,
    /// At least one event was given up after a day of retries.
    Failed,
}

/// A table's webhook as anyone reading the table sees it (never its URL or secret).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableWebhook {
    /// How it fares.
    pub status: WebhookStatus,
    /// Events given up after a day of retries.
    pub failed_events: u64,
    /// Why the last delivery failed, until one succeeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

impl From<tables::WebhookHealth> for TableWebhook {
    fn from(health: tables::WebhookHealth) -> Self {
        let status = match (health.failed, &health.last_error) {
            (0, None) => WebhookStatus::Ok,
            (0, Some(_)) => WebhookStatus::Retrying,
            _ => WebhookStatus::Failed,
        };
        TableWebhook {
            status,
            failed_events: health.failed,
            last_error: health.last_error,
        }
    }
}

/// A site's webhook as the site reads it back (never its secret).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "url": "https://games.example/hooks/moot",
    "status": "ok",
    "failed_events": 0,
}))]
pub struct SiteWebhookResponse {
    /// Where every event of the site's tables and players is posted.
    #[schema(format = "uri")]
    pub url: String,
    /// How it fares.
    pub status: WebhookStatus,
    /// Events given up after a day of retries.
    pub failed_events: u64,
    /// Why the last delivery failed, until one succeeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

impl From<crate::tables::site_webhooks::SiteWebhook> for SiteWebhookResponse {
    fn from(kept: crate::tables::site_webhooks::SiteWebhook) -> Self {
        let health = TableWebhook::from(kept.health);
        SiteWebhookResponse {
            url: kept.url,
            status: health.status,
            failed_events: health.failed_events,
            last_error: health.last_error,
        }
    }
}

/// How a table stands.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// The game goes on.
    Ongoing,
    /// The table is over: see `result`.
    Finished,
}

/// How a finished table ended.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableEnding {
    /// By the game's rules.
    Rules,
    /// A seat resigned.
    Resignation,
    /// The waiting seat claimed a win after the deadline passed.
    Time,
    /// A move brought the table to the most plies a table may have (10,000 by default): drawn,
    /// whatever the position.
    PlyLimit,
    /// No one moved for as long as the server keeps a table waiting (by default 30 days, or 7
    /// while no one has moved; from the deadline for a table with a clock): closed with no
    /// winner.
    Abandoned,
    /// Called off before both seats had moved: by a seat (`POST /api/v1/tables/{id}/abort`),
    /// or by itself when no one moved by the first deadline. No result.
    Aborted,
}

/// The result of a finished table.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableResult {
    /// The winning seat; absent for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Seat>,
    /// How it ended.
    pub ended_by: TableEnding,
}

/// A seat as anyone may see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableSeat {
    /// Which seat.
    pub seat: Seat,
    /// The player's name, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A bank clock's: the seat's bank (seconds) as its turn starts; while its move is
    /// awaited, its time runs out at the table's `deadline`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank_seconds: Option<u64>,
    /// While the seat is on vacation: when its vacation ends by itself, its allowance used up
    /// (RFC 3339). Its clock does not run meanwhile.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub vacation_until: Option<String>,
    /// A clock with vacation's: the vacation the seat has left (seconds), not counting a
    /// vacation it is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vacation_left_seconds: Option<u64>,
}

/// A table Moot keeps.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableResponse {
    /// The table's id: unguessable, and all it takes to read the table.
    pub id: String,
    /// The game's id.
    pub game: String,
    /// The game's options.
    #[schema(value_type = GameOptions)]
    pub options: Value,
    /// The position now.
    #[schema(value_type = GameState)]
    pub state: Value,
    /// Moves played so far: send it back with the next move.
    pub ply: u64,
    /// Whether the table goes on.
    pub status: TableStatus,
    /// The seat whose move is awaited, while the table goes on (the engine decides: a Hirþ
    /// offer's answer is awaited from the seat that answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    /// How the table ended, once it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<TableResult>,
    /// The game's own status of the position (who acts and what they decide, or its result).
    pub game_status: Status,
    /// Both seats.
    pub seats: Vec<TableSeat>,
    /// Days each move may take, if the table was made with that shorthand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u32>,
    /// The table's clock, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<TableClock>,
    /// When the awaited move is due (RFC 3339), if the table has a clock and goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub deadline: Option<String>,
    /// When the table was created (RFC 3339).
    #[schema(format = DateTime)]
    pub created: String,
    /// When it last changed (RFC 3339).
    #[schema(format = DateTime)]
    pub updated: String,
    /// How the table's webhook fares, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook: Option<TableWebhook>,
    /// The seat offering a rematch at the finished table, while its offer stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch_offered_by: Option<Seat>,
    /// The table this one is the rematch of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<String>,
    /// This table's rematch, once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematched_by: Option<String>,
    /// The seat asking to take back its last move, while its request stands (until the other
    /// seat answers or moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback_asked_by: Option<Seat>,
}

/// A standing as the API writes it: the status, the seat awaited, the result.
pub fn standing_fields(standing: &Standing) -> (TableStatus, Option<Seat>, Option<TableResult>) {
    match *standing {
        Standing::Ongoing { to_act } => (TableStatus::Ongoing, Some(to_act), None),
        Standing::Finished { winner, ended_by } => (
            TableStatus::Finished,
            None,
            Some(TableResult {
                winner,
                ended_by: match ended_by {
                    EndedBy::Rules => TableEnding::Rules,
                    EndedBy::Resignation => TableEnding::Resignation,
                    EndedBy::Time => TableEnding::Time,
                    EndedBy::PlyLimit => TableEnding::PlyLimit,
                    EndedBy::Abandoned => TableEnding::Abandoned,
                    EndedBy::Aborted => TableEnding::Aborted,
                },
            }),
        ),
    }
}

impl From<tables::Table> for TableResponse {
    fn from(table: tables::Table) -> Self {
        let (status, to_act, result) = standing_fields(&table.standing);
        let finished = table.is_finished();
        let seat_clock = |seat: Seat| {
            let (Some(clock), Some(times)) = (table.clock, table.clock_times) else {
                return (None, None, None);
            };
            let times = &times.seats[seat.index()];
            let bank =
                matches!(clock.pace, tables::Pace::Bank { .. }).then(|| (times.bank / 1000) as u64);
            // A vacation shows while its seat is on it: it may have ended by itself since
            // it was last written, so its end is shown only while still ahead.
            let (until, left) = if clock.vacation_days == 0 || finished {
                (None, None)
            } else {
                let at = tables::now().max(table.updated);
                let until = clock.on_vacation_until(times, at, table.created);
                let left = clock.vacation_left(times, at, table.created);
                (until.map(rfc3339), Some((left / 1000) as u64))
            };
            (bank, until, left)
        };
        TableResponse {
            id: table.id,
            game: table.game.to_owned(),
            options: table.options,
            state: table.state,
            ply: table.ply,
            status,
            to_act,
            result,
            game_status: table.game_status,
            seats: table
                .seats
                .into_iter()
                .map(|s| {
                    let (bank_seconds, vacation_until, vacation_left_seconds) = seat_clock(s.seat);
                    TableSeat {
                        seat: s.seat,
                        name: s.name,
                        bank_seconds,
                        vacation_until,
                        vacation_left_seconds,
                    }
                })
                .collect(),
            days_per_move: table.days_per_move,
            clock: table.clock.map(TableClock::from),
            deadline: table.deadline.map(rfc3339),
            created: rfc3339(table.created),
            updated: rfc3339(table.updated),
            webhook: table.webhook.map(TableWebhook::from),
            rematch_offered_by: table.rematch.offered_by,
            rematch_of: table.rematch.of,
            rematched_by: table.rematch.by,
            takeback_asked_by: table.takebacks.asked_by,
        }
    }
}

/// What a rematch request did: the finished table as it stands after it, and its rematch once
/// accepted.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RematchResponse {
    /// `offered`: the seat's offer stands; `accepted`: the rematch's table is open.
    pub status: RematchStatus,
    /// The finished table.
    pub table: TableResponse,
    /// The rematch, once accepted: the same seats (their credentials and players open it),
    /// their colours swapped, the same options and clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<TableResponse>,
}

/// Where a rematch stands after a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RematchStatus {
    /// The seat's offer stands, awaiting the other seat.
    Offered,
    /// The rematch's table is open.
    Accepted,
}

/// What a takeback request did: the table as it stands after it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TakebackResponse {
    /// `asked`: the seat's request stands; `taken_back`: the other seat's request was accepted.
    pub status: TakebackStatus,
    /// The table.
    pub table: TableResponse,
}

/// Where a takeback stands after a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TakebackStatus {
    /// The seat's request stands, awaiting the other seat.
    Asked,
    /// The other seat's last move is taken back: its move is awaited again.
    TakenBack,
}

/// One seat's credential, shown once.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatCredential {
    /// Which seat.
    pub seat: Seat,
    /// The player's name, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The seat's secret: send it as `Authorization: Bearer <credential>` to play, resign or
    /// claim. Moot keeps only its digest and cannot show it again.
    pub credential: String,
    /// Where this seat posts its moves.
    #[schema(format = "uri-reference")]
    pub moves_url: String,
    /// The seat's page, where its player plays in a browser. It holds the credential: hand it
    /// to that player only.
    #[schema(format = "uri-reference")]
    pub play_url: String,
}

/// A new table, with each seat's credential (shown once).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CreatedTable {
    /// The table.
    pub table: TableResponse,
    /// One credential per seat, the first seat's first: hand each to its player.
    pub seats: Vec<SeatCredential>,
    /// Where anyone with the link may read the table (read only).
    #[schema(format = "uri-reference")]
    pub watch_url: String,
    /// The spectators' page: the table in a browser, read only.
    #[schema(format = "uri-reference")]
    pub watch_page_url: String,
}

impl CreatedTable {
    /// A new table's answer: the table, and each seat's credential (the first seat's first) with
    /// the URLs its player plays from.
    pub fn new(table: TableResponse, credentials: impl IntoIterator<Item = String>) -> Self {
        let id = table.id.clone();
        let seats = table
            .seats
            .iter()
            .zip(credentials)
            .map(|(seat, credential)| SeatCredential {
                seat: seat.seat,
                name: seat.name.clone(),
                play_url: crate::paths::seat(&id, &credential),
                credential,
                moves_url: format!("{}/moves", table_url(&id)),
            })
            .collect();
        CreatedTable {
            table,
            seats,
            watch_url: table_url(&id),
            watch_page_url: crate::paths::watch(&id),
        }
    }
}

/// `POST /api/v1/tables/{id}/moves`: one move, and the ply the client saw.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableMoveRequest {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    #[schema(example = "c3")]
    pub mv: String,
    /// The table's `ply` the client saw: if another move was committed since, the move is
    /// refused with 409 `stale_ply`.
    pub ply: u64,
}

/// One move of a table's history.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableMove {
    /// The table's ply after this move (the first move is 1).
    pub ply: u64,
    /// The seat that played it.
    pub seat: Seat,
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// When it was committed (RFC 3339).
    #[schema(format = DateTime)]
    pub time: String,
}

impl From<tables::Played> for TableMove {
    fn from(played: tables::Played) -> Self {
        TableMove {
            ply: played.ply,
            seat: played.seat,
            mv: played.notation,
            time: rfc3339(played.time),
        }
    }
}

/// A page of a table's history.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableHistory {
    /// The table's id.
    pub id: String,
    /// The game's id.
    pub game: String,
    /// Moves played so far at the table.
    pub ply: u64,
    /// The page's moves, in order.
    pub moves: Vec<TableMove>,
    /// The game's record (`replay` reads it back): Hirþ's own format, the moves in notation for
    /// the other games. Given with a page that holds the whole history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// The next page, while there are more moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub next: Option<String>,
}
