//! The Moot server: reads its configuration, sets up logging, serves [`moot::app`].

use std::net::SocketAddr;

use clap::Parser;
use tracing_subscriber::EnvFilter;

/// A referee for Hirþ, The High Kings of Tara and Herfor, over HTTP.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Config {
    /// The address and port to listen on.
    #[arg(long, env = "MOOT_BIND", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let config = Config::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    tracing::info!(bind = %config.bind, "Moot is serving: the home page at /, the API docs at /docs/");
    actix_web::HttpServer::new(moot::app)
        .bind(config.bind)?
        .run()
        .await
}
