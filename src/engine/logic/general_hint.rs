//! Hints for every size and rule set the classic path does not take (other sizes, Killer,
//! X, Hyper, Jigsaw), in the same [`Hint`] shape as the classic ones.
//!
//! The order is the classic one: a repeated digit first, then (with one solution) the first
//! wrong entry, then a step, then a revealed cell. On a 9x9 board of any rule set the step is
//! the logic engine's (its geometry holds the variant's houses and cages, and its Killer
//! techniques the cage sums). Other sizes get the singles every player of every variant uses,
//! over the basic pencil marks of the rules ([`Marks::basic`]: every house and cage, with
//! cage sums): a hidden single (a digit with one place left in a house) before a naked single
//! (a cell with one digit left), then for Killer puzzles the rule of 45 (a house's cages leave
//! one cell's digit). When none applies, the empty cell with the fewest marks is revealed
//! from the solution.

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::logic::hint::{first_mistake, next_hint, the_solution, RevealWhy};
use crate::engine::logic::marks::{parts, Marks};
use crate::engine::logic::Geometry;
use crate::engine::logic::{Hint, Step, Technique};
use crate::engine::model::board::Board;
use crate::engine::model::constraints::DistinctSum;
use crate::engine::model::grid::{Cell, Digit, Grid};
use crate::engine::model::puzzle::{Puzzle, PuzzleError};
use crate::engine::model::rules::Rules;
use crate::engine::model::validate::{conflicts, Unit};
use crate::engine::solve::general::GeneralSolver;

/// What to tell a player looking at `board`, a position of the puzzle `givens` under
/// `rules`; `Err` only for the budget's deadline or cancellation (running out of work while
/// checking the puzzle is [`Hint::Undecided`]).
pub fn hint(
    board: &Grid,
    givens: &Grid,
    rules: &Rules,
    solver: &mut GeneralSolver,
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
    // A 9x9 board of any rule set gets the logic engine's techniques.
    if let (Some(geometry), Some(compact), Some(solution)) = (
        Geometry::for_rules(rules),
        Board::from_grid(board),
        Board::from_grid(truth.grid()),
    ) {
        return next_hint(&compact, &solution, &geometry, budget);
    }
    if let Some(mistake) = first_mistake(board, truth.grid()) {
        return Ok(mistake);
    }
    if board.is_full() {
        return Ok(Hint::Solved);
    }
    // Singles by the houses first; then the setter's constraints one at a time, each a
    // step of its own that the single it leads to comes after; then the rule of 45.
    let mut visits = 0u64;
    let mut marks = Marks::of_houses(board, rules, &mut visits);
    let mut setup = Vec::new();
    if let Some(step) = single(board, rules, &marks) {
        return Ok(Hint::Step { setup, step });
    }
    let parts = parts(rules);
    let mut progressed = true;
    while progressed {
        progressed = false;
        for part in &parts {
            let before = marks.clone();
            if !marks.narrow_by(board, part, &mut visits) {
                continue;
            }
            progressed = true;
            setup.push(constraint_step(part.unit(), marks.lost_since(&before)));
            if let Some(step) = single(board, rules, &marks) {
                return Ok(Hint::Step { setup, step });
            }
        }
        budget.charge(visits / 1000)?;
        visits %= 1000;
    }
    if let Some(step) = rule_of_45(board, rules) {
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
                why: RevealWhy::NoTechnique,
            },
            None => Hint::Solved,
        },
    )
}

/// A hidden single, else a naked single.
fn single(board: &Grid, rules: &Rules, marks: &Marks) -> Option<Step> {
    hidden_single(board, rules, marks).or_else(|| naked_single(board, marks))
}

/// The step of a constraint's `unit` that removed `lost` from the marks.
fn constraint_step(unit: Unit, lost: Vec<(Cell, Digit)>) -> Step {
    let mut cells: Vec<Cell> = lost.iter().map(|&(cell, _)| cell).collect();
    cells.dedup();
    let said: Vec<String> = cells
        .iter()
        .map(|&cell| {
            let digits: Vec<String> = (lost.iter())
                .filter(|&&(c, _)| c == cell)
                .map(|(_, d)| d.to_string())
                .collect();
            format!("{} from {cell}", list(&digits))
        })
        .collect();
    let explanation = format!(
        "{}: with the digits its cells still allow, it rules out {}.",
        capitalised(&unit.to_string()),
        list(&said)
    );
    let digits = lost.iter().map(|&(_, d)| d).collect();
    Step::eliminating(
        Technique::Constraint,
        Technique::Constraint.base_rating(),
        lost,
        cells,
        digits,
        vec![unit],
        explanation,
    )
}

/// "a", "a and b", "a, b and c".
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `text` with its first letter upper-case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
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

/// Killer's rule of 45 on one house at a time: the digits of a house add up to
/// `side * (side + 1) / 2`. An *innie*: the cages wholly inside the house, plus its filled
/// cells, leave one empty cell, whose digit is the rest. An *outie*: the cages touching the
/// house cover it, and stick out by one empty cell (the others filled), whose digit is what
/// the cages hold beyond the house. The first house (rules' order) with either.
fn rule_of_45(board: &Grid, rules: &Rules) -> Option<Step> {
    let sums = rules.house_table().distinct_sums();
    if sums.is_empty() {
        return None;
    }
    let side = board.shape().side() as u32;
    let total = side * (side + 1) / 2;
    let value = |cell: Cell| board.get(cell).map_or(0, |d| u32::from(d.get()));
    let place = |cell: Cell, sum: u32, unit, how: String| {
        let digit = Digit::new(u8::try_from(sum).ok()?)?;
        (board.get(cell).is_none() && digit.get() as u32 <= side).then(|| {
            Step::placing(
                Technique::RuleOf45,
                Technique::RuleOf45.base_rating().tenths(),
                (cell, digit),
                vec![unit],
                how,
            )
        })
    };
    rules.houses().find_map(|unit| {
        let house = rules.cells_of(unit);
        // Cages without a sum say nothing of totals: their cells count as uncovered.
        let touching: Vec<&DistinctSum> = (sums.iter())
            .filter(|cage| cage.cells.iter().any(|c| house.contains(c)))
            .collect();
        let inside: Vec<&DistinctSum> = (touching.iter().copied())
            .filter(|cage| cage.cells.iter().all(|c| house.contains(c)))
            .collect();
        // Innie: what the inside cages and the filled cells leave.
        let covered: Vec<Cell> = (inside.iter())
            .flat_map(|cage| cage.cells.iter().copied())
            .collect();
        let rest: Vec<Cell> = house
            .iter()
            .copied()
            .filter(|c| !covered.contains(c))
            .collect();
        let open: Vec<Cell> = rest
            .iter()
            .copied()
            .filter(|&c| board.get(c).is_none())
            .collect();
        if let [cell] = open[..] {
            let known: u32 = inside.iter().map(|cage| cage.total).sum::<u32>()
                + rest.iter().map(|&c| value(c)).sum::<u32>();
            if let Some(step) = total.checked_sub(known).and_then(|sum| {
                place(
                    cell,
                    sum,
                    unit,
                    format!(
                        "The digits of {unit} add up to {total}; its cages and filled cells \
                         account for {known}, so {cell} is {sum}."
                    ),
                )
            }) {
                return Some(step);
            }
        }
        // Outie: the touching cages cover the house and stick out by one empty cell.
        let all: Vec<Cell> = (touching.iter())
            .flat_map(|cage| cage.cells.iter().copied())
            .collect();
        if !house.iter().all(|c| all.contains(c)) {
            return None;
        }
        let outside: Vec<Cell> = all.iter().copied().filter(|c| !house.contains(c)).collect();
        let open: Vec<Cell> = outside
            .iter()
            .copied()
            .filter(|&c| board.get(c).is_none())
            .collect();
        let [cell] = open[..] else {
            return None;
        };
        let cage_total: u32 = touching.iter().map(|cage| cage.total).sum();
        let known = total + outside.iter().map(|&c| value(c)).sum::<u32>();
        cage_total.checked_sub(known).and_then(|sum| {
            place(
                cell,
                sum,
                unit,
                format!(
                    "The cages covering {unit} add up to {cage_total}, its digits to {total}; \
                     the cells sticking out hold the difference, so {cell} is {sum}."
                ),
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::grid::Shape;
    use crate::engine::model::rules::RuleSpec;

    fn hint_for(board: &str, givens: &str, rules: &Rules) -> Hint {
        hint(
            &Grid::from_line(board).unwrap(),
            &Grid::from_line(givens).unwrap(),
            rules,
            &mut GeneralSolver::new(),
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
        use crate::engine::generate::variant::{generate_variant, Variant};
        use crate::engine::generate::Symmetry;
        for variant in Variant::ALL {
            let made = generate_variant(
                variant,
                4,
                Symmetry::None,
                &mut GeneralSolver::new(),
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
                    &mut GeneralSolver::new(),
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
                    made.solution.grid().get(cell),
                    Some(digit),
                    "{variant:?} at {cell}"
                );
                board.set(cell, Some(digit)).unwrap();
                assert!(steps + reveals <= 81);
            }
            assert_eq!(&board, made.solution.grid());
            assert!(
                steps > reveals,
                "{variant:?}: {steps} steps, {reveals} reveals"
            );
        }
    }

    #[test]
    fn the_rule_of_45_finds_an_innie_and_an_outie() {
        use crate::engine::model::rules::Cage;
        // The shifted-rows grid of 4x4: 1234 / 3412 / 2143 / 4321.
        let solution = Grid::from_line("1234341221434321").unwrap();
        let cage = |cells: Vec<(usize, usize)>| Cage {
            sum: Some(
                cells
                    .iter()
                    .map(|&(r, c)| u32::from(solution.get(Cell::at(r, c)).unwrap().get()))
                    .sum(),
            ),
            cells,
        };
        // Innie: row 1 holds a cage over its first three cells: r1c4 is 10 - 6 = 4.
        let rules =
            Rules::for_cages(Shape::FOUR, vec![cage(vec![(0, 0), (0, 1), (0, 2)])]).unwrap();
        let step = rule_of_45(&Grid::empty(Shape::FOUR), &rules).unwrap();
        assert_eq!(
            step.placements,
            vec![(Cell::at(0, 3), Digit::new(4).unwrap())]
        );
        assert!(
            step.explanation.contains("add up to 10"),
            "{}",
            step.explanation
        );
        // Outie: cages covering row 1 stick out by r2c4: 1+2 + 3+4+2 = 12, so r2c4 is 2.
        let rules = Rules::for_cages(
            Shape::FOUR,
            vec![
                cage(vec![(0, 0), (0, 1)]),
                cage(vec![(0, 2), (0, 3), (1, 3)]),
            ],
        )
        .unwrap();
        let step = rule_of_45(&Grid::empty(Shape::FOUR), &rules).unwrap();
        assert_eq!(
            step.placements,
            vec![(Cell::at(1, 3), Digit::new(2).unwrap())]
        );
        assert_eq!(step.technique.name(), "rule_of_45");
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

    #[test]
    fn a_constraint_that_makes_a_single_is_its_setup_step() {
        // 2143 / 3412 / 1234 / 4321 with a swappable rectangle (r1c1, r1c2, r3c1, r3c2)
        // left empty: only the arrow (r3c2 is the 2 at r4c3) tells the two grids apart.
        let rules = Rules::new(
            Shape::FOUR,
            RuleSpec {
                arrows: vec![crate::engine::model::rules::Arrow {
                    circle: vec![(2, 1)],
                    lines: vec![vec![(3, 2)]],
                }],
                ..RuleSpec::default()
            },
        )
        .unwrap();
        let board = "..433412..344321";
        let Hint::Step { setup, step } = hint_for(board, board, &rules) else {
            panic!("expected a step");
        };
        assert_eq!(setup.len(), 1);
        assert_eq!(setup[0].technique, Technique::Constraint);
        assert_eq!(
            setup[0].eliminations,
            [(Cell::at(2, 1), Digit::new(1).unwrap())]
        );
        assert_eq!(
            setup[0].explanation,
            "Arrow 1: with the digits its cells still allow, it rules out 1 from row 3, \
             column 2."
        );
        assert_eq!(step.technique, Technique::HiddenSingle);
        assert_eq!(step.placements, [(Cell::at(2, 0), Digit::new(1).unwrap())]);
    }
}
