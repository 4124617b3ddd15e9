//! Killer cages: groups of cells whose digits are distinct and add up to a given sum, or
//! are only distinct when a setter leaves the sum out. Cages need not cover the grid. Their sums are propagated by the solvers, which read the
//! cages from here; their validation, houses, check and naming are this family's.

use std::fmt;

use super::regions::first_unconnected;
use super::{DistinctSum, Family, House, Role};
use crate::engine::model::grid::{Cell, Grid, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One cage ("cage 1" in messages, `cage` in the JSON API).
pub const CAGE: UnitKind = UnitKind::distinct("cage", "cage", "cages");

/// One cage as a caller describes it: the sum (none: distinct digits only) and the cells as
/// 0-based (row, column).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    pub sum: Option<u32>,
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

/// A validated cage: cells on the grid (reading order), a reachable sum or none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValidCage {
    sum: Option<u32>,
    cells: Vec<Cell>,
}

impl ValidCage {
    /// The cage's sum; `None` for a cage whose digits are only distinct.
    pub fn sum(&self) -> Option<u32> {
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
            if let Some(sum) = cage.sum.filter(|sum| !(min..=max).contains(sum)) {
                return Err(CageError::ImpossibleSum {
                    cage: number,
                    sum,
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

    /// The cages with a sum, each with its place in the list given.
    pub fn with_sums(&self) -> impl Iterator<Item = (usize, &ValidCage, u32)> + '_ {
        (self.cages.iter().enumerate()).filter_map(|(k, cage)| cage.sum.map(|sum| (k, cage, sum)))
    }

    /// Cells in the largest cage (0 without cages).
    pub fn max_size(&self) -> usize {
        self.cages.iter().map(|c| c.cells.len()).max().unwrap_or(0)
    }
}

impl Family for Cages {
    fn houses(&self, _shape: Shape, out: &mut Vec<House>) {
        out.extend(self.cages.iter().enumerate().map(|(index, cage)| House {
            unit: Unit { kind: CAGE, index },
            cells: cage.cells.clone(),
            role: Role::Distinct,
        }));
    }

    fn distinct_sums(&self, _shape: Shape, out: &mut Vec<DistinctSum>) {
        out.extend(self.with_sums().map(|(index, cage, total)| DistinctSum {
            unit: Unit { kind: CAGE, index },
            cells: cage.cells.clone(),
            total,
        }));
    }

    fn holds(&self, grid: &Grid) -> bool {
        self.with_sums().all(|(_, cage, sum)| {
            let total: u32 = cage
                .cells
                .iter()
                .filter_map(|&c| grid.get(c))
                .map(|d| u32::from(d.get()))
                .sum();
            total == sum
        })
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.is_empty()).then_some((4, "Killer"))
    }

    /// The same cages in any order, their cells in any order, are the same puzzle: each cage
    /// is written with its cells in reading order, and the cages by their first cell (cages
    /// never share a cell, so that order is total).
    fn identify(&self, hash: &mut dyn fmt::Write) {
        if self.is_empty() {
            return;
        }
        let mut cages: Vec<(&[Cell], Option<u32>)> = self
            .cages
            .iter()
            .map(|cage| (cage.cells.as_slice(), cage.sum))
            .collect();
        cages.sort_unstable();
        for (cells, sum) in cages {
            match sum {
                Some(sum) => write!(hash, ";{sum}"),
                None => hash.write_str(";-"),
            }
            .unwrap_or_default();
            for cell in cells {
                let _ = write!(hash, ":{},{}", cell.row(), cell.col());
            }
        }
    }

    fn is_classic(&self) -> bool {
        self.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cage(sum: u32, cells: &[(usize, usize)]) -> Cage {
        Cage {
            sum: Some(sum),
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
    fn cages_with_a_sum_are_distinct_sums_and_the_others_distinct_houses_without_one() {
        use crate::engine::model::rules::Rules;
        let sumless = Cage {
            sum: None,
            cells: vec![(4, 4), (4, 5)],
        };
        let list = vec![
            cage(3, &[(0, 0), (0, 1)]),
            sumless,
            cage(24, &[(8, 8), (7, 8), (6, 8)]),
        ];
        let rules = Rules::killer(Cages::new(Shape::NINE, list).unwrap());
        let table = rules.house_table();
        let sums: Vec<(usize, u32, usize)> = (table.distinct_sums().iter())
            .map(|sum| (sum.unit.index, sum.total, sum.cells.len()))
            .collect();
        // Each named by its place in the list given, the sumless one skipped.
        assert_eq!(sums, [(0, 3, 2), (2, 24, 3)]);
        let without: Vec<Unit> = table.distinct_without_total().map(|h| h.unit).collect();
        assert_eq!(
            without,
            [Unit {
                kind: CAGE,
                index: 1
            }]
        );
        // A cage without a sum is beyond what the logic engine reasons over.
        assert!(rules.reaches_beyond_houses());
        let summed =
            Rules::killer(Cages::new(Shape::NINE, vec![cage(3, &[(0, 0), (0, 1)])]).unwrap());
        assert!(!summed.reaches_beyond_houses());
        assert_eq!(summed.house_table().distinct_without_total().count(), 0);
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
