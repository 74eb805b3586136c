//! The server's VAPID key (RFC 8292), kept in the database: every replica signs its pushes with
//! the same key, and the browsers' subscriptions, each made for the key's public half, outlive
//! restarts. Made at first need by whichever replica needs it first; two replicas racing both
//! write with `ON CONFLICT DO NOTHING` and then read the one row that won.

use base64ct::{Base64UrlUnpadded, Encoding};
use sqlx::Row;
use web_push_native::p256::SecretKey;

use super::{Millis, TableError, Tables};

/// A new P-256 private key (its scalar, from the operating system's randomness) as base64url.
fn new_private_key() -> String {
    loop {
        let mut scalar = [0u8; 32];
        // The OS's generator failing is not something a server can work around.
        getrandom::fill(&mut scalar).expect("the operating system gives random bytes");
        // Zero or past the group's order (a chance of about 2^-32): drawn again.
        if let Ok(key) = SecretKey::from_slice(&scalar) {
            return Base64UrlUnpadded::encode_string(&key.to_bytes());
        }
    }
}

impl Tables {
    /// The server's VAPID private key (a P-256 scalar as base64url), made and kept at the first
    /// call on this database; read once per process.
    pub async fn push_key(&self, now: Millis) -> Result<String, TableError> {
        self.push
            .key
            .get_or_try_init(|| async {
                if let Some(key) = self.stored_push_key().await? {
                    return Ok(key);
                }
                let mut tx = self.write().await?;
                let outcome = sqlx::query(
                    "INSERT INTO moot_push_keys (id, private_key, created_ms) VALUES (1, $1, $2) \
                     ON CONFLICT (id) DO NOTHING",
                )
                .bind(new_private_key())
                .bind(now)
                .execute(&mut *tx)
                .await
                .map(drop)
                .map_err(TableError::from);
                tx.finish(outcome).await?;
                // Ours, or the one another replica wrote first.
                self.stored_push_key()
                    .await?
                    .ok_or_else(|| TableError::Corrupt("the VAPID key was not kept".into()))
            })
            .await
            .cloned()
    }

    /// The kept VAPID key, if one was made.
    async fn stored_push_key(&self) -> Result<Option<String>, TableError> {
        let row = sqlx::query("SELECT private_key FROM moot_push_keys WHERE id = 1")
            .fetch_optional(self.store.reads()?)
            .await?;
        Ok(row.map(|row| row.try_get("private_key")).transpose()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_private_key_is_a_p256_scalar_in_base64url() {
        let (a, b) = (new_private_key(), new_private_key());
        assert_ne!(a, b);
        let bytes = Base64UrlUnpadded::decode_vec(&a).unwrap();
        assert_eq!(bytes.len(), 32);
        assert!(SecretKey::from_slice(&bytes).is_ok());
    }
}
