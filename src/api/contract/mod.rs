//! The published OpenAPI document: the contract generated clients are built from.
//!
//! utoipa describes the handlers as they are written: generic over the game
//! (`/api/v1/games/{game}/apply`), with the game-dependent members (`state`, `options`, events,
//! score) as unions of every game's schemas. A client generated from that cannot tell which
//! state goes with which game. The published document is that one rewritten, pass by pass:
//!
//! 1. [`integers`]: every unsigned integer gets its exact range (`u8`: 0–255);
//! 2. [`nullable`]: a member that may be `null` may be left out, as serde reads it; then each
//!    game's own pass on its schemas ([`game_passes`]): [`tara`] bounds a Tara state's hills,
//!    list lengths and captures as `validate` has them, no sacrifice at Level 1; [`herfor`]
//!    patterns Herfor's point names in a state;
//! 3. [`requests`]: request bodies say what the server refuses (one budget at most, no `null`
//!    body for `new`);
//! 4. [`per_game`]: each generic path becomes one path per game (`/api/v1/games/herfor/apply`,
//!    operation `herfor_apply`), whose bodies are copies of the generic ones typed with that
//!    game's schemas (`HerforApplyRequest` holds a `HerforState`); then [`patterns`] gives each
//!    game's moves the pattern of its notation, where one states it exactly (Herfor, Tara);
//!    each game's own pass on its requests: [`herfor`] gives Herfor's points and moves the
//!    pattern of the board size the options say; and [`patterns`] gives each game's picture
//!    an example link of that game and the pattern of its moves;
//! 5. [`variants`]: every tagged union's variants become named schemas (`HerforEventPlaced`)
//!    and the union gets a discriminator (`type`, for every game's events; Tara's and Hirþ's
//!    also declare their former tag `event`, deprecated); then each game's own pass on its
//!    variants: [`hirth`] names a Hirþ board's keys as spaces and closes a phase to unknown
//!    members;
//! 6. [`errors`]: every error status an operation can answer is declared with the problem schema;
//!    [`images`]: image answers are bytes (`format: binary`); [`events`]: an event stream is
//!    described event by event, its `data` JSON; [`options`]: every game option
//!    declares its default, and the GET picture and animation operations take the options as
//!    query parameters;
//!    [`webhooks`]: the POST a table's webhook receives is described in `webhooks`;
//!    [`nullable`] again: every member that may be left out takes `null` too (the server reads
//!    one as the other);
//! 7. [`text`]: descriptions lose the Rust doc-link syntax;
//! 8. [`prune`]: schemas no path refers to any more (the generic unions) are dropped.
//!
//! The server's routes stay generic: the concrete paths are the same URLs.
//!
//! Why passes, when the handlers read and answer each game's own types
//! (`ApplyRequest<HerforState>`): utoipa names a generic body used with a game's type after the
//! body and its argument (`ApplyRequest_HerforState`), and gives every game's the one example
//! of the generic body. The clients generated from this document are built on its names
//! (`HerforApplyRequest`), and its examples are each game's own, so the per-game copies are made
//! here, from the one description of each body that utoipa builds, each pass small and
//! unit-tested.

mod errors;
mod events;
mod game_passes;
mod herfor;
mod hirth;
mod images;
mod integers;
mod notation;
mod nullable;
mod options;
mod patterns;
mod per_game;
mod prune;
mod refs;
mod requests;
mod tara;
mod text;
mod variants;
mod webhooks;

use game_passes::Stage;
use serde_json::Value;

/// The published document, from the document utoipa builds from the handlers.
pub fn publish(generic: &utoipa::openapi::OpenApi) -> Value {
    let mut document = serde_json::to_value(generic).unwrap_or_else(|e| {
        unreachable!("utoipa's document serialises: {e}");
    });
    integers::exact_ranges(&mut document);
    nullable::optional(&mut document);
    game_passes::run(&mut document, Stage::Schemas);
    requests::tighten(&mut document);
    per_game::specialise(&mut document);
    patterns::moves(&mut document);
    game_passes::run(&mut document, Stage::Requests);
    patterns::links(&mut document);
    variants::name_variants(&mut document);
    variants::event_alias(&mut document);
    game_passes::run(&mut document, Stage::Variants);
    errors::declare(&mut document);
    images::binary(&mut document);
    events::server_sent(&mut document);
    options::declare(&mut document);
    nullable::null_as_left_out(&mut document);
    webhooks::table_event(&mut document);
    text::plain_descriptions(&mut document);
    prune::unreferenced(&mut document);
    document
}

/// The document's schemas (`components.schemas`).
fn schemas(document: &mut Value) -> &mut serde_json::Map<String, Value> {
    if !document["components"]["schemas"].is_object() {
        document["components"]["schemas"] = Value::Object(Default::default());
    }
    match &mut document["components"]["schemas"] {
        Value::Object(schemas) => schemas,
        _ => unreachable!("made an object above"),
    }
}

/// Every answer's content of every operation, by media type (`image/png`, `text/event-stream`):
/// what the passes that describe answers by their media type walk. An answer with no content
/// (a 304) has none.
fn answer_contents(document: &mut Value) -> impl Iterator<Item = (&String, &mut Value)> {
    document["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.get_mut("responses"))
        .filter_map(Value::as_object_mut)
        .flat_map(|responses| responses.values_mut())
        // `get_mut`, not indexing: an answer without content must not get a `null` one.
        .filter_map(|answer| answer.get_mut("content"))
        .filter_map(Value::as_object_mut)
        .flat_map(|contents| contents.iter_mut())
}
