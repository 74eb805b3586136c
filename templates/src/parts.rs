//! Pieces the board views share: a link drawn on a board, and the table of facts beside it.

use maud::{Markup, html};

/// A legal move drawn on a board: where clicking goes and what it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardLink {
    pub href: String,
    /// What the move does, in words (the link's `<title>`).
    pub title: String,
    /// A short tag telling this link from others on the same spot (`from D7`).
    pub tag: String,
}

/// One row of a side panel: a fact and its value for each player (or one value for both).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fact {
    pub label: String,
    pub values: Vec<String>,
}

impl Fact {
    pub fn new(label: impl Into<String>, values: impl IntoIterator<Item = String>) -> Fact {
        Fact {
            label: label.into(),
            values: values.into_iter().collect(),
        }
    }
}

/// A side panel: a heading row naming the players, then one row per fact; `notes` below it.
pub fn facts_table(players: &[String], facts: &[Fact], notes: &[String]) -> Markup {
    html! {
        table.facts {
            thead { tr { td {} @for p in players { th scope="col" { (p) } } } }
            tbody {
                @for fact in facts {
                    tr {
                        th scope="row" { (fact.label) }
                        @if fact.values.len() == 1 {
                            td colspan=(players.len().max(1)) { (fact.values[0]) }
                        } @else {
                            @for value in &fact.values { td { (value) } }
                        }
                    }
                }
            }
        }
        @for note in notes { p.note { (note) } }
    }
}

/// Where the badges of a spot with several links go: rows of `per_row` badges of `width` ×
/// `height`, centred on `x`, the first row's top at `y`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Badges {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    pub per_row: usize,
}

impl Badges {
    /// How many rows `count` badges take.
    pub fn rows(&self, count: usize) -> usize {
        count.div_ceil(self.per_row.max(1))
    }
}

/// A target on a board: a link on a page; in a picture, which links nowhere (an empty `href`),
/// the same drawing as a plain group.
pub fn target(class: &str, href: &str, body: Markup) -> Markup {
    html! {
        @if href.is_empty() {
            g class=(class) { (body) }
        } @else {
            a class=(class) href=(href) { (body) }
        }
    }
}

/// Draws the links of one spot of a board: one link covers the whole spot (`hit`, drawn
/// invisible and highlighted by CSS); several become rows of tagged badges.
pub fn spot_links(links: &[BoardLink], hit: Markup, badges: &Badges) -> Markup {
    let Badges {
        x,
        y,
        width,
        height,
        ..
    } = *badges;
    let per_row = badges.per_row.max(1);
    html! {
        @match links {
            [] => {},
            [only] => (target("move", &only.href, html! {
                title { (only.title) }
                (hit)
                // The tag still says which piece moves here, for those who cannot hover.
                @if !only.tag.is_empty() {
                    text.tag x=(x) y=(y + height * 0.75) text-anchor="middle" font-size=(height * 0.68) stroke="#fff" stroke-width="3" paint-order="stroke" { (only.tag) }
                }
            })),
            many => {
                @for (i, link) in many.iter().enumerate() {
                    @let row = i / per_row;
                    @let in_row = (many.len() - row * per_row).min(per_row);
                    @let bx = x - in_row as f32 * width / 2.0 + (i % per_row) as f32 * width;
                    @let by = y + row as f32 * (height + 2.0);
                    (target("move badge", &link.href, html! {
                        title { (link.title) }
                        rect x=(bx + 1.0) y=(by) width=(width - 2.0) height=(height) rx="3" fill="#fff3c4" stroke="#8c6400" stroke-width="1.5" {}
                        text x=(bx + width / 2.0) y=(by + height * 0.75) text-anchor="middle" font-size=(height * 0.68) { (link.tag) }
                    }))
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(tag: &str) -> BoardLink {
        BoardLink {
            href: format!("/play?m={tag}"),
            title: format!("Move {tag}"),
            tag: tag.into(),
        }
    }

    const BADGES: Badges = Badges {
        x: 0.0,
        y: 0.0,
        width: 30.0,
        height: 14.0,
        per_row: 4,
    };

    #[test]
    fn one_link_covers_the_spot_with_its_title_and_tag() {
        let untagged = BoardLink {
            tag: String::new(),
            ..link("a")
        };
        let out = spot_links(&[untagged], html! { circle r="5" {} }, &BADGES).into_string();
        assert_eq!(
            out,
            r#"<a class="move" href="/play?m=a"><title>Move a</title><circle r="5"></circle></a>"#
        );
        let out = spot_links(&[link("b")], html! {}, &BADGES).into_string();
        assert!(out.contains(r#"<text class="tag" x="0" y="10.5""#), "{out}");
        assert!(out.ends_with(">b</text></a>"), "{out}");
    }

    #[test]
    fn several_links_become_tagged_badges() {
        let links: Vec<BoardLink> = ["a", "b", "c", "d", "e"].map(link).to_vec();
        let out = spot_links(&links, html! {}, &BADGES).into_string();
        assert_eq!(out.matches(r#"<a class="move badge""#).count(), 5);
        assert_eq!(BADGES.rows(5), 2);
        // The fifth badge starts a second row, centred.
        assert!(out.contains(r#"<rect x="-14" y="16""#), "{out}");
        assert!(out.contains("<title>Move b</title>"));
        assert!(out.contains(">b</text>"));
        assert!(!out.contains("circle"));
    }

    #[test]
    fn facts_table_spans_shared_values_and_escapes() {
        let facts = [
            Fact::new("Kings", ["3".to_string(), "2".to_string()]),
            Fact::new("Game", ["1 of 2".to_string()]),
        ];
        let out = facts_table(&["Red".into(), "<b>".into()], &facts, &["n&b".into()]).into_string();
        assert!(out.contains(r#"<th scope="col">&lt;b&gt;</th>"#));
        // The corner over the row labels is a plain cell: a header must say something.
        assert!(
            out.contains(r#"<thead><tr><td></td><th scope="col">Red</th>"#),
            "{out}"
        );
        assert!(out.contains(r#"<th scope="row">Kings</th><td>3</td><td>2</td>"#));
        assert!(out.contains(r#"<td colspan="2">1 of 2</td>"#));
        assert!(out.contains(r#"<p class="note">n&amp;b</p>"#));
    }
}
