//! The rules a puzzle is played by beyond its grid: [`Rules`]. Rows and columns always;
//! the shape's boxes or irregular Jigsaw [`Regions`] in their place; optionally both main
//! diagonals (Sudoku X), the four extra 3x3 windows of a 9x9 Hyper (Windoku) grid, and
//! Killer [`Cages`] (groups of cells whose digits are distinct and add up to a given sum).
//! Every group of `side` cells holding each digit once is a *house*; a cage is a unit too,
//! but not a house.
//!
//! Rules are data, built from a [`RuleSpec`] by [`Rules::new`], which proves everything that
//! can be known without search ([`Cages::new`], [`Regions::new`]), so a solver never meets
//! rules it cannot trust. Cages need not cover the grid.

use super::grid::{Cell, Shape};
use super::regions::{first_unconnected, RegionError, Regions};

/// The rule fields as a caller describes them, before validation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSpec {
    /// Jigsaw regions in place of the boxes: one label per cell, rows top first.
    pub regions: Option<Vec<Vec<Option<String>>>>,
    /// Both main diagonals are houses (Sudoku X).
    pub diagonals: bool,
    /// The four windows of a 9x9 Hyper (Windoku) grid are houses.
    pub windows: bool,
    /// Killer cages.
    pub cages: Vec<Cage>,
}

/// Why a rule set cannot be played, for the rule field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error(transparent)]
    Cages(#[from] CageError),
    #[error(transparent)]
    Regions(#[from] RegionError),
    /// Hyper windows are defined for the 9x9 grid only.
    #[error("windows (Hyper Sudoku) are defined for 9x9 boards; this board is {side}x{side}")]
    WindowsNeedNine { side: usize },
}

/// Top-left cells of the four Hyper windows of a 9x9 grid, each 3x3.
const WINDOW_CORNERS: [(usize, usize); 4] = [(1, 1), (1, 5), (5, 1), (5, 5)];

/// Everything a puzzle is played by (see the module docs). Built only from validated parts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Jigsaw regions; `None`: the shape's boxes.
    regions: Option<Regions>,
    diagonals: bool,
    windows: bool,
    cages: Cages,
}

impl Rules {
    /// Rows, columns and boxes of `shape`, nothing more.
    pub fn classic(shape: Shape) -> Rules {
        Rules::killer(Cages::none(shape))
    }

    /// The shape's rows, columns and boxes plus Killer cages (validated for that shape).
    pub fn killer(cages: Cages) -> Rules {
        Rules {
            regions: None,
            diagonals: false,
            windows: false,
            cages,
        }
    }

    /// The rules of `shape` with the cages as a caller describes them (none: classic),
    /// validated against the shape.
    pub fn for_cages(shape: Shape, cages: Vec<Cage>) -> Result<Rules, CageError> {
        Ok(Rules::killer(Cages::new(shape, cages)?))
    }

    /// The rules a caller describes, for a grid of `shape`; the first fault found is the
    /// error (regions, then windows, then cages).
    pub fn new(shape: Shape, spec: RuleSpec) -> Result<Rules, RulesError> {
        // Regions that are the shape's boxes are no Jigsaw: the classic rules (and their
        // fast solver, and their puzzle id) apply.
        let regions = spec
            .regions
            .map(|labels| Regions::new(shape, &labels))
            .transpose()?
            .filter(|regions| !regions.are_boxes());
        if spec.windows && shape != Shape::NINE {
            return Err(RulesError::WindowsNeedNine { side: shape.side() });
        }
        Ok(Rules {
            regions,
            diagonals: spec.diagonals,
            windows: spec.windows,
            cages: Cages::new(shape, spec.cages)?,
        })
    }

    /// The shape the rules were made for.
    pub fn shape(&self) -> Shape {
        self.cages.shape()
    }

    /// The cages (none for a classic puzzle).
    pub fn cages(&self) -> &Cages {
        &self.cages
    }

    /// The Jigsaw regions, when they replace the boxes.
    pub fn regions(&self) -> Option<&Regions> {
        self.regions.as_ref()
    }

    /// Whether both main diagonals are houses.
    pub fn diagonals(&self) -> bool {
        self.diagonals
    }

    /// Whether the four Hyper windows are houses.
    pub fn windows(&self) -> bool {
        self.windows
    }

    /// Only rows, columns and boxes: nothing a classic solver would miss.
    pub fn is_classic(&self) -> bool {
        self.regions.is_none() && !self.diagonals && !self.windows && self.cages.is_empty()
    }

    /// The 0-based box (or Jigsaw region) of `cell`.
    pub fn region_of(&self, cell: Cell) -> usize {
        match &self.regions {
            Some(regions) => regions.region_of(cell),
            None => self.shape().box_of(cell.row(), cell.col()),
        }
    }

    /// "9x9", "9x9 Killer", "9x9 Jigsaw X": how a puzzle under these rules is named in
    /// messages.
    pub fn kind(&self) -> String {
        let side = self.shape().side();
        let mut name = format!("{side}x{side}");
        for (on, word) in [
            (self.regions.is_some(), "Jigsaw"),
            (self.windows, "Hyper"),
            (self.diagonals, "X"),
            (!self.cages.is_empty(), "Killer"),
        ] {
            if on {
                name.push(' ');
                name.push_str(word);
            }
        }
        name
    }
}

/// The cells of Hyper window `index` (0-3) of a 9x9 grid, in reading order.
pub(crate) fn window_cell(index: usize, i: usize) -> (usize, usize) {
    let (top, left) = WINDOW_CORNERS[index];
    (top + i / 3, left + i % 3)
}

/// The lines of a 9x9 grid the windows leave out (0-based: the first, middle and last), and
/// the two triples each pair of windows covers.
const WINDOW_LINE_GROUPS: [[usize; 3]; 3] = [[0, 4, 8], [1, 2, 3], [5, 6, 7]];

/// Which line groups (rows, columns) make each hidden window, in reading order of its first
/// cell: the four windows are groups 1-2 by 1-2; the other five pairs are these.
const HIDDEN_WINDOWS: [(usize, usize); 5] = [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)];

/// The cells of hidden window `index` (0-4), in reading order. The four windows imply five
/// more groups that hold every digit once: three columns side by side hold each digit three
/// times, the two windows on them hold it once each, so the rows the windows leave out (1, 5
/// and 9) hold it once there too; likewise across, and at the nine crossings of those rows
/// and columns. Solvers that know this use them as houses, and Sukaku Explainer rates Hyper
/// puzzles with them.
pub(crate) fn hidden_window_cell(index: usize, i: usize) -> (usize, usize) {
    let (rows, cols) = HIDDEN_WINDOWS[index];
    (
        WINDOW_LINE_GROUPS[rows][i / 3],
        WINDOW_LINE_GROUPS[cols][i % 3],
    )
}

/// "1, 5, 9" or "2-4": the rows or columns of line group `group`.
pub(crate) fn window_lines(group: usize) -> String {
    match WINDOW_LINE_GROUPS[group] {
        [a, _, c] if c == a + 2 => format!("{}-{}", a + 1, c + 1),
        [a, b, c] => format!("{}, {}, {}", a + 1, b + 1, c + 1),
    }
}

/// The row and column groups of hidden window `index`, for naming it.
pub(crate) fn hidden_window_lines(index: usize) -> (String, String) {
    let (rows, cols) = HIDDEN_WINDOWS[index];
    (window_lines(rows), window_lines(cols))
}

/// One cage as a caller describes it: the sum and the cells as 0-based (row, column).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    pub sum: u32,
    pub cells: Vec<(usize, usize)>,
}

/// Why a set of cages is not valid. `cage` is the 1-based position in the list given;
/// cells print 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CageError {
    #[error("cage {cage} has no cells")]
    Empty { cage: usize },
    #[error("cage {cage} has {size} cells; a {side}x{side} cage holds at most {side}")]
    TooLarge {
        cage: usize,
        size: usize,
        side: usize,
    },
    /// A cell off the grid; `row` and `col` are 1-based (they may be too large for a
    /// [`Cell`]).
    #[error("cage {cage}: row {row}, column {col} is outside the {side}x{side} grid")]
    OutOfRange {
        cage: usize,
        row: usize,
        col: usize,
        side: usize,
    },
    #[error("cage {cage} lists {cell} twice")]
    DuplicateCell { cage: usize, cell: Cell },
    #[error("cage {cage}: {cell} already belongs to cage {other}")]
    SharedCell {
        cage: usize,
        other: usize,
        cell: Cell,
    },
    #[error(
        "cage {cage}: {size} distinct digits cannot sum to {sum} (possible sums are {min}-{max})"
    )]
    ImpossibleSum {
        cage: usize,
        sum: u32,
        size: usize,
        min: u32,
        max: u32,
    },
    #[error("cage {cage}: {cell} is not orthogonally connected to the cage's first cell")]
    NotContiguous { cage: usize, cell: Cell },
}

impl CageError {
    /// The 1-based number of the cage at fault, in the order the cages were given.
    pub fn cage(&self) -> usize {
        match *self {
            CageError::Empty { cage }
            | CageError::TooLarge { cage, .. }
            | CageError::OutOfRange { cage, .. }
            | CageError::DuplicateCell { cage, .. }
            | CageError::SharedCell { cage, .. }
            | CageError::ImpossibleSum { cage, .. }
            | CageError::NotContiguous { cage, .. } => cage,
        }
    }
}

/// A validated cage: cells on the grid (reading order), a reachable sum.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValidCage {
    sum: u32,
    cells: Vec<Cell>,
}

impl ValidCage {
    /// The cage's sum.
    pub fn sum(&self) -> u32 {
        self.sum
    }

    /// The cage's cells, in reading order.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
}

/// A set of cages proven consistent with a shape (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cages {
    shape: Shape,
    cages: Vec<ValidCage>,
}

/// Smallest and largest sums of `size` distinct digits from 1..=`side`. Every sum in between
/// is reachable too (swap one digit up by one at a time).
pub(crate) fn sum_range(size: usize, side: usize) -> (u32, u32) {
    let (k, n) = (size as u32, side as u32);
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

impl Cages {
    /// No cages: a classic puzzle of `shape`.
    pub fn none(shape: Shape) -> Cages {
        Cages {
            shape,
            cages: Vec::new(),
        }
    }

    /// Validates `cages` against `shape`; the first problem found is the error.
    pub fn new(shape: Shape, cages: Vec<Cage>) -> Result<Cages, CageError> {
        let side = shape.side();
        // owner[cell] = 1-based cage that holds it, 0 for none.
        let mut owner = vec![0usize; shape.cells()];
        let mut valid = Vec::with_capacity(cages.len());
        for (i, cage) in cages.into_iter().enumerate() {
            let number = i + 1;
            let size = cage.cells.len();
            if size == 0 {
                return Err(CageError::Empty { cage: number });
            }
            if size > side {
                return Err(CageError::TooLarge {
                    cage: number,
                    size,
                    side,
                });
            }
            let mut cells = Vec::with_capacity(size);
            for &(row, col) in &cage.cells {
                if row >= side || col >= side {
                    return Err(CageError::OutOfRange {
                        cage: number,
                        row: row + 1,
                        col: col + 1,
                        side,
                    });
                }
                let cell = Cell::at(row, col);
                let slot = &mut owner[row * side + col];
                if *slot == number {
                    return Err(CageError::DuplicateCell { cage: number, cell });
                }
                if *slot != 0 {
                    return Err(CageError::SharedCell {
                        cage: number,
                        other: *slot,
                        cell,
                    });
                }
                *slot = number;
                cells.push(cell);
            }
            let (min, max) = sum_range(size, side);
            if !(min..=max).contains(&cage.sum) {
                return Err(CageError::ImpossibleSum {
                    cage: number,
                    sum: cage.sum,
                    size,
                    min,
                    max,
                });
            }
            if let Some(cell) = first_unconnected(&cells, side) {
                return Err(CageError::NotContiguous { cage: number, cell });
            }
            cells.sort();
            valid.push(ValidCage {
                sum: cage.sum,
                cells,
            });
        }
        Ok(Cages {
            shape,
            cages: valid,
        })
    }

    /// The shape these cages were validated for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cages, in the order given.
    pub fn cages(&self) -> &[ValidCage] {
        &self.cages
    }

    /// Number of cages.
    pub fn len(&self) -> usize {
        self.cages.len()
    }

    /// True when there are no cages (a classic puzzle).
    pub fn is_empty(&self) -> bool {
        self.cages.is_empty()
    }

    /// Cells in the largest cage (0 without cages).
    pub fn max_size(&self) -> usize {
        self.cages.iter().map(|c| c.cells.len()).max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cage(sum: u32, cells: &[(usize, usize)]) -> Cage {
        Cage {
            sum,
            cells: cells.to_vec(),
        }
    }

    #[test]
    fn a_valid_set_is_accepted_and_need_not_cover_the_grid() {
        let cages = Cages::new(
            Shape::NINE,
            vec![
                cage(3, &[(0, 0), (0, 1)]),
                cage(24, &[(8, 8), (7, 8), (6, 8)]),
            ],
        )
        .unwrap();
        assert_eq!(cages.len(), 2);
        assert_eq!(cages.max_size(), 3);
        assert_eq!(cages.cages()[1].cells()[0], Cell::at(6, 8));
    }

    #[test]
    fn each_kind_of_error_names_cage_and_cell() {
        let ok = cage(3, &[(0, 0), (0, 1)]);
        let cases: Vec<(Shape, Vec<Cage>, CageError, &str)> =
            vec![
            (
                Shape::NINE,
                vec![ok.clone(), cage(5, &[])],
                CageError::Empty { cage: 2 },
                "cage 2 has no cells",
            ),
            (
                Shape::FOUR,
                vec![cage(10, &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)])],
                CageError::TooLarge {
                    cage: 1,
                    size: 5,
                    side: 4,
                },
                "cage 1 has 5 cells; a 4x4 cage holds at most 4",
            ),
            (
                Shape::NINE,
                vec![cage(3, &[(8, 8), (9, 8)])],
                CageError::OutOfRange {
                    cage: 1,
                    row: 10,
                    col: 9,
                    side: 9,
                },
                "cage 1: row 10, column 9 is outside the 9x9 grid",
            ),
            (
                Shape::NINE,
                vec![cage(3, &[(4, 4), (4, 5), (4, 4)])],
                CageError::DuplicateCell {
                    cage: 1,
                    cell: Cell::at(4, 4),
                },
                "cage 1 lists row 5, column 5 twice",
            ),
            (
                Shape::NINE,
                vec![ok.clone(), cage(9, &[(0, 1), (1, 1)])],
                CageError::SharedCell {
                    cage: 2,
                    other: 1,
                    cell: Cell::at(0, 1),
                },
                "cage 2: row 1, column 2 already belongs to cage 1",
            ),
            (
                Shape::NINE,
                vec![cage(2, &[(0, 0), (0, 1)])],
                CageError::ImpossibleSum {
                    cage: 1,
                    sum: 2,
                    size: 2,
                    min: 3,
                    max: 17,
                },
                "cage 1: 2 distinct digits cannot sum to 2 (possible sums are 3-17)",
            ),
            (
                Shape::NINE,
                vec![cage(18, &[(0, 0), (0, 1)])],
                CageError::ImpossibleSum {
                    cage: 1,
                    sum: 18,
                    size: 2,
                    min: 3,
                    max: 17,
                },
                "cage 1: 2 distinct digits cannot sum to 18 (possible sums are 3-17)",
            ),
            (
                Shape::NINE,
                vec![cage(6, &[(0, 0), (1, 1), (0, 1)]), cage(10, &[(3, 3), (4, 4)])],
                CageError::NotContiguous {
                    cage: 2,
                    cell: Cell::at(4, 4),
                },
                "cage 2: row 5, column 5 is not orthogonally connected to the cage's first cell",
            ),
        ];
        for (shape, cages, want, text) in cases {
            let err = Cages::new(shape, cages).unwrap_err();
            assert_eq!(err, want);
            assert_eq!(err.to_string(), text);
        }
    }

    #[test]
    fn sum_ranges_follow_the_side() {
        assert_eq!(sum_range(2, 9), (3, 17));
        assert_eq!(sum_range(9, 9), (45, 45));
        assert_eq!(sum_range(1, 25), (1, 25));
        assert_eq!(sum_range(3, 4), (6, 9));
        // A 16x16 pair can make 31 = 15 + 16, a 9x9 pair cannot.
        assert!(Cages::new(Shape::SIXTEEN, vec![cage(31, &[(0, 0), (0, 1)])]).is_ok());
        assert!(Cages::new(Shape::NINE, vec![cage(31, &[(0, 0), (0, 1)])]).is_err());
    }
}
