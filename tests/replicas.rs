//! Scale-out, shown: two replicas of the server binary behind a real nginx (round robin). A
//! game is played through nginx, its requests alternating between the replicas, and every
//! answer, a seeded `evaluate` included, is the one a single replica gives directly. nginx runs
//! the block documented in docs/deploy.md: behind it, absolute links name the site's host, and an
//! oversized body gets Moot's own 413 problem. With PostgreSQL shared by the replicas, a table's
//! follower loses no event when the replica it follows is killed, and the table's webhook
//! receiver gets every event exactly once, whichever replica delivers it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[path = "common/ports.rs"]
mod ports;
#[path = "common/receiver.rs"]
mod receiver;
use ports::{Running, free_port, listening, moot};
use receiver::Receiver;

const NGINX: &str = "/usr/sbin/nginx";

/// The reverse proxy's block documented in docs/deploy.md: its `client_max_body_size` line and
/// its locations but `/metrics`'s (from `location / {` to the line before `location =
/// /metrics`), as written there, so the test runs what a site copies.
fn documented_block() -> String {
    let page = include_str!("../docs/deploy.md");
    let fence = page
        .split("```nginx\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/deploy.md has an nginx block");
    let lines: Vec<&str> = fence.lines().map(str::trim).collect();
    let body_size = lines
        .iter()
        .find(|line| line.starts_with("client_max_body_size"))
        .expect("the block sets client_max_body_size");
    let start = lines
        .iter()
        .position(|line| *line == "location / {")
        .expect("the block has a location /");
    let end = start
        + lines[start..]
            .iter()
            .position(|line| line.starts_with("location = /metrics"))
            .expect("the block's locations end with /metrics'")
        - 1;
    format!(
        "    {body_size}\n    {}\n",
        lines[start..=end].join("\n    ")
    )
}

/// nginx as the current user, everything under `dir`: config, pid, logs, temp files; the
/// server block is the documented one, listening on `port` and naming the replica that answered
/// in `X-Upstream`.
fn nginx(dir: &Path, port: u16, upstreams: &[u16]) -> Running {
    assert!(
        Path::new(NGINX).exists(),
        "{NGINX} is missing: this test needs Debian's nginx (apt-get install -y nginx; \
         scripts/test installs it)"
    );
    let servers: String = upstreams
        .iter()
        .map(|p| format!("    server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n"))
        .collect();
    let d = dir.display();
    let block = documented_block();
    let config = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
         error_log {d}/error.log warn;\nevents {{ worker_connections 64; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
         fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
         upstream moot {{\n{servers}  }}\n  server {{\n    listen 127.0.0.1:{port};\n\
             add_header X-Upstream $upstream_addr always;\n{block}  }}\n}}\n"
    );
    std::fs::write(dir.join("nginx.conf"), config).expect("the config is written");
    let child = Command::new(NGINX)
        .arg("-p")
        .arg(dir)
        .arg("-e")
        .arg(dir.join("error.log"))
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .stdout(Stdio::null())
        .spawn()
        .expect("nginx starts");
    listening(child, port, "nginx")
}

/// Sends `request` (head and body) on a new connection: the answer's head and body.
fn exchange(port: u16, request: &[u8]) -> (String, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    stream.write_all(request).expect("the request is sent");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("an answer");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    (head.to_owned(), body.to_owned())
}

/// The value of the header `name` in an answer's `head`.
fn header_in(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name)
            .then(|| value.trim().to_owned())
    })
}

/// One HTTP/1.0 request answered 2xx: (the X-Upstream header, the body as JSON).
fn post(port: u16, path: &str, body: &Value) -> (Option<String>, Value) {
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (head, body) = exchange(port, request.as_bytes());
    assert!(
        head.starts_with("HTTP/1.1 20") || head.starts_with("HTTP/1.0 20"),
        "{head}\n{body}"
    );
    let upstream = header_in(&head, "x-upstream");
    (upstream, serde_json::from_str(&body).expect("a JSON body"))
}

/// An `evaluate` answer without what depends on the moment: the time taken, the cache.
fn timeless(mut answer: Value) -> Value {
    if let Some(object) = answer.as_object_mut() {
        object.remove("elapsed_ms");
        object.remove("cached");
    }
    answer
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_game_through_nginx_alternates_replicas_and_gets_a_single_replicas_answers() {
    let dir = TempDir(std::env::temp_dir().join(format!("moot-nginx-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).expect("a temp dir");
    let (a, b, proxy) = (free_port(), free_port(), free_port());
    let _replicas = (moot(a, &[]), moot(b, &[]));
    let _nginx = nginx(&dir.0, proxy, &[a, b]);

    let mut upstreams = Vec::new();
    // Through nginx, then the same request to replica A directly: the same answer.
    let mut evaluated_by = Vec::new();
    let mut both = |path: &str, body: &Value| -> Value {
        let (upstream, proxied) = post(proxy, path, body);
        let upstream = upstream.expect("nginx names the replica that answered");
        if path.ends_with("/evaluate") {
            evaluated_by.push(upstream.clone());
        }
        upstreams.push(upstream);
        let (_, direct) = post(a, path, body);
        if path.ends_with("/evaluate") {
            assert_eq!(timeless(proxied.clone()), timeless(direct), "{path}");
        } else {
            assert_eq!(proxied, direct, "{path}");
        }
        proxied
    };
    // Size 4: each `evaluate` is a search of 40 playouts, the same on both replicas for its
    // seed, done in milliseconds. (Size 3 is answered by a proof, which on a loaded machine,
    // at the searches' nice +10, may outlast the proxy's 10 s read timeout.)
    let new = both(
        "/api/v1/games/herfor/new",
        &json!({"options": {"size": 4, "pie": false}}),
    );
    let mut state = new["state"].clone();
    let mut plies = 0;
    loop {
        let legal = both("/api/v1/games/herfor/legal-moves", &json!({"state": state}));
        let Some(first) = legal["moves"].as_array().and_then(|m| m.first()).cloned() else {
            break;
        };
        let evaluate = json!({"state": state, "playouts": 40, "seed": 7});
        if plies % 4 == 0 {
            let analysis = both("/api/v1/games/herfor/evaluate", &evaluate);
            assert!(analysis["best_move"].is_string() || analysis["status"]["phase"] != "ongoing");
        }
        let applied = both(
            "/api/v1/games/herfor/apply",
            &json!({"state": state, "move": first}),
        );
        state = applied["state"].clone();
        plies += 1;
        assert!(plies < 200, "the game ends");
    }
    assert!(plies >= 8, "a whole game: {plies} plies");
    let score = both("/api/v1/games/herfor/score", &json!({"state": state}));
    assert!(score["score"].is_object(), "{score}");

    let (a_addr, b_addr) = (format!("127.0.0.1:{a}"), format!("127.0.0.1:{b}"));
    for pair in upstreams.windows(2) {
        assert_ne!(pair[0], pair[1], "round robin alternates: {upstreams:?}");
    }
    assert!(
        upstreams.contains(&a_addr) && upstreams.contains(&b_addr),
        "{upstreams:?}"
    );
}

/// A replica whose database is gone answers 503 `storage_unavailable` (`/readyz` and every
/// change); behind the documented block nginx sends that request to the other replica and
/// leaves the failing one out of the pool: every request through nginx is answered 2xx, by the
/// healthy replica.
#[test]
fn a_replica_whose_database_is_gone_leaves_nginxs_pool() {
    let dir =
        TempDir(std::env::temp_dir().join(format!("moot-nginx-ready-{}", std::process::id())));
    let lost = dir.0.join("lost");
    std::fs::create_dir_all(&lost).expect("a temp dir");
    let (a, b, proxy) = (free_port(), free_port(), free_port());
    let b_database = format!("sqlite://{}/moot.db", lost.display());
    let _replicas = (moot(a, &[]), moot(b, &["--database", &b_database]));
    let _nginx = nginx(&dir.0, proxy, &[a, b]);

    std::fs::remove_dir_all(&lost).expect("B's database removed");
    let readyz = |port: u16| exchange(port, b"GET /readyz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    let (head, body) = readyz(b);
    assert!(head[8..].starts_with(" 503"), "B's /readyz: {head}\n{body}");
    assert!(body.contains("storage_unavailable"), "{body}");

    let a_addr = format!("127.0.0.1:{a}");
    for _ in 0..10 {
        let (head, body) = readyz(proxy);
        assert!(
            head[8..].starts_with(" 200"),
            "/readyz through nginx: {head}\n{body}"
        );
        let (upstream, created) = post(proxy, "/api/v1/tables", &json!({"game": "herfor"}));
        assert!(created["table"]["id"].is_string(), "{created}");
        // The answer's upstream ends with the replica that took it (nginx lists each tried).
        let upstream = upstream.expect("nginx names the replicas tried");
        assert!(upstream.ends_with(&a_addr), "answered by A: {upstream}");
    }
}

#[test]
fn behind_the_documented_block_links_name_the_public_host_and_moot_answers_its_own_413() {
    let dir =
        TempDir(std::env::temp_dir().join(format!("moot-nginx-links-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).expect("a temp dir");
    let (a, b, proxy) = (free_port(), free_port(), free_port());
    let _replicas = (
        moot(a, &["--trust-forwarded"]),
        moot(b, &["--trust-forwarded"]),
    );
    let _nginx = nginx(&dir.0, proxy, &[a, b]);

    // The site's host, as the browser sent it, reaches Moot: the preview's links name it.
    for _ in 0..2 {
        let (head, page) = exchange(
            proxy,
            b"GET /play/herfor?moves=c3 HTTP/1.0\r\nHost: games.example\r\n\r\n",
        );
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(
            page.contains(r#"property="og:url" content="http://games.example/play/herfor?"#),
            "{page:.3000}"
        );
        assert!(
            page.contains(
                r#"property="og:image" content="http://games.example/api/v1/games/herfor/picture?"#
            ),
            "{page:.3000}"
        );
        assert!(!page.contains("://moot/"), "the upstream's name leaked");
    }

    // A body over Moot's limit but under the proxy's: Moot's own problem, with CORS headers.
    let oversized = format!(
        r#"{{"state": {{}}, "move": "{}"}}"#,
        "a".repeat(moot::api::body::BODY_LIMIT + 1000)
    );
    let mut request = format!(
        "POST /api/v1/games/herfor/apply HTTP/1.0\r\nHost: games.example\r\n\
         Origin: https://elsewhere.example\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        oversized.len()
    )
    .into_bytes();
    request.extend_from_slice(oversized.as_bytes());
    let (head, body) = exchange(proxy, &request);
    assert!(head.starts_with("HTTP/1.1 413"), "{head}\n{body:.500}");
    assert_eq!(
        header_in(&head, "content-type").as_deref(),
        Some("application/problem+json"),
        "{head}"
    );
    assert_eq!(
        header_in(&head, "access-control-allow-origin").as_deref(),
        Some("*"),
        "{head}"
    );
    let problem: Value = serde_json::from_str(&body).expect("a problem");
    assert_eq!(problem["code"], "payload_too_large", "{problem}");
}

/// The events of table `id` read from `first` (a port), then through `again` until the
/// table's last one, reconnecting with `Last-Event-ID` whenever a stream ends early (its
/// replica died): each event's `id` and data, sent to `events` as they come. Returns how
/// many times it connected.
fn follow(
    first: u16,
    again: u16,
    id: String,
    events: std::sync::mpsc::Sender<(u64, Value)>,
) -> usize {
    let mut last: Option<u64> = None;
    let mut port = first;
    let mut connections = 0;
    loop {
        connections += 1;
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("a connection");
        port = again;
        let resume = last
            .map(|seq| format!("Last-Event-ID: {seq}\r\n"))
            .unwrap_or_default();
        // HTTP/1.0: the answer is not chunked, each event's lines arrive whole.
        write!(
            stream,
            "GET /api/v1/tables/{id}/events HTTP/1.0\r\nHost: 127.0.0.1\r\n{resume}\r\n"
        )
        .expect("the request is sent");
        let mut reader = std::io::BufReader::new(stream);
        let mut line = String::new();
        let mut seq = None;
        while std::io::BufRead::read_line(&mut reader, &mut line).unwrap_or(0) > 0 {
            if !line.ends_with('\n') {
                break; // cut off: the replica died mid-event
            }
            if line.starts_with("HTTP/") && line.contains(" 204 ") {
                return connections;
            }
            if let Some(value) = line.strip_prefix("id: ") {
                seq = value.trim().parse().ok();
            } else if let (Some(value), Some(id)) = (line.strip_prefix("data: "), seq) {
                let event: Value = serde_json::from_str(value.trim()).expect("JSON data");
                last = Some(id);
                let finished = event["status"] == "finished";
                if events.send((id, event)).is_err() || finished {
                    return connections;
                }
            }
            line.clear();
        }
    }
}

/// Two replicas sharing PostgreSQL behind the documented nginx block: a follower reads a
/// table's events from replica B while the moves are posted through nginx (to either
/// replica); B is killed with SIGKILL mid-game, and the follower reconnects through nginx with
/// `Last-Event-ID`. It sees every move once, in order, each with the table its move's answer
/// gave: no move and no event is lost. The table's webhook receiver counts: it gets each event
/// exactly once, in order, though both replicas deliver from one outbox (B is killed once its
/// deliveries so far have arrived: an event in flight at a kill may come twice, after its
/// lease, which the receiver's deduplication by `Moot-Event-Id` absorbs).
#[test]
fn a_follower_through_nginx_sees_every_move_though_a_replica_is_killed() {
    let Ok(database) = std::env::var("MOOT_TEST_POSTGRES_URL") else {
        assert_ne!(
            std::env::var("MOOT_TEST_REQUIRE_POSTGRES").as_deref(),
            Ok("1"),
            "MOOT_TEST_POSTGRES_URL is not set: scripts/test starts PostgreSQL and sets it"
        );
        eprintln!("MOOT_TEST_POSTGRES_URL is not set: this test is skipped");
        return;
    };
    let dir = TempDir(std::env::temp_dir().join(format!("moot-nginx-sse-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).expect("a temp dir");
    let (a, b, proxy) = (free_port(), free_port(), free_port());
    let flags = ["--database", database.as_str(), "--allow-private-webhooks"];
    let replica_a = moot(a, &flags);
    let mut replica_b = Some(moot(b, &flags));
    let _nginx = nginx(&dir.0, proxy, &[a, b]);
    const SECRET: &str = "the-site-and-moot-share-this";
    let receiver = Receiver::start(SECRET, &[]);

    let (_, created) = post(
        proxy,
        "/api/v1/tables",
        &json!({
            "game": "herfor",
            "options": {"size": 5, "pie": false},
            "webhook": {"url": receiver.url, "secret": SECRET},
        }),
    );
    let id = created["table"]["id"].as_str().expect("an id").to_owned();
    let credentials: Vec<String> = (0..2)
        .map(|i| {
            created["seats"][i]["credential"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let (sender, events) = std::sync::mpsc::channel();
    let follower = std::thread::spawn({
        let id = id.clone();
        move || follow(b, proxy, id, sender)
    });
    // The follower has the table as it stands before the first move.
    let first = events
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("the table as it stands");
    assert_eq!(first.0, 0);
    let mut answered = vec![created["table"].clone()];
    let mut table = created["table"].clone();
    while table["status"] == "ongoing" {
        if answered.len() == 7 {
            receiver.wait_until(std::time::Duration::from_secs(20), |got| got.len() == 6);
            // …and the replica that delivered the last has recorded it.
            std::thread::sleep(std::time::Duration::from_millis(300));
            let mut killed = replica_b.take().expect("replica B runs");
            killed.0.kill().expect("SIGKILL");
            killed.0.wait().expect("B is gone");
        }
        let (_, legal) = post(
            proxy,
            "/api/v1/games/herfor/legal-moves",
            &json!({"state": table["state"]}),
        );
        let mv = legal["moves"][0].as_str().expect("a move").to_owned();
        let seat = usize::from(table["to_act"] == "second");
        let body = json!({"move": mv, "ply": table["ply"]}).to_string();
        let request = format!(
            "POST /api/v1/tables/{id}/moves HTTP/1.0\r\nHost: 127.0.0.1\r\n\
             Authorization: Bearer {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            credentials[seat],
            body.len()
        );
        let (head, answer) = exchange(proxy, request.as_bytes());
        assert!(head.contains(" 200 "), "{head}\n{answer}");
        table = serde_json::from_str(&answer).expect("the table");
        answered.push(table.clone());
        assert!(answered.len() < 200, "the game ends");
    }
    let connections = follower.join().expect("the follower ends with the table");
    assert!(
        connections >= 2,
        "the follower lost replica B and reconnected"
    );
    let seen: Vec<(u64, Value)> = std::iter::once(first).chain(events.iter()).collect();
    let ids: Vec<u64> = seen.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        ids,
        (0..answered.len() as u64).collect::<Vec<_>>(),
        "every event once, in order"
    );
    for (seq, ((id, event), answer)) in seen.iter().zip(&answered).enumerate() {
        assert_eq!(*id, seq as u64, "every event once, in order");
        for field in ["ply", "status", "to_act", "result", "deadline"] {
            assert_eq!(event[field], answer[field], "{field} after change {seq}");
        }
    }
    let moves = answered.len() - 1;
    let got = receiver.wait_until(std::time::Duration::from_secs(20), |got| got.len() >= moves);
    // Nothing more comes: no event twice.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let got_all = receiver.deliveries();
    assert_eq!(got_all.len(), moves, "each event delivered once");
    for (seq, delivery) in (1..).zip(&got) {
        assert!(delivery.signed, "event {seq} is signed");
        assert_eq!(delivery.event_id, format!("{id}-{seq}"), "in order");
        assert_eq!(delivery.body["ply"], seq);
    }
    drop(replica_a);
}
