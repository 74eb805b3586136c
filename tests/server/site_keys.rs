//! Site keys on the real binary (`--site-keys FILE`): a backend sending `Moot-Site-Key` is
//! counted against its site's own budgets (tables created, evaluations), not its address's; a
//! key that is no site's is 401 `unknown_site_key`; the secret never reaches the log; a bad
//! file stops the server, naming its line.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::ports::{Running, free_port, listening};

/// A site with a small budget of its own: 3 tables, 3 evaluations, then none for an hour.
const CLUB: &str = "club-secret-0123456789abcdef0123456789";
/// A site on the default budgets.
const BIG: &str = "big-secret-fedcba9876543210fedcba987654";
/// Long enough, but no site's.
const WRONG: &str = "wrong-secret-000000000000000000000000000";

/// A file in the temporary directory holding `text`, named for this test and `port`.
fn file(name: &str, port: u16, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("moot-test-{}-{port}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("the file is written");
    path
}

/// The keys file of these tests.
fn keys(port: u16) -> PathBuf {
    file(
        "site-keys",
        port,
        &format!("# the sites\nclub:{CLUB}:3:3600000:3:3600000\n\nbig:{BIG}\n"),
    )
}

/// The binary serving on `port` with `flags`, its log (at `debug`) written to a file.
fn moot_logged(port: u16, flags: &[&str]) -> (Running, PathBuf) {
    let log = std::env::temp_dir().join(format!("moot-test-{}-{port}.log", std::process::id()));
    let database = std::env::temp_dir().join(format!("moot-test-{}-{port}.db", std::process::id()));
    let child = Command::new(env!("CARGO_BIN_EXE_moot"))
        .env(
            "MOOT_DATABASE_URL",
            format!("sqlite://{}", database.display()),
        )
        .env("RUST_LOG", "debug")
        .args([
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--log-format",
            "json",
        ])
        .args(flags)
        .stdout(std::fs::File::create(&log).expect("the log"))
        .stderr(Stdio::null())
        .spawn()
        .expect("the moot binary starts");
    (listening(child, port, "moot"), log)
}

/// One HTTP/1.0 request, with the site's key if given: the status and the body as JSON.
fn send(port: u16, path: &str, site_key: Option<&str>, body: &Value) -> (u16, Value) {
    let body = body.to_string();
    let key = site_key
        .map(|k| format!("Moot-Site-Key: {k}\r\n"))
        .unwrap_or_default();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    write!(
        stream,
        "POST {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n{key}Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("a request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let status = answer[9..12].parse().expect("a status");
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn create(port: u16, site_key: Option<&str>) -> (u16, Value) {
    let herfor = json!({"game": "herfor", "options": {"size": 3}});
    send(port, "/api/v1/tables", site_key, &herfor)
}

#[test]
fn a_site_key_gets_its_own_creation_budget() {
    let port = free_port();
    let keys = keys(port);
    let (server, log) = moot_logged(
        port,
        &[
            "--table-burst",
            "1",
            "--table-every-ms",
            "3600000",
            "--site-keys",
            keys.to_str().unwrap(),
        ],
    );
    // The address is past its share after one table…
    for status in [201, 429] {
        let (answered, body) = create(port, None);
        assert_eq!(answered, status, "{body:#}");
    }
    // …while the same address with a site's key creates on, within the site's own budget.
    for status in [201, 201, 201, 429] {
        let (answered, body) = create(port, Some(CLUB));
        assert_eq!(answered, status, "{body:#}");
    }
    for _ in 0..10 {
        let (answered, body) = create(port, Some(BIG));
        assert_eq!(answered, 201, "the default budget is large: {body:#}");
    }
    // A key that is no site's is refused, not counted by address.
    let (answered, body) = create(port, Some(WRONG));
    assert_eq!(answered, 401, "{body:#}");
    assert_eq!(body["code"], "unknown_site_key", "{body:#}");
    let (answered, body) = create(port, Some(""));
    assert_eq!(answered, 401, "{body:#}");
    // The log is written in batches: wait for the refusal's line.
    let deadline = Instant::now() + Duration::from_secs(10);
    let log = loop {
        let text = std::fs::read_to_string(&log).expect("the log");
        if text.contains("unknown_site_key") || Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    drop(server);
    assert!(
        log.contains("club"),
        "the sites are named in the log: {log}"
    );
    assert!(
        log.contains("unknown_site_key"),
        "the refusal is logged: {log}"
    );
    for secret in [CLUB, BIG, WRONG] {
        assert!(!log.contains(secret), "a key reached the log");
    }
}

#[test]
fn a_site_key_lifts_the_evaluation_rate() {
    let port = free_port();
    let keys = keys(port);
    let (_server, _log) = moot_logged(
        port,
        &[
            "--client-burst",
            "1",
            "--client-every-ms",
            "3600000",
            "--site-keys",
            keys.to_str().unwrap(),
        ],
    );
    let (status, new) = send(
        port,
        "/api/v1/games/herfor/new",
        None,
        &json!({"options": {"size": 3}}),
    );
    assert_eq!(status, 200, "{new:#}");
    // Each request its own seed: none is answered from the cache, before the rate.
    let mut seed = 0;
    let mut evaluate = |site_key| {
        seed += 1;
        let body = json!({"state": new["state"], "playouts": 10, "seed": seed});
        send(port, "/api/v1/games/herfor/evaluate", site_key, &body)
    };
    for status in [200, 429] {
        let (answered, body) = evaluate(None);
        assert_eq!(answered, status, "{body:#}");
    }
    for status in [200, 200, 200, 429] {
        let (answered, body) = evaluate(Some(CLUB));
        assert_eq!(answered, status, "{body:#}");
    }
    for _ in 0..5 {
        let (answered, body) = evaluate(Some(BIG));
        assert_eq!(answered, 200, "{body:#}");
    }
    let (answered, body) = evaluate(Some(WRONG));
    assert_eq!(answered, 401, "{body:#}");
    assert_eq!(body["code"], "unknown_site_key", "{body:#}");
}

#[test]
fn a_site_key_without_a_keys_file_is_refused() {
    let port = free_port();
    let (_server, _log) = moot_logged(port, &[]);
    let (answered, body) = create(port, Some(CLUB));
    assert_eq!(answered, 401, "{body:#}");
    assert_eq!(body["code"], "unknown_site_key", "{body:#}");
    let (answered, body) = create(port, None);
    assert_eq!(answered, 201, "{body:#}");
}

#[test]
fn a_malformed_keys_file_stops_the_server_naming_its_line() {
    let port = free_port();
    for (text, says) in [
        (format!("club:{CLUB}\nshort:abc\n"), "line 2"),
        (format!("# ok\nclub:{CLUB}:many\n"), "line 2"),
        (format!("club:{CLUB}\nagain:{CLUB}\n"), "line 2"),
    ] {
        let keys = file("bad-keys", port, &text);
        let mut child = Command::new(env!("CARGO_BIN_EXE_moot"))
            .args(["--bind", &format!("127.0.0.1:{port}")])
            .args(["--site-keys", keys.to_str().unwrap()])
            .env("MOOT_DATABASE_URL", "sqlite::memory:")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the moot binary starts");
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = child.try_wait().expect("a status") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("a bad keys file was taken: {text:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert!(!status.success(), "{text:?}");
        assert!(stderr.contains(says), "{text:?}: {stderr}");
        assert!(stderr.contains("--site-keys"), "{stderr}");
        assert!(!stderr.contains(CLUB), "the secret was said: {stderr}");
    }
    let missing = std::env::temp_dir().join("moot-test-no-such-keys-file");
    let output = Command::new(env!("CARGO_BIN_EXE_moot"))
        .args(["--bind", &format!("127.0.0.1:{port}")])
        .args(["--site-keys", missing.to_str().unwrap()])
        .output()
        .expect("moot runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("moot-test-no-such-keys-file"));
}
