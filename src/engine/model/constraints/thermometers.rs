//! Thermometers: digits strictly increase from the bulb along the line (a slow thermometer's
//! never decrease). Each step is a relation between two neighbouring cells, and each cell is
//! bounded by its place: on a strict thermometer of `n` cells, the `k`-th from the bulb
//! (0-based) holds at least `k + 1` and at most `side - (n - 1 - k)`.

use std::fmt;

use super::{identify_lines, line_on, ConstraintError, Domain, Family, Relation};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One thermometer ("thermometer 1" in messages, `thermometer` in the JSON API).
pub const THERMOMETER: UnitKind = UnitKind::relation("thermometer", "thermometer", "thermometers");

const PROBLEM: &str = "invalid-thermometers";

/// One thermometer as a caller describes it: cells from the bulb (0-based).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thermometer {
    pub cells: Vec<(usize, usize)>,
    pub slow: bool,
}

/// A checked thermometer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Line {
    cells: Vec<Cell>,
    slow: bool,
}

/// The thermometers of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thermometers {
    lines: Vec<Line>,
}

impl Thermometers {
    /// The thermometers as sent, checked against `shape`: two cells or more, on the grid,
    /// none twice, each the king's-move neighbour of the one before, and (strict) no longer
    /// than the digits.
    pub fn new(shape: Shape, thermos: &[Thermometer]) -> Result<Thermometers, ConstraintError> {
        let side = shape.side();
        let mut lines = Vec::with_capacity(thermos.len());
        for (t, thermo) in thermos.iter().enumerate() {
            if !thermo.slow && thermo.cells.len() > side {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/thermometers/{t}/cells"),
                    detail: format!(
                        "thermometer {}: {} cells cannot strictly increase with digits 1-{side}",
                        t + 1,
                        thermo.cells.len()
                    ),
                });
            }
            let cells = line_on(
                side,
                &thermo.cells,
                PROBLEM,
                ("thermometers", "thermometer", t),
            )?;
            lines.push(Line {
                cells,
                slow: thermo.slow,
            });
        }
        Ok(Thermometers { lines })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Each thermometer's cells from the bulb, and whether it is slow (for the renderer).
    pub(crate) fn lines(&self) -> impl Iterator<Item = (&[Cell], bool)> + '_ {
        self.lines
            .iter()
            .map(|line| (line.cells.as_slice(), line.slow))
    }
}

impl Family for Thermometers {
    fn domains(&self, shape: Shape, out: &mut Vec<Domain>) {
        let side = shape.side() as u32;
        for (index, line) in self.lines.iter().enumerate().filter(|(_, l)| !l.slow) {
            let unit = Unit {
                kind: THERMOMETER,
                index,
            };
            let n = line.cells.len() as u32;
            for (k, &cell) in line.cells.iter().enumerate() {
                let (low, high) = (k as u32 + 1, side - (n - 1 - k as u32));
                // Digits low..=high: bits low - 1 to high - 1.
                let allowed = (u32::MAX >> (32 - high)) & !((1u32 << (low - 1)) - 1);
                out.push(Domain {
                    unit,
                    cell,
                    allowed,
                    rule: false,
                });
            }
        }
    }

    fn relations(&self, shape: Shape, out: &mut Vec<Relation>) {
        let side = shape.side();
        for (index, line) in self.lines.iter().enumerate() {
            let unit = Unit {
                kind: THERMOMETER,
                index,
            };
            for step in line.cells.windows(2) {
                let cells = [step[0], step[1]];
                out.push(if line.slow {
                    Relation::of(unit, cells, side, |a, b| a <= b)
                } else {
                    Relation::of(unit, cells, side, |a, b| a < b)
                });
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.lines.is_empty()).then_some((8, "Thermo"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let word = |slow| if slow { ";slow_thermo" } else { ";thermo" };
        identify_lines(
            hash,
            self.lines
                .iter()
                .map(|line| (line.cells.as_slice(), line.slow, word(line.slow))),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thermo(cells: &[(usize, usize)], slow: bool) -> Thermometer {
        Thermometer {
            cells: cells.to_vec(),
            slow,
        }
    }

    #[test]
    fn a_strict_thermometer_bounds_each_cell_by_its_place() {
        let thermos =
            Thermometers::new(Shape::NINE, &[thermo(&[(0, 0), (0, 1), (1, 2)], false)]).unwrap();
        let mut domains = Vec::new();
        thermos.domains(Shape::NINE, &mut domains);
        // Bulb 1-7, middle 2-8, tip 3-9.
        let masks: Vec<u32> = domains.iter().map(|d| d.allowed).collect();
        assert_eq!(masks, [0b0_0111_1111, 0b0_1111_1110, 0b1_1111_1100]);
        let mut relations = Vec::new();
        thermos.relations(Shape::NINE, &mut relations);
        assert_eq!(relations.len(), 2);
        assert!(relations[0].allows(3, 4) && !relations[0].allows(4, 4));
    }

    #[test]
    fn a_slow_thermometer_allows_equal_neighbours_and_has_no_bounds() {
        let thermos = Thermometers::new(Shape::FOUR, &[thermo(&[(0, 0), (1, 1)], true)]).unwrap();
        let mut domains = Vec::new();
        thermos.domains(Shape::FOUR, &mut domains);
        assert!(domains.is_empty());
        let mut relations = Vec::new();
        thermos.relations(Shape::FOUR, &mut relations);
        assert!(relations[0].allows(2, 2) && !relations[0].allows(3, 2));
    }

    #[test]
    fn malformed_thermometers_are_refused_with_a_pointer() {
        let cases: [(&[(usize, usize)], &str); 4] = [
            (&[(0, 0)], "/thermometers/0/cells"),
            (&[(0, 0), (0, 4)], "/thermometers/0/cells/1"),
            (&[(0, 0), (0, 2)], "/thermometers/0/cells/1"),
            (&[(0, 0), (0, 1), (0, 0)], "/thermometers/0/cells/2"),
        ];
        for (cells, pointer) in cases {
            let err = Thermometers::new(Shape::FOUR, &[thermo(cells, false)]).unwrap_err();
            assert_eq!(err.pointer, pointer, "{cells:?}: {}", err.detail);
            assert_eq!(err.problem, PROBLEM);
        }
        let long: Vec<_> = (0..4).map(|c| (0, c)).chain([(1, 3)]).collect();
        let err = Thermometers::new(Shape::FOUR, &[thermo(&long, false)]).unwrap_err();
        assert_eq!(err.pointer, "/thermometers/0/cells");
        assert!(Thermometers::new(Shape::FOUR, &[thermo(&long, true)]).is_ok());
    }
}
