//! A player's feed as it happens, as server-sent events: `GET /api/v1/players/me/events`.
//!
//! One stream for all of a player's tables: every event of each table it sits at (as the
//! table's own stream sends it, inside `event`), and the notices meant for the player —
//! `your_turn` (once per turn), `deadline_near`, `deadline_passed`, `table_started`,
//! `table_finished`, and its challenges' `challenge_received`, `challenge_accepted` and
//! `challenge_declined`. Each event's `id` is its number in the player's feed, so a client that
//! reconnects with `Last-Event-ID` is sent exactly what it missed; one that missed more than
//! [`limits::RESET_AFTER_CHANGES`], or whose events were forgotten, is sent `reset` (read your
//! tables again). Without it, the stream opens with `feed`, naming where the feed stands.

use std::collections::VecDeque;

use actix_web::{HttpRequest, HttpResponse, get};
use bytes::Bytes;
use serde::Serialize;
use utoipa::ToSchema;

use super::bodies::{TableResult, rfc3339, standing_fields, table_url};
use super::challenge_bodies::{ChallengePlayer, challenge_url};
use super::events::{StreamQuery, TableEvent, event_stream, last_event_id, stream_credential};
use super::player_bodies::MY_TABLES;
use super::players::known_player;
use super::refusals::problem;
use super::stream_shares::{holder, player_feeds_full};
use crate::api::problem::{ApiError, ErrorCode, Problem};
use crate::extract::KeptTables;
use crate::limits::tables as limits;
use crate::tables::player_feed::{FeedCatchUp, Listening, Notice, PlayerEvent};
use crate::tables::{Backend, Holder, Standing, Tables};
use moot_games::Seat;

/// What a player's feed tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerEventType {
    /// Where the feed stands: the first event of a stream opened without `Last-Event-ID`.
    Feed,
    /// The events missed cannot be sent (too many, or forgotten): read the player's tables
    /// again, and follow from here.
    Reset,
    /// A move was played at one of the player's tables.
    Move,
    /// A seat resigned.
    Resign,
    /// The waiting seat won on time.
    Claim,
    /// The table was closed as abandoned.
    Abandoned,
    /// The table was aborted.
    Aborted,
    /// A seat's last move (or turn) was taken back, the other seat agreeing.
    Takeback,
    /// A seat asks to take back its last move (`by`).
    TakebackAsked,
    /// A takeback asked for was declined, or withdrawn by the seat that asked (`by`).
    TakebackDeclined,
    /// The player's move is awaited: once per turn (the steps of a Hirþ turn make one).
    YourTurn,
    /// Four fifths of the time for the player's move have passed.
    DeadlineNear,
    /// The awaited move's deadline passed: the waiting seat may claim the win.
    DeadlinePassed,
    /// The player sits at the table from now on.
    TableStarted,
    /// The table is over.
    TableFinished,
    /// A seat of the finished table offers a rematch (`by`).
    RematchOffered,
    /// The rematch offered was declined, or withdrawn by the seat that offered it (`by`).
    RematchDeclined,
    /// The rematch was accepted: a new table between the same seats (`rematch_id`).
    RematchAccepted,
    /// The player is invited to a challenge (`challenge_id`; the inviter in `player`).
    ChallengeReceived,
    /// Someone accepted the player's challenge: its table is open (`table_id`; the acceptor
    /// in `player`).
    ChallengeAccepted,
    /// The invited player declined the player's challenge.
    ChallengeDeclined,
    /// The opponent went on vacation (`by`, until `vacation_until`): its clock stops, and the
    /// awaited move's `deadline` moved on.
    VacationStarted,
    /// The opponent came back from vacation (`by`): its clock runs again (`deadline`).
    VacationEnded,
}

/// One event of a player's feed (the `data` of a server-sent event, whose `event` is `type`
/// and whose `id` is `seq`).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "your_turn",
    "seq": 17,
    "table_id": "5f0c2a9e7d4b1c3a8e6f0d2b4c6a8e1f",
    "url": "/api/v1/tables/5f0c2a9e7d4b1c3a8e6f0d2b4c6a8e1f",
    "seat": "second",
    "ply": 6,
    "to_act": "second",
    "deadline": "2026-12-08T09:30:00Z",
    "time": "2026-12-05T09:30:00Z",
}))]
pub struct PlayerFeedEvent {
    /// What happened.
    #[serde(rename = "type")]
    pub kind: PlayerEventType,
    /// Its number in the player's feed, from 1 (the feed's last, for `feed` and `reset`).
    /// Also the event's `id`.
    pub seq: u64,
    /// The table it tells of (not for `feed`, `reset`, `challenge_received` and
    /// `challenge_declined`: no table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_id: Option<String>,
    /// The table in the API.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub url: Option<String>,
    /// The player's seat at the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The game, for `table_started`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Moves played at the table, for every event of a table but the rematch's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u64>,
    /// The seat whose move is awaited: for `deadline_near`, `deadline_passed` and
    /// `table_started` (while the table goes on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    /// When the awaited move is due (RFC 3339): for `your_turn` (if the table has a clock),
    /// `deadline_near` and `deadline_passed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub deadline: Option<String>,
    /// How the table ended, for `table_finished`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<TableResult>,
    /// The table's own event, for `move`, `resign`, `claim`, `abandoned`, `aborted` and
    /// `takeback`: as the table's stream and webhook send it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<TableEvent>,
    /// The seat offering, asking or declining, for `rematch_offered`, `rematch_declined`,
    /// `takeback_asked` and `takeback_declined`; the seat going on or back from vacation, for
    /// `vacation_started` and `vacation_ended`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<Seat>,
    /// The rematch's table, for `rematch_accepted`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch_id: Option<String>,
    /// The rematch's table in the API, for `rematch_accepted`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub rematch_url: Option<String>,
    /// The challenge, for `challenge_received`, `challenge_accepted` and
    /// `challenge_declined`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge_id: Option<String>,
    /// The challenge in the API.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub challenge_url: Option<String>,
    /// The other player: who invites (`challenge_received`), accepted
    /// (`challenge_accepted`) or declined (`challenge_declined`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<ChallengePlayer>,
    /// When the opponent's vacation ends by itself (RFC 3339), for `vacation_started`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub vacation_until: Option<String>,
    /// The player's tables, for `feed` and `reset`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uri-reference")]
    pub tables_url: Option<String>,
    /// When it was written (RFC 3339); absent for `feed` and `reset`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub time: Option<String>,
}

impl PlayerFeedEvent {
    /// Where the feed stands (`feed`) or starts again (`reset`), at event `last`.
    fn standing(kind: PlayerEventType, last: u64) -> PlayerFeedEvent {
        PlayerFeedEvent {
            kind,
            seq: last,
            table_id: None,
            url: None,
            seat: None,
            game: None,
            ply: None,
            to_act: None,
            deadline: None,
            result: None,
            event: None,
            by: None,
            rematch_id: None,
            rematch_url: None,
            challenge_id: None,
            challenge_url: None,
            player: None,
            vacation_until: None,
            tables_url: Some(MY_TABLES.to_owned()),
            time: None,
        }
    }

    /// A player's event in the API.
    pub fn of(event: &PlayerEvent) -> PlayerFeedEvent {
        let mut body = PlayerFeedEvent {
            table_id: Some(event.table_id.clone()),
            url: Some(table_url(&event.table_id)),
            seat: Some(event.seat),
            time: Some(rfc3339(event.time)),
            tables_url: None,
            ..PlayerFeedEvent::standing(PlayerEventType::Feed, event.seq)
        };
        match &event.notice {
            Notice::Change(change) => {
                let table = TableEvent::of(change);
                body.kind = match table.kind {
                    super::events::TableEventType::Resign => PlayerEventType::Resign,
                    super::events::TableEventType::Claim => PlayerEventType::Claim,
                    super::events::TableEventType::Abandoned => PlayerEventType::Abandoned,
                    super::events::TableEventType::Aborted => PlayerEventType::Aborted,
                    super::events::TableEventType::Takeback => PlayerEventType::Takeback,
                    _ => PlayerEventType::Move,
                };
                body.ply = Some(change.after.ply);
                body.event = Some(table);
            }
            Notice::YourTurn { ply, deadline } => {
                body.kind = PlayerEventType::YourTurn;
                body.ply = Some(*ply);
                body.to_act = Some(event.seat);
                body.deadline = deadline.map(rfc3339);
            }
            Notice::DeadlineNear {
                ply,
                to_act,
                deadline,
            } => {
                body.kind = PlayerEventType::DeadlineNear;
                body.ply = Some(*ply);
                body.to_act = Some(*to_act);
                body.deadline = Some(rfc3339(*deadline));
            }
            Notice::DeadlinePassed {
                ply,
                to_act,
                deadline,
            } => {
                body.kind = PlayerEventType::DeadlinePassed;
                body.ply = Some(*ply);
                body.to_act = Some(*to_act);
                body.deadline = Some(rfc3339(*deadline));
            }
            Notice::TableStarted { game, ply, to_act } => {
                body.kind = PlayerEventType::TableStarted;
                body.game = Some(game.clone());
                body.ply = Some(*ply);
                body.to_act = *to_act;
            }
            Notice::TableFinished {
                ply,
                winner,
                ended_by,
            } => {
                body.kind = PlayerEventType::TableFinished;
                body.ply = Some(*ply);
                body.result = standing_fields(&Standing::Finished {
                    winner: *winner,
                    ended_by: *ended_by,
                })
                .2;
            }
            Notice::VacationStarted {
                by,
                until,
                deadline,
            } => {
                body.kind = PlayerEventType::VacationStarted;
                body.by = Some(*by);
                body.vacation_until = Some(rfc3339(*until));
                body.deadline = deadline.map(rfc3339);
            }
            Notice::VacationEnded { by, deadline } => {
                body.kind = PlayerEventType::VacationEnded;
                body.by = Some(*by);
                body.deadline = deadline.map(rfc3339);
            }
            Notice::RematchOffered { by } => {
                body.kind = PlayerEventType::RematchOffered;
                body.by = Some(*by);
            }
            Notice::RematchDeclined { by } => {
                body.kind = PlayerEventType::RematchDeclined;
                body.by = Some(*by);
            }
            Notice::TakebackAsked { by } => {
                body.kind = PlayerEventType::TakebackAsked;
                body.by = Some(*by);
            }
            Notice::TakebackDeclined { by } => {
                body.kind = PlayerEventType::TakebackDeclined;
                body.by = Some(*by);
            }
            Notice::RematchAccepted { rematch } => {
                body.kind = PlayerEventType::RematchAccepted;
                body.rematch_url = Some(table_url(rematch));
                body.rematch_id = Some(rematch.clone());
            }
            Notice::ChallengeReceived {
                challenge_id,
                game,
                from_id,
                from,
            } => {
                // Filed under the challenge: there is no table yet.
                body.kind = PlayerEventType::ChallengeReceived;
                body.game = Some(game.clone());
                body.player = Some(ChallengePlayer {
                    id: from_id.clone(),
                    name: from.clone(),
                });
                body.challenge(challenge_id, false);
            }
            Notice::ChallengeAccepted {
                challenge_id,
                by_id,
                by,
            } => {
                body.kind = PlayerEventType::ChallengeAccepted;
                body.player = Some(ChallengePlayer {
                    id: by_id.clone(),
                    name: by.clone(),
                });
                body.challenge(challenge_id, true);
            }
            Notice::ChallengeDeclined {
                challenge_id,
                by_id,
            } => {
                body.kind = PlayerEventType::ChallengeDeclined;
                body.player = Some(ChallengePlayer {
                    id: by_id.clone(),
                    name: None,
                });
                body.challenge(challenge_id, false);
            }
        }
        body
    }

    /// Names challenge `id`; without a table (`with_table` false), the event is filed under
    /// the challenge, so it names no table nor seat.
    fn challenge(&mut self, id: &str, with_table: bool) {
        self.challenge_id = Some(id.to_owned());
        self.challenge_url = Some(challenge_url(id));
        if !with_table {
            self.table_id = None;
            self.url = None;
            self.seat = None;
        }
    }

    /// The event as a player's webhook posts it: the stream's `data`.
    pub fn webhook_body(event: &PlayerEvent) -> String {
        serde_json::to_string(&PlayerFeedEvent::of(event)).unwrap_or_default()
    }

    /// The event as the stream sends it.
    fn frame(&self) -> Bytes {
        let data = serde_json::to_string(self).unwrap_or_default();
        let kind = serde_json::to_value(self.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        Bytes::from(format!("id: {}\nevent: {kind}\ndata: {data}\n\n", self.seq))
    }
}

/// A player's stream between two of its chunks.
struct FeedStream {
    tables: Tables,
    player_id: String,
    bell: Listening,
    /// The last event sent.
    sent: u64,
    /// Frames ready to send.
    ready: VecDeque<Bytes>,
    heartbeat: tokio::time::Interval,
    /// The last read was a full page: more may follow.
    behind: bool,
}

impl FeedStream {
    /// Reads what this stream has not sent from the database, a page at a time; `false` if
    /// it cannot (the player is gone, or the database failed).
    async fn catch_up(&mut self) -> bool {
        match self
            .tables
            .feed_events(&self.player_id, self.sent, limits::CATCH_UP_PAGE)
            .await
        {
            Ok(caught_up) => {
                self.take(caught_up);
                true
            }
            Err(error) => {
                tracing::warn!(%error, "a player's feed could not be read");
                false
            }
        }
    }

    /// Queues what a catch-up read.
    fn take(&mut self, caught_up: FeedCatchUp) {
        match caught_up {
            FeedCatchUp::Events(events) => {
                self.behind = events.len() == limits::CATCH_UP_PAGE;
                for event in &events {
                    self.sent = event.seq;
                    self.ready.push_back(PlayerFeedEvent::of(event).frame());
                }
            }
            FeedCatchUp::Reset { last } => {
                self.behind = false;
                self.sent = last;
                self.ready
                    .push_back(PlayerFeedEvent::standing(PlayerEventType::Reset, last).frame());
            }
        }
    }

    /// The next chunk to send, waiting for one; `None` ends the stream.
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(frame) = self.ready.pop_front() {
                return Some(frame);
            }
            if self.behind {
                if !self.catch_up().await {
                    return None;
                }
                continue;
            }
            let sent = self.sent;
            tokio::select! {
                _ = self.bell.rung_after(sent) => {
                    if !self.catch_up().await {
                        return None;
                    }
                }
                _ = self.heartbeat.tick() => {
                    // Another replica's event whose notification was lost (the listener
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

/// Streams the player's feed as it happens (server-sent events): every event of every table
/// the player sits at, and its notices (`your_turn` once per turn, `deadline_near`,
/// `deadline_passed`, `table_started`, `table_finished`). Without `Last-Event-ID` the stream
/// opens with `feed` (where the feed stands); with it, with every event after that one, or
/// with `reset` when more than 200 were missed or they were forgotten (kept 30 days). Each
/// event's `id` is its `seq`. Each address, and each site whose key is sent, has a share of
/// the server's feeds.
#[utoipa::path(
    tag = "players",
    params(
        ("Authorization" = Option<String>, Header, description = "`Bearer <credential>`: the player's credential (or `credential` in the query)"),
        ("Last-Event-ID" = Option<u64>, Header, description = "The `seq` of the last event received: the stream sends every event after it (or a `reset`)"),
        ("Moot-Site-Key" = Option<String>, Header, description = "A site's key, from the server's `--site-keys` file: the feed counts against that site's share (half of the server's feeds), not its address's (64); a key that is no site's is 401 `unknown_site_key`"),
        StreamQuery,
    ),
    responses(
        (status = 200, description = "The events, as `text/event-stream`: each `data` is one `PlayerFeedEvent`, its `event` the event's `type` and its `id` its `seq`", body = PlayerFeedEvent, content_type = "text/event-stream"),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's; `unknown_site_key`: the `Moot-Site-Key` sent is no site's of this server", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: `Last-Event-ID` is not a whole number", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`streams_full`: a cap on open feeds is met; `cap` names it (`player`: 8 at once; `address`: this address's share; `site`: this site's share; `server`), the detail the flag that raises it. `storage_unavailable`: the tables' database cannot be read now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/players/me/events")]
pub async fn my_events(
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let seen = last_event_id(&http)?;
    let holder = holder(&policy, &http)?;
    let Some((credential, field)) = stream_credential(&http) else {
        return Err(ApiError::new(
            ErrorCode::UnknownPlayerKey,
            "send the player's credential as `Authorization: Bearer <credential>`, or as \
             `credential` in the query",
        ));
    };
    let player = known_player(&policy, &http, &credential, field).await?;
    feed_stream(policy.tables().clone(), player.id, seen, holder).await
}

/// Player `player_id`'s feed from after `seen` (or from where it stands), counted against
/// `holder`'s share: the answer of [`my_events`], and of the pages' own stream.
pub(crate) async fn feed_stream(
    tables: Tables,
    player_id: String,
    seen: Option<u64>,
    holder: Option<Holder>,
) -> Result<HttpResponse, ApiError> {
    // The bell is followed before the feed is read, so that no event falls between the two.
    let bell = tables
        .bells()
        .follow(&player_id, holder)
        .map_err(player_feeds_full)?;
    let start = tokio::time::Instant::now() + limits::STREAM_HEARTBEAT;
    let mut stream = FeedStream {
        tables,
        player_id,
        bell,
        sent: 0,
        ready: VecDeque::new(),
        heartbeat: tokio::time::interval_at(start, limits::STREAM_HEARTBEAT),
        behind: false,
    };
    // How long a browser waits before reconnecting (ms).
    stream
        .ready
        .push_back(Bytes::from_static(b"retry: 2000\n\n"));
    match seen {
        // Opened afresh: where the feed stands, then what comes.
        None => {
            let last = stream
                .tables
                .feed_last(&stream.player_id)
                .await
                .map_err(problem)?;
            stream.sent = last;
            stream
                .ready
                .push_back(PlayerFeedEvent::standing(PlayerEventType::Feed, last).frame());
        }
        Some(seen) => {
            stream.sent = seen;
            let caught_up = stream
                .tables
                .feed_events(&stream.player_id, seen, limits::CATCH_UP_PAGE)
                .await
                .map_err(problem)?;
            stream.take(caught_up);
        }
    }
    Ok(event_stream(futures_util::stream::unfold(
        stream,
        |mut stream| async move { Some((stream.next().await?, stream)) },
    )))
}
