//! Little killers: a clue outside the grid, with an arrow along a diagonal, is the sum of
//! the digits on that diagonal; digits may repeat where no house forbids it. Each clue is a
//! [`Linear`] propagator: its cells at weight 1, adding up to the clue.

use std::fmt;
use std::sync::Arc;

use super::propagators::{in_houses, Linear, Propagator};
use super::{cell_on, ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One little killer ("little killer 1" in messages, `little_killer` in the JSON API).
pub const LITTLE_KILLER: UnitKind =
    UnitKind::relation("little_killer", "little killer", "little killers");

const PROBLEM: &str = "invalid-little-killers";

/// The way a little killer's arrow points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    DownRight,
    DownLeft,
    UpRight,
    UpLeft,
}

impl Direction {
    /// The step (rows, columns) one cell along the arrow.
    pub const fn step(self) -> (isize, isize) {
        match self {
            Direction::DownRight => (1, 1),
            Direction::DownLeft => (1, -1),
            Direction::UpRight => (-1, 1),
            Direction::UpLeft => (-1, -1),
        }
    }

    /// The word on the wire and in ids.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::DownRight => "down-right",
            Direction::DownLeft => "down-left",
            Direction::UpRight => "up-right",
            Direction::UpLeft => "up-left",
        }
    }
}

/// One clue as a caller describes it: the diagonal's first cell on the grid (0-based; the
/// clue sits just outside, one step back), where the arrow points, and the sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LittleKiller {
    pub start: (usize, usize),
    pub direction: Direction,
    pub sum: u32,
}

/// A checked clue: its diagonal's cells from the clue.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Placed {
    cells: Vec<Cell>,
    direction: Direction,
    sum: u32,
}

/// The little killers of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LittleKillers {
    clues: Vec<Placed>,
    /// The box or Jigsaw region of every cell (reading order), when the rules said: cells
    /// of a diagonal in one hold distinct digits.
    houses: Vec<usize>,
}

/// The cell one `step` from (`row`, `col`), when it is on a grid of `side`.
fn stepped(side: usize, (row, col): (usize, usize), (dr, dc): (isize, isize)) -> Option<Cell> {
    let row = row.checked_add_signed(dr).filter(|&r| r < side)?;
    let col = col.checked_add_signed(dc).filter(|&c| c < side)?;
    Some(Cell::at(row, col))
}

impl LittleKillers {
    /// The clues as sent, checked against `shape`: the first cell on the grid with the one
    /// before it off the grid (the clue's place), a sum its cells can make (1 to the side
    /// each).
    pub fn new(shape: Shape, clues: &[LittleKiller]) -> Result<LittleKillers, ConstraintError> {
        let side = shape.side();
        let mut placed = Vec::with_capacity(clues.len());
        for (k, clue) in clues.iter().enumerate() {
            let fail = |pointer: &str, detail: String| ConstraintError {
                problem: PROBLEM,
                pointer: format!("/little_killers/{k}/{pointer}"),
                detail: format!("little killer {}: {detail}", k + 1),
            };
            let start = cell_on(side, clue.start, PROBLEM, String::new)
                .map_err(|e| fail("start", e.detail))?;
            let (dr, dc) = clue.direction.step();
            if stepped(side, (start.row(), start.col()), (-dr, -dc)).is_some() {
                return Err(fail(
                    "start",
                    format!(
                        "{start} is not on the edge the arrow {} enters from",
                        clue.direction.name()
                    ),
                ));
            }
            let mut cells = vec![start];
            while let Some(next) = cells
                .last()
                .and_then(|c| stepped(side, (c.row(), c.col()), (dr, dc)))
            {
                cells.push(next);
            }
            let most = (side * cells.len()) as u32;
            if clue.sum < cells.len() as u32 || clue.sum > most {
                return Err(fail(
                    "sum",
                    format!(
                        "its {} cells add up to {} to {most}, not {}",
                        cells.len(),
                        cells.len(),
                        clue.sum
                    ),
                ));
            }
            placed.push(Placed {
                cells,
                direction: clue.direction,
                sum: clue.sum,
            });
        }
        Ok(LittleKillers {
            clues: placed,
            houses: Vec::new(),
        })
    }

    /// The same clues, knowing each cell's box or Jigsaw region (`houses`, reading order).
    pub(crate) fn in_houses(self, houses: Vec<usize>) -> LittleKillers {
        LittleKillers { houses, ..self }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.clues.is_empty()
    }

    /// Each clue's cells from the clue, its direction and sum (for the renderer).
    pub(crate) fn clues(&self) -> impl Iterator<Item = (&[Cell], Direction, u32)> + '_ {
        self.clues
            .iter()
            .map(|clue| (clue.cells.as_slice(), clue.direction, clue.sum))
    }
}

impl Family for LittleKillers {
    fn propagators(&self, _shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, clue) in self.clues.iter().enumerate() {
            let unit = Unit {
                kind: LITTLE_KILLER,
                index,
            };
            let terms = clue.cells.iter().map(|&cell| (cell, 1));
            let sum = Linear::new(unit, terms, i64::from(clue.sum));
            out.push(Arc::new(in_houses(sum, &self.houses)));
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.clues.is_empty()).then_some((16, "Little Killer"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let mut clues: Vec<&Placed> = self.clues.iter().collect();
        clues.sort_unstable_by_key(|c| (c.cells[0], c.direction, c.sum));
        for clue in clues {
            let start = clue.cells[0];
            let _ = write!(
                hash,
                ";littlekiller,{}.{},{}={}",
                start.row(),
                start.col(),
                clue.direction.name(),
                clue.sum
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clue(start: (usize, usize), direction: Direction, sum: u32) -> LittleKiller {
        LittleKiller {
            start,
            direction,
            sum,
        }
    }

    #[test]
    fn a_clue_sums_its_diagonal_to_the_edge() {
        let clues =
            LittleKillers::new(Shape::NINE, &[clue((8, 1), Direction::UpRight, 44)]).unwrap();
        let (cells, _, _) = clues.clues().next().unwrap();
        assert_eq!(cells.len(), 8);
        assert_eq!(cells[7], Cell::at(1, 8));
        let mut out = Vec::new();
        clues.propagators(Shape::NINE, &mut out);
        assert!(out[0].holds(&[9, 9, 9, 9, 1, 1, 3, 3]));
    }

    #[test]
    fn malformed_clues_are_refused() {
        let cases = [
            (
                clue((4, 4), Direction::DownRight, 10),
                "/little_killers/0/start",
            ),
            (
                clue((0, 9), Direction::DownLeft, 10),
                "/little_killers/0/start",
            ),
            (
                clue((0, 7), Direction::DownRight, 19),
                "/little_killers/0/sum",
            ),
            (
                clue((0, 7), Direction::DownRight, 1),
                "/little_killers/0/sum",
            ),
        ];
        for (sent, pointer) in cases {
            let err = LittleKillers::new(Shape::NINE, &[sent]).unwrap_err();
            assert_eq!(err.pointer, pointer, "{sent:?}: {}", err.detail);
        }
        // The corner cell going inward works from either edge.
        assert!(LittleKillers::new(Shape::NINE, &[clue((0, 0), Direction::DownRight, 45)]).is_ok());
        assert!(LittleKillers::new(Shape::NINE, &[clue((0, 7), Direction::DownRight, 18)]).is_ok());
    }
}
