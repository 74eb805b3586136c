//! Kept tables on the pages. "Play a friend" on a game's options form opens a table and shows
//! two seat links, one to keep and one to send; each seat plays from its link with the same
//! board as a link's page; anyone with the table's link watches.
//!
//! A seat link holds the seat's credential in its path (the link alone lets its holder play,
//! as a player expects of a link they were sent), so seat pages are answered with
//! `Referrer-Policy: no-referrer` and `Cache-Control: private, no-store`; the access log names
//! routes, never paths. A move is a POST, answered with a redirect back to the seat (or the
//! seat's page with the refusal over the board).

use actix_web::http::{StatusCode, header};
use actix_web::web::{Bytes, Data, Path};
use actix_web::{HttpRequest, HttpResponse, ResponseError, get, post};
use moot_present::link::{AT, HINT, Link, PLAY, Query, SEPARATOR, UNDO, encode};
use moot_present::preview::preview;
use moot_present::replay::replay;
use moot_present::view::{Extras, Seating, capitalised, earlier_view, play_view, record_view};
use moot_templates::options::OptionInput;
use moot_templates::options::{DAYS_FIELD, NAME_FIELDS};
use moot_templates::play::{Notice, StatusLine, TableView, TurnForm};
use moot_templates::table::{
    CreatedView, FriendView, created_page, friend_page as friend_page_markup,
};

use super::blocking::page_off_workers;
use super::error::PageError;
use super::handlers::{downloads, submit};
use super::options_form::options_view;
use crate::limits::{DETAIL_CHARS, EXCERPT_CHARS, excerpt, tables as limits};
use crate::paths;
use crate::tables::{self, EndedBy, Standing, Table, TableError, TablePolicy};
use crate::web::PageGame;
use moot_games::{Seat, Status};

/// The field of a seat's form holding the ply the page showed: a move sent from an older page
/// is refused, not played on a position its player did not see.
const PLY_FIELD: &str = "ply";

/// Registers the tables' pages.
pub fn configure(config: &mut actix_web::web::ServiceConfig) {
    config
        .service(friend_form)
        .service(open_table)
        .service(watch)
        .service(record)
        .service(seat_page)
        .service(seat_move)
        .service(seat_resign)
        .service(seat_claim);
}

/// An answer that holds a seat's credential (its page, or the page showing both): kept from
/// shared caches and from the next site's `Referer`.
fn private(mut response: HttpResponse) -> HttpResponse {
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("private, no-store"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::HeaderName::from_static("x-robots-tag"),
        header::HeaderValue::from_static("noindex"),
    );
    response
}

fn answer(result: Result<HttpResponse, PageError>) -> HttpResponse {
    result.unwrap_or_else(|error| error.error_response())
}

fn html(status: StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body)
}

fn see_other(href: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, href))
        .finish()
}

pub(super) fn policy<E: crate::extract::TablesOff>(
    data: Option<Data<TablePolicy>>,
) -> Result<Data<TablePolicy>, E> {
    data.ok_or_else(E::tables_off)
}

fn busy(what: &str, wait: std::time::Duration) -> PageError {
    let seconds = wait.as_secs_f64().ceil() as u64;
    let mut error = PageError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many at once",
        format!("This address {what}; try again in {seconds} s."),
    );
    error.retry_after = Some(seconds);
    error
}

/// A table's refusal that is no notice over the board: a page of its own.
fn page_error(error: TableError) -> PageError {
    match error {
        TableError::UnknownTable => PageError::new(
            StatusCode::NOT_FOUND,
            "No such table",
            "No table has this link: it may be mistyped, or the table finished long ago and was cleared.",
        ),
        TableError::Full(_) => {
            let mut error = PageError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "No room for another table",
                "This server keeps as many open tables as it may; try again later.",
            );
            error.retry_after = Some(60);
            error
        }
        error => {
            tracing::error!(%error, "a table's page failed");
            PageError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong in Moot",
                format!("The table could not be read: {error}"),
            )
        }
    }
}

/// A refusal of a seat's action, said over the board; `None` for one that needs its own page.
fn notice(error: &TableError) -> Option<(StatusCode, Notice)> {
    let (status, title, detail) = match error {
        TableError::StalePly { .. } => (
            StatusCode::CONFLICT,
            "The table moved on",
            "Your opponent moved after this page was shown: here is the table now.".to_owned(),
        ),
        TableError::NotYourTurn => (
            StatusCode::FORBIDDEN,
            "Not your turn",
            "Your opponent is to move: reload to see whether they have.".to_owned(),
        ),
        TableError::Finished => (
            StatusCode::GONE,
            "The game is over",
            "Nothing more can be played at this table.".to_owned(),
        ),
        TableError::NotWaiting => (
            StatusCode::FORBIDDEN,
            "Your move is awaited",
            "Only the player waiting for the other's move may claim the win.".to_owned(),
        ),
        TableError::TooEarly(why) => (
            StatusCode::CONFLICT,
            "Too early to claim",
            format!("{}.", capitalised(why)),
        ),
        TableError::Move { text, error } => {
            return Some((
                StatusCode::UNPROCESSABLE_ENTITY,
                Notice {
                    title: format!("{:?} cannot be played", excerpt(text.trim(), EXCERPT_CHARS)),
                    detail: excerpt(&capitalised(&error.to_string()), DETAIL_CHARS),
                },
            ));
        }
        _ => return None,
    };
    Some((
        status,
        Notice {
            title: title.to_owned(),
            detail,
        },
    ))
}

/// Finds the seat of `credential` at table `id`: a client past its share of wrong credentials
/// is refused before the credential is read, and a wrong one counts against its share.
async fn seat_of(
    policy: &TablePolicy,
    http: &HttpRequest,
    id: &str,
    credential: &str,
) -> Result<Seat, PageError> {
    let client = crate::client::client_of(http, policy.limits().trust_forwarded);
    policy
        .not_barred(client)
        .map_err(|wait| busy("tried too many wrong seat links", wait))?;
    match policy.tables().seat(id, credential).await {
        Ok(seat) => Ok(seat),
        Err(TableError::BadCredential) => Err(match policy.strike(client) {
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

/// `GET /play/{game}/friend` (the options form's "Play a friend"): the options chosen, and the
/// clock to choose before the table opens.
#[get("/play/{game}/friend")]
pub async fn friend_form(
    game: Path<String>,
    http: HttpRequest,
    data: Option<Data<TablePolicy>>,
) -> HttpResponse {
    answer(
        async {
            policy::<PageError>(data)?;
            let query = Query::parse(http.query_string());
            let id = game.as_str();
            moot_games::with_game!(id, G => friend_page::<G>(&query), else Err(PageError::unknown_game(id)))
        }
        .await,
    )
}

fn friend_page<G: PageGame>(query: &Query) -> Result<HttpResponse, PageError> {
    let (position, _) = Link::<G>::read(query)?;
    let options = options_view(&position, false, false, false)
        .fields
        .into_iter()
        .map(|field| {
            let value = match field.input {
                OptionInput::Choice { choices, selected } => choices
                    .into_iter()
                    .find(|(value, _)| *value == selected)
                    .map_or(selected, |(_, words)| words),
                OptionInput::Number { value, .. } | OptionInput::Text { value } => value,
            };
            format!("{}: {value}", field.label)
        })
        .collect();
    let view = FriendView {
        game_name: G::NAME.to_owned(),
        action: paths::friend(G::ID),
        hidden: position.option_pairs().to_vec(),
        options,
        options_href: position.options_href(),
    };
    Ok(html(
        StatusCode::OK,
        friend_page_markup(&view).into_string(),
    ))
}

/// `POST /play/{game}/friend` (the friend page's "Open the table"): opens a table with the
/// form's options and clock, and shows the two seat links once.
#[post("/play/{game}/friend")]
pub async fn open_table(
    game: Path<String>,
    body: Bytes,
    http: HttpRequest,
    data: Option<Data<TablePolicy>>,
) -> HttpResponse {
    private(answer(
        async {
            let policy = policy::<PageError>(data)?;
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
        .await,
    ))
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
    // The clock and the names are the table's, not the game's: the link reads the rest.
    let options = form
        .0
        .iter()
        .filter(|(name, _)| name != DAYS_FIELD && !NAME_FIELDS.contains(&name.as_str()));
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
    let client = crate::client::client_of(http, policy.limits().trust_forwarded);
    policy
        .may_create(client)
        .map_err(|wait| busy("opened many tables", wait))?;
    let state = G::new_game(&position.options)?;
    let created = policy
        .tables()
        .create::<G>(&position.options, &state, days, names, None, tables::now())
        .await
        .map_err(page_error)?;
    let origin = crate::client::origin_of(http, policy.limits().trust_forwarded);
    let id = &created.table.id;
    let [yours, theirs] = &created.credentials;
    let you = match G::status(&state) {
        Status::Ongoing { colour, .. } => {
            format!("You play {} and move first", capitalised(&colour))
        }
        Status::Finished { .. } => "The game is over before it began".to_owned(),
    };
    let view = CreatedView {
        game_name: G::NAME.to_owned(),
        you,
        yours: format!("{origin}{}", paths::seat(id, yours)),
        theirs: format!("{origin}{}", paths::seat(id, theirs)),
        watch: format!("{origin}{}", paths::watch(id)),
    };
    Ok(html(StatusCode::OK, created_page(&view).into_string()))
}

/// A player's name from the friend form: trimmed, `None` when left empty; at most
/// [`limits::NAME_CHARS`] characters (as the API), none of them a control character.
fn player_name(text: Option<&str>) -> Result<Option<String>, PageError> {
    let name = text.unwrap_or_default().trim();
    if name.chars().count() > limits::NAME_CHARS || name.chars().any(char::is_control) {
        return Err(PageError::new(
            StatusCode::BAD_REQUEST,
            "Name too long",
            format!(
                "{:?}: a name has at most {} characters and no control characters",
                excerpt(name, EXCERPT_CHARS),
                limits::NAME_CHARS
            ),
        ));
    }
    Ok((!name.is_empty()).then(|| name.to_owned()))
}

/// `GET /table/{id}`: the spectators' page.
#[get("/table/{id}")]
pub async fn watch(
    id: Path<String>,
    http: HttpRequest,
    data: Option<Data<TablePolicy>>,
) -> HttpResponse {
    answer(
        async {
            let policy = policy::<PageError>(data)?;
            let origin = crate::client::origin_of(&http, policy.limits().trust_forwarded);
            let page = Page {
                seating: Seating::Watching,
                credential: None,
                notice: None,
                typed: String::new(),
                origin,
                at: earlier(&http)?,
            };
            let (status, body) = table_page(&policy, &id, page).await?;
            Ok(html(status, body))
        }
        .await,
    )
}

/// `GET /table/{id}/record`: the table's record as a text file.
// Named apart from the play pages' `record`: the access log keys route patterns by name.
#[get("/table/{id}/record", name = "table_record")]
pub async fn record(id: Path<String>, data: Option<Data<TablePolicy>>) -> HttpResponse {
    answer(
        async {
            let policy = policy::<PageError>(data)?;
            let table = read_table(&policy, &id).await?;
            let history = policy.tables().history(&id).await.map_err(page_error)?;
            Ok(HttpResponse::Ok()
                .content_type("text/plain; charset=utf-8")
                .insert_header((
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{}-record.txt\"", table.game),
                ))
                .body(format!("{}\n", history.record)))
        }
        .await,
    )
}

/// `GET /table/{id}/seat/{credential}`: a seat's page, its board live when it is to act.
#[get("/table/{id}/seat/{credential}")]
pub async fn seat_page(
    path: Path<(String, String)>,
    http: HttpRequest,
    data: Option<Data<TablePolicy>>,
) -> HttpResponse {
    private(answer(
        async {
            let policy = policy::<PageError>(data)?;
            let (id, credential) = path.into_inner();
            let seat = seat_of(&policy, &http, &id, &credential).await?;
            let mut page = seat_view(&http, &policy, seat, credential, None, String::new());
            page.at = earlier(&http)?;
            let (status, body) = table_page(&policy, &id, page).await?;
            Ok(html(status, body))
        }
        .await,
    ))
}

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

/// The earlier position a table's page is asked to show (`at`), as sent: read once the
/// table's moves are known.
fn earlier(http: &HttpRequest) -> Result<Option<String>, PageError> {
    Ok(Query::parse(http.query_string())
        .get(AT)?
        .map(str::to_owned))
}

/// `POST /table/{id}/seat/{credential}`: the seat's move (or the steps of its Hirþ turn, joined
/// by `.`), played if the table is still at the ply its page showed.
#[post("/table/{id}/seat/{credential}")]
pub async fn seat_move(
    path: Path<(String, String)>,
    body: Bytes,
    http: HttpRequest,
    data: Option<Data<TablePolicy>>,
) -> HttpResponse {
    private(answer(
        async {
            let policy = policy::<PageError>(data)?;
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
                None => Err((
                    StatusCode::BAD_REQUEST,
                    Notice {
                        title: "No ply".to_owned(),
                        detail: "The form did not say which position it was sent from: reload the page and play again.".to_owned(),
                    },
                )),
                Some(seen) => {
                    moot_games::with_game!(table.game, G => play_turn::<G>(&policy, &table, &credential, seen, &typed).await, else Err(PageError::unknown_game(table.game)))?
                }
            };
            match refused {
                Ok(()) => Ok(see_other(&format!("{}#turn", paths::seat(&id, &credential)))),
                Err((status, notice)) => {
                    let page = seat_view(&http, &policy, seat, credential, Some(notice), typed);
                    let (_, body) = table_page(&policy, &id, page).await?;
                    Ok(html(status, body))
                }
            }
        }
        .await,
    ))
}

async fn read_table(policy: &TablePolicy, id: &str) -> Result<Table, PageError> {
    policy
        .tables()
        .get(id)
        .await
        .map_err(page_error)?
        .ok_or_else(|| page_error(TableError::UnknownTable))
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
    let options: G::Options = serde_json::from_value(table.options.clone())
        .map_err(|e| page_error(TableError::Corrupt(e.to_string())))?;
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
#[post("/table/{id}/seat/{credential}/resign")]
pub async fn seat_resign(
    path: Path<(String, String)>,
    http: HttpRequest,
    data: Option<Data<TablePolicy>>,
) -> HttpResponse {
    private(answer(ends(path, http, data, Ending::Resign).await))
}

/// `POST /table/{id}/seat/{credential}/claim`: the waiting seat claims the win on time.
#[post("/table/{id}/seat/{credential}/claim")]
pub async fn seat_claim(
    path: Path<(String, String)>,
    http: HttpRequest,
    data: Option<Data<TablePolicy>>,
) -> HttpResponse {
    private(answer(ends(path, http, data, Ending::Claim).await))
}

enum Ending {
    Resign,
    Claim,
}

async fn ends(
    path: Path<(String, String)>,
    http: HttpRequest,
    data: Option<Data<TablePolicy>>,
    ending: Ending,
) -> Result<HttpResponse, PageError> {
    let policy = policy::<PageError>(data)?;
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
            let (_, body) = table_page(&policy, &id, page).await?;
            Ok(html(status, body))
        }
    }
}

/// Whom a table's page is for, and what it says besides the table.
struct Page {
    seating: Seating,
    /// The seat's credential, on a seat's page.
    credential: Option<String>,
    notice: Option<Notice>,
    typed: String,
    /// The site's origin, for the link preview's absolute links.
    origin: String,
    /// The earlier position to show (`at`: after this many moves), to look at, as sent.
    at: Option<String>,
}

/// A table's page (a seat's or the spectators'), with its status.
async fn table_page(
    policy: &TablePolicy,
    id: &str,
    page: Page,
) -> Result<(StatusCode, String), PageError> {
    let table = read_table(policy, id).await?;
    let history = policy.tables().history(id).await.map_err(page_error)?;
    let moves: Vec<String> = history.moves.into_iter().map(|m| m.notation).collect();
    moot_games::with_game!(table.game, G => page_off_workers(move || render::<G>(table, moves, page)).await, else Err(PageError::unknown_game(table.game)))
}

fn render<G: PageGame>(
    table: Table,
    moves: Vec<String>,
    page: Page,
) -> Result<(StatusCode, String), PageError> {
    let options: G::Options = serde_json::from_value(table.options.clone())
        .map_err(|e| page_error(TableError::Corrupt(e.to_string())))?;
    let mut position = Link::<G>::start(options)?;
    position.moves = moves;
    let game = replay(&position)?;
    // The table's positions on this page's surface: `?at=` on the page itself.
    let here = page
        .credential
        .as_deref()
        .map_or_else(|| paths::watch(&table.id), |c| paths::seat(&table.id, c));
    let moves_played = position.moves.len();
    let positions = |count: usize| {
        if count == moves_played {
            here.clone()
        } else {
            format!("{here}?{AT}={count}")
        }
    };
    let record_href = format!("{}/record", paths::watch(&table.id));
    let at = page
        .at
        .as_deref()
        .map(|text| moot_present::link::at_of(text, moves_played))
        .transpose()?;
    match at {
        Some(at) if at < moves_played => {
            let then = position.truncated(at);
            let shown = replay(&then)?;
            let mut view = earlier_view(&position, &game, &shown, at, &positions);
            downloads(&mut view.record, &then);
            view.record.href = Some(record_href);
            if matches!(page.seating, Seating::Watching) {
                let mut shared = preview(&page.origin, &then, &shown);
                shared.url = format!("{}{}", page.origin, positions(at));
                view.preview = Some(shared);
            }
            return Ok((
                StatusCode::OK,
                moot_templates::play::page(&view).into_string(),
            ));
        }
        _ => {}
    }
    let finished = matches!(table.standing, Standing::Finished { .. });
    let seating = match page.seating {
        Seating::Seat { seat, .. } => Seating::Seat {
            seat,
            may_play: !finished,
        },
        other => other,
    };
    let you = match seating {
        Seating::Seat { seat, .. } => Some(seat),
        _ => None,
    };
    let extras = Extras {
        notice: page.notice,
        typed: excerpt(&page.typed, EXCERPT_CHARS),
        hint: None,
        hints_offered: false,
        seating,
    };
    let mut view = play_view(&position, &game, extras);
    view.record = record_view(&game, moves_played, &positions);
    view.form = TurnForm {
        action: here.clone(),
        method: "post".to_owned(),
        hidden: vec![(PLY_FIELD.to_owned(), table.ply.to_string())],
        field: PLAY.to_owned(),
        undo_field: UNDO.to_owned(),
        hint_field: HINT.to_owned(),
        value: view.form.value,
        record_action: record_href.clone(),
    };
    downloads(&mut view.record, &position);
    view.record.href = Some(record_href);
    view.steps_href = Some(position.href());
    view.opponent = None;
    // Again with the same friend: the same options, a new table.
    view.play_again_href = (finished && you.is_some()).then(|| {
        format!(
            "{}?{}",
            paths::friend(G::ID),
            encode(position.option_pairs())
        )
    });
    if let Standing::Finished {
        winner,
        ended_by: ended_by @ (EndedBy::Resignation | EndedBy::Time),
    } = table.standing
    {
        view.status = ended_outside_the_rules(winner, ended_by, you);
    } else if let (Some(you), Standing::Ongoing { to_act }) = (you, &table.standing)
        && *to_act != you
    {
        view.status.headline = format!("Waiting for {}", view.mover);
    }
    view.table = Some(table_view(&table, &page.credential, you));
    if you.is_none() {
        view.preview = Some(preview(&page.origin, &position, &game));
    }
    Ok((
        StatusCode::OK,
        moot_templates::play::page(&view).into_string(),
    ))
}

/// The status line of a table that a resignation or a claim on time ended.
fn ended_outside_the_rules(
    winner: Option<Seat>,
    ended_by: EndedBy,
    you: Option<Seat>,
) -> StatusLine {
    let seat_words = |seat: Seat| match seat {
        Seat::First => "the first player",
        Seat::Second => "the second player",
    };
    let Some(winner) = winner else {
        return StatusLine {
            headline: "Game over: a draw".to_owned(),
            detail: String::new(),
            finished: true,
        };
    };
    let loser = winner.other();
    let (headline, detail) = match (you, ended_by) {
        (Some(you), EndedBy::Resignation) if you == winner => {
            ("Game over: you won", "your opponent resigned".to_owned())
        }
        (Some(_), EndedBy::Resignation) => ("Game over: you lost", "you resigned".to_owned()),
        (Some(you), _) if you == winner => (
            "Game over: you won",
            "your opponent's move was overdue and you claimed the win".to_owned(),
        ),
        (Some(_), _) => (
            "Game over: you lost",
            "your move was overdue and your opponent claimed the win".to_owned(),
        ),
        (None, EndedBy::Resignation) => (
            "Game over",
            format!("{} resigned; {} won", seat_words(loser), seat_words(winner)),
        ),
        (None, _) => (
            "Game over",
            format!(
                "{}'s move was overdue; {} claimed the win",
                capitalised(seat_words(loser)),
                seat_words(winner)
            ),
        ),
    };
    StatusLine {
        headline: headline.to_owned(),
        detail: capitalised(&detail),
        finished: true,
    }
}

/// Who sits where, the clock, and the seat's actions outside the rules.
fn table_view(table: &Table, credential: &Option<String>, you: Option<Seat>) -> TableView {
    let ongoing = match table.standing {
        Standing::Ongoing { to_act } => Some(to_act),
        Standing::Finished { .. } => None,
    };
    let mut lines = Vec::new();
    lines.push(match you {
        Some(seat) => format!(
            "You sit in the {} seat; your opponent plays from their own link.",
            seat_name(seat)
        ),
        None => "You are watching this game.".to_owned(),
    });
    let names: Vec<String> = table
        .seats
        .iter()
        .filter_map(|s| {
            s.name
                .as_ref()
                .map(|name| format!("{name} ({} seat)", seat_name(s.seat)))
        })
        .collect();
    if !names.is_empty() {
        lines.push(format!("Players: {}.", names.join(", ")));
    }
    let overdue = match (table.days_per_move, table.deadline, ongoing) {
        (Some(days), Some(deadline), Some(to_act)) => {
            let whose = match you {
                Some(you) if you == to_act => "your move".to_owned(),
                Some(_) => "your opponent's move".to_owned(),
                None => format!("the {} player's move", seat_name(to_act)),
            };
            lines.push(format!(
                "{days} day{} per move: {whose} is due by {}.",
                if days == 1 { "" } else { "s" },
                when(deadline)
            ));
            tables::now() > deadline
        }
        (None, _, Some(_)) => {
            lines.push("No clock: each of you moves when you like.".to_owned());
            false
        }
        _ => false,
    };
    let seat_action = |action: &str| {
        credential
            .as_deref()
            .map(|c| format!("{}/{action}", paths::seat(&table.id, c)))
    };
    TableView {
        lines,
        // No fragment: a link to the page's own address and fragment would only scroll.
        reload_href: ongoing.map(|_| {
            credential
                .as_deref()
                .map_or_else(|| paths::watch(&table.id), |c| paths::seat(&table.id, c))
        }),
        resign_action: ongoing.and_then(|_| seat_action("resign")),
        claim_action: match (you, ongoing) {
            (Some(you), Some(to_act)) if to_act != you && overdue => seat_action("claim"),
            _ => None,
        },
        watch_href: Some(paths::watch(&table.id)),
        events_href: ongoing.map(|_| format!("/api/v1/tables/{}/events", table.id)),
        seq: table.seq(),
        your_turn: ongoing.is_some() && ongoing == you,
    }
}

fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "first",
        Seat::Second => "second",
    }
}

/// A time as the pages write it: `2026-12-05 15:00 UTC`.
fn when(millis: tables::Millis) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .map(|t| {
            format!(
                "{}-{:02}-{:02} {:02}:{:02} UTC",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute()
            )
        })
        .unwrap_or_default()
}
