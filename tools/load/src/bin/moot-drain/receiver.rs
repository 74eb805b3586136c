//! The webhook receiver: takes every post at once (204), counts them, and checks that each
//! chain's events (`Moot-Event-Id: <chain>-<seq>`) arrive in order.

use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};

#[derive(Default)]
struct Seen {
    taken: AtomicU64,
    out_of_order: AtomicU64,
    /// Each chain's last sequence number taken.
    last: Mutex<HashMap<String, u64>>,
}

/// A receiver running on a thread of its own, for as long as the tool runs.
#[derive(Clone)]
pub struct Receiver {
    port: u16,
    seen: Arc<Seen>,
}

impl Receiver {
    /// Starts it on a free port of 127.0.0.1.
    pub fn start() -> Result<Receiver, String> {
        let listener =
            TcpListener::bind("127.0.0.1:0").map_err(|e| format!("the receiver's port: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let seen = Arc::new(Seen::default());
        let shared = seen.clone();
        std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server = HttpServer::new(move || {
                    App::new()
                        .app_data(web::Data::from(shared.clone()))
                        .default_service(web::to(take))
                })
                .workers(1)
                .listen(listener)
                .expect("the receiver listens")
                .run();
                let _ = server.await;
            });
        });
        Ok(Receiver { port, seen })
    }

    /// Where it takes posts.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hook", self.port)
    }

    /// Posts taken so far.
    pub fn taken(&self) -> u64 {
        self.seen.taken.load(Ordering::Relaxed)
    }

    /// Posts that came before an earlier event of their chain.
    pub fn out_of_order(&self) -> u64 {
        self.seen.out_of_order.load(Ordering::Relaxed)
    }

    /// When `count` posts had been taken, if before `until`.
    pub async fn until_taken(&self, count: u64, until: Instant) -> Option<Instant> {
        while Instant::now() < until {
            if self.taken() >= count {
                return Some(Instant::now());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        None
    }
}

async fn take(request: HttpRequest, seen: web::Data<Seen>) -> HttpResponse {
    let id = request
        .headers()
        .get("moot-event-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if let Some((chain, seq)) = id.rsplit_once('-')
        && let Ok(seq) = seq.parse::<u64>()
    {
        let mut last = seen
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let before = last.insert(chain.to_owned(), seq);
        if before.is_some_and(|before| before >= seq) {
            seen.out_of_order.fetch_add(1, Ordering::Relaxed);
        }
    }
    seen.taken.fetch_add(1, Ordering::Relaxed);
    HttpResponse::NoContent().finish()
}
