//! The bodies of Web Push's routes: the server's VAPID key, and a browser's
//! `PushSubscription` as its `toJSON()` writes it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a player holding its credential keeps its browsers' subscriptions.
pub const MY_SUBSCRIPTIONS: &str = "/api/v1/players/me/push-subscriptions";

/// The server's VAPID public key.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "public_key": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
    "subscriptions_url": MY_SUBSCRIPTIONS,
}))]
pub struct PushKeyResponse {
    /// The P-256 public key, uncompressed (65 bytes), as base64url: a page passes it as
    /// `applicationServerKey` to `pushManager.subscribe`.
    pub public_key: String,
    /// Where a player sends the subscription its browser gives.
    #[schema(format = "uri-reference")]
    pub subscriptions_url: String,
}

/// A browser's keys for its subscription.
#[derive(Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeys {
    /// The browser's P-256 public key, uncompressed (65 bytes), as base64url.
    pub p256dh: String,
    /// The browser's authentication secret (16 bytes), as base64url.
    pub auth: String,
}

/// `POST /api/v1/players/me/push-subscriptions`: a browser's `PushSubscription.toJSON()`.
#[derive(Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "endpoint": "https://push.example/send/dGhlIGJyb3dzZXIncyBvd24",
    "expirationTime": null,
    "keys": {
        "p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
        "auth": "BTBZMqHH6r4Tts7J_aSIgg",
    },
}))]
pub struct SubscribeRequest {
    /// The push service's URL for the browser: https (a server that lets webhooks post inside
    /// takes http too), at most 2,048 bytes.
    #[schema(format = "uri")]
    pub endpoint: String,
    /// When the subscription expires, as the browser says (milliseconds since the epoch), if
    /// ever. Read and not kept: a push service's 404 or 410 drops the subscription.
    #[serde(rename = "expirationTime")]
    #[schema(value_type = Option<f64>)]
    pub expiration_time: Option<serde_json::Value>,
    /// The browser's keys.
    pub keys: SubscriptionKeys,
}

/// A subscription kept.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"endpoint": "https://push.example/send/dGhlIGJyb3dzZXIncyBvd24"}))]
pub struct SubscriptionResponse {
    /// The push service's URL, as sent.
    #[schema(format = "uri")]
    pub endpoint: String,
}
