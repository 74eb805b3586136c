//! Each player's feed: every event of the tables the player sits at, and the notices meant for
//! the player — its turn (once per turn: the steps of a Hirþ turn make one), its deadline near
//! or passed (see [`super::deadlines`]), a table it sits at from now on, a table finished.
//!
//! Events are written in the transaction of the change that made them, so a feed holds an
//! event exactly when its change is committed, and numbered per player (`last_event` on the
//! player's row hands the numbers out; the row's lock makes two tables' changes take turns), so
//! that the numbers commit in order: a follower reading after the last number it saw misses
//! nothing and repeats nothing. The players' rows are locked in the order of their ids, so that
//! two changes seating the same two players never wait on each other.
//!
//! A follower in this process is woken by its player's bell, rung after the commit; with
//! PostgreSQL, another replica's commit rings it through a `NOTIFY` sent in the change's
//! transaction (heard in [`super::announce`]). A follower then reads what it has not seen from
//! the database, a page at a time. A feed keeps its events [`limits::FEED_KEEP_DAYS`]; a
//! follower that comes back later, or is more than [`limits::RESET_AFTER_CHANGES`] behind, is
//! told to read its tables again ([`FeedCatchUp::Reset`]).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::outbox::Hooks;
use super::store::Backend;
use super::write::Write;
use super::{Change, Committed, DAY, EndedBy, Millis, Standing, Table, TableError, Tables};
use crate::limits::tables as limits;
use moot_games::Seat;

/// The PostgreSQL channel of players' events: `<replica>` then `<player id> <seq>` for each
/// player a change wrote to.
pub(super) const PLAYERS_CHANNEL: &str = "moot_player_events";

/// What a player's feed tells of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notice {
    /// A change of the table, as its own followers are told of it.
    Change(Change),
    /// The player's move is awaited: the first of its turn.
    YourTurn {
        /// Moves played.
        ply: u64,
        /// When the move is due, if the table has a clock.
        deadline: Option<Millis>,
    },
    /// Four fifths of the awaited move's time have passed.
    DeadlineNear {
        /// Moves played.
        ply: u64,
        /// The seat whose move is awaited.
        to_act: Seat,
        /// When it is due.
        deadline: Millis,
    },
    /// The awaited move's deadline passed: the waiting seat may claim the win.
    DeadlinePassed {
        /// Moves played.
        ply: u64,
        /// The seat whose move was due.
        to_act: Seat,
        /// When it was due.
        deadline: Millis,
    },
    /// The player sits at the table from now on: it was made with the player seated, or the
    /// player took its seat.
    TableStarted {
        /// The game's id.
        game: String,
        /// Moves played.
        ply: u64,
        /// The seat whose move is awaited, while the table goes on.
        to_act: Option<Seat>,
    },
    /// The table is over.
    TableFinished {
        /// Moves played.
        ply: u64,
        /// The winning seat; `None` for a draw (or an abandoned table).
        winner: Option<Seat>,
        /// How it ended.
        ended_by: EndedBy,
    },
    /// The opponent went on vacation: its clock stops until `until` at the latest.
    VacationStarted {
        /// The seat on vacation.
        by: Seat,
        /// When its vacation ends by itself.
        until: Millis,
        /// The awaited move's deadline now.
        deadline: Option<Millis>,
    },
    /// The opponent came back from vacation: its clock runs again.
    VacationEnded {
        /// The seat back.
        by: Seat,
        /// The awaited move's deadline now.
        deadline: Option<Millis>,
    },
    /// A seat of the finished table offers a rematch.
    RematchOffered {
        /// The seat offering.
        by: Seat,
    },
    /// The offer of a rematch was declined (or withdrawn, by the seat that made it).
    RematchDeclined {
        /// The seat declining.
        by: Seat,
    },
    /// A seat asks to take back its last move (or turn).
    TakebackAsked {
        /// The seat asking.
        by: Seat,
    },
    /// A takeback's request was declined (or withdrawn, by the seat that made it).
    TakebackDeclined {
        /// The seat declining.
        by: Seat,
    },
    /// The rematch was accepted: a new table opened between the same seats.
    RematchAccepted {
        /// The new table's id.
        rematch: String,
    },
    /// The player is invited to a challenge (see [`super::challenges`]). Filed under the
    /// challenge's id, at the seat the player would take (a drawn one reads as the first): there
    /// is no table yet.
    ChallengeReceived {
        /// The challenge's id.
        challenge_id: String,
        /// The game's id.
        game: String,
        /// Who invites: the player's id.
        from_id: String,
        /// The inviter's name, if it has one.
        from: Option<String>,
    },
    /// Someone accepted the player's challenge: filed under the table it opened, at the
    /// player's seat there.
    ChallengeAccepted {
        /// The challenge's id.
        challenge_id: String,
        /// Who accepted: the player's id.
        by_id: String,
        /// The acceptor's name, if it has one.
        by: Option<String>,
    },
    /// The invited player declined the player's challenge. Filed under the challenge's id, at
    /// the creator's seat (a drawn one reads as the first).
    ChallengeDeclined {
        /// The challenge's id.
        challenge_id: String,
        /// Who declined.
        by_id: String,
    },
}

impl Notice {
    /// The event's name, as stored and as the API writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::Change(change) => change.event.name(),
            Notice::YourTurn { .. } => "your_turn",
            Notice::DeadlineNear { .. } => "deadline_near",
            Notice::DeadlinePassed { .. } => "deadline_passed",
            Notice::TableStarted { .. } => "table_started",
            Notice::TableFinished { .. } => "table_finished",
            Notice::VacationStarted { .. } => "vacation_started",
            Notice::VacationEnded { .. } => "vacation_ended",
            Notice::RematchOffered { .. } => "rematch_offered",
            Notice::RematchDeclined { .. } => "rematch_declined",
            Notice::RematchAccepted { .. } => "rematch_accepted",
            Notice::TakebackAsked { .. } => "takeback_asked",
            Notice::TakebackDeclined { .. } => "takeback_declined",
            Notice::ChallengeReceived { .. } => "challenge_received",
            Notice::ChallengeAccepted { .. } => "challenge_accepted",
            Notice::ChallengeDeclined { .. } => "challenge_declined",
        }
    }

    /// What a player seated at `seat` is told of `change`: the change itself, then its turn if
    /// the change gave it the move (`awaited_before` is whose move was awaited before it, so
    /// that a turn of several moves is told once), or the end.
    pub fn of_change(change: &Change, awaited_before: Option<Seat>, seat: Seat) -> Vec<Notice> {
        let mut notices = vec![Notice::Change(change.clone())];
        match change.after.standing {
            Standing::Ongoing { to_act } if to_act == seat && awaited_before != Some(seat) => {
                notices.push(Notice::YourTurn {
                    ply: change.after.ply,
                    deadline: change.after.deadline,
                });
            }
            Standing::Ongoing { .. } => {}
            Standing::Finished { winner, ended_by } => notices.push(Notice::TableFinished {
                ply: change.after.ply,
                winner,
                ended_by,
            }),
        }
        notices
    }
}

/// One event of a player's feed.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerEvent {
    /// Its number in the player's feed, from 1.
    pub seq: u64,
    /// The table it tells of.
    pub table_id: String,
    /// The player's seat at that table.
    pub seat: Seat,
    /// What it tells.
    pub notice: Notice,
    /// When it was written.
    pub time: Millis,
}

/// An event's body as read back.
#[derive(Deserialize)]
struct Body {
    seat: Seat,
    notice: Notice,
}

/// An event's body as written: the same fields.
#[derive(Serialize)]
struct Stored<'a> {
    seat: Seat,
    notice: &'a Notice,
}

/// What a player's follower who saw event `seen` is to be sent.
#[derive(Debug)]
pub enum FeedCatchUp {
    /// The next events, in order (none when it saw the last).
    Events(Vec<PlayerEvent>),
    /// The follower cannot be told what it missed (forgotten, too many, or a number the feed
    /// never had): it should read the player's tables again, and follow from `last`.
    Reset {
        /// The feed's last event.
        last: u64,
    },
}

/// The notices of one change for the players at its table: each player, its seat, and what it
/// is told.
pub(super) type Told = Vec<(String, Seat, Vec<Notice>)>;

impl Rung {
    /// The bells of both `self` and `other`: two tellings in one transaction.
    pub(super) fn and(mut self, other: Rung) -> Rung {
        self.players.extend(other.players);
        self.webhooks |= other.webhooks;
        self.pushes |= other.pushes;
        self
    }
}

/// Events written for players, to ring their bells after the commit.
#[derive(Debug, Default)]
#[must_use = "ring the players' bells after the commit"]
pub(super) struct Rung {
    /// Each player written to, and its last event.
    players: Vec<(String, u64)>,
    /// Whether any event went to the outbox for a player's webhook.
    webhooks: bool,
    /// Whether any event made a push.
    pushes: bool,
}

/// The players seated at a table, with their seats (a seat no player took is not there).
#[derive(Clone, Debug, Default)]
pub(super) struct Sitters(pub(super) Vec<(String, Seat)>);

impl Sitters {
    /// What each is told of `committed` (see [`Notice::of_change`]).
    pub(super) fn told(&self, committed: &Committed, awaited_before: Option<Seat>) -> Told {
        let change = committed.change();
        self.0
            .iter()
            .map(|(player, seat)| {
                let notices = Notice::of_change(&change, awaited_before, *seat);
                (player.clone(), *seat, notices)
            })
            .collect()
    }

    /// What each is told on sitting at `table` from now on: that it does, and its turn if the
    /// table awaits its move.
    pub(super) fn started(&self, table: &Table) -> Told {
        let to_act = match table.standing {
            Standing::Ongoing { to_act } => Some(to_act),
            Standing::Finished { .. } => None,
        };
        self.0
            .iter()
            .map(|(player, seat)| {
                let mut notices = vec![Notice::TableStarted {
                    game: table.game.to_owned(),
                    ply: table.ply,
                    to_act,
                }];
                if to_act == Some(*seat) {
                    notices.push(Notice::YourTurn {
                        ply: table.ply,
                        deadline: table.deadline,
                    });
                }
                (player.clone(), *seat, notices)
            })
            .collect()
    }
}

impl Tables {
    /// In a change's transaction: writes each player's notices to its feed, and on PostgreSQL
    /// tells the other replicas (at the commit). Ring the bells with the answer once committed.
    pub(super) async fn tell_players(
        &self,
        tx: &mut Write,
        table_id: &str,
        mut told: Told,
        now: Millis,
    ) -> Result<Rung, TableError> {
        told.retain(|(_, _, notices)| !notices.is_empty());
        told.sort_by(|a, b| a.0.cmp(&b.0));
        let mut rung = Rung::default();
        // Every event of the change, written in one statement once numbered.
        let mut rows: Vec<(String, u64, &'static str, String)> = Vec::new();
        for (player, seat, notices) in told {
            let row = sqlx::query(
                "UPDATE moot_players SET last_event = last_event + $1 WHERE id = $2 \
                 RETURNING last_event, webhook_url, webhook_secret, site, (SELECT COUNT(*) \
                 FROM moot_push_subscriptions s WHERE s.player_id = moot_players.id) AS browsers",
            )
            .bind(notices.len() as i64)
            .bind(&player)
            .fetch_one(&mut **tx)
            .await?;
            let last: i64 = row.try_get("last_event")?;
            let hooks = Hooks::read(&row)?;
            // Read here, so that a player without browsers to push to costs no query more.
            let pushed = row.try_get::<i64, _>("browsers")? > 0;
            let first = last as u64 + 1 - notices.len() as u64;
            for (seq, notice) in (first..).zip(notices) {
                let event = PlayerEvent {
                    seq,
                    table_id: table_id.to_owned(),
                    seat,
                    notice,
                    time: now,
                };
                let body = serde_json::to_string(&Stored {
                    seat,
                    notice: &event.notice,
                })
                .map_err(|e| TableError::Corrupt(format!("a player's event: {e}")))?;
                if hooks.any() {
                    rung.webhooks |= self
                        .enqueue_player_event(tx, &player, &hooks, &event, now)
                        .await?;
                }
                if let Some(payload) = pushed.then(|| push_payload(&event)).flatten() {
                    rung.pushes |= self.enqueue_push(tx, &player, &payload, now).await? > 0;
                }
                rows.push((player.clone(), seq, event.notice.kind(), body));
            }
            rung.players.push((player, last as u64));
        }
        if rows.is_empty() {
            return Ok(rung);
        }
        // Numbered placeholders (`$1`), which both databases read.
        let values: Vec<String> = (0..rows.len())
            .map(|i| {
                let n = i * 6;
                format!(
                    "(${}, ${}, ${}, ${}, ${}, ${})",
                    n + 1,
                    n + 2,
                    n + 3,
                    n + 4,
                    n + 5,
                    n + 6
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO moot_player_events (player_id, seq, table_id, kind, body, created_ms) \
             VALUES {}",
            values.join(", ")
        );
        let mut insert = sqlx::query(&sql);
        for (player, seq, kind, body) in rows {
            insert = insert
                .bind(player)
                .bind(seq as i64)
                .bind(table_id)
                .bind(kind)
                .bind(body)
                .bind(now);
        }
        insert.execute(&mut **tx).await?;
        if self.store.backend == Backend::Postgres {
            // One notice for every player written to: `<replica> <player> <last> …`.
            let mut payload = self.replica.to_string();
            for (player, last) in &rung.players {
                payload.push_str(&format!(" {player} {last}"));
            }
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(PLAYERS_CHANNEL)
                .bind(payload)
                .execute(&mut **tx)
                .await?;
        }
        Ok(rung)
    }

    /// After the commit: wakes the followers in this process of the players written to.
    pub(super) fn ring_players(&self, rung: Rung) {
        for (player, last) in rung.players {
            self.bells.ring(&player, last);
        }
        if rung.webhooks {
            self.ring_outbox();
        }
        if rung.pushes {
            self.ring_pushes();
        }
    }

    /// Player `player_id`'s last event (0 before its first).
    pub async fn feed_last(&self, player_id: &str) -> Result<u64, TableError> {
        let last: Option<i64> =
            sqlx::query_scalar("SELECT last_event FROM moot_players WHERE id = $1")
                .bind(player_id)
                .fetch_optional(self.store.reads()?)
                .await?;
        Ok(last.ok_or(TableError::UnknownPlayer)? as u64)
    }

    /// What player `player_id`'s follower who saw event `seen` is to be sent: at most `limit`
    /// of the next events, or a reset. Reads take turns with the tables' followers catching up.
    pub async fn feed_events(
        &self,
        player_id: &str,
        seen: u64,
        limit: usize,
    ) -> Result<FeedCatchUp, TableError> {
        let _turn = self.catching_up.acquire().await;
        let last = self.feed_last(player_id).await?;
        if seen > last || last - seen > limits::RESET_AFTER_CHANGES {
            return Ok(FeedCatchUp::Reset { last });
        }
        if seen == last {
            return Ok(FeedCatchUp::Events(Vec::new()));
        }
        let rows = sqlx::query(
            "SELECT seq, table_id, body, created_ms FROM moot_player_events \
             WHERE player_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        )
        .bind(player_id)
        .bind(seen as i64)
        .bind(limit.max(1) as i64)
        .fetch_all(self.store.reads()?)
        .await?;
        let mut events = Vec::with_capacity(rows.len());
        for row in &rows {
            let body: String = row.try_get("body")?;
            let body: Body = serde_json::from_str(&body)
                .map_err(|e| TableError::Corrupt(format!("a player's event: {e}")))?;
            events.push(PlayerEvent {
                seq: row.try_get::<i64, _>("seq")? as u64,
                table_id: row.try_get("table_id")?,
                seat: body.seat,
                notice: body.notice,
                time: row.try_get("created_ms")?,
            });
        }
        // The events after `seen` were forgotten (kept their days, then swept).
        if events.first().map(|e| e.seq) != Some(seen + 1) {
            return Ok(FeedCatchUp::Reset { last });
        }
        Ok(FeedCatchUp::Events(events))
    }

    /// Forgets the players' events written before `before`.
    pub(super) async fn forget_player_events(
        tx: &mut Write,
        before: Millis,
    ) -> Result<(), TableError> {
        sqlx::query("DELETE FROM moot_player_events WHERE created_ms < $1")
            .bind(before)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// The bells of the players followed in this process.
    pub fn bells(&self) -> &Arc<Bells> {
        &self.bells
    }
}

/// What a player's browsers are pushed of `event`, if anything: its turn, its deadline near,
/// its opponent's request to take a move back or offer of a rematch, and an invitation to a
/// game (what the service worker, `static/push-worker.js`, shows: a title, a line, the page
/// to open, and the table, so that a newer notice of a table replaces an older one).
fn push_payload(event: &PlayerEvent) -> Option<String> {
    let (title, body) = match &event.notice {
        Notice::YourTurn { ply, .. } => (
            "Your move",
            format!("It is your move at a table of Moot (move {}).", ply + 1),
        ),
        Notice::DeadlineNear { .. } => (
            "Your move is due soon",
            "Four fifths of the time for your move have passed.".to_owned(),
        ),
        Notice::RematchOffered { by } if *by != event.seat => (
            "A rematch?",
            "Your opponent at a finished table of Moot offers a rematch.".to_owned(),
        ),
        Notice::TakebackAsked { by } if *by != event.seat => (
            "Take a move back?",
            "Your opponent at a table of Moot asks to take back their last move.".to_owned(),
        ),
        Notice::ChallengeReceived { from, .. } => (
            "A game for you",
            match from {
                Some(name) => format!("{name} invites you to a game at Moot."),
                None => "A player invites you to a game at Moot.".to_owned(),
            },
        ),
        _ => return None,
    };
    let payload = serde_json::json!({
        "type": event.notice.kind(),
        "title": title,
        "body": body,
        // The player's own seat at the table: a click on the notice opens the page where it
        // moves (in the browser whose cookie holds the player; elsewhere that page says
        // whose games that browser holds).
        "url": match event.notice {
            // No table yet: the invitation's page, where it is accepted or declined.
            Notice::ChallengeReceived { .. } => crate::paths::challenge(&event.table_id),
            _ => crate::paths::mine(&event.table_id),
        },
        "table_id": event.table_id,
        "seq": event.seq,
    });
    Some(payload.to_string())
}

/// How long a feed keeps its events.
pub(super) const FEED_KEEP: Millis = limits::FEED_KEEP_DAYS as Millis * DAY;

pub use super::bells::{BellLimits, Bells, BellsFull, Listening};

#[cfg(test)]
mod tests;
