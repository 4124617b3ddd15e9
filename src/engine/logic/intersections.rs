//! Locked candidates: where a box meets a row or column. If a digit's places in one of them
//! all lie in the other, the digit must go in the overlap, so it leaves the rest of the other.

use crate::engine::grid::{Cell, Digit, Shape};
use crate::engine::validate::{Unit, UnitKind};

use super::candidates::{bit, digits_of, unit, unit_index, Candidates, UNIT_CELLS};
use super::{Step, Technique};

/// Pointing: in a box, a digit confined to one row (then: one column) is removed from the rest
/// of that line. Boxes, then digits, ascending.
pub fn pointing(marks: &Candidates) -> Option<Step> {
    for b in 0..9 {
        let box_k = 18 + b;
        for digit in digits_of(!marks.placed_in(box_k) & 0x1FF) {
            let cells = cells_with(marks, box_k, digit);
            if cells.is_empty() {
                continue;
            }
            for kind in [UnitKind::Row, UnitKind::Column] {
                let index = |p: &Cell| {
                    if kind == UnitKind::Row {
                        p.row()
                    } else {
                        p.col()
                    }
                };
                let first = index(&cells[0]);
                if cells.iter().any(|p| index(p) != first) {
                    continue;
                }
                let line = Unit { kind, index: first };
                let boxed = unit(box_k);
                if let Some(step) = eliminate_outside(
                    marks,
                    Technique::LockedCandidatesPointing,
                    digit,
                    cells.clone(),
                    (boxed, line),
                    format!(
                        "In {boxed}, {digit} can only go in {line}, so {digit} is removed from \
                         the rest of {line}."
                    ),
                ) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// Claiming: in a row (then a column), a digit confined to one box is removed from the rest of
/// that box.
pub fn claiming(marks: &Candidates) -> Option<Step> {
    for k in 0..18 {
        for digit in digits_of(!marks.placed_in(k) & 0x1FF) {
            let cells = cells_with(marks, k, digit);
            let Some(first) = cells.first() else {
                continue;
            };
            let b = first.box_index();
            if cells.iter().any(|p| p.box_index() != b) {
                continue;
            }
            let line = unit(k);
            let boxed = Unit {
                kind: UnitKind::Box,
                index: b,
            };
            if let Some(step) = eliminate_outside(
                marks,
                Technique::LockedCandidatesClaiming,
                digit,
                cells,
                (line, boxed),
                format!(
                    "In {line}, {digit} can only go in {boxed}, so {digit} is removed from the \
                     rest of {boxed}."
                ),
            ) {
                return Some(step);
            }
        }
    }
    None
}

/// The cells of unit `k` that have `digit` as a candidate, in unit order.
fn cells_with(marks: &Candidates, k: usize, digit: Digit) -> Vec<Cell> {
    UNIT_CELLS[k]
        .iter()
        .map(|&i| Cell::from_index(i as usize))
        .filter(|&p| marks.contains(p, digit))
        .collect()
}

/// The step removing `digit` from `target` outside `source`, if that removes anything.
fn eliminate_outside(
    marks: &Candidates,
    technique: Technique,
    digit: Digit,
    mut cells: Vec<Cell>,
    (source, target): (Unit, Unit),
    explanation: String,
) -> Option<Step> {
    let inside: Vec<Cell> = source.cells_in(Shape::NINE).collect();
    let eliminations: Vec<(Cell, Digit)> = UNIT_CELLS[unit_index(target)]
        .iter()
        .map(|&i| Cell::from_index(i as usize))
        .filter(|p| !inside.contains(p) && marks.mask(p.index()) & bit(digit) != 0)
        .map(|p| (p, digit))
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    cells.sort();
    Some(Step {
        technique,
        placements: Vec::new(),
        eliminations,
        cells,
        digits: vec![digit],
        units: vec![source, target],
        explanation,
    })
}
