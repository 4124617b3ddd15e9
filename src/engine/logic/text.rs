//! Sentence pieces shared by the explanations, so that every technique words cells, lists and
//! units the same way (1-based, "a, b and c").

use std::fmt::Display;

use crate::engine::model::constraints::lines::{COLUMN, ROW};
use crate::engine::model::grid::{join_words, Cell};
use crate::engine::model::validate::{Unit, UnitKind};

/// "a", "a and b", "a, b and c".
pub(crate) fn list<T: Display>(items: &[T]) -> String {
    join_words(items, "and")
}

/// The sentence with its first letter in upper case.
pub(crate) fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Cells of one unit, named the short way a player reads them: "row 3, columns 2 and 7",
/// "column 3, rows 2 and 7", or for a box each cell in full.
pub(crate) fn cells_in_unit(unit: Unit, cells: &[Cell]) -> String {
    if unit.kind == ROW {
        let cols: Vec<usize> = cells.iter().map(|p| p.col() + 1).collect();
        let noun = if cols.len() == 1 { "column" } else { "columns" };
        format!("row {}, {noun} {}", unit.index + 1, list(&cols))
    } else if unit.kind == COLUMN {
        let rows: Vec<usize> = cells.iter().map(|p| p.row() + 1).collect();
        let noun = if rows.len() == 1 { "row" } else { "rows" };
        format!("column {}, {noun} {}", unit.index + 1, list(&rows))
    } else {
        list(cells)
    }
}

/// Cells of one unit without naming the unit again: "columns 2 and 7" in a row, "rows 2 and 7"
/// in a column, each cell in full in a box.
pub(crate) fn places_within(unit: Unit, cells: &[Cell]) -> String {
    if unit.kind == ROW {
        let cols: Vec<usize> = cells.iter().map(|p| p.col()).collect();
        lines(COLUMN, &cols)
    } else if unit.kind == COLUMN {
        let rows: Vec<usize> = cells.iter().map(|p| p.row()).collect();
        lines(ROW, &rows)
    } else {
        list(cells)
    }
}

/// "rows 2 and 7" / "columns 1, 4 and 7" for a set of 0-based line indices.
pub(crate) fn lines(kind: UnitKind, indices: &[usize]) -> String {
    let one_based: Vec<usize> = indices.iter().map(|i| i + 1).collect();
    let noun = if one_based.len() == 1 {
        kind.name()
    } else {
        kind.plural()
    };
    format!("{noun} {}", list(&one_based))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::boxes::BOX;

    #[test]
    fn lists_read_naturally() {
        assert_eq!(list::<u8>(&[]), "");
        assert_eq!(list(&[4]), "4");
        assert_eq!(list(&[4, 9]), "4 and 9");
        assert_eq!(list(&[1, 2, 3]), "1, 2 and 3");
        assert_eq!(capitalize("row 3"), "Row 3");
    }

    #[test]
    fn cells_are_named_by_their_unit() {
        let row = Unit {
            kind: ROW,
            index: 2,
        };
        let cells = [Cell::new(2, 1).unwrap(), Cell::new(2, 6).unwrap()];
        assert_eq!(cells_in_unit(row, &cells), "row 3, columns 2 and 7");
        let bx = Unit {
            kind: BOX,
            index: 0,
        };
        let cells = [Cell::new(0, 0).unwrap(), Cell::new(1, 2).unwrap()];
        assert_eq!(
            cells_in_unit(bx, &cells),
            "row 1, column 1 and row 2, column 3"
        );
        assert_eq!(lines(COLUMN, &[0, 3]), "columns 1 and 4");
    }
}
