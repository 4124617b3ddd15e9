//! Canonical forms of Sudoku X and Hyper puzzles: the classic form's idea (the least image
//! under the rule set's symmetries and the digits' relabellings) for rule sets whose
//! symmetry groups are much smaller.
//!
//! A rearrangement of the classic group keeps an X or Hyper puzzle the same puzzle only when
//! it maps the extra houses onto themselves: the two diagonals, or the four windows. Those
//! rearrangements form a group (the stabiliser of the houses), small enough to try in full:
//!
//! * **X**: the row order must commute with the reversal `r -> 8 - r` (24 of the 1,296
//!   band-keeping orders), the column order likewise, and together they must keep both
//!   diagonals: 96 rearrangements with the transposition (the 8 turns and reflections of the
//!   square among them), times the 9! relabellings.
//! * **Hyper**: the row order must map the windows' rows `{1, 2, 3}` and `{5, 6, 7}` onto
//!   themselves (8 orders), the column order likewise: 128 rearrangements with the
//!   transposition. Hyper puzzles also have symmetries outside the classic group (the
//!   "hidden" windows let rows move across bands); those are not used, so two Hyper puzzles
//!   related only by them keep different forms.
//!
//! Jigsaw puzzles carry their regions, and Killer puzzles their cages, through every
//! rearrangement; they have no canonical form yet.
//!
//! For each rearrangement the best relabelling is forced (digits numbered in order of first
//! appearance), so the form is the least of |group| relabelled images: 96 or 128 passes over
//! 81 cells, each abandoned at its first cell above the best so far.

use std::sync::OnceLock;

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::model::board::{CELLS, ORDERS_OF_THREE, SIZE};
use crate::engine::model::grid::Shape;
use crate::engine::model::rules::{RuleSpec, Rules};

/// The rule sets with a canonical form of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VariantGroup {
    X,
    Hyper,
}

/// A rearrangement of the cells: the image's cell `i` holds the original's cell `map[i]`.
type CellMap = [u8; CELLS];

/// Images tried per work unit (an image reads at most 81 cells, about a tenth of a
/// microsecond each).
const IMAGES_PER_UNIT: u64 = 8;

impl VariantGroup {
    /// The group of `rules`, when they are exactly Sudoku X's or Hyper's.
    pub(crate) fn of(rules: &Rules) -> Option<VariantGroup> {
        let exactly = |spec: RuleSpec| Rules::new(Shape::NINE, spec).is_ok_and(|r| &r == rules);
        if exactly(RuleSpec {
            diagonals: true,
            ..RuleSpec::default()
        }) {
            Some(VariantGroup::X)
        } else if exactly(RuleSpec {
            windows: true,
            ..RuleSpec::default()
        }) {
            Some(VariantGroup::Hyper)
        } else {
            None
        }
    }

    /// The cells of each extra house the rearrangements must keep.
    fn houses(self) -> Vec<Vec<usize>> {
        match self {
            VariantGroup::X => vec![
                (0..SIZE).map(|i| i * SIZE + i).collect(),
                (0..SIZE).map(|i| i * SIZE + (SIZE - 1 - i)).collect(),
            ],
            VariantGroup::Hyper => {
                let mut windows = Vec::new();
                for top in [1, 5] {
                    for left in [1, 5] {
                        let cells = (0..9).map(|k| (top + k / 3) * SIZE + left + k % 3);
                        windows.push(cells.collect());
                    }
                }
                windows
            }
        }
    }

    /// Whether a band-keeping line order can belong to a rearrangement that keeps the houses
    /// (a necessary condition, which cuts 1,296 orders to a few dozen).
    fn line_order_fits(self, order: &[usize; SIZE]) -> bool {
        match self {
            VariantGroup::X => (0..SIZE).all(|i| order[SIZE - 1 - i] == SIZE - 1 - order[i]),
            VariantGroup::Hyper => {
                let image = |lines: [usize; 3]| {
                    let mut image: Vec<usize> = lines.iter().map(|&l| order[l]).collect();
                    image.sort_unstable();
                    image
                };
                let (a, b) = (image([1, 2, 3]), image([5, 6, 7]));
                (a == [1, 2, 3] && b == [5, 6, 7]) || (a == [5, 6, 7] && b == [1, 2, 3])
            }
        }
    }

    /// Every rearrangement of the classic group that keeps the houses, built once.
    fn group(self) -> &'static [CellMap] {
        static X: OnceLock<Vec<CellMap>> = OnceLock::new();
        static HYPER: OnceLock<Vec<CellMap>> = OnceLock::new();
        let cell = match self {
            VariantGroup::X => &X,
            VariantGroup::Hyper => &HYPER,
        };
        cell.get_or_init(|| self.build_group())
    }

    fn build_group(self) -> Vec<CellMap> {
        let orders: Vec<[usize; SIZE]> = line_orders()
            .into_iter()
            .filter(|order| self.line_order_fits(order))
            .collect();
        let mut houses: Vec<Vec<usize>> = self.houses();
        for house in &mut houses {
            house.sort_unstable();
        }
        houses.sort();
        let mut group = Vec::new();
        for transpose in [false, true] {
            for rows in &orders {
                for cols in &orders {
                    let map = cell_map(rows, cols, transpose);
                    if keeps(&map, &houses) {
                        group.push(map);
                    }
                }
            }
        }
        group
    }

    /// The canonical form of `cells` (row-major, 0 for empty): the least relabelled image
    /// under [`VariantGroup::group`]. Puzzles of this rule set that are one puzzle in
    /// disguise (under that group) have the same form; the form is itself such a disguise.
    pub(crate) fn form(
        self,
        cells: &[u8; CELLS],
        budget: &Budget,
    ) -> Result<[u8; CELLS], Exhausted> {
        let group = self.group();
        budget.charge((group.len() as u64).div_ceil(IMAGES_PER_UNIT))?;
        let mut best = [u8::MAX; CELLS];
        for map in group {
            let (mut label, mut next, mut below) = ([0u8; SIZE + 1], 1u8, false);
            let mut image = [0u8; CELLS];
            let mut beaten = false;
            for at in 0..CELLS {
                let value = match cells[usize::from(map[at])] {
                    0 => 0,
                    digit => {
                        let digit = usize::from(digit);
                        if label[digit] == 0 {
                            label[digit] = next;
                            next += 1;
                        }
                        label[digit]
                    }
                };
                if !below {
                    if value > best[at] {
                        beaten = true;
                        break;
                    }
                    below = value < best[at];
                }
                image[at] = value;
            }
            if !beaten && below {
                best = image;
            }
        }
        Ok(best)
    }
}

/// Every order of the 9 lines that keeps bands together: the bands in any order, the lines
/// of each band in any order (6^4 = 1,296).
fn line_orders() -> Vec<[usize; SIZE]> {
    let mut orders = Vec::with_capacity(1296);
    for bands in ORDERS_OF_THREE {
        for a in ORDERS_OF_THREE {
            for b in ORDERS_OF_THREE {
                for c in ORDERS_OF_THREE {
                    let within = [a, b, c];
                    let mut order = [0; SIZE];
                    for (slot, band) in bands.into_iter().enumerate() {
                        for (k, line) in within[slot].into_iter().enumerate() {
                            order[slot * 3 + k] = band * 3 + line;
                        }
                    }
                    orders.push(order);
                }
            }
        }
    }
    orders
}

/// The rearrangement showing input row `rows[r]` as row `r` and input column `cols[c]` as
/// column `c`, transposed first when `transpose`.
fn cell_map(rows: &[usize; SIZE], cols: &[usize; SIZE], transpose: bool) -> CellMap {
    let mut map = [0u8; CELLS];
    for r in 0..SIZE {
        for c in 0..SIZE {
            let from = if transpose {
                cols[c] * SIZE + rows[r]
            } else {
                rows[r] * SIZE + cols[c]
            };
            map[r * SIZE + c] = from as u8;
        }
    }
    map
}

/// Whether `map` takes the (sorted) houses onto themselves.
fn keeps(map: &CellMap, houses: &[Vec<usize>]) -> bool {
    let mut images: Vec<Vec<usize>> = houses
        .iter()
        .map(|house| {
            let mut image: Vec<usize> = house.iter().map(|&i| usize::from(map[i])).collect();
            image.sort_unstable();
            image
        })
        .collect();
    images.sort();
    images == houses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::random::SplitMix64;

    /// A Sudoku X puzzle and a Hyper puzzle (each unique under its rules).
    const X_PUZZLE: &str =
        "..........2.5.3.....1...8..3...2..4..8.....7..4..9...2..6...1.....7.4.6..........";

    fn cells(line: &str) -> [u8; CELLS] {
        let mut cells = [0u8; CELLS];
        for (i, ch) in line.chars().enumerate() {
            cells[i] = ch.to_digit(10).unwrap_or(0) as u8;
        }
        cells
    }

    /// `cells` under `map`, relabelled by `relabel`.
    fn disguise(cells: &[u8; CELLS], map: &CellMap, relabel: &[u8]) -> [u8; CELLS] {
        let mut out = [0u8; CELLS];
        for i in 0..CELLS {
            out[i] = match cells[usize::from(map[i])] {
                0 => 0,
                d => relabel[usize::from(d) - 1],
            };
        }
        out
    }

    /// The groups are what the module docs say: their sizes, the identity and the square's
    /// turns among them, and closed under composition (so a least image is well defined).
    #[test]
    fn the_groups_keep_their_houses_and_are_groups() {
        for (group, size) in [(VariantGroup::X, 96), (VariantGroup::Hyper, 128)] {
            let maps = group.group();
            assert_eq!(maps.len(), size, "{group:?}");
            let identity: CellMap = std::array::from_fn(|i| i as u8);
            assert!(maps.contains(&identity));
            let quarter_turn: CellMap =
                std::array::from_fn(|i| ((SIZE - 1 - i % SIZE) * SIZE + i / SIZE) as u8);
            assert!(maps.contains(&quarter_turn), "{group:?}");
            let set: std::collections::HashSet<&CellMap> = maps.iter().collect();
            for a in maps.iter().step_by(7) {
                for b in maps.iter().step_by(5) {
                    let composed: CellMap = std::array::from_fn(|i| a[usize::from(b[i])]);
                    assert!(set.contains(&composed), "{group:?} is closed");
                }
            }
        }
    }

    /// Every disguise of a puzzle under the group and a relabelling has the puzzle's form,
    /// which is the least of all the images (checked against a plain search over the whole
    /// classic group, filtered by the houses as the definition says).
    #[test]
    fn disguises_share_the_form_and_it_is_the_least_image() {
        let mut random = SplitMix64::new(29);
        let budget = Budget::unlimited();
        for group in [VariantGroup::X, VariantGroup::Hyper] {
            let puzzle = cells(X_PUZZLE);
            let form = group.form(&puzzle, &budget).unwrap();
            let maps = group.group();
            for _ in 0..20 {
                let map = maps[random.below(maps.len())];
                let mut relabel: Vec<u8> = (1..=9).collect();
                random.shuffle(&mut relabel);
                let disguised = disguise(&puzzle, &map, &relabel);
                assert_eq!(group.form(&disguised, &budget).unwrap(), form, "{group:?}");
            }
            let mut houses = group.houses();
            for house in &mut houses {
                house.sort_unstable();
            }
            houses.sort();
            let mut in_house = [false; CELLS];
            houses.iter().flatten().for_each(|&i| in_house[i] = true);
            let orders = line_orders();
            let mut least = [u8::MAX; CELLS];
            for transpose in [false, true] {
                for rows in &orders {
                    for cols in &orders {
                        // Quick rejection: a map that keeps the houses keeps their union.
                        let from = |i: usize| {
                            let (r, c) = (rows[i / SIZE], cols[i % SIZE]);
                            if transpose {
                                c * SIZE + r
                            } else {
                                r * SIZE + c
                            }
                        };
                        if houses
                            .iter()
                            .any(|h| !in_house[from(h[0])] || !in_house[from(h[4])])
                        {
                            continue;
                        }
                        let map = cell_map(rows, cols, transpose);
                        if !keeps(&map, &houses) {
                            continue;
                        }
                        let image = disguise(&puzzle, &map, &(1..=9).collect::<Vec<u8>>());
                        let mut label = [0u8; 10];
                        let mut next = 1;
                        let relabelled = image.map(|d| match d {
                            0 => 0,
                            d => {
                                if label[usize::from(d)] == 0 {
                                    label[usize::from(d)] = next;
                                    next += 1;
                                }
                                label[usize::from(d)]
                            }
                        });
                        least = least.min(relabelled);
                    }
                }
            }
            assert_eq!(form, least, "{group:?}");
        }
    }

    /// A puzzle and one that differs by a given are different puzzles.
    #[test]
    fn different_puzzles_have_different_forms() {
        let budget = Budget::unlimited();
        let puzzle = cells(X_PUZZLE);
        let mut other = puzzle;
        other[0] = 9;
        for group in [VariantGroup::X, VariantGroup::Hyper] {
            assert_ne!(
                group.form(&puzzle, &budget).unwrap(),
                group.form(&other, &budget).unwrap()
            );
        }
    }
}
