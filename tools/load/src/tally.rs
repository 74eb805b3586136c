//! What one abusive pattern's clients got: answers by status, bytes, times.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::http::Reply;
use crate::stats::{ms, percentile};

/// The answers one pattern's clients got.
#[derive(Default)]
pub struct Tally {
    /// Answers by status (0: no answer).
    pub statuses: BTreeMap<u16, usize>,
    /// Bytes of body, all answers together.
    pub bytes: usize,
    /// Each request's time.
    pub took: Vec<Duration>,
}

impl Tally {
    /// Counts one answer.
    pub fn add(&mut self, reply: Reply) {
        *self.statuses.entry(reply.status).or_default() += 1;
        self.bytes += reply.bytes;
        self.took.push(reply.took);
    }

    /// The answers by status: `413×9834 0×17`.
    pub fn statuses_line(&self) -> String {
        let statuses: Vec<String> = self
            .statuses
            .iter()
            .map(|(s, n)| format!("{s}×{n}"))
            .collect();
        statuses.join(" ")
    }

    /// One line: requests, statuses, mean body, time p50 and p99.
    pub fn line(&self) -> String {
        let mean_bytes = self.bytes / self.took.len().max(1);
        format!(
            "{} requests [{}], mean body {} B, time p50 {} p99 {}",
            self.took.len(),
            self.statuses_line(),
            mean_bytes,
            ms(percentile(&self.took, 50)),
            ms(percentile(&self.took, 99))
        )
    }
}
