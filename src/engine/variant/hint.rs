//! Hints for every size and rule set the logic engine does not cover (other sizes, Killer,
//! X, Hyper, Jigsaw), in the same [`Hint`] shape as the classic ones.
//!
//! The order is the classic one: a repeated digit first, then (with one solution) the first
//! wrong entry, then a step, then a revealed cell. The steps are the singles every player of
//! every variant uses, over the basic pencil marks of the rules ([`Marks::basic`]: every
//! house and cage, with cage sums): a hidden single (a digit with one place left in a house)
//! before a naked single (a cell with one digit left). When neither exists, the empty cell
//! with the fewest marks is revealed from the solution.

use super::solver::VariantSolver;
use crate::engine::budget::{Budget, Exhausted};
use crate::engine::grid::{Cell, Digit, Grid};
use crate::engine::logic::hint::the_solution;
use crate::engine::logic::{Hint, Step, Technique};
use crate::engine::marks::Marks;
use crate::engine::puzzle::{Puzzle, PuzzleError};
use crate::engine::rules::Rules;
use crate::engine::validate::conflicts;

/// What to tell a player looking at `board`, a position of the puzzle `givens` under
/// `rules`; `Err` only for the budget's deadline or cancellation (running out of work while
/// checking the puzzle is [`Hint::Undecided`]).
pub fn hint(
    board: &Grid,
    givens: &Grid,
    rules: &Rules,
    solver: &mut VariantSolver,
    budget: &Budget,
) -> Result<Hint, Exhausted> {
    if let Some(conflict) = conflicts(board, rules).into_iter().next() {
        return Ok(Hint::Conflict(conflict));
    }
    let puzzle = match Puzzle::new(givens.clone(), rules.clone()) {
        Ok(puzzle) => puzzle,
        Err(PuzzleError::Conflicts(found)) if !found.is_empty() => {
            return Ok(Hint::Conflict(found[0].clone()))
        }
        // The rules were built for this grid's shape: nothing else can fail.
        Err(_) => return Ok(Hint::Unsolvable),
    };
    let counted = solver
        .count_solutions(&puzzle, 2, budget)
        .map(|counted| (counted.count, counted.first));
    let truth = match the_solution(counted)? {
        Ok(solution) => solution,
        Err(hint) => return Ok(hint),
    };
    for (cell, entered) in board.givens() {
        if let Some(correct) = truth.grid().get(cell) {
            if correct != entered {
                return Ok(Hint::Mistake {
                    pos: cell,
                    entered,
                    correct,
                });
            }
        }
    }
    if board.is_full() {
        return Ok(Hint::Solved);
    }
    let marks = Marks::basic(board, rules, budget)?;
    if let Some(step) = hidden_single(board, rules, &marks).or_else(|| naked_single(board, &marks))
    {
        return Ok(Hint::Step {
            setup: Vec::new(),
            step,
        });
    }
    let empty = board
        .shape()
        .all_cells()
        .filter(|&c| board.get(c).is_none())
        .min_by_key(|&c| (marks.digits(c).len(), c));
    Ok(
        match empty.and_then(|c| truth.grid().get(c).map(|d| (c, d))) {
            Some((pos, digit)) => Hint::Reveal {
                setup: Vec::new(),
                pos,
                digit,
            },
            None => Hint::Solved,
        },
    )
}

/// The first house (in the rules' order) where a digit has one place left.
fn hidden_single(board: &Grid, rules: &Rules, marks: &Marks) -> Option<Step> {
    let side = board.shape().side();
    rules.houses().find_map(|unit| {
        let cells = rules.cells_of(unit);
        Digit::up_to(side).find_map(|digit| {
            if cells.iter().any(|&c| board.get(c) == Some(digit)) {
                return None;
            }
            let mut places = cells.iter().filter(|&&c| marks.digits(c).contains(&digit));
            let (Some(&cell), None) = (places.next(), places.next()) else {
                return None;
            };
            Some(Step::placing(
                Technique::HiddenSingle,
                Technique::HiddenSingle.base_rating().tenths(),
                (cell, digit),
                vec![unit],
                format!("In {unit}, {digit} can only go in {cell}."),
            ))
        })
    })
}

/// The first empty cell (reading order) with one digit left.
fn naked_single(board: &Grid, marks: &Marks) -> Option<Step> {
    board.shape().all_cells().find_map(|cell: Cell| {
        let digits = marks.digits(cell);
        match digits[..] {
            [digit] if board.get(cell).is_none() => Some(Step::placing(
                Technique::NakedSingle,
                Technique::NakedSingle.base_rating().tenths(),
                (cell, digit),
                Vec::new(),
                format!("{cell} can only hold {digit}: its houses and cage leave no other digit.",),
            )),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grid::Shape;
    use crate::engine::rules::RuleSpec;

    fn hint_for(board: &str, givens: &str, rules: &Rules) -> Hint {
        hint(
            &Grid::from_line(board).unwrap(),
            &Grid::from_line(givens).unwrap(),
            rules,
            &mut VariantSolver::new(),
            &Budget::unlimited(),
        )
        .unwrap()
    }

    #[test]
    fn a_four_by_four_gets_singles_then_a_solved_board() {
        let rules = Rules::classic(Shape::FOUR);
        let puzzle = "1.....3..4.....2";
        let Hint::Step { step, .. } = hint_for(puzzle, puzzle, &rules) else {
            panic!("expected a step");
        };
        assert_eq!(step.technique, Technique::HiddenSingle);
        let (cell, digit) = step.placements[0];
        // Sound: the placement agrees with the one solution.
        assert_eq!(
            Grid::from_line("1324423124133142").unwrap().get(cell),
            Some(digit)
        );
        assert!(step.explanation.starts_with("In "), "{}", step.explanation);
        let solved = "1324423124133142";
        assert_eq!(hint_for(solved, puzzle, &rules), Hint::Solved);
    }

    #[test]
    fn conflicts_mistakes_and_ambiguity_come_first() {
        let rules = Rules::new(
            Shape::NINE,
            RuleSpec {
                diagonals: true,
                ..RuleSpec::default()
            },
        )
        .unwrap();
        let mut clash = vec!['.'; 81];
        clash[0] = '5';
        clash[40] = '5';
        let clash: String = clash.iter().collect();
        assert!(matches!(
            hint_for(&clash, &clash, &rules),
            Hint::Conflict(_)
        ));
        let empty = ".".repeat(81);
        assert_eq!(hint_for(&empty, &empty, &rules), Hint::MultipleSolutions);
    }

    #[test]
    fn following_the_hints_solves_every_variant_with_sound_steps() {
        use crate::engine::generate::Symmetry;
        use crate::engine::variant::{generate_variant, Variant};
        for variant in Variant::ALL {
            let made = generate_variant(
                variant,
                4,
                Symmetry::None,
                &mut VariantSolver::new(),
                &Budget::unlimited(),
            )
            .unwrap();
            let givens = made.puzzle.grid().clone();
            let rules = made.puzzle.rules();
            let mut board = givens.clone();
            let (mut steps, mut reveals) = (0, 0);
            loop {
                let next = hint(
                    &board,
                    &givens,
                    rules,
                    &mut VariantSolver::new(),
                    &Budget::unlimited(),
                )
                .unwrap();
                let (cell, digit) = match next {
                    Hint::Step { step, .. } => {
                        steps += 1;
                        step.placements[0]
                    }
                    Hint::Reveal { pos, digit, .. } => {
                        reveals += 1;
                        (pos, digit)
                    }
                    Hint::Solved => break,
                    other => panic!("{variant:?}: {other:?}"),
                };
                assert_eq!(
                    made.solution.get(cell),
                    Some(digit),
                    "{variant:?} at {cell}"
                );
                board.set(cell, Some(digit)).unwrap();
                assert!(steps + reveals <= 81);
            }
            assert_eq!(board, made.solution);
            assert!(
                steps > reveals,
                "{variant:?}: {steps} steps, {reveals} reveals"
            );
        }
    }

    #[test]
    fn a_wrong_entry_is_named_with_the_right_digit() {
        let rules = Rules::classic(Shape::FOUR);
        let puzzle = "1.....3..4.....2";
        // r1c2 is 3 in the solution 1324...; a 2 there repeats nothing.
        let Hint::Mistake {
            pos,
            entered,
            correct,
        } = hint_for("12....3..4.....2", puzzle, &rules)
        else {
            panic!("expected a mistake");
        };
        assert_eq!((pos, entered.get(), correct.get()), (Cell::at(0, 1), 2, 3));
    }
}
