//! Percentiles of measured times, and how a time is written.

use std::time::Duration;

/// The `p`th percentile of `times` (nearest rank, rounded down); zero when there are none.
pub fn percentile(times: &[Duration], p: usize) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[(sorted.len() - 1) * p / 100]
}

/// A time in milliseconds, to two decimals: `1.25 ms`.
pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn millis(values: &[u64]) -> Vec<Duration> {
        values.iter().map(|&v| Duration::from_millis(v)).collect()
    }

    #[test]
    fn percentiles_take_the_rank_below_in_sorted_order() {
        let times = millis(&[9, 1, 5, 3, 7, 2, 8, 4, 6, 10]);
        assert_eq!(percentile(&times, 0), Duration::from_millis(1));
        assert_eq!(percentile(&times, 50), Duration::from_millis(5));
        assert_eq!(percentile(&times, 99), Duration::from_millis(9));
        assert_eq!(percentile(&times, 100), Duration::from_millis(10));
    }

    #[test]
    fn no_times_have_a_zero_percentile() {
        assert_eq!(percentile(&[], 50), Duration::ZERO);
    }

    #[test]
    fn times_are_written_in_milliseconds() {
        assert_eq!(ms(Duration::from_micros(1250)), "1.25 ms");
    }
}
