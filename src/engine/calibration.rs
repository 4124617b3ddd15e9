//! What the work-unit calibration benchmark (`examples/work_units.rs`) needs from inside the
//! engine: the logic engine's looks one by one, with the units each is charged and the time
//! it took. The solvers and generators are measured from outside, through [`Engine`]
//! (crate::engine::Engine) and a [`Budget`](crate::engine::Budget); a grade charges many
//! finders at once, so only here can each finder's cost be set against its charge.

use std::time::Duration;

use crate::engine::logic::{search, Assumptions, Candidates, Geometry};
use crate::engine::model::board::Board;
use crate::engine::model::puzzle::Puzzle;

/// One finder's look at one position.
#[derive(Clone, Debug)]
pub struct Look {
    /// The finder (one name per cost constant).
    pub family: &'static str,
    /// What the look is charged, in thousandths of a work unit.
    pub milli: u64,
    /// Its time: the fastest of the passes (see [`logic_looks`]).
    pub cpu: Duration,
    /// The operations it counted (its loops whose length depends on the marks).
    pub ops: u64,
}

/// Every look the logic engine takes along `puzzle`'s solve path (SE's order, the first step
/// found applied each time), until it is solved or no finder applies. 9x9 puzzles of every
/// rule set, assumed to have one solution; other sizes have no looks. The path is walked
/// `passes` times from a fresh start (so every finder's caches are as cold as in a grade),
/// and each look keeps its fastest time: a pass the scheduler interrupted does not count.
pub fn logic_looks(puzzle: &Puzzle, passes: usize) -> Vec<Look> {
    let Some(board) = Board::from_grid(puzzle.grid()) else {
        return Vec::new();
    };
    let mut looks: Vec<Look> = Vec::new();
    for pass in 0..passes.max(1) {
        // A new geometry has a new id: nothing remembered for the last pass applies.
        let Some(geometry) = Geometry::for_rules(puzzle.rules()) else {
            return Vec::new();
        };
        let mut marks = Candidates::with_geometry(&board, &geometry);
        let mut i = 0;
        while let Some(step) = search::timed_next_step(&marks, &Assumptions::unique(), |look| {
            if pass == 0 {
                looks.push(Look {
                    family: look.family,
                    milli: look.milli,
                    cpu: look.time,
                    ops: look.ops,
                });
            } else if let Some(seen) = looks.get_mut(i) {
                seen.cpu = seen.cpu.min(look.time);
            }
            i += 1;
        }) {
            marks.apply(&step);
        }
    }
    looks
}
