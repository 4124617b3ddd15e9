//! XY-Wing: a bivalue pivot `{x, y}` that sees two bivalue pincers `{x, z}` and `{y, z}`.
//! Whatever the pivot takes, one pincer becomes `z`, so no cell that sees both pincers can be
//! `z`.

use crate::engine::grid::{Cell, Digit};

use super::candidates::{digits_of, sees, Candidates, PEERS};
use super::text::capitalize;
use super::{Step, Technique};

/// The first XY-Wing that removes something. Pivots in reading order, then pincers in reading
/// order.
pub fn xy_wing(marks: &Candidates) -> Option<Step> {
    for pivot in Cell::all() {
        let pm = marks.mask(pivot.index());
        if pm.count_ones() != 2 {
            continue;
        }
        for &a in &PEERS[pivot.index()] {
            let am = marks.mask(a as usize);
            if am.count_ones() != 2 || (am & pm).count_ones() != 1 {
                continue;
            }
            let z = am & !pm;
            let wanted = (pm & !am) | z;
            for &b in &PEERS[pivot.index()] {
                if marks.mask(b as usize) != wanted {
                    continue;
                }
                let (a, b) = (Cell::from_index(a as usize), Cell::from_index(b as usize));
                if let Some(step) = wing_step(marks, pivot, a, b, z) {
                    return Some(step);
                }
            }
        }
    }
    None
}

fn wing_step(marks: &Candidates, pivot: Cell, a: Cell, b: Cell, z: u16) -> Option<Step> {
    let z_digit = digits_of(z).next()?;
    let eliminations: Vec<(Cell, Digit)> = PEERS[a.index()]
        .iter()
        .map(|&i| Cell::from_index(i as usize))
        .filter(|&p| p != b && p != pivot && sees(p, b) && marks.contains(p, z_digit))
        .map(|p| (p, z_digit))
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    let pivot_digits: Vec<Digit> = digits_of(marks.mask(pivot.index())).collect();
    let [x, y] = pivot_digits[..] else {
        return None;
    };
    // `a` holds the pivot digit it shares plus z; name the branches in the pivot's order.
    let (with_x, with_y) = if marks.contains(a, x) { (a, b) } else { (b, a) };
    let explanation = format!(
        "{} is {x} or {y}; if {x}, {with_x} is {z_digit}, and if {y}, {with_y} is {z_digit}, so \
         {z_digit} is removed from every cell that sees both of them.",
        capitalize(&pivot.to_string())
    );
    let mut cells = vec![pivot, a, b];
    cells.sort();
    let mut digits = vec![x, y, z_digit];
    digits.sort();
    Some(Step {
        technique: Technique::XyWing,
        placements: Vec::new(),
        eliminations,
        cells,
        digits,
        units: Vec::new(),
        explanation,
    })
}
