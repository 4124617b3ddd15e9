//! The binary as operators run it: SIGTERM flips readiness first, lets the request in flight
//! finish, and exits 0.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const SEED: &str =
    "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";

/// One HTTP/1.1 request on a fresh connection; the whole raw answer.
fn http(port: u16, request: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[cfg(unix)]
#[test]
fn sigterm_drains_in_flight_requests_and_exits_zero() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-service"))
        .args([
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--shutdown-delay-ms",
            "1500",
        ])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("listening on 127.0.0.1:").nth(1) {
                let port: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let _ = tx.send(port.parse::<u16>().unwrap());
            }
        }
    });
    let port = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("server announces its port");

    // A request whose body is only half sent: in flight when the signal arrives.
    let body = format!("{{\"board\": \"{SEED}\"}}");
    let mut in_flight = TcpStream::connect(("127.0.0.1", port)).unwrap();
    in_flight
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        in_flight,
        "POST /solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        body.len(),
        &body[..12]
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(http(
        port,
        "GET /readyz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    )
    .starts_with("HTTP/1.1 200"));

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    std::thread::sleep(Duration::from_millis(300));
    let readiness = http(
        port,
        "GET /readyz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
    );
    assert!(readiness.starts_with("HTTP/1.1 503"), "{readiness}");
    assert!(readiness.contains("shutting-down"));

    in_flight.write_all(&body.as_bytes()[12..]).unwrap();
    let mut answer = String::new();
    in_flight.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("957214386"));

    let exit = child.wait().unwrap();
    assert_eq!(exit.code(), Some(0));
}
