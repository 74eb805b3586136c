//! Each table's changes as they are committed, to whoever follows the table in this process
//! (the event streams): one broadcast channel per followed table, made by its first follower
//! and dropped with its last. Commits of this process are published here directly; with
//! PostgreSQL, another replica's commits arrive through `LISTEN/NOTIFY` (see
//! [`super::Tables::listen`], in [`super::announce`]) and are published here too.
//!
//! A follower may still miss a change (it lagged behind its channel, or a notification was lost
//! while the listener reconnected): each change carries its [`Change::seq`], so a follower
//! that sees a gap reads what it missed from the database.
//!
//! Places are kept for the people at the table: a seat's followers (who presented its
//! credential) are counted apart from watchers, so that watchers filling a table's places never
//! shut its players out, and watchers may take at most nine tenths of the server's places. Each
//! holder (an address, or a site by its key: see [`super::holders`]) has a share of watchers'
//! streams and a share of seats' streams, counted apart for the same reason, so that no one
//! client holds every place of the server, as a seat's or as a watcher.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::Change;
use super::deadlines::DeadlineNotice;
use super::holders::{Holder, Holdings};
use super::seat_notice::SeatNotice;
use moot_games::Seat;

/// Changes a follower may fall behind by before it must read the database to catch up.
const CHANNEL_DEPTH: usize = 16;

/// How many followers the feed takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeedLimits {
    /// Watchers of one table at once.
    pub per_table: usize,
    /// Followers of one seat at once (its player's tabs and devices).
    pub per_seat: usize,
    /// Followers from one address (an IPv6 address's /64) at once, of every table: watchers
    /// and seats' followers each.
    pub per_address: usize,
    /// Followers from one site (its key) at once, of every table: watchers and seats'
    /// followers each.
    pub per_site: usize,
    /// Followers of all tables at once.
    pub in_all: usize,
}

impl Default for FeedLimits {
    fn default() -> Self {
        use crate::limits::tables as limits;
        FeedLimits {
            per_table: limits::STREAMS_PER_TABLE,
            per_seat: limits::STREAMS_PER_SEAT,
            per_address: limits::STREAMS_PER_ADDRESS,
            per_site: limits::streams_per_site(limits::MAX_STREAMS),
            in_all: limits::MAX_STREAMS,
        }
    }
}

impl FeedLimits {
    /// The most watchers of all tables at once: a tenth of the places is kept for seats.
    fn watchers_in_all(&self) -> usize {
        self.in_all - self.in_all / 10
    }
}

/// Who follows a table, and whose share the stream counts against (if known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// A seat's player (its credential was presented).
    Seat(Seat, Option<Holder>),
    /// Anyone with the table's id.
    Watcher(Option<Holder>),
}

impl Who {
    /// Whose share the stream counts against.
    fn holder(&self) -> Option<&Holder> {
        match self {
            Who::Seat(_, holder) | Who::Watcher(holder) => holder.as_ref(),
        }
    }
}

/// Why a follower was refused: each says the cap, and the flag that raises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FeedFull {
    /// The table has as many watchers as one table may.
    #[error(
        "this table has {0} watchers: the most one table may have (--event-streams-per-table); \
         its seats still may follow it"
    )]
    Table(usize),
    /// The seat has as many followers as one seat may.
    #[error(
        "this seat has {0} event streams open: the most one seat may have (--event-streams-per-seat)"
    )]
    Seat(usize),
    /// The address has as many streams of this kind (watchers' or seats') as one address may.
    #[error(
        "{0} event streams are open from this address: the most one address may have \
         (--event-streams-per-address)"
    )]
    Address(usize),
    /// The site has as many streams of this kind (watchers' or seats') as one site may.
    #[error(
        "{0} event streams are open with this site's key: the most one site may have \
         (--event-streams-per-site)"
    )]
    Site(usize),
    /// The server has as many followers (or watchers) as it takes.
    #[error("this server has {0} event streams open: the most it keeps (--max-event-streams)")]
    Server(usize),
}

impl FeedFull {
    /// A holder's refusal, holding `held`.
    fn of_holder(holder: &Holder, held: usize) -> FeedFull {
        match holder {
            Holder::Address(_) => FeedFull::Address(held),
            Holder::Site(_) => FeedFull::Site(held),
        }
    }
}

/// One followed table: its channel and who follows it.
#[derive(Debug)]
struct Followed {
    sender: broadcast::Sender<Published>,
    watchers: usize,
    seats: [usize; 2],
}

impl Followed {
    fn is_empty(&self) -> bool {
        self.watchers == 0 && self.seats == [0, 0]
    }
}

/// The followed tables of this process. Cheap to clone: clones share the channels.
#[derive(Clone, Debug)]
pub struct Feed {
    channels: Arc<DashMap<String, Followed>>,
    /// Watchers by holder.
    watchers_by: Arc<Holdings>,
    /// Seats' followers by holder, counted apart: an address's watchers never take them.
    seats_by: Arc<Holdings>,
    open: Arc<AtomicUsize>,
    watching: Arc<AtomicUsize>,
    limits: FeedLimits,
    /// Cancelled when the server stops: every follower hears the end.
    closing: CancellationToken,
}

/// One follower of one table: its changes as they are published. Leaving (dropping it) frees
/// its place, and the table's channel once nobody follows it.
#[derive(Debug)]
pub struct Follower {
    receiver: broadcast::Receiver<Published>,
    id: String,
    who: Who,
    /// Given back after the follower leaves its table.
    places: Places,
}

/// What a follower is told next.
#[derive(Debug)]
pub enum Next {
    /// A change, as committed.
    Change(Arc<Change>),
    /// A deadline of the table came near or passed: a notice, not a change (it follows the
    /// change numbered its `seq`).
    Deadline(Arc<DeadlineNotice>),
    /// A seat asked for a takeback or declined one, went on vacation or came back: a notice,
    /// likewise.
    Seat(Arc<SeatNotice>),
    /// Changes were dropped while this follower lagged: read them from the database.
    Missed,
}

/// What a table's channel carries.
#[derive(Clone, Debug)]
enum Published {
    Change(Arc<Change>),
    Deadline(Arc<DeadlineNotice>),
    Seat(Arc<SeatNotice>),
    /// A change that cannot be told as one (another replica's takeback): read from where
    /// each follower is.
    Missed,
}

/// Takes one of `limit` places counted by `count`, or says how many are taken.
fn take(count: &AtomicUsize, limit: usize) -> Result<(), usize> {
    count
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < limit).then_some(n + 1)
        })
        .map(drop)
}

impl Feed {
    /// A feed taking at most `limits` followers.
    pub fn new(limits: FeedLimits) -> Feed {
        Feed {
            channels: Arc::default(),
            watchers_by: Arc::default(),
            seats_by: Arc::default(),
            open: Arc::default(),
            watching: Arc::default(),
            limits,
            closing: CancellationToken::new(),
        }
    }

    /// Followers of every table now (each a live stream: a stream's follower leaves when its
    /// client goes).
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Follows table `id` from now on as `who`, if the limits allow one more follower.
    pub fn follow(&self, id: &str, who: Who) -> Result<Follower, FeedFull> {
        let places = self.take_places(&who)?;
        let refusal = {
            let mut followed = self
                .channels
                .entry(id.to_owned())
                .or_insert_with(|| Followed {
                    sender: broadcast::channel(CHANNEL_DEPTH).0,
                    watchers: 0,
                    seats: [0, 0],
                });
            let (count, limit, refusal): (_, _, fn(usize) -> FeedFull) = match who {
                Who::Seat(seat, _) => (
                    &mut followed.seats[seat.index()],
                    self.limits.per_seat,
                    FeedFull::Seat,
                ),
                Who::Watcher(_) => (
                    &mut followed.watchers,
                    self.limits.per_table,
                    FeedFull::Table,
                ),
            };
            if *count < limit {
                *count += 1;
                let receiver = followed.sender.subscribe();
                return Ok(Follower {
                    receiver,
                    id: id.to_owned(),
                    who,
                    places,
                });
            }
            refusal(*count)
        };
        // The channel may have been made for this follower alone.
        self.channels.remove_if(id, |_, f| f.is_empty());
        Err(refusal)
    }

    /// The server's places `who` takes before its table's: one of all, one of the watchers'
    /// (for a watcher), and one of its holder's share; each given back if a later one is
    /// refused.
    fn take_places(&self, who: &Who) -> Result<Places, FeedFull> {
        take(&self.open, self.limits.in_all).map_err(FeedFull::Server)?;
        let mut places = Places {
            feed: self.clone(),
            watching: false,
            held: None,
        };
        let watcher = matches!(who, Who::Watcher(_));
        if watcher {
            take(&self.watching, self.limits.watchers_in_all()).map_err(FeedFull::Server)?;
            places.watching = true;
        }
        if let Some(holder) = who.holder() {
            let share = holder.share(self.limits.per_address, self.limits.per_site);
            self.holdings(watcher)
                .take(holder, share)
                .map_err(|held| FeedFull::of_holder(holder, held))?;
            places.held = Some(holder.clone());
        }
        Ok(places)
    }

    /// The holders' counts of watchers, or of seats' followers.
    fn holdings(&self, watchers: bool) -> &Holdings {
        if watchers {
            &self.watchers_by
        } else {
            &self.seats_by
        }
    }

    /// Tells the table's followers in this process of a change (nobody, if nobody follows it).
    pub fn publish(&self, change: Change) {
        if let Some(followed) = self.channels.get(&change.table_id) {
            // An error means every follower left meanwhile: nobody to tell.
            let _ = followed.sender.send(Published::Change(Arc::new(change)));
        }
    }

    /// Tells the table's followers in this process of a deadline notice.
    pub fn publish_deadline(&self, notice: DeadlineNotice) {
        if let Some(followed) = self.channels.get(&notice.table_id) {
            let _ = followed.sender.send(Published::Deadline(Arc::new(notice)));
        }
    }

    /// Tells the table's followers in this process of a seat's notice.
    pub fn publish_seat_notice(&self, notice: SeatNotice) {
        if let Some(followed) = self.channels.get(&notice.table_id) {
            let _ = followed.sender.send(Published::Seat(Arc::new(notice)));
        }
    }

    /// Tells the table's followers in this process to read what they missed from the database.
    pub fn publish_missed(&self, id: &str) {
        if let Some(followed) = self.channels.get(id) {
            let _ = followed.sender.send(Published::Missed);
        }
    }

    /// Ends every follower's stream, now and from now on: the server is stopping.
    pub fn close(&self) {
        self.closing.cancel();
    }

    /// Whether anyone in this process follows table `id`.
    pub fn is_followed(&self, id: &str) -> bool {
        self.channels.contains_key(id)
    }
}

/// The server's places a follower holds: given back when dropped, as it leaves or when it is
/// refused part way in.
#[derive(Debug)]
struct Places {
    feed: Feed,
    /// One of the watchers' places.
    watching: bool,
    /// One of this holder's places (a watcher's, or a seat follower's).
    held: Option<Holder>,
}

impl Drop for Places {
    fn drop(&mut self) {
        self.feed.open.fetch_sub(1, Ordering::AcqRel);
        if self.watching {
            self.feed.watching.fetch_sub(1, Ordering::AcqRel);
        }
        if let Some(holder) = &self.held {
            self.feed.holdings(self.watching).give_back(holder);
        }
    }
}

impl Follower {
    /// The next change published for the table; `None` once the feed is closed.
    pub async fn next(&mut self) -> Option<Next> {
        let received = tokio::select! {
            biased;
            () = self.places.feed.closing.cancelled() => return None,
            received = self.receiver.recv() => received,
        };
        match received {
            Ok(Published::Change(change)) => Some(Next::Change(change)),
            Ok(Published::Deadline(notice)) => Some(Next::Deadline(notice)),
            Ok(Published::Seat(notice)) => Some(Next::Seat(notice)),
            Ok(Published::Missed) => Some(Next::Missed),
            Err(broadcast::error::RecvError::Lagged(_)) => Some(Next::Missed),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }
}

impl Drop for Follower {
    /// Leaves the table; then `Places` gives back the server's places.
    fn drop(&mut self) {
        let channels = &self.places.feed.channels;
        // Under the map's lock, where a new follower is counted in: the channel goes only when
        // nobody follows it.
        if let Some(mut followed) = channels.get_mut(&self.id) {
            match self.who {
                Who::Seat(seat, _) => followed.seats[seat.index()] -= 1,
                Who::Watcher(_) => followed.watchers -= 1,
            }
        }
        channels.remove_if(&self.id, |_, f| f.is_empty());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{After, Event, Standing};

    fn change(id: &str, ply: u64) -> Change {
        Change {
            table_id: id.to_owned(),
            seq: ply + 1,
            event: Event::Resigned { seat: Seat::First },
            after: After {
                ply,
                standing: Standing::Ongoing {
                    to_act: Seat::First,
                },
                deadline: None,
                updated: 0,
            },
        }
    }

    fn limits() -> FeedLimits {
        FeedLimits {
            per_table: 2,
            per_seat: 1,
            per_address: 3,
            per_site: 3,
            in_all: 4,
        }
    }

    const ANYONE: Who = Who::Watcher(None);

    #[tokio::test]
    async fn followers_hear_their_table_only_and_leave_no_channel_behind() {
        let feed = Feed::new(limits());
        let mut a = feed.follow("a", ANYONE).unwrap();
        let b = feed.follow("b", ANYONE).unwrap();
        feed.publish(change("b", 1));
        feed.publish(change("a", 2));
        match a.next().await {
            Some(Next::Change(c)) => assert_eq!(c.after.ply, 2),
            other => panic!("{other:?}"),
        }
        drop(b);
        assert!(!feed.is_followed("b"), "the last follower took the channel");
        assert!(feed.is_followed("a"));
        assert_eq!(feed.open(), 1);
    }

    #[test]
    fn followers_are_bounded_per_table_and_in_all() {
        let feed = Feed::new(FeedLimits {
            in_all: 3,
            ..limits()
        });
        let _a1 = feed.follow("a", ANYONE).unwrap();
        let _a2 = feed.follow("a", ANYONE).unwrap();
        assert_eq!(feed.follow("a", ANYONE).unwrap_err(), FeedFull::Table(2));
        let _b = feed.follow("b", ANYONE).unwrap();
        assert_eq!(feed.follow("c", ANYONE).unwrap_err(), FeedFull::Server(3));
        assert!(
            !feed.is_followed("c"),
            "a refused follower leaves no channel"
        );
        assert_eq!(feed.open(), 3);
    }

    #[test]
    fn a_seat_follows_its_table_when_watchers_took_every_place_of_it() {
        let feed = Feed::new(FeedLimits {
            in_all: 10,
            ..limits()
        });
        let _w1 = feed.follow("a", ANYONE).unwrap();
        let _w2 = feed.follow("a", ANYONE).unwrap();
        let first = feed.follow("a", Who::Seat(Seat::First, None)).unwrap();
        assert_eq!(
            feed.follow("a", Who::Seat(Seat::First, None)).unwrap_err(),
            FeedFull::Seat(1),
            "a seat's own places are bounded too"
        );
        drop(first);
        // Watchers take at most nine tenths of the server's ten places…
        let mut watchers = Vec::new();
        for table in ["b", "b", "c", "c", "d", "d", "e"] {
            watchers.push(feed.follow(table, ANYONE).unwrap());
        }
        assert_eq!(feed.follow("f", ANYONE).unwrap_err(), FeedFull::Server(9));
        // …and the tenth is a seat's.
        let _first = feed.follow("a", Who::Seat(Seat::First, None)).unwrap();
        assert_eq!(
            feed.follow("a", Who::Seat(Seat::Second, None)).unwrap_err(),
            FeedFull::Server(10)
        );
        assert_eq!(feed.open(), 10);
    }

    fn address(text: &str) -> Option<Holder> {
        Some(Holder::Address(text.parse().unwrap()))
    }

    #[test]
    fn watchers_from_one_address_have_a_share_given_back_as_they_leave() {
        let feed = Feed::new(FeedLimits {
            per_address: 2,
            ..limits()
        });
        let here = Who::Watcher(address("192.0.2.1"));
        let there = Who::Watcher(address("192.0.2.2"));
        let first = feed.follow("a", here.clone()).unwrap();
        let _second = feed.follow("b", here.clone()).unwrap();
        assert_eq!(
            feed.follow("c", here.clone()).unwrap_err(),
            FeedFull::Address(2)
        );
        let _other = feed.follow("c", there).unwrap();
        drop(first);
        let _again = feed.follow("c", here).unwrap();
        assert_eq!(feed.open(), 3);
    }

    #[test]
    fn seats_followed_from_one_address_have_a_share_apart_from_its_watchers() {
        let feed = Feed::new(FeedLimits {
            per_address: 2,
            per_seat: 4,
            in_all: 100,
            ..limits()
        });
        let here = address("192.0.2.1");
        let seat = |seat| Who::Seat(seat, here.clone());
        let _w1 = feed.follow("a", Who::Watcher(here.clone())).unwrap();
        let _w2 = feed.follow("b", Who::Watcher(here.clone())).unwrap();
        // The address's watchers are at their share: its seats still follow their tables…
        let first = feed.follow("a", seat(Seat::First)).unwrap();
        let _second = feed.follow("b", seat(Seat::Second)).unwrap();
        // …up to a share of their own, across tables.
        assert_eq!(
            feed.follow("c", seat(Seat::First)).unwrap_err(),
            FeedFull::Address(2)
        );
        assert_eq!(
            feed.follow("c", Who::Seat(Seat::First, address("192.0.2.2")))
                .map(drop),
            Ok(())
        );
        drop(first);
        let _again = feed.follow("c", seat(Seat::First)).unwrap();
    }

    #[test]
    fn a_sites_streams_count_against_the_site_not_its_address() {
        let feed = Feed::new(FeedLimits {
            per_address: 1,
            per_site: 3,
            in_all: 100,
            ..limits()
        });
        let club = || Some(Holder::Site("club".into()));
        let mut held = Vec::new();
        for table in ["a", "b", "c"] {
            held.push(feed.follow(table, Who::Watcher(club())).unwrap());
        }
        assert_eq!(
            feed.follow("d", Who::Watcher(club())).unwrap_err(),
            FeedFull::Site(3)
        );
        // The site's seats have their own share, and other sites theirs.
        for table in ["a", "b", "c"] {
            held.push(feed.follow(table, Who::Seat(Seat::First, club())).unwrap());
        }
        assert_eq!(
            feed.follow("d", Who::Seat(Seat::First, club()))
                .unwrap_err(),
            FeedFull::Site(3)
        );
        let other = Who::Watcher(Some(Holder::Site("other".into())));
        let _other = feed.follow("d", other).unwrap();
        held.pop();
        let _again = feed.follow("d", Who::Seat(Seat::First, club())).unwrap();
        assert_eq!(feed.open(), 7);
    }

    #[test]
    fn a_refused_follower_gives_back_every_place_it_took_on_the_way() {
        let feed = Feed::new(FeedLimits {
            per_table: 1,
            in_all: 10,
            ..limits()
        });
        let here = Who::Watcher(address("192.0.2.1"));
        let _watcher = feed.follow("a", here.clone()).unwrap();
        // Refused by the table after the server's and the address's places were taken.
        assert_eq!(
            feed.follow("a", here.clone()).unwrap_err(),
            FeedFull::Table(1)
        );
        assert_eq!(feed.open(), 1);
        assert_eq!(feed.watchers_by.held(here.holder().unwrap()), 1);
        assert_eq!(feed.watching.load(Ordering::Acquire), 1);
    }
}
