//! The move notation: one step or decision per move, built on the H12 step tokens.
//!
//! | move | notation | |
//! |---|---|---|
//! | enter | `He`, `Ke`; `He>0` / `He>9` when the enemy holds the home space | |
//! | move | `L13`, `H3m`, `Kii03` (a K with its crew); `L1>3` when it attacks | |
//! | board | `H3i`; `H3i[Kii]` names the K (by its crew, `*` if stopped) when several differ | |
//! | disembark | `Hr3`; `Hr3[Kii]` names the K when several differ | |
//! | end movement | `end`, or `end >6Lm` / `end >0H^`: per won battle, the attackers that stay where they attacked from (`^`: off the board); all others enter | |
//! | Penningr | `offer`, `accept`, `give-up` | |
//! | retreat | `retreat 8` | |

use super::board::Space;
use super::moves::{Arrival, Move, Stay, Unit};
use super::state::{KARVE_CAPACITY, Karve, Position};
use crate::MoveError;

/// How one step token starts (H12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// `e`: enters the board.
    Enter,
    /// A space: the piece stands there.
    At(Space),
    /// `r#`: an H leaves the K on that space (optionally named by its crew).
    Out(Space, Option<Karve>),
    /// Omitted before `i`.
    Omitted,
}

/// What follows the start of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `i`: boards a K where the piece is (optionally named).
    Board(Option<Karve>),
    /// A destination, `>` marking an attack.
    Dest { to: Space, attack: bool },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepToken {
    pub piece: char,
    /// For a K: the `i`s after it.
    pub crew: u8,
    pub start: Start,
    pub ops: Vec<Op>,
}

fn space_at(chars: &[char], i: usize) -> Option<Space> {
    chars.get(i).and_then(|&c| Space::from_name(c))
}

/// `[Kii*]`: a K named by its crew, `*` when stopped.
fn qualifier(chars: &[char], i: &mut usize) -> Result<Option<Karve>, String> {
    if chars.get(*i) != Some(&'[') {
        return Ok(None);
    }
    *i += 1;
    if chars.get(*i) != Some(&'K') {
        return Err("a Karve is named as [K], [Ki], … [Kiiii]".into());
    }
    *i += 1;
    let crew = count_crew(chars, i)?;
    let stopped = chars.get(*i) == Some(&'*');
    if stopped {
        *i += 1;
    }
    if chars.get(*i) != Some(&']') {
        return Err("missing ] after the Karve's name".into());
    }
    *i += 1;
    Ok(Some(Karve { crew, stopped }))
}

/// Reads one step token at `chars[*i]`, leaving `*i` after it.
/// The `i`s after a K: its crew, at most four (H3).
fn count_crew(chars: &[char], i: &mut usize) -> Result<u8, String> {
    let mut crew = 0u8;
    while chars.get(*i) == Some(&'i') {
        if crew == KARVE_CAPACITY {
            return Err("a Karve holds at most 4 Hirþ: at most four i after K (H3)".into());
        }
        crew += 1;
        *i += 1;
    }
    Ok(crew)
}

pub fn read_token(chars: &[char], i: &mut usize) -> Result<StepToken, String> {
    let piece = match chars.get(*i) {
        Some(&c @ ('H' | 'K' | 'L')) => c,
        _ => return Err("a step starts with H, K or L".into()),
    };
    *i += 1;
    let crew = if piece == 'K' {
        count_crew(chars, i)?
    } else {
        0
    };
    let start = match chars.get(*i) {
        Some('e') => {
            *i += 1;
            Start::Enter
        }
        Some('r') if piece == 'H' => {
            let space = space_at(chars, *i + 1).ok_or("r must be followed by a space")?;
            *i += 2;
            Start::Out(space, qualifier(chars, i)?)
        }
        Some('i') if piece == 'H' => Start::Omitted,
        _ => match space_at(chars, *i) {
            Some(space) => {
                *i += 1;
                Start::At(space)
            }
            None => return Err("the piece must be followed by e, r#, i or a space".into()),
        },
    };
    let mut ops = Vec::new();
    loop {
        match chars.get(*i) {
            Some('i') if piece == 'H' => {
                *i += 1;
                ops.push(Op::Board(qualifier(chars, i)?));
            }
            Some('>') => {
                let to = space_at(chars, *i + 1).ok_or("> must be followed by a space")?;
                *i += 2;
                ops.push(Op::Dest { to, attack: true });
            }
            Some(&c) if Space::from_name(c).is_some() => {
                *i += 1;
                ops.push(Op::Dest {
                    to: Space::from_name(c).expect("checked"),
                    attack: false,
                });
            }
            _ => break,
        }
    }
    Ok(StepToken {
        piece,
        crew,
        start,
        ops,
    })
}

fn unit_text(unit: Unit) -> String {
    match unit {
        Unit::H => "H".into(),
        Unit::L => "L".into(),
        Unit::K(crew) => format!("K{}", "i".repeat(crew as usize)),
    }
}

fn karve_text(k: Karve) -> String {
    format!(
        "[K{}{}]",
        "i".repeat(k.crew as usize),
        if k.stopped { "*" } else { "" }
    )
}

/// Karves an H could board on `space` (distinct kinds).
pub fn boardable(pos: &Position, space: Space) -> Vec<Karve> {
    let mut ks: Vec<Karve> = pos.board.group(space, pos.mover).karves.to_vec();
    ks.retain(|k| k.crew < KARVE_CAPACITY);
    ks.dedup();
    ks
}

/// Free Karves with crew that an H could leave on `space` (distinct kinds).
pub fn leavable(pos: &Position, space: Space) -> Vec<Karve> {
    let mut ks: Vec<Karve> = pos.board.group(space, pos.mover).karves.to_vec();
    ks.retain(|k| !k.stopped && k.crew > 0);
    ks.dedup();
    ks
}

/// Writes a step as one H12 token (never ambiguous: a K is named when several could be meant).
pub fn format_step(pos: &Position, mv: &Move) -> String {
    let attack = |to: Space| {
        if pos.arrival(to) == Arrival::Enemy {
            ">"
        } else {
            ""
        }
    };
    match *mv {
        Move::Enter { karve } => {
            let home = pos.mover.home();
            let piece = if karve { 'K' } else { 'H' };
            match pos.arrival(home) {
                Arrival::Enemy => format!("{piece}e>{}", home.name()),
                _ => format!("{piece}e"),
            }
        }
        Move::Go { from, unit, to } => {
            format!(
                "{}{}{}{}",
                unit_text(unit),
                from.name(),
                attack(to),
                to.name()
            )
        }
        Move::Board { space, karve } => {
            let named = if boardable(pos, space).len() > 1 {
                karve_text(karve)
            } else {
                String::new()
            };
            format!("H{}i{named}", space.name())
        }
        Move::Disembark { space, crew } => {
            let named = if leavable(pos, space).len() > 1 {
                karve_text(Karve {
                    crew,
                    stopped: false,
                })
            } else {
                String::new()
            };
            format!("Hr{}{named}", space.name())
        }
        _ => String::new(),
    }
}

pub fn format_move(pos: &Position, mv: &Move) -> String {
    match mv {
        Move::End { stays } => {
            let mut text = "end".to_string();
            let mut last: Option<Space> = None;
            for s in stays {
                if last != Some(s.to) {
                    text.push_str(&format!(" >{}", s.to.name()));
                    last = Some(s.to);
                }
                let mark = s.from.map_or('^', Space::name);
                for _ in 0..s.count {
                    text.push_str(&unit_text(s.unit));
                    text.push(mark);
                }
            }
            text
        }
        Move::Offer => "offer".into(),
        Move::Accept => "accept".into(),
        Move::GiveUp => "give-up".into(),
        Move::Retreat(to) => format!("retreat {}", to.name()),
        step => format_step(pos, step),
    }
}

/// Picks the K meant by a token: the named one, or the only kind; `warnings` makes the reader
/// lenient (H12 slips): it then takes the first candidate and says so.
pub fn pick_karve(
    candidates: &[Karve],
    named: Option<Karve>,
    what: &str,
    warnings: Option<&mut Vec<String>>,
) -> Result<Karve, String> {
    if let Some(k) = named {
        return if candidates.contains(&k) {
            Ok(k)
        } else {
            Err(format!("there is no such Karve {what}"))
        };
    }
    match (candidates, warnings) {
        ([], _) => Err(format!("there is no Karve {what}")),
        ([only], _) => Ok(*only),
        ([first, ..], Some(w)) => {
            w.push(format!(
                "several Karves {what}: took the one holding {}",
                first.crew
            ));
            Ok(*first)
        }
        _ => Err(format!(
            "several Karves {what}: name one, e.g. {}",
            karve_text(candidates[0])
        )),
    }
}

/// Reads one move in this position.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let bad = |reason: &str| MoveError::unreadable(text, reason);
    let t = text.trim();
    match t {
        "offer" => return Ok(Move::Offer),
        "accept" => return Ok(Move::Accept),
        "give-up" => return Ok(Move::GiveUp),
        _ => {}
    }
    if let Some(rest) = t.strip_prefix("retreat") {
        let mut chars = rest.trim().chars();
        return match (chars.next().and_then(Space::from_name), chars.next()) {
            (Some(s), None) => Ok(Move::Retreat(s)),
            _ => Err(bad("retreat takes one space, e.g. retreat 8")),
        };
    }
    if let Some(rest) = t.strip_prefix("end") {
        return parse_end(rest).map_err(|r| bad(&r));
    }
    let chars: Vec<char> = t.chars().collect();
    let mut i = 0;
    let token = read_token(&chars, &mut i).map_err(|r| bad(&r))?;
    if i != chars.len() {
        return Err(bad("a move is one step; write the steps one by one"));
    }
    let mv = token_to_step(pos, &token, None).map_err(|r| bad(&r))?;
    attack_claim_error(pos, &token, &mv).map_or(Ok(mv), Err)
}

/// H4: a `>` marks an attack; on a step that attacks nothing the move is refused (the record
/// reader forgives it with a warning instead). Steps with an error of their own are left to it.
fn attack_claim_error(pos: &Position, token: &StepToken, mv: &Move) -> Option<MoveError> {
    let claimed = token
        .ops
        .iter()
        .any(|op| matches!(op, Op::Dest { attack: true, .. }));
    if !claimed || pos.step_error(mv).is_some() {
        return None;
    }
    let to = match *mv {
        Move::Go { to, .. } => to,
        Move::Enter { .. } => pos.mover.home(),
        _ => return None,
    };
    (pos.arrival(to) != Arrival::Enemy).then(|| {
        MoveError::illegal(
            "H4",
            format!(
                "this step attacks nothing: {} is not held by the enemy (write it without >)",
                to.name()
            ),
        )
    })
}

/// `end`, then per battle `>#` and the staying attackers (`Hm`, `Kii3`, `L5`, `H^`).
fn parse_end(rest: &str) -> Result<Move, String> {
    let mut stays: Vec<Stay> = Vec::new();
    for group in rest.split_whitespace() {
        let chars: Vec<char> = group.chars().collect();
        if chars.first() != Some(&'>') {
            return Err(
                "after end, each battle is written >#, then the attackers that stay".into(),
            );
        }
        let to = space_at(&chars, 1).ok_or("> must be followed by a space")?;
        let mut i = 2;
        while i < chars.len() {
            let unit = match chars[i] {
                'H' => Unit::H,
                'L' => Unit::L,
                'K' => {
                    let mut crew = 0;
                    while chars.get(i + 1) == Some(&'i') {
                        crew += 1;
                        i += 1;
                    }
                    Unit::K(crew)
                }
                _ => return Err("a staying attacker is H, L or K…, then where it stays".into()),
            };
            let from = match chars.get(i + 1) {
                Some('^') => None,
                Some(&c) => {
                    Some(Space::from_name(c).ok_or("a staying attacker needs its space or ^")?)
                }
                None => return Err("a staying attacker needs its space or ^".into()),
            };
            i += 2;
            match stays
                .iter_mut()
                .find(|s| s.to == to && s.from == from && s.unit == unit)
            {
                Some(s) => s.count += 1,
                None => stays.push(Stay {
                    to,
                    from,
                    unit,
                    count: 1,
                }),
            }
        }
    }
    stays.sort();
    Ok(Move::End { stays })
}

/// Turns a token of exactly one step into that step (strict unless `warnings` is given).
pub fn token_to_step(
    pos: &Position,
    token: &StepToken,
    warnings: Option<&mut Vec<String>>,
) -> Result<Move, String> {
    let me = pos.mover;
    let unit = match token.piece {
        'H' => Unit::H,
        'L' => Unit::L,
        _ => Unit::K(token.crew),
    };
    match (token.start, token.ops.as_slice()) {
        (Start::Enter, []) | (Start::Enter, [Op::Dest { .. }]) => {
            if let [Op::Dest { to, .. }] = token.ops.as_slice()
                && *to != me.home()
            {
                return Err(
                    "an entry is a step of its own: write the move after it separately".into(),
                );
            }
            match unit {
                Unit::L => Err("the Lofðungr never enters from reserve".into()),
                Unit::K(crew) if crew > 0 => Err("a Karve enters empty (Ke)".into()),
                _ => Ok(Move::Enter {
                    karve: unit != Unit::H,
                }),
            }
        }
        (Start::At(from), [Op::Dest { to, .. }]) => {
            let unit = match (unit, warnings) {
                (Unit::K(crew), Some(w)) => {
                    let free: Vec<Karve> = pos
                        .board
                        .group(from, me)
                        .karves
                        .iter()
                        .copied()
                        .filter(|k| !k.stopped)
                        .collect();
                    if free.iter().any(|k| k.crew == crew) {
                        Unit::K(crew)
                    } else {
                        let mut kinds = free.clone();
                        kinds.dedup();
                        match kinds.as_slice() {
                            [only] => {
                                w.push(format!(
                                    "the Karve on {} holds {} Hirþ, not {crew}",
                                    from.name(),
                                    only.crew
                                ));
                                Unit::K(only.crew)
                            }
                            _ => Unit::K(crew),
                        }
                    }
                }
                (unit, _) => unit,
            };
            Ok(Move::Go {
                from,
                unit,
                to: *to,
            })
        }
        (Start::At(space), [Op::Board(named)]) if unit == Unit::H => {
            let mut candidates = boardable(pos, space);
            if candidates.is_empty() {
                // Only full Karves: name one, so that the rules say why it cannot be boarded (H3).
                candidates = pos.board.group(space, me).karves.to_vec();
                candidates.dedup();
            }
            let karve = pick_karve(
                &candidates,
                *named,
                &format!("to board on {}", space.name()),
                warnings,
            )?;
            Ok(Move::Board { space, karve })
        }
        (Start::Omitted, [Op::Board(named)]) => {
            let spaces: Vec<Space> = Space::all()
                .filter(|&s| pos.board.group(s, me).h > 0 && !boardable(pos, s).is_empty())
                .collect();
            match spaces.as_slice() {
                [space] => {
                    let karve = pick_karve(
                        &boardable(pos, *space),
                        *named,
                        &format!("to board on {}", space.name()),
                        warnings,
                    )?;
                    Ok(Move::Board {
                        space: *space,
                        karve,
                    })
                }
                [] => Err("no free Hirþ stands with a Karve it could board".into()),
                _ => Err(
                    "several spaces allow the boarding: write where the Hirþ stands (H3i)".into(),
                ),
            }
        }
        (Start::Out(space, named), []) => {
            let mut candidates = leavable(pos, space);
            if candidates.is_empty() {
                // Only stopped Karves: name one, so that the rules say why it cannot be left (H4).
                candidates = boardable(pos, space)
                    .into_iter()
                    .filter(|k| k.crew > 0)
                    .collect();
                candidates.dedup_by_key(|k| k.crew);
            }
            let karve = pick_karve(
                &candidates,
                named,
                &format!("to leave on {}", space.name()),
                warnings,
            )?;
            Ok(Move::Disembark {
                space,
                crew: karve.crew,
            })
        }
        _ => {
            Err("a move is one step: enter (He), move (L13), board (H3i) or disembark (Hr3)".into())
        }
    }
}
