//! Board parsing from arbitrary bytes, in both text forms: never a panic, and whatever parses
//! prints back to an equivalent board.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_service::engine::Board;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = Board::from_line(text) {
        assert_eq!(Board::from_line(&board.to_line()), Ok(board));
    }
    let rows: Vec<&str> = text.split('\n').collect();
    if let Ok(board) = Board::from_rows(&rows) {
        assert_eq!(Board::from_rows(&board.to_rows()), Ok(board));
    }
    if let Err(err) = Board::from_line(text) {
        assert!(!err.to_string().is_empty());
    }
});
