//! Pieces the board views share: a link drawn on a board, and the table of facts beside it.

use maud::{Markup, html};

/// A legal move drawn on a board: what clicking plays and what it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardLink {
    /// The move's notation, which its button sends; empty in a picture, which has no buttons.
    pub play: String,
    /// What the move does, in words (its button's name).
    pub title: String,
    /// A short tag telling this link from others on the same spot (`from D7`).
    pub tag: String,
    /// The spot the moving piece leaves (`D7`), where a game's board draws spots by name: the
    /// script draws the move there at once, while it is sent. Empty where the board does not
    /// draw moves ahead.
    pub from: String,
    /// The spot the moving piece goes to (`E5`); empty as `from` is.
    pub to: String,
    /// What else the move changes, where the board draws it ahead: the spots whose piece turns
    /// to the other side's colour (a captured or sacrificed ringfort). The server says it: the
    /// script knows no rules.
    pub turns: Vec<String>,
    /// The spots whose piece the move takes off (captured kings), drawn ahead as `turns` are.
    pub removes: Vec<String>,
    /// The bridges the move makes for the mover between two spots (`F4-F5`, Tara's linked
    /// ringforts).
    pub bridges: Vec<String>,
    /// The bridges the move makes for the other side (a ringfort sacrificed to them, T11).
    pub their_bridges: Vec<String>,
}

/// Why a spot of a board has no move now, by the rules: what a tap on it says. The board
/// writes it on the spot (`data-why`, `data-rule`, `data-rule-words`); the script shows it in
/// the turn's bar with a link to the rule, and knows no rules itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refusal {
    /// Why, in a sentence (`d4 already holds a white stone.`).
    pub why: String,
    /// The rule on the game's rules page (`/rules/herfor#F3`).
    pub rule_href: String,
    /// The link's words (`Rule F3: A turn`).
    pub rule_words: String,
}

/// One row of a side panel: a fact and its value for each player (or one value for both).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fact {
    /// The fact's name, at the head of its row (`Kings on the board`, `Game worth`).
    pub label: String,
    /// Its value for each player, in the heading's order; one value spans every player's
    /// column.
    pub values: Vec<String>,
}

impl Fact {
    /// A row named `label` with these values, one per player or one for both.
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
    /// The area's left edge, in the board's user units.
    pub x: f32,
    /// The area's top edge.
    pub y: f32,
    /// The area's width.
    pub width: f32,
    /// The area's height.
    pub height: f32,
    /// The most badges in one row; more links start another row.
    pub per_row: usize,
    /// The font size of the tags.
    pub font: f32,
    /// Where the first row's tags sit when the badges take more than one row: this far under
    /// the area's top, in a band the board keeps free of pieces (a tag at the first row's
    /// foot would cover them); `None`: at the foot of each badge, as the other rows' tags.
    pub first_row_tags: Option<f32>,
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

/// The id of the page's form, which every move's button sends.
pub const FORM: &str = "play";
/// The name of the form's field that holds the move a button plays.
pub const FIELD: &str = "play";

/// A legal move's control on a board: a real button of the page's form, so that one click
/// plays the move with or without the script, and the board is a group of native controls.
/// It lies over the drawing in a `foreignObject` at the drawing's own coordinates: it scales
/// with the board and needs no style attribute (the pages' Content-Security-Policy allows
/// none). Its title names it and is the tooltip of the point under it.
pub fn move_button(class: &str, area: (f32, f32, f32, f32), link: &BoardLink) -> Markup {
    let (x, y, width, height) = area;
    html! {
        foreignObject x=(x) y=(y) width=(width) height=(height) {
            button class=(class) type="submit" form=(FORM) name=(FIELD) value=(link.play) title=(link.title)
                data-from=[(!link.from.is_empty()).then_some(&link.from)] data-to=[(!link.to.is_empty()).then_some(&link.to)]
                data-turns=[spots(&link.turns)] data-removes=[spots(&link.removes)]
                data-bridges=[spots(&link.bridges)] data-their-bridges=[spots(&link.their_bridges)] {}
        }
    }
}

/// Spots for a button's data attribute, space-separated; none where there are none, so that a
/// page pays only for the moves that change something.
pub fn spots(names: &[String]) -> Option<String> {
    (!names.is_empty()).then(|| names.join(" "))
}

/// Draws the links of one spot of a board: one link covers the whole spot; several tile it
/// as tagged badges, see-through so that the pieces under them still show, each tag on a label
/// at its badge's foot. On a page each is a [`move_button`]; in a picture (no moves to play)
/// the drawing alone, named by its title.
pub fn spot_links(links: &[BoardLink], badges: &Badges) -> Markup {
    let font = badges.font;
    let area = (badges.x, badges.y, badges.width, badges.height);
    html! {
        @match links {
            [] => {},
            [only] => {
                g.move {
                    @if only.play.is_empty() { title { (only.title) } }
                    // The tag still says which piece moves here, for those who cannot hover.
                    @if !only.tag.is_empty() {
                        text.tag x=(badges.x + badges.width / 2.0) y=(badges.y + badges.height - font * 0.5) text-anchor="middle" font-size=(font) stroke="#fff" stroke-width="3" paint-order="stroke" { (only.tag) }
                    }
                }
                @if !only.play.is_empty() { (move_button("move", area, only)) }
            },
            many => {
                @for (i, link) in many.iter().enumerate() {
                    @let (bx, by, bw, bh) = badges.cell(i, many.len());
                    // The top of the tag's label: at the badge's foot, or in the band kept for
                    // the first row's tags.
                    @let top = match badges.first_row_tags {
                        Some(band) if i < badges.per_row && badges.rows(many.len()) > 1 => by + band,
                        _ => by + bh - font * 1.5,
                    };
                    g.move.badge {
                        @if link.play.is_empty() { title { (link.title) } }
                        rect x=(bx + 1.5) y=(by + 1.5) width=(bw - 3.0) height=(bh - 3.0) rx="4" fill="#fff3c4" fill-opacity="0.35" stroke="#8c6400" stroke-width="1.5" {}
                        rect.label x=(bx + bw / 2.0 - font * 1.6) y=(top) width=(font * 3.2) height=(font * 1.3) rx="3" fill="#fff3c4" {}
                        text.tag x=(bx + bw / 2.0) y=(top + font * 0.95) text-anchor="middle" font-size=(font) { (link.tag) }
                    }
                    @if !link.play.is_empty() { (move_button("move badge", (bx, by, bw, bh), link)) }
                }
            },
        }
    }
}

/// A spot whose moves would not fit on it as badges a finger can take: the spot is one link
/// that opens a choice of its moves drawn large over the board. The choice is shown by CSS
/// when the link's fragment names it (`:target`): no script is needed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice<'a> {
    /// Unique on the page: the choice's element is `choose-{id}`.
    pub id: &'a str,
    /// The spot in words (`D4`, `Miðr`).
    pub name: &'a str,
    /// The board's size, which the choice covers.
    pub board: (f32, f32),
    /// The height of one move's button.
    pub row: f32,
}

impl Choice<'_> {
    fn element(&self) -> String {
        format!("choose-{}", self.id)
    }
}

/// Whether the links of a spot are buttons on a page (a picture has none, and shows badges
/// instead of a choice).
pub fn live(links: &[BoardLink]) -> bool {
    links.iter().any(|l| !l.play.is_empty())
}

/// The spot's one link that opens its choice, over `hit`, with the moves' tags as its words.
pub fn choice_link(
    links: &[BoardLink],
    hit: Markup,
    choice: &Choice,
    tags: (f32, f32, f32),
) -> Markup {
    let (x, y, font) = tags;
    let list: Vec<&str> = links.iter().map(|l| l.tag.as_str()).collect();
    html! {
        a.move.chooser href={ "#" (choice.element()) } {
            title { (links.len()) " moves to " (choice.name) ": choose one" }
            (hit)
            text.tag x=(x) y=(y) text-anchor="middle" font-size=(font) stroke="#fff" stroke-width="3" paint-order="stroke" {
                (list.join(" "))
            }
        }
    }
}

/// The choice a [`choice_link`] opens, drawn over the whole board (after everything else):
/// one large button per move, with its words, and a way back.
pub fn choice_overlay(links: &[BoardLink], choice: &Choice) -> Markup {
    let (width, height) = choice.board;
    let gap = choice.row * 0.15;
    let button_w = (width * 0.8).min(420.0);
    let x = (width - button_w) / 2.0;
    let total = (links.len() + 1) as f32 * (choice.row + gap) + 30.0;
    let top = ((height - total) / 2.0).max(4.0) + 30.0;
    let font = (choice.row * 0.3).min(18.0);
    html! {
        g.choices id=(choice.element()) {
            rect.veil width=(width) height=(height) fill="#faf7f0" fill-opacity="0.92" {}
            text x=(width / 2.0) y=(top - 12.0) text-anchor="middle" font-size=(font) font-weight="bold" { "Which move to " (choice.name) "?" }
            @for (i, link) in links.iter().enumerate() {
                @let y = top + i as f32 * (choice.row + gap);
                g.move.badge {
                    rect x=(x) y=(y) width=(button_w) height=(choice.row) rx="8" fill="#fff3c4" stroke="#8c6400" stroke-width="2" {}
                    (crate::fit::line(&link.title, width / 2.0, y + choice.row / 2.0 + font * 0.35, font, button_w - 16.0, "middle"))
                }
                (move_button("move badge", (x, y, button_w, choice.row), link))
            }
            @let y = top + links.len() as f32 * (choice.row + gap);
            a.move.back href="#board" {
                title { "Back to the board" }
                rect x=(x) y=(y) width=(button_w) height=(choice.row) rx="8" fill="#fff" stroke="#6b645a" stroke-width="2" {}
                text x=(width / 2.0) y=(y + choice.row / 2.0 + font * 0.35) text-anchor="middle" font-size=(font) { "Back to the board" }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(tag: &str) -> BoardLink {
        BoardLink {
            play: tag.into(),
            title: format!("Move {tag}"),
            tag: tag.into(),
            ..BoardLink::default()
        }
    }

    const BADGES: Badges = Badges {
        x: 0.0,
        y: 0.0,
        width: 120.0,
        height: 60.0,
        per_row: 4,
        font: 10.0,
        first_row_tags: None,
    };

    #[test]
    fn one_link_is_a_button_of_the_form_over_the_whole_spot_named_by_its_title() {
        let untagged = BoardLink {
            tag: String::new(),
            ..link("a")
        };
        let out = spot_links(&[untagged], &BADGES).into_string();
        assert_eq!(
            out,
            r#"<g class="move"></g><foreignObject x="0" y="0" width="120" height="60"><button class="move" type="submit" form="play" name="play" value="a" title="Move a"></button></foreignObject>"#
        );
        let out = spot_links(&[link("b")], &BADGES).into_string();
        assert!(out.contains(r#"<text class="tag" x="60" y="55""#), "{out}");
        assert!(
            out.ends_with(r#"value="b" title="Move b"></button></foreignObject>"#),
            "{out}"
        );
        // In a picture (nothing to play) the drawing alone, named by its title.
        let drawn = BoardLink {
            play: String::new(),
            ..link("c")
        };
        let out = spot_links(&[drawn], &BADGES).into_string();
        assert!(
            out.starts_with(r#"<g class="move"><title>Move c</title>"#),
            "{out}"
        );
        assert!(!out.contains("button"));
    }

    #[test]
    fn a_move_that_draws_ahead_names_its_spots_for_the_script() {
        let mv = BoardLink {
            from: "D7".into(),
            to: "E5".into(),
            ..link("D7")
        };
        let out = spot_links(std::slice::from_ref(&mv), &BADGES).into_string();
        assert!(
            out.contains(r#"title="Move D7" data-from="D7" data-to="E5">"#),
            "{out}"
        );
        let capture = BoardLink {
            turns: vec!["E5".into()],
            removes: vec!["E4".into(), "F5".into()],
            ..mv
        };
        let out = spot_links(std::slice::from_ref(&capture), &BADGES).into_string();
        assert!(
            out.contains(r#"data-to="E5" data-turns="E5" data-removes="E4 F5">"#),
            "{out}"
        );
        let linking = BoardLink {
            bridges: vec!["D5-E5".into(), "E5-E6".into()],
            their_bridges: vec!["B3-C3".into()],
            ..capture
        };
        let out = spot_links(&[linking], &BADGES).into_string();
        assert!(
            out.contains(
                r#"data-removes="E4 F5" data-bridges="D5-E5 E5-E6" data-their-bridges="B3-C3">"#
            ),
            "{out}"
        );
    }

    #[test]
    fn several_links_tile_the_spot_as_tagged_badges() {
        let links: Vec<BoardLink> = ["a", "b", "c", "d", "e"].map(link).to_vec();
        let out = spot_links(&links, &BADGES).into_string();
        assert_eq!(out.matches(r#"<button class="move badge""#).count(), 5);
        assert_eq!(BADGES.rows(5), 2);
        // Four in the first row, 30 × 30 each; the fifth fills the second row alone.
        assert_eq!(BADGES.cell(3, 5), (90.0, 0.0, 30.0, 30.0));
        assert_eq!(BADGES.cell(4, 5), (0.0, 30.0, 120.0, 30.0));
        assert!(
            out.contains(r#"<rect x="1.5" y="31.5" width="117" height="27""#),
            "{out}"
        );
        assert!(out.contains(r#"<foreignObject x="0" y="30" width="120" height="30"><button class="move badge" type="submit" form="play" name="play" value="e" title="Move e">"#), "{out}");
        assert!(out.contains(">b</text>"));
        assert!(!out.contains("circle"));
        // Each tag on a label at its badge's foot.
        assert!(
            out.contains(r#"<rect class="label" x="29" y="15" width="32" height="13" rx="3""#),
            "{out}"
        );
        assert!(
            out.contains(r#"<text class="tag" x="45" y="24.5""#),
            "{out}"
        );
    }

    /// Where the board keeps a band for them, the first row's tags sit in it, the others at
    /// their badges' foot; a single row keeps its tags at the foot.
    #[test]
    fn the_first_rows_tags_may_sit_in_a_band_at_the_top() {
        let banded = Badges {
            first_row_tags: Some(4.0),
            ..BADGES
        };
        let links: Vec<BoardLink> = ["a", "b", "c", "d", "e"].map(link).to_vec();
        let out = spot_links(&links, &banded).into_string();
        // Badge 1 of the first row (30 × 30 at x 30): its label 4 under the top.
        assert!(
            out.contains(r#"<rect class="label" x="29" y="4" width="32""#),
            "{out}"
        );
        // The fifth, in the second row (0–120 × 30–60): at its foot.
        assert!(
            out.contains(r#"<rect class="label" x="44" y="45" width="32""#),
            "{out}"
        );
        let row: Vec<BoardLink> = ["a", "b"].map(link).to_vec();
        let out = spot_links(&row, &banded).into_string();
        assert!(
            out.contains(r#"<rect class="label" x="14" y="45" width="32""#),
            "{out}"
        );
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

    #[test]
    fn a_crowded_spot_is_one_link_to_a_choice_of_large_buttons() {
        let links: Vec<BoardLink> = ["a", "b", "c"].map(link).to_vec();
        let choice = Choice {
            id: "d4",
            name: "D4",
            board: (400.0, 400.0),
            row: 60.0,
        };
        let spot = choice_link(&links, html! {}, &choice, (0.0, 0.0, 10.0)).into_string();
        assert!(spot.starts_with(r##"<a class="move chooser" href="#choose-d4"><title>3 moves to D4: choose one</title>"##), "{spot}");
        assert!(spot.contains(">a b c</text>"));
        let overlay = choice_overlay(&links, &choice).into_string();
        assert!(
            overlay.starts_with(r#"<g class="choices" id="choose-d4">"#),
            "{overlay}"
        );
        assert_eq!(overlay.matches(r#"<button class="move badge""#).count(), 3);
        assert!(
            overlay.contains(r#"<foreignObject x="40" y=""#)
                && overlay.contains(r#"width="320" height="60"><button class="move badge" type="submit" form="play" name="play" value="b" title="Move b"></button>"#),
            "{overlay}"
        );
        assert!(overlay.contains(r#"width="320" height="60""#));
        assert!(overlay.contains(r##"<a class="move back" href="#board">"##));
        assert!(live(&links) && !live(&[BoardLink::default()]));
    }
}
