//! Rule checking that does not need a search: which givens clash, whether the grid is full,
//! whether a full grid is solved. For every shape and rule set.
//!
//! Kept apart from the solvers on purpose: a verdict about a player's board must be right even
//! if a search has a bug, and the tests use it to check the solvers' answers independently.

use std::fmt;

use crate::engine::model::constraints::windows::name_hidden_window;
use crate::engine::model::grid::{Cell, Digit, Grid, Shape};
use crate::engine::model::rules::Rules;

/// The kinds of group a digit must not repeat in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitKind {
    Row,
    Column,
    Box,
    /// A Jigsaw region, in place of the boxes.
    Region,
    /// A main diagonal (Sudoku X): index 0 runs from the top-left corner, 1 from the
    /// top-right.
    Diagonal,
    /// A Hyper window (9x9): index 0-3 in reading order.
    Window,
    /// One of the five groups a Hyper puzzle's windows imply (index 0-4; see
    /// `constraints/windows.rs`). Not a rule of its own, so a board is never checked
    /// against it; the logic engine uses it as a house.
    HiddenWindow,
    /// A Killer cage (its digits are distinct too).
    Cage,
    /// Two cells a king's move apart (anti-king); index 0 for every pair, the cells name it.
    AntiKing,
    /// Two cells a knight's move apart (anti-knight); index 0, the cells name it.
    AntiKnight,
    /// Two orthogonal neighbours (non-consecutive); index 0, the cells name it.
    NonConsecutive,
    /// A cell that must hold an odd digit; index 0, the cell names it.
    Odd,
    /// A cell that must hold an even digit; index 0, the cell names it.
    Even,
    /// A thermometer, by its place in the list given.
    Thermometer,
    /// A Kropki or XV dot, by its place in the list given.
    Dot,
    /// Two orthogonal neighbours without a dot under a negative constraint; index 0.
    Negative,
    /// The cells in one place of every box (disjoint groups): index 0 is every box's first
    /// cell, in reading order within the box.
    DisjointGroup,
    /// An extra region (distinct digits, not necessarily all), by its place in the list
    /// given.
    ExtraRegion,
    /// A German whispers line, by its place in the list given.
    Whisper,
    /// A palindrome line, by its place in the list given.
    Palindrome,
    /// A renban line (distinct consecutive digits), by its place in the list given.
    Renban,
    /// An arrow (its shaft adds up to its circle), by its place in the list given.
    Arrow,
    /// A little killer diagonal, by its place in the list given.
    LittleKiller,
    /// A sandwich clue, by its place in the list given.
    Sandwich,
    /// An X-sum clue, by its place in the list given.
    XSum,
    /// A skyscraper clue, by its place in the list given.
    Skyscraper,
    /// A between line, by its place in the list given.
    BetweenLine,
    /// A region-sum line, by its place in the list given.
    RegionSumLine,
    /// A quadruple, by its place in the list given.
    Quadruple,
    /// A minimum cell (smaller than its orthogonal neighbours); index 0, the cells name it.
    Minimum,
    /// A maximum cell (larger than its orthogonal neighbours); index 0, the cells name it.
    Maximum,
    /// A clone pair of regions, by its place in the list given.
    Clone,
}

impl UnitKind {
    /// Lower-case name, as used in messages and in the JSON API.
    pub const fn name(self) -> &'static str {
        match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
            UnitKind::Region => "region",
            UnitKind::Diagonal => "diagonal",
            UnitKind::Window => "window",
            UnitKind::HiddenWindow => "hidden_window",
            UnitKind::Cage => "cage",
            UnitKind::AntiKing => "anti_king",
            UnitKind::AntiKnight => "anti_knight",
            UnitKind::NonConsecutive => "non_consecutive",
            UnitKind::Odd => "odd",
            UnitKind::Even => "even",
            UnitKind::Thermometer => "thermometer",
            UnitKind::Dot => "dot",
            UnitKind::Negative => "negative",
            UnitKind::DisjointGroup => "disjoint_group",
            UnitKind::ExtraRegion => "extra_region",
            UnitKind::Whisper => "whispers",
            UnitKind::Palindrome => "palindrome",
            UnitKind::Renban => "renban",
            UnitKind::Arrow => "arrow",
            UnitKind::LittleKiller => "little_killer",
            UnitKind::Sandwich => "sandwich",
            UnitKind::XSum => "x_sum",
            UnitKind::Skyscraper => "skyscraper",
            UnitKind::BetweenLine => "between_line",
            UnitKind::RegionSumLine => "region_sum_line",
            UnitKind::Quadruple => "quadruple",
            UnitKind::Minimum => "minimum",
            UnitKind::Maximum => "maximum",
            UnitKind::Clone => "clone",
        }
    }

    /// Lower-case plural: "rows", "boxes".
    pub const fn plural(self) -> &'static str {
        match self {
            UnitKind::Row => "rows",
            UnitKind::Column => "columns",
            UnitKind::Box => "boxes",
            UnitKind::Region => "regions",
            UnitKind::Diagonal => "diagonals",
            UnitKind::Window => "windows",
            UnitKind::HiddenWindow => "hidden windows",
            UnitKind::Cage => "cages",
            UnitKind::AntiKing => "anti-king pairs",
            UnitKind::AntiKnight => "anti-knight pairs",
            UnitKind::NonConsecutive => "non-consecutive pairs",
            UnitKind::Odd => "odd cells",
            UnitKind::Even => "even cells",
            UnitKind::Thermometer => "thermometers",
            UnitKind::Dot => "dots",
            UnitKind::Negative => "negative pairs",
            UnitKind::DisjointGroup => "disjoint groups",
            UnitKind::ExtraRegion => "extra regions",
            UnitKind::Whisper => "whispers lines",
            UnitKind::Palindrome => "palindromes",
            UnitKind::Renban => "renban lines",
            UnitKind::Arrow => "arrows",
            UnitKind::LittleKiller => "little killers",
            UnitKind::Sandwich => "sandwich clues",
            UnitKind::XSum => "X-sum clues",
            UnitKind::Skyscraper => "skyscraper clues",
            UnitKind::BetweenLine => "between lines",
            UnitKind::RegionSumLine => "region-sum lines",
            UnitKind::Quadruple => "quadruples",
            UnitKind::Minimum => "minimum cells",
            UnitKind::Maximum => "maximum cells",
            UnitKind::Clone => "clones",
        }
    }

    /// Whether each digit appears exactly once in a unit of this kind (a cage holds fewer).
    pub const fn is_house(self) -> bool {
        !matches!(
            self,
            UnitKind::Cage | UnitKind::AntiKing | UnitKind::ExtraRegion
        ) && !self.is_relation()
    }

    /// Whether a unit of this kind is broken by the digits it holds rather than by a repeat
    /// (a cell's domain or a relation between two cells).
    pub const fn is_relation(self) -> bool {
        matches!(
            self,
            UnitKind::NonConsecutive
                | UnitKind::Odd
                | UnitKind::Even
                | UnitKind::Thermometer
                | UnitKind::Dot
                | UnitKind::Negative
                | UnitKind::Whisper
                | UnitKind::Palindrome
                | UnitKind::Renban
                | UnitKind::Arrow
                | UnitKind::LittleKiller
                | UnitKind::Sandwich
                | UnitKind::XSum
                | UnitKind::Skyscraper
                | UnitKind::BetweenLine
                | UnitKind::RegionSumLine
                | UnitKind::Quadruple
                | UnitKind::Minimum
                | UnitKind::Maximum
                | UnitKind::Clone
        )
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
        [UnitKind::Row, UnitKind::Column, UnitKind::Box]
            .into_iter()
            .flat_map(move |kind| (0..shape.side()).map(move |index| Unit { kind, index }))
    }
}

impl fmt::Display for Unit {
    /// "row 3"; a hidden window with where it is: "hidden window 2 (rows 1, 5, 9, columns 2-4)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            UnitKind::HiddenWindow => name_hidden_window(self.index, f),
            UnitKind::AntiKing => f.write_str("anti-king pair"),
            UnitKind::AntiKnight => f.write_str("anti-knight pair"),
            UnitKind::NonConsecutive => f.write_str("non-consecutive pair"),
            UnitKind::Odd => f.write_str("odd cell"),
            UnitKind::Even => f.write_str("even cell"),
            UnitKind::Negative => f.write_str("negative constraint"),
            UnitKind::DisjointGroup => write!(f, "disjoint group {}", self.index + 1),
            UnitKind::ExtraRegion => write!(f, "extra region {}", self.index + 1),
            UnitKind::Whisper => write!(f, "whispers line {}", self.index + 1),
            UnitKind::Renban => write!(f, "renban line {}", self.index + 1),
            UnitKind::LittleKiller => write!(f, "little killer {}", self.index + 1),
            UnitKind::XSum => write!(f, "X-sum clue {}", self.index + 1),
            UnitKind::Sandwich => write!(f, "sandwich clue {}", self.index + 1),
            UnitKind::Skyscraper => write!(f, "skyscraper clue {}", self.index + 1),
            UnitKind::BetweenLine => write!(f, "between line {}", self.index + 1),
            UnitKind::RegionSumLine => write!(f, "region-sum line {}", self.index + 1),
            UnitKind::Minimum => f.write_str("minimum cell"),
            UnitKind::Maximum => f.write_str("maximum cell"),
            kind => write!(f, "{} {}", kind.name(), self.index + 1),
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
        assert_eq!(conflict.unit.kind, UnitKind::Row);
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
        assert_eq!(kinds, vec![UnitKind::Column, UnitKind::Box]);
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
        assert_eq!(found[0].unit.kind, UnitKind::Box);
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
            let is_house = unit.kind.is_house();
            assert_eq!(is_house, houses.contains(&unit), "{unit}");
            assert_eq!(is_house, cells.len() == 9, "{unit}: {cells:?}");
            kinds.push(unit.kind);
        }
        kinds.dedup();
        let expected = [
            UnitKind::Row,
            UnitKind::Column,
            UnitKind::Box,
            UnitKind::Diagonal,
            UnitKind::Window,
            UnitKind::Cage,
        ];
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
        for kind in [
            UnitKind::Region,
            UnitKind::Cage,
            UnitKind::Diagonal,
            UnitKind::Window,
            UnitKind::HiddenWindow,
        ] {
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
