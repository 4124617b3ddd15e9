//! Locked candidates: where a box meets a row or column (or, in a variant, any two houses
//! meet). If a digit's places in one of them all lie in the other, the digit must go in the
//! overlap, so it leaves the rest of the other. Pointing (box-like house into another) is
//! rated 2.6, claiming (line into another) 2.8.

use crate::engine::grid::Cell;

use super::candidates::{digit, Candidates};
use super::cellset::CellSet;
use super::rating::Rating;
use super::{Step, Technique};

/// Every locked set in SE's order (boxes into columns, boxes into rows, columns into boxes,
/// rows into boxes, then a variant's extra houses against the others; digit by digit, houses
/// ascending): `(pass, digit index, first house, second house, places)` where the digit's two
/// or more places in the first house all lie in the second. Any two houses qualify: the
/// digit must be in their overlap either way.
pub(crate) fn locked_sets<'a>(
    marks: &'a Candidates<'_>,
) -> impl Iterator<Item = (usize, usize, usize, usize, CellSet)> + 'a {
    let g = marks.geometry();
    g.locking_passes()
        .iter()
        .enumerate()
        .flat_map(move |(pass, (first, second))| {
            (0..9).flat_map(move |d| {
                first.iter().flat_map(move |&k1| {
                    let places = marks.places_in(k1, d);
                    second
                        .iter()
                        .filter(move |&&k2| {
                            k2 != k1 && places.len() >= 2 && places.is_subset(g.set_of(k2))
                        })
                        .map(move |&k2| (pass, d, k1, k2, places))
                })
            })
        })
}

/// The first locked-candidates pattern that removes something, in SE's order.
pub fn locking(marks: &Candidates) -> Option<Step> {
    let g = marks.geometry();
    locked_sets(marks).find_map(|(_, d, k1, k2, places)| {
        let removed = marks.places_in(k2, d) - g.set_of(k1);
        if removed.is_empty() {
            return None;
        }
        let (source, target) = (g.unit(k1), g.unit(k2));
        let digit = digit(d);
        let (technique, rating) = if g.is_box_like(k1) {
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
