//! The facade's types for every size and rule set: [`Puzzle`] (a grid whose givens obey its
//! [`Rules`]), [`Solution`], [`Counted`] and [`Stats`], and the errors of building a puzzle.

use std::fmt;

use crate::engine::model::board::{Board, ClassicPuzzle};
use crate::engine::model::grid::{char_of, Cell, Grid, ParseError, Shape};
use crate::engine::model::rules::{Cage, CageError, Rules, RulesError};
use crate::engine::model::validate::{conflicts, Conflict};

/// Why a board and its rules are not a puzzle a solver may take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The board's text is not a grid.
    #[error(transparent)]
    Board(#[from] ParseError),
    /// The rules are malformed (cages, regions, windows on a grid without them).
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// Givens repeat a digit in a row, column, box or cage: every such repeat.
    #[error("{}", join(.0))]
    Conflicts(Vec<Conflict>),
}

impl From<CageError> for PuzzleError {
    fn from(error: CageError) -> PuzzleError {
        PuzzleError::Rules(error.into())
    }
}

fn join(conflicts: &[Conflict]) -> String {
    conflicts
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A grid whose givens do not clash under its rules: the only thing the engines search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    grid: Grid,
    rules: Rules,
    /// The compact copy the classic engines work on, when the rules are classic 9x9.
    classic: Option<ClassicPuzzle>,
}

impl Puzzle {
    /// Accepts `grid` under `rules` (made for the grid's shape) unless givens clash; the
    /// error lists every clash.
    pub fn new(grid: Grid, rules: Rules) -> Result<Puzzle, PuzzleError> {
        debug_assert_eq!(grid.shape(), rules.shape());
        // Classic 9x9 (nearly every request): the board's branch-free check says whether any
        // given clashes; only then does the descriptive pass below build the list. Both
        // check the same rows, columns and boxes, so they agree.
        let classic = match rules
            .is_classic()
            .then(|| Board::from_grid(&grid))
            .flatten()
        {
            Some(board) => ClassicPuzzle::new(board).ok(),
            None => None,
        };
        if classic.is_none() {
            let found = conflicts(&grid, &rules);
            if !found.is_empty() {
                return Err(PuzzleError::Conflicts(found));
            }
        }
        Ok(Puzzle {
            grid,
            rules,
            classic,
        })
    }

    /// A puzzle with the shape's rows, columns and boxes only.
    pub fn classic(grid: Grid) -> Result<Puzzle, PuzzleError> {
        let rules = Rules::classic(grid.shape());
        Puzzle::new(grid, rules)
    }

    /// A puzzle from a grid and the cages as a caller describes them (none for a classic
    /// puzzle): the cages are validated against the grid's shape first.
    pub fn with_cages(grid: Grid, cages: Vec<Cage>) -> Result<Puzzle, PuzzleError> {
        let rules = Rules::for_cages(grid.shape(), cages)?;
        Puzzle::new(grid, rules)
    }

    /// The classic puzzle of a 9x9 board, without a round trip through a [`Grid`] search.
    pub fn from_classic(puzzle: ClassicPuzzle) -> Puzzle {
        Puzzle {
            grid: puzzle.board().to_grid(),
            rules: Rules::classic(Shape::NINE),
            classic: Some(puzzle),
        }
    }

    /// The givens.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.grid.shape()
    }

    /// The compact 9x9 copy, when the puzzle is classic (9x9, rows, columns and boxes only):
    /// what the classic engines take.
    pub fn as_classic(&self) -> Option<&ClassicPuzzle> {
        self.classic.as_ref()
    }

    /// A stable name for the puzzle, derived from its givens and rules only: the same puzzle
    /// has the same id on every server and every version, in whatever form it was sent.
    /// 64-bit FNV-1a of a canonical description; an identifier, not a secret (collisions
    /// become likely only past billions of puzzles).
    pub fn id(&self) -> String {
        puzzle_id(&self.grid, &self.rules)
    }

    /// "9x9", "16x16 Killer", "9x9 Jigsaw X": how the puzzle is named in messages about
    /// what an operation supports.
    pub fn kind(&self) -> String {
        self.rules.kind()
    }
}

/// The id [`Puzzle::id`] gives, for any grid and rules, valid or not (an id names what was
/// sent; it does not vouch for it).
///
/// The hash of a canonical text: the grid's one-line form, then the cages, regions,
/// diagonals and windows. The text is hashed as it is produced, never built: this runs for
/// nearly every request.
pub fn puzzle_id(grid: &Grid, rules: &Rules) -> String {
    let mut hash = StableHasher::default();
    for &value in grid.raw() {
        // One-line characters are ASCII ('.', digits, letters).
        hash.write(&[char_of(value) as u8]);
    }
    // Each constraint writes its part in registry order: the cages first, so that classic
    // and Killer ids stay what they were before variants, then regions, diagonals, windows.
    rules.identify(&mut hash);
    hash.id()
}

/// 64-bit FNV-1a (Fowler, Noll, Vo): tiny, fixed forever, and good enough for identifiers
/// (puzzle ids, entity tags) that must be the same on every replica and release.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut hash = StableHasher::default();
    hash.write(bytes);
    hash.0
}

/// [`stable_hash`] fed piece by piece (and by `write!`), without building the text.
struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl StableHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// "p" and the hash in 16 lowercase hex digits.
    fn id(&self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = [b'p'; 17];
        for (i, digit) in text[1..].iter_mut().enumerate() {
            *digit = HEX[(self.0 >> (60 - 4 * i) & 0xf) as usize];
        }
        // ASCII: no per-character encoding (a `char` collect cost 480 instructions a request).
        std::str::from_utf8(&text).expect("ASCII").to_owned()
    }
}

impl fmt::Write for StableHasher {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.write(text.as_bytes());
        Ok(())
    }
}

/// A full grid that obeys every rule of its puzzle and keeps its givens.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution(Grid);

impl Solution {
    /// Wraps a grid an engine found (or built) and knows to be a solution.
    pub(crate) fn new(grid: Grid) -> Solution {
        debug_assert!(grid.is_full());
        Solution(grid)
    }

    /// The filled grid.
    pub fn grid(&self) -> &Grid {
        &self.0
    }

    /// One string per row.
    pub fn to_rows(&self) -> Vec<String> {
        self.0.to_rows()
    }

    /// All digits in reading order.
    pub fn to_line(&self) -> String {
        self.0.to_line()
    }

    /// The cells where `self` and `other` differ, in reading order.
    pub fn differences(&self, other: &Solution) -> Vec<Cell> {
        let shape = self.0.shape();
        shape
            .all_cells()
            .filter(|&c| self.0.get(c) != other.0.get(c))
            .collect()
    }
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How much searching one call did; for logs, answers and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branch points: cells where propagation stalled and a digit was tried.
    pub guesses: u64,
    /// Branches that ended in a contradiction.
    pub dead_ends: u64,
}

/// The answer of a counting search, of either solver: the facade's answers hold
/// [`Solution`]s; the band solver's own answer holds its compact boards (`Counted<Board>`),
/// so a bulk caller of the fast path pays for no conversion it does not need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted<S = Solution> {
    /// Solutions found, at most the limit asked for: with limit 2, 2 means "more than one".
    pub count: u32,
    /// The first solution found, if any: a full grid that obeys every rule and keeps the
    /// givens.
    pub first: Option<S>,
    /// Another solution, when the count reached 2: proof that the first is not the only one.
    pub second: Option<S>,
    pub stats: Stats,
}

impl<S> Counted<S> {
    /// No solution and no search: what givens that clash have.
    pub(crate) fn none() -> Counted<S> {
        Counted {
            count: 0,
            first: None,
            second: None,
            stats: Stats::default(),
        }
    }

    /// Exactly one solution (meaningful when the limit was at least 2).
    pub fn is_unique(&self) -> bool {
        self.count == 1
    }

    /// The same answer with each solution converted by `convert`.
    pub fn map<T>(self, mut convert: impl FnMut(S) -> T) -> Counted<T> {
        Counted {
            count: self.count,
            first: self.first.map(&mut convert),
            second: self.second.map(&mut convert),
            stats: self.stats,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::cages::CAGE;

    #[test]
    fn classic_puzzles_keep_a_compact_copy_and_others_do_not() {
        let nine = Grid::from_line(&".".repeat(81)).unwrap();
        let puzzle = Puzzle::classic(nine.clone()).unwrap();
        assert!(puzzle.as_classic().is_some());
        assert_eq!(puzzle.kind(), "9x9");
        let caged = Puzzle::with_cages(
            nine,
            vec![Cage {
                sum: Some(3),
                cells: vec![(0, 0), (0, 1)],
            }],
        )
        .unwrap();
        assert!(caged.as_classic().is_none());
        assert_eq!(caged.kind(), "9x9 Killer");
        let four = Puzzle::classic(Grid::from_line(&".".repeat(16)).unwrap()).unwrap();
        assert!(four.as_classic().is_none());
        assert_eq!(four.kind(), "4x4");
    }

    /// Ids are promised stable across releases: these were computed by the first
    /// implementation (a canonical text, then FNV-1a) and must never change.
    const PINNED: [&str; 8] = [
        "p5035d5c1621c8239",
        "peb79efd2ea4eb1ff",
        "p6917b8828943f14c",
        "p3ec36ff29f363d42",
        "p4f853d4bb1d8efc4",
        "pdca4116e09964b3e",
        "p7254fe562c5570eb",
        "pe0f68f2fc4ac1f90",
    ];

    #[test]
    fn ids_stay_what_they_were() {
        use crate::engine::model::rules::RuleSpec;
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let grid = Grid::from_line(line).unwrap();
        let small = Grid::from_line("1.....3..2......").unwrap();
        let big = Grid::from_line(&format!("G{}", ".".repeat(255))).unwrap();
        let cages = vec![
            Cage {
                sum: Some(17),
                cells: vec![(8, 8), (8, 7)],
            },
            Cage {
                sum: Some(3),
                cells: vec![(0, 1), (0, 2)],
            },
        ];
        let jigsaw: Vec<Vec<Option<String>>> = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| {
                        Some(format!(
                            "r{}",
                            match (r, c) {
                                (2, 2) => 1,
                                (0, 3) => 0,
                                _ => Shape::NINE.box_of(r, c),
                            }
                        ))
                    })
                    .collect()
            })
            .collect();
        let spec = |regions, diagonals, windows| RuleSpec {
            regions,
            diagonals,
            windows,
            ..RuleSpec::default()
        };
        let ids = [
            puzzle_id(&grid, &Rules::classic(Shape::NINE)),
            puzzle_id(&small, &Rules::classic(small.shape())),
            puzzle_id(&big, &Rules::classic(big.shape())),
            puzzle_id(&grid, &Rules::for_cages(Shape::NINE, cages).unwrap()),
            puzzle_id(
                &grid,
                &Rules::new(Shape::NINE, spec(None, true, true)).unwrap(),
            ),
            puzzle_id(
                &grid,
                &Rules::new(Shape::NINE, spec(None, true, false)).unwrap(),
            ),
            puzzle_id(
                &grid,
                &Rules::new(Shape::NINE, spec(None, false, true)).unwrap(),
            ),
            puzzle_id(
                &grid,
                &Rules::new(Shape::NINE, spec(Some(jigsaw), false, false)).unwrap(),
            ),
        ];
        assert_eq!(ids, PINNED);
    }

    #[test]
    fn an_id_names_the_puzzle_not_how_its_rules_were_written() {
        use crate::engine::model::rules::RuleSpec;
        let grid = Grid::from_line(&".".repeat(81)).unwrap();
        let cage = |sum, cells: &[(usize, usize)]| Cage {
            sum: Some(sum),
            cells: cells.to_vec(),
        };
        let a = vec![cage(3, &[(0, 0), (0, 1)]), cage(17, &[(8, 7), (8, 8)])];
        let b = vec![cage(17, &[(8, 8), (8, 7)]), cage(3, &[(0, 1), (0, 0)])];
        let id = |cages| puzzle_id(&grid, &Rules::for_cages(Shape::NINE, cages).unwrap());
        assert_eq!(
            id(a.clone()),
            id(b),
            "cage order and cell order do not matter"
        );
        assert_ne!(id(a), id(vec![cage(3, &[(0, 0), (0, 1)])]));
        // Regions drawn as the boxes are the classic rules: same id, same fast solver.
        let boxes: Vec<Vec<Option<String>>> = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| Some(format!("b{}", Shape::NINE.box_of(r, c))))
                    .collect()
            })
            .collect();
        let drawn = Rules::new(
            Shape::NINE,
            RuleSpec {
                regions: Some(boxes),
                ..RuleSpec::default()
            },
        )
        .unwrap();
        assert!(drawn.is_classic());
        assert_eq!(
            puzzle_id(&grid, &drawn),
            puzzle_id(&grid, &Rules::classic(Shape::NINE))
        );
    }

    /// The classic fast check and the descriptive pass agree: every single extra given put
    /// into a valid 9x9 puzzle is accepted exactly when it clashes with nothing, and a
    /// refusal lists what the descriptive pass finds.
    #[test]
    fn a_classic_9x9_puzzle_is_refused_exactly_when_givens_clash() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        for index in 0..81 {
            for digit in 1..=9u8 {
                let mut cells = line.as_bytes().to_vec();
                cells[index] = b'0' + digit;
                let grid = Grid::from_line(std::str::from_utf8(&cells).unwrap()).unwrap();
                let rules = Rules::classic(Shape::NINE);
                let expected = conflicts(&grid, &rules);
                match Puzzle::new(grid, rules) {
                    Ok(puzzle) => {
                        assert!(expected.is_empty(), "{index} {digit}");
                        assert!(puzzle.as_classic().is_some());
                    }
                    Err(PuzzleError::Conflicts(found)) => assert_eq!(found, expected),
                    Err(other) => panic!("{other:?}"),
                }
            }
        }
    }

    #[test]
    fn every_clash_is_reported_cages_included() {
        let grid = Grid::from_rows(&["11..", "....", "....", "...."]).unwrap();
        let err = Puzzle::classic(grid).unwrap_err();
        let PuzzleError::Conflicts(found) = &err else {
            panic!("{err:?}");
        };
        assert_eq!(found.len(), 2); // row 1 and box 1
        assert_eq!(
            err.to_string(),
            "digit 1 repeats in row 1: row 1, column 1 and row 1, column 2; \
             digit 1 repeats in box 1: row 1, column 1 and row 1, column 2"
        );
        // Two 1s that share no row, column or box, but share a cage.
        let grid = Grid::from_rows(&["1...", "...1", "....", "...."]).unwrap();
        let cage = Cage {
            sum: Some(10),
            cells: vec![(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
        };
        let err = Puzzle::with_cages(grid.clone(), vec![cage]).unwrap_err();
        assert!(
            matches!(
                err,
                PuzzleError::Rules(RulesError::Cages(CageError::TooLarge { .. }))
            ),
            "{err}"
        );
        let cage = Cage {
            sum: Some(6),
            cells: vec![(0, 2), (0, 3), (1, 3)],
        };
        assert!(Puzzle::with_cages(grid.clone(), vec![cage]).is_ok());
        let cage = Cage {
            sum: Some(10),
            cells: vec![(0, 0), (0, 1), (0, 2), (0, 3)],
        };
        // Row 1 holds one 1; the cage covers row 1 only: fine.
        assert!(Puzzle::with_cages(grid.clone(), vec![cage]).is_ok());
        let grid = Grid::from_rows(&["1...", "..1.", "....", "...."]).unwrap();
        let cage = Cage {
            sum: Some(10),
            cells: vec![(0, 0), (0, 1), (0, 2), (1, 2)],
        };
        let PuzzleError::Conflicts(found) = Puzzle::with_cages(grid, vec![cage]).unwrap_err()
        else {
            panic!("a clash in a cage is a conflict");
        };
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].unit.kind, CAGE);
        assert_eq!(
            found[0].to_string(),
            "digit 1 repeats in cage 1: row 1, column 1 and row 2, column 3"
        );
    }

    #[test]
    fn ids_depend_on_the_puzzle_only() {
        let line = ".".repeat(80) + "1";
        let a = Puzzle::classic(Grid::from_line(&line).unwrap()).unwrap();
        let rows: Vec<String> = Grid::from_line(&line).unwrap().to_rows();
        let b = Puzzle::classic(Grid::from_rows(&rows).unwrap()).unwrap();
        assert_eq!(a.id(), b.id());
        assert_eq!(a.id().len(), 17);
        // Pinned: ids are promised to stay the same across versions.
        assert_eq!(stable_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(stable_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        let other = Puzzle::classic(Grid::from_line(&".".repeat(81)).unwrap()).unwrap();
        assert_ne!(a.id(), other.id());
        let caged = Puzzle::with_cages(
            Grid::from_line(&line).unwrap(),
            vec![Cage {
                sum: Some(3),
                cells: vec![(0, 0), (0, 1)],
            }],
        )
        .unwrap();
        assert_ne!(a.id(), caged.id());
    }

    #[test]
    fn solutions_name_the_cells_where_they_differ() {
        let a = Solution::new(Grid::from_rows(&["1234", "3412", "2143", "4321"]).unwrap());
        let b = Solution::new(Grid::from_rows(&["1234", "3412", "2341", "4123"]).unwrap());
        let cells: Vec<String> = a.differences(&b).iter().map(ToString::to_string).collect();
        assert_eq!(
            cells,
            [
                "row 3, column 2",
                "row 3, column 4",
                "row 4, column 2",
                "row 4, column 4"
            ]
        );
        assert!(a.differences(&a).is_empty());
    }
}
