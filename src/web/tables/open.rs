//! Opening a table for a friend: the friend page (the options chosen, the clock and the
//! players' names to choose), and the table it opens, whose two seat links are shown once.

use actix_web::http::StatusCode;
use actix_web::web::{Bytes, Path};
use actix_web::{HttpRequest, HttpResponse, get, post};
use moot_present::link::{Link, Query};
use moot_present::page_game::PageGame;
use moot_present::table::words::{NewTableLinks, chosen_options, created_view, opening_words};
use moot_templates::options::{DAYS_FIELD, NAME_FIELDS};
use moot_templates::table::{FriendView, created_page, friend_page};

use super::refusals::{busy, page_error};
use crate::extract::KeptTables;
use crate::limits::{EXCERPT_CHARS, excerpt, is_hidden, tables as limits};
use crate::paths;
use crate::tables::{self, TablePolicy};
use crate::web::answers::{html, private};
use crate::web::error::PageError;
use crate::web::options_form::options_view;
use crate::web::player;

/// `GET /play/{game}/friend` (the options form's "Play a friend"): the options chosen, and the
/// clock to choose before the table opens.
#[get("/play/{game}/friend")]
pub async fn friend_form(
    game: Path<String>,
    http: HttpRequest,
    // Taken only to refuse the page on a server without tables.
    _policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let query = Query::parse(http.query_string());
    let id = game.as_str();
    moot_games::with_game!(id, G => friend::<G>(&query), else Err(PageError::unknown_game(id)))
}

fn friend<G: PageGame>(query: &Query) -> Result<HttpResponse, PageError> {
    let (position, _) = Link::<G>::read(query)?;
    let view = FriendView {
        game_name: G::NAME.to_owned(),
        action: paths::friend(G::ID),
        hidden: position.option_pairs().to_vec(),
        options: chosen_options(options_view(&position, false, false, false).fields),
        options_href: position.options_href(),
        offer: Some((paths::CHALLENGES.to_owned(), G::ID.to_owned())),
    };
    Ok(html(StatusCode::OK, friend_page(&view).into_string()))
}

/// `POST /play/{game}/friend` (the friend page's "Open the table"): opens a table with the
/// form's options and clock, and shows the two seat links once.
#[post("/play/{game}/friend", wrap = "private()")]
pub async fn open_table(
    game: Path<String>,
    body: Bytes,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let form = std::str::from_utf8(&body).map_err(|_| {
        PageError::new(
            StatusCode::BAD_REQUEST,
            "Unreadable form",
            "The form was not sent as text.",
        )
    })?;
    let id = game.as_str();
    moot_games::with_game!(id, G => open::<G>(&policy, &http, form).await, else Err(PageError::unknown_game(id)))
}

async fn open<G: PageGame>(
    policy: &TablePolicy,
    http: &HttpRequest,
    form: &str,
) -> Result<HttpResponse, PageError> {
    let form = Query::parse(form);
    let clock = form.get(DAYS_FIELD)?.map(str::trim);
    let names = [form.get(NAME_FIELDS[0])?, form.get(NAME_FIELDS[1])?].map(player_name);
    let [first, second] = names;
    let names = [first?, second?];
    let friend = names[1].clone();
    // The clock and the names are the table's, not the game's: the link reads the rest.
    let options = form.0.iter().filter(|(name, _)| {
        name != DAYS_FIELD
            && !NAME_FIELDS.contains(&name.as_str())
            && !crate::web::clock_form::is_clock_field(name)
    });
    let (position, _) = Link::<G>::read(&Query(options.cloned().collect()))?;
    let days = match clock {
        None | Some("") => None,
        Some(text) => Some(
            text.parse::<u32>()
                .ok()
                .filter(|days| (1..=limits::MAX_DAYS_PER_MOVE).contains(days))
                .ok_or_else(|| {
                    PageError::new(
                        StatusCode::BAD_REQUEST,
                        "No such clock",
                        format!(
                            "{DAYS_FIELD}={:?}: a move may take 1 to {} days",
                            excerpt(text, EXCERPT_CHARS),
                            limits::MAX_DAYS_PER_MOVE
                        ),
                    )
                })?,
        ),
    };
    let own_clock = crate::web::clock_form::own_clock(&form)?;
    let client = crate::client::client_of(http, policy.limits().trust_forwarded);
    policy
        .may_create(&crate::site_keys::Client::Address(client))
        .map_err(|wait| busy("opened many tables", wait))?;
    let state = G::new_game(&position.options)?;
    // The creator's seat is the browser's player's: its games page finds the table again.
    let player = player::player_for(http, policy, names[0].clone(), true)
        .await
        .map_err(page_error)?;
    let (credential, cookie) = player.unzip();
    let created = policy
        .tables()
        .create_seated::<G>(
            &position.options,
            &state,
            own_clock.or(days.map(tables::Clock::days_per_move)),
            names,
            [credential, None],
            None,
            None,
            tables::now(),
        )
        .await
        .map_err(page_error)?;
    let origin = crate::client::origin_of(http, policy.limits().trust_forwarded);
    let id = &created.table.id;
    let [yours, theirs] = &created.credentials;
    let view = created_view(
        G::NAME,
        opening_words(&G::status(&state)),
        NewTableLinks {
            yours: format!("{origin}{}", paths::seat(id, yours)),
            theirs: format!("{origin}{}", paths::seat(id, theirs)),
            watch: format!("{origin}{}", paths::watch(id)),
        },
        friend.as_deref(),
    );
    let mut answer = html(StatusCode::OK, created_page(&view).into_string());
    if let Some(cookie) = cookie.flatten() {
        player::set(&mut answer, &cookie);
    }
    Ok(answer)
}

/// A player's name from the friend form: trimmed, `None` when left empty; at most
/// [`limits::NAME_CHARS`] characters (as the API), none of them a control character nor a
/// hidden one (a right-to-left override, a zero-width space).
fn player_name(text: Option<&str>) -> Result<Option<String>, PageError> {
    let name = text.unwrap_or_default().trim();
    if name.chars().count() > limits::NAME_CHARS
        || name.chars().any(|c| c.is_control() || is_hidden(c))
    {
        return Err(PageError::new(
            StatusCode::BAD_REQUEST,
            "Name not accepted",
            format!(
                "{:?}: a name has at most {} characters, and no control characters nor hidden ones",
                excerpt(name, EXCERPT_CHARS),
                limits::NAME_CHARS
            ),
        ));
    }
    Ok((!name.is_empty()).then(|| name.to_owned()))
}
