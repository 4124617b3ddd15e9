//! A player's position in a puzzle: the board they hold against the givens they were handed.
//! What a game needs in one answer: which cells clash (and who put them there), which entries
//! are wrong, whether it is finished, and a move applied.

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::dispatch::Engine;
use crate::engine::model::grid::{Cell, Digit, Grid};
use crate::engine::model::puzzle::{Counted, Puzzle};
use crate::engine::model::rules::Rules;
use crate::engine::model::validate::{validate, Report, Unit};

/// Why a player's board or move does not fit the puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The board and the givens are not the same size.
    #[error("the board is {board}x{board} but the givens are {givens}x{givens}")]
    SizeMismatch { board: usize, givens: usize },
    /// The board lost or changed a given.
    #[error("{cell} holds the given {given} but the board has {} there", found.map_or("nothing".to_string(), |d| d.to_char().to_string()))]
    GivenChanged {
        cell: Cell,
        given: Digit,
        found: Option<Digit>,
    },
    /// A move onto a given's cell.
    #[error("{cell} holds a given; a move can only change the other cells")]
    MoveOnGiven { cell: Cell },
    /// A move off the grid.
    #[error("row {row}, column {col} is outside the {side}x{side} grid", row = .row + 1, col = .col + 1)]
    MoveOffGrid { row: usize, col: usize, side: usize },
    /// A move with a digit the grid does not have.
    #[error("{digit} is not a digit of a {side}x{side} grid (1-{side}, or null to clear)")]
    MoveDigit { digit: u8, side: usize },
}

/// A cell that takes part in a clash, listed once with every unit it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictCell {
    pub cell: Cell,
    pub digit: Digit,
    pub units: Vec<Unit>,
    /// Put there by the player (not a given); `None` when the givens are not known.
    pub entered: Option<bool>,
}

/// An entry that is not the puzzle's solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mistake {
    pub cell: Cell,
    pub entered: Digit,
}

/// The verdict on a player's board.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Repeats by unit, complete, solved.
    pub report: Report,
    /// Every clashing cell once, with its units and who placed it.
    pub conflict_cells: Vec<ConflictCell>,
    /// The board's completions, counted to 2 (none when it clashes).
    pub completions: Option<Counted>,
    /// Entries that differ from the solution; known only when the givens were given and
    /// the puzzle has exactly one solution.
    pub mistakes: Option<Vec<Mistake>>,
}

/// Checks that `board` keeps every given of `givens` (same size, same digits).
pub fn check_givens(board: &Grid, givens: &Grid) -> Result<(), PlayError> {
    if board.shape() != givens.shape() {
        return Err(PlayError::SizeMismatch {
            board: board.shape().side(),
            givens: givens.shape().side(),
        });
    }
    match givens
        .givens()
        .find(|&(cell, d)| board.get(cell) != Some(d))
    {
        Some((cell, given)) => Err(PlayError::GivenChanged {
            cell,
            given,
            found: board.get(cell),
        }),
        None => Ok(()),
    }
}

/// `board` with `digit` (or nothing) at (`row`, `col`): the player's move. A given's cell
/// cannot be moved on.
pub fn apply_move(
    board: &Grid,
    givens: &Grid,
    row: usize,
    col: usize,
    digit: Option<u8>,
) -> Result<Grid, PlayError> {
    let side = board.shape().side();
    let cell = Cell::new(row, col)
        .filter(|&c| board.shape().index_of(c).is_some())
        .ok_or(PlayError::MoveOffGrid { row, col, side })?;
    if givens.get(cell).is_some() {
        return Err(PlayError::MoveOnGiven { cell });
    }
    let digit = match digit.filter(|&d| d != 0) {
        None => None,
        Some(d) => Some(
            Digit::new(d)
                .filter(|d| usize::from(d.get()) <= side)
                .ok_or(PlayError::MoveDigit { digit: d, side })?,
        ),
    };
    let mut moved = board.clone();
    // The cell is on the grid and the digit fits it: this cannot fail.
    let _ = moved.set(cell, digit);
    Ok(moved)
}

impl Engine {
    /// The verdict on a player's `board` of the puzzle `givens` under `rules` (checked with
    /// [`check_givens`] first by the caller; without givens the board is its own puzzle).
    pub fn verdict(
        &mut self,
        board: &Grid,
        givens: Option<&Grid>,
        rules: &Rules,
        budget: &Budget,
    ) -> Result<Verdict, Exhausted> {
        let report = validate(board, rules);
        let conflict_cells = conflict_cells(&report, givens);
        let completions = match Puzzle::new(board.clone(), rules.clone()) {
            Ok(puzzle) => Some(self.count(&puzzle, 2, budget)?),
            Err(_) => None,
        };
        let mistakes = match givens.map(|g| Puzzle::new(g.clone(), rules.clone())) {
            Some(Ok(puzzle)) => {
                let counted = self.count(&puzzle, 2, budget)?;
                match (counted.count, counted.first) {
                    (1, Some(solution)) => Some(
                        board
                            .givens()
                            .filter(|&(cell, d)| solution.grid().get(cell) != Some(d))
                            .map(|(cell, entered)| Mistake { cell, entered })
                            .collect(),
                    ),
                    _ => None,
                }
            }
            _ => None,
        };
        Ok(Verdict {
            report,
            conflict_cells,
            completions,
            mistakes,
        })
    }
}

/// Each clashing cell once, in reading order, with the units it breaks.
fn conflict_cells(report: &Report, givens: Option<&Grid>) -> Vec<ConflictCell> {
    let mut cells: Vec<ConflictCell> = Vec::new();
    for conflict in &report.conflicts {
        for &cell in &conflict.cells {
            match cells.iter_mut().find(|c| c.cell == cell) {
                Some(known) => known.units.push(conflict.unit),
                None => cells.push(ConflictCell {
                    cell,
                    digit: conflict.digit,
                    units: vec![conflict.unit],
                    entered: givens.map(|g| g.get(cell).is_none()),
                }),
            }
        }
    }
    cells.sort_by_key(|c| c.cell);
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::boxes::BOX;
    use crate::engine::model::constraints::lines::{COLUMN, ROW};
    use crate::engine::model::validate::UnitKind;

    const SEED: &str =
        "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    fn cell(row: usize, col: usize) -> Cell {
        Cell::new(row, col).unwrap()
    }

    /// The verdict on `board`, a position of `givens`, under classic rules.
    fn classic_verdict(board: &Grid, givens: &Grid) -> Verdict {
        Engine::new()
            .verdict(
                board,
                Some(givens),
                &Rules::classic(givens.shape()),
                &Budget::unlimited(),
            )
            .unwrap()
    }

    #[test]
    fn a_wrong_entry_that_repeats_nothing_is_named() {
        let givens = grid(SEED);
        // Row 1, column 2: the solution has 5; 3 repeats nothing there.
        let board = apply_move(&givens, &givens, 0, 1, Some(3)).unwrap();
        let verdict = classic_verdict(&board, &givens);
        assert!(verdict.report.conflicts.is_empty());
        assert_eq!(verdict.completions.unwrap().count, 0);
        assert_eq!(
            verdict.mistakes,
            Some(vec![Mistake {
                cell: cell(0, 1),
                entered: Digit::new(3).unwrap()
            }])
        );
    }

    #[test]
    fn each_clashing_cell_is_listed_once_with_its_units_and_who_placed_it() {
        let givens = grid(SEED);
        // A 9 next to the given 9 of row 1: clashes in row 1 and box 1, and in column 2
        // with the given 9 of row 9.
        let board = apply_move(&givens, &givens, 0, 1, Some(9)).unwrap();
        let verdict = classic_verdict(&board, &givens);
        assert_eq!(verdict.report.conflicts.len(), 3);
        let cells: Vec<(Cell, Option<bool>, Vec<UnitKind>)> = verdict
            .conflict_cells
            .iter()
            .map(|c| (c.cell, c.entered, c.units.iter().map(|u| u.kind).collect()))
            .collect();
        assert_eq!(
            cells,
            vec![
                (cell(0, 0), Some(false), vec![ROW, BOX]),
                (cell(0, 1), Some(true), vec![ROW, COLUMN, BOX]),
                (cell(8, 1), Some(false), vec![COLUMN]),
            ]
        );
        assert!(verdict.completions.is_none());
    }

    #[test]
    fn moves_and_boards_must_keep_the_givens() {
        let givens = grid(SEED);
        assert_eq!(
            apply_move(&givens, &givens, 0, 0, Some(1)),
            Err(PlayError::MoveOnGiven { cell: cell(0, 0) })
        );
        assert!(matches!(
            apply_move(&givens, &givens, 9, 0, Some(1)),
            Err(PlayError::MoveOffGrid { .. })
        ));
        assert!(matches!(
            apply_move(&givens, &givens, 0, 1, Some(10)),
            Err(PlayError::MoveDigit { digit: 10, .. })
        ));
        let cleared = apply_move(&givens, &givens, 0, 1, None).unwrap();
        assert_eq!(cleared, givens);
        let mut changed = givens.clone();
        changed.set(cell(0, 0), None).unwrap();
        let err = check_givens(&changed, &givens).unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 1, column 1 holds the given 9 but the board has nothing there"
        );
        let four = grid(&".".repeat(16));
        assert!(matches!(
            check_givens(&four, &givens),
            Err(PlayError::SizeMismatch {
                board: 4,
                givens: 9
            })
        ));
    }
}
