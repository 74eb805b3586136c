//! The browser's player: a player key kept in a cookie, so that the pages find a person's games
//! again without an account and without a credential in any link they show.
//!
//! The cookie `moot_player` holds a player's credential ([`crate::tables::players`]). It is
//! made on the first "Play a friend" (the creator's seat is the player's from the start) and
//! when a seat's link is opened in a browser without one (the friend's browser finds the game
//! again too); it is `HttpOnly` (no script reads it), `SameSite=Lax` (no other site's form
//! plays with it) and `Secure` when the request came over TLS. A cookie whose credential is no
//! player's (its player swept, or forged) is treated as none: replaced where a player is
//! needed, never an error page.

use actix_web::cookie::{Cookie, SameSite, time::Duration};
use actix_web::{HttpRequest, HttpResponse};

use crate::site_keys::Client;
use crate::tables::players::Player;
use crate::tables::{self, TableError, TablePolicy};

/// The cookie's name.
pub const COOKIE: &str = "moot_player";

/// How long a browser keeps the cookie: 400 days, the longest browsers keep any.
const KEPT_DAYS: i64 = 400;

/// The player credential the browser sent, if it sent one that could be a credential (what
/// else a cookie holds is never looked up).
pub fn sent(http: &HttpRequest) -> Option<String> {
    http.cookie(COOKIE)
        .map(|cookie| cookie.value().to_owned())
        .filter(|value| {
            value.len() == 64
                && value
                    .bytes()
                    .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        })
}

/// Whether the request came over TLS: to the server itself, or to the proxy it trusts
/// (`--trust-forwarded`), or to the public URL it was given.
fn over_tls(http: &HttpRequest, trust_forwarded: bool) -> bool {
    if let Some(Some(public)) = http.app_data::<Option<crate::client::PublicUrl>>() {
        return public.origin().starts_with("https://");
    }
    if trust_forwarded {
        http.connection_info().scheme() == "https"
    } else {
        http.app_config().secure()
    }
}

/// The cookie that keeps `credential` in this browser.
pub fn cookie(http: &HttpRequest, policy: &TablePolicy, credential: &str) -> Cookie<'static> {
    Cookie::build(COOKIE, credential.to_owned())
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .max_age(Duration::days(KEPT_DAYS))
        .secure(over_tls(http, policy.limits().trust_forwarded))
        .finish()
}

/// The cookie that tells the browser to forget a credential that is no player's.
pub fn forget(http: &HttpRequest, policy: &TablePolicy) -> Cookie<'static> {
    let mut gone = cookie(http, policy, "");
    gone.make_removal();
    gone
}

/// The browser's player, as its cookie names it.
pub enum Browser {
    /// No cookie.
    Unknown,
    /// A cookie whose credential is no player's.
    Forged,
    /// The player, and its credential.
    Player(Player, String),
}

/// The browser's player, read from its cookie.
pub async fn browser(http: &HttpRequest, policy: &TablePolicy) -> Result<Browser, TableError> {
    let Some(credential) = sent(http) else {
        return Ok(if http.cookie(COOKIE).is_some() {
            Browser::Forged
        } else {
            Browser::Unknown
        });
    };
    Ok(match policy.tables().player(&credential).await? {
        Some(player) => Browser::Player(player, credential),
        None => Browser::Forged,
    })
}

/// Whether the request is a person's browser opening the page: a navigation to a document
/// (`Sec-Fetch-Mode`, `Sec-Fetch-Dest`), not a prefetch or a prerender. A chat's link preview
/// fetches a seat's link when it is sent; its fetcher sends none of these, and must not take
/// the seat meant for the friend.
pub fn opened_by_a_person(http: &HttpRequest) -> bool {
    let header = |name: &str| {
        http.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_ascii_lowercase)
    };
    header("sec-fetch-mode").as_deref() == Some("navigate")
        && header("sec-fetch-dest").as_deref() == Some("document")
        && header("sec-purpose").is_none()
        && header("purpose").is_none()
}

/// A player for this browser: its own, or, if `may_make`, a new one named `name` (then with
/// the cookie to set). `None` when the browser has none and none is made (or the client made
/// its share of players): the page goes on without one.
pub async fn player_for(
    http: &HttpRequest,
    policy: &TablePolicy,
    name: Option<String>,
    may_make: bool,
) -> Result<Option<(String, Option<Cookie<'static>>)>, TableError> {
    if let Browser::Player(_, credential) = browser(http, policy).await? {
        return Ok(Some((credential, None)));
    }
    if !may_make {
        return Ok(None);
    }
    let client = crate::client::client_of(http, policy.limits().trust_forwarded);
    if policy.may_create_player(&Client::Address(client)).is_err() {
        return Ok(None);
    }
    let made = policy
        .tables()
        .create_player(name, None, tables::now())
        .await?;
    let set = cookie(http, policy, &made.credential);
    Ok(Some((made.credential, Some(set))))
}

/// Sets `cookie` on `answer` (a credential's hex always makes a valid header).
pub fn set(answer: &mut HttpResponse, cookie: &Cookie<'_>) {
    if let Err(error) = answer.add_cookie(cookie) {
        tracing::warn!(%error, "the player's cookie could not be set");
    }
}
