//! What the reference searches over small boards (4x4, 6x6) share: the boxes' shape, a seeded
//! generator, and grids from rows of digits. Nothing here reads the engine's rules.

use sudoku_service::engine::{
    validate, Budget, Cell, Digit, Engine, Grid, Puzzle, RuleSpec, Rules, Shape,
};

/// Box height and width of the small shapes.
pub fn box_of(side: usize) -> (usize, usize) {
    match side {
        4 => (2, 2),
        _ => (2, 3),
    }
}

/// A small seeded generator (xorshift64*), so the same boards every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// The grid of `cells` (row-major, 0 empty) on `shape`.
pub fn grid_of(cells: &[u8], shape: Shape) -> Grid {
    let mut grid = Grid::empty(shape);
    for (i, &d) in cells.iter().enumerate().filter(|(_, &d)| d != 0) {
        let cell = Cell::new(i / shape.side(), i % shape.side()).unwrap();
        grid.set(cell, Digit::new(d)).unwrap();
    }
    grid
}

/// The engine against a reference's solutions (`all`, at most 60 of them) of the board
/// `cells` under `rules`: the same count to 2, every solution found keeps the givens and
/// `obeys` the reference's rules and `validate` calls it solved, and (when the reference
/// listed every solution) the basic pencil marks keep every digit of every solution.
/// `what` names the case in failures. Returns the count to 2.
pub fn agree(
    engine: &mut Engine,
    rules: &Rules,
    cells: &[u8],
    all: &[Vec<u8>],
    obeys: impl Fn(&[u8]) -> bool,
    what: &dyn std::fmt::Debug,
) -> usize {
    let shape = rules.shape();
    let budget = Budget::unlimited();
    let grid = grid_of(cells, shape);
    let puzzle = match Puzzle::new(grid.clone(), rules.clone()) {
        Ok(puzzle) => puzzle,
        // Givens that no completion of some constraint can meet (an arrow's shaft already
        // past any circle) are a conflict: the reference must find nothing either.
        Err(err) => {
            assert!(
                all.is_empty(),
                "givens with solutions are refused ({err}): {what:?} {cells:?}"
            );
            return 0;
        }
    };
    let counted = engine.count(&puzzle, 2, &budget).unwrap();
    assert_eq!(
        counted.count as usize,
        all.len().min(2),
        "{what:?} {cells:?}"
    );
    for solution in counted.first.iter().chain(&counted.second) {
        let found: Vec<u8> = shape
            .all_cells()
            .map(|c| solution.grid().get(c).unwrap().get())
            .collect();
        let keeps = cells.iter().zip(&found).all(|(&g, &f)| g == 0 || g == f);
        assert!(keeps && obeys(&found), "not a solution: {what:?} {found:?}");
        assert!(
            validate(solution.grid(), rules).solved,
            "{what:?} {found:?}"
        );
    }
    if all.len() < 60 {
        let marks = engine.candidates(&grid, rules, false, &budget).unwrap();
        for solution in all {
            for (i, cell) in shape.all_cells().enumerate() {
                let digit = Digit::new(solution[i]).unwrap();
                if cells[i] == 0 {
                    assert!(marks.digits(cell).contains(&digit), "{what:?} {cell}");
                }
            }
        }
    }
    all.len().min(2)
}

/// Solutions of `cells` (row-major, 0 empty, `side` digits) up to `limit`, by plain
/// depth-first search in reading order: a digit stays at cell `i` when `fits(cells, i)`
/// (the grid with it placed).
pub fn solutions(
    cells: &mut [u8],
    side: usize,
    limit: usize,
    out: &mut Vec<Vec<u8>>,
    fits: &impl Fn(&[u8], usize) -> bool,
) {
    if out.len() >= limit {
        return;
    }
    let Some(i) = cells.iter().position(|&d| d == 0) else {
        out.push(cells.to_vec());
        return;
    };
    for d in 1..=side as u8 {
        cells[i] = d;
        if fits(cells, i) {
            solutions(cells, side, limit, out, fits);
        }
        cells[i] = 0;
    }
}

/// A solution of `cells` in `found`, when a plain search in reading order (a digit stays at
/// cell `i` when `fits(cells, i)`) finds one within `nodes` digits tried: rules that leave
/// none can take long to refute from an empty board.
pub fn first_solution(
    cells: &mut [u8],
    side: usize,
    nodes: &mut usize,
    found: &mut Vec<Vec<u8>>,
    fits: &impl Fn(&[u8], usize) -> bool,
) {
    let Some(i) = cells.iter().position(|&d| d == 0) else {
        found.push(cells.to_vec());
        return;
    };
    for d in 1..=side as u8 {
        if *nodes == 0 || !found.is_empty() {
            break;
        }
        *nodes -= 1;
        cells[i] = d;
        if fits(cells, i) {
            first_solution(cells, side, nodes, found, fits);
        }
    }
    cells[i] = 0;
}

/// Random givens that `fits` allows (see [`solutions`]), `count` tries: random digits one
/// time in three, else cells of a solution a plain search finds for the empty board (so
/// that boards with one solution come up under rules that leave few).
pub fn givens(
    rng: &mut Rng,
    side: usize,
    count: usize,
    fits: &impl Fn(&[u8], usize) -> bool,
) -> Vec<u8> {
    let mut cells = vec![0u8; side * side];
    let mut found = Vec::new();
    if rng.below(3) != 0 {
        let mut nodes = 20_000;
        first_solution(&mut cells.clone(), side, &mut nodes, &mut found, fits);
    }
    for _ in 0..count {
        let i = rng.below(side * side);
        if let Some(solution) = found.first() {
            cells[i] = solution[i];
        } else if cells[i] == 0 {
            cells[i] = rng.below(side) as u8 + 1;
            if !fits(&cells, i) {
                cells[i] = 0;
            }
        }
    }
    cells
}

/// A few distinct random cells, at most `most`.
pub fn random_cells(rng: &mut Rng, side: usize, most: usize) -> Vec<(usize, usize)> {
    let mut cells: Vec<(usize, usize)> = (0..most)
        .map(|_| (rng.below(side), rng.below(side)))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// A walk of king's moves from a random cell that does not revisit a cell: two to `most`
/// cells, fewer where it runs into itself.
pub fn random_line(rng: &mut Rng, side: usize, most: usize) -> Vec<(usize, usize)> {
    let start = (rng.below(side), rng.below(side));
    random_walk(rng, side, most, start)
}

/// A walk of king's moves from `start` as [`random_line`] makes it.
pub fn random_walk(
    rng: &mut Rng,
    side: usize,
    most: usize,
    start: (usize, usize),
) -> Vec<(usize, usize)> {
    let mut cells = vec![start];
    for _ in 0..4 * most {
        if cells.len() >= most {
            break;
        }
        let &(r, c) = cells.last().unwrap();
        let next = (
            (r + rng.below(3)).saturating_sub(1).min(side - 1),
            (c + rng.below(3)).saturating_sub(1).min(side - 1),
        );
        if !cells.contains(&next) {
            cells.push(next);
        }
    }
    if cells.len() < 2 {
        let (r, c) = cells[0];
        cells.push(if c + 1 < side { (r, c + 1) } else { (r, c - 1) });
    }
    cells
}

/// A reference search's reading of a rule set on a partial grid (row-major, 0 empty).
pub trait Reading {
    /// Whether the placed digits break no rule that cell `i` is part of.
    fn consistent_at(&self, cells: &[u8], i: usize) -> bool;

    /// Whether the placed digits break no rule.
    fn consistent(&self, cells: &[u8]) -> bool {
        (0..cells.len()).all(|i| self.consistent_at(cells, i))
    }
}

/// For each of `families` families alone, then two at random together: `rounds` random rule
/// sets per small shape (4x4, 6x6) made by `add(rng, side, family, spec)`, random givens the
/// reference (`reading(side, spec)`) allows, and the engine [`agree`]ing with the
/// reference's solutions. Family by family, the boards drawn must cover no, one and several
/// solutions.
pub fn every_family_agrees<R: Reading>(
    seed: u64,
    families: usize,
    rounds: usize,
    add: impl Fn(&mut Rng, usize, usize, &mut RuleSpec),
    reading: impl Fn(usize, &RuleSpec) -> R,
) {
    let mut rng = Rng(seed);
    let mut engine = Engine::new();
    for family in 0..=families {
        let mut seen_counts = [0usize; 3];
        for shape in [Shape::FOUR, Shape::SIX] {
            let side = shape.side();
            for _ in 0..rounds {
                let mut spec = RuleSpec::default();
                let tries = if family == families {
                    // Two families at random: all of them at once leave few grids.
                    let first = rng.below(families);
                    add(&mut rng, side, first, &mut spec);
                    let second = (first + 1 + rng.below(families - 1)) % families;
                    add(&mut rng, side, second, &mut spec);
                    rng.below(side + 2) + 2 * side - 6
                } else {
                    add(&mut rng, side, family, &mut spec);
                    rng.below(side + 2) + 2 * side - 4
                };
                let reference = reading(side, &spec);
                let fits = |cells: &[u8], i: usize| reference.consistent_at(cells, i);
                let cells = givens(&mut rng, side, tries, &fits);
                let mut all = Vec::new();
                solutions(&mut cells.clone(), side, 60, &mut all, &fits);
                let rules =
                    Rules::new(shape, spec.clone()).unwrap_or_else(|e| panic!("{spec:?}: {e}"));
                let obeys = |found: &[u8]| reference.consistent(found);
                seen_counts[agree(&mut engine, &rules, &cells, &all, obeys, &spec)] += 1;
            }
        }
        assert!(
            seen_counts.iter().all(|&n| n > 0),
            "family {family}: {seen_counts:?}"
        );
    }
}
