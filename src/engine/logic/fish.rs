//! Fish: X-Wing (size 2, rated 3.2), Swordfish (3, 3.8) and Jellyfish (4, 5.2).
//!
//! If a digit's places in `n` columns all lie in the same `n` rows, those columns put the digit
//! in each of those rows, so no other column can have it there. The same holds with rows and
//! columns swapped. SE looks at columns as the base first, then rows; for each set of lines
//! (ascending) every digit; and only for digits with at least `2n` places still open.

use crate::engine::model::board::SIZE;
use crate::engine::model::constraints::lines::{COLUMN, ROW};
use crate::engine::model::grid::Cell;
use crate::engine::model::validate::{Unit, UnitKind};

use super::barren;
use super::candidates::{digit, indices_of, subsets, Candidates};
use super::cellset::CellSet;
use super::rating::Rating;
use super::text::lines;
use super::{Step, Technique};

/// A fish: digit `digit`'s places in the `base` lines all lie in the `cover` lines.
#[derive(Clone, Copy)]
pub(crate) struct Fish {
    pub(crate) digit: usize,
    pub(crate) base_kind: UnitKind,
    /// Line indices (bit `l` for line `l`) of the base and the cover.
    pub(crate) base: u16,
    pub(crate) cover: u16,
    pub(crate) base_cells: CellSet,
    pub(crate) cover_cells: CellSet,
}

impl Fish {
    /// The digit leaves the cover lines outside the base lines.
    pub(crate) fn removed(&self, marks: &Candidates) -> CellSet {
        (self.cover_cells - self.base_cells) & marks.cells_with(self.digit)
    }
}

/// Calls `visit` with every fish of `size` lines (2-4) in SE's order (columns as the base,
/// then rows; line sets ascending; digits ascending) until it returns true. SE only looks at
/// base lines with two or more places and digits with at least `2 * size` places open.
/// Rows and columns are houses in every rule set, so fish hold in every variant.
pub(crate) fn fishes(marks: &Candidates, size: u32, visit: impl FnMut(Fish) -> bool) {
    fishes_of(marks, size, [true; SIZE], visit);
}

/// [`fishes`] of the digits with `digits[d]` set.
fn fishes_of(
    marks: &Candidates,
    size: u32,
    digits: [bool; SIZE],
    mut visit: impl FnMut(Fish) -> bool,
) {
    let g = marks.geometry();
    let open: [bool; SIZE] =
        std::array::from_fn(|d| digits[d] && marks.placed_count(d) + 2 * size <= SIZE as u32);
    for (base_kind, base_offset, cover_offset) in [(COLUMN, 9, 0), (ROW, 0, 9)] {
        for base in subsets(0x1FF, size) {
            for d in (0..9).filter(|&d| open[d]) {
                super::work::count(u64::from(size));
                // Positions of the digit along each base line, as cross-line indices.
                let mut cover = 0u16;
                let mut fits = true;
                for l in indices_of(base) {
                    let positions = marks.places(base_offset + l, d);
                    if positions.count_ones() < 2 {
                        fits = false;
                        break;
                    }
                    cover |= positions;
                }
                if !fits || cover.count_ones() != size {
                    continue;
                }
                let fish = Fish {
                    digit: d,
                    base_kind,
                    base,
                    cover,
                    base_cells: indices_of(base)
                        .fold(CellSet::EMPTY, |acc, l| acc | g.set_of(base_offset + l)),
                    cover_cells: indices_of(cover)
                        .fold(CellSet::EMPTY, |acc, x| acc | g.set_of(cover_offset + x)),
                };
                if visit(fish) {
                    return;
                }
            }
        }
    }
}

/// The first fish of `size` lines (2-4) that removes something. Digits on which the last
/// look of this grade found nothing, with the same places, are not looked at again.
pub fn find(marks: &Candidates, size: u32) -> Option<Step> {
    let search = barren::Search::Fish(size);
    let digits = barren::worth_a_look(search, marks);
    let mut found = None;
    fishes_of(marks, size, digits, |fish| {
        let removed = fish.removed(marks);
        if !removed.is_empty() {
            found = Some(fish_step(marks, &fish, removed));
        }
        found.is_some()
    });
    if found.is_none() {
        for d in (0..SIZE).filter(|&d| digits[d]) {
            barren::found_nothing(search, marks, d);
        }
    }
    found
}

fn fish_step(marks: &Candidates, fish: &Fish, removed: CellSet) -> Step {
    let (technique, rating) = match fish.base.count_ones() {
        2 => (Technique::XWing, 32),
        3 => (Technique::Swordfish, 38),
        _ => (Technique::Jellyfish, 52),
    };
    let base_kind = fish.base_kind;
    let cross_kind = if base_kind == ROW { COLUMN } else { ROW };
    let base_lines: Vec<usize> = indices_of(fish.base).collect();
    let cover_lines: Vec<usize> = indices_of(fish.cover).collect();
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
    let digit = digit(fish.digit);
    let covered = lines(cross_kind, &cover_lines);
    Step::eliminating(
        technique,
        Rating::from_tenths(rating),
        removed.marks_of(digit),
        (fish.base_cells & fish.cover_cells & marks.cells_with(fish.digit))
            .iter()
            .map(Cell::from_index)
            .collect(),
        vec![digit],
        units,
        format!(
            "In {}, {digit} can only go in {covered}, so {digit} is removed from the rest of \
             {covered}.",
            lines(base_kind, &base_lines)
        ),
    )
}
