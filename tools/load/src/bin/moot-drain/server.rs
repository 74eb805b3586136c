//! The server under test: its own process on a free port, its log in a temporary file; stopped
//! with SIGTERM (as an operator stops it) or killed when dropped.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Server {
    /// Starts `binary` on `database`, posting to this machine's receivers, creating tables
    /// freely; waits until it answers `/healthz`.
    pub fn start(binary: &Path, database: &str) -> Result<Server, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let log =
            std::env::temp_dir().join(format!("moot-drain-{}-{port}.log", std::process::id()));
        let out = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(binary)
            .args([
                "--bind",
                &format!("127.0.0.1:{port}"),
                "--database",
                database,
            ])
            .args(["--allow-private-webhooks", "--table-every-ms", "0"])
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("{}: {e}", binary.display()))?;
        let mut server = Server { child, port, log };
        server.wait_until_it_answers()?;
        Ok(server)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn wait_until_it_answers(&mut self) -> Result<(), String> {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(60) {
            if let Ok(Some(status)) = self.child.try_wait() {
                let log = std::fs::read_to_string(&self.log).unwrap_or_default();
                return Err(format!("the server exited ({status}): {log}"));
            }
            let answered =
                moot_load::http::send(([127, 0, 0, 1], self.port).into(), "GET", "/healthz", b"");
            if answered.status == 200 {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err("the server did not answer /healthz within 60 s".into())
    }

    /// Stops it as an operator would (SIGTERM) and waits for it to exit.
    pub fn stop(&mut self) -> Result<(), String> {
        Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .map_err(|e| format!("kill: {e}"))?;
        self.child
            .wait()
            .map_err(|e| format!("the server's exit: {e}"))?;
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}
