//! The bounds on the work one request may ask for: the presentation layer's (moves, links,
//! excerpts), which the API shares, and the HTTP layer's deadlines.

use std::time::Duration;

pub use moot_present::limits::*;

/// The longest a client may take to send a request's body once its head has arrived: a body
/// shorter than its `Content-Length`, or trickled, is answered 408 `request_timeout` after this.
pub const BODY_DEADLINE: Duration = Duration::from_secs(10);

/// The longest answer for the request head (actix's default, set here deliberately).
pub const HEAD_DEADLINE: Duration = Duration::from_secs(5);

/// At a stop (SIGTERM, SIGINT), how long the requests under way may take to finish before
/// their connections are closed.
pub const GRACE: Duration = Duration::from_secs(10);

/// Tables (`/api/v1/tables`): what one client may create, how many may be open in all, how
/// many wrong seat credentials one client may send, how long finished tables are kept.
pub mod tables {
    use std::time::Duration;

    /// Tables one client (address) may create in a burst…
    pub const CREATE_BURST: u32 = 20;
    /// …and one more every this long.
    pub const CREATE_EVERY: Duration = Duration::from_secs(30);
    /// Open (unfinished) tables the server keeps at once; more are refused (503 `tables_full`).
    pub const MAX_OPEN: u64 = 100_000;
    /// Wrong or missing seat credentials one client may send in a burst (401 each), past which
    /// it is refused with 429 `rate_limited` before any credential is checked…
    pub const GUESS_BURST: u32 = 20;
    /// …and one more every this long.
    pub const GUESS_EVERY: Duration = Duration::from_secs(5);
    /// Days a finished table is kept before the sweep deletes it.
    pub const KEEP_FINISHED_DAYS: u32 = 90;
    /// Days a webhook event or a push is kept once delivered or given up: long enough to look
    /// into a receiver's complaint, and no one asks for a delivered event again (a receiver
    /// deduplicates by its id, a retry is never sent once it was taken).
    pub const KEEP_DELIVERED_DAYS: u32 = 3;
    /// Takeback requests and rematch offers a table takes between two of its moves: enough
    /// to ask again after a decline, not to flood the opponent's devices.
    pub const OFFERS_PER_MOVE: u32 = 3;
    /// Requests with an `Idempotency-Key` one address may send in a burst (each keeps its
    /// answer, compressed, for a day), room for a site's backend without a site key…
    pub const KEYS_BURST: u32 = 10_000;
    /// …and one more every this long: a bound on the answers one address keeps (a few hundred
    /// megabytes at most), where one sending keyed moves without pause kept gigabytes a day.
    pub const KEYS_EVERY: Duration = Duration::from_secs(1);
    /// The most plies (moves) one table may have: the move that reaches it ends the table,
    /// drawn (`ended_by: "ply_limit"`). It bounds what one table may grow to (its moves' rows,
    /// and a Hirþ state, which holds its match's record) and leaves room for a long match: a
    /// match to Hirþ's largest target ([`moot_games::hirth::MAX_TARGET`] points) is at most 41
    /// games, which leaves each about 240 plies (a Hirþ turn is up to six: five steps and
    /// `end`).
    pub const MAX_PLIES: u64 = 10_000;
    /// Days a table with no clock is kept open after its last move; then the sweep closes it
    /// as abandoned (finished, no winner). A table with a clock waits this long past its
    /// deadline (its waiting seat may claim the win until then).
    pub const ABANDON_AFTER_DAYS: u32 = 30;
    /// Days a table where no one moved yet is kept open after it was created (with a clock,
    /// after its first deadline); then the sweep closes it as abandoned.
    pub const ABANDON_UNSTARTED_AFTER_DAYS: u32 = 7;
    /// How often the sweep runs.
    pub const SWEEP_EVERY: Duration = Duration::from_secs(60 * 60);
    /// How long a request waits for a database connection (PostgreSQL down, every
    /// connection busy) before 503 `storage_unavailable`: short, so that a client hears of an
    /// outage at once and retries, rather than holding a connection for half a minute.
    pub const DATABASE_WAIT: Duration = Duration::from_secs(3);
    /// What a refusal for storage asks the client to wait before retrying, in seconds.
    pub const STORAGE_RETRY_AFTER: u64 = 5;
    /// How often the database's file (SQLite) is checked for its identity, and a database
    /// that failed is tried again, when no request does so.
    pub const HEALTH_EVERY: Duration = Duration::from_secs(5);
    /// How long a readiness probe's answer is reused: probes from many balancers cost one
    /// write a second at most.
    pub const PROBE_REUSED_FOR: Duration = Duration::from_secs(1);
    /// The longest clock a table may have, in days per move.
    pub const MAX_DAYS_PER_MOVE: u32 = 60;
    /// The longest name of a seat, in characters.
    pub const NAME_CHARS: usize = 40;
    /// A webhook's secret, in characters: long enough not to be guessed, short enough to keep.
    pub const WEBHOOK_SECRET_CHARS: std::ops::RangeInclusive<usize> = 16..=256;
    /// Watchers' event streams open on one table at once; more are refused with 503. The
    /// seats' own streams are counted apart.
    pub const STREAMS_PER_TABLE: usize = 32;
    /// Event streams one seat's player may have open at once (tabs and devices).
    pub const STREAMS_PER_SEAT: usize = 4;
    /// Event streams open from one address (an IPv6 address's /64) at once, of every table:
    /// watchers' and seats' each (counted apart, so that an address's watchers never shut its
    /// players out).
    pub const STREAMS_PER_ADDRESS: usize = 64;
    /// Event streams one site (a `Moot-Site-Key`) may have open at once, watchers' and seats'
    /// each, of `in_all` on the server: a quarter, so that one site holds at most half of the
    /// places and the rest are left to the other sites and to players' own browsers.
    pub const fn streams_per_site(in_all: usize) -> usize {
        in_all / 4
    }
    /// Event streams open on the server at once; more are refused with 503. An idle stream
    /// costs a few kilobytes.
    pub const MAX_STREAMS: usize = 20_000;
    /// How often an idle event stream gets a comment line (so that proxies keep it open), and
    /// with PostgreSQL checks the database for a change it was not told of.
    pub const STREAM_HEARTBEAT: Duration = Duration::from_secs(25);
    /// A follower more changes behind than this is sent the table as it stands (one `reset`
    /// event) rather than each change it missed.
    pub const RESET_AFTER_CHANGES: u64 = 200;
    /// Changes a follower catching up reads from the database at a time.
    pub const CATCH_UP_PAGE: usize = 50;
    /// Followers reading the database to catch up at once: a few of the readers' connections,
    /// so that catching up never keeps moves and table reads waiting.
    pub const CATCH_UP_READS: usize = 2;
    /// Moves a page of a table's history holds at most, and when the client names no limit.
    pub const HISTORY_PAGE: u64 = 1_000;
    /// Event streams of one player's feed open at once (tabs and devices).
    pub const STREAMS_PER_PLAYER: usize = 8;
    /// Players' feeds open on the server at once, counted apart from the tables' streams.
    pub const MAX_PLAYER_STREAMS: usize = 2_000;
    /// Players' feeds open from one address (an IPv6 address's /64) at once: eight players at
    /// their full share behind one NAT (a household, a club), and 3% of the server's 2,000, so
    /// that it takes at least 32 addresses, not one, to fill them. A site's backend relaying
    /// its players' feeds sends its key and counts against its site's share instead.
    pub const PLAYER_STREAMS_PER_ADDRESS: usize = 64;
    /// Players' feeds one site may have open at once, of `in_all` on the server: half, so that
    /// one site never holds every place.
    pub const fn player_streams_per_site(in_all: usize) -> usize {
        in_all / 2
    }
    /// Days a player's feed keeps its events: a follower that comes back later is sent one
    /// `reset` (read your tables again) instead of what it missed.
    pub const FEED_KEEP_DAYS: u32 = 30;
    /// How often the deadline worker looks for deadlines come near or passed: a notice is at
    /// most this late.
    pub const DEADLINES_EVERY: Duration = Duration::from_secs(15);
}

/// What webhooks' deliveries may take.
pub mod webhooks {
    use std::time::Duration;

    /// Deliveries one server process makes at once…
    pub const CONCURRENCY: usize = 16;
    /// …and to one receiver (a URL's host and port): a slow receiver holds this many, not all.
    pub const PER_HOST: usize = 2;
    /// Failed deliveries in a row to one receiver that open its circuit breaker: nothing more
    /// is posted to it until a trial…
    pub const BREAKER_FAILURES: u32 = 5;
    /// …after this long; each failed trial doubles the wait…
    pub const BREAKER_WAIT: Duration = Duration::from_secs(30);
    /// …up to this.
    pub const BREAKER_WAIT_CAP: Duration = Duration::from_secs(5 * 60);
    /// The longest a delivery may take, connection included, before it counts as failed.
    pub const TIMEOUT: Duration = Duration::from_secs(10);
    /// The wait before the first retry; each retry waits twice as long as the one before…
    pub const RETRY_BASE: Duration = Duration::from_secs(1);
    /// …up to this long.
    pub const RETRY_CAP: Duration = Duration::from_secs(60 * 60);
    /// How long an event is retried before it is given up (and counted on its table).
    pub const GIVE_UP_AFTER: Duration = Duration::from_secs(24 * 60 * 60);
    /// How long a claimed event is left to the process that claimed it: one that died while
    /// delivering leaves its events to be claimed again after this.
    pub const LEASE: Duration = Duration::from_secs(60);
    /// How often the outbox is looked at when nothing was committed in this process (other
    /// replicas' events, retries that fall due).
    pub const POLL: Duration = Duration::from_secs(1);
    /// How often the outbox's backlog is counted for the gauges in `/metrics`.
    pub const GAUGE_EVERY: Duration = Duration::from_secs(1);
}

/// What Web Push's posts may take.
pub mod push {
    use std::time::Duration;

    /// Pushes one server process posts at once.
    pub const CONCURRENCY: usize = 16;
    /// The longest a post may take, connection included, before it counts as failed.
    pub const TIMEOUT: Duration = Duration::from_secs(10);
    /// The wait before the first retry; each retry waits twice as long as the one before…
    pub const RETRY_BASE: Duration = Duration::from_secs(1);
    /// …up to this long.
    pub const RETRY_CAP: Duration = Duration::from_secs(60 * 60);
    /// How long a push is retried before it is given up: a notice a day late is no notice.
    pub const GIVE_UP_AFTER: Duration = Duration::from_secs(24 * 60 * 60);
    /// How long a claimed push is left to the process that claimed it.
    pub const LEASE: Duration = Duration::from_secs(60);
    /// How often the outbox is looked at when nothing was committed in this process.
    pub const POLL: Duration = Duration::from_secs(1);
    /// How long a push service keeps a push for a browser that is offline (`TTL`).
    pub const TTL: Duration = Duration::from_secs(24 * 60 * 60);
    /// How long each VAPID JWT is valid: push services refuse more than a day.
    pub const JWT_VALID: Duration = Duration::from_secs(12 * 60 * 60);
}
