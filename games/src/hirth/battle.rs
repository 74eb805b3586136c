//! Battles (H5), losing and winning them (H6), and the entries the winner chooses.

use super::board::{Colour, Space};
use super::moves::{Stay, Unit};
use smallvec::SmallVec;

use super::state::{Group, Karve, Position, STEPS_PER_TURN};

/// The outcome of one battle, fully determined by the position (H5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battle {
    pub space: Space,
    pub attack: u32,
    pub defence: u32,
    pub attacker_wins: bool,
}

/// The battles of a movement phase: one per attacked space, so at most one per line.
pub type Battles = SmallVec<[Battle; STEPS_PER_TURN as usize]>;

/// H5: every attacked space is one battle; the winner by power, ties by the lone Lofðungr,
/// otherwise to the defender.
pub fn battles(pos: &Position) -> Battles {
    let mut out = Battles::new();
    for line in &pos.lines {
        if out.last().is_some_and(|b| b.space == line.to) {
            continue;
        }
        let attackers = pos
            .lines
            .iter()
            .filter(|l| l.to == line.to)
            .map(|l| &l.pieces);
        let attack: u32 = attackers.clone().map(Group::power).sum();
        let attacker_l = attackers.clone().any(Group::has_l);
        let defenders = pos.board.group(line.to, pos.mover.other());
        let defence = defenders.power();
        let attacker_wins =
            attack > defence || (attack == defence && attacker_l && !defenders.has_l());
        out.push(Battle {
            space: line.to,
            attack,
            defence,
            attacker_wins,
        });
    }
    out.sort_by_key(|b| b.space);
    out
}

/// The attacking units of one battle, grouped: (line origin, unit, how many).
pub fn attacking_units(pos: &Position, to: Space) -> SmallVec<[(Option<Space>, Unit, u8); 8]> {
    let mut out = SmallVec::new();
    for line in pos.lines.iter().filter(|l| l.to == to) {
        let g = &line.pieces;
        if g.has_l() {
            out.push((line.from, Unit::L, 1));
        }
        for k in &g.karves {
            match out.last_mut() {
                Some((from, Unit::K(crew), n)) if *from == line.from && *crew == k.crew => *n += 1,
                _ => out.push((line.from, Unit::K(k.crew), 1)),
            }
        }
        if g.loose_h() > 0 {
            out.push((line.from, Unit::H, g.loose_h()));
        }
    }
    out
}

/// What the battles did, for events and the record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aftermath {
    pub battles: Battles,
    /// The space where the opponent's Lofðungr lost as defender: it must retreat (H7).
    pub beaten_l: Option<Space>,
    /// H12 battle notes, one group per battle; `?` stands for the retreat space.
    pub notes: Vec<String>,
}

/// A battle note being written (H12), or nothing when the caller keeps no record.
struct Note(Option<String>);

impl Note {
    fn new(keep: bool, space: Space) -> Note {
        Note(keep.then(|| format!(">{}", space.name())))
    }

    /// The Lofðungr of `colour`, ending at `mark`.
    fn l(&mut self, colour: Colour, mark: char) {
        if let Some(text) = &mut self.0 {
            text.extend([colour.letter(), 'L', mark]);
        }
    }

    fn karves(&mut self, colour: Colour, karves: &[Karve], mark: char) {
        if let Some(text) = &mut self.0 {
            for k in karves {
                text.extend([colour.letter(), 'K']);
                text.extend(std::iter::repeat_n('i', k.crew as usize));
                text.push(mark);
            }
        }
    }

    fn h(&mut self, colour: Colour, n: u8, mark: char) {
        if let Some(text) = &mut self.0 {
            for _ in 0..n {
                text.extend([colour.letter(), 'H', mark]);
            }
        }
    }
}

/// Fights every battle and moves the pieces (H6), with the winner's `stays`; frees every piece
/// and clears the step count. The beaten defending Lofðungr is taken off the board, to be put
/// back by the retreat (H7). `stays` must fit the attackers (see `stays_fit`). The notes are
/// written only when `keep` (the search plays without them).
pub fn resolve(pos: &mut Position, stays: &[Stay], keep: bool) -> Aftermath {
    let me = pos.mover;
    let foe = me.other();
    let battles = battles(pos);
    let lines = std::mem::take(&mut pos.lines);
    let mut after = Aftermath::default();
    for battle in &battles {
        let b = battle.space;
        let mut note = Note::new(keep, b);
        let defenders = std::mem::take(pos.board.group_mut(b, foe));
        let attackers = lines.iter().filter(|l| l.to == b);
        if battle.attacker_wins {
            // Defenders lose: loose H out of the game, K and crew to reserve, L retreats.
            *pos.removed.get_mut(foe) += defenders.loose_h();
            if defenders.has_l() {
                after.beaten_l = Some(b);
                note.l(foe, '?');
            }
            note.karves(foe, &defenders.karves, '^');
            note.h(foe, defenders.loose_h(), 'x');
            let res = pos.reserve.get_mut(foe);
            for k in &defenders.karves {
                res.k += 1;
                res.h += k.crew;
            }
            for line in attackers {
                let mut staying = Group::default();
                let mut entering = line.pieces;
                for s in stays.iter().filter(|s| s.to == b && s.from == line.from) {
                    for _ in 0..s.count {
                        move_unit(&mut entering, &mut staying, s.unit);
                    }
                }
                let stay_mark = line.from.map_or('^', Space::name);
                if entering.has_l() {
                    note.l(me, b.name());
                }
                if staying.has_l() {
                    note.l(me, stay_mark);
                }
                note.karves(me, &entering.karves, b.name());
                note.karves(me, &staying.karves, stay_mark);
                note.h(me, entering.loose_h(), b.name());
                note.h(me, staying.loose_h(), stay_mark);
                pos.board.group_mut(b, me).absorb(entering);
                match line.from {
                    Some(from) => pos.board.group_mut(from, me).absorb(staying),
                    None => {
                        let res = pos.reserve.get_mut(me);
                        res.h += staying.all_h() as u8;
                        res.k += staying.karves.len() as u8;
                    }
                }
            }
        } else {
            // Attackers lose: loose H out of the game, K and crew to reserve, an attacking L
            // stays where it attacked from (H6 [I]). The defenders stay.
            if defenders.has_l() {
                note.l(foe, b.name());
            }
            note.karves(foe, &defenders.karves, b.name());
            note.h(foe, defenders.loose_h(), b.name());
            *pos.board.group_mut(b, foe) = defenders;
            for line in attackers {
                let g = &line.pieces;
                if g.has_l() {
                    let from = line.from.expect("an L never attacks from off the board");
                    note.l(me, from.name());
                    pos.board.group_mut(from, me).l = true;
                }
                note.karves(me, &g.karves, '^');
                note.h(me, g.loose_h(), 'x');
                *pos.removed.get_mut(me) += g.loose_h();
                let res = pos.reserve.get_mut(me);
                for k in &g.karves {
                    res.k += 1;
                    res.h += k.crew;
                }
            }
        }
        after.notes.extend(note.0);
    }
    for cell in &mut pos.board.0 {
        cell.gull.unstop();
        cell.silfr.unstop();
    }
    pos.steps = 0;
    after.battles = battles;
    after
}

/// Moves one unit from `from` to `to` (both line groups, nothing stopped).
fn move_unit(from: &mut Group, to: &mut Group, unit: Unit) {
    match unit {
        Unit::H => {
            from.h -= 1;
            to.h += 1;
        }
        Unit::L => {
            from.l = false;
            to.l = true;
        }
        Unit::K(crew) => {
            let k = Karve {
                crew,
                stopped: false,
            };
            from.take_karve(k);
            to.add_karve(k);
        }
    }
}

/// Whether `stays` names only attackers of won battles that exist, and leaves at least one
/// attacker entering each (H6).
pub fn stays_fit(pos: &Position, won: &[Space], stays: &[Stay]) -> Result<(), String> {
    for s in stays {
        if !won.contains(&s.to) {
            return Err(format!("there is no won battle on {}", s.to.name()));
        }
        let have = attacking_units(pos, s.to)
            .iter()
            .find(|(from, unit, _)| *from == s.from && *unit == s.unit)
            .map_or(0, |u| u.2);
        if s.count == 0 || s.count > have {
            return Err(format!(
                "no such attackers on {} to stay behind",
                s.to.name()
            ));
        }
    }
    for &b in won {
        let total: u32 = attacking_units(pos, b).iter().map(|u| u.2 as u32).sum();
        let staying: u32 = stays
            .iter()
            .filter(|s| s.to == b)
            .map(|s| s.count as u32)
            .sum();
        if staying >= total {
            return Err(format!(
                "at least one attacker must enter {} (H6)",
                b.name()
            ));
        }
    }
    Ok(())
}

/// Attacking units of one kind in one battle: (battle, origin, unit, how many).
type BattleUnits = (Space, Option<Space>, Unit, u8);

/// Every choice of entries for the won battles (sorted `stays`, no zero counts): how many of
/// each attacking unit stay, counted like a number whose last digit turns fastest (the order
/// in which the choices are listed), keeping those that let at least one attacker enter each
/// battle (H6).
pub fn entry_choices(pos: &Position, won: &[Space]) -> Vec<Vec<Stay>> {
    let mut choices = Vec::new();
    for_each_entry_choice(pos, won, |stays| choices.push(stays));
    choices
}

/// [`entry_choices`] handed one by one to `visit`, in the same order (legal moves are pushed
/// straight into the move list, without a list of lists between).
pub fn for_each_entry_choice(pos: &Position, won: &[Space], mut visit: impl FnMut(Vec<Stay>)) {
    // The units of every won battle, and each battle's number of attackers.
    let mut units: SmallVec<[BattleUnits; 12]> = SmallVec::new();
    let mut totals: SmallVec<[(Space, u32); STEPS_PER_TURN as usize]> = SmallVec::new();
    for &b in won {
        let attackers = attacking_units(pos, b);
        totals.push((b, attackers.iter().map(|u| u32::from(u.2)).sum()));
        units.extend(attackers.iter().map(|&(from, unit, n)| (b, from, unit, n)));
    }
    let mut staying: SmallVec<[u8; 12]> = smallvec::smallvec![0; units.len()];
    loop {
        let enters_each = totals.iter().all(|&(b, total)| {
            let stay: u32 = units
                .iter()
                .zip(&staying)
                .filter(|(u, _)| u.0 == b)
                .map(|(_, &c)| u32::from(c))
                .sum();
            stay < total
        });
        if enters_each {
            let mut stays: Vec<Stay> = units
                .iter()
                .zip(&staying)
                .filter(|&(_, &count)| count > 0)
                .map(|(&(to, from, unit, _), &count)| Stay {
                    to,
                    from,
                    unit,
                    count,
                })
                .collect();
            stays.sort();
            visit(stays);
        }
        // The next count: the last unit's turns fastest.
        let mut i = units.len();
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if staying[i] < units[i].3 {
                staying[i] += 1;
                break;
            }
            staying[i] = 0;
        }
    }
}
