//! A seeded generator of classic 9x9 Killer puzzles with no givens, for tests and benchmarks.
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
//! Deterministic: the same seed gives the same puzzle on every platform.

use super::solver::VariantSolver;
use crate::engine::board::{Board, ClassicPuzzle, CELLS, SIZE};
use crate::engine::budget::{Budget, Exhausted};
use crate::engine::grid::{Grid, Shape};
use crate::engine::puzzle::Puzzle;
use crate::engine::rules::{Cage, Cages, Rules};
use crate::engine::solver::Solver;

/// Work allowed per uniqueness check; a check that runs out counts as "not unique".
const CHECK_BUDGET: u64 = 200_000;

/// A killer puzzle (no givens) and its unique solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Killer {
    pub cages: Cages,
    pub solution: Grid,
    /// Cage splits needed to make the solution unique, for measuring.
    pub splits: u32,
}

impl Killer {
    /// The puzzle: an empty grid with these cages.
    pub fn puzzle(&self) -> Puzzle {
        empty_killer(self.cages.clone())
    }
}

/// splitmix64 (Steele, Lea and Flood): tiny, fast and good enough for shuffling.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` by multiply-shift; 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// An empty 9x9 grid with `cages`: an empty grid has no conflicts, so this cannot fail.
fn empty_killer(cages: Cages) -> Puzzle {
    Puzzle::new(Grid::empty(Shape::NINE), Rules::killer(cages))
        .unwrap_or_else(|_| unreachable!("an empty grid has no conflicts"))
}

/// The killer puzzle for `seed` (see the module docs).
pub fn random_killer(seed: u64) -> Killer {
    random_killer_within(seed, &Budget::unlimited())
        .unwrap_or_else(|_| unreachable!("an unlimited budget never stops"))
}

/// [`random_killer`], charging every uniqueness check to `budget`.
pub fn random_killer_within(seed: u64, budget: &Budget) -> Result<Killer, Exhausted> {
    let mut rng = SplitMix64::new(seed);
    let grid = random_full_grid(&mut rng);
    let digits = grid.raw().to_vec();
    let mut cages = random_partition(&digits, &mut rng);
    let mut solver = VariantSolver::new();
    let mut splits = 0;
    loop {
        let validated = to_cages(&cages, &digits);
        let puzzle = empty_killer(validated.clone());
        let check = budget.trial(CHECK_BUDGET);
        let counted = solver.count_solutions(&puzzle, 2, &check);
        budget.absorb(&check)?;
        let other = match counted {
            Ok(counted) if counted.count == 1 => {
                return Ok(Killer {
                    cages: validated,
                    solution: grid,
                    splits,
                })
            }
            Ok(counted) => counted.second.map(|s| s.grid().raw().to_vec()),
            Err(_) => None,
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
                cages: validated,
                solution: grid,
                splits,
            });
        };
        split(&mut cages, at);
        splits += 1;
    }
}

fn cage_len(cages: &[Vec<usize>], cell: usize) -> usize {
    cages.iter().find(|c| c.contains(&cell)).map_or(0, Vec::len)
}

fn to_cages(cages: &[Vec<usize>], digits: &[u8]) -> Cages {
    let list = cages
        .iter()
        .map(|cells| Cage {
            sum: cells.iter().map(|&i| u32::from(digits[i])).sum(),
            cells: cells.iter().map(|&i| (i / SIZE, i % SIZE)).collect(),
        })
        .collect();
    Cages::new(Shape::NINE, list).unwrap_or_else(|e| unreachable!("generator made a bad cage: {e}"))
}

/// The band solver's grid for the empty board, shuffled by moves that keep it valid.
pub(crate) fn random_full_grid(rng: &mut SplitMix64) -> Grid {
    let puzzle = ClassicPuzzle::new(Board::empty()).unwrap_or_else(|_| unreachable!());
    let base = Solver::new()
        .solve(&puzzle, &Budget::unlimited())
        .ok()
        .and_then(|c| c.first)
        .unwrap_or_else(|| unreachable!("the empty board has solutions"));
    let mut relabel: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut relabel);
    let rows = band_order(rng);
    let cols = band_order(rng);
    let transpose = rng.below(2) == 1;
    let mut cells = vec![0u8; CELLS];
    for r in 0..SIZE {
        for c in 0..SIZE {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            let d = base.raw()[sr * SIZE + sc];
            cells[r * SIZE + c] = relabel[usize::from(d) - 1];
        }
    }
    Grid::from_raw(Shape::NINE, cells)
}

/// A permutation of 0..9 that keeps bands together: bands shuffled, rows within each shuffled.
fn band_order(rng: &mut SplitMix64) -> [usize; SIZE] {
    let mut bands = [0, 1, 2];
    rng.shuffle(&mut bands);
    let mut order = [0; SIZE];
    for (slot, band) in bands.into_iter().enumerate() {
        let mut within = [0, 1, 2];
        rng.shuffle(&mut within);
        for (k, w) in within.into_iter().enumerate() {
            order[slot * 3 + k] = band * 3 + w;
        }
    }
    order
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

/// Contiguous cages of 1-5 cells (mostly 3-5) with distinct digits, covering the grid.
fn random_partition(digits: &[u8], rng: &mut SplitMix64) -> Vec<Vec<usize>> {
    let mut owner = [usize::MAX; CELLS];
    let mut order: Vec<usize> = (0..CELLS).collect();
    rng.shuffle(&mut order);
    let mut cages: Vec<Vec<usize>> = Vec::new();
    for start in order {
        if owner[start] != usize::MAX {
            continue;
        }
        // Weighted towards larger cages, like published killers (about 30 cages).
        let target = match rng.below(20) {
            0 => 1,
            1..=3 => 2,
            4..=8 => 3,
            9..=13 => 4,
            _ => 5,
        };
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
    fn splitmix_is_deterministic_and_in_range() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
            assert!(a.below(5) < 5);
            b.below(5);
        }
    }

    #[test]
    fn full_grids_are_valid_and_vary() {
        let mut rng = SplitMix64::new(1);
        let a = random_full_grid(&mut rng);
        let b = random_full_grid(&mut rng);
        let rules = Rules::classic(Shape::NINE);
        assert!(crate::engine::validate::validate(&a, &rules).solved);
        assert!(crate::engine::validate::validate(&b, &rules).solved);
        assert_ne!(a, b);
    }

    #[test]
    fn partitions_cover_the_grid_with_valid_cages() {
        let mut rng = SplitMix64::new(3);
        let grid = random_full_grid(&mut rng);
        let cages = random_partition(grid.raw(), &mut rng);
        assert_eq!(cages.iter().map(Vec::len).sum::<usize>(), CELLS);
        assert!(cages.iter().all(|c| (1..=5).contains(&c.len())));
        let validated = to_cages(&cages, grid.raw());
        assert_eq!(validated.len(), cages.len());
    }

    #[test]
    fn split_keeps_cells_and_contiguity() {
        let mut cages = vec![vec![0, 1, 2, 11, 20]];
        split(&mut cages, 1);
        assert!(cages.len() >= 2);
        let mut all: Vec<usize> = cages.concat();
        all.sort();
        assert_eq!(all, vec![0, 1, 2, 11, 20]);
        // Cages::new checks contiguity; the sum is the smallest one possible for the size.
        for cage in &cages {
            let list = vec![Cage {
                sum: cage.len() as u32 * (cage.len() as u32 + 1) / 2,
                cells: cage.iter().map(|&i| (i / SIZE, i % SIZE)).collect(),
            }];
            assert!(Cages::new(Shape::NINE, list).is_ok(), "{cage:?}");
        }
    }
}
