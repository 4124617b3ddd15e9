#!/usr/bin/env python3
"""A puzzle site's game loop against a running sudoku-service: the smallest client that plays
whole games, with Python's standard library only.

For each level it fetches a puzzle by URL (cacheable GET /generate), then plays it one call
per move: every move is a POST /validate with the original givens, the board, and the move,
and the answer says at once whether the entry clashes (and which cells are the player's),
whether it is wrong, and when the game is won. To show what a site shows, it makes two
deliberate slips per game (a wrong digit that repeats nothing, and one that clashes), checks
that the service names them, asks for pencil marks while the clash stands, and corrects both.

usage: python3 examples/play.py [BASE_URL]      (default http://127.0.0.1:8080)
"""
import json
import sys
import time
import urllib.error
import urllib.request

BASE = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080").rstrip("/")
LEVELS = ["easy", "medium", "hard", "expert", "master", "extreme"]
calls = 0


def call(method, path, body=None):
    """One request; the parsed JSON answer. A problem+json answer raises with its detail."""
    global calls
    calls += 1
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as err:
        problem = json.load(err)
        raise SystemExit(f"{method} {path}: {err.code} {problem.get('type')}: {problem.get('detail')}")


def expect(condition, what):
    if not condition:
        raise SystemExit(f"FAILED: {what}")


def move(givens, board, index, digit):
    """Plays `digit` (None clears) at cell `index`; the verdict, with the new board."""
    return call("POST", "/validate", {
        "givens": givens,
        "board": board,
        "move": {"row": index // 9, "col": index % 9, "digit": digit},
    })


def wrong_digits(board, index, solution):
    """A digit that repeats nothing at `index` but is wrong, and one that clashes."""
    row, col = divmod(index, 9)
    seen = set()
    for k in range(81):
        r, c = divmod(k, 9)
        if (r == row or c == col or (r // 3, c // 3) == (row // 3, col // 3)) and board[k] != ".":
            seen.add(int(board[k]))
    right = int(solution[index])
    quiet = next((d for d in range(1, 10) if d not in seen and d != right), None)
    clash = next(d for d in sorted(seen))
    return quiet, clash


def play(level, seed):
    start_calls = calls
    game = call("GET", f"/generate?difficulty={level}&seed={seed}&format=line")
    givens, solution, board = game["board"], game["solution"], game["board"]
    empty = [k for k in range(81) if givens[k] == "."]
    slip_at = empty[len(empty) // 2]
    for index in empty:
        if index == slip_at:
            quiet, clash = wrong_digits(board, index, solution)
            if quiet is not None:
                verdict = move(givens, board, index, quiet)
                expect(verdict["valid"], "a quiet slip repeats nothing")
                expect({"row": index // 9, "col": index % 9, "entered": quiet} in verdict["mistakes"],
                       f"the wrong {quiet} is named")
            verdict = move(givens, board, index, clash)
            # The new digit is the player's; so may be the cell it clashes with, if the player
            # filled that one earlier.
            mine = [(c["row"], c["col"]) for c in verdict["conflict_cells"] if c["by"] == "entry"]
            expect(not verdict["valid"] and divmod(index, 9) in mine,
                   "the clash names the player's cell")
            marks = call("POST", "/candidates", {"givens": givens, "board": verdict["board"]})
            expect(marks["conflicts"] and any(marks["candidates"][r][c] for r in range(9) for c in range(9)),
                   "pencil marks survive the clash")
        verdict = move(givens, board, index, int(solution[index]))
        expect(verdict["valid"] and verdict["mistakes"] == [], f"cell {index} is right")
        board = verdict["board"]
    expect(verdict["solved"] and board == solution, f"{level} is solved")
    used = calls - start_calls
    moves = len(empty)
    print(f"{level:<8} seed {seed:<4} {moves:>2} cells to fill, {used} calls "
          f"({used - moves} beyond one per move: the puzzle, the slips, the pencil marks), id {game['id']}")


def main():
    started = time.monotonic()
    for seed, level in enumerate(LEVELS, start=1):
        play(level, seed)
    print(f"played {len(LEVELS)} games in {calls} calls, {time.monotonic() - started:.1f} s")


main()
