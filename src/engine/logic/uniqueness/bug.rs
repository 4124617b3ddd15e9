//! Bivalue universal grave (BUG): if every empty cell had exactly two candidates and every digit
//! exactly two places in each unit it is missing from, the puzzle would have two solutions.
//! So in a unique puzzle the few cells with a third candidate (the BUG cells) cannot all drop
//! to their pair:
//! * type 1 (5.6): one BUG cell, which must take its extra digit;
//! * type 2 (5.7): the extra digit is the same everywhere, so a cell seeing all BUG cells
//!   cannot hold it;
//! * type 3 (5.8-6.2): the BUG cells share a unit, and their extra digits form a naked set
//!   with other cells there (0.1 more per digit of the set beyond two);
//! * type 4 (5.7): two BUG cells in one unit sharing a digit besides their extras: each loses
//!   its other digit.
//!
//! A BUG cell is found as the only cell with more than two candidates among the places of a
//! digit that has other than two places in a unit. Like Sukaku Explainer, when all such digits
//! are the same one, every cell with a third candidate among its places counts.

use crate::engine::model::grid::Cell;

use super::super::candidates::{digit, digits_of, indices_of, Candidates};
use super::super::cellset::CellSet;
use super::super::geometry::{BOXES, COLUMNS, ROWS};
use super::super::rating::ExactRating;
use super::super::text::list;
use super::super::{Step, Technique};

/// The BUG step, if the grid is a BUG plus a few extra candidates.
pub fn find(marks: &Candidates) -> Option<Step> {
    let g = marks.geometry();
    if !g.is_classic() {
        return None;
    }
    let mut bug = BugCells::new(marks);
    let mut all_extra: Option<CellSet> = None;
    let mut only_value: Option<usize> = None;
    let mut one_value = true;
    for k in BOXES.chain(ROWS).chain(COLUMNS) {
        for d in 0..9 {
            let places = marks.places_in(k, d);
            if places.is_empty() || places.len() == 2 {
                continue;
            }
            let cells: Vec<usize> = g
                .cells_of(k)
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| places.contains(c) && marks.mask(c).count_ones() >= 3)
                .collect();
            match (all_extra, only_value) {
                (None, _) => {
                    all_extra = Some(cells.iter().copied().collect());
                    only_value = Some(d);
                }
                (Some(set), Some(v)) if one_value => {
                    if v == d {
                        all_extra =
                            Some(cells.iter().fold(set, |acc, &c| acc | CellSet::single(c)));
                    } else {
                        one_value = false;
                    }
                }
                _ => {}
            }
            if cells.len() == 1 && !bug.note(marks, cells[0], d) {
                return None;
            }
            if cells.is_empty() {
                return None;
            }
        }
    }
    if let (true, Some(extra), Some(v)) = (one_value, all_extra, only_value) {
        if extra.len() as usize > bug.cells.len() {
            let missing: Vec<usize> = extra.iter().filter(|c| !bug.cells.contains(c)).collect();
            for cell in missing {
                if !bug.note(marks, cell, v) {
                    return None;
                }
            }
        }
    }
    let BugCells {
        cells: bug_cells,
        values: bug_values,
        all_values,
        reduced,
        common,
    } = bug;
    // Without the extra digits the grid must be a true BUG.
    if (0..81).any(|c| !marks.is_filled(Cell::from_index(c)) && reduced[c].count_ones() != 2) {
        return None;
    }
    for &k in marks.geometry().scan_order() {
        for d in 0..9 {
            let n = g
                .cells_of(k)
                .iter()
                .filter(|&&c| reduced[c as usize] >> d & 1 != 0)
                .count();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    let common = common.unwrap_or(CellSet::EMPTY);
    let step = |kind: u8, tenths: u16, steps: u32, removed: Vec<(usize, usize)>, what: String| {
        let cells: Vec<Cell> = bug_cells.iter().map(|&c| Cell::from_index(c)).collect();
        Step::eliminating(
            Technique::BivalueUniversalGrave,
            ExactRating::new(tenths, steps).rating(),
            removed
                .iter()
                .map(|&(c, d)| (Cell::from_index(c), digit(d)))
                .collect(),
            cells.clone(),
            digits_of(all_values).collect(),
            Vec::new(),
            format!(
                "Without the extra candidates of {} every cell would have two candidates and the \
                 puzzle two solutions (BUG type {kind}), so {what}.",
                list(&cells)
            ),
        )
    };
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let removed: Vec<(usize, usize)> = indices_of(marks.mask(c) & !all_values)
            .map(|d| (c, d))
            .collect();
        return Some(step(
            1,
            56,
            0,
            removed,
            format!(
                "{} is {}",
                Cell::from_index(c),
                list(&digits_of(all_values).collect::<Vec<_>>())
            ),
        ));
    }
    if all_values.count_ones() == 1 {
        let d = indices_of(all_values).next()?;
        let removed: Vec<(usize, usize)> = (common & marks.cells_with(d))
            .iter()
            .map(|c| (c, d))
            .collect();
        if !removed.is_empty() {
            return Some(step(
                2,
                57,
                0,
                removed,
                format!(
                    "one of them is {} and the cells seeing all of them lose it",
                    digit(d)
                ),
            ));
        }
        return type_4(marks, &bug_cells, &bug_values, all_values)
            .map(|(removed, what)| step(4, 57, 0, removed, what));
    }
    if common.is_empty() {
        return None;
    }
    if let Some((removed, what)) = type_4(marks, &bug_cells, &bug_values, all_values) {
        return Some(step(4, 57, 0, removed, what));
    }
    type_3(marks, &bug_cells, common, all_values)
        .map(|(removed, size, what)| step(3, 57, size - 1, removed, what))
}

/// The BUG cells found so far, their extra digits, and the grid without them.
struct BugCells {
    cells: Vec<usize>,
    values: [u16; 81],
    all_values: u16,
    reduced: [u16; 81],
    /// The cells that see every BUG cell (none of them).
    common: Option<CellSet>,
}

impl BugCells {
    fn new(marks: &Candidates) -> BugCells {
        BugCells {
            cells: Vec::new(),
            values: [0; 81],
            all_values: 0,
            reduced: std::array::from_fn(|c| marks.mask(c)),
            common: None,
        }
    }

    /// Records `d` as an extra digit of `cell`; false when several BUG cells with several
    /// extra digits no longer have a common peer (types 1-3 are then out).
    fn note(&mut self, marks: &Candidates, cell: usize, d: usize) -> bool {
        let g = marks.geometry();
        if !self.cells.contains(&cell) {
            self.cells.push(cell);
        }
        self.values[cell] |= 1 << d;
        self.all_values |= 1 << d;
        self.reduced[cell] &= !(1 << d);
        let seen = self.common.unwrap_or(g.peers(cell)) & g.peers(cell);
        let seen = self
            .cells
            .iter()
            .fold(seen, |acc, &c| acc - CellSet::single(c));
        self.common = Some(seen);
        !(self.cells.len() > 1 && self.all_values.count_ones() > 1 && seen.is_empty())
    }
}

/// Eliminations (cell, digit index) and the sentence part saying why.
type Conclusion = (Vec<(usize, usize)>, String);

/// A type-3 conclusion: eliminations, the size of the naked set, and why.
type SetConclusion = (Vec<(usize, usize)>, u32, String);

/// Type 4: two BUG cells in one unit with one more digit in common.
fn type_4(
    marks: &Candidates,
    bug_cells: &[usize],
    bug_values: &[u16; 81],
    all_values: u16,
) -> Option<Conclusion> {
    let g = marks.geometry();
    let [c1, c2] = bug_cells else {
        return None;
    };
    let (c1, c2) = (*c1, *c2);
    let common = marks.mask(c1) & marks.mask(c2) & !all_values;
    if common.count_ones() != 1 {
        return None;
    }
    let pair: CellSet = [c1, c2].into_iter().collect();
    let unit = [BOXES, ROWS, COLUMNS]
        .into_iter()
        .flatten()
        .find(|&u| pair.is_subset(g.set_of(u)))?;
    let mut removed = Vec::new();
    for c in [c1, c2] {
        removed.extend(indices_of(marks.mask(c) & !bug_values[c] & !common).map(|d| (c, d)));
    }
    let d = digit(indices_of(common).next()?);
    Some((
        removed,
        format!(
            "in {} one of them is its extra digit and the other {d}, so each loses its third \
             digit",
            g.unit(unit)
        ),
    ))
}

/// Type 3: the BUG cells, taken as one cell of their extra digits, form a naked set with
/// other cells of a unit they share.
fn type_3(
    marks: &Candidates,
    bug_cells: &[usize],
    common: CellSet,
    all_values: u16,
) -> Option<SetConclusion> {
    let g = marks.geometry();
    let cells: CellSet = bug_cells.iter().copied().collect();
    for degree in 2..=6u32 {
        for unit in [BOXES, ROWS, COLUMNS].into_iter().flatten() {
            if !cells.is_subset(g.set_of(unit)) {
                continue;
            }
            let pool: Vec<usize> = (common & g.set_of(unit)).iter().collect();
            if (pool.len() as u32) < degree {
                continue;
            }
            let mut result = None;
            super::super::als_wings::for_each_combination(
                pool.len(),
                degree as usize - 1,
                &mut |chosen| {
                    if result.is_some() {
                        return;
                    }
                    let naked: Vec<usize> = chosen.iter().map(|&i| pool[i]).collect();
                    let others = naked.iter().fold(0u16, |acc, &c| acc | marks.mask(c));
                    let union = others | all_values;
                    let each_two = naked.iter().all(|&c| marks.mask(c).count_ones() >= 2)
                        && all_values.count_ones() >= 2;
                    if others.count_ones() != degree || union.count_ones() != degree || !each_two {
                        return;
                    }
                    let erasable = pool
                        .iter()
                        .filter(|c| !naked.contains(c))
                        .flat_map(|&c| indices_of(marks.mask(c) & union).map(move |d| (c, d)))
                        .collect::<Vec<_>>();
                    if !erasable.is_empty() {
                        let named: Vec<Cell> = naked.iter().map(|&c| Cell::from_index(c)).collect();
                        result = Some((
                            erasable,
                            union.count_ones(),
                            format!(
                                "their extra digits and {} form a naked set of {} in {}",
                                list(&named),
                                list(&digits_of(union).collect::<Vec<_>>()),
                                g.unit(unit)
                            ),
                        ));
                    }
                },
            );
            if result.is_some() {
                return result;
            }
        }
    }
    None
}
