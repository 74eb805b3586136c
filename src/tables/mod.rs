//! Tables that Moot keeps: games stored with their seats, each seat's credential, the history
//! of moves and the result, so that two players can play by correspondence. No HTTP here: the
//! API (`crate::api::tables`) turns requests into these operations and their errors into
//! problems.
//!
//! - [`store`]: the database (SQLite or PostgreSQL through one driver), migrated at start;
//!   [`breaker`]: PostgreSQL probed every second, its outage refused at once;
//! - [`secret`]: table ids and seat credentials (random, kept hashed, compared in constant time);
//! - [`policy`]: what each client may do (creations and wrong credentials, at a rate);
//! - [`keeper`]: [`Tables`], the tables of one server, and the write transaction its
//!   operations share (each change one transaction returning the [`Event`] it committed; how
//!   races end);
//! - [`write`]: a change's transaction, which commits durably, rolls back a refusal, and
//!   discards a connection the database failed on;
//! - [`idempotency`]: the first answer of a change sent with an `Idempotency-Key`, remembered
//!   in its transaction (sealed with the key, a change's position kept by reference) and given
//!   again for the same request;
//! - [`backup`]: a consistent copy of an SQLite database, taken while the server runs;
//!   [`checkpoint`]: SQLite's write-ahead log copied into the file beside the writer;
//! - [`health`]: how the database's writes went (for `/readyz`, `/metrics` and the log), and
//!   [`ready`], whether it takes a write now (the probe of `/readyz`);
//! - [`rows`]: the rows as stored ([`rows::StoredTable`], seats, moves) and their mapping to
//!   and from the types below;
//! - the operations, each an `impl Tables` of its own: [`create`] (a new table), [`read`] (a
//!   table, a page of its history, the seat of a credential), [`changes`] (where a table
//!   stands, and the changes a follower missed), [`play`] (a seat's move, resignation or
//!   claim), [`abandon`] (tables left without a move closed), [`sweep`] (finished tables
//!   deleted once old), [`rematch`] (another game between a finished table's seats),
//!   [`takeback`] (a seat's last move taken back, the other seat agreeing);
//! - [`clock`]: a table's clock as a value (hours per move or a bank, weekends, expiry,
//!   vacation) and the one function that says when a move is due; [`vacation`]: a seat's
//!   vacation started and ended;
//! - [`challenges`]: games offered to anyone or to one player, the table opened when one is
//!   accepted;
//! - [`players`]: player keys (a credential that reaches all of a player's seats), the seats
//!   they take, and a player's tables listed in one query;
//! - [`player_feed`]: each player's feed (every event of its tables, its turn, its deadlines,
//!   its tables started and finished), written in each change's transaction, numbered per
//!   player, and the bells that wake its followers; [`deadlines`]: each deadline's notices,
//!   near and passed, told once whichever replica finds them;
//! - [`seat_notice`]: what a seat does that is no change of the game (a takeback asked for, a
//!   vacation), as the table's followers are told of it;
//! - [`announce`]: each committed change told to the table's followers, in this process and,
//!   through PostgreSQL's `NOTIFY`/`LISTEN`, in the other replicas;
//! - [`feed`]: the followers of each table in this process (the event streams), to whom
//!   [`announce`] publishes; [`holders`]: whose share a stream (a table's, or a player's
//!   feed) counts against, an address or a site, and how many each holds;
//! - [`outbox`]: each change of a table with a webhook, written in the change's transaction
//!   and claimed from there by the delivery worker (`crate::webhooks`); [`site_webhooks`]: the
//!   one webhook a site may name for every table and player its key made;
//! - Web Push, for players' notices: [`push_keys`] (the server's VAPID key, made once and
//!   shared by the replicas), [`subscriptions`] (each player's browsers), and [`push`] (the
//!   push outbox, written in the transaction that makes a notice due and claimed from there by
//!   the push worker, `crate::push`).

mod abandon;
mod announce;
pub mod backup;
mod bells;
pub mod breaker;
mod challenge_list;
pub mod challenges;
pub mod changes;
pub mod checkpoint;
pub mod clock;
mod create;
pub mod deadlines;
pub mod feed;
pub mod health;
pub mod holders;
pub mod idempotency;
pub mod keeper;
mod notifier;
mod offers;
pub mod outbox;
mod play;
pub mod player_feed;
pub mod players;
pub mod policy;
pub mod push;
mod push_keys;
mod read;
mod ready;
mod recent;
mod rematch;
mod rows;
mod seat_notice;
pub mod secret;
pub mod site_webhooks;
pub mod store;
pub mod subscriptions;
pub mod sweep;
mod takeback;
mod vacation;
pub(crate) mod write;

pub use abandon::Abandonment;
pub use changes::{After, CatchUp, Change, Head};
pub use clock::{Clock, ClockTimes, OnExpiry, Pace};
pub use feed::{Feed, FeedFull, FeedLimits};
pub use holders::Holder;
pub use idempotency::{Answering, Idempotent, Position, Recall, Remembered};
pub use keeper::Tables;
pub use outbox::{Claimed, EventBody, Hooks, HostShares, receiver_of};
pub use player_feed::{BellLimits, BellsFull};
pub use policy::{TableLimits, TablePolicy};
pub use rematch::Rematched;
pub use seat_notice::{SeatNotice, SeatNoticeKind};
pub use store::{Backend, Store, StoreError, StoreLimits};
pub use takeback::TookBack;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use moot_games::{Game, MoveError, Seat, Status, Turn};

/// Milliseconds since the Unix epoch: how the tables keep time.
pub type Millis = i64;

/// One day, in [`Millis`].
pub const DAY: Millis = 24 * 60 * 60 * 1000;

/// The time now, in [`Millis`].
pub fn now() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as Millis)
}

/// How a finished table ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndedBy {
    /// The game's rules ended it (or its match).
    Rules,
    /// A seat resigned.
    Resignation,
    /// The waiting seat claimed a win after the other's deadline passed.
    Time,
    /// A move brought the table to the most plies a table may have (`Tables::with_ply_cap`):
    /// drawn, whatever the position.
    PlyLimit,
    /// No one moved for as long as a table is kept waiting (see [`Abandonment`]): closed by
    /// the sweep, with no winner.
    Abandoned,
    /// Called off before both seats had moved, by a seat, or by itself when no one moved by
    /// the first deadline: no result.
    Aborted,
}

impl EndedBy {
    /// As stored and as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            EndedBy::Rules => "rules",
            EndedBy::Resignation => "resignation",
            EndedBy::Time => "time",
            EndedBy::PlyLimit => "ply_limit",
            EndedBy::Abandoned => "abandoned",
            EndedBy::Aborted => "aborted",
        }
    }

    fn parse(text: &str) -> Option<EndedBy> {
        [
            EndedBy::Rules,
            EndedBy::Resignation,
            EndedBy::Time,
            EndedBy::PlyLimit,
            EndedBy::Abandoned,
            EndedBy::Aborted,
        ]
        .into_iter()
        .find(|e| e.as_str() == text)
    }
}

/// Where a table stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// The game goes on; this seat acts (the engine decides, so a Hirþ offer's answer goes to
    /// the seat that answers).
    Ongoing {
        /// The seat whose move is awaited.
        to_act: Seat,
    },
    /// The table is over.
    Finished {
        /// The winning seat; `None` for a draw.
        winner: Option<Seat>,
        /// How it ended.
        ended_by: EndedBy,
    },
}

impl Standing {
    /// The change number of a table standing so after `ply` moves, `taken_back` plies having
    /// been taken back before: its ply, twice the plies taken back (a takeback of `k` plies
    /// lowers the ply by `k` and raises the number by `k`), and one more once a seat resigned
    /// or won on time, or the table was closed as abandoned or aborted (no move follows those).
    pub fn seq(&self, ply: u64, taken_back: u64) -> u64 {
        let changes = ply + 2 * taken_back;
        match self {
            Standing::Finished {
                ended_by:
                    EndedBy::Resignation | EndedBy::Time | EndedBy::Abandoned | EndedBy::Aborted,
                ..
            } => changes + 1,
            _ => changes,
        }
    }

    /// Whether the table is over.
    pub fn is_finished(&self) -> bool {
        matches!(self, Standing::Finished { .. })
    }

    /// What the engine says of a position after a move: ongoing, or finished by the rules.
    pub fn after<G: Game>(state: &G::State) -> Standing {
        match G::turn(state) {
            Turn::ToAct(seat) => Standing::Ongoing { to_act: seat },
            Turn::Won(seat) => Standing::Finished {
                winner: Some(seat),
                ended_by: EndedBy::Rules,
            },
            Turn::Drawn => Standing::Finished {
                winner: None,
                ended_by: EndedBy::Rules,
            },
        }
    }
}

/// A seat as anyone may see it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatInfo {
    /// Which seat.
    pub seat: Seat,
    /// The name its player was given at creation, if any.
    pub name: Option<String>,
}

/// Where a table's events are posted, and the secret that signs them.
#[derive(Clone, PartialEq, Eq)]
pub struct Webhook {
    /// The receiver's URL (checked by whoever takes it: see `crate::webhooks::target`).
    pub url: String,
    /// The secret shared with the receiver.
    pub secret: String,
}

impl std::fmt::Debug for Webhook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhook")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// How a table's webhook fares, as anyone reading the table may see it (never its URL or
/// secret).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookHealth {
    /// Events given up after retrying for as long as they may be retried.
    pub failed: u64,
    /// The last delivery's failure, until a delivery succeeds.
    pub last_error: Option<String>,
}

/// A table as it is stored now.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The unguessable id (the capability to read the table).
    pub id: String,
    /// The game's id (`herfor`).
    pub game: &'static str,
    /// The options, as JSON.
    pub options: Value,
    /// The position, as JSON.
    pub state: Value,
    /// Moves played so far.
    pub ply: u64,
    /// Who acts, or how it ended.
    pub standing: Standing,
    /// The engine's status of the position (its words for who acts, or its result).
    pub game_status: Status,
    /// Both seats.
    pub seats: Vec<SeatInfo>,
    /// Days each move may take, if the table's clock is that shorthand's.
    pub days_per_move: Option<u32>,
    /// The table's clock, if it has one.
    pub clock: Option<Clock>,
    /// The times its clock keeps (each seat's bank and vacation), if it has a clock.
    pub clock_times: Option<ClockTimes>,
    /// When the awaited move is due, if the table has a clock and goes on.
    pub deadline: Option<Millis>,
    /// When the table was created.
    pub created: Millis,
    /// When it last changed.
    pub updated: Millis,
    /// How its webhook fares, if it has one.
    pub webhook: Option<WebhookHealth>,
    /// A rematch offered at the finished table, and the tables it links to.
    pub rematch: Rematch,
    /// A takeback asked for, and the plies taken back before.
    pub takebacks: Takebacks,
}

/// A table's takebacks: a seat may ask to take back its last move (or Hirþ turn) while the
/// other has not moved, and the other accepts or declines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Takebacks {
    /// The seat whose request stands, until the other answers or moves.
    pub asked_by: Option<Seat>,
    /// Plies taken back in all (a part of the change number: see [`Standing::seq`]).
    pub plies: u64,
    /// The change number of the last takeback (0 if none): a follower that saw less cannot
    /// be told what changed move by move.
    pub last_seq: u64,
}

/// A table's rematch: offered by a seat of the finished table, accepted by the other, which
/// opens a new table between the same seats, their colours swapped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rematch {
    /// The seat whose offer stands, until the other accepts or either declines.
    pub offered_by: Option<Seat>,
    /// The table this one is the rematch of.
    pub of: Option<String>,
    /// This table's rematch, once accepted.
    pub by: Option<String>,
}

impl Table {
    /// The table's change number, which grows with each change (see [`Standing::seq`]). Each
    /// change's number is the id of its event.
    pub fn seq(&self) -> u64 {
        self.standing.seq(self.ply, self.takebacks.plies)
    }

    /// Whether the table is over.
    pub fn is_finished(&self) -> bool {
        self.standing.is_finished()
    }
}

/// A new table and the credential of each seat (shown once: only their digests are kept).
#[derive(Clone, Debug, PartialEq)]
pub struct Created {
    /// The table.
    pub table: Table,
    /// The credentials, the first seat's first.
    pub credentials: [String; 2],
}

/// One move of a table's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    /// The table's ply after this move (the first move is ply 1).
    pub ply: u64,
    /// The seat that played it.
    pub seat: Seat,
    /// The move in the game's notation.
    pub notation: String,
    /// When it was committed.
    pub time: Millis,
}

/// A table's history: every move, and the record of the game in its own format.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    /// The moves, in order.
    pub moves: Vec<Played>,
    /// The record (Hirþ's own format; the moves in notation for the others).
    pub record: String,
}

/// A page of a table's history: some of its moves, and the record when they are all of them.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPage {
    /// The moves, in order.
    pub moves: Vec<Played>,
    /// The record, when the page holds the whole history.
    pub record: Option<String>,
}

/// What a committed change did: the hook for whatever follows a commit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A move was played.
    Moved(Played),
    /// A seat resigned.
    Resigned {
        /// The seat that resigned.
        seat: Seat,
    },
    /// The waiting seat won on time.
    TimeClaimed {
        /// The seat that claimed.
        seat: Seat,
    },
    /// The sweep closed the table: no one moved for too long.
    Abandoned,
    /// A seat called the table off before both had moved, or no one moved by its first
    /// deadline.
    Aborted,
    /// The other seat accepted a seat's request to take back its last move (or turn).
    TakenBack {
        /// The seat whose moves were taken back: its move is awaited again.
        seat: Seat,
        /// How many plies were taken back.
        plies: u64,
    },
}

/// A change committed: the table after it, and what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Committed {
    /// The table after the change.
    pub table: Table,
    /// What the change did.
    pub event: Event,
}

impl Committed {
    /// The change's number: the table's [`Table::seq`] after it.
    pub fn seq(&self) -> u64 {
        self.table.seq()
    }
}

impl Event {
    /// The event's name, as streams and webhooks give it: `move`, `resign`, `claim`,
    /// `abandoned`, `aborted` or `takeback`.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Moved(_) => "move",
            Event::Resigned { .. } => "resign",
            Event::TimeClaimed { .. } => "claim",
            Event::Abandoned => "abandoned",
            Event::Aborted => "aborted",
            Event::TakenBack { .. } => "takeback",
        }
    }
}

/// Why a table operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// No table has this id (or it was swept).
    #[error("no table has this id")]
    UnknownTable,
    /// The credential is no seat's of this table.
    #[error("the credential is no seat's of this table")]
    BadCredential,
    /// The table is over.
    #[error("the table is over")]
    Finished,
    /// Someone moved since the ply the client saw.
    #[error("the table is at ply {current}, not {seen}")]
    StalePly {
        /// The ply the client saw.
        seen: u64,
        /// The table's ply now.
        current: u64,
    },
    /// Another change of the table at the same ply came between a change's reading and its
    /// writing (a vacation, a seat taken): the change may be read and tried again.
    #[error("the table changed meanwhile; try again")]
    ChangedMeanwhile,
    /// The other seat must act.
    #[error("it is the other seat's turn")]
    NotYourTurn,
    /// A claim by the seat whose move is awaited.
    #[error("only the seat waiting for the other's move may claim")]
    NotWaiting,
    /// A change after the awaited move's deadline, at a table whose expired clock ends the
    /// game: the table is ended on time in the same request.
    #[error("the awaited move's deadline passed: the game ended on time")]
    TimeExpired,
    /// A vacation refused (no allowance, used up, already on one, none to end).
    #[error("{0}")]
    Vacation(String),
    /// A claim before the deadline, or at a table with no clock.
    #[error("{0}")]
    TooEarly(String),
    /// A claim where no one has moved: a table whose first move is late is aborted, not won.
    #[error(
        "no one has moved yet: a table whose first move is late is aborted (no result), not won"
    )]
    Unstarted,
    /// A rematch asked for at a table still going on.
    #[error("the table goes on: a rematch is offered once it is over")]
    Unfinished,
    /// The table's rematch was accepted before: its id.
    #[error("the rematch was accepted: table {0}")]
    Rematched(String),
    /// A rematch declined where none is offered.
    #[error("no rematch is offered at this table")]
    NoRematchOffer,
    /// Another rematch change of the table committed meanwhile (tried again; never answered
    /// but after three such races).
    #[error("the table's rematch changed meanwhile: try again")]
    RematchRace,
    /// A takeback asked for where there is nothing the seat may take back.
    #[error("{0}")]
    NothingToTakeBack(String),
    /// A takeback answered where none is asked for.
    #[error("no takeback is asked for at this table")]
    NoTakebackRequest,
    /// A takeback asked for or a rematch offered once the table took its share since its
    /// last move.
    #[error(
        "this table takes at most {0} takeback requests and rematch offers between two moves: \
         wait for the next move"
    )]
    TooManyOffers(u32),
    /// An abort once both seats have moved.
    #[error("both seats have moved: the table can no longer be aborted (resign instead)")]
    BothMoved,
    /// The engine refused the move.
    #[error("{text}: {error}")]
    Move {
        /// The move as sent.
        text: String,
        /// Why the engine refused it.
        error: MoveError,
    },
    /// A webhook at a server that delivers none.
    #[error("this server delivers no webhooks")]
    WebhooksOff,
    /// As many tables as the server keeps open are open.
    #[error("{0} tables are open: the most this server keeps")]
    Full(u64),
    /// The stored table cannot be read (a bug, or a database edited by hand).
    #[error("the stored table cannot be read: {0}")]
    Corrupt(String),
    /// The database failed (its driver's words, for the log, not for clients).
    #[error("the database failed: {0}")]
    Database(#[from] sqlx::Error),
    /// Another request with the same `Idempotency-Key` made its change first.
    #[error("another request with this Idempotency-Key was carried out meanwhile")]
    KeyTaken,
    /// The SQLite file opened is no longer at its path.
    #[error("{0}")]
    FileLost(String),
    /// PostgreSQL is known to be down: its last probe failed (see [`breaker`]).
    #[error("the database cannot be reached: {0}")]
    DatabaseDown(String),
    /// The player credential is no player's of this server.
    #[error("the player credential is no player's of this server")]
    UnknownPlayer,
    /// Another player holds the seat, or the player holds the table's other seat.
    #[error("{0}")]
    SeatTaken(String),
    /// No challenge has this id.
    #[error("no challenge has this id")]
    UnknownChallenge,
    /// Someone accepted the challenge first.
    #[error("the challenge was accepted already: its table is open")]
    ChallengeTaken,
    /// The challenge is no longer open (declined, cancelled or expired).
    #[error("the challenge is {0}: it can no longer be accepted, declined or cancelled")]
    ChallengeClosed(&'static str),
    /// The player keeps as many challenges open as a player may.
    #[error("this player has {0} challenges open, the most a player keeps: cancel one first")]
    TooManyChallenges(u64),
    /// An invitation to no player, or to its creator.
    #[error("{0}")]
    BadInvite(String),
    /// The creator accepting its own challenge.
    #[error("a player cannot accept its own challenge")]
    OwnChallenge,
    /// An invitation answered by another than the invited player.
    #[error("this challenge is an invitation to another player")]
    NotInvited,
    /// A challenge cancelled by another than its creator.
    #[error("only the challenge's creator may cancel it")]
    NotCreator,
    /// A push's payload larger than a push may carry.
    #[error(
        "a push's payload is {0} bytes; at most {max} are sent",
        max = push::MAX_PAYLOAD_BYTES
    )]
    PushTooLarge(usize),
}

impl TableError {
    /// Whether this is the database failing (down, full, read-only, lost, a connection or a
    /// commit refused), not a refusal of the request: answered 503, retried later. A decoding
    /// error is a bug, and a key taken first is a race lost: neither counts.
    pub fn is_storage(&self) -> bool {
        match self {
            TableError::FileLost(_) | TableError::DatabaseDown(_) => true,
            TableError::Database(error) => {
                !Self::is_unique_violation(error)
                    && !matches!(
                        error,
                        sqlx::Error::ColumnNotFound(_)
                            | sqlx::Error::ColumnIndexOutOfBounds { .. }
                            | sqlx::Error::ColumnDecode { .. }
                            | sqlx::Error::Decode(_)
                            | sqlx::Error::TypeNotFound { .. }
                            | sqlx::Error::RowNotFound
                    )
            }
            _ => false,
        }
    }

    /// Whether a database error is the key of a ply written by someone else first.
    fn is_unique_violation(error: &sqlx::Error) -> bool {
        matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
    }
}
