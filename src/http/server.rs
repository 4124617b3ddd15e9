//! The connection loop: hyper with a header-read timeout (against slowloris clients), and a
//! graceful shutdown that fails readiness first, stops accepting, then lets in-flight requests
//! finish.

use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpStream};

/// Timing of the connection handling and the shutdown.
#[derive(Debug, Clone, Copy)]
pub struct ServeOptions {
    pub header_timeout: Duration,
    pub shutdown_delay: Duration,
    pub drain_timeout: Duration,
}

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    ready: Arc<AtomicBool>,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(options.header_timeout);
    let graceful = GracefulShutdown::new();
    let server = Acceptor {
        listener: &listener,
        router: &router,
        builder: &builder,
        graceful: &graceful,
    };

    server.accept_until(shutdown).await;
    ready.store(false, Ordering::SeqCst);
    tracing::info!(
        delay_ms = options.shutdown_delay.as_millis() as u64,
        "shutdown: readiness off"
    );
    // Keep accepting while readiness fails, so a balancer that has not noticed yet does not
    // see refused connections.
    server
        .accept_until(tokio::time::sleep(options.shutdown_delay))
        .await;
    drop(listener);
    tracing::info!("shutdown: listener closed, draining in-flight requests");
    tokio::select! {
        () = graceful.shutdown() => tracing::info!("shutdown: drained"),
        () = tokio::time::sleep(options.drain_timeout) => {
            tracing::warn!("shutdown: drain timeout reached, closing remaining connections");
        }
    }
    Ok(())
}

/// What accepting a connection needs.
struct Acceptor<'a> {
    listener: &'a TcpListener,
    router: &'a Router,
    builder: &'a auto::Builder<TokioExecutor>,
    graceful: &'a GracefulShutdown,
}

impl Acceptor<'_> {
    /// Accepts connections, each served on its own task, until `until` resolves.
    async fn accept_until(&self, until: impl Future<Output = ()>) {
        tokio::pin!(until);
        loop {
            tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok((stream, peer)) => self.spawn_connection(stream, peer),
                    Err(err) => {
                        // Usually out of file descriptors: back off instead of spinning.
                        tracing::warn!(error = %err, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
                () = &mut until => return,
            }
        }
    }

    fn spawn_connection(&self, stream: TcpStream, peer: SocketAddr) {
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(self.router.clone());
        let connection = self
            .builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = self.graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(%peer, error = %err, "connection ended with an error");
            }
        });
    }
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %err, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(err) => {
                tracing::error!(error = %err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT received"),
        () = terminate => tracing::info!("SIGTERM received"),
    }
}
