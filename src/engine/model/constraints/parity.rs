//! Odd and even cells: a cell marked odd holds an odd digit, one marked even an even digit.
//! Unary domains, applied before any search.

use std::fmt;

use super::{identify_marks, two_marks, ConstraintError, Domain, Family};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One odd cell ("odd cell" in messages, `odd` in the JSON API).
pub const ODD: UnitKind = UnitKind::relation("odd", "odd cell", "odd cells").unnumbered();

/// One even cell ("even cell" in messages, `even` in the JSON API).
pub const EVEN: UnitKind = UnitKind::relation("even", "even cell", "even cells").unnumbered();

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
        let [odd, even] = two_marks(shape, [("odd", odd), ("even", even)], PROBLEM)?;
        Ok(Parity { odd, even })
    }

    /// Whether no cell is marked.
    pub fn is_empty(&self) -> bool {
        self.odd.is_empty() && self.even.is_empty()
    }

    /// The odd cells, in reading order (for the renderer).
    pub(crate) fn odd(&self) -> &[Cell] {
        &self.odd
    }

    /// The even cells, in reading order (for the renderer).
    pub(crate) fn even(&self) -> &[Cell] {
        &self.even
    }
}

impl Family for Parity {
    fn domains(&self, shape: Shape, out: &mut Vec<Domain>) {
        // Bit d - 1 is digit d: the odd digits are the even bits.
        let odd_digits = shape.all_digits() & 0x5555_5555;
        for (kind, cells, allowed) in [
            (ODD, &self.odd, odd_digits),
            (EVEN, &self.even, shape.all_digits() & !odd_digits),
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
        identify_marks(hash, [("odd", &self.odd), ("even", &self.even)]);
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
