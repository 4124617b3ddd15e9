//! The canonical form of a classic puzzle: one representative for every puzzle that is the
//! same puzzle in disguise.
//!
//! Classic Sudoku keeps its rules under 3,359,232 rearrangements of the grid (transpose or
//! not; the three bands in any order and the three rows of each band in any order; the same
//! for stacks and columns: 2 x 6^8) and under the 9! relabellings of the digits. Two puzzles
//! related by those are one puzzle to a solver (same difficulty, same techniques, a solution
//! that maps across), so a bank that wants distinct puzzles compares canonical forms.
//!
//! The canonical form is the *minimal lexicographic* image: read in reading order, with
//! empty cells as 0, the smallest 81-digit string any rearrangement and relabelling gives.
//! For a given rearrangement the best relabelling is forced (digits numbered 1, 2, 3... in
//! the order they first appear), so the search is over rearrangements only, built one output
//! row at a time:
//!
//! * The transposition and the order of the stacks are tried outright (12 ways); the order of
//!   the columns inside each stack is kept *open*: columns that have only held empty cells so
//!   far are still interchangeable (a "tie group"), and each new row orders them as far as its
//!   values say (empty cells first, then digits already numbered by their number, then new
//!   digits, whose relative order is a real choice, so it branches).
//! * Each output row takes one input row the band structure still allows; of the candidates
//!   at a node only those whose row reads smallest are followed (any other is beaten by them
//!   whatever comes after, since everything before is the same), and a node whose prefix
//!   reads above the best complete form found so far is dropped.
//!
//! A typical puzzle settles in a few hundred row evaluations (BENCHMARKS.md has the rate);
//! the worst inputs are grids with a great many automorphisms, such as a full solution grid,
//! where the first row's nine new digits open 216 column orders per start (tens of
//! milliseconds at most). Every input is bounded by the group's size.
//!
//! Only classic rules here: a puzzle with more houses or forbidden pairs (X, Hyper,
//! anti-king...) keeps a smaller group (its extra rules must map onto themselves), small
//! enough to try in full (`variant_forms.rs`), as is a Jigsaw (its regions move with the
//! grid's turns and mirrors); a Killer's cages name digits, and have no form.

use crate::engine::budget::{Budget, Exhausted, Meter};
use crate::engine::model::board::{Board, ClassicPuzzle, CELLS, ORDERS_OF_THREE, SIZE};
use crate::engine::random::SplitMix64;

/// The canonical form of a valid classic puzzle (see the module docs). Puzzles that are the
/// same up to symmetry and relabelling, and only those, have the same form; the form is
/// itself a valid puzzle, the same puzzle in disguise.
///
/// The search charges `budget` for every row it reads (see [`ROWS_PER_UNIT`]), so that the
/// rare inputs with a great many symmetries cost what any job may cost.
pub fn canonical_form(puzzle: &ClassicPuzzle, budget: &Budget) -> Result<ClassicPuzzle, Exhausted> {
    let cells = minimal_image(puzzle.board().raw(), budget)?;
    // The image only permutes rows, columns and digits in ways that map every row, column
    // and box onto a row, column or box: a repeat in it would be one in the puzzle.
    Ok(ClassicPuzzle::new(Board::from_raw(cells))
        .unwrap_or_else(|_| unreachable!("a rearrangement of a valid puzzle is valid")))
}

/// Rows the search reads per work unit (a unit is about a microsecond of CPU), measured by
/// `examples/canonical_bench.rs`.
pub(crate) const ROWS_PER_UNIT: u64 = 8;

/// `cells` in a random disguise: a random element of the classic symmetry group (bands and
/// the rows in each, stacks and the columns in each, shuffled; transposed or not) and a
/// random relabelling of the digits. What the generators shuffle a grid with, and what the
/// tests disguise puzzles with.
pub(crate) fn random_disguise(cells: &[u8; CELLS], random: &mut SplitMix64) -> [u8; CELLS] {
    let mut relabel: Vec<u8> = (1..=9).collect();
    random.shuffle(&mut relabel);
    let rows = band_order(random);
    let cols = band_order(random);
    let transpose = random.below(2) == 1;
    let mut out = [0u8; CELLS];
    for r in 0..SIZE {
        for c in 0..SIZE {
            let (from_row, from_col) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            out[r * SIZE + c] = match cells[from_row * SIZE + from_col] {
                0 => 0,
                digit => relabel[usize::from(digit) - 1],
            };
        }
    }
    out
}

/// An order of the 9 lines that keeps bands together: the bands shuffled, and the lines
/// within each.
fn band_order(random: &mut SplitMix64) -> [usize; SIZE] {
    let mut bands = [0, 1, 2];
    random.shuffle(&mut bands);
    let mut order = [0; SIZE];
    for (slot, band) in bands.into_iter().enumerate() {
        let mut within = [0, 1, 2];
        random.shuffle(&mut within);
        for (k, line) in within.into_iter().enumerate() {
            order[slot * 3 + k] = band * 3 + line;
        }
    }
    order
}

/// The columns of the output grid as the search has fixed them so far: `order[j]` is the
/// input column shown in output column `j`, and bit `j` of `tied` says output column `j + 1`
/// may still swap with column `j` (they have held only empty cells so far).
#[derive(Clone, Copy)]
struct Columns {
    order: [u8; SIZE],
    tied: u16,
}

/// A node of the search: the output rows filled so far and what they fixed.
#[derive(Clone, Copy)]
struct Node {
    /// The input rows used, as a bit set.
    rows_used: u16,
    /// The input band shown in each output band (valid up to the bands started).
    bands: [u8; 3],
    columns: Columns,
    /// The number each input digit got (0: not numbered yet) and the next free number.
    labels: [u8; 10],
    next_label: u8,
}

/// One output row evaluated for a node: which input row, how the columns were ordered by it,
/// what it reads, and which output positions hold digits numbered by this row.
#[derive(Clone, Copy)]
struct RowChoice {
    input_row: u8,
    columns: Columns,
    reads: [u8; SIZE],
    /// Bit `j`: output column `j` holds a digit this row numbers first.
    fresh: u16,
}

struct Search<'b> {
    meter: Meter<'b>,
    /// The puzzle as given (`grids[0]`) and transposed (`grids[1]`), row-major.
    grids: [[[u8; SIZE]; SIZE]; 2],
    /// The orientation of the branch being searched.
    grid: usize,
    /// The output being built, row by row.
    current: [u8; CELLS],
    /// The smallest complete image found so far (`u8::MAX` until one is).
    best: [u8; CELLS],
}

/// The minimal image of a valid puzzle's cells (0 empty, rows distinct, columns distinct).
pub(crate) fn minimal_image(
    cells: &[u8; CELLS],
    budget: &Budget,
) -> Result<[u8; CELLS], Exhausted> {
    let mut grids = [[[0u8; SIZE]; SIZE]; 2];
    for r in 0..SIZE {
        for c in 0..SIZE {
            grids[0][r][c] = cells[r * SIZE + c];
            grids[1][c][r] = cells[r * SIZE + c];
        }
    }
    let mut search = Search {
        meter: Meter::new(budget, ROWS_PER_UNIT),
        grids,
        grid: 0,
        current: [0; CELLS],
        best: [u8::MAX; CELLS],
    };
    // The first output row: every orientation, stack order and input row, and only the
    // starts whose row reads smallest go on.
    let mut starts: Vec<(usize, Node, RowChoice)> = Vec::with_capacity(2 * 6 * SIZE);
    for grid in 0..2 {
        search.grid = grid;
        for stacks in ORDERS_OF_THREE {
            let mut order = [0u8; SIZE];
            for (slot, &stack) in stacks.iter().enumerate() {
                for i in 0..3 {
                    order[slot * 3 + i] = (stack * 3 + i) as u8;
                }
            }
            // Columns tie inside a stack only: 0-1, 1-2, 3-4, 4-5, 6-7, 7-8.
            let columns = Columns {
                order,
                tied: 0b1101_1011,
            };
            let root = Node {
                rows_used: 0,
                bands: [0; 3],
                columns,
                labels: [0; 10],
                next_label: 1,
            };
            for input_row in 0..SIZE as u8 {
                starts.push((grid, root, search.evaluate(&root, input_row)?));
            }
        }
    }
    // The loops above push 2 x 6 x 9 starts unconditionally (an error returns before).
    let least = starts
        .iter()
        .map(|(_, _, choice)| choice.reads)
        .min()
        .unwrap_or_else(|| unreachable!("108 starts"));
    for (grid, node, choice) in starts {
        if choice.reads == least {
            search.grid = grid;
            search.follow(&node, 0, &choice)?;
        }
    }
    Ok(search.best)
}

impl Search<'_> {
    /// Fills output rows `row..` below `node`: the candidates for `row`, the smallest
    /// reading ones followed.
    fn descend(&mut self, node: &Node, row: usize) -> Result<(), Exhausted> {
        if row == SIZE {
            if self.current < self.best {
                self.best = self.current;
            }
            return Ok(());
        }
        let mut choices = [None::<RowChoice>; 3 * 3];
        let mut count = 0;
        for input_row in self.candidates(node, row) {
            choices[count] = Some(self.evaluate(node, input_row)?);
            count += 1;
        }
        let choices = &choices[..count];
        let Some(least) = choices.iter().flatten().map(|c| c.reads).min() else {
            return Ok(());
        };
        // Everything above this row is the same for every candidate; against the best
        // form so far, this row decides.
        let start = row * SIZE;
        let mut prefix = [0u8; CELLS];
        prefix[..start].copy_from_slice(&self.current[..start]);
        prefix[start..start + SIZE].copy_from_slice(&least);
        if prefix[..start + SIZE] > self.best[..start + SIZE] {
            return Ok(());
        }
        for choice in choices.iter().flatten() {
            if choice.reads == least {
                self.follow(node, row, choice)?;
            }
        }
        Ok(())
    }

    /// The input rows output row `row` may show: the rest of the current band, or at the
    /// start of a band any row of a band not shown yet.
    fn candidates(&self, node: &Node, row: usize) -> impl Iterator<Item = u8> {
        let used = node.rows_used;
        let band = node.bands[row / 3];
        let starts_band = row % 3 == 0;
        (0..SIZE as u8).filter(move |&r| {
            if used & (1 << r) != 0 {
                return false;
            }
            if starts_band {
                // A band is unused when none of its rows is.
                used & (0b111 << (r / 3 * 3)) == 0
            } else {
                r / 3 == band
            }
        })
    }

    /// How input row `input_row` reads as the next output row under `node`'s columns, with
    /// the columns of each tie group ordered by it.
    fn evaluate(&mut self, node: &Node, input_row: u8) -> Result<RowChoice, Exhausted> {
        self.meter.add(1)?;
        let values = &self.grids[self.grid][usize::from(input_row)];
        let mut columns = node.columns;
        let mut reads = [0u8; SIZE];
        let mut fresh = 0u16;
        let mut next_label = node.next_label;
        let mut j = 0;
        while j < SIZE {
            // The tie group starting at j: j..end.
            let mut end = j + 1;
            while end < SIZE && node.columns.tied & (1 << (end - 1)) != 0 {
                end += 1;
            }
            // Order its columns by key: empty (0), numbered digits by number, new digits
            // (keyed above every number, in input order: their order is branched later).
            let key = |column: u8| {
                let value = values[usize::from(column)];
                match (value, node.labels[usize::from(value)]) {
                    (0, _) => 0,
                    (_, 0) => 16 + column,
                    (_, label) => label,
                }
            };
            let group = &mut columns.order[j..end];
            group.sort_unstable_by_key(|&column| key(column));
            for (offset, &column) in group.iter().enumerate() {
                let k = key(column);
                let at = j + offset;
                reads[at] = if k >= 16 {
                    fresh |= 1 << at;
                    next_label += 1;
                    next_label - 1
                } else {
                    k
                };
            }
            // Ties survive only between empty cells of the same group.
            for at in j..end - 1 {
                if reads[at] != 0 || reads[at + 1] != 0 {
                    columns.tied &= !(1 << at);
                }
            }
            j = end;
        }
        Ok(RowChoice {
            input_row,
            columns,
            reads,
            fresh,
        })
    }

    /// Takes `choice` as output row `row`: every order of the new digits inside each tie
    /// group (the row reads the same, the numbering differs), then the rows below.
    fn follow(&mut self, node: &Node, row: usize, choice: &RowChoice) -> Result<(), Exhausted> {
        self.current[row * SIZE..row * SIZE + SIZE].copy_from_slice(&choice.reads);
        let mut next = *node;
        next.rows_used |= 1 << choice.input_row;
        if row % 3 == 0 {
            next.bands[row / 3] = choice.input_row / 3;
        }
        next.next_label = node.next_label + choice.fresh.count_ones() as u8;
        // Runs of new digits that came from one tie group: positions whose order is open.
        let mut runs = [(0usize, 0usize); 3];
        let mut run_count = 0;
        let mut j = 0;
        while j < SIZE {
            let mut end = j + 1;
            while end < SIZE && node.columns.tied & (1 << (end - 1)) != 0 {
                end += 1;
            }
            let first_fresh = (j..end).find(|&at| choice.fresh & (1 << at) != 0);
            if let Some(first) = first_fresh {
                if end - first > 1 {
                    runs[run_count] = (first, end);
                    run_count += 1;
                }
            }
            j = end;
        }
        next.columns = choice.columns;
        self.permute_runs(&mut next, row, choice, &runs[..run_count])
    }

    /// Every order of the columns in each run, then the numbering those orders give, then
    /// the rows below.
    fn permute_runs(
        &mut self,
        node: &mut Node,
        row: usize,
        choice: &RowChoice,
        runs: &[(usize, usize)],
    ) -> Result<(), Exhausted> {
        let Some((&(first, end), rest)) = runs.split_first() else {
            let values = &self.grids[self.grid][usize::from(choice.input_row)];
            let mut numbered = *node;
            for at in 0..SIZE {
                if choice.fresh & (1 << at) != 0 {
                    let value = values[usize::from(numbered.columns.order[at])];
                    numbered.labels[usize::from(value)] = choice.reads[at];
                }
            }
            return self.descend(&numbered, row + 1);
        };
        let original = node.columns.order;
        let len = end - first;
        for order in ORDERS_OF_THREE.iter().filter(|o| len == 3 || o[2] == 2) {
            for (i, &from) in order[..len].iter().enumerate() {
                node.columns.order[first + i] = original[first + from];
            }
            self.permute_runs(node, row, choice, rest)?;
        }
        node.columns.order = original;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 17-clue puzzles and hard ones the tests rearrange.
    const PUZZLES: [&str; 4] = [
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
        "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    ];

    fn form_of(puzzle: &ClassicPuzzle) -> ClassicPuzzle {
        canonical_form(puzzle, &Budget::unlimited()).unwrap()
    }

    fn puzzle(line: &str) -> ClassicPuzzle {
        ClassicPuzzle::new(Board::from_line(line).unwrap()).unwrap()
    }

    /// The plain definition: every one of the 3,359,232 rearrangements, each numbered in
    /// order of first appearance and compared lazily with the least so far. Shares nothing
    /// with the search above but the definition.
    fn minimal_by_enumeration(cells: &[u8; CELLS]) -> [u8; CELLS] {
        let lines: Vec<[usize; SIZE]> = ORDERS_OF_THREE
            .iter()
            .flat_map(|outer| {
                (0..216).map(move |inner| {
                    let mut lines = [0usize; SIZE];
                    for slot in 0..3 {
                        let within = ORDERS_OF_THREE[(inner / 6usize.pow(slot as u32)) % 6];
                        for i in 0..3 {
                            lines[slot * 3 + i] = outer[slot] * 3 + within[i];
                        }
                    }
                    lines
                })
            })
            .collect();
        let mut best = [u8::MAX; CELLS];
        for transpose in [false, true] {
            for rows in &lines {
                for cols in &lines {
                    let mut labels = [0u8; 10];
                    let mut next = 1;
                    let mut image = [0u8; CELLS];
                    let mut smaller = false;
                    for at in 0..CELLS {
                        let (r, c) = (rows[at / SIZE], cols[at % SIZE]);
                        let value = if transpose {
                            cells[c * SIZE + r]
                        } else {
                            cells[r * SIZE + c]
                        };
                        let shown = match value {
                            0 => 0,
                            v if labels[usize::from(v)] != 0 => labels[usize::from(v)],
                            v => {
                                labels[usize::from(v)] = next;
                                next += 1;
                                next - 1
                            }
                        };
                        image[at] = shown;
                        if !smaller {
                            if shown > best[at] {
                                break;
                            }
                            smaller = shown < best[at];
                        }
                        if at == CELLS - 1 && smaller {
                            best = image;
                        }
                    }
                }
            }
        }
        best
    }

    #[test]
    fn disguises_of_a_puzzle_share_its_form() {
        let mut random = SplitMix64::new(7);
        for line in PUZZLES {
            let p = puzzle(line);
            let form = form_of(&p);
            for _ in 0..50 {
                let disguised = ClassicPuzzle::new(Board::from_raw(random_disguise(
                    p.board().raw(),
                    &mut random,
                )))
                .unwrap();
                assert_eq!(form_of(&disguised).board(), form.board(), "{line}");
            }
        }
    }

    #[test]
    fn the_form_is_the_least_image_of_all_rearrangements() {
        for line in &PUZZLES[..2] {
            let p = puzzle(line);
            assert_eq!(
                form_of(&p).board().raw(),
                &minimal_by_enumeration(p.board().raw()),
                "{line}"
            );
        }
    }

    #[test]
    fn different_puzzles_have_different_forms() {
        let forms: Vec<Board> = PUZZLES
            .iter()
            .map(|l| *form_of(&puzzle(l)).board())
            .collect();
        for i in 0..forms.len() {
            for j in i + 1..forms.len() {
                assert_ne!(forms[i], forms[j]);
            }
        }
        // One given more is another puzzle.
        let mut line = PUZZLES[1].to_string();
        line.replace_range(1..2, "1");
        assert_ne!(*form_of(&puzzle(&line)).board(), forms[1]);
    }

    #[test]
    fn empty_and_full_grids_have_the_obvious_forms() {
        let empty = form_of(&puzzle(&".".repeat(81)));
        assert_eq!(empty.board().given_count(), 0);
        let solved =
            "957348216134265879268197534729584163483612957615739428392456781871923645546871392";
        let form = form_of(&puzzle(solved));
        assert!(form.board().to_line().starts_with("123456789"));
        assert_eq!(
            form.board().raw(),
            &minimal_by_enumeration(puzzle(solved).board().raw())
        );
    }
}
