//! The rulebook's record format (H12): reading a whole record, writing the state's record.
//!
//! A line is the round (`G1`, `S1`, …), the steps (`/` for none), then the doubling notes and
//! the battle notes (`/` for none). The reader plays every step as it reads it, so that paths
//! (`L1>6` is 1→3→m, attack 6) are found through the spaces the mover holds at that moment;
//! the battle notes then give the winner's entries and the retreat. Slips of the rulebook's own
//! example are forgiven with a warning: a K named with the wrong load when only one K can be
//! meant, an attack written without `>`.

use super::board::{Colour, Space};
use super::moves::{Move, Stay, Unit};
use super::notation::{self, Op, Start, StepToken};
use super::rules;
use super::state::{HirthOptions, HirthState, KARVE_CAPACITY, Phase, STEPS_PER_TURN};
use crate::{Record, RecordError};

/// One item of a battle note: colour, unit, where it ends (`x`, `^` or a space name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NoteItem {
    colour: Colour,
    unit: Unit,
    end: char,
}

/// The battle notes of a line, by battle space.
type Notes = Vec<(Space, Vec<NoteItem>)>;

struct Reader<'a> {
    state: HirthState,
    moves: Vec<Move>,
    warnings: Vec<String>,
    line: usize,
    label: &'a str,
}

impl Reader<'_> {
    fn err(&self, reason: impl Into<String>) -> RecordError {
        RecordError {
            line: self.line,
            reason: format!("{}: {}", self.label, reason.into()),
        }
    }

    fn warn(&mut self, what: String) {
        self.warnings
            .push(format!("line {} ({}): {what}", self.line, self.label));
    }

    fn play(&mut self, mv: Move) -> Result<(), RecordError> {
        rules::check(&self.state, &mv).map_err(|e| {
            let text = notation::format_move(&self.state.position, &mv);
            self.err(format!("{text}: {e}"))
        })?;
        rules::play(&mut self.state, &mv, None);
        self.moves.push(mv);
        Ok(())
    }

    fn step(&mut self, token: StepToken) -> Result<(), RecordError> {
        let mut local = Vec::new();
        let mv = notation::token_to_step(&self.state.position, &token, Some(&mut local))
            .map_err(|r| self.err(r))?;
        for w in local {
            self.warn(w);
        }
        self.play(mv)
    }

    /// Plays every step of one token.
    fn token(&mut self, token: StepToken, notes: &Notes) -> Result<(), RecordError> {
        let me = self.state.position.mover;
        let mut ops = token.ops.as_slice();
        let mut unit = match token.piece {
            'H' => Unit::H,
            'L' => Unit::L,
            _ => Unit::K(token.crew),
        };
        let mut here = match token.start {
            Start::Enter => {
                self.step(StepToken {
                    ops: Vec::new(),
                    ..token.clone()
                })?;
                if let [Op::Dest { to, .. }, rest @ ..] = ops
                    && *to == me.home()
                {
                    ops = rest;
                }
                me.home()
            }
            Start::At(space) => space,
            Start::Out(space, _) => {
                self.step(StepToken {
                    ops: Vec::new(),
                    ..token.clone()
                })?;
                space
            }
            Start::Omitted => {
                let [first @ Op::Board(_), rest @ ..] = ops else {
                    return Err(self.err("a start may be omitted only before i"));
                };
                let before = self.moves.len();
                self.step(StepToken {
                    ops: vec![*first],
                    ..token.clone()
                })?;
                ops = rest;
                match self.moves.get(before) {
                    Some(Move::Board { space, .. }) => *space,
                    _ => return Err(self.err("the boarding was not read")),
                }
            }
        };
        let mut boarded = false;
        for op in ops {
            match *op {
                Op::Board(named) => {
                    if unit != Unit::H || boarded {
                        return Err(self.err("only a Hirþ standing in a space boards a Karve (i)"));
                    }
                    self.step(StepToken {
                        piece: 'H',
                        crew: 0,
                        start: Start::At(here),
                        ops: vec![Op::Board(named)],
                    })?;
                    boarded = true;
                }
                Op::Dest { to, attack } => {
                    if boarded {
                        return Err(
                            self.err("a Hirþ aboard a Karve moves with it: write the Karve's move")
                        );
                    }
                    let path = self.path(here, to, unit, notes)?;
                    let enemy = self.state.position.arrival(to) == super::moves::Arrival::Enemy;
                    if attack && !enemy {
                        self.warn(format!("{} is not held by the enemy: > ignored", to.name()));
                    }
                    for next in path {
                        let before = self.moves.len();
                        let token = StepToken {
                            piece: token.piece,
                            crew: match unit {
                                Unit::K(c) => c,
                                _ => 0,
                            },
                            start: Start::At(here),
                            ops: vec![Op::Dest {
                                to: next,
                                attack: false,
                            }],
                        };
                        self.step(token)?;
                        if let Some(Move::Go { unit: played, .. }) = self.moves.get(before) {
                            unit = *played;
                        }
                        here = next;
                    }
                }
            }
        }
        Ok(())
    }

    /// H12: the shortest path from `from` to `to` through spaces the mover holds; where
    /// shortest paths attack from different spaces, the battle notes say which.
    fn path(
        &self,
        from: Space,
        to: Space,
        unit: Unit,
        notes: &Notes,
    ) -> Result<Vec<Space>, RecordError> {
        let pos = &self.state.position;
        let mut dist = [u8::MAX; Space::COUNT];
        let mut parent = [None::<Space>; Space::COUNT];
        dist[from.index()] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(s) = queue.pop_front() {
            if s != from && (s == to || pos.arrival(s) != super::moves::Arrival::Own) {
                continue;
            }
            for n in s.neighbours() {
                if dist[n.index()] == u8::MAX {
                    dist[n.index()] = dist[s.index()] + 1;
                    parent[n.index()] = Some(s);
                    queue.push_back(n);
                }
            }
        }
        if dist[to.index()] == u8::MAX || to == from {
            return Err(self.err(format!(
                "no way from {} to {} through spaces the mover holds",
                from.name(),
                to.name()
            )));
        }
        let passable = |s: Space| s == from || pos.arrival(s) == super::moves::Arrival::Own;
        let candidates: Vec<Space> = to
            .neighbours()
            .filter(|&n| {
                dist[n.index()] != u8::MAX && dist[n.index()] + 1 == dist[to.index()] && passable(n)
            })
            .collect();
        let mut last = candidates[0];
        if candidates.len() > 1 {
            let letter = match unit {
                Unit::H => 'H',
                Unit::L => 'L',
                Unit::K(_) => 'K',
            };
            let noted = notes
                .iter()
                .filter(|(b, _)| *b == to)
                .flat_map(|(_, items)| items)
                .find(|it| {
                    it.colour == pos.mover
                        && unit_letter(it.unit) == letter
                        && candidates.iter().any(|c| c.name() == it.end)
                });
            if let Some(item) = noted {
                last = Space::from_name(item.end).expect("a candidate's name");
            }
        }
        // The spaces after `from`, in order.
        let mut path = vec![to];
        let mut s = last;
        while s != from {
            path.push(s);
            s = parent[s.index()].expect("on the search tree");
        }
        path.reverse();
        Ok(path)
    }

    /// The winner's entries and the retreat, from the battle notes; then the line is done.
    fn end_turn(&mut self, notes: &Notes) -> Result<(), RecordError> {
        let pos = &self.state.position;
        let me = pos.mover;
        let legal = super::limit::legal_entry_choices(pos);
        let won: Vec<Space> = super::battle::battles(pos)
            .iter()
            .filter(|b| b.attacker_wins)
            .map(|b| b.space)
            .collect();
        let mut stays: Vec<Stay> = Vec::new();
        for &b in &won {
            let units = super::battle::attacking_units(pos, b);
            for (_, items) in notes.iter().filter(|(s, _)| *s == b) {
                for it in items
                    .iter()
                    .filter(|it| it.colour == me && it.end != b.name() && it.end != 'x')
                {
                    let from = if it.end == '^' {
                        None
                    } else {
                        Space::from_name(it.end)
                    };
                    let found = units
                        .iter()
                        .find(|u| u.0 == from && u.1 == it.unit)
                        .or_else(|| {
                            units
                                .iter()
                                .find(|u| u.0 == from && unit_letter(u.1) == unit_letter(it.unit))
                        });
                    let Some(&(from, unit, _)) = found else {
                        return Err(self.err(format!(
                            "the notes of battle {} name an attacker that did not attack",
                            b.name()
                        )));
                    };
                    match stays
                        .iter_mut()
                        .find(|s| s.to == b && s.from == from && s.unit == unit)
                    {
                        Some(s) => s.count += 1,
                        None => stays.push(Stay {
                            to: b,
                            from,
                            unit,
                            count: 1,
                        }),
                    }
                }
            }
        }
        stays.sort();
        // H12 [I]: battles whose notes name the mover's pieces name its entries; those must be
        // allowed. Only the battles left unnamed (every attacker enters) may be mended.
        let named: Vec<Space> = won
            .iter()
            .copied()
            .filter(|&b| {
                notes
                    .iter()
                    .any(|(s, items)| *s == b && items.iter().any(|it| it.colour == me))
            })
            .collect();
        let of_named = |choice: &[Stay]| -> Vec<Stay> {
            choice
                .iter()
                .copied()
                .filter(|s| named.contains(&s.to))
                .collect()
        };
        let end = if legal.contains(&stays) {
            stays
        } else if let Some(first) = legal.iter().find(|c| of_named(c) == of_named(&stays)) {
            let first = first.clone();
            self.warn(
                "letting every attacker enter breaks the Karve limit: took the first allowed entries"
                    .into(),
            );
            first
        } else if !named.is_empty() && !legal.is_empty() {
            let (rule, why) = match super::battle::stays_fit(pos, &won, &stays) {
                Err(reason) => ("H6", reason),
                Ok(()) => (
                    "H8",
                    "a space other than a home would hold more than one Karve".to_string(),
                ),
            };
            return Err(self.err(format!(
                "the battle notes name entries the rules forbid ({rule}): {why}"
            )));
        } else {
            return Err(self.err("the movement phase cannot end here (H8)"));
        };
        self.play(Move::End { stays: end })?;
        if let Phase::Retreat { from } = self.state.phase {
            let foe = me.other();
            let to = notes
                .iter()
                .filter(|(s, _)| *s == from)
                .flat_map(|(_, items)| items)
                .find(|it| it.colour == foe && it.unit == Unit::L)
                .and_then(|it| Space::from_name(it.end));
            match to {
                Some(to) => self.play(Move::Retreat(to))?,
                None => {
                    return Err(self.err(format!(
                        "the notes do not say where the Lofðungr on {} retreats",
                        from.name()
                    )));
                }
            }
        }
        Ok(())
    }
}

fn unit_letter(unit: Unit) -> char {
    match unit {
        Unit::H => 'H',
        Unit::L => 'L',
        Unit::K(_) => 'K',
    }
}

/// Reads the battle notes from `>` on: `>6SL8GH6GLm`.
fn read_notes(chars: &[char], mut i: usize) -> Result<Notes, String> {
    let mut notes: Notes = Vec::new();
    while i < chars.len() {
        match chars[i] {
            c if c.is_whitespace() || c == '/' => i += 1,
            '>' => {
                let space = chars
                    .get(i + 1)
                    .and_then(|&c| Space::from_name(c))
                    .ok_or("> must be followed by a space")?;
                notes.push((space, Vec::new()));
                i += 2;
            }
            c => {
                let colour = Colour::from_letter(c)
                    .ok_or_else(|| format!("unexpected {c:?} in the battle notes"))?;
                let (_, items) = notes.last_mut().ok_or("a battle note starts with >")?;
                let unit = match chars.get(i + 1) {
                    Some('H') => Unit::H,
                    Some('L') => Unit::L,
                    Some('K') => {
                        let mut crew = 0;
                        while chars.get(i + 2 + crew) == Some(&'i') {
                            crew += 1;
                        }
                        if crew > KARVE_CAPACITY as usize {
                            return Err("a Karve holds at most 4 Hirþ (H3)".into());
                        }
                        i += crew;
                        Unit::K(crew as u8)
                    }
                    _ => {
                        return Err(
                            "a battle item is G or S, then H, K… or L, then where it ends".into(),
                        );
                    }
                };
                let end = *chars
                    .get(i + 2)
                    .ok_or("a battle item ends with a space, ^ or x")?;
                if end != '^' && end != 'x' && Space::from_name(end).is_none() {
                    return Err(format!("{end:?} is not a space, ^ or x"));
                }
                items.push(NoteItem { colour, unit, end });
                i += 3;
            }
        }
    }
    Ok(notes)
}

/// Reads a whole record (H12), playing it from the start of a match with `options`.
pub fn read_record(options: &HirthOptions, text: &str) -> Result<Record<Move>, RecordError> {
    let mut reader = Reader {
        state: HirthState::new(options.clone()),
        moves: Vec::new(),
        warnings: Vec::new(),
        line: 0,
        label: "",
    };
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        reader.line = n + 1;
        let (label, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        reader.label = label;
        let colour = label.chars().next().and_then(Colour::from_letter);
        let round: Option<u32> = label.get(1..).and_then(|r| r.parse().ok());
        let (Some(colour), Some(round)) = (colour, round) else {
            return Err(reader.err("a line starts with the round, G1, S1, G2, …"));
        };
        if reader.state.phase == Phase::Over {
            return Err(reader.err("the match is already over"));
        }
        if colour != reader.state.position.mover {
            return Err(reader.err(format!(
                "it is {}'s turn",
                reader.state.position.mover.word()
            )));
        }
        if round != reader.state.round {
            reader.warn(format!(
                "round {round} read as round {}",
                reader.state.round
            ));
        }
        let chars: Vec<char> = rest.chars().collect();
        let notes_at = notes_start(&chars);
        let notes = read_notes(&chars, notes_at).map_err(|r| reader.err(r))?;
        let mut i = 0;
        let mut game_over = false;
        while i < notes_at {
            match chars[i] {
                c if c.is_whitespace() || c == '/' => i += 1,
                'H' | 'K' | 'L' => {
                    let token = notation::read_token(&chars, &mut i).map_err(|r| reader.err(r))?;
                    reader.token(token, &notes)?;
                }
                c => {
                    let who = Colour::from_letter(c);
                    let what = chars.get(i + 1).copied();
                    let mv = match (who, what) {
                        (Some(w), Some('d' | 't')) if w == colour => Move::Offer,
                        (Some(w), Some('a')) if w != colour => Move::Accept,
                        (Some(w), Some('g')) if w != colour => Move::GiveUp,
                        _ => {
                            return Err(reader.err(format!(
                                "cannot read {:?}",
                                chars[i..].iter().collect::<String>()
                            )));
                        }
                    };
                    let give_up = mv == Move::GiveUp;
                    reader.play(mv)?;
                    i += 2;
                    if give_up {
                        game_over = true;
                        break;
                    }
                }
            }
        }
        if !game_over {
            reader.end_turn(&notes)?;
        }
    }
    Ok(Record {
        moves: reader.moves,
        warnings: reader.warnings,
    })
}

/// Checks the H12 syntax of a line after its round label, without playing it: the steps (`/`
/// for none), the doubling notes, the battle notes.
pub fn check_line(rest: &str) -> Result<(), String> {
    let chars: Vec<char> = rest.chars().collect();
    let at = notes_start(&chars);
    read_notes(&chars, at)?;
    let mut i = 0;
    while i < at {
        match chars[i] {
            ' ' | '/' => i += 1,
            'H' | 'K' | 'L' => {
                notation::read_token(&chars, &mut i)?;
            }
            c if Colour::from_letter(c).is_some()
                && matches!(chars.get(i + 1), Some('d' | 't' | 'a' | 'g')) =>
            {
                i += 2
            }
            c => return Err(format!("unexpected {c:?} (H12)")),
        }
    }
    Ok(())
}

/// The number of H12 step tokens written one after another (a turn's log), at most five.
pub fn count_steps(text: &str) -> Result<usize, String> {
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut count) = (0, 0);
    while i < chars.len() {
        notation::read_token(&chars, &mut i)?;
        count += 1;
        if count > STEPS_PER_TURN as usize {
            return Err("more than five steps in a turn (H3)".into());
        }
    }
    Ok(count)
}

/// Checks the H12 syntax of battle notes (`>6SL8GH6GLm`).
pub fn check_notes(text: &str) -> Result<(), String> {
    let chars: Vec<char> = text.chars().collect();
    read_notes(&chars, 0).map(|_| ())
}

/// Where the battle notes start: the first `>` that begins a token (not inside a step).
fn notes_start(chars: &[char]) -> usize {
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '>' => return i,
            'H' | 'K' | 'L' => {
                let mut j = i;
                if notation::read_token(chars, &mut j).is_err() || j == i {
                    return chars.len();
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    chars.len()
}

/// The record of the finished turns of the match (one line per turn, a blank line between
/// games); the turn under way is not written.
pub fn write_record(state: &HirthState) -> String {
    state.record.clone()
}
