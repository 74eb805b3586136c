//! What a browser's `PushSubscription` must be for the server to push to it: an endpoint it may
//! post to, and keys it can encrypt for. Checked when a player subscribes, so that a
//! subscription that could never be delivered is refused then, naming its field, rather than
//! failing at every notice; the endpoint is checked again at each post, where its name resolves
//! (`crate::webhooks::target`).

use base64ct::{Base64UrlUnpadded, Encoding};
use web_push_native::p256::PublicKey;

use crate::tables::subscriptions::Subscription;
use crate::webhooks::target;

/// The length of a browser's authentication secret (RFC 8291 §3.2).
pub const AUTH_BYTES: usize = 16;

/// A subscription refused: the field at fault (`endpoint`, `keys.p256dh`, `keys.auth`) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The field, as the API names it.
    pub field: &'static str,
    /// What is wrong with it.
    pub why: String,
}

/// Checks what a browser sent: answers it as kept (the keys as unpadded base64url), or what is
/// wrong. Push services are on the internet and speak HTTPS; `allow_private` (the switch that
/// lets webhooks post inside, for a site on one network and for tests) takes `http` and private
/// addresses too.
pub fn check(
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    allow_private: bool,
) -> Result<Subscription, Refused> {
    let refused = |field, why: String| Refused { field, why };
    let url = target::check(endpoint, allow_private).map_err(|why| refused("endpoint", why))?;
    if url.scheme() != "https" && !allow_private {
        return Err(refused(
            "endpoint",
            format!("an https URL, not {}:", url.scheme()),
        ));
    }
    let point = decode(p256dh).map_err(|why| refused("keys.p256dh", why))?;
    if point.len() != 65 || point[0] != 4 || PublicKey::from_sec1_bytes(&point).is_err() {
        return Err(refused(
            "keys.p256dh",
            "an uncompressed P-256 point (65 bytes, the first 0x04) on the curve".into(),
        ));
    }
    let secret = decode(auth).map_err(|why| refused("keys.auth", why))?;
    if secret.len() != AUTH_BYTES {
        return Err(refused(
            "keys.auth",
            format!("{AUTH_BYTES} bytes, not {}", secret.len()),
        ));
    }
    Ok(Subscription {
        endpoint: endpoint.to_owned(),
        p256dh: Base64UrlUnpadded::encode_string(&point),
        auth: Base64UrlUnpadded::encode_string(&secret),
    })
}

/// Base64url, padded or not (browsers send it unpadded).
fn decode(text: &str) -> Result<Vec<u8>, String> {
    Base64UrlUnpadded::decode_vec(text.trim_end_matches('='))
        .map_err(|_| "base64url (the alphabet A–Z a–z 0–9 - _)".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A browser's keys, from RFC 8291's example.
    const P256DH: &str =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";

    #[test]
    fn a_browsers_subscription_is_taken_as_sent() {
        let kept = check("https://push.example/send/abc", P256DH, AUTH, false).unwrap();
        assert_eq!(kept.p256dh, P256DH);
        assert_eq!(kept.auth, AUTH);
        let padded = format!("{AUTH}==");
        assert_eq!(
            check("https://push.example/x", P256DH, &padded, false)
                .unwrap()
                .auth,
            AUTH
        );
    }

    #[test]
    fn each_refusal_names_its_field() {
        let field = |endpoint: &str, p256dh: &str, auth: &str, private: bool| {
            check(endpoint, p256dh, auth, private).unwrap_err().field
        };
        assert_eq!(
            field("http://push.example/x", P256DH, AUTH, false),
            "endpoint"
        );
        assert_eq!(
            field("https://127.0.0.1/x", P256DH, AUTH, false),
            "endpoint"
        );
        assert_eq!(field("not a url", P256DH, AUTH, true), "endpoint");
        assert_eq!(
            field("https://push.example/x", "BCVx", AUTH, false),
            "keys.p256dh"
        );
        // A point off the curve: its last byte changed.
        let off = format!("{}5", &P256DH[..P256DH.len() - 1]);
        assert_eq!(
            field("https://push.example/x", &off, AUTH, false),
            "keys.p256dh"
        );
        assert_eq!(
            field("https://push.example/x", P256DH, "BTBZ", false),
            "keys.auth"
        );
        assert_eq!(
            field("https://push.example/x", P256DH, "!!", false),
            "keys.auth"
        );
        assert!(check("http://127.0.0.1:9/x", P256DH, AUTH, true).is_ok());
    }
}
