//! The service behind a site: request ids, compression, CORS, the access log, metrics and
//! security headers, through the whole app.

use std::io::Read;

use actix_web::http::{Method, StatusCode, header};
use actix_web::test::{self, TestRequest};
use moot::serve::{Middleware, Origins};
use moot::{AiConfig, Computer};
use serde_json::{Value, json};

use crate::common::{call, endpoint, new_state};

fn header_of<'a>(headers: &'a header::HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn site(origins: Origins) -> (Computer, Middleware) {
    let computer = Computer::new(AiConfig::default());
    let site = Middleware::new(origins, &computer);
    (computer, site)
}

#[actix_web::test]
async fn every_answer_has_a_request_id_taken_from_the_request_when_sane() {
    let app = test::init_service(moot::app()).await;
    let (_, headers, _) = call(&app, TestRequest::get().uri("/healthz")).await;
    let made = header_of(&headers, "x-request-id").expect("an id");
    assert_eq!(made.len(), 16, "{made}");
    let (_, headers, _) = call(
        &app,
        TestRequest::get()
            .uri("/")
            .insert_header(("x-request-id", "site-42.a:b_c")),
    )
    .await;
    assert_eq!(header_of(&headers, "x-request-id"), Some("site-42.a:b_c"));
    for insane in ["a b", "<x>", &"x".repeat(65), "\"quoted\""] {
        let (_, headers, _) = call(
            &app,
            TestRequest::get()
                .uri("/nowhere")
                .insert_header(("x-request-id", insane)),
        )
        .await;
        let id = header_of(&headers, "x-request-id").expect("an id");
        assert_ne!(id, insane);
        assert_eq!(id.len(), 16, "{id}");
    }
}

#[actix_web::test]
async fn problem_bodies_carry_the_request_id_and_a_cited_rules_url() {
    let state = new_state("herfor").await;
    let app = test::init_service(moot::app()).await;
    let (status, headers, body) = call(
        &app,
        TestRequest::post()
            .uri(&endpoint("herfor", "apply"))
            .insert_header(("x-request-id", "quote-me"))
            .set_json(json!({"state": state, "moves": ["c3", "c3"]})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(header_of(&headers, "x-request-id"), Some("quote-me"));
    let problem: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(problem["request_id"], "quote-me");
    assert_eq!(problem["rule"], "F3");
    assert_eq!(problem["rule_url"], "/rules/herfor#F3");
    assert_eq!(problem["code"], "illegal_move");
    // A problem made outside a handler (no route) gets it too, with its own id.
    let (status, headers, body) = call(&app, TestRequest::get().uri("/api/v1/nothing")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let problem: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(
        problem["request_id"].as_str(),
        header_of(&headers, "x-request-id")
    );
    assert!(problem.get("rule_url").is_none(), "{problem}");
    // And a 405, whose answer the site's fallback makes.
    let (status, headers, body) = call(&app, TestRequest::delete().uri("/api/v1/games")).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let problem: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(problem["code"], "method_not_allowed");
    assert_eq!(
        problem["request_id"].as_str(),
        header_of(&headers, "x-request-id")
    );
}

#[actix_web::test]
async fn answers_are_compressed_when_the_client_accepts_it() {
    let app = test::init_service(moot::app()).await;
    let (_, plain_headers, plain) = call(&app, TestRequest::get().uri("/api/v1/games")).await;
    assert!(plain_headers.get(header::CONTENT_ENCODING).is_none());
    let (status, headers, gzipped) = call(
        &app,
        TestRequest::get()
            .uri("/api/v1/games")
            .insert_header((header::ACCEPT_ENCODING, "gzip")),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header_of(&headers, "content-encoding"), Some("gzip"));
    assert!(
        gzipped.len() < plain.len(),
        "{} vs {}",
        gzipped.len(),
        plain.len()
    );
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&gzipped[..])
        .read_to_end(&mut unzipped)
        .expect("gzip");
    assert_eq!(unzipped, plain);
}

/// An answer under 1 KiB goes out as it is, whatever the client accepts (it fits one TCP
/// segment either way); a client that refuses every encoding, identity included, gets 406.
#[actix_web::test]
async fn small_answers_are_not_compressed_medium_ones_prefer_gzip_and_refusing_every_encoding_is_406()
 {
    let app = test::init_service(moot::app()).await;
    let small = TestRequest::post()
        .uri(&endpoint("herfor", "new"))
        .insert_header((header::ACCEPT_ENCODING, "br, gzip"))
        .set_json(json!({"options": {"size": 3}}));
    let (status, headers, body) = call(&app, small).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.len() < 1024, "{} bytes", body.len());
    assert!(
        headers.get(header::CONTENT_ENCODING).is_none(),
        "{headers:?}"
    );
    serde_json::from_slice::<Value>(&body).expect("plain JSON");

    // A few kilobytes go out as gzip where the client takes it (brotli's encoder costs more
    // to set up than it saves on them), as brotli where it takes nothing lighter; from 64 KiB
    // brotli, as the client prefers.
    let sized = |uri: &str, accepted: &'static str| {
        TestRequest::get()
            .uri(uri)
            .insert_header((header::ACCEPT_ENCODING, accepted))
    };
    let (_, _, home) = call(&app, sized("/", "identity")).await;
    let (_, _, spec) = call(&app, sized("/api-docs/openapi.json", "identity")).await;
    assert!(
        (1024..64 * 1024).contains(&home.len()),
        "{} bytes",
        home.len()
    );
    assert!(spec.len() >= 64 * 1024, "{} bytes", spec.len());
    for (uri, accepted, expected) in [
        ("/", "br, gzip", "gzip"),
        ("/", "br", "br"),
        ("/api-docs/openapi.json", "br, gzip", "br"),
    ] {
        let (status, headers, _) = call(&app, sized(uri, accepted)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            header_of(&headers, "content-encoding"),
            Some(expected),
            "{uri} for {accepted}"
        );
    }

    let (status, headers, _) = call(
        &app,
        TestRequest::get()
            .uri("/api/v1/games")
            .insert_header((header::ACCEPT_ENCODING, "identity;q=0, *;q=0")),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_ACCEPTABLE);
    assert_eq!(header_of(&headers, "vary"), Some("Accept-Encoding"));
}

#[actix_web::test]
async fn any_origin_may_call_the_api_by_default_and_preflights_are_answered() {
    let app = test::init_service(moot::app()).await;
    let (status, headers, _) = call(
        &app,
        TestRequest::default()
            .method(Method::OPTIONS)
            .uri(&endpoint("herfor", "new"))
            .insert_header((header::ORIGIN, "https://games.example"))
            .insert_header((header::ACCESS_CONTROL_REQUEST_METHOD, "POST"))
            .insert_header((header::ACCESS_CONTROL_REQUEST_HEADERS, "content-type")),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        header_of(&headers, "access-control-allow-origin"),
        Some("*")
    );
    assert!(
        header_of(&headers, "access-control-allow-methods").is_some_and(|m| m.contains("POST")),
        "{headers:?}"
    );
    assert!(header_of(&headers, "access-control-allow-credentials").is_none());
    // A preflight is an answer like any other: it carries the security headers too.
    assert_eq!(
        header_of(&headers, "x-content-type-options"),
        Some("nosniff")
    );
    assert_eq!(header_of(&headers, "referrer-policy"), Some("same-origin"));
    let (status, headers, _) = call(
        &app,
        TestRequest::post()
            .uri(&endpoint("herfor", "new"))
            .insert_header((header::ORIGIN, "https://games.example"))
            .set_json(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        header_of(&headers, "access-control-allow-origin"),
        Some("*")
    );
    assert!(
        header_of(&headers, "access-control-expose-headers")
            .is_some_and(|h| h.contains("x-request-id")),
        "{headers:?}"
    );
}

#[actix_web::test]
async fn only_the_origins_named_get_cors_headers() {
    let origins: Origins = "https://games.example".parse().expect("an origin");
    let (computer, site) = site(origins);
    let app = test::init_service(moot::app_for(computer, site, None)).await;
    let preflight = |origin: &'static str| {
        TestRequest::default()
            .method(Method::OPTIONS)
            .uri(&endpoint("herfor", "new"))
            .insert_header((header::ORIGIN, origin))
            .insert_header((header::ACCESS_CONTROL_REQUEST_METHOD, "POST"))
    };
    let (_, headers, _) = call(&app, preflight("https://games.example")).await;
    assert_eq!(
        header_of(&headers, "access-control-allow-origin"),
        Some("https://games.example")
    );
    let (_, headers, _) = call(&app, preflight("https://elsewhere.example")).await;
    assert!(header_of(&headers, "access-control-allow-origin").is_none());
    // A request from another origin is still answered (the browser keeps it from the page).
    let (status, headers, _) = call(
        &app,
        TestRequest::get()
            .uri("/api/v1/games")
            .insert_header((header::ORIGIN, "https://elsewhere.example")),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(header_of(&headers, "access-control-allow-origin").is_none());
}

#[actix_web::test]
async fn a_preflight_may_ask_for_any_request_header() {
    let app = test::init_service(moot::app()).await;
    let (status, headers, _) = call(
        &app,
        TestRequest::default()
            .method(Method::OPTIONS)
            .uri(&endpoint("hirth", "apply"))
            .insert_header((header::ORIGIN, "https://games.example"))
            .insert_header((header::ACCESS_CONTROL_REQUEST_METHOD, "POST"))
            .insert_header((
                header::ACCESS_CONTROL_REQUEST_HEADERS,
                "content-type, traceparent, sentry-trace",
            )),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{headers:?}");
    assert_eq!(
        header_of(&headers, "access-control-allow-headers"),
        Some("content-type, traceparent, sentry-trace")
    );
    assert_eq!(
        header_of(&headers, "access-control-allow-origin"),
        Some("*")
    );
}

/// A refused preflight's problem, with its headers.
async fn refused_preflight(
    origins: Origins,
    origin: &str,
    method: &str,
) -> (header::HeaderMap, Value) {
    let (computer, site) = site(origins);
    let app = test::init_service(moot::app_for(computer, site, None)).await;
    let (status, headers, body) = call(
        &app,
        TestRequest::default()
            .method(Method::OPTIONS)
            .uri(&endpoint("herfor", "new"))
            .insert_header((header::ORIGIN, origin.to_owned()))
            .insert_header((header::ACCESS_CONTROL_REQUEST_METHOD, method.to_owned())),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{headers:?}");
    assert_eq!(
        header_of(&headers, "content-type"),
        Some("application/problem+json")
    );
    let problem: Value = serde_json::from_slice(&body).expect("a problem");
    assert_eq!(problem["code"], "cors_refused", "{problem}");
    assert_eq!(problem["status"], 403);
    assert!(problem["request_id"].is_string(), "{problem}");
    assert!(
        header_of(&headers, "vary").is_some_and(|v| v.contains("Origin")),
        "{headers:?}"
    );
    assert_eq!(
        header_of(&headers, "x-content-type-options"),
        Some("nosniff")
    );
    (headers, problem)
}

#[actix_web::test]
async fn a_preflight_from_an_origin_not_named_is_a_cors_refused_problem() {
    let only: Origins = "https://games.example".parse().expect("an origin");
    let (headers, problem) = refused_preflight(only, "https://elsewhere.example", "POST").await;
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("https://elsewhere.example")),
        "{problem}"
    );
    // The refused origin is not named as allowed.
    assert!(header_of(&headers, "access-control-allow-origin").is_none());
}

#[actix_web::test]
async fn a_preflight_for_a_method_the_api_does_not_serve_is_a_cors_refused_problem() {
    let (headers, problem) =
        refused_preflight(Origins::Any, "https://games.example", "DELETE").await;
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("DELETE")),
        "{problem}"
    );
    // The origin was allowed: the answer says so, and which methods there are.
    assert_eq!(
        header_of(&headers, "access-control-allow-origin"),
        Some("https://games.example")
    );
    assert_eq!(
        header_of(&headers, "access-control-allow-methods"),
        Some("GET, HEAD, POST, PUT")
    );
}

#[actix_web::test]
async fn absolute_links_start_with_the_public_url_whatever_the_request_says() {
    let (computer, site) = site(Origins::Any);
    let public = "https://games.example".parse().expect("a public URL");
    let app = test::init_service(moot::app_for(
        computer,
        site.with_public_url(Some(public)),
        None,
    ))
    .await;
    for uri in ["/play/herfor?moves=c3", "/embed/herfor?moves=c3"] {
        let (status, _, body) = call(
            &app,
            TestRequest::get()
                .uri(uri)
                .insert_header((header::HOST, "upstream:8080"))
                .insert_header(("x-forwarded-host", "forged.example")),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        let page = String::from_utf8(body).expect("UTF-8");
        assert!(
            page.contains("https://games.example/"),
            "{uri}: {page:.2000}"
        );
        assert!(!page.contains("upstream:8080"), "{uri}");
        assert!(!page.contains("forged.example"), "{uri}");
    }
    // Without it, the request's Host.
    let app = test::init_service(moot::app()).await;
    let (_, _, body) = call(
        &app,
        TestRequest::get()
            .uri("/play/herfor?moves=c3")
            .insert_header((header::HOST, "upstream:8080")),
    )
    .await;
    let page = String::from_utf8(body).expect("UTF-8");
    assert!(
        page.contains(r#"property="og:url" content="http://upstream:8080/play/herfor"#),
        "{page:.2000}"
    );
}

#[actix_web::test]
async fn the_web_push_worker_is_served_at_the_root_revalidated_and_the_pages_policy_allows_it() {
    let app = test::init_service(moot::app()).await;
    let (status, headers, body) = call(&app, TestRequest::get().uri("/push-worker.js")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        header_of(&headers, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    // Revalidated at each update check: a new worker reaches browsers at once.
    assert_eq!(header_of(&headers, "cache-control"), Some("no-cache"));
    let script = String::from_utf8(body).expect("UTF-8");
    assert!(script.contains("showNotification"), "{script:.200}");
    assert!(script.contains("notificationclick"));
    let (_, headers, _) = call(&app, TestRequest::get().uri("/")).await;
    let policy = header_of(&headers, "content-security-policy").unwrap_or_default();
    assert!(policy.contains("worker-src 'self'"), "{policy}");
    assert!(policy.contains("script-src 'self'"), "{policy}");
}

#[actix_web::test]
async fn pages_get_security_headers_and_swagger_ui_its_freedom() {
    let app = test::init_service(moot::app()).await;
    for uri in ["/", "/rules/herfor", "/play/tara", "/nowhere"] {
        let (_, headers, _) = call(&app, TestRequest::get().uri(uri)).await;
        let policy = header_of(&headers, "content-security-policy").unwrap_or_default();
        assert!(policy.contains("frame-ancestors 'none'"), "{uri}: {policy}");
        assert!(policy.contains("default-src 'none'"), "{uri}: {policy}");
        assert_eq!(
            header_of(&headers, "x-content-type-options"),
            Some("nosniff")
        );
        assert_eq!(header_of(&headers, "referrer-policy"), Some("same-origin"));
    }
    let (_, headers, _) = call(&app, TestRequest::get().uri("/api/v1/games")).await;
    assert_eq!(
        header_of(&headers, "x-content-type-options"),
        Some("nosniff")
    );
    assert!(headers.get("content-security-policy").is_none());
    let (status, headers, _) = call(&app, TestRequest::get().uri("/docs/")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers.get("content-security-policy").is_none());
}

/// Log lines written while `work` runs on this thread.
/// The value of the metric line that starts with `prefix` (name and labels).
fn metric(text: &str, prefix: &str) -> Option<f64> {
    text.lines()
        .find(|line| line.starts_with(prefix))
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
}

/// A client may send any token as a method: each would be a new metrics series (and a log field
/// as long as it likes), so every method HTTP does not define is counted as `other`.
#[actix_web::test]
async fn unknown_methods_share_one_metrics_label_whatever_their_name() {
    let (computer, site) = site(Origins::Any);
    let app = test::init_service(moot::app_for(computer, site, None)).await;
    for name in ["A".repeat(1000), "B".repeat(1000), "BREW".to_owned()] {
        let method = Method::from_bytes(name.as_bytes()).expect("a token");
        call(&app, TestRequest::default().method(method).uri("/healthz")).await;
    }
    let (_, _, body) = call(&app, TestRequest::get().uri("/metrics")).await;
    let text = String::from_utf8(body).expect("text");
    assert!(!text.contains("AAAA") && !text.contains("BREW"), "{text}");
    let other = r#"moot_http_requests_total{method="other",route="/healthz",status="405"}"#;
    assert_eq!(metric(&text, other), Some(3.0), "{text}");
}

/// Two handlers of one name (`record`, of the play pages and of the tables) are two routes,
/// each counted under its own pattern: the access log keeps patterns by route name.
#[actix_web::test]
async fn routes_whose_handlers_share_a_name_are_counted_apart() {
    let (computer, site) = site(Origins::Any);
    let app = test::init_service(moot::app_for(computer, site, None)).await;
    for uri in ["/play/herfor/record?size=3&moves=c3", "/table/t1/record"] {
        call(&app, TestRequest::get().uri(uri)).await;
    }
    let (_, _, body) = call(&app, TestRequest::get().uri("/metrics")).await;
    let text = String::from_utf8(body).expect("text");
    for route in ["/play/{game}/record", "/table/{id}/record"] {
        assert!(
            text.contains(&format!(r#"route="{route}""#)),
            "{route} not counted: {text}"
        );
    }
}

#[actix_web::test]
async fn metrics_count_requests_by_route_and_status_latency_and_the_evaluate_cache() {
    let (computer, site) = site(Origins::Any);
    let app = test::init_service(moot::app_for(computer, site, None)).await;
    let state = new_state("herfor").await;
    let evaluate = json!({"state": state, "playouts": 50, "seed": 3});
    for _ in 0..2 {
        let (status, _, _) = call(
            &app,
            TestRequest::post()
                .uri(&endpoint("herfor", "evaluate"))
                .set_json(&evaluate),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    for uri in ["/healthz", "/no/such/path/1", "/no/such/path/2"] {
        call(&app, TestRequest::get().uri(uri)).await;
    }
    let (status, headers, body) = call(&app, TestRequest::get().uri("/metrics")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(header_of(&headers, "content-type").is_some_and(|t| t.starts_with("text/plain")));
    let text = String::from_utf8(body).expect("text");
    let requests = r#"moot_http_requests_total{method="POST",route="/api/v1/games/{game}/evaluate",status="200"}"#;
    assert_eq!(metric(&text, requests), Some(2.0), "{text}");
    let health = r#"moot_http_requests_total{method="GET",route="/healthz",status="200"}"#;
    assert_eq!(metric(&text, health), Some(1.0), "{text}");
    let unmatched = r#"moot_http_requests_total{method="GET",route="unmatched",status="404"}"#;
    assert_eq!(metric(&text, unmatched), Some(2.0), "{text}");
    assert!(!text.contains("/no/such/path"), "{text}");
    let latency = r#"moot_http_request_duration_seconds_count{method="POST",route="/api/v1/games/{game}/evaluate"}"#;
    assert_eq!(metric(&text, latency), Some(2.0), "{text}");
    assert_eq!(
        metric(&text, "moot_evaluate_cache_hits_total "),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        metric(&text, "moot_evaluate_cache_misses_total "),
        Some(1.0),
        "{text}"
    );
    assert_eq!(metric(&text, "moot_searches_running "), Some(0.0), "{text}");
    assert_eq!(
        metric(&text, "moot_searches_refused_total "),
        Some(0.0),
        "{text}"
    );
}

#[actix_web::test]
async fn refused_searches_are_counted() {
    let computer = Computer::new(AiConfig {
        max_evaluations: 1,
        ..AiConfig::default()
    });
    let site = Middleware::new(Origins::Any, &computer);
    let held = computer.api().pool().try_acquire().expect("a permit");
    let app = test::init_service(moot::app_for(computer.clone(), site, None)).await;
    let state = new_state("tara").await;
    let (status, _, _) = call(
        &app,
        TestRequest::post()
            .uri(&endpoint("tara", "evaluate"))
            .set_json(json!({"state": state, "playouts": 10})),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let (_, _, body) = call(&app, TestRequest::get().uri("/metrics")).await;
    let text = String::from_utf8(body).expect("text");
    assert_eq!(metric(&text, "moot_searches_running "), Some(1.0), "{text}");
    assert_eq!(
        metric(&text, "moot_searches_refused_total "),
        Some(1.0),
        "{text}"
    );
    drop(held);
}

#[actix_web::test]
async fn rules_pages_anchor_every_rule_id_and_show_the_move_notation() {
    let app = test::init_service(moot::app()).await;
    for (game, letter, last, examples) in [
        ("herfor", 'F', 6, &["c3", "swap"][..]),
        ("tara", 'T', 13, &["D7-E5", "C5sB3"][..]),
        (
            "hirth",
            'H',
            12,
            &[
                "He&gt;0",
                "L1&gt;3",
                "Hr3",
                "[K",
                "end &gt;6Lm",
                "give-up",
                "retreat 8",
            ][..],
        ),
    ] {
        let (status, _, body) = call(&app, TestRequest::get().uri(&format!("/rules/{game}"))).await;
        assert_eq!(status, StatusCode::OK);
        let page = String::from_utf8(body).expect("UTF-8");
        for n in 1..=last {
            let id = format!("{letter}{n}");
            assert!(
                page.contains(&format!(r#"id="{id}""#)),
                "{game}: no anchor {id}"
            );
            assert!(
                page.contains(&format!("href=\"#{id}\"")),
                "{game}: {id} not indexed"
            );
        }
        for example in examples {
            assert!(
                page.contains(example),
                "{game}: notation {example} not shown"
            );
        }
    }
}

/// Browsers ask every site for `/favicon.ico`: Moot answers with its icon, a PNG.
#[actix_web::test]
async fn the_favicon_is_moots_icon_as_a_png() {
    let app = test::init_service(moot::app()).await;
    let (status, headers, body) = call(&app, TestRequest::get().uri("/favicon.ico")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header_of(&headers, "content-type"), Some("image/png"));
    assert!(body.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let (_, _, page) = call(&app, TestRequest::get().uri("/")).await;
    let page = String::from_utf8_lossy(&page).into_owned();
    assert!(page.contains(r#"<link rel="icon" type="image/png" href="/favicon.ico">"#));
}

/// The rules pages are for players: the notes for implementers in `rules/*.md` (marked there)
/// are not on them.
#[actix_web::test]
async fn rules_pages_leave_out_the_notes_for_implementers() {
    let app = test::init_service(moot::app()).await;
    let (status, _, body) = call(&app, TestRequest::get().uri("/rules/hirth")).await;
    assert_eq!(status, StatusCode::OK);
    let page = String::from_utf8_lossy(&body).into_owned();
    assert!(page.contains("Two lanes"), "the rules are there");
    for note in [
        "ONE table in the code",
        "must replay",
        "cite them in code comments",
    ] {
        assert!(!page.contains(note), "{note}");
    }
}
