//! SQLite's write-ahead log reaches the database file through the checkpoint task, not through
//! the commits of changes: a change that drew the checkpoint would wait for the copy and the
//! file's sync, and every change behind it on the one writing connection with it. What the
//! file holds is read from a copy of the file alone (its log left behind): the changes a
//! checkpoint has copied there.

use std::path::Path;
use std::time::{Duration, Instant};

use moot::games::Game;
use moot::games::herfor::{Herfor, HerforOptions};
use sqlx::Connection;
use tokio_util::sync::CancellationToken;

use crate::tables::db;

/// SQLite's own threshold: a commit that grows the log past it checkpoints, unless told not to.
const DEFAULT_CHECKPOINT_PAGES: u64 = 1000;

#[actix_web::test]
async fn changes_reach_the_sqlite_file_by_the_checkpoint_task_not_by_their_commits() {
    let url = db::sqlite_url();
    let file = url.trim_start_matches("sqlite://").to_owned();
    let log = format!("{file}-wal");
    let tables = db::tables(&url, 10_000).await;
    let options = HerforOptions::default();
    let start = Herfor::new_game(&options).unwrap();

    // Changes until the log is past SQLite's own threshold, with no checkpoint task running.
    let pages = || std::fs::metadata(&log).map_or(0, |m| m.len()) / 4096;
    let mut created = 0;
    // (A commit that checkpointed would restart the log: it would never grow that far.)
    while pages() < DEFAULT_CHECKPOINT_PAGES + 200 && created < 5000 {
        tables
            .create::<Herfor>(
                &options,
                &start,
                None,
                [None, None],
                None,
                1_800_000_000_000,
            )
            .await
            .unwrap();
        created += 1;
    }
    assert_eq!(
        tables_in_file_alone(&file).await,
        0,
        "no commit checkpointed the {created} tables' log ({} pages) into the file",
        pages()
    );

    // The task copies them in.
    let stop = CancellationToken::new();
    let task = actix_web::rt::spawn(tables.clone().checkpoint_forever(stop.clone()));
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut in_file = 0;
    while in_file < created && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        in_file = tables_in_file_alone(&file).await;
    }
    stop.cancel();
    task.await.unwrap();
    assert_eq!(
        in_file, created,
        "the checkpoint task copied every table into the file within 10 s"
    );
}

/// The tables the SQLite file at `path` holds by itself, its log aside: counted on a copy of
/// the file alone (none while even the schema is in the log only).
async fn tables_in_file_alone(path: &str) -> u64 {
    let copy = format!("{path}.alone");
    let _ = std::fs::remove_file(format!("{copy}-wal"));
    std::fs::copy(path, &copy).expect("a copy of the database file");
    let mut connection = sqlx::SqliteConnection::connect(&format!("sqlite://{copy}"))
        .await
        .expect("the copy opens");
    let schema: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'moot_tables'",
    )
    .fetch_one(&mut connection)
    .await
    .expect("the copy's schema reads");
    let count: i64 = if schema == 0 {
        0
    } else {
        sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables")
            .fetch_one(&mut connection)
            .await
            .expect("the copy's tables read")
    };
    connection.close().await.expect("the copy closes");
    for leftover in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(Path::new(&format!("{copy}{leftover}")));
    }
    u64::try_from(count).expect("a count")
}
