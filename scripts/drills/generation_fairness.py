#!/usr/bin/env python3
"""Generations are fair: one client looping expensive generations, or many addresses flooding
the pool, slow nobody else down. Against a local server with default settings (two or more
solver threads), loopback only, every client a different 127.0.0.x source address.

Drills, each with its pass condition:
  loop    one client (127.0.0.1) loops `GET /generate?difficulty=extreme&symmetry=rotational`
          on 8 connections (a new seed each time) for SECONDS. Meanwhile:
          * another client (127.0.0.2) posts hard /solve requests one after another: every one
            answered 200, the slowest within 1 s;
          * the server's CPU stays near one core (the generations never take every thread):
            at most 1.5 cores averaged over the drill, with two solver threads;
          * the generating client gets only what it may: 200, 422 generation-failed, or 503
            overloaded (its places are full), never a 5xx other than that or a timeout, and at
            least one generation answered (a puzzle or, its budget spent, 422).
  flood   five addresses (127.0.0.3-7) each open 70 connections of hard batches at once
          (more than all the pool's places together); a sixth (127.0.0.8) that holds none
          still gets its hard /solve answered 200 (it takes a reserved place).
Prints one line per check; exits 1 when any fails.

usage: generation_fairness.py PORT PID [SECONDS]
"""
import concurrent.futures
import http.client
import json
import os
import socket
import sys
import threading
import time

HOST = "127.0.0.1"
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
failures = []


def check(ok, what):
    print(f"   {'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures.append(what)


def metric(port, name):
    conn = http.client.HTTPConnection(HOST, port, timeout=5)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise KeyError(name)


def wait_for(what, condition, seconds=30):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            check(False, f"waited {seconds} s for {what}")
            return False
        time.sleep(0.02)
    return True


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request(port, method, path, body=None, source=None, timeout=30):
    """(status, seconds, problem type or None) for one request on a fresh connection."""
    start = time.monotonic()
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers=headers)
        response = conn.getresponse()
        data = response.read()
        kind = None
        if response.getheader("Content-Type", "").startswith("application/problem+json"):
            kind = json.loads(data).get("type", "").rsplit(":", 1)[-1]
        return response.status, time.monotonic() - start, kind
    finally:
        conn.close()


def loop_drill(port, pid, seconds):
    print(f"loop: one client loops extreme generations on 8 connections for {seconds} s")
    stop = threading.Event()
    outcomes = []
    lock = threading.Lock()

    def generate(worker):
        seed = worker * 1_000_000
        while not stop.is_set():
            seed += 1
            try:
                status, _, kind = request(
                    port, "GET",
                    f"/generate?difficulty=extreme&symmetry=rotational&seed={seed}",
                    source="127.0.0.1", timeout=30)
            except OSError as error:
                status, kind = 0, type(error).__name__
            with lock:
                outcomes.append((status, kind))

    cpu_before, wall_before = cpu_seconds(pid), time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for worker in range(8):
            pool.submit(generate, worker)
        # The other client starts once the generations hold their places.
        wait_for("the generations to be queued", lambda: metric(port, "solves_queued") >= 4)
        solves = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            status, waited, _ = request(port, "POST", "/solve", {"board": HARD},
                                        source="127.0.0.2")
            solves.append((status, waited))
        cpu = cpu_seconds(pid) - cpu_before
        wall = time.monotonic() - wall_before
        stop.set()
    ok = [w for s, w in solves if s == 200]
    slowest = max((w for _, w in solves), default=float("inf"))
    check(len(solves) > 0 and len(ok) == len(solves),
          f"the other client's hard solves: {len(ok)}/{len(solves)} answered 200")
    check(slowest <= 1.0, f"the slowest of them took {slowest:.3f} s (bar 1 s)")
    cores = cpu / wall
    check(cores <= 1.5, f"server CPU {cores:.2f} cores over the drill (bar 1.5)")
    allowed = {(200, None), (422, "generation-failed"), (503, "overloaded")}
    counts = {}
    for outcome in outcomes:
        counts[outcome] = counts.get(outcome, 0) + 1
    others = {k: v for k, v in counts.items() if k not in allowed}
    # Generations that end must end with an answer: a puzzle, or (its work budget spent, as
    # an extreme rotational search often is on a loaded machine) 422 generation-failed.
    answered = counts.get((200, None), 0) + counts.get((422, "generation-failed"), 0)
    check(answered > 0 and not others,
          f"the generating client's answers: {counts}")


def flood_drill(port):
    print("flood: five addresses open 70 connections of long hard batches each")
    body = json.dumps([HARD] * 1000).encode()
    head = (f"POST /solve/batch HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    done = threading.Event()
    started = threading.Barrier(5 * 70 + 1, timeout=60)

    def flood(source):
        """The status of one long batch (0: still running when the drill ended it)."""
        sock = socket.create_connection((HOST, port), timeout=60, source_address=(source, 0))
        try:
            started.wait()
            sock.sendall(head + body)
            sock.settimeout(0.1)
            while not done.is_set():
                try:
                    first = sock.recv(64)
                except socket.timeout:
                    continue
                return int(first.split()[1]) if first.startswith(b"HTTP/1.1 ") else -1
            return 0
        except (OSError, threading.BrokenBarrierError, ValueError, IndexError):
            return -1
        finally:
            # Closing a connection mid-batch cancels its work on the server.
            sock.close()

    with concurrent.futures.ThreadPoolExecutor(5 * 70) as pool:
        floods = [pool.submit(flood, f"127.0.0.{3 + k}") for k in range(5) for _ in range(70)]
        started.wait()
        # The newcomer asks once the flood holds most of the pool's places.
        wait_for("the flood to hold the pool", lambda: metric(port, "solves_queued") >= 150)
        results = [request(port, "POST", "/solve", {"board": HARD}, source="127.0.0.8")
                   for _ in range(5)]
        done.set()
        statuses = [f.result() for f in floods]
    refused = statuses.count(503)
    check(refused > 0, f"the flood was over the pool's places ({refused} of {len(statuses)} "
                       f"batches refused 503, {statuses.count(0)} still running)")
    check(-1 not in statuses, "every flood connection was answered or still running")
    check(all(status == 200 for status, _, _ in results),
          f"a client holding no place was served: {[s for s, _, _ in results]}")


def main():
    port, pid = int(sys.argv[1]), int(sys.argv[2])
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    loop_drill(port, pid, seconds)
    flood_drill(port)
    if failures:
        print(f"FAILED: {len(failures)} check(s)")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
