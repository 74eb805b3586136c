//! A consistent copy of an SQLite database taken while the server runs: `VACUUM INTO` reads
//! one snapshot (a read transaction; in WAL mode the server's writes go on meanwhile) and
//! writes it, compacted, to a new file, which a server can open as it is. PostgreSQL is backed
//! up with its own tools (`pg_dump`).

use std::path::Path;

use super::store::{Backend, Store};

/// Why a backup was not taken.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// A PostgreSQL database.
    #[error(
        "moot backup copies SQLite files; back up PostgreSQL with pg_dump (pg_dump -Fc -f moot.dump DATABASE_URL) and restore with pg_restore"
    )]
    Postgres,
    /// A database in memory has no file to copy.
    #[error("an in-memory database (sqlite::memory:) has nothing to back up")]
    InMemory,
    /// The copy would overwrite a file.
    #[error("{0} exists already: a backup is written to a new file")]
    Exists(String),
    /// The database failed to write the copy.
    #[error("the copy failed: {0}")]
    Database(#[from] sqlx::Error),
}

impl Store {
    /// Writes a consistent copy of the database to the new file `to`; its size in bytes.
    pub async fn backup(&self, to: &Path) -> Result<u64, BackupError> {
        if self.backend == Backend::Postgres {
            return Err(BackupError::Postgres);
        }
        if self.file.is_none() {
            return Err(BackupError::InMemory);
        }
        if to.exists() {
            return Err(BackupError::Exists(to.display().to_string()));
        }
        sqlx::query("VACUUM INTO $1")
            .bind(to.display().to_string())
            .execute(&self.pool)
            .await?;
        Ok(std::fs::metadata(to).map(|m| m.len()).unwrap_or(0))
    }
}
