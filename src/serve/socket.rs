//! A connection's socket as the HTTP layer sees it: the TCP stream, read no more once the
//! application has answered a large body without reading it ([`crate::connection`]) and the
//! server's drain allowance is spent.
//!
//! After such an answer the HTTP layer lingers, reading and discarding the rest of the body so
//! that a client which writes its whole body before reading (Python's `http.client`, say)
//! still gets the answer. The whole server discards at most [`DRAIN_PER_SECOND`] bytes so: an
//! occasional refused upload is drained as before, a flood of them is not. Past the allowance a
//! read waits [`CLOSE_AFTER`], for the answer to reach the client, then ends, and the
//! connection closes (with a reset, as unread bytes remain, as Go's server does after its own
//! wait). Each waiting connection keeps its buffers (up to ~160 KB), so at most
//! [`MAX_WAITING`] wait at once; past that a stopped connection closes at once.

use std::future::Future;
use std::io;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use actix_web::rt::net::TcpStream;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Sleep, sleep};

use crate::compute::budget::{Budget, Taken};
use crate::connection::Connection;

/// The bytes of refused bodies the whole server reads and discards a second (16 MiB, also the
/// most at once): a refused upload of up to about that size still gets its answer.
pub const DRAIN_PER_SECOND: NonZeroU32 = NonZeroU32::new(16 << 20).unwrap();

/// What is left of the drain allowance.
static DRAINING: LazyLock<DefaultDirectRateLimiter> =
    LazyLock::new(|| RateLimiter::direct(Quota::per_second(DRAIN_PER_SECOND)));

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
    /// Once reading stopped and the drain allowance was spent: the wait before the read ends
    /// (none when no place was free).
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
        if !self.connection.is_stopped() {
            return Pin::new(&mut self.stream).poll_read(cx, buf);
        }
        if self.closing.is_none() {
            // Read to be discarded by the HTTP layer, while the server's drain allowance lasts.
            let before = buf.filled().len();
            let read = ready!(Pin::new(&mut self.stream).poll_read(cx, buf));
            let discarded = u32::try_from(buf.filled().len() - before).unwrap_or(u32::MAX);
            let allowed = NonZeroU32::new(discarded)
                .is_none_or(|bytes| matches!(DRAINING.check_n(bytes), Ok(Ok(()))));
            if !allowed {
                // These bytes are discarded too; the next read waits to close.
                self.closing = Some(
                    WAITING
                        .try_take(1)
                        .map(|place| (Box::pin(sleep(CLOSE_AFTER)), place)),
                );
            }
            return Poll::Ready(read);
        }
        if let Some(Some((wait, _))) = &mut self.closing {
            ready!(wait.as_mut().poll(cx));
        }
        // Nothing read: the end of the stream, as if the client had closed.
        Poll::Ready(Ok(()))
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
