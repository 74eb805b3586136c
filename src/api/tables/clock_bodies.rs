//! A table's clock as the API reads and writes it ([`TableClock`]), checked into what
//! [`crate::tables::clock`] keeps, and made from it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::tables;

/// How a clock gives each seat its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// `hours` for each move.
    PerMove,
    /// A bank per seat (Fischer, for correspondence): it starts at `initial_hours`, runs down
    /// while the seat's move is awaited, and gains `increment_hours` after each of its moves,
    /// never holding more than `max_hours`.
    Bank,
}

/// What an expired clock does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClockExpiry {
    /// The game ends: the waiting seat wins on time (`ended_by: "time"`), or the table is
    /// aborted if no one has moved; a late move, resignation or claim is refused 410
    /// `time_expired`.
    #[default]
    Ends,
    /// The waiting seat may claim the win (`POST …/claim`); until it does, a late move is
    /// still played.
    Claim,
}

/// A table's clock, as sent at creation and as the table shows it. Hours are between 1 and
/// 1440 (60 days); a bank's increment may be 0, and its maximum is at least its start.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "bank", "initial_hours": 72, "increment_hours": 24,
    "max_hours": 240, "weekends_paused": true, "on_expiry": "ends", "vacation_days": 14}))]
pub struct TableClock {
    /// `per_move` or `bank`.
    pub kind: ClockKind,
    /// `per_move`: the hours each move may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 1440)]
    pub hours: Option<u32>,
    /// `bank`: each seat's bank at the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 1440)]
    pub initial_hours: Option<u32>,
    /// `bank`: added to a seat's bank after each of its moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 1440)]
    pub increment_hours: Option<u32>,
    /// `bank`: the most a bank holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 1440)]
    pub max_hours: Option<u32>,
    /// Whether Saturdays and Sundays (UTC) stop the clock: a deadline that would fall in a
    /// weekend moves on by the weekend, and a bank is not charged for it.
    #[serde(default)]
    pub weekends_paused: bool,
    /// What an expired clock does (`ends` when left out).
    #[serde(default)]
    pub on_expiry: ClockExpiry,
    /// Each seat's vacation allowance, in days (0 to 60), for each 365 days since the table
    /// started: while a seat is on vacation (`POST /api/v1/tables/{id}/vacation`) its clock
    /// stops.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 60)]
    pub vacation_days: u32,
}

impl From<tables::Clock> for TableClock {
    fn from(clock: tables::Clock) -> Self {
        let mut shown = TableClock {
            kind: ClockKind::PerMove,
            hours: None,
            initial_hours: None,
            increment_hours: None,
            max_hours: None,
            weekends_paused: clock.weekends_paused,
            on_expiry: match clock.on_expiry {
                tables::OnExpiry::Ends => ClockExpiry::Ends,
                tables::OnExpiry::Claim => ClockExpiry::Claim,
            },
            vacation_days: clock.vacation_days,
        };
        match clock.pace {
            tables::Pace::PerMove { hours } => shown.hours = Some(hours),
            tables::Pace::Bank {
                initial_hours,
                increment_hours,
                max_hours,
            } => {
                shown.kind = ClockKind::Bank;
                shown.initial_hours = Some(initial_hours);
                shown.increment_hours = Some(increment_hours);
                shown.max_hours = Some(max_hours);
            }
        }
        shown
    }
}

impl TableClock {
    /// The clock sent, checked, or what is wrong with it: the field named after `prefix` (the
    /// clock's place in the body), and why.
    pub fn checked(&self, prefix: &str) -> Result<tables::Clock, (String, String)> {
        use tables::clock::{MAX_HOURS, MAX_VACATION_DAYS};
        let field = |name: &str| format!("{prefix}{name}");
        let needed = |name: &str, value: Option<u32>| {
            value.ok_or_else(|| (field(name), format!("a {:?} clock needs it", self.kind)))
        };
        let within = |name: &str, value: u32, least: u32, most: u32| {
            if (least..=most).contains(&value) {
                Ok(value)
            } else {
                Err((field(name), format!("{value}; it is {least} to {most}")))
            }
        };
        let other_kind = |names: &[(&str, Option<u32>)]| {
            names
                .iter()
                .find(|(_, v)| v.is_some())
                .map_or(Ok(()), |(name, _)| {
                    Err((
                        field(name),
                        format!("not a field of a {:?} clock", self.kind),
                    ))
                })
        };
        let pace = match self.kind {
            ClockKind::PerMove => {
                other_kind(&[
                    ("initial_hours", self.initial_hours),
                    ("increment_hours", self.increment_hours),
                    ("max_hours", self.max_hours),
                ])?;
                tables::Pace::PerMove {
                    hours: within("hours", needed("hours", self.hours)?, 1, MAX_HOURS)?,
                }
            }
            ClockKind::Bank => {
                other_kind(&[("hours", self.hours)])?;
                let initial_hours = within(
                    "initial_hours",
                    needed("initial_hours", self.initial_hours)?,
                    1,
                    MAX_HOURS,
                )?;
                let increment_hours = within(
                    "increment_hours",
                    needed("increment_hours", self.increment_hours)?,
                    0,
                    MAX_HOURS,
                )?;
                let max_hours = within(
                    "max_hours",
                    needed("max_hours", self.max_hours)?,
                    initial_hours,
                    MAX_HOURS,
                )?;
                tables::Pace::Bank {
                    initial_hours,
                    increment_hours,
                    max_hours,
                }
            }
        };
        Ok(tables::Clock {
            pace,
            weekends_paused: self.weekends_paused,
            on_expiry: match self.on_expiry {
                ClockExpiry::Ends => tables::OnExpiry::Ends,
                ClockExpiry::Claim => tables::OnExpiry::Claim,
            },
            vacation_days: within("vacation_days", self.vacation_days, 0, MAX_VACATION_DAYS)?,
        })
    }
}
