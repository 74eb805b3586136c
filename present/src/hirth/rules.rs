//! The Hirþ rules for players, with the example position their picture shows.

use maud::{Markup, html};
use moot_templates::hirth as view;

use super::board::board_view;
use moot_games::hirth::{Colour, HirthOptions, HirthState, Karve, Reserve, Space};

pub(super) fn rules() -> Markup {
    html! {
        p { "Two war-bands, Gull (gold) and Silfr (silver), fight over an archipelago of eleven spaces. Each has 15 Hirþ (H, warriors), 3 Karves (K, boats) and a Lofðungr (L, the king)." }
        figure.board {
            (view::board(&board_view(&example(), &[], &[])))
            figcaption { "Each space shows its pieces: the L, the H with their count, each Karve with the number of H aboard; pieces that have stopped for the turn are faded. Arrows are attacks waiting for battle; an attacked space shows attack against defence. Each reserve sits beside its home." }
        }
        h2 { "A turn" }
        p { "Take up to five steps, then fight the battles. A step is one of:" }
        ul {
            li { strong { "enter" } ": put an H or an empty K from your reserve on your home space;" }
            li { strong { "move" } ": move one piece (an H, the L, or a K with its crew) to a neighbouring space;" }
            li { strong { "board" } " an H into a K in the same space (up to 4 aboard), or " strong { "disembark" } " one." }
        }
        p { "A piece that enters an empty space stops there for the turn. A piece that moves towards a space the enemy holds stops on the path and " em { "attacks" } " it." }
        h2 { "Battles" }
        p { "After the steps, each attacked space is a battle. Power: H 1, L 1, a K with n H aboard n + 1 (an empty K 0). More power wins; on a tie the side with its L in the battle wins, otherwise the defender." }
        p { "Losing H leave the game for good; a losing K and its crew go back to the reserve. If the attacker wins, you choose which attackers enter the space. A beaten defending L retreats to a neighbouring space that is empty or its own; its owner chooses." }
        p { "At the end of a turn no space but a home may hold more than one K." }
        h2 { "Winning" }
        ul {
            li { strong { "Drepið" } " (5 points): the enemy L is beaten on Miðr and cannot retreat." }
            li { strong { "Þungur Hnífur" } " (2 points): the enemy L cannot retreat anywhere else and leaves the board." }
            li { strong { "Yfirráð" } " (1 point): you hold all five middle spaces (3, 4, Miðr, 5, 6) at the end of a turn." }
        }
        p { "During your steps you may offer the Penningr, the doubling coin, while it is neutral or yours: the other player accepts (the game is worth double, later triple, and they hold the coin) or gives up (you score 1, or 2 for a triple offer). A match goes to a target score (5 by default); players swap colours each game and Gull always starts." }
    }
}

/// A position for the rules page: Gull attacks Miðr from 3 (its L and an H) and 4 (an H),
/// power 3 against the 2 of Silfr's L and H there.
pub(super) fn example() -> HirthState {
    // The names are the board's own, so the lookup cannot fail.
    let at = |name: char| Space::from_name(name).expect("one of the eleven space names");
    let mut state = HirthState::new(HirthOptions::default());
    let pos = &mut state.position;
    for (name, h) in [('0', 1), ('1', 2), ('3', 1), ('4', 1)] {
        pos.board.group_mut(at(name), Colour::Gull).h = h;
    }
    pos.board.group_mut(at('0'), Colour::Gull).l = false;
    pos.board.group_mut(at('9'), Colour::Silfr).l = false;
    let midr = pos.board.group_mut(Space::MIDR, Colour::Silfr);
    midr.l = true;
    midr.h = 1;
    pos.board.group_mut(at('5'), Colour::Silfr).h = 2;
    pos.board
        .group_mut(at('7'), Colour::Silfr)
        .add_karve(Karve {
            crew: 2,
            stopped: false,
        });
    let from_3 = pos.line_mut(Some(at('3')), Space::MIDR);
    from_3.l = true;
    from_3.h = 1;
    pos.line_mut(Some(at('4')), Space::MIDR).h = 1;
    pos.reserve.gull.h = 8;
    pos.reserve.silfr = Reserve { h: 10, k: 2 };
    pos.steps = 3;
    state
}
