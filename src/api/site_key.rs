//! Who an API request counts against: the site whose key it sends in `Moot-Site-Key`, or its
//! address. A key that is no site's is refused (401 `unknown_site_key`), never counted by
//! address instead: a backend whose key went stale would otherwise be throttled in silence.

use actix_web::HttpRequest;

use super::problem::{ApiError, ErrorCode};
use crate::site_keys::{Client, HEADER, SiteKeys};

/// The client `http` counts against (its address as [`crate::client::client_of`] has it).
pub fn client_of(http: &HttpRequest, trust_forwarded: bool) -> Result<Client, ApiError> {
    let Some(value) = http.headers().get(HEADER) else {
        return Ok(Client::Address(crate::client::client_of(
            http,
            trust_forwarded,
        )));
    };
    let keys = http.app_data::<SiteKeys>();
    value
        .to_str()
        .ok()
        .and_then(|presented| keys?.site_of(presented.trim()))
        .map(Client::Site)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::UnknownSiteKey,
                format!(
                    "{HEADER}: this key is no site's of this server (see its --site-keys file); \
                     send none to be counted by your address"
                ),
            )
            .with_field(HEADER)
        })
}
