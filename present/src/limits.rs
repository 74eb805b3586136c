//! The bounds on the work one request may ask for: one place for the numbers docs/api.md and the
//! OpenAPI document quote. They live here, the lowest crate that applies them (a link is read
//! within them); the server re-exports them for its API.

/// The most moves one request may carry or lead to: `moves` of `apply` and `replay`, the moves a
/// `replay` record holds, and the moves of a play page's link. A game link of this many moves
/// (about 7 characters each once URL-encoded) stays well under [`MAX_LINK_BYTES`]; a longer list is
/// refused with 422 `too_many_moves` (a friendly page for links) before any move is played.
pub const MAX_MOVES: usize = 5_000;

/// A record is refused unread when it holds more words (runs of characters between white space
/// or commas) than this: no game of [`MAX_MOVES`] moves needs more, and it bounds the reading.
pub const MAX_RECORD_WORDS: usize = 4 * MAX_MOVES;

/// The longest request target (path and query) the HTTP layer accepts: the `http` crate's limit
/// on a URI. A longer one is answered 400 with no body, and the connection closed, before Moot
/// sees the request: nothing can make that answer friendlier.
pub const MAX_URL_BYTES: usize = 65_534;

/// The longest request target Moot reads, set deliberately below [`MAX_URL_BYTES`]: a longer
/// one gets 414, a friendly page for links, a problem `uri_too_long` under `/api`
/// (the server's `url_limit` middleware).
pub const MAX_LINK_BYTES: usize = 60 * 1024;

/// The most a link written by a play page grows over the link of the page: the computer's
/// moves of one request (32) or one composed Hirþ turn, each at most 68 bytes URL-encoded (an
/// `end` listing five attackers that stay, `end+%3E6Kiiii%5E…`), a `.` each, and the
/// `computer`, `strength` and `hint` parameters. [`MAX_LINK_BYTES`] plus this stays under
/// [`MAX_URL_BYTES`]: every link a page writes reaches Moot, which answers the position or the
/// friendly 414 page.
pub const MAX_LINK_GROWTH: usize = 32 * (68 + 1) + 100;

const _: () = assert!(MAX_LINK_BYTES + MAX_LINK_GROWTH <= MAX_URL_BYTES);

/// The most characters of a client's input (a move, a record, a field name) echoed back in an
/// error; longer ones are cut, ending in "…".
pub const EXCERPT_CHARS: usize = 80;

/// The most characters of an error's `detail`: the engine's words around the excerpts.
pub const DETAIL_CHARS: usize = 400;

/// `text` cut to at most `max` characters, ending in "…" when cut.
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some(_) => {
            let end = text
                .char_indices()
                .nth(max.saturating_sub(1))
                .map_or(0, |(i, _)| i);
            format!("{}…", &text[..end])
        }
    }
}

/// Whether `c` changes how text around it is shown without being seen itself: the
/// bidirectional controls (a right-to-left override turns "(second seat)" around) and the
/// zero-width characters (two names that look alike).
pub fn is_hidden(c: char) -> bool {
    matches!(
        c,
        '\u{061C}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// `text` with its control and hidden characters (see [`is_hidden`]) written as escapes
/// (`\u{1b}`): what a client sent, safe to show in an error's detail or a log line.
pub fn readable(text: &str) -> String {
    if !text.chars().any(|c| c.is_control() || is_hidden(c)) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| {
            if c.is_control() || is_hidden(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_escapes_controls_and_hidden_characters_only() {
        assert_eq!(readable("c3 é"), "c3 é");
        assert_eq!(readable("a\u{1b}[2Jb\0"), "a\\u{1b}[2Jb\\u{0}");
        assert_eq!(readable("\u{202E}Bob"), "\\u{202e}Bob");
        assert!(is_hidden('\u{200B}') && is_hidden('\u{2067}') && !is_hidden('é'));
    }

    #[test]
    fn excerpt_keeps_short_text_and_cuts_long_text_to_max_chars() {
        assert_eq!(excerpt("c3", 80), "c3");
        let exact = "é".repeat(80);
        assert_eq!(excerpt(&exact, 80), exact);
        let long = "é".repeat(1000);
        let cut = excerpt(&long, 80);
        assert_eq!(cut.chars().count(), 80);
        assert!(cut.ends_with('…'));
        assert!(cut.starts_with("éé"));
    }
}
