//! Checks a state received from outside (every invariant the engine relies on).

use super::board::{Colour, Space};
use super::limit;
use super::rules;
use super::state::{
    Group, HIRTH_PER_PLAYER, HirthState, KARVE_CAPACITY, KARVES_PER_PLAYER, Phase, STEPS_PER_TURN,
    VERSION, karve_order,
};
use crate::InvalidState;

fn err(path: impl Into<String>, reason: impl Into<String>) -> Result<(), InvalidState> {
    Err(InvalidState::new(path, reason))
}

/// Per-colour totals of the pieces found so far.
#[derive(Default)]
struct Count {
    h: u32,
    k: u32,
    l: u32,
}

fn check_group(
    path: &str,
    g: &Group,
    may_stop: bool,
    count: &mut Count,
) -> Result<(), InvalidState> {
    if g.l && g.l_stopped {
        return err(
            format!("{path}.l_stopped"),
            "the Lofðungr is either free or stopped, not both",
        );
    }
    // Bounds first, so that the sums below cannot overflow.
    if g.h > HIRTH_PER_PLAYER || g.h_stopped > HIRTH_PER_PLAYER {
        return err(path, "a player has 15 Hirþ (H2)");
    }
    if g.karves.len() > KARVES_PER_PLAYER as usize {
        return err(format!("{path}.karves"), "a player has 3 Karves (H2)");
    }
    if !may_stop && (g.h_stopped > 0 || g.l_stopped || g.karves.iter().any(|k| k.stopped)) {
        return err(
            path,
            "only the mover's pieces in spaces are stopped, during its movement phase (H4)",
        );
    }
    for (i, k) in g.karves.iter().enumerate() {
        if k.crew > KARVE_CAPACITY {
            return err(
                format!("{path}.karves[{i}].crew"),
                "a Karve holds at most 4 Hirþ (H3)",
            );
        }
    }
    let mut sorted = g.karves;
    sorted.sort_by(karve_order);
    if sorted != g.karves {
        return err(
            format!("{path}.karves"),
            "Karves are listed most crew first, free before stopped",
        );
    }
    count.h += g.all_h();
    count.k += g.karves.len() as u32;
    count.l += g.has_l() as u32;
    Ok(())
}

pub fn validate(state: &HirthState) -> Result<(), InvalidState> {
    if state.version != VERSION {
        return err(
            "version",
            format!(
                "unsupported version {} (this engine reads {VERSION})",
                state.version
            ),
        );
    }
    super::history::check_bounds(state)?;
    let coin = state.coin;
    if !(1..=3).contains(&coin.factor) {
        return err("coin.factor", "the factor is 1, 2 or 3 (H10)");
    }
    if (coin.factor == 1) != coin.holder.is_none() {
        return err(
            "coin.holder",
            "the Penningr is neutral exactly while the game is not doubled (H10)",
        );
    }
    let pos = &state.position;
    let me = pos.mover;
    let moving = matches!(state.phase, Phase::Movement | Phase::Offer);
    if pos.steps > STEPS_PER_TURN || (!moving && pos.steps > 0) {
        return err(
            "position.steps",
            "0–5 steps, only during a movement phase (H3)",
        );
    }
    let mut counts = [Count::default(), Count::default()];
    for s in Space::all() {
        let cell = pos.board.cell(s);
        let path = format!("position.board.{}", s.name());
        if !cell.gull.is_empty() && !cell.silfr.is_empty() {
            return err(path, "both colours in one space outside a battle (H4)");
        }
        for c in Colour::BOTH {
            let may_stop = moving && c == me;
            check_group(
                &format!("{path}.{}", c.word()),
                cell.get(c),
                may_stop,
                &mut counts[c.index()],
            )?;
        }
    }
    if !moving && !pos.lines.is_empty() {
        return err(
            "position.lines",
            "pieces stand on lines only during a movement phase (H4)",
        );
    }
    if pos.lines.len() > STEPS_PER_TURN as usize {
        return err("position.lines", "more lines than steps in a turn (H3, H4)");
    }
    let mut units = 0u32;
    for (i, line) in pos.lines.iter().enumerate() {
        let path = format!("position.lines[{i}]");
        let g = &line.pieces;
        if g.is_empty() {
            return err(format!("{path}.pieces"), "an empty line");
        }
        if pos.lines[..i]
            .iter()
            .any(|l| l.from == line.from && l.to == line.to)
        {
            return err(path, "the same line twice");
        }
        match line.from {
            Some(from) if !from.is_adjacent(line.to) => {
                return err(
                    format!("{path}.from"),
                    format!("{} is not adjacent to {} (H1)", from.name(), line.to.name()),
                );
            }
            Some(from) if !pos.board.group(from, me.other()).is_empty() => {
                return err(
                    format!("{path}.from"),
                    "an attack comes from a space the mover holds (H4)",
                );
            }
            None if line.to != me.home() || g.has_l() => {
                return err(
                    format!("{path}.from"),
                    "only entering pieces attack from off the board, onto the own home (H4)",
                );
            }
            _ => {}
        }
        if pos.board.group(line.to, me.other()).is_empty() {
            return err(
                format!("{path}.to"),
                "an attacked space is held by the enemy (H4)",
            );
        }
        check_group(&format!("{path}.pieces"), g, false, &mut counts[me.index()])?;
        units += g.loose_h() as u32 + g.has_l() as u32 + g.karves.len() as u32;
    }
    if units > pos.steps as u32 {
        return err("position.lines", "more pieces on lines than steps taken");
    }
    for c in Colour::BOTH {
        let n = &counts[c.index()];
        let reserve = pos.reserve.get(c);
        let removed = *pos.removed.get(c) as u32;
        let h = n.h + reserve.h as u32 + removed;
        let k = n.k + reserve.k as u32;
        let path = format!("position.reserve.{}", c.word());
        if h != HIRTH_PER_PLAYER as u32 {
            return err(
                path,
                format!(
                    "{} has {h} Hirþ on the board, aboard, in reserve and removed; H2 gives 15",
                    c.word()
                ),
            );
        }
        if k != KARVES_PER_PLAYER as u32 {
            return err(
                path,
                format!(
                    "{} has {k} Karves on the board and in reserve; H2 gives 3",
                    c.word()
                ),
            );
        }
        let retreating = matches!(state.phase, Phase::Retreat { .. }) && c != me;
        let (allowed, rule) = match state.phase {
            // A finished game may have lost a Lofðungr (H9).
            Phase::Over => (n.l <= 1, "at most one Lofðungr (H2)"),
            // The beaten Lofðungr is off the board until it retreats (H7).
            _ if retreating => (n.l == 0, "no Lofðungr on the board while it retreats (H7)"),
            _ => (n.l == 1, "exactly one Lofðungr on the board (H2)"),
        };
        if !allowed {
            return err(
                format!("position.board ({})", c.word()),
                format!("{} must have {rule}", c.word()),
            );
        }
    }
    // H8: the other player's Karves keep the limit; the mover's too before its first step.
    for s in Space::all().filter(|s| !s.is_home()) {
        for c in Colour::BOTH {
            if state.phase != Phase::Over
                && (c != me || pos.steps == 0)
                && pos.board.group(s, c).karves.len() > 1
            {
                return err(
                    format!("position.board.{}.{}.karves", s.name(), c.word()),
                    "more than one Karve outside a home space between turns (H8)",
                );
            }
        }
    }
    match state.phase {
        Phase::Movement | Phase::Offer => {
            if state.phase == Phase::Offer && !rules::may_offer(state) {
                return err("phase", "this offer could not have been made (H10)");
            }
            if limit::can_finish(pos) != Some(true) {
                return err(
                    "position",
                    "the turn cannot end with at most one Karve per space (H8)",
                );
            }
        }
        Phase::Retreat { from } => {
            if rules::retreat_options(pos, from, me.other()).len() < 2 {
                return err(
                    "phase.from",
                    "a retreat is decided only when there are several places to go (H7)",
                );
            }
        }
        Phase::Over => {
            if state.points.iter().all(|&p| p < state.options.target) {
                return err(
                    "phase",
                    "the match is over only when a player reached the target (H11)",
                );
            }
        }
    }
    if state.phase != Phase::Over && state.points.iter().any(|&p| p >= state.options.target) {
        return err(
            "points",
            "a player has reached the target: the match is over (H11)",
        );
    }
    super::history::check(state)
}
