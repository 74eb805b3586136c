//! The moves, which of them are legal (T3–T11), and why another is not.

use super::board::Board;
use super::geometry::{Hill, hills_of};
use super::state::{Colour, TaraState};
use crate::MoveError;

/// A move of The High Kings of Tara (notation T13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaraMove {
    /// Setup (T3): build a ringfort on a vacant hill and put a king on it (`D4`).
    Place(Hill),
    /// A king's knight move (`D7-E5`): to a vacant hill (building), onto a friendly ringfort
    /// (backtracking) or onto an enemy ringfort (capturing it, written `D7xE5`); the position
    /// tells which.
    Step {
        /// The hill the king leaves.
        from: Hill,
        /// The hill a knight's move away that it lands on (T4).
        to: Hill,
    },
    /// A backtrack that sacrifices the ringfort it lands on (T11, `C5sB3`).
    Sacrifice {
        /// The hill the king leaves.
        from: Hill,
        /// The friendly single, besieged ringfort it lands on and hands to the enemy.
        to: Hill,
    },
    /// Pass (T10), removing the passer's kings.
    Pass,
    /// In a match, start game 2 once game 1 is over (T12).
    Next,
}

/// What a step does, seen from the position before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// To a vacant hill, building a ringfort under the king (T5, T6).
    Build,
    /// Onto a friendly ringfort with no king (T6).
    Backtrack,
    /// Onto a besieged single enemy ringfort, which becomes the mover's (T8).
    Capture,
}

/// What a step of `mover`'s to `to` does: a backtrack onto its own ringfort, a capture of an
/// enemy one, or else a build. It does not say whether the step is legal.
pub fn step_kind(board: &Board, mover: Colour, to: Hill) -> StepKind {
    if board.ringforts(mover) & to.bit() != 0 {
        StepKind::Backtrack
    } else if board.ringforts(mover.other()) & to.bit() != 0 {
        StepKind::Capture
    } else {
        StepKind::Build
    }
}

/// The king that must move this turn after sacrificing on the previous one (T11).
pub fn forced_king(state: &TaraState) -> Option<Hill> {
    state.sacrificed_by(state.to_move)
}

/// Whether a king of `mover` landing on its own ringfort `to` by a backtrack may sacrifice it
/// (T11): Level 2, one of the mover's kings captured, and the ringfort single and besieged.
pub fn may_sacrifice(state: &TaraState, board: &Board, mover: Colour, to: Hill) -> bool {
    state.options.level == 2
        && *state.captured.get(mover.other()) >= 1
        && board.ringforts(mover) & to.bit() != 0
        && board.besieged_by(to, mover.other())
        && board.has_spare_ringfort(mover.other())
}

/// Moves gathered on the stack and appended to the caller's vector in blocks: pushing to the
/// vector one by one reloads its length and pointer for every move.
struct Gathered<'a> {
    out: &'a mut Vec<TaraMove>,
    buffer: [TaraMove; 64],
    len: usize,
}

impl<'a> Gathered<'a> {
    fn new(out: &'a mut Vec<TaraMove>) -> Self {
        Gathered {
            out,
            buffer: [TaraMove::Pass; 64],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, mv: TaraMove) {
        if self.len == self.buffer.len() {
            self.flush();
        }
        self.buffer[self.len] = mv;
        self.len += 1;
    }

    #[inline(always)]
    fn extend(&mut self, moves: impl Iterator<Item = TaraMove>) {
        for mv in moves {
            self.push(mv);
        }
    }

    /// All the moves so far, those already handed over included.
    fn len(&self) -> usize {
        self.out.len() + self.len
    }

    fn flush(&mut self) {
        self.out.extend_from_slice(&self.buffer[..self.len]);
        self.len = 0;
    }
}

impl Drop for Gathered<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// Every legal move, in a fixed order.
pub fn generate(state: &TaraState, out: &mut Vec<TaraMove>) {
    gather(state, &mut Gathered::new(out));
}

fn gather(state: &TaraState, out: &mut Gathered) {
    if state.between_games() {
        out.push(TaraMove::Next);
        return;
    }
    if state.over {
        return;
    }
    let board = Board::of(state);
    let mover = state.to_move;
    if state.in_setup() {
        out.extend(hills_of(board.setup_targets(mover)).map(TaraMove::Place));
        return;
    }
    let battle = *state.battle.get(mover);
    if let Some(king) = forced_king(state) {
        if !push_vacant(&board, mover, king, battle, out) {
            push_battle_moves(state, &board, king, out);
        }
        return;
    }
    let before = out.len();
    let mut mobile = false;
    for king in hills_of(board.kings(mover)) {
        mobile |= push_vacant(&board, mover, king, battle, out);
    }
    if mobile {
        return;
    }
    if battle {
        for king in hills_of(board.kings(mover)) {
            push_battle_moves(state, &board, king, out);
        }
        if !board.any_mobile(mover.other(), true) {
            out.push(TaraMove::Pass);
        }
    }
    if out.len() == before {
        // T10 [I]: a player with no legal move must pass.
        out.push(TaraMove::Pass);
    }
}

fn push_vacant(board: &Board, mover: Colour, from: Hill, battle: bool, out: &mut Gathered) -> bool {
    let targets = board.vacant_targets(mover, from, battle);
    out.extend(hills_of(targets).map(|to| TaraMove::Step { from, to }));
    targets != 0
}

/// Backtracks (with their sacrifices) and ringfort captures of an immobile king in Battle.
fn push_battle_moves(state: &TaraState, board: &Board, from: Hill, out: &mut Gathered) {
    let mover = state.to_move;
    for to in hills_of(board.backtrack_targets(mover, from)) {
        out.push(TaraMove::Step { from, to });
        if may_sacrifice(state, board, mover, to) {
            out.push(TaraMove::Sacrifice { from, to });
        }
    }
    out.extend(hills_of(board.capture_targets(mover, from)).map(|to| TaraMove::Step { from, to }));
}

/// Says which rule forbids `mv`, which `generate` did not list.
pub fn explain_illegal(state: &TaraState, mv: &TaraMove) -> MoveError {
    if state.between_games() {
        return MoveError::illegal(
            "T12",
            "game 1 of the match is over: play `next` to start game 2",
        );
    }
    if state.over {
        return MoveError::GameOver;
    }
    let board = Board::of(state);
    let mover = state.to_move;
    let colour = mover.title();
    let setup = state.in_setup();
    match *mv {
        TaraMove::Next => {
            MoveError::illegal("T12", "`next` starts game 2 of a match once game 1 is over")
        }
        TaraMove::Place(hill) => {
            if !setup {
                MoveError::illegal("T3", "setup is over: a turn moves a king")
            } else if !hill.exists() {
                MoveError::illegal("T1", format!("{hill} is not a hill"))
            } else if board.vacant() & hill.bit() == 0 {
                MoveError::illegal("T3", format!("{hill} already holds a ringfort"))
            } else {
                MoveError::illegal(
                    "T3",
                    format!(
                        "{hill} is next to a {colour} ringfort: own ringforts never touch in setup"
                    ),
                )
            }
        }
        _ if setup => MoveError::illegal(
            "T3",
            format!("{colour} is still placing kings: name a vacant hill"),
        ),
        TaraMove::Pass => explain_pass(state, &board),
        TaraMove::Step { from, to } | TaraMove::Sacrifice { from, to } => {
            let sacrifice = matches!(mv, TaraMove::Sacrifice { .. });
            explain_step(state, &board, from, to, sacrifice)
        }
    }
}

fn explain_pass(state: &TaraState, board: &Board) -> MoveError {
    let mover = state.to_move;
    if let Some(king) = forced_king(state) {
        return MoveError::illegal(
            "T11",
            format!("the king on {king} sacrificed last turn and must move"),
        );
    }
    let mobile = |colour: Colour, battle: bool| {
        hills_of(board.kings(colour)).find_map(|king| {
            let targets = board.vacant_targets(colour, king, battle);
            (targets != 0).then(|| format!("{king}-{}", Hill::first_of(targets)))
        })
    };
    let reason =
        match mobile(mover, *state.battle.get(mover)).or_else(|| mobile(mover.other(), true)) {
            Some(example) => format!(
                "a player may pass only when every king is immobile, but {example} is possible"
            ),
            None => "a player may pass only when every king is immobile".to_string(),
        };
    MoveError::illegal("T10", reason)
}

fn explain_step(
    state: &TaraState,
    board: &Board,
    from: Hill,
    to: Hill,
    sacrifice: bool,
) -> MoveError {
    let mover = state.to_move;
    let colour = mover.title();
    let battle = *state.battle.get(mover);
    if !from.exists() || !to.exists() {
        let bad = if from.exists() { to } else { from };
        return MoveError::illegal("T1", format!("{bad} is not a hill"));
    }
    if board.kings(mover) & from.bit() == 0 {
        return MoveError::illegal("T4", format!("no {colour} king stands on {from}"));
    }
    if let Some(king) = forced_king(state).filter(|&king| king != from) {
        return MoveError::illegal(
            "T11",
            format!("the king on {king} sacrificed last turn and must move"),
        );
    }
    if from.knight_targets() & to.bit() == 0 {
        return MoveError::illegal("T4", format!("{from} to {to} is not a knight's move"));
    }
    if to.neighbours() & board.kings(mover) & !from.bit() != 0 {
        return MoveError::illegal("T4", format!("{to} is next to another {colour} king"));
    }
    if board.all_kings() & to.bit() != 0 {
        return MoveError::illegal("T4", format!("a king already stands on {to}"));
    }
    let kind = step_kind(board, mover, to);
    if kind != StepKind::Backtrack && !sacrifice && !board.has_spare_ringfort(mover) {
        let reason = format!("{colour} has no ringfort left: all 30 are on the board");
        return MoveError::illegal("T2", reason);
    }
    if kind == StepKind::Build {
        if sacrifice {
            return MoveError::illegal(
                "T11",
                format!("{to} is vacant: only a friendly ringfort can be sacrificed"),
            );
        }
        return MoveError::illegal(
            "T5",
            format!("{to} is next to a {colour} ringfort, which Manoeuvres forbid"),
        );
    }
    let (rule, what) = match kind {
        StepKind::Backtrack => ("T6", "backtrack"),
        _ => ("T8", "capture a ringfort"),
    };
    if !battle {
        return MoveError::illegal(rule, format!("{colour} is not in Battle, so cannot {what}"));
    }
    // After a sacrifice only that king counts (T11); otherwise any mobile king forbids it.
    let movers = forced_king(state).map_or(board.kings(mover), |king| king.bit());
    if let Some(king) = hills_of(movers).find(|&k| board.vacant_targets(mover, k, battle) != 0) {
        let reason =
            format!("the king on {king} can still move to a vacant hill, so no king may {what}");
        return MoveError::illegal(rule, reason);
    }
    if kind == StepKind::Capture {
        if sacrifice {
            return MoveError::illegal(
                "T11",
                format!("{to} is an enemy ringfort: only a friendly one can be sacrificed"),
            );
        }
        return MoveError::illegal("T8", format!("{to} is not a besieged single ringfort"));
    }
    if sacrifice {
        if state.options.level != 2 {
            return MoveError::illegal("T11", "sacrifices belong to the Level 2 variant");
        }
        if *state.captured.get(mover.other()) == 0 {
            return MoveError::illegal(
                "T11",
                format!("{colour} may sacrifice only once one of its kings was captured"),
            );
        }
        return MoveError::illegal(
            "T11",
            format!("{to} is not a single ringfort besieged by the enemy"),
        );
    }
    MoveError::illegal("T4", format!("{from}-{to} is not a legal move here"))
}
