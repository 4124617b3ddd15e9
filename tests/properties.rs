//! Property tests: whatever the board, an answer from the solver is a valid grid that keeps
//! the givens, and the text forms round-trip.

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

/// Few random givens: many conflict-free boards with no solution, or several.
fn sparse_line() -> impl Strategy<Value = String> {
    proptest::collection::vec((0usize..81, 1u8..=9), 0..24).prop_map(|givens| {
        let mut cells = vec![b'.'; 81];
        for (i, d) in givens {
            cells[i] = b'0' + d;
        }
        String::from_utf8(cells).unwrap()
    })
}

fn check_answer(board: Board) -> Result<(), TestCaseError> {
    let Ok(puzzle) = Puzzle::new(board) else {
        return Ok(());
    };
    let mut solver = Solver::with_budget(50_000);
    if let Ok(counted) = solver.count_solutions(&puzzle, 2) {
        prop_assert!(counted.count <= 2);
        prop_assert_eq!(counted.count == 0, counted.first.is_none());
        if let Some(solution) = counted.first {
            prop_assert!(validate(solution.board()).solved);
            for (pos, digit) in board.givens() {
                prop_assert_eq!(solution.board().get(pos), Some(digit));
            }
        }
        // Finding one solution agrees with counting on whether one exists.
        let one = solver.solve(&puzzle).unwrap();
        prop_assert_eq!(one.count, counted.count.min(1));
    }
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
    fn any_answer_on_sparse_boards_is_valid(line in sparse_line()) {
        check_answer(Board::from_line(&line).unwrap())?;
    }
}
