//! The HTTP server around the application: what actix-web's `HttpServer` would build, with the
//! settings Moot chooses, plus two things `HttpServer` does not let an application decide:
//!
//! - the answer to `Expect: 100-continue`. A client that announces a body over the limit is
//!   answered at once (413, by the application itself: its headers, log line and metrics), so
//!   it never uploads what would be refused; any other gets `100 Continue` as before;
//! - whether the connection goes on reading a large body the application answered without
//!   reading: only within a server-wide allowance ([`Socket`], [`crate::connection`]).

use std::rc::Rc;
use std::{fmt, io};

use actix_http::body::{BoxBody, MessageBody};
use actix_http::error::DispatchError;
use actix_http::{HttpService, Protocol, Request, Response};
use actix_service::{
    IntoServiceFactory, Service, ServiceFactory, ServiceFactoryExt, apply_fn_factory, fn_factory,
    fn_service, map_config,
};
use actix_web::dev::AppConfig;
use actix_web::http::header::CONTENT_LENGTH;
use actix_web::rt::net::TcpStream;
use futures_util::future::Either;

use super::socket::Socket;
use crate::api::body::BODY_LIMIT;
use crate::connection::{Connection, DRAIN_LIMIT};
use crate::limits::{GRACE, HEAD_DEADLINE};

/// A server for `bind` that answers with a fresh `app()` on each worker (as `HttpServer::new`
/// does). Its sockets set `TCP_NODELAY`: without it a compressed answer, whose body is written
/// after its head, waits for the client's delayed ACK of the head (Nagle's algorithm), ~40 ms
/// on a kept-alive connection.
pub fn server<F, I, S, B>(bind: std::net::SocketAddr, app: F) -> io::Result<actix_server::Server>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: IntoServiceFactory<S, Request>,
    S: ServiceFactory<Request, Config = AppConfig> + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: fmt::Debug,
    S::Response: Into<Response<B>> + 'static,
    S::Service: 'static,
    B: MessageBody + 'static,
{
    // The binary stops the server itself on SIGTERM and SIGINT (`crate::serve::stop`), after
    // ending the event streams, which would otherwise hold the graceful stop to its timeout.
    let builder = actix_server::Server::build()
        .disable_signals()
        .shutdown_timeout(GRACE.as_secs());
    let shutdown = builder.graceful_shutdown_signal();
    let server = builder.bind("moot", bind, move || {
        let shutdown = shutdown.clone();
        let http = HttpService::build()
            .graceful_shutdown_signal(move || {
                let shutdown = shutdown.clone();
                async move { shutdown.notified().await }
            })
            // Set deliberately (actix's defaults): a request head must arrive within 5 s (else
            // 408); the body's deadline is the extractor's (`crate::limits::BODY_DEADLINE`).
            .client_request_timeout(HEAD_DEADLINE)
            .client_disconnect_timeout(std::time::Duration::from_secs(1))
            // A client that closes its side is gone: the connection is closed at once, and an
            // answer still being written (an event stream) is dropped with it, freeing its
            // place, rather than at its next write. HTTP clients do not half-close and wait.
            .h1_allow_half_closed(false)
            .on_connect_ext(|socket: &Socket, data| {
                data.insert(socket.connection().clone());
            })
            .expect(refuse_announced_overflow({
                let app = app.clone();
                move || application(app())
            }))
            .finish(application(app()));
        fn_service(|stream: TcpStream| async move {
            stream.set_nodelay(true)?;
            let peer = stream.peer_addr().ok();
            Ok::<_, DispatchError>((Socket::new(stream), Protocol::Http1, peer))
        })
        .and_then(http)
    })?;
    Ok(server.run())
}

/// The application as the HTTP layer calls it. A request without a `Host` (HTTP/1.0) takes the
/// host of actix's default configuration; absolute links never start with a client's text
/// (`crate::client::origin_of`). After each answer the connection learns whether a large body
/// was left unread ([`Connection::request_answered`]).
fn application<I, S, B>(
    app: I,
) -> impl ServiceFactory<
    Request,
    Config = (),
    Response = Response<B>,
    Error = Response<BoxBody>,
    InitError = S::InitError,
> + 'static
where
    I: IntoServiceFactory<S, Request>,
    S: ServiceFactory<Request, Config = AppConfig> + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: fmt::Debug,
    S::Response: Into<Response<B>> + 'static,
    S::Service: 'static,
    B: MessageBody + 'static,
{
    let app = map_config(app.into_factory(), |()| AppConfig::default())
        .map(Into::into)
        .map_err(|error| Response::from(error.into()));
    apply_fn_factory(app, |request: Request, service: &_| {
        // Only a large body can stop the reading: any other request goes straight through.
        let declared = declared_length(&request).filter(|length| *length > DRAIN_LIMIT);
        let connection = declared.and(request.conn_data::<Connection>().cloned());
        let Some(connection) = connection else {
            return Either::Left(service.call(request));
        };
        connection.request_started();
        let answer = service.call(request);
        Either::Right(async move {
            let answer = answer.await;
            connection.request_answered(declared);
            answer
        })
    })
}

/// The service actix-http calls for a request with `Expect: 100-continue`: a request whose
/// `Content-Length` is over the body limit is answered by a worker's own copy of the
/// `application`, which refuses it from that header alone; any other request is let through
/// (actix-http then writes `100 Continue`).
fn refuse_announced_overflow<M, A, B>(
    application: M,
) -> impl ServiceFactory<
    Request,
    Config = (),
    Response = Request,
    Error = Response<BoxBody>,
    InitError = (),
>
where
    M: Fn() -> A + 'static,
    A: ServiceFactory<Request, Config = (), Response = Response<B>, Error = Response<BoxBody>>
        + 'static,
    A::InitError: fmt::Debug,
    B: MessageBody + 'static,
{
    fn_factory(move || {
        let factory = application();
        async move {
            let answer = Rc::new(factory.new_service(()).await.map_err(|error| {
                tracing::error!(?error, "the application could not be built");
            })?);
            Ok(fn_service(move |request: Request| {
                let answer = answer.clone();
                async move {
                    if !announces_overflow(&request) {
                        return Ok(request);
                    }
                    Err(match answer.call(request).await {
                        Ok(response) => response.map_into_boxed_body(),
                        Err(response) => response,
                    })
                }
            }))
        }
    })
}

/// Whether the request's `Content-Length` says its body is over the limit.
fn announces_overflow(request: &Request) -> bool {
    declared_length(request).is_some_and(|length| length > BODY_LIMIT as u64)
}

/// The body's length as the request's `Content-Length` declares it.
fn declared_length(request: &Request) -> Option<u64> {
    request
        .head()
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.trim().parse::<u64>().ok())
}
