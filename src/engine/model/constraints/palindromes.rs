//! Palindromes: the line reads the same from either end, so each cell holds the digit of
//! the cell as far from the other end. Each such pair is a relation of equal digits (a
//! middle cell of an odd line is free); arc consistency keeps the pair's candidates equal.

use std::fmt;

use super::{identify_lines, line_on, ConstraintError, Family, Relation};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One palindrome ("palindrome 1" in messages, `palindrome` in the JSON API).
pub const PALINDROME: UnitKind = UnitKind::relation("palindrome", "palindrome", "palindromes");

const PROBLEM: &str = "invalid-palindromes";

/// The palindrome lines of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Palindromes {
    lines: Vec<Vec<Cell>>,
}

impl Palindromes {
    /// The lines as sent (cells from either end, 0-based), checked against `shape`: two
    /// cells or more, on the grid, none twice, each the king's-move neighbour of the one
    /// before.
    pub fn new(
        shape: Shape,
        lines: &[Vec<(usize, usize)>],
    ) -> Result<Palindromes, ConstraintError> {
        let side = shape.side();
        let lines = lines
            .iter()
            .enumerate()
            .map(|(p, line)| line_on(side, line, PROBLEM, ("palindromes", "palindrome", p)))
            .collect::<Result<_, _>>()?;
        Ok(Palindromes { lines })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Each line's cells in the order sent (for the renderer).
    pub(crate) fn lines(&self) -> impl Iterator<Item = &[Cell]> + '_ {
        self.lines.iter().map(Vec::as_slice)
    }
}

impl Family for Palindromes {
    fn relations(&self, shape: Shape, out: &mut Vec<Relation>) {
        let side = shape.side();
        for (index, cells) in self.lines.iter().enumerate() {
            let unit = Unit {
                kind: PALINDROME,
                index,
            };
            let n = cells.len();
            for k in 0..n / 2 {
                out.push(Relation::of(
                    unit,
                    [cells[k], cells[n - 1 - k]],
                    side,
                    |a, b| a == b,
                ));
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.lines.is_empty()).then_some((13, "Palindrome"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        // A line read from the other end is the same palindrome: each is written from the
        // end that comes first.
        let lines: Vec<Vec<Cell>> = self
            .lines
            .iter()
            .map(|cells| {
                let reversed: Vec<Cell> = cells.iter().rev().copied().collect();
                reversed.min(cells.clone())
            })
            .collect();
        identify_lines(
            hash,
            lines
                .iter()
                .map(|cells| (cells.as_slice(), (), ";palindrome")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_cells_hold_equal_digits_and_the_middle_is_free() {
        let lines =
            Palindromes::new(Shape::SIX, &[vec![(0, 0), (0, 1), (1, 2), (2, 2), (3, 3)]]).unwrap();
        let mut relations = Vec::new();
        lines.relations(Shape::SIX, &mut relations);
        let pairs: Vec<[Cell; 2]> = relations.iter().map(|r| r.cells).collect();
        assert_eq!(
            pairs,
            [
                [Cell::at(0, 0), Cell::at(3, 3)],
                [Cell::at(0, 1), Cell::at(2, 2)]
            ]
        );
        assert!(relations[0].allows(4, 4) && !relations[0].allows(4, 5));
    }

    #[test]
    fn a_line_and_its_reverse_are_the_same_puzzle() {
        let id = |line: Vec<(usize, usize)>| {
            let mut text = String::new();
            Palindromes::new(Shape::FOUR, &[line])
                .unwrap()
                .identify(&mut text);
            text
        };
        assert_eq!(
            id(vec![(0, 0), (0, 1), (1, 1)]),
            id(vec![(1, 1), (0, 1), (0, 0)])
        );
    }

    #[test]
    fn malformed_lines_are_refused_with_a_pointer() {
        let ok = vec![(0, 0), (0, 1)];
        let err = Palindromes::new(Shape::FOUR, &[ok, vec![(1, 1), (3, 3)]]).unwrap_err();
        assert_eq!(err.pointer, "/palindromes/1/cells/1");
        assert!(err.detail.starts_with("palindrome 2: "), "{}", err.detail);
        let err = Palindromes::new(Shape::FOUR, &[vec![(4, 0), (3, 0)]]).unwrap_err();
        assert_eq!(err.pointer, "/palindromes/0/cells/0");
        assert_eq!(err.problem, PROBLEM);
    }
}
