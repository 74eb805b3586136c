//! Battles (H5), losing and winning them (H6), and the entries the winner chooses.

use super::board::{Colour, Space};
use super::moves::{Stay, Unit};
use super::state::{Group, Karve, Position};

/// The outcome of one battle, fully determined by the position (H5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battle {
    pub space: Space,
    pub attack: u32,
    pub defence: u32,
    pub attacker_wins: bool,
}

/// H5: every attacked space is one battle; the winner by power, ties by the lone Lofðungr,
/// otherwise to the defender.
pub fn battles(pos: &Position) -> Vec<Battle> {
    let mut out: Vec<Battle> = Vec::new();
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
pub fn attacking_units(pos: &Position, to: Space) -> Vec<(Option<Space>, Unit, u8)> {
    let mut out = Vec::new();
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
    pub battles: Vec<Battle>,
    /// The space where the opponent's Lofðungr lost as defender: it must retreat (H7).
    pub beaten_l: Option<Space>,
    /// H12 battle notes, one group per battle; `?` stands for the retreat space.
    pub notes: Vec<String>,
}

/// Fights every battle and moves the pieces (H6), with the winner's `stays`; frees every piece
/// and clears the step count. The beaten defending Lofðungr is taken off the board, to be put
/// back by the retreat (H7). `stays` must fit the attackers (see `stays_fit`).
pub fn resolve(pos: &mut Position, stays: &[Stay]) -> Aftermath {
    let me = pos.mover;
    let foe = me.other();
    let battles = battles(pos);
    let lines = std::mem::take(&mut pos.lines);
    let mut after = Aftermath::default();
    for battle in &battles {
        let b = battle.space;
        let mut note = format!(">{}", b.name());
        let defenders = std::mem::take(pos.board.group_mut(b, foe));
        let attackers: Vec<_> = lines.iter().filter(|l| l.to == b).collect();
        if battle.attacker_wins {
            // Defenders lose: loose H out of the game, K and crew to reserve, L retreats.
            *pos.removed.get_mut(foe) += defenders.loose_h();
            if defenders.has_l() {
                after.beaten_l = Some(b);
                note.push_str(&format!("{}L?", foe.letter()));
            }
            push_karves(&mut note, foe, &defenders.karves, '^');
            push_h(&mut note, foe, defenders.loose_h(), 'x');
            let res = pos.reserve.get_mut(foe);
            for k in &defenders.karves {
                res.k += 1;
                res.h += k.crew;
            }
            for line in attackers {
                let mut staying = Group::default();
                let mut entering = line.pieces.clone();
                for s in stays.iter().filter(|s| s.to == b && s.from == line.from) {
                    for _ in 0..s.count {
                        move_unit(&mut entering, &mut staying, s.unit);
                    }
                }
                let stay_mark = line.from.map_or('^', Space::name);
                if entering.has_l() {
                    note.push_str(&format!("{}L{}", me.letter(), b.name()));
                }
                if staying.has_l() {
                    note.push_str(&format!("{}L{}", me.letter(), stay_mark));
                }
                push_karves(&mut note, me, &entering.karves, b.name());
                push_karves(&mut note, me, &staying.karves, stay_mark);
                push_h(&mut note, me, entering.loose_h(), b.name());
                push_h(&mut note, me, staying.loose_h(), stay_mark);
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
                note.push_str(&format!("{}L{}", foe.letter(), b.name()));
            }
            push_karves(&mut note, foe, &defenders.karves, b.name());
            push_h(&mut note, foe, defenders.loose_h(), b.name());
            *pos.board.group_mut(b, foe) = defenders;
            for line in attackers {
                let g = &line.pieces;
                if g.has_l() {
                    let from = line.from.expect("an L never attacks from off the board");
                    note.push_str(&format!("{}L{}", me.letter(), from.name()));
                    pos.board.group_mut(from, me).l = true;
                }
                push_karves(&mut note, me, &g.karves, '^');
                push_h(&mut note, me, g.loose_h(), 'x');
                *pos.removed.get_mut(me) += g.loose_h();
                let res = pos.reserve.get_mut(me);
                for k in &g.karves {
                    res.k += 1;
                    res.h += k.crew;
                }
            }
        }
        after.notes.push(note);
    }
    for cell in &mut pos.board.0 {
        cell.gull.unstop();
        cell.silfr.unstop();
    }
    pos.steps = 0;
    after.battles = battles;
    after
}

fn push_karves(note: &mut String, colour: Colour, karves: &[Karve], mark: char) {
    for k in karves {
        note.push(colour.letter());
        note.push('K');
        note.extend(std::iter::repeat_n('i', k.crew as usize));
        note.push(mark);
    }
}

fn push_h(note: &mut String, colour: Colour, n: u8, mark: char) {
    for _ in 0..n {
        note.push(colour.letter());
        note.push('H');
        note.push(mark);
    }
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

/// Every choice of entries for the won battles (sorted `stays`, no zero counts).
pub fn entry_choices(pos: &Position, won: &[Space]) -> Vec<Vec<Stay>> {
    let mut choices: Vec<Vec<Stay>> = vec![Vec::new()];
    for &b in won {
        let units = attacking_units(pos, b);
        let total: u32 = units.iter().map(|u| u.2 as u32).sum();
        let mut per_battle: Vec<(Vec<Stay>, u32)> = vec![(Vec::new(), 0)];
        for &(from, unit, n) in &units {
            let mut next = Vec::new();
            for (stays, count) in &per_battle {
                for c in 0..=n {
                    let mut s = stays.clone();
                    if c > 0 {
                        s.push(Stay {
                            to: b,
                            from,
                            unit,
                            count: c,
                        });
                    }
                    next.push((s, count + c as u32));
                }
            }
            per_battle = next;
        }
        per_battle.retain(|(_, count)| *count < total);
        choices = choices
            .iter()
            .flat_map(|c| {
                per_battle.iter().map(move |(s, _)| {
                    let mut all = c.clone();
                    all.extend(s.iter().copied());
                    all
                })
            })
            .collect();
    }
    for c in &mut choices {
        c.sort();
    }
    choices
}
