//! Bodies of many tiny objects: 32 clients, a connection each, looping 1 MiB bodies
//! `{"x":[{"":0},{"":0},…]}` to `legal-moves` and reading the status. Parsed whole, such a body
//! would cost a hundred times its size.

use std::net::SocketAddr;
use std::sync::Arc;

use moot_load::http::request_head;
use moot_load::probe::LEGAL_MOVES;

use crate::patterns::Load;
use crate::raw;

/// The tiny objects in one body.
pub const OBJECTS: usize = 149_000;
/// Clients looping, a connection each.
const CLIENTS: usize = 32;

/// `{"x":[{"":0},…]}` with [`OBJECTS`] objects: just under 1 MiB.
pub fn tiny_objects_body() -> Vec<u8> {
    let mut body = Vec::with_capacity(OBJECTS * 7 + 8);
    body.extend_from_slice(b"{\"x\":[");
    for i in 0..OBJECTS {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(b"{\"\":0}");
    }
    body.extend_from_slice(b"]}");
    body
}

/// The bodies, ready to loop against the server at `addr`.
pub fn load(addr: SocketAddr) -> Load {
    let body = tiny_objects_body();
    let notes = vec![format!(
        "{CLIENTS} clients, each body {} bytes of {OBJECTS} objects",
        body.len()
    )];
    let mut request = request_head(addr, "POST", LEGAL_MOVES, &[], true, body.len()).into_bytes();
    request.extend_from_slice(&body);
    let request = Arc::new(request);
    Load {
        notes,
        once: None,
        clients: CLIENTS,
        attempt: Arc::new(move |_, _| raw::exchange(addr, &request)),
        regular: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_holds_149000_tiny_objects_within_one_mebibyte() {
        let body = tiny_objects_body();
        assert!(body.len() <= 1 << 20, "{} bytes", body.len());
        let value: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        let objects = value["x"].as_array().expect("an array");
        assert_eq!(objects.len(), OBJECTS);
        assert!(objects.iter().all(|o| *o == serde_json::json!({"": 0})));
    }
}
