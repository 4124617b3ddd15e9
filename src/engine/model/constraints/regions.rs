//! Jigsaw regions: irregular groups of cells that take the place of the boxes.
//!
//! A caller draws them as a grid of labels, one per cell (any text: `"1"`, `"A"`, `"7"`);
//! cells with the same label form a region. [`Regions::new`] proves everything a solver
//! relies on: the label grid has the board's shape, there are exactly `side` regions, each
//! has `side` cells, and each is orthogonally connected. Regions are numbered in reading
//! order of their first cell (the region holding the top-left cell is region 1), whatever
//! their labels, so a region's number does not depend on how it was labelled.

use std::fmt;

use super::{Family, House, Role};
use crate::engine::model::grid::{char_of, Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One region ("region 1" in messages, `region` in the JSON API).
pub const REGION: UnitKind = UnitKind::distinct("region", "region", "regions").box_like();

/// Why a label grid does not draw valid regions. Rows, columns and regions print 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    #[error("regions has {found} rows; the {side}x{side} board needs {side}")]
    RowCount { found: usize, side: usize },
    #[error("regions row {row} has {found} labels; the {side}x{side} board needs {side}")]
    RowLength {
        row: usize,
        found: usize,
        side: usize,
    },
    #[error("regions {cell} has no label")]
    MissingLabel { cell: Cell },
    #[error("regions has {found} different labels; a {side}x{side} board needs {side} regions")]
    RegionCount { found: usize, side: usize },
    #[error("region {label:?} has {size} cells; every region needs {side}")]
    RegionSize {
        label: String,
        size: usize,
        side: usize,
    },
    #[error("region {label:?}: {cell} is not orthogonally connected to the region's first cell")]
    NotConnected { label: String, cell: Cell },
}

impl RegionError {
    /// The cell at fault, when the error names one.
    pub fn cell(&self) -> Option<Cell> {
        match self {
            RegionError::MissingLabel { cell } | RegionError::NotConnected { cell, .. } => {
                Some(*cell)
            }
            _ => None,
        }
    }
}

/// A proven partition of a grid into `side` connected regions of `side` cells.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Regions {
    shape: Shape,
    /// 0-based region of each cell, in reading order; regions numbered by first cell.
    region_of: Vec<u8>,
}

impl fmt::Debug for Regions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.to_rows()).finish()
    }
}

impl Regions {
    /// Whether these regions are exactly the shape's boxes (a "Jigsaw" that is no Jigsaw).
    pub fn are_boxes(&self) -> bool {
        self.shape.all_cells().all(|cell| {
            let boxed = self.shape.box_of(cell.row(), cell.col());
            // Both are numbered by first cell in reading order, so equal partitions are
            // equal numberings.
            usize::from(self.region_of[self.shape.index_of(cell).unwrap_or(0)]) == boxed
        })
    }

    /// Validates a label grid (one label per cell, rows top first) for `shape`; the first
    /// problem found is the error.
    pub fn new<R: AsRef<[Option<String>]>>(
        shape: Shape,
        labels: &[R],
    ) -> Result<Regions, RegionError> {
        let side = shape.side();
        if labels.len() != side {
            return Err(RegionError::RowCount {
                found: labels.len(),
                side,
            });
        }
        // Labels in order of first appearance; a cell's region is its label's position.
        let mut names: Vec<&str> = Vec::with_capacity(side);
        let mut region_of = Vec::with_capacity(shape.cells());
        for (r, row) in labels.iter().enumerate() {
            let row = row.as_ref();
            if row.len() != side {
                return Err(RegionError::RowLength {
                    row: r + 1,
                    found: row.len(),
                    side,
                });
            }
            for (c, label) in row.iter().enumerate() {
                let label = label
                    .as_deref()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .ok_or(RegionError::MissingLabel {
                        cell: Cell::at(r, c),
                    })?;
                let region = match names.iter().position(|&n| n == label) {
                    Some(k) => k,
                    None => {
                        names.push(label);
                        if names.len() > side {
                            return Err(RegionError::RegionCount {
                                found: count_labels(labels),
                                side,
                            });
                        }
                        names.len() - 1
                    }
                };
                region_of.push(region as u8);
            }
        }
        if names.len() != side {
            return Err(RegionError::RegionCount {
                found: names.len(),
                side,
            });
        }
        let regions = Regions { shape, region_of };
        for (k, name) in names.iter().enumerate() {
            let cells: Vec<Cell> = regions.cells(k).collect();
            if cells.len() != side {
                return Err(RegionError::RegionSize {
                    label: name.to_string(),
                    size: cells.len(),
                    side,
                });
            }
            if let Some(cell) = first_unconnected(&cells, side) {
                return Err(RegionError::NotConnected {
                    label: name.to_string(),
                    cell,
                });
            }
        }
        Ok(regions)
    }

    /// The boxes of `shape`, as regions (what a Jigsaw generator starts from).
    pub fn boxes(shape: Shape) -> Regions {
        let side = shape.side();
        Regions {
            shape,
            region_of: (0..shape.cells())
                .map(|i| shape.box_of(i / side, i % side) as u8)
                .collect(),
        }
    }

    /// The shape the regions cover.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// 0-based region of `cell` (which must lie on the grid).
    pub fn region_of(&self, cell: Cell) -> usize {
        usize::from(self.region_of[cell.row() * self.shape.side() + cell.col()])
    }

    /// The cells of region `index` (0-based), in reading order.
    pub fn cells(&self, index: usize) -> impl Iterator<Item = Cell> + '_ {
        let shape = self.shape;
        self.region_of
            .iter()
            .enumerate()
            .filter(move |&(_, &r)| usize::from(r) == index)
            .map(move |(i, _)| shape.cell_at(i))
    }

    /// The label grid, one string per row, regions labelled `1`-`9`, `A`-`P` by number: the
    /// form answers use, and one [`Regions::new`] reads back to the same regions.
    pub fn to_rows(&self) -> Vec<String> {
        self.region_of
            .chunks(self.shape.side())
            .map(|row| row.iter().map(|&r| char_of(r + 1)).collect())
            .collect()
    }
}

impl Family for Regions {
    fn houses(&self, shape: Shape, out: &mut Vec<House>) {
        out.extend((0..shape.side()).map(|index| House {
            unit: Unit {
                kind: REGION,
                index,
            },
            cells: self.cells(index).collect(),
            role: Role::Complete,
        }));
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        Some((1, "Jigsaw"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let _ = hash.write_str(";regions:");
        for row in self.to_rows() {
            let _ = hash.write_str(&row);
        }
    }
}

/// Distinct labels in a grid (for the message when there are too many).
fn count_labels<R: AsRef<[Option<String>]>>(labels: &[R]) -> usize {
    let mut seen: Vec<&str> = Vec::new();
    for label in labels.iter().flat_map(|r| r.as_ref()).flatten() {
        let label = label.trim();
        if !label.is_empty() && !seen.contains(&label) {
            seen.push(label);
        }
    }
    seen.len()
}

/// The first cell of `cells` (reading order) that a flood fill from the first cell, through
/// orthogonal neighbours within `cells`, does not reach.
pub(crate) fn first_unconnected(cells: &[Cell], side: usize) -> Option<Cell> {
    let mut member = vec![false; side * side];
    for cell in cells {
        member[cell.row() * side + cell.col()] = true;
    }
    let mut reached = vec![false; side * side];
    let first = cells.first()?;
    let mut stack = vec![(first.row(), first.col())];
    reached[first.row() * side + first.col()] = true;
    while let Some((row, col)) = stack.pop() {
        let neighbours = [
            (row.wrapping_sub(1), col),
            (row + 1, col),
            (row, col.wrapping_sub(1)),
            (row, col + 1),
        ];
        for (r, c) in neighbours {
            if r < side && c < side && member[r * side + c] && !reached[r * side + c] {
                reached[r * side + c] = true;
                stack.push((r, c));
            }
        }
    }
    cells
        .iter()
        .copied()
        .find(|c| !reached[c.row() * side + c.col()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels from row strings, one character per cell.
    fn labels(rows: &[&str]) -> Vec<Vec<Option<String>>> {
        rows.iter()
            .map(|r| r.chars().map(|c| Some(c.to_string())).collect())
            .collect()
    }

    const JIGSAW4: [&str; 4] = ["aabb", "aabb", "ccdd", "cdcd"];

    #[test]
    fn regions_are_numbered_by_first_cell_whatever_their_labels() {
        let regions = Regions::new(Shape::FOUR, &labels(&["xxyy", "xyyz", "xwzz", "wwwz"]))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(regions.to_rows(), ["1122", "1223", "1433", "4443"]);
        assert_eq!(regions.region_of(Cell::at(2, 1)), 3);
        assert_eq!(
            regions.cells(3).collect::<Vec<_>>(),
            [
                Cell::at(2, 1),
                Cell::at(3, 0),
                Cell::at(3, 1),
                Cell::at(3, 2)
            ]
        );
        // Read back from its own rows, it is the same partition.
        let again = Regions::new(Shape::FOUR, &labels(&["1122", "1223", "1433", "4443"]));
        assert_eq!(again.unwrap(), regions);
    }

    #[test]
    fn the_boxes_are_regions_too() {
        let boxes = Regions::boxes(Shape::SIX);
        assert_eq!(boxes.to_rows()[0], "111222");
        assert_eq!(boxes.to_rows()[5], "555666");
        let text: Vec<String> = boxes.to_rows();
        let rows: Vec<&str> = text.iter().map(String::as_str).collect();
        assert_eq!(Regions::new(Shape::SIX, &labels(&rows)).unwrap(), boxes);
    }

    #[test]
    fn each_kind_of_error_names_what_is_wrong() {
        let cases: Vec<(Vec<Vec<Option<String>>>, &str)> = vec![
            (
                labels(&["aabb", "aabb", "ccdd"]),
                "regions has 3 rows; the 4x4 board needs 4",
            ),
            (
                labels(&["aabb", "aab", "ccdd", "ccdd"]),
                "regions row 2 has 3 labels; the 4x4 board needs 4",
            ),
            (
                {
                    let mut l = labels(&["aabb", "aabb", "ccdd", "ccdd"]);
                    l[2][1] = None;
                    l
                },
                "regions row 3, column 2 has no label",
            ),
            (
                labels(&["aabb", "aabb", "aabb", "aabb"]),
                "regions has 2 different labels; a 4x4 board needs 4 regions",
            ),
            (
                labels(&["abcd", "efgh", "abcd", "efgh"]),
                "regions has 8 different labels; a 4x4 board needs 4 regions",
            ),
            (
                labels(&["aaab", "aabb", "ccdd", "ccdd"]),
                "region \"a\" has 5 cells; every region needs 4",
            ),
            (
                labels(&JIGSAW4),
                "region \"c\": row 4, column 3 is not orthogonally connected to the region's \
                 first cell",
            ),
        ];
        for (grid, text) in cases {
            let err = Regions::new(Shape::FOUR, &grid).unwrap_err();
            assert_eq!(err.to_string(), text);
        }
        let err = Regions::new(Shape::FOUR, &labels(&JIGSAW4)).unwrap_err();
        assert_eq!(err.cell(), Some(Cell::at(3, 2)));
    }
}
