//! The real binary on a real database: a table survives `kill -9` between moves, and so does
//! an event in its webhook's outbox (delivered after the restart); 20 clients racing for one
//! ply get exactly one 200 and 19 409s, with no gap or duplicate in the history — on SQLite
//! (one server) and on PostgreSQL (two servers sharing it); the creation limit follows the
//! binary's flags, and so does the ply cap.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Barrier};

use moot::games::Game;
use moot::games::herfor::Herfor;
use serde_json::{Value, json};

use crate::both;
use crate::common::ports::{Running, free_port, moot};
use crate::common::receiver::Receiver;

/// One HTTP/1.0 request: the status and the body as JSON.
fn request(
    port: u16,
    method: &str,
    path: &str,
    credential: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let (status, text) = request_text(port, method, path, credential, body);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// One HTTP/1.0 request: the status and the body as text.
fn request_text(
    port: u16,
    method: &str,
    path: &str,
    credential: Option<&str>,
    body: Option<&Value>,
) -> (u16, String) {
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = credential
        .map(|c| format!("Authorization: Bearer {c}\r\n"))
        .unwrap_or_default();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("a request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let status = answer[9..12].parse().expect("a status");
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_owned())
}

fn server(url: &str) -> (Running, u16) {
    let port = free_port();
    (moot(port, &["--database", url]), port)
}

/// The server at `port` on `url`, posting webhooks to this machine.
fn posting_server(url: &str, port: u16) -> Running {
    moot(port, &["--database", url, "--allow-private-webhooks"])
}

/// A Herfor table on the server at `port`: its id and credentials.
fn new_table(port: u16) -> (String, [String; 2]) {
    let (status, created) = request(
        port,
        "POST",
        "/api/v1/tables",
        None,
        Some(&json!({"game": "herfor", "options": {"size": 7}})),
    );
    assert_eq!(status, 201, "{created:#}");
    crate::tables::db::seats(&created)
}

fn table(port: u16, id: &str) -> Value {
    let (status, table) = request(port, "GET", &format!("/api/v1/tables/{id}"), None, None);
    assert_eq!(status, 200, "{table:#}");
    table
}

/// The first legal move of the table's position.
fn first_legal(table: &Value) -> String {
    let state: <Herfor as Game>::State = serde_json::from_value(table["state"].clone()).unwrap();
    Herfor::format_move(&state, &Herfor::legal_moves(&state)[0])
}

fn play_one(port: u16, id: &str, credentials: &[String; 2]) -> Value {
    let table = table(port, id);
    let seat = crate::tables::db::to_act(&table);
    let body = json!({"move": first_legal(&table), "ply": table["ply"]});
    let (status, after) = request(
        port,
        "POST",
        &format!("/api/v1/tables/{id}/moves"),
        Some(&credentials[seat]),
        Some(&body),
    );
    assert_eq!(status, 200, "{after:#}");
    after
}

both!(
    a_table_survives_kill_9_between_moves,
    |url: String| async move {
        let (mut first_run, port) = server(&url);
        let (id, credentials) = new_table(port);
        for _ in 0..3 {
            play_one(port, &id, &credentials);
        }
        let before = table(port, &id);
        first_run.0.kill().expect("SIGKILL");
        first_run.0.wait().unwrap();
        drop(first_run);

        let (_second_run, port) = server(&url);
        let after = table(port, &id);
        assert_eq!(after, before, "nothing lost across kill -9");
        let moved = play_one(port, &id, &credentials);
        assert_eq!(moved["ply"], 4);
        let (_, history) = request(
            port,
            "GET",
            &format!("/api/v1/tables/{id}/moves"),
            None,
            None,
        );
        assert_eq!(history["moves"].as_array().unwrap().len(), 4);
    }
);

/// 20 clients post the same ply at once, spread over `ports`, for several plies: each time
/// exactly one 200; then the history has each ply once.
fn race(ports: &[u16]) {
    let (id, credentials) = new_table(ports[0]);
    const CLIENTS: usize = 20;
    const PLIES: u64 = 5;
    for ply in 0..PLIES {
        let table = table(ports[0], &id);
        assert_eq!(table["ply"], ply);
        let seat = crate::tables::db::to_act(&table);
        let state: <Herfor as Game>::State =
            serde_json::from_value(table["state"].clone()).unwrap();
        let moves = Herfor::legal_moves(&state);
        let start = Arc::new(Barrier::new(CLIENTS));
        let racers: Vec<_> = (0..CLIENTS)
            .map(|i| {
                let (start, id, credential) =
                    (start.clone(), id.clone(), credentials[seat].clone());
                let port = ports[i % ports.len()];
                let mv = Herfor::format_move(&state, &moves[i % moves.len()]);
                std::thread::spawn(move || {
                    start.wait();
                    request(
                        port,
                        "POST",
                        &format!("/api/v1/tables/{id}/moves"),
                        Some(&credential),
                        Some(&json!({"move": mv, "ply": ply})),
                    )
                    .0
                })
            })
            .collect();
        let mut statuses: Vec<u16> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        statuses.sort();
        let won = statuses.iter().filter(|s| **s == 200).count();
        let stale = statuses.iter().filter(|s| **s == 409).count();
        assert_eq!((won, stale), (1, CLIENTS - 1), "ply {ply}: {statuses:?}");
    }
    let (_, history) = request(
        ports[0],
        "GET",
        &format!("/api/v1/tables/{id}/moves"),
        None,
        None,
    );
    let plies: Vec<u64> = history["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(
        plies,
        (1..=PLIES).collect::<Vec<_>>(),
        "no gap, no duplicate"
    );
}

#[test]
fn twenty_clients_race_for_one_ply_on_sqlite() {
    let (_server, port) = server(&crate::tables::db::sqlite_url());
    race(&[port]);
}

#[actix_web::test]
async fn twenty_clients_race_for_one_ply_on_postgres_with_two_servers() {
    let Some(url) = crate::tables::db::postgres_url().await else {
        return;
    };
    let (_a, port_a) = server(&url);
    let (_b, port_b) = server(&url);
    race(&[port_a, port_b]);
}

/// An event stream opened on the server at `port`, read line by line from its socket.
struct Following {
    reader: std::io::BufReader<TcpStream>,
}

impl Following {
    fn open(port: u16, id: &str) -> Following {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("a connection");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "GET /api/v1/tables/{id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        )
        .unwrap();
        let mut reader = std::io::BufReader::new(stream);
        let mut head = String::new();
        while std::io::BufRead::read_line(&mut reader, &mut head).unwrap() > 2 {}
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        Following { reader }
    }

    /// The next event's `id` and `data`, within 10 s.
    fn next(&mut self) -> (u64, Value) {
        let (mut id, mut data) = (None, None);
        loop {
            let mut line = String::new();
            std::io::BufRead::read_line(&mut self.reader, &mut line).expect("an event within 10 s");
            // The body is chunked: chunk sizes and blank lines between the events' lines.
            if let Some(value) = line.strip_prefix("id: ") {
                id = Some(value.trim().parse().unwrap());
            } else if let Some(value) = line.strip_prefix("data: ") {
                data = Some(serde_json::from_str::<Value>(value.trim()).unwrap());
            }
            if let (Some(id), Some(data)) = (&id, &data) {
                return (*id, data.clone());
            }
        }
    }
}

/// Moves posted on replica B reach a follower on replica A, in order, each telling where the
/// table B answered stands; the follower on B sees them too. PostgreSQL's `NOTIFY` carries them across.
#[actix_web::test]
async fn a_follower_on_one_replica_sees_the_moves_posted_on_the_other() {
    let Some(url) = crate::tables::db::postgres_url().await else {
        return;
    };
    let (_a, port_a) = server(&url);
    let (_b, port_b) = server(&url);
    let (id, credentials) = new_table(port_a);
    let mut on_a = Following::open(port_a, &id);
    let mut on_b = Following::open(port_b, &id);
    assert_eq!(on_a.next().0, 0, "the table as it stands");
    assert_eq!(on_b.next().0, 0);
    for ply in 1..=8 {
        let started = std::time::Instant::now();
        let answered = play_one(port_b, &id, &credentials);
        let (seq, event) = on_a.next();
        eprintln!(
            "ply {ply}: on the other replica after {:?}",
            started.elapsed()
        );
        assert_eq!(seq, ply);
        for field in ["ply", "status", "to_act", "deadline"] {
            assert_eq!(event[field], answered[field], "{field}: as B answered");
        }
        assert_eq!(on_b.next().0, ply);
    }
}

both!(
    an_event_in_the_outbox_is_delivered_after_kill_9,
    |url: String| async move {
        const SECRET: &str = "the-site-and-moot-share-this";
        let port = free_port();
        let server = posting_server(&url, port);
        // Nothing listens where the webhook posts yet: the event waits in the outbox.
        let receiver_port = free_port();
        let (status, created) = request(
            port,
            "POST",
            "/api/v1/tables",
            None,
            Some(&json!({
                "game": "herfor",
                "options": {"size": 5},
                "webhook": {"url": format!("http://127.0.0.1:{receiver_port}/hooks/moot"), "secret": SECRET},
            })),
        );
        assert_eq!(status, 201, "{created:#}");
        let (id, credentials) = crate::tables::db::seats(&created);
        play_one(port, &id, &credentials);
        let mut waiting = Value::Null;
        for _ in 0..100 {
            waiting = table(port, &id);
            if waiting["webhook"]["status"] == "retrying" {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(
            waiting["webhook"]["last_error"]
                .as_str()
                .is_some_and(|e| e.starts_with("cannot connect")),
            "{:#}",
            waiting["webhook"]
        );
        drop(server); // SIGKILL
        let receiver = Receiver::start_on(receiver_port, SECRET, &[]);
        let _again = posting_server(&url, port);
        let got = receiver
            .until(std::time::Duration::from_secs(20), |got| !got.is_empty())
            .await;
        assert!(got[0].signed);
        assert_eq!(got[0].event_id, format!("{id}-1"));
        assert_eq!(got[0].body["move"]["ply"], 1);
        let mut healthy = Value::Null;
        for _ in 0..100 {
            healthy = table(port, &id)["webhook"].clone();
            if healthy["status"] == "ok" {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert_eq!(healthy, json!({"status": "ok", "failed_events": 0}));
        let (_, metrics) = request_text(port, "GET", "/metrics", None, None);
        assert!(
            metrics.contains("moot_webhook_deliveries_total{outcome=\"delivered\"} 1"),
            "{metrics}"
        );
        assert!(metrics.contains("moot_webhook_outbox_pending"), "{metrics}");
    }
);

/// The webhook receiver the README shows, run as written (on a free port instead of 9000): it
/// takes a real delivery, signature checked, and refuses one signed with another secret.
#[test]
fn the_readmes_receiver_checks_a_real_delivery() {
    const SECRET: &str = "the-site-and-moot-share-this";
    let readme = include_str!("../../../README.md");
    let receiver = readme
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README shows a receiver in Python");
    let receiver_port = free_port();
    let receiver = receiver.replace("9000", &receiver_port.to_string());
    let python = std::process::Command::new("python3")
        .args(["-u", "-c", &receiver])
        .env("SECRET", SECRET)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("python3 runs the README's receiver");
    let mut python = crate::common::ports::listening(python, receiver_port, "the receiver");
    let port = free_port();
    let _server = posting_server(&crate::tables::db::sqlite_url(), port);
    let hook = format!("http://127.0.0.1:{receiver_port}/hooks/moot");
    let mut ids = Vec::new();
    for secret in ["a-secret-the-receiver-does-not-know", SECRET] {
        let (status, created) = request(
            port,
            "POST",
            "/api/v1/tables",
            None,
            Some(&json!({"game": "herfor", "webhook": {"url": hook, "secret": secret}})),
        );
        assert_eq!(status, 201, "{created:#}");
        let (id, credentials) = crate::tables::db::seats(&created);
        play_one(port, &id, &credentials);
        ids.push(id);
    }
    let mut webhook = Value::Null;
    for _ in 0..100 {
        webhook = table(port, &ids[0])["webhook"].clone();
        if webhook["status"] == "retrying" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(
        webhook["last_error"], "the receiver answered 400 Bad Request",
        "a delivery signed with another secret is refused"
    );
    let mut printed = std::io::BufReader::new(python.0.stdout.take().expect("its output"));
    let mut line = String::new();
    std::io::BufRead::read_line(&mut printed, &mut line).expect("a line");
    assert_eq!(line.trim(), format!("{}-1 move ongoing", ids[1]));
}

/// The creation limit is the binary's to set: `--table-burst 2` refuses a third table at once,
/// and `--table-every-ms 0` (a site's own backend) lifts the limit.
#[test]
fn the_table_creation_limit_follows_its_flags() {
    let herfor = json!({"game": "herfor", "options": {"size": 3}});
    let port = free_port();
    let _strict = moot(port, &["--table-burst", "2", "--table-every-ms", "3600000"]);
    for status in [201, 201, 429] {
        let (answered, body) = request(port, "POST", "/api/v1/tables", None, Some(&herfor));
        assert_eq!(answered, status, "{body:#}");
    }
    let port = free_port();
    let _open = moot(port, &["--table-burst", "1", "--table-every-ms", "0"]);
    for _ in 0..30 {
        let (answered, body) = request(port, "POST", "/api/v1/tables", None, Some(&herfor));
        assert_eq!(answered, 201, "{body:#}");
    }
}

/// A stream whose client goes away gives its place back at once, not at its next heartbeat: two
/// watchers take a table's two places and hang up, and a third is let in straight after; the
/// gauge counts only live streams.
#[test]
fn a_stream_its_client_closed_frees_its_place_at_once() {
    let port = free_port();
    let _server = moot(port, &["--event-streams-per-table", "2"]);
    let (id, _) = new_table(port);
    let open_streams = || {
        let (_, metrics) = request_text(port, "GET", "/metrics", None, None);
        metrics
            .lines()
            .find_map(|l| l.strip_prefix("moot_event_streams_open "))
            .map(|n| n.trim().parse::<u64>().unwrap())
            .expect("the gauge")
    };
    // Players' feeds are counted apart: none open here.
    let (_, metrics) = request_text(port, "GET", "/metrics", None, None);
    assert!(
        metrics.lines().any(|l| l == "moot_player_feeds_open 0"),
        "{metrics}"
    );
    for _ in 0..3 {
        let mut watchers = [Following::open(port, &id), Following::open(port, &id)];
        for watcher in &mut watchers {
            assert_eq!(watcher.next().0, 0, "the table as it stands");
        }
        assert_eq!(open_streams(), 2);
        let (status, body) = request(
            port,
            "GET",
            &format!("/api/v1/tables/{id}/events"),
            None,
            None,
        );
        assert_eq!((status, body["code"].as_str()), (503, Some("streams_full")));
        drop(watchers);
        // The heartbeat comes every 25 s: the places must be back long before.
        let hung_up = std::time::Instant::now();
        while open_streams() > 0 {
            assert!(
                hung_up.elapsed() < std::time::Duration::from_secs(3),
                "the closed streams still hold their places"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        eprintln!("places back after {:?}", hung_up.elapsed());
    }
}

/// The ply cap is the binary's to set: with `--max-table-plies 2` the second move ends the
/// table, drawn, and a third is refused. A cap of 0, or 0 days before a table is abandoned,
/// is refused at start.
#[test]
fn the_ply_cap_follows_its_flag() {
    let port = free_port();
    let _capped = moot(port, &["--max-table-plies", "2"]);
    let (id, credentials) = new_table(port);
    assert_eq!(play_one(port, &id, &credentials)["status"], "ongoing");
    let ended = play_one(port, &id, &credentials);
    assert_eq!(ended["status"], "finished", "{ended:#}");
    assert_eq!(ended["result"], json!({"ended_by": "ply_limit"}));
    let body = json!({"move": first_legal(&ended), "ply": 2});
    let (status, refused) = request(
        port,
        "POST",
        &format!("/api/v1/tables/{id}/moves"),
        Some(&credentials[0]),
        Some(&body),
    );
    assert_eq!(status, 410, "{refused:#}");
    for flag in [
        "--max-table-plies",
        "--abandon-after-days",
        "--abandon-unstarted-after-days",
    ] {
        let refused = std::process::Command::new(env!("CARGO_BIN_EXE_moot"))
            .args([flag, "0"])
            .output()
            .expect("the binary runs");
        assert!(!refused.status.success());
        assert!(
            String::from_utf8_lossy(&refused.stderr).contains(flag),
            "{refused:?}"
        );
    }
}
