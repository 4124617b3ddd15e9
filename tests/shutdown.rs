//! The binary as operators run it: SIGTERM flips readiness first, keeps accepting through the
//! shutdown delay, closes the listener, still finishes the request in flight, and exits 0.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::{metric_in, wait_blocking, ServerProcess, SEED, SEED_SOLUTION};

/// One HTTP/1.1 request on a fresh connection; the whole raw answer, or `None` when the
/// connection is refused.
fn http(port: u16, request: &str) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    Some(answer)
}

fn get(port: u16, path: &str) -> Option<String> {
    http(
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"),
    )
}

#[cfg(unix)]
#[test]
fn sigterm_drains_in_flight_requests_after_the_listener_closes_and_exits_zero() {
    let mut server = ServerProcess::start(&["--shutdown-delay-ms", "1000"], &[]);
    let port = server.port;

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
    // The server has it once two requests are in flight: that one and the metrics request.
    wait_blocking("the half-sent request is in flight", || {
        let page = get(port, "/metrics")?;
        (metric_in(&page, "http_requests_in_flight") >= 2.0).then_some(())
    });
    assert!(get(port, "/readyz").unwrap().starts_with("HTTP/1.1 200"));

    server.terminate();
    let readiness = wait_blocking("readiness fails", || {
        get(port, "/readyz").filter(|a| a.starts_with("HTTP/1.1 503"))
    });
    assert!(readiness.contains("shutting-down"), "{readiness}");
    assert!(
        readiness.to_ascii_lowercase().contains("retry-after: 1"),
        "{readiness}"
    );
    // After the shutdown delay the listener closes: new connections are refused...
    wait_blocking("the listener closes", || {
        TcpStream::connect(("127.0.0.1", port)).err()
    });
    // ...while the request accepted before is still answered in full.
    in_flight.write_all(&body.as_bytes()[12..]).unwrap();
    let mut answer = String::new();
    in_flight.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(SEED_SOLUTION), "{answer}");

    let exit = server.wait_exit();
    assert_eq!(exit.code(), Some(0));
    server.wait_for_log("the drain is logged", |line| {
        line.contains("shutdown: drained")
    });
}
