//! What a seat does at a table that is no change of its game, as the table's followers are
//! told of it: a takeback asked for or declined, a vacation started or ended. A notice follows
//! the change numbered its `seq` (the table's change number is unchanged) and is not kept: a
//! follower hears it as it happens, in this process and, through `NOTIFY`, in the other
//! replicas (see [`super::announce`]); the table's JSON says the same to whoever reads it.

use super::{Millis, Standing, Table, TableError};
use moot_games::Seat;

/// What a seat did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatNoticeKind {
    /// It asks to take back its last move.
    TakebackAsked,
    /// It declined the takeback asked for (or withdrew its own request).
    TakebackDeclined,
    /// It went on vacation: its clock stops.
    VacationStarted,
    /// It came back from vacation: its clock runs again.
    VacationEnded,
}

impl SeatNoticeKind {
    /// Every kind.
    const ALL: [SeatNoticeKind; 4] = [
        SeatNoticeKind::TakebackAsked,
        SeatNoticeKind::TakebackDeclined,
        SeatNoticeKind::VacationStarted,
        SeatNoticeKind::VacationEnded,
    ];

    /// The event's name, as streams send it and `NOTIFY` carries it.
    pub fn name(self) -> &'static str {
        match self {
            SeatNoticeKind::TakebackAsked => "takeback_asked",
            SeatNoticeKind::TakebackDeclined => "takeback_declined",
            SeatNoticeKind::VacationStarted => "vacation_started",
            SeatNoticeKind::VacationEnded => "vacation_ended",
        }
    }

    /// The kind named `name`, if it is one.
    pub fn parse(name: &str) -> Option<SeatNoticeKind> {
        SeatNoticeKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
    }
}

/// A seat's notice at a table that goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatNotice {
    /// The table's id.
    pub table_id: String,
    /// The table's change number (the notice follows that change).
    pub seq: u64,
    /// What the seat did.
    pub kind: SeatNoticeKind,
    /// The seat.
    pub by: Seat,
    /// Moves played.
    pub ply: u64,
    /// The seat whose move is awaited.
    pub to_act: Seat,
    /// When that move is due after it, if the table has a clock.
    pub deadline: Option<Millis>,
    /// When it was.
    pub time: Millis,
}

impl SeatNotice {
    /// The notice of `by`'s `kind` at ongoing `table` (as it stands after it), at `time`.
    pub(super) fn at(
        table: &Table,
        kind: SeatNoticeKind,
        by: Seat,
        time: Millis,
    ) -> Result<SeatNotice, TableError> {
        let Standing::Ongoing { to_act } = table.standing else {
            return Err(TableError::Finished);
        };
        Ok(SeatNotice {
            table_id: table.id.clone(),
            seq: table.seq(),
            kind,
            by,
            ply: table.ply,
            to_act,
            deadline: table.deadline,
            time,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_read_back_from_its_name() {
        for kind in SeatNoticeKind::ALL {
            assert_eq!(SeatNoticeKind::parse(kind.name()), Some(kind));
        }
        assert_eq!(SeatNoticeKind::parse("deadline_near"), None);
    }
}
