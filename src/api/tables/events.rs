//! A table's events as they happen, as server-sent events: `GET /api/v1/tables/{id}/events`.
//!
//! Each event's `id` is the table's change number ([`crate::tables::Table::seq`], which grows
//! with every change), so a client that reconnects with `Last-Event-ID` (as the browser's
//! `EventSource` does by itself) is sent exactly what it missed, read a page at a time from
//! where it is; one that missed more than [`limits::RESET_AFTER_CHANGES`], or a takeback, is
//! sent the table as it stands instead (`reset`). Without it, the stream opens with the table
//! as it stands (`table`). Then each move (`move`), takeback (`takeback`), resignation
//! (`resign`), win on time (`claim`), abort (`aborted`) or closing of an abandoned table
//! (`abandoned`), with where the table stands after it (not its position: a stream costs what
//! the changes are, however big the table); the stream ends after the table's last event. The
//! notices (`deadline_near`, `deadline_passed`, `takeback_asked`, `takeback_declined`,
//! `vacation_started`, `vacation_ended`) are sent as they come, with the `id` of the change
//! they follow: they are not changes, and are not sent again on reconnecting. Every
//! [`limits::STREAM_HEARTBEAT`] an idle stream gets a comment line, so that proxies keep it
//! open, and with PostgreSQL checks the database for a change it was not told of. A client
//! that goes away frees its place at once (the server closes a connection its client closed:
//! see `crate::serve::listen`).

use std::collections::VecDeque;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::bodies::{
    TableMove, TableResponse, TableResult, TableStatus, rfc3339, standing_fields, table_url,
};
use super::refusals::{client_of, problem, rate_limited, strike};
use super::seats::bearer;
use super::stream_shares::{holder, table_streams_full};
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::limits::tables as limits;
use crate::tables::deadlines::DeadlineNotice;
use crate::tables::feed::{Follower, Next, Who};
use crate::tables::{
    Backend, CatchUp, Change, Committed, Event, Table, TableError, TablePolicy, Tables,
};
use crate::tables::{SeatNotice, SeatNoticeKind};
use moot_games::Seat;

/// What happened at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableEventType {
    /// The table as it stands: the first event of a stream opened without `Last-Event-ID`.
    Table,
    /// The table as it stands, in place of the many events a follower far behind missed.
    Reset,
    /// A move was played.
    Move,
    /// A seat resigned.
    Resign,
    /// The waiting seat won on time.
    Claim,
    /// The table was closed as abandoned: no one moved for too long.
    Abandoned,
    /// The table was called off before both seats had moved, by a seat or by its late first
    /// move: no result.
    Aborted,
    /// A seat's last move (or turn) was taken back, the other seat agreeing: `seat` names it,
    /// `plies` how many; the position is the one before them (read it at `url`).
    Takeback,
    /// Four fifths of the awaited move's time have passed: a notice, not a change (its `seq`
    /// and `id` are the change it follows); a stream sends it to a follower that has seen that
    /// change, and does not send it again on reconnecting.
    DeadlineNear,
    /// The awaited move's deadline passed: the waiting seat may claim the win (a notice,
    /// likewise).
    DeadlinePassed,
    /// A seat (`seat`) asks to take back its last move: a notice, likewise.
    TakebackAsked,
    /// A takeback asked for was declined, or withdrawn by the seat that asked (`seat`): a
    /// notice, likewise.
    TakebackDeclined,
    /// A seat (`seat`) went on vacation: its clock stops, the `deadline` moves on (a notice,
    /// likewise).
    VacationStarted,
    /// A seat (`seat`) came back from vacation: the `deadline` as it stands now (a notice,
    /// likewise).
    VacationEnded,
}

/// One event of a table's stream (the `data` of a server-sent event, whose `event` is `type`
/// and whose `id` is `seq`), and the body of a webhook's post. An event says what changed and
/// where the table stands after it; the whole table (its position included) comes only with
/// `table` and `reset`: read it at `url` when a move's event is not enough.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableEvent {
    /// What happened.
    #[serde(rename = "type")]
    pub kind: TableEventType,
    /// The table's change number after it, which grows with each change: its ply, twice the
    /// plies taken back before, and one more for a resignation, a win on time or an abandoned
    /// or aborted table. Also the event's `id`.
    pub seq: u64,
    /// The table's id.
    pub table_id: String,
    /// The table in the API.
    #[schema(format = "uri-reference")]
    pub url: String,
    /// The move, for a `move`.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<TableMove>,
    /// The seat that resigned (`resign`) or claimed (`claim`), or whose moves were taken back
    /// (`takeback`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The plies taken back, for a `takeback`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<u64>,
    /// Moves played after it.
    pub ply: u64,
    /// Whether the table goes on after it.
    pub status: TableStatus,
    /// The seat whose move is awaited after it, while the table goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    /// How the table ended, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<TableResult>,
    /// When the awaited move is due (RFC 3339), if the table has a clock and goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub deadline: Option<String>,
    /// When it happened (RFC 3339).
    #[schema(format = DateTime)]
    pub time: String,
    /// The whole table, for `table` and `reset`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableResponse>,
}

impl TableEvent {
    /// A change's event.
    pub fn of(change: &Change) -> TableEvent {
        let plies = match change.event {
            Event::TakenBack { plies, .. } => Some(plies),
            _ => None,
        };
        let (kind, mv, seat) = match &change.event {
            Event::Moved(played) => (
                TableEventType::Move,
                Some(TableMove::from(played.clone())),
                None,
            ),
            Event::Resigned { seat } => (TableEventType::Resign, None, Some(*seat)),
            Event::TimeClaimed { seat } => (TableEventType::Claim, None, Some(*seat)),
            Event::Abandoned => (TableEventType::Abandoned, None, None),
            Event::Aborted => (TableEventType::Aborted, None, None),
            Event::TakenBack { seat, .. } => (TableEventType::Takeback, None, Some(*seat)),
        };
        let (status, to_act, result) = standing_fields(&change.after.standing);
        TableEvent {
            kind,
            seq: change.seq,
            table_id: change.table_id.clone(),
            url: table_url(&change.table_id),
            mv,
            seat,
            plies,
            ply: change.after.ply,
            status,
            to_act,
            result,
            deadline: change.after.deadline.map(rfc3339),
            time: rfc3339(change.after.updated),
            table: None,
        }
    }

    /// The table as it stands, as a `table` or `reset` event.
    fn whole(kind: TableEventType, table: Table) -> TableEvent {
        let seq = table.seq();
        let table = TableResponse::from(table);
        TableEvent {
            kind,
            seq,
            table_id: table.id.clone(),
            url: table_url(&table.id),
            mv: None,
            seat: None,
            plies: None,
            ply: table.ply,
            status: table.status,
            to_act: table.to_act,
            result: table.result.clone(),
            deadline: table.deadline.clone(),
            time: table.updated.clone(),
            table: Some(table),
        }
    }

    /// The event as a webhook posts it: the stream's `data`.
    pub fn webhook_body(change: &Committed) -> String {
        serde_json::to_string(&TableEvent::of(&change.change())).unwrap_or_default()
    }

    /// A deadline notice as a table's webhook posts it.
    pub fn deadline_body(notice: &DeadlineNotice) -> String {
        serde_json::to_string(&TableEvent::deadline(notice)).unwrap_or_default()
    }

    /// A seat's notice (a takeback asked or declined, a vacation) as a table's webhook posts
    /// it.
    pub fn seat_notice_body(notice: &SeatNotice) -> String {
        serde_json::to_string(&TableEvent::seat_notice(notice)).unwrap_or_default()
    }

    /// A deadline notice's event (its `seq` the change it follows).
    fn deadline(notice: &DeadlineNotice) -> TableEvent {
        TableEvent {
            kind: if notice.passed {
                TableEventType::DeadlinePassed
            } else {
                TableEventType::DeadlineNear
            },
            seq: notice.seq,
            table_id: notice.table_id.clone(),
            url: table_url(&notice.table_id),
            mv: None,
            seat: None,
            plies: None,
            ply: notice.ply,
            status: TableStatus::Ongoing,
            to_act: Some(notice.to_act),
            result: None,
            deadline: Some(rfc3339(notice.deadline)),
            time: rfc3339(notice.time),
            table: None,
        }
    }

    /// A seat's notice's event (its `seq` the change it follows).
    fn seat_notice(notice: &SeatNotice) -> TableEvent {
        TableEvent {
            kind: match notice.kind {
                SeatNoticeKind::TakebackAsked => TableEventType::TakebackAsked,
                SeatNoticeKind::TakebackDeclined => TableEventType::TakebackDeclined,
                SeatNoticeKind::VacationStarted => TableEventType::VacationStarted,
                SeatNoticeKind::VacationEnded => TableEventType::VacationEnded,
            },
            seq: notice.seq,
            table_id: notice.table_id.clone(),
            url: table_url(&notice.table_id),
            mv: None,
            seat: Some(notice.by),
            plies: None,
            ply: notice.ply,
            status: TableStatus::Ongoing,
            to_act: Some(notice.to_act),
            result: None,
            deadline: notice.deadline.map(rfc3339),
            time: rfc3339(notice.time),
            table: None,
        }
    }

    /// The event as the stream sends it.
    fn frame(&self) -> Bytes {
        let kind = match self.kind {
            TableEventType::Table => "table",
            TableEventType::Reset => "reset",
            TableEventType::Move => "move",
            TableEventType::Resign => "resign",
            TableEventType::Claim => "claim",
            TableEventType::Abandoned => "abandoned",
            TableEventType::Aborted => "aborted",
            TableEventType::Takeback => "takeback",
            TableEventType::DeadlineNear => "deadline_near",
            TableEventType::DeadlinePassed => "deadline_passed",
            TableEventType::TakebackAsked => "takeback_asked",
            TableEventType::TakebackDeclined => "takeback_declined",
            TableEventType::VacationStarted => "vacation_started",
            TableEventType::VacationEnded => "vacation_ended",
        };
        // serde_json writes no newline, so the data is one line.
        let data = serde_json::to_string(self).unwrap_or_default();
        Bytes::from(format!("id: {}\nevent: {kind}\ndata: {data}\n\n", self.seq))
    }
}

/// A stream's state between two of its chunks.
struct Stream {
    tables: Tables,
    id: String,
    follower: Follower,
    /// The last change sent.
    sent: u64,
    /// Frames ready to send.
    ready: VecDeque<Bytes>,
    heartbeat: tokio::time::Interval,
    /// The table's last event is in `ready`: the stream ends once they are sent.
    ending: bool,
    /// The last catch-up was a full page: more may follow.
    behind: bool,
}

impl Stream {
    fn push(&mut self, change: &Change) {
        if change.seq <= self.sent {
            return;
        }
        self.sent = change.seq;
        self.ending = change.is_last();
        self.ready.push_back(TableEvent::of(change).frame());
    }

    /// The table as it stands, sent as a `kind` event in place of what came before it.
    fn push_whole(&mut self, kind: TableEventType, table: Table) {
        self.sent = table.seq();
        self.ending = table.is_finished();
        self.ready.push_back(TableEvent::whole(kind, table).frame());
    }

    /// Reads what this stream missed from the database, a page at a time (or the table, when
    /// it is far behind); `false` if it cannot.
    async fn catch_up(&mut self) -> bool {
        match self
            .tables
            .catch_up(&self.id, self.sent, limits::CATCH_UP_PAGE)
            .await
        {
            Ok(CatchUp::Changes(changes)) => {
                self.behind = changes.len() == limits::CATCH_UP_PAGE;
                changes.iter().for_each(|c| self.push(c));
                true
            }
            Ok(CatchUp::Reset(table)) => {
                self.behind = false;
                self.push_whole(TableEventType::Reset, *table);
                true
            }
            Err(TableError::UnknownTable) => false,
            Err(error) => {
                tracing::warn!(%error, "an event stream could not read its table");
                false
            }
        }
    }

    /// The next chunk to send, waiting for one; `None` ends the stream.
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(frame) = self.ready.pop_front() {
                return Some(frame);
            }
            if self.ending {
                return None;
            }
            if self.behind {
                if !self.catch_up().await {
                    return None;
                }
                continue;
            }
            tokio::select! {
                next = self.follower.next() => match next {
                    Some(Next::Change(change)) if change.seq == self.sent + 1 => self.push(&change),
                    Some(Next::Change(change)) if change.seq <= self.sent => {}
                    // A notice follows the change it names: sent to a follower that has seen
                    // that change and no later one (it is not kept: one behind goes without).
                    Some(Next::Deadline(notice)) => {
                        if notice.seq == self.sent && !self.ending {
                            self.ready.push_back(TableEvent::deadline(&notice).frame());
                        }
                    }
                    Some(Next::Seat(notice)) => {
                        if notice.seq == self.sent && !self.ending {
                            self.ready.push_back(TableEvent::seat_notice(&notice).frame());
                        }
                    }
                    Some(_) => {
                        if !self.catch_up().await {
                            return None;
                        }
                    }
                    None => return None,
                },
                _ = self.heartbeat.tick() => {
                    // Another replica's change whose notification was lost (the listener
                    // reconnecting) is read here; one process is never told late.
                    if self.tables.store().backend == Backend::Postgres && !self.catch_up().await {
                        return None;
                    }
                    if self.ready.is_empty() {
                        return Some(Bytes::from_static(b": heartbeat\n\n"));
                    }
                }
            }
        }
    }
}

/// The change number a reconnecting client saw last, from `Last-Event-ID`.
pub(crate) fn last_event_id(http: &HttpRequest) -> Result<Option<u64>, ApiError> {
    let Some(value) = http.headers().get("last-event-id") else {
        return Ok(None);
    };
    // Browsers send it only with an id (never empty): an empty one is a client's mistake.
    let text = value.to_str().unwrap_or_default().trim();
    text.parse().map(Some).map_err(|_| {
        ApiError::new(
            ErrorCode::InvalidRequest,
            format!("Last-Event-ID: {text:?} is not an event id of this stream (a whole number)"),
        )
    })
}

/// A credential in the query of a stream: a browser's `EventSource` sends no headers.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// The seat's or player's credential, as `Authorization: Bearer` would send it (for a
    /// browser's `EventSource`, which cannot send headers).
    credential: Option<String>,
}

/// The credential a stream's client sent, and where: as `Authorization: Bearer`, else as
/// `credential` in the query (the field an error names).
pub(super) fn stream_credential(http: &HttpRequest) -> Option<(String, &'static str)> {
    if let Some(credential) = bearer(http) {
        return Some((credential.to_owned(), "Authorization"));
    }
    let query = web::Query::<StreamQuery>::from_query(http.query_string()).ok()?;
    Some((query.into_inner().credential?, "credential"))
}

/// Who opens a stream: the seat whose credential is sent (`Authorization: Bearer`), or a
/// watcher; either counted against its site's share (`Moot-Site-Key`) or its address's. A
/// wrong credential counts as one at a move does (by address).
async fn who_follows(policy: &TablePolicy, http: &HttpRequest, id: &str) -> Result<Who, ApiError> {
    let holder = holder(policy, http)?;
    let Some((credential, _)) = stream_credential(http) else {
        return Ok(Who::Watcher(holder));
    };
    let client = client_of(policy, http);
    match policy.tables().seat(id, &credential).await {
        Ok(seat) => Ok(Who::Seat(seat, holder)),
        Err(TableError::BadCredential) => match policy.barred(id, client) {
            Some(wait) => Err(rate_limited("wrong seat credentials", wait)),
            None => Err(strike(
                policy,
                (id, client),
                "the credential is no seat's of this table",
            )),
        },
        Err(error) => Err(problem(error)),
    }
}

/// Streams a table's events as they happen (server-sent events). Without `Last-Event-ID` the
/// stream opens with the table as it stands (`table`); with it, with every event after that
/// one, or with the table as it stands (`reset`) when more than 200 were missed. Each event's
/// `id` is its `seq`; the stream ends after the table's last event, and answers 204 to a client
/// that has seen it. A seat's player sends its credential: its streams are counted apart from
/// watchers', so that watchers never take them. Each address, and each site whose key is sent,
/// has a share of watchers' streams and one of seats' streams.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Last-Event-ID" = Option<u64>, Header, description = "The `seq` of the last event received: the stream sends every event after it (or a `reset` when more than 200 were missed)"),
        ("Authorization" = Option<String>, Header, description = "`Bearer <credential>`: a seat's credential, for a place kept for the seat's player (at most 4 streams a seat); without it, the stream is a watcher's (at most 32 a table)"),
        ("Moot-Site-Key" = Option<String>, Header, description = "A site's key, from the server's `--site-keys` file: the stream counts against that site's share (a quarter of the server's, watchers' and seats' each), not its address's (64 watchers' and 64 seats' streams); a key that is no site's is 401 `unknown_site_key`"),
        StreamQuery,
    ),
    responses(
        (status = 200, description = "The events, as `text/event-stream`: each `data` is one `TableEvent`, its `event` the event's `type` and its `id` its `seq`", body = TableEvent, content_type = "text/event-stream"),
        (status = 204, description = "The table is over and `Last-Event-ID` is its last event: nothing more will come"),
        (status = 401, description = "`unauthorized`: the credential sent is no seat's of this table; `unknown_site_key`: the `Moot-Site-Key` sent is no site's of this server", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: `Last-Event-ID` is not a whole number, or is past the table's last event", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`streams_full`: a cap on open streams is met; `cap` names it (`table`: its watchers; `seat`; `address`: this address's share; `site`: this site's share; `server`), the detail the flag that raises it. `storage_unavailable`: the tables' database cannot be read now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/tables/{id}/events")]
pub async fn table_events(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let seen = last_event_id(&http)?;
    let who = who_follows(&policy, &http, &id).await?;
    stream(policy.tables().clone(), id.into_inner(), seen, who).await
}

/// Table `id`'s events from after `seen` (or from the table as it stands) to `who`: the answer
/// of [`table_events`], and of the seat's page's own stream.
pub(crate) async fn stream(
    tables: Tables,
    id: String,
    seen: Option<u64>,
    who: Who,
) -> Result<HttpResponse, ApiError> {
    let head = tables
        .head(&id)
        .await
        .map_err(problem)?
        .ok_or_else(|| problem(TableError::UnknownTable))?;
    if let Some(seen) = seen {
        if seen > head.seq() {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "Last-Event-ID: {seen} is past the table's last event ({})",
                    head.seq()
                ),
            ));
        }
        if head.is_finished() && seen == head.seq() {
            return Ok(HttpResponse::NoContent().finish());
        }
    }
    // Followed before the table is read again, so that no change falls between the two.
    let follower = tables.feed().follow(&id, who).map_err(table_streams_full)?;
    let start = tokio::time::Instant::now() + limits::STREAM_HEARTBEAT;
    let mut stream = Stream {
        tables,
        id,
        follower,
        sent: seen.unwrap_or(0),
        ready: VecDeque::new(),
        heartbeat: tokio::time::interval_at(start, limits::STREAM_HEARTBEAT),
        ending: false,
        behind: false,
    };
    // How long a browser waits before reconnecting (ms).
    stream
        .ready
        .push_back(Bytes::from_static(b"retry: 2000\n\n"));
    match seen {
        Some(_) => {
            let caught_up = stream
                .tables
                .catch_up(&stream.id, stream.sent, limits::CATCH_UP_PAGE)
                .await
                .map_err(problem)?;
            match caught_up {
                CatchUp::Changes(changes) => {
                    stream.behind = changes.len() == limits::CATCH_UP_PAGE;
                    changes.iter().for_each(|c| stream.push(c));
                }
                CatchUp::Reset(table) => stream.push_whole(TableEventType::Reset, *table),
            }
        }
        None => {
            let table = stream
                .tables
                .get(&stream.id)
                .await
                .map_err(problem)?
                .ok_or_else(|| problem(TableError::UnknownTable))?;
            stream.push_whole(TableEventType::Table, table);
        }
    }
    Ok(event_stream(futures_util::stream::unfold(
        stream,
        |mut stream| async move { Some((stream.next().await?, stream)) },
    )))
}

/// The answer that sends `chunks` as server-sent events, each as soon as it is ready.
pub(super) fn event_stream(
    chunks: impl futures_util::Stream<Item = Bytes> + 'static,
) -> HttpResponse {
    use futures_util::StreamExt;
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Sent as written: a compressor would hold events back to fill its blocks.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        // nginx passes each event on at once instead of buffering the stream.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(chunks.map(Ok::<_, actix_web::Error>))
}
