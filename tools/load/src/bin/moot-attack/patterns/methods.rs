//! Long random methods: 32 clients, a connection each, looping `<1,000 random capitals>
//! /healthz HTTP/1.1`, every method new (a server that kept a label per method would grow);
//! and once a 120 KB method.

use std::net::SocketAddr;
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::patterns::Load;
use crate::raw;

/// Clients looping, a connection each.
const CLIENTS: usize = 32;
/// Characters of each looped method.
const METHOD_LENGTH: usize = 1_000;
/// Characters of the one huge method.
const HUGE_METHOD_LENGTH: usize = 120_000;

/// `length` random capital letters.
fn random_method(rng: &mut impl Rng, length: usize) -> String {
    (0..length)
        .map(|_| char::from(rng.random_range(b'A'..=b'Z')))
        .collect()
}

fn request(addr: SocketAddr, method: &str) -> Vec<u8> {
    format!("{method} /healthz HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n").into_bytes()
}

/// The methods, ready to loop against the server at `addr`.
pub fn load(addr: SocketAddr) -> Load {
    Load {
        notes: vec![format!(
            "{CLIENTS} clients, each request a new method of {METHOD_LENGTH} capitals"
        )],
        once: Some(Box::new(|addr| {
            let method = random_method(&mut SmallRng::seed_from_u64(0), HUGE_METHOD_LENGTH);
            let reply = raw::exchange(addr, &request(addr, &method));
            vec![format!(
                "one method of {HUGE_METHOD_LENGTH} bytes: status {}",
                reply.status
            )]
        })),
        clients: CLIENTS,
        attempt: Arc::new(move |index, round| {
            // Seeded by client and round: every request's method differs, every run the same.
            let seed = ((index as u64) << 40) | round;
            let method = random_method(&mut SmallRng::seed_from_u64(seed), METHOD_LENGTH);
            raw::exchange(addr, &request(addr, &method))
        }),
        regular: None,
    }
}
