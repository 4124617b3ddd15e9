//! Odd and even cells: a cell marked odd holds an odd digit, one marked even an even digit.
//! Unary domains, applied before any search.

use std::fmt;

use super::{cell_on, ConstraintError, Domain, Family};
use crate::engine::grid::{Cell, Shape};
use crate::engine::validate::{Unit, UnitKind};

const PROBLEM: &str = "invalid-parity";

/// The odd cells and the even cells, each in reading order, no cell in both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Parity {
    odd: Vec<Cell>,
    even: Vec<Cell>,
}

impl Parity {
    /// The parity cells as sent (0-based), checked against `shape`: on the grid, none
    /// twice, none both odd and even.
    pub fn new(
        shape: Shape,
        odd: &[(usize, usize)],
        even: &[(usize, usize)],
    ) -> Result<Parity, ConstraintError> {
        let side = shape.side();
        let mut marked = vec![None; shape.cells()];
        let mut parity = Parity::default();
        for (field, cells) in [("odd", odd), ("even", even)] {
            for (k, &at) in cells.iter().enumerate() {
                let pointer = || format!("/{field}/{k}");
                let cell = cell_on(side, at, PROBLEM, pointer)?;
                let slot = &mut marked[cell.row() * side + cell.col()];
                if let Some(first) = *slot {
                    return Err(ConstraintError {
                        problem: PROBLEM,
                        pointer: pointer(),
                        detail: format!("{cell} is already marked {first}"),
                    });
                }
                *slot = Some(field);
                if field == "odd" {
                    parity.odd.push(cell);
                } else {
                    parity.even.push(cell);
                }
            }
        }
        parity.odd.sort();
        parity.even.sort();
        Ok(parity)
    }

    /// Whether no cell is marked.
    pub fn is_empty(&self) -> bool {
        self.odd.is_empty() && self.even.is_empty()
    }
}

impl Family for Parity {
    fn domains(&self, shape: Shape, out: &mut Vec<Domain>) {
        // Bit d - 1 is digit d: the odd digits are the even bits.
        let odd_digits = shape.all_digits() & 0x5555_5555;
        for (kind, cells, allowed) in [
            (UnitKind::Odd, &self.odd, odd_digits),
            (UnitKind::Even, &self.even, shape.all_digits() & !odd_digits),
        ] {
            let unit = Unit { kind, index: 0 };
            out.extend(cells.iter().map(|&cell| Domain {
                unit,
                cell,
                allowed,
                rule: true,
            }));
        }
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        for (word, cells) in [("odd", &self.odd), ("even", &self.even)] {
            if !cells.is_empty() {
                let _ = write!(hash, ";{word}");
                for cell in cells {
                    let _ = write!(hash, ",{}.{}", cell.row(), cell.col());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_cells_keep_odd_digits_and_even_cells_even_ones() {
        let parity = Parity::new(Shape::SIX, &[(0, 0)], &[(5, 5)]).unwrap();
        let mut domains = Vec::new();
        parity.domains(Shape::SIX, &mut domains);
        assert_eq!(domains.len(), 2);
        assert_eq!(domains[0].allowed, 0b010101);
        assert_eq!(domains[1].allowed, 0b101010);
    }

    #[test]
    fn a_cell_off_the_grid_or_marked_twice_is_refused_with_its_pointer() {
        let err = Parity::new(Shape::FOUR, &[(0, 4)], &[]).unwrap_err();
        assert_eq!(err.pointer, "/odd/0");
        let err = Parity::new(Shape::FOUR, &[(1, 1)], &[(2, 2), (1, 1)]).unwrap_err();
        assert_eq!(err.pointer, "/even/1");
        assert!(err.detail.contains("already marked odd"), "{}", err.detail);
    }
}
