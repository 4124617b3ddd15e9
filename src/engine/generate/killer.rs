//! Seeded generators of 9x9 Killer puzzles: [`random_killer`] (no givens, any difficulty: for
//! tests, benchmarks and `/generate` without a level) and [`generate_killer`] (at a rating).
//!
//! # How
//! 1. A full grid: the band solver's answer for the empty board, shuffled by validity-keeping
//!    moves (digit relabelling, rows within bands, bands, columns within stacks, stacks).
//! 2. A random partition into orthogonally contiguous cages of 1-5 cells whose digits are
//!    distinct in that grid (so the grid solves the cages), sums read off the grid.
//! 3. While the cages admit a second solution (or the check runs out of budget), a cage where
//!    the two solutions differ is split in two contiguous parts and the check is repeated.
//!    Splitting only ever adds information, and all-singleton cages are the grid itself, so
//!    this ends, in practice after a few splits.
//!
//! For a level, [`generate_killer`] then merges cages (harder) or adds givens (easier) until
//! the rating is in range; see there. Deterministic: the same seed gives the same puzzle on
//! every platform.

use crate::engine::model::board::{Board, ClassicPuzzle, CELLS, SIZE};
use crate::engine::solve::general::GeneralSolver;
use std::ops::RangeInclusive;

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::generate::{
    checked_range, fit, run_attempts, stop_for, whole_grade, Fit, GenerateError, Generated,
};
use crate::engine::logic::grade::{grade_marks, Enough};
use crate::engine::logic::{Assumptions, Candidates, Geometry, Grade, Rating};
use crate::engine::model::canonical::random_disguise;
use crate::engine::model::grid::{Grid, Shape};
use crate::engine::model::puzzle::Puzzle;
use crate::engine::model::rules::{Cage, Rules};
use crate::engine::random::SplitMix64;
use crate::engine::solve::band::Solver;

/// Work allowed per uniqueness check; a check that runs out counts as "not unique".
const CHECK_BUDGET: u64 = 200_000;
/// The same on the way to a level (the draw and every merge): a layout that takes longer
/// to prove unique is not worth the wait (another split or merge is cheaper).
const MERGE_CHECK: u64 = 20_000;

/// A killer puzzle (no givens) and its unique solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Killer {
    /// The cages as rules (what a puzzle under them needs).
    pub rules: Rules,
    /// The same cages as lists of cell indices (row * 9 + col, each list in reading order,
    /// the lists in the rules' order), for reshaping them.
    pub cages: Vec<Vec<usize>>,
    pub solution: Grid,
    /// Cage splits needed to make the solution unique, for measuring.
    pub splits: u32,
}

impl Killer {
    /// The puzzle: an empty grid with these cages.
    pub fn puzzle(&self) -> Puzzle {
        Puzzle::new(Grid::empty(Shape::NINE), self.rules.clone())
            .unwrap_or_else(|_| unreachable!("an empty grid has no conflicts"))
    }
}

/// The killer puzzle for `seed` (see the module docs).
pub fn random_killer(seed: u64) -> Killer {
    random_killer_within(seed, &Budget::unlimited())
        .unwrap_or_else(|_| unreachable!("an unlimited budget never stops"))
}

/// [`random_killer`], charging every uniqueness check to `budget`.
pub fn random_killer_within(seed: u64, budget: &Budget) -> Result<Killer, Exhausted> {
    let mut rng = SplitMix64::new(seed);
    draw_killer(
        &mut rng,
        &USUAL_SIZES,
        CHECK_BUDGET,
        &mut GeneralSolver::new(),
        budget,
    )
}

/// Cage sizes by draw: `sizes[rng.below(20)]`. The usual mix is weighted towards cages of
/// 3-5 cells, like published killers (about 30 cages).
const USUAL_SIZES: [usize; 20] = [1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5];

/// A unique killer: a random grid and partition (`sizes` as in [`USUAL_SIZES`]), cages split
/// until one solution remains (see the module docs), each check allowed `check` units.
fn draw_killer(
    rng: &mut SplitMix64,
    sizes: &[usize; 20],
    check: u64,
    solver: &mut GeneralSolver,
    budget: &Budget,
) -> Result<Killer, Exhausted> {
    let grid = random_full_grid(rng);
    let digits = grid.raw().to_vec();
    let mut cages = random_partition(&digits, sizes, rng);
    let mut splits = 0;
    loop {
        let rules = killer_rules(&cages, &digits);
        let other = match unique_or_other(&rules, &Grid::empty(Shape::NINE), check, solver, budget)?
        {
            None => {
                return Ok(Killer {
                    rules,
                    cages: in_reading_order(cages),
                    solution: grid,
                    splits,
                })
            }
            Some(other) => other,
        };
        // A cell where another solution differs, in the largest such cage (so that cage
        // sizes stay even); any multi-cell cage if the check gave up.
        let differing = other.and_then(|o| {
            (0..CELLS)
                .filter(|&i| o[i] != digits[i] && cage_len(&cages, i) > 1)
                .max_by_key(|&i| (cage_len(&cages, i), std::cmp::Reverse(i)))
        });
        let big: Vec<usize> = (0..CELLS).filter(|&i| cage_len(&cages, i) > 1).collect();
        let Some(at) = differing.or_else(|| big.get(rng.below(big.len())).copied()) else {
            // Only single cells left: the cages spell out the grid, which is unique.
            return Ok(Killer {
                rules,
                cages: in_reading_order(cages),
                solution: grid,
                splits,
            });
        };
        split(&mut cages, at);
        splits += 1;
    }
}

/// `None` when the cages have exactly one solution; otherwise `Some` of a second solution's
/// digits (`None` inside when the check ran out of its trial budget, which counts as "not
/// unique"). Deadlines and cancellations are errors.
fn unique_or_other(
    rules: &Rules,
    givens: &Grid,
    work: u64,
    solver: &mut GeneralSolver,
    budget: &Budget,
) -> Result<Option<Option<Vec<u8>>>, Exhausted> {
    // The givens are cells of the full grid the cages' sums were read from, so they
    // repeat no digit in a house or a cage, the only check `Puzzle::new` makes.
    let puzzle = Puzzle::new(givens.clone(), rules.clone())
        .unwrap_or_else(|_| unreachable!("givens from the solution obey its cages"));
    let check = budget.trial(work);
    let counted = solver.count_solutions(&puzzle, 2, &check);
    budget.absorb(&check)?;
    Ok(match counted {
        Ok(counted) if counted.count == 1 => None,
        Ok(counted) => Some(counted.second.map(|s| s.grid().raw().to_vec())),
        Err(_) => Some(None),
    })
}

/// About how many cages a killer at least this hard has (fewer cages, less information),
/// read off the ratings of drawn killers: the merges of a draw aim here before it is rated.
fn cages_for(min: Rating) -> usize {
    match min.tenths() {
        0..HARD_START => CELLS,
        26..=40 => 28,
        41..=59 => 24,
        60..=89 => 23,
        _ => 23,
    }
}

/// Where the `hard` band starts: below it a killer is made easier by splitting a cage (no
/// givens), from it by a given (a finer step).
const HARD_START: u16 = 26;

/// Most givens a generated Killer gets.
const MAX_GIVENS: usize = 4;

/// Most cells a merged cage may have.
const MAX_MERGED: usize = 7;
/// Merges (towards harder) or splits (towards easier) tried on one drawn killer.
const MOVES_PER_DRAW: u32 = 48;
/// Killers rated per call at most, whatever the budget.
const MAX_KILLER_RATINGS: u32 = 2_000;

/// A Killer puzzle (no givens, or a few at the hardest levels) whose rating is in `range`,
/// determined by `seed`:
///
/// 1. a unique killer is drawn ([`draw_killer`], larger cages when the range starts at
///    `hard` or above) and rated, stopping as soon as a step shows it is too hard;
/// 2. too easy: two neighbouring cages whose digits differ are merged (fewer, larger cages
///    say less), kept when the killer stays unique and its rating does not drop;
/// 3. too hard: for the easy and medium levels a cage is split in two, for the others a
///    given from the solution is put in (a finer step); either keeps it unique, and the
///    move is kept while the rating stays above the range;
/// 4. still off target after [`MOVES_PER_DRAW`] moves: another draw, until the budget or
///    [`MAX_KILLER_RATINGS`] runs out ([`GenerateError::NotFound`], never a puzzle outside
///    the range).
pub(crate) fn generate_killer(
    range: RangeInclusive<Rating>,
    seed: u64,
    solver: &mut GeneralSolver,
    budget: &Budget,
) -> Result<Generated, GenerateError> {
    let (min, max) = (*range.start(), *range.end());
    let range = checked_range(range)?;
    let mut search = KillerSearch {
        rng: SplitMix64::new(seed ^ KILLER_STREAM),
        solver,
        budget,
        range,
        ratings: 0,
    };
    run_attempts(min..=max, MAX_KILLER_RATINGS, budget, |attempt| {
        let found = search.attempt().map(|found| {
            found.map(|(layout, grade, solution)| {
                let rules = killer_rules(&layout.cages, solution.raw());
                Generated::from_solution(layout.givens, rules, solution).graded(
                    grade,
                    attempt,
                    search.ratings,
                )
            })
        });
        (found, search.ratings)
    })
}

/// Keeps the Killer levels' draws apart from the unrated killers of the same seed.
const KILLER_STREAM: u64 = 0x4B49_4C4C_4552_0001;

struct KillerSearch<'a> {
    rng: SplitMix64,
    solver: &'a mut GeneralSolver,
    budget: &'a Budget,
    range: RangeInclusive<Rating>,
    ratings: u32,
}

/// A Killer being shaped: its cages (cell indices) and the givens put in to make it easier.
#[derive(Clone)]
struct Layout {
    cages: Vec<Vec<usize>>,
    givens: Grid,
}

impl KillerSearch<'_> {
    /// Rates `layout`, stopping early once too hard.
    fn rate(&mut self, layout: &Layout, digits: &[u8]) -> Result<(Grade, Fit), Exhausted> {
        self.ratings += 1;
        let rules = killer_rules(&layout.cages, digits);
        // 9x9 cages, all with a sum (`to_cages`): houses and sums only, as `for_rules`
        // asks; the givens are a 9x9 grid, all `Board::from_grid` asks.
        let geometry = Geometry::for_rules(&rules).unwrap_or_else(|| unreachable!("9x9"));
        let board = Board::from_grid(&layout.givens).unwrap_or_else(|| unreachable!("9x9"));
        let grade = |stop, budget: &Budget| {
            let marks = Candidates::with_geometry(&board, &geometry);
            grade_marks(marks, &Assumptions::unique(), stop, budget)
        };
        let first = grade(Enough::above(stop_for(&self.range)), self.budget)?;
        let fit = fit(&first, &self.range);
        if fit == Fit::InRange && self.range.end().tenths() == u16::MAX {
            // Stopped at the first step reaching the minimum: the whole grade, if affordable.
            return Ok(
                match whole_grade(self.budget, |trial| grade(Enough::ALL, trial))? {
                    Some(whole) => (whole, fit),
                    None => (first, Fit::TooHard),
                },
            );
        }
        Ok((first, fit))
    }

    /// One draw and the moves from it: the layout in range with its grade and solution.
    fn attempt(&mut self) -> Result<Option<(Layout, Grade, Grid)>, Exhausted> {
        let killer = draw_killer(
            &mut self.rng,
            &USUAL_SIZES,
            MERGE_CHECK,
            self.solver,
            self.budget,
        )?;
        let digits = killer.solution.raw().to_vec();
        let mut layout = Layout {
            cages: killer.cages,
            givens: Grid::empty(Shape::NINE),
        };
        // Fewer cages say less: merge towards the level's count before rating at all.
        let wanted = cages_for(*self.range.start());
        let mut tries = 0;
        while layout.cages.len() > wanted && tries < 3 * MOVES_PER_DRAW {
            tries += 1;
            if let Some(merged) = self.merged(&layout, &digits)? {
                layout = merged;
            }
        }
        let (mut grade, mut fit) = self.rate(&layout, &digits)?;
        for _ in 0..MOVES_PER_DRAW {
            if fit == Fit::InRange {
                return Ok(Some((layout, grade, killer.solution)));
            }
            if self.ratings >= MAX_KILLER_RATINGS {
                return Ok(None);
            }
            let moved = if fit == Fit::TooEasy {
                match self.merged(&layout, &digits)? {
                    Some(merged) => merged,
                    None => continue,
                }
            } else if self.range.start().tenths() < HARD_START {
                // Towards the easy levels: a cage split in two (more to go on, still unique).
                let mut split_layout = layout.clone();
                let big: Vec<usize> = (0..CELLS)
                    .filter(|&i| cage_len(&layout.cages, i) > 1)
                    .collect();
                let Some(&at) = big.get(self.rng.below(big.len())) else {
                    return Ok(None);
                };
                split(&mut split_layout.cages, at);
                split_layout
            } else {
                // A given from the solution: a smaller step easier, and still unique; a
                // Killer keeps few givens, so past that this draw is given up.
                if layout.givens.given_count() >= MAX_GIVENS {
                    return Ok(None);
                }
                let empty: Vec<usize> = (0..CELLS)
                    .filter(|&i| layout.givens.raw()[i] == 0)
                    .collect();
                let Some(&at) = empty.get(self.rng.below(empty.len())) else {
                    return Ok(None);
                };
                let mut more = layout.clone();
                let cell = Shape::NINE.cell_at(at);
                let _ = more.givens.set(cell, killer.solution.get(cell));
                more
            };
            let (next, next_fit) = self.rate(&moved, &digits)?;
            let keep = match (fit, next_fit) {
                (_, Fit::InRange) => true,
                // Climbing: keep a merge that does not make it easier.
                (Fit::TooEasy, Fit::TooEasy) => next.lower_bound() >= grade.lower_bound(),
                // Descending: keep a given while it is still too hard.
                (Fit::TooHard, Fit::TooHard) => true,
                _ => false,
            };
            if keep {
                layout = moved;
                grade = next;
                fit = next_fit;
            }
        }
        Ok(None)
    }

    /// `layout` with two neighbouring cages merged, when the result is still unique.
    fn merged(&mut self, layout: &Layout, digits: &[u8]) -> Result<Option<Layout>, Exhausted> {
        let mut merged = layout.clone();
        if !merge_random(&mut merged.cages, digits, &mut self.rng) {
            return Ok(None);
        }
        let rules = killer_rules(&merged.cages, digits);
        Ok(unique_or_other(
            &rules,
            &merged.givens,
            MERGE_CHECK,
            self.solver,
            self.budget,
        )?
        .is_none()
        .then_some(merged))
    }
}

/// Merges a random cage with a random neighbouring cage when their digits are distinct and
/// the union has at most [`MAX_MERGED`] cells; false when the drawn cage has no such
/// neighbour.
fn merge_random(cages: &mut Vec<Vec<usize>>, digits: &[u8], rng: &mut SplitMix64) -> bool {
    let k = rng.below(cages.len());
    let mut partners: Vec<usize> = cages[k]
        .iter()
        .flat_map(|&i| neighbours(i))
        .filter_map(|j| cages.iter().position(|c| c.contains(&j)))
        .filter(|&j| {
            j != k
                && cages[k].len() + cages[j].len() <= MAX_MERGED
                && cages[j]
                    .iter()
                    .all(|&a| cages[k].iter().all(|&b| digits[a] != digits[b]))
        })
        .collect();
    partners.sort_unstable();
    partners.dedup();
    let Some(&j) = partners.get(rng.below(partners.len())) else {
        return false;
    };
    let taken = cages.swap_remove(j.max(k));
    let other = j.min(k);
    cages[other].extend(taken);
    cages[other].sort_unstable();
    true
}

fn cage_len(cages: &[Vec<usize>], cell: usize) -> usize {
    cages.iter().find(|c| c.contains(&cell)).map_or(0, Vec::len)
}

/// `cages` with each one's cells in reading order, as the rules keep them.
fn in_reading_order(mut cages: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    cages.iter_mut().for_each(|cage| cage.sort_unstable());
    cages
}

/// The Killer rules of `cages` (cell indices) with each cage's sum read from `digits`.
fn killer_rules(cages: &[Vec<usize>], digits: &[u8]) -> Rules {
    let list = cages
        .iter()
        .map(|cells| Cage {
            sum: Some(cells.iter().map(|&i| u32::from(digits[i])).sum()),
            cells: cells.iter().map(|&i| (i / SIZE, i % SIZE)).collect(),
        })
        .collect();
    // The partition's cages are connected, disjoint, of at most 9 cells and in the grid,
    // and each sum is that of its cells' distinct digits in the solution, so possible.
    Rules::for_cages(Shape::NINE, list)
        .unwrap_or_else(|e| unreachable!("generator made a bad cage: {e}"))
}

/// The band solver's grid for the empty board, shuffled by moves that keep it valid.
pub(crate) fn random_full_grid(rng: &mut SplitMix64) -> Grid {
    // An empty board has no repeats, and has solutions (any Sudoku grid).
    let puzzle = ClassicPuzzle::new(Board::empty()).unwrap_or_else(|_| unreachable!());
    let base = Solver::new()
        .solve(&puzzle, &Budget::unlimited())
        .ok()
        .and_then(|c| c.first)
        .unwrap_or_else(|| unreachable!("the empty board has solutions"));
    Grid::from_raw(Shape::NINE, random_disguise(base.raw(), rng).to_vec())
}

fn neighbours(i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / SIZE, i % SIZE);
    [
        (r > 0).then(|| i - SIZE),
        (r + 1 < SIZE).then(|| i + SIZE),
        (c > 0).then(|| i - 1),
        (c + 1 < SIZE).then(|| i + 1),
    ]
    .into_iter()
    .flatten()
}

/// Contiguous cages of the drawn sizes (fewer when the neighbours run out) with distinct
/// digits, covering the grid.
fn random_partition(digits: &[u8], sizes: &[usize; 20], rng: &mut SplitMix64) -> Vec<Vec<usize>> {
    let mut owner = [usize::MAX; CELLS];
    let mut order: Vec<usize> = (0..CELLS).collect();
    rng.shuffle(&mut order);
    let mut cages: Vec<Vec<usize>> = Vec::new();
    for start in order {
        if owner[start] != usize::MAX {
            continue;
        }
        let target = sizes[rng.below(sizes.len())];
        let k = cages.len();
        let mut cage = vec![start];
        owner[start] = k;
        while cage.len() < target {
            let frontier: Vec<usize> = cage
                .iter()
                .flat_map(|&i| neighbours(i))
                .filter(|&j| owner[j] == usize::MAX && cage.iter().all(|&i| digits[i] != digits[j]))
                .collect();
            if frontier.is_empty() {
                break;
            }
            let next = frontier[rng.below(frontier.len())];
            owner[next] = k;
            cage.push(next);
        }
        cages.push(cage);
    }
    absorb_singletons(&mut cages, &mut owner, digits);
    cages.retain(|c| !c.is_empty());
    cages
}

/// Cells left alone at the end of the greedy pass (all neighbours taken) join a neighbouring
/// cage that has room and lacks their digit, so that singletons (in effect givens) stay rare.
fn absorb_singletons(cages: &mut [Vec<usize>], owner: &mut [usize; CELLS], digits: &[u8]) {
    for k in 0..cages.len() {
        if cages[k].len() != 1 {
            continue;
        }
        let cell = cages[k][0];
        let host = neighbours(cell).map(|j| owner[j]).find(|&h| {
            h != k
                && (2..5).contains(&cages[h].len())
                && cages[h].iter().all(|&i| digits[i] != digits[cell])
        });
        if let Some(h) = host {
            cages[k].clear();
            cages[h].push(cell);
            owner[cell] = h;
        }
    }
}

/// Splits the cage holding `cell` in two: the first half of a breadth-first walk from `cell`
/// (connected by construction) and the rest, which becomes one cage per connected piece.
fn split(cages: &mut Vec<Vec<usize>>, cell: usize) {
    let Some(k) = cages.iter().position(|c| c.contains(&cell)) else {
        return;
    };
    let cage = cages.swap_remove(k);
    if cage.len() < 2 {
        cages.push(cage);
        return;
    }
    let mut walk = vec![cell];
    let mut i = 0;
    while i < walk.len() {
        for j in neighbours(walk[i]) {
            if cage.contains(&j) && !walk.contains(&j) {
                walk.push(j);
            }
        }
        i += 1;
    }
    let half = cage.len() / 2;
    cages.push(walk[..half].to_vec());
    let mut rest: Vec<usize> = walk[half..].to_vec();
    while let Some(&seed) = rest.first() {
        let mut piece = vec![seed];
        let mut i = 0;
        while i < piece.len() {
            for j in neighbours(piece[i]) {
                if rest.contains(&j) && !piece.contains(&j) {
                    piece.push(j);
                }
            }
            i += 1;
        }
        rest.retain(|j| !piece.contains(j));
        cages.push(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_grids_are_valid_and_vary() {
        let mut rng = SplitMix64::new(1);
        let a = random_full_grid(&mut rng);
        let b = random_full_grid(&mut rng);
        let rules = Rules::classic(Shape::NINE);
        assert!(crate::engine::model::validate::validate(&a, &rules).solved);
        assert!(crate::engine::model::validate::validate(&b, &rules).solved);
        assert_ne!(a, b);
    }

    #[test]
    fn partitions_cover_the_grid_with_valid_cages() {
        let mut rng = SplitMix64::new(3);
        let grid = random_full_grid(&mut rng);
        let cages = random_partition(grid.raw(), &USUAL_SIZES, &mut rng);
        assert_eq!(cages.iter().map(Vec::len).sum::<usize>(), CELLS);
        assert!(cages.iter().all(|c| (1..=5).contains(&c.len())));
        let rules = killer_rules(&cages, grid.raw());
        assert_eq!(rules.house_table().distinct_sums().len(), cages.len());
    }

    #[test]
    fn split_keeps_cells_and_contiguity() {
        let mut cages = vec![vec![0, 1, 2, 11, 20]];
        split(&mut cages, 1);
        assert!(cages.len() >= 2);
        let mut all: Vec<usize> = cages.concat();
        all.sort();
        assert_eq!(all, vec![0, 1, 2, 11, 20]);
        // The registry checks contiguity; the sum is the smallest one possible for the size.
        for cage in &cages {
            let list = vec![Cage {
                sum: Some(cage.len() as u32 * (cage.len() as u32 + 1) / 2),
                cells: cage.iter().map(|&i| (i / SIZE, i % SIZE)).collect(),
            }];
            assert!(Rules::for_cages(Shape::NINE, list).is_ok(), "{cage:?}");
        }
    }
}
