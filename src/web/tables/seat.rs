//! A seat's routes, all behind its credential: its page, its moves, resigning and claiming the
//! win on time. Each change is a POST answered with a redirect back to the seat's page, or
//! that page with the refusal over the board.
//!
//! Each route is served twice: by the seat's link (`GET /table/{id}/seat/{credential}`), and
//! as the browser's own seat (`GET /table/{id}/mine`), found by the player credential in its
//! cookie, which opens every seat its player took: the same pages and forms, with no credential
//! in any link.

use actix_web::cookie::Cookie;
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

use super::page::{Door, Page, earlier, options_of, read_table, table_page};
use super::refusals::{busy, notice, page_error, said};
use crate::extract::KeptTables;
use crate::paths;
use crate::tables::{self, Table, TableError, TablePolicy};
use crate::web::answers::{html, private, see_other};
use crate::web::blocking::page_off_workers;
use crate::web::error::PageError;
use crate::web::player::{self, Browser};
use crate::web::same_origin;

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

/// A seat as one of its routes reached it: the table, the credential that opens the seat (the
/// seat's own or its player's), and how the route was reached.
pub(super) struct Reached {
    pub(super) id: String,
    seat: Seat,
    pub(super) credential: String,
    pub(super) door: Door,
}

impl Reached {
    /// The seat reached by its link, `credential` in the path.
    pub(super) async fn by_link(
        policy: &TablePolicy,
        http: &HttpRequest,
        path: Path<(String, String)>,
    ) -> Result<Reached, PageError> {
        let (id, credential) = path.into_inner();
        let seat = seat_of(policy, http, &id, &credential).await?;
        Ok(Reached {
            door: Door::Link(credential.clone()),
            id,
            seat,
            credential,
        })
    }

    /// The browser's own seat at table `id`, opened by its cookie's player credential. A
    /// change (a POST: any method but the safe ones) is taken from Moot's own pages only: the
    /// cookie would ride along with another site's form ([`same_origin`]). Every route of the
    /// browser's own seat comes through here, so none can miss the check.
    pub(super) async fn mine(
        policy: &TablePolicy,
        http: &HttpRequest,
        id: Path<String>,
    ) -> Result<Reached, PageError> {
        if !http.method().is_safe() {
            same_origin::check_page(http, policy.limits().trust_forwarded)?;
        }
        let id = id.into_inner();
        let not_yours = || {
            PageError::new(
                StatusCode::NOT_FOUND,
                "Not one of your games",
                "This browser holds no seat at this table. Open the table from the seat's link \
                 you were given: this browser keeps it among your games from then on.",
            )
            .with_link("Your games", paths::YOUR_GAMES)
        };
        let credential = match player::browser(http, policy).await.map_err(page_error)? {
            Browser::Player(_, credential) => credential,
            Browser::Unknown | Browser::Forged => return Err(not_yours()),
        };
        let seat = match policy.tables().seat(&id, &credential).await {
            Ok(seat) => seat,
            Err(TableError::BadCredential) => return Err(not_yours()),
            Err(error) => return Err(page_error(error)),
        };
        Ok(Reached {
            id,
            seat,
            credential,
            door: Door::Mine,
        })
    }

    /// The seat's page.
    pub(super) fn here(&self) -> String {
        match &self.door {
            Door::Link(credential) => paths::seat(&self.id, credential),
            Door::Mine => paths::mine(&self.id),
        }
    }

    /// The seat's page, with `notice` over the board and the move `typed` kept.
    fn view(
        &self,
        http: &HttpRequest,
        policy: &TablePolicy,
        notice: Option<Notice>,
        typed: String,
    ) -> Page {
        Page {
            seating: Seating::Seat {
                seat: self.seat,
                may_play: true,
            },
            door: Some(self.door.clone()),
            notice,
            typed,
            origin: crate::client::origin_of(http, policy.limits().trust_forwarded),
            at: None,
        }
    }
}

/// `GET /table/{id}/seat/{credential}`: a seat's page, its board live when it is to act. The
/// browser's player takes the seat if no player holds it.
#[get("/table/{id}/seat/{credential}", wrap = "private()")]
pub async fn seat_page(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::by_link(&policy, &http, path).await?;
    let cookie = take_for_browser(
        &http,
        &policy,
        &reached.id,
        reached.seat,
        &reached.credential,
    )
    .await;
    let mut answer = page(&http, &policy, &reached).await?;
    if let Some(cookie) = cookie {
        player::set(&mut answer, &cookie);
    }
    Ok(answer)
}

/// `GET /table/{id}/mine`: the browser's own seat's page, as its link's.
#[get("/table/{id}/mine", wrap = "private()")]
pub async fn mine_page(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    page(&http, &policy, &reached).await
}

/// A seat's page as it stands (or at the earlier position asked for).
async fn page(
    http: &HttpRequest,
    policy: &TablePolicy,
    reached: &Reached,
) -> Result<HttpResponse, PageError> {
    let mut page = reached.view(http, policy, None, String::new());
    page.at = earlier(http)?;
    let body = table_page(policy, &reached.id, page).await?;
    Ok(html(StatusCode::OK, body))
}

/// The browser's player takes the seat whose link it opened, when no player holds it yet: its
/// games page finds the table from then on. A person's browser without a player gets one (the
/// cookie returned, to set); a link preview's fetcher gets none, and leaves the seat free. A
/// seat another player holds, or the other seat of the browser's own table (its creator
/// opening the friend's link), is left as it is; nothing here ever stops the page.
async fn take_for_browser(
    http: &HttpRequest,
    policy: &TablePolicy,
    id: &str,
    seat: Seat,
    credential: &str,
) -> Option<Cookie<'static>> {
    let holders = match policy.tables().seat_holders(id).await {
        Ok(holders) => holders,
        Err(error) => {
            tracing::debug!(%error, "a seat's holder could not be read");
            return None;
        }
    };
    if holders[seat.index()].is_some() {
        return None;
    }
    let (player, cookie) = match player::browser(http, policy).await {
        // The creator looking at the friend's link: a player holds one seat of a table.
        Ok(Browser::Player(player, _))
            if holders[seat.other().index()].as_deref() == Some(player.id.as_str()) =>
        {
            return None;
        }
        Ok(Browser::Player(_, credential)) => (credential, None),
        Ok(Browser::Unknown | Browser::Forged) => {
            match player::player_for(http, policy, None, player::opened_by_a_person(http)).await {
                Ok(Some(found)) => found,
                Ok(None) => return None,
                Err(error) => {
                    tracing::debug!(%error, "no player for the browser");
                    return None;
                }
            }
        }
        Err(error) => {
            tracing::debug!(%error, "the browser's player could not be read");
            return None;
        }
    };
    if let Err(error) = policy
        .tables()
        .take_seat(id, seat, credential, &player, tables::now())
        .await
    {
        tracing::debug!(%error, "the browser's player did not take the seat");
    }
    cookie
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
    let reached = Reached::by_link(&policy, &http, path).await?;
    play(&http, &policy, reached, &body).await
}

/// `POST /table/{id}/mine`: the browser's own seat's move, as its link's.
#[post("/table/{id}/mine", wrap = "private()")]
pub async fn mine_move(
    id: Path<String>,
    body: Bytes,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    play(&http, &policy, reached, &body).await
}

/// The seat's move from its form, answered with its page.
async fn play(
    http: &HttpRequest,
    policy: &TablePolicy,
    reached: Reached,
    body: &[u8],
) -> Result<HttpResponse, PageError> {
    let form = Query::parse(std::str::from_utf8(body).unwrap_or_default());
    let seen: Option<u64> = form.get(PLY_FIELD)?.and_then(|p| p.trim().parse().ok());
    let typed = form
        .all(PLAY)
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .collect::<Vec<_>>()
        .join(&SEPARATOR.to_string());
    let table = read_table(policy, &reached.id).await?;
    let refused = match seen {
        None => Err(said(&SeatRefusal::NoPly)),
        Some(seen) => {
            moot_games::with_game!(table.game, G => play_turn::<G>(policy, &table, &reached.credential, seen, &typed).await, else Err(PageError::unknown_game(table.game)))?
        }
    };
    match refused {
        Ok(()) => Ok(see_other(&format!("{}#turn", reached.here()))),
        Err((status, notice)) => {
            let page = reached.view(http, policy, Some(notice), typed);
            let body = table_page(policy, &reached.id, page).await?;
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
    let reached = Reached::by_link(&policy, &http, path).await?;
    ends(&http, &policy, reached, Ending::Resign).await
}

/// `POST /table/{id}/seat/{credential}/claim`: the waiting seat claims the win on time.
#[post("/table/{id}/seat/{credential}/claim", wrap = "private()")]
pub async fn seat_claim(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::by_link(&policy, &http, path).await?;
    ends(&http, &policy, reached, Ending::Claim).await
}

/// `POST /table/{id}/seat/{credential}/abort`: the seat aborts the table (before both moved).
#[post("/table/{id}/seat/{credential}/abort", wrap = "private()")]
pub async fn seat_abort(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::by_link(&policy, &http, path).await?;
    ends(&http, &policy, reached, Ending::Abort).await
}

/// `POST /table/{id}/mine/abort`: the browser's own seat aborts the table.
#[post("/table/{id}/mine/abort", wrap = "private()")]
pub async fn mine_abort(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    ends(&http, &policy, reached, Ending::Abort).await
}

/// `POST /table/{id}/mine/resign`: the browser's own seat resigns.
#[post("/table/{id}/mine/resign", wrap = "private()")]
pub async fn mine_resign(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    ends(&http, &policy, reached, Ending::Resign).await
}

/// `POST /table/{id}/mine/claim`: the browser's own seat, waiting, claims the win on time.
#[post("/table/{id}/mine/claim", wrap = "private()")]
pub async fn mine_claim(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    ends(&http, &policy, reached, Ending::Claim).await
}

/// `POST /table/{id}/seat/{credential}/vacation`: the seat goes on vacation, or comes back.
#[post("/table/{id}/seat/{credential}/vacation", wrap = "private()")]
pub async fn seat_vacation(
    path: Path<(String, String)>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::by_link(&policy, &http, path).await?;
    vacation(&http, &policy, reached).await
}

/// `POST /table/{id}/mine/vacation`: the browser's own seat goes on vacation, or comes back.
#[post("/table/{id}/mine/vacation", wrap = "private()")]
pub async fn mine_vacation(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let reached = Reached::mine(&policy, &http, id).await?;
    vacation(&http, &policy, reached).await
}

/// The seat's vacation toggled: ended if it is on one, else started (one button on the page,
/// whose words say which).
async fn vacation(
    http: &HttpRequest,
    policy: &TablePolicy,
    reached: Reached,
) -> Result<HttpResponse, PageError> {
    let now = tables::now();
    let (id, credential) = (&reached.id, &reached.credential);
    let table = policy.tables().get(id).await.map_err(page_error)?;
    let away = table
        .as_ref()
        .is_some_and(|table| match (table.clock, table.clock_times) {
            (Some(clock), Some(times)) => clock
                .on_vacation_until(&times.seats[reached.seat.index()], now, table.created)
                .is_some(),
            _ => false,
        });
    match policy.tables().vacation(id, credential, !away, now).await {
        Ok(_) => Ok(see_other(&format!("{}#turn", reached.here()))),
        Err(error) => {
            let (status, notice) = notice(&error).ok_or_else(|| page_error(error))?;
            let page = reached.view(http, policy, Some(notice), String::new());
            let body = table_page(policy, id, page).await?;
            Ok(html(status, body))
        }
    }
}

/// A seat's action outside the rules that ends the table.
enum Ending {
    Resign,
    Abort,
    Claim,
}

async fn ends(
    http: &HttpRequest,
    policy: &TablePolicy,
    reached: Reached,
    ending: Ending,
) -> Result<HttpResponse, PageError> {
    let now = tables::now();
    let (id, credential) = (&reached.id, &reached.credential);
    let result = match ending {
        Ending::Resign => policy.tables().resign(id, credential, now).await,
        Ending::Abort => policy.tables().abort(id, credential, now).await,
        Ending::Claim => policy.tables().claim(id, credential, now).await,
    };
    match result {
        Ok(_) => Ok(see_other(&format!("{}#turn", reached.here()))),
        Err(error) => {
            let (status, notice) = notice(&error).ok_or_else(|| page_error(error))?;
            let page = reached.view(http, policy, Some(notice), String::new());
            let body = table_page(policy, id, page).await?;
            Ok(html(status, body))
        }
    }
}
