//! `POST /api/v1/tables`: a new table. The request is checked (the game, the players' names,
//! the clock, the webhook's URL and secret, the game's options), the client kept to its share
//! of creations, and each seat's credential answered once.

use actix_web::{FromRequest, HttpRequest, HttpResponse, post};

use super::answer::creation_answer;
use super::bodies::{CreateTableRequest, CreatedTable, TableClock, WebhookRequest};
use super::idempotency::{at_most_once, key_of};
use super::players::known_player;
use super::refusals::{problem, rate_limited};
use crate::api::body::JsonBody;
use crate::api::ops;
use crate::api::problem::{ApiError, ErrorCode, Problem, problem_on_panic};
use crate::extract::KeptTables;
use crate::limits::is_hidden;
use crate::limits::tables as limits;
use crate::tables::players::Player;
use crate::tables::{self, Answering, Idempotent, TablePolicy, Tables};
use moot_games::with_game;
use moot_games::{GAME_IDS, Game};

/// The players' names, the first seat's first: at most two, each within its length and
/// without control or hidden characters (a right-to-left override, a zero-width space); a
/// blank name is none.
fn names(names: Option<Vec<String>>) -> Result<[Option<String>; 2], ApiError> {
    let names = names.unwrap_or_default();
    if names.len() > 2 {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "names: at most two, one per seat",
        )
        .with_field("names"));
    }
    let mut seats = [None, None];
    for (index, name) in names.into_iter().enumerate() {
        seats[index] = name_of(name, &format!("names[{index}]"))?;
    }
    Ok(seats)
}

/// A player's name as given in `field`, checked: within its length and without control or
/// hidden characters (a right-to-left override, a zero-width space); a blank name is none.
pub(super) fn name_of(name: String, field: &str) -> Result<Option<String>, ApiError> {
    let chars = name.chars().count();
    if chars > limits::NAME_CHARS || name.chars().any(|c| c.is_control() || is_hidden(c)) {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!(
                "{field}: a name has at most {} characters, and no control characters nor \
                 hidden ones (bidirectional controls, zero-width characters)",
                limits::NAME_CHARS
            ),
        )
        .with_field(field));
    }
    Ok((!name.trim().is_empty()).then(|| name.trim().to_owned()))
}

/// The webhook a creation names, its URL checked (see [`crate::webhooks::target`]).
fn webhook(
    request: Option<WebhookRequest>,
    allow_private: bool,
) -> Result<Option<tables::Webhook>, ApiError> {
    request
        .map(|request| checked_webhook(request, allow_private, "webhook."))
        .transpose()
}

/// A webhook as sent, its URL checked (see [`crate::webhooks::target`]) and its secret
/// strong enough; a refusal names the field, after `prefix` (the webhook's place in the body).
pub(super) fn checked_webhook(
    request: WebhookRequest,
    allow_private: bool,
    prefix: &str,
) -> Result<tables::Webhook, ApiError> {
    let refused = |field: &str, detail: String| {
        let field = format!("{prefix}{field}");
        ApiError::new(ErrorCode::InvalidRequest, format!("{field}: {detail}")).with_field(&field)
    };
    crate::webhooks::target::check(&request.url, allow_private)
        .map_err(|detail| refused("url", format!("{:?}: {detail}", request.url)))?;
    let chars = request.secret.chars().count();
    if !(limits::WEBHOOK_SECRET_CHARS).contains(&chars)
        || request.secret.chars().any(char::is_control)
    {
        return Err(refused(
            "secret",
            format!(
                "{chars} characters; a secret has {} to {} characters and no control characters",
                limits::WEBHOOK_SECRET_CHARS.start(),
                limits::WEBHOOK_SECRET_CHARS.end()
            ),
        ));
    }
    Ok(tables::Webhook {
        url: request.url,
        secret: request.secret,
    })
}

/// The clock a creation (or a challenge) asks for, checked: `days_per_move` (1 to 60 days, the
/// shorthand of [`tables::Clock::days_per_move`]) or `clock`, not both; a refusal names the
/// field.
pub(crate) fn clock_of(
    days_per_move: Option<u32>,
    clock: Option<&TableClock>,
) -> Result<Option<tables::Clock>, ApiError> {
    let refused = |field: &str, detail: String| {
        ApiError::new(ErrorCode::InvalidRequest, format!("{field}: {detail}")).with_field(field)
    };
    match (days_per_move, clock) {
        (Some(_), Some(_)) => Err(refused(
            "clock",
            "give either `clock` or `days_per_move` (its shorthand), not both".into(),
        )),
        (Some(days), None) if !(1..=limits::MAX_DAYS_PER_MOVE).contains(&days) => Err(refused(
            "days_per_move",
            format!(
                "{days}; a move may take 1 to {} days",
                limits::MAX_DAYS_PER_MOVE
            ),
        )),
        (Some(days), None) => Ok(Some(tables::Clock::days_per_move(days))),
        (None, Some(clock)) => clock
            .checked("clock.")
            .map(Some)
            .map_err(|(field, detail)| refused(&field, detail)),
        (None, None) => Ok(None),
    }
}

/// Creates the table in the game `G` and answers it: the request's names, webhook and clock
/// checked, then the game's options, the first position and the table committed (at most once
/// for an `Idempotency-Key`).
async fn create_for<G: Game>(
    tables: &Tables,
    request: CreateTableRequest,
    allow_private_webhooks: bool,
    idempotent: Option<Idempotent>,
    players: [Option<(String, Player)>; 2],
    site: Option<String>,
) -> Result<HttpResponse, ApiError> {
    let mut names = names(request.names)?;
    // A seat left unnamed is named after its player.
    for (name, player) in names.iter_mut().zip(&players) {
        if name.is_none() {
            *name = player.as_ref().and_then(|(_, player)| player.name.clone());
        }
    }
    let players = players.map(|player| player.map(|(credential, _)| credential));
    let webhook = webhook(request.webhook, allow_private_webhooks)?;
    let clock = clock_of(request.days_per_move, request.clock.as_ref())?;
    let (options, state) = problem_on_panic(|| ops::start::<G>(request.options))?;
    at_most_once(
        tables,
        idempotent,
        (creation_answer, Answering::Creation(creation_answer)),
        |tables| async move {
            tables
                .create_seated::<G>(
                    &options,
                    &state,
                    clock,
                    names,
                    players,
                    webhook,
                    site,
                    tables::now(),
                )
                .await
        },
        problem,
    )
    .await
}

/// Creates a table for two players: answers the table and one credential per seat, shown
/// once, with the seat's page to play in a browser. Hand each seat's credential (or page) to
/// its player; the watch URLs to anyone.
#[utoipa::path(
    tag = "tables",
    params(
        ("Moot-Site-Key" = Option<String>, Header, description = "A site's key, from the server's `--site-keys` file: the creation counts against that site's own budget, not its address's (for a site's backend relaying its players' requests), and the table is the site's (its events go to the site's webhook too, `PUT /api/v1/site/webhook`); a key that is no site's is 401 `unknown_site_key`"),
        ("Idempotency-Key" = Option<String>, Header, description = "A key of 16 to 255 visible ASCII characters (a random UUID); for a creation it counts per client (address, or site) that makes the change at most once: the same request sent again with it is answered as the first time (`Idempotent-Replayed: true`); another request with it is 422 `idempotency_key_reused`. Kept at least 24 h"),
    ),
    request_body(content = CreateTableRequest, content_type = "application/json"),
    responses(
        (status = 201, description = "The table, each seat's credential, the watch URL", body = CreatedTable,
            headers(("Location" = String, description = "The table's URL"))),
        (status = 422, description = "`invalid_request` (an unknown game, a bad name, clock or webhook), `invalid_options`; `idempotency_key_reused`: the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unknown_site_key`: the `Moot-Site-Key` sent is no site's of this server; `unknown_player_key`: a `player_credentials` entry is no player's", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: this client (its address, or the site whose key it sent) created more tables than its share, or sent more wrong player credentials than its share", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds until this client may create another"))),
        (status = 409, description = "`idempotency_key_in_use`: a request with the `Idempotency-Key` was under way, send it again", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "`tables_off`: this server keeps no tables; `webhooks_off`: it posts no webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`tables_full`: the server keeps as many open tables as it may; `storage_unavailable`: the tables' database cannot be used now, nothing was kept", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = String, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/tables")]
pub async fn create_table(body: JsonBody, http: HttpRequest) -> Result<HttpResponse, ApiError> {
    // The tables are taken once the body is read: a body's faults are answered first, and a
    // body is never left unread.
    let policy = KeptTables::<ApiError>::extract(&http).await?;
    // What the creation asks, as read (keys in order): the fingerprint of its key.
    let asked = body.0.to_string();
    let request: CreateTableRequest = ops::envelope(body.0)?;
    let key = key_of(&policy, &http)?;
    let game = GAME_IDS
        .iter()
        .find(|id| **id == request.game)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "game: no game has the id {:?}; the games are: {}",
                    request.game,
                    GAME_IDS.join(", ")
                ),
            )
            .with_field("game")
        })?;
    let client = crate::api::site_key::client_of(&http, policy.limits().trust_forwarded)?;
    if let Err(wait) = policy.may_create(&client) {
        return Err(rate_limited("new tables", wait));
    }
    // A creation's key counts per client: its answer holds the seats' credentials.
    let scope = format!("tables {}", client.scope());
    let idempotent = key.map(|key| Idempotent::new(&scope, &key, &[b"create", asked.as_bytes()]));
    let allow_private = policy.limits().allow_private_webhooks;
    let players = seat_players(&policy, &http, request.player_credentials.clone()).await?;
    // The table is the site's whose key asked for it: its site's webhook gets its events.
    let site = client.site_name().map(str::to_owned);
    with_game!(*game, G => create_for::<G>(policy.tables(), request, allow_private, idempotent, players, site).await, else Err(ApiError::unknown_game(game)))
}

/// The players taking the seats of a new table, by the credentials given (the first seat's
/// first), each with its credential: at most two, each a player's (a wrong one counts against
/// the client's share of wrong player credentials), and two different players.
async fn seat_players(
    policy: &TablePolicy,
    http: &HttpRequest,
    credentials: Option<Vec<Option<String>>>,
) -> Result<[Option<(String, Player)>; 2], ApiError> {
    let credentials = credentials.unwrap_or_default();
    if credentials.len() > 2 {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "player_credentials: at most two, one per seat",
        )
        .with_field("player_credentials"));
    }
    if let [Some(first), Some(second)] = credentials.as_slice()
        && first == second
    {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "player_credentials: one player cannot take both seats of a table",
        )
        .with_field("player_credentials"));
    }
    let mut players = [None, None];
    for (index, credential) in credentials.into_iter().enumerate() {
        let Some(credential) = credential else {
            continue;
        };
        let field = format!("player_credentials[{index}]");
        let player = known_player(policy, http, &credential, &field).await?;
        players[index] = Some((credential, player));
    }
    Ok(players)
}
