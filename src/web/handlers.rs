//! The page handlers: read the link, replay it, answer the page (or a friendly error page).

use actix_web::http::{StatusCode, header};
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse, get};
use maud::Markup;
use moot_templates::play::Notice;

use super::blocking::off_worker;
use super::error::{PageError, guarded};
use super::opponent::{self, HINT};
use super::options_form::options_view;
use super::page_game::PageGame;
use super::position::{PLAY, Position, Query};
use super::preview::preview;
use super::replay::{Replayed, replay};
use super::view::{Extras, capitalised, play_view};
use crate::Evaluator;
use crate::ai::Player;
use crate::games::{Game, MoveError, Turn};
use crate::limits::{DETAIL_CHARS, EXCERPT_CHARS, excerpt};

fn html(status: StatusCode, markup: Markup) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(markup.into_string())
}

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
            Reply::Html(status, body) => HttpResponse::build(status)
                .content_type("text/html; charset=utf-8")
                .body(body),
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
    evaluator: Data<Evaluator>,
) -> Result<HttpResponse, PageError> {
    let query = Query::parse(request.query_string());
    let id = game.as_str();
    let client = crate::api::rate::client_of(&request, evaluator.config().trust_forwarded);
    let origin = origin(&request);
    crate::with_game!(id, G => play_page::<G>(query, &evaluator, client, origin).await, else Err(PageError::unknown_game(id)))
}

/// The scheme and host the client asked for (behind a proxy, as its `Forwarded` or
/// `X-Forwarded-*` headers say): the absolute URLs of link previews start with it.
fn origin(request: &HttpRequest) -> String {
    let info = request.connection_info();
    format!("{}://{}", info.scheme(), info.host())
}

/// What the synchronous part of a request found.
enum Step<G: Game> {
    Answer(Reply),
    Page(Position<G>, Replayed<G>),
}

async fn play_page<G: PageGame + Player>(
    query: Query,
    evaluator: &Evaluator,
    client: Option<std::net::IpAddr>,
    origin: String,
) -> Result<HttpResponse, PageError> {
    let hints_offered = evaluator.config().max_evaluations > 0;
    let hint_asked = query.get(HINT)?.map(str::to_owned);
    let (position, game) = match off_worker(move || read_game::<G>(&query, hints_offered)).await? {
        Step::Answer(reply) => return Ok(reply.into_response()),
        Step::Page(position, game) => (position, game),
    };
    if let Some(computer) = position.opponent
        && computer.to_act::<G>(&game.state)
    {
        let next = opponent::reply(evaluator, client, position, game.state, computer).await?;
        return Ok(see_other(&next));
    }
    let hint = match hint_asked.as_deref() {
        // `hint=0` (or empty) asks for none, as a reader of the link would expect.
        Some(asked)
            if !matches!(asked, "0" | "") && matches!(G::turn(&game.state), Turn::ToAct(_)) =>
        {
            Some(opponent::hint(evaluator, client, &position, game.state.clone()).await?)
        }
        _ => None,
    };
    let extras = Extras {
        hint,
        hints_offered,
        ..Extras::default()
    };
    let reply = off_worker(move || {
        let mut view = play_view(&position, &game, extras);
        view.preview = Some(preview(&origin, &position, &game));
        Ok(Reply::page(
            StatusCode::OK,
            moot_templates::play::page(&view),
        ))
    })
    .await?;
    Ok(reply.into_response())
}

/// Reads and replays the link: the options page, a typed move's answer, or the game to show.
/// `hints_offered`: the server runs the computer player (hints, and the computer as opponent).
fn read_game<G: PageGame>(query: &Query, hints_offered: bool) -> Result<Step<G>, PageError> {
    let (position, has_moves) = Position::<G>::read(query)?;
    if !has_moves {
        let view = options_view(&position, hints_offered);
        return Ok(Step::Answer(Reply::page(
            StatusCode::OK,
            moot_templates::options::page(&view),
        )));
    }
    let game = replay(&position)?;
    let Some(typed) = query.get(PLAY)? else {
        return Ok(Step::Page(position, game));
    };
    Ok(Step::Answer(match submit(&position, &game, typed) {
        Ok(next) => Reply::SeeOther(next.href()),
        Err(notice) => {
            let extras = Extras {
                notice: Some(notice),
                typed: excerpt(typed, EXCERPT_CHARS),
                hint: None,
                hints_offered,
            };
            let view = play_view(&position, &game, extras);
            Reply::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                moot_templates::play::page(&view),
            )
        }
    }))
}

fn see_other(href: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, href))
        .finish()
}

/// A move typed in notation: the position after it, or the engine's reason for refusing it.
fn submit<G: PageGame>(
    position: &Position<G>,
    game: &Replayed<G>,
    typed: &str,
) -> Result<Position<G>, Notice> {
    let refused = |e: MoveError| Notice {
        title: format!(
            "{:?} cannot be played",
            excerpt(typed.trim(), EXCERPT_CHARS)
        ),
        detail: excerpt(&capitalised(&e.to_string()), DETAIL_CHARS),
    };
    if typed.trim().is_empty() {
        return Err(Notice {
            title: "No move given".to_owned(),
            detail: "Type a move in the game's notation, or click one.".to_owned(),
        });
    }
    let mut state = game.state.clone();
    let mv = G::parse_move(&state, typed).map_err(refused)?;
    let notation = G::format_move(&state, &mv);
    G::apply(&mut state, &mv).map_err(refused)?;
    Ok(position.with_move(notation))
}

/// `/play/{game}/record`: the record of the link's game as a text file.
#[get("/play/{game}/record")]
pub async fn record(game: Path<String>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let query = Query::parse(request.query_string());
    let id = game.as_str();
    let (id, text) = crate::with_game!(id, G => off_worker(move || record_file::<G>(&query)).await, else Err(PageError::unknown_game(id)))?;
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
    let (position, _) = Position::<G>::read(query)?;
    let game = replay(&position)?;
    let mut text = game.record();
    text.push('\n');
    Ok((G::ID, text))
}

/// `/rules/{game}`: the rules for players.
#[get("/rules/{game}")]
pub async fn rules(game: Path<String>) -> Result<HttpResponse, PageError> {
    let id = game.as_str();
    guarded(
        || crate::with_game!(id, G => Ok(rules_page::<G>()), else Err(PageError::unknown_game(id))),
    )
}

fn rules_page<G: PageGame>() -> HttpResponse {
    let (binding, notation) = super::rulebook::texts(G::ID).unwrap_or_default();
    let view = moot_templates::rules::RulesView {
        game_name: G::NAME.to_owned(),
        play_href: super::position::play_path(G::ID),
        body: G::rules(),
        notation: super::rulebook::render(notation),
        binding: super::rulebook::render(binding),
        rule_ids: super::rulebook::rule_ids(binding),
    };
    html(StatusCode::OK, moot_templates::rules::page(&view))
}
