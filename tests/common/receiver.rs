//! A webhook receiver for tests, as a site would write one: it checks each delivery's
//! `Moot-Signature` (HMAC-SHA-256 of "<t>.<body>" with the shared secret, computed here with
//! the `hmac` crate, not with Moot's code), records it, and answers the statuses it was told
//! to (then 200). It serves plain HTTP/1.1 on its own threads, so that blocking and async tests
//! alike can use it.

#![allow(dead_code)] // each test binary uses a different subset

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;

/// One delivery as the receiver got it.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// `Moot-Event-Id`.
    pub event_id: String,
    /// `Moot-Event`.
    pub kind: String,
    /// The body, as JSON.
    pub body: Value,
    /// Whether `Moot-Signature` is the body's, with the secret, signed in the last 5 minutes.
    pub signed: bool,
    /// The status the receiver answered.
    pub answered: u16,
    /// When it arrived.
    pub at: Instant,
}

struct State {
    secret: String,
    got: Mutex<Vec<Delivery>>,
    answers: Mutex<VecDeque<u16>>,
}

/// A running receiver; it stops listening when the test process ends.
#[derive(Clone)]
pub struct Receiver {
    /// Where it listens: `http://127.0.0.1:<port>/hooks/moot`.
    pub url: String,
    /// Its port.
    pub port: u16,
    state: Arc<State>,
}

impl Receiver {
    /// A receiver on a free port checking signatures with `secret`, answering `answers` to the
    /// first deliveries and 200 to the rest.
    pub fn start(secret: &str, answers: &[u16]) -> Receiver {
        Self::listen(
            TcpListener::bind("127.0.0.1:0").expect("a port"),
            secret,
            answers,
        )
    }

    /// The same on `port` (a receiver that comes up where one was expected).
    pub fn start_on(port: u16, secret: &str, answers: &[u16]) -> Receiver {
        Self::listen(
            TcpListener::bind(("127.0.0.1", port)).expect("the port is free"),
            secret,
            answers,
        )
    }

    fn listen(listener: TcpListener, secret: &str, answers: &[u16]) -> Receiver {
        let port = listener.local_addr().expect("an address").port();
        let state = Arc::new(State {
            secret: secret.to_owned(),
            got: Mutex::default(),
            answers: Mutex::new(answers.iter().copied().collect()),
        });
        let shared = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = shared.clone();
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        Receiver {
            url: format!("http://127.0.0.1:{port}/hooks/moot"),
            port,
            state,
        }
    }

    /// The deliveries so far, in the order they arrived.
    pub fn deliveries(&self) -> Vec<Delivery> {
        self.state.got.lock().unwrap().clone()
    }

    /// The deliveries if `done` holds of them; `None` to look again; fails the test once
    /// `deadline` (after `within`) has passed.
    fn awaited(
        &self,
        within: Duration,
        deadline: Instant,
        done: &impl Fn(&[Delivery]) -> bool,
    ) -> Option<Vec<Delivery>> {
        let got = self.deliveries();
        if done(&got) {
            return Some(got);
        }
        assert!(
            Instant::now() < deadline,
            "the receiver did not get what was awaited within {within:?}; it got {:#?}",
            got.iter()
                .map(|d| (&d.event_id, d.answered))
                .collect::<Vec<_>>()
        );
        None
    }

    /// Waits (without blocking the async runtime) until `done` holds of the deliveries, and
    /// answers them; fails the test after `within`.
    pub async fn until(
        &self,
        within: Duration,
        done: impl Fn(&[Delivery]) -> bool,
    ) -> Vec<Delivery> {
        let deadline = Instant::now() + within;
        loop {
            if let Some(got) = self.awaited(within, deadline, &done) {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The same, blocking the thread.
    pub fn wait_until(
        &self,
        within: Duration,
        done: impl Fn(&[Delivery]) -> bool,
    ) -> Vec<Delivery> {
        let deadline = Instant::now() + within;
        loop {
            if let Some(got) = self.awaited(within, deadline, &done) {
                return got;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Whether `header` (`t=…,v1=…`) signs `body` with `secret`, within 5 minutes of now.
pub fn verify(secret: &str, header: &str, body: &[u8]) -> bool {
    let mut t = None;
    let mut v1 = None;
    for part in header.split(',') {
        match part.split_once('=') {
            Some(("t", value)) => t = value.parse::<i64>().ok(),
            Some(("v1", value)) => v1 = Some(value),
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else {
        return false;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let Ok(expected) = (0..v1.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(v1.get(i..i + 2).unwrap_or("zz"), 16))
        .collect::<Result<Vec<u8>, _>>()
    else {
        return false;
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    (now - t).abs() <= 300 && mac.verify_slice(&expected).is_ok()
}

/// Reads one request from `stream`, records it, answers it.
fn serve(stream: TcpStream, state: &State) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(stream.try_clone().expect("a stream"));
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end().to_owned();
        if line.is_empty() {
            break;
        }
        headers.push(line);
    }
    let header = |name: &str| {
        headers.iter().skip(1).find_map(|h| {
            let (key, value) = h.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    };
    let length: usize = header("content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let answered = state.answers.lock().unwrap().pop_front().unwrap_or(200);
    let signature = header("moot-signature").unwrap_or_default();
    state.got.lock().unwrap().push(Delivery {
        event_id: header("moot-event-id").unwrap_or_default(),
        kind: header("moot-event").unwrap_or_default(),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        signed: headers[0].starts_with("POST /hooks/moot ")
            && header("content-type").as_deref() == Some("application/json")
            && verify(&state.secret, &signature, &body),
        answered,
        at: Instant::now(),
    });
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 {answered} Told\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
}

/// A receiver that takes connections and never answers (a hung site): each delivery to it
/// waits for its timeout. It holds its connections until the test process ends.
#[derive(Clone)]
pub struct Silent {
    /// Where it listens: `http://127.0.0.1:<port>/hooks/moot`.
    pub url: String,
    accepted: Arc<Mutex<usize>>,
}

impl Silent {
    /// A silent receiver on a free port.
    pub fn start() -> Silent {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let accepted = Arc::new(Mutex::new(0));
        let counted = accepted.clone();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for stream in listener.incoming().flatten() {
                held.push(stream);
                *counted.lock().unwrap() += 1;
            }
        });
        Silent {
            url: format!("http://127.0.0.1:{port}/hooks/moot"),
            accepted,
        }
    }

    /// Connections taken so far.
    pub fn accepted(&self) -> usize {
        *self.accepted.lock().unwrap()
    }
}
