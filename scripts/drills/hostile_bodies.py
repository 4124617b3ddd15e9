#!/usr/bin/env python3
"""Expensive small bodies against a local server: what one cheap request can cost the server.

Builds, from a seeded random valid grid, bodies of a few kilobytes that are expensive to
search: a 25x25 board with forty 7-cell Killer cages, and a 16x16 board with 8-cell cages
(no givens; sums read off the grid, so each has at least one solution). Sends each to /solve
and /validate at once, ROUNDS times, and checks what the server promises:
  * every answer is honest: a 200, or a 422 problem of type `budget-exhausted` (the work
    budget ran out), never a 5xx or another error;
  * each request costs at most MAX_CPU seconds of server CPU (measured from /proc);
  * every answer arrives within the request time limit (plus a second of slack);
  * nothing runs afterwards: solves_in_flight and solves_queued are 0 right after the last
    answer, and the server's CPU stays still for a second;
  * a hard classic puzzle sent right after is answered 200, with a solution, within a second.
Prints the figures; exits 1 when a promise breaks.

usage: hostile_bodies.py PORT PID [ROUNDS] [TIME_LIMIT_S] [MAX_CPU_S]
"""
import concurrent.futures
import http.client
import json
import os
import random
import sys
import time

HOST = "127.0.0.1"
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


def cpu_seconds(pid):
    """User + system CPU time of the process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def random_grid(side, box_rows, box_cols, rng):
    """A valid full grid: the shifted-rows pattern, shuffled by validity-keeping moves."""
    grid = [[(box_cols * (r % box_rows) + r // box_rows + c) % side for c in range(side)]
            for r in range(side)]
    digits = list(range(1, side + 1))
    rng.shuffle(digits)
    bands = list(range(side // box_rows))
    rng.shuffle(bands)
    rows = [b * box_rows + i for b in bands for i in rng.sample(range(box_rows), box_rows)]
    stacks = list(range(side // box_cols))
    rng.shuffle(stacks)
    cols = [s * box_cols + i for s in stacks for i in rng.sample(range(box_cols), box_cols)]
    return [[digits[grid[r][c]] for c in cols] for r in rows]


def killer_body(side, box, width, count, rng):
    """An empty board with `count` cages of `width` cells along the rows."""
    grid = random_grid(side, box, box, rng)
    cages = []
    for r in range(side):
        for start in range(0, side - width + 1, width):
            cells = [[r, c] for c in range(start, start + width)]
            cages.append({"sum": sum(grid[r][c] for _, c in cells), "cells": cells})
            if len(cages) == count:
                return {"board": ["." * side] * side, "cages": cages}
    return {"board": ["." * side] * side, "cages": cages}


def post(port, path, body, timeout):
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    start = time.monotonic()
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, time.monotonic() - start, data


def problem_type(data):
    """The problem type's last part (`budget-exhausted`), or what the body was instead."""
    try:
        return json.loads(data)["type"].rsplit(":", 1)[-1]
    except (ValueError, KeyError, TypeError, AttributeError):
        return f"not a problem: {data[:60]!r}"


def metric(port, name):
    conn = http.client.HTTPConnection(HOST, port, timeout=5)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise KeyError(name)


def main():
    port, pid = int(sys.argv[1]), int(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    max_cpu = float(sys.argv[5]) if len(sys.argv) > 5 else 0.5
    rng = random.Random(20261201)
    bodies = {
        "25x25, forty 7-cell cages": killer_body(25, 5, 7, 40, rng),
        "16x16, 8-cell cages": killer_body(16, 4, 8, 32, rng),
    }
    failures = []
    requests, worst = 0, 0.0
    statuses = {}
    wrong = []
    cpu_before = cpu_seconds(pid)
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(rounds):
            jobs = [pool.submit(post, port, path, body, limit + 30)
                    for body in bodies.values() for path in ("/solve", "/validate")]
            for job in jobs:
                status, seconds, data = job.result()
                requests += 1
                worst = max(worst, seconds)
                kind = status if status == 200 else f"{status} {problem_type(data)}"
                statuses[kind] = statuses.get(kind, 0) + 1
                if kind not in (200, "422 budget-exhausted"):
                    wrong.append(kind)
    cpu_used = cpu_seconds(pid) - cpu_before
    in_flight, queued = metric(port, "solves_in_flight"), metric(port, "solves_queued")
    cpu_settled = cpu_seconds(pid)
    time.sleep(1.0)
    cpu_after = cpu_seconds(pid) - cpu_settled
    status, classic, data = post(port, "/solve", {"board": HARD}, 10)

    per_request = cpu_used / requests
    print(f"bodies: {', '.join(f'{k} ({len(json.dumps(v))} bytes)' for k, v in bodies.items())}")
    print(f"{requests} requests (/solve and /validate at once): statuses {statuses}, "
          f"slowest answer {worst:.2f} s, server CPU {cpu_used:.2f} s = {per_request:.3f} s per request")
    print(f"right after: solves_in_flight {in_flight:.0f}, solves_queued {queued:.0f}; "
          f"server CPU in the next second {cpu_after:.3f} s")
    print(f"hard classic solve right after: {status} in {classic * 1000:.1f} ms")
    if not requests:
        failures.append("no request was sent")
    if wrong:
        failures.append(f"{len(wrong)} answers neither 200 nor 422 budget-exhausted: {sorted(set(map(str, wrong)))}")
    if per_request > max_cpu:
        failures.append(f"{per_request:.3f} s of CPU per request (limit {max_cpu})")
    if worst > limit + 1:
        failures.append(f"an answer took {worst:.2f} s (limit {limit} s)")
    if in_flight or queued:
        failures.append("work still running or queued after the last answer")
    if cpu_after > 0.1:
        failures.append(f"the server kept working: {cpu_after:.3f} s of CPU after the answers")
    solved = status == 200 and len(json.loads(data).get("solution", "")) == 81
    if not solved or classic > 1.0:
        failures.append(f"the classic solve after it took {classic:.2f} s (status {status}, "
                        f"{'solved' if solved else 'no solution'})")
    for failure in failures:
        print(f"FAIL: {failure}")
    sys.exit(1 if failures else 0)


main()
