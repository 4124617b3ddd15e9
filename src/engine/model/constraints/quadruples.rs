//! Quadruples: the digits written where four cells meet must each appear among those four
//! cells (a digit written twice, twice). Each quadruple is a propagator over its cells: with
//! four digits written, the cells hold only those; a digit with as many possible cells left
//! as it must fill takes them; and when few assignments remain they are all tried, which is
//! exact.

use std::fmt;
use std::sync::Arc;

use super::propagators::{narrow_by_enumeration, Propagator};
use super::{cell_on, ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One quadruple ("quadruple 1" in messages, `quadruple` in the JSON API).
pub const QUADRUPLE: UnitKind = UnitKind::relation("quadruple", "quadruple", "quadruples");

const PROBLEM: &str = "invalid-quadruples";

/// One quadruple as a caller describes it: the four cells around a corner (0-based, any
/// order) and the digits that must appear among them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Quadruple {
    pub cells: Vec<(usize, usize)>,
    pub digits: Vec<u32>,
}

/// A checked quadruple: cells in reading order, digits sorted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Placed {
    cells: Vec<Cell>,
    digits: Vec<u8>,
}

/// The quadruples of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Quadruples {
    quads: Vec<Placed>,
}

impl Quadruples {
    /// The quadruples as sent, checked against `shape`: four cells on the grid making a 2x2
    /// square, one to four digits of the grid, none more than twice (a square holds a
    /// digit at most twice, on a diagonal).
    pub fn new(shape: Shape, quads: &[Quadruple]) -> Result<Quadruples, ConstraintError> {
        let side = shape.side();
        let mut placed = Vec::with_capacity(quads.len());
        for (k, quad) in quads.iter().enumerate() {
            let fail = |pointer: String, detail: String| ConstraintError {
                problem: PROBLEM,
                pointer,
                detail: format!("quadruple {}: {detail}", k + 1),
            };
            let mut cells = Vec::with_capacity(4);
            for (i, &at) in quad.cells.iter().enumerate() {
                let pointer = || format!("/quadruples/{k}/cells/{i}");
                cells.push(
                    cell_on(side, at, PROBLEM, pointer).map_err(|e| fail(e.pointer, e.detail))?,
                );
            }
            cells.sort();
            cells.dedup();
            let square = cells.len() == 4
                && cells[1] == Cell::at(cells[0].row(), cells[0].col() + 1)
                && cells[2] == Cell::at(cells[0].row() + 1, cells[0].col())
                && cells[3] == Cell::at(cells[0].row() + 1, cells[0].col() + 1);
            if !square {
                return Err(fail(
                    format!("/quadruples/{k}/cells"),
                    "the cells are four different cells making a 2x2 square".into(),
                ));
            }
            if quad.digits.is_empty() || quad.digits.len() > 4 {
                return Err(fail(
                    format!("/quadruples/{k}/digits"),
                    format!("a quadruple has 1 to 4 digits, not {}", quad.digits.len()),
                ));
            }
            let mut digits = Vec::with_capacity(4);
            for (i, &digit) in quad.digits.iter().enumerate() {
                if digit == 0 || digit as usize > side {
                    return Err(fail(
                        format!("/quadruples/{k}/digits/{i}"),
                        format!("{digit} is not a digit of a {side}x{side} grid"),
                    ));
                }
                if quad.digits[..i].iter().filter(|&&d| d == digit).count() >= 2 {
                    return Err(fail(
                        format!("/quadruples/{k}/digits/{i}"),
                        format!("{digit} fits at most twice in a 2x2 square"),
                    ));
                }
                digits.push(digit as u8);
            }
            digits.sort_unstable();
            placed.push(Placed { cells, digits });
        }
        Ok(Quadruples { quads: placed })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.quads.is_empty()
    }

    /// Each quadruple's cells (reading order) and digits (sorted), for the renderer.
    pub(crate) fn quadruples(&self) -> impl Iterator<Item = (&[Cell], &[u8])> + '_ {
        self.quads
            .iter()
            .map(|q| (q.cells.as_slice(), q.digits.as_slice()))
    }
}

/// Whether the digits still wanted (`wanted`, sorted, each removed once as it appears in
/// `digits`) fit in the `left` cells not yet decided.
fn can_still_appear(wanted: &[u8], digits: &[u8], left: usize) -> bool {
    let mut missing = 0;
    let mut k = 0;
    while k < wanted.len() {
        let d = wanted[k];
        let need = wanted[k..].iter().take_while(|&&w| w == d).count();
        let have = digits.iter().filter(|&&x| x == d).count();
        missing += need.saturating_sub(have);
        k += need;
    }
    missing <= left
}

/// One quadruple as the engines read it.
#[derive(Debug)]
struct Quad {
    unit: Unit,
    cells: Vec<Cell>,
    digits: Vec<u8>,
}

impl Propagator for Quad {
    fn unit(&self) -> Unit {
        self.unit
    }

    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn holds(&self, digits: &[u8]) -> bool {
        can_still_appear(&self.digits, digits, 0)
    }

    fn narrow(&self, masks: &mut [u32], work: &mut u64) -> bool {
        *work += 4 * self.digits.len() as u64;
        let wanted = self.digits.iter().fold(0u32, |m, &d| m | 1 << (d - 1));
        if self.digits.len() == 4 {
            for mask in masks.iter_mut() {
                *mask &= wanted;
            }
        }
        for &d in &self.digits {
            let bit = 1u32 << (d - 1);
            let need = self.digits.iter().filter(|&&x| x == d).count();
            let places = masks.iter().filter(|&&m| m & bit != 0).count();
            if places < need {
                return false;
            }
            if places == need {
                for mask in masks.iter_mut().filter(|m| **m & bit != 0) {
                    *mask = bit;
                }
            }
        }
        let wanted = &self.digits;
        let mut fits = |digits: &[u8]| can_still_appear(wanted, digits, 4 - digits.len());
        narrow_by_enumeration(masks, false, work, &mut fits).unwrap_or(true)
    }
}

impl Family for Quadruples {
    fn propagators(&self, _shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, quad) in self.quads.iter().enumerate() {
            out.push(Arc::new(Quad {
                unit: Unit {
                    kind: QUADRUPLE,
                    index,
                },
                cells: quad.cells.clone(),
                digits: quad.digits.clone(),
            }));
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.quads.is_empty()).then_some((22, "Quadruple"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let mut quads: Vec<&Placed> = self.quads.iter().collect();
        quads.sort_unstable_by(|a, b| (&a.cells, &a.digits).cmp(&(&b.cells, &b.digits)));
        for quad in quads {
            let corner = quad.cells[0];
            let _ = write!(hash, ";quad,{}.{}=", corner.row(), corner.col());
            for d in &quad.digits {
                let _ = write!(hash, "{d}.");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::propagators::revise;
    use super::*;

    fn quad(digits: &[u32]) -> Arc<dyn Propagator> {
        let sent = Quadruple {
            cells: vec![(1, 1), (0, 0), (0, 1), (1, 0)],
            digits: digits.to_vec(),
        };
        let quads = Quadruples::new(Shape::NINE, &[sent]).unwrap();
        let mut out = Vec::new();
        quads.propagators(Shape::NINE, &mut out);
        out.pop().unwrap()
    }

    #[test]
    fn the_digits_must_appear_among_the_cells() {
        let p = quad(&[1, 1, 5]);
        assert!(p.holds(&[1, 5, 2, 1]));
        assert!(!p.holds(&[1, 5, 2, 3]));
        // Four digits: the cells hold only those.
        let mut masks = vec![0x1ff; 4];
        assert!(revise(quad(&[1, 2, 3, 4]).as_ref(), &mut masks, &mut 0));
        assert_eq!(masks, vec![0b1111; 4]);
        // A 7 with one place left takes it.
        let mut masks = vec![0b1, 0b10, 0b1_0100_0000, 0b100];
        assert!(revise(quad(&[7]).as_ref(), &mut masks, &mut 0));
        assert_eq!(masks[2], 0b100_0000);
        let mut masks = vec![0b1, 0b10, 0b1_0000_0000, 0b100];
        assert!(!revise(quad(&[7]).as_ref(), &mut masks, &mut 0));
    }

    #[test]
    fn malformed_quadruples_are_refused() {
        let bad = |cells: &[(usize, usize)], digits: &[u32]| {
            let sent = Quadruple {
                cells: cells.to_vec(),
                digits: digits.to_vec(),
            };
            Quadruples::new(Shape::NINE, &[sent]).unwrap_err().pointer
        };
        let square = [(0, 0), (0, 1), (1, 0), (1, 1)];
        assert_eq!(
            bad(&[(0, 0), (0, 1), (1, 0), (2, 2)], &[1]),
            "/quadruples/0/cells"
        );
        assert_eq!(bad(&square, &[]), "/quadruples/0/digits");
        assert_eq!(bad(&square, &[1, 10]), "/quadruples/0/digits/1");
        assert_eq!(bad(&square, &[3, 3, 3]), "/quadruples/0/digits/2");
        assert_eq!(
            bad(&[(0, 0), (0, 9), (1, 0), (1, 1)], &[1]),
            "/quadruples/0/cells/1"
        );
    }
}
