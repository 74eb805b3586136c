//! A table's clock, as a value: how long each seat may take ([`Pace`]: hours per move, or a
//! bank with an increment), whether weekends count, what an expired clock does, and each
//! seat's vacation allowance; and the times a clock keeps between moves ([`ClockTimes`]: when
//! the turn started, each seat's bank, each seat's vacation). Pure functions of the times
//! given: no I/O, no clock of its own (every caller passes `now`).
//!
//! One function says when the awaited move is due, [`Clock::deadline`]: a move, a vacation
//! started or ended, and anything that rewinds a table (a takeback) store what it returns.
//!
//! How the paused times combine: the turn's allowance runs on counted time only (a weekday's,
//! when weekends are paused; any time else), from the turn's start; the time the awaited seat
//! spent on vacation during the turn is then added, as wall time, to the end found so. The
//! same rule gives the time a move used: the counted time from the turn's start to the move,
//! less the vacation taken meanwhile.

use serde::{Deserialize, Serialize};

use super::{DAY, Millis};
use moot_games::Seat;

/// One hour, in [`Millis`].
pub const HOUR: Millis = 60 * 60 * 1000;

/// The most hours a move may take, a bank may start with, grow by or hold: 60 days.
pub const MAX_HOURS: u32 = 1440;

/// The most vacation days a seat has per year of a table.
pub const MAX_VACATION_DAYS: u32 = 60;

/// A vacation allowance is given again each of these after the table started.
pub const VACATION_YEAR: Millis = 365 * DAY;

/// How long each seat may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pace {
    /// Each move may take `hours`, however quick the seat's earlier moves were.
    PerMove {
        /// 1 ..= [`MAX_HOURS`].
        hours: u32,
    },
    /// Fischer's bank, for correspondence: each seat's bank starts at `initial_hours`, runs
    /// down while its move is awaited, and gains `increment_hours` after each of its moves,
    /// never holding more than `max_hours`.
    Bank {
        /// The bank each seat starts with.
        initial_hours: u32,
        /// Added to the seat's bank after each of its moves.
        increment_hours: u32,
        /// The most a bank holds.
        max_hours: u32,
    },
}

/// What an expired clock does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnExpiry {
    /// The game ends: the waiting seat wins on time (or the table is aborted when no one has
    /// moved), and a late move is refused.
    #[default]
    Ends,
    /// The waiting seat may claim the win; until it does, a late move is still played.
    Claim,
}

/// A table's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// How long each seat may take.
    #[serde(flatten)]
    pub pace: Pace,
    /// Whether Saturdays and Sundays (UTC) stop the clock.
    #[serde(default)]
    pub weekends_paused: bool,
    /// What an expired clock does.
    #[serde(default)]
    pub on_expiry: OnExpiry,
    /// Each seat's vacation allowance, in days, for each [`VACATION_YEAR`] of the table.
    #[serde(default)]
    pub vacation_days: u32,
}

/// The times a clock keeps between changes of its table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockTimes {
    /// When the awaited move's turn started (the last move, or the table's start).
    pub turn_started: Millis,
    /// Each seat's times, the first seat's first.
    pub seats: [SeatTimes; 2],
}

/// One seat's times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatTimes {
    /// The seat's bank as its turn starts (a bank clock's; 0 for hours per move).
    #[serde(default)]
    pub bank: Millis,
    /// The vacation the seat took before its current one, all told.
    #[serde(default)]
    pub vacation_used: Millis,
    /// When the seat's current vacation started, if it is on one (it ends by itself at
    /// [`Clock::vacation_until`]).
    #[serde(default)]
    pub vacation_since: Option<Millis>,
    /// The vacation the seat took, and ended, during its current turn: its deadline moves on
    /// by as much.
    #[serde(default)]
    pub paused: Millis,
}

/// Why a vacation cannot start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VacationRefused {
    /// The clock gives no vacation.
    NoAllowance,
    /// The seat is on vacation already.
    Already,
    /// The seat's allowance is used up (until the table's next year).
    UsedUp,
}

impl Clock {
    /// The clock `days_per_move` stands for: that many days per move, the waiting seat
    /// claiming a win once a deadline passed (how tables kept time before clocks had kinds).
    pub fn days_per_move(days: u32) -> Clock {
        Clock {
            pace: Pace::PerMove { hours: days * 24 },
            weekends_paused: false,
            on_expiry: OnExpiry::Claim,
            vacation_days: 0,
        }
    }

    /// The days per move this clock is the shorthand of, if it is one (see
    /// [`Clock::days_per_move`]).
    pub fn as_days_per_move(&self) -> Option<u32> {
        match self.pace {
            Pace::PerMove { hours } if hours.is_multiple_of(24) => {
                let days = hours / 24;
                (*self == Clock::days_per_move(days)).then_some(days)
            }
            _ => None,
        }
    }

    /// Whether an expired clock ends the game.
    pub fn ends_on_expiry(&self) -> bool {
        self.on_expiry == OnExpiry::Ends
    }

    /// The times of a table whose clock starts at `now`: the first turn starts, each bank
    /// full to its start.
    pub fn start(&self, now: Millis) -> ClockTimes {
        let bank = match self.pace {
            Pace::PerMove { .. } => 0,
            Pace::Bank { initial_hours, .. } => i64::from(initial_hours) * HOUR,
        };
        ClockTimes {
            turn_started: now,
            seats: [SeatTimes {
                bank,
                ..SeatTimes::default()
            }; 2],
        }
    }

    /// The time the awaited seat's turn allows, counted time: hours per move, or its bank.
    fn allowance(&self, times: &ClockTimes, to_act: Seat) -> Millis {
        match self.pace {
            Pace::PerMove { hours } => i64::from(hours) * HOUR,
            Pace::Bank { .. } => times.seats[to_act.index()].bank,
        }
    }

    /// When the move of `to_act` is due: the turn's allowance run on counted time from the
    /// turn's start, then moved on by the seat's vacation during the turn (a current vacation
    /// counted to its end). The one place a deadline is computed.
    pub fn deadline(&self, times: &ClockTimes, to_act: Seat, created: Millis) -> Millis {
        let run = self.counted_end(times.turn_started, self.allowance(times, to_act));
        let seat = &times.seats[to_act.index()];
        let current = match seat.vacation_since {
            Some(since) => {
                let until = self.vacation_until(seat, since, created);
                (until - since.max(times.turn_started)).max(0)
            }
            None => 0,
        };
        run + seat.paused + current
    }

    /// When the deadline of `to_act` comes near: four fifths of the time from its turn's
    /// start to it gone.
    pub fn near(&self, times: &ClockTimes, to_act: Seat, created: Millis) -> Millis {
        let deadline = self.deadline(times, to_act, created);
        deadline - (deadline - times.turn_started) / 5
    }

    /// The counted time the awaited seat used of its turn by `now`: counted time since the
    /// turn's start, less its vacation meanwhile.
    pub fn used(&self, times: &ClockTimes, to_act: Seat, now: Millis, created: Millis) -> Millis {
        let seat = &times.seats[to_act.index()];
        let on_vacation = match seat.vacation_since {
            Some(since) => {
                let until = self.vacation_until(seat, since, created).min(now);
                (until - since.max(times.turn_started)).max(0)
            }
            None => 0,
        };
        let paused = seat.paused + on_vacation;
        self.counted(times.turn_started, (now - paused).max(times.turn_started))
    }

    /// The times after `mover` moved at `now`: its bank charged with the time it used and
    /// credited with the increment (never below nothing, never above the maximum), its
    /// vacation over if it was on one, and the next turn started.
    pub fn after_move(
        &self,
        times: &ClockTimes,
        mover: Seat,
        now: Millis,
        created: Millis,
    ) -> ClockTimes {
        let used = self.used(times, mover, now, created);
        let mut next = *times;
        if let Pace::Bank {
            increment_hours,
            max_hours,
            ..
        } = self.pace
        {
            let bank = &mut next.seats[mover.index()].bank;
            *bank = ((*bank - used).max(0) + i64::from(increment_hours) * HOUR)
                .min(i64::from(max_hours) * HOUR);
        }
        next = self.vacation_ended(&next, mover, None, now, created);
        next.turn_started = now;
        for seat in &mut next.seats {
            seat.paused = 0;
        }
        next
    }

    /// The times once the awaited seat's turn starts again at `now` (a move taken back): each
    /// bank as it stands, the vacation paused during the old turn forgotten.
    pub fn restarted(&self, times: &ClockTimes, now: Millis) -> ClockTimes {
        let mut next = *times;
        next.turn_started = now;
        for seat in &mut next.seats {
            seat.paused = 0;
        }
        next
    }

    /// The vacation allowance of each seat by `at`: the clock's days, once for each year of
    /// the table begun.
    pub fn vacation_allowance(&self, at: Millis, created: Millis) -> Millis {
        let years = 1 + (at - created).max(0) / VACATION_YEAR;
        i64::from(self.vacation_days) * DAY * years
    }

    /// When a vacation of `seat` started at `since` ends by itself: its allowance used up.
    pub fn vacation_until(&self, seat: &SeatTimes, since: Millis, created: Millis) -> Millis {
        since + (self.vacation_allowance(since, created) - seat.vacation_used).max(0)
    }

    /// The vacation `seat` has left at `now` (its current one counted as taken so far).
    pub fn vacation_left(&self, seat: &SeatTimes, now: Millis, created: Millis) -> Millis {
        let current = seat.vacation_since.map_or(0, |since| {
            self.vacation_until(seat, since, created).min(now) - since
        });
        (self.vacation_allowance(now, created) - seat.vacation_used - current).max(0)
    }

    /// When the current vacation of `seat` ends, if it is on one at `now`.
    pub fn on_vacation_until(
        &self,
        seat: &SeatTimes,
        now: Millis,
        created: Millis,
    ) -> Option<Millis> {
        let since = seat.vacation_since?;
        let until = self.vacation_until(seat, since, created);
        (until > now).then_some(until)
    }

    /// The times once `seat` starts a vacation at `now` (a vacation that ran out before is
    /// closed first).
    pub fn vacation_started(
        &self,
        times: &ClockTimes,
        seat: Seat,
        to_act: Option<Seat>,
        now: Millis,
        created: Millis,
    ) -> Result<ClockTimes, VacationRefused> {
        if self.vacation_days == 0 {
            return Err(VacationRefused::NoAllowance);
        }
        if self
            .on_vacation_until(&times.seats[seat.index()], now, created)
            .is_some()
        {
            return Err(VacationRefused::Already);
        }
        let mut next = self.vacation_ended(times, seat, to_act, now, created);
        let own = &mut next.seats[seat.index()];
        if self.vacation_left(own, now, created) == 0 {
            return Err(VacationRefused::UsedUp);
        }
        own.vacation_since = Some(now);
        Ok(next)
    }

    /// The times once the vacation of `seat` ends at `now`, or at its own end if that came
    /// first: the time taken counted as used, and, if the seat's move is awaited, its deadline
    /// moved on by the part of it taken during the turn. Unchanged when the seat is on no
    /// vacation.
    pub fn vacation_ended(
        &self,
        times: &ClockTimes,
        seat: Seat,
        to_act: Option<Seat>,
        now: Millis,
        created: Millis,
    ) -> ClockTimes {
        let mut next = *times;
        let own = &mut next.seats[seat.index()];
        let Some(since) = own.vacation_since else {
            return next;
        };
        let end = self.vacation_until(own, since, created).min(now).max(since);
        own.vacation_used += end - since;
        own.vacation_since = None;
        if to_act == Some(seat) {
            own.paused += (end - since.max(times.turn_started)).max(0);
        }
        next
    }

    /// The counted time in `[from, to)`: all of it, or its weekdays' when weekends are paused.
    pub fn counted(&self, from: Millis, to: Millis) -> Millis {
        if to <= from {
            return 0;
        }
        if !self.weekends_paused {
            return to - from;
        }
        let mut total = 0;
        let mut at = from;
        while at < to {
            let day_end = (at.div_euclid(DAY) + 1) * DAY;
            let end = day_end.min(to);
            if !is_weekend(at) {
                total += end - at;
            }
            at = end;
        }
        total
    }

    /// The first time at which `amount` of counted time has run since `from`: a deadline
    /// that would fall in a weekend moves on by the weekend's time when weekends are paused.
    pub fn counted_end(&self, from: Millis, amount: Millis) -> Millis {
        if !self.weekends_paused {
            return from + amount;
        }
        let mut at = from;
        let mut left = amount;
        loop {
            if is_weekend(at) {
                at = (at.div_euclid(DAY) + 1) * DAY;
                continue;
            }
            let day_end = (at.div_euclid(DAY) + 1) * DAY;
            if at + left <= day_end {
                return at + left;
            }
            left -= day_end - at;
            at = day_end;
        }
    }
}

/// Whether `at` falls on a Saturday or a Sunday, UTC (the Unix epoch was a Thursday).
pub fn is_weekend(at: Millis) -> bool {
    let weekday = (at.div_euclid(DAY) + 3).rem_euclid(7); // 0 is Monday
    weekday >= 5
}

#[cfg(test)]
mod tests;
