//! The pages' paths: the one place that knows where a page is, for the pages' own links and
//! for the API's answers that point at a page.

/// Where a game's options form posts to open a table for a friend.
pub fn friend(game: &str) -> String {
    format!("/play/{game}/friend")
}

/// The spectators' page of table `id` (read only; the id is the capability to read it).
pub fn watch(id: &str) -> String {
    format!("/table/{id}")
}

/// The page of the seat holding `credential` at table `id`, where its player plays in a
/// browser: whoever has the link holds the seat.
pub fn seat(id: &str, credential: &str) -> String {
    format!("/table/{id}/seat/{credential}")
}
