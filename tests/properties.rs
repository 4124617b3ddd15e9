//! Property tests: whatever the board, the solver's count agrees with an independent
//! reference counter, every solution it gives is a valid grid that keeps the givens, and the
//! text forms round-trip.

use proptest::prelude::*;
use sudoku_service::engine::{validate, Board, Puzzle, Solver};

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
/// Shares nothing with the engine.
struct Reference {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Reference {
    fn new(cells: [u8; 81]) -> Reference {
        let mut reference = Reference {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
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

    fn count(&mut self, limit: u32) -> u32 {
        if self.dead_end() {
            return 0;
        }
        let mut best: Option<(usize, u16)> = None;
        for i in (0..81).filter(|&i| self.cells[i] == 0) {
            let options = self.options(i);
            if best.is_none_or(|(_, o)| options.count_ones() < o.count_ones()) {
                best = Some((i, options));
            }
        }
        let Some((i, options)) = best else {
            return 1; // full
        };
        let mut found = 0;
        for d in (1..=9).filter(|d| options & (1 << d) != 0) {
            self.set(i, d);
            found += self.count(limit - found);
            self.clear(i);
            if found >= limit {
                break;
            }
        }
        found
    }
}

fn check_answer(board: Board) -> Result<(), TestCaseError> {
    let puzzle = Puzzle::new(board);
    prop_assert!(puzzle.is_ok(), "the strategy makes only valid puzzles");
    let puzzle = puzzle.unwrap();
    let counted = Solver::new().count_solutions(&puzzle, 2).unwrap();
    let mut cells = [0u8; 81];
    for (pos, digit) in board.givens() {
        cells[pos.index()] = digit.get();
    }
    let reference = Reference::new(cells).count(2);
    prop_assert_eq!(counted.count, reference, "{}", board);
    prop_assert_eq!(counted.count == 0, counted.first.is_none());
    if let Some(solution) = counted.first {
        prop_assert!(validate(solution.board()).solved);
        for (pos, digit) in board.givens() {
            prop_assert_eq!(solution.board().get(pos), Some(digit));
        }
    }
    // Finding one solution agrees with counting on whether one exists.
    let one = Solver::new().solve(&puzzle).unwrap();
    prop_assert_eq!(one.count, counted.count.min(1));
    Ok(())
}

proptest! {
    #[test]
    fn parse_and_format_round_trip(line in any_line()) {
        let board = Board::from_line(&line).unwrap();
        prop_assert_eq!(board.to_line(), line.replace('0', "."));
        prop_assert_eq!(Board::from_rows(&board.to_rows()).unwrap(), board);
    }

    #[test]
    fn solutions_of_solvable_boards_are_valid(line in solvable_line()) {
        let board = Board::from_line(&line).unwrap();
        let counted = Solver::new().count_solutions(&Puzzle::new(board).unwrap(), 2).unwrap();
        prop_assert!(counted.count >= 1);
        check_answer(board)?;
    }

    #[test]
    fn counts_on_sparse_boards_match_a_reference(line in sparse_line()) {
        check_answer(Board::from_line(&line).unwrap())?;
    }
}

/// Between them the strategies produce all three answers (none, one, several), so the
/// properties above test each of them.
#[test]
fn the_strategies_cover_every_count() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut seen = [0u32; 3];
    let mut count = |strategy: &dyn Fn(&mut TestRunner) -> String, runner: &mut TestRunner| {
        for _ in 0..500 {
            let line = strategy(runner);
            let puzzle = Puzzle::new(Board::from_line(&line).unwrap()).unwrap();
            seen[Solver::new().count_solutions(&puzzle, 2).unwrap().count as usize] += 1;
        }
    };
    count(
        &|r| sparse_line().new_tree(r).unwrap().current(),
        &mut runner,
    );
    count(
        &|r| solvable_line().new_tree(r).unwrap().current(),
        &mut runner,
    );
    assert!(
        seen.iter().all(|&n| n > 0),
        "counts 0/1/2 seen {seen:?} times"
    );
}
