//! The engine on arbitrary well-shaped boards (4x4 to 16x16), with a work budget: never a
//! panic or a hang, and every solution it returns is a valid grid keeping the givens.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_service::engine::{validate, Budget, Cell, Digit, Engine, Grid, Puzzle, Shape};

fuzz_target!(|data: &[u8]| {
    let Some((&size, cells)) = data.split_first() else {
        return;
    };
    let shape = [
        Shape::FOUR,
        Shape::SIX,
        Shape::NINE,
        Shape::NINE,
        Shape::SIXTEEN,
    ][usize::from(size) % 5];
    let mut grid = Grid::empty(shape);
    for (i, &byte) in cells.iter().take(shape.cells()).enumerate() {
        // Mostly empty cells, so that many inputs are solvable or ambiguous.
        let value = byte % 48;
        if let (Some(cell), Some(digit)) = (
            Cell::new(i / shape.side(), i % shape.side()),
            Digit::new(value).filter(|d| usize::from(d.get()) <= shape.side()),
        ) {
            grid.set(cell, Some(digit)).unwrap();
        }
    }
    let Ok(puzzle) = Puzzle::classic(grid.clone()) else {
        let rules = sudoku_service::engine::Rules::classic(shape);
        assert!(!validate(&grid, &rules).conflicts.is_empty());
        return;
    };
    if let Ok(counted) = Engine::new().count(&puzzle, 2, &Budget::work(20_000)) {
        assert!(counted.count <= 2);
        assert_eq!(counted.count == 0, counted.first.is_none());
        for solution in counted.first.iter().chain(&counted.second) {
            assert!(validate(solution.grid(), puzzle.rules()).solved);
            for (cell, digit) in grid.givens() {
                assert_eq!(solution.grid().get(cell), Some(digit));
            }
        }
    }
});
