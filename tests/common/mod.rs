//! Shared by the black-box tests: a real server on an ephemeral loopback port (in-process, or
//! the binary as a process), requests, problem checks, metrics, and waiting on conditions.

#![allow(dead_code)] // each test file uses its own subset

pub mod data;
pub mod isomorph;
pub mod pdf;
pub mod small;

use std::future::Future;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::{header, Response};
use serde_json::Value;
use sudoku_service::engine::{validate, Budget, Counted, Engine, Grid, Puzzle, Rules};
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

/// How long any wait for a condition may take before the test fails (generous: CI machines
/// are shared and slow, and a wait returns as soon as its condition holds).
pub const PATIENCE: Duration = Duration::from_secs(20);

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
            drain_timeout: Duration::from_secs(5),
            ..args.serve_options()
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

    /// GET `path` and return the body as JSON, whatever the status.
    pub async fn get_json(&self, path: &str) -> Value {
        let text = self.get_text(path).await;
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"))
    }

    /// The value of an unlabelled metric (a gauge or counter line `name value`).
    pub async fn metric(&self, name: &str) -> f64 {
        metric_in(&self.get_text("/metrics").await, name)
    }

    /// Starts the graceful shutdown (as SIGTERM would) without waiting for it.
    pub fn begin_shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Triggers the graceful shutdown and waits for the server to finish draining.
    pub async fn shutdown(mut self) {
        self.begin_shutdown();
        if let Some(task) = self.task.take() {
            tokio::time::timeout(PATIENCE, task)
                .await
                .expect("the server drains in time")
                .unwrap()
                .unwrap();
        }
    }
}

/// The value of the line `name value` in a Prometheus text page.
pub fn metric_in(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no metric {name} in\n{text}"))
        .trim()
        .parse()
        .unwrap()
}

/// An HTTP client whose timeout is only a backstop against a hang: each test bounds its own
/// waits, and on a loaded machine one expensive request of a debug build can take well over
/// half a minute within its server's limits.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap()
}

/// POSTs `body` as JSON.
pub async fn post(server: &TestServer, path: &str, body: Value) -> Response {
    client()
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// Asserts a 200 and returns the JSON body.
/// The rows of a `/solve` answer's `solution` (rows form).
pub fn solution_rows(body: &Value) -> Vec<String> {
    body["solution"]
        .as_array()
        .unwrap_or_else(|| panic!("no solution: {body}"))
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

/// The digit at row `r`, column `c` (0-based) of rows of digits 1-9.
pub fn digit_at(rows: &[String], r: usize, c: usize) -> u32 {
    rows[r].as_bytes()[c] as u32 - u32::from(b'0')
}

pub async fn ok_json(response: Response) -> Value {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    body
}

/// Asserts an RFC 9457 problem with `status` and `kind`, and returns its body.
pub async fn expect_problem(response: Response, status: u16, kind: &str) -> Value {
    assert_eq!(response.status().as_u16(), status);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "application/problem+json"
    );
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["type"], format!("urn:sudoku-service:problem:{kind}"));
    assert_eq!(body["status"], status);
    assert!(body["title"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(body["detail"].as_str().is_some_and(|d| !d.is_empty()));
    body
}

/// Polls `condition` until it holds; fails the test after [`PATIENCE`].
pub async fn wait_for<F, Fut>(what: &str, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !condition().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting until {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Asserts that `solution` (one line) is a correct full grid that keeps every given of
/// `puzzle`, checked by `validate`, which shares no code with the solver.
pub fn assert_solves(puzzle: &str, solution: &str) {
    let grid = Grid::from_line(solution).unwrap_or_else(|e| panic!("{solution}: {e}"));
    assert!(
        validate(&grid, &Rules::classic(grid.shape())).solved,
        "not a solved grid: {solution}"
    );
    for (given, found) in puzzle.chars().zip(solution.chars()) {
        if given != '.' && given != '0' {
            assert_eq!(given, found, "a given changed: {puzzle} -> {solution}");
        }
    }
}

/// The engine's own count (up to 2) for a one-line board, without limits.
pub fn count(line: &str) -> Counted {
    let puzzle = Puzzle::classic(Grid::from_line(line).unwrap()).unwrap();
    Engine::new()
        .count(&puzzle, 2, &Budget::unlimited())
        .unwrap()
}

/// Runs futures concurrently, each on its own task, and returns their outputs in order.
pub async fn join_all<F>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut outputs = Vec::with_capacity(handles.len());
    for handle in handles {
        outputs.push(handle.await.unwrap());
    }
    outputs
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

/// The binary as operators run it, on a free loopback port; killed when dropped. Its stderr
/// (the logs) is collected line by line.
pub struct ServerProcess {
    child: Child,
    pub port: u16,
    logs: Arc<Mutex<Vec<String>>>,
}

impl ServerProcess {
    /// Starts `sudoku-service serve --host 127.0.0.1 --port 0 ARGS` with `envs` added to the
    /// environment (and RUST_LOG=info unless given), and waits for its "listening" line.
    pub fn start(args: &[&str], envs: &[(&str, &str)]) -> ServerProcess {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-service"));
        command
            .args(["serve", "--host", "127.0.0.1", "--port", "0"])
            .args(args)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (key, value) in envs {
            command.env(key, value);
        }
        let mut child = command.spawn().unwrap();
        let stderr = child.stderr.take().unwrap();
        let logs = Arc::new(Mutex::new(Vec::new()));
        let (port_tx, port_rx) = mpsc::channel();
        let collected = Arc::clone(&logs);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("listening on 127.0.0.1:").nth(1) {
                    let port: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    let _ = port_tx.send(port.parse::<u16>().unwrap());
                }
                collected.lock().unwrap().push(line);
            }
        });
        let port = match port_rx.recv_timeout(PATIENCE) {
            Ok(port) => port,
            Err(_) => {
                let _ = child.kill();
                panic!("the server never announced its port: {:?}", logs.lock());
            }
        };
        ServerProcess { child, port, logs }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Every log line so far.
    pub fn logs(&self) -> Vec<String> {
        self.logs.lock().unwrap().clone()
    }

    /// Waits until a log line satisfies `matches`; fails after [`PATIENCE`].
    pub fn wait_for_log(&self, what: &str, matches: impl Fn(&str) -> bool) -> String {
        wait_blocking(what, || self.logs().into_iter().find(|l| matches(l)))
    }

    /// Sends SIGTERM.
    #[cfg(unix)]
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for the process to exit; fails (and kills it) after [`PATIENCE`], so a stuck
    /// server fails the test instead of hanging CI.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let child = &mut self.child;
        let exit = wait_blocking_opt(PATIENCE, || child.try_wait().unwrap());
        exit.unwrap_or_else(|| {
            let _ = self.child.kill();
            panic!("the server did not exit within {PATIENCE:?}");
        })
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `probe` (on this thread) until it gives a value; fails the test after [`PATIENCE`].
pub fn wait_blocking<T>(what: &str, probe: impl FnMut() -> Option<T>) -> T {
    wait_blocking_opt(PATIENCE, probe).unwrap_or_else(|| panic!("timed out waiting until {what}"))
}

fn wait_blocking_opt<T>(patience: Duration, mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + patience;
    loop {
        if let Some(value) = probe() {
            return Some(value);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
