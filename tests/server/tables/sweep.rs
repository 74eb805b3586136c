//! The sweep deletes finished tables once they are older than the days they are kept, and
//! nothing else; the clock is passed in.

use moot::games::Game;
use moot::games::herfor::{Herfor, HerforOptions};
use moot::tables::{DAY, TableError};

use crate::both;
use crate::tables::db;

both!(
    the_sweep_deletes_only_tables_finished_long_enough_ago,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let options = HerforOptions::default();
        let start = Herfor::new_game(&options).unwrap();
        let t0 = 1_800_000_000_000;
        let finished = tables
            .create::<Herfor>(&options, &start, None, [None, None], None, t0)
            .await
            .unwrap();
        let ongoing = tables
            .create::<Herfor>(&options, &start, None, [None, None], None, t0)
            .await
            .unwrap();
        let id = finished.table.id.clone();
        let first = Herfor::format_move(&start, &Herfor::legal_moves(&start)[0]);
        tables
            .play(&id, &finished.credentials[0], 0, &first, t0)
            .await
            .unwrap();
        tables
            .resign(&id, &finished.credentials[1], t0 + DAY)
            .await
            .unwrap();

        // 89 days after it finished it is kept; 91 days after, it and its moves are gone.
        assert_eq!(tables.sweep(t0 + 90 * DAY, 90).await.unwrap(), 0);
        assert!(tables.get(&id).await.unwrap().is_some());
        assert_eq!(tables.sweep(t0 + 92 * DAY, 90).await.unwrap(), 1);
        assert!(tables.get(&id).await.unwrap().is_none());
        assert!(matches!(
            tables.history(&id).await,
            Err(TableError::UnknownTable)
        ));
        let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moot_moves")
            .fetch_one(&tables.store().pool)
            .await
            .unwrap();
        assert_eq!(moves, 0, "the swept table's moves are deleted with it");
        // An open table is never swept, however old.
        assert_eq!(tables.sweep(t0 + 1000 * DAY, 90).await.unwrap(), 0);
        assert!(tables.get(&ongoing.table.id).await.unwrap().is_some());
    }
);
