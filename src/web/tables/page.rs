//! A table's page, from the stored table to its HTML: the table and its moves read, handed to
//! `moot-present` as its plain facts and links, and the view data that comes back rendered
//! off the async workers.

use actix_web::HttpRequest;
use moot_present::link::{AT, Query};
use moot_present::page_game::PageGame;
use moot_present::table::{self as shown, KeptTable, TableLinks, Visit, table_page as view_of};
use moot_present::view::Seating;
use moot_templates::play::Notice;

use super::refusals::page_error;
use crate::paths;
use crate::tables::{self, EndedBy, Standing, Table, TableError, TablePolicy};
use crate::web::blocking::page_off_workers;
use crate::web::downloads::downloads;
use crate::web::error::PageError;
use moot_games::Seat;

/// Whom a table's page is for, and what it says besides the table.
pub struct Page {
    /// A seat's player, or a spectator.
    pub seating: Seating,
    /// How the seat's page was reached, on a seat's page: what its links hold.
    pub door: Option<Door>,
    /// Why the seat's last action was refused, shown over the board.
    pub notice: Option<Notice>,
    /// The move typed (kept after a refusal).
    pub typed: String,
    /// The site's origin, for the link preview's absolute links.
    pub origin: String,
    /// The earlier position to show (`at`: after this many moves), to look at, as sent.
    pub at: Option<String>,
}

/// How a seat's page is reached, which its links and forms keep to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Door {
    /// By the seat's link, holding the seat's credential (or its player's).
    Link(String),
    /// By the browser's player, its credential in the cookie: no credential in any link, and
    /// the page follows the table's events as a spectator's does.
    Mine,
}

/// The earlier position a table's page is asked to show (`at`), as sent: read once the
/// table's moves are known.
pub fn earlier(http: &HttpRequest) -> Result<Option<String>, PageError> {
    Ok(Query::parse(http.query_string())
        .get(AT)?
        .map(str::to_owned))
}

/// Table `id` as stored; a page of its own when there is none.
pub async fn read_table(policy: &TablePolicy, id: &str) -> Result<Table, PageError> {
    policy
        .tables()
        .get(id)
        .await
        .map_err(page_error)?
        .ok_or_else(|| page_error(TableError::UnknownTable))
}

/// The options of the table's game, as stored.
pub fn options_of<G: PageGame>(table: &Table) -> Result<G::Options, PageError> {
    serde_json::from_value(table.options.clone())
        .map_err(|e| page_error(TableError::Corrupt(e.to_string())))
}

/// A table's page (a seat's or the spectators'), as HTML.
pub async fn table_page(policy: &TablePolicy, id: &str, page: Page) -> Result<String, PageError> {
    let table = read_table(policy, id).await?;
    let history = policy.tables().history(id).await.map_err(page_error)?;
    let moved = |seat: Seat| history.moves.iter().any(|m| m.seat == seat);
    let played = Played {
        both_moved: moved(Seat::First) && moved(Seat::Second),
        last_mover: history.moves.last().map(|m| m.seat),
    };
    let moves: Vec<String> = history.moves.into_iter().map(|m| m.notation).collect();
    moot_games::with_game!(table.game, G => page_off_workers(move || render::<G>(table, moves, played, page)).await, else Err(PageError::unknown_game(table.game)))
}

/// What a table's page needs of its moves besides their notation.
struct Played {
    /// Whether both seats have moved.
    both_moved: bool,
    /// The seat that played the last move, if any.
    last_mover: Option<Seat>,
}

fn render<G: PageGame>(
    table: Table,
    moves: Vec<String>,
    played: Played,
    page: Page,
) -> Result<String, PageError> {
    let options = options_of::<G>(&table)?;
    // The browser's own seat: its player's notices may be turned on here too.
    let own_seat = matches!(page.door, Some(Door::Mine));
    let visit = Visit {
        seating: page.seating,
        notice: page.notice,
        typed: page.typed,
        origin: page.origin,
        at: page.at,
        now: tables::now(),
        links: links(&table, page.door.as_ref()),
    };
    let mut built = view_of::<G>(options, moves, &kept(&table, &played), visit)?;
    if let Some(shown) = built.view.table.as_mut().filter(|_| own_seat) {
        shown.notifications = Some(moot_present::notifications::view());
    }
    downloads(&mut built.view.record, &built.shown);
    Ok(moot_templates::play::page(&built.view).into_string())
}

/// The table as its pages show it.
fn kept(table: &Table, played: &Played) -> KeptTable {
    KeptTable {
        ply: table.ply,
        seq: table.seq(),
        standing: match table.standing {
            Standing::Ongoing { to_act } => shown::Standing::Ongoing { to_act },
            Standing::Finished { winner, ended_by } => shown::Standing::Finished {
                winner,
                ended_by: shown_ended_by(ended_by),
            },
        },
        seats: table
            .seats
            .iter()
            .map(|s| (s.seat, s.name.clone()))
            .collect(),
        days_per_move: table.days_per_move,
        clock: table.clock.map(|clock| clock_shown(table, clock)),
        deadline: table.deadline,
        both_moved: played.both_moved,
        last_mover: played.last_mover,
        rematch_offered_by: table.rematch.offered_by,
        takeback_asked_by: table.takebacks.asked_by,
    }
}

/// The clock of `table` as its pages show it: its kind in words, the banks, the vacations
/// under way.
fn clock_shown(table: &Table, clock: tables::Clock) -> shown::ClockShown {
    let hours = |hours: u32| {
        if hours.is_multiple_of(24) {
            format!("{} d", hours / 24)
        } else {
            format!("{hours} h")
        }
    };
    let mut words = match clock.pace {
        tables::Pace::PerMove { hours: h } => format!("{} per move", hours(h)),
        tables::Pace::Bank {
            initial_hours,
            increment_hours,
            max_hours,
        } => format!(
            "Bank of {}, {} more after each move, at most {}",
            hours(initial_hours),
            hours(increment_hours),
            hours(max_hours)
        ),
    };
    if clock.weekends_paused {
        words.push_str(", weekends paused");
    }
    let times = table.clock_times.unwrap_or_default();
    let now = tables::now().max(table.updated);
    shown::ClockShown {
        words,
        banks: match clock.pace {
            tables::Pace::Bank { .. } => Seat::BOTH
                .into_iter()
                .map(|seat| (seat, times.seats[seat.index()].bank))
                .collect(),
            tables::Pace::PerMove { .. } => Vec::new(),
        },
        vacations: Seat::BOTH
            .into_iter()
            .filter_map(|seat| {
                clock
                    .on_vacation_until(&times.seats[seat.index()], now, table.created)
                    .map(|until| (seat, until))
            })
            .collect(),
        vacation_days: clock.vacation_days,
        claims: !clock.ends_on_expiry(),
    }
}

/// How a table ended, as the pages say it.
pub fn shown_ended_by(ended_by: EndedBy) -> shown::EndedBy {
    match ended_by {
        EndedBy::Rules => shown::EndedBy::Rules,
        EndedBy::Resignation => shown::EndedBy::Resignation,
        EndedBy::Time => shown::EndedBy::Time,
        EndedBy::PlyLimit => shown::EndedBy::PlyLimit,
        EndedBy::Abandoned => shown::EndedBy::Abandoned,
        EndedBy::Aborted => shown::EndedBy::Aborted,
    }
}

/// Table `id`'s page for a visitor who came through `door` (a seat's link, the browser's own
/// seat), or the spectators' page: a rematch's seats are opened by the same keys.
pub fn page_at(id: &str, door: Option<&Door>) -> String {
    match door {
        None => paths::watch(id),
        Some(Door::Link(credential)) => paths::seat(id, credential),
        Some(Door::Mine) => paths::mine(id),
    }
}

/// Where the page of `table` links to: for a seat reached through `door`, or for spectators.
fn links(table: &Table, door: Option<&Door>) -> TableLinks {
    let id = &table.id;
    let (here, events) = match door {
        None => (paths::watch(id), paths::table_events(id, None)),
        Some(Door::Link(credential)) => (
            paths::seat(id, credential),
            paths::table_events(id, Some(credential)),
        ),
        Some(Door::Mine) => (paths::mine(id), paths::table_events(id, None)),
    };
    TableLinks {
        resign: door.map(|_| paths::resign(&here)),
        claim: door.map(|_| paths::claim(&here)),
        abort: door.map(|_| paths::abort(&here)),
        vacation: door.map(|_| paths::vacation(&here)),
        takeback: door.map(|_| paths::takeback(&here)),
        decline_takeback: door.map(|_| paths::decline_takeback(&here)),
        rematch: door.map(|_| paths::rematch(&here)),
        decline_rematch: door.map(|_| paths::decline_rematch(&here)),
        rematch_page: table
            .rematch
            .by
            .as_deref()
            .map(|rematch| page_at(rematch, door)),
        here,
        watch: paths::watch(id),
        record: paths::table_record(id),
        events,
        friend: paths::friend(table.game),
    }
}
