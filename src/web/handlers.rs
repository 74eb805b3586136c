//! The page handlers: read the link, replay it, answer the page (or a friendly error page).

use actix_web::http::{StatusCode, header};
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse, get};
use maud::Markup;
use moot_templates::play::Notice;

use super::answers::{html, see_other};
use super::blocking::page_off_workers;
use super::downloads::downloads;
use super::error::{PageError, page_on_panic};
use super::opponent::{self, PageSearches};
use super::options_form::options_view;
use crate::limits::{DETAIL_CHARS, EXCERPT_CHARS, excerpt};
use crate::paths;
use crate::tables::TablePolicy;
use moot_games::{Game, Turn};
use moot_present::link::{COMPUTER, HINT, Link, PLAY, Query, SEPARATOR, UNDO};
use moot_present::page_game::PageGame;
use moot_present::preview::preview;
use moot_present::replay::{Replayed, replay};
use moot_present::submit::submit;
use moot_present::view::{Extras, earlier_view, link_positions, play_view, undo_position};

/// An answer built off the async workers (an `HttpResponse` cannot cross threads).
enum Reply {
    Html(StatusCode, String),
    SeeOther(String),
}

impl Reply {
    fn page(status: StatusCode, markup: Markup) -> Self {
        Reply::Html(status, markup.into_string())
    }

    fn into_response(self) -> HttpResponse {
        match self {
            Reply::Html(status, body) => html(status, body),
            Reply::SeeOther(href) => see_other(&href),
        }
    }
}

/// `/play/{game}`: the options form, or, when the link holds `moves`, the game page. Against
/// the computer, when it is to act, its moves are made and the browser sent on to the position
/// where the player acts.
#[get("/play/{game}")]
pub async fn play(
    game: Path<String>,
    request: HttpRequest,
    searches: Data<PageSearches>,
    tables: Option<Data<TablePolicy>>,
) -> Result<HttpResponse, PageError> {
    let query = Query::parse(request.query_string());
    let id = game.as_str();
    let friends_offered = tables.is_some();
    let client = crate::client::client_of(&request, searches.config().trust_forwarded);
    let origin = crate::client::origin_of(&request, searches.config().trust_forwarded);
    moot_games::with_game!(id, G => play_page::<G>(query, &searches, client, origin, friends_offered).await, else Err(PageError::unknown_game(id)))
}

/// What the synchronous part of a request found.
enum Step<G: Game> {
    Answer(Reply),
    /// The game's position now: the computer answers when it is to act.
    Page(Link<G>, Replayed<G>),
    /// An earlier position of the game (`at` moves in), to look at.
    Earlier(Link<G>, Replayed<G>, usize),
}

async fn play_page<G: PageGame + moot_ai::Strategy>(
    query: Query,
    searches: &PageSearches,
    client: Option<std::net::IpAddr>,
    origin: String,
    friends_offered: bool,
) -> Result<HttpResponse, PageError> {
    let hints_offered = searches.config().max_evaluations > 0;
    let hint_asked = query.get(HINT)?.map(str::to_owned);
    let (position, game) =
        match page_off_workers(move || read_game::<G>(&query, hints_offered, friends_offered))
            .await?
        {
            Step::Answer(reply) => return Ok(reply.into_response()),
            Step::Page(position, game) => (position, game),
            Step::Earlier(position, game, at) => {
                return earlier_page(position, game, at, origin).await;
            }
        };
    if let Some(computer) = position.opponent
        && computer.to_act::<G>(&game.state)
    {
        let next = opponent::reply(searches, client, position, game.state, computer).await?;
        return Ok(see_other(&next));
    }
    let hint = match hint_asked.as_deref() {
        // `hint=0` (or empty) asks for none, as a reader of the link would expect.
        Some(asked)
            if !matches!(asked, "0" | "") && matches!(G::turn(&game.state), Turn::ToAct(_)) =>
        {
            Some(opponent::hint(searches, client, &position, game.state.clone()).await?)
        }
        _ => None,
    };
    let extras = Extras {
        hint,
        hints_offered,
        ..Extras::default()
    };
    let reply = page_off_workers(move || {
        let mut view = play_view(&position, &game, extras);
        view.preview = Some(preview(&origin, &position, &game));
        downloads(&mut view.record, &position);
        Ok(Reply::page(
            StatusCode::OK,
            moot_templates::play::page(&view),
        ))
    })
    .await?;
    Ok(reply.into_response())
}

/// An earlier position of the link's game, to look at: no computer reply, no hint.
async fn earlier_page<G: PageGame>(
    position: Link<G>,
    game: Replayed<G>,
    at: usize,
    origin: String,
) -> Result<HttpResponse, PageError> {
    let reply = page_off_workers(move || {
        let then = position.truncated(at);
        let shown = replay(&then)?;
        let mut view = earlier_view(&position, &game, &shown, at, &link_positions(&position));
        // The preview shows the earlier position; its address is this page's, which a reader
        // of the shared link looks at (the position's own link would start the computer).
        let mut shared = preview(&origin, &then, &shown);
        shared.url = format!("{origin}{}", position.at_href(at));
        view.preview = Some(shared);
        downloads(&mut view.record, &then);
        Ok(Reply::page(
            StatusCode::OK,
            moot_templates::play::page(&view),
        ))
    })
    .await?;
    Ok(reply.into_response())
}

/// Reads and replays the link: the options page, a typed move's answer, or the game to show.
/// `hints_offered`: the server runs the computer player (hints, and the computer as opponent);
/// `friends_offered`: it keeps tables (a friend far away as opponent).
fn read_game<G: PageGame>(
    query: &Query,
    hints_offered: bool,
    friends_offered: bool,
) -> Result<Step<G>, PageError> {
    let (position, has_moves) = Link::<G>::read(query)?;
    if !has_moves {
        let opponent_chosen = query.get(COMPUTER)?.is_some();
        let view = options_view(&position, hints_offered, opponent_chosen, friends_offered);
        return Ok(Step::Answer(Reply::page(
            StatusCode::OK,
            moot_templates::options::page(&view),
        )));
    }
    let game = replay(&position)?;
    match position.read_at(query)? {
        Some(at) if at == position.moves.len() => {
            return Ok(Step::Answer(Reply::SeeOther(position.href())));
        }
        Some(at) => return Ok(Step::Earlier(position, game, at)),
        None => {}
    }
    if asked(query.get(UNDO)?) {
        let before = undo_position(&position, &game).unwrap_or_else(|| position.clone());
        return Ok(Step::Answer(Reply::SeeOther(before.href())));
    }
    let plays = query.all(PLAY);
    if plays.is_empty() {
        return Ok(Step::Page(position, game));
    }
    // The form sends its typed-move field with every button: an empty one is no move.
    let given: Vec<&str> = plays.into_iter().filter(|p| !p.trim().is_empty()).collect();
    if given.is_empty() && asked(query.get(HINT)?) {
        return Ok(Step::Answer(Reply::SeeOther(position.hint_href())));
    }
    let typed = given.join(" ");
    let answer = match given.as_slice() {
        [_, _, ..] => Err(Notice {
            title: "Several moves at once".to_owned(),
            detail: excerpt(
                &format!(
                    "{} were sent together: play one move (or the steps of one turn joined by \"{SEPARATOR}\").",
                    given.join(", ")
                ),
                DETAIL_CHARS,
            ),
        }),
        _ => submit(&position, &game, &typed),
    };
    Ok(Step::Answer(match answer {
        Ok(next) => Reply::SeeOther(next.href()),
        Err(notice) => {
            let extras = Extras {
                notice: Some(notice),
                typed: excerpt(&typed, EXCERPT_CHARS),
                hint: None,
                hints_offered,
                ..Extras::default()
            };
            let view = play_view(&position, &game, extras);
            Reply::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                moot_templates::play::page(&view),
            )
        }
    }))
}

/// Whether a button's parameter asks for its action (`hint=0` or an empty one does not).
fn asked(value: Option<&str>) -> bool {
    value.is_some_and(|v| !matches!(v.trim(), "" | "0"))
}

/// `/play/{game}/record`: the record of the link's game as a text file.
#[get("/play/{game}/record")]
pub async fn record(game: Path<String>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let query = Query::parse(request.query_string());
    let id = game.as_str();
    let (id, text) = moot_games::with_game!(id, G => page_off_workers(move || record_file::<G>(&query)).await, else Err(PageError::unknown_game(id)))?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{id}-record.txt\""),
        ))
        .body(text))
}

/// The game's id and the record of the link's game, with a final newline.
fn record_file<G: PageGame>(query: &Query) -> Result<(&'static str, String), PageError> {
    let (position, _) = Link::<G>::read(query)?;
    let game = replay(&position)?;
    let mut text = game.record();
    text.push('\n');
    Ok((G::ID, text))
}

/// `/rules/{game}`: the rules for players.
#[get("/rules/{game}")]
pub async fn rules(game: Path<String>) -> Result<HttpResponse, PageError> {
    let id = game.as_str();
    page_on_panic(
        || moot_games::with_game!(id, G => Ok(rules_page::<G>()), else Err(PageError::unknown_game(id))),
    )
}

fn rules_page<G: PageGame>() -> HttpResponse {
    let moot_present::rulebook::Rulebook {
        rules: binding,
        notation,
    } = G::RULEBOOK;
    let view = moot_templates::rules::RulesView {
        game_name: G::NAME.to_owned(),
        play_href: paths::play(G::ID),
        body: G::rules(),
        notation: moot_present::rulebook::render(notation),
        binding: moot_present::rulebook::render(binding),
        rule_ids: moot_present::rulebook::rule_ids(binding),
    };
    html(
        StatusCode::OK,
        moot_templates::rules::page(&view).into_string(),
    )
}
