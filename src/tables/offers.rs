//! Takeback requests and rematch offers, counted: at most [`limits::OFFERS_PER_MOVE`] at a table
//! between two of its moves (or takebacks), whoever makes them. Each one is pushed to the
//! opponent's devices and written to feeds and webhooks; a seat asking and withdrawing in a loop
//! would otherwise flood them.

use super::write::Write;
use super::{TableError, Tables};
use crate::limits::tables as limits;

impl Tables {
    /// In an offer's transaction at table `id`, standing at `ply` after `taken_back` plies were
    /// taken back: counts it, or refuses it once the table took its share since its last move.
    pub(super) async fn count_offer(
        tx: &mut Write,
        id: &str,
        ply: u64,
        taken_back: u64,
    ) -> Result<(), TableError> {
        let at = (ply + 2 * taken_back) as i64;
        let counted = sqlx::query(
            "UPDATE moot_tables SET offers = CASE WHEN offers_at = $2 THEN offers + 1 ELSE 1 END, \
             offers_at = $2 WHERE id = $1 AND (offers_at <> $2 OR offers < $3)",
        )
        .bind(id)
        .bind(at)
        .bind(i64::from(limits::OFFERS_PER_MOVE))
        .execute(&mut **tx)
        .await?;
        if counted.rows_affected() == 1 {
            Ok(())
        } else {
            Err(TableError::TooManyOffers(limits::OFFERS_PER_MOVE))
        }
    }
}
