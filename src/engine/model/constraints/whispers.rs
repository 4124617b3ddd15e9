//! German whispers: neighbours along the line differ by at least a given amount, by
//! default half the side rounded up as f-puzzles reads the rule (5 on a 9x9, 3 on a 6x6).
//! Each step is a relation between two neighbouring cells; arc consistency then keeps the
//! digits no neighbour can pair with (a 5 on a 9x9 line) off the line.

use std::fmt;

use super::{identify_lines, line_on, ConstraintError, Family, Relation};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One whispers line ("whispers line 1" in messages, `whispers` in the JSON API).
pub const WHISPERS_LINE: UnitKind =
    UnitKind::relation("whispers", "whispers line", "whispers lines");

const PROBLEM: &str = "invalid-whispers";

/// One line as a caller describes it: cells from either end (0-based), and the least
/// difference between neighbours when not the default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Whisper {
    pub cells: Vec<(usize, usize)>,
    pub difference: Option<u32>,
}

/// A checked line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Line {
    cells: Vec<Cell>,
    difference: u32,
}

/// The whispers lines of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Whispers {
    lines: Vec<Line>,
}

/// The least difference of a whispers line on a grid of `side` when none is given.
pub fn default_difference(side: usize) -> u32 {
    (side as u32).div_ceil(2)
}

impl Whispers {
    /// The lines as sent, checked against `shape`: two cells or more, on the grid, none
    /// twice, each the king's-move neighbour of the one before, and a difference of 1 to
    /// `side - 1` (some two digits must meet it).
    pub fn new(shape: Shape, whispers: &[Whisper]) -> Result<Whispers, ConstraintError> {
        let side = shape.side();
        let mut lines = Vec::with_capacity(whispers.len());
        for (w, whisper) in whispers.iter().enumerate() {
            let cells = line_on(
                side,
                &whisper.cells,
                PROBLEM,
                ("whispers", "whispers line", w),
            )?;
            let difference = whisper.difference.unwrap_or(default_difference(side));
            if !(1..side as u32).contains(&difference) {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/whispers/{w}/difference"),
                    detail: format!(
                        "whispers line {}: no two digits 1-{side} differ by {difference} or \
                         more, or a difference of 0 says nothing (1-{} is possible)",
                        w + 1,
                        side - 1
                    ),
                });
            }
            lines.push(Line { cells, difference });
        }
        Ok(Whispers { lines })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Each line's cells in the order sent (for the renderer).
    pub(crate) fn lines(&self) -> impl Iterator<Item = &[Cell]> + '_ {
        self.lines.iter().map(|line| line.cells.as_slice())
    }
}

impl Family for Whispers {
    fn relations(&self, shape: Shape, out: &mut Vec<Relation>) {
        let side = shape.side();
        for (index, line) in self.lines.iter().enumerate() {
            let unit = Unit {
                kind: WHISPERS_LINE,
                index,
            };
            for step in line.cells.windows(2) {
                out.push(Relation::of(unit, [step[0], step[1]], side, |a, b| {
                    a.abs_diff(b) >= line.difference
                }));
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.lines.is_empty()).then_some((12, "Whispers"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let words: Vec<String> = self
            .lines
            .iter()
            .map(|line| format!(";whispers{}", line.difference))
            .collect();
        identify_lines(
            hash,
            self.lines
                .iter()
                .zip(&words)
                .map(|(line, word)| (line.cells.as_slice(), line.difference, word.as_str())),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whisper(cells: &[(usize, usize)], difference: Option<u32>) -> Whisper {
        Whisper {
            cells: cells.to_vec(),
            difference,
        }
    }

    #[test]
    fn neighbours_differ_by_half_the_side_unless_told() {
        assert_eq!(default_difference(9), 5);
        assert_eq!(default_difference(6), 3);
        assert_eq!(default_difference(4), 2);
        let lines = Whispers::new(
            Shape::NINE,
            &[
                whisper(&[(0, 0), (1, 1), (1, 2)], None),
                whisper(&[(5, 5), (5, 6)], Some(3)),
            ],
        )
        .unwrap();
        let mut relations = Vec::new();
        lines.relations(Shape::NINE, &mut relations);
        assert_eq!(relations.len(), 3);
        assert!(relations[0].allows(1, 6) && relations[0].allows(9, 4));
        assert!(!relations[0].allows(2, 6) && !relations[1].allows(5, 1));
        assert!(relations[2].allows(2, 5) && !relations[2].allows(2, 4));
        assert_eq!(relations[2].unit.index, 1);
    }

    #[test]
    fn malformed_lines_are_refused_with_a_pointer() {
        let cases: [(Whisper, &str); 5] = [
            (whisper(&[(0, 0)], None), "/whispers/0/cells"),
            (whisper(&[(0, 0), (0, 2)], None), "/whispers/0/cells/1"),
            (whisper(&[(0, 0), (0, 4)], None), "/whispers/0/cells/1"),
            (
                whisper(&[(0, 0), (0, 1)], Some(4)),
                "/whispers/0/difference",
            ),
            (
                whisper(&[(0, 0), (0, 1)], Some(0)),
                "/whispers/0/difference",
            ),
        ];
        for (line, pointer) in cases {
            let err = Whispers::new(Shape::FOUR, std::slice::from_ref(&line)).unwrap_err();
            assert_eq!(err.pointer, pointer, "{line:?}: {}", err.detail);
            assert_eq!(err.problem, PROBLEM);
        }
    }
}
