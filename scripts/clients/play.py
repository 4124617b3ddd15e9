"""An integrator's program over the Python client that openapi-python-client generates from the
served spec (scripts/clients/generated.sh builds it; nothing generated is committed). It uses
only the generated functions and models, as an integrator would, and fails on anything the
typed client cannot read:

  1. a classic game played to the end: generate, then a hint and the move it suggests
     (through /v1/validate with `move`) until the board is solved;
  2. a generated Killer posted back to /v1/solve with its cages as they came, and solved;
  3. a batch of boards, each item with its id;
  4. a 429 from a rate-limited server read as a typed Problem, with Retry-After and the
     RateLimit header fields.

usage: python play.py BASE_URL LIMITED_BASE_URL
"""
import sys

from sudoku_service_client import Client
from sudoku_service_client.api.generation import generate
from sudoku_service_client.api.logic import hint
from sudoku_service_client.api.solving import solve, solve_batch, validate
from sudoku_service_client.models import (
    BoardRequest,
    Difficulty,
    GenerateRequest,
    GenerateResponse,
    HintRequest,
    HintResponse,
    HintResponseKind,
    Move,
    Problem,
    ProblemType,
    SolveResponse,
    ValidateRequest,
    ValidateResponse,
    Variant,
)


def expect(value, kind):
    """The parsed answer, which must be of the kind the operation promises for a 200."""
    if not isinstance(value, kind):
        raise SystemExit(f"expected {kind.__name__}, got {value!r}")
    return value


def play_classic(client):
    game = expect(
        generate.sync(client=client, body=GenerateRequest(difficulty=Difficulty.EASY, seed="20261202")),
        GenerateResponse,
    )
    board, moves = list(game.board), 0
    while True:
        advice = expect(
            hint.sync(client=client, body=HintRequest(board=board, givens=game.board)), HintResponse
        )
        if advice.kind == HintResponseKind.SOLVED:
            break
        if advice.kind not in (HintResponseKind.STEP, HintResponseKind.GUESS):
            raise SystemExit(f"unexpected hint on a correct board: {advice.kind}: {advice.explanation}")
        if advice.kind == HintResponseKind.STEP and advice.step.placements:
            placement = advice.step.placements[0]
            row, col, digit = placement.row, placement.col, placement.digit
        elif advice.kind == HintResponseKind.GUESS:
            row, col, digit = advice.cell.row, advice.cell.col, advice.digit
        else:
            # An elimination-only step: nothing to write on a board without pencil marks.
            raise SystemExit(f"an easy puzzle asked for an elimination step: {advice.explanation}")
        verdict = expect(
            validate.sync(
                client=client,
                body=ValidateRequest(board=board, givens=game.board, move=Move(row=row, col=col, digit=digit)),
            ),
            ValidateResponse,
        )
        if not verdict.valid or verdict.mistakes:
            raise SystemExit(f"the hinted move {row},{col}={digit} broke the board: {verdict}")
        board, moves = list(verdict.board), moves + 1
    final = expect(validate.sync(client=client, body=ValidateRequest(board=board, givens=game.board)), ValidateResponse)
    if not final.solved or board != game.solution:
        raise SystemExit(f"the game ended unsolved: {final}")
    print(f"classic game {game.id}: solved in {moves} hinted moves")


def solve_killer(client):
    puzzle = expect(
        generate.sync(client=client, body=GenerateRequest(variant=Variant.KILLER, seed="3")), GenerateResponse
    )
    answer = expect(solve.sync(client=client, body=BoardRequest(board=puzzle.board, cages=puzzle.cages)), SolveResponse)
    if not answer.unique or answer.solution != puzzle.solution or answer.id != puzzle.id:
        raise SystemExit(f"the Killer's solve disagrees with its generation: {answer}")
    print(f"killer {puzzle.id}: {len(puzzle.cages)} cages, solved, unique")


def batch(client):
    boards = [
        "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1",
        "not a board",
    ]
    items = solve_batch.sync(client=client, body=boards)
    if not isinstance(items, list) or len(items) != len(boards):
        raise SystemExit(f"batch answer: {items!r}")
    solved, failed = items[0].to_dict(), items[1].to_dict()
    if "solution" not in solved or "id" not in solved or "error" not in failed:
        raise SystemExit(f"batch items: {solved} {failed}")
    print(f"batch: item 0 {solved['id']} solved, item 1 refused ({failed['error']['type']})")


def rate_limited(limited):
    body = BoardRequest(board="9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1")
    for _ in range(50):
        answer = solve.sync_detailed(client=limited, body=body)
        if answer.status_code == 429:
            problem = expect(answer.parsed, Problem)
            if problem.type_ != ProblemType.URNSUDOKU_SERVICEPROBLEMTOO_MANY_REQUESTS:
                raise SystemExit(f"429 of type {problem.type_}")
            retry_after = int(answer.headers["retry-after"])
            print(
                f"429 read as a typed Problem: {problem.title}; Retry-After {retry_after} s; "
                f"RateLimit {answer.headers['ratelimit']}"
            )
            return
        expect(answer.parsed, SolveResponse)
    raise SystemExit("no 429 from the rate-limited server")


def main():
    base, limited_base = sys.argv[1], sys.argv[2]
    with Client(base_url=base, raise_on_unexpected_status=True) as client:
        play_classic(client)
        solve_killer(client)
        batch(client)
    with Client(base_url=limited_base, raise_on_unexpected_status=True) as limited:
        rate_limited(limited)


if __name__ == "__main__":
    main()
