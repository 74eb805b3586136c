//! The project's rules, for players and clients: each game's binding rules (`rules/{game}.md`,
//! the engines' specification) and move notation (`rules/{game}-notation.md`), embedded at
//! build time and shown on `/rules/{game}`. Each rule's heading carries its id as an anchor
//! (`/rules/herfor#F3`), which problem bodies cite as `rule_url`.

use maud::{Markup, PreEscaped};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

/// `(binding rules, move notation)` of a game, as Markdown.
pub fn texts(game: &str) -> Option<(&'static str, &'static str)> {
    match game {
        "herfor" => Some((
            include_str!("../../rules/herfor.md"),
            include_str!("../../rules/herfor-notation.md"),
        )),
        "tara" => Some((
            include_str!("../../rules/tara.md"),
            include_str!("../../rules/tara-notation.md"),
        )),
        "hirth" => Some((
            include_str!("../../rules/hirth.md"),
            include_str!("../../rules/hirth-notation.md"),
        )),
        _ => None,
    }
}

/// The rule id a heading names in parentheses: `A turn (F3)` → `F3`.
pub fn rule_id(heading: &str) -> Option<&str> {
    let open = heading.find('(')?;
    let inside = &heading[open + 1..];
    let id = &inside[..inside.find(')')?];
    let mut chars = id.chars();
    let letter = chars.next()?;
    (letter.is_ascii_uppercase()
        && !id[1..].is_empty()
        && id[1..].bytes().all(|b| b.is_ascii_digit()))
    .then_some(id)
}

/// The rule ids of a Markdown text, in order.
pub fn rule_ids(markdown: &str) -> Vec<String> {
    headings(markdown)
        .into_iter()
        .filter_map(|text| rule_id(&text).map(str::to_owned))
        .collect()
}

fn headings(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current: Option<String> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Heading { .. }) => current = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => found.extend(current.take()),
            Event::Text(text) | Event::Code(text) => {
                if let Some(heading) = current.as_mut() {
                    heading.push_str(&text);
                }
            }
            _ => {}
        }
    }
    found
}

/// Markdown as HTML, headings one level down (the page has its `h1`), each heading that names a
/// rule id given that id as its `id`.
pub fn render(markdown: &str) -> Markup {
    let mut ids = headings(markdown)
        .into_iter()
        .map(|text| rule_id(&text).map(str::to_owned));
    let events = Parser::new_ext(markdown, Options::ENABLE_TABLES).map(|event| match event {
        Event::Start(Tag::Heading {
            level,
            classes,
            attrs,
            ..
        }) => Event::Start(Tag::Heading {
            level: lower(level),
            id: ids.next().flatten().map(CowStr::from),
            classes,
            attrs,
        }),
        Event::End(TagEnd::Heading(level)) => Event::End(TagEnd::Heading(lower(level))),
        // The texts are the project's own: still, no raw HTML passes through.
        Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
        other => other,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    PreEscaped(out)
}

fn lower(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 => HeadingLevel::H2,
        HeadingLevel::H2 => HeadingLevel::H3,
        HeadingLevel::H3 => HeadingLevel::H4,
        HeadingLevel::H4 => HeadingLevel::H5,
        _ => HeadingLevel::H6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_are_read_from_headings() {
        assert_eq!(rule_id("A turn (F3)"), Some("F3"));
        assert_eq!(rule_id("End of game (H9), points × doubling"), Some("H9"));
        assert_eq!(rule_id("Scoring (T12)"), Some("T12"));
        assert_eq!(rule_id("Notation"), None);
        assert_eq!(rule_id("(an option)"), None);
    }

    #[test]
    fn every_games_rules_have_anchored_ids_in_order() {
        for (game, letter, count) in [("herfor", 'F', 6), ("tara", 'T', 13), ("hirth", 'H', 12)] {
            let (rules, _) = texts(game).expect("the game's rules");
            let expected: Vec<String> = (1..=count).map(|n| format!("{letter}{n}")).collect();
            assert_eq!(rule_ids(rules), expected, "{game}");
            let page = render(rules).into_string();
            for id in &expected {
                assert!(page.contains(&format!(r#"id="{id}""#)), "{game}: {id}");
            }
            assert!(!page.contains("<h1"), "{game}: the page has its own h1");
        }
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let page = render("# T\n\n<script>x</script>\n").into_string();
        assert!(!page.contains("<script>"), "{page}");
    }
}
