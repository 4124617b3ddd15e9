//! Arrows: the digits along an arrow's shaft add up to the number in its circle. The circle
//! is one cell, or a pill of two or three orthogonally connected cells read as a number in
//! reading order (so only on grids of single-digit numbers, 9x9 and smaller). An arrow may
//! have several lines, all counting towards its circle; digits on a shaft may repeat where
//! no house forbids it. Each arrow is one [`Linear`] propagator: the shaft at weight 1, the
//! circle's cells at minus their place value, adding up to 0.

use std::fmt;
use std::sync::Arc;

use super::propagators::{in_houses, Linear, Propagator};
use super::{cell_on, ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One arrow ("arrow 1" in messages, `arrow` in the JSON API).
pub const ARROW: UnitKind = UnitKind::relation("arrow", "arrow", "arrows");

const PROBLEM: &str = "invalid-arrows";

/// The most cells a pill holds: three digits already make 987, more than any shaft adds.
pub const MAX_PILL: usize = 3;

/// One arrow as a caller describes it (cells 0-based): its circle's cells, and its lines,
/// each from the cell next to the circle to the tip.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Arrow {
    pub circle: Vec<(usize, usize)>,
    pub lines: Vec<Vec<(usize, usize)>>,
}

/// A checked arrow: its circle in reading order, its lines as sent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Placed {
    circle: Vec<Cell>,
    lines: Vec<Vec<Cell>>,
}

/// The arrows of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Arrows {
    arrows: Vec<Placed>,
    /// The box or Jigsaw region of every cell (reading order), when the rules said: cells
    /// of a line in one hold distinct digits.
    houses: Vec<usize>,
}

fn touches(a: Cell, b: Cell) -> bool {
    a != b && a.row().abs_diff(b.row()) <= 1 && a.col().abs_diff(b.col()) <= 1
}

impl Arrows {
    /// The arrows as sent, checked against `shape`: a circle of 1 to 3 orthogonally
    /// connected cells (one on grids larger than 9x9), at least one shaft, every shaft at
    /// least one cell, each cell the king's-move neighbour of the one before and the first
    /// touching the circle, no cell twice and none in the circle.
    pub fn new(shape: Shape, arrows: &[Arrow]) -> Result<Arrows, ConstraintError> {
        let side = shape.side();
        let mut placed = Vec::with_capacity(arrows.len());
        for (a, arrow) in arrows.iter().enumerate() {
            let fail = |pointer: String, detail: String| ConstraintError {
                problem: PROBLEM,
                pointer,
                detail: format!("arrow {}: {detail}", a + 1),
            };
            let pill_max = if side <= 9 { MAX_PILL } else { 1 };
            if arrow.circle.is_empty() || arrow.circle.len() > pill_max {
                return Err(fail(
                    format!("/arrows/{a}/circle"),
                    format!(
                        "a circle on a {side}x{side} grid is 1 to {pill_max} cells, not {}",
                        arrow.circle.len()
                    ),
                ));
            }
            let mut circle: Vec<Cell> = Vec::with_capacity(arrow.circle.len());
            for (k, &at) in arrow.circle.iter().enumerate() {
                let pointer = || format!("/arrows/{a}/circle/{k}");
                let cell =
                    cell_on(side, at, PROBLEM, pointer).map_err(|e| fail(e.pointer, e.detail))?;
                if circle.contains(&cell) {
                    return Err(fail(pointer(), format!("{cell} is in the circle twice")));
                }
                circle.push(cell);
            }
            circle.sort();
            // A pill is a straight run of neighbours: read in reading order, each the right
            // or lower neighbour of the one before.
            let straight = circle.windows(2).all(|w| {
                (w[0].row() == w[1].row() && w[0].col() + 1 == w[1].col())
                    || (w[0].col() == w[1].col() && w[0].row() + 1 == w[1].row())
            }) && (circle.iter().all(|c| c.row() == circle[0].row())
                || circle.iter().all(|c| c.col() == circle[0].col()));
            if !straight {
                return Err(fail(
                    format!("/arrows/{a}/circle"),
                    "a pill's cells are a straight run of orthogonal neighbours".into(),
                ));
            }
            if arrow.lines.is_empty() {
                return Err(fail(
                    format!("/arrows/{a}/lines"),
                    "an arrow has at least one shaft".into(),
                ));
            }
            let mut lines = Vec::with_capacity(arrow.lines.len());
            for (s, shaft) in arrow.lines.iter().enumerate() {
                if shaft.is_empty() {
                    return Err(fail(
                        format!("/arrows/{a}/lines/{s}"),
                        "a shaft has at least one cell".into(),
                    ));
                }
                let mut cells: Vec<Cell> = Vec::with_capacity(shaft.len());
                for (k, &at) in shaft.iter().enumerate() {
                    let pointer = || format!("/arrows/{a}/lines/{s}/{k}");
                    let cell = cell_on(side, at, PROBLEM, pointer)
                        .map_err(|e| fail(e.pointer, e.detail))?;
                    if circle.contains(&cell) || cells.contains(&cell) {
                        return Err(fail(pointer(), format!("{cell} is already on the arrow")));
                    }
                    let before = match cells.last() {
                        Some(&last) => touches(last, cell),
                        None => circle.iter().any(|&c| touches(c, cell)),
                    };
                    if !before {
                        return Err(fail(
                            pointer(),
                            match cells.last() {
                                Some(last) => {
                                    format!("{cell} does not touch {last}, the cell before it")
                                }
                                None => format!(
                                    "{cell}, a shaft's first cell, does not touch the circle"
                                ),
                            },
                        ));
                    }
                    cells.push(cell);
                }
                lines.push(cells);
            }
            placed.push(Placed { circle, lines });
        }
        Ok(Arrows {
            arrows: placed,
            houses: Vec::new(),
        })
    }

    /// The same arrows, knowing each cell's box or Jigsaw region (`houses`, reading order).
    pub(crate) fn in_houses(self, houses: Vec<usize>) -> Arrows {
        Arrows { houses, ..self }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.arrows.is_empty()
    }

    /// Each arrow's circle (reading order) and lines (for the renderer).
    pub(crate) fn arrows(&self) -> impl Iterator<Item = (&[Cell], &[Vec<Cell>])> + '_ {
        self.arrows
            .iter()
            .map(|arrow| (arrow.circle.as_slice(), arrow.lines.as_slice()))
    }
}

impl Family for Arrows {
    fn propagators(&self, _shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, arrow) in self.arrows.iter().enumerate() {
            let unit = Unit { kind: ARROW, index };
            let places = arrow.circle.len() as u32;
            let circle = (arrow.circle.iter().enumerate())
                .map(|(k, &cell)| (cell, -(10i64.pow(places - 1 - k as u32))));
            let lines = arrow.lines.iter().flatten().map(|&cell| (cell, 1));
            let sum = Linear::new(unit, circle.chain(lines), 0);
            out.push(Arc::new(in_houses(sum, &self.houses)));
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.arrows.is_empty()).then_some((15, "Arrow"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let mut arrows: Vec<&Placed> = self.arrows.iter().collect();
        arrows.sort_unstable_by(|a, b| (&a.circle, &a.lines).cmp(&(&b.circle, &b.lines)));
        for arrow in arrows {
            let _ = hash.write_str(";arrow");
            for cell in &arrow.circle {
                let _ = write!(hash, ",{}.{}", cell.row(), cell.col());
            }
            for shaft in &arrow.lines {
                let _ = hash.write_str("/");
                for cell in shaft {
                    let _ = write!(hash, ",{}.{}", cell.row(), cell.col());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::propagators::revise;

    fn arrow(circle: &[(usize, usize)], lines: &[&[(usize, usize)]]) -> Arrow {
        Arrow {
            circle: circle.to_vec(),
            lines: lines.iter().map(|s| s.to_vec()).collect(),
        }
    }

    #[test]
    fn an_arrow_sums_its_lines_into_its_circle() {
        let arrows = Arrows::new(
            Shape::NINE,
            &[arrow(&[(0, 0)], &[&[(0, 1), (0, 2)], &[(1, 0)]])],
        )
        .unwrap();
        let mut out = Vec::new();
        arrows.propagators(Shape::NINE, &mut out);
        let linear = &out[0];
        assert_eq!(linear.cells().len(), 4);
        // Three shaft cells of at least 1 each: the circle is at least 3, each shaft cell
        // at most 7.
        let mut masks = vec![0x1ff; 4];
        assert!(revise(linear.as_ref(), &mut masks, &mut 0));
        assert_eq!(masks[0], 0x1fc);
        assert_eq!(masks[1], 0x7f);
        assert!(linear.holds(&[6, 1, 2, 3]) && !linear.holds(&[6, 1, 2, 4]));
    }

    #[test]
    fn a_pill_reads_as_a_number_in_reading_order() {
        // Given bottom first: still read top to bottom.
        let arrows = Arrows::new(
            Shape::NINE,
            &[arrow(&[(1, 0), (0, 0)], &[&[(2, 1), (3, 2), (4, 3)]])],
        )
        .unwrap();
        let mut out = Vec::new();
        arrows.propagators(Shape::NINE, &mut out);
        // 1 and 5 read 15 = 4 + 5 + 6.
        assert!(out[0].holds(&[1, 5, 4, 5, 6]));
        assert!(!out[0].holds(&[5, 1, 4, 5, 6]));
    }

    #[test]
    fn malformed_arrows_are_refused_with_a_pointer() {
        let cases: [(Arrow, &str); 7] = [
            (arrow(&[], &[&[(0, 1)]]), "/arrows/0/circle"),
            (arrow(&[(0, 0), (1, 1)], &[&[(0, 2)]]), "/arrows/0/circle"),
            (arrow(&[(0, 0)], &[]), "/arrows/0/lines"),
            (arrow(&[(0, 0)], &[&[]]), "/arrows/0/lines/0"),
            (arrow(&[(0, 0)], &[&[(0, 2)]]), "/arrows/0/lines/0/0"),
            (
                arrow(&[(0, 0)], &[&[(0, 1), (0, 0)]]),
                "/arrows/0/lines/0/1",
            ),
            (
                arrow(&[(0, 0)], &[&[(0, 1), (9, 9)]]),
                "/arrows/0/lines/0/1",
            ),
        ];
        for (sent, pointer) in cases {
            let err = Arrows::new(Shape::NINE, std::slice::from_ref(&sent)).unwrap_err();
            assert_eq!(err.pointer, pointer, "{sent:?}: {}", err.detail);
            assert_eq!(err.problem, PROBLEM);
        }
        let pill = arrow(&[(0, 0), (0, 1)], &[&[(1, 2)]]);
        assert!(Arrows::new(Shape::NINE, std::slice::from_ref(&pill)).is_ok());
        assert!(Arrows::new(Shape::SIXTEEN, &[pill]).is_err());
    }
}
