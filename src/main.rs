//! The Moot server: reads its configuration, sets up logging, serves [`moot::app_for`]. The
//! research and load tools are binaries of their own (`moot-lab`, `moot-load`).

use std::net::SocketAddr;
use std::time::Duration;

use clap::Parser;
use moot::serve::logging::{self, LogFormat};
use moot::serve::{Middleware, Origins};
use tokio_util::sync::CancellationToken;

/// A referee for Hirþ, The High Kings of Tara and Herfor, over HTTP.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Serve {
    /// The address and port to listen on.
    #[arg(long, env = "MOOT_BIND", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// The largest playout budget `evaluate` accepts.
    #[arg(long, env = "MOOT_MAX_PLAYOUTS", default_value_t = moot::AiConfig::default().max_playouts)]
    max_playouts: u32,
    /// The largest time budget `evaluate` accepts, in milliseconds.
    #[arg(long, env = "MOOT_MAX_MILLIS", default_value_t = moot::AiConfig::default().max_millis)]
    max_millis: u64,
    /// Evaluations run at once; more wait their turn, fair between clients, then 503 `overloaded` (0 turns evaluate off: 501 `evaluate_off`).
    #[arg(long, env = "MOOT_MAX_EVALUATIONS", default_value_t = moot::AiConfig::default().max_evaluations)]
    max_evaluations: usize,
    /// The wall-clock cap of every search, whatever its budget, in milliseconds (at least --max-millis).
    #[arg(long, env = "MOOT_SEARCH_CAP_MS", default_value_t = moot::AiConfig::default().search_cap_ms)]
    search_cap_ms: u64,
    /// Play-page searches (the computer's moves, hints) run at once, apart from the API's.
    #[arg(long, env = "MOOT_MAX_PAGE_EVALUATIONS", default_value_t = moot::AiConfig::default().max_page_evaluations)]
    max_page_evaluations: usize,
    /// `evaluate` requests one client (peer IP address) may send in a burst (429 `rate_limited` past its share).
    #[arg(long, env = "MOOT_CLIENT_BURST", default_value_t = moot::AiConfig::default().client_burst)]
    client_burst: u32,
    /// …and one more every this many milliseconds.
    #[arg(long, env = "MOOT_CLIENT_EVERY_MS", default_value_t = moot::AiConfig::default().client_every_ms)]
    client_every_ms: u64,
    /// A file of site keys, one a line: `name:secret[:create_burst:create_every_ms[:request_burst:request_every_ms]]`.
    /// A backend sending `Moot-Site-Key: <secret>` counts against its site's own budgets (by
    /// default 1000 tables in a burst and one more every 20 ms; 10000 evaluations in a burst
    /// and one more every 1 ms), not its address's. Read at the start (restart to reload).
    #[arg(long, env = "MOOT_SITE_KEYS")]
    site_keys: Option<std::path::PathBuf>,
    /// Believe the `Forwarded`/`X-Forwarded-*` headers (only behind a reverse proxy that
    /// overwrites them): a client's share is kept under the first forwarded address, not the
    /// connection's peer, and absolute links take the forwarded scheme and host.
    #[arg(long, env = "MOOT_TRUST_FORWARDED")]
    trust_forwarded: bool,
    /// The site's public address, which every absolute link (link previews' `og:url` and
    /// `og:image`, embeds) starts with: `https://games.example` (scheme, host, optional port; no
    /// path). Without it, links take a trusted proxy's forwarded scheme and host
    /// (--trust-forwarded), else the request's `Host`.
    #[arg(long, env = "MOOT_PUBLIC_URL")]
    public_url: Option<moot::client::PublicUrl>,
    /// Answers `evaluate` keeps for repeated requests.
    #[arg(long, env = "MOOT_CACHE_ENTRIES", default_value_t = moot::AiConfig::default().cache_entries)]
    cache_entries: usize,
    /// The origins whose pages may call the API from a browser: `*` (any: the API holds no
    /// credentials), or origins separated by commas (`https://games.example`).
    #[arg(long, env = "MOOT_CORS_ORIGINS", default_value = "*")]
    cors_origins: Origins,
    /// Where tables are kept: `sqlite://FILE` (created if missing; one server process),
    /// `sqlite::memory:` (gone when the server stops) or `postgres://USER:PASSWORD@HOST/DB`
    /// (replicas may share it).
    #[arg(long, global = true, env = "MOOT_DATABASE_URL", default_value = moot::tables::store::DEFAULT_DATABASE)]
    database: String,
    /// How long a request waits for a database connection, in milliseconds (PostgreSQL down,
    /// every connection busy) before it is refused with 503 `storage_unavailable`.
    #[arg(long, env = "MOOT_DATABASE_WAIT_MS", default_value_t = moot::limits::tables::DATABASE_WAIT.as_millis() as u64)]
    database_wait_ms: u64,
    /// Days a finished table is kept before the hourly sweep deletes it.
    #[arg(long, env = "MOOT_KEEP_FINISHED_DAYS", default_value_t = moot::limits::tables::KEEP_FINISHED_DAYS)]
    keep_finished_days: u32,
    /// Days a webhook event or a Web Push notice is kept once delivered or given up (then the
    /// hourly sweep forgets it): enough to look into a receiver's complaint.
    #[arg(long, env = "MOOT_KEEP_DELIVERED_DAYS", default_value_t = moot::limits::tables::KEEP_DELIVERED_DAYS)]
    keep_delivered_days: u32,
    /// Days a table is kept open without a move once someone has moved (past its deadline if
    /// it has a clock); then the hourly sweep closes it as abandoned (finished, no winner).
    #[arg(long, env = "MOOT_ABANDON_AFTER_DAYS", default_value_t = moot::limits::tables::ABANDON_AFTER_DAYS, value_parser = clap::value_parser!(u32).range(1..))]
    abandon_after_days: u32,
    /// Days a table where no one has moved is kept open (past its first deadline if it has a
    /// clock); then the hourly sweep closes it as abandoned.
    #[arg(long, env = "MOOT_ABANDON_UNSTARTED_AFTER_DAYS", default_value_t = moot::limits::tables::ABANDON_UNSTARTED_AFTER_DAYS, value_parser = clap::value_parser!(u32).range(1..))]
    abandon_unstarted_after_days: u32,
    /// The most plies (moves) a table may have: the move that reaches it ends the table,
    /// drawn (`ended_by: "ply_limit"`).
    #[arg(long, env = "MOOT_MAX_TABLE_PLIES", default_value_t = moot::limits::tables::MAX_PLIES, value_parser = clap::value_parser!(u64).range(1..))]
    max_table_plies: u64,
    /// Tables one client (address) may create in a burst (429 `rate_limited` past its share).
    #[arg(long, env = "MOOT_TABLE_BURST", default_value_t = moot::limits::tables::CREATE_BURST)]
    table_burst: u32,
    /// …and one more every this many milliseconds (0: no limit, for a site's own backend).
    #[arg(long, env = "MOOT_TABLE_EVERY_MS", default_value_t = moot::limits::tables::CREATE_EVERY.as_millis() as u64)]
    table_every_ms: u64,
    /// Open (unfinished) tables kept at once; more are refused with 503 `tables_full`.
    #[arg(long, env = "MOOT_MAX_OPEN_TABLES", default_value_t = moot::limits::tables::MAX_OPEN)]
    max_open_tables: u64,
    /// Tables' event streams open at once; more are refused with 503 `streams_full`. Lowered
    /// (with a warning) to what the limit of open files allows, less a reserve for everything
    /// else.
    #[arg(long, env = "MOOT_MAX_EVENT_STREAMS", default_value_t = moot::limits::tables::MAX_STREAMS)]
    max_event_streams: usize,
    /// Watchers' event streams one table may have open at once (its seats' streams are
    /// counted apart, --event-streams-per-seat).
    #[arg(long, env = "MOOT_EVENT_STREAMS_PER_TABLE", default_value_t = moot::limits::tables::STREAMS_PER_TABLE)]
    event_streams_per_table: usize,
    /// Event streams one seat's player may have open at once (tabs and devices).
    #[arg(long, env = "MOOT_EVENT_STREAMS_PER_SEAT", default_value_t = moot::limits::tables::STREAMS_PER_SEAT)]
    event_streams_per_seat: usize,
    /// Tables' event streams one address (an IPv6 address's /64) may have open at once,
    /// watchers' and seats' each: raise it where many clients share an address (a proxy that
    /// does not forward theirs).
    #[arg(long, env = "MOOT_EVENT_STREAMS_PER_ADDRESS", default_value_t = moot::limits::tables::STREAMS_PER_ADDRESS)]
    event_streams_per_address: usize,
    /// Tables' event streams one site (a `Moot-Site-Key`) may have open at once, watchers' and
    /// seats' each, in place of its address's share [default: a quarter of
    /// --max-event-streams, so that one site holds at most half].
    #[arg(long, env = "MOOT_EVENT_STREAMS_PER_SITE")]
    event_streams_per_site: Option<usize>,
    /// Players' feeds (`/api/v1/players/me/events`, the pages' "Your games") open at once;
    /// more are refused with 503 `streams_full`.
    #[arg(long, env = "MOOT_MAX_PLAYER_FEEDS", default_value_t = moot::limits::tables::MAX_PLAYER_STREAMS)]
    max_player_feeds: usize,
    /// Feeds one player may have open at once (tabs and devices).
    #[arg(long, env = "MOOT_PLAYER_FEEDS_PER_PLAYER", default_value_t = moot::limits::tables::STREAMS_PER_PLAYER)]
    player_feeds_per_player: usize,
    /// Players' feeds one address (an IPv6 address's /64) may have open at once, of every
    /// player: raise it where many players share an address (a proxy that does not forward
    /// theirs).
    #[arg(long, env = "MOOT_PLAYER_FEEDS_PER_ADDRESS", default_value_t = moot::limits::tables::PLAYER_STREAMS_PER_ADDRESS)]
    player_feeds_per_address: usize,
    /// Players' feeds one site (a `Moot-Site-Key`) may have open at once, in place of its
    /// address's share [default: half of --max-player-feeds].
    #[arg(long, env = "MOOT_PLAYER_FEEDS_PER_SITE")]
    player_feeds_per_site: Option<usize>,
    /// Let tables' webhooks post to loopback and private addresses (this machine, its
    /// networks): only where every client that may create a table is trusted.
    #[arg(long, env = "MOOT_ALLOW_PRIVATE_WEBHOOKS")]
    allow_private_webhooks: bool,
    /// Webhook deliveries this process makes at once…
    #[arg(long, env = "MOOT_WEBHOOK_DELIVERIES", default_value_t = moot::limits::webhooks::CONCURRENCY)]
    webhook_deliveries: usize,
    /// …and to one receiver (a webhook URL's host and port), so that a slow receiver delays
    /// only its own tables.
    #[arg(long, env = "MOOT_WEBHOOK_PER_HOST", default_value_t = moot::limits::webhooks::PER_HOST)]
    webhook_per_host: usize,
    /// Failed deliveries in a row to one receiver after which it is left alone (its circuit
    /// breaker opens) until a trial delivery.
    #[arg(long, env = "MOOT_WEBHOOK_BREAKER_FAILURES", default_value_t = moot::limits::webhooks::BREAKER_FAILURES)]
    webhook_breaker_failures: u32,
    /// How long, in milliseconds, a receiver is left alone before its trial; doubled after each
    /// failed trial, up to ten times this or five minutes, whichever is longer.
    #[arg(long, env = "MOOT_WEBHOOK_BREAKER_WAIT_MS", default_value_t = moot::limits::webhooks::BREAKER_WAIT.as_millis() as u64)]
    webhook_breaker_wait_ms: u64,
    /// How a push service's operators reach this server's: VAPID's `sub` (RFC 8292), a
    /// `mailto:` or `https:` URL, sent with every Web Push notice to players' browsers.
    #[arg(long, env = "MOOT_PUSH_CONTACT", default_value = moot::push::DEFAULT_CONTACT, value_parser = push_contact)]
    push_contact: String,
    /// The log's format: `pretty` (colour only on a terminal) or `json` (one object a line).
    #[arg(long, env = "MOOT_LOG_FORMAT", default_value = "pretty")]
    log_format: LogFormat,
    /// Instead of serving: a task on the database.
    #[command(subcommand)]
    task: Option<Task>,
}

/// What the binary may do instead of serving.
#[derive(Debug, clap::Subcommand)]
enum Task {
    /// Writes a consistent copy of the SQLite database (--database) to a new file, while a
    /// server runs on it or not; a server opens the copy as it is. PostgreSQL: use pg_dump.
    Backup {
        /// The new file.
        #[arg(long)]
        to: std::path::PathBuf,
    },
}

/// jemalloc, not glibc's allocator. Measured with `moot-attack` and `wrk`
/// (docs/measurements/2026-12-03-attack-suite-and-wrk.md): glibc kept 272–397 MB of its
/// per-thread arenas 5 s after a flood of long replays (jemalloc: 56–63 MB), and under `wrk` its
/// `malloc`, `free` and `malloc_consolidate` took a tenth of the server's time (`legal-moves`
/// 0.46–0.49× a bare actix-web echo; jemalloc 0.52–0.53×).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's settings (read once at start): a background thread gives pages freed for a
/// second back to the system, so that memory left after a burst returns while the server idles.
#[cfg(not(target_env = "msvc"))]
#[allow(non_upper_case_globals)]
#[unsafe(export_name = "_rjem_malloc_conf")]
pub static malloc_conf: &[u8] = b"background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0\0";

fn main() -> std::process::ExitCode {
    let flags = Serve::parse();
    let done = match &flags.task {
        Some(Task::Backup { to }) => backup(&flags.database, to),
        None => serve(flags),
    };
    match done {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            // Said in words (not the error's debug form), after whatever the log holds.
            eprintln!("moot: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `moot backup --to FILE`: the database at `url` copied to `to`, said on standard output;
/// a failure said on standard error, with exit status 1.
fn backup(url: &str, to: &std::path::Path) -> std::io::Result<()> {
    // Opening a missing SQLite file would make an empty database, and back that up.
    if url.starts_with("sqlite:")
        && !url.contains(":memory:")
        && let Ok(file) = moot::tables::store::sqlite_file(url)
        && !file.exists()
    {
        eprintln!("moot backup: {} does not exist", file.display());
        std::process::exit(1);
    }
    actix_web::rt::System::new().block_on(async {
        let store = moot::tables::Store::connect(url)
            .await
            .map_err(std::io::Error::other)?;
        let copied = store.backup(to).await;
        store.close().await;
        match copied {
            Ok(bytes) => {
                println!("backed up to {} ({bytes} bytes)", to.display());
                Ok(())
            }
            Err(error) => {
                eprintln!("moot backup: {error}");
                std::process::exit(1);
            }
        }
    })
}

#[actix_web::main]
async fn serve(flags: Serve) -> std::io::Result<()> {
    let _log = logging::init(flags.log_format);
    // A bad file stops the server before it listens, naming the line (never the secret).
    let site_keys = match &flags.site_keys {
        Some(path) => moot::site_keys::SiteKeys::read(path).map_err(std::io::Error::other)?,
        None => Default::default(),
    };
    let config = moot::AiConfig {
        max_playouts: flags.max_playouts,
        max_millis: flags.max_millis,
        max_evaluations: flags.max_evaluations,
        search_cap_ms: flags.search_cap_ms,
        max_page_evaluations: flags.max_page_evaluations,
        cache_entries: flags.cache_entries,
        client_burst: flags.client_burst,
        client_every_ms: flags.client_every_ms,
        trust_forwarded: flags.trust_forwarded,
    };
    tracing::info!(sites = ?site_keys.names(), "site keys are read (their sites' requests count against their own budgets)");
    tracing::info!(bind = %flags.bind, ?config, cors_origins = %flags.cors_origins, public_url = ?flags.public_url.as_ref().map(ToString::to_string), "Moot is serving: the home page at /, the API docs at /docs/");
    let store = moot::tables::Store::connect_with(
        &flags.database,
        moot::tables::StoreLimits {
            wait: Duration::from_millis(flags.database_wait_ms),
        },
    )
    .await
    .map_err(std::io::Error::other)?;
    // The URL's password stays out of the log: only the backend is named.
    tracing::info!(
        backend = ?store.backend,
        keep_finished_days = flags.keep_finished_days,
        keep_delivered_days = flags.keep_delivered_days,
        abandon_after_days = flags.abandon_after_days,
        abandon_unstarted_after_days = flags.abandon_unstarted_after_days,
        max_table_plies = flags.max_table_plies,
        "tables are kept"
    );
    let streams = feed_limits(&flags, streams_allowed(flags.max_event_streams));
    let feeds = player_feed_limits(&flags);
    tracing::info!(
        ?streams,
        ?feeds,
        "event streams and players' feeds are capped"
    );
    let tables = moot::tables::Tables::new(store.clone(), flags.max_open_tables)
        .with_ply_cap(flags.max_table_plies)
        .with_feed(streams)
        .with_player_feeds(feeds)
        .with_webhooks(moot::api::tables::events::TableEvent::webhook_body)
        .with_notice_webhooks(
            moot::api::tables::my_events::PlayerFeedEvent::webhook_body,
            moot::api::tables::events::TableEvent::deadline_body,
            moot::api::tables::events::TableEvent::seat_notice_body,
        );
    // Any replica delivers any table's events (each claimed by one of them).
    let deliveries = moot::webhooks::Deliveries::new(
        tables.clone(),
        moot::webhooks::WebhookLimits {
            concurrency: flags.webhook_deliveries,
            per_host: flags.webhook_per_host,
            breaker_failures: flags.webhook_breaker_failures,
            breaker_wait: Duration::from_millis(flags.webhook_breaker_wait_ms),
            breaker_wait_cap: moot::limits::webhooks::BREAKER_WAIT_CAP
                .max(Duration::from_millis(flags.webhook_breaker_wait_ms).saturating_mul(10)),
            allow_private: flags.allow_private_webhooks,
            ..Default::default()
        },
    )
    .map_err(std::io::Error::other)?;
    let delivery_counts = deliveries.counts();
    // Any replica posts any player's pushes (each claimed by one of them), signed with the key
    // they share.
    let pushes = moot::push::Pushes::new(
        tables.clone(),
        moot::push::PushLimits {
            contact: flags.push_contact.clone(),
            allow_private: flags.allow_private_webhooks,
            ..Default::default()
        },
    )
    .map_err(std::io::Error::other)?;
    // Told at the stop: the tasks that must end cleanly (a delivery recorded, the listener's
    // connection closed).
    let stop = CancellationToken::new();
    let finishing = [
        actix_web::rt::spawn(deliveries.run(stop.clone())),
        actix_web::rt::spawn(pushes.run(stop.clone())),
        // With PostgreSQL, the other replicas' moves reach this one's event streams.
        actix_web::rt::spawn(tables.clone().listen(flags.database.clone(), stop.clone())),
        // With PostgreSQL, an outage is found by a probe and refused at once.
        actix_web::rt::spawn(
            tables
                .clone()
                .watch_database(flags.database.clone(), stop.clone()),
        ),
        // With SQLite, the write-ahead log copied into the file beside the writer.
        actix_web::rt::spawn(tables.clone().checkpoint_forever(stop.clone())),
    ];
    // Chores that may be cut anywhere: a write cut short is undone.
    let chores = [
        actix_web::rt::spawn(moot::tables::sweep::sweep_forever(
            tables.clone(),
            moot::tables::sweep::Keeping {
                finished_days: flags.keep_finished_days,
                delivered_days: flags.keep_delivered_days,
            },
            moot::tables::Abandonment::days(
                flags.abandon_after_days,
                flags.abandon_unstarted_after_days,
            ),
        )),
        actix_web::rt::spawn(tables.clone().watch_health()),
        // Deadlines come near or passed, told to the players' feeds.
        actix_web::rt::spawn(moot::tables::deadlines::deadlines_forever(tables.clone())),
    ];
    let feed = tables.feed().clone();
    let policy = moot::tables::TablePolicy::new(
        tables,
        moot::tables::TableLimits {
            create_burst: flags.table_burst,
            create_every: Duration::from_millis(flags.table_every_ms),
            trust_forwarded: flags.trust_forwarded,
            allow_private_webhooks: flags.allow_private_webhooks,
            ..Default::default()
        },
    );
    let computer = moot::Computer::new(config);
    let middleware = Middleware::new(flags.cors_origins, &computer)
        .with_public_url(flags.public_url)
        .with_site_keys(site_keys);
    middleware.metrics.count_streams(
        policy.tables().feed().clone(),
        policy.tables().bells().clone(),
    );
    middleware.metrics.count_webhooks(delivery_counts);
    middleware.metrics.count_database(store.health());
    let server = moot::serve::listen::server(flags.bind, move || {
        moot::app_for(computer.clone(), middleware.clone(), Some(policy.clone()))
    })?;
    let handle = server.handle();
    actix_web::rt::spawn(async move {
        stop_signal().await;
        tracing::info!(
            grace_s = moot::limits::GRACE.as_secs(),
            "stopping: the event streams end, the requests under way finish"
        );
        feed.close();
        handle.stop(true).await;
    });
    server.await?;
    stop.cancel();
    for chore in chores {
        chore.abort();
        let _ = chore.await;
    }
    for task in finishing {
        let _ = task.await;
    }
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// The tables' event streams' caps, of `in_all` streams the server may keep.
fn feed_limits(flags: &Serve, in_all: usize) -> moot::tables::FeedLimits {
    use moot::limits::tables::streams_per_site;
    moot::tables::FeedLimits {
        per_table: flags.event_streams_per_table,
        per_seat: flags.event_streams_per_seat,
        per_address: flags.event_streams_per_address,
        per_site: flags
            .event_streams_per_site
            .unwrap_or(streams_per_site(in_all)),
        in_all,
    }
}

/// The players' feeds' caps.
fn player_feed_limits(flags: &Serve) -> moot::tables::BellLimits {
    use moot::limits::tables::player_streams_per_site;
    moot::tables::BellLimits {
        per_player: flags.player_feeds_per_player,
        per_address: flags.player_feeds_per_address,
        per_site: flags
            .player_feeds_per_site
            .unwrap_or(player_streams_per_site(flags.max_player_feeds)),
        in_all: flags.max_player_feeds,
    }
}

/// A `--push-contact`: a `mailto:` or `https:` URL, as push services ask of VAPID's `sub`.
fn push_contact(text: &str) -> Result<String, String> {
    if (text.starts_with("mailto:") && text.len() > "mailto:".len())
        || (text.starts_with("https://") && url::Url::parse(text).is_ok())
    {
        Ok(text.to_owned())
    } else {
        Err("a mailto: or https: URL (mailto:admin@example.org)".into())
    }
}

/// Waits for SIGTERM (a service manager's stop) or SIGINT (Ctrl-C).
async fn stop_signal() {
    use actix_web::rt::signal;
    #[cfg(unix)]
    match signal::unix::signal(signal::unix::SignalKind::terminate()) {
        Ok(mut terminate) => {
            tokio::select! {
                _ = terminate.recv() => {}
                _ = signal::ctrl_c() => {}
            }
            return;
        }
        Err(error) => {
            tracing::warn!(%error, "SIGTERM cannot be heard; only SIGINT stops the server")
        }
    }
    let _ = signal::ctrl_c().await;
}

/// Open files kept for everything but event streams: the listening socket, the database's
/// connections, the log, webhook deliveries, and the requests of players and probes while
/// the streams are full.
const FILES_KEPT: u64 = 512;

/// The event streams the server may keep: `wanted`, or fewer if the limit of open files
/// (raised first, see [`raise_open_files_limit`]) cannot hold them and [`FILES_KEPT`] more.
/// Past it a stream is refused with 503 `streams_full`, while moves and `/healthz` still
/// find a descriptor; without it `accept` fails for every connection alike.
fn streams_allowed(wanted: usize) -> usize {
    let Some(files) = raise_open_files_limit() else {
        return wanted;
    };
    let allowed = usize::try_from(files.saturating_sub(FILES_KEPT)).unwrap_or(usize::MAX);
    if wanted > allowed {
        tracing::warn!(
            wanted,
            allowed,
            open_files = files,
            kept_for_the_rest = FILES_KEPT,
            "--max-event-streams is more than the limit of open files allows; lowered (raise the hard limit, e.g. LimitNOFILE=, to keep more)"
        );
        return allowed;
    }
    wanted
}

/// Each open event stream holds a connection: the soft limit of open files (often 1,024) is
/// raised to the hard one, so that the server can keep as many streams as it is allowed.
/// Returns the limit in force, if known.
fn raise_open_files_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let limit = getrlimit(Resource::Nofile);
        if let Some(hard) = limit.maximum
            && limit.current < limit.maximum
        {
            match setrlimit(
                Resource::Nofile,
                rustix::process::Rlimit {
                    current: limit.maximum,
                    maximum: limit.maximum,
                },
            ) {
                Ok(()) => return Some(hard),
                Err(error) => tracing::warn!(%error, "the limit of open files could not be raised"),
            }
        }
        limit.current
    }
    #[cfg(not(target_os = "linux"))]
    None
}
