//! A real server on an ephemeral loopback port, for black-box tests over TCP.

#![allow(dead_code)] // each test file uses its own subset

use std::net::SocketAddr;
use std::time::Duration;

use sudoku_service::http::server::{serve, ServeOptions};
use sudoku_service::http::{app, AppState, ServeArgs};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

pub const SEED: &str =
    "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";
pub const SEED_SOLUTION: &str =
    "957214386123689457468357129271563894539841672684972513315726948746198235892435761";
/// The first puzzle of forum_hardest_1106: needs real search, still far inside the budget.
pub const HARD: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

pub struct TestServer {
    pub addr: SocketAddr,
    pub base: String,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        TestServer::with(ServeArgs::default()).await
    }

    pub async fn with(args: ServeArgs) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let state = AppState::new(&args).unwrap();
        let ready = state.ready.clone();
        let router = app(state, &args);
        let options = ServeOptions {
            header_timeout: args.header_timeout(),
            shutdown_delay: args.shutdown_delay(),
            drain_timeout: Duration::from_secs(5),
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(serve(listener, router, ready, options, async {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            base: format!("http://{addr}"),
            stop: Some(stop),
            task: Some(task),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET `path` and return the body, whatever the status.
    pub async fn get_text(&self, path: &str) -> String {
        client()
            .get(self.url(path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// Triggers the graceful shutdown and waits for the server to finish draining.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.unwrap().unwrap();
        }
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// Opens a raw TCP connection and sends `bytes`: for requests no client library sends on
/// purpose (unfinished headers or bodies).
pub async fn send_raw(addr: SocketAddr, bytes: &[u8]) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(bytes).await.unwrap();
    stream
}

/// Rows of a one-line board.
pub fn rows(line: &str) -> Vec<String> {
    line.as_bytes()
        .chunks(9)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect()
}
