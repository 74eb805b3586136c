//! Helpers shared by the HTTP tests: one app per test, requests as JSON, answers as JSON.

#![allow(dead_code)] // each test binary uses a different subset

pub mod contract;
pub mod ports;
pub mod push_service;
pub mod receiver;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::{Method, StatusCode, header};
use actix_web::test::{self, TestRequest};
use serde_json::{Value, json};

/// An answer: status, content type and body (parsed as JSON when it is JSON, else a string).
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub content_type: String,
    pub allow: Option<String>,
    pub location: Option<String>,
    pub retry_after: Option<String>,
    pub body: Value,
}

impl Answer {
    /// The problem's `code`, or "" when the answer is not a problem.
    pub fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or_default()
    }

    pub fn field(&self) -> &str {
        self.body["field"].as_str().unwrap_or_default()
    }

    /// Asserts the answer is a problem+json with this status and code, and returns it.
    #[track_caller]
    pub fn problem(&self, status: u16, code: &str) -> &Value {
        assert_eq!(self.content_type, "application/problem+json", "{self:#?}");
        assert_eq!(self.status.as_u16(), status, "{self:#?}");
        assert_eq!(self.code(), code, "{self:#?}");
        assert_eq!(self.body["status"], status, "{self:#?}");
        assert_eq!(
            self.body["type"],
            format!("urn:moot:problem:{code}"),
            "{self:#?}"
        );
        assert!(
            self.body["title"].is_string() && self.body["detail"].is_string(),
            "{self:#?}"
        );
        &self.body
    }

    /// Asserts a 422 problem with this code that names this `field`, and returns it.
    #[track_caller]
    pub fn unprocessable(&self, code: &str, field: &str) -> &Value {
        let problem = self.problem(422, code);
        assert_eq!(problem["field"], field, "{self:#?}");
        problem
    }

    /// Asserts a 200 JSON answer and returns its body.
    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert_eq!(self.status, StatusCode::OK, "{self:#?}");
        &self.body
    }
}

/// Reads an answer, and fails the test when it breaks the served contract (see [`contract`]).
pub async fn answer_of(response: ServiceResponse<impl actix_web::body::MessageBody>) -> Answer {
    let method = response.request().method().to_string();
    let path = response.request().path().to_owned();
    let status = response.status();
    let header_of = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let content_type = header_of(header::CONTENT_TYPE).unwrap_or_default();
    let allow = header_of(header::ALLOW);
    let location = header_of(header::LOCATION);
    let retry_after = header_of(header::RETRY_AFTER);
    let bytes = test::read_body(response).await;
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    // A HEAD answer (routed as GET) has no body to check.
    if !bytes.is_empty()
        && let Err(broken) = contract::check(&method, &path, status.as_u16(), &content_type, &body)
    {
        panic!("the answer breaks the contract: {broken}\nbody: {body:#}");
    }
    Answer {
        status,
        content_type,
        allow,
        location,
        retry_after,
        body,
    }
}

/// Sends one request to a fresh app.
pub async fn send(request: TestRequest) -> Answer {
    let app = test::init_service(moot::app()).await;
    answer_of(
        app.call(request.to_request())
            .await
            .expect("the app answers"),
    )
    .await
}

pub async fn get(uri: &str) -> Answer {
    send(TestRequest::get().uri(uri)).await
}

pub async fn post_json(uri: &str, body: &Value) -> Answer {
    send(TestRequest::post().uri(uri).set_json(body)).await
}

pub async fn post_raw(
    uri: &str,
    content_type: Option<&str>,
    body: impl Into<actix_web::web::Bytes>,
) -> Answer {
    let mut request = TestRequest::default()
        .method(Method::POST)
        .uri(uri)
        .set_payload(body.into());
    if let Some(content_type) = content_type {
        request = request.insert_header((header::CONTENT_TYPE, content_type));
    }
    send(request).await
}

pub fn endpoint(game: &str, operation: &str) -> String {
    format!("/api/v1/games/{game}/{operation}")
}

/// A game's initial state with default options, through the API.
pub async fn new_state(game: &str) -> Value {
    post_json(&endpoint(game, "new"), &json!({})).await.ok()["state"].clone()
}

/// A game's initial state with these options, through the API.
pub async fn new_state_with(game: &str, options: Value) -> Value {
    post_json(&endpoint(game, "new"), &json!({ "options": options }))
        .await
        .ok()["state"]
        .clone()
}

/// The state after `mv`, through the API.
pub async fn applied(game: &str, state: &Value, mv: &str) -> Value {
    post_json(
        &endpoint(game, "apply"),
        &json!({"state": state, "move": mv}),
    )
    .await
    .ok()["state"]
        .clone()
}

/// Herfor on the smallest board without the pie rule: a whole game is a few dozen moves.
pub async fn herfor_small() -> Value {
    new_state_with("herfor", json!({"size": 3, "pie": false})).await
}

/// A Herfor position on the small board without the pie rule, after Black's `c3`.
pub async fn herfor_after_c3() -> Value {
    applied("herfor", &herfor_small().await, "c3").await
}

/// Plays `plies` moves of a new game through the API, each time the first legal one (fewer when
/// the game ends first), returning the moves and the state they reach.
pub async fn first_moves(game: &str, plies: usize) -> (Vec<String>, Value) {
    first_moves_from(game, new_state(game).await, plies).await
}

/// [`first_moves`] from `state`.
pub async fn first_moves_from(game: &str, mut state: Value, plies: usize) -> (Vec<String>, Value) {
    let mut played = Vec::new();
    for _ in 0..plies {
        let legal = post_json(&endpoint(game, "legal-moves"), &json!({"state": state})).await;
        let Some(mv) = legal.ok()["moves"][0].as_str().map(str::to_owned) else {
            break;
        };
        state = applied(game, &state, &mv).await;
        played.push(mv);
    }
    (played, state)
}

/// Sends requests in order to one app sharing `computer`.
pub async fn evaluate_all(computer: &moot::Computer, bodies: &[(&str, Value)]) -> Vec<Answer> {
    let app = test::init_service(moot::app_with(computer.clone())).await;
    let mut answers = Vec::new();
    for (game, body) in bodies {
        let request = TestRequest::post()
            .uri(&endpoint(game, "evaluate"))
            .set_json(body)
            .to_request();
        answers.push(answer_of(app.call(request).await.expect("the app answers")).await);
    }
    answers
}

/// GETs each uri in turn from one app sharing `computer` (its limits, permits and cache).
pub async fn get_all(computer: &moot::Computer, uris: &[&str]) -> Vec<Answer> {
    let app = test::init_service(moot::app_with(computer.clone())).await;
    let mut answers = Vec::new();
    for uri in uris {
        let request = TestRequest::get().uri(uri).to_request();
        answers.push(answer_of(app.call(request).await.expect("the app answers")).await);
    }
    answers
}

/// Status, headers and body bytes of one request to `app`.
pub async fn call(
    app: &impl Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
    >,
    request: TestRequest,
) -> (StatusCode, header::HeaderMap, Vec<u8>) {
    let response = app.call(request.to_request()).await.expect("an answer");
    let status = response.status();
    let headers = response.headers().clone();
    let body = test::read_body(response).await.to_vec();
    (status, headers, body)
}
