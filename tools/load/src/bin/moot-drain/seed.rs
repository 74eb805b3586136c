//! The database under test, and the backlog written straight into its outbox: the rows a
//! server writes for a table's webhook events (the columns every version of the outbox has),
//! so that the same backlog is set before each build compared.

use sqlx::{AnyConnection, Connection, Executor};

/// A new database: an SQLite file in a temporary folder, or a PostgreSQL database.
pub struct Database {
    /// Its URL, for the server.
    pub url: String,
    /// The PostgreSQL server it was made on, and its name (dropped at the end).
    made_on: Option<(String, String)>,
}

impl Database {
    /// A new database on `postgres` (a server's URL), or a new SQLite file.
    pub async fn new(postgres: Option<&str>) -> Result<Database, String> {
        sqlx::any::install_default_drivers();
        let Some(server) = postgres else {
            let file = std::env::temp_dir().join(format!("moot-drain-{}.db", std::process::id()));
            let _ = std::fs::remove_file(&file);
            return Ok(Database {
                url: format!("sqlite://{}", file.display()),
                made_on: None,
            });
        };
        let name = format!("moot_drain_{}", std::process::id());
        let mut admin = AnyConnection::connect(server)
            .await
            .map_err(|e| format!("{server}: {e}"))?;
        admin
            .execute(&*format!("CREATE DATABASE {name}"))
            .await
            .map_err(|e| format!("CREATE DATABASE {name}: {e}"))?;
        let (base, _) = server
            .rsplit_once('/')
            .ok_or("a PostgreSQL URL names a database")?;
        Ok(Database {
            url: format!("{base}/{name}"),
            made_on: Some((server.to_owned(), name)),
        })
    }

    /// Removes it.
    pub async fn drop_it(self) {
        match self.made_on {
            Some((server, name)) => {
                if let Ok(mut admin) = AnyConnection::connect(&server).await {
                    let _ = admin.execute(&*format!("DROP DATABASE {name}")).await;
                }
            }
            None => {
                let file = self.url.trim_start_matches("sqlite://");
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{file}{suffix}"));
                }
            }
        }
    }
}

/// A backlog: `chains` tables' worth of `events` pending events each, to `url`, behind
/// `delivered` events already delivered (spread over the same chains, before their pending
/// ones).
pub struct Backlog {
    pub chains: u32,
    pub events: u32,
    pub delivered: u32,
    pub url: String,
}

/// Rows one statement inserts.
const ROWS_A_STATEMENT: usize = 1000;

impl Backlog {
    /// Writes it into `database`'s outbox, in one transaction.
    pub async fn write(&self, database: &Database) -> Result<(), String> {
        let mut connection = AnyConnection::connect(&database.url)
            .await
            .map_err(|e| format!("{}: {e}", database.url))?;
        let host = self
            .url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or_default();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let done_each = self.delivered / self.chains.max(1);
        let mut rows = Vec::new();
        for chain in 0..self.chains {
            let id = format!("drain{chain:05}");
            for seq in 1..=done_each + self.events {
                let (status, done) = if seq <= done_each {
                    ("delivered", now.to_string())
                } else {
                    ("pending", "NULL".to_owned())
                };
                rows.push(format!(
                    "('{id}-{seq}', '{id}', {seq}, 'move', '{url}', '{host}', \
                     'a-secret-of-the-site-32-characters', '{body}', '{status}', 0, {now}, NULL, \
                     {now}, {done})",
                    url = self.url,
                    body = body(&id, seq),
                ));
            }
        }
        connection
            .execute("BEGIN")
            .await
            .map_err(|e| e.to_string())?;
        for batch in rows.chunks(ROWS_A_STATEMENT) {
            let sql = format!(
                "INSERT INTO moot_outbox (event_id, table_id, seq, kind, url, host, secret, body, \
                 status, attempts, next_attempt_ms, last_error, created_ms, done_ms) VALUES {}",
                batch.join(", ")
            );
            connection
                .execute(&*sql)
                .await
                .map_err(|e| format!("writing the backlog: {e}"))?;
        }
        connection
            .execute("COMMIT")
            .await
            .map_err(|e| e.to_string())?;
        connection.close().await.map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// A move event's body of the size a server writes (a Herfor table on a 7 board).
fn body(table: &str, seq: u32) -> String {
    let cells = "0".repeat(127);
    format!(
        r#"{{"type":"move","seq":{seq},"move":"d4","table":{{"id":"{table}","game":"herfor","status":"ongoing","ply":{seq},"to_act":"first","state":{{"size":7,"cells":"{cells}","to_move":"first","passes":0,"pie":false}},"result":null}}}}"#
    )
}
