//! A push service on this machine, and the browsers it serves, for the tests of Web Push: the
//! service records what the server posts to each browser's endpoint and answers the statuses a
//! test asks for; a browser's keys are made here (a P-256 key pair and 16 random bytes), so that
//! a test reads each push as the browser would (RFC 8291). The server's tests subscribe with
//! these keys through the API; the browser tests hand them to the page in place of a real push
//! service's subscription.

#![allow(dead_code)] // each test binary uses a different subset

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64ct::{Base64UrlUnpadded, Encoding};
use serde_json::{Value, json};
use web_push_native::Auth;
use web_push_native::p256::SecretKey;
use web_push_native::p256::elliptic_curve::sec1::ToEncodedPoint;

/// One post as the push service got it.
#[derive(Clone, Debug)]
pub struct Post {
    /// The request's path: which browser it is for.
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The status the push service answered.
    pub answered: u16,
}

impl Post {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// A push service on this machine: answers the statuses it was told to, then 201.
#[derive(Clone)]
pub struct PushService {
    /// `http://127.0.0.1:<port>`.
    pub origin: String,
    got: Arc<Mutex<Vec<Post>>>,
    answers: Arc<Mutex<VecDeque<u16>>>,
}

impl PushService {
    pub fn start(answers: &[u16]) -> PushService {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let service = PushService {
            origin: format!("http://127.0.0.1:{port}"),
            got: Arc::default(),
            answers: Arc::new(Mutex::new(answers.iter().copied().collect())),
        };
        let shared = service.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let service = shared.clone();
                std::thread::spawn(move || service.serve(stream));
            }
        });
        service
    }

    /// Reads one request, records it, answers it.
    fn serve(&self, mut stream: std::net::TcpStream) {
        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
        let mut reader = BufReader::new(stream.try_clone().expect("a stream"));
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end().to_owned();
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        let path = lines[0].split(' ').nth(1).unwrap_or_default().to_owned();
        let headers: Vec<(String, String)> = lines[1..]
            .iter()
            .filter_map(|line| {
                let (key, value) = line.split_once(':')?;
                Some((key.trim().to_owned(), value.trim().to_owned()))
            })
            .collect();
        let mut post = Post {
            path,
            headers,
            body: Vec::new(),
            answered: 0,
        };
        let length = post
            .header("content-length")
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        post.body = vec![0; length];
        if reader.read_exact(&mut post.body).is_err() {
            return;
        }
        post.answered = self.answers.lock().unwrap().pop_front().unwrap_or(201);
        let answered = post.answered;
        self.got.lock().unwrap().push(post);
        let _ = write!(
            stream,
            "HTTP/1.1 {answered} Told\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
    }

    pub fn posts(&self) -> Vec<Post> {
        self.got.lock().unwrap().clone()
    }

    /// Waits until `done` holds of the posts; fails the test after `within`.
    pub async fn until(&self, within: Duration, done: impl Fn(&[Post]) -> bool) -> Vec<Post> {
        let deadline = std::time::Instant::now() + within;
        loop {
            let got = self.posts();
            if done(&got) {
                return got;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the push service did not get what was awaited within {within:?}; it got {:?}",
                got.iter()
                    .map(|p| (&p.path, p.answered))
                    .collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A browser as a push service knows it: its keys, made here, and its endpoint there.
pub struct PushBrowser {
    secret: SecretKey,
    auth: [u8; 16],
    pub endpoint: String,
}

impl PushBrowser {
    pub fn new(service: &PushService, name: &str) -> PushBrowser {
        let secret = loop {
            let mut scalar = [0u8; 32];
            getrandom::fill(&mut scalar).unwrap();
            if let Ok(secret) = SecretKey::from_slice(&scalar) {
                break secret;
            }
        };
        let mut auth = [0u8; 16];
        getrandom::fill(&mut auth).unwrap();
        PushBrowser {
            secret,
            auth,
            endpoint: format!("{}/push/{name}", service.origin),
        }
    }

    /// `PushSubscription.toJSON()`.
    pub fn subscription(&self) -> Value {
        let point = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": self.endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": Base64UrlUnpadded::encode_string(point.as_bytes()),
                "auth": Base64UrlUnpadded::encode_string(&self.auth),
            },
        })
    }

    /// The path of its pushes at the push service.
    pub fn path(&self) -> &str {
        &self.endpoint[self.endpoint.find("/push/").unwrap()..]
    }

    /// What a push to it says, decrypted with its private key.
    pub fn read(&self, post: &Post) -> String {
        let plain = web_push_native::decrypt(
            post.body.clone(),
            &self.secret,
            &Auth::clone_from_slice(&self.auth),
        )
        .expect("the push decrypts with the browser's keys");
        String::from_utf8(plain).expect("a UTF-8 payload")
    }
}
