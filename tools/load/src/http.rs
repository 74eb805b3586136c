//! Requests on a new connection each (`Connection: close`), as the abusive patterns send them.

use std::io::{BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::answer::{Head, read_answer};

/// How long a connection may take to open.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a read may wait for the server.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// One answer, as a pattern counts it.
#[derive(Clone, Copy, Debug)]
pub struct Reply {
    /// The status code; 0 when no answer came.
    pub status: u16,
    /// Bytes of body.
    pub bytes: usize,
    /// From the connection's opening to the answer's end.
    pub took: Duration,
}

/// One answer, whole: head and body.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Status, headers, body size.
    pub head: Head,
    /// The body's bytes.
    pub body: Vec<u8>,
    /// From the request's start to the answer's end.
    pub took: Duration,
}

/// A request's head: JSON content, `extra` headers after the fixed ones.
pub fn request_head(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &[(&str, &str)],
    close: bool,
    body_length: usize,
) -> String {
    let connection = if close { "connection: close\r\n" } else { "" };
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\n{connection}content-type: application/json\r\ncontent-length: {body_length}\r\n"
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head
}

/// A new connection with this module's time-outs.
pub fn connect(addr: SocketAddr) -> std::io::Result<TcpStream> {
    let stream = TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT)?;
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    Ok(stream)
}

/// Sends one request on a new connection and reads until the server closes it.
pub fn send(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> Reply {
    send_with(addr, method, path, &[], body)
}

/// [`send`] with `extra` headers.
pub fn send_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let started = Instant::now();
    let attempt = || -> std::io::Result<(u16, usize)> {
        let mut stream = connect(addr)?;
        let head = request_head(addr, method, path, extra, true, body.len());
        stream.write_all(head.as_bytes())?;
        stream.write_all(body)?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer)?;
        let status = answer
            .get(9..12)
            .and_then(|s| std::str::from_utf8(s).ok())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body_at = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(answer.len(), |i| i + 4);
        Ok((status, answer.len() - body_at))
    };
    let (status, bytes) = attempt().unwrap_or((0, 0));
    Reply {
        status,
        bytes,
        took: started.elapsed(),
    }
}

/// Sends one request on a new connection and keeps the whole answer, headers and body.
pub fn fetch(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Answer> {
    let started = Instant::now();
    let mut stream = connect(addr)?;
    let head = request_head(addr, method, path, extra, true, body.len());
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut answer = Vec::new();
    let head = read_answer(&mut BufReader::new(stream), &mut answer)?;
    Ok(Answer {
        head,
        body: answer,
        took: started.elapsed(),
    })
}
