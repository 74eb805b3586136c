//! Challenges over HTTP: `POST /api/v1/challenges` offers a game (to anyone, or to one
//! player), `GET /api/v1/challenges` lists the open ones, `GET …/{id}` reads one, `POST
//! …/{id}/accept` opens its table, `POST …/{id}/decline` and `DELETE …/{id}` close it. The
//! operations are [`crate::tables::challenges`]'s.

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, delete, get, post, web};

use super::challenge_bodies::{
    AcceptChallengeRequest, AcceptedChallenge, CHALLENGES, ChallengeResponse, ChallengeSeat,
    ChallengesResponse, CreateChallengeRequest, challenge_url,
};
use super::create::name_of;
use super::idempotency::{at_most_once, key_of};
use super::players::player_of;
use super::refusals::{problem, rate_limited};
use super::seats::bearer;
use crate::api::body::JsonBody;
use crate::api::ops;
use crate::api::problem::{ApiError, ErrorCode, Problem, problem_on_panic};
use crate::extract::KeptTables;
use crate::limits::tables as limits;
use crate::tables::challenges::{
    Accepted, Acceptor, ChallengeCursor, ChallengeFilter, NewChallenge,
};
use crate::tables::{self, Answering, Idempotent, Remembered, secret};
use moot_games::{GAME_IDS, Seat, with_game};

/// The most challenges a page holds, and how many when `limit` is left out.
const MOST: u64 = 100;
const DEFAULT: u64 = 50;

/// The game a request names, or 422 naming `game`.
pub(crate) fn game_named(game: &str) -> Result<&'static str, ApiError> {
    GAME_IDS
        .iter()
        .copied()
        .find(|id| *id == game)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "game: no game has the id {game:?}; the games are: {}",
                    GAME_IDS.join(", ")
                ),
            )
            .with_field("game")
        })
}

/// A challenge's request checked into what is kept: the game, its options (as the game reads
/// them), the clock, the seat and the invited player's id.
pub(crate) fn checked(request: CreateChallengeRequest) -> Result<NewChallenge, ApiError> {
    let game = game_named(&request.game)?;
    let clock = super::create::clock_of(request.days_per_move, request.clock.as_ref())?;
    let options = with_game!(game, G => {
        let (options, _) = problem_on_panic(|| ops::start::<G>(request.options))?;
        serde_json::to_string(&options).map_err(|e| ApiError::internal(e.to_string()))?
    }, else return Err(ApiError::unknown_game(game)));
    if let Some(invite) = &request.invite
        && !secret::is_table_id(invite)
    {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!("invite: {invite:?} is no player's id (32 lowercase hex digits)"),
        )
        .with_field("invite"));
    }
    Ok(NewChallenge {
        game,
        options,
        clock,
        creator_seat: request.seat.seat(),
        invite: request.invite,
    })
}

/// Offers a game: to anyone (listed at `GET /api/v1/challenges`), or with `invite` to one
/// player alone (not listed; the player's feed has `challenge_received`). The table is opened
/// when someone accepts, both seats held by their players. A challenge no one accepts expires
/// after 7 days; a player keeps at most 20 open. Counted against the client's share of
/// creations, as a table is.
#[utoipa::path(
    tag = "challenges",
    params(
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the creator's player credential"),
        ("Moot-Site-Key" = Option<String>, Header, description = "A site's key: the challenge counts against that site's budget of creations, not its address's"),
    ),
    request_body(content = CreateChallengeRequest, content_type = "application/json"),
    responses(
        (status = 201, description = "The challenge", body = ChallengeResponse,
            headers(("Location" = String, description = "The challenge's URL"))),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's; `unknown_site_key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`too_many_challenges`: the player keeps 20 challenges open", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request` (an unknown game, a bad clock, seat or `invite`), `invalid_options`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client created more than its share, or sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may create another"))),
        (status = 501, description = "`tables_off`: this server keeps no tables", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was kept", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/challenges")]
pub async fn create_challenge(body: JsonBody, http: HttpRequest) -> Result<HttpResponse, ApiError> {
    // The tables are taken once the body is read: a body's faults are answered first.
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    let request: CreateChallengeRequest = ops::envelope(body.0)?;
    let player = player_of(&policy, &http).await?;
    let new = checked(request)?;
    let client = crate::api::site_key::client_of(&http, policy.limits().trust_forwarded)?;
    if let Err(wait) = policy.may_create(&client) {
        return Err(rate_limited("new tables and challenges", wait));
    }
    let challenge = policy
        .tables()
        .create_challenge(&player.id, new, tables::now())
        .await
        .map_err(problem)?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, challenge_url(&challenge.id)))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ChallengeResponse::from(challenge)))
}

/// 400 `invalid_query` about `parameter`.
fn refused(parameter: &str, detail: impl std::fmt::Display) -> ApiError {
    ApiError::new(ErrorCode::InvalidQuery, format!("{parameter}: {detail}")).with_field(parameter)
}

/// The query of `GET /api/v1/challenges`, each parameter at most once; any other is refused.
#[derive(Debug, Default, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // the document's words for the query; `Asked::read` reads it
pub struct ChallengesQuery {
    /// Only this game's challenges.
    game: Option<String>,
    /// Only those with this clock (days per move), or `none` for those without a clock of any
    /// kind.
    days_per_move: Option<String>,
    /// Only those where the creator takes this seat: `first`, `second` or `random`.
    #[param(inline)]
    seat: Option<ChallengeSeat>,
    /// The most challenges to send (1 to 100).
    #[param(minimum = 1, maximum = 100, default = 50)]
    limit: Option<u64>,
    /// Where the page starts: the `after` of the previous page's `next` link.
    after: Option<String>,
}

/// What a query asks of the list: its filter, where it starts, and how many.
struct Asked {
    filter: ChallengeFilter,
    after: Option<ChallengeCursor>,
    limit: u64,
}

impl Asked {
    /// The query `text`, checked.
    fn read(text: &str) -> Result<Asked, ApiError> {
        let pairs = web::Query::<Vec<(String, String)>>::from_query(text)
            .map_err(|e| ApiError::new(ErrorCode::InvalidQuery, format!("the query: {e}")))?
            .into_inner();
        let mut asked = Asked {
            filter: ChallengeFilter::default(),
            after: None,
            limit: DEFAULT,
        };
        let mut seen: Vec<&str> = Vec::new();
        for (name, value) in &pairs {
            if seen.contains(&name.as_str()) {
                return Err(refused(name, "given more than once"));
            }
            seen.push(name);
            match name.as_str() {
                "game" => {
                    asked.filter.game = Some(
                        GAME_IDS
                            .iter()
                            .copied()
                            .find(|id| id == value)
                            .ok_or_else(|| {
                                refused(
                                    name,
                                    format!("{value:?}; the games are {}", GAME_IDS.join(", ")),
                                )
                            })?,
                    );
                }
                "days_per_move" => {
                    asked.filter.days_per_move = Some(match value.as_str() {
                        "none" => None,
                        days => match days.parse::<u32>() {
                            Ok(days) if (1..=limits::MAX_DAYS_PER_MOVE).contains(&days) => {
                                Some(days)
                            }
                            _ => {
                                return Err(refused(
                                    name,
                                    format!(
                                        "{value:?}; a clock is 1 to {} days per move, or `none`",
                                        limits::MAX_DAYS_PER_MOVE
                                    ),
                                ));
                            }
                        },
                    });
                }
                "seat" => {
                    asked.filter.creator_seat = Some(match value.as_str() {
                        "first" => Some(Seat::First),
                        "second" => Some(Seat::Second),
                        "random" => None,
                        _ => {
                            return Err(refused(
                                name,
                                format!("{value:?}; a seat is `first`, `second` or `random`"),
                            ));
                        }
                    });
                }
                "limit" => match value.parse::<u64>() {
                    Ok(limit) if (1..=MOST).contains(&limit) => asked.limit = limit,
                    _ => {
                        return Err(refused(
                            name,
                            format!("{value:?}; a page holds 1 to {MOST} challenges"),
                        ));
                    }
                },
                "after" => {
                    asked.after = Some(value.parse().map_err(|()| {
                        refused(
                            name,
                            format!(
                                "{value:?} is no place in the list; take it from a `next` link"
                            ),
                        )
                    })?);
                }
                _ => {
                    return Err(refused(
                        name,
                        "no such parameter; they are game, days_per_move, seat, limit and after",
                    ));
                }
            }
        }
        Ok(asked)
    }

    /// The link to the page after `cursor`, with this query's filters and limit.
    fn next(&self, cursor: &ChallengeCursor) -> String {
        let mut link = format!("{CHALLENGES}?limit={}", self.limit);
        if let Some(game) = self.filter.game {
            link.push_str(&format!("&game={game}"));
        }
        match self.filter.days_per_move {
            Some(Some(days)) => link.push_str(&format!("&days_per_move={days}")),
            Some(None) => link.push_str("&days_per_move=none"),
            None => {}
        }
        if let Some(seat) = self.filter.creator_seat {
            let word = match ChallengeSeat::of(seat) {
                ChallengeSeat::First => "first",
                ChallengeSeat::Second => "second",
                ChallengeSeat::Random => "random",
            };
            link.push_str(&format!("&seat={word}"));
        }
        link.push_str(&format!("&after={cursor}"));
        link
    }
}

/// The open challenges to anyone, newest first (invitations are never listed; a challenge left
/// open 7 days is not either), a page at a time.
#[utoipa::path(
    tag = "challenges",
    params(ChallengesQuery),
    responses(
        (status = 200, description = "A page of open challenges", body = ChallengesResponse),
        (status = 400, description = "`invalid_query`: a parameter is unknown, repeated or has a value it cannot take (`field` names it)", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/challenges")]
pub async fn list_challenges(
    policy: KeptTables<ApiError>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let asked = Asked::read(http.query_string())?;
    let page = policy
        .tables()
        .open_challenges(
            asked.filter,
            asked.after.as_ref(),
            asked.limit,
            tables::now(),
        )
        .await
        .map_err(problem)?;
    let answer = ChallengesResponse {
        next: page.next.as_ref().map(|cursor| asked.next(cursor)),
        challenges: page
            .challenges
            .into_iter()
            .map(ChallengeResponse::from)
            .collect(),
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(answer))
}

/// One challenge, whatever it stands at (its id is the capability to read it): once accepted,
/// its table's id.
#[utoipa::path(
    tag = "challenges",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge", body = ChallengeResponse),
        (status = 404, description = "`unknown_challenge`", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/challenges/{id}")]
pub async fn get_challenge(
    policy: KeptTables<ApiError>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let challenge = policy
        .tables()
        .challenge(&path.into_inner(), tables::now())
        .await
        .map_err(problem)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ChallengeResponse::from(challenge)))
}

/// Accepts a challenge: opens its table, the creator and the acceptor seated (the creator's
/// feed has `challenge_accepted`, both have `table_started`). With a player credential, that
/// player accepts; without one, a player is made (named by `name`) and its credential answered
/// once. Of two accepts at once, one opens the table and the other is 409 `challenge_taken`.
#[utoipa::path(
    tag = "challenges",
    params(
        ("id" = String, Path, description = "The challenge's id"),
        ("Authorization" = Option<String>, Header, description = "`Bearer <credential>`: the acceptor's player credential; without it, a player is made"),
        ("Idempotency-Key" = Option<String>, Header, description = "A key of 16 to 255 visible ASCII characters (a random UUID); it counts per client (address, or site) that accepts at most once: the same request sent again with it is answered as the first time (`Idempotent-Replayed: true`); another request with it is 422 `idempotency_key_reused`. Kept at least 24 h"),
    ),
    request_body(content = Option<AcceptChallengeRequest>, content_type = "application/json", description = "The new player's name, when no credential is sent (an empty body is a player without one)"),
    responses(
        (status = 201, description = "The table, the acceptor's seat and credential, the player", body = AcceptedChallenge,
            headers(("Location" = String, description = "The table's URL"))),
        (status = 401, description = "`unknown_player_key`: the credential is no player's", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_invited`: the challenge is an invitation to another player", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_challenge`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`challenge_taken`: someone accepted it first; `challenge_closed`: declined, cancelled or expired; `own_challenge`: the creator's own; `idempotency_key_in_use`: a request with the key was under way, send it again", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_request`: a bad name or `Idempotency-Key`; `idempotency_key_reused`: the key was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client made more players than its share, or sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`tables_full`: the server keeps as many open tables as it may; `storage_unavailable`: the tables' database cannot be used now, nothing was kept", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/challenges/{id}/accept")]
pub async fn accept_challenge(
    path: web::Path<String>,
    body: JsonBody,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    // What the accept asks (the challenge, the credential, the body): its key's fingerprint.
    let id = path.into_inner();
    let asked = body.0.to_string();
    let request: AcceptChallengeRequest = ops::envelope(body.0)?;
    let key = key_of(&policy, &http)?;
    let acceptor = match bearer(&http) {
        Some(credential) => {
            // Checked (and a wrong one counted) before the accept's transaction.
            player_of(&policy, &http).await?;
            Acceptor::Credential(credential.to_owned())
        }
        None => {
            let name = match request.name {
                Some(name) => name_of(name, "name")?,
                None => None,
            };
            let client = crate::api::site_key::client_of(&http, policy.limits().trust_forwarded)?;
            if let Err(wait) = policy.may_create_player(&client) {
                return Err(rate_limited("new players", wait));
            }
            Acceptor::New(name)
        }
    };
    // Its answer holds credentials: a key counts per client, as a table's creation's does.
    let client = crate::api::site_key::client_of(&http, policy.limits().trust_forwarded)?;
    let scope = format!("challenges {}", client.scope());
    let site = client.site_name().map(str::to_owned);
    let credential = bearer(&http).unwrap_or_default().to_owned();
    let idempotent = key.map(|key| {
        Idempotent::new(
            &scope,
            &key,
            &[
                b"accept",
                id.as_bytes(),
                credential.as_bytes(),
                asked.as_bytes(),
            ],
        )
    });
    at_most_once(
        policy.tables(),
        idempotent,
        (acceptance_answer, Answering::Acceptance(acceptance_answer)),
        |tables| async move {
            tables
                .accept_challenge(&id, acceptor, site, tables::now())
                .await
        },
        problem,
    )
    .await
}

/// An accepted challenge as answered (and remembered, for its `Idempotency-Key`): 201, the
/// table's URL, never stored by a cache.
fn acceptance_answer(accepted: &Accepted) -> Remembered {
    let answer = AcceptedChallenge::from(accepted.clone());
    Remembered {
        status: 201,
        headers: vec![
            (
                header::LOCATION.to_string(),
                super::bodies::table_url(&answer.table.id),
            ),
            (header::CACHE_CONTROL.to_string(), "no-store".to_owned()),
        ],
        body: serde_json::to_string(&answer).expect("an accepted challenge is JSON"),
        position: None,
    }
}

/// The invited player declines an invitation: its creator's feed has `challenge_declined`.
#[utoipa::path(
    tag = "challenges",
    params(
        ("id" = String, Path, description = "The challenge's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the invited player's credential"),
    ),
    responses(
        (status = 200, description = "The challenge, declined", body = ChallengeResponse),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_invited`: the player is not the one invited", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_challenge`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`challenge_taken`: accepted already; `challenge_closed`: declined, cancelled or expired", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/challenges/{id}/decline")]
pub async fn decline_challenge(
    policy: KeptTables<ApiError>,
    path: web::Path<String>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let player = player_of(&policy, &http).await?;
    let challenge = policy
        .tables()
        .decline_challenge(&path.into_inner(), &player.id, tables::now())
        .await
        .map_err(problem)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ChallengeResponse::from(challenge)))
}

/// Its creator calls a challenge off: no longer listed, nor accepted.
#[utoipa::path(
    tag = "challenges",
    params(
        ("id" = String, Path, description = "The challenge's id"),
        ("Authorization" = String, Header, description = "`Bearer <credential>`: the creator's player credential"),
    ),
    responses(
        (status = 200, description = "The challenge, cancelled", body = ChallengeResponse),
        (status = 401, description = "`unknown_player_key`: no player credential, or no player's", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not_your_challenge`: the player is not the creator", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_challenge`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`challenge_taken`: accepted already; `challenge_closed`: declined, cancelled or expired", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client sent too many wrong player credentials", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may try again"))),
        (status = 501, description = "`tables_off`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`storage_unavailable`: the tables' database cannot be used now, nothing was changed", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[delete("/challenges/{id}")]
pub async fn cancel_challenge(
    policy: KeptTables<ApiError>,
    path: web::Path<String>,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let player = player_of(&policy, &http).await?;
    let challenge = policy
        .tables()
        .cancel_challenge(&path.into_inner(), &player.id, tables::now())
        .await
        .map_err(problem)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(ChallengeResponse::from(challenge)))
}
