//! The suite's summary: one row a pattern, then each goal with PASS or FAIL.

use std::time::Duration;

use moot_load::stats::percentile;

use crate::memory::megabytes;
use crate::patterns::Pattern;
use crate::suite::Outcome;

/// The most memory a server may hold at its peak under any pattern, KiB.
const PEAK_LIMIT_KIB: u64 = 512 * 1024;
/// The most memory it may keep 5 s after any pattern, KiB.
const RETAINED_LIMIT_KIB: u64 = 128 * 1024;
/// `/metrics` stays under this many bytes.
const METRICS_LIMIT_BYTES: usize = 1 << 20;
/// `/healthz`'s p50 under these patterns stays within this many times idle.
const HEALTHZ_RATIO_LIMIT: f64 = 3.0;
const HEALTHZ_PATTERNS: [Pattern; 3] = [Pattern::Bodies, Pattern::Methods, Pattern::Animation];
/// The share of its requests a well-behaved computer client must be served.
const SERVED_LIMIT: f64 = 0.9;

/// Prints the table and the goals.
pub fn print(outcomes: &[(Pattern, Outcome)]) {
    let header = [
        "pattern",
        "healthz p50/p99 idle → attack (p50 ratio)",
        "legal-moves p50/p99 idle → attack",
        "peak RSS",
        "retained RSS",
        "log bytes",
        "/metrics bytes",
        "served",
    ]
    .map(str::to_owned)
    .to_vec();
    let mut rows = vec![header];
    rows.extend(
        outcomes
            .iter()
            .map(|(pattern, outcome)| row(*pattern, outcome)),
    );
    println!("\n{}", markdown(&rows));
    println!("(times in ms over a kept-alive connection; MB = 2^20 bytes)\n");
    for (verdict, goal) in goals(outcomes) {
        println!("{verdict}  {goal}");
    }
}

fn row(pattern: Pattern, outcome: &Outcome) -> Vec<String> {
    let dash = || "—".to_owned();
    let (healthz, legal) = match &outcome.measures {
        Some((idle, under)) => (
            format!(
                "{} → {} ({:.1}×)",
                p50_p99(&idle.healthz),
                p50_p99(&under.healthz),
                ratio(&idle.healthz, &under.healthz)
            ),
            format!(
                "{} → {}",
                p50_p99(&idle.legal_moves),
                p50_p99(&under.legal_moves)
            ),
        ),
        None => (dash(), dash()),
    };
    vec![
        pattern.name().to_owned(),
        healthz,
        legal,
        outcome.peak_kib.map_or_else(dash, megabytes),
        outcome.retained_kib.map_or_else(dash, megabytes),
        outcome.log_bytes.to_string(),
        outcome.metrics_bytes.map_or_else(dash, |b| b.to_string()),
        outcome.served.map_or_else(dash, |(served, asked)| {
            format!("{served}/{asked} ({:.0} %)", share(served, asked) * 100.0)
        }),
    ]
}

fn p50_p99(times: &[Duration]) -> String {
    let millis = |p| percentile(times, p).as_secs_f64() * 1e3;
    format!("{:.2}/{:.2}", millis(50), millis(99))
}

/// p50 under attack / p50 idle.
fn ratio(idle: &[Duration], under: &[Duration]) -> f64 {
    percentile(under, 50).as_secs_f64() / percentile(idle, 50).as_secs_f64().max(1e-6)
}

fn share(served: usize, asked: usize) -> f64 {
    served as f64 / asked.max(1) as f64
}

/// Rows as a Markdown table, columns padded to one width.
fn markdown(rows: &[Vec<String>]) -> String {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let line = |cells: Vec<String>| format!("| {} |", cells.join(" | "));
    let padded = |row: &Vec<String>| {
        line(
            row.iter()
                .zip(&widths)
                .map(|(cell, &w)| format!("{cell}{}", " ".repeat(w - cell.chars().count())))
                .collect(),
        )
    };
    let mut lines = vec![padded(&rows[0])];
    lines.push(line(widths.iter().map(|&w| "-".repeat(w)).collect()));
    lines.extend(rows[1..].iter().map(padded));
    lines.join("\n")
}

/// A goal's verdict: PASS, FAIL, or not run (its patterns were not asked for).
fn verdict(run: bool, met: bool) -> &'static str {
    match (run, met) {
        (false, _) => "----",
        (true, true) => "PASS",
        (true, false) => "FAIL",
    }
}

/// Every goal: its verdict and what it says with the figures.
fn goals(outcomes: &[(Pattern, Outcome)]) -> Vec<(&'static str, String)> {
    let mut goals = Vec::new();
    let memory = |name: &str, limit: u64, value: fn(&Outcome) -> Option<u64>| {
        let figures: Vec<String> = outcomes
            .iter()
            .map(|(p, o)| {
                format!(
                    "{} {}",
                    p.name(),
                    value(o).map_or("?".to_owned(), megabytes)
                )
            })
            .collect();
        let met = outcomes
            .iter()
            .all(|(_, o)| value(o).is_some_and(|kib| kib <= limit));
        (
            verdict(!outcomes.is_empty(), met),
            format!(
                "{name} ≤ {} under every pattern: {}",
                megabytes(limit),
                figures.join(", ")
            ),
        )
    };
    goals.push(memory("peak RSS", PEAK_LIMIT_KIB, |o| o.peak_kib));
    goals.push(memory(
        "retained RSS (5 s after)",
        RETAINED_LIMIT_KIB,
        |o| o.retained_kib,
    ));

    let healthz: Vec<(Pattern, Option<f64>)> = outcomes
        .iter()
        .filter(|(p, _)| HEALTHZ_PATTERNS.contains(p))
        .map(|(p, o)| {
            let ratio = o
                .measures
                .as_ref()
                .map(|(idle, under)| ratio(&idle.healthz, &under.healthz));
            (*p, ratio)
        })
        .collect();
    goals.push((
        verdict(
            !healthz.is_empty(),
            healthz
                .iter()
                .all(|(_, r)| r.is_some_and(|r| r <= HEALTHZ_RATIO_LIMIT)),
        ),
        format!(
            "healthz p50 under attack ≤ {HEALTHZ_RATIO_LIMIT}× idle (animation, bodies, methods): {}",
            healthz
                .iter()
                .map(|(p, r)| format!("{} {}", p.name(), r.map_or("?".to_owned(), |r| format!("{r:.1}×"))))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ));

    for (pattern, who) in [
        (Pattern::ComputerApi, "the well-behaved evaluate client"),
        (Pattern::ComputerPages, "the page player"),
    ] {
        let outcome = outcomes.iter().find(|(p, _)| *p == pattern).map(|(_, o)| o);
        let served = outcome.and_then(|o| o.served);
        goals.push((
            verdict(
                outcome.is_some(),
                served.is_some_and(|(s, a)| share(s, a) >= SERVED_LIMIT),
            ),
            format!(
                "{who} served ≥ {:.0} % ({}): {}",
                SERVED_LIMIT * 100.0,
                pattern.name(),
                served.map_or("?".to_owned(), |(s, a)| format!(
                    "{s} of {a}, {:.0} %",
                    share(s, a) * 100.0
                ))
            ),
        ));
    }

    let largest_metrics = outcomes
        .iter()
        .filter_map(|(p, o)| o.metrics_bytes.map(|b| (b, p.name())))
        .max();
    goals.push((
        verdict(
            !outcomes.is_empty(),
            outcomes
                .iter()
                .all(|(_, o)| o.metrics_bytes.is_some_and(|b| b < METRICS_LIMIT_BYTES)),
        ),
        format!(
            "/metrics under 1 MB after every pattern: the largest {}",
            largest_metrics.map_or("?".to_owned(), |(b, p)| format!("{b} bytes ({p})"))
        ),
    ));

    let forwarded = outcomes
        .iter()
        .find(|(p, _)| *p == Pattern::Forwarded)
        .map(|(_, o)| o.links_clean);
    goals.push((
        verdict(forwarded.is_some(), forwarded.flatten() == Some(true)),
        "forged forwarded headers: no link starts with javascript: or names host x".to_owned(),
    ));
    goals
}

#[cfg(test)]
mod tests {
    use super::*;
    use moot_load::probe::Measures;

    fn measures(healthz_ms: u64) -> Measures {
        Measures {
            healthz: vec![Duration::from_millis(healthz_ms); 3],
            legal_moves: vec![Duration::from_millis(1); 3],
            failures: 0,
        }
    }

    fn outcome(peak_mb: u64, healthz_under_ms: u64) -> Outcome {
        Outcome {
            measures: Some((measures(1), measures(healthz_under_ms))),
            peak_kib: Some(peak_mb * 1024),
            retained_kib: Some(50 * 1024),
            metrics_bytes: Some(6_000),
            ..Outcome::default()
        }
    }

    fn verdict_of<'a>(goals: &'a [(&'static str, String)], starts: &str) -> &'a str {
        goals
            .iter()
            .find(|(_, goal)| goal.starts_with(starts))
            .map(|(v, _)| *v)
            .expect("the goal is listed")
    }

    #[test]
    fn a_peak_over_512_mb_fails_the_memory_goal() {
        let goals = goals(&[(Pattern::Bodies, outcome(513, 1))]);
        assert_eq!(verdict_of(&goals, "peak RSS"), "FAIL");
        let goals = super::goals(&[(Pattern::Bodies, outcome(512, 1))]);
        assert_eq!(verdict_of(&goals, "peak RSS"), "PASS");
    }

    #[test]
    fn healthz_slower_than_three_times_idle_fails_under_the_body_flood() {
        let goals = goals(&[(Pattern::Bodies, outcome(100, 4))]);
        assert_eq!(verdict_of(&goals, "healthz"), "FAIL");
        let goals = super::goals(&[(Pattern::Bodies, outcome(100, 3))]);
        assert_eq!(verdict_of(&goals, "healthz"), "PASS");
    }

    #[test]
    fn goals_of_patterns_not_run_are_neither_passed_nor_failed() {
        let goals = goals(&[(Pattern::Bodies, outcome(100, 1))]);
        assert_eq!(verdict_of(&goals, "the page player"), "----");
        assert_eq!(verdict_of(&goals, "forged forwarded"), "----");
    }

    #[test]
    fn a_client_served_8_of_10_fails_the_share_goal() {
        let served = |s, a| Outcome {
            served: Some((s, a)),
            ..outcome(100, 1)
        };
        let goals = goals(&[(Pattern::ComputerApi, served(8, 10))]);
        assert_eq!(verdict_of(&goals, "the well-behaved evaluate"), "FAIL");
        let goals = super::goals(&[(Pattern::ComputerApi, served(9, 10))]);
        assert_eq!(verdict_of(&goals, "the well-behaved evaluate"), "PASS");
    }
}
