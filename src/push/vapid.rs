//! VAPID (RFC 8292): the server's identity towards push services. Each push carries
//! `Authorization: vapid t=<JWT>, k=<public key>`: a JWT signed with ES256 by the server's key,
//! whose `aud` is the push service's origin, `exp` at most a day ahead and `sub` a contact for
//! the service's operators. A browser subscribed with the key's public half
//! (`applicationServerKey`), so the push service takes only pushes signed by it.
//!
//! The JWT is made with `web-push-native`'s jwt-simple rather than its `VapidSignature`, which
//! names the audience without its port: a push service on a port of its own (tests, a
//! self-hosted one) would refuse it.

use std::time::Duration;

use base64ct::{Base64UrlUnpadded, Encoding};
use reqwest::Url;
use web_push_native::jwt_simple::prelude::{
    Claims, ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair,
};

/// The server's VAPID key.
pub struct Vapid {
    key: ES256KeyPair,
    /// The public key, uncompressed, as base64url: what `k=` and `applicationServerKey` carry.
    public: String,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl Vapid {
    /// The key whose private scalar is `private` (base64url, as the tables keep it).
    pub fn from_private(private: &str) -> Result<Vapid, String> {
        let scalar = Base64UrlUnpadded::decode_vec(private)
            .map_err(|e| format!("the kept VAPID key is not base64url: {e}"))?;
        let key = ES256KeyPair::from_bytes(&scalar)
            .map_err(|e| format!("the kept VAPID key is no P-256 key: {e}"))?;
        let public = Base64UrlUnpadded::encode_string(
            &key.public_key().public_key().to_bytes_uncompressed(),
        );
        Ok(Vapid { key, public })
    }

    /// The public key, uncompressed (65 bytes), as base64url.
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header of a push to `endpoint`: a JWT for the endpoint's origin,
    /// valid for `valid_for` (at most a day: RFC 8292 §2), naming `contact`.
    pub fn authorization(
        &self,
        endpoint: &Url,
        contact: &str,
        valid_for: Duration,
    ) -> Result<String, String> {
        let claims = Claims::create(valid_for.min(super::MOST_VALID).into())
            .with_audience(audience(endpoint))
            .with_subject(contact);
        let token = self
            .key
            .sign(claims)
            .map_err(|e| format!("the VAPID JWT cannot be signed: {e}"))?;
        Ok(format!("vapid t={token}, k={}", self.public))
    }
}

/// A push service's origin, the JWT's `aud`: scheme, host, and the port unless it is the
/// scheme's own.
pub fn audience(endpoint: &Url) -> String {
    endpoint.origin().ascii_serialization()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audience_is_the_origin_with_its_port() {
        let at = |url: &str| audience(&url.parse().unwrap());
        assert_eq!(
            at("https://fcm.googleapis.com/fcm/send/abc"),
            "https://fcm.googleapis.com"
        );
        assert_eq!(at("http://127.0.0.1:9000/push/1"), "http://127.0.0.1:9000");
        assert_eq!(at("https://push.example:443/x"), "https://push.example");
    }

    #[test]
    fn a_kept_key_that_is_no_key_is_said_so() {
        assert!(Vapid::from_private("not base64!").is_err());
        assert!(Vapid::from_private(&Base64UrlUnpadded::encode_string(&[0; 32])).is_err());
        let key = ES256KeyPair::generate();
        let vapid =
            Vapid::from_private(&Base64UrlUnpadded::encode_string(&key.to_bytes())).unwrap();
        let public = Base64UrlUnpadded::decode_vec(vapid.public_key()).unwrap();
        assert_eq!((public.len(), public[0]), (65, 4));
    }
}
