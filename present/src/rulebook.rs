//! The project's rules, for players and clients: each game's binding rules (`rules/{game}.md`,
//! the engines' specification) and move notation (`rules/{game}-notation.md`), embedded at
//! build time and shown on `/rules/{game}`. Each rule's heading carries its id as an anchor
//! (`/rules/herfor#F3`), which problem bodies cite as `rule_url`.

use maud::{Markup, PreEscaped};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

/// A game's rules as Markdown: each game states its own ([`crate::PageGame::RULEBOOK`]).
#[derive(Clone, Copy, Debug)]
pub struct Rulebook {
    /// The binding rules, each rule's heading naming its id (`rules/{game}.md`).
    pub rules: &'static str,
    /// The move notation (`rules/{game}-notation.md`).
    pub notation: &'static str,
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

/// The name of rule `id` as its heading gives it, without the id: `A turn` for `F3`;
/// `Phase 1 — Manoeuvres` for `T5`. `None` for an id the rules do not have.
pub fn rule_name(markdown: &str, id: &str) -> Option<String> {
    headings(markdown)
        .into_iter()
        .find(|heading| rule_id(heading) == Some(id))
        .and_then(|heading| {
            let name = heading[..heading.find('(')?].trim_end();
            (!name.is_empty()).then(|| name.to_owned())
        })
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

/// The marks around a note for implementers in the rules' Markdown (what the code must keep,
/// what a test must replay): the note stays in the Markdown for developers and is left out of
/// the pages for players. Invisible where Markdown is shown, as HTML comments.
pub const FOR_DEVELOPERS: (&str, &str) = ("<!-- for developers -->", "<!-- /for developers -->");

/// `markdown` without its notes for implementers (between [`FOR_DEVELOPERS`]; an unclosed
/// note runs to the end).
pub fn for_players(markdown: &str) -> String {
    let (open, close) = FOR_DEVELOPERS;
    let mut kept = String::with_capacity(markdown.len());
    let mut rest = markdown;
    while let Some(start) = rest.find(open) {
        kept.push_str(&rest[..start]);
        let note = &rest[start + open.len()..];
        rest = note
            .find(close)
            .map_or("", |end| &note[end + close.len()..]);
    }
    kept.push_str(rest);
    kept
}

/// Markdown as HTML for players (without the notes for implementers), headings one level down (the page has its `h1`), each heading that names a
/// rule id given that id as its `id`.
pub fn render(markdown: &str) -> Markup {
    let markdown = &for_players(markdown);
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
    fn a_rules_name_is_its_heading_without_the_id() {
        let herfor = <moot_games::herfor::Herfor as crate::PageGame>::RULEBOOK.rules;
        assert_eq!(rule_name(herfor, "F3").as_deref(), Some("A turn"));
        let tara = <moot_games::tara::Tara as crate::PageGame>::RULEBOOK.rules;
        assert_eq!(
            rule_name(tara, "T5").as_deref(),
            Some("Phase 1 — Manoeuvres")
        );
        let hirth = <moot_games::hirth::Hirth as crate::PageGame>::RULEBOOK.rules;
        assert_eq!(
            rule_name(hirth, "H4").as_deref(),
            Some("Control and stopping")
        );
        assert_eq!(rule_name(herfor, "F99"), None);
        assert_eq!(rule_name(herfor, "T3"), None);
    }

    #[test]
    fn every_games_rules_have_anchored_ids_in_order() {
        for (game, letter, count) in [("herfor", 'F', 6), ("tara", 'T', 13), ("hirth", 'H', 12)] {
            let rules = moot_games::with_game!(game, G => <G as crate::PageGame>::RULEBOOK.rules, else unreachable!());
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
    fn notes_for_developers_stay_in_the_markdown_and_out_of_the_page() {
        let text = "Eleven spaces. <!-- for developers -->Keep it in ONE table.<!-- /for developers --> Two lanes.\n\n<!-- for developers -->\nA test replays it.\n<!-- /for developers -->\n\nThe end.";
        assert_eq!(
            for_players(text),
            "Eleven spaces.  Two lanes.\n\n\n\nThe end."
        );
        let page = render(text).into_string();
        assert!(
            !page.contains("ONE table") && !page.contains("replays"),
            "{page}"
        );
        assert!(
            page.contains("Two lanes") && page.contains("The end."),
            "{page}"
        );
        let hirth = <moot_games::hirth::Hirth as crate::PageGame>::RULEBOOK.rules;
        assert!(hirth.contains("Keep it in ONE table in the code."));
        assert!(!render(hirth).into_string().contains("ONE table"));
        assert_eq!(for_players("a <!-- for developers --> b"), "a ");
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let page = render("# T\n\n<script>x</script>\n").into_string();
        assert!(!page.contains("<script>"), "{page}");
    }
}
