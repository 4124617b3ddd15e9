//! The logic engine on the 9x9 variants: every step sound against the one solution, on
//! generated Killer, X, Hyper and Jigsaw puzzles.

use super::*;
use crate::engine::budget::Budget;
use crate::engine::generate::variant::{generate_variant, Variant};
use crate::engine::generate::Symmetry;
use crate::engine::solve::general::GeneralSolver;

/// Follows the easiest steps from the givens of a generated puzzle and checks each against
/// the solution: a placement is the solution's digit, an elimination never removes it.
/// Returns the techniques used and whether the solve finished.
fn follow(variant: Variant, seed: u64) -> (Vec<Technique>, bool) {
    let made = generate_variant(
        variant,
        seed,
        Symmetry::None,
        &mut GeneralSolver::new(),
        &Budget::unlimited(),
    )
    .unwrap();
    let geometry = Geometry::for_rules(made.puzzle.rules()).unwrap();
    let board = Board::from_grid(made.puzzle.grid()).unwrap();
    let solution = Board::from_grid(made.solution.grid()).unwrap();
    let mut marks = Candidates::with_geometry(&board, &geometry);
    let mut used = Vec::new();
    while let Some(step) = Assumptions::unique()
        .next_step(&marks, &Budget::unlimited())
        .unwrap()
    {
        for &(cell, digit) in &step.placements {
            assert_eq!(
                solution.get(cell),
                Some(digit),
                "{variant:?} seed {seed}: {:?} placed wrongly: {}\n{marks:?}",
                step.technique,
                step.explanation
            );
        }
        for &(cell, digit) in &step.eliminations {
            assert_ne!(
                solution.get(cell),
                Some(digit),
                "{variant:?} seed {seed}: {:?} removed the solution's {digit} from {cell}: {}\n{marks:?}",
                step.technique,
                step.explanation
            );
        }
        used.push(step.technique);
        marks.apply(&step);
        assert!(!marks.has_contradiction(), "{variant:?} seed {seed}");
    }
    (used, marks.is_solved())
}

#[test]
fn every_step_on_generated_variants_is_sound() {
    for variant in Variant::ALL {
        let mut solved = 0;
        for seed in 0..6 {
            let (_, done) = follow(variant, seed);
            solved += u32::from(done);
        }
        assert!(solved >= 3, "{variant:?}: {solved} of 6 solved by logic");
    }
}

/// Sukaku Explainer 1.2.1.x (`serate --isX=1` or `--isWindows=1`, its default techniques)
/// rated these generated X and Hyper puzzles; the engine must agree to the tenth. They span
/// the techniques up to 5.6 (the chains are too slow for a debug-build unit test), with the
/// generalized intersections that variant houses bring and the hidden singles and
/// intersections that Hyper's hidden windows make easy (each Hyper line below rated 2.6 to
/// 5.5 before the engine knew the hidden windows). BENCHMARKS.md compares the whole sample.
const SUKAKU_EXPLAINER: [(&str, &str, &str, f64); 18] = [
    (
        "x",
        "...2..59.....1.63..47........31....................95...1.76.....9.......7..4.329",
        "direct_hidden_pair",
        2.0,
    ),
    (
        "x",
        ".3......9..67........2..45..........5...1.3..4.7.....8.........1.9........5.61..7",
        "naked_single",
        2.3,
    ),
    (
        "x",
        ".53.....7.29.........12.45.......6.5.9.8......7....9......4.5.161..95.....5.1..6.",
        "direct_hidden_triple",
        2.5,
    ),
    (
        "x",
        ".6....35.31...........4........2.8........1...2......75..2.....9..1...7....3.8.2.",
        "generalized_intersection",
        2.9,
    ),
    (
        "x",
        "..8.2....37..91..........32.......6..4..............81.........9..1.37..21.7463..",
        "generalized_intersection",
        2.9,
    ),
    (
        "x",
        "...1....9.71.9...6.8..46...6.2.3....7...8964....6......6.......924.5.1.3...9...84",
        "naked_pair",
        3.0,
    ),
    (
        "x",
        "1.6...4...7..61...4..57....9..21.........769.....5...4.1...4......63..8.....9..46",
        "skyscraper",
        4.0,
    ),
    (
        "x",
        ".3..4.....87.62...2.1.7.86...2.......6...15...1......9....9......8...4..4.62...83",
        "two_string_kite",
        4.1,
    ),
    (
        "x",
        ".........8..3....7.5........1...793.....4.2....8...7..2...5.........459.5.49..37.",
        "empty_rectangle",
        4.3,
    ),
    (
        "x",
        "..4......1..45.......231..496.1........89.....58......6..9.....2.9.4..8....7..92.",
        "wxyz_wing",
        5.5,
    ),
    (
        "hyper",
        ".3......7..2......1..4..683....4....9.6....5.7.31....42..6......9.8.....68.7..9..",
        "hidden_single",
        1.2,
    ),
    (
        "hyper",
        "7....5.6......1......34....2......4.6.5.8.12....2.....9835....4....1.............",
        "hidden_single",
        1.5,
    ),
    (
        "hyper",
        "4...6..93.9813........4.............74..532...1.....5........1..865.4.3.....9....",
        "direct_hidden_triple",
        2.5,
    ),
    (
        "hyper",
        "...8....66...9.......3..4.7..5.......6.........2..91.5...17.3...58....71..9.3....",
        "generalized_intersection",
        2.9,
    ),
    (
        "hyper",
        "......9......3......6..9.....8.2.1.......7...3.........2.4........3..4.9...8...21",
        "generalized_intersection",
        2.9,
    ),
    (
        "hyper",
        "..........8.....6..5...18748....49......9......7....12.4..8.......6.542........81",
        "xy_wing",
        4.2,
    ),
    (
        "hyper",
        ".37.....12........4..9..........8..7..9........6....8.....1.....94....52...6...4.",
        "empty_rectangle",
        4.3,
    ),
    (
        "hyper",
        "....9.......3.....25......7...2..5..............41.7...........98...13..3.2.6....",
        "wxyz_wing",
        5.6,
    ),
];

#[test]
fn x_and_hyper_ratings_agree_with_sukaku_explainer() {
    use crate::engine::model::grid::Shape;
    use crate::engine::model::rules::{RuleSpec, Rules};
    for (variant, line, technique, rating) in SUKAKU_EXPLAINER {
        let spec = RuleSpec {
            diagonals: variant == "x",
            windows: variant == "hyper",
            ..RuleSpec::default()
        };
        let geometry = Geometry::for_rules(&Rules::new(Shape::NINE, spec).unwrap()).unwrap();
        let marks = Candidates::with_geometry(&Board::from_line(line).unwrap(), &geometry);
        let grade = grade::grade_marks(
            marks,
            &Assumptions::unique(),
            grade::Enough::ALL,
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(
            (
                grade.hardest.map(Technique::name),
                grade.lower_bound().to_string()
            ),
            (Some(technique), format!("{rating:.1}")),
            "{variant} {line}"
        );
        assert!(grade.rating().is_some(), "{variant} {line}");
    }
}

#[test]
fn a_cell_that_sees_every_place_of_a_digit_in_a_house_loses_it() {
    use crate::engine::model::grid::{Cell, Digit, Shape};
    use crate::engine::model::rules::{RuleSpec, Rules};
    let spec = RuleSpec {
        diagonals: true,
        ..RuleSpec::default()
    };
    let geometry = Geometry::for_rules(&Rules::new(Shape::NINE, spec).unwrap()).unwrap();
    let line = "..8.2....37..91..........32.......6..4..............81.........9..1.37..21.7463..";
    let mut marks = Candidates::with_geometry(&Board::from_line(line).unwrap(), &geometry);
    let step = loop {
        let step = Assumptions::unique()
            .next_step(&marks, &Budget::unlimited())
            .unwrap()
            .expect("the puzzle needs a generalized intersection");
        if step.technique == Technique::GeneralizedIntersection {
            break step;
        }
        marks.apply(&step);
    };
    // r2c4 by its column, r2c8 by the anti-diagonal: no house holds all three cells.
    let four = Digit::new(4).unwrap();
    assert_eq!(step.eliminations, [(Cell::at(5, 3), four)]);
    assert_eq!(step.cells, [Cell::at(1, 3), Cell::at(1, 7)]);
    assert_eq!(step.rating.to_string(), "2.9");
    assert_eq!(
        step.explanation,
        "In row 2, 4 can only go in columns 4 and 8; row 6, column 4 sees both of those places, \
         so 4 is removed from it."
    );
}
