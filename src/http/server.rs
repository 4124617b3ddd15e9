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

use std::cell::RefCell;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use axum::response::Response;
use futures_util::future::Either;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::util::Oneshot;
use tower::{Service, ServiceExt};

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

/// What [`serve`] serves: the service's router with its middleware ([`super::app`]), or any
/// router (the tests', the benchmark's baseline).
pub trait HttpService:
    Service<Request<Body>, Response = Response, Error = Infallible, Future: Send>
    + Clone
    + Send
    + Unpin
    + 'static
{
}

impl<S> HttpService for S where
    S: Service<Request<Body>, Response = Response, Error = Infallible, Future: Send>
        + Clone
        + Send
        + Unpin
        + 'static
{
}

/// Serves `service` on `listener` until `shutdown` resolves, then drains.
pub async fn serve<S: HttpService>(
    listener: TcpListener,
    service: S,
    ready: Arc<std::sync::atomic::AtomicBool>,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let (draining, drain_signal) = watch::channel(false);
    let server = Acceptor {
        listener: &listener,
        service: &service,
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
struct Acceptor<'a, S> {
    listener: &'a TcpListener,
    service: &'a S,
    options: ServeOptions,
    open: Arc<Open>,
    drain_signal: watch::Receiver<bool>,
}

impl<S: HttpService> Acceptor<'_, S> {
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
        let service = self.service.clone();
        let options = self.options;
        let drain = self.drain_signal.clone();
        tokio::spawn(async move {
            if let Err(err) = serve_connection(stream, connection, service, options, drain).await {
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
async fn serve_connection<S: HttpService>(
    stream: TcpStream,
    connection: Connection,
    service: S,
    options: ServeOptions,
    mut drain: watch::Receiver<bool>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let activity = Arc::new(Activity::default());
    let io = TokioIo::new(Watched::new(stream, Arc::clone(&activity)));
    let service = {
        let activity = Arc::clone(&activity);
        // The connection's own copy, called in place: hyper's services are called through
        // `&self`, and cloning the whole stack per request bumped reference counts that
        // every connection shares (cache lines both cores fight over under load).
        let service = RefCell::new(service);
        hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let in_flight = InFlight::start(&activity);
            request.extensions_mut().insert(connection);
            let answer = call_now(&mut *service.borrow_mut(), request.map(Body::new));
            // Boxed so that the connection future is `Unpin`, which polling it without the
            // final shutdown (for the lingering close) requires.
            Box::pin(async move {
                let response: Response = answer.await?;
                Ok::<_, Infallible>(response.map(|body| {
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

/// Calls `service` for `request` now when it is ready (the service's stack always is), else a
/// clone of it once the clone is ready, as tower's contract asks.
fn call_now<S: HttpService>(
    service: &mut S,
    request: Request<Body>,
) -> Either<S::Future, Oneshot<S, Request<Body>>> {
    let mut context = Context::from_waker(Waker::noop());
    match service.poll_ready(&mut context) {
        Poll::Ready(Ok(())) => Either::Left(service.call(request)),
        Poll::Ready(Err(never)) => match never {},
        Poll::Pending => Either::Right(service.clone().oneshot(request)),
    }
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
/// How many headers hyper parses in an HTTP/1 request head: beyond this it answers 431
/// itself, which the connection rewrites into a `headers-too-large` problem
/// ([`Watched::replace_unparsed`]). The service's own limit (checked in the middleware, and
/// the only one for HTTP/2) is the same count.
///
/// hyper's own default, deliberately not set: with any count set, hyper allocates and fills
/// two arrays of that many entries for every request head it parses (3,400 of the 64,600
/// instructions of a classic `/solve`, BENCHMARKS.md), where its default uses arrays on the
/// stack that it never fills. A test sends exactly this many and one more.
pub const MAX_HEADERS: usize = 100;

const _: () = assert!(super::guard::MAX_REQUEST_HEADERS == MAX_HEADERS);

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

#[cfg(test)]
mod tests {
    //! The connection loop on a loopback port with a small router of its own (no middleware):
    //! places and the reserve, keep-alive, the watchdog's idle and send timeouts, the drain
    //! and the lingering close. Waits are on conditions with a deadline ([`PATIENCE`]); the
    //! two fixed windows below only ever make a correct server look better.

    use super::*;
    use axum::Router;

    #[test]
    fn hyper_s_own_error_answers_are_told_from_the_service_s() {
        let date = "date: Wed, 02 Dec 2026 01:43:57 GMT\r\n\r\n";
        for (status, reason) in [(400, "Bad Request"), (414, "URI Too Long"), (431, "x")] {
            let head = format!(
                "HTTP/1.1 {status} {reason}\r\nconnection: close\r\ncontent-length: 0\r\n{date}"
            );
            assert_eq!(unparsed_status(head.as_bytes()), Some(status));
        }
        // The service's own answers carry a content type, even when empty.
        let ours = format!(
            "HTTP/1.1 414 URI Too Long\r\ncontent-type: application/problem+json\r\n\
             connection: close\r\ncontent-length: 0\r\n{date}"
        );
        assert_eq!(unparsed_status(ours.as_bytes()), None);
        assert_eq!(unparsed_status(b"HTTP/1.1 200 OK\r\n\r\n"), None);
        assert_eq!(unparsed_status(b"{\"id\": 1}"), None);
    }
    use axum::routing::get;
    use axum::Extension;
    use tokio::sync::{oneshot, Mutex as AsyncMutex};

    const PATIENCE: Duration = Duration::from_secs(20);

    struct Running {
        addr: SocketAddr,
        stop: Option<oneshot::Sender<()>>,
        task: tokio::task::JoinHandle<io::Result<()>>,
        ready: Arc<AtomicBool>,
    }

    impl Running {
        async fn start(router: Router, options: ServeOptions) -> Running {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let ready = Arc::new(AtomicBool::new(true));
            let (stop, stopped) = oneshot::channel::<()>();
            let task = tokio::spawn(serve(listener, router, ready.clone(), options, async {
                let _ = stopped.await;
            }));
            Running {
                addr,
                stop: Some(stop),
                task,
                ready,
            }
        }

        fn begin_shutdown(&mut self) {
            let _ = self.stop.take().unwrap().send(());
        }

        async fn finished(&mut self) {
            tokio::time::timeout(PATIENCE, &mut self.task)
                .await
                .expect("the server finishes draining")
                .unwrap()
                .unwrap();
        }
    }

    fn options() -> ServeOptions {
        ServeOptions {
            header_timeout: Duration::from_secs(3600),
            idle_timeout: Duration::from_secs(3600),
            send_timeout: Duration::from_secs(3600),
            drain_timeout: Duration::from_secs(3600),
            ..ServeOptions::default()
        }
    }

    /// Requests that `/slow` holds until they are let go, in arrival order.
    type Held = Arc<AsyncMutex<Vec<oneshot::Sender<()>>>>;

    /// `/who` tells the connection kind; `/slow` answers once let go; `/endless` streams
    /// forever and says when its body is dropped.
    fn router(held: Held, dropped: Arc<tokio::sync::Notify>) -> Router {
        Router::new()
            .route(
                "/who",
                get(|Extension(c): Extension<Connection>| async move {
                    format!("reserve={}", c.reserve)
                }),
            )
            .route(
                "/slow",
                get(move || async move {
                    let (go, wait) = oneshot::channel();
                    held.lock().await.push(go);
                    let _ = wait.await;
                    "done"
                }),
            )
            .route(
                "/endless",
                get(move || async move {
                    struct Said(Arc<tokio::sync::Notify>);
                    impl Drop for Said {
                        fn drop(&mut self) {
                            self.0.notify_one();
                        }
                    }
                    let said = Said(dropped);
                    let chunk = axum::body::Bytes::from(vec![b'x'; 64 * 1024]);
                    let stream = futures_util::stream::repeat_with(move || {
                        let _ = &said;
                        Ok::<_, std::convert::Infallible>(chunk.clone())
                    });
                    Body::from_stream(stream)
                }),
            )
    }

    fn plain() -> Router {
        router(Held::default(), Arc::default())
    }

    /// Sends `GET path` on `stream` and reads one whole answer (headers and body).
    async fn get_on(stream: &mut TcpStream, path: &str) -> String {
        try_get(stream, path).await.expect("an answer")
    }

    /// [`get_on`], or `None` when the connection closes (or stays silent) before the answer.
    async fn try_get(stream: &mut TcpStream, path: &str) -> Option<String> {
        let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
        stream.write_all(request.as_bytes()).await.ok()?;
        read_answer(stream).await
    }

    /// One whole answer (headers and a body of its content-length), or `None` when the
    /// connection closes or [`PATIENCE`] passes first.
    async fn read_answer(stream: &mut TcpStream) -> Option<String> {
        let mut answer = Vec::new();
        let mut buffer = [0u8; 4096];
        tokio::time::timeout(PATIENCE, async {
            loop {
                let text = String::from_utf8_lossy(&answer).to_string();
                if let Some((head, body)) = text.split_once("\r\n\r\n") {
                    let length: usize = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length: ")
                                .map(str::to_owned)
                        })
                        .expect("a content-length")
                        .trim()
                        .parse()
                        .unwrap();
                    if body.len() >= length {
                        return Some(text);
                    }
                }
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => return None,
                    Ok(n) => answer.extend_from_slice(&buffer[..n]),
                }
            }
        })
        .await
        .ok()
        .flatten()
    }

    /// Reads until the server closes the connection; `None` if it is still open at the end
    /// of [`PATIENCE`].
    async fn closed(stream: &mut TcpStream) -> Option<Vec<u8>> {
        let mut all = Vec::new();
        let mut buffer = [0u8; 8192];
        tokio::time::timeout(PATIENCE, async {
            loop {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => all.extend_from_slice(&buffer[..n]),
                }
            }
        })
        .await
        .ok()
        .map(|()| all)
    }

    async fn connect(addr: SocketAddr) -> TcpStream {
        TcpStream::connect(addr).await.unwrap()
    }

    /// Waits until `held` holds `count` requests; fails after [`PATIENCE`].
    async fn until_held(held: &Held, count: usize) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while held.lock().await.len() < count {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{count} requests held"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Retries `attempt` on fresh connections until it gives a value; fails after
    /// [`PATIENCE`]. For a place that frees up a moment after its connection closed.
    async fn on_a_fresh_connection<T>(
        addr: SocketAddr,
        what: &str,
        mut attempt: impl AsyncFnMut(&mut TcpStream) -> Option<T>,
    ) -> (TcpStream, T) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let mut stream = connect(addr).await;
            if let Some(value) = attempt(&mut stream).await {
                return (stream, value);
            }
            assert!(tokio::time::Instant::now() < deadline, "never: {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    async fn places_reserve_and_keep_alive(http2: bool) {
        let held = Held::default();
        let mut server = Running::start(
            router(held.clone(), Arc::default()),
            ServeOptions {
                max_connections: 1,
                reserve_connections: 1,
                http2,
                ..options()
            },
        )
        .await;
        // The one full place: kept alive, two answers on one connection, with their length.
        let mut full = connect(server.addr).await;
        let answer = get_on(&mut full, "/who").await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(
            answer
                .to_ascii_lowercase()
                .contains("content-length: 13\r\n"),
            "{answer}"
        );
        assert!(answer.ends_with("reserve=false"), "{answer}");
        assert!(get_on(&mut full, "/who").await.ends_with("reserve=false"));
        // The reserve place: one answer, then the server closes it.
        let mut reserve = connect(server.addr).await;
        assert!(get_on(&mut reserve, "/who").await.ends_with("reserve=true"));
        assert_eq!(
            closed(&mut reserve).await,
            Some(Vec::new()),
            "no keep-alive on reserve"
        );
        // The reserve place held by a request in flight (once the closed one has given it
        // back): the next connection is closed at once, unanswered.
        let (mut waiting, ()) =
            on_a_fresh_connection(server.addr, "a held reserve request", async |stream| {
                let request = b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n";
                stream.write_all(request).await.ok()?;
                let mut byte = [0u8; 1];
                let refused =
                    tokio::time::timeout(Duration::from_millis(200), stream.read(&mut byte));
                match refused.await {
                    Ok(_) => None, // closed (or answered): the place was not free yet
                    Err(_) => held.lock().await.len().eq(&1).then_some(()),
                }
            })
            .await;
        until_held(&held, 1).await;
        let mut beyond = connect(server.addr).await;
        let _ = beyond
            .write_all(b"GET /who HTTP/1.1\r\nHost: x\r\n\r\n")
            .await;
        assert_eq!(
            closed(&mut beyond).await,
            Some(Vec::new()),
            "refused, unanswered"
        );
        let _ = held.lock().await.pop().unwrap().send(());
        let answer = read_answer(&mut waiting).await.unwrap();
        assert!(answer.ends_with("done"), "{answer}");
        // The full place comes back when its connection closes.
        drop(full);
        on_a_fresh_connection(
            server.addr,
            "the full place is free again",
            async |stream| {
                try_get(stream, "/who")
                    .await
                    .filter(|answer| answer.ends_with("reserve=false"))
            },
        )
        .await;
        server.begin_shutdown();
        server.finished().await;
        assert!(
            !server.ready.load(Ordering::SeqCst),
            "readiness off after shutdown"
        );
    }

    #[tokio::test]
    async fn full_places_then_reserve_places_then_none_and_places_come_back() {
        places_reserve_and_keep_alive(false).await;
    }

    #[tokio::test]
    async fn the_same_places_and_keep_alive_with_http2_on() {
        places_reserve_and_keep_alive(true).await;
    }

    #[tokio::test]
    async fn an_idle_connection_is_closed_and_one_that_sends_slowly_is_not() {
        let server = Running::start(
            plain(),
            ServeOptions {
                idle_timeout: Duration::from_secs(1),
                ..options()
            },
        )
        .await;
        let mut silent = connect(server.addr).await;
        assert_eq!(closed(&mut silent).await, Some(Vec::new()));
        let mut answered = connect(server.addr).await;
        assert!(get_on(&mut answered, "/who")
            .await
            .ends_with("reserve=false"));
        assert_eq!(closed(&mut answered).await, Some(Vec::new()));
        // A header line every 100 ms for well over the idle timeout: bytes keep arriving, so
        // the connection is not idle, and the request is answered.
        let mut slow = connect(server.addr).await;
        slow.write_all(b"GET /who HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        for _ in 0..25 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            slow.write_all(b"X-Slow: 1\r\n").await.unwrap();
        }
        slow.write_all(b"\r\n").await.unwrap();
        let answer = read_answer(&mut slow).await.unwrap();
        assert!(answer.ends_with("reserve=false"), "{answer}");
    }

    #[tokio::test]
    async fn a_reader_that_stops_is_dropped_at_the_send_timeout() {
        let dropped = Arc::new(tokio::sync::Notify::new());
        let server = Running::start(
            router(Held::default(), dropped.clone()),
            ServeOptions {
                send_timeout: Duration::from_millis(300),
                ..options()
            },
        )
        .await;
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let mut stream = socket.connect(server.addr).await.unwrap();
        stream
            .write_all(b"GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        // Nothing read: the server's writes block, and it gives up on the endless answer.
        tokio::time::timeout(PATIENCE, dropped.notified())
            .await
            .expect("the blocked answer is dropped");
    }

    #[tokio::test]
    async fn the_drain_waits_for_requests_in_flight_on_full_and_reserve_connections() {
        let held = Held::default();
        let mut server = Running::start(
            router(held.clone(), Arc::default()),
            ServeOptions {
                max_connections: 1,
                reserve_connections: 1,
                ..options()
            },
        )
        .await;
        let mut streams = Vec::new();
        for expected in 1..=2 {
            let mut stream = connect(server.addr).await;
            stream
                .write_all(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                .await
                .unwrap();
            streams.push(stream);
            until_held(&held, expected).await;
        }
        server.begin_shutdown();
        let addr = server.addr;
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while TcpStream::connect(addr).await.is_ok() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the listener closes"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // Both requests still in flight, then only the reserve one: the drain must go on
        // each time. (Fixed windows, but they can only pass a server that drains: this one
        // waits as long as the test holds a request.)
        let held: Vec<_> = held.lock().await.drain(..).collect();
        let mut answers = Vec::new();
        for (go, mut stream) in held.into_iter().zip(streams) {
            let early = tokio::time::timeout(Duration::from_millis(500), &mut server.task).await;
            assert!(early.is_err(), "the server stopped with requests in flight");
            let _ = go.send(());
            answers.push(String::from_utf8(closed(&mut stream).await.unwrap()).unwrap());
        }
        for answer in answers {
            assert!(
                answer.starts_with("HTTP/1.1 200") && answer.ends_with("done"),
                "{answer}"
            );
        }
        server.finished().await;
    }

    async fn the_drain_closes_idle_keep_alive_connections(http2: bool) {
        let mut server = Running::start(plain(), ServeOptions { http2, ..options() }).await;
        let mut kept = connect(server.addr).await;
        assert!(get_on(&mut kept, "/who").await.ends_with("reserve=false"));
        // Idle, kept alive for an hour: only the drain's graceful close can end it in time.
        server.begin_shutdown();
        server.finished().await;
        assert_eq!(closed(&mut kept).await, Some(Vec::new()));
    }

    #[tokio::test]
    async fn the_drain_closes_an_idle_keep_alive_connection() {
        the_drain_closes_idle_keep_alive_connections(false).await;
    }

    #[tokio::test]
    async fn the_drain_closes_an_idle_keep_alive_connection_with_http2_on() {
        the_drain_closes_idle_keep_alive_connections(true).await;
    }

    /// A watchdog of `idle` and `send` over fresh activity, and that activity.
    fn watchdog(idle_ms: u64, send_ms: u64) -> (Watchdog, Arc<Activity>) {
        let activity = Arc::new(Activity::default());
        let dog = Watchdog::new(
            Arc::clone(&activity),
            Duration::from_millis(idle_ms),
            Duration::from_millis(send_ms),
        );
        (dog, activity)
    }

    /// Ticks until the watchdog expires; how many ticks that took (at most `most`).
    async fn ticks_to_expire(dog: &mut Watchdog, most: u32, each: impl Fn(u32)) -> Option<u32> {
        for tick in 1..=most {
            each(tick);
            if dog.expired().await {
                return Some(tick);
            }
        }
        None
    }

    #[tokio::test]
    async fn the_watchdog_counts_idle_ticks_from_the_last_byte_and_spares_busy_connections() {
        // Idle 200 ms with a 50 ms tick: four quiet ticks.
        let (mut dog, _) = watchdog(200, 400);
        assert_eq!(ticks_to_expire(&mut dog, 20, |_| {}).await, Some(4));
        // A byte read on tick 3 starts the count again.
        let (mut dog, activity) = watchdog(200, 400);
        let bump = |tick| {
            if tick == 3 {
                activity.read.fetch_add(1, Ordering::Relaxed);
            }
        };
        assert_eq!(ticks_to_expire(&mut dog, 20, bump).await, Some(7));
        // A request in flight is never idle; once it is answered, four ticks again.
        let (mut dog, activity) = watchdog(200, 400);
        activity.requests.store(1, Ordering::Relaxed);
        assert_eq!(ticks_to_expire(&mut dog, 12, |_| {}).await, None);
        activity.requests.store(0, Ordering::Relaxed);
        assert_eq!(ticks_to_expire(&mut dog, 20, |_| {}).await, Some(4));
    }

    #[tokio::test]
    async fn the_watchdog_drops_a_write_blocked_without_progress() {
        // Send 200 ms, idle longer, tick 50 ms; a request in flight so idle never counts.
        let (mut dog, activity) = watchdog(1_000, 200);
        activity.requests.store(1, Ordering::Relaxed);
        activity.write_blocked.store(true, Ordering::Relaxed);
        assert_eq!(ticks_to_expire(&mut dog, 20, |_| {}).await, Some(4));
        // Blocked, but each tick some bytes went out: never dropped.
        let (mut dog, activity) = watchdog(1_000, 200);
        activity.requests.store(1, Ordering::Relaxed);
        activity.write_blocked.store(true, Ordering::Relaxed);
        let progress = |_| {
            activity.written.fetch_add(10, Ordering::Relaxed);
        };
        assert_eq!(ticks_to_expire(&mut dog, 12, progress).await, None);
        // Not blocked: never dropped for sending.
        let (mut dog, activity) = watchdog(1_000, 200);
        activity.requests.store(1, Ordering::Relaxed);
        assert_eq!(ticks_to_expire(&mut dog, 12, |_| {}).await, None);
    }

    /// A connected pair on loopback: (the server's side, the client's side).
    async fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = connect(listener.local_addr().unwrap()).await;
        let (server, _) = listener.accept().await.unwrap();
        (server, client)
    }

    #[tokio::test]
    async fn a_lingering_close_reads_what_the_client_still_sends_then_ends_at_its_close() {
        let (server, mut client) = pair().await;
        let lingering = tokio::spawn(linger(server));
        // 4 MB sent after the server stopped writing: all of it read and thrown away (a
        // close with unread bytes would reset the connection and fail these writes).
        let block = vec![b'x'; 64 * 1024];
        for _ in 0..64 {
            client
                .write_all(&block)
                .await
                .expect("no reset while lingering");
        }
        let mut rest = Vec::new();
        let eof = tokio::time::timeout(PATIENCE, client.read_to_end(&mut rest)).await;
        assert!(
            matches!(eof, Ok(Ok(0))),
            "the server's side is shut: {eof:?}"
        );
        drop(client);
        tokio::time::timeout(PATIENCE, lingering)
            .await
            .expect("lingering ends once the client has closed")
            .expect("lingering never panics");
    }

    #[tokio::test]
    async fn a_lingering_close_gives_up_past_its_byte_bound() {
        let (server, mut client) = pair().await;
        let lingering = tokio::spawn(linger(server));
        // Far more than LINGER_BYTES, as fast as loopback goes: the server stops reading
        // and closes, and the client's writes fail.
        let block = vec![b'x'; 256 * 1024];
        let sent = tokio::time::timeout(PATIENCE, async {
            for _ in 0..(4 * LINGER_BYTES / block.len()) {
                client.write_all(&block).await?;
            }
            Ok::<_, io::Error>(())
        })
        .await
        .expect("the writes end");
        assert!(
            sent.is_err(),
            "the client was cut off past {LINGER_BYTES} bytes"
        );
        tokio::time::timeout(PATIENCE, lingering)
            .await
            .unwrap()
            .unwrap();
    }
}
