//! The access log: one line per request, client errors without their detail.
//!
//! Alone in its test binary, not a module of `tests/server/`: it captures the log with a
//! thread's own subscriber (`tracing::subscriber::set_default`), but tracing caches each call
//! site's interest process-wide. A test on another thread of the same process that reaches the
//! access log's call sites first, while that subscriber is being registered, can leave them
//! cached as uninteresting, and this test would lose lines at random.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use common::{call, endpoint};
use serde_json::json;

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("the log").extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().expect("the log").clone();
        String::from_utf8(bytes)
            .expect("UTF-8")
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

#[actix_web::test]
async fn one_access_log_line_per_request_and_client_errors_without_their_detail() {
    let captured = Captured::default();
    let writer = captured.clone();
    let _default = tracing_subscriber::fmt()
        .with_env_filter("info")
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let _default = tracing::subscriber::set_default(_default);
    let app = test::init_service(moot::app()).await;
    let (status, _, _) = call(
        &app,
        TestRequest::post()
            .uri(&endpoint("herfor", "new"))
            .insert_header(("x-request-id", "ok-1"))
            .set_json(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _) = call(
        &app,
        TestRequest::post()
            .uri(&endpoint("herfor", "new"))
            .insert_header(("x-request-id", "bad-1"))
            .set_json(json!({"options": {"size": 99}})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let lines = captured.lines();
    assert_eq!(lines.len(), 2, "{lines:#?}");
    for (line, id, status) in [(&lines[0], "ok-1", "200"), (&lines[1], "bad-1", "422")] {
        assert!(line.contains(" INFO "), "{line}");
        assert!(line.contains("method=POST"), "{line}");
        assert!(
            line.contains(r#"route="/api/v1/games/{game}/new""#),
            "{line}"
        );
        assert!(line.contains(&format!("status={status}")), "{line}");
        assert!(line.contains(&format!("request_id={id}")), "{line}");
        assert!(line.contains("micros="), "{line}");
    }
    assert!(
        lines[1].contains(r#"code="invalid_options""#),
        "{}",
        lines[1]
    );
    assert!(
        !lines[1].contains("options.size"),
        "the detail is left out: {}",
        lines[1]
    );
}
