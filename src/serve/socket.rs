//! A connection's socket as the HTTP layer sees it: the TCP stream, read no more once the
//! application has answered a large body without reading it ([`crate::connection`]).
//!
//! A stopped read waits [`CLOSE_AFTER`], for the answer to reach the client, then ends: the
//! HTTP layer, which would have lingered reading and discarding the rest of the body, closes
//! the connection instead (with a reset, as unread bytes remain, as Go's server does after its
//! own wait). A client whose sends filled the buffers waits as long. Each waiting connection
//! keeps its buffers (up to ~160 KB), so at most [`MAX_WAITING`] wait at once; past that a
//! stopped connection closes at once.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use actix_web::rt::net::TcpStream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Sleep, sleep};

use crate::compute::budget::{Budget, Taken};
use crate::connection::Connection;

/// How long a connection whose reading stopped stays open, for the answer to reach the client.
pub const CLOSE_AFTER: Duration = Duration::from_millis(500);

/// The most connections waiting to close at once, in the whole process.
pub const MAX_WAITING: usize = 1024;

/// The places of the connections waiting to close.
static WAITING: LazyLock<Budget> = LazyLock::new(|| Budget::new(MAX_WAITING));

/// A TCP stream and its connection's state.
pub struct Socket {
    stream: TcpStream,
    connection: Connection,
    /// Once reading stopped: the wait before the read ends (none when no place was free).
    closing: Option<Option<(Pin<Box<Sleep>>, Taken)>>,
}

impl Socket {
    /// The stream of a new connection.
    pub fn new(stream: TcpStream) -> Self {
        Socket {
            stream,
            connection: Connection::default(),
            closing: None,
        }
    }

    /// The connection's state, shared with the application as connection data.
    pub fn connection(&self) -> &Connection {
        &self.connection
    }
}

impl AsyncRead for Socket {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.connection.is_stopped() {
            let closing = self.closing.get_or_insert_with(|| {
                WAITING
                    .try_take(1)
                    .map(|w| (Box::pin(sleep(CLOSE_AFTER)), w))
            });
            if let Some((wait, _)) = closing {
                ready!(wait.as_mut().poll(cx));
            }
            // Nothing read: the end of the stream, as if the client had closed.
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Socket {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
