//! The wall-clock cap: every search stops by it, whatever its budget, so one slow search cannot
//! hold a permit for long, and a client refused for want of a permit can be told a true wait.

use std::time::{Duration, Instant};

/// The longest any search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallCap(Duration);

impl WallCap {
    /// A cap of `cap`; the server's is [`AiConfig::wall_cap`](super::AiConfig::wall_cap), never
    /// below the longest time budget.
    pub fn new(cap: Duration) -> Self {
        WallCap(cap)
    }

    /// How long a search may run.
    pub fn duration(self) -> Duration {
        self.0
    }

    /// The instant a search started now must stop by.
    pub fn cutoff(self) -> Instant {
        Instant::now() + self.0
    }

    /// The wait after which a permit is sure to be free, every running search having ended:
    /// whole seconds, rounded up, at least one.
    pub fn retry_after_seconds(self) -> u64 {
        (self.0.as_millis() as u64).div_ceil(1000).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_is_the_cap_in_whole_seconds_rounded_up_and_never_zero() {
        let wait = |ms| WallCap::new(Duration::from_millis(ms)).retry_after_seconds();
        assert_eq!(wait(2_500), 3);
        assert_eq!(wait(2_000), 2);
        assert_eq!(wait(1), 1);
        assert_eq!(wait(0), 1);
    }

    #[test]
    fn a_cutoff_is_the_cap_from_now() {
        let cap = WallCap::new(Duration::from_secs(60));
        let before = Instant::now();
        let cutoff = cap.cutoff();
        assert!(cutoff >= before + cap.duration() && cutoff <= Instant::now() + cap.duration());
    }
}
