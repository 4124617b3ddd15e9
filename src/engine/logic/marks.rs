//! Pencil marks for any size and rule set: the digits each empty cell can still hold.
//!
//! The logic engine keeps its own marks for classic 9x9 puzzles (and can refine them with
//! its techniques); every other board gets the basic marks here, computed from the rules as
//! data (the rules' house table): a digit placed in a house (every house the logic engine
//! counts, implied ones included) or a cage leaves the other cells of that unit and the
//! other cell of every forbidden pair it is in, and on boards up to 9x9 a Killer cage keeps
//! only the digits of the combinations that can still make its sum; a cell keeps only its
//! domain's digits (odd, even, a thermometer's bounds) and the relations (dots,
//! thermometers, non-consecutive) are made arc consistent, and every propagator (arrows,
//! sandwiches, ...) narrows its cells, to a common fixed point. So a player of any variant gets
//! the same automatic pencil marks.

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::logic::Candidates;
use crate::engine::model::board::Board;
use std::sync::Arc;

use crate::engine::model::constraints::propagators::{revise, Propagator};
use crate::engine::model::constraints::Relation;
use crate::engine::model::grid::{Cell, Digit, Grid, Shape};
use crate::engine::model::rules::Rules;
use crate::engine::model::sums::digits_of_sums;
use crate::engine::model::validate::Unit;

/// Houses with a total (Killer cages) prune the marks on boards up to this side: their
/// combinations are enumerated as subsets of the digits (2^9 at most per house).
const DISTINCT_SUMS_UP_TO: usize = 9;

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
        let mut visits = 0u64;
        let mut marks = Marks::of_houses(grid, rules, &mut visits);
        let parts = parts(rules);
        // Every part keeps what the others leave it, passed over until nothing changes.
        let mut changed = !parts.is_empty();
        while changed {
            changed = false;
            for part in &parts {
                changed |= marks.narrow_by(grid, part, &mut visits);
            }
            budget.charge(visits / 1000)?;
            visits %= 1000;
        }
        budget.charge(visits / 1000 + 1)?;
        Ok(marks)
    }

    /// The marks of `grid` by its houses alone: a digit placed in a house (every house the
    /// logic engine counts, implied ones included) or a cage leaves the unit's other cells
    /// and the other cell of each forbidden pair; a cage keeps the digits of its sums (up
    /// to 9x9); a cell keeps its domain's digits. What a player sees first, before the
    /// relations and propagators of [`parts`]. Adds its cell visits to `visits`.
    pub(crate) fn of_houses(grid: &Grid, rules: &Rules, visits: &mut u64) -> Marks {
        let shape = grid.shape();
        let side = shape.side();
        let all = (1u32 << side) - 1;
        let mut masks: Vec<u32> = shape
            .all_cells()
            .map(|cell| if grid.get(cell).is_some() { 0 } else { all })
            .collect();
        let table = rules.house_table();
        for house in table.all() {
            let cells = &house.cells;
            *visits += cells.len() as u64;
            let placed = cells
                .iter()
                .filter_map(|&c| grid.get(c))
                .fold(0u32, |acc, d| acc | bit(d));
            for &cell in cells {
                if let Some(i) = shape.index_of(cell) {
                    masks[i] &= !placed;
                }
            }
        }
        // A house with a total keeps the digits of the sums its open cells can still make
        // (its cells were counted with its house above).
        if side <= DISTINCT_SUMS_UP_TO {
            for house in table.distinct_sums() {
                let cells = &house.cells;
                let placed_digits = cells.iter().filter_map(|&c| grid.get(c));
                let placed = placed_digits.clone().fold(0u32, |acc, d| acc | bit(d));
                let placed_sum: u32 = placed_digits.map(|d| u32::from(d.get())).sum();
                let open = cells.iter().filter(|&&c| grid.get(c).is_none()).count();
                let total = house.total.saturating_sub(placed_sum);
                let allowed = digits_of_sums(all & !placed, open as u32, total);
                *visits += 1 << side;
                for &cell in cells {
                    if let Some(i) = shape.index_of(cell) {
                        masks[i] &= allowed;
                    }
                }
            }
        }
        // A digit placed in one cell of a forbidden pair leaves the other.
        for pair in table.forbidden_pairs() {
            *visits += 2;
            let [a, b] = pair.cells;
            for (from, to) in [(a, b), (b, a)] {
                if let (Some(d), Some(i)) = (grid.get(from), shape.index_of(to)) {
                    masks[i] &= !bit(d);
                }
            }
        }
        // A cell keeps only its domain's digits.
        for domain in table.domains() {
            *visits += 1;
            if let Some(i) = shape.index_of(domain.cell) {
                masks[i] &= domain.allowed;
            }
        }
        Marks {
            shape,
            masks,
            techniques: false,
        }
    }

    /// Narrows the marks of `grid`'s empty cells by one part of the rules: a relation keeps
    /// in each cell only the digits some digit of the other allows (a filled cell offers its
    /// digit: arc consistency, as the general solver keeps it); a propagator keeps what its
    /// narrowing leaves (one that nothing can satisfy leaves the marks as they are:
    /// validation names it). Whether any mark went.
    pub(crate) fn narrow_by(&mut self, grid: &Grid, part: &Part, visits: &mut u64) -> bool {
        let shape = self.shape;
        let offer = |masks: &[u32], cell: Cell| match grid.get(cell) {
            Some(d) => bit(d),
            None => shape.index_of(cell).map_or(0, |i| masks[i]),
        };
        let mut changed = false;
        let mut keep = |masks: &mut [u32], cell: Cell, kept: u32| {
            if let Some(i) = shape.index_of(cell).filter(|_| grid.get(cell).is_none()) {
                if masks[i] & !kept != 0 {
                    masks[i] &= kept;
                    changed = true;
                }
            }
        };
        match part {
            Part::Relations(_, relations) => {
                for relation in relations {
                    *visits += 2 * shape.side() as u64;
                    let [a, b] = relation.cells;
                    let back = relation.reversed();
                    for (from, to, table) in [(a, b, &relation.table), (b, a, &back)] {
                        let support = digits_through(table, offer(&self.masks, from));
                        keep(&mut self.masks, to, support);
                    }
                }
            }
            Part::Propagator(propagator) => {
                let mut scratch: Vec<u32> = (propagator.cells().iter())
                    .map(|&cell| offer(&self.masks, cell))
                    .collect();
                if revise(propagator.as_ref(), &mut scratch, visits) {
                    for (&cell, &kept) in propagator.cells().iter().zip(&scratch) {
                        keep(&mut self.masks, cell, kept);
                    }
                }
            }
        }
        changed
    }

    /// The cells whose marks differ from `before`'s, each with the digits it lost.
    pub(crate) fn lost_since(&self, before: &Marks) -> Vec<(Cell, Digit)> {
        let side = self.shape.side();
        self.shape
            .all_cells()
            .zip(self.masks.iter().zip(&before.masks))
            .flat_map(|(cell, (&now, &was))| {
                Digit::up_to(side)
                    .filter(move |d| (was & !now) >> (d.get() - 1) & 1 != 0)
                    .map(move |d| (cell, d))
            })
            .collect()
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

/// One part of a rule set beyond its houses, as pencil marks and hints apply it: the
/// relations of one unit (a thermometer's steps, every non-consecutive pair), or one
/// propagator (an arrow, a sandwich clue).
pub(crate) enum Part<'r> {
    Relations(Unit, Vec<&'r Relation>),
    Propagator(&'r Arc<dyn Propagator>),
}

impl Part<'_> {
    /// The unit a step made by this part names.
    pub(crate) fn unit(&self) -> Unit {
        match self {
            Part::Relations(unit, _) => *unit,
            Part::Propagator(propagator) => propagator.unit(),
        }
    }
}

/// The parts of `rules` beyond its houses, in registry order: relations grouped by unit,
/// then the propagators.
pub(crate) fn parts(rules: &Rules) -> Vec<Part<'_>> {
    let table = rules.house_table();
    let mut parts: Vec<Part> = Vec::new();
    for relation in table.relations() {
        match parts.last_mut() {
            Some(Part::Relations(unit, list)) if *unit == relation.unit => list.push(relation),
            _ => parts.push(Part::Relations(relation.unit, vec![relation])),
        }
    }
    parts.extend(table.propagators().iter().map(Part::Propagator));
    parts
}

/// Bit `d - 1` for digit `d`.
fn bit(digit: Digit) -> u32 {
    1u32 << (digit.get() - 1)
}

/// The digits a relation's `table` allows the other cell while this one holds any of
/// `digits`.
fn digits_through(table: &[u32], mut digits: u32) -> u32 {
    let mut out = 0;
    while digits != 0 {
        out |= table[digits.trailing_zeros() as usize];
        digits &= digits - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::rules::{Cage, RuleSpec};

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
                sum: Some(3),
                cells: vec![(0, 0), (0, 1)],
            },
            Cage {
                sum: Some(17),
                cells: vec![(1, 0), (1, 1)],
            },
            Cage {
                sum: Some(11),
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
        let board = crate::engine::model::board::Board::from_grid(&grid).unwrap();
        let geometry = crate::engine::logic::Geometry::for_rules(&rules).unwrap();
        let logic =
            Marks::of_candidates(&board, &Candidates::with_geometry(&board, &geometry), false);
        assert_eq!(
            logic.masks, marks.masks,
            "the hints' marks are the player's"
        );
    }
}
