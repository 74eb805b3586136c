//! What the outbox's statements read, beside a chain that has sent thousands of events and has
//! hundreds waiting: a claim, an append (a move's part) and an advance (a delivery's) read no
//! delivered event and not the waiting ones behind a head. On PostgreSQL, counted: the rows the
//! statement's transaction read from `moot_outbox` (`pg_stat_xact_user_tables`); on SQLite,
//! by the query plan: `moot_outbox` is only searched by its key or its pending events' index.

use sqlx::{Executor, Row};

use super::{chain, claim};
use crate::tables::store::{Backend, Store};
use crate::tables::{Millis, Tables};

const DELIVERED: i64 = 3000;
const WAITING: i64 = 300;
const QUIET_CHAINS: i64 = 20;
const NOW: Millis = 1_000_000_000;

/// Tables over `url` whose outbox holds a busy chain (`busy`: [`DELIVERED`] events delivered,
/// [`WAITING`] pending) and [`QUIET_CHAINS`] chains of one pending event, given their heads.
async fn seeded(url: &str) -> Tables {
    let tables = Tables::new(Store::connect(url).await.expect("the database opens"), 100);
    let pool = &tables.store().pool;
    let mut rows = Vec::new();
    for seq in 1..=DELIVERED + WAITING {
        let status = if seq <= DELIVERED {
            "delivered"
        } else {
            "pending"
        };
        rows.push(row("busy", seq, status));
    }
    for quiet in 0..QUIET_CHAINS {
        rows.push(row(&format!("quiet{quiet}"), 1, "pending"));
    }
    for batch in rows.chunks(500) {
        let sql = format!(
            "INSERT INTO moot_outbox (event_id, table_id, seq, kind, url, host, secret, body, \
             status, attempts, next_attempt_ms, last_error, created_ms, done_ms) VALUES {}",
            batch.join(", ")
        );
        pool.execute(&*sql).await.expect("events written");
    }
    let adopted = tables.adopt_waiting_events().await.expect("heads given");
    assert_eq!(adopted, 1 + QUIET_CHAINS as u64, "one head a chain");
    if tables.store().backend == Backend::Postgres {
        // As autovacuum would soon have done: the planner knows the tables' sizes.
        pool.execute("ANALYZE").await.expect("analyzed");
    }
    tables
}

fn row(chain: &str, seq: i64, status: &str) -> String {
    let done = if status == "pending" {
        "NULL".to_owned()
    } else {
        NOW.to_string()
    };
    format!(
        "('{chain}-{seq}', '{chain}', {seq}, 'move', 'http://127.0.0.1:9/h', '127.0.0.1:9', \
         'a-secret-of-sixteen-or-more', '{{}}', '{status}', 0, {NOW}, NULL, {NOW}, {done})"
    )
}

/// A statement and what it is bound with.
struct Statement {
    sql: String,
    texts: Vec<String>,
    numbers: Vec<i64>,
}

impl Statement {
    fn query(&self) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments<'_>> {
        let mut query = sqlx::query(&self.sql);
        for number in &self.numbers {
            query = query.bind(*number);
        }
        for text in &self.texts {
            query = query.bind(text.as_str());
        }
        query
    }
}

/// The statements of a claim, an append to the busy chain, and an advance of it.
fn statements(backend: Backend) -> Vec<(&'static str, Statement)> {
    let lease = NOW + 60_000;
    let heads: Vec<String> = std::iter::once("busy-3001".to_owned())
        .chain((0..QUIET_CHAINS).map(|q| format!("quiet{q}-1")))
        .collect();
    // The claim's second statement takes its lease first, then the heads.
    let events = Statement {
        sql: claim::events_sql(heads.len()),
        texts: heads,
        numbers: vec![lease],
    };
    vec![
        (
            "a claim's heads",
            Statement {
                sql: claim::heads_sql(backend, 0),
                texts: Vec::new(),
                numbers: vec![lease, NOW, 16, 16],
            },
        ),
        ("a claim's events", events),
        (
            "an advance's next event",
            Statement {
                sql: chain::NEXT_PENDING.to_owned(),
                texts: vec!["busy".to_owned()],
                numbers: Vec::new(),
            },
        ),
    ]
}

/// On PostgreSQL: the rows of `moot_outbox` that `statement` read (by a scan, or fetched
/// through an index), run in a transaction undone after.
async fn rows_read(tables: &Tables, statement: &Statement) -> (i64, i64) {
    let mut connection = tables.store().pool.acquire().await.expect("a connection");
    // The connection's counts not yet reported include its earlier statements': read before
    // and after.
    let counts = async |connection: &mut sqlx::pool::PoolConnection<sqlx::Any>| {
        let read = sqlx::query(
            "SELECT COALESCE(seq_tup_read, 0) AS scanned, COALESCE(idx_tup_fetch, 0) AS fetched \
             FROM pg_stat_xact_user_tables WHERE relname = 'moot_outbox'",
        )
        .fetch_one(&mut **connection)
        .await
        .expect("the transaction's counts");
        (read.get::<i64, _>("scanned"), read.get::<i64, _>("fetched"))
    };
    connection.execute("BEGIN").await.expect("a transaction");
    let before = counts(&mut connection).await;
    statement
        .query()
        .fetch_all(&mut *connection)
        .await
        .expect("the statement runs");
    let after = counts(&mut connection).await;
    connection.execute("ROLLBACK").await.expect("undone");
    (after.0 - before.0, after.1 - before.1)
}

/// On SQLite: `statement`'s query plan, a line a step.
async fn plan(tables: &Tables, statement: &Statement) -> Vec<String> {
    let explain = Statement {
        sql: format!("EXPLAIN QUERY PLAN {}", statement.sql),
        texts: statement.texts.clone(),
        numbers: statement.numbers.clone(),
    };
    let mut connection = tables.store().pool.acquire().await.expect("a connection");
    explain
        .query()
        .fetch_all(&mut *connection)
        .await
        .expect("a plan")
        .iter()
        .map(|row| row.get::<String, _>("detail"))
        .collect()
}

#[tokio::test]
async fn a_claim_and_an_advance_read_no_delivered_event_on_sqlite() {
    let file = std::env::temp_dir().join(format!("moot-outbox-cost-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let tables = seeded(&format!("sqlite://{}", file.display())).await;
    for (what, statement) in statements(Backend::Sqlite) {
        let steps = plan(&tables, &statement).await;
        let outbox: Vec<&String> = steps
            .iter()
            .filter(|s| s.contains(" o ") || s.contains("moot_outbox ") || s.ends_with(" o"))
            .collect();
        assert!(!outbox.is_empty(), "{what} reads the outbox: {steps:#?}");
        for step in outbox {
            assert!(
                step.starts_with("SEARCH")
                    && (step.contains("moot_outbox_pending")
                        || step.contains("sqlite_autoindex_moot_outbox_1")),
                "{what}: every read of the outbox is a search by its key or its pending \
                 events' index, not {step:?}: {steps:#?}"
            );
        }
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
}

#[tokio::test]
async fn a_claim_and_an_advance_read_no_delivered_event_on_postgres() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let tables = seeded(&url).await;
    for (what, statement) in statements(Backend::Postgres) {
        let (scanned, fetched) = rows_read(&tables, &statement).await;
        // A claim reads the heads it looks at (21) and the events it takes (21), an advance
        // one event: nothing near the chain's 3,300 events.
        assert_eq!(scanned, 0, "{what} scanned the outbox");
        assert!(
            fetched <= 3 * (1 + QUIET_CHAINS),
            "{what} read {fetched} events of the outbox"
        );
    }
}

/// A new PostgreSQL database on the server the tests name (`MOOT_TEST_POSTGRES_URL`), or
/// `None` where none is named (unless `MOOT_TEST_REQUIRE_POSTGRES=1`, as the whole suite sets).
async fn postgres_url() -> Option<String> {
    let Ok(server) = std::env::var("MOOT_TEST_POSTGRES_URL") else {
        assert_ne!(
            std::env::var("MOOT_TEST_REQUIRE_POSTGRES").as_deref(),
            Ok("1"),
            "MOOT_TEST_POSTGRES_URL is not set but MOOT_TEST_REQUIRE_POSTGRES=1"
        );
        return None;
    };
    sqlx::any::install_default_drivers();
    let name = format!("moot_t_outbox_{}", std::process::id());
    let mut admin = <sqlx::AnyConnection as sqlx::Connection>::connect(&server)
        .await
        .expect("the tests' PostgreSQL");
    admin
        .execute(&*format!("DROP DATABASE IF EXISTS {name}"))
        .await
        .expect("an old database dropped");
    admin
        .execute(&*format!("CREATE DATABASE {name}"))
        .await
        .expect("a database for the test");
    let (base, _) = server.rsplit_once('/').expect("a URL with a database");
    Some(format!("{base}/{name}"))
}
