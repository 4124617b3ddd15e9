#!/usr/bin/env python3
"""Runs every command of README.md's ```console blocks against a fresh release server (one
per block, so a block's counters start from zero) and compares what it prints with what the
README says. Masked on both sides: solve timings (`"micros"`), the CLI's seconds and rates,
metric values. In the README, `,...` stands for the rest of a long answer (it matches
anything). Exit 1 on the first block that differs, with both texts.

usage: scripts/check/readme_check.py [BINARY] [--write]
  --write  put the actual output in README.md where it differs and has no `,...` (then
           review the diff)
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")

MASKS = [
    (re.compile(r'"micros":\d+'), '"micros":N'),
    (re.compile(r"in \d+\.\d+ s \(\d+ puzzles/s, \d+ threads\)"), "in T s (R puzzles/s, C threads)"),
    (re.compile(r"^([a-z_]+(\{[^}]*\})?) \d+(\.\d+)?$", re.M), r"\1 N"),
]


def mask(text):
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def matches(expected, actual):
    expected, actual = mask(expected), mask(actual)
    if ",..." not in expected:
        return expected == actual
    pattern = ".*?".join(re.escape(part) for part in expected.split(",..."))
    return re.fullmatch(pattern.replace(re.escape(".*?"), ".*?"), actual, re.S) is not None


def blocks(lines):
    """Each console block: (first line number, [(command, expected output, line index)])."""
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        # A block in a list item is indented: its lines are read without that indent.
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        body = lines
        lines = [line[len(indent):] if line.startswith(indent) else line for line in body]
        start, i, commands = i, i + 1, []
        while lines[i].strip() != "```":
            if not lines[i].startswith("$ "):
                raise SystemExit(f"README.md:{i + 1}: output before any command")
            command, at = lines[i][2:], i
            i += 1
            # A command goes on while it ends in a backslash or a quote is open.
            while command.endswith("\\") or not balanced(command):
                command += "\n" + lines[i]
                i += 1
            output_start = i
            while lines[i].strip() != "```" and not lines[i].startswith("$ "):
                i += 1
            output = lines[output_start:i]
            while output and output[-1] == "":
                output.pop()
            commands.append((command, "\n".join(output), (output_start, output_start + len(output)), at))
        found.append((start, commands))
        lines = body
        i += 1
    return found


def balanced(command):
    try:
        shlex.split(command, comments=True)
        return True
    except ValueError:
        return False


def start_server(binary, log):
    env = dict(os.environ, RUST_LOG="warn,sudoku_service::startup=info")
    process = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=log, stderr=subprocess.STDOUT, env=env,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(log.name) as text:
            port = re.search(r"listening on 127\.0\.0\.1:(\d+)", text.read())
        if port:
            return process, port.group(1)
        if process.poll() is not None:
            break
        time.sleep(0.02)
    process.kill()
    raise SystemExit("the server did not start:\n" + open(log.name).read())


def run(command, port, binary):
    command = command.replace("localhost:8080", f"127.0.0.1:{port}")
    command = command.replace("cargo run --release -q --", binary)
    command = re.sub(r"^sudoku-service ", binary + " ", command)
    result = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=60)
    return (result.stdout + result.stderr).rstrip("\n")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    write = "--write" in sys.argv
    binary = os.path.abspath(args[0] if args else os.path.join(ROOT, "target/release/sudoku-service"))
    lines = open(README).read().split("\n")
    failures, checked, rewrites = 0, 0, []
    for start, commands in blocks(lines):
        with tempfile.NamedTemporaryFile("w+", suffix=".log") as log:
            process, port = start_server(binary, log)
            try:
                for command, expected, span, at in commands:
                    actual = run(command, port, binary)
                    checked += 1
                    if matches(expected, actual):
                        continue
                    if write and ",..." not in expected:
                        indent = re.match(r"\s*", lines[at]).group(0)
                        rewrites.append((span, [indent + line for line in actual.split("\n")]))
                        continue
                    failures += 1
                    print(f"README.md:{at + 1}: the output differs\n$ {command}\n"
                          f"--- README says\n{expected}\n--- the server says\n{actual}\n")
            finally:
                process.terminate()
                process.wait(10)
    for (begin, end), new in sorted(rewrites, reverse=True):
        lines[begin:end] = new
    if rewrites:
        open(README, "w").write("\n".join(lines))
        print(f"rewrote {len(rewrites)} outputs in README.md")
    print(f"README examples: {checked} commands run, {failures} differ")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
