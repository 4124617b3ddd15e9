//! The logic engine on the 9x9 variants: every step sound against the one solution, on
//! generated Killer, X, Hyper and Jigsaw puzzles.

use super::*;
use crate::engine::budget::Budget;
use crate::engine::generate::Symmetry;
use crate::engine::variant::{generate_variant, Variant, VariantSolver};

/// Follows the easiest steps from the givens of a generated puzzle and checks each against
/// the solution: a placement is the solution's digit, an elimination never removes it.
/// Returns the techniques used and whether the solve finished.
fn follow(variant: Variant, seed: u64) -> (Vec<Technique>, bool) {
    let made = generate_variant(
        variant,
        seed,
        Symmetry::None,
        &mut VariantSolver::new(),
        &Budget::unlimited(),
    )
    .unwrap();
    let geometry = Geometry::for_rules(made.puzzle.rules()).unwrap();
    let board = Board::from_grid(made.puzzle.grid()).unwrap();
    let solution = Board::from_grid(&made.solution).unwrap();
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
