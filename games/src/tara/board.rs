//! The position as bitboards, and the questions the rules ask of it: where a king may go
//! (T4–T6), what is besieged (T7), what may be captured (T8, T9) or sacrificed (T11).

use super::geometry::{HILLS, Hill, spread};
use super::hills::HillList;
use super::state::{Colour, PerColour, TaraState};

/// Ringforts and kings per colour, indexed by [`Colour::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// The hills holding each colour's ringforts, one bit per square of the grid.
    pub ringforts: [u64; 2],
    /// The hills holding each colour's kings (always on its own ringforts, T2).
    pub kings: [u64; 2],
}

impl Board {
    /// The bitboards the state's lists keep.
    #[inline]
    pub fn of(state: &TaraState) -> Board {
        let both = |lists: &PerColour<HillList>| [lists.red.set(), lists.blue.set()];
        Board {
            ringforts: both(&state.ringforts),
            kings: both(&state.kings),
        }
    }

    /// The hills holding the ringforts of `colour`.
    pub fn ringforts(&self, colour: Colour) -> u64 {
        self.ringforts[colour.index()]
    }

    /// The hills holding the kings of `colour`.
    pub fn kings(&self, colour: Colour) -> u64 {
        self.kings[colour.index()]
    }

    /// The hills holding a king of either colour.
    pub fn all_kings(&self) -> u64 {
        self.kings[0] | self.kings[1]
    }

    /// Whether `colour` has a ringfort left to put on the board (T2: 30 each). \[I\] Building and
    /// capturing a ringfort take one of the mover's; a sacrifice takes one of the enemy's.
    pub fn has_spare_ringfort(&self, colour: Colour) -> bool {
        (self.ringforts(colour).count_ones() as usize) < super::state::RINGFORTS_PER_COLOUR
    }

    /// Hills with no ringfort.
    pub fn vacant(&self) -> u64 {
        HILLS & !(self.ringforts[0] | self.ringforts[1])
    }

    /// Whether every hill adjacent to `hill` is a ringfort of `attacker` (T7). Only a single
    /// ringfort or a vacant hill can be, as a neighbour of another colour would break it.
    pub fn besieged_by(&self, hill: Hill, attacker: Colour) -> bool {
        hill.neighbours() & !self.ringforts(attacker) == 0
    }

    /// The hills where a king of `colour` leaving `from` would stand next to a friendly king (T4).
    fn next_to_friendly_king(&self, colour: Colour, from: Hill) -> u64 {
        spread(self.kings(colour) & !from.bit())
    }

    /// Knight targets of `from` a king of `colour` may reach without standing next to a friendly
    /// king.
    fn reachable(&self, colour: Colour, from: Hill) -> u64 {
        from.knight_targets() & !self.next_to_friendly_king(colour, from)
    }

    /// Vacant hills the king on `from` may move to and build on (T5; in Battle, T6 lifts the
    /// ban on building next to a friendly ringfort).
    pub fn vacant_targets(&self, colour: Colour, from: Hill, battle: bool) -> u64 {
        if !self.has_spare_ringfort(colour) {
            return 0;
        }
        let mut targets = self.reachable(colour, from) & self.vacant();
        if !battle {
            targets &= !spread(self.ringforts(colour));
        }
        targets
    }

    /// Friendly ringforts with no king the king on `from` may backtrack to (T6).
    pub fn backtrack_targets(&self, colour: Colour, from: Hill) -> u64 {
        self.reachable(colour, from) & self.ringforts(colour) & !self.all_kings()
    }

    /// Besieged single enemy ringforts with no king the king on `from` may capture (T8).
    pub fn capture_targets(&self, colour: Colour, from: Hill) -> u64 {
        if !self.has_spare_ringfort(colour) {
            return 0;
        }
        let candidates =
            self.reachable(colour, from) & self.ringforts(colour.other()) & !self.all_kings();
        super::geometry::hills_of(candidates)
            .filter(|&hill| self.besieged_by(hill, colour))
            .fold(0, |set, hill| set | hill.bit())
    }

    /// Whether some king of `colour` can move to a vacant hill under the rules in force.
    pub fn any_mobile(&self, colour: Colour, battle: bool) -> bool {
        super::geometry::hills_of(self.kings(colour))
            .any(|king| self.vacant_targets(colour, king, battle) != 0)
    }

    /// Hills where a new ringfort of `colour` may be placed in setup (T3).
    pub fn setup_targets(&self, colour: Colour) -> u64 {
        self.vacant() & !spread(self.ringforts(colour))
    }

    /// The enemy kings captured by a king of `mover` standing on `hill` (T9): adjacent, each on
    /// its own single ringfort besieged by `mover`, and not `immune` (T11).
    pub fn captures_from(&self, mover: Colour, hill: Hill, immune: u64) -> u64 {
        let enemy = mover.other();
        let exposed = hill.neighbours() & self.kings(enemy) & self.ringforts(enemy) & !immune;
        super::geometry::hills_of(exposed)
            .filter(|&king| self.besieged_by(king, mover))
            .fold(0, |set, king| set | king.bit())
    }
}
