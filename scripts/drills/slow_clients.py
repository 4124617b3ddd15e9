#!/usr/bin/env python3
"""Slow and broken clients against a local server (loopback only, bounded in time).

Opens, all at once:
  * N slowloris connections that send a header line every second and never finish;
  * N connections that send complete headers and half a body, then stall;
  * N connections that send half a request and close at once.
Then checks what the server did against its configuration:
  * every slowloris connection is closed by the server at the header timeout
    (HEADER_TIMEOUT seconds, within -10% / +1.5 s);
  * every stalled body gets a `503` problem of type `timeout` at the request timeout
    (REQUEST_TIMEOUT seconds, within -10% / +1.5 s).
Prints one line per kind and exits 1 when any connection breaks those rules.

usage: slow_clients.py PORT [N] [SECONDS] [HEADER_TIMEOUT] [REQUEST_TIMEOUT]
"""
import asyncio
import sys
import time

HOST = "127.0.0.1"
LATE = 1.5  # seconds a cut may come after its timeout (2 shared cores, 300 connections)
EARLY = 0.9  # a cut before 90% of its timeout is a bug, not jitter


async def slowloris(port, deadline):
    """Seconds until the server closed the connection, or None if it never did."""
    # The clock starts before the connection does: the server's timer starts at its accept,
    # and with 300 connections opening at once this event loop may resume here well after it.
    start = time.monotonic()
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(b"POST /solve HTTP/1.1\r\nHost: x\r\n")
    try:
        while time.monotonic() < deadline:
            await writer.drain()
            try:
                await asyncio.wait_for(reader.read(1024), timeout=1.0)
                return time.monotonic() - start  # closed (or answered) by the server
            except asyncio.TimeoutError:
                writer.write(b"X-Slow: 1\r\n")
    except (ConnectionError, OSError):
        return time.monotonic() - start
    finally:
        writer.close()
    return None


async def stalled_body(port, deadline):
    """(seconds until the answer, the answer's bytes), or (None, b"") without one."""
    start = time.monotonic()  # before the connection, as in `slowloris`
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(
        b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{\"board\": "
    )
    try:
        await writer.drain()
        data = await asyncio.wait_for(reader.read(4096), timeout=max(0.1, deadline - time.monotonic()))
        elapsed = time.monotonic() - start
        # The rest of a short answer follows at once; wait a moment for it.
        try:
            while b"urn:sudoku-service:problem:" not in data:
                more = await asyncio.wait_for(reader.read(4096), timeout=1.0)
                if not more:
                    break
                data += more
        except asyncio.TimeoutError:
            pass
        return elapsed, data
    except (asyncio.TimeoutError, ConnectionError, OSError):
        return None, b""
    finally:
        writer.close()


async def hang_up(port):
    _, writer = await asyncio.open_connection(HOST, port)
    writer.write(b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{\"bo")
    await writer.drain()
    writer.close()


def in_window(t, limit):
    return t is not None and EARLY * limit <= t <= limit + LATE


async def main():
    port = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 15
    header_timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 5.0
    request_timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 10.0
    deadline = time.monotonic() + seconds
    loris = [asyncio.create_task(slowloris(port, deadline)) for _ in range(n)]
    stalled = [asyncio.create_task(stalled_body(port, deadline)) for _ in range(n)]
    await asyncio.gather(*(hang_up(port) for _ in range(n)))
    loris_times = await asyncio.gather(*loris)
    stalled_results = await asyncio.gather(*stalled)

    closed = [t for t in loris_times if t is not None]
    loris_ok = sum(in_window(t, header_timeout) for t in loris_times)
    print(f"slowloris: {len(closed)}/{n} closed by the server, {loris_ok}/{n} at the header "
          f"timeout ({header_timeout:.1f} s): min {min(closed, default=0):.2f} s, "
          f"max {max(closed, default=0):.2f} s")

    def timed_out(answer):
        return answer.startswith(b"HTTP/1.1 503") and b"urn:sudoku-service:problem:timeout" in answer

    answered = [t for t, _ in stalled_results if t is not None]
    stalled_ok = sum(in_window(t, request_timeout) and timed_out(a) for t, a in stalled_results)
    statuses = sorted({a.split(b"\r\n", 1)[0].decode(errors="replace") for _, a in stalled_results if a})
    print(f"stalled bodies: {len(answered)}/{n} answered, {stalled_ok}/{n} with a 503 timeout at the "
          f"request timeout ({request_timeout:.1f} s): min {min(answered, default=0):.2f} s, "
          f"max {max(answered, default=0):.2f} s, answers {statuses}")
    print(f"hung up mid-request: {n}")
    sys.exit(0 if loris_ok == n and stalled_ok == n else 1)


asyncio.run(main())
