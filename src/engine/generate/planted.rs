//! Classic `extreme` puzzles and those above what carving reaches, built around a planted
//! *tridagon*.
//!
//! Carving random grids finds a classic puzzle rated 9.3 about once in 30,000 candidates and
//! has never found one of 9.5 (BENCHMARKS.md), while most of the hardest puzzles players
//! know share one structure: four boxes at the corners of a rectangle of boxes (two bands,
//! two stacks), three cells in each box, one in each of its rows and columns, and all twelve
//! cells limited to the same three digits. Each box's three cells read as a permutation
//! (the box's row `k` holds the cell in its column `p(k)`); when an odd number of the four
//! permutations are odd, the three digits cannot fill the twelve cells (the tests check
//! this against a plain search of every arrangement), so one of the cells, the guardian,
//! holds a fourth digit. Seeing that takes either the pattern itself or very long forcing
//! chains; Sudoku Explainer's techniques need chains of 9.0 and more, or nested ones.
//!
//! A [`Plant`] is such a pattern with its three digits and its guardian, drawn at random,
//! and a full grid that holds it: the guardian's digit is the grid's, every other cell of
//! the pattern one of the three. Carving that grid keeps the pattern's cells empty, and
//! takes out a clue only while every cell of the pattern still sees, among the clues, every
//! digit outside its own allowed ones ([`Plant::keeps_after`]); the clues of the pattern's
//! digits (its three and the guardian's) are offered first, so that they are as few as the
//! pattern allows. With 180-degree symmetry, two of the four boxes are each other's twins,
//! the other two's cells' twins are emptied with the pattern, and clues leave by pairs of
//! twins. Of 30,000 such puzzles
//! (a trial with full grades, BENCHMARKS.md), one in 160 rated 9.0 or more and one in 7,500
//! 9.5 or more, where carving random grids finds a 9.3 once in about 30,000 and never a 9.5.

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::logic::Geometry;
use crate::engine::model::board::{Board, CELLS, ORDERS_OF_THREE};
use crate::engine::model::grid::Cell;
use crate::engine::random::SplitMix64;

use super::{fill, Symmetry};

/// The six orders of a box's three columns, by the box's rows (`[0, 1, 2]` is the main
/// diagonal), the three even permutations first, then the three odd ones.
const PERMUTATIONS: [[usize; 3]; 6] = [
    ORDERS_OF_THREE[0],
    ORDERS_OF_THREE[3],
    ORDERS_OF_THREE[4],
    ORDERS_OF_THREE[1],
    ORDERS_OF_THREE[5],
    ORDERS_OF_THREE[2],
];

/// Whether permutation number `p` of [`PERMUTATIONS`] is odd.
fn is_odd(p: usize) -> bool {
    p >= 3
}

/// Nodes the fill of a planted grid may visit: on these constraints it finishes in about
/// 70-800 (the 99th percentile about 90, over 400 draws); a draw past this is given up (the
/// caller draws again).
const FILL_NODES: u32 = 100_000;
/// Work charged per node of the fill, in thousandths of a unit: a node scans the empty cells
/// for the most constrained one, about 0.33 us (300 draws of a release build).
const FILL_NODE_MILLI: u64 = 330;

/// Twelve cells of four boxes that three digits cannot fill, the digits each may hold in the
/// grid it was drawn with, and so in any puzzle carved from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plant {
    /// The cells, box by box, row by row within a box.
    cells: [usize; 12],
    /// Each cell's allowed digits as 9-bit masks: the three digits; the guardian's own digit
    /// too.
    allowed: [u16; 12],
}

impl Plant {
    /// A random plant and a full grid holding it: two bands and two stacks, four
    /// permutations an odd number of which are odd, a guardian, the three digits on the other
    /// eleven cells (a shuffled search over the arrangements, one always exists), then the
    /// rest of the grid filled as [`fill`] fills a random grid, charged to `budget`. `None`
    /// when the fill gives up.
    pub(crate) fn draw(
        rng: &mut SplitMix64,
        symmetry: Symmetry,
        budget: &Budget,
    ) -> Result<Option<(Plant, Board)>, Exhausted> {
        let cells = match symmetry {
            Symmetry::None => free_layout(rng),
            Symmetry::Rotational => turning_layout(rng),
        };
        let guardian = rng.below(cells.len());
        let mut labels = [None; 12];
        if !arrange(&cells, guardian, 0, &mut labels, rng) {
            return Ok(None);
        }
        let mut digits: [u8; 9] = std::array::from_fn(|d| d as u8 + 1);
        rng.shuffle(&mut digits);
        let trio = digits[..3].iter().fold(0u16, |m, &d| m | 1 << (d - 1));
        let mut grid = [0u8; CELLS];
        let mut used = [0u16; 27];
        for (&cell, label) in cells.iter().zip(labels) {
            if let Some(label) = label {
                let digit = digits[usize::from(label)];
                grid[cell] = digit;
                super::mark(&mut used, cell, 1 << (digit - 1), true);
            }
        }
        let mut nodes = FILL_NODES;
        let filled = fill(&mut grid, &mut used, rng, &mut nodes);
        budget.charge_milli(u64::from(FILL_NODES - nodes) * FILL_NODE_MILLI)?;
        if !filled {
            return Ok(None);
        }
        // The guardian's digit is not one of the three: with it, they would fill all twelve.
        debug_assert!(trio & 1 << (grid[cells[guardian]] - 1) == 0);
        let allowed = std::array::from_fn(|k| {
            if k == guardian {
                trio | 1 << (grid[cells[k]] - 1)
            } else {
                trio
            }
        });
        Ok(Some((Plant { cells, allowed }, Board::from_raw(grid))))
    }

    /// `grid` without the pattern's cells, and with rotational `symmetry` without their twins
    /// too (for most, cells of the pattern): where every carving of the plant starts.
    pub(crate) fn start(&self, grid: &Board, symmetry: Symmetry) -> Board {
        let mut start = *grid;
        for &cell in &self.cells {
            for i in [cell, symmetry.twin(cell)] {
                start.set(Cell::from_index(i), None);
            }
        }
        start
    }

    /// The digits the pattern's cells may hold, as a 9-bit mask: its three and the
    /// guardian's.
    pub(crate) fn digits(&self) -> u16 {
        self.allowed.iter().fold(0, |all, &allowed| all | allowed)
    }

    /// Whether every cell of the pattern sees, among the clues of `givens`, every digit it
    /// may not hold: what keeps the pattern a pattern for a player. Checks the whole board.
    pub(crate) fn holds(&self, geometry: &Geometry, givens: &Board) -> bool {
        let raw = givens.raw();
        self.cells.iter().zip(self.allowed).all(|(&cell, allowed)| {
            let seen = geometry
                .peers(cell)
                .iter()
                .fold(0u16, |seen, p| seen | (1u16 << raw[p] >> 1));
            !seen & 0x1FF & !allowed == 0
        })
    }

    /// [`Plant::holds`] for `givens` just after the clue `digit` left `removed`, given that
    /// it held before: only the pattern's cells that saw that clue and may not hold `digit`
    /// can have lost it, and each needs another clue of `digit` among its peers.
    pub(crate) fn keeps_after(
        &self,
        geometry: &Geometry,
        givens: &Board,
        removed: usize,
        digit: u8,
    ) -> bool {
        let raw = givens.raw();
        let bit = 1u16 << (digit - 1);
        let near = geometry.peers(removed);
        self.cells.iter().zip(self.allowed).all(|(&cell, allowed)| {
            allowed & bit != 0
                || !near.contains(cell)
                || geometry.peers(cell).iter().any(|p| raw[p] == digit)
        })
    }

    /// [`Plant::keeps_after`] for a unit of carving, one cell or a pair of twins (`a`, `b`),
    /// just taken out of `givens`, their digits read from `solution`. Each cell is checked
    /// against the board without both: a cell of the pattern can only have lost sight of
    /// the digit of one of them.
    pub(crate) fn keeps_after_unit(
        &self,
        geometry: &Geometry,
        givens: &Board,
        (a, b): (usize, usize),
        solution: &Board,
    ) -> bool {
        let raw = solution.raw();
        self.keeps_after(geometry, givens, a, raw[a])
            && (a == b || self.keeps_after(geometry, givens, b, raw[b]))
    }
}

/// The cells of four boxes, an odd number of whose permutations are odd: any two bands,
/// any two stacks.
fn free_layout(rng: &mut SplitMix64) -> [usize; 12] {
    let mut bands = [0, 1, 2];
    rng.shuffle(&mut bands);
    let mut stacks = [0, 1, 2];
    rng.shuffle(&mut stacks);
    let mut chosen = [0usize; 4];
    for p in chosen.iter_mut().take(3) {
        *p = rng.below(PERMUTATIONS.len());
    }
    // The last box's permutation makes the number of odd ones odd.
    let odd_so_far = chosen[..3].iter().filter(|&&p| is_odd(p)).count();
    chosen[3] = rng.below(3) + if odd_so_far % 2 == 0 { 3 } else { 0 };
    layout([bands[0], bands[1]], [stacks[0], stacks[1]], chosen)
}

/// [`free_layout`] for a puzzle with 180-degree symmetry: as many of the cells as can be
/// each other's twins. The four boxes cannot all be (the corner boxes are the only set of
/// four that turns into itself, and twins' permutations have the same parity, so theirs
/// would hold an even number of odd ones); here two boxes of the middle band (or stack) are
/// twins, and the other two lie in one outer band, one odd and one even. Their six cells'
/// twins are emptied with the pattern.
fn turning_layout(rng: &mut SplitMix64) -> [usize; 12] {
    let outer = if rng.below(2) == 0 { 0 } else { 2 };
    let middle = rng.below(PERMUTATIONS.len());
    let first = rng.below(PERMUTATIONS.len());
    // Of the other parity than `first`: the even three come first in the table.
    let second = rng.below(3) + if is_odd(first) { 0 } else { 3 };
    let cells = layout([outer, 1], [0, 2], [first, second, middle, twin_of(middle)]);
    if rng.below(2) == 0 {
        cells
    } else {
        // The same with rows and columns exchanged: stacks for bands.
        cells.map(|c| c % 9 * 9 + c / 9)
    }
}

/// The permutation whose cells are the 180-degree twins of `p`'s (in the twin box): row
/// `2 - k` holds column `2 - p(k)`.
fn twin_of(p: usize) -> usize {
    let order = PERMUTATIONS[p];
    let twin: [usize; 3] = std::array::from_fn(|k| 2 - order[2 - k]);
    PERMUTATIONS
        .iter()
        .position(|&q| q == twin)
        .expect("every order of three is in the table")
}

/// The twelve cells of `chosen` permutations in the boxes of `bands` by `stacks` (box `b`
/// in band `bands[b / 2]` and stack `stacks[b % 2]`), box by box, row by row.
fn layout(bands: [usize; 2], stacks: [usize; 2], chosen: [usize; 4]) -> [usize; 12] {
    let mut cells = [0usize; 12];
    for (b, &p) in chosen.iter().enumerate() {
        let (band, stack) = (bands[b / 2], stacks[b % 2]);
        for (k, &column) in PERMUTATIONS[p].iter().enumerate() {
            cells[b * 3 + k] = (band * 3 + k) * 9 + stack * 3 + column;
        }
    }
    cells
}

/// Labels 0-2 (the three digits, in an order drawn later) for the cells from `k` on, the
/// guardian left out, no two peers alike; tries the labels in a shuffled order.
fn arrange(
    cells: &[usize; 12],
    guardian: usize,
    k: usize,
    labels: &mut [Option<u8>; 12],
    rng: &mut SplitMix64,
) -> bool {
    if k == cells.len() {
        return true;
    }
    if k == guardian {
        return arrange(cells, guardian, k + 1, labels, rng);
    }
    let mut order = [0u8, 1, 2];
    rng.shuffle(&mut order);
    for label in order {
        let clash = (0..k).any(|j| labels[j] == Some(label) && sees(cells[j], cells[k]));
        if !clash {
            labels[k] = Some(label);
            if arrange(cells, guardian, k + 1, labels, rng) {
                return true;
            }
        }
    }
    labels[k] = None;
    false
}

/// Whether two different cells share a row, a column or a box.
fn sees(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether three labels fill `cells` with no two peers alike: a plain search of every
    /// arrangement, sharing nothing with the parity rule.
    fn fillable(cells: &[usize]) -> bool {
        fn go(cells: &[usize], labels: &mut Vec<u8>) -> bool {
            let k = labels.len();
            if k == cells.len() {
                return true;
            }
            for label in 0..3 {
                if (0..k).all(|j| labels[j] != label || !sees(cells[j], cells[k])) {
                    labels.push(label);
                    if go(cells, labels) {
                        return true;
                    }
                    labels.pop();
                }
            }
            false
        }
        go(cells, &mut Vec::new())
    }

    #[test]
    fn an_odd_number_of_odd_boxes_is_exactly_what_three_digits_cannot_fill() {
        for code in 0..6usize.pow(4) {
            let chosen = [code % 6, code / 6 % 6, code / 36 % 6, code / 216];
            let cells: Vec<usize> = (0..12)
                .map(|i| {
                    let (b, k) = (i / 3, i % 3);
                    let (band, stack) = (b / 2, b % 2);
                    (band * 3 + k) * 9 + stack * 3 + PERMUTATIONS[chosen[b]][k]
                })
                .collect();
            let odd = chosen.iter().filter(|&&p| is_odd(p)).count() % 2 == 1;
            assert_eq!(fillable(&cells), !odd, "permutations {chosen:?}");
        }
    }

    #[test]
    fn a_twin_permutation_turns_its_box_into_the_twin_box_with_the_same_parity() {
        for p in 0..PERMUTATIONS.len() {
            let cells = layout([1, 1], [0, 2], [p, twin_of(p), p, twin_of(p)]);
            let turned: Vec<usize> = cells[..3].iter().map(|&c| CELLS - 1 - c).collect();
            let mut twin_box = cells[3..6].to_vec();
            twin_box.sort_unstable();
            let mut turned_sorted = turned.clone();
            turned_sorted.sort_unstable();
            assert_eq!(turned_sorted, twin_box, "permutation {p}");
            assert_eq!(is_odd(p), is_odd(twin_of(p)), "permutation {p}");
        }
    }

    #[test]
    fn a_drawn_plant_sits_in_a_valid_grid_with_one_guardian() {
        let geometry = Geometry::classic();
        for (seed, symmetry) in
            (0..40).flat_map(|s| [(s, Symmetry::None), (s, Symmetry::Rotational)])
        {
            let mut rng = SplitMix64::new(seed);
            let (plant, grid) = Plant::draw(&mut rng, symmetry, &Budget::unlimited())
                .unwrap()
                .expect("the fill finishes");
            if symmetry == Symmetry::Rotational {
                // Two boxes are each other's twins: six cells whose twins are in the pattern.
                let twins = plant
                    .cells
                    .iter()
                    .filter(|&&c| plant.cells.contains(&(CELLS - 1 - c)))
                    .count();
                assert_eq!(twins, 6, "{plant:?}");
            }
            assert!(crate::engine::model::board::classic_conflicts(&grid).is_empty());
            assert!(grid.is_full());
            let boxes: std::collections::BTreeSet<usize> = plant
                .cells
                .iter()
                .map(|&c| c / 27 * 3 + c % 9 / 3)
                .collect();
            assert_eq!(boxes.len(), 4, "four boxes");
            let trio = plant.allowed.iter().fold(0x1FF, |m, &a| m & a);
            assert_eq!(trio.count_ones(), 3, "{plant:?}");
            let outside: Vec<usize> = plant
                .cells
                .iter()
                .filter(|&&c| trio & 1 << (grid.raw()[c] - 1) == 0)
                .copied()
                .collect();
            assert_eq!(outside.len(), 1, "one guardian, seed {seed}");
            assert!(
                !fillable(&plant.cells),
                "three digits cannot fill the cells"
            );
            // Where carving starts keeps the pattern (each cell sees all other digits): the
            // pattern's cells empty and, with symmetry, their twins, six of them others.
            let start = plant.start(&grid, symmetry);
            assert!(plant.holds(geometry, &start), "seed {seed}");
            let empty: Vec<usize> = (0..CELLS).filter(|&c| start.raw()[c] == 0).collect();
            match symmetry {
                Symmetry::None => assert_eq!(empty.len(), 12),
                Symmetry::Rotational => {
                    assert_eq!(empty.len(), 18, "seed {seed}");
                    assert!(empty.iter().all(|&c| empty.contains(&(CELLS - 1 - c))));
                }
            }
        }
    }

    #[test]
    fn keeping_after_a_removal_is_holding_the_whole_board() {
        let geometry = Geometry::classic();
        for (seed, symmetry) in [(7, Symmetry::None), (7, Symmetry::Rotational)] {
            let mut rng = SplitMix64::new(seed);
            let (plant, grid) = Plant::draw(&mut rng, symmetry, &Budget::unlimited())
                .unwrap()
                .unwrap();
            let mut givens = plant.start(&grid, symmetry);
            // Units as carving takes them out: cells, or pairs of twins.
            let mut order: Vec<(usize, usize)> = super::super::removal_units(symmetry)
                .into_iter()
                .filter(|&(a, b)| givens.raw()[a] != 0 && givens.raw()[b] != 0)
                .collect();
            rng.shuffle(&mut order);
            let (mut kept, mut refused) = (0, 0);
            for (a, b) in order {
                let mut after = givens;
                for i in [a, b] {
                    after.set(Cell::from_index(i), None);
                }
                let keeps = plant.keeps_after_unit(geometry, &after, (a, b), &grid);
                assert_eq!(keeps, plant.holds(geometry, &after), "removing {a} and {b}");
                if keeps {
                    givens = after;
                    kept += 1;
                } else {
                    refused += 1;
                }
            }
            assert!(
                kept > 10 && refused > 5,
                "both answers occur ({symmetry:?}): {kept} {refused}"
            );
        }
    }
}
