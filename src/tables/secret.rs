//! Table ids and seat credentials: random from the operating system, written as lowercase hex
//! (URL-safe). A credential is shown once and kept only as its SHA-256 digest; a presented one
//! is compared with the kept digests in constant time.

pub use crate::digest::{digest, hex, matches};

/// Random bytes in a table id (128 bits: unguessable, so the id is the read capability).
const ID_BYTES: usize = 16;
/// Random bytes in a seat credential (256 bits).
const CREDENTIAL_BYTES: usize = 32;

/// `N` random bytes from the operating system, as hex.
fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    // The OS's generator failing is not something a server can work around.
    getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
    hex(&bytes)
}

/// A new table id.
pub fn table_id() -> String {
    random_hex::<ID_BYTES>()
}

/// A new seat credential.
pub fn credential() -> String {
    random_hex::<CREDENTIAL_BYTES>()
}

/// Whether `text` could be a table id (so that anything else is refused before a query).
pub fn is_table_id(text: &str) -> bool {
    text.len() == 2 * ID_BYTES && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_credentials_are_long_random_hex() {
        let (a, b) = (table_id(), table_id());
        assert_ne!(a, b);
        assert!(is_table_id(&a));
        assert_eq!(credential().len(), 64);
        assert!(!is_table_id("../etc"));
    }

    #[test]
    fn a_credential_matches_its_digest_only() {
        let secret = credential();
        let kept = digest(&secret);
        assert!(matches(&secret, &kept));
        assert!(!matches(&credential(), &kept));
        assert_ne!(kept, secret, "the digest is not the credential");
    }
}
