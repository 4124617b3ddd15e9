//! Anti-king through the facade, against a plain reference search written here: on random
//! small boards (4x4, 6x6) the engine's solution count agrees with the reference, every
//! solution keeps the rule, the pencil marks keep every digit of every solution, and a
//! repeat a king's move apart is a named conflict.

mod common;

use common::small::{box_of, grid_of, solutions, Rng};
use sudoku_service::engine::{conflicts, Budget, Digit, Engine, Puzzle, RuleSpec, Rules, Shape};

/// Whether digit `d` may go at (r, c) of `cells` (row-major, 0 empty): no repeat in its
/// row, column or box, nor in the eight cells around it. Shares nothing with the engine.
fn allowed(cells: &[u8], side: usize, r: usize, c: usize, d: u8) -> bool {
    let (bh, bw) = box_of(side);
    (0..side * side).all(|j| {
        let (jr, jc) = (j / side, j % side);
        let related = jr == r
            || jc == c
            || (jr / bh == r / bh && jc / bw == c / bw)
            || (jr.abs_diff(r) <= 1 && jc.abs_diff(c) <= 1);
        j == r * side + c || !related || cells[j] != d
    })
}

fn rules(shape: Shape) -> Rules {
    let spec = RuleSpec {
        anti_king: true,
        ..RuleSpec::default()
    };
    Rules::new(shape, spec).unwrap()
}

#[test]
fn counts_solutions_and_marks_agree_with_a_plain_search() {
    let mut rng = Rng(0x5eed_a471_c1e6);
    let mut engine = Engine::new();
    let budget = Budget::unlimited();
    let mut seen_counts = [0usize; 3];
    for shape in [Shape::FOUR, Shape::SIX] {
        let side = shape.side();
        let rules = rules(shape);
        for _ in 0..150 {
            // Random givens, each kept only where the reference allows it: valid puzzles,
            // with none, one or many solutions.
            let mut cells = vec![0u8; side * side];
            for _ in 0..rng.below(side + 4) {
                let i = rng.below(side * side);
                let d = rng.below(side) as u8 + 1;
                if cells[i] == 0 && allowed(&cells, side, i / side, i % side, d) {
                    cells[i] = d;
                }
            }
            let grid = grid_of(&cells, shape);
            let puzzle = Puzzle::new(grid.clone(), rules.clone()).unwrap();
            let mut all = Vec::new();
            let fits = |cells: &[u8], i: usize| allowed(cells, side, i / side, i % side, cells[i]);
            solutions(&mut cells.clone(), side, 500, &mut all, &fits);
            let counted = engine.count(&puzzle, 2, &budget).unwrap();
            assert_eq!(counted.count as usize, all.len().min(2), "{cells:?}");
            seen_counts[all.len().min(2)] += 1;
            for solution in counted.first.iter().chain(&counted.second) {
                let found: Vec<u8> = shape
                    .all_cells()
                    .map(|c| solution.grid().get(c).unwrap().get())
                    .collect();
                let keeps_givens = cells.iter().zip(&found).all(|(&g, &f)| g == 0 || g == f);
                let obeys =
                    (0..side * side).all(|i| allowed(&found, side, i / side, i % side, found[i]));
                assert!(keeps_givens && obeys, "not a solution: {found:?}");
            }
            if all.len() < 500 {
                let marks = engine.candidates(&grid, &rules, false, &budget).unwrap();
                for solution in &all {
                    for (i, cell) in shape.all_cells().enumerate() {
                        let digit = Digit::new(solution[i]).unwrap();
                        if cells[i] == 0 {
                            assert!(marks.digits(cell).contains(&digit), "{cells:?} {cell}");
                        }
                    }
                }
            }
        }
    }
    // The boards drawn cover every count, so each comparison above was really made.
    assert!(seen_counts.iter().all(|&n| n > 0), "{seen_counts:?}");
}

#[test]
fn a_repeat_a_kings_move_apart_is_a_named_conflict() {
    let shape = Shape::SIX;
    let mut cells = vec![0u8; 36];
    // r1c3 and r2c4: different rows, columns and boxes (2x3 boxes), diagonal neighbours.
    cells[2] = 5;
    cells[6 + 3] = 5;
    let grid = grid_of(&cells, shape);
    assert!(conflicts(&grid, &Rules::classic(shape)).is_empty());
    let found = conflicts(&grid, &rules(shape));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].unit.kind.name(), "anti_king");
    assert_eq!(
        found[0].to_string(),
        "digit 5 repeats in anti-king pair: row 1, column 3 and row 2, column 4"
    );
    assert!(Puzzle::new(grid, rules(shape)).is_err());
}
