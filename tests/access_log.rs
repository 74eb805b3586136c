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
    /// Captures this thread's log at `info` until the guard is dropped.
    fn start() -> (Self, tracing::subscriber::DefaultGuard) {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter("info")
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        (captured, tracing::subscriber::set_default(subscriber))
    }

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
    let (captured, _default) = Captured::start();
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

/// An overload refusal (503, retry later) is expected under load: a warning, not an error; and
/// a method HTTP does not define is logged as `other`, never as the client wrote it.
#[actix_web::test]
async fn overload_refusals_are_warnings_and_unknown_methods_are_other() {
    let (captured, _default) = Captured::start();
    let computer = moot::Computer::new(moot::AiConfig {
        max_evaluations: 1,
        ..moot::AiConfig::default()
    });
    // The one permit is taken: the next search is refused.
    let _held = computer.api().pool().try_acquire().expect("a permit");
    let app = test::init_service(moot::app_with(computer.clone())).await;
    let (_, _, body) = call(&app, TestRequest::post().uri(&endpoint("herfor", "new"))).await;
    let state = serde_json::from_slice::<serde_json::Value>(&body).expect("JSON")["state"].clone();
    let (status, _, _) = call(
        &app,
        TestRequest::post()
            .uri(&endpoint("herfor", "evaluate"))
            .set_json(json!({"state": state, "playouts": 10})),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let method = actix_web::http::Method::from_bytes("X".repeat(500).as_bytes()).expect("a token");
    call(&app, TestRequest::default().method(method).uri("/healthz")).await;
    let lines = captured.lines();
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(
        lines[1].contains(" WARN ") && lines[1].contains("status=503"),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains(r#"code="overloaded""#), "{}", lines[1]);
    assert!(
        lines[2].contains("method=other") && !lines[2].contains("XXX"),
        "{}",
        lines[2]
    );
}

/// The count a sampled line carries: `left_out=N`, or 0 on a line that is not sampled.
fn left_out(line: &str) -> u64 {
    line.split_whitespace()
        .find_map(|field| field.strip_prefix("left_out="))
        .map_or(0, |n| n.parse().expect("a count"))
}

/// A flood of refusals of one kind (here an overload's 503s and a client's 422s) writes a line
/// a second, and the lines with the counts they carry add up to every refusal: the next line
/// after a second says how many were left out.
#[actix_web::test]
async fn repeated_refusals_are_sampled_and_every_one_is_counted() {
    let (captured, _default) = Captured::start();
    let computer = moot::Computer::new(moot::AiConfig::default());
    let held: Vec<_> = std::iter::from_fn(|| computer.renders().try_acquire()).collect();
    let app = test::init_service(moot::app_with(computer.clone())).await;
    let picture = format!("{}?size=3&pie=false", endpoint("herfor", "picture"));
    for _ in 0..30 {
        let (status, _, _) = call(&app, TestRequest::get().uri(&picture)).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    }
    for _ in 0..30 {
        call(&app, TestRequest::get().uri("/healthz")).await;
    }
    let refused = || {
        TestRequest::post()
            .uri(&endpoint("herfor", "new"))
            .set_json(json!({"options": {"size": 99}}))
    };
    for _ in 0..30 {
        let (status, _, _) = call(&app, refused()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let flood = captured.lines();
    assert!(
        flood.len() <= 6,
        "at most two seconds of each kind: {flood:#?}"
    );
    // A second later, one more of each: its line carries the count of those left out.
    std::thread::sleep(std::time::Duration::from_millis(1_100));
    call(&app, TestRequest::get().uri(&picture)).await;
    call(&app, TestRequest::get().uri("/healthz")).await;
    call(&app, refused()).await;
    drop(held);
    let lines = captured.lines();
    for (marker, sent) in [
        ("status=503", 31),
        ("route=\"/healthz\"", 31),
        ("status=422", 31),
    ] {
        let of_kind: Vec<&String> = lines.iter().filter(|l| l.contains(marker)).collect();
        let counted: u64 = of_kind.iter().map(|l| 1 + left_out(l)).sum();
        assert_eq!(counted, sent, "{marker}: {of_kind:#?}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains("status=503") && l.contains(" WARN "))
    );
}

/// A seat's credential travels in `Authorization`; the log writes no request header, so no
/// credential (right or wrong) appears in it, nor the one the creation answer shows.
#[actix_web::test]
async fn seat_credentials_are_never_logged() {
    let file = std::env::temp_dir().join(format!("moot-access-log-{}.db", std::process::id()));
    let store = moot::tables::Store::connect(&format!("sqlite://{}", file.display()))
        .await
        .expect("the database opens");
    let (captured, _default) = Captured::start();
    let computer = moot::Computer::new(moot::AiConfig::default());
    let middleware = moot::serve::Middleware::new(moot::serve::Origins::Any, &computer);
    let policy =
        moot::tables::TablePolicy::new(moot::tables::Tables::new(store, 10), Default::default());
    let app = test::init_service(moot::app_for(computer, middleware, Some(policy))).await;
    let (status, _, body) = call(
        &app,
        TestRequest::post()
            .uri("/api/v1/tables")
            .set_json(json!({"game": "herfor"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let created: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
    let id = created["table"]["id"].as_str().expect("an id");
    let credential = created["seats"][0]["credential"]
        .as_str()
        .expect("a credential");
    let wrong = "e".repeat(64);
    for secret in [credential, &wrong] {
        call(
            &app,
            TestRequest::post()
                .uri(&format!("/api/v1/tables/{id}/moves"))
                .insert_header(("authorization", format!("Bearer {secret}")))
                .set_json(json!({"move": "c3", "ply": 0})),
        )
        .await;
    }
    let lines = captured.lines();
    assert_eq!(lines.len(), 3, "{lines:#?}");
    for line in &lines {
        assert!(
            !line.contains(credential) && !line.contains(&wrong),
            "{line}"
        );
    }
    assert!(
        lines[1].contains("status=200") && lines[2].contains("status=401"),
        "{lines:#?}"
    );
}
