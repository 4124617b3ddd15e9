//! Locked candidates: where a box meets a row or column. If a digit's places in one of them
//! all lie in the other, the digit must go in the overlap, so it leaves the rest of the other.
//! Pointing (box into line) is rated 2.6, claiming (line into box) 2.8.

use crate::engine::grid::Cell;
use crate::engine::validate::UnitKind;

use super::candidates::{digit, Candidates};
use super::cellset::CellSet;
use super::direct::LOCKING_PASSES;
use super::rating::Rating;
use super::{Step, Technique};

/// Every locked set in SE's order (boxes into columns, boxes into rows, columns into boxes,
/// rows into boxes; digit by digit, units ascending): `(digit index, first unit, second unit,
/// places)` where the digit's two or more places in the first unit all lie in the second.
/// Classic geometry only (it is about boxes).
pub(crate) fn locked_sets(
    marks: &Candidates,
) -> impl Iterator<Item = (usize, usize, usize, CellSet)> + '_ {
    let g = marks.geometry();
    let passes = if g.is_classic() {
        &LOCKING_PASSES[..]
    } else {
        &[]
    };
    passes.iter().flat_map(move |(first_kind, second_kind)| {
        (0..9).flat_map(move |d| {
            first_kind.clone().flat_map(move |k1| {
                let places = marks.places_in(k1, d);
                second_kind
                    .clone()
                    .filter(move |&k2| places.len() >= 2 && places.is_subset(g.set_of(k2)))
                    .map(move |k2| (d, k1, k2, places))
            })
        })
    })
}

/// The first locked-candidates pattern that removes something, in SE's order.
pub fn locking(marks: &Candidates) -> Option<Step> {
    let g = marks.geometry();
    locked_sets(marks).find_map(|(d, k1, k2, places)| {
        let removed = marks.places_in(k2, d) - g.set_of(k1);
        if removed.is_empty() {
            return None;
        }
        let (source, target) = (g.unit(k1), g.unit(k2));
        let digit = digit(d);
        let (technique, rating) = if source.kind == UnitKind::Box {
            (Technique::LockedCandidatesPointing, 26)
        } else {
            (Technique::LockedCandidatesClaiming, 28)
        };
        Some(Step::eliminating(
            technique,
            Rating::from_tenths(rating),
            removed.marks_of(digit),
            places.iter().map(Cell::from_index).collect(),
            vec![digit],
            vec![source, target],
            format!(
                "In {source}, {digit} can only go in {target}, so {digit} is removed from the \
                 rest of {target}."
            ),
        ))
    })
}
