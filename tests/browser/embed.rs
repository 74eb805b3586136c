//! The embeddable board inside a frame of another site, as a forum would show it.

use actix_web::{App, HttpResponse, HttpServer, web};
use fantoccini::Locator;

use crate::harness::{Browser, ONE_AT_A_TIME};

/// Another site: a page on another origin (another host name and port) that frames `embed`.
fn other_site(embed: String) -> (String, actix_web::dev::ServerHandle) {
    let page = format!(
        r#"<!DOCTYPE html><html><head><title>A forum</title></head><body><h1>Our game</h1><iframe id="board" src="{embed}" width="420" height="460"></iframe></body></html>"#
    );
    let server = HttpServer::new(move || {
        let page = page.clone();
        App::new().route(
            "/",
            web::get().to(move || {
                let page = page.clone();
                async move { HttpResponse::Ok().content_type("text/html").body(page) }
            }),
        )
    })
    .workers(1)
    .bind(("127.0.0.1", 0))
    .expect("the other site binds a port");
    let base = format!("http://localhost:{}", server.addrs()[0].port());
    let server = server.run();
    let handle = server.handle();
    actix_web::rt::spawn(server);
    (base, handle)
}

#[actix_web::test]
async fn an_embed_shows_its_board_inside_a_frame_on_another_site() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("embed").await;
    let embed = format!("{}/embed/herfor?size=3&pie=false&moves=c3.b2", browser.base);
    let (site, site_handle) = other_site(embed);
    // Ready once loaded, and a page's load waits for its frames'.
    browser.visit(&format!("{site}/")).await;
    let origin = |client: &fantoccini::Client| {
        let client = client.clone();
        async move {
            client
                .execute("return window.location.origin", vec![])
                .await
                .expect("a script runs")
                .as_str()
                .unwrap_or_default()
                .to_owned()
        }
    };
    assert_eq!(origin(&browser.client).await, site);
    browser
        .client
        .wait()
        .for_element(Locator::Css("iframe#board"))
        .await
        .expect("the frame is on the page")
        .enter_frame()
        .await
        .expect("the frame can be entered");
    browser
        .client
        .wait()
        .for_element(Locator::Css("svg.board.herfor"))
        .await
        .expect("the board shows inside the frame (the embed allows any site to frame it)");
    assert_eq!(
        origin(&browser.client).await,
        browser.base,
        "the frame is Moot's"
    );
    assert_eq!(browser.count("svg.herfor circle.stone").await, 2);
    assert_eq!(
        browser.count("svg.herfor button.move").await,
        0,
        "view-only"
    );
    let link = browser
        .client
        .find(Locator::Css("p.embed-line a"))
        .await
        .expect("a link to the full page");
    let href = link.attr("href").await.expect("an href").expect("set");
    assert!(
        href.starts_with(&format!("{}/play/herfor?", browser.base))
            && href.ends_with("moves=c3.b2"),
        "{href}"
    );
    assert_eq!(
        link.attr("target").await.expect("read").as_deref(),
        Some("_blank")
    );
    browser.screenshot("embed-in-a-frame").await;
    browser
        .client
        .enter_parent_frame()
        .await
        .expect("back to the other site");
    assert_eq!(browser.text("h1").await, "Our game");
    site_handle.stop(true).await;
    browser.finish().await;
}
