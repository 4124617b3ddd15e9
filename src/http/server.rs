//! The connection loop: HTTP/1.1 with hyper, each connection watched so that no client can
//! hold the server's descriptors, memory or shutdown hostage, and a graceful shutdown that
//! fails readiness first, stops accepting, then lets in-flight requests finish.
//!
//! Written here rather than taken from hyper-util's `auto` builder and `GracefulShutdown`
//! because those cannot do what a public-facing service needs:
//! * **an idle timeout that starts at accept** (hyper's header timeout starts at the first
//!   byte, so a connection that sends nothing would stay open forever) and between keep-alive
//!   requests;
//! * **a send timeout**: a response whose reader stopped reading is abandoned after
//!   `send_timeout`, so unread answers cannot pile up in memory;
//! * **a lingering close**: when an answer went out before the request body was read (a 413,
//!   say), the body is read and discarded for a bounded time before the socket closes, so the
//!   client gets to read the answer instead of a connection reset;
//! * **a connection cap with a reserve**: past `max_connections`, up to `reserve_connections`
//!   more are accepted as *reserve* connections, which the middleware serves only for
//!   `/healthz`, `/readyz` and `/metrics` (a 503 for the rest): a flood of idle clients never
//!   stops the probes a balancer relies on, and the descriptors in use stay below the limit
//!   (so `accept` keeps working). Beyond the reserve a connection is closed at once.
//!
//! HTTP/2 over cleartext (h2c) is off by default: balancers (nginx, Kubernetes ingresses)
//! speak HTTP/1.1 to upstreams, and h2c would open one connection to many concurrent streams
//! and rapid resets for no client's benefit. `--http2` turns it on, with a stream cap and
//! keep-alive pings; the idle and send timeouts apply to it as well.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::response::Response;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// Timing and limits of the connection handling and the shutdown.
#[derive(Debug, Clone, Copy)]
pub struct ServeOptions {
    /// Time for a client to send a request's headers once it started them.
    pub header_timeout: Duration,
    /// Time a connection may stay open without a byte read and without a request in flight:
    /// from accept, and between keep-alive requests.
    pub idle_timeout: Duration,
    /// Time a response may wait for its reader: a write blocked longer ends the connection.
    pub send_timeout: Duration,
    /// Connections served in full at once.
    pub max_connections: usize,
    /// Connections accepted beyond `max_connections`, for the health and metrics probes only.
    pub reserve_connections: usize,
    /// Serve HTTP/2 over cleartext too (prior knowledge), not only HTTP/1.1.
    pub http2: bool,
    pub shutdown_delay: Duration,
    pub drain_timeout: Duration,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            header_timeout: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(5),
            send_timeout: Duration::from_secs(10),
            max_connections: 1_000,
            reserve_connections: 32,
            http2: false,
            shutdown_delay: Duration::ZERO,
            drain_timeout: Duration::from_secs(30),
        }
    }
}

/// Longest a lingering close reads and discards what a client still sends.
const LINGER: Duration = Duration::from_secs(2);
/// Most a lingering close reads before it gives up on a client: more than any body a client
/// is likely to push before it reads an early 413 (a 20 MB upload, say), and still only a
/// few tens of milliseconds of reading.
const LINGER_BYTES: usize = 64 << 20;
/// Idle and send timeouts of a reserve connection: a probe sends at once and reads at once.
const RESERVE_TIMEOUT: Duration = Duration::from_secs(1);

/// What the middleware learns about the connection a request came on (a request extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connection {
    pub peer: SocketAddr,
    /// Accepted beyond `max_connections`: only the operator probes are served.
    pub reserve: bool,
}

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    ready: Arc<std::sync::atomic::AtomicBool>,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let (draining, drain_signal) = watch::channel(false);
    let server = Acceptor {
        listener: &listener,
        router: &router,
        options,
        open: Arc::new(Open::default()),
        drain_signal,
    };

    let open = Arc::clone(&server.open);
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
    drop(server);
    drop(listener);
    tracing::info!("shutdown: listener closed, draining in-flight requests");
    let _ = draining.send(true);
    tokio::select! {
        () = open.all_closed() => tracing::info!("shutdown: drained"),
        () = tokio::time::sleep(options.drain_timeout) => {
            tracing::warn!("shutdown: drain timeout reached, closing remaining connections");
        }
    }
    Ok(())
}

/// Connections open now, full and reserve, and a way to wait for none.
#[derive(Debug, Default)]
struct Open {
    full: AtomicUsize,
    reserve: AtomicUsize,
    closed: tokio::sync::Notify,
}

impl Open {
    async fn all_closed(&self) {
        loop {
            let notified = self.closed.notified();
            if self.full.load(Ordering::SeqCst) + self.reserve.load(Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// Holds one place among the open connections; gives it back when dropped.
struct Place {
    open: Arc<Open>,
    reserve: bool,
}

impl Drop for Place {
    fn drop(&mut self) {
        let count = if self.reserve {
            &self.open.reserve
        } else {
            &self.open.full
        };
        count.fetch_sub(1, Ordering::SeqCst);
        self.open.closed.notify_waiters();
    }
}

/// What accepting a connection needs.
struct Acceptor<'a> {
    listener: &'a TcpListener,
    router: &'a Router,
    options: ServeOptions,
    open: Arc<Open>,
    drain_signal: watch::Receiver<bool>,
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
                        // Out of descriptors despite the cap (another part of the process, or
                        // a limit lowered under us): back off instead of spinning.
                        tracing::warn!(error = %err, "accept failed");
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                },
                () = &mut until => return,
            }
        }
    }

    /// Takes a full place, else a reserve place, else `None` (the connection is refused).
    fn take_place(&self) -> Option<Place> {
        let take = |count: &AtomicUsize, max: usize| {
            count
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n < max).then_some(n + 1)
                })
                .is_ok()
        };
        if take(&self.open.full, self.options.max_connections) {
            Some(Place {
                open: Arc::clone(&self.open),
                reserve: false,
            })
        } else if take(&self.open.reserve, self.options.reserve_connections) {
            Some(Place {
                open: Arc::clone(&self.open),
                reserve: true,
            })
        } else {
            None
        }
    }

    fn spawn_connection(&self, stream: TcpStream, peer: SocketAddr) {
        let Some(place) = self.take_place() else {
            // Dropping the stream closes it: the descriptor is free again at once.
            tracing::debug!(%peer, "connection refused: every place is taken");
            return;
        };
        let _ = stream.set_nodelay(true);
        let connection = Connection {
            peer,
            reserve: place.reserve,
        };
        let router = self.router.clone();
        let options = self.options;
        let drain = self.drain_signal.clone();
        tokio::spawn(async move {
            if let Err(err) = serve_connection(stream, connection, router, options, drain).await {
                tracing::debug!(%peer, error = %err, "connection ended with an error");
            }
            drop(place);
        });
    }
}

/// What the watchdog of one connection sees of it.
#[derive(Debug, Default)]
struct Activity {
    /// Bytes read so far.
    read: AtomicU64,
    /// Bytes written so far.
    written: AtomicU64,
    /// A write is waiting for the peer to read.
    write_blocked: AtomicBool,
    /// Requests whose answer is not fully sent yet.
    requests: AtomicUsize,
}

/// The TCP stream, counting what moves through it for the watchdog.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
    /// A problem+json answer being sent in place of one of hyper's own (see
    /// [`unparsed_status`]), and how much of it is out.
    replacing: Option<(Vec<u8>, usize)>,
}

/// The status of one of hyper's own error answers (to a request it could not parse), when
/// `head` is one: a 4xx with no body that closes the connection and, unlike every answer of
/// the service, no content type.
fn unparsed_status(head: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(head.get(..head.len().min(512))?).ok()?;
    let status: u16 = text.strip_prefix("HTTP/1.1 4")?.get(..2)?.parse().ok()?;
    let own = text.contains("\r\nconnection: close\r\ncontent-length: 0\r\n")
        && !text.contains("content-type:");
    own.then_some(400 + status)
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        let read = (buf.filled().len() - before) as u64;
        if read > 0 {
            self.activity.read.fetch_add(read, Ordering::Relaxed);
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        if let Some(replaced) = self.as_mut().replace_unparsed(cx, data) {
            return replaced;
        }
        let polled = Pin::new(&mut self.stream).poll_write(cx, data);
        self.note_write(&polled);
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if let Some(first) = bufs.first() {
            if let Some(replaced) = self.as_mut().replace_unparsed(cx, first) {
                return replaced;
            }
        }
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.note_write(&polled);
        polled
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

impl Watched {
    fn new(stream: TcpStream, activity: Arc<Activity>) -> Watched {
        Watched {
            stream,
            activity,
            replacing: None,
        }
    }

    /// When `data` is one of hyper's own bodiless error answers (or one is being replaced),
    /// sends the service's problem+json answer instead and reports `data` written once it
    /// is out; `None` for every other write.
    fn replace_unparsed(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Option<Poll<io::Result<usize>>> {
        if self.replacing.is_none() {
            let answer = unparsed_status(data).and_then(super::problem::answer_for_unparsed)?;
            self.replacing = Some((answer, 0));
        }
        let this = &mut *self;
        let (answer, sent) = this.replacing.as_mut()?;
        while *sent < answer.len() {
            let polled = Pin::new(&mut this.stream).poll_write(cx, &answer[*sent..]);
            match polled {
                Poll::Ready(Ok(n)) if n > 0 => *sent += n,
                Poll::Ready(Ok(_)) => {
                    return Some(Poll::Ready(Err(io::ErrorKind::WriteZero.into())));
                }
                Poll::Ready(Err(error)) => return Some(Poll::Ready(Err(error))),
                Poll::Pending => {
                    this.activity.write_blocked.store(true, Ordering::Relaxed);
                    return Some(Poll::Pending);
                }
            }
        }
        this.activity.write_blocked.store(false, Ordering::Relaxed);
        this.activity
            .written
            .fetch_add(answer.len() as u64, Ordering::Relaxed);
        // hyper closes the connection after such an answer: nothing else is replaced.
        this.replacing = None;
        Some(Poll::Ready(Ok(data.len())))
    }

    fn note_write(&self, polled: &Poll<io::Result<usize>>) {
        match polled {
            Poll::Pending => self.activity.write_blocked.store(true, Ordering::Relaxed),
            Poll::Ready(result) => {
                self.activity.write_blocked.store(false, Ordering::Relaxed);
                if let Ok(n) = result {
                    self.activity
                        .written
                        .fetch_add(*n as u64, Ordering::Relaxed);
                }
            }
        }
    }
}

/// A response body that counts its request as in flight until it is sent or dropped.
struct Tracked {
    body: Body,
    _in_flight: InFlight,
}

struct InFlight(Arc<Activity>);

impl InFlight {
    fn start(activity: &Arc<Activity>) -> InFlight {
        activity.requests.fetch_add(1, Ordering::Relaxed);
        InFlight(Arc::clone(activity))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.requests.fetch_sub(1, Ordering::Relaxed);
    }
}

impl http_body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// Serves one connection under its watchdog, then closes it (lingering when it must).
async fn serve_connection(
    stream: TcpStream,
    connection: Connection,
    router: Router,
    options: ServeOptions,
    mut drain: watch::Receiver<bool>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let activity = Arc::new(Activity::default());
    let io = TokioIo::new(Watched::new(stream, Arc::clone(&activity)));
    let service = {
        let activity = Arc::clone(&activity);
        hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let in_flight = InFlight::start(&activity);
            request.extensions_mut().insert(connection);
            let router = router.clone();
            // Boxed so that the connection future is `Unpin`, which polling it without the
            // final shutdown (for the lingering close) requires.
            Box::pin(async move {
                let response: Response = router.oneshot(request.map(Body::new)).await?;
                Ok::<_, std::convert::Infallible>(response.map(|body| {
                    Body::new(Tracked {
                        body,
                        _in_flight: in_flight,
                    })
                }))
            })
        })
    };
    let (idle, send) = if connection.reserve {
        (RESERVE_TIMEOUT, RESERVE_TIMEOUT)
    } else {
        (options.idle_timeout, options.send_timeout)
    };
    let watchdog = Watchdog::new(activity, idle, send);
    if options.http2 {
        let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(options.header_timeout)
            .max_headers(MAX_HEADERS)
            .keep_alive(!connection.reserve);
        builder
            .http2()
            .timer(TokioTimer::new())
            .max_concurrent_streams(32)
            .keep_alive_interval(Some(options.idle_timeout))
            .keep_alive_timeout(options.idle_timeout);
        let conn = builder.serve_connection(io, service);
        tokio::pin!(conn);
        return drive(conn, watchdog, &mut drain).await.map(|_| ());
    }
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(options.header_timeout)
        .max_headers(MAX_HEADERS)
        .keep_alive(!connection.reserve);
    let mut conn = Http1(Some(builder.serve_connection(io, service)));
    match drive(Pin::new(&mut conn), watchdog, &mut drain).await? {
        Ended::Done => {
            if let Some(finished) = conn.0.take() {
                linger(finished.into_parts().io.into_inner().stream).await;
            }
        }
        Ended::Dropped => {}
    }
    Ok(())
}

/// A connection the watchdog can drive: polled to its end, asked to finish gracefully.
trait Watchable: Future<Output = Result<(), BoxError>> {
    /// Finish the request in flight, then end (no more keep-alive).
    fn graceful(self: Pin<&mut Self>);
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// An HTTP/1.1 connection polled without its final shutdown, so that the socket can be
/// taken back for a lingering close. `None` once taken.
struct Http1<C>(Option<C>);

impl<I, S, B> Future for Http1<hyper::server::conn::http1::Connection<I, S>>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin,
    S: hyper::service::HttpService<Incoming, ResBody = B> + Unpin,
    S::Future: Unpin,
    S::Error: Into<BoxError>,
    B: http_body::Body + 'static,
    B::Error: Into<BoxError>,
{
    type Output = Result<(), BoxError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.0.as_mut() {
            Some(conn) => conn.poll_without_shutdown(cx).map_err(Into::into),
            None => Poll::Ready(Ok(())),
        }
    }
}

impl<I, S, B> Watchable for Http1<hyper::server::conn::http1::Connection<I, S>>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin,
    S: hyper::service::HttpService<Incoming, ResBody = B> + Unpin,
    S::Future: Unpin,
    S::Error: Into<BoxError>,
    B: http_body::Body + 'static,
    B::Error: Into<BoxError>,
{
    fn graceful(mut self: Pin<&mut Self>) {
        if let Some(conn) = self.0.as_mut() {
            Pin::new(conn).graceful_shutdown();
        }
    }
}

/// A connection of hyper-util's `auto` builder (HTTP/1.1 or HTTP/2), which shuts itself down.
impl<I, S, B> Watchable for hyper_util::server::conn::auto::Connection<'_, I, S, TokioExecutor>
where
    S: hyper::service::Service<hyper::Request<Incoming>, Response = hyper::Response<B>>,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
    TokioExecutor: hyper::rt::bounds::Http2ServerConnExec<S::Future, B>,
{
    fn graceful(self: Pin<&mut Self>) {
        self.graceful_shutdown();
    }
}
/// How many headers hyper parses, above the service's own limit (checked in the middleware,
/// with a problem+json answer): beyond this hyper answers 431 itself, without a body.
pub const MAX_HEADERS: usize = 256;

/// How a watched connection ended.
enum Ended {
    /// The protocol finished (the client closed, or keep-alive ended): close politely.
    Done,
    /// The watchdog gave up on it (idle, or a reader that stopped): drop it at once.
    Dropped,
}

/// Looks at a connection's activity every tick: idle too long with nothing in flight, or a
/// write blocked too long, ends it.
struct Watchdog {
    activity: Arc<Activity>,
    tick: tokio::time::Interval,
    idle_ticks: u32,
    send_ticks: u32,
    last_read: u64,
    last_written: u64,
    idle_for: u32,
    blocked_for: u32,
}

impl Watchdog {
    fn new(activity: Arc<Activity>, idle: Duration, send: Duration) -> Watchdog {
        // A quarter of the shorter timeout, within 50 ms to 1 s: coarse enough to cost
        // nothing, fine enough that a timeout is kept to within a quarter.
        let period = (idle.min(send) / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
        let ticks = |d: Duration| (d.as_millis() / period.as_millis()).max(1) as u32;
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Watchdog {
            activity,
            tick,
            idle_ticks: ticks(idle),
            send_ticks: ticks(send),
            last_read: 0,
            last_written: 0,
            idle_for: 0,
            blocked_for: 0,
        }
    }

    /// Waits for the next tick; true when the connection should be dropped.
    async fn expired(&mut self) -> bool {
        self.tick.tick().await;
        let read = self.activity.read.load(Ordering::Relaxed);
        let written = self.activity.written.load(Ordering::Relaxed);
        let busy = self.activity.requests.load(Ordering::Relaxed) > 0;
        if read != self.last_read || busy {
            self.idle_for = 0;
        } else {
            self.idle_for += 1;
        }
        if self.activity.write_blocked.load(Ordering::Relaxed) && written == self.last_written {
            self.blocked_for += 1;
        } else {
            self.blocked_for = 0;
        }
        self.last_read = read;
        self.last_written = written;
        self.idle_for >= self.idle_ticks || self.blocked_for >= self.send_ticks
    }
}

/// Polls `connection` to its end under `watchdog`; a drain signal asks it to finish its
/// request in flight and close.
async fn drive<C: Watchable>(
    mut connection: Pin<&mut C>,
    mut watchdog: Watchdog,
    drain: &mut watch::Receiver<bool>,
) -> Result<Ended, BoxError> {
    let mut draining = *drain.borrow();
    if draining {
        connection.as_mut().graceful();
    }
    loop {
        tokio::select! {
            ended = connection.as_mut() => return ended.map(|()| Ended::Done),
            expired = watchdog.expired() => if expired {
                return Ok(Ended::Dropped);
            },
            changed = drain.changed(), if !draining => {
                draining = true;
                if changed.is_ok() {
                    connection.as_mut().graceful();
                }
            }
        }
    }
}

/// Closes a connection whose client may still be sending (a body answered before it was
/// read): stop writing, then read and discard what arrives until the client closes, stays
/// quiet for a moment, or the bounds are reached. Without this the kernel answers the unread
/// bytes with a reset, and the client may lose the answer it has not read yet.
async fn linger(mut stream: TcpStream) {
    if stream.shutdown().await.is_err() {
        return;
    }
    let mut buffer = [0u8; 16 * 1024];
    let mut discarded = 0usize;
    let deadline = tokio::time::Instant::now() + LINGER;
    while discarded < LINGER_BYTES {
        let quiet = tokio::time::Instant::now() + Duration::from_millis(200);
        match tokio::time::timeout_at(quiet.min(deadline), stream.read(&mut buffer)).await {
            Ok(Ok(n)) if n > 0 => discarded += n,
            _ => return,
        }
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
