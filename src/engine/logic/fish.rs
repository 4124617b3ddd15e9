//! Fish: X-Wing (size 2) and Swordfish (size 3).
//!
//! If a digit's places in `n` rows all lie in the same `n` columns, those rows put the digit in
//! each of those columns, so no other row can have it there. The same holds with rows and
//! columns swapped.

use crate::engine::board::classic_digits;
use crate::engine::grid::Cell;
use crate::engine::validate::{Unit, UnitKind};

use super::candidates::{subsets, Candidates};
use super::text::lines;
use super::{Step, Technique};

/// A fish of `size` lines (2 or 3). Digits ascending; for each, rows as the base, then columns.
pub fn find(marks: &Candidates, size: u32) -> Option<Step> {
    let technique = if size == 2 {
        Technique::XWing
    } else {
        Technique::Swordfish
    };
    for digit in classic_digits() {
        for base_kind in [UnitKind::Row, UnitKind::Column] {
            let offset = if base_kind == UnitKind::Row { 0 } else { 9 };
            let places: Vec<u16> = (0..9).map(|l| marks.places(offset + l, digit)).collect();
            let eligible = (0..9)
                .filter(|&l| (2..=size).contains(&places[l].count_ones()))
                .fold(0u16, |acc, l| acc | 1 << l);
            for base in subsets(eligible, size) {
                let in_base = |l: usize| base & (1 << l) != 0;
                let cover = (0..9)
                    .filter(|&l| in_base(l))
                    .fold(0u16, |acc, l| acc | places[l]);
                if cover.count_ones() != size {
                    continue;
                }
                // Cell at (base line l, cross line x) in grid coordinates.
                let at = |l: usize, x: usize| {
                    let (r, c) = if base_kind == UnitKind::Row {
                        (l, x)
                    } else {
                        (x, l)
                    };
                    Cell::from_index(r * 9 + c)
                };
                let mut eliminations = Vec::new();
                let mut cells = Vec::new();
                for x in (0..9).filter(|x| cover & (1 << x) != 0) {
                    for l in 0..9 {
                        let pos = at(l, x);
                        if !marks.contains(pos, digit) {
                            continue;
                        }
                        if in_base(l) {
                            cells.push(pos);
                        } else {
                            eliminations.push((pos, digit));
                        }
                    }
                }
                if eliminations.is_empty() {
                    continue;
                }
                eliminations.sort();
                cells.sort();
                let cross_kind = if base_kind == UnitKind::Row {
                    UnitKind::Column
                } else {
                    UnitKind::Row
                };
                let base_lines: Vec<usize> = (0..9).filter(|&l| in_base(l)).collect();
                let cover_lines: Vec<usize> = (0..9).filter(|x| cover & (1 << x) != 0).collect();
                let units = base_lines
                    .iter()
                    .map(|&index| Unit {
                        kind: base_kind,
                        index,
                    })
                    .chain(cover_lines.iter().map(|&index| Unit {
                        kind: cross_kind,
                        index,
                    }))
                    .collect();
                let covered = lines(cross_kind, &cover_lines);
                let explanation = format!(
                    "In {}, {digit} can only go in {covered}, so {digit} is removed from the \
                     rest of {covered}.",
                    lines(base_kind, &base_lines)
                );
                return Some(Step {
                    technique,
                    placements: Vec::new(),
                    eliminations,
                    cells,
                    digits: vec![digit],
                    units,
                    explanation,
                });
            }
        }
    }
    None
}
