//! Server-sent event streams as a client reads them: frame by frame, each event's `id`,
//! `event` and JSON `data`.

use std::pin::Pin;
use std::time::Duration;

use actix_web::body::{BoxBody, MessageBody};
use serde_json::Value;

/// One server-sent event: its `id`, `event` and `data` (as JSON).
#[derive(Debug)]
pub struct Sse {
    pub id: u64,
    pub kind: String,
    pub data: Value,
}

/// An open event stream, read frame by frame.
pub struct Stream {
    pub body: BoxBody,
    pub buffer: String,
}

impl Stream {
    /// The next event, skipping comments and `retry`; `None` when the stream ended.
    pub async fn next(&mut self) -> Option<Sse> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame: String = self.buffer.drain(..end + 2).collect();
                let field = |name: &str| {
                    frame
                        .lines()
                        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
                        .map(str::to_owned)
                };
                let (Some(id), Some(kind), Some(data)) =
                    (field("id"), field("event"), field("data"))
                else {
                    continue;
                };
                return Some(Sse {
                    id: id.parse().expect("a numeric id"),
                    kind,
                    data: serde_json::from_str(&data).expect("JSON data"),
                });
            }
            let chunk = tokio::time::timeout(
                Duration::from_secs(20),
                std::future::poll_fn(|cx| Pin::new(&mut self.body).poll_next(cx)),
            )
            .await
            .expect("an event (or the end) within 20 s")?;
            let chunk = chunk.expect("the stream does not fail");
            self.buffer
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
    }
}
