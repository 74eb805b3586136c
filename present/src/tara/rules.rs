//! The Tara rules for players, with the mid-game position their picture shows.

use maud::{Markup, html};
use moot_templates::tara as view;

use super::board::board_view;
use moot_games::tara::TaraState;

pub(super) fn rules() -> Markup {
    let picture = view::board(&board_view(&rules_example(), &[], &[]));
    html! {
        p { "Two players, Red and Blue, each with three kings and thirty ringforts, build kingdoms on 45 hills. The player with fewer, larger kingdoms wins." }
        figure.board {
            (picture)
            figcaption { "Ringforts are rings in their owner's colour; a bar between two is a bridge: neighbouring ringforts of one colour are linked into one kingdom. Crowns are kings." }
        }
        h2 { "Setup" }
        p { "Players take turns building a ringfort on any vacant hill and putting a king on it, until all six kings stand. Your own ringforts may not touch during setup." }
        h2 { "Moving" }
        p { "A turn moves one king a knight's move (two hills one way, one the other). Your own kings may never stand next to each other." }
        ul {
            li { strong { "Manoeuvres: " } "the king lands on a vacant hill and builds a ringfort there, which may not touch another of your ringforts. Kings that cannot move are skipped." }
            li { strong { "Battle: " } "once none of your kings can move, you are in Battle (the other player follows on its next turn). New ringforts may now touch and link yours. If none of your kings can reach a vacant hill, one may backtrack onto your own empty ringfort, or capture an enemy ringfort that stands alone and is surrounded by yours." }
        }
        h2 { "Capturing kings" }
        p { "A single ringfort is " em { "besieged" } " when every neighbouring hill is an enemy ringfort (the board's edge counts as closed). If the king you moved stands next to an enemy king on a besieged single ringfort, that king is captured. Capture two kings and you win at once." }
        h2 { "The end" }
        p { "When every king is stuck you may pass: your kings leave the board and the other player has one more turn. The game also ends one turn after the last hill is built on." }
        p { "Without a double capture, the player with fewer kingdoms wins 2 points plus the difference; with equal kingdoms, more territory wins the same way; each captured king adds a point. A double capture scores a point per captured king." }
        p { "Level 2 (an option) adds sacrifices: a player who has lost a king may, when stuck, backtrack onto its own besieged single ringfort and give it to the enemy; that king is immune for a turn and must then escape." }
    }
}

/// The rules page's picture: mid-game, both players in Battle, so Red's ringforts link.
pub(super) fn rules_example() -> TaraState {
    let mut example = TaraState::from_diagram([
        "# . . . . . #",
        ". b b . . R .",
        ". B . . r r .",
        ". . . r . . .",
        ". r R . b B .",
        ". R . . b . .",
        "# . . B . . #",
    ]);
    example.battle.red = true;
    example.battle.blue = true;
    example
}
