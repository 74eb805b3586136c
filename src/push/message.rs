//! A push as posted to a push service (RFC 8030 §5): the payload encrypted for the browser
//! (RFC 8291, one `aes128gcm` record, by `web-push-native`), with the headers a push service
//! asks for: `TTL`, `Urgency`, `Content-Encoding` and VAPID's `Authorization`, and a `Topic`
//! per table (§5.4): a push service keeps only the latest push of a topic for a browser that is
//! offline, so a player back online gets one notice a table, not one a change.

use std::time::Duration;

use base64ct::{Base64UrlUnpadded, Encoding};
use reqwest::Url;
use web_push_native::Auth;
use web_push_native::p256::PublicKey;

use super::vapid::Vapid;
use crate::tables::push::ClaimedPush;

/// A push ready to post.
pub struct Sealed {
    /// The encrypted body.
    pub body: Vec<u8>,
    /// `Authorization: vapid t=…, k=…`.
    pub authorization: String,
    /// `Topic`: the table the notice is about, when it names one.
    pub topic: Option<String>,
}

/// Seals `push`'s payload for its browser, to post to `endpoint` (the push's, checked) signed
/// by `vapid` with `contact`, its JWT valid for `valid_for`. `Err` says why it cannot be (a
/// subscription's keys that were kept but cannot be used: never the keys themselves).
pub fn seal(
    push: &ClaimedPush,
    endpoint: &Url,
    vapid: &Vapid,
    contact: &str,
    valid_for: Duration,
) -> Result<Sealed, String> {
    let point = Base64UrlUnpadded::decode_vec(&push.p256dh)
        .ok()
        .and_then(|bytes| PublicKey::from_sec1_bytes(&bytes).ok())
        .ok_or("the subscription's p256dh is no P-256 point")?;
    let auth = Base64UrlUnpadded::decode_vec(&push.auth)
        .ok()
        .filter(|bytes| bytes.len() == super::subscription::AUTH_BYTES)
        .map(|bytes| Auth::clone_from_slice(&bytes))
        .ok_or("the subscription's auth is not 16 bytes")?;
    let body = web_push_native::encrypt(push.payload.clone().into_bytes(), &point, &auth)
        .map_err(|e| format!("the payload cannot be encrypted: {e}"))?;
    Ok(Sealed {
        body,
        authorization: vapid.authorization(endpoint, contact, valid_for)?,
        topic: topic_of(&push.payload),
    })
}

/// The `Topic` of a notice about a table (its payload's `table_id`): at most 32 characters of
/// the URL-safe base64 alphabet, as RFC 8030 asks, so a digest of the id (which the push
/// service then does not read either). `None` for a notice about no table.
pub fn topic_of(payload: &str) -> Option<String> {
    use sha2::{Digest, Sha256};
    let notice: serde_json::Value = serde_json::from_str(payload).ok()?;
    let table = notice.get("table_id")?.as_str()?;
    let digest = Sha256::digest([b"moot push topic ".as_slice(), table.as_bytes()].concat());
    let mut topic = Base64UrlUnpadded::encode_string(&digest);
    topic.truncate(32);
    Some(topic)
}

#[cfg(test)]
mod tests {
    use super::topic_of;

    #[test]
    fn a_tables_notices_share_one_topic_of_32_url_safe_characters() {
        let first = topic_of(r#"{"kind":"your_turn","table_id":"t1"}"#).expect("a topic");
        let again = topic_of(r#"{"kind":"takeback_asked","table_id":"t1"}"#).expect("a topic");
        let other = topic_of(r#"{"kind":"your_turn","table_id":"t2"}"#).expect("a topic");
        assert_eq!(
            first, again,
            "one topic a table: the latest notice replaces the others"
        );
        assert_ne!(first, other);
        assert_eq!(first.len(), 32);
        assert!(
            first
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(topic_of(r#"{"kind":"challenge_received"}"#), None);
        assert_eq!(topic_of("not json"), None);
    }
}
