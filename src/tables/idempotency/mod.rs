//! Changes made at most once: a request sent with an `Idempotency-Key` has its first answer
//! remembered in the change's own transaction, so that a client whose answer was lost (a cut
//! connection, a crash after the commit) sends it again and gets that answer, and the change
//! is not made twice. The same key with another request is refused. Keys are kept a day at
//! least (the sweep deletes them after [`KEEP`]).
//!
//! The key is the client's secret: a remembered answer is kept under the key's digest and
//! sealed with a cipher keyed by it (ChaCha20-Poly1305), so that the database never holds the
//! seat credentials a creation answers, readable, though a table's credentials are otherwise
//! kept only as digests.

use base64ct::{Base64Unpadded, Encoding};
use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use sha2::{Digest, Sha256};
use sqlx::Row;

use super::write::Write;
use super::{Committed, Created, DAY, Millis, TableError, Tables};

mod position;

use position::Kept;

/// How long a remembered answer is kept, at least.
pub const KEEP: Millis = DAY;

/// A change asked with an `Idempotency-Key`: where the key counts (`tables` for a creation,
/// the table's id for a seat's change), the key, and the digest of what was asked.
#[derive(Clone, Debug)]
pub struct Idempotent {
    scope: String,
    key: String,
    fingerprint: String,
}

impl Idempotent {
    /// The request `asked` (its parts: the operation, the credential, the body as read) with
    /// `key`, in `scope`.
    pub fn new(scope: &str, key: &str, asked: &[&[u8]]) -> Idempotent {
        Idempotent {
            scope: scope.to_owned(),
            key: key.to_owned(),
            fingerprint: super::secret::hex(&digest(asked)),
        }
    }

    /// Where the answer is kept: a digest of scope and key.
    fn id(&self) -> String {
        super::secret::hex(&self.derived(b"moot idempotency id"))
    }

    /// The cipher's key: another digest of scope and key.
    fn cipher(&self) -> LessSafeKey {
        let key = UnboundKey::new(&CHACHA20_POLY1305, &self.derived(b"moot idempotency seal"))
            .expect("a 32-byte key is ChaCha20-Poly1305's");
        LessSafeKey::new(key)
    }

    fn derived(&self, purpose: &[u8]) -> [u8; 32] {
        digest(&[purpose, self.scope.as_bytes(), self.key.as_bytes()])
    }

    /// `answer`, compressed and sealed: [`COMPRESSED`], then a random nonce and the
    /// ciphertext in base64. A change's answer is kept without its position ([`position`]),
    /// and compressed to a third or less.
    fn seal(&self, answer: &Kept) -> Result<String, TableError> {
        let json = serde_json::to_vec(answer).map_err(|e| TableError::Corrupt(e.to_string()))?;
        let mut text = zstd::bulk::compress(&json, COMPRESSION_LEVEL)
            .map_err(|e| TableError::Corrupt(format!("an answer could not be compressed: {e}")))?;
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).expect("the operating system gives random bytes");
        self.cipher()
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), &mut text)
            .map_err(|_| TableError::Corrupt("an answer could not be sealed".into()))?;
        Ok(format!(
            "{COMPRESSED}{}",
            Base64Unpadded::encode_string(&[nonce.as_slice(), &text].concat())
        ))
    }

    /// The answer `sealed` holds: compressed as [`Idempotent::seal`] writes it, or (kept by an
    /// older server) its JSON sealed in hex.
    fn open(&self, sealed: &str) -> Result<Kept, TableError> {
        let unreadable = || TableError::Corrupt("a remembered answer cannot be opened".into());
        let (mut bytes, compressed) = match sealed.strip_prefix(COMPRESSED) {
            Some(text) => (
                Base64Unpadded::decode_vec(text).map_err(|_| unreadable())?,
                true,
            ),
            None => (unhex(sealed).ok_or_else(unreadable)?, false),
        };
        if bytes.len() < NONCE_LEN {
            return Err(unreadable());
        }
        let mut text = bytes.split_off(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(&bytes).map_err(|_| unreadable())?;
        let plain = self
            .cipher()
            .open_in_place(nonce, Aad::empty(), &mut text)
            .map_err(|_| unreadable())?;
        let json = if compressed {
            zstd::stream::decode_all(&*plain).map_err(|_| unreadable())?
        } else {
            plain.to_vec()
        };
        serde_json::from_slice(&json).map_err(|_| unreadable())
    }
}

/// The mark of a compressed answer (hex, an older server's, never has a colon).
const COMPRESSED: &str = "z:";

/// zstd's level for remembered answers: small records for little time (a Hirþ table's 7 KB
/// in well under a millisecond).
const COMPRESSION_LEVEL: i32 = 9;

/// The SHA-256 of `parts`, each preceded by its length, so that parts cannot run into one
/// another.
fn digest(parts: &[&[u8]]) -> [u8; 32] {
    let mut digest = Sha256::new();
    for part in parts {
        digest.update((part.len() as u64).to_be_bytes());
        digest.update(part);
    }
    digest.finalize().into()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// An answer as first given: its status, the headers that matter, and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remembered {
    /// The HTTP status.
    pub status: u16,
    /// `ETag`, `Location`, `Cache-Control`, as first sent.
    pub headers: Vec<(String, String)>,
    /// The JSON body.
    pub body: String,
    /// Where the table's position is in `body`, for a change's answer: kept by reference and
    /// rebuilt from the table's moves when the answer is given again.
    pub position: Option<Position>,
}

/// The table's position within an answer's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Its first byte in the body.
    pub at: usize,
    /// Its length, in bytes.
    pub len: usize,
    /// The table's ply: the position after that many moves.
    pub ply: u64,
}

/// What the database knows of a key.
#[derive(Debug, PartialEq, Eq)]
pub enum Recall {
    /// Nothing: the change is made now.
    New,
    /// The same request was answered: this answer, again.
    Same(Remembered),
    /// Another request took this key.
    Different,
}

/// How a change's answer is made, to be remembered in its transaction.
#[derive(Clone, Copy, Debug)]
pub enum Answering {
    /// A seat's change: a move, a resignation, a claim.
    Change(fn(&Committed) -> Remembered),
    /// A table created.
    Creation(fn(&Created) -> Remembered),
    /// A challenge accepted (its table opened).
    Acceptance(fn(&super::challenges::Accepted) -> Remembered),
}

/// A key and how its answer is made, carried by the [`Tables`] that makes the change.
#[derive(Clone, Debug)]
pub(super) struct Remembering {
    pub(super) idempotent: Idempotent,
    pub(super) answering: Answering,
}

impl Tables {
    /// The same tables, remembering the answer of the next change they make under
    /// `idempotent`'s key.
    pub fn remembering(&self, idempotent: Idempotent, answering: Answering) -> Tables {
        Tables {
            remembering: Some(std::sync::Arc::new(Remembering {
                idempotent,
                answering,
            })),
            ..self.clone()
        }
    }

    /// What the database knows of `idempotent`'s key.
    pub async fn recall(&self, idempotent: &Idempotent) -> Result<Recall, TableError> {
        let row = sqlx::query(
            "SELECT fingerprint, answer, table_id, state FROM moot_idempotency WHERE id = $1",
        )
        .bind(idempotent.id())
        .fetch_optional(self.store.reads()?)
        .await?;
        let Some(row) = row else {
            return Ok(Recall::New);
        };
        let fingerprint: String = row.try_get("fingerprint")?;
        if fingerprint != idempotent.fingerprint {
            return Ok(Recall::Different);
        }
        let kept = idempotent.open(&row.try_get::<String, _>("answer")?)?;
        // A position kept by a takeback, else rebuilt from the moves.
        let state = match (kept.ply(), row.try_get::<Option<String>, _>("state")?) {
            (Some(_), Some(state)) => Some(state),
            (Some(ply), None) => match row.try_get::<Option<String>, _>("table_id")? {
                Some(table) => self.position_at(&table, ply).await?,
                None => None,
            },
            (None, _) => None,
        };
        Ok(Recall::Same(kept.answer(state)?))
    }

    /// In a seat's change's transaction: remembers its answer, if asked to.
    pub(super) async fn remember_change(
        &self,
        tx: &mut Write,
        committed: &Committed,
        now: Millis,
    ) -> Result<(), TableError> {
        match self.remembering.as_deref() {
            Some(Remembering {
                idempotent,
                answering: Answering::Change(answer),
            }) => {
                let table = Some(committed.table.id.as_str());
                remember(tx, idempotent, (&answer(committed), table), now).await
            }
            _ => Ok(()),
        }
    }

    /// In a creation's transaction: remembers its answer, if asked to.
    pub(super) async fn remember_creation(
        &self,
        tx: &mut Write,
        created: &Created,
        now: Millis,
    ) -> Result<(), TableError> {
        match self.remembering.as_deref() {
            Some(Remembering {
                idempotent,
                answering: Answering::Creation(answer),
            }) => remember(tx, idempotent, (&answer(created), None), now).await,
            _ => Ok(()),
        }
    }
}

impl Tables {
    /// In an accept's transaction: remembers its answer, if asked to.
    pub(super) async fn remember_acceptance(
        &self,
        tx: &mut Write,
        accepted: &super::challenges::Accepted,
        now: Millis,
    ) -> Result<(), TableError> {
        match self.remembering.as_deref() {
            Some(Remembering {
                idempotent,
                answering: Answering::Acceptance(answer),
            }) => remember(tx, idempotent, (&answer(accepted), None), now).await,
            _ => Ok(()),
        }
    }
}

/// Writes `answer` (of a change at `table`, whose position it may name) under `idempotent`'s
/// key in `tx`. A key written first by another request (a race of two with one key) is
/// [`TableError::KeyTaken`]: the change is undone.
async fn remember(
    tx: &mut Write,
    idempotent: &Idempotent,
    (answer, table): (&Remembered, Option<&str>),
    now: Millis,
) -> Result<(), TableError> {
    let kept = Kept::of(answer);
    let ply = kept.ply().map(|ply| ply as i64);
    sqlx::query(
        "INSERT INTO moot_idempotency (id, fingerprint, answer, created_ms, table_id, ply) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(idempotent.id())
    .bind(&idempotent.fingerprint)
    .bind(idempotent.seal(&kept)?)
    .bind(now)
    .bind(ply.and(table))
    .bind(ply)
    .execute(&mut **tx)
    .await
    .map_err(|error| {
        if TableError::is_unique_violation(&error) {
            TableError::KeyTaken
        } else {
            TableError::Database(error)
        }
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> Remembered {
        Remembered {
            status: 201,
            headers: vec![("Location".into(), "/api/v1/tables/x".into())],
            body: r#"{"credential":"secret"}"#.into(),
            position: None,
        }
    }

    #[test]
    fn a_sealed_answer_opens_with_its_key_only() {
        let first = Idempotent::new("tables", "key-1", &[b"create", b"{}"]);
        let sealed = first.seal(&Kept::of(&answer())).unwrap();
        assert!(
            !sealed.contains("secret"),
            "the body is not readable in the database"
        );
        assert_eq!(first.open(&sealed).unwrap().answer(None).unwrap(), answer());
        let other = Idempotent::new("tables", "key-2", &[b"create", b"{}"]);
        assert!(other.open(&sealed).is_err(), "another key opens nothing");
        assert_ne!(first.id(), other.id());
    }

    #[test]
    fn the_fingerprint_tells_requests_apart_and_parts_cannot_run_together() {
        let a = Idempotent::new("t", "k", &[b"ab", b"c"]);
        let b = Idempotent::new("t", "k", &[b"a", b"bc"]);
        assert_ne!(a.fingerprint, b.fingerprint);
        assert_eq!(
            a.fingerprint,
            Idempotent::new("t", "k", &[b"ab", b"c"]).fingerprint
        );
        assert_eq!(a.id(), b.id(), "one key, one place");
    }
}
