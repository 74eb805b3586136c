//! The browser tests' harness: the app on a free port, Debian's chromedriver as a child
//! process, headless Chromium through fantoccini. Everything is torn down on drop, even when
//! a test fails.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use actix_web::dev::ServerHandle;
use fantoccini::{Client, ClientBuilder, Locator};

#[path = "../common/ports.rs"]
mod ports;
use ports::{free_port, wait_for_port};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One browser at a time: two cores cannot run several Chromiums well.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Kills chromedriver (and with it Chromium) and removes the profile when dropped.
struct Driver {
    child: Child,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

pub struct Browser {
    pub client: Client,
    /// `http://127.0.0.1:PORT`, where the app listens.
    pub base: String,
    server: ServerHandle,
    _driver: Driver,
}

impl Browser {
    /// Starts the app, chromedriver and a headless Chromium with a fresh profile.
    pub async fn start(name: &str) -> Browser {
        for binary in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                Path::new(binary).exists(),
                "{binary} is missing: the browser tests need Debian's chromium and chromium-driver \
                 (apt-get install -y chromium chromium-driver; .ci/run installs them)"
            );
        }
        let server = actix_web::HttpServer::new(moot::app)
            .workers(1)
            .bind(("127.0.0.1", 0))
            .expect("the app binds a local port");
        let base = format!("http://{}", server.addrs()[0]);
        let server = server.run();
        let handle = server.handle();
        actix_web::rt::spawn(server);

        let port = free_port();
        let profile =
            std::env::temp_dir().join(format!("moot-chromium-{name}-{}", std::process::id()));
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver { child, profile };
        wait_for_port(port, "chromedriver");

        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,1000",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!("--user-data-dir={}", driver.profile.display())])
        .collect::<Vec<_>>();
        let capabilities = serde_json::json!({
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args }
        });
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities.as_object().cloned().expect("an object"))
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("chromedriver starts a Chromium session");
        Browser {
            client,
            base,
            server: handle,
            _driver: driver,
        }
    }

    pub async fn open(&self, path: &str) {
        self.client
            .goto(&format!("{}{path}", self.base))
            .await
            .expect("the page opens");
    }

    pub async fn url(&self) -> String {
        self.client.current_url().await.expect("a URL").to_string()
    }

    /// Clicks an element and waits until the browser has gone to another URL.
    pub async fn click_to_next_page(&self, locator: Locator<'_>) {
        let before = self.url().await;
        self.client
            .find(locator)
            .await
            .unwrap_or_else(|e| panic!("{locator:?} is on the page: {e}"))
            .click()
            .await
            .expect("the click lands");
        self.wait_until_left(&before).await;
    }

    /// Waits until the browser has left the page at `before` and the next page has loaded.
    pub async fn wait_until_left(&self, before: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.url().await == before {
            assert!(Instant::now() < deadline, "the browser stayed on {before}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.client
            .wait()
            .for_element(Locator::Css("footer.site"))
            .await
            .expect("the next page loads");
    }

    /// Plays a move by clicking: its link on the board when there is one, else its button.
    pub async fn play(&self, notation: &str) {
        let encoded: String = form_urlencoded::byte_serialize(notation.as_bytes()).collect();
        let board = format!(
            r#"figure.board a[href$=".{encoded}"], figure.board a[href$="moves={encoded}"]"#
        );
        let css = if self.count(&board).await > 0 {
            board
        } else {
            format!(
                r#"section.actions a.button[href$=".{encoded}"], section.actions a.button[href$="moves={encoded}"]"#
            )
        };
        assert!(
            self.count(&css).await > 0,
            "{notation} is offered on the page"
        );
        // A crowded spot's moves are in a choice its link opens first.
        let choice = self
            .client
            .execute(
                "const a = document.querySelector(arguments[0]); \
                 const g = a && a.closest('g.choices'); return g ? g.id : '';",
                vec![serde_json::json!(css)],
            )
            .await
            .expect("a script runs");
        if let Some(id) = choice.as_str().filter(|id| !id.is_empty()) {
            self.client
                .find(Locator::Css(&format!(
                    r##"figure.board a.chooser[href="#{id}"]"##
                )))
                .await
                .expect("the spot's link to its choice")
                .click()
                .await
                .expect("the choice opens");
            let css = css
                .split(", ")
                .map(|one| one.replacen("figure.board ", &format!("figure.board g#{id} "), 1))
                .collect::<Vec<_>>()
                .join(", ");
            self.click_to_next_page(Locator::Css(&css)).await;
            return;
        }
        self.click_to_next_page(Locator::Css(&css)).await;
    }

    pub async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css} is on the page: {e}"))
            .text()
            .await
            .expect("its text")
    }

    pub async fn count(&self, css: &str) -> usize {
        self.client
            .find_all(Locator::Css(css))
            .await
            .expect("a search")
            .len()
    }

    /// Saves a screenshot as `tests/screenshots/{name}.png`.
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/screenshots");
        std::fs::create_dir_all(&dir).expect("the screenshot folder");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is saved");
    }

    pub async fn finish(self) {
        let _ = self.client.close().await;
        self.server.stop(true).await;
    }
}
