//! Technique tests on hand-made positions, and soundness over real puzzles.
//!
//! The hand-made positions start from an empty grid (every mark present) and remove marks
//! until exactly one pattern exists, so each test pins the technique `next_step` picks (nothing
//! easier applies) and its exact eliminations.

use super::test_support::{candidates, grade, hint, hint_with_givens, next_step, solution_of};
use super::*;
use crate::engine::budget::Budget;
use crate::engine::model::board::{classic_conflicts, classic_digits, ClassicPuzzle};
use crate::engine::solve::band::Solver;

/// 1-based, as in the explanations.
fn p(row: usize, col: usize) -> Cell {
    Cell::new(row - 1, col - 1).unwrap()
}

fn d(value: u8) -> Digit {
    Digit::new(value).unwrap()
}

fn open_grid() -> Candidates<'static> {
    Candidates::new(&Board::empty())
}

fn remove(marks: &mut Candidates, cells: impl IntoIterator<Item = Cell>, digits: &[u8]) {
    for pos in cells {
        for &v in digits {
            marks.eliminate(pos, d(v));
        }
    }
}

fn row_cells(row: usize, cols: &[usize]) -> Vec<Cell> {
    cols.iter().map(|&c| p(row, c)).collect()
}

fn elims(cells: &[Cell], digits: &[u8]) -> Vec<(Cell, Digit)> {
    let mut out: Vec<(Cell, Digit)> = cells
        .iter()
        .flat_map(|&pos| digits.iter().map(move |&v| (pos, d(v))))
        .collect();
    out.sort();
    out
}

#[test]
fn naked_single() {
    let mut marks = open_grid();
    marks.restrict(p(1, 1), &[5]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::NakedSingle);
    assert_eq!(step.placements, vec![(p(1, 1), d(5))]);
    assert_eq!(
        step.explanation,
        "Row 1, column 1 has only one candidate left, 5."
    );
}

#[test]
fn hidden_single_in_a_box() {
    let mut marks = open_grid();
    let others: Vec<Cell> = (4..=6)
        .flat_map(|r| (4..=6).map(move |c| p(r, c)))
        .filter(|&q| q != p(4, 6))
        .collect();
    remove(&mut marks, others, &[7]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::HiddenSingle);
    assert_eq!(step.placements, vec![(p(4, 6), d(7))]);
    assert_eq!(
        step.explanation,
        "In box 5, 7 can only go in row 4, column 6."
    );
}

#[test]
fn hidden_single_in_a_row_names_the_column() {
    let mut marks = open_grid();
    remove(&mut marks, row_cells(3, &[1, 2, 3, 4, 6, 7, 8, 9]), &[7]);
    // Box 2 still has 7 in rows 1 and 2, so the row is the first unit with one place.
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::HiddenSingle);
    assert_eq!(step.placements, vec![(p(3, 5), d(7))]);
    assert_eq!(step.explanation, "In row 3, 7 can only go in column 5.");
}

#[test]
fn locked_candidates_pointing() {
    let mut marks = open_grid();
    remove(&mut marks, row_cells(5, &[4, 5, 6]), &[7]);
    remove(&mut marks, row_cells(6, &[4, 5, 6]), &[7]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::LockedCandidatesPointing);
    assert_eq!(
        step.eliminations,
        elims(&row_cells(4, &[1, 2, 3, 7, 8, 9]), &[7])
    );
    assert_eq!(step.cells, row_cells(4, &[4, 5, 6]));
    assert_eq!(
        step.explanation,
        "In box 5, 7 can only go in row 4, so 7 is removed from the rest of row 4."
    );
}

#[test]
fn locked_candidates_claiming() {
    let mut marks = open_grid();
    remove(&mut marks, row_cells(4, &[1, 2, 3, 7, 8, 9]), &[7]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::LockedCandidatesClaiming);
    let mut expected = row_cells(5, &[4, 5, 6]);
    expected.extend(row_cells(6, &[4, 5, 6]));
    assert_eq!(step.eliminations, elims(&expected, &[7]));
    assert_eq!(
        step.explanation,
        "In row 4, 7 can only go in box 5, so 7 is removed from the rest of box 5."
    );
}

#[test]
fn naked_pair() {
    let mut marks = open_grid();
    marks.restrict(p(3, 2), &[4, 9]);
    marks.restrict(p(3, 7), &[4, 9]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::NakedPair);
    assert_eq!(
        step.eliminations,
        elims(&row_cells(3, &[1, 3, 4, 5, 6, 8, 9]), &[4, 9])
    );
    assert_eq!(step.digits, vec![d(4), d(9)]);
    assert_eq!(
        step.explanation,
        "Row 3, columns 2 and 7 hold only 4 and 9, so 4 and 9 are removed from the rest of row 3."
    );
}

#[test]
fn hidden_pair() {
    let mut marks = open_grid();
    remove(&mut marks, row_cells(3, &[1, 3, 4, 5, 6, 8, 9]), &[4, 9]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::HiddenPair);
    assert_eq!(
        step.eliminations,
        elims(&row_cells(3, &[2, 7]), &[1, 2, 3, 5, 6, 7, 8])
    );
    assert_eq!(
        step.explanation,
        "In row 3, 4 and 9 can only go in columns 2 and 7, so the other candidates are removed \
         from those cells."
    );
}

#[test]
fn naked_triple() {
    let mut marks = open_grid();
    marks.restrict(p(5, 1), &[1, 2]);
    marks.restrict(p(5, 4), &[2, 3]);
    marks.restrict(p(5, 9), &[1, 3]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::NakedTriple);
    assert_eq!(
        step.eliminations,
        elims(&row_cells(5, &[2, 3, 5, 6, 7, 8]), &[1, 2, 3])
    );
    assert_eq!(step.cells, row_cells(5, &[1, 4, 9]));
    assert_eq!(
        step.explanation,
        "Row 5, columns 1, 4 and 9 hold only 1, 2 and 3, so 1, 2 and 3 are removed from the rest \
         of row 5."
    );
}

#[test]
fn hidden_triple() {
    let mut marks = open_grid();
    remove(&mut marks, row_cells(5, &[2, 3, 5, 6, 7, 8]), &[1, 2, 3]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::HiddenTriple);
    assert_eq!(
        step.eliminations,
        elims(&row_cells(5, &[1, 4, 9]), &[4, 5, 6, 7, 8, 9])
    );
}

#[test]
fn x_wing() {
    let mut marks = open_grid();
    remove(&mut marks, row_cells(2, &[1, 2, 4, 5, 6, 7, 9]), &[5]);
    remove(&mut marks, row_cells(7, &[1, 2, 4, 5, 6, 7, 9]), &[5]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::XWing);
    let expected: Vec<Cell> = [1, 3, 4, 5, 6, 8, 9]
        .iter()
        .flat_map(|&r| [p(r, 3), p(r, 8)])
        .collect();
    assert_eq!(step.eliminations, elims(&expected, &[5]));
    assert_eq!(step.cells, vec![p(2, 3), p(2, 8), p(7, 3), p(7, 8)]);
    assert_eq!(
        step.explanation,
        "In rows 2 and 7, 5 can only go in columns 3 and 8, so 5 is removed from the rest of \
         columns 3 and 8."
    );
}

#[test]
fn swordfish() {
    let mut marks = open_grid();
    remove(&mut marks, row_cells(1, &[2, 3, 5, 6, 7, 8, 9]), &[5]);
    remove(&mut marks, row_cells(5, &[1, 2, 3, 5, 6, 8, 9]), &[5]);
    remove(&mut marks, row_cells(9, &[2, 3, 4, 5, 6, 8, 9]), &[5]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::Swordfish);
    let expected: Vec<Cell> = [2, 3, 4, 6, 7, 8]
        .iter()
        .flat_map(|&r| [p(r, 1), p(r, 4), p(r, 7)])
        .collect();
    assert_eq!(step.eliminations, elims(&expected, &[5]));
    assert_eq!(step.cells.len(), 6);
}

#[test]
fn xy_wing() {
    let mut marks = open_grid();
    marks.restrict(p(1, 1), &[4, 7]);
    marks.restrict(p(1, 5), &[4, 9]);
    marks.restrict(p(3, 2), &[7, 9]);
    let step = next_step(&marks).unwrap();
    assert_eq!(step.technique, Technique::XyWing);
    let expected = [p(1, 2), p(1, 3), p(3, 4), p(3, 5), p(3, 6)];
    assert_eq!(step.eliminations, elims(&expected, &[9]));
    assert_eq!(step.cells, vec![p(1, 1), p(1, 5), p(3, 2)]);
    assert_eq!(
        step.explanation,
        "Row 1, column 1 is 4 or 7; if 4, row 1, column 5 is 9, and if 7, row 3, column 2 is 9, \
         so 9 is removed from every cell that sees both of them."
    );
}

#[test]
fn technique_names_round_trip_and_all_is_in_search_order() {
    for pair in Technique::ALL.windows(2) {
        assert!(pair[0] < pair[1]);
    }
    for t in Technique::ALL {
        assert_eq!(Technique::from_name(t.name()), Some(t));
    }
    assert_eq!(Technique::XyWing.name(), "xy_wing");
    assert_eq!(Technique::XyWing.base_rating(), Rating::from_tenths(42));
    assert_eq!(Technique::NakedSingle.difficulty(), Difficulty::Medium);
    assert_eq!(Technique::XChain.difficulty(), Difficulty::Master);
}

#[test]
fn nothing_to_do_on_a_solved_or_open_grid() {
    assert_eq!(next_step(&open_grid()), None);
    let solved = Board::from_line(
        "957348216134265879268197534729584163483612957615739428392456781871923645546871392",
    )
    .unwrap();
    assert_eq!(next_step(&Candidates::new(&solved)), None);
}

// ---- Real puzzles -------------------------------------------------------------------------

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Arto Inkala's "world's hardest": far beyond these techniques.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn puzzle(line: &str) -> ClassicPuzzle {
    ClassicPuzzle::new(Board::from_line(line).unwrap()).unwrap()
}

/// From the unbiased set: needs pointing, claiming, a naked pair and an XY-Wing (and more).
const WING: &str =
    ".2.6.......6..71......1.....7...52...9546......4..18...4.8..92...2.74..8.....6..3";
/// From the unbiased set: needs a hidden pair that is not a direct one (SE calls a pair that
/// yields a single at once a direct hidden pair), then claiming and the singles finish it.
const HIDDEN_PAIR: &str =
    "..36.......6...7..7.9.5.63...2.1............8..736.2.9...1.3.4.9.1.....2.6..2.5..";

/// The first `n` puzzles of a shared data file (`../shared/data`, beside the repository);
/// none, said on stderr, when it is absent (a failure with `SUDOKU_REQUIRE_DATA=1`, as in CI:
/// see `crate::test_data`). Every assertion below holds on the built-in puzzles alone; the
/// data only adds positions.
fn data_file(name: &str, n: usize) -> Vec<ClassicPuzzle> {
    let what = format!("logic tests: {n} more positions from {name}");
    let Some(path) = crate::test_data::shared_data(name, &what) else {
        return Vec::new();
    };
    let text = std::fs::read_to_string(&path).expect("readable data file");
    let puzzles: Vec<ClassicPuzzle> = text
        .lines()
        .filter_map(|l| Board::from_line(l.trim()).ok())
        .filter_map(|b| ClassicPuzzle::new(b).ok())
        .take(n)
        .collect();
    assert_eq!(puzzles.len(), n, "{name}: too few puzzles");
    puzzles
}

/// Runs the logical solver, checking every step against the true solution. Returns the number
/// of steps taken.
fn check_sound(puzzle: &ClassicPuzzle, solver: &mut Solver) -> usize {
    let counted = solver
        .count_solutions(puzzle, 2, &Budget::unlimited())
        .unwrap();
    assert!(counted.is_unique(), "{}", puzzle.board());
    let truth = counted.first.unwrap();
    let mut marks = Candidates::new(puzzle.board());
    let mut steps = 0;
    while let Some(step) = next_step(&marks) {
        assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
        for &(pos, digit) in &step.placements {
            assert_eq!(
                truth.get(pos),
                Some(digit),
                "{step:?} on {}",
                puzzle.board()
            );
        }
        for &(pos, digit) in &step.eliminations {
            assert!(marks.contains(pos, digit), "no-op elimination in {step:?}");
            assert_ne!(
                truth.get(pos),
                Some(digit),
                "{step:?} on {}",
                puzzle.board()
            );
        }
        marks.apply(&step);
        steps += 1;
        assert!(steps < 81 + 729);
    }
    assert!(!marks.has_contradiction());
    steps
}

#[test]
fn every_step_agrees_with_the_solution() {
    let mut solver = Solver::new();
    let mut puzzles = vec![
        puzzle(EASY),
        puzzle(INKALA),
        puzzle(WING),
        puzzle(HIDDEN_PAIR),
    ];
    puzzles.extend(data_file("unbiased_first1000.txt", 30));
    puzzles.extend(data_file("magictour_top1465.txt", 20));
    let mut used = std::collections::BTreeSet::new();
    for p in &puzzles {
        check_sound(p, &mut solver);
        let mut marks = Candidates::new(p.board());
        while let Some(step) = next_step(&marks) {
            used.insert(step.technique);
            marks.apply(&step);
        }
    }
    // The built-in puzzles alone meet these in real positions.
    for t in [
        Technique::HiddenSingle,
        Technique::LockedCandidatesPointing,
        Technique::LockedCandidatesClaiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::XyWing,
    ] {
        assert!(used.contains(&t), "{t} never used: {used:?}");
    }
}

#[test]
fn grades_span_the_bands() {
    let easy = grade(&puzzle(EASY));
    assert_eq!(easy.difficulty(), Some(Difficulty::Easy));
    assert!(!easy.needs_guessing());
    assert!(easy.score > 0);
    assert!(easy.hardest <= Some(Technique::HiddenSingle));
    let total: u32 = easy.counts.values().sum();
    assert_eq!(total as usize, 81 - puzzle(EASY).board().given_count());

    let hard = grade(&puzzle(INKALA));
    assert_eq!(hard.difficulty(), Some(Difficulty::Extreme));
    assert!(hard.lower_bound() >= Rating::from_tenths(90));

    let full = grade(&puzzle(
        "957348216134265879268197534729584163483612957615739428392456781871923645546871392",
    ));
    assert_eq!(full.difficulty(), Some(Difficulty::Easy));
    assert_eq!(full.hardest, None);
}

#[test]
fn a_capped_grade_gives_up_past_the_cells_allowed_and_only_with_a_cap() {
    use super::grade::{grade_with, Enough, HardPart};
    let wing = puzzle(WING);
    let givens = wing.board().given_count();
    let unique = Assumptions::unique();
    let graded = |enough| grade_with(&wing, &unique, enough, &Budget::unlimited()).unwrap();
    let whole = graded(Enough::ALL);
    let rating = whole.rating().expect("the techniques finish it");
    let cap = Rating::from_tenths(rating.tenths() - 1);

    // The hardest step comes before the grid is full: the cap stops the grade there.
    let in_time = graded(Enough {
        above: Some(cap),
        hard_part: Some(HardPart {
            cells: 81,
            reaching: rating,
        }),
    });
    assert_eq!(in_time.stopped(), Some(Stopped::AboveCap));
    assert_eq!(in_time.lower_bound(), rating);

    // Allowed no more cells than the givens, it gives up before its first step.
    let at_once = graded(Enough {
        above: Some(cap),
        hard_part: Some(HardPart {
            cells: givens,
            reaching: rating,
        }),
    });
    assert_eq!(at_once.stopped(), Some(Stopped::PastTheHardPart));
    assert!(at_once.counts.is_empty());
    assert_eq!(at_once.difficulty(), None, "a bet is no level");

    // A few cells in, it keeps what it learnt, below the cap.
    let early = graded(Enough {
        above: Some(cap),
        hard_part: Some(HardPart {
            cells: givens + 3,
            reaching: rating,
        }),
    });
    assert_eq!(early.stopped(), Some(Stopped::PastTheHardPart));
    assert!(!early.counts.is_empty() && early.lower_bound() <= cap);

    // Without a cap every step counts: the cells allowed are ignored.
    let uncapped = graded(Enough {
        above: None,
        hard_part: Some(HardPart {
            cells: givens,
            reaching: rating,
        }),
    });
    assert_eq!(uncapped, whole);

    // Under a cap above the puzzle (a closed range's maximum) the bet reads the minimum,
    // not the cap: a solve that has reached it is graded to the end, one that has not by
    // then is given up.
    let high_cap = Some(Rating::from_tenths(200));
    let reached = graded(Enough {
        above: high_cap,
        hard_part: Some(HardPart {
            cells: givens + 3,
            reaching: Rating::from_tenths(10),
        }),
    });
    assert_eq!(reached, whole);
    let missed = graded(Enough {
        above: high_cap,
        hard_part: Some(HardPart {
            cells: givens + 3,
            reaching: Rating::from_tenths(rating.tenths() + 1),
        }),
    });
    assert_eq!(missed.stopped(), Some(Stopped::PastTheHardPart));
}

#[test]
fn an_empty_grid_needs_guessing() {
    let g = grade(&ClassicPuzzle::new(Board::empty()).unwrap());
    assert!(g.needs_guessing());
    assert_eq!(g.stopped(), Some(Stopped::NotUnique));
    assert_eq!(g.rating(), None, "an unfinished solve has no rating");
    assert_eq!(g.difficulty(), None, "nor a level: it is no puzzle");
    assert_eq!(g.score, 0);
}

#[test]
fn candidates_with_techniques_never_lose_the_solution() {
    let mut refined_any = false;
    for p in data_file("magictour_top1465.txt", 10)
        .into_iter()
        .chain([puzzle(INKALA), puzzle(WING)])
    {
        let truth = solution_of(&p);
        let basic = candidates(p.board(), false);
        let refined = candidates(p.board(), true);
        assert_eq!(refined.board(), p.board(), "no digit is placed");
        for pos in Cell::all().filter(|&q| !refined.is_filled(q)) {
            let digit = truth.get(pos).unwrap();
            assert!(refined.contains(pos, digit));
            assert!(refined.count(pos) <= basic.count(pos));
            refined_any |= refined.count(pos) < basic.count(pos);
        }
        let fixpoint = search::pencil_mark_step(&refined, &Budget::unlimited()).unwrap();
        assert!(fixpoint.is_none(), "fixpoint");
    }
    assert!(refined_any, "the techniques removed no mark at all");
}

// ---- Hints --------------------------------------------------------------------------------

#[test]
fn hint_reports_a_clash_first() {
    let mut line = EASY.to_string();
    line.replace_range(0..1, "3"); // row 1 already has a 3
    let board = Board::from_line(&line).unwrap();
    let h = hint(&board, &mut Solver::new());
    assert!(matches!(h, Hint::Conflict(_)), "{h:?}");
    assert_eq!(h.kind(), "conflict");
}

#[test]
fn hint_names_a_wrong_entry_against_the_givens() {
    let givens = Board::from_line(EASY).unwrap();
    let mut solver = Solver::new();
    let truth = solution_of(&puzzle(EASY));
    // Enter a digit that is legal on the board but not the solution's.
    let pos = p(1, 1);
    let mut board = givens;
    let wrong = classic_digits()
        .filter(|&x| Some(x) != truth.get(pos))
        .find(|&x| {
            board.set(pos, Some(x));
            classic_conflicts(&board).is_empty()
        })
        .unwrap();
    board.set(pos, Some(wrong));
    let h = hint_with_givens(&givens, &board, &mut solver);
    assert_eq!(
        h,
        Hint::Mistake {
            pos,
            entered: wrong,
            correct: truth.get(pos).unwrap()
        }
    );
    assert!(h.to_string().contains("row 1, column 1"));
}

#[test]
fn hint_on_bad_puzzles() {
    let mut solver = Solver::new();
    assert_eq!(hint(&Board::empty(), &mut solver), Hint::MultipleSolutions);
    // Row 1 needs a 9 in column 9, but column 9 already has one: no solution.
    let broken =
        Board::from_line(&format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63))).unwrap();
    assert_eq!(hint(&broken, &mut solver), Hint::Unsolvable);
    let tight = super::hint(puzzle(INKALA).board(), &mut solver, &Budget::work(0));
    assert_eq!(tight, Ok(Hint::Undecided));
}

#[test]
fn hint_gives_the_next_step_and_says_solved_at_the_end() {
    let mut solver = Solver::new();
    let board = Board::from_line(EASY).unwrap();
    let Hint::Step { setup, step } = hint(&board, &mut solver) else {
        panic!("expected a step");
    };
    assert!(setup.is_empty());
    assert!(!step.placements.is_empty());
    let truth = solution_of(&puzzle(EASY));
    assert_eq!(hint(&truth, &mut solver), Hint::Solved);
}

#[test]
fn hint_reveals_a_cell_when_logic_is_stuck() {
    let mut solver = Solver::new();
    let board = Board::from_line(INKALA).unwrap();
    let truth = solution_of(&puzzle(INKALA));
    match hint(&board, &mut solver) {
        Hint::Reveal { pos, digit, .. } => assert_eq!(truth.get(pos), Some(digit)),
        other => panic!("expected a reveal, got {other:?}"),
    }
}

#[test]
fn following_hints_solves_the_puzzle() {
    let mut solver = Solver::new();
    let mut board = Board::from_line(INKALA).unwrap();
    for _ in 0..81 {
        match hint(&board, &mut solver) {
            Hint::Step { step, .. } => {
                for (pos, digit) in step.placements {
                    board.set(pos, Some(digit));
                }
            }
            Hint::Reveal { pos, digit, .. } => board.set(pos, Some(digit)),
            Hint::Solved => return,
            other => panic!("unexpected {other:?}"),
        }
    }
    panic!("not solved after 81 hints");
}

// ---- Any input ----------------------------------------------------------------------------

mod any_board {
    use super::*;
    use proptest::prelude::*;

    /// Sparse boards of arbitrary digits: many break the rules, some have no solution.
    fn boards() -> impl Strategy<Value = Board> {
        proptest::collection::vec((0usize..81, 1u8..=9), 0..30).prop_map(|givens| {
            let mut board = Board::empty();
            for (i, v) in givens {
                board.set(Cell::from_index(i), Digit::new(v));
            }
            board
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Marks, steps, grades and hints never panic and always end, whatever the board.
        #[test]
        fn logic_is_total(board in boards(), givens in boards()) {
            let refined = candidates(&board, true);
            prop_assert_eq!(refined.board(), &board);
            let mut marks = Candidates::new(&board);
            let mut steps = 0;
            while let Some(step) = next_step(&marks) {
                prop_assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
                marks.apply(&step);
                steps += 1;
                prop_assert!(steps <= 81 + 729);
            }
            if let Ok(puzzle) = ClassicPuzzle::new(board) {
                let g = grade(&puzzle);
                prop_assert_eq!(g.rating().is_none(), g.stopped().is_some());
                prop_assert!(
                    !g.needs_guessing() || g.difficulty().is_none_or(|d| d == Difficulty::Extreme)
                );
            }
            let mut solver = Solver::new();
            let tight = Budget::work(2_000);
            let _ = super::super::hint(&board, &mut solver, &tight);
            let _ = super::super::hint_with_givens(&givens, &board, &mut solver, &tight)
                .map(|h| h.to_string());
        }
    }
}

#[test]
fn a_capped_grade_that_runs_out_of_techniques_is_bounded_by_those_the_cap_left_out() {
    use super::grade::{grade_with, Enough};
    let hard = puzzle(INKALA);
    let unique = Assumptions::unique();
    // Up to 2.0 the search runs only singles and direct techniques; when they stall, the
    // next step needs one of those left out, the easiest of which is the naked single (2.3),
    // not a technique beyond every other (9.5).
    let cap = Rating::from_tenths(20);
    let capped = grade_with(&hard, &unique, Enough::above(cap), &Budget::unlimited()).unwrap();
    assert_eq!(capped.stopped(), Some(Stopped::NoTechnique));
    assert!(
        capped.hardest <= Some(Technique::DirectHiddenPair),
        "{capped:?}"
    );
    assert_eq!(capped.lower_bound(), Rating::from_tenths(23));
    // Without the cap, the same puzzle is beyond every technique: 9.5 at least.
    let whole = grade_with(&hard, &unique, Enough::ALL, &Budget::unlimited()).unwrap();
    assert_eq!(whole.stopped(), Some(Stopped::NoTechnique));
    assert!(whole.lower_bound() >= Rating::from_tenths(95), "{whole:?}");
}
