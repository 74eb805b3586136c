//! The JSON API's cost per request, in process: `POST /api/v1/games/{game}/legal-moves` through the
//! whole application (middleware, JSON in and out, `validate`, the engine), one request at a
//! time on this thread, so the time per request is its CPU time. For scale, a bare actix route
//! that echoes a JSON body of the same size.
//!
//! Beside them, the pass that bounds a body before it is parsed (`json_scan`), against parsing
//! the same body, on each game's body: what the bound costs a normal request.
//!
//! `cargo bench --bench api`
#![allow(missing_docs)] // criterion_group! writes undocumented functions

use std::hint::black_box;

use actix_web::rt::System;
use actix_web::test::{self, TestRequest};
use actix_web::{App, web};
use criterion::{Criterion, criterion_group, criterion_main};
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use moot::games::{Game, random_opening};
use serde_json::{Value, json};

/// A request body holding a position `plies` random moves into a game.
fn body<G: Game>(plies: usize) -> Value {
    json!({"state": random_opening::<G>(plies, 3)})
}

fn legal_moves(c: &mut Criterion) {
    let system = System::new();
    let app = system.block_on(test::init_service(moot::app()));
    let echo = system.block_on(test::init_service(App::new().route(
        "/echo",
        web::post().to(|body: web::Json<Value>| async move { web::Json(body.into_inner()) }),
    )));
    let mut group = c.benchmark_group("api_legal_moves");
    for (game, body) in [
        (Herfor::ID, body::<Herfor>(20)),
        (Tara::ID, body::<Tara>(12)),
        (Hirth::ID, body::<Hirth>(20)),
    ] {
        let bytes = serde_json::to_vec(&body).expect("a JSON value");
        let uri = format!("/api/v1/games/{game}/legal-moves");
        // One real answer first: the position must be accepted, or the figure means nothing.
        let first = system.block_on(test::call_service(
            &app,
            TestRequest::post()
                .uri(&uri)
                .insert_header(("content-type", "application/json"))
                .set_payload(bytes.clone())
                .to_request(),
        ));
        assert!(first.status().is_success(), "{game}: {}", first.status());
        group.bench_function(game, |b| {
            b.iter(|| {
                system.block_on(async {
                    let request = TestRequest::post()
                        .uri(&uri)
                        .insert_header(("content-type", "application/json"))
                        .set_payload(bytes.clone())
                        .to_request();
                    black_box(test::read_body(test::call_service(&app, request).await).await)
                })
            })
        });
        group.bench_function(format!("echo_{game}_sized"), |b| {
            b.iter(|| {
                system.block_on(async {
                    let request = TestRequest::post()
                        .uri("/echo")
                        .insert_header(("content-type", "application/json"))
                        .set_payload(bytes.clone())
                        .to_request();
                    black_box(test::read_body(test::call_service(&echo, request).await).await)
                })
            })
        });
    }
    group.finish();
}

fn body_scan(c: &mut Criterion) {
    let mut group = c.benchmark_group("api_body_scan");
    for (game, body) in [
        (Herfor::ID, body::<Herfor>(20)),
        (Tara::ID, body::<Tara>(12)),
        (Hirth::ID, body::<Hirth>(20)),
    ] {
        let bytes = serde_json::to_vec(&body).expect("a JSON value");
        moot::api::json_scan::scan(&bytes).expect("within the bounds");
        group.bench_function(format!("scan_{game}_{}_bytes", bytes.len()), |b| {
            b.iter(|| black_box(moot::api::json_scan::scan(black_box(&bytes))))
        });
        group.bench_function(format!("parse_{game}_{}_bytes", bytes.len()), |b| {
            b.iter(|| black_box(serde_json::from_slice::<Value>(black_box(&bytes))))
        });
    }
}

criterion_group!(benches, legal_moves, body_scan);
criterion_main!(benches);
