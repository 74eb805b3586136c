//! The signature of a webhook's body, as Stripe signs its events: the header
//! `Moot-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<body>" with the secret>`.
//! The receiver computes the same HMAC over the body it got and compares in constant time; the
//! time lets it refuse an old delivery replayed (five minutes is the usual tolerance).

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The header that carries the signature.
pub const HEADER: &str = "Moot-Signature";

/// The value of [`HEADER`] for `body` sent at `timestamp` (Unix seconds), signed with `secret`.
pub fn sign(secret: &str, timestamp: i64, body: &str) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    let digest: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("t={timestamp},v1={digest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Computed apart, with Python's `hmac` module, so that the format is pinned and not just
    /// consistent with itself.
    #[test]
    fn the_signature_is_the_hmac_sha256_of_time_dot_body() {
        assert_eq!(
            sign(
                "a-secret-of-sixteen+",
                1_796_212_800,
                r#"{"type":"move","seq":1}"#
            ),
            "t=1796212800,v1=d925d919a5afbf390c0b2fa92bc3b1377dc2d7340b7e69e795dae4cb64471b15"
        );
    }

    #[test]
    fn another_secret_or_time_signs_otherwise() {
        let body = r#"{"seq":2}"#;
        let v1 = |signed: String| signed.split_once(",v1=").unwrap().1.to_owned();
        let signed = v1(sign("a-secret-of-sixteen+", 1, body));
        assert_ne!(signed, v1(sign("another-secret-here", 1, body)));
        assert_ne!(signed, v1(sign("a-secret-of-sixteen+", 2, body)));
    }
}
