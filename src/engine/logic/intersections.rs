//! Locked candidates: where a box (or Jigsaw region) meets a row or column. If a digit's
//! places in one of them all lie in the other, the digit must go in the overlap, so it leaves
//! the rest of the other. Pointing (box into line) is rated 2.6, claiming (line into box)
//! 2.8.
//!
//! Generalized intersections (Sukaku Explainer's name and rating, 2.9) are the same idea
//! without the second house: a cell that shares a house with every place of a digit in a
//! house cannot hold it. On an X, Hyper or Jigsaw board a cell can see the places through
//! different houses (one place by its column, another by a diagonal); with the classic
//! houses such a cell always shares a box and a line with all of them, which locked
//! candidates already cover. Cages do not count as seeing here, as in Sukaku Explainer
//! (which has none): a Killer's levels are set by its cage techniques, measured without it.

use std::ops::Range;

use crate::engine::model::grid::Cell;

use super::candidates::{digit, Candidates};
use super::cellset::CellSet;
use super::geometry::{BOXES, COLUMNS, ROWS};
use super::rating::Rating;
use super::text::{list, places_within};
use super::{Step, Technique};

/// Locked-candidates passes in SE's order: boxes (or Jigsaw regions) into columns, into
/// rows, then columns and rows into boxes. Only boxes against lines, as SE: where a
/// variant's diagonal or window meets another house, the generalized intersections below
/// find the same eliminations, rated as SE rates them (2.9).
pub(crate) const LOCKING_PASSES: [(Range<usize>, Range<usize>); 4] = [
    (BOXES, COLUMNS),
    (BOXES, ROWS),
    (COLUMNS, BOXES),
    (ROWS, BOXES),
];

/// Every locked set in SE's order (the passes, then digit by digit, houses ascending):
/// `(pass, digit index, first house, second house, places)` where the digit's two or more
/// places in the first house all lie in the second.
///
/// The houses of a pass's second kind do not overlap, so two or more places lie in at most
/// one of them: the one holding the first place, the only house looked at.
pub(crate) fn locked_sets<'a>(
    marks: &'a Candidates<'_>,
) -> impl Iterator<Item = (usize, usize, usize, usize, CellSet)> + 'a {
    let g = marks.geometry();
    LOCKING_PASSES
        .iter()
        .enumerate()
        .flat_map(move |(pass, (first, second))| {
            (0..9).flat_map(move |d| {
                first.clone().filter_map(move |k1| {
                    super::work::count(9);
                    let places = marks.places_in(k1, d);
                    if places.len() < 2 {
                        return None;
                    }
                    let k2 = g.houses_of(places.first()?).find(|k| second.contains(k))?;
                    (k2 != k1 && places.is_subset(g.set_of(k2)))
                        .then_some((pass, d, k1, k2, places))
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

/// The first generalized intersection that removes something: digit by digit, houses in
/// SE's scanning order. Worth running only with a variant's houses (see the module's note;
/// the search skips it otherwise).
pub fn generalized(marks: &Candidates) -> Option<Step> {
    let g = marks.geometry();
    (0..9).find_map(|d| {
        g.scan_order().iter().find_map(|&k| {
            // Seven or more places have no common peer outside the house worth the look
            // (Sukaku Explainer stops at six too).
            let places = marks.places_in(k, d);
            if !(2..=6).contains(&places.len()) {
                return None;
            }
            let removed = g.common_house_peers(places) & marks.cells_with(d);
            if removed.is_empty() {
                return None;
            }
            let (house, digit) = (g.unit(k), digit(d));
            let at: Vec<Cell> = places.iter().map(Cell::from_index).collect();
            let seers: Vec<Cell> = removed.iter().map(Cell::from_index).collect();
            let (verb, pronoun) = if seers.len() == 1 {
                ("sees", "it")
            } else {
                ("see", "them")
            };
            let all = if at.len() == 2 { "both" } else { "all" };
            Some(Step::eliminating(
                Technique::GeneralizedIntersection,
                Rating::from_tenths(29),
                removed.marks_of(digit),
                at.clone(),
                vec![digit],
                vec![house],
                format!(
                    "In {house}, {digit} can only go in {}; {} {verb} {all} of those places, \
                     so {digit} is removed from {pronoun}.",
                    places_within(house, &at),
                    list(&seers)
                ),
            ))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::logic::Geometry;
    use crate::engine::model::board::{Board, CELLS};
    use crate::engine::model::grid::Shape;
    use crate::engine::model::rules::{Cage, RuleSpec, Rules};

    #[test]
    fn a_cage_is_not_a_way_of_seeing_for_generalized_intersections() {
        // Killer X: 1 has two places in row 1, r1c3 and r1c5. r2c4 shares box 2 with r1c5
        // but sees r1c3 only through their cage, so it keeps its 1 (with cages counted it
        // would lose it). Every other house has 1 in seven or more places: nothing else.
        let rules = Rules::new(
            Shape::NINE,
            RuleSpec {
                diagonals: true,
                cages: vec![Cage {
                    sum: Some(6),
                    cells: vec![(0, 2), (0, 3), (1, 3)],
                }],
                ..RuleSpec::default()
            },
        )
        .unwrap();
        let geometry = Geometry::for_rules(&rules).unwrap();
        assert!(geometry.has_variant_houses());
        let empty = Board::from_line(&".".repeat(CELLS)).unwrap();
        let mut marks = [0x1FF; CELLS];
        for m in marks.iter_mut().take(9) {
            *m &= !1;
        }
        marks[2] |= 1;
        marks[4] |= 1;
        let candidates = Candidates::with_geometry(&empty, &geometry).with_marks(&marks);
        assert!(geometry.common_peers(CellSet::single(2)).contains(12));
        let step = generalized(&candidates);
        assert!(step.is_none(), "{step:?}");
    }
}
