//! A clock of one's own as the pages' create forms send it (the friend form, "Offer it to
//! anyone", "Find an opponent"): its fields ([`CLOCK_FIELDS`]) read and checked as the API
//! checks a `clock`, a refusal naming the field. Without a kind chosen the form's days per
//! move stand.

use actix_web::http::StatusCode;
use moot_present::link::Query;
use moot_templates::options::CLOCK_FIELDS;

use crate::api::tables::bodies::{ClockExpiry, ClockKind, TableClock};
use crate::limits::{EXCERPT_CHARS, excerpt};
use crate::tables::Clock;
use crate::web::error::PageError;

/// Whether `name` is one of the clock's fields (not a game's option).
pub fn is_clock_field(name: &str) -> bool {
    CLOCK_FIELDS.contains(&name)
}

/// The clock of one's own the form asks for, if its kind is chosen.
pub fn own_clock(form: &Query) -> Result<Option<Clock>, PageError> {
    let [kind, hours, increment, max, weekends, expiry, vacation] = CLOCK_FIELDS;
    let text = |name: &str| -> Result<Option<String>, PageError> {
        Ok(form
            .get(name)?
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned))
    };
    let refused = |name: &str, detail: String| {
        PageError::new(
            StatusCode::BAD_REQUEST,
            "No such clock",
            format!("{name}: {detail}"),
        )
    };
    let number = |name: &str| -> Result<Option<u32>, PageError> {
        text(name)?
            .map(|value| {
                value.parse::<u32>().map_err(|_| {
                    refused(
                        name,
                        format!("{:?} is no whole number", excerpt(&value, EXCERPT_CHARS)),
                    )
                })
            })
            .transpose()
    };
    let kind = match text(kind)?.as_deref() {
        None => return Ok(None),
        Some("per_move") => ClockKind::PerMove,
        Some("bank") => ClockKind::Bank,
        Some(other) => {
            return Err(refused(
                kind,
                format!(
                    "{:?}: it is per_move or bank",
                    excerpt(other, EXCERPT_CHARS)
                ),
            ));
        }
    };
    let hours = number(hours)?;
    let bank = kind == ClockKind::Bank;
    let asked = TableClock {
        kind,
        hours: hours.filter(|_| !bank),
        initial_hours: hours.filter(|_| bank),
        increment_hours: number(increment)?.filter(|_| bank),
        max_hours: number(max)?.filter(|_| bank),
        weekends_paused: text(weekends)?.is_some(),
        on_expiry: match text(expiry)?.as_deref() {
            None | Some("ends") => ClockExpiry::Ends,
            Some("claim") => ClockExpiry::Claim,
            Some(other) => {
                return Err(refused(
                    expiry,
                    format!("{:?}: it is ends or claim", excerpt(other, EXCERPT_CHARS)),
                ));
            }
        },
        vacation_days: number(vacation)?.unwrap_or(0),
    };
    asked.checked("").map(Some).map_err(|(field, detail)| {
        // The API's names, as the form's.
        let name = match field.as_str() {
            "initial_hours" => CLOCK_FIELDS[1],
            "increment_hours" => CLOCK_FIELDS[2],
            "max_hours" => CLOCK_FIELDS[3],
            "vacation_days" => CLOCK_FIELDS[6],
            _ => CLOCK_FIELDS[1],
        };
        refused(name, detail)
    })
}
