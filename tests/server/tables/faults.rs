//! The database failing under the real binary, with real parts: an SQLite file on a small
//! tmpfs filled mid-burst, its directory removed, the file read-only and restored; a private
//! PostgreSQL (from `initdb`, never the shared server) stopped and started; `kill -9` and
//! SIGTERM mid-burst on both databases. In each: every move answered 200 is stored, no move
//! is stored that was refused, each refusal is a 503 `storage_unavailable` with
//! `Retry-After` within 5 s of the fault, the server takes moves again by itself when the
//! database is back, and it stops on SIGTERM with exit 0 and no panic.
//!
//! Besides: past the limit of open files, streams are refused while moves answer; a backup
//! taken mid-burst (`moot backup` on SQLite, `pg_dump` on PostgreSQL) restores to a working
//! database.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use moot::games::Game;
use moot::games::herfor::Herfor;
use serde_json::{Value, json};

use crate::both;
use crate::common::ports::{free_port, wait_for_port};

/// An answer: status, head (lower-cased) and body.
struct Answer {
    status: u16,
    head: String,
    body: Value,
    took: Duration,
}

impl Answer {
    fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or("")
    }

    fn retry_after(&self) -> Option<u64> {
        self.head
            .lines()
            .find_map(|line| line.strip_prefix("retry-after:"))
            .and_then(|value| value.trim().parse().ok())
    }
}

/// One HTTP/1.0 request, given 20 s; status 0 when no server answered.
fn call(
    port: u16,
    method: &str,
    path: &str,
    credential: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    call_keyed(port, method, path, credential, body, None)
}

/// [`call`] with an `Idempotency-Key`, if given.
fn call_keyed(
    port: u16,
    method: &str,
    path: &str,
    credential: Option<&str>,
    body: Option<&Value>,
    key: Option<&str>,
) -> Answer {
    let started = Instant::now();
    let unanswered = || Answer {
        status: 0,
        head: String::new(),
        body: Value::Null,
        took: started.elapsed(),
    };
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut auth = credential
        .map(|c| format!("Authorization: Bearer {c}\r\n"))
        .unwrap_or_default();
    if let Some(key) = key {
        auth.push_str(&format!("Idempotency-Key: {key}\r\n"));
    }
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return unanswered();
    };
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let sent = write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut answer = String::new();
    if sent.is_err() || stream.read_to_string(&mut answer).is_err() || answer.len() < 12 {
        return unanswered();
    }
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    Answer {
        status: head[9..12].parse().unwrap_or(0),
        head: head.to_ascii_lowercase(),
        body: serde_json::from_str(body).unwrap_or(Value::Null),
        took: started.elapsed(),
    }
}

/// The server binary on `url`, its log and its standard error kept in `log` (to look for
/// panics).
struct Server {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Server {
    fn start(url: &str, log: &Path) -> Server {
        Server::start_with(url, log, &[], &[])
    }

    /// Started through `prefix` (a command that runs the rest: `setpriv …`, `prlimit …`),
    /// with `flags` besides.
    fn start_with(url: &str, log: &Path, flags: &[&str], prefix: &[String]) -> Server {
        let port = free_port();
        let binary = env!("CARGO_BIN_EXE_moot");
        let mut command = match prefix.split_first() {
            Some((program, args)) => {
                let mut c = Command::new(program);
                c.args(args).arg(binary);
                c
            }
            None => Command::new(binary),
        };
        let log_file = std::fs::File::create(log).expect("a log file");
        command.args(["--bind", &format!("127.0.0.1:{port}"), "--database", url]);
        // A short wait for a connection, unless the test names its own.
        if !flags.iter().any(|f| f.starts_with("--database-wait-ms")) {
            command.args(["--database-wait-ms", "2000"]);
        }
        let child = command
            .args(flags)
            .env("RUST_LOG", "warn")
            .stdout(log_file.try_clone().expect("the log file twice"))
            .stderr(log_file)
            .spawn()
            .expect("the moot binary starts");
        wait_for_port(port, "moot");
        Server {
            child,
            port,
            log: log.to_owned(),
        }
    }

    /// SIGTERM: the server must exit 0 within its grace, without a panic.
    fn stop(mut self) {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).expect("a pid");
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM");
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not stop within 20 s of SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        assert!(!log.contains("panicked"), "a panic at the stop:\n{log}");
        assert_eq!(
            status.code(),
            Some(0),
            "exit status after SIGTERM; log:\n{log}"
        );
    }

    /// `kill -9`.
    fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One Herfor table being played: its id, credentials and the table as last answered.
struct Seated {
    id: String,
    credentials: [String; 2],
    table: Value,
}

/// A client playing tables one move each in turn, remembering what it was told.
#[derive(Default)]
struct Player {
    tables: Vec<Seated>,
    next: usize,
    /// Each table's last ply answered 200.
    acked: BTreeMap<String, u64>,
    /// Every answer that was not 200/201, with when it came.
    refused: Vec<(Instant, Answer)>,
    /// The last move sent and not answered 200: its table, credential, body and key.
    unanswered: Option<(String, String, Value, String)>,
}

impl Player {
    /// A player of `count` new tables on `port`.
    fn new(port: u16, count: usize) -> Player {
        let mut player = Player::default();
        while player.tables.len() < count {
            assert!(player.open(port), "a table is created");
        }
        player
    }

    /// Opens a new table; `false` if refused.
    fn open(&mut self, port: u16) -> bool {
        let created = call(
            port,
            "POST",
            "/api/v1/tables",
            None,
            Some(&json!({"game": "herfor", "options": {"size": 7}})),
        );
        if created.status != 201 {
            self.refused.push((Instant::now(), created));
            return false;
        }
        let (id, credentials) = crate::tables::db::seats(&created.body);
        self.acked.insert(id.clone(), 0);
        self.tables.push(Seated {
            id,
            credentials,
            table: created.body["table"].clone(),
        });
        true
    }

    /// Plays one move at the next table (a finished one replaced by a new table); the status.
    fn step(&mut self, port: u16) -> u16 {
        self.next = (self.next + 1) % self.tables.len();
        let seated = &self.tables[self.next];
        if seated.table["status"] != "ongoing" {
            self.tables.swap_remove(self.next);
            return if self.open(port) { 201 } else { 503 };
        }
        let state: <Herfor as Game>::State =
            serde_json::from_value(seated.table["state"].clone()).unwrap();
        let mv = Herfor::format_move(&state, &Herfor::legal_moves(&state)[0]);
        let seat = crate::tables::db::to_act(&seated.table);
        // Each move is sent with a key of its own (the table and the ply it is played at), so
        // that one whose answer was lost can be sent again safely.
        let body = json!({"move": mv, "ply": seated.table["ply"]});
        let key = format!("{}-{}", seated.id, seated.table["ply"]);
        let credential = seated.credentials[seat].clone();
        self.unanswered = Some((
            seated.id.clone(),
            credential.clone(),
            body.clone(),
            key.clone(),
        ));
        let answer = call_keyed(
            port,
            "POST",
            &format!("/api/v1/tables/{}/moves", seated.id),
            Some(&credential),
            Some(&body),
            Some(&key),
        );
        let status = answer.status;
        if status == 200 {
            self.unanswered = None;
            self.acked
                .insert(seated.id.clone(), answer.body["ply"].as_u64().unwrap());
            self.tables[self.next].table = answer.body;
        } else {
            self.refused.push((Instant::now(), answer));
        }
        status
    }

    /// Plays `moves` moves, each answered 200.
    fn play(&mut self, port: u16, moves: usize) {
        for _ in 0..moves {
            let status = self.step(port);
            assert!(
                status < 300,
                "a move refused: {:?}",
                self.refused.last().map(|(_, a)| &a.body)
            );
        }
    }

    /// Plays for `time`.
    fn play_for(&mut self, port: u16, time: Duration) {
        let until = Instant::now() + time;
        while Instant::now() < until {
            self.step(port);
        }
    }

    /// Plays until `wanted` moves in a row are taken, failing after `within`: the server
    /// recovered by itself.
    fn until_taken(&mut self, port: u16, wanted: usize, within: Duration) {
        let deadline = Instant::now() + within;
        let mut in_a_row = 0;
        while in_a_row < wanted {
            assert!(
                Instant::now() < deadline,
                "moves not taken again within {within:?} of the database's return: {:?}",
                self.refused.last().map(|(_, a)| &a.body)
            );
            if self.step(port) < 300 {
                in_a_row += 1;
            } else {
                in_a_row = 0;
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }

    /// Every refusal since `from` is a 503 `storage_unavailable` with `Retry-After`, answered
    /// within 5 s; how many there were.
    fn refusals_are_storage_since(&self, from: Instant) -> usize {
        let mut count = 0;
        for (at, answer) in self.refused.iter().filter(|(at, _)| *at >= from) {
            count += 1;
            assert_eq!(
                (answer.status, answer.code()),
                (503, "storage_unavailable"),
                "a refusal after the fault: {:#}",
                answer.body
            );
            assert!(
                answer.retry_after().is_some(),
                "Retry-After: {}",
                answer.head
            );
            assert!(
                answer.took < Duration::from_secs(5),
                "refused after {:?} (at {:?} since the fault)",
                answer.took,
                at.duration_since(from)
            );
        }
        count
    }

    /// Every refusal since `from` was answered within `bound`.
    fn refused_within_since(&self, from: Instant, bound: Duration) {
        for (_, answer) in self.refused.iter().filter(|(at, _)| *at >= from) {
            assert!(answer.took < bound, "refused after {:?}", answer.took);
        }
    }

    /// Every table on the server at `port` holds exactly the plies it was told were taken.
    fn all_kept(&self, port: u16) {
        for (id, ply) in &self.acked {
            let table = call(port, "GET", &format!("/api/v1/tables/{id}"), None, None);
            assert_eq!(table.status, 200, "{:#}", table.body);
            assert_eq!(
                table.body["ply"], *ply,
                "table {id}: stored ply vs acknowledged"
            );
        }
    }
}

/// `/readyz`'s status.
fn ready(port: u16) -> u16 {
    call(port, "GET", "/readyz", None, None).status
}

/// Waits until `/readyz` answers `status`, failing after 15 s.
fn wait_ready(port: u16, status: u16) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while ready(port) != status {
        assert!(
            Instant::now() < deadline,
            "/readyz did not answer {status} within 15 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A directory of the test's own, removed at the end.
fn scratch(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("moot-faults-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// A tmpfs of `size` mounted at `dir`, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// `None` (with the reason said) where this process may not mount one.
    fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output();
        match mounted {
            Ok(out) if out.status.success() => Some(Tmpfs(dir.to_owned())),
            Ok(out) => {
                eprintln!(
                    "SKIPPED: cannot mount a tmpfs here ({}); run as root to test a full disk",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                None
            }
            Err(error) => {
                eprintln!("SKIPPED: cannot run mount ({error}); run as root to test a full disk");
                None
            }
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Fills the file system of `dir` to the last byte with a file, returned.
fn fill(dir: &Path) -> PathBuf {
    let filler = dir.join("filler");
    let mut file = std::fs::File::create(&filler).unwrap();
    let block = vec![0u8; 64 * 1024];
    while file.write_all(&block).is_ok() {}
    let small = [0u8; 512];
    while file.write_all(&small).is_ok() {}
    let _ = file.sync_all();
    filler
}

#[test]
fn sqlite_on_a_full_disk_keeps_every_acknowledged_move_and_recovers() {
    let dir = scratch("full");
    let mount = dir.join("disk");
    std::fs::create_dir_all(&mount).unwrap();
    // Room for the database beyond what the filler takes: until its first checkpoint (at
    // 1,000 pages of log) the whole database is in its write-ahead log, 3.3 MB once the
    // migrations and the first moves are in; on a 4 MiB disk the moves after the filler's
    // removal did not fit beside it.
    let Some(tmpfs) = Tmpfs::mount(&mount, "16m") else {
        return;
    };
    let url = format!("sqlite://{}/moot.db", mount.display());
    let server = Server::start(&url, &dir.join("first.log"));
    let port = server.port;
    let mut player = Player::new(port, 4);
    player.play(port, 60);

    let filler = fill(&mount);
    let full = Instant::now();
    // Commits that fit in the space the log already has go through: play until one does not.
    while player.refused.is_empty() {
        assert!(
            full.elapsed() < Duration::from_secs(20),
            "the full disk refused no move in 20 s"
        );
        player.step(port);
    }
    player.play_for(port, Duration::from_secs(2));
    player.refusals_are_storage_since(full);
    assert_eq!(ready(port), 503, "/readyz while the disk is full");
    assert_eq!(call(port, "GET", "/healthz", None, None).status, 200);

    std::fs::remove_file(filler).unwrap();
    player.until_taken(port, 20, Duration::from_secs(10));
    wait_ready(port, 200);
    player.all_kept(port);
    server.stop();

    let again = Server::start(&url, &dir.join("second.log"));
    player.all_kept(again.port);
    again.stop();
    drop(tmpfs);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sqlite_whose_directory_is_removed_refuses_every_later_move() {
    let dir = scratch("removed");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let url = format!("sqlite://{}/moot.db", home.display());
    let server = Server::start(&url, &dir.join("moot.log"));
    let port = server.port;
    let mut player = Player::new(port, 2);
    player.play(port, 10);

    std::fs::remove_dir_all(&home).unwrap();
    let removed = Instant::now();
    for _ in 0..10 {
        assert_eq!(player.step(port), 503, "a move after the file was removed");
    }
    assert_eq!(player.refusals_are_storage_since(removed), 10);
    assert_eq!(ready(port), 503);
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sqlite_read_only_is_refused_then_taken_once_writable() {
    let dir = scratch("readonly");
    // The file's permissions bind root only through another user: as root the server runs as
    // nobody, in a directory of its own.
    let user = is_root().then_some((65534, 65534));
    let prefix: Vec<String> = match user {
        Some((uid, gid)) => vec![
            "setpriv".into(),
            format!("--reuid={uid}"),
            format!("--regid={gid}"),
            "--clear-groups".into(),
        ],
        None => vec![],
    };
    if let Some((uid, gid)) = user {
        rustix::fs::chown(
            &dir,
            Some(rustix::fs::Uid::from_raw(uid)),
            Some(rustix::fs::Gid::from_raw(gid)),
        )
        .unwrap();
    }
    let file = dir.join("moot.db");
    let url = format!("sqlite://{}", file.display());
    let server = Server::start_with(&url, &dir.join("first.log"), &[], &prefix);
    let mut player = Player::new(server.port, 2);
    player.play(server.port, 10);
    server.stop();

    // The file alone, read-only: the server started on it makes its -wal and -shm, as
    // read-only as the file.
    checkpoint(&file);
    set_mode(&file, 0o444);
    let server = Server::start_with(&url, &dir.join("second.log"), &[], &prefix);
    let port = server.port;
    let read_only = Instant::now();
    for _ in 0..5 {
        assert_eq!(player.step(port), 503, "a move into a read-only file");
    }
    assert_eq!(player.refusals_are_storage_since(read_only), 5);
    assert_eq!(ready(port), 503);
    let beside = |end: &str| PathBuf::from(format!("{}{end}", file.display()));
    for made in [beside("-wal"), beside("-shm")] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&made).map(|m| m.permissions().mode() & 0o777);
        assert_eq!(mode.ok(), Some(0o444), "{}", made.display());
    }

    // `chmod 644 moot.db*`: taken again without a restart.
    for fixed in [file.clone(), beside("-wal"), beside("-shm")] {
        set_mode(&fixed, 0o644);
    }
    player.until_taken(port, 10, Duration::from_secs(10));
    wait_ready(port, 200);
    player.all_kept(port);
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Folds the write-ahead log of the SQLite file `file` into it and removes the log, as the
/// last connection to close does.
fn checkpoint(file: &Path) {
    use sqlx::Connection;
    let url = format!("sqlite://{}", file.display());
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(async {
            let mut connection = sqlx::SqliteConnection::connect(&url).await.unwrap();
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(&mut connection)
                .await
                .unwrap();
            connection.close().await.unwrap();
        });
    let wal = PathBuf::from(format!("{}-wal", file.display()));
    assert!(!wal.exists(), "the log is folded in and removed");
}

fn set_mode(file: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A PostgreSQL server of the test's own, from `initdb` in a temporary directory, run as the
/// `postgres` user when the test is root (PostgreSQL refuses to run as root).
struct PrivatePostgres {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    user: Option<(u32, u32)>,
}

impl PrivatePostgres {
    /// `None` (said) where PostgreSQL's programs are not installed, unless the suite
    /// requires PostgreSQL.
    fn start(dir: &Path) -> Option<PrivatePostgres> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|versions| {
                versions
                    .filter_map(Result::ok)
                    .map(|v| v.path().join("bin"))
                    .filter(|b| b.join("initdb").exists())
                    .max()
            });
        let Some(bin) = bin else {
            assert_ne!(
                std::env::var(crate::tables::db::REQUIRE_VAR).as_deref(),
                Ok("1"),
                "PostgreSQL's programs (initdb, pg_ctl) are missing under /usr/lib/postgresql"
            );
            eprintln!("SKIPPED: no initdb under /usr/lib/postgresql");
            return None;
        };
        let user = is_root().then(|| {
            let out = Command::new("id")
                .args(["-u", "postgres"])
                .output()
                .unwrap();
            let uid: u32 = String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .expect("a postgres user");
            let out = Command::new("id")
                .args(["-g", "postgres"])
                .output()
                .unwrap();
            let gid: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
            (uid, gid)
        });
        let data = dir.join("pgdata");
        std::fs::create_dir_all(&data).unwrap();
        if let Some((uid, gid)) = user {
            for path in [dir, &data] {
                rustix::fs::chown(
                    path,
                    Some(rustix::fs::Uid::from_raw(uid)),
                    Some(rustix::fs::Gid::from_raw(gid)),
                )
                .unwrap();
            }
        }
        let postgres = PrivatePostgres {
            bin,
            data,
            port: free_port(),
            user,
        };
        postgres.run(
            "initdb",
            &[
                "-D",
                &postgres.data.display().to_string(),
                "-U",
                "moot",
                "--auth=trust",
                "-N",
            ],
        );
        postgres.up();
        postgres.run(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &postgres.port.to_string(),
                "-U",
                "moot",
                "moot",
            ],
        );
        Some(postgres)
    }

    fn url(&self) -> String {
        format!("postgres://moot@127.0.0.1:{}/moot", self.port)
    }

    /// `program` of PostgreSQL's, run as its user.
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        let mut command = match self.user {
            Some((uid, gid)) => {
                let mut c = Command::new("setpriv");
                c.args([
                    &format!("--reuid={uid}"),
                    &format!("--regid={gid}"),
                    "--clear-groups",
                ])
                .arg(&path);
                c
            }
            None => Command::new(&path),
        };
        command.current_dir(self.data.parent().unwrap());
        command
    }

    /// Runs `program` with `args`, which must succeed.
    fn run(&self, program: &str, args: &[&str]) {
        let out = self.command(program).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn up(&self) {
        let data = self.data.display().to_string();
        let options = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {} -c fsync=off",
            self.port, data
        );
        let log = format!("{data}/../postgres.log");
        self.run(
            "pg_ctl",
            &["-D", &data, "-o", &options, "-l", &log, "-w", "start"],
        );
    }

    /// Stopped at once, as a crash would (no checkpoint).
    fn down(&self) {
        let data = self.data.display().to_string();
        self.run("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let data = self.data.display().to_string();
        let _ = self
            .command("pg_ctl")
            .args(["-D", &data, "-m", "immediate", "stop"])
            .output();
    }
}

#[test]
fn postgres_stopped_is_refused_quickly_and_taken_again_when_it_returns() {
    let dir = scratch("postgres");
    let Some(postgres) = PrivatePostgres::start(&dir) else {
        return;
    };
    // A long wait for a connection: once the probe has found the database down, refusals
    // come at once, not after it.
    let wait = Duration::from_secs(8);
    let wait_flag = format!("--database-wait-ms={}", wait.as_millis());
    let server = Server::start_with(&postgres.url(), &dir.join("first.log"), &[&wait_flag], &[]);
    let port = server.port;
    let mut player = Player::new(port, 3);
    player.play(port, 30);

    postgres.down();
    wait_ready(port, 503);
    let down = Instant::now();
    for _ in 0..5 {
        assert_eq!(player.step(port), 503, "a move while PostgreSQL is down");
    }
    assert_eq!(player.refusals_are_storage_since(down), 5);
    player.refused_within_since(down, wait / 8);
    assert_eq!(ready(port), 503, "/readyz while PostgreSQL is down");
    let health = call(port, "GET", "/healthz", None, None);
    assert_eq!(health.status, 200);
    assert!(
        health.took < Duration::from_millis(100),
        "/healthz took {:?}",
        health.took
    );

    postgres.up();
    player.until_taken(port, 20, Duration::from_secs(15));
    wait_ready(port, 200);
    server.stop();

    let again = Server::start(&postgres.url(), &dir.join("second.log"));
    player.all_kept(again.port);
    again.stop();
    drop(postgres);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays from a thread of its own until told, then returns the player.
fn burst(
    port: u16,
    player: Player,
) -> (
    std::sync::Arc<std::sync::atomic::AtomicBool>,
    std::thread::JoinHandle<Player>,
) {
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let until = done.clone();
    let thread = std::thread::spawn(move || {
        let mut player = player;
        while !until.load(std::sync::atomic::Ordering::Relaxed) {
            if !matches!(player.step(port), 200 | 201) {
                break;
            }
        }
        player
    });
    (done, thread)
}

both!(
    kill_9_mid_burst_loses_no_acknowledged_move,
    |url: String| async move {
        let dir = scratch("kill");
        let server = Server::start(&url, &dir.join("first.log"));
        let port = server.port;
        let players: Vec<_> = (0..3).map(|_| burst(port, Player::new(port, 2))).collect();
        std::thread::sleep(Duration::from_millis(1500));
        server.kill();
        let players: Vec<Player> = players
            .into_iter()
            .map(|(done, thread)| {
                done.store(true, std::sync::atomic::Ordering::Relaxed);
                thread.join().expect("a player")
            })
            .collect();

        let again = Server::start(&url, &dir.join("second.log"));
        for player in &players {
            for (id, acked) in &player.acked {
                let table = call(
                    again.port,
                    "GET",
                    &format!("/api/v1/tables/{id}"),
                    None,
                    None,
                );
                let stored = table.body["ply"].as_u64().unwrap();
                // The move in flight at the kill may have committed, its answer lost.
                assert!(
                    stored == *acked || stored == acked + 1,
                    "table {id}: acknowledged {acked}, stored {stored}"
                );
            }
            // That move sent again with its key: its first answer if it was committed (made
            // once), else it is made now.
            let Some((id, credential, body, key)) = &player.unanswered else {
                continue;
            };
            let table = call(
                again.port,
                "GET",
                &format!("/api/v1/tables/{id}"),
                None,
                None,
            );
            let committed_before = table.body["ply"].as_u64() == Some(player.acked[id] + 1);
            let resent = call_keyed(
                again.port,
                "POST",
                &format!("/api/v1/tables/{id}/moves"),
                Some(credential),
                Some(body),
                Some(key),
            );
            assert_eq!(resent.status, 200, "{:#}", resent.body);
            assert_eq!(
                resent.head.contains("idempotent-replayed: true"),
                committed_before,
                "replayed exactly when the kill came after the commit"
            );
            assert_eq!(resent.body["ply"], player.acked[id] + 1);
        }
        again.stop();
        let _ = std::fs::remove_dir_all(&dir);
    }
);

both!(
    sigterm_mid_burst_with_a_stream_open_exits_0,
    |url: String| async move {
        let dir = scratch("term");
        let server = Server::start(&url, &dir.join("first.log"));
        let port = server.port;
        let player = Player::new(port, 2);
        let id = player.tables[0].id.clone();
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            stream,
            "GET /api/v1/tables/{id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        )
        .unwrap();
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).unwrap();
        assert_eq!(&head[9..12], b"200", "the stream opens");
        let (done, thread) = burst(port, player);
        std::thread::sleep(Duration::from_millis(500));
        let stopping = Instant::now();
        server.stop();
        assert!(
            stopping.elapsed() < Duration::from_secs(5),
            "an open stream held the stop for {:?}",
            stopping.elapsed()
        );
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        let player = thread.join().expect("a player");

        let again = Server::start(&url, &dir.join("second.log"));
        for (id, acked) in &player.acked {
            let table = call(
                again.port,
                "GET",
                &format!("/api/v1/tables/{id}"),
                None,
                None,
            );
            let stored = table.body["ply"].as_u64().unwrap();
            assert!(
                stored == *acked || stored == acked + 1,
                "table {id}: acknowledged {acked}, stored {stored}"
            );
        }
        again.stop();
        let _ = std::fs::remove_dir_all(&dir);
    }
);

/// What the server keeps of its open files for all but streams (`FILES_KEPT` in src/main.rs).
const FILES_KEPT: u64 = 512;

#[test]
fn streams_past_the_open_files_limit_are_refused_while_moves_still_answer() {
    // This process holds every stream's other end.
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    rustix::process::setrlimit(
        rustix::process::Resource::Nofile,
        rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        },
    )
    .expect("the test's own limit of open files raised");
    // The server's limit of open files: 1,000 here; `MOOT_TEST_OPEN_FILES=20000` measures at
    // the default --max-event-streams' scale (25,000 attempts).
    let files: u64 = std::env::var("MOOT_TEST_OPEN_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let attempts = files as usize * 5 / 4;
    let dir = scratch("files");
    let url = format!("sqlite://{}/moot.db", dir.display());
    let prefix = vec![
        "prlimit".to_owned(),
        format!("--nofile={files}:{files}"),
        "--".to_owned(),
    ];
    // Every stream comes from this one address: its share lifted.
    let server = Server::start_with(
        &url,
        &dir.join("moot.log"),
        &[
            "--trust-forwarded",
            "--event-streams-per-address",
            "1000000",
        ],
        &prefix,
    );
    let port = server.port;
    // 30 streams a table (under the per-table cap), a quarter more attempts than the server's
    // whole limit of open files; the tables made from as many addresses as their shares take.
    let mut tables = Vec::new();
    for i in 0..attempts.div_ceil(30) {
        let created = forwarded(
            port,
            &format!("10.0.{}.{}", i / 20 / 250, i / 20 % 250 + 1),
            "POST",
            "/api/v1/tables",
            &json!({"game": "herfor", "options": {"size": 7}}).to_string(),
        );
        assert!(created.starts_with("HTTP/1.1 201"), "{created}");
        let body = created.split_once("\r\n\r\n").unwrap().1;
        let created: Value = serde_json::from_str(body).unwrap();
        tables.push(crate::tables::db::seats(&created));
    }
    let mut open = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for round in 0..30 {
        for (id, _) in &tables {
            if accepted + refused == attempts {
                break;
            }
            let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
                panic!("connection {round} to table {id} not accepted");
            };
            stream
                .set_read_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            write!(
                stream,
                "GET /api/v1/tables/{id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            )
            .unwrap();
            let mut head = [0u8; 12];
            stream
                .read_exact(&mut head)
                .expect("an answer to each stream's request");
            match &head[9..12] {
                b"200" => {
                    accepted += 1;
                    open.push(stream);
                }
                b"503" => refused += 1,
                other => panic!("a stream answered {}", String::from_utf8_lossy(other)),
            }
        }
    }
    // Watchers take nine tenths of the streams the open files leave: the rest are the seats'.
    let streams = (files - FILES_KEPT) as usize;
    let allowed = streams - streams / 10;
    assert_eq!(
        accepted, allowed,
        "watchers' streams kept: nine tenths of the limit of open files less what is kept"
    );
    assert_eq!(refused, attempts - allowed);
    // A seat's player still follows its table.
    let (id, credentials) = &tables[0];
    let mut seat = TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    seat.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(
        seat,
        "GET /api/v1/tables/{id}/events?credential={} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        credentials[0]
    )
    .unwrap();
    let mut head = [0u8; 12];
    seat.read_exact(&mut head).expect("an answer");
    assert_eq!(
        &head[9..12],
        b"200",
        "a seat's stream beside the full watchers"
    );

    let health = call(port, "GET", "/healthz", None, None);
    assert_eq!(health.status, 200);
    assert!(
        health.took < Duration::from_millis(100),
        "/healthz took {:?}",
        health.took
    );
    let mut player = Player::new(port, 1);
    let mut slowest = Duration::ZERO;
    for _ in 0..5 {
        let started = Instant::now();
        assert_eq!(player.step(port), 200);
        slowest = slowest.max(started.elapsed());
        assert!(
            started.elapsed() < Duration::from_millis(100),
            "a move took {:?}",
            started.elapsed()
        );
    }
    eprintln!(
        "open files {files}: {accepted} streams kept, {refused} refused with 503; /healthz in {:?}, the slowest of 5 moves in {slowest:?}",
        health.took
    );
    let log = std::fs::read_to_string(dir.join("moot.log")).unwrap();
    assert!(
        log.contains("lowered"),
        "the lowered limit is said in the log:\n{log}"
    );
    drop(open);
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// One HTTP/1.0 request as if forwarded for `client` by a proxy: the whole answer.
fn forwarded(port: u16, client: &str, method: &str, path: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nX-Forwarded-For: {client}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.replacen("HTTP/1.0", "HTTP/1.1", 1)
}

/// `moot backup` with `args`: its exit status and what it said.
fn backup(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_moot"))
        .arg("backup")
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .expect("moot backup runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

/// A server on a restored copy (at `port`) has every table, each at a ply between what was
/// acknowledged `before` the copy and `after` it, with its whole history, and plays on.
fn restored_whole(port: u16, before: &BTreeMap<String, u64>, after: &BTreeMap<String, u64>) {
    for (id, first) in before {
        let table = call(port, "GET", &format!("/api/v1/tables/{id}"), None, None);
        assert_eq!(table.status, 200, "table {id} restored");
        let ply = table.body["ply"].as_u64().unwrap();
        assert!(
            (*first..=after[id]).contains(&ply),
            "table {id}: ply {ply} restored, {first} acknowledged before the copy, {} after",
            after[id]
        );
        let history = call(
            port,
            "GET",
            &format!("/api/v1/tables/{id}/moves"),
            None,
            None,
        );
        assert_eq!(history.body["moves"].as_array().unwrap().len() as u64, ply);
    }
    let mut next = Player::new(port, 1);
    next.play(port, 5);
}

#[test]
fn a_backup_taken_mid_burst_restores_to_a_working_database() {
    let dir = scratch("backup");
    let live = format!("sqlite://{}/moot.db", dir.display());
    let copy = dir.join("copy.db");
    let server = Server::start(&live, &dir.join("first.log"));
    let port = server.port;
    let mut player = Player::new(port, 4);
    player.play(port, 40);
    let before = player.acked.clone();
    let (done, thread) = burst(port, player);
    std::thread::sleep(Duration::from_millis(300));
    let (backed_up, said) = backup(&["--database", &live, "--to", &copy.display().to_string()]);
    assert!(backed_up, "moot backup: {said}");
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let player = thread.join().expect("a player");
    server.stop();

    let restored = Server::start(
        &format!("sqlite://{}", copy.display()),
        &dir.join("second.log"),
    );
    restored_whole(restored.port, &before, &player.acked);
    restored.stop();

    let (again, said) = backup(&["--database", &live, "--to", &copy.display().to_string()]);
    assert!(!again && said.contains("exists already"), "{said}");
    let missing = format!("sqlite://{}/none.db", dir.display());
    let (taken, said) = backup(&["--database", &missing, "--to", "/tmp/never.db"]);
    assert!(!taken && said.contains("does not exist"), "{said}");
    assert!(!dir.join("none.db").exists(), "no empty database was made");
    let (taken, said) = backup(&[
        "--database",
        "postgres://nobody@127.0.0.1:1/none",
        "--to",
        "x",
    ]);
    assert!(!taken && said.contains("cannot connect"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_postgres_dump_taken_mid_burst_restores_to_a_working_database() {
    let dir = scratch("pgdump");
    let Some(postgres) = PrivatePostgres::start(&dir) else {
        return;
    };
    let server = Server::start(&postgres.url(), &dir.join("first.log"));
    let port = server.port;
    let mut player = Player::new(port, 3);
    player.play(port, 30);
    let before = player.acked.clone();
    let (done, thread) = burst(port, player);
    std::thread::sleep(Duration::from_millis(300));
    // As docs/deploy.md says: pg_dump while the server runs, pg_restore into an empty database.
    let dump = dir.join("moot.dump").display().to_string();
    let server_address = ["-h", "127.0.0.1", "-U", "moot"];
    let port_text = postgres.port.to_string();
    let mut dump_args = vec!["-Fc", "-f", &dump, "-p", &port_text];
    dump_args.extend(server_address);
    dump_args.push("moot");
    postgres.run("pg_dump", &dump_args);
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let player = thread.join().expect("a player");
    server.stop();
    postgres.run(
        "createdb",
        &[
            "-h",
            "127.0.0.1",
            "-p",
            &port_text,
            "-U",
            "moot",
            "restored",
        ],
    );
    let mut restore_args = vec!["-d", "restored", "-p", &port_text];
    restore_args.extend(server_address);
    restore_args.push(&dump);
    postgres.run("pg_restore", &restore_args);

    let restored_url = format!("postgres://moot@127.0.0.1:{}/restored", postgres.port);
    let restored = Server::start(&restored_url, &dir.join("second.log"));
    restored_whole(restored.port, &before, &player.acked);
    restored.stop();
    drop(postgres);
    let _ = std::fs::remove_dir_all(&dir);
}
