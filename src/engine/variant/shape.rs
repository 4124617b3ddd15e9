//! The supported grid shapes: side length and box size.
//!
//! Only shapes whose boxes tile the grid exactly are representable, so every other module can
//! take a [`Shape`] and trust that `box_rows * box_cols == side` and that digits fit in a `u32`
//! candidate mask.

use std::fmt;

/// A grid shape: `side` x `side` cells, boxes `box_rows` tall and `box_cols` wide.
///
/// Built only by [`Shape::from_side`] (or the named constants), so an unsupported side or a
/// box that does not tile the grid cannot exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    side: u8,
    box_rows: u8,
    box_cols: u8,
}

impl Shape {
    /// 4x4 with 2x2 boxes.
    pub const FOUR: Shape = Shape::new_unchecked(4, 2, 2);
    /// 6x6 with boxes 2 rows tall and 3 columns wide.
    pub const SIX: Shape = Shape::new_unchecked(6, 2, 3);
    /// Classic 9x9 with 3x3 boxes.
    pub const NINE: Shape = Shape::new_unchecked(9, 3, 3);
    /// 16x16 with 4x4 boxes.
    pub const SIXTEEN: Shape = Shape::new_unchecked(16, 4, 4);
    /// 25x25 with 5x5 boxes.
    pub const TWENTY_FIVE: Shape = Shape::new_unchecked(25, 5, 5);

    /// Every supported shape, smallest first.
    pub const ALL: [Shape; 5] = [
        Shape::FOUR,
        Shape::SIX,
        Shape::NINE,
        Shape::SIXTEEN,
        Shape::TWENTY_FIVE,
    ];

    const fn new_unchecked(side: u8, box_rows: u8, box_cols: u8) -> Shape {
        Shape {
            side,
            box_rows,
            box_cols,
        }
    }

    /// The shape with `side` cells per row: 4, 6, 9, 16 or 25; `None` for anything else.
    pub fn from_side(side: usize) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.side() == side)
    }

    /// Cells per row, column and box; also the largest digit.
    pub const fn side(self) -> usize {
        self.side as usize
    }

    /// Rows per box.
    pub const fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    pub const fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Number of cells.
    pub const fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// 0-based box of a cell, boxes numbered in reading order.
    pub const fn box_of(self, row: usize, col: usize) -> usize {
        let boxes_per_row = self.side() / self.box_cols();
        (row / self.box_rows()) * boxes_per_row + col / self.box_cols()
    }

    /// The `i`-th cell (0-based, reading order within the box) of box `index`, as (row, col).
    pub const fn box_cell(self, index: usize, i: usize) -> (usize, usize) {
        let boxes_per_row = self.side() / self.box_cols();
        let top = (index / boxes_per_row) * self.box_rows();
        let left = (index % boxes_per_row) * self.box_cols();
        (top + i / self.box_cols(), left + i % self.box_cols())
    }

    /// Mask with one bit per digit: bit `d - 1` stands for digit `d`.
    pub const fn all_digits(self) -> u32 {
        (1u32 << self.side()) - 1
    }

    /// Sum of all digits 1..=side.
    pub const fn digit_total(self) -> u32 {
        let n = self.side() as u32;
        n * (n + 1) / 2
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{0}x{0} (boxes {1}x{2})",
            self.side, self.box_rows, self.box_cols
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_five_sides_are_supported() {
        for n in 0..40 {
            let found = Shape::from_side(n);
            assert_eq!(found.is_some(), [4, 6, 9, 16, 25].contains(&n), "side {n}");
            if let Some(s) = found {
                assert_eq!(s.box_rows() * s.box_cols(), n);
            }
        }
        assert_eq!(Shape::from_side(6).unwrap().box_rows(), 2);
        assert_eq!(Shape::from_side(6).unwrap().box_cols(), 3);
    }

    #[test]
    fn box_cells_and_box_of_agree() {
        for shape in Shape::ALL {
            let mut seen = vec![0; shape.cells()];
            for b in 0..shape.side() {
                for i in 0..shape.side() {
                    let (r, c) = shape.box_cell(b, i);
                    assert_eq!(shape.box_of(r, c), b, "{shape} box {b}");
                    seen[r * shape.side() + c] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{shape}");
        }
    }

    #[test]
    fn six_by_six_boxes_are_two_rows_tall() {
        let s = Shape::SIX;
        assert_eq!(s.box_of(1, 2), 0);
        assert_eq!(s.box_of(1, 3), 1);
        assert_eq!(s.box_of(2, 0), 2);
        assert_eq!(s.to_string(), "6x6 (boxes 2x3)");
    }
}
