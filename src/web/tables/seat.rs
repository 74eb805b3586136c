//! A seat's routes, all behind its credential: its page, its moves, resigning and claiming the
//! win on time. Each change is a POST answered with a redirect back to the seat's page, or
//! that page with the refusal over the board.

use actix_web::http::StatusCode;
use actix_web::web::{Bytes, Path};
use actix_web::{HttpRequest, HttpResponse, get, post};
use moot_games::Seat;
use moot_present::link::{Link, PLAY, Query, SEPARATOR};
use moot_present::page_game::PageGame;
use moot_present::replay::replay;
use moot_present::submit::submit;
use moot_present::table::PLY_FIELD;
use moot_present::table::words::SeatRefusal;
use moot_present::view::Seating;
use moot_templates::play::Notice;

use super::page::{Page, earlier, options_of, read_table, table_page};
use super::refusals::{busy, notice, page_error, said};
use crate::extract::KeptTables;
use crate::paths;
use crate::tables::{self, Table, TableError, TablePolicy};
use crate::web::answers::{html, private, see_other};
use crate::web::blocking::page_off_workers;
use crate::web::error::PageError;

/// Finds the seat of `credential` at table `id`: a wrong one counts against the client's share
/// at this table, past which it is told to wait; the right one is never refused.
async fn seat_of(
    policy: &TablePolicy,
    http: &HttpRequest,
    id: &str,
    credential: &str,
) -> Result<Seat, PageError> {
    let client = crate::client::client_of(http, policy.limits().trust_forwarded);
    match policy.tables().seat(id, credential).await {
        Ok(seat) => Ok(seat),
        Err(TableError::BadCredential) => Err(match policy.strike(id, client) {
            Some(wait) => busy("tried too many wrong seat links", wait),
            None => PageError::new(
                StatusCode::FORBIDDEN,
                "Not a seat of this table",
                "This link names a table but none of its seats: check the link you were sent.",
            ),
        }),
        Err(error) => Err(page_error(error)),
    }
}

/// `GET /table/{id}/seat/{credential}`: a seat's page, its board live when it is to act.
#[get("/table/{id}/seat/{credential}", wrap = "private()")]
pub async fn seat_page(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let (id, credential) = path.into_inner();
    let seat = seat_of(&policy, &http, &id, &credential).await?;
    let mut page = seat_view(&http, &policy, seat, credential, None, String::new());
    page.at = earlier(&http)?;
    let body = table_page(&policy, &id, page).await?;
    Ok(html(StatusCode::OK, body))
}

/// The page of the seat holding `credential`, with `notice` over the board and the move
/// `typed` kept.
fn seat_view(
    http: &HttpRequest,
    policy: &TablePolicy,
    seat: Seat,
    credential: String,
    notice: Option<Notice>,
    typed: String,
) -> Page {
    Page {
        seating: Seating::Seat {
            seat,
            may_play: true,
        },
        credential: Some(credential),
        notice,
        typed,
        origin: crate::client::origin_of(http, policy.limits().trust_forwarded),
        at: None,
    }
}

/// `POST /table/{id}/seat/{credential}`: the seat's move (or the steps of its Hirþ turn, joined
/// by `.`), played if the table is still at the ply its page showed.
#[post("/table/{id}/seat/{credential}", wrap = "private()")]
pub async fn seat_move(
    path: Path<(String, String)>,
    body: Bytes,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let (id, credential) = path.into_inner();
    let seat = seat_of(&policy, &http, &id, &credential).await?;
    let form = Query::parse(std::str::from_utf8(&body).unwrap_or_default());
    let seen: Option<u64> = form.get(PLY_FIELD)?.and_then(|p| p.trim().parse().ok());
    let typed = form
        .all(PLAY)
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .collect::<Vec<_>>()
        .join(&SEPARATOR.to_string());
    let table = read_table(&policy, &id).await?;
    let refused = match seen {
        None => Err(said(&SeatRefusal::NoPly)),
        Some(seen) => {
            moot_games::with_game!(table.game, G => play_turn::<G>(&policy, &table, &credential, seen, &typed).await, else Err(PageError::unknown_game(table.game)))?
        }
    };
    match refused {
        Ok(()) => Ok(see_other(&format!(
            "{}#turn",
            paths::seat(&id, &credential)
        ))),
        Err((status, notice)) => {
            let page = seat_view(&http, &policy, seat, credential, Some(notice), typed);
            let body = table_page(&policy, &id, page).await?;
            Ok(html(status, body))
        }
    }
}

/// Checks the whole turn against the table as it stands (one move, or a Hirþ turn's steps:
/// all or none), then commits its moves one by one from the ply the page showed.
async fn play_turn<G: PageGame>(
    policy: &TablePolicy,
    table: &Table,
    credential: &str,
    seen: u64,
    typed: &str,
) -> Result<Result<(), (StatusCode, Notice)>, PageError> {
    let options = options_of::<G>(table)?;
    let history = policy
        .tables()
        .history(&table.id)
        .await
        .map_err(page_error)?;
    let moves: Vec<String> = history.moves.into_iter().map(|m| m.notation).collect();
    let typed_owned = typed.to_owned();
    let checked = page_off_workers(move || {
        let mut position = Link::<G>::start(options)?;
        position.moves = moves;
        let game = replay(&position)?;
        let before = position.moves.len();
        Ok(submit(&position, &game, &typed_owned).map(|next| next.moves[before..].to_vec()))
    })
    .await?;
    let notations = match checked {
        Ok(notations) => notations,
        Err(notice) => return Ok(Err((StatusCode::UNPROCESSABLE_ENTITY, notice))),
    };
    for (index, notation) in notations.iter().enumerate() {
        let ply = seen + index as u64;
        if let Err(error) = policy
            .tables()
            .play(&table.id, credential, ply, notation, tables::now())
            .await
        {
            return match notice(&error) {
                Some(refusal) => Ok(Err(refusal)),
                None => Err(page_error(error)),
            };
        }
    }
    Ok(Ok(()))
}

/// `POST /table/{id}/seat/{credential}/resign`: the seat resigns.
#[post("/table/{id}/seat/{credential}/resign", wrap = "private()")]
pub async fn seat_resign(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    ends(path, http, policy, Ending::Resign).await
}

/// `POST /table/{id}/seat/{credential}/claim`: the waiting seat claims the win on time.
#[post("/table/{id}/seat/{credential}/claim", wrap = "private()")]
pub async fn seat_claim(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    ends(path, http, policy, Ending::Claim).await
}

/// A seat's action outside the rules that ends the table.
enum Ending {
    Resign,
    Claim,
}

async fn ends(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
    ending: Ending,
) -> Result<HttpResponse, PageError> {
    let (id, credential) = path.into_inner();
    let seat = seat_of(&policy, &http, &id, &credential).await?;
    let now = tables::now();
    let result = match ending {
        Ending::Resign => policy.tables().resign(&id, &credential, now).await,
        Ending::Claim => policy.tables().claim(&id, &credential, now).await,
    };
    match result {
        Ok(_) => Ok(see_other(&format!(
            "{}#turn",
            paths::seat(&id, &credential)
        ))),
        Err(error) => {
            let (status, notice) = notice(&error).ok_or_else(|| page_error(error))?;
            let page = seat_view(
                &http,
                &policy,
                seat,
                credential,
                Some(notice),
                String::new(),
            );
            let body = table_page(&policy, &id, page).await?;
            Ok(html(status, body))
        }
    }
}
