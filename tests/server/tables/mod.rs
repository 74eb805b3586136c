//! The tables Moot keeps, tested on both databases it supports, real ones: every test runs
//! once on an SQLite file of its own and once on a PostgreSQL database of its own (made on the
//! server `MOOT_TEST_POSTGRES_URL` names; `scripts/test` starts one and sets it). Without that
//! variable the PostgreSQL half is skipped (said on stderr), unless
//! `MOOT_TEST_REQUIRE_POSTGRES=1` (set by `scripts/test`) makes it fail.
//!
//! - `challenges`: open challenges listed, filtered and paged; one of two racing accepts opens
//!   the one table, seated as chosen; cancelled, declined, expired; invitations answered by the
//!   invited alone; the creator's feed told; bad requests refused naming the field;
//! - `challenge_pages`: "Find an opponent" with plain forms and the cookie: two browsers meet
//!   through the list at one table; cancel; an invitation by player id answered on its page;
//! - `games`: whole games of each game through two seats' credentials; the record replays to
//!   the stored state;
//! - `idempotency`: a change sent again with its `Idempotency-Key` answered as the first time
//!   and made once (two at once too); the key reused for another request refused;
//! - `pages`: "Play a friend", two seats playing a whole game from their links, spectators,
//!   refusals said on the page;
//! - `history`: a table's history a page at a time, revalidated with its `ETag`;
//! - `events`: a table's event stream: every move of whole games in order, reconnecting
//!   with `Last-Event-ID`, the end, the bounds;
//! - `refusals`: every refusal code of the tables' routes;
//! - `stream_shares`: the shares of event streams: an address at its share of players' feeds
//!   refused naming the cap while another gets one; a site's key counted against the site, not
//!   its address; a seat's streams from an address apart from its watchers; the server's cap;
//! - `processes`: the real binary: a table survives `kill -9`; 20 clients race for one ply,
//!   on SQLite and on PostgreSQL behind two server processes; a follower on one replica sees
//!   the moves posted on the other (PostgreSQL);
//! - `faults`: the real binary while its database fails: an SQLite file on a full tmpfs, its
//!   directory removed, read-only; a private PostgreSQL stopped and started; `kill -9` and
//!   SIGTERM mid-burst. No acknowledged move lost, every refusal a quick 503, recovery by
//!   itself, exit 0 at SIGTERM;
//! - `replicas`: two replicas on one PostgreSQL, each playing moves from the table as it last
//!   wrote it: a takeback, moves and a seat taken on the other are never overwritten and never
//!   refuse a good move; every change of a table's row or seats raises its version;
//! - `checkpoint`: SQLite's log reaches its file by the checkpoint task, never by a change's
//!   commit;
//! - `sweep`: finished tables are deleted after the days they are kept, by a clock passed in;
//! - `ends`: a table ends drawn at its ply cap; one left without a move is closed as abandoned
//!   (once, by one of two replicas, with its event) after the days it is kept waiting; a move
//!   racing the closing either plays or finds the table closed, never both; a seat aborts a
//!   table before both have moved (not after), and one no one moved in by its first deadline
//!   is aborted once by one of two replicas;
//! - `clocks`: each kind of clock expiring once across two replicas, a late change refused
//!   410 and the table ended on time, a late read showing it ended, the claim kept where the
//!   clock says so; a bank's increment and maximum, weekends paused, vacation, bad clocks;
//! - `feed`: a player's feed: three games' events once, in order, its turn once per turn,
//!   reconnecting, `reset`; deadlines told once, near and passed, across two replicas and a
//!   restart, by a clock passed in;
//! - `players`: player keys: a player takes seats at a creation or with a seat's credential
//!   (once per player, again idempotently), lists its tables (its turn first, filtered, a page
//!   at a time, revalidated) through three whole games, and never sees its credential again;
//! - `webhooks`: every event posted to the table's webhook, signed, once; retried after a
//!   failure, given up after its time (and shown on the table); URLs and secrets refused; a
//!   receiver that never answers delays only its own tables; one failing in a row is left alone
//!   until a trial; claims take each receiver's share;
//! - `site_webhooks`: a site's one webhook: every event of the tables and players its key
//!   made, as their own webhooks get them, signed with its secret, in order; nothing of what
//!   was made without the key; refusals naming the field; read without its secret; removed;
//!   its give-ups counted on it;
//! - `push`: Web Push, the test as push service and browser: a push decrypts to the notice and
//!   carries a VAPID JWT that verifies over the server's key; a 410 drops the subscription, a
//!   500 is retried, two workers post each push once, replicas share one key; the
//!   subscription routes' refusals; the binary posts with its `--push-contact`, stops at SIGTERM;
//! - `your_games`: the pages' player in a cookie (its flags; made at "Play a friend" and at a
//!   seat's link; a forged one replaced), each browser's tables on "Your games" (its turn
//!   first), played at `/table/{id}/mine` with JavaScript off, counted in every header; no
//!   credential in any link or page of these;
//! - `web_push`: notices on the pages: the control rendered hidden for a browser with a player
//!   (on "Your games" and its own seat's page), the pages' routes that keep and forget a
//!   browser's subscription for the cookie's player, and their refusals.

mod challenge_pages;
mod challenges;
mod checkpoint;
mod clocks;
mod db;
mod ends;
mod events;
mod faults;
mod feed;
mod games;
mod history;
mod idempotency;
mod pages;
mod players;
mod processes;
mod push;
mod refusals;
mod rematch;
mod replicas;
mod site_webhooks;
mod sse;
mod stream_shares;
mod sweep;
mod takeback;
mod web_push;
mod webhooks;
mod your_games;

/// Runs an async test body once per database: `both!(name, |url: String| async move { … })` makes
/// `name::sqlite` and `name::postgres`.
#[macro_export]
macro_rules! both {
    ($name:ident, $body:expr) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[actix_web::test]
            async fn sqlite() {
                let url = $crate::tables::db::sqlite_url();
                ($body)(url).await;
            }

            #[actix_web::test]
            async fn postgres() {
                let Some(url) = $crate::tables::db::postgres_url().await else {
                    return;
                };
                ($body)(url).await;
            }
        }
    };
}
