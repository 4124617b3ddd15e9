//! Property tests: whatever the board, the solver's count agrees with an independent
//! reference counter, every solution it gives is a valid grid that keeps the givens, and the
//! text forms round-trip.

use proptest::prelude::*;
use sudoku_service::engine::classic::Board;
use sudoku_service::engine::{validate, Budget, Counted, Engine, Grid, Puzzle};

const GRID: &str =
    "957214386123689457468357129271563894539841672684972513315726948746198235892435761";

/// One-line boards over the full alphabet, `0` included.
fn any_line() -> impl Strategy<Value = String> {
    proptest::collection::vec(prop::sample::select(b".0123456789".to_vec()), 81)
        .prop_map(|bytes| String::from_utf8(bytes).unwrap())
}

/// Boards taken from a known grid with some cells emptied: always solvable, often ambiguous.
fn solvable_line() -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<bool>(), 81).prop_map(|keep| {
        GRID.chars()
            .zip(keep)
            .map(|(c, k)| if k { c } else { '.' })
            .collect()
    })
}

/// Up to 30 random givens, each placed only where it repeats nothing: every board is a valid
/// puzzle, and many have no solution or several.
fn sparse_line() -> impl Strategy<Value = String> {
    proptest::collection::vec((0usize..81, 1u8..=9), 0..30).prop_map(|givens| {
        let mut cells = [0u8; 81];
        for (i, d) in givens {
            if cells[i] == 0 && !peers(i).any(|j| cells[j] == d) {
                cells[i] = d;
            }
        }
        cells
            .iter()
            .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
            .collect()
    })
}

/// The 20 cells that share a row, column or box with cell `i`.
fn peers(i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / 9, i % 9);
    (0..81).filter(move |&j| {
        let (jr, jc) = (j / 9, j % 9);
        j != i && (jr == r || jc == c || (jr / 3 == r / 3 && jc / 3 == c / 3))
    })
}

/// A deliberately plain reference: depth-first search on the empty cell with the fewest
/// candidates (one digit mask per row, column and box), counting solutions up to `limit`.
/// Shares nothing with the engine. Plain search can meet a board that takes it very long, so
/// it stops after [`Reference::NODES`] nodes and says so.
struct Reference {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    nodes: u32,
}

impl Reference {
    fn new(cells: [u8; 81]) -> Reference {
        let mut reference = Reference {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            nodes: 0,
        };
        for (i, &d) in cells.iter().enumerate().filter(|(_, &d)| d != 0) {
            reference.set(i, d);
        }
        reference
    }

    fn units(i: usize) -> (usize, usize, usize) {
        (i / 9, i % 9, (i / 27) * 3 + (i % 9) / 3)
    }

    fn set(&mut self, i: usize, d: u8) {
        let (r, c, b) = Reference::units(i);
        let bit = 1 << d;
        self.cells[i] = d;
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[b] |= bit;
    }

    fn clear(&mut self, i: usize) {
        let (r, c, b) = Reference::units(i);
        let bit = !(1 << self.cells[i]);
        self.cells[i] = 0;
        self.rows[r] &= bit;
        self.cols[c] &= bit;
        self.boxes[b] &= bit;
    }

    fn options(&self, i: usize) -> u16 {
        let (r, c, b) = Reference::units(i);
        0b11_1111_1110 & !(self.rows[r] | self.cols[c] | self.boxes[b])
    }

    /// Some row, column or box has a missing digit that none of its empty cells can take.
    fn dead_end(&self) -> bool {
        (0..27).any(|u| {
            let (mut placed, mut open) = (0u16, 0u16);
            for k in 0..9 {
                let i = match u / 9 {
                    0 => (u % 9) * 9 + k,
                    1 => k * 9 + u % 9,
                    _ => ((u % 9) / 3 * 3 + k / 3) * 9 + (u % 9) % 3 * 3 + k % 3,
                };
                placed |= 1 << self.cells[i];
                if self.cells[i] == 0 {
                    open |= self.options(i);
                }
            }
            (placed | open) & 0b11_1111_1110 != 0b11_1111_1110
        })
    }

    /// Nodes the reference may visit per board.
    const NODES: u32 = 200_000;

    /// Solutions up to `limit`, or `None` when the search needed more than [`Self::NODES`].
    fn count(&mut self, limit: u32) -> Option<u32> {
        self.nodes += 1;
        if self.nodes > Reference::NODES {
            return None;
        }
        if self.dead_end() {
            return Some(0);
        }
        let mut best: Option<(usize, u16)> = None;
        for i in (0..81).filter(|&i| self.cells[i] == 0) {
            let options = self.options(i);
            if best.is_none_or(|(_, o)| options.count_ones() < o.count_ones()) {
                best = Some((i, options));
            }
        }
        let Some((i, options)) = best else {
            return Some(1); // full
        };
        let mut found = 0;
        for d in (1..=9).filter(|d| options & (1 << d) != 0) {
            self.set(i, d);
            let below = self.count(limit - found);
            self.clear(i);
            found += below?;
            if found >= limit {
                break;
            }
        }
        Some(found)
    }
}

/// Counts `puzzle`'s solutions up to `limit` through the engine's facade, without a limit.
fn count(puzzle: &Puzzle, limit: u32) -> Counted {
    Engine::new()
        .count(puzzle, limit, &Budget::unlimited())
        .unwrap()
}

fn puzzle_of(line: &str) -> Puzzle {
    Puzzle::classic(Grid::from_line(line).unwrap()).unwrap()
}

fn check_answer(line: &str) -> Result<(), TestCaseError> {
    let grid = Grid::from_line(line).unwrap();
    let puzzle = Puzzle::classic(grid.clone());
    prop_assert!(puzzle.is_ok(), "the strategy makes only valid puzzles");
    let puzzle = puzzle.unwrap();
    let counted = count(&puzzle, 2);
    let mut cells = [0u8; 81];
    for (i, ch) in line.chars().enumerate() {
        cells[i] = ch.to_digit(10).unwrap_or(0) as u8;
    }
    // A board too long for the plain reference is rejected (proptest counts rejections and
    // fails when they are many); with the fixed seed below, the same boards every run.
    let Some(reference) = Reference::new(cells).count(2) else {
        return Err(TestCaseError::reject("too long for the reference search"));
    };
    prop_assert_eq!(counted.count, reference, "{}", line);
    prop_assert_eq!(counted.count == 0, counted.first.is_none());
    prop_assert_eq!(counted.count == 2, counted.second.is_some());
    for solution in counted.first.iter().chain(&counted.second) {
        prop_assert!(validate(solution.grid(), puzzle.rules()).solved);
        for (cell, digit) in grid.givens() {
            prop_assert_eq!(solution.grid().get(cell), Some(digit));
        }
    }
    if let (Some(first), Some(second)) = (&counted.first, &counted.second) {
        prop_assert!(
            !first.differences(second).is_empty(),
            "two different solutions"
        );
    }
    // Finding one solution agrees with counting on whether one exists.
    prop_assert_eq!(count(&puzzle, 1).count, counted.count.min(1));
    Ok(())
}

/// The properties' configuration: a fixed seed, so the same boards on every run and a slow or
/// failing case is reproducible rather than a rare surprise in CI; and few rejects allowed
/// (proptest's default allows 1,024 against 256 cases, 80% of the boards drawn): with this
/// seed no sparse board is too long for the reference search (checked with a limit of 0),
/// so more than 2% would mean the strategies or the reference changed, not bad luck.
fn config() -> ProptestConfig {
    ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_261_201),
        max_global_rejects: MAX_REJECTS,
        ..ProptestConfig::default()
    }
}

/// 2% of the default 256 cases.
const MAX_REJECTS: u32 = 5;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn parse_and_format_round_trip(line in any_line()) {
        let board = Board::from_line(&line).unwrap();
        prop_assert_eq!(board.to_line(), line.replace('0', "."));
        prop_assert_eq!(Board::from_rows(&board.to_rows()).unwrap(), board);
    }

    #[test]
    fn solutions_of_solvable_boards_are_valid(line in solvable_line()) {
        prop_assert!(count(&puzzle_of(&line), 2).count >= 1);
        check_answer(&line)?;
    }

    #[test]
    fn counts_on_sparse_boards_match_a_reference(line in sparse_line()) {
        check_answer(&line)?;
    }
}

/// Between them the strategies produce all three answers (none, one, several) on the very
/// boards the properties above run with (same configuration and seed, drawn the same way),
/// so the properties test each of them.
#[test]
fn the_strategies_cover_every_count() {
    use proptest::test_runner::TestRunner;
    use std::cell::RefCell;
    let seen = RefCell::new([0u32; 3]);
    let tally = |line: String| {
        seen.borrow_mut()[count(&puzzle_of(&line), 2).count as usize] += 1;
        Ok(())
    };
    TestRunner::new(config())
        .run(&sparse_line(), tally)
        .unwrap();
    TestRunner::new(config())
        .run(&solvable_line(), tally)
        .unwrap();
    let seen = seen.into_inner();
    assert!(
        seen.iter().all(|&n| n > 0),
        "counts 0/1/2 seen {seen:?} times"
    );
    assert_eq!(seen.iter().sum::<u32>(), 2 * config().cases);
}
