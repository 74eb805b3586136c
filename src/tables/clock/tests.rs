use super::*;

/// Friday 2027-01-15, 00:00 UTC.
const FRIDAY: Millis = 1_800_000_000_000 - 1_800_000_000_000 % DAY;

fn per_move(hours: u32) -> Clock {
    Clock {
        pace: Pace::PerMove { hours },
        weekends_paused: false,
        on_expiry: OnExpiry::Ends,
        vacation_days: 0,
    }
}

fn bank(initial: u32, increment: u32, max: u32) -> Clock {
    Clock {
        pace: Pace::Bank {
            initial_hours: initial,
            increment_hours: increment,
            max_hours: max,
        },
        ..per_move(1)
    }
}

#[test]
fn the_fixed_friday_is_a_friday_and_the_weekend_follows_it() {
    assert!(!is_weekend(FRIDAY));
    assert!(!is_weekend(FRIDAY + DAY - 1));
    assert!(is_weekend(FRIDAY + DAY));
    assert!(is_weekend(FRIDAY + 3 * DAY - 1));
    assert!(!is_weekend(FRIDAY + 3 * DAY));
}

#[test]
fn days_per_move_is_a_per_move_clock_whose_expiry_lets_the_waiting_seat_claim() {
    let clock = Clock::days_per_move(3);
    assert_eq!(clock.pace, Pace::PerMove { hours: 72 });
    assert_eq!(clock.on_expiry, OnExpiry::Claim);
    assert_eq!(clock.as_days_per_move(), Some(3));
    assert_eq!(per_move(72).as_days_per_move(), None);
}

#[test]
fn a_per_move_deadline_is_the_turns_start_and_its_hours() {
    let clock = per_move(30);
    let times = clock.start(FRIDAY);
    assert_eq!(
        clock.deadline(&times, Seat::First, FRIDAY),
        FRIDAY + 30 * HOUR
    );
    assert_eq!(
        clock.near(&times, Seat::First, FRIDAY),
        FRIDAY + 24 * HOUR,
        "four fifths of the time gone"
    );
}

#[test]
fn a_bank_pays_the_time_used_gains_the_increment_and_stops_at_its_maximum() {
    let clock = bank(48, 24, 60);
    let times = clock.start(FRIDAY);
    assert_eq!(
        clock.deadline(&times, Seat::First, FRIDAY),
        FRIDAY + 48 * HOUR
    );
    // A quick move (1 h): 48 - 1 + 24 = 71 h, held to 60.
    let after = clock.after_move(&times, Seat::First, FRIDAY + HOUR, FRIDAY);
    assert_eq!(after.seats[0].bank, 60 * HOUR);
    assert_eq!(after.seats[1].bank, 48 * HOUR, "the other bank untouched");
    assert_eq!(after.turn_started, FRIDAY + HOUR);
    // A slow move (40 h): 48 - 40 + 24 = 32 h.
    let slow = clock.after_move(&after, Seat::Second, FRIDAY + 41 * HOUR, FRIDAY);
    assert_eq!(slow.seats[1].bank, 32 * HOUR);
    assert_eq!(
        clock.deadline(&slow, Seat::First, FRIDAY),
        FRIDAY + 41 * HOUR + 60 * HOUR
    );
    // A move past the bank (under a claiming clock) leaves the increment only.
    let late = clock.after_move(&slow, Seat::First, FRIDAY + 200 * HOUR, FRIDAY);
    assert_eq!(late.seats[0].bank, 24 * HOUR);
}

#[test]
fn a_deadline_that_would_fall_in_a_weekend_moves_on_by_the_weekend() {
    let clock = Clock {
        weekends_paused: true,
        ..per_move(24)
    };
    // Friday noon + 24 h: 12 h on Friday, 12 on Monday.
    let noon = FRIDAY + 12 * HOUR;
    let times = clock.start(noon);
    assert_eq!(
        clock.deadline(&times, Seat::First, noon),
        FRIDAY + 3 * DAY + 12 * HOUR
    );
    // Started on a Saturday: counted from Monday.
    let saturday = clock.start(FRIDAY + DAY + 5 * HOUR);
    assert_eq!(
        clock.deadline(&saturday, Seat::First, FRIDAY),
        FRIDAY + 4 * DAY
    );
    // Unpaused, the weekend counts.
    assert_eq!(per_move(24).deadline(&times, Seat::First, noon), noon + DAY);
}

#[test]
fn a_bank_used_over_a_weekend_is_charged_its_weekdays_only() {
    let clock = Clock {
        weekends_paused: true,
        ..bank(72, 0, 72)
    };
    let times = clock.start(FRIDAY + 12 * HOUR);
    // Moved Monday noon: 12 h of Friday and 12 of Monday used.
    let after = clock.after_move(&times, Seat::First, FRIDAY + 3 * DAY + 12 * HOUR, FRIDAY);
    assert_eq!(after.seats[0].bank, 48 * HOUR);
    assert_eq!(clock.counted(FRIDAY, FRIDAY + 7 * DAY), 5 * DAY);
}

#[test]
fn a_vacation_moves_the_deadline_on_by_the_time_taken_and_ends_when_used_up() {
    let clock = Clock {
        vacation_days: 2,
        ..per_move(24)
    };
    let created = FRIDAY;
    let times = clock.start(FRIDAY);
    let first = Seat::First;
    let on = clock
        .vacation_started(&times, first, Some(first), FRIDAY + HOUR, created)
        .unwrap();
    // While on it, the deadline counts the whole allowance left.
    assert_eq!(clock.deadline(&on, first, created), FRIDAY + DAY + 2 * DAY);
    assert_eq!(
        clock.on_vacation_until(&on.seats[0], FRIDAY + 2 * HOUR, created),
        Some(FRIDAY + HOUR + 2 * DAY)
    );
    assert_eq!(
        clock.vacation_started(&on, first, Some(first), FRIDAY + 2 * HOUR, created),
        Err(VacationRefused::Already)
    );
    // Ended after 5 h: the deadline moves on by 5 h, and 43 h are left.
    let back = clock.vacation_ended(&on, first, Some(first), FRIDAY + 6 * HOUR, created);
    assert_eq!(
        clock.deadline(&back, first, created),
        FRIDAY + DAY + 5 * HOUR
    );
    assert_eq!(
        clock.vacation_left(&back.seats[0], FRIDAY + 6 * HOUR, created),
        43 * HOUR
    );
    // The time on vacation is not charged to the move.
    assert_eq!(
        clock.used(&back, first, FRIDAY + 7 * HOUR, created),
        2 * HOUR
    );
    // A second vacation runs out by itself after the 43 h left.
    let again = clock
        .vacation_started(&back, first, Some(first), FRIDAY + 7 * HOUR, created)
        .unwrap();
    assert_eq!(
        clock.on_vacation_until(&again.seats[0], FRIDAY + 50 * HOUR, created),
        None
    );
    assert_eq!(
        clock.vacation_left(&again.seats[0], FRIDAY + 60 * HOUR, created),
        0
    );
    assert_eq!(
        clock.vacation_started(&again, first, Some(first), FRIDAY + 60 * HOUR, created),
        Err(VacationRefused::UsedUp)
    );
    // A year after the table started, the allowance is given again.
    let year = FRIDAY + VACATION_YEAR;
    assert!(
        clock
            .vacation_started(&again, first, None, year, created)
            .is_ok()
    );
}

#[test]
fn a_clock_without_vacation_days_refuses_a_vacation() {
    let clock = per_move(24);
    let times = clock.start(FRIDAY);
    assert_eq!(
        clock.vacation_started(&times, Seat::First, None, FRIDAY, FRIDAY),
        Err(VacationRefused::NoAllowance)
    );
}

#[test]
fn a_move_ends_the_movers_vacation() {
    let clock = Clock {
        vacation_days: 5,
        ..per_move(24)
    };
    let times = clock.start(FRIDAY);
    let on = clock
        .vacation_started(&times, Seat::First, Some(Seat::First), FRIDAY, FRIDAY)
        .unwrap();
    let moved = clock.after_move(&on, Seat::First, FRIDAY + 3 * HOUR, FRIDAY);
    assert_eq!(moved.seats[0].vacation_since, None);
    assert_eq!(moved.seats[0].vacation_used, 3 * HOUR);
    assert_eq!(moved.seats[0].paused, 0);
}

#[test]
fn the_clock_reads_and_writes_as_json_with_its_kind_inline() {
    let clock = bank(72, 24, 240);
    let text = serde_json::to_value(clock).unwrap();
    assert_eq!(
        text,
        serde_json::json!({"kind": "bank", "initial_hours": 72, "increment_hours": 24,
            "max_hours": 240, "weekends_paused": false, "on_expiry": "ends",
            "vacation_days": 0})
    );
    let back: Clock =
        serde_json::from_value(serde_json::json!({"kind": "per_move", "hours": 5})).unwrap();
    assert_eq!(back, per_move(5));
}
