//! The solver on arbitrary well-shaped boards, with a budget: never a panic or a hang, and
//! every solution it returns is a valid grid keeping the givens.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_service::engine::{validate, Board, Pos, Puzzle, Solver};

fuzz_target!(|data: &[u8]| {
    let mut board = Board::empty();
    for (i, &byte) in data.iter().take(81).enumerate() {
        // Mostly empty cells, so that many inputs are solvable or ambiguous.
        let value = byte % 32;
        if (1..=9).contains(&value) {
            board.set(Pos::from_index(i), sudoku_service::engine::Digit::new(value));
        }
    }
    let Ok(puzzle) = Puzzle::new(board) else {
        assert!(!validate(&board).conflicts.is_empty());
        return;
    };
    let mut solver = Solver::with_budget(2_000);
    if let Ok(counted) = solver.count_solutions(&puzzle, 2) {
        assert!(counted.count <= 2);
        if let Some(solution) = counted.first {
            assert!(validate(solution.board()).solved);
            for (pos, digit) in board.givens() {
                assert_eq!(solution.board().get(pos), Some(digit));
            }
        } else {
            assert_eq!(counted.count, 0);
        }
    }
});
