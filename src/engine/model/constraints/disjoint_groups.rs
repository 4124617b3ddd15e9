//! Disjoint groups: the cells in the same place of their box (every box's top-left cell,
//! every box's centre, ...) hold every digit once. `side` houses of `side` cells on every
//! shape with boxes, each [`Role::Complete`], so every engine reads them as it reads rows.
//! The groups follow the shape's boxes even when Jigsaw regions replace them, as f-puzzles
//! draws them.

use std::fmt;

use super::{Family, House, Role};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One disjoint group ("disjoint group 1" in messages, `disjoint_group` in the JSON API).
pub const DISJOINT_GROUP: UnitKind =
    UnitKind::distinct("disjoint_group", "disjoint group", "disjoint groups");

/// Cells in the same position of their boxes hold different digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DisjointGroups;

impl Family for DisjointGroups {
    fn houses(&self, shape: Shape, out: &mut Vec<House>) {
        let side = shape.side();
        // Group `index` is cell `index` (reading order within the box) of every box; boxes in
        // reading order keep the group's cells in reading order.
        out.extend((0..side).map(|index| {
            House {
                unit: Unit {
                    kind: DISJOINT_GROUP,
                    index,
                },
                cells: (0..side)
                    .map(|b| {
                        let (row, col) = shape.box_cell(b, index);
                        Cell::at(row, col)
                    })
                    .collect(),
                role: Role::Complete,
            }
        }));
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        Some((11, "Disjoint Groups"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let _ = hash.write_str(";disjoint_groups");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_group_takes_one_cell_of_every_box_in_reading_order() {
        for shape in [Shape::SIX, Shape::NINE] {
            let side = shape.side();
            let mut houses = Vec::new();
            DisjointGroups.houses(shape, &mut houses);
            assert_eq!(houses.len(), side);
            let mut covered = vec![0; shape.cells()];
            for (g, house) in houses.iter().enumerate() {
                assert_eq!(house.cells.len(), side);
                assert!(house.cells.windows(2).all(|w| w[0] < w[1]));
                let mut boxes: Vec<usize> = house
                    .cells
                    .iter()
                    .map(|c| shape.box_of(c.row(), c.col()))
                    .collect();
                boxes.dedup();
                assert_eq!(boxes.len(), side, "group {g} meets every box once");
                for c in &house.cells {
                    let within = (c.row() % shape.box_rows()) * shape.box_cols()
                        + c.col() % shape.box_cols();
                    assert_eq!(within, g);
                    covered[c.row() * side + c.col()] += 1;
                }
            }
            assert!(covered.iter().all(|&n| n == 1));
        }
    }
}
