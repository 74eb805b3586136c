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

/// The area a spot's links share: one link takes it whole; several tile it in rows of
/// `per_row` badges, so that each stays as large as the spot allows (a finger's width on a
/// phone where the spot has room).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Badges {
    /// The area's top-left corner and size.
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    pub per_row: usize,
    /// The font size of the tags.
    pub font: f32,
}

impl Badges {
    /// How many rows `count` badges take.
    pub fn rows(&self, count: usize) -> usize {
        count.div_ceil(self.per_row.max(1))
    }

    /// The top-left corner and size of badge `i` of `count`: the rows share the height, each
    /// row's badges its width (a short last row's badges grow to fill it).
    pub fn cell(&self, i: usize, count: usize) -> (f32, f32, f32, f32) {
        let per_row = self.per_row.max(1);
        let rows = self.rows(count).max(1);
        let row = i / per_row;
        let in_row = (count - row * per_row).min(per_row);
        let (w, h) = (self.width / in_row as f32, self.height / rows as f32);
        (
            self.x + (i % per_row) as f32 * w,
            self.y + row as f32 * h,
            w,
            h,
        )
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
/// invisible and highlighted by CSS); several tile it as tagged badges, see-through so that
/// the pieces under them still show, each tag on a label at its badge's foot.
pub fn spot_links(links: &[BoardLink], hit: Markup, badges: &Badges) -> Markup {
    let font = badges.font;
    html! {
        @match links {
            [] => {},
            [only] => (target("move", &only.href, html! {
                title { (only.title) }
                (hit)
                // The tag still says which piece moves here, for those who cannot hover.
                @if !only.tag.is_empty() {
                    text.tag x=(badges.x + badges.width / 2.0) y=(badges.y + badges.height - font * 0.5) text-anchor="middle" font-size=(font) stroke="#fff" stroke-width="3" paint-order="stroke" { (only.tag) }
                }
            })),
            many => {
                @for (i, link) in many.iter().enumerate() {
                    @let (bx, by, bw, bh) = badges.cell(i, many.len());
                    (target("move badge", &link.href, html! {
                        title { (link.title) }
                        rect x=(bx + 1.5) y=(by + 1.5) width=(bw - 3.0) height=(bh - 3.0) rx="4" fill="#fff3c4" fill-opacity="0.35" stroke="#8c6400" stroke-width="1.5" {}
                        rect.label x=(bx + bw / 2.0 - font * 1.6) y=(by + bh - font * 1.5) width=(font * 3.2) height=(font * 1.3) rx="3" fill="#fff3c4" {}
                        text x=(bx + bw / 2.0) y=(by + bh - font * 0.55) text-anchor="middle" font-size=(font) { (link.tag) }
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
        width: 120.0,
        height: 60.0,
        per_row: 4,
        font: 10.0,
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
        assert!(out.contains(r#"<text class="tag" x="60" y="55""#), "{out}");
        assert!(out.ends_with(">b</text></a>"), "{out}");
    }

    #[test]
    fn several_links_tile_the_spot_as_tagged_badges() {
        let links: Vec<BoardLink> = ["a", "b", "c", "d", "e"].map(link).to_vec();
        let out = spot_links(&links, html! {}, &BADGES).into_string();
        assert_eq!(out.matches(r#"<a class="move badge""#).count(), 5);
        assert_eq!(BADGES.rows(5), 2);
        // Four in the first row, 30 × 30 each; the fifth fills the second row alone.
        assert_eq!(BADGES.cell(3, 5), (90.0, 0.0, 30.0, 30.0));
        assert_eq!(BADGES.cell(4, 5), (0.0, 30.0, 120.0, 30.0));
        assert!(
            out.contains(r#"<rect x="1.5" y="31.5" width="117" height="27""#),
            "{out}"
        );
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
