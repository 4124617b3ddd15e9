#!/usr/bin/env python3
"""Slow and broken clients against a local server (loopback only, bounded in time).

Opens, all at once:
  * N slowloris connections that send a header line every second and never finish;
  * N connections that send complete headers and half a body, then stall;
  * N connections that send half a request and close at once.
Then reports how many of the first two kinds the server closed, and how fast.

usage: slow_clients.py PORT [N] [SECONDS]
"""
import asyncio
import sys
import time

HOST = "127.0.0.1"


async def slowloris(port, deadline):
    reader, writer = await asyncio.open_connection(HOST, port)
    start = time.monotonic()
    writer.write(b"POST /solve HTTP/1.1\r\nHost: x\r\n")
    try:
        while time.monotonic() < deadline:
            await writer.drain()
            try:
                data = await asyncio.wait_for(reader.read(1024), timeout=1.0)
                if data == b"" or data:
                    return time.monotonic() - start  # closed (or answered) by the server
            except asyncio.TimeoutError:
                writer.write(b"X-Slow: 1\r\n")
    except (ConnectionError, OSError):
        return time.monotonic() - start
    finally:
        writer.close()
    return None


async def stalled_body(port, deadline):
    reader, writer = await asyncio.open_connection(HOST, port)
    start = time.monotonic()
    writer.write(
        b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{\"board\": "
    )
    try:
        await writer.drain()
        data = await asyncio.wait_for(reader.read(4096), timeout=max(0.1, deadline - time.monotonic()))
        return time.monotonic() - start, data.split(b"\r\n", 1)[0].decode(errors="replace")
    except (asyncio.TimeoutError, ConnectionError, OSError):
        return None, ""
    finally:
        writer.close()


async def hang_up(port):
    _, writer = await asyncio.open_connection(HOST, port)
    writer.write(b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{\"bo")
    await writer.drain()
    writer.close()


async def main():
    port = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 15
    deadline = time.monotonic() + seconds
    loris = [asyncio.create_task(slowloris(port, deadline)) for _ in range(n)]
    stalled = [asyncio.create_task(stalled_body(port, deadline)) for _ in range(n)]
    await asyncio.gather(*(hang_up(port) for _ in range(n)))
    loris_times = [t for t in await asyncio.gather(*loris) if t is not None]
    stalled_results = await asyncio.gather(*stalled)
    stalled_times = [t for t, _ in stalled_results if t is not None]
    statuses = sorted({s for _, s in stalled_results if s})
    print(f"slowloris: {len(loris_times)}/{n} closed by the server, "
          f"max {max(loris_times, default=0):.2f} s")
    print(f"stalled bodies: {len(stalled_times)}/{n} ended by the server, "
          f"max {max(stalled_times, default=0):.2f} s, answers {statuses}")
    print(f"hung up mid-request: {n}")
    ok = len(loris_times) == n and len(stalled_times) == n
    sys.exit(0 if ok else 1)


asyncio.run(main())
