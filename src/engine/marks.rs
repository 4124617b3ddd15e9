//! Pencil marks for any size and rule set: the digits each empty cell can still hold.
//!
//! The logic engine keeps its own marks for classic 9x9 puzzles (and can refine them with
//! its techniques); every other board gets the basic marks here, computed from the rules as
//! data (the rules' house table): a digit placed in a house (every house the logic engine
//! counts, implied ones included) or a cage leaves the other cells of that unit and the
//! other cell of every forbidden pair it is in, and on boards up to 9x9 a Killer cage keeps
//! only the digits of the combinations that can still make its sum; a cell keeps only its
//! domain's digits (odd, even, a thermometer's bounds) and the relations (dots,
//! thermometers, non-consecutive) are made arc consistent. So a player of any variant gets
//! the same automatic pencil marks.

use super::board::Board;
use super::budget::{Budget, Exhausted};
use super::grid::{Cell, Digit, Grid, Shape};
use super::logic::Candidates;
use super::rules::Rules;
use super::sums::digits_of_sums;

/// Cage sums prune the marks on boards up to this side: their combinations are enumerated
/// as subsets of the digits (2^9 at most per cage).
const CAGE_SUMS_UP_TO: usize = 9;

/// The pencil marks of a board: one digit set per cell (empty for a filled cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    shape: Shape,
    /// Bit `d - 1` set when digit `d` is still possible.
    masks: Vec<u32>,
    /// Whether elimination techniques refined them beyond the basic eliminations.
    techniques: bool,
}

impl Marks {
    /// The basic marks of `grid` under `rules`; work charged to `budget` (one unit per
    /// thousand cell visits, as the general solver counts).
    pub fn basic(grid: &Grid, rules: &Rules, budget: &Budget) -> Result<Marks, Exhausted> {
        let shape = grid.shape();
        let side = shape.side();
        let all = (1u32 << side) - 1;
        let mut masks: Vec<u32> = shape
            .all_cells()
            .map(|cell| if grid.get(cell).is_some() { 0 } else { all })
            .collect();
        let bit = |digit: Digit| 1u32 << (digit.get() - 1);
        let mut visits = 0u64;
        let table = rules.house_table();
        for house in table.all() {
            let cells = &house.cells;
            visits += cells.len() as u64;
            let placed = cells
                .iter()
                .filter_map(|&c| grid.get(c))
                .fold(0u32, |acc, d| acc | bit(d));
            let mut allowed = !placed;
            if house.unit.kind == super::validate::UnitKind::Cage && side <= CAGE_SUMS_UP_TO {
                let cage = &rules.cages().cages()[house.unit.index];
                let placed_sum: u32 = cells
                    .iter()
                    .filter_map(|&c| grid.get(c))
                    .map(|d| u32::from(d.get()))
                    .sum();
                let open = cells.iter().filter(|&&c| grid.get(c).is_none()).count();
                allowed &= digits_of_sums(
                    all & !placed,
                    open as u32,
                    cage.sum().saturating_sub(placed_sum),
                );
                visits += 1 << side;
            }
            for &cell in cells {
                if let Some(i) = shape.index_of(cell) {
                    masks[i] &= allowed;
                }
            }
        }
        // A digit placed in one cell of a forbidden pair leaves the other.
        for pair in table.forbidden_pairs() {
            visits += 2;
            let [a, b] = pair.cells;
            for (from, to) in [(a, b), (b, a)] {
                if let (Some(d), Some(i)) = (grid.get(from), shape.index_of(to)) {
                    masks[i] &= !bit(d);
                }
            }
        }
        // A cell keeps only its domain's digits.
        for domain in table.domains() {
            visits += 1;
            if let Some(i) = shape.index_of(domain.cell) {
                masks[i] &= domain.allowed;
            }
        }
        // Each relation keeps in one cell only the digits some digit of the other allows (a
        // filled cell offers its digit), passed over until nothing changes: arc consistency,
        // as the general solver keeps it.
        let relations = table.relations();
        let offer = |masks: &[u32], cell: Cell| match grid.get(cell) {
            Some(d) => bit(d),
            None => shape.index_of(cell).map_or(0, |i| masks[i]),
        };
        let support = |table: &[u32], mut digits: u32| {
            let mut out = 0;
            while digits != 0 {
                out |= table[digits.trailing_zeros() as usize];
                digits &= digits - 1;
            }
            out
        };
        let reversed: Vec<Vec<u32>> = relations.iter().map(|r| r.reversed()).collect();
        let mut changed = !relations.is_empty();
        while changed {
            changed = false;
            for (relation, back) in relations.iter().zip(&reversed) {
                visits += 2 * side as u64;
                let [a, b] = relation.cells;
                for (from, to, table) in [(a, b, &relation.table), (b, a, back)] {
                    let Some(i) = shape.index_of(to).filter(|_| grid.get(to).is_none()) else {
                        continue;
                    };
                    let kept = masks[i] & support(table, offer(&masks, from));
                    if kept != masks[i] {
                        masks[i] = kept;
                        changed = true;
                    }
                }
            }
            budget.charge(visits / 1000)?;
            visits %= 1000;
        }
        budget.charge(visits / 1000 + 1)?;
        Ok(Marks {
            shape,
            masks,
            techniques: false,
        })
    }

    /// The logic engine's marks of the 9x9 `board` it started from. A cell the techniques
    /// placed (a one-cell cage, a cage's last cell) is still empty on the player's board, so
    /// it shows the one digit it must hold, not the empty set of a filled cell.
    pub fn of_candidates(board: &Board, candidates: &Candidates, techniques: bool) -> Marks {
        let shape = Shape::NINE;
        let masks = shape
            .all_cells()
            .map(|cell| match (board.get(cell), candidates.value(cell)) {
                (Some(_), _) => 0,
                (None, Some(placed)) => 1 << (placed.get() - 1),
                (None, None) => candidates
                    .digits(cell)
                    .iter()
                    .fold(0u32, |acc, d| acc | 1 << (d.get() - 1)),
            })
            .collect();
        Marks {
            shape,
            masks,
            techniques,
        }
    }

    /// The digits still possible in `cell`, ascending; none for a filled cell.
    pub fn digits(&self, cell: Cell) -> Vec<Digit> {
        let mask = self.shape.index_of(cell).map_or(0, |i| self.masks[i]);
        Digit::up_to(self.shape.side())
            .filter(|d| mask >> (d.get() - 1) & 1 != 0)
            .collect()
    }

    /// Whether elimination techniques refined the marks (classic 9x9 boards only).
    pub fn techniques_applied(&self) -> bool {
        self.techniques
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Cage, RuleSpec};

    fn marks_of(marks: &Marks, row: usize, col: usize) -> Vec<u8> {
        marks
            .digits(Cell::at(row, col))
            .iter()
            .map(|d| d.get())
            .collect()
    }

    #[test]
    fn a_cage_keeps_only_the_digits_of_its_sums() {
        // A two-cell cage of 3 is {1, 2}; of 17, {8, 9}; with a 4 placed, a cage of 11 needs 7.
        let grid = Grid::from_line(&format!("....4{}", ".".repeat(76))).unwrap();
        let cages = vec![
            Cage {
                sum: 3,
                cells: vec![(0, 0), (0, 1)],
            },
            Cage {
                sum: 17,
                cells: vec![(1, 0), (1, 1)],
            },
            Cage {
                sum: 11,
                cells: vec![(0, 4), (0, 5)],
            },
        ];
        let rules = Rules::for_cages(Shape::NINE, cages).unwrap();
        let marks = Marks::basic(&grid, &rules, &Budget::unlimited()).unwrap();
        assert_eq!(marks_of(&marks, 0, 0), vec![1, 2]);
        assert_eq!(marks_of(&marks, 1, 1), vec![8, 9]);
        assert_eq!(marks_of(&marks, 0, 5), vec![7]);
        assert_eq!(
            marks_of(&marks, 0, 4),
            Vec::<u8>::new(),
            "a filled cell has none"
        );
        // Row 1 has a 4: nothing else in it may hold one.
        assert!(!marks_of(&marks, 0, 8).contains(&4));
        assert!(!marks.techniques_applied());
    }

    #[test]
    fn diagonals_windows_and_regions_remove_their_digits() {
        let mut grid = Grid::empty(Shape::NINE);
        grid.set(Cell::at(0, 0), Digit::new(5)).unwrap();
        grid.set(Cell::at(2, 6), Digit::new(7)).unwrap();
        grid.set(Cell::at(0, 1), Digit::new(6)).unwrap();
        let spec = RuleSpec {
            diagonals: true,
            windows: true,
            ..RuleSpec::default()
        };
        let rules = Rules::new(Shape::NINE, spec).unwrap();
        let marks = Marks::basic(&grid, &rules, &Budget::unlimited()).unwrap();
        // r8c8 sees r1c1 only through the main diagonal.
        assert!(!marks_of(&marks, 7, 7).contains(&5));
        // r4c8 sees r3c7 only through the top-right window.
        assert!(!marks_of(&marks, 3, 7).contains(&7));
        // r5c3 sees r1c2 only through hidden window 2 (rows 1, 5, 9, columns 2-4), as the
        // logic engine's marks do.
        assert!(!marks_of(&marks, 4, 2).contains(&6));
        let classic =
            Marks::basic(&grid, &Rules::classic(Shape::NINE), &Budget::unlimited()).unwrap();
        assert!(marks_of(&classic, 7, 7).contains(&5));
        assert!(marks_of(&classic, 3, 7).contains(&7));
        assert!(marks_of(&classic, 4, 2).contains(&6));
        let board = crate::engine::board::Board::from_grid(&grid).unwrap();
        let geometry = crate::engine::logic::Geometry::for_rules(&rules).unwrap();
        let logic =
            Marks::of_candidates(&board, &Candidates::with_geometry(&board, &geometry), false);
        assert_eq!(
            logic.masks, marks.masks,
            "the hints' marks are the player's"
        );
    }
}
