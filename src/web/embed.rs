//! `/embed/{game}?…`: a view-only board of a link's position for frames on other sites (the
//! same options and `moves` as the play pages, and the pictures' `bottom`, `coordinates` and
//! `last`). It is the one page other sites may frame: it says so itself with
//! `Content-Security-Policy: frame-ancestors *`, whatever the other pages' default.

use actix_web::http::{StatusCode, header};
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse, get};
use moot_templates::drawing::{Look, page_svg};
use moot_templates::embed::{EmbedView, page};

use super::error::{PageError, page_on_panic};
use super::opponent::PageSearches;
use moot_pictures::{Bottom, PictureOptions};
use moot_present::link::{Link, Query};
use moot_present::page_game::PageGame;
use moot_present::replay::replay;
use moot_present::view::status_line;

/// The policy that lets any site frame the embed, and runs no script but Moot's own (a link
/// cannot smuggle one in).
pub const EMBED_POLICY: &str = "frame-ancestors *; script-src 'self'";

/// `GET /embed/{game}`: the view-only board of the link's position, framable by any site.
#[get("/embed/{game}")]
pub async fn embed(
    game: Path<String>,
    request: HttpRequest,
    searches: Data<PageSearches>,
) -> Result<HttpResponse, PageError> {
    let mut pairs = Query::parse(request.query_string()).0;
    let options = PictureOptions::take_from(&mut pairs)
        .map_err(|e| PageError::bad_position(e.to_string()))?;
    let origin = crate::client::origin_of(&request, searches.config().trust_forwarded);
    let id = game.as_str();
    let markup = page_on_panic(
        || moot_games::with_game!(id, G => embed_page::<G>(&Query(pairs), &options, &origin), else Err(PageError::unknown_game(id))),
    )?;
    Ok(HttpResponse::build(StatusCode::OK)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CONTENT_SECURITY_POLICY, EMBED_POLICY))
        .body(markup))
}

fn embed_page<G: PageGame>(
    query: &Query,
    options: &PictureOptions,
    origin: &str,
) -> Result<String, PageError> {
    let (position, _) = Link::<G>::read(query)?;
    let game = replay(&position)?;
    let look = Look {
        flipped: options.bottom == Bottom::Second,
        coordinates: options.coordinates,
    };
    let last = if options.last { game.last_turn() } else { &[] };
    // View-only: no legal move is drawn, so the board has no links.
    let board = page_svg(&G::drawing(&game.state, &[], last, None, look));
    let view = EmbedView {
        game_name: G::NAME.to_owned(),
        headline: status_line(&G::status(&game.state)).headline,
        board,
        play_href: format!("{origin}{}", position.href()),
    };
    Ok(page(&view).into_string())
}
