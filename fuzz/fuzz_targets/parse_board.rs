//! Board parsing from arbitrary bytes, in both text forms and every size: never a panic, and
//! whatever parses prints back to an equivalent grid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_service::engine::Grid;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Grid::from_line(text) {
        Ok(grid) => assert_eq!(Grid::from_line(&grid.to_line()), Ok(grid)),
        Err(err) => assert!(!err.to_string().is_empty()),
    }
    let rows: Vec<&str> = text.split('\n').collect();
    if let Ok(grid) = Grid::from_rows(&rows) {
        assert_eq!(Grid::from_rows(&grid.to_rows()), Ok(grid));
    }
});
