// The playground: a 9x9 grid in front of the HTTP API. It keeps the board in `cells` and the
// puzzle's rules (Killer cages, Jigsaw regions, X diagonals, Hyper windows) in `rules`, draws
// both, sends them to the service exactly as a curl user would, and shows what came back: the
// solution, the highlighted cells of a conflict or a hint, pencil marks, or the problem+json
// error.
// Plain script, no framework and no build step, so the binary can embed it as it is.
'use strict';

const SIZE = 9;
const EMPTY = 0;
const PROBLEM_PREFIX = 'urn:sudoku-service:problem:';

/** One entry per cell, row by row: the digit (0 when empty) and whether it is a given. */
const cells = Array.from({ length: SIZE * SIZE }, () => ({ digit: EMPTY, given: false }));
/** Cells filled in by the last Solve; they keep their colour until the board changes. */
let solvedCells = new Set();
/** Pencil marks from the last Candidates call, by cell index; cleared when the board changes. */
let marks = null;
/** The action whose curl command is on show; it follows the board as it changes. */
let lastAction = 'solve';
/** The cell that takes focus when the grid is tabbed into (roving tabindex). */
let activeIndex = 0;
/** Bumped on every board change, so an answer for a board that has changed since is dropped. */
let boardVersion = 0;
/**
 * The rules beyond the classic ones, in the API's own fields and form (`cages`, `regions`,
 * `diagonals`, `windows`, `anti_king`), as /generate answered them or the paste box held them; empty for a
 * classic puzzle. Every request carries them.
 */
let rules = {};
const RULE_FIELDS = [
  'cages', 'regions', 'diagonals', 'windows', 'anti_king', 'anti_knight', 'non_consecutive',
  'disjoint_groups', 'extra_regions', 'odd', 'even', 'thermometers', 'dots', 'negative',
  'whispers', 'palindromes', 'renban', 'arrows', 'little_killers', 'sandwiches', 'x_sums',
  'skyscrapers', 'between_lines', 'region_sum_lines', 'quadruples', 'minimum', 'maximum', 'clones',
];
/** Top-left cells of the four Hyper windows, 0-based, in reading order. */
const WINDOW_CORNERS = [[1, 1], [1, 5], [5, 1], [5, 5]];

const $ = (id) => document.getElementById(id);
const inputs = [];
const cellBoxes = [];

// ---------------------------------------------------------------- the grid

function buildGrid() {
  const grid = $('grid');
  for (let index = 0; index < SIZE * SIZE; index++) {
    const row = Math.floor(index / SIZE);
    const col = index % SIZE;
    const box = document.createElement('div');
    box.className = `cell row-${row} col-${col}`;
    const input = document.createElement('input');
    input.type = 'text';
    input.inputMode = 'numeric';
    input.autocomplete = 'off';
    input.tabIndex = index === activeIndex ? 0 : -1;
    input.setAttribute('aria-label', `row ${row + 1}, column ${col + 1}`);
    input.dataset.index = String(index);
    input.addEventListener('keydown', onCellKey);
    input.addEventListener('input', onCellInput);
    input.addEventListener('focus', () => {
      moveFocus(index, false);
      input.select(); // the next digit typed replaces this one, on phones too
    });
    input.addEventListener('paste', onCellPaste);
    const pencil = document.createElement('div');
    pencil.className = 'marks';
    pencil.setAttribute('aria-hidden', 'true');
    box.append(input, pencil);
    grid.append(box);
    inputs.push(input);
    cellBoxes.push(box);
  }
}

// ---------------------------------------------------------------- the rules on the grid

/** The rule fields of an object (a /generate answer, a pasted JSON body) that are set. */
function rulesFrom(source) {
  const picked = {};
  for (const field of RULE_FIELDS) {
    const value = source[field];
    if (value !== undefined && value !== null && value !== false && !(Array.isArray(value) && value.length === 0)) {
      picked[field] = value;
    }
  }
  return picked;
}

/** The variant's name, as a player knows it: "classic", "Killer", "Jigsaw X"... */
function variantName() {
  const names = [];
  if (rules.regions) names.push('Jigsaw');
  if (rules.diagonals === true) names.push('X');
  else if (rules.diagonals) names.push('Diagonal');
  if (rules.windows) names.push('Hyper');
  if (rules.cages) names.push('Killer');
  if (rules.anti_king) names.push('Anti-King');
  if (rules.anti_knight) names.push('Anti-Knight');
  if (rules.non_consecutive) names.push('Non-Consecutive');
  if (rules.disjoint_groups) names.push('Disjoint Groups');
  if (rules.extra_regions) names.push('Extra Regions');
  if (rules.odd || rules.even) names.push('Odd-Even');
  if (rules.thermometers) names.push('Thermo');
  if (rules.dots) names.push('Kropki');
  if (rules.whispers) names.push('Whispers');
  if (rules.palindromes) names.push('Palindrome');
  if (rules.renban) names.push('Renban');
  if (rules.arrows) names.push('Arrow');
  if (rules.little_killers) names.push('Little Killer');
  if (rules.sandwiches) names.push('Sandwich');
  if (rules.x_sums) names.push('X-Sums');
  if (rules.skyscrapers) names.push('Skyscrapers');
  if (rules.between_lines) names.push('Between Lines');
  if (rules.region_sum_lines) names.push('Region Sum Lines');
  if (rules.quadruples) names.push('Quadruple');
  if (rules.minimum || rules.maximum) names.push('Min-Max');
  if (rules.clones) names.push('Clone');
  return names.join(' ') || 'classic';
}

/** A region label per cell: the boxes', or the `regions` field's in any of its forms. */
function regionLabels() {
  const boxes = Array.from({ length: SIZE * SIZE }, (_, index) =>
    `box${Math.floor(index / 27) * 3 + Math.floor((index % SIZE) / 3)}`);
  const { regions } = rules;
  let labels = [];
  if (typeof regions === 'string') {
    labels = [...regions.replace(/\s+/g, '')];
  } else if (Array.isArray(regions)) {
    labels = regions.flatMap((row) => (typeof row === 'string' ? [...row] : Array.from(row || [], String)));
  }
  return labels.length === SIZE * SIZE ? labels : boxes; // a malformed field is the service's to name
}

/** Cell indexes of a cage's cells, given as {row, col} or [row, col]; cells off the grid are left out. */
function cageIndexes(cage) {
  const indexes = [];
  for (const cell of (cage && Array.isArray(cage.cells) ? cage.cells : [])) {
    const [row, col] = Array.isArray(cell) ? cell : [cell?.row, cell?.col];
    if (Number.isInteger(row) && Number.isInteger(col) && row >= 0 && row < SIZE && col >= 0 && col < SIZE) {
      indexes.push(row * SIZE + col);
    }
  }
  return indexes;
}

const windowOf = (row, col) => WINDOW_CORNERS.findIndex(([top, left]) =>
  row >= top && row < top + 3 && col >= left && col < left + 3);

/** The four neighbours of a cell that are on the grid, by side. */
function neighbours(index) {
  const row = Math.floor(index / SIZE);
  const col = index % SIZE;
  return {
    top: row > 0 ? index - SIZE : -1,
    right: col < SIZE - 1 ? index + 1 : -1,
    bottom: row < SIZE - 1 ? index + SIZE : -1,
    left: col > 0 ? index - 1 : -1,
  };
}

/**
 * Draws the rules: thick borders between regions (boxes, or Jigsaw regions), shading on the
 * diagonals and windows, each cage as a dashed outline with its sum in the corner of its first
 * cell; each cell's label says what it belongs to.
 */
function drawRules() {
  const regionOf = regionLabels();
  const regionNumber = new Map(); // regions are numbered by their first cell, as the API does
  for (const label of regionOf) if (!regionNumber.has(label)) regionNumber.set(label, regionNumber.size + 1);
  const cages = Array.isArray(rules.cages) ? rules.cages : [];
  const cageCells = cages.map(cageIndexes);
  const cageOf = new Array(SIZE * SIZE).fill(-1);
  cageCells.forEach((indexes, number) => indexes.forEach((index) => { cageOf[index] = number; }));

  cellBoxes.forEach((box, index) => {
    const row = Math.floor(index / SIZE);
    const col = index % SIZE;
    const next = neighbours(index);
    box.classList.toggle('edge-right', next.right >= 0 && regionOf[next.right] !== regionOf[index]);
    box.classList.toggle('edge-bottom', next.bottom >= 0 && regionOf[next.bottom] !== regionOf[index]);
    const onDiagonal = (rules.diagonals === true || rules.diagonals === 'main') && row === col
      || (rules.diagonals === true || rules.diagonals === 'anti') && row + col === SIZE - 1;
    const window = rules.windows ? windowOf(row, col) : -1;
    box.classList.toggle('diagonal', onDiagonal);
    box.classList.toggle('window', window >= 0);
    for (const old of box.querySelectorAll('.cage, .cage-sum')) old.remove();

    const label = [`row ${row + 1}, column ${col + 1}`];
    if (rules.regions) label.push(`region ${regionNumber.get(regionOf[index])}`);
    if (onDiagonal) label.push('on a diagonal');
    if (window >= 0) label.push(`window ${window + 1}`);
    const cage = cageOf[index];
    if (cage >= 0) {
      const outline = document.createElement('div');
      outline.className = 'cage';
      outline.setAttribute('aria-hidden', 'true');
      for (const [side, other] of Object.entries(next)) {
        if (other >= 0 && cageOf[other] === cage) outline.classList.add(`open-${side}`);
      }
      box.append(outline);
      const sum = cages[cage].sum;
      if (sum !== undefined && sum !== null && Math.min(...cageCells[cage]) === index) {
        const corner = document.createElement('span');
        corner.className = 'cage-sum';
        corner.setAttribute('aria-hidden', 'true');
        corner.textContent = String(sum);
        box.append(corner);
      }
      label.push(sum === undefined || sum === null
        ? `cage of ${plural(cageCells[cage].length, 'cell')} with distinct digits`
        : `cage of ${plural(cageCells[cage].length, 'cell')} adding up to ${sum}`);
    }
    box.classList.toggle('cage-first', box.querySelector('.cage-sum') !== null);
    inputs[index].setAttribute('aria-label', label.join(', '));
  });
  const name = variantName();
  $('grid').setAttribute('aria-label', `${name === 'classic' ? 'Sudoku' : `${name} Sudoku`} board, 9 by 9. Arrow keys move, 1 to 9 enter a digit, Backspace, Delete, 0 or period clear.`);
}

/** New rules: drawn at once, and sent from the next request on. */
function setRules(next) {
  rules = next;
  drawRules();
}

function moveFocus(index, focus = true) {
  inputs[activeIndex].tabIndex = -1;
  activeIndex = index;
  inputs[index].tabIndex = 0;
  if (focus) inputs[index].focus();
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function onCellKey(event) {
  const index = Number(event.target.dataset.index);
  if (event.ctrlKey || event.metaKey || event.altKey) return; // leave copy/paste shortcuts alone
  if (ARROWS[event.key]) {
    const [dr, dc] = ARROWS[event.key];
    const row = (Math.floor(index / SIZE) + dr + SIZE) % SIZE;
    const col = ((index % SIZE) + dc + SIZE) % SIZE;
    moveFocus(row * SIZE + col);
    event.preventDefault();
  } else if (event.key === 'Home' || event.key === 'End') {
    const rowStart = index - (index % SIZE);
    moveFocus(event.key === 'Home' ? rowStart : rowStart + SIZE - 1);
    event.preventDefault();
  } else if (/^[1-9]$/.test(event.key)) {
    enter(index, Number(event.key));
    event.preventDefault();
  } else if (['Backspace', 'Delete', '0', '.', ' '].includes(event.key)) {
    enter(index, EMPTY);
    event.preventDefault();
  } else if (event.key.length === 1) {
    event.preventDefault(); // any other character is not a Sudoku digit
  }
}

/** Phone keyboards often send no usable key code: read what the input now holds instead. */
function onCellInput(event) {
  const index = Number(event.target.dataset.index);
  const typed = event.target.value.slice(-1);
  enter(index, /^[1-9]$/.test(typed) ? Number(typed) : EMPTY);
}

/** Pasting a whole puzzle into any cell loads it, like the paste box does. */
function onCellPaste(event) {
  const text = (event.clipboardData || window.clipboardData).getData('text');
  event.preventDefault();
  if (text.trim().length > 1) {
    loadText(text);
  } else if (/^[1-9]$/.test(text.trim())) {
    enter(Number(event.target.dataset.index), Number(text.trim()));
  }
}

function enter(index, digit) {
  if (cells[index].given) {
    render();
    say('info', 'That cell is a given. Use Clear all, or edit the paste box and press Load, to change the puzzle.');
    return;
  }
  cells[index].digit = digit;
  boardChanged();
}

/** Anything that changes the board makes old highlights and marks stale. */
function boardChanged() {
  boardVersion += 1;
  solvedCells = new Set();
  marks = null;
  clearHighlights();
  render();
  showCurl();
}

function render() {
  cells.forEach((cell, index) => {
    const input = inputs[index];
    input.value = cell.digit === EMPTY ? '' : String(cell.digit);
    input.readOnly = cell.given;
    input.setAttribute('aria-readonly', String(cell.given));
    const box = cellBoxes[index];
    box.classList.toggle('given', cell.given);
    box.classList.toggle('solved', solvedCells.has(index));
    const pencil = box.querySelector('.marks');
    pencil.replaceChildren();
    if (marks && cell.digit === EMPTY) {
      for (let digit = 1; digit <= SIZE; digit++) {
        const span = document.createElement('span');
        span.textContent = marks[index].includes(digit) ? String(digit) : '';
        pencil.append(span);
      }
      input.setAttribute('aria-description', `candidates ${marks[index].join(' ')}`);
    } else {
      input.removeAttribute('aria-description');
    }
  });
}

function clearHighlights() {
  for (const box of cellBoxes) box.classList.remove('conflict', 'hint', 'target');
  for (const input of inputs) input.removeAttribute('aria-invalid');
}

/** Colours the cells; conflicting ones are also marked invalid for screen readers. */
function highlight(positions, className) {
  for (const { row, col } of positions) {
    if (row >= 0 && row < SIZE && col >= 0 && col < SIZE) {
      cellBoxes[row * SIZE + col].classList.add(className);
      if (className === 'conflict') inputs[row * SIZE + col].setAttribute('aria-invalid', 'true');
    }
  }
}

// ---------------------------------------------------------------- board <-> text

/** The board as the API's rows form: 9 strings of 9, '.' for an empty cell. */
function rowsOf(pick) {
  const rows = [];
  for (let row = 0; row < SIZE; row++) {
    let text = '';
    for (let col = 0; col < SIZE; col++) {
      const cell = cells[row * SIZE + col];
      text += pick(cell) ? String(cell.digit) : '.';
    }
    rows.push(text);
  }
  return rows;
}
const boardRows = () => rowsOf((cell) => cell.digit !== EMPTY);
const givenRows = () => rowsOf((cell) => cell.given);
const hasGivens = () => cells.some((cell) => cell.given);
const hasEntries = () => cells.some((cell) => !cell.given && cell.digit !== EMPTY);

/**
 * Reads what a person pastes: 81 cells as one line or 9 lines (spaces ignored), or JSON as the
 * API takes it ({"board": ...} with any rule fields, an array of 9 rows, or a string). Returns
 * the digits and the rules (none but a JSON body's); throws a sentence on failure. (A puzzle in
 * f-puzzles' forms is the service's to read: see `fpuzzlesIn`.)
 */
function parsePuzzle(text) {
  const source = text.trim();
  if (source === '') throw new Error('The paste box is empty: paste 81 characters, one per cell.');
  if (!/^[[{"]/.test(source)) return { digits: digitsOf(source), rules: {} };
  let value;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new Error(`That looks like JSON but does not parse: ${error.message}`);
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    // A game in progress: `givens` is the puzzle, `board` the position with its entries.
    const rules = rulesFrom(value);
    if (value.givens === undefined) return { digits: digitsOf(boardText(value.board)), rules };
    const entries = digitsOf(boardText(value.board));
    return { digits: digitsOf(boardText(value.givens)), rules, entries };
  }
  return { digits: digitsOf(boardText(value)), rules: {} };
}

/** A board in any of the API's JSON forms as text, one character a cell. */
function boardText(value) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((row) => typeof row === 'string')) return value.join('');
  if (Array.isArray(value) && value.every(Array.isArray)) {
    const cell = (d, row, col) => {
      if (d === 0 || d === null) return '.';
      if (Number.isInteger(d) && d >= 1 && d <= 9) return String(d);
      throw new Error(`Row ${row + 1}, column ${col + 1}: ${JSON.stringify(d)} is not a digit 1-9 or an empty cell (0 or null).`);
    };
    return value.map((cells, row) => cells.map((d, col) => cell(d, row, col)).join('')).join('');
  }
  throw new Error('In JSON, the board is a string of 81 characters, an array of 9 row strings, or 9 arrays of 9 numbers.');
}

/** The digits of 81 cells as text (`.` or `0` empty, spaces ignored); throws a sentence. */
function digitsOf(text) {
  const compact = text.replace(/\s+/g, '');
  const bad = compact.search(/[^0-9.]/);
  if (bad >= 0 && bad < SIZE * SIZE) {
    throw new Error(`Row ${Math.floor(bad / SIZE) + 1}, column ${(bad % SIZE) + 1}: '${compact[bad]}' is not a digit 1-9 or an empty cell ('.' or '0').`);
  }
  if (compact.length !== SIZE * SIZE) {
    throw new Error(`A puzzle has 81 cells; this has ${compact.length}.`);
  }
  return Array.from(compact, (ch) => (ch === '.' ? EMPTY : Number(ch)));
}

/**
 * What pasted text holds when it is a puzzle in f-puzzles' forms, to send as `fpuzzles`: an
 * f-puzzles or SudokuPad link, the compressed string such a link carries, or f-puzzles' JSON
 * object (with its `grid`), bare or as a body's `fpuzzles`. Null for the playground's own
 * forms. Only the service reads these (POST /v1/fpuzzles), so the page and the API never
 * disagree about what a puzzle says.
 */
function fpuzzlesIn(text) {
  const source = text.trim();
  if (source.startsWith('{')) {
    let value;
    try {
      value = JSON.parse(source);
    } catch {
      return null; // parsePuzzle says what is wrong with it
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    if ('fpuzzles' in value) return value.fpuzzles;
    return 'grid' in value && !('board' in value) ? value : null;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return source;
  if (/^(www\.)?(f-puzzles\.com|(beta\.)?sudokupad\.app)\//i.test(source)) return `https://${source}`;
  // The compressed object (lz-string base64 of JSON opening with `{"`, which always starts
  // `N4`), alone or as a SudokuPad id, perhaps broken across lines; other text is
  // parsePuzzle's to name.
  const compact = source.replace(/\s+/g, '');
  return /^(fpuzzles)?N4[A-Za-z0-9+/=]+$/.test(compact) ? compact : null;
}

/**
 * Loads a puzzle under its rules: its digits become givens, and every earlier entry goes;
 * `entries` (a player's digits, 0 where none), when given, are entered over them.
 */
function loadPuzzle({ digits, rules: puzzleRules, entries = [] }) {
  setRules(puzzleRules);
  digits.forEach((digit, index) => {
    cells[index].digit = digit === EMPTY ? (entries[index] ?? EMPTY) : digit;
    cells[index].given = digit !== EMPTY;
  });
  boardChanged();
  showPicture();
}

// ---------------------------------------------------------------- the picture

/** Bumped for every picture asked for, so that only the latest one is shown. */
let pictureVersion = 0;

/**
 * Shows the puzzle (givens and rules) as the service draws it: the SVG of POST /v1/render,
 * put into the page as it came (parsed as SVG, never as HTML, so nothing in it can run), so the
 * page and the API's images never disagree. Every rule family is drawn there, including those
 * the grid above has no drawing for (thermometers, arrows, outside clues...).
 */
async function showPicture() {
  const version = ++pictureVersion;
  const figure = $('picture');
  const note = $('picture-note');
  const body = withRules({ board: givenRows(), format: 'svg' });
  let response;
  let text;
  try {
    response = await fetch('/v1/render', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'image/svg+xml' },
      body: JSON.stringify(body),
    });
    text = await response.text();
  } catch (error) {
    if (version === pictureVersion) note.textContent = `No picture: ${error.message}`;
    return;
  }
  if (version !== pictureVersion) return;
  const svg = response.ok
    ? new DOMParser().parseFromString(text, 'image/svg+xml').documentElement
    : null;
  if (svg === null || svg.nodeName !== 'svg') {
    figure.replaceChildren();
    let detail = `HTTP ${response.status}`;
    try {
      detail = JSON.parse(text).detail ?? detail;
    } catch {
      /* not a problem document: the status says enough */
    }
    note.textContent = `No picture: ${detail}`;
    return;
  }
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `The ${variantName() === 'classic' ? '' : `${variantName()} `}puzzle as the service draws it`);
  figure.replaceChildren(document.importNode(svg, true));
  note.textContent = 'The puzzle as POST /v1/render draws it: the same SVG the API answers, and as PNG or PDF.';
}

/** The f-puzzles puzzle being imported (the `fpuzzles` of the import's request). */
let importSource = null;

async function loadText(text) {
  if (busy) {
    say('info', 'A request is still running: press Load again when it has answered.');
    return;
  }
  const fpuzzles = fpuzzlesIn(text);
  if (fpuzzles !== null) {
    await importFpuzzles(fpuzzles);
    return;
  }
  try {
    const puzzle = parsePuzzle(text);
    loadPuzzle(puzzle);
    const givens = puzzle.digits.filter((d) => d !== EMPTY).length;
    const variant = variantName() === 'classic' ? '' : ` ${variantName()}`;
    say('info', `Loaded a${variant} puzzle with ${givens} givens.`);
  } catch (error) {
    say('error', error.message);
  }
}

/**
 * Loads a puzzle in f-puzzles' forms as the service converts it: POST /v1/fpuzzles answers
 * the board and rule fields it stands for. The grid here is 9x9; other sizes are the API's.
 */
async function importFpuzzles(fpuzzles) {
  importSource = fpuzzles;
  const answer = await call('import');
  if (!answer) return;
  const size = Array.isArray(answer.board) ? answer.board.length : 0;
  if (size !== SIZE) {
    say('error', `This is a ${size}x${size} puzzle and the grid here is 9x9. The API takes every size from 4x4 to 16x16: send the curl command's body to /v1/solve.`);
    return;
  }
  // A grid with a player's values comes back as `board` (givens and values) beside `givens`.
  const digits = (answer.givens ?? answer.board).flat();
  const entries = answer.givens ? answer.board.flat() : [];
  loadPuzzle({ digits, rules: rulesFrom(answer), entries });
  lastAction = 'import';
  showCurl();
  const givens = digits.filter((d) => d !== EMPTY).length;
  const entered = entries.filter((d, index) => d !== EMPTY && digits[index] === EMPTY).length;
  const variant = variantName() === 'classic' ? '' : ` ${variantName()}`;
  const withEntries = entered ? ` and ${plural(entered, 'entry', 'entries')}` : '';
  say('ok', `Loaded a${variant} puzzle with ${plural(givens, 'given')}${withEntries} from f-puzzles' format, as POST /v1/fpuzzles reads it.`);
}

/** Puts the puzzle in the paste box as a SudokuPad link (the f-puzzles forms are in the response). */
async function share() {
  const answer = await call('share');
  if (!answer) return;
  $('paste').value = answer.sudokupad;
  say('ok', 'The puzzle is in the paste box as a SudokuPad link; its f-puzzles link and JSON are in the response below.');
}

// ---------------------------------------------------------------- requests

/** The puzzle as it started: the givens during a game, else the board as typed. */
const puzzleRows = () => (hasGivens() && hasEntries() ? givenRows() : boardRows());

/** A board request's body: the board's fields, then the puzzle's rules. */
const withRules = (fields) => ({ ...fields, ...rules });

/** The seed typed for Generate: null when the box is empty (a random seed), NaN when not a seed. */
function typedSeed() {
  const text = $('seed').value.trim();
  if (text === '') return null;
  const seed = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(seed) ? seed : NaN;
}

/** Generate's body: a puzzle of the chosen variant at the chosen difficulty. */
function generateBody() {
  const variant = $('variant').value;
  const body = variant === 'classic' ? {} : { variant };
  body.difficulty = $('difficulty').value;
  const seed = typedSeed();
  if (seed !== null && !Number.isNaN(seed)) body.seed = seed;
  return { ...body, format: 'rows' };
}

/** The request each action sends for the board as it is now. */
const ACTIONS = {
  solve: () => ({ path: '/v1/solve', body: withRules({ board: boardRows() }) }),
  validate: () => ({ path: '/v1/validate', body: withRules({ board: boardRows() }) }),
  hint: () => ({
    path: '/v1/hint',
    body: withRules(hasGivens() && hasEntries() ? { board: boardRows(), givens: givenRows() } : { board: boardRows() }),
  }),
  candidates: () => ({
    path: '/v1/candidates',
    body: withRules($('techniques').checked ? { board: boardRows(), techniques: true } : { board: boardRows() }),
  }),
  // A game in progress is graded as the puzzle it started from.
  grade: () => ({ path: '/v1/grade', body: withRules({ board: puzzleRows() }) }),
  generate: () => ({ path: '/v1/generate', body: generateBody() }),
  import: () => ({ path: '/v1/fpuzzles', body: { fpuzzles: importSource } }),
  share: () => ({ path: '/v1/fpuzzles', body: withRules({ board: puzzleRows() }) }),
};

const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

function curlCommand({ path, body }) {
  return `curl -s ${shellQuote(location.origin + path)} -H 'Content-Type: application/json' -d ${shellQuote(JSON.stringify(body))}`;
}

function showCurl() {
  $('curl').textContent = curlCommand(ACTIONS[lastAction]());
}

let busy = false;

/**
 * Sends one action's request; returns the parsed body on 2xx, or null after saying what went
 * wrong, or when the board changed while the request was running (the answer is then stale).
 */
async function call(action) {
  if (busy) return null;
  lastAction = action;
  const request = ACTIONS[action]();
  const sentFor = boardVersion;
  $('curl').textContent = curlCommand(request);
  setBusy(true);
  const started = performance.now();
  try {
    let response;
    try {
      response = await fetch(request.path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(request.body),
      });
    } catch (error) {
      say('error', `Could not reach the service (${error.message}). Is it still running?`);
      $('response').textContent = String(error);
      return null;
    }
    const elapsed = (performance.now() - started).toFixed(1);
    const text = await response.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: shown raw below */
    }
    const shown = body === null ? text : JSON.stringify(body, null, 2);
    $('response').textContent = `HTTP ${response.status} ${response.statusText} · ${elapsed} ms\n${shown}`;
    if (boardVersion !== sentFor && !['generate', 'import'].includes(action)) {
      const button = $(action)?.textContent ?? action;
      say('info', `The board changed while ${action} was running, so its answer no longer fits; press ${button} again.`);
      return null;
    }
    if (response.ok && body !== null) return body;
    showProblem(response, body);
    return null;
  } finally {
    setBusy(false);
  }
}

/** aria-disabled rather than disabled: a disabled button drops the keyboard focus. */
function setBusy(on) {
  busy = on;
  for (const id of ['solve', 'validate', 'hint', 'candidates', 'grade', 'generate', 'load', 'share']) {
    $(id).setAttribute('aria-disabled', String(on));
  }
}

/** What each problem type means for the person at the grid, beyond the server's own detail. */
const PROBLEM_ADVICE = {
  'invalid-board': 'Fix the highlighted cell.',
  'conflicting-givens': 'The highlighted cells repeat a digit; change one of them.',
  'no-solution': 'No digit arrangement completes this board; an entry or a given is wrong. Validate to check for repeats, or Hint for the first wrong entry.',
  'budget-exhausted': 'This board needs more search than one request may use. Add givens, or check it with Validate.',
  overloaded: 'The service is busy.',
  timeout: 'The request took too long.',
  'shutting-down': 'This server is restarting.',
  'body-too-large': 'The request is larger than the service accepts.',
  'invalid-cages': 'Fix the cages in the paste box and press Load.',
  'invalid-regions': 'Fix the regions in the paste box and press Load.',
};

function showProblem(response, problem) {
  if (!problem || typeof problem !== 'object') {
    say('error', `The service answered HTTP ${response.status} without a JSON body.`);
    return;
  }
  const kind = typeof problem.type === 'string' && problem.type.startsWith(PROBLEM_PREFIX)
    ? problem.type.slice(PROBLEM_PREFIX.length)
    : '';
  clearHighlights();
  if (Number.isInteger(problem.row) && Number.isInteger(problem.col)) {
    highlight([{ row: problem.row, col: problem.col }], 'conflict');
  }
  for (const conflict of problem.conflicts || []) highlight(conflict.cells, 'conflict');
  const parts = [problem.detail || problem.title || `HTTP ${response.status}`];
  if (PROBLEM_ADVICE[kind]) parts.push(PROBLEM_ADVICE[kind]);
  const retry = response.headers.get('Retry-After');
  if (retry) parts.push(`Try again in ${retry} s.`);
  say('error', `${problem.title || 'Error'}: ${parts.join(' ')}`, `${response.status} ${problem.type || ''}`);
}

/** The message line under the grid; `kind` is info, ok or error. */
function say(kind, text, type = '') {
  const message = $('message');
  message.className = `message ${kind}`;
  message.textContent = text;
  if (type) {
    const small = document.createElement('span');
    small.className = 'type';
    small.textContent = type;
    message.append(small);
  }
}

const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const article = (word) => (/^[aeiou]/i.test(word) ? 'An' : 'A');

// ---------------------------------------------------------------- the actions

async function solve() {
  const result = await call('solve');
  if (!result) return;
  const digits = result.solution.join('');
  const filled = new Set();
  cells.forEach((cell, index) => {
    if (cell.digit === EMPTY) filled.add(index);
    cell.digit = Number(digits[index]);
  });
  marks = null;
  clearHighlights();
  solvedCells = filled;
  render(); // the curl command stays the one just sent, for the puzzle as it was
  const uniqueness = result.unique ? 'the only solution' : 'one of several solutions';
  say('ok', `Solved: ${uniqueness}, ${plural(filled.size, 'cell')} filled, ${plural(result.stats.guesses, 'guess', 'guesses')} in ${result.stats.micros} µs.`);
}

/** "every row, column and box holds 1-9 once", and so on for the rules in play. */
function rulesKept() {
  const houses = ['row', 'column', rules.regions ? 'region' : 'box'];
  if (rules.diagonals) houses.push('diagonal');
  if (rules.windows) houses.push('window');
  const last = houses.pop();
  const cages = rules.cages ? ', and every cage adds up to its sum with no digit twice' : '';
  const king = rules.anti_king ? ', and no digit touches itself diagonally' : '';
  return `every ${houses.join(', ')} and ${last} holds 1-9 once${cages}${king}`;
}

function describeConflict(conflict) {
  if (conflict.unit === 'anti_king') return `${conflict.digit} touches itself diagonally`;
  return `${conflict.digit} repeats in ${conflict.unit.replaceAll('_', ' ')} ${conflict.index + 1}`;
}

async function validate() {
  const result = await call('validate');
  if (!result) return;
  clearHighlights();
  if (!result.valid) {
    for (const conflict of result.conflicts) highlight(conflict.cells, 'conflict');
    const list = result.conflicts.map(describeConflict).join('; ');
    say('error', `Not valid, ${plural(result.conflicts.length, 'conflict')}: ${list}.`);
  } else if (result.solved) {
    say('ok', `Solved: ${rulesKept()}.`);
  } else if (result.solutions === 0) {
    say('error', 'No repeats, but this board can no longer be completed: an entry or a given is wrong. Hint names the first wrong entry.');
  } else {
    const count = result.solutions === 1 ? 'exactly one solution' : 'more than one solution';
    say('ok', `Valid so far, no repeats; the board has ${count}.`);
  }
}

async function hint() {
  const result = await call('hint');
  if (!result) return;
  clearHighlights();
  if (result.conflict) highlight(result.conflict.cells, 'conflict');
  if (result.kind === 'mistake' && result.cell) highlight([result.cell], 'conflict');
  if (result.step) {
    highlight(result.step.cells, 'hint');
    highlight(result.step.placements, 'target');
    highlight(result.step.eliminations, 'target');
  }
  if (result.kind === 'guess' && result.cell) highlight([result.cell], 'target');
  const first = (result.setup || []).map((step) => step.explanation);
  const setup = first.length ? ` First, eliminations to make: ${first.join(' ')}` : '';
  const kind = ['conflict', 'mistake', 'unsolvable'].includes(result.kind) ? 'error' : 'info';
  say(kind, `${result.explanation}${setup}`);
}

async function candidates() {
  const result = await call('candidates');
  if (!result) return;
  clearHighlights();
  marks = result.candidates.flat();
  render();
  const open = marks.filter((m, index) => cells[index].digit === EMPTY).length;
  const how = result.techniques ? 'after every elimination technique' : 'after basic eliminations';
  say('info', `Pencil marks for ${plural(open, 'empty cell')}, ${how}.`);
}

/** "rated 4.0 on the Sudoku Explainer scale; hardest technique: skyscraper" */
function describeGrade(grade) {
  const hardest = grade.hardest ? grade.hardest.replace(/_/g, ' ') : 'none';
  return `rated ${grade.rating.toFixed(1)} on the Sudoku Explainer scale; hardest technique: ${hardest}`;
}

async function grade() {
  const result = await call('grade');
  if (!result) return;
  clearHighlights();
  const guessing = result.needs_guessing
    ? (result.unique ? ' The techniques cannot finish it: a player would have to guess.' : ' It has several solutions, so logic alone cannot finish it.')
    : '';
  say('ok', `${article(result.difficulty)} ${result.difficulty} puzzle, ${describeGrade(result)}.${guessing}`);
}

async function generate() {
  if (Number.isNaN(typedSeed())) {
    say('error', `A seed is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; leave the box empty for a random one.`);
    return;
  }
  const result = await call('generate');
  if (!result) return;
  loadPuzzle({ digits: parsePuzzle(result.board.join('')).digits, rules: rulesFrom(result) });
  lastAction = 'generate';
  showCurl();
  const again = `(seed ${result.seed}: send it again to get the same puzzle)`;
  const variant = variantName() === 'classic' ? '' : ` ${variantName()}`;
  const kind = result.grade ? `${result.difficulty}${variant}` : variant.trim();
  const cages = rules.cages ? ` and ${plural(rules.cages.length, 'cage')}` : '';
  const graded = result.grade ? `, ${describeGrade(result.grade)}` : '';
  say('ok', `${article(kind)} ${kind} puzzle with ${result.clues} givens${cages}${graded} ${again}.`);
}

function clearEntries() {
  for (const cell of cells) if (!cell.given) cell.digit = EMPTY;
  boardChanged();
  say('info', 'Entries cleared; the givens stay.');
}

function clearAll() {
  for (const cell of cells) {
    cell.digit = EMPTY;
    cell.given = false;
  }
  setRules({});
  boardChanged();
  showPicture();
  say('info', 'Board cleared; the rules are classic again.');
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say('info', `${what} copied.`);
  } catch {
    say('info', `Select the ${what.toLowerCase()} and copy it: this browser did not allow the page to.`);
  }
}

/** The puzzle a first visit opens with, so that every button has something to work on. */
const SAMPLE_PUZZLE = '9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1';

function init() {
  buildGrid();
  drawRules();
  render();
  showCurl();
  loadPuzzle(parsePuzzle(SAMPLE_PUZZLE));
  say('info', 'A sample puzzle is loaded: press Solve, Hint or Candidates, type into the grid, or Generate another.');
  $('solve').addEventListener('click', solve);
  $('validate').addEventListener('click', validate);
  $('hint').addEventListener('click', hint);
  $('candidates').addEventListener('click', candidates);
  $('grade').addEventListener('click', grade);
  $('generate').addEventListener('click', generate);
  $('clear-entries').addEventListener('click', clearEntries);
  $('clear-all').addEventListener('click', clearAll);
  $('load').addEventListener('click', () => loadText($('paste').value));
  $('export').addEventListener('click', () => {
    if (variantName() === 'classic') {
      $('paste').value = boardRows().join('');
      say('info', 'The board is in the paste box as one 81-character line.');
    } else {
      $('paste').value = JSON.stringify(withRules({ board: boardRows().join('') }));
      say('info', `The board is in the paste box as JSON, with the ${variantName()} rules.`);
    }
  });
  $('share').addEventListener('click', share);
  $('copy-curl').addEventListener('click', () => copyText($('curl').textContent, 'Curl command'));
  $('techniques').addEventListener('change', () => {
    if (lastAction === 'candidates') showCurl();
  });
  for (const id of ['difficulty', 'seed']) {
    $(id).addEventListener('input', () => {
      if (lastAction === 'generate') showCurl();
    });
  }
  $('variant').addEventListener('change', () => {
    if (lastAction === 'generate') showCurl();
  });
  $('paste').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) loadText($('paste').value);
  });
}

document.addEventListener('DOMContentLoaded', init);
