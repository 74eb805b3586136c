//! "Your games" (`GET /your-games`): every table the browser's player sits at, its turn first,
//! each a link to the player's own seat page (`GET /table/{id}/mine`, no credential in it); and
//! the player's feed for the page's script (`GET /your-games/events`), which an `EventSource`
//! opens with the cookie, as it cannot send a credential in a header.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get};
use moot_present::your_games::{YourTable, view};

use crate::api::problem::{ApiError, ErrorCode};
use crate::extract::KeptTables;
use crate::paths;
use crate::tables::players::{PlayerTable, TableFilter};
use crate::tables::{self, TablePolicy};
use crate::web::answers::{html, private};
use crate::web::error::PageError;
use crate::web::player::{self, Browser};
use crate::web::tables::page::shown_ended_by;
use crate::web::tables::refusals::page_error;

/// How many tables one read of the list takes: the page reads them all, a page at a time.
const LIST_PAGE: u64 = 100;

/// `GET /your-games`: the browser's player's tables. Without a player (no cookie, or one that
/// is no player's, then forgotten) the page says so and offers a game with a friend.
#[get("/your-games", wrap = "private()")]
pub async fn your_games(
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let browser = player::browser(&http, &policy).await.map_err(page_error)?;
    let listed = match &browser {
        Browser::Player(player, _) => all_tables(&policy, &player.id).await?,
        Browser::Unknown | Browser::Forged => Vec::new(),
    };
    let shown: Vec<YourTable> = listed.iter().map(your_table).collect();
    let mut page = view(&shown, paths::HOME, tables::now());
    page.challenges = Some((
        paths::CHALLENGES.to_owned(),
        moot_present::challenges::TITLE.to_owned(),
    ));
    // Notices are a player's: a browser without one has none to turn on.
    if let Browser::Player(player, _) = &browser {
        page.notifications = Some(moot_present::notifications::view());
        page.player_id = Some((
            moot_present::your_games::PLAYER_ID_WORDS.to_owned(),
            player.id.clone(),
        ));
    }
    let mut answer = html(
        StatusCode::OK,
        moot_templates::your_games::page(&page).into_string(),
    );
    if let Browser::Forged = browser {
        player::set(&mut answer, &player::forget(&http, &policy));
    }
    Ok(answer)
}

/// Every table of player `player_id`, in the list's order.
async fn all_tables(policy: &TablePolicy, player_id: &str) -> Result<Vec<PlayerTable>, PageError> {
    let mut all = Vec::new();
    let mut after = None;
    loop {
        let page = policy
            .tables()
            .player_tables(player_id, TableFilter::default(), after.as_ref(), LIST_PAGE)
            .await
            .map_err(page_error)?;
        all.extend(page.tables);
        match page.next {
            Some(next) => after = Some(next),
            None => return Ok(all),
        }
    }
}

/// A listed table as the page shows it.
fn your_table(table: &PlayerTable) -> YourTable {
    let game_name = moot_games::with_game!(table.game, G => <G as moot_games::Game>::NAME.to_owned(), else table.game.to_owned());
    YourTable {
        game_name,
        seat: table.seat,
        opponent: table.opponent_name.clone(),
        your_turn: table.your_turn,
        ply: table.ply,
        ended: table
            .ended
            .map(|(winner, ended_by)| (winner, shown_ended_by(ended_by))),
        deadline: table.deadline,
        href: paths::mine(&table.id),
    }
}

/// `GET /your-games/events`: the browser's player's feed, as `GET /api/v1/players/me/events`
/// sends it to its credential, here opened by the cookie.
#[get("/your-games/events")]
pub async fn your_events(
    http: HttpRequest,
    policy: KeptTables<ApiError>,
) -> Result<HttpResponse, ApiError> {
    let seen = crate::api::tables::events::last_event_id(&http)?;
    let Browser::Player(player, _) = player::browser(&http, &policy)
        .await
        .map_err(crate::api::tables::refusals::problem)?
    else {
        return Err(ApiError::new(
            ErrorCode::UnknownPlayerKey,
            "this browser holds no player: its cookie is missing, or no player's",
        ));
    };
    // The pages' stream is a browser's: counted by its address (a site's key is for a
    // backend's API requests).
    let holder = crate::client::client_of(&http, policy.limits().trust_forwarded)
        .map(crate::tables::Holder::Address);
    crate::api::tables::my_events::feed_stream(policy.tables().clone(), player.id, seen, holder)
        .await
}
