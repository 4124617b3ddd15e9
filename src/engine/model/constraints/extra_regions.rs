//! Extra regions: groups of cells, anywhere on the grid, whose digits do not repeat. They
//! need not be connected nor hold every digit, so each is a house of distinct digits
//! ([`Role::Distinct`], like a cage without a sum): the general solver makes its cells
//! peers, validation reports a repeat by the region and its cells, and pencil marks remove
//! a placed digit from the rest of the region.

use std::fmt;

use super::{cell_on, ConstraintError, Family, House, Role};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One extra region ("extra region 1" in messages, `extra_region` in the JSON API).
pub const EXTRA_REGION: UnitKind =
    UnitKind::distinct("extra_region", "extra region", "extra regions");

const PROBLEM: &str = "invalid-extra-regions";

/// The extra regions of a puzzle, in the order given, each's cells in reading order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtraRegions {
    regions: Vec<Vec<Cell>>,
}

impl ExtraRegions {
    /// The regions as sent (cells 0-based), checked against `shape`: at most one per cell of
    /// the grid, each with one to `side` cells (more cannot be distinct), on the grid, none
    /// twice in a region. Regions may overlap each other and any house.
    pub fn new(
        shape: Shape,
        regions: &[Vec<(usize, usize)>],
    ) -> Result<ExtraRegions, ConstraintError> {
        let side = shape.side();
        if regions.len() > shape.cells() {
            return Err(ConstraintError {
                problem: PROBLEM,
                pointer: "/extra_regions".into(),
                detail: format!(
                    "{} extra regions: a {side}x{side} grid takes at most {}",
                    regions.len(),
                    shape.cells()
                ),
            });
        }
        let mut checked = Vec::with_capacity(regions.len());
        for (r, region) in regions.iter().enumerate() {
            let fail = |pointer: String, detail: String| ConstraintError {
                problem: PROBLEM,
                pointer,
                detail: format!("extra region {}: {detail}", r + 1),
            };
            if region.is_empty() || region.len() > side {
                return Err(fail(
                    format!("/extra_regions/{r}/cells"),
                    format!(
                        "{} cells; a region holds 1 to {side} distinct digits",
                        region.len()
                    ),
                ));
            }
            let mut cells: Vec<Cell> = Vec::with_capacity(region.len());
            for (k, &at) in region.iter().enumerate() {
                let pointer = || format!("/extra_regions/{r}/cells/{k}");
                let cell =
                    cell_on(side, at, PROBLEM, pointer).map_err(|e| fail(e.pointer, e.detail))?;
                if cells.contains(&cell) {
                    return Err(fail(pointer(), format!("{cell} is in the region twice")));
                }
                cells.push(cell);
            }
            cells.sort();
            checked.push(cells);
        }
        Ok(ExtraRegions { regions: checked })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.regions.is_empty()
    }

    /// Each region's cells, in reading order (for the renderer).
    pub(crate) fn regions(&self) -> impl Iterator<Item = &[Cell]> + '_ {
        self.regions.iter().map(Vec::as_slice)
    }
}

impl Family for ExtraRegions {
    fn houses(&self, _shape: Shape, out: &mut Vec<House>) {
        out.extend(self.regions.iter().enumerate().map(|(index, cells)| House {
            unit: Unit {
                kind: EXTRA_REGION,
                index,
            },
            cells: cells.clone(),
            role: Role::Distinct,
        }));
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.regions.is_empty()).then_some((10, "Extra Regions"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        // The list's order is not the puzzle's: the id reads the regions sorted.
        let mut regions: Vec<&Vec<Cell>> = self.regions.iter().collect();
        regions.sort_unstable();
        for cells in regions {
            let _ = hash.write_str(";extra_region");
            for cell in cells {
                let _ = write!(hash, ",{}.{}", cell.row(), cell.col());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_region_is_a_house_of_distinct_digits_in_reading_order() {
        let regions = ExtraRegions::new(Shape::SIX, &[vec![(3, 3), (0, 0)], vec![(5, 5)]]).unwrap();
        let mut houses = Vec::new();
        regions.houses(Shape::SIX, &mut houses);
        assert_eq!(houses.len(), 2);
        assert_eq!(houses[0].cells, [Cell::at(0, 0), Cell::at(3, 3)]);
        assert!(houses.iter().all(|h| h.role == Role::Distinct));
        assert_eq!(houses[1].unit.index, 1);
    }

    #[test]
    fn malformed_regions_are_refused_with_a_pointer() {
        let cases: [(Vec<(usize, usize)>, &str); 4] = [
            (vec![], "/extra_regions/0/cells"),
            (
                (0..5).map(|c| (c % 4, c / 4)).collect(),
                "/extra_regions/0/cells",
            ),
            (vec![(0, 0), (4, 0)], "/extra_regions/0/cells/1"),
            (vec![(0, 0), (1, 1), (0, 0)], "/extra_regions/0/cells/2"),
        ];
        for (cells, pointer) in cases {
            let err = ExtraRegions::new(Shape::FOUR, std::slice::from_ref(&cells)).unwrap_err();
            assert_eq!(err.pointer, pointer, "{cells:?}: {}", err.detail);
            assert_eq!(err.problem, PROBLEM);
            assert!(err.detail.starts_with("extra region 1: "), "{}", err.detail);
        }
        let many = vec![vec![(0, 0)]; 17];
        assert_eq!(
            ExtraRegions::new(Shape::FOUR, &many).unwrap_err().pointer,
            "/extra_regions"
        );
    }
}
