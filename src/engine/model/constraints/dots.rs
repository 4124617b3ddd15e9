//! Dots between orthogonal neighbours: Kropki white (the digits differ by a value, 1 unless
//! given), Kropki black (one is a value times the other, 2 unless given), X (sum 10) and V
//! (sum 5); and the negative constraints, which say every dot of a kind is given, so every
//! other pair of neighbours is *not* in that relation (white: no difference of 1; black: no
//! ratio of 2; xv: no sum of 10 or 5). A pair is exempt from a negative constraint only by a
//! dot of the same kind, as f-puzzles reads it. Every dot and every exempt-less pair is a
//! relation.

use std::fmt;

use super::{cell_on, orthogonal_pairs, ConstraintError, Family, Relation};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One dot ("dot 1" in messages, `dot` in the JSON API).
pub const DOT: UnitKind = UnitKind::relation("dot", "dot", "dots");

/// One negative constraint ("negative constraint" in messages, `negative` in the JSON API).
pub const NEGATIVE: UnitKind =
    UnitKind::relation("negative", "negative constraint", "negative pairs").unnumbered();

const PROBLEM: &str = "invalid-dots";

/// What a dot says about its two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DotKind {
    White,
    Black,
    X,
    V,
}

/// Which dots a negative constraint says are all given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Negative {
    White,
    Black,
    Xv,
}

/// One dot as a caller describes it (cells 0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dot {
    pub cells: [(usize, usize); 2],
    pub kind: DotKind,
    pub value: Option<u32>,
}

/// A checked dot: its value filled in, its cells in reading order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Placed {
    cells: [Cell; 2],
    kind: DotKind,
    value: u32,
}

impl Placed {
    fn allows(&self, a: u32, b: u32) -> bool {
        match self.kind {
            DotKind::White => a.abs_diff(b) == self.value,
            // Checked: a ratio from the wire can be any u32, and a wrapped product could
            // meet a digit.
            DotKind::Black => {
                a.checked_mul(self.value) == Some(b) || b.checked_mul(self.value) == Some(a)
            }
            DotKind::X | DotKind::V => a + b == self.value,
        }
    }
}

/// The dots of a puzzle (in the order given) and its negative constraints.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dots {
    dots: Vec<Placed>,
    /// Sorted, each once.
    negative: Vec<Negative>,
}

impl Dots {
    /// The dots and negative constraints as sent, checked against `shape`: cells on the grid
    /// and orthogonal neighbours, a value two different digits can meet (none for X and V).
    pub fn new(shape: Shape, dots: &[Dot], negative: &[Negative]) -> Result<Dots, ConstraintError> {
        let side = shape.side();
        let mut placed = Vec::with_capacity(dots.len());
        for (k, dot) in dots.iter().enumerate() {
            let fail = |pointer: String, detail: String| ConstraintError {
                problem: PROBLEM,
                pointer,
                detail: format!("dot {}: {detail}", k + 1),
            };
            let mut cells = [Cell::at(0, 0); 2];
            for (i, &at) in dot.cells.iter().enumerate() {
                cells[i] = cell_on(side, at, PROBLEM, || format!("/dots/{k}/cells/{i}"))
                    .map_err(|e| fail(e.pointer, e.detail))?;
            }
            cells.sort();
            let [a, b] = cells;
            if a.row().abs_diff(b.row()) + a.col().abs_diff(b.col()) != 1 {
                return Err(fail(
                    format!("/dots/{k}/cells"),
                    format!("{a} and {b} are not orthogonal neighbours"),
                ));
            }
            let side = side as u32;
            let value = match (dot.kind, dot.value) {
                (DotKind::X | DotKind::V, Some(_)) => {
                    return Err(fail(
                        format!("/dots/{k}/value"),
                        "an X or V dot takes no value (X is a sum of 10, V of 5)".into(),
                    ))
                }
                (DotKind::X, None) => 10,
                (DotKind::V, None) => 5,
                (DotKind::White, value) => value.unwrap_or(1),
                (DotKind::Black, value) => value.unwrap_or(2),
            };
            let dot = Placed {
                cells,
                kind: dot.kind,
                value,
            };
            // Neighbours share a row or column, so their digits differ.
            let possible = (1..=side).any(|x| (1..=side).any(|y| x != y && dot.allows(x, y)));
            if !possible {
                let pointer = match dot.kind {
                    DotKind::White | DotKind::Black => format!("/dots/{k}/value"),
                    DotKind::X | DotKind::V => format!("/dots/{k}/kind"),
                };
                return Err(fail(
                    pointer,
                    format!(
                        "no two different digits 1-{side} meet a {:?} dot of {value}",
                        dot.kind
                    )
                    .to_lowercase(),
                ));
            }
            placed.push(dot);
        }
        let mut negative = negative.to_vec();
        negative.sort_unstable();
        negative.dedup();
        Ok(Dots {
            dots: placed,
            negative,
        })
    }

    /// Whether there are no dots and no negative constraints.
    pub fn is_empty(&self) -> bool {
        self.dots.is_empty() && self.negative.is_empty()
    }

    /// Each dot's cells (reading order), kind and value (filled in: 1 for a plain white dot,
    /// 2 for a black one, the sum for X and V), in the order given (for the renderer).
    pub(crate) fn dots(&self) -> impl Iterator<Item = ([Cell; 2], DotKind, u32)> + '_ {
        self.dots.iter().map(|dot| (dot.cells, dot.kind, dot.value))
    }

    /// The negative constraints, sorted, each once.
    pub(crate) fn negative(&self) -> &[Negative] {
        &self.negative
    }
}

impl Family for Dots {
    fn relations(&self, shape: Shape, out: &mut Vec<Relation>) {
        let side = shape.side();
        for (index, dot) in self.dots.iter().enumerate() {
            let unit = Unit { kind: DOT, index };
            // Neighbours share a row or column: never the same digit.
            out.push(Relation::of(unit, dot.cells, side, |a, b| {
                a != b && dot.allows(a, b)
            }));
        }
        if self.negative.is_empty() {
            return;
        }
        let unit = Unit {
            kind: NEGATIVE,
            index: 0,
        };
        let has = |cells: [Cell; 2], kinds: &[DotKind]| {
            self.dots
                .iter()
                .any(|d| d.cells == cells && kinds.contains(&d.kind))
        };
        for cells in orthogonal_pairs(side) {
            let white = self.negative.contains(&Negative::White) && !has(cells, &[DotKind::White]);
            let black = self.negative.contains(&Negative::Black) && !has(cells, &[DotKind::Black]);
            let xv =
                self.negative.contains(&Negative::Xv) && !has(cells, &[DotKind::X, DotKind::V]);
            if white || black || xv {
                out.push(Relation::of(unit, cells, side, |a, b| {
                    !(white && a.abs_diff(b) == 1
                        || black && (a * 2 == b || b * 2 == a)
                        || xv && (a + b == 10 || a + b == 5))
                }));
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.is_empty()).then_some((9, "Dots"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let mut dots = self.dots.clone();
        dots.sort_unstable();
        for dot in dots {
            let [a, b] = dot.cells;
            let _ = write!(
                hash,
                ";dot{:?}{},{}.{},{}.{}",
                dot.kind,
                dot.value,
                a.row(),
                a.col(),
                b.row(),
                b.col()
            );
        }
        for negative in &self.negative {
            let _ = write!(hash, ";negative{negative:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(cells: [(usize, usize); 2], kind: DotKind, value: Option<u32>) -> Dot {
        Dot { cells, kind, value }
    }

    fn relations(dots: &Dots, shape: Shape) -> Vec<Relation> {
        let mut out = Vec::new();
        dots.relations(shape, &mut out);
        out
    }

    #[test]
    fn each_kind_allows_its_pairs() {
        let dots = Dots::new(
            Shape::NINE,
            &[
                dot([(0, 1), (0, 0)], DotKind::White, None),
                dot([(0, 0), (1, 0)], DotKind::Black, Some(3)),
                dot([(2, 2), (2, 3)], DotKind::X, None),
                dot([(3, 2), (3, 3)], DotKind::V, None),
            ],
            &[],
        )
        .unwrap();
        let r = relations(&dots, Shape::NINE);
        assert_eq!(r[0].cells, [Cell::at(0, 0), Cell::at(0, 1)]);
        assert!(r[0].allows(4, 5) && r[0].allows(5, 4) && !r[0].allows(4, 6));
        assert!(r[1].allows(2, 6) && r[1].allows(9, 3) && !r[1].allows(2, 4));
        assert!(r[2].allows(3, 7) && !r[2].allows(5, 6));
        assert!(r[3].allows(1, 4) && !r[3].allows(2, 4));
    }

    #[test]
    fn the_negative_constraint_covers_every_pair_without_its_dot() {
        let dots = Dots::new(
            Shape::FOUR,
            &[dot([(0, 0), (0, 1)], DotKind::White, None)],
            &[Negative::White],
        )
        .unwrap();
        let r = relations(&dots, Shape::FOUR);
        // The dot, then the 23 other pairs of neighbours.
        assert_eq!(r.len(), 24);
        assert!(r[1..].iter().all(|r| r.unit.kind == NEGATIVE));
        assert!(r[1..]
            .iter()
            .all(|r| r.cells != [Cell::at(0, 0), Cell::at(0, 1)]));
        assert!(!r[1].allows(2, 3) && r[1].allows(1, 3));
    }

    #[test]
    fn malformed_dots_are_refused_with_a_pointer() {
        let cases = [
            (dot([(0, 0), (1, 1)], DotKind::White, None), "/dots/0/cells"),
            (
                dot([(0, 0), (0, 4)], DotKind::White, None),
                "/dots/0/cells/1",
            ),
            (dot([(0, 0), (0, 1)], DotKind::X, Some(10)), "/dots/0/value"),
            (dot([(0, 0), (0, 1)], DotKind::X, None), "/dots/0/kind"),
            (
                dot([(0, 0), (0, 1)], DotKind::White, Some(4)),
                "/dots/0/value",
            ),
            (
                dot([(0, 0), (0, 1)], DotKind::Black, Some(1)),
                "/dots/0/value",
            ),
        ];
        for (bad, pointer) in cases {
            let err = Dots::new(Shape::FOUR, &[bad], &[]).unwrap_err();
            assert_eq!(err.pointer, pointer, "{bad:?}: {}", err.detail);
        }
    }
}
