//! `sudoku-service healthcheck`: asks a running server's `/healthz` and exits 0 if it answers
//! 200. It lets a container's HEALTHCHECK work in an image with no shell and no curl.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::ExitCode;
use std::time::Duration;

/// Options of `sudoku-service healthcheck`.
#[derive(Debug, Clone, clap::Args)]
pub struct HealthcheckArgs {
    /// Port of the server to ask (the same variable the server reads).
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// How long to wait for the answer, in milliseconds.
    #[arg(long, default_value_t = 2_000)]
    pub timeout_ms: u64,
}

pub fn run(args: &HealthcheckArgs) -> ExitCode {
    match probe(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            eprintln!("unhealthy: {reason}");
            ExitCode::from(1)
        }
    }
}

fn probe(args: &HealthcheckArgs) -> Result<(), String> {
    let timeout = Duration::from_millis(args.timeout_ms);
    let addr = SocketAddr::from(([127, 0, 0, 1], args.port));
    let mut stream =
        TcpStream::connect_timeout(&addr, timeout).map_err(|e| format!("connect {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .map_err(|e| format!("send: {e}"))?;
    let mut head = [0u8; 12];
    stream
        .read_exact(&mut head)
        .map_err(|e| format!("read: {e}"))?;
    if head.starts_with(b"HTTP/1.1 200") {
        Ok(())
    } else {
        Err(format!("answered {:?}", String::from_utf8_lossy(&head)))
    }
}
