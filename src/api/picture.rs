//! The pictures' endpoints: a position as SVG or PNG, from a state (POST) or from a link's
//! options and moves (GET, cacheable: a link's picture never changes), and a whole game as an
//! animated PNG. Drawing is CPU work: it runs on the blocking pool, off the async workers,
//! under one of a few render permits (past them 503 `overloaded`).
//!
//! A GET form's `ETag` is computed from the request (the link as the pages write it and the
//! picture's parameters), before anything is drawn: a client holding the picture gets 304
//! without a drawing, and a picture drawn once is answered from the cache of finished answers.
//! An animation's cost (frames × pixels²) is bounded before its first frame.

use actix_web::http::header::{self, HeaderValue};
use actix_web::web::{Bytes, Data};
use actix_web::{HttpRequest, HttpResponse, get, post};
use serde::Deserialize;
use utoipa::ToSchema;

use super::body::{GameId, JsonBody};
use super::ops;
use super::problem::{ApiError, ErrorCode, Problem, problem_on_panic};
use super::schemas::GameState;
use crate::compute::renders::Renders;
use crate::web::PageGame;
use moot_games::with_game;
use moot_pictures::animation;
use moot_pictures::options::{DEFAULT_PIXELS, MIN_PIXELS};
use moot_pictures::{Bottom, Format, PictureError, PictureOptions, frame_svg, picture_svg, raster};
use moot_present::link::{Link, LinkError, Query};
use moot_present::replay::replay;

/// `POST …/picture`: a position and how to draw it.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PictureRequest {
    /// A state as returned by `new` or `apply`. A state does not say what the last move was:
    /// use the GET form, from the moves, to have it marked.
    #[schema(value_type = GameState)]
    pub state: serde_json::Value,
    /// `png` (the default) or `svg`.
    #[serde(default)]
    pub format: Format,
    /// The picture's longer side in pixels, 64 to 2048 (default 600).
    #[serde(default = "default_pixels")]
    #[schema(minimum = 64, maximum = 2048, default = 600)]
    pub pixels: u32,
    /// Whose side of the board is at the bottom: `first` (the default, as the pages show it) or
    /// `second`.
    #[serde(default)]
    pub bottom: Bottom,
    /// Row and column labels (Herfor, Tara).
    #[serde(default = "yes")]
    #[schema(default = true)]
    pub coordinates: bool,
    /// Where the side to act may move, highlighted.
    #[serde(default)]
    pub targets: bool,
    /// A line under the board: whose turn, or the result.
    #[serde(default)]
    pub caption: bool,
}

fn default_pixels() -> u32 {
    DEFAULT_PIXELS
}

fn yes() -> bool {
    true
}

/// A long life for the GET forms' answers: a link's picture never changes.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A picture of a position given as a state, as PNG (the default) or self-contained SVG.
#[utoipa::path(
    tag = "pictures",
    params(("game" = String, Path, description = "The game's id", example = "herfor")),
    request_body(content = PictureRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The picture", content(("image/png"), ("image/svg+xml"))),
        (status = "4XX", description = "`invalid_state`, `invalid_request` (a size out of bounds names `pixels`), …", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`overloaded`: the most pictures drawn at once are being drawn, or the bodies being decoded fill the server's memory budget (`Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/picture")]
pub async fn picture_of_state(
    game: GameId,
    body: JsonBody,
    renders: Data<Renders>,
) -> Result<HttpResponse, ApiError> {
    let GameId(id) = game;
    let request: PictureRequest = ops::envelope(body.0)?;
    let options = PictureOptions {
        format: request.format,
        pixels: request.pixels,
        bottom: request.bottom,
        coordinates: request.coordinates,
        last: false,
        targets: request.targets,
        caption: request.caption,
    }
    .checked()?;
    let state = request.state;
    let permit = render_permit(&renders)?;
    let bytes = draw_off_workers(move || {
        let _permit = permit;
        with_game!(id, G => state_picture::<G>(state, &options), else Err(ApiError::unknown_game(id)))
    })
    .await?;
    Ok(image(options.format, bytes.into(), None))
}

fn state_picture<G: PageGame>(
    state: serde_json::Value,
    options: &PictureOptions,
) -> Result<Vec<u8>, ApiError> {
    let state = ops::read_state::<G>(state, "state")?;
    encode(picture_svg::<G>(&state, &[], options), options.format)
}

/// A picture of a link's position, for an `<img src>`: the game's options and `moves` as the
/// play pages write them (`/play/herfor?size=5&moves=c3.b2` draws as
/// `/api/v1/games/herfor/picture?size=5&moves=c3.b2`), with the last move marked. Cached for a
/// year, with an `ETag`.
#[utoipa::path(
    tag = "pictures",
    params(
        ("game" = String, Path, description = "The game's id", example = "herfor"),
        ("moves" = Option<String>, Query, description = "The moves from the start in the game's notation, joined by `.`; the game's options are further parameters, by name (see `GET /api/v1/games`)", example = "c3.b2"),
        ("format" = Option<Format>, Query, description = "`png` (default) or `svg`"),
        ("pixels" = Option<u32>, Query, description = "The longer side in pixels, 64 to 2048 (default 600)", minimum = 64, maximum = 2048),
        ("bottom" = Option<Bottom>, Query, description = "The seat whose side is at the bottom (default `first`)"),
        ("coordinates" = Option<bool>, Query, description = "Row and column labels (default true)"),
        ("last" = Option<bool>, Query, description = "The last turn marked (default true)"),
        ("targets" = Option<bool>, Query, description = "The legal targets highlighted (default false)"),
        ("caption" = Option<bool>, Query, description = "A line under the board: whose turn, or the result (default false)"),
    ),
    responses(
        (status = 200, description = "The picture", content(("image/png"), ("image/svg+xml")),
            headers(("ETag" = String, description = "The picture's tag"), ("Cache-Control" = String, description = "A year, immutable"))),
        (status = 304, description = "The picture the client holds (`If-None-Match`) is still the one"),
        (status = "4XX", description = "`invalid_request` (a bad option or picture parameter, naming it), `illegal_move` (a move of the link the rules refuse), …", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`overloaded`: the most pictures drawn at once are being drawn (`Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game}/picture")]
pub async fn picture_of_link(
    game: GameId,
    request: HttpRequest,
    renders: Data<Renders>,
) -> Result<HttpResponse, ApiError> {
    let GameId(id) = game;
    let mut pairs = Query::parse(request.query_string()).0;
    let options = PictureOptions::take_from(&mut pairs)?;
    from_link(
        &request,
        &renders,
        id,
        Drawing::Still,
        Query(pairs),
        options,
    )
    .await
}

/// What a GET form draws from a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drawing {
    /// The link's position, its last move marked.
    Still,
    /// Every position from the start, one frame a ply.
    Animation,
}

/// A GET form's answer: the link read (no move played yet) and, for an animation, its cost
/// bounded; its tag from the request; 304 when the client holds it, the cache's answer when
/// kept, else drawn under a render permit and kept.
async fn from_link(
    request: &HttpRequest,
    renders: &Renders,
    id: &'static str,
    drawing: Drawing,
    query: Query,
    options: PictureOptions,
) -> Result<HttpResponse, ApiError> {
    let (href, plies) = with_game!(id, G => Link::<G>::read(&query).map(|(link, _)| (link.href(), link.moves.len()))?, else return Err(ApiError::unknown_game(id)));
    if drawing == Drawing::Animation
        && let Err(refusal) = animation::check_cost(plies + 1, options.pixels)
    {
        crate::compute::tarpit::hold().await;
        return Err(refusal.into());
    }
    let tag = request_tag(drawing, &href, &options);
    let etag = format!("\"{tag:016x}\"");
    if holds(request, &etag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .insert_header((header::CACHE_CONTROL, IMMUTABLE))
            .finish());
    }
    if let Some(bytes) = renders.cached(tag) {
        return Ok(image(options.format, bytes, Some(etag)));
    }
    let permit = render_permit(renders)?;
    let bytes: Bytes = draw_off_workers(move || {
        let _permit = permit;
        with_game!(id, G => match drawing {
            Drawing::Still => link_picture::<G>(query, &options),
            Drawing::Animation => game_animation::<G>(query, &options),
        }, else Err(ApiError::unknown_game(id)))
    })
    .await?
    .into();
    renders.drawn(tag, bytes.clone());
    Ok(image(options.format, bytes, Some(etag)))
}

/// The tag of a GET form's answer, from what decides the picture: this build, what is drawn,
/// the link as the pages write it (options with their defaults, moves as given) and the
/// picture's parameters. The same on every replica running this build.
fn request_tag(drawing: Drawing, href: &str, options: &PictureOptions) -> u64 {
    let key = format!(
        "{} {drawing:?} {href} {options:?}",
        env!("CARGO_PKG_VERSION")
    );
    fnv1a(key.as_bytes())
}

/// One of the render permits, or 503 `overloaded` when every one is out.
fn render_permit(renders: &Renders) -> Result<crate::compute::pool::Permit, ApiError> {
    renders.try_acquire().ok_or_else(|| {
        ApiError::new(
            ErrorCode::Overloaded,
            format!(
                "{} pictures are being drawn, the most this server draws at once; retry shortly",
                renders.pool().limit()
            ),
        )
        .retry_after(1)
    })
}

fn link_picture<G: PageGame>(query: Query, options: &PictureOptions) -> Result<Vec<u8>, ApiError> {
    let (position, _) = Link::<G>::read(&query)?;
    let game = replay(&position)?;
    encode(
        picture_svg::<G>(&game.state, game.last_turn(), options),
        options.format,
    )
}

/// A whole game as an animated PNG, one frame per ply from the start (at most 200 frames),
/// each with the move's marks; from the same link parameters as the picture. `pixels` is at
/// most 800 here (default 400), and frames × pixels² at most 6,400,000 (40 frames at 400
/// pixels, 10 at 800, 160 at 200); `format` is always PNG.
#[utoipa::path(
    tag = "pictures",
    params(
        ("game" = String, Path, description = "The game's id", example = "herfor"),
        ("moves" = Option<String>, Query, description = "The moves from the start, joined by `.`; the game's options are further parameters", example = "c3.b2"),
        ("pixels" = Option<u32>, Query, description = "The longer side in pixels, 64 to 800 (default 400)", minimum = 64, maximum = 800),
        ("bottom" = Option<Bottom>, Query, description = "The seat whose side is at the bottom"),
        ("coordinates" = Option<bool>, Query, description = "Row and column labels (default true)"),
        ("caption" = Option<bool>, Query, description = "A line under the board in each frame (default false)"),
    ),
    responses(
        (status = 200, description = "An animated PNG (APNG); viewers without APNG show its first frame", content(("image/apng"), ("image/png"))),
        (status = 304, description = "The animation the client holds (`If-None-Match`) is still the one"),
        (status = "4XX", description = "`invalid_request` (more than 200 frames names `moves`; a size out of bounds, or frames × pixels² over the bound, names `pixels`), `illegal_move`, …", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`overloaded`: the most pictures drawn at once are being drawn (`Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game}/animation")]
pub async fn animation_of_link(
    game: GameId,
    request: HttpRequest,
    renders: Data<Renders>,
) -> Result<HttpResponse, ApiError> {
    let GameId(id) = game;
    let mut pairs = Query::parse(request.query_string()).0;
    let pixels_given = pairs.iter().any(|(name, _)| name == "pixels");
    let mut options = PictureOptions::take_from(&mut pairs)?;
    if !pixels_given {
        options.pixels = 400;
    }
    if options.pixels > animation::MAX_PIXELS {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!(
                "pixels: {} is out of bounds: an animation's frames are {MIN_PIXELS} to {} pixels",
                options.pixels,
                animation::MAX_PIXELS
            ),
        )
        .with_field("pixels"));
    }
    if options.format != Format::Png {
        return Err(
            ApiError::new(ErrorCode::InvalidRequest, "format: an animation is a PNG")
                .with_field("format"),
        );
    }
    from_link(
        &request,
        &renders,
        id,
        Drawing::Animation,
        Query(pairs),
        options,
    )
    .await
}

fn game_animation<G: PageGame>(
    query: Query,
    options: &PictureOptions,
) -> Result<Vec<u8>, ApiError> {
    let (position, _) = Link::<G>::read(&query)?;
    animation::check_cost(position.moves.len() + 1, options.pixels)?;
    // The whole game first: an illegal move is refused before any frame is drawn.
    replay(&position)?;
    // Each frame replays its prefix of the link, so it marks that ply as the last move.
    let frames = (0..=position.moves.len()).map(|count| {
        let earlier = replay(&position.truncated(count))?;
        Ok(raster::pixmap(&frame_svg::<G>(
            &earlier.state,
            earlier.last_turn(),
            options,
        ))?)
    });
    animation::apng(position.moves.len() + 1, frames)
}

/// A link's problem as the API's problem: a link that holds no game is an invalid request, a
/// refused move is answered as the JSON API answers one (`unreadable_move` or `illegal_move`
/// with its `rule`, `field` `moves[i]`), a link too long once written out `uri_too_long`.
impl From<LinkError> for ApiError {
    fn from(error: LinkError) -> Self {
        let detail = error.to_string();
        match error {
            LinkError::RefusedMove {
                index, text, error, ..
            } => ApiError::from_move_error(&text, error).at_move("moves", index),
            LinkError::Unreadable(_) => ApiError::new(ErrorCode::InvalidRequest, detail),
            LinkError::TooLong { .. } => ApiError::new(ErrorCode::UriTooLong, detail),
            LinkError::Internal(_) => ApiError::internal(detail),
        }
    }
}

/// A picture's problem as the API's: a parameter refused names its field.
impl From<PictureError> for ApiError {
    fn from(error: PictureError) -> Self {
        match error {
            PictureError::Invalid { field, detail } => {
                ApiError::new(ErrorCode::InvalidRequest, detail).with_field(field)
            }
            PictureError::Internal(detail) => ApiError::internal(detail),
        }
    }
}

fn encode(svg: String, format: Format) -> Result<Vec<u8>, ApiError> {
    match format {
        Format::Svg => Ok(svg.into_bytes()),
        Format::Png => Ok(raster::png(&svg)?),
    }
}

/// Runs the drawing on the blocking pool, problem_on_panic: a panic is a 500 problem.
async fn draw_off_workers(
    work: impl FnOnce() -> Result<Vec<u8>, ApiError> + Send + 'static,
) -> Result<Vec<u8>, ApiError> {
    crate::blocking::off_workers(move || problem_on_panic(work))
        .await
        .map_err(|e| ApiError::internal(format!("the picture could not be drawn: {e}")))?
}

/// An image answer; a GET form's is tagged and cached for long.
fn image(format: Format, bytes: Bytes, tag: Option<String>) -> HttpResponse {
    let mut response = HttpResponse::Ok();
    response.content_type(format.content_type());
    if let Some(tag) = tag {
        response
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, IMMUTABLE));
    }
    response.body(bytes)
}

/// Whether the client holds the answer tagged `tag` (`If-None-Match`: that tag, or `*`).
fn holds(request: &HttpRequest, tag: &str) -> bool {
    request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v: &HeaderValue| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"))
}

/// FNV-1a, 64 bits: a tag that is the same on every replica running this build.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_differ_with_the_bytes() {
        assert_ne!(fnv1a(b"a"), fnv1a(b"b"));
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    }
}
