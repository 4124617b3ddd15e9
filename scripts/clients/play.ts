// An integrator's program over the TypeScript types that openapi-typescript generates from the
// served spec (scripts/clients/generated.sh writes them to api.d.ts beside this file in a
// temporary directory; nothing generated is committed). Compiled with `tsc --strict`: every
// request body and every answer is typed by the spec alone, and a field the spec does not
// declare, or declares otherwise, fails the compile. Runs the same four checks as play.py:
// a classic game to the end through hints and moves, a generated Killer solved with its cages
// as they came, a batch with ids, and a 429 read as a typed Problem.
//
// usage: node play.js BASE_URL LIMITED_BASE_URL
import type { components, operations } from "./api";

type Schemas = components["schemas"];
type Problem = Schemas["Problem"];
type JsonBody<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : never;
type JsonOk<Op extends keyof operations> = operations[Op] extends {
  responses: { 200: { content: { "application/json": infer Answer } } };
}
  ? Answer
  : never;

/** One answer: the typed 200, or the typed problem of every other declared status. */
type Answer<Op extends keyof operations> =
  | { ok: true; status: 200; headers: Headers; body: JsonOk<Op> }
  | { ok: false; status: number; headers: Headers; body: Problem };

const PATHS = {
  solve: "/v1/solve",
  solveBatch: "/v1/solve/batch",
  validate: "/v1/validate",
  generate: "/v1/generate",
  hint: "/v1/hint",
} as const satisfies Partial<Record<keyof operations, string>>;

async function post<Op extends keyof typeof PATHS>(
  base: string,
  op: Op,
  body: JsonBody<Op>,
): Promise<Answer<Op>> {
  const response = await fetch(base + PATHS[op], {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const parsed: unknown = await response.json();
  if (response.status === 200) {
    return { ok: true, status: 200, headers: response.headers, body: parsed as JsonOk<Op> };
  }
  return { ok: false, status: response.status, headers: response.headers, body: parsed as Problem };
}

async function ok<Op extends keyof typeof PATHS>(base: string, op: Op, body: JsonBody<Op>): Promise<JsonOk<Op>> {
  const answer = await post(base, op, body);
  if (!answer.ok) {
    throw new Error(`${op}: ${answer.status} ${answer.body.type}: ${answer.body.detail}`);
  }
  return answer.body;
}

async function playClassic(base: string): Promise<void> {
  const game = await ok(base, "generate", { difficulty: "easy", seed: "20261202" });
  let board: Schemas["AnyBoard"] = game.board;
  let moves = 0;
  for (;;) {
    const advice = await ok(base, "hint", { board, givens: game.board });
    if (advice.kind === "solved") break;
    let move: Schemas["Move"];
    if (advice.kind === "step" && advice.step && advice.step.placements.length > 0) {
      const { row, col, digit } = advice.step.placements[0];
      move = { row, col, digit };
    } else if (advice.kind === "guess" && advice.cell && advice.digit !== undefined) {
      move = { row: advice.cell.row, col: advice.cell.col, digit: advice.digit };
    } else {
      throw new Error(`unexpected hint on a correct board: ${advice.kind}: ${advice.explanation}`);
    }
    const verdict = await ok(base, "validate", { board, givens: game.board, move });
    if (!verdict.valid || (verdict.mistakes ?? []).length > 0 || verdict.board === undefined) {
      throw new Error(`the hinted move broke the board: ${JSON.stringify(verdict)}`);
    }
    board = verdict.board;
    moves += 1;
  }
  const final = await ok(base, "validate", { board, givens: game.board });
  if (!final.solved || JSON.stringify(board) !== JSON.stringify(game.solution)) {
    throw new Error(`the game ended unsolved: ${JSON.stringify(final)}`);
  }
  console.log(`classic game ${game.id}: solved in ${moves} hinted moves`);
}

async function solveKiller(base: string): Promise<void> {
  const puzzle = await ok(base, "generate", { variant: "killer", seed: "3" });
  const cages = puzzle.cages ?? [];
  const answer = await ok(base, "solve", { board: puzzle.board, cages });
  if (!answer.unique || answer.id !== puzzle.id || JSON.stringify(answer.solution) !== JSON.stringify(puzzle.solution)) {
    throw new Error(`the Killer's solve disagrees with its generation: ${JSON.stringify(answer)}`);
  }
  console.log(`killer ${puzzle.id}: ${cages.length} cages, solved, unique`);
}

async function batch(base: string): Promise<void> {
  const items = await ok(base, "solveBatch", [
    "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1",
    "not a board",
  ]);
  const [solved, failed] = items;
  if (items.length !== 2 || !("solution" in solved) || !("error" in failed)) {
    throw new Error(`batch items: ${JSON.stringify(items)}`);
  }
  console.log(`batch: item 0 ${solved.id} solved, item 1 refused (${failed.error.type})`);
}

async function rateLimited(limited: string): Promise<void> {
  const board = "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";
  for (let i = 0; i < 50; i += 1) {
    const answer = await post(limited, "solve", { board });
    if (answer.status !== 429) continue;
    if (answer.ok) throw new Error("unreachable: a 429 is not ok");
    const problem: Problem = answer.body;
    if (problem.type !== "urn:sudoku-service:problem:too-many-requests") {
      throw new Error(`429 of type ${problem.type}`);
    }
    const retryAfter = Number(answer.headers.get("retry-after"));
    if (!Number.isInteger(retryAfter) || retryAfter < 1) throw new Error(`Retry-After ${retryAfter}`);
    console.log(
      `429 read as a typed Problem: ${problem.title}; Retry-After ${retryAfter} s; ` +
        `RateLimit ${answer.headers.get("ratelimit")}`,
    );
    return;
  }
  throw new Error("no 429 from the rate-limited server");
}

async function main(): Promise<void> {
  const [base, limited] = process.argv.slice(2);
  await playClassic(base);
  await solveKiller(base);
  await batch(base);
  await rateLimited(limited);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
