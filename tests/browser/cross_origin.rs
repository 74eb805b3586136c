//! A page served from another origin calls the API with `fetch`: CORS lets the browser give
//! it the answer (a JSON POST, so the browser sends a preflight first).

use actix_web::{App, HttpResponse, HttpServer, web};

use crate::harness::{Browser, ONE_AT_A_TIME};

/// Another site: one page on its own port (another origin than the app's).
async fn other_site() -> (String, actix_web::dev::ServerHandle) {
    let server = HttpServer::new(|| {
        App::new().route(
            "/",
            web::get().to(|| async {
                HttpResponse::Ok()
                    .content_type("text/html; charset=utf-8")
                    .body("<!DOCTYPE html><title>Another site</title><p>A correspondence-game site</p>")
            }),
        )
    })
    .workers(1)
    .bind(("127.0.0.1", 0))
    .expect("the other site binds a port");
    let base = format!("http://{}", server.addrs()[0]);
    let server = server.run();
    let handle = server.handle();
    actix_web::rt::spawn(server);
    (base, handle)
}

/// Runs in the other site's page: POSTs JSON to the API, answers what came back (or the error).
const FETCH: &str = r#"
const [api, done] = [arguments[0], arguments[arguments.length - 1]];
fetch(api + "/api/v1/games/herfor/new", {
  method: "POST",
  headers: {"content-type": "application/json", "x-request-id": "from-another-site"},
  body: JSON.stringify({options: {size: 3, pie: false}}),
})
  .then(async r => done({status: r.status, id: r.headers.get("x-request-id"), body: await r.json()}))
  .catch(e => done({error: String(e)}));
"#;

#[actix_web::test]
async fn a_page_on_another_origin_calls_the_api_with_fetch() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("cross-origin").await;
    let (other, other_handle) = other_site().await;
    assert_ne!(other, browser.base, "two origins");
    browser.visit(&format!("{other}/")).await;
    let answer = browser
        .client
        .execute_async(FETCH, vec![serde_json::json!(browser.base)])
        .await
        .expect("the script answers");
    assert!(
        answer.get("error").is_none(),
        "the browser refused: {answer}"
    );
    assert_eq!(answer["status"], 200, "{answer}");
    assert_eq!(
        answer["id"], "from-another-site",
        "an exposed header: {answer}"
    );
    assert_eq!(answer["body"]["state"]["options"]["size"], 3, "{answer}");
    other_handle.stop(true).await;
    browser.finish().await;
}
