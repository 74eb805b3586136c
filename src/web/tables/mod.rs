//! Kept tables on the pages. "Play a friend" on a game's options form opens a table and shows
//! two seat links, one to keep and one to send; each seat plays from its link with the same
//! board as a link's page; anyone with the table's link watches. What the pages show and say
//! is `moot-present`'s (`moot_present::table`); these modules answer over HTTP.
//!
//! A seat link holds the seat's credential in its path (the link alone lets its holder play,
//! as a player expects of a link they were sent), so every answer of a seat's routes, and the
//! page that shows both seats, is `Referrer-Policy: no-referrer` and `Cache-Control: private,
//! no-store` ([`private`](crate::web::answers::private)); the access log names routes, never paths. A move is a POST,
//! answered with a redirect back to the seat (or the seat's page with the refusal over the
//! board).
//!
//! - [`open`]: the friend page and opening a table;
//! - [`seat`]: a seat's page, its moves, resigning and claiming on time, by the seat's link
//!   or as the browser's own seat (`mine`);
//! - [`takeback`]: a seat's last move taken back, asked for, accepted, declined, by either
//!   door;
//! - [`rematch`]: a finished table's rematch offered, accepted, declined, by either door;
//! - [`watch`]: the spectators' page and the table's record;
//! - [`page`]: a table's page, from the stored table to the page's HTML;
//! - [`refusals`]: a table's refusals as a page of their own or as a notice over the board.

pub mod open;
pub mod page;
pub mod refusals;
pub mod rematch;
pub mod seat;
pub mod takeback;
pub mod watch;

/// Registers the tables' pages.
pub fn configure(config: &mut actix_web::web::ServiceConfig) {
    config
        .service(open::friend_form)
        .service(open::open_table)
        .service(watch::watch)
        .service(watch::record)
        .service(seat::seat_page)
        .service(seat::seat_move)
        .service(seat::seat_resign)
        .service(seat::seat_abort)
        .service(seat::seat_claim)
        .service(seat::seat_vacation)
        .service(takeback::seat_takeback)
        .service(takeback::seat_decline_takeback)
        .service(rematch::seat_rematch)
        .service(rematch::seat_decline_rematch)
        .service(seat::mine_page)
        .service(seat::mine_move)
        .service(seat::mine_resign)
        .service(seat::mine_abort)
        .service(seat::mine_claim)
        .service(seat::mine_vacation)
        .service(takeback::mine_takeback)
        .service(takeback::mine_decline_takeback)
        .service(rematch::mine_rematch)
        .service(rematch::mine_decline_rematch);
}
