//! `moot-load`: abusive request patterns (huge replays and moves, long searches, very long page
//! links, bodies that never finish) against a running Moot server, for a bounded time, while a
//! well-behaved client measures `GET /healthz` and a normal `legal-moves` (p50, p99)
//! and a player on a play page asks for the computer's move. First the same measures idle.
//!
//! The well-behaved client measures both ways: a new connection per request (the time includes
//! connect and accept) and over one kept-alive connection, as a real client or proxy talks.
//!
//! The HTTP client, the well-behaved client and the abusers' priority are the crate's library
//! (`moot_load`), shared with `moot-attack`. The abusive patterns open a connection per request
//! (`Connection: close`). By default the abusive client threads run under `SCHED_IDLE`
//! ([`Abusers`]); the output says which.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use moot_load::abusers::Abusers;
use moot_load::http::{Reply, send};
use moot_load::probe::{BETWEEN_ROUNDS, WellBehaved, new_state};
use moot_load::stats::{ms, percentile};
use moot_load::tally::Tally;

/// What to run.
#[derive(Clone, Debug)]
struct Plan {
    addr: SocketAddr,
    /// Seconds of measuring idle, then as long under the patterns.
    seconds: u64,
    /// Clients per abusive pattern.
    clients: usize,
    /// The priority of the abusive patterns' client threads.
    abusers: Abusers,
}

/// Reads a server address from `http://host:port` (or `host:port`).
fn address(url: &str) -> Result<SocketAddr, String> {
    let rest = url.trim_start_matches("http://").trim_end_matches('/');
    rest.to_socket_addrs()
        .map_err(|e| format!("{url}: {e}"))?
        .next()
        .ok_or_else(|| format!("{url}: no address"))
}

/// A location header's value, from a raw GET (for the play page's redirect).
fn location(addr: SocketAddr, path: &str) -> (u16, Option<String>, Duration) {
    let started = Instant::now();
    let attempt = || -> std::io::Result<(u16, Option<String>)> {
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        let head = format!("GET {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
        stream.write_all(head.as_bytes())?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer)?;
        let text = String::from_utf8_lossy(&answer);
        let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
        let location = text
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("location:"))
            .map(|l| l[9..].trim().to_owned());
        Ok((status, location))
    };
    let (status, location) = attempt().unwrap_or((0, None));
    (status, location, started.elapsed())
}

/// A body shorter than its Content-Length, then a byte every 2 s: how long the server keeps the
/// connection (until it answers or closes, or 30 s).
fn slow_body(addr: SocketAddr, stop: &AtomicBool) -> Reply {
    let started = Instant::now();
    let attempt = || -> std::io::Result<u16> {
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
        stream.set_read_timeout(Some(Duration::from_millis(2000)))?;
        let head = format!(
            "POST /api/v1/games/herfor/legal-moves HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{{\"state\":"
        );
        stream.write_all(head.as_bytes())?;
        let mut buffer = [0u8; 4096];
        while started.elapsed() < Duration::from_secs(30) && !stop.load(Ordering::Relaxed) {
            match stream.read(&mut buffer) {
                Ok(0) => return Ok(0),
                Ok(n) => {
                    let text = String::from_utf8_lossy(&buffer[..n]);
                    return Ok(text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0));
                }
                Err(_) => stream.write_all(b" ")?,
            }
        }
        Ok(0)
    };
    Reply {
        status: attempt().unwrap_or(0),
        bytes: 0,
        took: started.elapsed(),
    }
}

/// What the well-behaved client saw in one phase: each measure on new connections and on one
/// kept-alive connection.
struct Probe {
    healthz: Vec<Duration>,
    legal: Vec<Duration>,
    healthz_kept: Vec<Duration>,
    legal_kept: Vec<Duration>,
    failures: usize,
    /// Computer moves the play page gave, of the times asked.
    player: (usize, usize),
    /// How long each play-page turn took.
    player_took: Vec<Duration>,
}

fn probe(addr: SocketAddr, seconds: u64, state: &str) -> Probe {
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut probe = Probe {
        healthz: Vec::new(),
        legal: Vec::new(),
        healthz_kept: Vec::new(),
        legal_kept: Vec::new(),
        failures: 0,
        player: (0, 0),
        player_took: Vec::new(),
    };
    let mut client = WellBehaved::new(addr, state);
    let mut next_player = Instant::now();
    while Instant::now() < until {
        let (health, legal) = client.round_on_new_connections();
        let (health_kept, legal_kept) = client.round_kept_alive();
        probe.failures += [health, legal, health_kept, legal_kept]
            .iter()
            .filter(|reply| reply.status != 200)
            .count();
        probe.healthz.push(health.took);
        probe.legal.push(legal.took);
        probe.healthz_kept.push(health_kept.took);
        probe.legal_kept.push(legal_kept.took);
        if Instant::now() >= next_player {
            // A player who just placed c3 against the computer (second seat) at normal strength.
            let (status, to, took) = location(
                addr,
                "/play/herfor?pie=false&simple=false&size=5&computer=second&strength=normal&moves=c3",
            );
            probe.player.1 += 1;
            probe.player_took.push(took);
            if status == 303 && to.is_some_and(|l| l.contains("moves=c3.")) {
                probe.player.0 += 1;
            }
            next_player = Instant::now() + Duration::from_secs(1);
        }
        thread::sleep(BETWEEN_ROUNDS);
    }
    probe
}

fn report(name: &str, probe: &Probe) {
    let measure = |times: &[Duration]| {
        format!(
            "p50 {} p99 {}",
            ms(percentile(times, 50)),
            ms(percentile(times, 99))
        )
    };
    println!(
        "{name} ({} rounds): failures {} | page computer moves {}/{} ({})",
        probe.healthz.len(),
        probe.failures,
        probe.player.0,
        probe.player.1,
        measure(&probe.player_took)
    );
    println!(
        "  new connection: healthz {} | legal-moves {}",
        measure(&probe.healthz),
        measure(&probe.legal)
    );
    println!(
        "  kept alive:     healthz {} | legal-moves {}",
        measure(&probe.healthz_kept),
        measure(&probe.legal_kept)
    );
}

/// Runs the plan and prints what it measured; `Err` when the server cannot be reached.
fn run(plan: &Plan) -> Result<(), String> {
    let addr = plan.addr;
    let started = send(addr, "POST", "/api/v1/games/herfor/new", b"{}");
    if started.status != 200 {
        return Err(format!(
            "{addr}: no server answers (status {})",
            started.status
        ));
    }
    let herfor_state = new_state(addr, "herfor", "{}")?;
    let hirth_state = new_state(addr, "hirth", "{}")?;
    let idle = probe(addr, plan.seconds, &herfor_state);
    report("idle", &idle);

    let stop = Arc::new(AtomicBool::new(false));
    let replay =
        Arc::new(format!("{{\"moves\": [{}]}}", vec!["\"end\""; 174_000].join(",")).into_bytes());
    let big_move = Arc::new(
        format!(
            "{{\"state\": {herfor_state}, \"move\": \"{}\"}}",
            "x".repeat(1_040_000)
        )
        .into_bytes(),
    );
    let evaluate = Arc::new(format!("{{\"state\": {hirth_state}, \"millis\": 2000}}").into_bytes());
    let link = Arc::new(format!(
        "/play/hirth?moves={}",
        vec!["end"; 10_000].join(".")
    ));
    type Pattern = Arc<dyn Fn(SocketAddr, &AtomicBool) -> Reply + Send + Sync>;
    let patterns: Vec<(&str, Pattern)> = vec![
        ("replay of 174,000 moves (1 MB)", {
            let body = replay.clone();
            Arc::new(move |a, _| send(a, "POST", "/api/v1/games/hirth/replay", &body))
        }),
        ("apply of a 1 MB move", {
            let body = big_move.clone();
            Arc::new(move |a, _| send(a, "POST", "/api/v1/games/herfor/apply", &body))
        }),
        ("evaluate millis 2000 (Hirþ)", {
            let body = evaluate.clone();
            Arc::new(move |a, _| send(a, "POST", "/api/v1/games/hirth/evaluate", &body))
        }),
        ("page link of 10,000 moves", {
            let path = link.clone();
            Arc::new(move |a, _| send(a, "GET", &path, b""))
        }),
        (
            "slow body (short of its Content-Length)",
            Arc::new(slow_body),
        ),
    ];
    let tallies: Vec<Arc<Mutex<Tally>>> = patterns.iter().map(|_| Arc::default()).collect();
    println!(
        "abusive clients: {} threads {}",
        patterns.len() * plan.clients,
        plan.abusers.describe()
    );
    let mut threads = Vec::new();
    for ((_, pattern), tally) in patterns.iter().zip(&tallies) {
        for _ in 0..plan.clients {
            let (pattern, tally, stop) = (pattern.clone(), tally.clone(), stop.clone());
            let abusers = plan.abusers;
            threads.push(thread::spawn(move || {
                if let Err(e) = abusers.lower_this_thread() {
                    eprintln!("moot-load: an abusive client runs at the normal priority: {e}");
                }
                while !stop.load(Ordering::Relaxed) {
                    let reply = pattern(addr, &stop);
                    tally.lock().expect("tally").add(reply);
                }
            }));
        }
    }
    thread::sleep(Duration::from_millis(500));
    let loaded = probe(addr, plan.seconds, &herfor_state);
    stop.store(true, Ordering::Relaxed);
    report("under the patterns", &loaded);
    for thread in threads {
        let _ = thread.join();
    }
    for ((name, _), tally) in patterns.iter().zip(&tallies) {
        println!(
            "  {name} ×{}: {}",
            plan.clients,
            tally.lock().expect("tally").line()
        );
    }
    let ratio = |loaded: &[Duration], idle: &[Duration]| {
        percentile(loaded, 50).as_secs_f64() / percentile(idle, 50).as_secs_f64().max(1e-6)
    };
    println!(
        "p50 under load / idle, new connection: healthz {:.1}×, legal-moves {:.1}×",
        ratio(&loaded.healthz, &idle.healthz),
        ratio(&loaded.legal, &idle.legal)
    );
    println!(
        "p50 under load / idle, kept alive:     healthz {:.1}×, legal-moves {:.1}×",
        ratio(&loaded.healthz_kept, &idle.healthz_kept),
        ratio(&loaded.legal_kept, &idle.legal_kept)
    );
    Ok(())
}

/// Runs abusive request patterns (4 clients each by default) against a running Moot server for
/// a bounded time and prints the latency of /healthz and legal-moves meanwhile (p50, p99),
/// against the same measured idle first, and whether a play page gets the computer's move.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    /// The server, e.g. http://127.0.0.1:8080.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Seconds of measuring idle, then as many under the patterns (at most 300).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=300))]
    seconds: u64,
    /// Clients per pattern (at most 16).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=16))]
    clients: u64,
    /// The priority of the abusive clients' threads: `idle` (Linux SCHED_IDLE, standing in for
    /// abusers on other machines, so their own CPU use does not count as the server's) or
    /// `normal` (on the same cores as the server, at this command's priority).
    #[arg(long, value_enum, default_value_t = Abusers::Idle)]
    abusers: Abusers,
}

fn main() {
    let cli = Cli::parse();
    let plan = address(&cli.url).map(|addr| Plan {
        addr,
        seconds: cli.seconds,
        clients: cli.clients as usize,
        abusers: cli.abusers,
    });
    if let Err(e) = plan.and_then(|plan| run(&plan)) {
        eprintln!("moot-load: {e}");
        std::process::exit(2);
    }
}
