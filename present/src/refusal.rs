//! Why a spot of a board has no move: the engine's refusal of the move a tap there would
//! play, with the rule that forbids it, as the board writes it for a tap to say.

use moot_games::MoveError;
use moot_templates::parts::Refusal;

use crate::page_game::PageGame;
use crate::rulebook::rule_name;

/// The refusal that says `why` (a sentence) and links to rule `rule` (`F3`) of `G`'s rules.
pub fn refusal<G: PageGame>(rule: &str, why: String) -> Refusal {
    let rule_words = match rule_name(G::RULEBOOK.rules, rule) {
        Some(name) => format!("Rule {rule}: {name}"),
        None => format!("Rule {rule}"),
    };
    Refusal {
        why,
        rule_href: format!("/rules/{}#{rule}", G::ID),
        rule_words,
    }
}

/// The rule and the reason of an engine's refusal of a move by the rules; `None` for any
/// other refusal (unreadable, the game over), which names no rule.
pub fn ruled(error: MoveError) -> Option<(&'static str, String)> {
    match error {
        MoveError::Illegal { rule, reason } => Some((rule, reason)),
        _ => None,
    }
}

/// The engine's refusal of `mv` in `state`, by rule: `None` when the move is legal, or
/// refused for no rule.
pub fn refused<G: PageGame>(state: &G::State, mv: &G::Move) -> Option<(&'static str, String)> {
    let mut after = state.clone();
    G::apply(&mut after, mv).err().and_then(ruled)
}

/// A sentence of an engine's reason: its first letter capitalised unless it names a spot
/// (Herfor's points are lower case: `d4 already holds…`), with a full stop.
pub fn sentence(reason: &str) -> String {
    let starts_with_a_name = reason
        .split_whitespace()
        .next()
        .is_some_and(|word| word.chars().any(|c| c.is_ascii_digit()));
    let reason = reason.trim_end_matches('.');
    if starts_with_a_name {
        format!("{reason}.")
    } else {
        format!("{}.", crate::words::capitalised(reason))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use moot_games::herfor::Herfor;

    #[test]
    fn a_refusal_links_to_its_rule_by_id_and_name() {
        let r = refusal::<Herfor>("F3", "d4 already holds a white stone.".into());
        assert_eq!(r.rule_href, "/rules/herfor#F3");
        assert_eq!(r.rule_words, "Rule F3: A turn");
        assert_eq!(r.why, "d4 already holds a white stone.");
        assert_eq!(refusal::<Herfor>("F9", String::new()).rule_words, "Rule F9");
    }

    #[test]
    fn a_reason_becomes_a_sentence_keeping_a_spots_name_as_written() {
        assert_eq!(
            sentence("d4 already holds a stone"),
            "d4 already holds a stone."
        );
        assert_eq!(
            sentence("the Hirþ on 3 has stopped"),
            "The Hirþ on 3 has stopped."
        );
        assert_eq!(sentence("E5 is vacant."), "E5 is vacant.");
    }
}
