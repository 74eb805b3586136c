//! Secrets kept only as their SHA-256 digest (seat credentials, site keys), and a presented one
//! compared with a kept digest in constant time, so that the time taken tells nothing of how
//! much of it matched.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The digest kept for a secret, as hex.
pub fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Whether `secret` is the one whose digest is `kept`, compared in constant time.
pub fn matches(secret: &str, kept: &str) -> bool {
    let presented = digest(secret);
    presented.as_bytes().ct_eq(kept.as_bytes()).into()
}
