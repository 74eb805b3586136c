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

/// Whom a table's page is for, and what it says besides the table.
pub struct Page {
    /// A seat's player, or a spectator.
    pub seating: Seating,
    /// The seat's credential, on a seat's page.
    pub credential: Option<String>,
    /// Why the seat's last action was refused, shown over the board.
    pub notice: Option<Notice>,
    /// The move typed (kept after a refusal).
    pub typed: String,
    /// The site's origin, for the link preview's absolute links.
    pub origin: String,
    /// The earlier position to show (`at`: after this many moves), to look at, as sent.
    pub at: Option<String>,
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
    let moves: Vec<String> = history.moves.into_iter().map(|m| m.notation).collect();
    moot_games::with_game!(table.game, G => page_off_workers(move || render::<G>(table, moves, page)).await, else Err(PageError::unknown_game(table.game)))
}

fn render<G: PageGame>(table: Table, moves: Vec<String>, page: Page) -> Result<String, PageError> {
    let options = options_of::<G>(&table)?;
    let visit = Visit {
        seating: page.seating,
        notice: page.notice,
        typed: page.typed,
        origin: page.origin,
        at: page.at,
        now: tables::now(),
        links: links(&table, page.credential.as_deref()),
    };
    let mut built = view_of::<G>(options, moves, &kept(&table), visit)?;
    downloads(&mut built.view.record, &built.shown);
    Ok(moot_templates::play::page(&built.view).into_string())
}

/// The table as its pages show it.
fn kept(table: &Table) -> KeptTable {
    KeptTable {
        ply: table.ply,
        seq: table.seq(),
        standing: match table.standing {
            Standing::Ongoing { to_act } => shown::Standing::Ongoing { to_act },
            Standing::Finished { winner, ended_by } => shown::Standing::Finished {
                winner,
                ended_by: match ended_by {
                    EndedBy::Rules => shown::EndedBy::Rules,
                    EndedBy::Resignation => shown::EndedBy::Resignation,
                    EndedBy::Time => shown::EndedBy::Time,
                    EndedBy::PlyLimit => shown::EndedBy::PlyLimit,
                    EndedBy::Abandoned => shown::EndedBy::Abandoned,
                },
            },
        },
        seats: table
            .seats
            .iter()
            .map(|s| (s.seat, s.name.clone()))
            .collect(),
        days_per_move: table.days_per_move,
        deadline: table.deadline,
    }
}

/// Where the page of `table` links to: for the seat holding `credential`, or for spectators.
fn links(table: &Table, credential: Option<&str>) -> TableLinks {
    let id = &table.id;
    TableLinks {
        here: credential.map_or_else(|| paths::watch(id), |c| paths::seat(id, c)),
        watch: paths::watch(id),
        record: paths::table_record(id),
        events: paths::table_events(id, credential),
        friend: paths::friend(table.game),
        resign: credential.map(|c| paths::resign(id, c)),
        claim: credential.map(|c| paths::claim(id, c)),
    }
}
