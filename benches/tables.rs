//! Move commit latency of tables: 50 tables played at once, each by a task that commits the
//! first legal move, waits for the commit, and plays again (a finished table is replaced by a
//! new one). Each commit is one `Tables::play`: its transaction (load, credential, ply, the
//! engine, the move's row, the table's row) on the real database. Prints p50, p99 and moves/s
//! twice:
//!
//! - saturated: each table moves again as soon as its move is committed, so the database is
//!   never idle: the moves/s is the most it commits, and a move's latency is mostly its wait
//!   behind the other 49 tables' (Little's law: 50 / moves per second);
//! - paced: each table moves once every `MOOT_BENCH_PACE_MS` (100 ms: 500 moves/s offered in
//!   all, the tables' phases spread): the latency a player feels when the server is busy but
//!   not overloaded.
//!
//! ```sh
//! cargo bench --bench tables                      # SQLite (a file in the temporary directory)
//! MOOT_BENCH_POSTGRES_URL=postgres://user:pw@127.0.0.1/db cargo bench --bench tables
//! ```
//!
//! Options (environment): `MOOT_BENCH_TABLES` (50), `MOOT_BENCH_SECONDS` (10 per phase),
//! `MOOT_BENCH_PACE_MS` (100).

use std::time::{Duration, Instant};

use moot::games::Game;
use moot::games::herfor::{Herfor, HerforOptions};
use moot::tables::{Store, Tables};

fn var(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Plays tables one after another until `until`, a move every `pace` if given (from
/// `phase` on); returns each commit's latency.
async fn player(
    tables: Tables,
    until: Instant,
    pace: Option<Duration>,
    phase: Duration,
) -> Vec<Duration> {
    let mut next = tokio::time::Instant::now() + phase;
    let options = HerforOptions {
        size: 7,
        ..Default::default()
    };
    let mut latencies = Vec::new();
    'tables: while Instant::now() < until {
        let mut state = Herfor::new_game(&options).expect("the options are valid");
        let created = tables
            .create::<Herfor>(
                &options,
                &state,
                Some(3),
                [None, None],
                None,
                moot::tables::now(),
            )
            .await
            .expect("a table");
        let id = created.table.id;
        let mut ply = 0;
        while Instant::now() < until {
            let moot::games::Turn::ToAct(seat) = Herfor::turn(&state) else {
                continue 'tables;
            };
            if let Some(pace) = pace {
                tokio::time::sleep_until(next).await;
                next += pace;
            }
            let mv = Herfor::legal_moves(&state)[0];
            let text = Herfor::format_move(&state, &mv);
            let started = Instant::now();
            tables
                .play(
                    &id,
                    &created.credentials[seat.index()],
                    ply,
                    &text,
                    moot::tables::now(),
                )
                .await
                .expect("the move commits");
            latencies.push(started.elapsed());
            Herfor::play_unchecked(&mut state, &mv);
            ply += 1;
        }
    }
    latencies
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this with no such flag: then a
    // one-second run checks that the bench works.
    let benching = std::env::args().any(|a| a == "--bench");
    let (url, label) = match std::env::var("MOOT_BENCH_POSTGRES_URL") {
        Ok(url) => (url, "PostgreSQL"),
        Err(_) => {
            let file = std::env::temp_dir().join(format!("moot-bench-{}.db", std::process::id()));
            (format!("sqlite://{}", file.display()), "SQLite")
        }
    };
    let count = var("MOOT_BENCH_TABLES", 50) as usize;
    let seconds = if benching {
        var("MOOT_BENCH_SECONDS", 10)
    } else {
        1
    };
    let pace = Duration::from_millis(var("MOOT_BENCH_PACE_MS", 100));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let tables = runtime.block_on(async {
        let store = Store::connect(&url).await.expect("the database opens");
        Tables::new(store, u64::MAX)
    });
    for (phase, paced) in [("saturated", None), ("paced", Some(pace))] {
        let (mut latencies, elapsed) = runtime.block_on(async {
            let started = Instant::now();
            let until = started + Duration::from_secs(seconds);
            let players: Vec<_> = (0..count)
                .map(|i| {
                    // The tables' moves spread over the pace, not all at once.
                    let offset =
                        paced.map_or(Duration::ZERO, |p: Duration| p * i as u32 / count as u32);
                    tokio::spawn(player(tables.clone(), until, paced, offset))
                })
                .collect();
            let mut all = Vec::new();
            for p in players {
                all.extend(p.await.expect("a player"));
            }
            (all, started.elapsed())
        });
        latencies.sort();
        assert!(!latencies.is_empty(), "no move was committed");
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        let how = match paced {
            Some(p) => format!("each moving every {} ms", p.as_millis()),
            None => "each moving again at once".to_owned(),
        };
        println!(
            "tables on {label}, {phase}: {count} tables at once, {how}: {} moves in {:.1} s: \
             {:.0} moves/s; commit latency p50 {:.2} ms, p99 {:.2} ms (load average: {})",
            latencies.len(),
            elapsed.as_secs_f64(),
            latencies.len() as f64 / elapsed.as_secs_f64(),
            percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
            percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
}
