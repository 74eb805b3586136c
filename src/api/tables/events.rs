//! A table's events as they happen, as server-sent events: `GET /api/v1/tables/{id}/events`.
//!
//! Each event's `id` is the table's change number ([`crate::tables::Table::seq`]: the ply, and
//! one more for a resignation or a win on time), so a client that reconnects with
//! `Last-Event-ID` (as the browser's `EventSource` does by itself) is sent exactly what it
//! missed. Without it, the stream opens with the table as it stands (`table`). Then each move
//! (`move`), resignation (`resign`) or win on time (`claim`), with the table after it; the
//! stream ends after the table's last event. Every [`limits::STREAM_HEARTBEAT`] an idle stream
//! gets a comment line, so that proxies keep it open, and with PostgreSQL checks the database
//! for a change it was not told of.

use std::collections::VecDeque;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use bytes::Bytes;
use serde::Serialize;
use utoipa::ToSchema;

use super::bodies::{TableMove, TableResponse};
use super::refusals::{existing, problem};
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::limits::tables as limits;
use crate::tables::feed::{Follower, Next};
use crate::tables::{Backend, Committed, Event, FeedFull, TableError, Tables};
use moot_games::Seat;

/// What happened at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableEventType {
    /// The table as it stands: the first event of a stream opened without `Last-Event-ID`.
    Table,
    /// A move was played.
    Move,
    /// A seat resigned.
    Resign,
    /// The waiting seat won on time.
    Claim,
    /// The table was closed as abandoned: no one moved for too long.
    Abandoned,
}

/// One event of a table's stream (the `data` of a server-sent event, whose `event` is `type`
/// and whose `id` is `seq`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableEvent {
    /// What happened.
    #[serde(rename = "type")]
    pub kind: TableEventType,
    /// The table's change number after it: its ply, and one more for a resignation or a win
    /// on time. Also the event's `id`.
    pub seq: u64,
    /// The move, for a `move`.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<TableMove>,
    /// The seat that resigned (`resign`) or claimed (`claim`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The table after it.
    pub table: TableResponse,
}

impl TableEvent {
    fn of(change: &Committed) -> TableEvent {
        let (kind, mv, seat) = match &change.event {
            Event::Moved(played) => (
                TableEventType::Move,
                Some(TableMove::from(played.clone())),
                None,
            ),
            Event::Resigned { seat } => (TableEventType::Resign, None, Some(*seat)),
            Event::TimeClaimed { seat } => (TableEventType::Claim, None, Some(*seat)),
            Event::Abandoned => (TableEventType::Abandoned, None, None),
        };
        TableEvent {
            kind,
            seq: change.seq(),
            mv,
            seat,
            table: TableResponse::from(change.table.clone()),
        }
    }

    /// The event as a webhook posts it: the stream's `data`.
    pub fn webhook_body(change: &Committed) -> String {
        serde_json::to_string(&TableEvent::of(change)).unwrap_or_default()
    }

    /// The event as the stream sends it.
    fn frame(&self) -> Bytes {
        let kind = match self.kind {
            TableEventType::Table => "table",
            TableEventType::Move => "move",
            TableEventType::Resign => "resign",
            TableEventType::Claim => "claim",
            TableEventType::Abandoned => "abandoned",
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
    /// The last catch-up was a full batch: more may follow.
    behind: bool,
}

/// Changes read from the database at a time when a stream catches up (each holds a table).
const CATCH_UP_BATCH: usize = 32;

impl Stream {
    fn push(&mut self, change: &Committed) {
        if change.seq() <= self.sent {
            return;
        }
        self.sent = change.seq();
        self.ending = change.table.is_finished();
        self.ready.push_back(TableEvent::of(change).frame());
    }

    /// Reads what this stream missed from the database, a batch at a time; `false` if it
    /// cannot.
    async fn catch_up(&mut self) -> bool {
        match self
            .tables
            .changes_since(&self.id, self.sent, CATCH_UP_BATCH)
            .await
        {
            Ok(changes) => {
                self.behind = changes.len() == CATCH_UP_BATCH;
                changes.iter().for_each(|c| self.push(c));
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
                    Some(Next::Change(change)) if change.seq() == self.sent + 1 => self.push(&change),
                    Some(Next::Change(change)) if change.seq() <= self.sent => {}
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
fn last_event_id(http: &HttpRequest) -> Result<Option<u64>, ApiError> {
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

fn full(refusal: FeedFull) -> ApiError {
    ApiError::new(ErrorCode::StreamsFull, refusal.to_string()).retry_after(30)
}

/// Streams a table's events as they happen (server-sent events). Without `Last-Event-ID` the
/// stream opens with the table as it stands; with it, with every event after that one. Each
/// event's `id` is its `seq`; the stream ends after the table's last event, and answers 204 to
/// a client that has seen it.
#[utoipa::path(
    tag = "tables",
    params(
        ("id" = String, Path, description = "The table's id"),
        ("Last-Event-ID" = Option<u64>, Header, description = "The `seq` of the last event received: the stream sends every event after it"),
    ),
    responses(
        (status = 200, description = "The events, as `text/event-stream`: each `data` is one `TableEvent`, its `event` the event's `type` and its `id` its `seq`", body = TableEvent, content_type = "text/event-stream"),
        (status = 204, description = "The table is over and `Last-Event-ID` is its last event: nothing more will come"),
        (status = 404, description = "`unknown_table`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: `Last-Event-ID` is not a whole number", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`streams_full`: the table or the server has as many open streams as it allows; `storage_unavailable`: the tables' database cannot be read now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/tables/{id}/events")]
pub async fn table_events(
    id: web::Path<String>,
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let tables = policy.tables().clone();
    let seen = last_event_id(&http)?;
    let table = existing(&tables, &id).await?;
    if let Some(seen) = seen {
        if seen > table.seq() {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "Last-Event-ID: {seen} is past the table's last event ({})",
                    table.seq()
                ),
            ));
        }
        if table.is_finished() && seen == table.seq() {
            return Ok(HttpResponse::NoContent().finish());
        }
    }
    // Followed before the table is read again, so that no change falls between the two.
    let follower = tables.feed().follow(&id).map_err(full)?;
    let start = tokio::time::Instant::now() + limits::STREAM_HEARTBEAT;
    let mut stream = Stream {
        tables,
        id: id.into_inner(),
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
            let changes = stream
                .tables
                .changes_since(&stream.id, stream.sent, CATCH_UP_BATCH)
                .await
                .map_err(problem)?;
            stream.behind = changes.len() == CATCH_UP_BATCH;
            changes.iter().for_each(|c| stream.push(c));
        }
        None => {
            let table = existing(&stream.tables, &stream.id).await?;
            let snapshot = TableEvent {
                kind: TableEventType::Table,
                seq: table.seq(),
                mv: None,
                seat: None,
                table: TableResponse::from(table.clone()),
            };
            stream.sent = table.seq();
            stream.ending = table.is_finished();
            stream.ready.push_back(snapshot.frame());
        }
    }
    let body = futures_util::stream::unfold(stream, |mut stream| async move {
        let chunk = stream.next().await?;
        Some((Ok::<_, actix_web::Error>(chunk), stream))
    });
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Sent as written: a compressor would hold events back to fill its blocks.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        // nginx passes each event on at once instead of buffering the stream.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}
