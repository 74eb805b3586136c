//! `moot-load`: abusive request patterns (huge replays and moves, long searches, very long page
//! links, bodies that never finish) against a running Moot server, for a bounded time, while a
//! well-behaved client measures `GET /healthz` and a normal `legal-moves` (p50, p99)
//! and a player on a play page asks for the computer's move. First the same measures idle.
//!
//! The well-behaved client measures both ways: a new connection per request (the time includes
//! connect and accept) and over one kept-alive connection, as a real client or proxy talks.
//!
//! A small HTTP/1.1 client over `std::net`: no client library, and the slow-body pattern needs a
//! raw socket anyway. The abusive patterns open a connection per request (`Connection: close`).
//!
//! Real abusers run on other machines; here their threads share the cores with the server and
//! the measuring client, and their own CPU use would be measured as the server's unfairness. So
//! by default ([`Abusers::Idle`]) the abusive client threads run under `SCHED_IDLE` (Linux): the
//! server and the measuring client come first, and the abusers send as fast as what is left
//! lets them. [`Abusers::Normal`] runs them at the normal priority, as before. The output says
//! which.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;

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

/// The priority the abusive patterns' client threads run at (see the module).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Abusers {
    /// Under `SCHED_IDLE` (Linux): as if they ran on other machines.
    Idle,
    /// At the priority `moot-load` runs at, competing for the cores with the server.
    Normal,
}

impl Abusers {
    /// Lowers the calling (abusive client) thread as asked.
    fn lower_this_thread(self) -> Result<(), String> {
        match self {
            Abusers::Normal => Ok(()),
            #[cfg(target_os = "linux")]
            Abusers::Idle => idle_this_thread(),
            #[cfg(not(target_os = "linux"))]
            Abusers::Idle => Err("SCHED_IDLE is Linux's".to_owned()),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Abusers::Idle => {
                "under SCHED_IDLE (standing in for clients on other machines: the server and the measuring client come first)"
            }
            Abusers::Normal => "at the normal priority, on the same cores as the server",
        }
    }
}

/// One answer: status (0: no answer), bytes of body, time taken.
#[derive(Clone, Copy, Debug)]
struct Reply {
    status: u16,
    bytes: usize,
    took: Duration,
}

/// Reads a server address from `http://host:port` (or `host:port`).
fn address(url: &str) -> Result<SocketAddr, String> {
    let rest = url.trim_start_matches("http://").trim_end_matches('/');
    rest.to_socket_addrs()
        .map_err(|e| format!("{url}: {e}"))?
        .next()
        .ok_or_else(|| format!("{url}: no address"))
}

fn send(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> Reply {
    let started = Instant::now();
    let attempt = || -> std::io::Result<(u16, usize)> {
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        let head = format!(
            "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes())?;
        stream.write_all(body)?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer)?;
        let status = answer
            .get(9..12)
            .and_then(|s| std::str::from_utf8(s).ok())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body_at = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(answer.len(), |i| i + 4);
        Ok((status, answer.len() - body_at))
    };
    let (status, bytes) = attempt().unwrap_or((0, 0));
    Reply {
        status,
        bytes,
        took: started.elapsed(),
    }
}

/// One connection kept alive across requests; reconnects (within the request's time) when the
/// server closed it.
struct KeptAlive {
    addr: SocketAddr,
    connection: Option<BufReader<TcpStream>>,
}

impl KeptAlive {
    fn new(addr: SocketAddr) -> Self {
        KeptAlive {
            addr,
            connection: None,
        }
    }

    fn send(&mut self, method: &str, path: &str, body: &[u8]) -> Reply {
        let started = Instant::now();
        // A kept connection the server closed meanwhile fails at once: one retry on a new one.
        let answer = self
            .attempt(method, path, body)
            .or_else(|_| self.attempt(method, path, body));
        let (status, bytes) = answer.unwrap_or_else(|_| {
            self.connection = None;
            (0, 0)
        });
        Reply {
            status,
            bytes,
            took: started.elapsed(),
        }
    }

    fn attempt(&mut self, method: &str, path: &str, body: &[u8]) -> std::io::Result<(u16, usize)> {
        if self.connection.is_none() {
            let stream = TcpStream::connect_timeout(&self.addr, Duration::from_secs(5))?;
            stream.set_read_timeout(Some(Duration::from_secs(30)))?;
            stream.set_nodelay(true)?;
            self.connection = Some(BufReader::new(stream));
        }
        let connection = self.connection.as_mut().expect("connected above");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        let mut request = head.into_bytes();
        request.extend_from_slice(body);
        connection.get_mut().write_all(&request)?;
        let answer = read_answer(connection);
        if !matches!(answer, Ok((_, _, true))) {
            self.connection = None;
        }
        answer.map(|(status, bytes, _)| (status, bytes))
    }
}

/// Reads one HTTP/1.1 answer (`Content-Length` or chunked): status, body bytes, and whether the
/// connection stays open.
fn read_answer(reader: &mut BufReader<TcpStream>) -> std::io::Result<(u16, usize, bool)> {
    let broken = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Err(broken("closed"));
    }
    let status = line
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| broken("no status"))?;
    let (mut length, mut chunked, mut open) = (0usize, false, true);
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let header = line.trim_end().to_ascii_lowercase();
        if header.is_empty() {
            break;
        }
        if let Some(value) = header.strip_prefix("content-length:") {
            length = value.trim().parse().map_err(|_| broken("content-length"))?;
        } else if header.starts_with("transfer-encoding:") && header.ends_with("chunked") {
            chunked = true;
        } else if header.starts_with("connection:") && header.ends_with("close") {
            open = false;
        }
    }
    if !chunked {
        std::io::copy(
            &mut reader.by_ref().take(length as u64),
            &mut std::io::sink(),
        )?;
        return Ok((status, length, open));
    }
    let mut total = 0;
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let size = usize::from_str_radix(line.trim(), 16).map_err(|_| broken("chunk size"))?;
        // The chunk and the line end after it.
        std::io::copy(
            &mut reader.by_ref().take(size as u64 + 2),
            &mut std::io::sink(),
        )?;
        total += size;
        if size == 0 {
            return Ok((status, total, open));
        }
    }
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

/// Puts the calling thread under `SCHED_IDLE`: it runs only when no other thread wants the core.
#[cfg(target_os = "linux")]
fn idle_this_thread() -> Result<(), String> {
    use thread_priority::{
        NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy,
        set_thread_priority_and_policy, thread_native_id, thread_schedule_policy,
    };
    let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
    // The crate also sets the nice value (to 0, which `SCHED_IDLE` ignores); that part may be
    // refused for a niced process while the policy itself took: the policy decides.
    let asked = set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle);
    match (thread_schedule_policy(), asked) {
        (Ok(now), _) if now == idle => Ok(()),
        (_, Err(e)) => Err(format!("{e:?}")),
        (_, Ok(())) => Err("the policy did not change".to_owned()),
    }
}

#[derive(Default)]
struct Tally {
    statuses: BTreeMap<u16, usize>,
    bytes: usize,
    took: Vec<Duration>,
}

impl Tally {
    fn add(&mut self, reply: Reply) {
        *self.statuses.entry(reply.status).or_default() += 1;
        self.bytes += reply.bytes;
        self.took.push(reply.took);
    }

    fn line(&self) -> String {
        let statuses: Vec<String> = self
            .statuses
            .iter()
            .map(|(s, n)| format!("{s}×{n}"))
            .collect();
        let mean_bytes = self.bytes / self.took.len().max(1);
        format!(
            "{} requests [{}], mean body {} B, time p50 {} p99 {}",
            self.took.len(),
            statuses.join(" "),
            mean_bytes,
            ms(percentile(&self.took, 50)),
            ms(percentile(&self.took, 99))
        )
    }
}

fn percentile(times: &[Duration], p: usize) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[(sorted.len() - 1) * p / 100]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
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
    let legal_body = format!("{{\"state\": {state}}}");
    let legal_path = "/api/v1/games/herfor/legal-moves";
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
    let mut kept = KeptAlive::new(addr);
    let mut next_player = Instant::now();
    while Instant::now() < until {
        let health = send(addr, "GET", "/healthz", b"");
        let legal = send(addr, "POST", legal_path, legal_body.as_bytes());
        let health_kept = kept.send("GET", "/healthz", b"");
        let legal_kept = kept.send("POST", legal_path, legal_body.as_bytes());
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
        thread::sleep(Duration::from_millis(20));
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
    let herfor_state = state_of(addr, "herfor")?;
    let hirth_state = state_of(addr, "hirth")?;
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

fn state_of(addr: SocketAddr, game: &str) -> Result<String, String> {
    let path = format!("/api/v1/games/{game}/new");
    let mut stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{{}}"
    );
    stream
        .write_all(head.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let value: serde_json::Value =
        serde_json::from_str(body).map_err(|e| format!("{game}: {e}"))?;
    Ok(value["state"].to_string())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn policy_of_a_thread_lowered_as(abusers: Abusers) -> thread_priority::ThreadSchedulePolicy {
        thread::spawn(move || {
            abusers.lower_this_thread().expect("lowered");
            thread_priority::thread_schedule_policy().expect("the policy reads")
        })
        .join()
        .expect("the thread ends")
    }

    #[test]
    fn abusive_clients_run_under_sched_idle_unless_asked_for_normal() {
        use thread_priority::{NormalThreadSchedulePolicy, ThreadSchedulePolicy};
        assert_eq!(
            policy_of_a_thread_lowered_as(Abusers::Idle),
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle)
        );
        assert_eq!(
            policy_of_a_thread_lowered_as(Abusers::Normal),
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other)
        );
    }
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
    #[arg(long, value_enum, default_value_t = AbusersAt::Idle)]
    abusers: AbusersAt,
}

/// `--abusers` (see [`Abusers`]).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum AbusersAt {
    Idle,
    Normal,
}

fn main() {
    let cli = Cli::parse();
    let plan = address(&cli.url).map(|addr| Plan {
        addr,
        seconds: cli.seconds,
        clients: cli.clients as usize,
        abusers: match cli.abusers {
            AbusersAt::Idle => Abusers::Idle,
            AbusersAt::Normal => Abusers::Normal,
        },
    });
    if let Err(e) = plan.and_then(|plan| run(&plan)) {
        eprintln!("moot-load: {e}");
        std::process::exit(2);
    }
}
