//! "Find an opponent" over HTTP: the open challenges (`GET /challenges`), each with a "Play"
//! form that accepts it as the browser's player and leads to its seat page; the form that makes
//! one (`POST /challenges`); and a challenge's page (`GET /challenges/{id}`), where its creator
//! waits and cancels, its invited player accepts or declines, and anyone holding a seat once it
//! is accepted is sent to the game. The browser's player is the cookie's
//! ([`super::player`]), made where an action needs one; every POST is taken from Moot's own
//! pages only ([`super::same_origin`]). What is kept is [`crate::tables::challenges`]'s; the
//! words are `moot-present`'s.

use actix_web::http::StatusCode;
use actix_web::web::{Bytes, Path};
use actix_web::{HttpRequest, HttpResponse, get, post};
use moot_present::challenges::{Offered, Standing, Viewer, list_view, page_view};
use moot_present::link::{Link, Query};
use serde_json::Value;

use crate::extract::KeptTables;
use crate::limits::{EXCERPT_CHARS, excerpt, is_hidden, tables as limits};
use crate::paths;
use crate::tables::challenges::{
    Acceptor, Challenge, ChallengeFilter, ChallengeStatus, NewChallenge,
};
use crate::tables::{self, TableError, TablePolicy, secret};
use crate::web::answers::{html, private, see_other};
use crate::web::error::PageError;
use crate::web::player::{self, Browser};
use crate::web::same_origin;
use crate::web::tables::refusals::{busy, page_error};
use moot_games::{GAME_IDS, Game, Seat, with_game};

/// The create form's own fields: the others are the game's options.
const FORM_FIELDS: [&str; 5] = ["game", "days_per_move", "seat", "name", "invite"];

/// How many open challenges the list shows.
const LISTED: u64 = 50;

/// A challenge's refusal as a page of its own.
fn refused(error: TableError) -> PageError {
    let (status, title, detail) = match &error {
        TableError::UnknownChallenge => (
            StatusCode::NOT_FOUND,
            "No such challenge",
            "No challenge has this link: it may be mistyped.".to_owned(),
        ),
        TableError::ChallengeTaken => (
            StatusCode::CONFLICT,
            "Someone was quicker",
            "Another player took this challenge up first. Find another opponent.".to_owned(),
        ),
        TableError::ChallengeClosed(status) => (
            StatusCode::CONFLICT,
            "The challenge is closed",
            format!("This challenge is {status}: it can no longer be taken up."),
        ),
        TableError::TooManyChallenges(most) => (
            StatusCode::CONFLICT,
            "Too many open challenges",
            format!(
                "You have {most} challenges waiting, the most a player keeps: cancel one first."
            ),
        ),
        TableError::OwnChallenge => (
            StatusCode::CONFLICT,
            "Your own challenge",
            "This is your own challenge: wait for an opponent to take it up.".to_owned(),
        ),
        TableError::NotInvited => (
            StatusCode::FORBIDDEN,
            "An invitation to another player",
            "This game invites another player: only they may answer it.".to_owned(),
        ),
        TableError::NotCreator => (
            StatusCode::FORBIDDEN,
            "Not your challenge",
            "Only the player who offered this game may cancel it.".to_owned(),
        ),
        TableError::BadInvite(why) => (
            StatusCode::BAD_REQUEST,
            "No such player",
            format!("The invited player: {why}."),
        ),
        _ => return page_error(error),
    };
    let mut page = PageError::new(status, title, detail);
    page.links.push((
        moot_present::challenges::TITLE.to_owned(),
        paths::CHALLENGES.to_owned(),
    ));
    page
}

/// 403 for a POST from another site's page.
fn from_our_pages(http: &HttpRequest, policy: &TablePolicy) -> Result<(), PageError> {
    same_origin::check_page(http, policy.limits().trust_forwarded)
}

/// The game's name.
fn game_name(game: &str) -> String {
    with_game!(game, G => <G as Game>::NAME.to_owned(), else game.to_owned())
}

/// A challenge as the pages' words take it.
fn offered(challenge: &Challenge) -> Offered {
    let options = match &challenge.options {
        Value::Object(members) => members
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                (name.clone(), value)
            })
            .collect(),
        _ => Vec::new(),
    };
    Offered {
        href: paths::challenge(&challenge.id),
        game_name: game_name(challenge.game),
        options,
        days_per_move: challenge.days_per_move,
        creator: challenge.creator_name.clone(),
        creator_seat: challenge.creator_seat,
        invitation: challenge.invited.is_some(),
        standing: match challenge.status {
            ChallengeStatus::Open => Standing::Open,
            ChallengeStatus::Accepted => Standing::Accepted,
            ChallengeStatus::Declined => Standing::Declined,
            ChallengeStatus::Cancelled => Standing::Cancelled,
            ChallengeStatus::Expired => Standing::Expired,
        },
        created: challenge.created,
    }
}

/// `GET /challenges`: the open challenges, the browser's own, and the form that makes one.
#[get("/challenges", wrap = "private()")]
pub async fn list(
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let now = tables::now();
    let browser = player::browser(&http, &policy).await.map_err(page_error)?;
    let me = match &browser {
        Browser::Player(player, _) => Some(player.id.clone()),
        Browser::Unknown | Browser::Forged => None,
    };
    let page = policy
        .tables()
        .open_challenges(ChallengeFilter::default(), None, LISTED, now)
        .await
        .map_err(refused)?;
    let yours = match &me {
        Some(id) => policy
            .tables()
            .my_challenges(id, now)
            .await
            .map_err(refused)?,
        None => Vec::new(),
    };
    let open: Vec<(Offered, bool)> = page
        .challenges
        .iter()
        .map(|c| (offered(c), me.as_deref() == Some(&c.creator_id)))
        .collect();
    let listed_yours: Vec<Offered> = yours.iter().map(offered).collect();
    let games: Vec<(String, String)> = GAME_IDS
        .iter()
        .map(|id| ((*id).to_owned(), game_name(id)))
        .collect();
    let view = list_view(
        &open,
        &listed_yours,
        &games,
        paths::CHALLENGES,
        me.is_some(),
        now,
    );
    let mut answer = html(
        StatusCode::OK,
        moot_templates::challenges::list_page(&view).into_string(),
    );
    if let Browser::Forged = browser {
        player::set(&mut answer, &player::forget(&http, &policy));
    }
    Ok(answer)
}

/// A field of the create form, trimmed; empty is none.
fn field<'q>(form: &'q Query, name: &str) -> Result<Option<&'q str>, PageError> {
    Ok(form.get(name)?.map(str::trim).filter(|v| !v.is_empty()))
}

/// 400 naming a field of the create form.
fn bad_field(title: &str, detail: String) -> PageError {
    PageError::new(StatusCode::BAD_REQUEST, title, detail)
}

/// The create form, checked into a new challenge (the game's options as its other fields give
/// them, its usual ones by default) and the name of the player to make, if the browser has
/// none.
fn new_challenge(form: &Query) -> Result<(NewChallenge, Option<String>), PageError> {
    let game = field(form, "game")?.unwrap_or_default();
    let game = GAME_IDS
        .iter()
        .copied()
        .find(|id| *id == game)
        .ok_or_else(|| {
            bad_field(
                "No such game",
                format!(
                    "game={:?}: the games are {}",
                    excerpt(game, EXCERPT_CHARS),
                    GAME_IDS.join(", ")
                ),
            )
        })?;
    let days_per_move = match field(form, "days_per_move")? {
        None => None,
        Some(text) => Some(
            text.parse::<u32>()
                .ok()
                .filter(|days| (1..=limits::MAX_DAYS_PER_MOVE).contains(days))
                .ok_or_else(|| {
                    bad_field(
                        "No such clock",
                        format!(
                            "days_per_move={:?}: a move may take 1 to {} days",
                            excerpt(text, EXCERPT_CHARS),
                            limits::MAX_DAYS_PER_MOVE
                        ),
                    )
                })?,
        ),
    };
    let creator_seat = match field(form, "seat")? {
        None | Some("random") => None,
        Some("first") => Some(Seat::First),
        Some("second") => Some(Seat::Second),
        Some(other) => {
            return Err(bad_field(
                "No such colour",
                format!(
                    "seat={:?}: it is first, second or random",
                    excerpt(other, EXCERPT_CHARS)
                ),
            ));
        }
    };
    let invite = match field(form, "invite")? {
        None => None,
        Some(id) if secret::is_table_id(id) => Some(id.to_owned()),
        Some(other) => {
            return Err(bad_field(
                "No such player",
                format!(
                    "invite={:?}: a player's id is 32 letters and digits, as its Your games \
                     page shows it",
                    excerpt(other, EXCERPT_CHARS)
                ),
            ));
        }
    };
    let name = match field(form, "name")? {
        None => None,
        Some(name)
            if name.chars().count() > limits::NAME_CHARS
                || name.chars().any(|c| c.is_control() || is_hidden(c)) =>
        {
            return Err(bad_field(
                "Name not accepted",
                format!(
                    "{:?}: a name has at most {} characters, and no control characters nor \
                     hidden ones",
                    excerpt(name, EXCERPT_CHARS),
                    limits::NAME_CHARS
                ),
            ));
        }
        Some(name) => Some(name.to_owned()),
    };
    // The rest of the form is the game's options, as a link holds them (none: its defaults):
    // the friend page's "Offer it to anyone" sends those chosen on the options form.
    let rest = Query(
        form.0
            .iter()
            .filter(|(name, _)| {
                !FORM_FIELDS.contains(&name.as_str())
                    && !crate::web::clock_form::is_clock_field(name)
            })
            .cloned()
            .collect(),
    );
    let options = with_game!(game, G => {
        let (position, _) = Link::<G>::read(&rest)?;
        G::new_game(&position.options)?;
        serde_json::to_string(&position.options).map_err(|e| {
            PageError::new(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong in Moot", e.to_string())
        })?
    }, else return Err(PageError::unknown_game(game)));
    Ok((
        NewChallenge {
            game,
            options,
            clock: crate::web::clock_form::own_clock(form)?
                .or(days_per_move.map(tables::Clock::days_per_move)),
            creator_seat,
            invite,
        },
        name,
    ))
}

/// The form's body as text.
fn form_text(body: &Bytes) -> Result<&str, PageError> {
    std::str::from_utf8(body).map_err(|_| {
        PageError::new(
            StatusCode::BAD_REQUEST,
            "Unreadable form",
            "The form was not sent as text.",
        )
    })
}

/// The browser's player (made, named `name`, if it has none): its id and credential, and the
/// cookie to set when made.
async fn players_own(
    http: &HttpRequest,
    policy: &TablePolicy,
    name: Option<String>,
) -> Result<(String, String, Option<actix_web::cookie::Cookie<'static>>), PageError> {
    let Some((credential, cookie)) = player::player_for(http, policy, name, true)
        .await
        .map_err(page_error)?
    else {
        return Err(busy(
            "made many players",
            std::time::Duration::from_secs(60),
        ));
    };
    let player = policy
        .tables()
        .player(&credential)
        .await
        .map_err(page_error)?
        .ok_or_else(|| refused(TableError::UnknownPlayer))?;
    Ok((player.id, credential, cookie))
}

/// `POST /challenges` (the create form): makes the challenge as the browser's player (made if
/// missing) and goes to its page.
#[post("/challenges", wrap = "private()")]
pub async fn create(
    body: Bytes,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    from_our_pages(&http, &policy)?;
    let form = Query::parse(form_text(&body)?);
    let (new, name) = new_challenge(&form)?;
    let client = crate::client::client_of(&http, policy.limits().trust_forwarded);
    policy
        .may_create(&crate::site_keys::Client::Address(client))
        .map_err(|wait| busy("opened many tables", wait))?;
    let (player_id, _, cookie) = players_own(&http, &policy, name).await?;
    let challenge = policy
        .tables()
        .create_challenge(&player_id, new, tables::now())
        .await
        .map_err(refused)?;
    let mut answer = see_other(&paths::challenge(&challenge.id));
    if let Some(cookie) = cookie {
        player::set(&mut answer, &cookie);
    }
    Ok(answer)
}

/// `GET /challenges/{id}`: the challenge as the browser's player sees it; once accepted, a
/// player holding one of its table's seats is sent to its seat page.
#[get("/challenges/{id}", wrap = "private()")]
pub async fn challenge_page(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let now = tables::now();
    let challenge = policy.tables().challenge(&id, now).await.map_err(refused)?;
    let browser = player::browser(&http, &policy).await.map_err(page_error)?;
    let me = match &browser {
        Browser::Player(player, _) => Some(player.id.clone()),
        Browser::Unknown | Browser::Forged => None,
    };
    if let (Some(table_id), Some(me)) = (&challenge.table_id, &me) {
        // A table swept since is no error: the page says the challenge was accepted.
        if let Ok(holders) = policy.tables().seat_holders(table_id).await
            && holders.iter().flatten().any(|holder| holder == me)
        {
            return Ok(see_other(&paths::mine(table_id)));
        }
    }
    let viewer = match &me {
        Some(me) if *me == challenge.creator_id => Viewer::Creator,
        Some(me) if challenge.invited.as_ref() == Some(me) => Viewer::Invited,
        _ => Viewer::Other,
    };
    let origin = crate::client::origin_of(&http, policy.limits().trust_forwarded);
    let share = format!("{origin}{}", paths::challenge(&challenge.id));
    let view = page_view(
        &offered(&challenge),
        viewer,
        (&share, None, paths::CHALLENGES),
        now,
    );
    let mut answer = html(
        StatusCode::OK,
        moot_templates::challenges::challenge_page(&view).into_string(),
    );
    if let Browser::Forged = browser {
        player::set(&mut answer, &player::forget(&http, &policy));
    }
    Ok(answer)
}

/// `POST /challenges/{id}/accept` ("Play", "Accept"): accepts as the browser's player (made if
/// missing) and goes to its seat at the new table.
#[post("/challenges/{id}/accept", wrap = "private()")]
pub async fn accept(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    from_our_pages(&http, &policy)?;
    // A challenge this browser cannot take makes no player: one that is gone or closed, or an
    // invitation, which a browser without a player cannot be the invited one of.
    let challenge = policy
        .tables()
        .challenge(&id, tables::now())
        .await
        .map_err(refused)?;
    match challenge.status {
        ChallengeStatus::Open => {}
        ChallengeStatus::Accepted => return Err(refused(TableError::ChallengeTaken)),
        status => return Err(refused(TableError::ChallengeClosed(status.as_str()))),
    }
    if challenge.invited.is_some() && player::sent(&http).is_none() {
        return Err(refused(TableError::NotInvited));
    }
    let (_, credential, cookie) = players_own(&http, &policy, None).await?;
    let accepted = policy
        .tables()
        .accept_challenge(&id, Acceptor::Credential(credential), None, tables::now())
        .await
        .map_err(refused)?;
    let mut answer = see_other(&paths::mine(&accepted.table.id));
    if let Some(cookie) = cookie {
        player::set(&mut answer, &cookie);
    }
    Ok(answer)
}

/// The browser's player, for an answer to a challenge; a browser without one has nothing to
/// answer, and is refused as `none`.
async fn answering(
    http: &HttpRequest,
    policy: &TablePolicy,
    none: TableError,
) -> Result<String, PageError> {
    from_our_pages(http, policy)?;
    match player::browser(http, policy).await.map_err(page_error)? {
        Browser::Player(player, _) => Ok(player.id),
        Browser::Unknown | Browser::Forged => Err(refused(none)),
    }
}

/// `POST /challenges/{id}/decline`: the invited player turns the invitation down.
#[post("/challenges/{id}/decline", wrap = "private()")]
pub async fn decline(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let me = answering(&http, &policy, TableError::NotInvited).await?;
    policy
        .tables()
        .decline_challenge(&id, &me, tables::now())
        .await
        .map_err(refused)?;
    Ok(see_other(&paths::challenge(&id)))
}

/// `POST /challenges/{id}/cancel`: its creator calls the challenge off.
#[post("/challenges/{id}/cancel", wrap = "private()")]
pub async fn cancel(
    id: Path<String>,
    http: HttpRequest,
    policy: KeptTables<PageError>,
) -> Result<HttpResponse, PageError> {
    let me = answering(&http, &policy, TableError::NotCreator).await?;
    policy
        .tables()
        .cancel_challenge(&id, &me, tables::now())
        .await
        .map_err(refused)?;
    Ok(see_other(&paths::challenge(&id)))
}
