// End to end: the playground page in headless Chromium against a real release server.
// Run by scripts/check/browser-test.sh (which installs Chromium and this folder's one npm package):
//   SUDOKU_BIN=target/release/sudoku-service ARTIFACTS=artifacts/browser node --test playground.test.mjs
// Screenshots of the solved board, the highlighted conflict, a Killer and a Jigsaw puzzle and the
// phone layout go to ARTIFACTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const BIN = resolve(process.env.SUDOKU_BIN ?? '../../target/release/sudoku-service');
const ARTIFACTS = resolve(process.env.ARTIFACTS ?? '../../artifacts/browser');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The README's example: a unique puzzle and its solution.
const PUZZLE = '9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1';
const SOLUTION = '957214386123689457468357129271563894539841672684972513315726948746198235892435761';
/**
 * The same puzzle with a thermometer and an arrow its solution keeps: 1 < 4 < 9 along the
 * thermometer, 1 + 2 + 6 = 9 on the arrow.
 */
const THERMO_ARROW = {
  board: Array.from({ length: 9 }, (_, row) => PUZZLE.slice(row * 9, row * 9 + 9)),
  thermometers: [{ cells: [[0, 4], [0, 5], [1, 5]] }],
  arrows: [{ circle: [[0, 0]], lines: [[[1, 0], [1, 1], [2, 1]]] }],
};

let server;
let baseUrl;
let browser;

/** Starts the server on a free loopback port and reads the port from its log line. */
function startServer() {
  return new Promise((resolvePort, reject) => {
    server = spawn(BIN, ['serve', '--host', '127.0.0.1', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 15000);
    const onData = (chunk) => {
      log += chunk;
      const match = log.match(/listening on 127\.0\.0\.1:(\d+)/);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
  });
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const port = await startServer();
  baseUrl = `http://127.0.0.1:${port}`;
  // The flags keep Chromium off the network this machine does not have.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
});

after(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
});

/**
 * A fresh page on the playground that fails the test on any script error or CSP violation;
 * its grid emptied (Clear all) unless `sample` is asked for: a first visit opens with a sample
 * puzzle loaded.
 */
async function openPlayground(options = {}, { sample = false } = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  const response = await page.goto(`${baseUrl}/`);
  assert.equal(response.status(), 200);
  await page.locator('#grid input').first().waitFor();
  if (!sample) await page.click('#clear-all');
  return { page, context, problems };
}

const cell = (page, row, col) => page.locator('#grid input').nth(row * 9 + col);
const cellBox = (page, row, col) => page.locator('#grid .cell').nth(row * 9 + col);
const boardText = (page) =>
  page.locator('#grid input').evaluateAll((inputs) => inputs.map((i) => i.value || '.').join(''));
const message = (page) => page.locator('#message');

/** Types a puzzle cell by cell, as a person would: click the cell, press the digit. */
async function typePuzzle(page, puzzle) {
  for (let index = 0; index < 81; index++) {
    if (puzzle[index] === '.') continue;
    await cell(page, Math.floor(index / 9), index % 9).click();
    await page.keyboard.press(puzzle[index]);
  }
}

/** Runs the curl command the page shows, exactly as shown, and parses its output. */
function runShownCurl(command) {
  return JSON.parse(execFileSync('bash', ['-c', command], { encoding: 'utf8', timeout: 10000 }));
}

test('the page loads its script and style with a strict CSP and no errors', async () => {
  const { page, context, problems } = await openPlayground();
  const response = await page.request.get(`${baseUrl}/`);
  assert.match(response.headers()['content-security-policy'], /script-src 'self'/);
  assert.equal(await page.locator('#grid input').count(), 81);
  assert.equal(await page.title(), 'sudoku-service playground');
  const gridColumns = await page.locator('#grid').evaluate((el) => getComputedStyle(el).gridTemplateColumns);
  assert.equal(gridColumns.split(' ').length, 9, 'the stylesheet lays the grid out');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a first visit opens with a sample puzzle that solves', async () => {
  const { page, context, problems } = await openPlayground({}, { sample: true });
  assert.equal(await boardText(page), PUZZLE);
  assert.equal(await page.locator('#grid .cell.given').count(), 26);
  assert.match(await message(page).textContent(), /A sample puzzle is loaded/);
  await page.click('#solve');
  await page.locator('#message.ok').waitFor();
  assert.equal(await boardText(page), SOLUTION);
  assert.deepEqual(problems, []);
  await context.close();
});

test('type a puzzle, solve it, see the solution; the shown curl command gives the same', async () => {
  const { page, context, problems } = await openPlayground();
  await typePuzzle(page, PUZZLE);
  assert.equal(await boardText(page), PUZZLE);
  await page.click('#solve');
  await page.locator('#message.ok').waitFor();
  assert.match(await message(page).textContent(), /Solved: the only solution, 55 cells filled, 0 guesses in \d+ µs\./);
  assert.equal(await boardText(page), SOLUTION);
  assert.equal(await cellBox(page, 0, 1).getAttribute('class'), 'cell row-0 col-1 solved');
  await page.screenshot({ path: join(ARTIFACTS, 'solved.png'), fullPage: true });

  // The curl command on show is the request just sent; run it for real.
  const command = await page.locator('#curl').textContent();
  assert.match(command, /^curl -s '.*\/v1\/solve' -H 'Content-Type: application\/json' -d /);
  assert.ok(command.includes('"9.7.....6"'), 'the command sent the puzzle, not the solution');
  const answer = runShownCurl(command);
  assert.equal(answer.solution.join(''), SOLUTION);
  assert.equal(answer.unique, true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('make a conflict, validate, see the cells highlighted; solve names the problem', async () => {
  const { page, context, problems } = await openPlayground();
  await page.fill('#paste', PUZZLE);
  await page.click('#load');
  assert.match(await message(page).textContent(), /Loaded a puzzle with 26 givens/);
  assert.equal(await cell(page, 0, 0).getAttribute('readonly'), '', 'givens are read-only');
  // Row 1 already has a 9 in column 1 (and column 2 one in row 9).
  await cell(page, 0, 1).click();
  await page.keyboard.press('9');
  await page.click('#validate');
  await page.locator('#message.error').waitFor();
  assert.match(await message(page).textContent(), /Not valid, 3 conflicts: 9 repeats in row 1; 9 repeats in column 2; 9 repeats in box 1/);
  const conflicted = await page.locator('#grid .cell.conflict').evaluateAll((boxes) =>
    boxes.map((box) => [...box.parentElement.children].indexOf(box)));
  assert.deepEqual(conflicted, [0, 1, 73]);
  assert.equal(await cell(page, 0, 1).getAttribute('aria-invalid'), 'true');
  await page.screenshot({ path: join(ARTIFACTS, 'conflict.png'), fullPage: true });

  await page.click('#solve');
  await page.locator('#message.error .type').waitFor();
  assert.match(await message(page).textContent(), /^Board breaks the rules: .*change one of them/);
  assert.match(await message(page).textContent(), /422 urn:sudoku-service:problem:conflicting-givens/);
  assert.equal(await page.locator('#grid .cell.conflict').count(), 3);
  assert.deepEqual(problems.filter((p) => !p.includes('422')), []);
  await context.close();
});

test('hint highlights the step and explains it, candidates show pencil marks, a mistake is named', async () => {
  const { page, context } = await openPlayground();
  await page.fill('#paste', PUZZLE);
  await page.click('#load');
  await page.click('#hint');
  await page.locator('#message:has-text("can only go")').waitFor();
  assert.equal(await message(page).textContent(), 'In box 1, 1 can only go in row 2, column 1.');
  assert.match(await cellBox(page, 1, 0).getAttribute('class'), /target/);
  assert.match(await page.locator('#curl').textContent(), /\/hint/);

  await page.click('#candidates');
  await page.locator('#message:has-text("Pencil marks")').waitFor();
  const marks = await cellBox(page, 0, 1).locator('.marks').textContent();
  assert.equal(marks, '358');
  assert.equal(await cellBox(page, 0, 0).locator('.marks span').count(), 0, 'no marks on a given');

  // A wrong entry that repeats nothing: the hint (sent with the givens) names it.
  await cell(page, 8, 7).click();
  await page.keyboard.press('2');
  assert.equal(await cellBox(page, 0, 1).locator('.marks span').count(), 0, 'marks go stale on a change');
  await page.click('#hint');
  await page.locator('#message.error').waitFor();
  assert.equal(await message(page).textContent(), 'The 2 in row 9, column 8 is not part of the solution.');
  assert.match(await cellBox(page, 8, 7).getAttribute('class'), /conflict/);
  assert.match(await page.locator('#curl').textContent(), /"givens":\["9\.7\.\.\.\.\.6"/);
  await context.close();
});

test('generate loads a graded puzzle as givens', async () => {
  const { page, context } = await openPlayground();
  await page.selectOption('#difficulty', 'easy');
  await page.click('#generate');
  await page.locator('#message.ok').waitFor();
  const text = await message(page).textContent();
  const [, givens, rating] = text.match(/An easy puzzle with (\d+) givens, rated (\d\.\d) on the Sudoku Explainer scale/);
  assert.equal(await page.locator('#grid .cell.given').count(), Number(givens));
  assert.ok(Number(rating) >= 1.0 && Number(rating) <= 1.5, rating);
  assert.match(await page.locator('#curl').textContent(), /\/generate.*"difficulty":"easy"/);
  assert.equal(await page.locator('#difficulty option').count(), 6);

  // Grade says the same rating for the generated puzzle.
  await page.click('#grade');
  await page.locator('#message.ok').filter({ hasText: 'hardest technique' }).filter({ hasNotText: 'givens' }).waitFor();
  assert.match(await message(page).textContent(), new RegExp(`^An easy puzzle, rated ${rating.replace('.', '\\.')} on the Sudoku Explainer scale`));
  assert.match(await page.locator('#curl').textContent(), /\/grade/);
  await context.close();
});

/** Each cell's thick borders as the grid draws them: "r" right, "b" bottom. */
const drawnEdges = (page) =>
  page.locator('#grid .cell').evaluateAll((boxes) => boxes.map((box) =>
    (box.classList.contains('edge-right') ? 'r' : '') + (box.classList.contains('edge-bottom') ? 'b' : '')));

/** The thick borders a grid of region labels (9 rows of 9) calls for, cell by cell. */
function regionEdges(regions) {
  const label = regions.join('');
  return Array.from(label, (own, index) =>
    (index % 9 < 8 && label[index + 1] !== own ? 'r' : '') + (index < 72 && label[index + 9] !== own ? 'b' : ''));
}

const BOX_LABELS = Array.from({ length: 9 }, (_, row) =>
  Array.from({ length: 9 }, (_, col) => String(Math.floor(row / 3) * 3 + Math.floor(col / 3) + 1)).join(''));

/** Picks a variant and a seed, presses Generate, and returns the answer, from the curl command shown. */
async function generateVariant(page, variant, seed) {
  await page.selectOption('#variant', variant);
  await page.selectOption('#difficulty', 'medium');
  await page.fill('#seed', String(seed));
  await page.click('#generate');
  await page.locator('#message.ok').waitFor();
  const command = await page.locator('#curl').textContent();
  assert.match(command, new RegExp(`/generate' .*-d '\\{"variant":"${variant}","difficulty":"medium","seed":${seed},"format":"rows"\\}'$`));
  const answer = runShownCurl(command);
  assert.equal(answer.variant, variant);
  assert.equal(answer.difficulty, 'medium');
  return answer;
}

test('Killer: generate with a seed, see the cages and their sums, solve it within the cages', async () => {
  const { page, context, problems } = await openPlayground();
  const answer = await generateVariant(page, 'killer', 7);
  assert.match(await message(page).textContent(),
    new RegExp(`^A medium Killer puzzle with ${answer.clues} givens and ${answer.cages.length} cages, rated ${answer.grade.rating.toFixed(1)} .* \\(seed 7: `));

  // One sum label per cage, in the cage's first cell in reading order; an outline in every cage cell.
  assert.equal(await page.locator('#grid .cage-sum').count(), answer.cages.length);
  const indexOf = ({ row, col }) => row * 9 + col;
  const sums = await page.locator('#grid .cell').evaluateAll((boxes) =>
    boxes.map((box) => box.querySelector('.cage-sum')?.textContent ?? null));
  const expected = new Array(81).fill(null);
  for (const cage of answer.cages) expected[Math.min(...cage.cells.map(indexOf))] = String(cage.sum);
  assert.deepEqual(sums, expected);
  const caged = answer.cages.reduce((n, cage) => n + cage.cells.length, 0);
  assert.equal(await page.locator('#grid .cage').count(), caged);
  const first = answer.cages[0];
  const { row, col } = first.cells.reduce((a, b) => (indexOf(a) < indexOf(b) ? a : b));
  assert.equal(await cell(page, row, col).getAttribute('aria-label'),
    `row ${row + 1}, column ${col + 1}, cage of ${first.cells.length} cells adding up to ${first.sum}`);
  assert.deepEqual(await drawnEdges(page), regionEdges(BOX_LABELS), 'the boxes stay');

  // Every action carries the cages; the page shows whatever the service answers.
  await page.click('#candidates');
  await message(page).filter({ hasText: /^Pencil marks/ }).waitFor();
  assert.match(await page.locator('#curl').textContent(), /\/candidates' .*"cages":\[\{"sum":/);

  await page.click('#solve');
  await page.locator('#message.ok').filter({ hasText: 'Solved' }).waitFor();
  const board = await boardText(page);
  assert.equal(board, answer.solution.join(''));
  for (const cage of answer.cages) {
    const total = cage.cells.reduce((n, c) => n + Number(board[indexOf(c)]), 0);
    assert.equal(total, cage.sum, `cage at row ${cage.cells[0].row + 1}, column ${cage.cells[0].col + 1}`);
  }
  assert.match(await page.locator('#curl').textContent(), /\/solve' .*"cages":/);
  await page.click('#validate');
  await page.locator('#message.ok').filter({ hasText: 'every cage adds up' }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'killer.png'), fullPage: true });
  assert.deepEqual(problems.filter((p) => !p.includes('422')), []);
  await context.close();
});

test('Jigsaw: generate, see the region borders, a repeat in a region that is no box is highlighted', async () => {
  const { page, context, problems } = await openPlayground();
  const answer = await generateVariant(page, 'jigsaw', 7);
  assert.match(await message(page).textContent(),
    new RegExp(`^A medium Jigsaw puzzle with ${answer.clues} givens, rated ${answer.grade.rating.toFixed(1)} .* \\(seed 7: `));
  assert.equal(await page.locator('#grid .cell.given').count(), answer.clues);
  assert.deepEqual(await drawnEdges(page), regionEdges(answer.regions));
  assert.notDeepEqual(regionEdges(answer.regions), regionEdges(BOX_LABELS), 'the regions are not the boxes');

  // Two empty cells of one region in different boxes, rows and columns, and a digit that
  // repeats nowhere but in that region: the first cell's digit in the solution.
  const labels = answer.regions.join('');
  const puzzle = answer.board.join('');
  const solution = answer.solution.join('');
  const box = (i) => Math.floor(i / 27) * 3 + Math.floor((i % 9) / 3);
  const seen = (i, digit) => [...puzzle].some((d, j) =>
    d === digit && (Math.floor(j / 9) === Math.floor(i / 9) || j % 9 === i % 9));
  let pair = null;
  for (let a = 0; a < 81 && !pair; a++) {
    for (let b = a + 1; b < 81 && !pair; b++) {
      if (labels[a] === labels[b] && box(a) !== box(b) && Math.floor(a / 9) !== Math.floor(b / 9)
        && a % 9 !== b % 9 && puzzle[a] === '.' && puzzle[b] === '.' && !seen(b, solution[a])) pair = [a, b];
    }
  }
  assert.ok(pair, 'the puzzle has such a pair');
  const digit = solution[pair[0]];
  for (const index of pair) {
    await cell(page, Math.floor(index / 9), index % 9).click();
    await page.keyboard.press(digit);
  }
  const [a] = pair;
  assert.match(await cell(page, Math.floor(a / 9), a % 9).getAttribute('aria-label'), new RegExp(`, region ${labels[a]}$`));
  await page.click('#validate');
  await page.locator('#message.error').waitFor();
  assert.equal(await message(page).textContent(), `Not valid, 1 conflict: ${digit} repeats in region ${labels[a]}.`);
  assert.match(await page.locator('#curl').textContent(), /\/validate' .*"regions":\["/);
  const conflicted = await page.locator('#grid .cell.conflict').evaluateAll((boxes) =>
    boxes.map((b) => [...b.parentElement.children].indexOf(b)));
  assert.deepEqual(conflicted, pair);
  await page.screenshot({ path: join(ARTIFACTS, 'jigsaw.png'), fullPage: true });

  // The board goes to the paste box as JSON with its regions; Clear all goes back to an
  // empty classic grid and requests without regions; loading the JSON brings the regions back.
  await page.click('#export');
  assert.deepEqual(JSON.parse(await page.locator('#paste').inputValue()).regions, answer.regions);
  await page.click('#clear-all');
  assert.deepEqual(await drawnEdges(page), regionEdges(BOX_LABELS));
  assert.doesNotMatch(await page.locator('#curl').textContent(), /regions/);
  await page.click('#load');
  assert.equal(await message(page).textContent(), `Loaded a Jigsaw puzzle with ${answer.clues + 2} givens.`);
  assert.deepEqual(await drawnEdges(page), regionEdges(answer.regions));
  // Its givens now repeat a digit in a region: the service draws no picture of that (a 422),
  // and the note under the grid says why instead.
  await page.waitForFunction(() => document.getElementById('picture-note').textContent.startsWith('No picture: '));
  assert.equal(await page.locator('#picture svg').count(), 0);
  assert.deepEqual(problems.filter((p) => !p.includes('422')), []);
  await context.close();
});

test('the picture under the grid is the SVG /v1/render answers, thermometer and arrow drawn', async () => {
  const { page, context, problems } = await openPlayground();
  const body = THERMO_ARROW;
  await page.fill('#paste', JSON.stringify(body));
  await page.click('#load');
  await page.locator('#picture svg .bulb').waitFor();
  await page.locator('#picture svg .head').waitFor();
  const shown = await page.locator('#picture svg').evaluate((svg) => {
    const copy = svg.cloneNode(true);
    copy.removeAttribute('role');
    copy.removeAttribute('aria-label');
    return new XMLSerializer().serializeToString(copy);
  });
  const response = await page.request.post(`${baseUrl}/v1/render`, { data: { ...body, format: 'svg' } });
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-type'], /^image\/svg\+xml/);
  const served = await page.evaluate(
    (text) => new XMLSerializer().serializeToString(new DOMParser().parseFromString(text, 'image/svg+xml').documentElement),
    await response.text(),
  );
  assert.equal(shown, served, 'the page shows the very SVG the API answers');
  assert.match(await page.locator('#picture-note').textContent(), /POST \/v1\/render/);
  await page.locator('#solve').click();
  await page.locator('#message.ok').waitFor();
  assert.equal(await boardText(page), SOLUTION, 'solved under the thermometer and the arrow');
  await page.locator('.picture').screenshot({ path: join(ARTIFACTS, 'picture.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('f-puzzles and SudokuPad: a link, a compressed string or the JSON loads, and the puzzle goes back out as a link', async () => {
  const { page, context, problems } = await openPlayground();
  const convert = async (data) => {
    const response = await page.request.post(`${baseUrl}/v1/fpuzzles`, { data });
    assert.equal(response.status(), 200);
    return response.json();
  };
  const shared = await convert(THERMO_ARROW);
  const native = await convert({ fpuzzles: shared.fpuzzles });
  const givens = [...PUZZLE].filter((ch) => ch !== '.').length;
  for (const form of [shared.sudokupad, shared.link, shared.compressed, JSON.stringify(shared.fpuzzles)]) {
    await page.click('#clear-all');
    await page.fill('#paste', form);
    await page.click('#load');
    await page.locator('#message.ok').waitFor();
    assert.equal(
      await message(page).textContent(),
      `Loaded a Thermo Arrow puzzle with ${givens} givens from f-puzzles' format, as POST /v1/fpuzzles reads it.`,
      form,
    );
    assert.equal(await boardText(page), PUZZLE, form);
    assert.deepEqual(runShownCurl(await page.locator('#curl').textContent()), native, 'the curl shown is the import');
  }
  await page.locator('#picture svg .bulb').waitFor();
  await page.locator('#picture svg .head').waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'fpuzzles-import.png'), fullPage: true });

  // A player's value in the f-puzzles grid (not given) is an entry, not a given.
  const played = structuredClone(shared.fpuzzles);
  played.grid[0][1] = { value: Number(SOLUTION[1]) };
  await page.fill('#paste', JSON.stringify(played));
  await page.click('#load');
  await page.locator('#message.ok', { hasText: /and 1 entry from/ }).waitFor();
  assert.equal(await boardText(page), `${PUZZLE[0]}${SOLUTION[1]}${PUZZLE.slice(2)}`);
  assert.equal(await cellBox(page, 0, 1).getAttribute('class').then((c) => c.includes('given')), false);
  assert.equal(await cellBox(page, 0, 0).getAttribute('class').then((c) => c.includes('given')), true);
  // So is the board of a game in progress pasted as the API's JSON, with its givens beside.
  const position = `${PUZZLE[0]}${SOLUTION[1]}${PUZZLE.slice(2)}`;
  await page.click('#clear-all');
  await page.fill('#paste', JSON.stringify({ ...THERMO_ARROW, board: position, givens: PUZZLE }));
  await page.click('#load');
  assert.equal(await boardText(page), position);
  assert.equal(await cellBox(page, 0, 1).getAttribute('class').then((c) => c.includes('given')), false);
  await page.locator('#solve').click();
  await page.locator('#message.ok', { hasText: /^Solved/ }).waitFor();
  assert.equal(await boardText(page), SOLUTION, 'solved under the imported thermometer and arrow');

  // Solved, the puzzle goes out as its givens: a SudokuPad link the API reads as the same puzzle.
  await page.click('#share');
  await page.locator('#message.ok', { hasText: /^The puzzle is in the paste box as a SudokuPad link/ }).waitFor();
  const link = await page.inputValue('#paste');
  assert.ok(link.startsWith('https://sudokupad.app/fpuzzles'), link);
  assert.deepEqual(await convert({ fpuzzles: link }), native);
  assert.deepEqual(problems, []); // before the refusal below, which the console logs as a 422

  // A size the 9x9 grid cannot show, and a link with no f-puzzles puzzle, are said plainly.
  const small = await convert({ board: '1.....3..4.....2' });
  await page.fill('#paste', small.sudokupad);
  await page.click('#load');
  await page.locator('#message.error').waitFor();
  assert.match(await message(page).textContent(), /^This is a 4x4 puzzle and the grid here is 9x9/);
  assert.equal(await boardText(page), SOLUTION, 'the board stays as it was');
  await page.fill('#paste', 'https://sudokupad.app/some-short-name');
  await page.click('#load');
  await page.locator('#message.error .type').waitFor();
  assert.match(await message(page).textContent(), /this link carries neither/);
  await context.close();
});

test('every error is a clear message: bad paste, no solution, and a problem+json body', async () => {
  const { page, context } = await openPlayground();
  await page.fill('#paste', '123');
  await page.click('#load');
  assert.equal(await message(page).textContent(), 'A puzzle has 81 cells; this has 3.');
  await page.fill('#paste', `x${PUZZLE.slice(1)}`);
  await page.click('#load');
  assert.match(await message(page).textContent(), /Row 1, column 1: 'x' is not a digit/);

  // No repeats, but the top-right cell has no digit left: the service says no-solution.
  await page.fill('#paste', `12345678.........9${'.'.repeat(63)}`);
  await page.click('#load');
  await page.click('#solve');
  await page.locator('#message.error .type').waitFor();
  assert.match(await message(page).textContent(), /^Puzzle has no solution: .*an entry or a given is wrong/);
  assert.match(await page.locator('#response').textContent(), /^HTTP 422/);
  await context.close();
});

test('keyboard only: one tab stop for the grid, arrows move, Enter on a button acts', async () => {
  const { page, context } = await openPlayground();
  await page.fill('#paste', PUZZLE);
  await page.click('#load');
  await page.locator('#grid input').first().focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'row 1, column 2');
  await page.keyboard.press('ArrowUp'); // wraps to the bottom row
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'row 9, column 2');
  await page.keyboard.press('5');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('8');
  await page.keyboard.press('Tab'); // out of the grid in one step
  assert.equal(await page.evaluate(() => document.activeElement.id), 'solve');
  await page.keyboard.press('Enter');
  await page.locator('#message.ok').waitFor();
  assert.equal(await boardText(page), SOLUTION);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'solve', 'focus stays put');
  await context.close();
});

test('a phone-sized screen: no sideways scrolling, and the grid takes taps and typing', async () => {
  const { page, context, problems } = await openPlayground({
    viewport: { width: 375, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  const grid = await page.locator('#grid').boundingBox();
  assert.ok(grid.width <= 375 && grid.width >= 300, `grid is ${grid.width}px wide`);
  const button = await page.locator('#solve').boundingBox();
  assert.ok(button.height >= 40, 'buttons are big enough to tap');
  await cell(page, 4, 4).tap();
  await page.keyboard.type('7');
  assert.equal(await cell(page, 4, 4).inputValue(), '7');
  await page.screenshot({ path: join(ARTIFACTS, 'phone.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('/docs: the API reference renders this server\'s spec under its CSP, with no errors', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  const response = await page.goto(`${baseUrl}/docs`);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-security-policy'], /script-src 'self';/);
  await page.locator('.opblock-summary-path', { hasText: '/v1/solve' }).first().waitFor();
  assert.ok(await page.locator('.opblock-tag', { hasText: 'unversioned aliases' }).count() === 1);
  const spec = await (await fetch(`${baseUrl}/openapi.json`)).json();
  assert.equal(await page.locator('.opblock-tag').count(), spec.tags.length,
    'every endpoint group of the spec is listed');
  await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: false });
  assert.deepEqual(problems, []);
  await context.close();
});
