//! The browser tests' harness: the app on a free port, Debian's chromedriver as a child
//! process, headless Chromium through fantoccini. Everything is torn down on drop, even when
//! a test fails.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use actix_web::dev::ServerHandle;
use fantoccini::{Client, ClientBuilder, Locator};

#[path = "../common/ports.rs"]
mod ports;
#[path = "../common/push_service.rs"]
pub mod push_service;
use ports::{free_port, wait_for_port};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One browser at a time: two cores cannot run several Chromiums well.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Kills chromedriver and the Chromium it started (its process group: a killed chromedriver
/// leaves its Chromium running) and removes the profile when dropped, also when a test panics.
struct Driver {
    child: Child,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The colour scheme a browser asks pages for (`prefers-color-scheme`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    Light,
    Dark,
}

impl Scheme {
    /// Chromium's flag that sets the scheme, whatever the system's: Blink's
    /// `PreferredColorScheme` is 0 for dark, 1 for light.
    fn flag(self) -> &'static str {
        match self {
            Scheme::Dark => "--blink-settings=preferredColorScheme=0",
            Scheme::Light => "--blink-settings=preferredColorScheme=1",
        }
    }
}

/// A DevTools command, as chromedriver relays it to its Chromium.
#[derive(Debug)]
struct Devtools {
    command: &'static str,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Devtools {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (reqwest::Method, Option<String>) {
        let body = serde_json::json!({ "cmd": self.command, "params": self.params });
        (reqwest::Method::POST, Some(body.to_string()))
    }
}

pub struct Browser {
    pub client: Client,
    /// Whether the browser runs the pages' script.
    pub script: bool,
    /// `http://127.0.0.1:PORT`, where the app listens.
    pub base: String,
    server: ServerHandle,
    _driver: Driver,
}

impl Browser {
    /// Starts the app, chromedriver and a headless Chromium with a fresh profile.
    pub async fn start(name: &str) -> Browser {
        Self::launch(name, true, Scheme::Light).await
    }

    /// The same with JavaScript turned off, as some players browse.
    pub async fn start_without_script(name: &str) -> Browser {
        Self::launch(name, false, Scheme::Light).await
    }

    /// The same as a system set to dark asks for it.
    pub async fn start_dark(name: &str) -> Browser {
        Self::launch(name, true, Scheme::Dark).await
    }

    async fn launch(name: &str, script: bool, scheme: Scheme) -> Browser {
        let server = actix_web::HttpServer::new(moot::app)
            .workers(1)
            .bind(("127.0.0.1", 0))
            .expect("the app binds a local port");
        let base = format!("http://{}", server.addrs()[0]);
        let server = server.run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Self::connect(name, script, scheme, base, handle).await
    }

    /// Two browsers on one app that keeps tables (in a new SQLite file): two players far apart.
    pub async fn two_with_tables(name: &str) -> (Browser, Browser) {
        let (base, handle) = Self::serve_tables(name, false).await;
        let first = Self::connect(
            &format!("{name}-1"),
            true,
            Scheme::Light,
            base.clone(),
            handle.clone(),
        )
        .await;
        let second = Self::connect(&format!("{name}-2"), true, Scheme::Light, base, handle).await;
        (first, second)
    }

    /// One browser on an app that keeps tables, running the pages' script or not.
    pub async fn one_with_tables(name: &str, script: bool) -> Browser {
        let (base, handle) = Self::serve_tables(name, false).await;
        Self::connect(name, script, Scheme::Light, base, handle).await
    }

    /// One browser running the pages' script on an app that keeps tables and posts players'
    /// pushes, to push services on this machine too (a test's, over plain HTTP).
    pub async fn one_with_pushes(name: &str) -> Browser {
        let (base, handle) = Self::serve_tables(name, true).await;
        Self::connect(name, true, Scheme::Light, base, handle).await
    }

    /// Browsers on one app that keeps tables (in a new SQLite file), one per entry of
    /// `scripts`: whether it runs the pages' script.
    pub async fn with_tables(name: &str, scripts: &[bool]) -> Vec<Browser> {
        let (base, handle) = Self::serve_tables(name, false).await;
        let mut browsers = Vec::new();
        for (index, script) in scripts.iter().enumerate() {
            let named = format!("{name}-{}", index + 1);
            let browser =
                Self::connect(&named, *script, Scheme::Light, base.clone(), handle.clone());
            browsers.push(browser.await);
        }
        browsers
    }

    /// An app that keeps tables (in a new SQLite file named after `name`): its address. With
    /// `pushes`, it posts players' pushes, and takes push services (as webhooks) on this
    /// machine.
    async fn serve_tables(name: &str, pushes: bool) -> (String, ServerHandle) {
        let file =
            std::env::temp_dir().join(format!("moot-browser-{name}-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let store = moot::tables::Store::connect(&format!("sqlite://{}", file.display()))
            .await
            .expect("the database opens");
        let tables = moot::tables::Tables::new(store, 100);
        if pushes {
            let limits = moot::push::PushLimits {
                allow_private: true,
                ..moot::push::PushLimits::default()
            };
            let worker = moot::push::Pushes::new(tables.clone(), limits).expect("an HTTP client");
            // Ends with the test's runtime.
            tokio::spawn(worker.run(tokio_util::sync::CancellationToken::new()));
        }
        let policy = moot::tables::TablePolicy::new(
            tables,
            moot::tables::TableLimits {
                allow_private_webhooks: pushes,
                ..moot::tables::TableLimits::default()
            },
        );
        let computer = moot::Computer::new(moot::AiConfig::default());
        let middleware = moot::serve::Middleware::new(moot::serve::Origins::Any, &computer);
        let server = actix_web::HttpServer::new(move || {
            moot::app_for(computer.clone(), middleware.clone(), Some(policy.clone()))
        })
        .workers(1)
        .bind(("127.0.0.1", 0))
        .expect("the app binds a local port");
        let base = format!("http://{}", server.addrs()[0]);
        let server = server.run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        (base, handle)
    }

    async fn connect(
        name: &str,
        script: bool,
        scheme: Scheme,
        base: String,
        handle: ServerHandle,
    ) -> Browser {
        for binary in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                Path::new(binary).exists(),
                "{binary} is missing: the browser tests need Debian's chromium and chromium-driver \
                 (apt-get install -y chromium chromium-driver; .ci/run installs them)"
            );
        }
        let port = free_port();
        let profile =
            std::env::temp_dir().join(format!("moot-chromium-{name}-{}", std::process::id()));
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // A group of its own, which the driver's drop kills whole.
            .process_group(0)
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
        .chain([
            format!("--user-data-dir={}", driver.profile.display()),
            scheme.flag().to_owned(),
        ])
        .collect::<Vec<_>>();
        let prefs = if script {
            serde_json::json!({})
        } else {
            serde_json::json!({ "profile.managed_default_content_settings.javascript": 2 })
        };
        let capabilities = serde_json::json!({
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args, "prefs": prefs }
        });
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities.as_object().cloned().expect("an object"))
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("chromedriver starts a Chromium session");
        if script {
            // Every page's uncaught errors, for a page that never gets ready to name them.
            let errors = "window.addEventListener('error', function (e) { \
                 (window.mootTestErrors = window.mootTestErrors || []) \
                   .push(e.message + ' (' + e.filename + ':' + e.lineno + ')'); });";
            client
                .issue_cmd(Devtools {
                    command: "Page.addScriptToEvaluateOnNewDocument",
                    params: serde_json::json!({ "source": errors }),
                })
                .await
                .expect("Chromium takes a script for every page");
        }
        Browser {
            client,
            script,
            base,
            server: handle,
            _driver: driver,
        }
    }

    /// Sends Chromium a DevTools command (`Browser.grantPermissions`, `Emulation.…`) through
    /// chromedriver's `goog/cdp/execute`: what WebDriver itself cannot do.
    pub async fn devtools(&self, command: &'static str, params: serde_json::Value) {
        self.client
            .issue_cmd(Devtools { command, params })
            .await
            .unwrap_or_else(|e| panic!("Chromium runs {command}: {e}"));
    }

    /// Opens the app's page at `path` and waits until it is ready ([`Browser::wait_for_page`]).
    pub async fn open(&self, path: &str) {
        self.visit(&format!("{}{path}", self.base)).await;
    }

    /// Opens the page at `url` (the app's or another site's) and waits until it is ready
    /// ([`Browser::wait_for_page`]).
    pub async fn visit(&self, url: &str) {
        let page = |url: &str| url.split('#').next().unwrap_or_default().to_owned();
        // The open page's own address with a fragment only scrolls it: it is then loaded
        // afresh, as the browser would open it from elsewhere (at its fragment).
        let scrolls = url.contains('#') && page(&self.url().await) == page(url);
        self.leaving().await;
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("{url} opens: {e}"));
        if scrolls {
            self.client.refresh().await.expect("a reload");
        }
        self.wait_for_page().await;
    }

    /// Loads the open page again, as the browser's reload button does, and waits until it is
    /// ready ([`Browser::wait_for_page`]).
    pub async fn reload(&self) {
        self.leaving().await;
        self.client.refresh().await.expect("a reload");
        self.wait_for_page().await;
    }

    /// Marks the open page's root (`data-test-left`) as the page being left: the next page's
    /// root is new and unmarked, which tells [`Browser::wait_for_page`] the two apart even at
    /// one URL. The clicks the page receives from then on are recorded: a page that stays
    /// says whether the click meant to leave it arrived, on what, and whether it was stopped.
    async fn leaving(&self) {
        self.client
            .execute(
                "var root = document.documentElement; \
                 if (root) root.setAttribute('data-test-left', ''); \
                 window.mootTestClicks = []; \
                 document.addEventListener('click', function (e) { \
                   var t = e.target, i = window.mootTestClicks.length; \
                   window.mootTestClicks.push((t.outerHTML || String(t)).slice(0, 160) + \
                     ' at ' + e.clientX + ',' + e.clientY); \
                   setTimeout(function () { \
                     if (e.defaultPrevented) window.mootTestClicks[i] += ' (prevented)'; \
                   }, 0); \
                 }, true); \
                 return true;",
                vec![],
            )
            .await
            .expect("a script runs");
    }

    /// Waits until the open page is ready: a page the browser has gone on to (not one marked
    /// as left), loaded (`document.readyState` complete), painted (its first contentful paint
    /// shown: until then Chromium holds the old page's picture and drops clicks and keys, as
    /// a player cannot act on what is not shown yet, while WebDriver answers them as sent; on
    /// a busy machine the paint can come well after the load), and, when the browser runs the
    /// pages' script and the page has Moot's, that script run to its end after the load with
    /// its event streams answered (its root's `data-script="ready"`, see `static/moot.js`).
    /// WebDriver's own wait for a page, at the end of a navigation, is not enough:
    /// chromedriver at times answers a navigation as soon as the old page is gone, while the
    /// new one is still loading and before its deferred script has run. Fails after 30 s
    /// saying what the page showed, with any error its scripts raised.
    pub async fn wait_for_page(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let seen = self
                .client
                .execute(
                    r#"var root = document.documentElement;
                       // A page just begun has no root yet.
                       if (!root) return { url: location.href, loaded: document.readyState };
                       var moot = document.querySelector('script[src$="/static/moot.js"]');
                       var streams = window.mootStreams || [];
                       return {
                         url: location.href,
                         loaded: document.readyState,
                         painted: performance.getEntriesByName("first-contentful-paint").length > 0,
                         left: root.hasAttribute("data-test-left"),
                         script: moot ? root.getAttribute("data-script") || "not run to its end" : "none",
                         connecting: streams
                           .filter(function (s) { return s.readyState === EventSource.CONNECTING; })
                           .map(function (s) { return s.url; }),
                         errors: window.mootTestErrors || [],
                         // What a click meant to leave the page reached, if any (see `leaving`).
                         clicks: window.mootTestClicks || [],
                       };"#,
                    vec![],
                )
                .await
                // A page that goes while the script reads it answers an error: not ready yet.
                .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }));
            let script_done = !self.script || seen["script"] == "ready" || seen["script"] == "none";
            let shown = seen["loaded"] == "complete" && seen["painted"] == true;
            if shown && seen["left"] == false && script_done {
                return;
            }
            if Instant::now() >= deadline {
                let url = seen["url"].as_str().unwrap_or_default();
                if seen["left"] == true {
                    panic!("the browser stayed on {url} for 30 s: {seen}");
                }
                panic!("{url} was not ready within 30 s: {seen}");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until the page has loaded with Moot's stylesheet applied: measurements of boxes
    /// taken before it would measure unstyled elements (a bare button is 16 × 6 px). Applied
    /// means seen in effect, not only listed: the skip link is positioned by it, and a board's
    /// buttons are blocks filling their spots. Fails after 20 s saying what it saw.
    pub async fn wait_for_styles(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let seen = self
                .client
                .execute(
                    r#"const sheet = [...document.styleSheets]
                         .find(s => (s.href || "").endsWith("/static/moot.css"));
                       const skip = document.querySelector("a.skip");
                       const button = document.querySelector("svg.board foreignObject > button");
                       return {
                         url: location.href,
                         ready: document.readyState,
                         rules: sheet ? sheet.cssRules.length : 0,
                         skip: skip ? getComputedStyle(skip).position : "no skip link",
                         button: button ? getComputedStyle(button).display : "no board button",
                       };"#,
                    vec![],
                )
                .await
                .expect("a script runs");
            let styled = seen["ready"] == "complete"
                && seen["rules"].as_u64().is_some_and(|n| n > 0)
                && seen["skip"] == "absolute"
                && (seen["button"] == "block" || seen["button"] == "no board button");
            if styled {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "Moot's stylesheet did not apply within 20 s: {seen}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Whether the open page sees a system that asks for the dark theme.
    pub async fn prefers_dark(&self) -> bool {
        self.client
            .execute(
                "return matchMedia('(prefers-color-scheme: dark)').matches;",
                vec![],
            )
            .await
            .expect("a script runs")
            .as_bool()
            .expect("a boolean")
    }

    pub async fn url(&self) -> String {
        self.client.current_url().await.expect("a URL").to_string()
    }

    /// Clicks an element, as a finger taps it.
    pub async fn tap(&self, locator: Locator<'_>) {
        self.client
            .find(locator)
            .await
            .unwrap_or_else(|e| panic!("{locator:?} is on the page: {e}"))
            .click()
            .await
            .expect("the click lands");
    }

    /// Clicks an element and waits until the browser is on the next page and it is ready
    /// ([`Browser::wait_for_page`]).
    pub async fn click_to_next_page(&self, locator: Locator<'_>) {
        self.leaving().await;
        self.tap(locator).await;
        self.wait_for_page().await;
    }

    /// Waits until the browser has left the page at `before` and the next page is ready
    /// ([`Browser::wait_for_page`]).
    pub async fn wait_until_left(&self, before: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.url().await == before {
            assert!(Instant::now() < deadline, "the browser stayed on {before}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.wait_for_page().await;
    }

    /// Plays a move by clicking, as a player would: its button on the board when the board
    /// offers it, else its button among the turn's controls, else its button in the list of
    /// every move (opened first). Waits for the next page, or, for a
    /// step the script composes on the page (a Hirþ step), for the step to show.
    pub async fn play(&self, notation: &str) {
        let listed = format!(r#"details.actions button[name="play"][value="{notation}"]"#);
        assert!(
            self.count(&listed).await > 0,
            "{notation} is offered on the page"
        );
        let board = format!(r#"figure.board svg button[name="play"][value="{notation}"]"#);
        let control = format!(r#"div.turn button[name="play"][value="{notation}"]"#);
        let css = if self.count(&board).await > 0 {
            board
        } else if self.count(&control).await > 0 {
            control
        } else {
            if !self.is_open("details.actions").await {
                self.client
                    .find(Locator::Css("details.actions summary"))
                    .await
                    .expect("the list of every move")
                    .click()
                    .await
                    .expect("the list opens");
            }
            listed
        };
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
        }
        let before = self.url().await;
        let composed = if self.script {
            self.composed().await
        } else {
            String::new()
        };
        self.client
            .find(Locator::Css(&css))
            .await
            .unwrap_or_else(|e| panic!("{css} is on the page: {e}"))
            .click()
            .await
            .expect("the click lands");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if self.url().await != before {
                self.wait_until_left(&before).await;
                return;
            }
            if self.script && self.composed().await != composed {
                return;
            }
            assert!(Instant::now() < deadline, "{notation} was not played");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The steps of a turn the script has composed on the page so far, in words.
    pub async fn composed(&self) -> String {
        self.client
            .execute(
                "var box = document.getElementById('composed'); return box ? box.textContent : '';",
                vec![],
            )
            .await
            .expect("a script runs")
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether a `<details>` is open.
    pub async fn is_open(&self, css: &str) -> bool {
        self.client
            .find(Locator::Css(css))
            .await
            .expect("the element")
            .attr("open")
            .await
            .expect("its attribute")
            .is_some()
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

    /// The text of an element, shown or not (inside a closed `<details>`).
    pub async fn content(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css} is on the page: {e}"))
            .prop("textContent")
            .await
            .expect("its text")
            .unwrap_or_default()
    }

    /// Sizes the window so that its viewport (the page's part, without the browser's own bars)
    /// is `width`×`height` CSS pixels, as on a phone.
    pub async fn set_viewport(&self, (width, height): (u32, u32)) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("the window is resized");
        let inner = self
            .client
            .execute("return [window.innerWidth, window.innerHeight];", vec![])
            .await
            .expect("a script runs");
        let bars = |i: usize, want: u32| {
            want + want.saturating_sub(inner[i].as_u64().unwrap_or(u64::from(want)) as u32)
        };
        self.client
            .set_window_size(bars(0, width), bars(1, height))
            .await
            .expect("the window is resized");
    }

    /// The moves of the page's move list, in order, one space between them.
    pub async fn record(&self) -> String {
        let moves = self
            .client
            .execute(
                "return Array.from(document.querySelectorAll('ol.moves code'), c => c.textContent).join(' ');",
                vec![],
            )
            .await
            .expect("a script runs");
        moves.as_str().unwrap_or_default().to_owned()
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
        // Not gracefully: the test is over and its browsers are gone, and a graceful stop
        // would wait for the event streams they had open, which the server finds closed only
        // when it next writes to them (a heartbeat, 25 s), up to actix's 30 s.
        self.server.stop(false).await;
    }
}
