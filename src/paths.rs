//! The pages' paths: the one place of the server that knows where a page is, for the pages' own
//! links and for the API's answers that point at a page; and the API's paths that pages link
//! to. (A link's own pages, `/play/{game}?…` with its moves, its record and its earlier
//! positions, are written by `moot-present` from the link: [`play`] is its path.)

/// The home page: every game, with its options and links.
pub const HOME: &str = "/";

/// The API's reference (Swagger UI).
pub const API_REFERENCE: &str = "/docs/";

/// A game's play page: its options form, or with `moves` in the query, a game of it.
pub fn play(game: &str) -> String {
    moot_present::link::play_path(game)
}

/// A game's rules for players.
pub fn rules(game: &str) -> String {
    format!("/rules/{game}")
}

/// Where a game's options form posts to open a table for a friend.
pub fn friend(game: &str) -> String {
    format!("/play/{game}/friend")
}

/// The spectators' page of table `id` (read only; the id is the capability to read it).
pub fn watch(id: &str) -> String {
    format!("/table/{id}")
}

/// Table `id`'s record, as a text file.
pub fn table_record(id: &str) -> String {
    format!("/table/{id}/record")
}

/// The page of the seat holding `credential` at table `id`, where its player plays in a
/// browser: whoever has the link holds the seat.
pub fn seat(id: &str, credential: &str) -> String {
    format!("/table/{id}/seat/{credential}")
}

/// The page of the browser's own seat at table `id`: the seat its player (the cookie's) holds,
/// with no credential in the path.
pub fn mine(id: &str) -> String {
    format!("/table/{id}/mine")
}

/// "Find an opponent": the open challenges, and the form that makes one (POST).
pub const CHALLENGES: &str = "/challenges";

/// Challenge `id`'s page: its creator waits there, its invited player answers there (the id
/// is the capability to read and accept it).
pub fn challenge(id: &str) -> String {
    format!("{CHALLENGES}/{id}")
}

/// The browser's player's tables: "Your games".
pub const YOUR_GAMES: &str = "/your-games";

/// Where the pages' script turns the browser's notices (Web Push) on (POST) and off (DELETE).
pub const NOTIFICATIONS: &str = "/your-games/notifications";

/// Where the seat whose page is `seat_page` (by its link, or the browser's own) resigns.
pub fn resign(seat_page: &str) -> String {
    format!("{seat_page}/resign")
}

/// Where the seat whose page is `seat_page` aborts the table.
pub fn abort(seat_page: &str) -> String {
    format!("{seat_page}/abort")
}

/// Where the seat whose page is `seat_page` offers a rematch, or accepts the other's.
pub fn rematch(seat_page: &str) -> String {
    format!("{seat_page}/rematch")
}

/// Where the seat whose page is `seat_page` asks to take back its last move, or accepts the
/// other seat's request.
pub fn takeback(seat_page: &str) -> String {
    format!("{seat_page}/takeback")
}

/// Where the seat whose page is `seat_page` declines the takeback asked for, or withdraws its
/// own request.
pub fn decline_takeback(seat_page: &str) -> String {
    format!("{seat_page}/takeback/decline")
}

/// Where the seat whose page is `seat_page` declines the rematch offered, or withdraws its own.
pub fn decline_rematch(seat_page: &str) -> String {
    format!("{seat_page}/rematch/decline")
}

/// Where the seat whose page is `seat_page` claims the win on time.
pub fn claim(seat_page: &str) -> String {
    format!("{seat_page}/claim")
}

/// Where the seat whose page is `seat_page` starts or ends its vacation.
pub fn vacation(seat_page: &str) -> String {
    format!("{seat_page}/vacation")
}

/// Table `id` in the API.
pub fn table_api(id: &str) -> String {
    format!("/api/v1/tables/{id}")
}

/// The API's stream of table `id`'s events, which its pages follow to reload: a seat's page
/// follows it with its `credential`, for the places kept for the seat's player.
pub fn table_events(id: &str, credential: Option<&str>) -> String {
    match credential {
        Some(credential) => format!("{}/events?credential={credential}", table_api(id)),
        None => format!("{}/events", table_api(id)),
    }
}

/// The API's operation that starts a game of `game`, linked from the home page.
pub fn new_game_api(game: &str) -> String {
    format!("/api/v1/games/{game}/new")
}
