//! Moves (single steps and decisions) and the steps of the movement phase (H3, H4).

use smallvec::SmallVec;

use super::board::Space;
use super::state::{Group, KARVE_CAPACITY, Karve, Position, STEPS_PER_TURN};

/// Where [`Position::raw_steps`] puts the steps: a list, or the look-ahead's inline one. One
/// plain push per step (extending by one-move arrays copied every move through `memcpy`).
pub trait StepSink {
    fn push_step(&mut self, mv: Move);
}

impl StepSink for Vec<Move> {
    #[inline]
    fn push_step(&mut self, mv: Move) {
        self.push(mv);
    }
}

impl<const N: usize> StepSink for SmallVec<[Move; N]> {
    #[inline]
    fn push_step(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// A piece that moves as one: a Hirþ, the Lofðungr, or a Karve with its crew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// The Lofðungr, the king.
    L,
    /// A Karve with this many Hirþ aboard.
    K(u8),
    /// A Hirþ not aboard a Karve.
    H,
}

/// Attackers of a won battle that stay where they attacked from instead of entering (H6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stay {
    /// The attacked space.
    pub to: Space,
    /// Where they attacked from (`None`: off the board, they go back to reserve).
    pub from: Option<Space>,
    /// The kind of attacker that stays.
    pub unit: Unit,
    /// How many attackers of that kind stay (at least one).
    pub count: u8,
}

/// One move: a step of the movement phase or a decision.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// H3 enter: a reserve H (`He`) or an empty K (`Ke`) onto the own home space.
    Enter {
        /// True for a Karve (`Ke`), false for a Hirþ (`He`).
        karve: bool,
    },
    /// H3 move: a free piece to an adjacent space (an attack when the enemy holds it).
    Go {
        /// The space the piece leaves.
        from: Space,
        /// The piece that moves (a Karve takes its crew along).
        unit: Unit,
        /// The adjacent space it goes to.
        to: Space,
    },
    /// H3 board: a free loose H goes into this K in the same space.
    Board {
        /// The space of the Hirþ and the Karve.
        space: Space,
        /// The Karve boarded, as it is before: its crew, and whether it has stopped.
        karve: Karve,
    },
    /// H3 disembark: an H leaves the free K with this crew.
    Disembark {
        /// The space of the Karve, where the Hirþ then stands.
        space: Space,
        /// The Karve's crew before the Hirþ leaves (1–4).
        crew: u8,
    },
    /// End the movement phase; battles are fought and the attackers not listed in `stays`
    /// enter the spaces they conquered (sorted, no zero counts).
    End {
        /// The attackers of won battles that stay where they attacked from (H6).
        stays: Vec<Stay>,
    },
    /// H10: offer the Penningr.
    Offer,
    /// H10: accept the offer.
    Accept,
    /// H10: give up the game at the offer.
    GiveUp,
    /// H7: the beaten Lofðungr retreats here.
    Retreat(Space),
}

impl Move {
    /// Whether the move is a step of the movement phase (H3), not a decision.
    #[inline]
    pub fn is_step(&self) -> bool {
        matches!(
            self,
            Move::Enter { .. } | Move::Go { .. } | Move::Board { .. } | Move::Disembark { .. }
        )
    }
}

/// What a piece finds when it enters a space (H4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    Own,
    Empty,
    Enemy,
}

impl Position {
    /// What a piece of the mover's finds entering `space` (H4): its own, an empty or an enemy
    /// space.
    #[inline]
    pub fn arrival(&self, space: Space) -> Arrival {
        match self.controller(space) {
            Some(c) if c == self.mover => Arrival::Own,
            Some(_) => Arrival::Enemy,
            None => Arrival::Empty,
        }
    }

    /// Every step the mover may take now, before the Karve-limit check (H8), into `out` (a
    /// list, or the look-ahead's inline one). Karve moves first (the H8 look-ahead finds its
    /// repairs sooner), then entries, then space by space the Lofðungr, the loose Hirþ (moves,
    /// then boardings) and the disembarkings.
    pub fn raw_steps(&self, out: &mut impl StepSink) {
        if self.steps >= STEPS_PER_TURN {
            return;
        }
        let me = self.mover;
        // One pass over the board for the spaces worth a look: a position has pieces on a few
        // of the eleven, and testing every space for every kind of step costs more than the
        // steps themselves.
        let mut with_karves = 0u16;
        let mut with_movers = 0u16;
        for (i, cell) in self.board.0.iter().enumerate() {
            let g = cell.get(me);
            let karves = !g.karves.is_empty();
            with_karves |= u16::from(karves) << i;
            with_movers |= u16::from(karves | (g.h > 0) | g.l) << i;
        }
        self.steps_from(spaces_in(with_karves), spaces_in(with_movers), out);
    }

    /// The steps of [`Position::raw_steps`] from the mover's Karves on `karve_spaces` and
    /// from its pieces on `mover_spaces` (spaces holding none add nothing), in that order.
    fn steps_from(
        &self,
        karve_spaces: impl Iterator<Item = Space>,
        mover_spaces: impl Iterator<Item = Space>,
        out: &mut impl StepSink,
    ) {
        let me = self.mover;
        for space in karve_spaces {
            let group = self.board.group(space, me);
            let mut last: Option<u8> = None;
            for k in group.karves.iter().filter(|k| !k.stopped) {
                if last == Some(k.crew) {
                    continue;
                }
                last = Some(k.crew);
                for to in space.neighbours() {
                    out.push_step(Move::Go {
                        from: space,
                        unit: Unit::K(k.crew),
                        to,
                    });
                }
            }
        }
        let reserve = self.reserve.get(me);
        if reserve.k > 0 {
            out.push_step(Move::Enter { karve: true });
        }
        if reserve.h > 0 {
            out.push_step(Move::Enter { karve: false });
        }
        for space in mover_spaces {
            let group = self.board.group(space, me);
            if group.l {
                for to in space.neighbours() {
                    out.push_step(Move::Go {
                        from: space,
                        unit: Unit::L,
                        to,
                    });
                }
            }
            if group.h > 0 {
                for to in space.neighbours() {
                    out.push_step(Move::Go {
                        from: space,
                        unit: Unit::H,
                        to,
                    });
                }
            }
            if group.karves.is_empty() {
                continue;
            }
            if group.h > 0 {
                let mut last: Option<Karve> = None;
                for k in group.karves.iter().filter(|k| k.crew < KARVE_CAPACITY) {
                    if last != Some(*k) {
                        out.push_step(Move::Board { space, karve: *k });
                        last = Some(*k);
                    }
                }
            }
            let mut last: Option<u8> = None;
            for k in group.karves.iter().filter(|k| !k.stopped && k.crew > 0) {
                if last != Some(k.crew) {
                    out.push_step(Move::Disembark {
                        space,
                        crew: k.crew,
                    });
                    last = Some(k.crew);
                }
            }
        }
    }

    /// [`Position::raw_steps`] from every space, not only those found holding the mover's pieces:
    /// the reference the random-game test holds that choice of spaces to.
    #[cfg(test)]
    pub(super) fn raw_steps_by_scan(&self, out: &mut Vec<Move>) {
        if self.steps < STEPS_PER_TURN {
            self.steps_from(Space::all(), Space::all(), out);
        }
    }

    /// Whether a step can be taken now (ignoring H8): [`Position::step_error`] without the
    /// words, for the look-ahead (the random-game test checks that the two agree).
    pub fn can_step(&self, mv: &Move) -> bool {
        if self.steps >= STEPS_PER_TURN {
            return false;
        }
        let me = self.mover;
        let free = |crew| Karve {
            crew,
            stopped: false,
        };
        match *mv {
            Move::Enter { karve: true } => self.reserve.get(me).k > 0,
            Move::Enter { karve: false } => self.reserve.get(me).h > 0,
            Move::Go { from, unit, to } => {
                let g = self.board.group(from, me);
                from.is_adjacent(to)
                    && match unit {
                        Unit::H => g.h > 0,
                        Unit::L => g.l,
                        Unit::K(crew) => g.karves.contains(&free(crew)),
                    }
            }
            Move::Board { space, karve } => {
                let g = self.board.group(space, me);
                g.h > 0 && karve.crew < KARVE_CAPACITY && g.karves.contains(&karve)
            }
            Move::Disembark { space, crew } => {
                crew > 0 && self.board.group(space, me).karves.contains(&free(crew))
            }
            _ => false,
        }
    }

    /// Why a step cannot be taken now (ignoring H8), or `None` when it can.
    pub fn step_error(&self, mv: &Move) -> Option<(&'static str, String)> {
        if self.can_step(mv) {
            return None;
        }
        Some(
            self.step_refusal(mv)
                .unwrap_or(("H3", "this step cannot be taken now".into())),
        )
    }

    /// The reason [`Position::step_error`] gives; `None` where [`Position::can_step`] should
    /// have said yes (the test holds the two together).
    pub(super) fn step_refusal(&self, mv: &Move) -> Option<(&'static str, String)> {
        if self.steps >= STEPS_PER_TURN {
            return Some((
                "H3",
                "five steps have been taken: end the movement phase".into(),
            ));
        }
        let me = self.mover;
        match *mv {
            Move::Enter { karve } => {
                let r = self.reserve.get(me);
                let left = if karve { r.k } else { r.h };
                (left == 0).then(|| {
                    (
                        "H3",
                        format!("no {} in reserve", if karve { "Karve" } else { "Hirþ" }),
                    )
                })
            }
            Move::Go { from, unit, to } => {
                if !from.is_adjacent(to) {
                    return Some((
                        "H1",
                        format!("{} is not adjacent to {}", to.name(), from.name()),
                    ));
                }
                let g = self.board.group(from, me);
                let ok = match unit {
                    Unit::H => g.h > 0,
                    Unit::L => g.l,
                    Unit::K(crew) => g.karves.contains(&Karve {
                        crew,
                        stopped: false,
                    }),
                };
                (!ok).then(|| self.missing_piece(from, unit))
            }
            Move::Board { space, karve } => {
                let g = self.board.group(space, me);
                if g.h == 0 {
                    Some(("H4", format!("no free loose Hirþ on {}", space.name())))
                } else if !g.karves.contains(&karve) {
                    Some(("H3", format!("no such Karve on {}", space.name())))
                } else if karve.crew >= KARVE_CAPACITY {
                    Some(("H3", "a Karve holds at most 4 Hirþ".into()))
                } else {
                    None
                }
            }
            Move::Disembark { space, crew } => {
                let g = self.board.group(space, me);
                (crew == 0
                    || !g.karves.contains(&Karve {
                        crew,
                        stopped: false,
                    }))
                .then(|| {
                    (
                        "H4",
                        format!("no free Karve with {crew} Hirþ aboard on {}", space.name()),
                    )
                })
            }
            _ => Some(("H3", "not a step".into())),
        }
    }

    /// Why the mover has no free `unit` on `from` to move: it stopped this turn (H4), it is
    /// aboard a Karve, it is the enemy's, or there is none.
    fn missing_piece(&self, from: Space, unit: Unit) -> (&'static str, String) {
        let me = self.mover;
        let g = self.board.group(from, me);
        let word = unit_word(unit);
        let on = from.name();
        let stopped = match unit {
            Unit::H => g.h_stopped > 0,
            Unit::L => g.l_stopped,
            Unit::K(crew) => g.karves.contains(&Karve {
                crew,
                stopped: true,
            }),
        };
        if stopped {
            return (
                "H4",
                format!("the {word} on {on} has stopped this turn: it takes no further step"),
            );
        }
        // Checked before the pieces' absence: a piece that attacked from `from` is not there,
        // but the rule that holds it is H4 (it stays on the line until the battles).
        let on_line = self.lines.iter().find(|line| {
            line.from == Some(from)
                && match unit {
                    Unit::H => line.pieces.loose_h() > 0,
                    Unit::L => line.pieces.has_l(),
                    Unit::K(crew) => line.pieces.karves.iter().any(|k| k.crew == crew),
                }
        });
        if let Some(line) = on_line {
            return (
                "H4",
                format!(
                    "the {word} from {on} stands on the line attacking {}: it stays there until the battles",
                    line.to.name()
                ),
            );
        }
        if unit == Unit::H && g.karves.iter().any(|k| k.crew > 0) {
            return (
                "H3",
                format!(
                    "the Hirþ on {on} are aboard a Karve: move the Karve, or disembark first (Hr{on})"
                ),
            );
        }
        if let Unit::K(crew) = unit
            && !g.karves.is_empty()
        {
            return (
                "H3",
                format!(
                    "no Karve holding {crew} Hirþ on {on} (its Karves hold {})",
                    g.karves
                        .iter()
                        .map(|k| k.crew.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        let foe = self.board.group(from, me.other());
        let theirs = match unit {
            Unit::H => foe.all_h() > 0,
            Unit::L => foe.has_l(),
            Unit::K(_) => !foe.karves.is_empty(),
        };
        if theirs {
            return (
                "H3",
                format!(
                    "the {word} on {on} is {}'s: {} moves only its own pieces",
                    me.other().word(),
                    me.word()
                ),
            );
        }
        ("H3", format!("{} has no {word} on {on}", me.word()))
    }

    /// Plays a step known to be possible (see `step_error`).
    pub fn apply_step(&mut self, mv: &Move) {
        let me = self.mover;
        self.steps += 1;
        match *mv {
            Move::Enter { karve } => {
                let r = self.reserve.get_mut(me);
                if karve {
                    r.k -= 1;
                } else {
                    r.h -= 1;
                }
                let unit = if karve { Unit::K(0) } else { Unit::H };
                let home = me.home();
                let arrival = self.arrival(home);
                match arrival {
                    // H4 [I]: an entry onto the own home held by the enemy attacks it from off the board.
                    Arrival::Enemy => put(self.line_mut(None, home), unit, false),
                    _ => put(
                        self.board.group_mut(home, me),
                        unit,
                        arrival == Arrival::Empty,
                    ),
                }
            }
            Move::Go { from, unit, to } => {
                let g = self.board.group_mut(from, me);
                match unit {
                    Unit::H => g.h -= 1,
                    Unit::L => g.l = false,
                    Unit::K(crew) => {
                        g.take_karve(Karve {
                            crew,
                            stopped: false,
                        });
                    }
                }
                match self.arrival(to) {
                    Arrival::Enemy => put(self.line_mut(Some(from), to), unit, false),
                    arrival => put(
                        self.board.group_mut(to, me),
                        unit,
                        arrival == Arrival::Empty,
                    ),
                }
            }
            Move::Board { space, karve } => {
                let g = self.board.group_mut(space, me);
                g.h -= 1;
                g.take_karve(karve);
                // H4 [I]: an H that boards a stopped K is stopped with it.
                g.add_karve(Karve {
                    crew: karve.crew + 1,
                    stopped: karve.stopped,
                });
            }
            Move::Disembark { space, crew } => {
                let g = self.board.group_mut(space, me);
                g.take_karve(Karve {
                    crew,
                    stopped: false,
                });
                g.add_karve(Karve {
                    crew: crew - 1,
                    stopped: false,
                });
                g.h += 1;
            }
            _ => {}
        }
    }
}

/// The spaces of a mask (bit `i`: the space of index `i`), in board order.
#[inline]
fn spaces_in(mut mask: u16) -> impl Iterator<Item = Space> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        Space::from_index(i)
    })
}

/// Adds one unit to a group, stopped or not (the crew of a stopped K stops with it).
#[inline]
fn put(g: &mut Group, unit: Unit, stopped: bool) {
    match (unit, stopped) {
        (Unit::H, false) => g.h += 1,
        (Unit::H, true) => g.h_stopped += 1,
        (Unit::L, false) => g.l = true,
        (Unit::L, true) => g.l_stopped = true,
        (Unit::K(crew), stopped) => g.add_karve(Karve { crew, stopped }),
    }
}

pub fn unit_word(unit: Unit) -> &'static str {
    match unit {
        Unit::H => "Hirþ",
        Unit::L => "Lofðungr",
        Unit::K(_) => "Karve",
    }
}
