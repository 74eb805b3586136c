//! `moot-attack`: the attack suite. For each pattern it starts a fresh Moot server (the binary
//! given, on a free port of 127.0.0.1, its own database and log in a temporary folder), measures
//! a well-behaved client idle, runs the pattern's attackers for as long while measuring again,
//! then reads the server's peak and retained memory (`/proc/<pid>/status`, per process: hence a
//! server per pattern), the bytes it logged and the size of its `/metrics`. It ends with one
//! table and each goal's PASS or FAIL.
//!
//! `moot-attack --server target/release/moot --seconds 15 --patterns bodies,methods`

mod api;
mod attackers;
mod memory;
mod patterns;
mod raw;
mod server;
mod suite;
mod table;

use std::path::PathBuf;

use clap::Parser;
use moot_load::abusers::Abusers;

use crate::patterns::Pattern;

/// Runs attack patterns against Moot servers it starts, one server per pattern, and prints a
/// table of latency, memory, log and metrics figures with each goal's PASS or FAIL.
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// The Moot server binary to start, e.g. target/release/moot.
    #[arg(long)]
    server: PathBuf,
    /// Seconds of measuring idle, then as many under each pattern (at most 300).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=300))]
    seconds: u64,
    /// The patterns to run, separated by commas (all by default).
    #[arg(long, value_enum, value_delimiter = ',')]
    patterns: Vec<Pattern>,
    /// The priority of the attackers' threads: `idle` (Linux SCHED_IDLE, standing in for
    /// attackers on other machines, so their own CPU use does not count as the server's) or
    /// `normal` (on the same cores as the server, at this command's priority).
    #[arg(long, value_enum, default_value_t = Abusers::Idle)]
    abusers: Abusers,
}

fn main() {
    let cli = Cli::parse();
    let patterns = if cli.patterns.is_empty() {
        Pattern::ALL.to_vec()
    } else {
        cli.patterns
    };
    println!(
        "moot-attack: {} against {}, {} s idle then {} s under each; attackers {}",
        patterns
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(", "),
        cli.server.display(),
        cli.seconds,
        cli.seconds,
        cli.abusers.describe()
    );
    let mut outcomes = Vec::new();
    for pattern in patterns {
        match suite::run(&cli.server, pattern, cli.seconds, cli.abusers) {
            Ok(outcome) => outcomes.push((pattern, outcome)),
            Err(e) => {
                eprintln!("moot-attack: {e}");
                std::process::exit(2);
            }
        }
    }
    table::print(&outcomes);
}
