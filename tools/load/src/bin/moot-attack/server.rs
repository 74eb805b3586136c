//! A Moot server started for one pattern: its own process (so that its peak memory is the
//! pattern's), port, database file and log file, all removed when it is dropped.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use moot_load::http::send;

use crate::memory::{self, Memory};

/// How long a server may take to answer `/healthz` after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// A running server, killed when dropped.
pub struct Server {
    /// Where it listens (127.0.0.1).
    pub addr: SocketAddr,
    child: Child,
    dir: PathBuf,
    log: PathBuf,
}

impl Server {
    /// Starts `binary` on a free port of 127.0.0.1 with a database and a log in a new
    /// temporary folder, `--trust-forwarded` when asked, and waits until `/healthz` answers.
    pub fn start(binary: &Path, label: &str, trust_forwarded: bool) -> Result<Server, String> {
        let cannot = |e: String| format!("the server could not be started: {e}");
        let addr = free_port().map_err(|e| cannot(format!("no free port: {e}")))?;
        let dir = std::env::temp_dir().join(format!("moot-attack-{}-{label}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| cannot(format!("{}: {e}", dir.display())))?;
        let log = dir.join("server.log");
        let out = File::create(&log).map_err(|e| cannot(format!("{}: {e}", log.display())))?;
        let err = out.try_clone().map_err(|e| cannot(e.to_string()))?;
        let mut command = Command::new(binary);
        command
            .arg("--bind")
            .arg(addr.to_string())
            .arg("--database")
            .arg(format!("sqlite://{}", dir.join("moot.db").display()))
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err);
        if trust_forwarded {
            command.arg("--trust-forwarded");
        }
        let child = match command.spawn() {
            Ok(child) => child,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&dir);
                return Err(cannot(format!("{}: {e}", binary.display())));
            }
        };
        let mut server = Server {
            addr,
            child,
            dir,
            log,
        };
        server.wait_until_it_answers()?;
        Ok(server)
    }

    fn wait_until_it_answers(&mut self) -> Result<(), String> {
        let started = Instant::now();
        while started.elapsed() < START_TIMEOUT {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "the server could not be started: it exited ({status}); its log ends:\n{}",
                    self.log_tail(10)
                ));
            }
            if send(self.addr, "GET", "/healthz", b"").status == 200 {
                return Ok(());
            }
            thread::sleep(Duration::from_millis(100));
        }
        Err(format!(
            "the server does not answer GET /healthz on {} after {} s; its log ends:\n{}",
            self.addr,
            START_TIMEOUT.as_secs(),
            self.log_tail(10)
        ))
    }

    /// The server's memory now; `Err` when it is gone.
    pub fn memory(&self) -> Result<Memory, String> {
        memory::of_process(self.child.id())
    }

    /// Why the server is no longer running, if it is not.
    pub fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(format!("the server exited ({status})")),
            _ => None,
        }
    }

    /// Bytes the server has written to its log so far.
    pub fn log_bytes(&self) -> u64 {
        std::fs::metadata(&self.log).map_or(0, |m| m.len())
    }

    /// The longest line of the log, in bytes.
    pub fn longest_log_line(&self) -> usize {
        let Ok(file) = File::open(&self.log) else {
            return 0;
        };
        BufReader::new(file)
            .split(b'\n')
            .map_while(Result::ok)
            .map(|line| line.len())
            .max()
            .unwrap_or(0)
    }

    fn log_tail(&self, lines: usize) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A port of 127.0.0.1 nothing listens on (the kernel's pick, released for the server).
fn free_port() -> std::io::Result<SocketAddr> {
    TcpListener::bind("127.0.0.1:0")?.local_addr()
}
