#!/usr/bin/env python3
"""A fixed, sequential HTTP/1.1 client for instruction counts (scripts/bench/bench-instructions.sh).

Sends COUNT POST requests on one keep-alive connection, the bodies taken round-robin from
BODIES (one JSON body a line, as wrk-bodies.lua takes them) starting at line OFFSET, with the
same head wrk sends (Host, Content-Type, Content-Length). Reads each answer in full before the
next request, so the server does the same work for the same requests in every run: the
instruction counts of two runs differ only by what the server does differently.

usage: post_bodies.py HOST:PORT PATH BODIES COUNT [OFFSET]
Exits 1, naming the request, unless every answer is 200.
"""

import socket
import sys


def read_answer(sock, pending):
    """One response (head and Content-Length body) -> (status, rest of the buffer)."""
    while b"\r\n\r\n" not in pending:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        pending += chunk
    head, _, pending = pending.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ")[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(pending) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection mid-body")
        pending += chunk
    return status, pending[length:]


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    address, path, bodies_file, count = sys.argv[1:5]
    offset = int(sys.argv[5]) if len(sys.argv) == 6 else 0
    host, port = address.rsplit(":", 1)
    with open(bodies_file, "rb") as f:
        bodies = [line.rstrip(b"\n") for line in f if line.strip()]
    requests = []
    for body in bodies:
        requests.append(
            b"POST " + path.encode() + b" HTTP/1.1\r\nHost: " + address.encode()
            + b"\r\nContent-Type: application/json\r\nContent-Length: "
            + str(len(body)).encode() + b"\r\n\r\n" + body
        )
    sock = socket.create_connection((host, int(port)))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    pending = b""
    for n in range(int(count)):
        sock.sendall(requests[(offset + n) % len(requests)])
        status, pending = read_answer(sock, pending)
        if status != 200:
            sys.exit(f"post_bodies.py: FAIL: request {n + 1} answered {status}")
    sock.close()


if __name__ == "__main__":
    main()
