//! For tests that start processes: a free local port, waiting until one listens, and the
//! process killed when the test ends, even when it fails.

#![allow(dead_code)] // each test binary uses a different subset

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A child process killed when dropped.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `child`, killed when the result is dropped, once it listens on `port` (named `what` when it
/// does not).
pub fn listening(child: Child, port: u16, what: &str) -> Running {
    let running = Running(child);
    wait_for_port(port, what);
    running
}

/// The `moot` binary serving on 127.0.0.1:`port` with `flags` besides, its log at `warn` and its
/// standard output dropped, once it listens. Unless `flags` name a `--database`, its tables are
/// kept in an SQLite file of its own in the temporary directory (not `moot.db` in the
/// working directory, which servers started side by side would share).
pub fn moot(port: u16, flags: &[&str]) -> Running {
    let mut command = Command::new(env!("CARGO_BIN_EXE_moot"));
    if !flags.contains(&"--database") {
        let file = std::env::temp_dir().join(format!("moot-test-{}-{port}.db", std::process::id()));
        command.env("MOOT_DATABASE_URL", format!("sqlite://{}", file.display()));
    }
    let child = command
        .args(["--bind", &format!("127.0.0.1:{port}")])
        .args(flags)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("the moot binary starts");
    listening(child, port, "moot")
}

/// Where [`free_port`] looks: below the ports Linux hands to connections' client sides
/// (32768 and up), so that a port picked here is not taken by some connection before the
/// server binds it, as a port the OS chose could be.
const PORTS: std::ops::Range<u32> = 20_000..32_000;

/// A port nothing listens on now. Each process walks its own stretch of [`PORTS`] (by its id),
/// each call the next port of it, so that tests running side by side in one binary never
/// pick the same one.
pub fn free_port() -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let span = PORTS.end - PORTS.start;
    let start = std::process::id() % 600 * 20;
    for _ in 0..span {
        let offset = NEXT.fetch_add(1, Ordering::Relaxed);
        let port = u16::try_from(PORTS.start + (start + offset) % span).expect("a port");
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free local port in {PORTS:?}");
}

/// Waits until `what` listens on `port`, failing the test after 30 s.
pub fn wait_for_port(port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{what} did not listen on port {port} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
