//! The `moot` binary's connections, tried over raw sockets: compressed answers on a kept-alive
//! connection come without the delayed-ACK stall, and a body announced over the limit with
//! `Expect: 100-continue` is refused before the client sends it, a large body refused unread is
//! not read, and refusals only abuse earns are held by the tarpit.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::common::ports::{free_port, moot};

/// One answer read from a kept-alive connection: its status line, headers (names in lower
/// case) and body.
struct Answer {
    status: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Reads one answer: a body of `Content-Length` bytes or in chunks (as compressed ones come).
fn read_answer(reader: &mut BufReader<TcpStream>) -> Answer {
    let mut status = String::new();
    reader.read_line(&mut status).expect("a status line");
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a header line");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').expect("a header");
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let mut answer = Answer {
        status: status.trim_end().to_owned(),
        headers,
        body: Vec::new(),
    };
    if let Some(length) = answer.header("content-length") {
        answer.body = vec![0; length.parse().expect("a length")];
        reader.read_exact(&mut answer.body).expect("the body");
        return answer;
    }
    assert_eq!(answer.header("transfer-encoding"), Some("chunked"));
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).expect("a chunk's size");
        let size = usize::from_str_radix(size.trim_end(), 16).expect("a size in hexadecimal");
        let mut chunk = vec![0; size + 2];
        reader
            .read_exact(&mut chunk)
            .expect("a chunk and its line end");
        if size == 0 {
            return answer;
        }
        answer.body.extend_from_slice(&chunk[..size]);
    }
}

fn connect(port: u16) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    stream
}

/// Without `TCP_NODELAY`, about half of these answers waited ~40 ms: the compressed body is
/// written after the head, and Nagle's algorithm held it until the client's delayed ACK of the
/// head. A round of 50 passes when none takes over 10 ms; a machine busy with other tests may
/// spoil a round with one slow answer, so ten rounds are allowed (with the stall, every round
/// fails: half its answers wait ~40 ms).
#[test]
fn compressed_answers_on_a_kept_alive_connection_come_without_a_delayed_ack_stall() {
    let port = free_port();
    let _server = moot(port, &[]);
    let mut rounds = Vec::new();
    for encoding in ["br", "gzip"] {
        // One write a request: a request written in pieces would meet Nagle's algorithm on
        // the client's side.
        let request = format!(
            "GET /api/v1/games HTTP/1.1\r\nhost: moot\r\naccept-encoding: {encoding}\r\n\r\n"
        );
        let passed = (0..10).any(|_| {
            let stream = connect(port);
            let mut writer = stream.try_clone().expect("a second handle");
            let mut reader = BufReader::new(stream);
            let mut slowest = Duration::ZERO;
            for _ in 0..50 {
                let start = Instant::now();
                writer.write_all(request.as_bytes()).expect("a request");
                let answer = read_answer(&mut reader);
                slowest = slowest.max(start.elapsed());
                assert!(
                    answer.status.starts_with("HTTP/1.1 200"),
                    "{}",
                    answer.status
                );
                assert_eq!(answer.header("content-encoding"), Some(encoding));
            }
            rounds.push(format!("{encoding}: slowest {slowest:?}"));
            slowest <= Duration::from_millis(10)
        });
        assert!(passed, "every round had an answer over 10 ms: {rounds:?}");
    }
}

/// A request with `Expect: 100-continue` and a `Content-Length` over the limit is answered 413
/// at once, by the application (problem body, request id, CORS and security headers), and the
/// connection closes; a body within the limit is invited with `100 Continue` as before.
#[test]
fn a_body_announced_over_the_limit_is_refused_before_100_continue() {
    let port = free_port();
    let _server = moot(port, &[]);
    let path = "/api/v1/games/herfor/new";

    let over = moot::api::body::BODY_LIMIT + 1;
    let stream = connect(port);
    let mut writer = stream.try_clone().expect("a second handle");
    write!(
        writer,
        "POST {path} HTTP/1.1\r\nhost: moot\r\norigin: https://games.example\r\ncontent-type: application/json\r\ncontent-length: {over}\r\nexpect: 100-continue\r\n\r\n"
    )
    .expect("a request head");
    let mut reader = BufReader::new(stream);
    let answer = read_answer(&mut reader);
    assert_eq!(answer.status, "HTTP/1.1 413 Payload Too Large");
    assert_eq!(
        answer.header("content-type"),
        Some("application/problem+json")
    );
    let problem: serde_json::Value = serde_json::from_slice(&answer.body).expect("a problem");
    assert_eq!(problem["code"], "payload_too_large", "{problem}");
    assert_eq!(
        problem["detail"],
        format!(
            "the body is over the limit of {} bytes",
            moot::api::body::BODY_LIMIT
        )
    );
    let request_id = answer.header("x-request-id").expect("a request id");
    assert_eq!(problem["request_id"], request_id);
    assert_eq!(answer.header("access-control-allow-origin"), Some("*"));
    assert_eq!(answer.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(answer.header("connection"), Some("close"));
    let mut rest = Vec::new();
    reader
        .read_to_end(&mut rest)
        .expect("the connection closes");
    assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));

    let body = br#"{"options":{"size":3}}"#;
    let stream = connect(port);
    let mut writer = stream.try_clone().expect("a second handle");
    write!(
        writer,
        "POST {path} HTTP/1.1\r\nhost: moot\r\ncontent-type: application/json\r\ncontent-length: {}\r\nexpect: 100-continue\r\n\r\n",
        body.len()
    )
    .expect("a request head");
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).expect("an interim answer");
    assert_eq!(line, "HTTP/1.1 100 Continue\r\n");
    reader.read_line(&mut line).expect("its end");
    writer.write_all(body).expect("the body");
    let answer = read_answer(&mut reader);
    assert_eq!(
        answer.status,
        "HTTP/1.1 200 OK",
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
}

/// Writes `body` `times` over on `writer` from another thread, as a client that sends its
/// whole body before reading would; the thread answers how many bytes the server let it write
/// before the connection closed (its writes block once the server stops reading and the buffers
/// fill).
fn send_body(mut writer: TcpStream, body: Vec<u8>, times: usize) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut written = 0;
        for _ in 0..times {
            for chunk in body.chunks(64 << 10) {
                if writer.write_all(chunk).is_err() {
                    return written;
                }
                written += chunk.len();
            }
        }
        written
    })
}

/// Reads the rest of a connection the server is closing: its end, or a reset (the server
/// closed with the client's bytes unread). Fails when it stays open past `within`.
fn closes_within(reader: &mut BufReader<TcpStream>, within: Duration) {
    let start = Instant::now();
    let mut rest = Vec::new();
    let _end_or_reset = reader.read_to_end(&mut rest);
    assert!(start.elapsed() < within, "open for {:?}", start.elapsed());
}

/// A connection that has sent the head of a `legal-moves` request whose body is `length` bytes
/// of JSON: a handle to write the body on, and the stream to read the answer from.
fn legal_moves_head(port: u16, length: usize) -> (TcpStream, TcpStream) {
    let stream = connect(port);
    let mut writer = stream.try_clone().expect("a second handle");
    write!(
        writer,
        "POST /api/v1/games/herfor/legal-moves HTTP/1.1\r\nhost: moot\r\ncontent-type: application/json\r\ncontent-length: {length}\r\n\r\n"
    )
    .expect("a request head");
    (writer, stream)
}

/// A body over the limit, announced without `Expect`, is refused from its `Content-Length`;
/// the server discards what follows only up to its drain allowance (16 MiB), then stops
/// reading, so the client's sends block (before, the server read and discarded all of it), and
/// the connection closes within a second or so.
#[test]
fn a_large_body_refused_unread_is_not_read_and_its_connection_closes() {
    let port = free_port();
    let _server = moot(port, &[]);
    let declared = 128 << 20;
    let (writer, stream) = legal_moves_head(port, declared);
    let sent = send_body(writer, vec![b' '; 1 << 20], declared >> 20);
    let mut reader = BufReader::new(stream);
    let answer = read_answer(&mut reader);
    assert_eq!(answer.status, "HTTP/1.1 413 Payload Too Large");
    assert_eq!(answer.header("connection"), Some("close"));
    closes_within(&mut reader, Duration::from_secs(5));
    let written = sent.join().expect("the writer");
    assert!(
        written < 64 << 20,
        "the server read {written} of the {declared} bytes it refused"
    );
}

/// A client that writes its whole body before reading its answer (as Python's `http.client`
/// does) still gets its 413 for an 8 MiB body: the server discards it within its drain
/// allowance instead of closing on the client mid-send.
#[test]
fn an_over_limit_body_written_whole_before_reading_still_gets_its_413() {
    let port = free_port();
    let _server = moot(port, &[]);
    let declared = 8 << 20;
    let (mut writer, stream) = legal_moves_head(port, declared);
    let body = vec![b' '; 1 << 20];
    for _ in 0..declared >> 20 {
        writer.write_all(&body).expect("the whole body sent");
    }
    let answer = read_answer(&mut BufReader::new(stream));
    assert_eq!(answer.status, "HTTP/1.1 413 Payload Too Large");
}

/// A body that crosses a bound of the JSON scan (here 4,096 objects, within its first 28 KB) is
/// refused before the rest is read, and the refusal is held a second: a client looping such
/// bodies gets one answer a second per connection.
#[test]
fn a_body_past_the_bounds_is_refused_unread_after_the_tarpit_hold() {
    let port = free_port();
    let _server = moot(port, &[]);
    let body = format!(r#"{{"x":[{}]}}"#, vec![r#"{"":0}"#; 149_000].join(","));
    let start = Instant::now();
    let (writer, stream) = legal_moves_head(port, body.len());
    let sent = send_body(writer, body.into_bytes(), 1);
    let mut reader = BufReader::new(stream);
    let answer = read_answer(&mut reader);
    let took = start.elapsed();
    assert_eq!(answer.status, "HTTP/1.1 413 Payload Too Large");
    let problem: serde_json::Value = serde_json::from_slice(&answer.body).expect("a problem");
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|detail| detail.contains("more than 4096 objects and arrays")),
        "{problem}"
    );
    assert!(
        took >= moot::compute::tarpit::HOLD - Duration::from_millis(50),
        "answered after {took:?}"
    );
    closes_within(&mut reader, Duration::from_secs(5));
    sent.join().expect("the writer");
}

/// A method HTTP does not define is refused after the tarpit's hold; a defined one the path
/// does not serve, at once.
#[test]
fn an_unknown_method_is_refused_after_the_tarpit_hold_a_known_one_at_once() {
    let port = free_port();
    let _server = moot(port, &[]);
    let refused_after = |method: &str| {
        let stream = connect(port);
        let mut writer = stream.try_clone().expect("a second handle");
        let start = Instant::now();
        writer
            .write_all(format!("{method} /healthz HTTP/1.1\r\nhost: moot\r\n\r\n").as_bytes())
            .expect("a request");
        let answer = read_answer(&mut BufReader::new(stream));
        assert_eq!(answer.status, "HTTP/1.1 405 Method Not Allowed", "{method}");
        start.elapsed()
    };
    let hold = moot::compute::tarpit::HOLD;
    let unknown = refused_after("BREW");
    assert!(unknown >= hold - Duration::from_millis(50), "{unknown:?}");
    let known = refused_after("PUT");
    assert!(known < hold / 2, "{known:?}");
}
