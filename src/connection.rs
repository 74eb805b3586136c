//! What the application tells the connection a request came on: whether the request's body was
//! read. A large body answered without being read (refused before or while it is read: a full
//! budget, a bound crossed, an unknown game or route) is drained only while the server's drain
//! allowance lasts (`serve::socket`); then the server stops reading the connection, which
//! closes once the answer has had time to reach the client. Draining every such body would cost
//! the server a copy of every byte it refuses, and a client looping megabyte bodies would keep
//! it copying at memory speed; not read, the client's sends block once the buffers are full.
//!
//! A body of at most [`DRAIN_LIMIT`] bytes is still read and discarded after the answer (actix's
//! lingering close), which then closes the connection cleanly. The server (`serve::listen`)
//! gives each connection its [`Connection`] (as actix's connection data) and decides after each
//! answer; the body extractor says when it has read a body whole ([`body_read`]).

use std::cell::Cell;
use std::rc::Rc;

use actix_web::HttpRequest;

/// The longest unread body still read and discarded after its answer (as Go's server does,
/// 256 KiB). More than the server buffers of a body before it is read (actix's read buffer and
/// payload buffer), so a body over it cannot have arrived whole unread: its connection is
/// closing, and a stopped read cannot stall a next request.
pub const DRAIN_LIMIT: u64 = 256 << 10;

/// One connection's state, shared by the socket and the application (connection data).
#[derive(Clone, Debug, Default)]
pub struct Connection(Rc<State>);

#[derive(Debug, Default)]
struct State {
    /// Whether the current request's body was read whole.
    body_read: Cell<bool>,
    /// Whether the socket is read no more.
    stopped: Cell<bool>,
}

impl Connection {
    /// Before a request is answered: its body is not read yet.
    pub fn request_started(&self) {
        self.0.body_read.set(false);
    }

    /// After a request is answered: stops reading when its body declared more than
    /// [`DRAIN_LIMIT`] bytes and was not read.
    pub fn request_answered(&self, declared_length: Option<u64>) {
        let large = declared_length.is_some_and(|length| length > DRAIN_LIMIT);
        if large && !self.0.body_read.get() {
            self.0.stopped.set(true);
        }
    }

    /// Whether the socket is read no more.
    pub fn is_stopped(&self) -> bool {
        self.0.stopped.get()
    }
}

/// Says the request's body, of `length` bytes, was read whole (its connection may go on).
pub fn body_read(req: &HttpRequest, length: usize) {
    if length as u64 <= DRAIN_LIMIT {
        return; // Only a large body can stop the reading.
    }
    if let Some(connection) = req.conn_data::<Connection>() {
        connection.0.body_read.set(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_body_answered_unread_stops_the_reading() {
        let connection = Connection::default();
        connection.request_started();
        connection.request_answered(Some(DRAIN_LIMIT + 1));
        assert!(connection.is_stopped());
    }

    #[test]
    fn a_read_or_small_or_unsized_body_keeps_the_connection() {
        let connection = Connection::default();
        connection.request_started();
        connection.0.body_read.set(true);
        connection.request_answered(Some(1 << 20));
        connection.request_started();
        connection.request_answered(Some(DRAIN_LIMIT));
        connection.request_started();
        connection.request_answered(None);
        assert!(!connection.is_stopped());
    }
}
