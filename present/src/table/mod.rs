//! A kept table on the pages: the view data of a seat's page and of the spectators' page, and
//! the words they say. The server keeps the tables; it hands each here as plain facts
//! ([`KeptTable`]: its ply, standing, seats and clock), with the page's visitor and links
//! ([`Visit`], [`TableLinks`]), and answers with the view data that comes back.
//!
//! - [`page`]: a table's page from its facts and its game's moves;
//! - [`panel`]: who sits where, the clock, and the seat's actions outside the rules;
//! - [`rematch`]: a finished table's rematch, offered, answered or linked;
//! - [`takeback`]: a seat's last move taken back, asked for and answered;
//! - [`words`]: a seat's refusals over the board, an ending outside the rules, the time shown,
//!   the new table's and the friend page's lines.

pub mod page;
pub mod panel;
pub mod rematch;
pub mod takeback;
pub mod words;

use moot_games::Seat;
use moot_templates::play::Notice;

use super::view::Seating;

pub use page::{TablePage, table_page};

/// A time as the server keeps it: milliseconds since the Unix epoch.
pub type Millis = i64;

/// The field of a seat's form holding the ply the page showed: a move sent from an older page
/// is refused, not played on a position its player did not see.
pub const PLY_FIELD: &str = "ply";

/// A kept table as its pages show it.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptTable {
    /// Moves played so far.
    pub ply: u64,
    /// How many changes the table has had (its ply, and one more for a resignation or a win
    /// on time): the script reloads the page on any other.
    pub seq: u64,
    /// Who acts, or how it ended.
    pub standing: Standing,
    /// Both seats, with the name each player was given, if any.
    pub seats: Vec<(Seat, Option<String>)>,
    /// Days each move may take, if the table's clock is that shorthand's.
    pub days_per_move: Option<u32>,
    /// The table's clock, if it has one: its kind in words and what the pages show of it.
    pub clock: Option<ClockShown>,
    /// When the awaited move is due, if the table has a clock and goes on.
    pub deadline: Option<Millis>,
    /// Whether both seats have moved: until they have, a seat may abort the table.
    pub both_moved: bool,
    /// The seat that played the last move, if any: it may ask to take it back while the
    /// other seat is awaited.
    pub last_mover: Option<Seat>,
    /// The seat whose offer of a rematch stands, at a finished table.
    pub rematch_offered_by: Option<Seat>,
    /// The seat whose request to take back its last move stands, while the table goes on.
    pub takeback_asked_by: Option<Seat>,
}

/// Whether a table goes on, and if not, how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The game goes on; this seat acts.
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

/// How a finished table ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndedBy {
    /// The game's rules ended it.
    Rules,
    /// A seat resigned.
    Resignation,
    /// The waiting seat claimed a win after the other's deadline passed.
    Time,
    /// A move brought the table to the most plies a table may have: drawn.
    PlyLimit,
    /// No one moved for too long: closed with no winner.
    Abandoned,
    /// Called off before both seats had moved: no result.
    Aborted,
}

/// A table's clock as its pages show it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClockShown {
    /// The clock in words, before the time left (`30 hours per move, weekends paused`).
    pub words: String,
    /// A bank clock's banks, each seat's as its turn starts.
    pub banks: Vec<(Seat, Millis)>,
    /// The seats on vacation, and when each one's vacation ends by itself.
    pub vacations: Vec<(Seat, Millis)>,
    /// Whether the clock gives vacation.
    pub vacation_days: u32,
    /// Whether an expired clock lets the waiting seat claim (else it ends the game by itself).
    pub claims: bool,
}

/// Where a table's page links to: the server's paths, given whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableLinks {
    /// This page: the seat's, or the spectators'. Its earlier positions add `?at=`.
    pub here: String,
    /// The spectators' page.
    pub watch: String,
    /// The table's record as a text file.
    pub record: String,
    /// The table's event stream, which the page's script follows.
    pub events: String,
    /// The game's "Play a friend" page: playing again opens it with the same options.
    pub friend: String,
    /// Where the seat's resignation is sent; `None` for spectators.
    pub resign: Option<String>,
    /// Where the seat's claim of a win on time is sent; `None` for spectators.
    pub claim: Option<String>,
    /// Where the seat's abort is sent; `None` for spectators.
    pub abort: Option<String>,
    /// Where the seat starts or ends its vacation; `None` for spectators.
    pub vacation: Option<String>,
    /// Where the seat's request (or acceptance) of a takeback is sent; `None` for spectators.
    pub takeback: Option<String>,
    /// Where the seat declines (or withdraws) the takeback asked for; `None` for spectators.
    pub decline_takeback: Option<String>,
    /// Where the seat's offer (or acceptance) of a rematch is sent; `None` for spectators.
    pub rematch: Option<String>,
    /// Where the seat declines (or withdraws) the rematch offered; `None` for spectators.
    pub decline_rematch: Option<String>,
    /// The rematch's page for this visitor, once accepted.
    pub rematch_page: Option<String>,
}

/// Whom a table's page is for, and what it says besides the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Visit {
    /// A seat's player, or a spectator.
    pub seating: Seating,
    /// Why the seat's last action was refused, shown over the board.
    pub notice: Option<Notice>,
    /// The move typed (kept after a refusal).
    pub typed: String,
    /// The site's origin, for the link preview's absolute links.
    pub origin: String,
    /// The earlier position to show (`at`: after this many moves), to look at, as sent.
    pub at: Option<String>,
    /// The time of the visit: whether the awaited move is overdue.
    pub now: Millis,
    /// Where the page links to.
    pub links: TableLinks,
}
