//! Rule checking that does not need a search: which givens clash, whether the grid is full,
//! whether a full grid is solved. For every shape and rule set.
//!
//! Kept apart from the solvers on purpose: a verdict about a player's board must be right even
//! if a search has a bug, and the tests use it to check the solvers' answers independently.

use std::fmt;

use crate::engine::model::constraints::{
    boxes::BOX,
    lines::{COLUMN, ROW},
};
use crate::engine::model::grid::{Cell, Digit, Grid, Shape};
use crate::engine::model::rules::Rules;

/// A kind of unit: what a rule family calls one instance of itself ("row", "cage",
/// "thermometer"), and how a unit of that kind is named in messages and in the JSON API.
///
/// Each family declares its kinds as constants in its own file (`lines::ROW`,
/// `cages::CAGE`, `thermometers::THERMOMETER`), so a new family adds nothing here. Two
/// kinds are the same when their names are: the name is what a client reads.
#[derive(Clone, Copy)]
pub struct UnitKind {
    name: &'static str,
    label: &'static str,
    plural: &'static str,
    numbered: bool,
    relation: bool,
    box_like: bool,
    describe: Option<fn(usize, &mut fmt::Formatter<'_>) -> fmt::Result>,
}

impl UnitKind {
    /// A kind whose units hold distinct digits, shown as "`label` 3" (1-based index):
    /// `name` is the JSON API's ("little_killer"), `label` the word in messages ("little
    /// killer"), `plural` for lists of them ("little killers").
    pub(crate) const fn distinct(
        name: &'static str,
        label: &'static str,
        plural: &'static str,
    ) -> Self {
        UnitKind {
            name,
            label,
            plural,
            numbered: true,
            relation: false,
            box_like: false,
            describe: None,
        }
    }

    /// A kind whose units are broken by the digits they hold rather than by a repeat (a
    /// cell's domain, a relation between cells, a sum).
    pub(crate) const fn relation(
        name: &'static str,
        label: &'static str,
        plural: &'static str,
    ) -> Self {
        UnitKind {
            relation: true,
            ..Self::distinct(name, label, plural)
        }
    }

    /// Units of this kind are named by their cells, not numbered: "anti-knight pair".
    pub(crate) const fn unnumbered(self) -> Self {
        UnitKind {
            numbered: false,
            ..self
        }
    }

    /// A house a player scans like a box (boxes, Jigsaw regions, Hyper windows) rather
    /// than like a line: SE rates a box's singles and pointing lower than a line's.
    pub(crate) const fn box_like(self) -> Self {
        UnitKind {
            box_like: true,
            ..self
        }
    }

    /// Units of this kind are named by `describe` (index, formatter), for a kind whose
    /// number alone would not tell a player where it is.
    pub(crate) const fn described_by(
        self,
        describe: fn(usize, &mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> Self {
        UnitKind {
            describe: Some(describe),
            ..self
        }
    }

    /// Lower-case name, as used in messages and in the JSON API.
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// Lower-case plural: "rows", "boxes".
    pub const fn plural(self) -> &'static str {
        self.plural
    }

    /// Whether a unit of this kind is broken by the digits it holds rather than by a repeat
    /// (a cell's domain or a relation between two cells).
    pub const fn is_relation(self) -> bool {
        self.relation
    }

    /// Whether a player scans a house of this kind like a box rather than like a line.
    pub(crate) const fn is_box_like(self) -> bool {
        self.box_like
    }
}

impl PartialEq for UnitKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for UnitKind {}

impl PartialOrd for UnitKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UnitKind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.name.cmp(other.name)
    }
}

impl std::hash::Hash for UnitKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl fmt::Debug for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// One row, column, box, region, diagonal, window or cage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Unit {
    pub kind: UnitKind,
    /// 0-based; boxes, regions and windows are numbered in reading order, cages in the order
    /// given.
    pub index: usize,
}

impl Unit {
    /// All rows, then columns, then boxes of `shape`.
    pub fn lines_and_boxes(shape: Shape) -> impl Iterator<Item = Unit> {
        [ROW, COLUMN, BOX]
            .into_iter()
            .flat_map(move |kind| (0..shape.side()).map(move |index| Unit { kind, index }))
    }
}

impl fmt::Display for Unit {
    /// "row 3", "anti-knight pair", or the kind's own description: "hidden window 2 (rows 1,
    /// 5, 9, columns 2-4)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind.describe {
            Some(describe) => describe(self.index, f),
            None if self.kind.numbered => write!(f, "{} {}", self.kind.label, self.index + 1),
            None => f.write_str(self.kind.label),
        }
    }
}

/// A digit that appears more than once in one unit, with every cell that holds it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub unit: Unit,
    pub digit: Digit,
    /// Two or more cells, in reading order.
    pub cells: Vec<Cell>,
}

impl fmt::Display for Conflict {
    /// "digit 5 repeats in row 1: row 1, column 2 and row 1, column 7"; a broken domain or
    /// relation: "digit 5 breaks thermometer 1: row 1, column 1 and row 1, column 2".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.unit.kind.is_relation() {
            "breaks"
        } else {
            "repeats in"
        };
        write!(f, "digit {} {verb} {}: ", self.digit.to_char(), self.unit)?;
        for (i, cell) in self.cells.iter().enumerate() {
            if i > 0 {
                f.write_str(" and ")?;
            }
            write!(f, "{cell}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Conflict {}

/// What the rules say about a board, without solving it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Every repeated digit, by unit (in the order of [`Rules::units`]).
    pub conflicts: Vec<Conflict>,
    /// No empty cell.
    pub complete: bool,
    /// Complete, without conflicts, and every cage adds up: a finished, correct grid.
    pub solved: bool,
}

/// Checks every unit of `grid` under `rules` (which must be for the grid's shape).
pub fn validate(grid: &Grid, rules: &Rules) -> Report {
    let conflicts = conflicts(grid, rules);
    let complete = grid.is_full();
    let sums_met = rules.holds(grid);
    Report {
        solved: complete && conflicts.is_empty() && sums_met,
        complete,
        conflicts,
    }
}

/// Every repeated digit in every unit: by house (in the order of [`Rules::units`]), then by
/// forbidden pair.
pub fn conflicts(grid: &Grid, rules: &Rules) -> Vec<Conflict> {
    debug_assert_eq!(grid.shape(), rules.shape());
    rules.house_table().conflicts(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::boxes::BOX;
    use crate::engine::model::constraints::cages::CAGE;
    use crate::engine::model::constraints::diagonals::DIAGONAL;
    use crate::engine::model::constraints::lines::{COLUMN, ROW};
    use crate::engine::model::constraints::regions::REGION;
    use crate::engine::model::constraints::windows::{HIDDEN_WINDOW, WINDOW};
    use crate::engine::model::rules::{Cage, Cages};

    const SOLVED: &str =
        "957348216134265879268197534729584163483612957615739428392456781871923645546871392";

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    fn classic(line: &str) -> Report {
        let g = grid(line);
        validate(&g, &Rules::classic(g.shape()))
    }

    #[test]
    fn empty_board_is_valid_and_incomplete() {
        let report = classic(&".".repeat(81));
        assert!(report.conflicts.is_empty());
        assert!(!report.complete && !report.solved);
    }

    #[test]
    fn row_conflict_names_both_cells() {
        let mut line = ".".repeat(81);
        line.replace_range(1..2, "5");
        line.replace_range(6..7, "5");
        let report = classic(&line);
        assert_eq!(report.conflicts.len(), 1);
        let conflict = &report.conflicts[0];
        assert_eq!(conflict.unit.kind, ROW);
        assert_eq!(
            conflict.to_string(),
            "digit 5 repeats in row 1: row 1, column 2 and row 1, column 7"
        );
    }

    #[test]
    fn one_pair_can_break_a_column_and_a_box() {
        let mut line = ".".repeat(81);
        line.replace_range(0..1, "3");
        line.replace_range(9..10, "3");
        let kinds: Vec<UnitKind> = classic(&line)
            .conflicts
            .iter()
            .map(|c| c.unit.kind)
            .collect();
        assert_eq!(kinds, vec![COLUMN, BOX]);
    }

    #[test]
    fn a_triple_lists_all_three_cells() {
        let mut line = ".".repeat(81);
        for i in [0, 4, 8] {
            line.replace_range(i..i + 1, "7");
        }
        assert_eq!(classic(&line).conflicts[0].cells.len(), 3);
    }

    #[test]
    fn a_correct_full_grid_is_solved_and_a_swap_is_not() {
        let report = classic(SOLVED);
        assert!(report.complete && report.solved && report.conflicts.is_empty());
        let mut line = SOLVED.to_string();
        line.replace_range(0..2, "59");
        let report = classic(&line);
        assert!(report.complete && !report.solved);
        assert!(!report.conflicts.is_empty());
    }

    #[test]
    fn other_sizes_name_unit_and_cells_and_letters() {
        // 6x6: two 3s in box 1 (rows 1-2, columns 1-3), not sharing a row or column.
        let g =
            Grid::from_rows(&["3.....", ".3....", "......", "......", "......", "......"]).unwrap();
        let found = conflicts(&g, &Rules::classic(g.shape()));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].unit.kind, BOX);
        assert_eq!(
            found[0].to_string(),
            "digit 3 repeats in box 1: row 1, column 1 and row 2, column 2"
        );
        // 16x16: a repeated G in a column is written as the letter.
        let mut text = vec![".".repeat(16); 16];
        text[0] = format!("G{}", ".".repeat(15));
        text[15] = format!("g{}", ".".repeat(15));
        let g = Grid::from_rows(&text).unwrap();
        let found = conflicts(&g, &Rules::classic(g.shape()));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].digit.get(), 16);
        assert!(found[0]
            .to_string()
            .starts_with("digit G repeats in column 1"));
    }

    #[test]
    fn cages_are_units_and_their_sums_decide_solved() {
        let cages = Cages::new(
            Shape::NINE,
            vec![Cage {
                sum: Some(4),
                cells: vec![(0, 0), (1, 0)],
            }],
        )
        .unwrap();
        let rules = Rules::killer(cages);
        // 2 and 2 in a column clash there and in the cage.
        let mut line = ".".repeat(81);
        line.replace_range(0..1, "2");
        line.replace_range(9..10, "2");
        let found = conflicts(&grid(&line), &rules);
        let units: Vec<String> = found.iter().map(|c| c.unit.to_string()).collect();
        assert_eq!(units, ["column 1", "box 1", "cage 1"]);
        // The solved grid has 9 and 1 there: no repeat, but the cage wants 4.
        let report = validate(&grid(SOLVED), &rules);
        assert!(report.complete && report.conflicts.is_empty() && !report.solved);
    }

    #[test]
    fn houses_hold_every_digit_and_cages_do_not() {
        let spec = crate::engine::model::rules::RuleSpec {
            diagonals: true,
            windows: true,
            cages: vec![Cage {
                sum: Some(4),
                cells: vec![(0, 0), (1, 0)],
            }],
            ..Default::default()
        };
        let rules = Rules::new(Shape::NINE, spec).unwrap();
        let houses: Vec<Unit> = rules.houses().collect();
        let mut kinds = Vec::new();
        for (unit, cells) in rules.units() {
            let is_house = unit.kind != CAGE;
            assert_eq!(is_house, houses.contains(&unit), "{unit}");
            assert_eq!(is_house, cells.len() == 9, "{unit}: {cells:?}");
            kinds.push(unit.kind);
        }
        kinds.dedup();
        let expected = [ROW, COLUMN, BOX, DIAGONAL, WINDOW, CAGE];
        assert_eq!(kinds, expected);
    }

    #[test]
    fn the_classic_houses_are_the_lines_and_boxes() {
        for shape in Shape::ALL {
            let houses: Vec<Unit> = Rules::classic(shape).houses().collect();
            assert_eq!(houses.len(), 3 * shape.side(), "{shape}");
            assert_eq!(Unit::lines_and_boxes(shape).collect::<Vec<_>>(), houses);
        }
    }

    #[test]
    fn a_unit_the_rules_do_not_have_has_no_cells() {
        for kind in [REGION, CAGE, DIAGONAL, WINDOW, HIDDEN_WINDOW] {
            let unit = Unit { kind, index: 0 };
            assert!(
                Rules::classic(Shape::NINE).cells_of(unit).is_empty(),
                "{unit}"
            );
        }
    }

    #[test]
    fn units_cover_each_cell_three_times() {
        for shape in Shape::ALL {
            let mut seen = vec![0; shape.cells()];
            for (_, cells) in Rules::classic(shape).units() {
                for cell in cells {
                    seen[shape.index_of(cell).unwrap()] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 3), "{shape}");
        }
    }
}
