//! Clones: two groups of cells of the same size, cell for cell the same digits. Each pair of
//! corresponding cells is a relation of equal digits.

use std::fmt;

use super::{cell_on, ConstraintError, Family, Relation};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One clone ("clone 1" in messages, `clone` in the JSON API).
pub const CLONE: UnitKind = UnitKind::relation("clone", "clone", "clones");

const PROBLEM: &str = "invalid-clones";

/// One clone as a caller describes it: the cells and their copy, in corresponding order
/// (0-based).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClonePair {
    pub cells: Vec<(usize, usize)>,
    pub copy: Vec<(usize, usize)>,
}

/// The clones of a puzzle, in the order given: pairs of cell lists.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clones {
    pairs: Vec<(Vec<Cell>, Vec<Cell>)>,
}

impl Clones {
    /// The clones as sent, checked against `shape`: cells on the grid, as many in the copy
    /// as in the original (at least one), no cell twice in a clone.
    pub fn new(shape: Shape, clones: &[ClonePair]) -> Result<Clones, ConstraintError> {
        let side = shape.side();
        let mut pairs = Vec::with_capacity(clones.len());
        for (k, clone) in clones.iter().enumerate() {
            if clone.cells.is_empty() || clone.cells.len() != clone.copy.len() {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/clones/{k}/copy"),
                    detail: format!(
                        "clone {}: the copy has as many cells as the original (at least one): \
                         {} and {}",
                        k + 1,
                        clone.cells.len(),
                        clone.copy.len()
                    ),
                });
            }
            let mut seen: Vec<Cell> = Vec::new();
            let mut lists = [Vec::new(), Vec::new()];
            for (list, (field, cells)) in lists
                .iter_mut()
                .zip([("cells", &clone.cells), ("copy", &clone.copy)])
            {
                for (i, &at) in cells.iter().enumerate() {
                    let pointer = || format!("/clones/{k}/{field}/{i}");
                    let cell = cell_on(side, at, PROBLEM, pointer)?;
                    if seen.contains(&cell) {
                        return Err(ConstraintError {
                            problem: PROBLEM,
                            pointer: pointer(),
                            detail: format!("clone {}: {cell} is in it twice", k + 1),
                        });
                    }
                    seen.push(cell);
                    list.push(cell);
                }
            }
            let [cells, copy] = lists;
            pairs.push((cells, copy));
        }
        Ok(Clones { pairs })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Each clone's cells and copy (for the renderer).
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (&[Cell], &[Cell])> + '_ {
        self.pairs.iter().map(|(a, b)| (a.as_slice(), b.as_slice()))
    }
}

impl Family for Clones {
    fn relations(&self, shape: Shape, out: &mut Vec<Relation>) {
        let side = shape.side();
        for (index, (cells, copy)) in self.pairs.iter().enumerate() {
            let unit = Unit { kind: CLONE, index };
            for (&a, &b) in cells.iter().zip(copy) {
                out.push(Relation::of(unit, [a, b], side, |x, y| x == y));
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.pairs.is_empty()).then_some((24, "Clone"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        // A clone and its copy say the same thing either way round, and so does the order
        // of the corresponding pairs.
        let mut clones: Vec<Vec<(Cell, Cell)>> = self
            .pairs
            .iter()
            .map(|(a, b)| {
                let mut pairs: Vec<(Cell, Cell)> = a
                    .iter()
                    .zip(b)
                    .map(|(&x, &y)| (x.min(y), x.max(y)))
                    .collect();
                pairs.sort_unstable();
                pairs
            })
            .collect();
        clones.sort_unstable();
        for clone in clones {
            let _ = hash.write_str(";clone");
            for (a, b) in clone {
                let _ = write!(hash, ",{}.{}={}.{}", a.row(), a.col(), b.row(), b.col());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_holds_the_same_digits_cell_for_cell() {
        let sent = ClonePair {
            cells: vec![(0, 0), (0, 1)],
            copy: vec![(3, 3), (3, 2)],
        };
        let clones = Clones::new(Shape::FOUR, &[sent]).unwrap();
        let mut relations = Vec::new();
        clones.relations(Shape::FOUR, &mut relations);
        assert_eq!(relations.len(), 2);
        assert_eq!(relations[1].cells, [Cell::at(0, 1), Cell::at(3, 2)]);
        assert!(relations[0].allows(3, 3) && !relations[0].allows(3, 2));
        let bad = ClonePair {
            cells: vec![(0, 0)],
            copy: vec![(0, 0)],
        };
        assert_eq!(
            Clones::new(Shape::FOUR, &[bad]).unwrap_err().pointer,
            "/clones/0/copy/0"
        );
        let short = ClonePair {
            cells: vec![(0, 0), (0, 1)],
            copy: vec![(1, 1)],
        };
        assert_eq!(
            Clones::new(Shape::FOUR, &[short]).unwrap_err().pointer,
            "/clones/0/copy"
        );
    }
}
