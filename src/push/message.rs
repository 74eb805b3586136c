//! A push as posted to a push service (RFC 8030 §5): the payload encrypted for the browser
//! (RFC 8291, one `aes128gcm` record, by `web-push-native`), with the headers a push service
//! asks for: `TTL`, `Urgency`, `Content-Encoding` and VAPID's `Authorization`.

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
    })
}
