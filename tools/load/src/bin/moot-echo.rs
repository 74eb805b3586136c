//! `moot-echo`: a bare actix-web server that answers a JSON body with itself — the yardstick
//! for Moot's own answers under `wrk` (the same framework and JSON, none of Moot's middleware,
//! log or engines).
//!
//! `moot-echo 127.0.0.1:8099`, then `POST /echo` with any JSON body.

use actix_web::{App, HttpServer, web};
use serde_json::Value;

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let bind = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8099".to_owned());
    HttpServer::new(|| {
        App::new().route(
            "/echo",
            web::post().to(|body: web::Json<Value>| async move { web::Json(body.into_inner()) }),
        )
    })
    .bind(bind)?
    .run()
    .await
}
