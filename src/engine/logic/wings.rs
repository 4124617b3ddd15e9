//! XY-Wing (4.2) and XYZ-Wing (4.4).
//!
//! XY-Wing: a bivalue pivot `{x, y}` that sees two bivalue pincers `{x, z}` and `{y, z}`.
//! Whatever the pivot takes, one pincer becomes `z`, so no cell that sees both pincers can be
//! `z`. XYZ-Wing: the pivot is `{x, y, z}`; then the pivot itself may be the `z`, so only cells
//! that see all three lose `z`.

use crate::engine::model::grid::{Cell, Digit};

use super::candidates::{digit, digits_of, indices_of, Candidates};
use super::cellset::CellSet;
use super::rating::Rating;
use super::text::capitalize;
use super::{Step, Technique};

/// The first XY-Wing that removes something. Pivots in reading order, then pincers in reading
/// order among the pivot's peers.
pub fn xy_wing(marks: &Candidates) -> Option<Step> {
    find(marks, false)
}

/// The first XYZ-Wing that removes something, in the same order.
pub fn xyz_wing(marks: &Candidates) -> Option<Step> {
    find(marks, true)
}

fn find(marks: &Candidates, xyz: bool) -> Option<Step> {
    let g = marks.geometry();
    let pivot_size = if xyz { 3 } else { 2 };
    for pivot in 0..81 {
        let pm = marks.mask(pivot);
        if pm.count_ones() != pivot_size {
            continue;
        }
        super::work::count(1);
        for a in g.peers(pivot).iter() {
            let am = marks.mask(a);
            if am.count_ones() != 2 || (pm & !am).count_ones() != 1 {
                continue;
            }
            super::work::count(20);
            for b in g.peers(pivot).iter() {
                let bm = marks.mask(b);
                if bm.count_ones() != 2 || (pm | am | bm).count_ones() != 3 {
                    continue;
                }
                let common = (pm & am & bm).count_ones();
                if common != u32::from(xyz) {
                    continue;
                }
                let z = am & bm;
                let Some(zd) = indices_of(z).next() else {
                    continue;
                };
                let mut seeing = g.peers(a) & g.peers(b);
                if xyz {
                    seeing &= g.peers(pivot);
                }
                let removed = seeing & (marks.cells_with(zd) - CellSet::single(pivot));
                if removed.is_empty() {
                    continue;
                }
                return Some(wing_step(marks, (pivot, a, b), digit(zd), removed, xyz));
            }
        }
    }
    None
}

fn wing_step(
    marks: &Candidates,
    (pivot, a, b): (usize, usize, usize),
    z: Digit,
    removed: CellSet,
    xyz: bool,
) -> Step {
    let (pivot, a, b) = (
        Cell::from_index(pivot),
        Cell::from_index(a),
        Cell::from_index(b),
    );
    let pivot_digits: Vec<Digit> = digits_of(marks.mask(pivot.index())).collect();
    let others: Vec<Digit> = pivot_digits.iter().copied().filter(|&d| d != z).collect();
    let (x, y) = (others[0], others[1]);
    // `a` holds the pivot digit it shares plus z; name the branches in the pivot's order.
    let (with_x, with_y) = if marks.contains(a, x) { (a, b) } else { (b, a) };
    let (technique, rating, explanation) = if xyz {
        (
            Technique::XyzWing,
            44,
            format!(
                "{} is {x}, {y} or {z}; if {x}, {with_x} is {z}, and if {y}, {with_y} is {z}, \
                 so {z} is removed from every cell that sees all three of them.",
                capitalize(&pivot.to_string())
            ),
        )
    } else {
        (
            Technique::XyWing,
            42,
            format!(
                "{} is {x} or {y}; if {x}, {with_x} is {z}, and if {y}, {with_y} is {z}, so {z} \
                 is removed from every cell that sees both of them.",
                capitalize(&pivot.to_string())
            ),
        )
    };
    Step::eliminating(
        technique,
        Rating::from_tenths(rating),
        removed.marks_of(z),
        vec![pivot, a, b],
        pivot_digits,
        Vec::new(),
        explanation,
    )
}
