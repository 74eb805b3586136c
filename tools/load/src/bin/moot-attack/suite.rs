//! One pattern against a server of its own: idle measures, the attack with the same measures,
//! then the server's memory, log and metrics.

use std::net::SocketAddr;
use std::path::Path;
use std::thread;
use std::time::Duration;

use moot_load::abusers::Abusers;
use moot_load::http::fetch;
use moot_load::probe::{Measures, WellBehaved, new_state};

use crate::attackers::Attack;
use crate::memory::megabytes;
use crate::patterns::computer::ask_now_and_then;
use crate::patterns::forwarded::{self, EMBED};
use crate::patterns::{Load, Pattern};
use crate::server::Server;

/// Between the attack's end and the retained memory's reading.
const SETTLE: Duration = Duration::from_secs(5);
/// Between the attackers' start and the measures: they are all sending by then.
const WARM_UP: Duration = Duration::from_millis(500);

/// What one pattern did to its server.
#[derive(Default)]
pub struct Outcome {
    /// The well-behaved client idle, then under the attack (none for the forwarded check).
    pub measures: Option<(Measures, Measures)>,
    /// `VmHWM` after the attack, KiB.
    pub peak_kib: Option<u64>,
    /// `VmRSS` [`SETTLE`] after the attack, KiB.
    pub retained_kib: Option<u64>,
    /// Bytes the server logged during the attack.
    pub log_bytes: u64,
    /// The size of `GET /metrics` after the attack.
    pub metrics_bytes: Option<usize>,
    /// The well-behaved computer client: (served, asked).
    pub served: Option<(usize, usize)>,
    /// The forwarded check: whether no link was forged.
    pub links_clean: Option<bool>,
    /// What went wrong, if anything did (the pattern could not be prepared, the server died).
    pub trouble: Option<String>,
}

/// Runs `pattern` against a new server of `binary` for `seconds`, printing details as it goes.
/// `Err` only when the server cannot be started or does not answer.
pub fn run(
    binary: &Path,
    pattern: Pattern,
    seconds: u64,
    abusers: Abusers,
) -> Result<Outcome, String> {
    let mut server = Server::start(binary, pattern.name(), pattern.trusts_forwarded())?;
    println!("\n== {} (server on {})", pattern.name(), server.addr);
    let mut outcome = Outcome::default();
    let log_before = match pattern.load(server.addr) {
        None => {
            let log_before = server.log_bytes();
            check_forwarded(server.addr, &mut outcome);
            Some(log_before)
        }
        Some(Err(e)) => {
            outcome.trouble = Some(format!("not prepared: {e}"));
            None
        }
        Some(Ok(load)) => attack(&server, load, seconds, abusers, &mut outcome),
    };
    after_the_attack(&mut server, log_before, &mut outcome);
    println!(
        "  log: {} bytes during the attack; its longest line {} bytes",
        outcome.log_bytes,
        server.longest_log_line()
    );
    if let Some(trouble) = &outcome.trouble {
        println!("  trouble: {trouble}");
    }
    Ok(outcome)
}

/// Measures idle, then runs the attack while measuring again; gives the log's size at the
/// attack's start (`None` when it could not start).
fn attack(
    server: &Server,
    load: Load,
    seconds: u64,
    abusers: Abusers,
    outcome: &mut Outcome,
) -> Option<u64> {
    let addr = server.addr;
    for note in &load.notes {
        println!("  {note}");
    }
    let mut client = match new_state(addr, "herfor", "{}") {
        Ok(state) => WellBehaved::new(addr, &state),
        Err(e) => {
            outcome.trouble = Some(format!("no Herfor state for the measures: {e}"));
            return None;
        }
    };
    let idle = client.kept_alive_for(seconds);
    let log_before = server.log_bytes();
    if let Some(once) = load.once {
        for line in once(addr) {
            println!("  {line}");
        }
    }
    let attack = Attack::start(load.clients, abusers, load.attempt);
    thread::sleep(WARM_UP);
    let regular = load
        .regular
        .map(|regular| thread::spawn(move || ask_now_and_then(seconds, regular)));
    let under = client.kept_alive_for(seconds);
    let served = regular.map(|t| t.join().unwrap_or((0, 0)));
    let tally = attack.stop();
    println!(
        "  the measuring client: {} rounds idle ({} requests failed), {} under the attack ({} failed)",
        idle.healthz.len(),
        idle.failures,
        under.healthz.len(),
        under.failures
    );
    println!("  attackers ({}): {}", load.clients, tally.line());
    if let Some((served, asked)) = served {
        println!("  the well-behaved client: served {served} of {asked}");
    }
    outcome.served = served;
    outcome.measures = Some((idle, under));
    Some(log_before)
}

fn check_forwarded(addr: SocketAddr, outcome: &mut Outcome) {
    match forwarded::check(addr) {
        Ok(finding) => {
            println!(
                "  GET {EMBED} with forged X-Forwarded-Proto and -Host: status {}, {} link attributes, {}",
                finding.status,
                finding.links,
                if finding.forged.is_empty() {
                    "none starts with javascript: or names host x".to_owned()
                } else {
                    format!("forged: {:?}", finding.forged)
                }
            );
            println!(
                "  Content-Security-Policy: {}",
                finding.policy.as_deref().unwrap_or("(none)")
            );
            outcome.links_clean = Some(finding.status == 200 && finding.forged.is_empty());
        }
        Err(e) => outcome.trouble = Some(format!("the embed page: {e}")),
    }
}

/// The server's memory at the attack's end and [`SETTLE`] later, the bytes it logged since
/// `log_before` (read after the pause, so that the log has caught up), and its metrics' size.
fn after_the_attack(server: &mut Server, log_before: Option<u64>, outcome: &mut Outcome) {
    let peak = server.memory().map(|m| m.peak_kib);
    thread::sleep(SETTLE);
    let retained = server.memory().map(|m| m.resident_kib);
    if let Some(before) = log_before {
        outcome.log_bytes = server.log_bytes().saturating_sub(before);
    }
    if let Some(exited) = server.exited() {
        outcome.trouble = Some(exited);
        return;
    }
    outcome.peak_kib = peak.ok();
    outcome.retained_kib = retained.ok();
    outcome.metrics_bytes = fetch(server.addr, "GET", "/metrics", &[], b"")
        .ok()
        .filter(|answer| answer.head.status == 200)
        .map(|answer| answer.head.body_bytes);
    println!(
        "  memory: peak {}, {} s after the attack {}; /metrics {} bytes",
        outcome.peak_kib.map_or("?".to_owned(), megabytes),
        SETTLE.as_secs(),
        outcome.retained_kib.map_or("?".to_owned(), megabytes),
        outcome
            .metrics_bytes
            .map_or("?".to_owned(), |b| b.to_string())
    );
}
