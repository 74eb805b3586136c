//! One connection kept alive across requests, as a browser, a proxy or a generated client
//! talks.

use std::io::{BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Instant;

use crate::answer::{Head, read_answer};
use crate::http::{Answer, Reply, connect, request_head};

/// A kept-alive connection to `addr`; reconnects (within the request's time) when the server
/// closed it.
pub struct KeptAlive {
    addr: SocketAddr,
    connection: Option<BufReader<TcpStream>>,
}

impl KeptAlive {
    /// Not connected yet: the first request connects.
    pub fn new(addr: SocketAddr) -> Self {
        KeptAlive {
            addr,
            connection: None,
        }
    }

    /// Sends one request and counts its answer (status 0 when none came).
    pub fn send(&mut self, method: &str, path: &str, body: &[u8]) -> Reply {
        let started = Instant::now();
        // The body is read and dropped.
        let head = self
            .exchange(method, path, &[], body, &mut Vec::new())
            .unwrap_or_default();
        Reply {
            status: head.status,
            bytes: head.body_bytes,
            took: started.elapsed(),
        }
    }

    /// Sends one request with `extra` headers and keeps the whole answer.
    pub fn fetch(
        &mut self,
        method: &str,
        path: &str,
        extra: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Answer> {
        let started = Instant::now();
        let mut answer = Vec::new();
        let head = self.exchange(method, path, extra, body, &mut answer)?;
        Ok(Answer {
            head,
            body: answer,
            took: started.elapsed(),
        })
    }

    fn exchange(
        &mut self,
        method: &str,
        path: &str,
        extra: &[(&str, &str)],
        body: &[u8],
        into: &mut Vec<u8>,
    ) -> std::io::Result<Head> {
        // A kept connection the server closed meanwhile fails at once: one retry on a new one.
        self.attempt(method, path, extra, body, into)
            .or_else(|_| {
                into.clear();
                self.attempt(method, path, extra, body, into)
            })
            .inspect_err(|_| self.connection = None)
    }

    fn attempt(
        &mut self,
        method: &str,
        path: &str,
        extra: &[(&str, &str)],
        body: &[u8],
        into: &mut impl Write,
    ) -> std::io::Result<Head> {
        if self.connection.is_none() {
            let stream = connect(self.addr)?;
            stream.set_nodelay(true)?;
            self.connection = Some(BufReader::new(stream));
        }
        let connection = self.connection.as_mut().expect("connected above");
        let mut request =
            request_head(self.addr, method, path, extra, false, body.len()).into_bytes();
        request.extend_from_slice(body);
        connection.get_mut().write_all(&request)?;
        let answer = read_answer(connection, into);
        if !matches!(answer, Ok(Head { open: true, .. })) {
            self.connection = None;
        }
        answer
    }
}
