//! The `moot` binary's command line: its log's format, the flags it refuses, and the longest
//! request targets it answers.

use std::process::Command;

use crate::common::ports::{Running, free_port, moot, wait_for_port};

#[test]
fn json_logs_are_one_object_a_line_without_colour() {
    use std::io::{BufRead, BufReader, Read, Write};
    let port = free_port();
    let mut server = Running(
        Command::new(env!("CARGO_BIN_EXE_moot"))
            .args([
                "--bind",
                &format!("127.0.0.1:{port}"),
                "--log-format",
                "json",
            ])
            .env("RUST_LOG", "info")
            .env(
                "MOOT_DATABASE_URL",
                format!(
                    "sqlite://{}",
                    std::env::temp_dir()
                        .join(format!("moot-cli-{port}.db"))
                        .display()
                ),
            )
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("moot starts"),
    );
    let mut lines = BufReader::new(server.0.stdout.take().expect("stdout")).lines();
    wait_for_port(port, "moot");
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    write!(
        stream,
        "GET /healthz HTTP/1.0\r\nx-request-id: cli-1\r\n\r\n"
    )
    .expect("a request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.0 200"), "{answer}");
    let access = lines
        .by_ref()
        .map(|line| line.expect("a log line"))
        .inspect(|line| assert!(!line.contains('\u{1b}'), "colour in {line}"))
        .map(|line| serde_json::from_str::<serde_json::Value>(&line).expect("a JSON line"))
        .find(|event| event["target"] == "moot::access")
        .expect("an access-log line");
    assert_eq!(access["request_id"], "cli-1", "{access}");
    assert_eq!(access["route"], "/healthz", "{access}");
    assert_eq!(access["status"], 200, "{access}");
    assert_eq!(access["method"], "GET", "{access}");
}

#[test]
fn bad_service_flags_are_refused_with_the_reason() {
    for (flag, value, says) in [
        ("--log-format", "xml", "pretty or json"),
        ("--cors-origins", "games.example", "scheme://host"),
        ("--public-url", "games.example", "http:// or https://"),
        ("--public-url", "https://games.example/moot", "has a path"),
        (
            "--push-contact",
            "admin@example.org",
            "a mailto: or https: URL",
        ),
        (
            "--push-contact",
            "http://games.example/contact",
            "a mailto: or https: URL",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_moot"))
            .args([flag, value])
            .output()
            .expect("moot runs");
        assert!(!output.status.success(), "{flag} {value} was accepted");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{flag}: {stderr}");
    }
}

/// Sends `GET target` on a new connection and reads the whole answer.
fn raw_get(port: u16, target: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .expect("a timeout");
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nhost: moot\r\nconnection: close\r\n\r\n"
    )
    .expect("a request");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("an answer");
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn moot_answers_long_targets_up_to_the_http_layers_limit_which_answers_an_empty_400() {
    use moot::limits::{MAX_LINK_BYTES, MAX_URL_BYTES};
    let port = free_port();
    let _server = moot(port, &[]);
    let target = |bytes: usize| {
        let prefix = "/play/herfor?moves=";
        format!("{prefix}{}", "a".repeat(bytes - prefix.len()))
    };
    // Between Moot's limit and the HTTP layer's, Moot answers with its page.
    for bytes in [MAX_LINK_BYTES + 1, MAX_URL_BYTES] {
        let answer = raw_get(port, &target(bytes));
        assert!(answer.starts_with("HTTP/1.1 414"), "{bytes}: {answer:.200}");
        assert!(answer.contains("This link is too long"), "{bytes}");
    }
    // Past the HTTP layer's limit the request never reaches Moot: an empty 400.
    let answer = raw_get(port, &target(MAX_URL_BYTES + 1));
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer:.200}");
    assert!(answer.ends_with("\r\n\r\n"), "no body: {answer:.400}");
}
