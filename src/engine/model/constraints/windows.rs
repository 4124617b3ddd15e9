//! Hyper (Windoku): four extra 3x3 windows of a 9x9 grid are houses, and the five hidden
//! windows they imply are houses of the logic engine and the pencil marks.

use std::fmt;

use super::{Family, House, Role};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One window ("window 1" in messages, `window` in the JSON API).
pub const WINDOW: UnitKind = UnitKind::distinct("window", "window", "windows").box_like();

/// One hidden window ("hidden window 1" in messages, `hidden_window` in the JSON API).
pub const HIDDEN_WINDOW: UnitKind =
    UnitKind::distinct("hidden_window", "hidden window", "hidden windows")
        .box_like()
        .described_by(name_hidden_window);

/// The four windows of a 9x9 grid each hold every digit once (validated for 9x9 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Windows;

/// Hyper windows are defined for the 9x9 grid only.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("windows (Hyper Sudoku) are defined for 9x9 boards; this board is {side}x{side}")]
pub struct WindowsNeedNine {
    pub side: usize,
}

impl Windows {
    /// The windows of `shape`, which must be 9x9.
    pub fn new(shape: Shape) -> Result<Windows, WindowsNeedNine> {
        if shape == Shape::NINE {
            Ok(Windows)
        } else {
            Err(WindowsNeedNine { side: shape.side() })
        }
    }
}

/// Top-left cells of the four Hyper windows of a 9x9 grid, each 3x3.
const WINDOW_CORNERS: [(usize, usize); 4] = [(1, 1), (1, 5), (5, 1), (5, 5)];

/// The lines of a 9x9 grid the windows leave out (0-based: the first, middle and last), and
/// the two triples each pair of windows covers.
const WINDOW_LINE_GROUPS: [[usize; 3]; 3] = [[0, 4, 8], [1, 2, 3], [5, 6, 7]];

/// Which line groups (rows, columns) make each hidden window, in reading order of its first
/// cell: the four windows are groups 1-2 by 1-2; the other five pairs are these.
const HIDDEN_WINDOWS: [(usize, usize); 5] = [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)];

/// The cells of Hyper window `index` (0-3) of a 9x9 grid, in reading order.
fn window_cell(index: usize, i: usize) -> Cell {
    let (top, left) = WINDOW_CORNERS[index];
    Cell::at(top + i / 3, left + i % 3)
}

/// The cells of hidden window `index` (0-4), in reading order. The four windows imply five
/// more groups that hold every digit once: three columns side by side hold each digit three
/// times, the two windows on them hold it once each, so the rows the windows leave out (1, 5
/// and 9) hold it once there too; likewise across, and at the nine crossings of those rows
/// and columns. Solvers that know this use them as houses, and Sukaku Explainer rates Hyper
/// puzzles with them.
fn hidden_window_cell(index: usize, i: usize) -> Cell {
    let (rows, cols) = HIDDEN_WINDOWS[index];
    Cell::at(
        WINDOW_LINE_GROUPS[rows][i / 3],
        WINDOW_LINE_GROUPS[cols][i % 3],
    )
}

/// "1, 5, 9" or "2-4": the rows or columns of line group `group`.
fn window_lines(group: usize) -> String {
    match WINDOW_LINE_GROUPS[group] {
        [a, _, c] if c == a + 2 => format!("{}-{}", a + 1, c + 1),
        [a, b, c] => format!("{}, {}, {}", a + 1, b + 1, c + 1),
    }
}

/// Names hidden window `index` with where it is: "hidden window 2 (rows 1, 5, 9, columns
/// 2-4)".
pub(crate) fn name_hidden_window(index: usize, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let (rows, cols) = HIDDEN_WINDOWS[index];
    write!(
        f,
        "hidden window {} (rows {}, columns {})",
        index + 1,
        window_lines(rows),
        window_lines(cols)
    )
}

impl Family for Windows {
    fn houses(&self, _shape: Shape, out: &mut Vec<House>) {
        /// The `i`-th cell of window `index`, of one kind of window.
        type CellOf = fn(usize, usize) -> Cell;
        let groups: [(UnitKind, usize, CellOf, Role); 2] = [
            (WINDOW, 4, window_cell, Role::Complete),
            (HIDDEN_WINDOW, 5, hidden_window_cell, Role::Implied),
        ];
        for (kind, count, cell, role) in groups {
            out.extend((0..count).map(|index| House {
                unit: Unit { kind, index },
                cells: (0..9).map(|i| cell(index, i)).collect(),
                role,
            }));
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        Some((2, "Hyper"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let _ = hash.write_str(";windows");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_need_a_nine_by_nine_grid() {
        assert!(Windows::new(Shape::NINE).is_ok());
        let err = Windows::new(Shape::SIX).unwrap_err();
        assert_eq!(
            err.to_string(),
            "windows (Hyper Sudoku) are defined for 9x9 boards; this board is 6x6"
        );
    }

    #[test]
    fn hidden_windows_hold_nine_cells_outside_the_windows() {
        let mut houses = Vec::new();
        Windows.houses(Shape::NINE, &mut houses);
        let windows: Vec<Cell> = houses[..4].iter().flat_map(|h| h.cells.clone()).collect();
        for house in &houses[4..] {
            assert_eq!(house.role, Role::Implied);
            assert_eq!(house.cells.len(), 9);
            assert!(house.cells.iter().all(|c| !windows.contains(c)));
        }
    }
}
