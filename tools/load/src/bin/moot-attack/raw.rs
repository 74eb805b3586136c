//! Raw requests, for what a well-formed client cannot send: bytes written as they are, then
//! the answer's status line read.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::time::Instant;

use moot_load::http::{Reply, connect};

/// Writes `request` on a new connection and reads the status of the answer (0: none). A server
/// may answer and close before the whole request is written: the answer is read all the same.
pub fn exchange(addr: SocketAddr, request: &[u8]) -> Reply {
    let started = Instant::now();
    let status = connect(addr)
        .and_then(|mut stream| {
            let _ = stream.write_all(request);
            let mut line = String::new();
            BufReader::new(stream).read_line(&mut line)?;
            Ok(line.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0))
        })
        .unwrap_or(0);
    Reply {
        status,
        bytes: 0,
        took: started.elapsed(),
    }
}
