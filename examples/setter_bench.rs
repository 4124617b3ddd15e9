//! Setter families' solving latency and work-unit calibration: for each family, N seeded
//! 9x9 puzzles made here (a random full grid; instances of the family read off it at random
//! places; then givens removed in a random order while the puzzle stays unique), each solved
//! and counted to 2 (what `/solve` runs), the best of `reps` runs on a reused engine.
//! Prints p50 / p99 / max per family, the work units the budget was charged and the time
//! per unit (the general solver's meter is meant to charge about a microsecond a unit), and
//! the guesses (deterministic, unlike the times): the median, the p99 and their sum.
//!
//! The set's puzzles are unique by the engine's own count; their solutions are checked by
//! `validate`, which shares no code with the solvers. The engine's counts on these families
//! are checked against a plain reference search in `tests/setter_oracle.rs`.
//!
//! ```text
//! cargo run --release --example setter_bench -- [puzzles=20] [reps=3] [seed=1] [family]
//! ```
//!
//! With a family, only it is timed (the sets before it are still made, so its puzzles are
//! the ones the full run times): for a profiler or a quick before-and-after.

use std::time::{Duration, Instant};

use sudoku_service::engine::{
    validate, Arrow, Budget, Cage, Cell, ClonePair, Digit, Direction, Engine, Grid, LittleKiller,
    Outside, Puzzle, Quadruple, RuleSpec, Rules, SandwichClue, Shape, Side, SkyscraperClue,
    XSumClue,
};

/// xorshift64*: the set is the same for the same seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

type Pos = (usize, usize);

/// The cell at (row, col), 0-based, on a 9x9.
fn at(row: usize, col: usize) -> Cell {
    Cell::new(row, col).expect("on the grid")
}

/// A random full 9x9 grid: a few random digits where they clash with nothing, completed by
/// the engine (its first solution).
fn full_grid(rng: &mut Rng, engine: &mut Engine) -> [[u32; 9]; 9] {
    loop {
        let mut grid = Grid::empty(Shape::NINE);
        for _ in 0..12 {
            let cell = Cell::new(rng.below(9), rng.below(9)).unwrap();
            let before = grid.clone();
            grid.set(cell, Digit::new(1 + rng.below(9) as u8)).unwrap();
            if Puzzle::classic(grid.clone()).is_err() {
                grid = before;
            }
        }
        let Ok(puzzle) = Puzzle::classic(grid) else {
            continue;
        };
        let counted = engine.count(&puzzle, 1, &Budget::unlimited()).unwrap();
        if let Some(solution) = counted.first {
            let mut out = [[0; 9]; 9];
            for (r, row) in out.iter_mut().enumerate() {
                for (c, slot) in row.iter_mut().enumerate() {
                    *slot = u32::from(solution.grid().get(at(r, c)).unwrap().get());
                }
            }
            return out;
        }
    }
}

/// The cells of a row or column from the clue at `at`.
fn line(at: Outside) -> Vec<Pos> {
    let i = at.index;
    (0..9)
        .map(|k| match at.side {
            Side::Left => (i, k),
            Side::Right => (i, 8 - k),
            Side::Top => (k, i),
            Side::Bottom => (8 - k, i),
        })
        .collect()
}

fn outside(rng: &mut Rng) -> Outside {
    let sides = [Side::Left, Side::Right, Side::Top, Side::Bottom];
    Outside {
        side: sides[rng.below(4)],
        index: rng.below(9),
    }
}

/// A king's-move neighbour of `(r, c)` on the grid, at random.
fn neighbour(rng: &mut Rng, (r, c): Pos) -> Pos {
    loop {
        let (nr, nc) = (
            r as isize + rng.below(3) as isize - 1,
            c as isize + rng.below(3) as isize - 1,
        );
        if (0..9).contains(&nr) && (0..9).contains(&nc) && (nr, nc) != (r as isize, c as isize) {
            return (nr as usize, nc as usize);
        }
    }
}

/// A walk of king's moves of up to `most` cells from a random cell, never revisiting.
fn walk(rng: &mut Rng, most: usize) -> Vec<Pos> {
    let mut cells = vec![(rng.below(9), rng.below(9))];
    for _ in 0..4 * most {
        if cells.len() == most {
            break;
        }
        let next = neighbour(rng, *cells.last().unwrap());
        if !cells.contains(&next) {
            cells.push(next);
        }
    }
    cells
}

/// The families measured, each with instances read off grid `g` at random places.
const FAMILIES: [&str; 11] = [
    "arrows",
    "little_killers",
    "sandwiches",
    "x_sums",
    "skyscrapers",
    "between_lines",
    "region_sum_lines",
    "quadruples",
    "min_max",
    "clones",
    "sumless_cages",
];

fn instances(family: &str, rng: &mut Rng, g: &[[u32; 9]; 9]) -> RuleSpec {
    let d = |(r, c): Pos| g[r][c];
    let mut spec = RuleSpec::default();
    match family {
        "arrows" => {
            while spec.arrows.len() < 6 {
                // A circle and a shaft of 1-3 cells whose digits add up to it.
                let circle = (rng.below(9), rng.below(9));
                let mut shaft = vec![neighbour(rng, circle)];
                for _ in 0..rng.below(3) {
                    let next = neighbour(rng, *shaft.last().unwrap());
                    if next != circle && !shaft.contains(&next) {
                        shaft.push(next);
                    }
                }
                if shaft.iter().map(|&p| d(p)).sum::<u32>() == d(circle) {
                    spec.arrows.push(Arrow {
                        circle: vec![circle],
                        lines: vec![shaft],
                    });
                }
            }
        }
        "little_killers" => {
            for _ in 0..6 {
                let (start, direction) = match rng.below(4) {
                    0 => ((0, rng.below(8)), Direction::DownRight),
                    1 => ((0, 1 + rng.below(8)), Direction::DownLeft),
                    2 => ((8, rng.below(8)), Direction::UpRight),
                    _ => ((rng.below(8), 8), Direction::DownLeft),
                };
                let (dr, dc) = direction.step();
                let mut cells = vec![start];
                loop {
                    let (r, c) = *cells.last().unwrap();
                    let (r, c) = (r as isize + dr, c as isize + dc);
                    if !(0..9).contains(&r) || !(0..9).contains(&c) {
                        break;
                    }
                    cells.push((r as usize, c as usize));
                }
                let sum = cells.iter().map(|&p| d(p)).sum();
                spec.little_killers.push(LittleKiller {
                    start,
                    direction,
                    sum,
                });
            }
        }
        "sandwiches" => {
            for rows in [true, false] {
                for index in 0..9 {
                    if rng.below(2) == 0 {
                        continue;
                    }
                    let side = if rows { Side::Left } else { Side::Top };
                    let at = Outside { side, index };
                    let digits: Vec<u32> = line(at).into_iter().map(d).collect();
                    let a = digits.iter().position(|&x| x == 1).unwrap();
                    let b = digits.iter().position(|&x| x == 9).unwrap();
                    let sum = digits[a.min(b) + 1..a.max(b)].iter().sum();
                    spec.sandwiches.push(SandwichClue { at, sum });
                }
            }
        }
        "x_sums" => {
            while spec.x_sums.len() < 10 {
                let at = outside(rng);
                if spec.x_sums.iter().any(|c| c.at == at) {
                    continue;
                }
                let digits: Vec<u32> = line(at).into_iter().map(d).collect();
                let sum = digits[..digits[0] as usize].iter().sum();
                spec.x_sums.push(XSumClue { at, sum });
            }
        }
        "skyscrapers" => {
            while spec.skyscrapers.len() < 12 {
                let at = outside(rng);
                if spec.skyscrapers.iter().any(|c| c.at == at) {
                    continue;
                }
                let mut tallest = 0;
                let count = (line(at).into_iter().map(d))
                    .filter(|&x| {
                        let seen = x > tallest;
                        tallest = tallest.max(x);
                        seen
                    })
                    .count() as u32;
                spec.skyscrapers.push(SkyscraperClue { at, count });
            }
        }
        "between_lines" => {
            while spec.between_lines.len() < 6 {
                let most = 3 + rng.below(3);
                let cells = walk(rng, most);
                let (a, b) = (d(cells[0]), d(*cells.last().unwrap()));
                let inner = &cells[1..cells.len() - 1];
                if cells.len() >= 3 && inner.iter().all(|&p| a.min(b) < d(p) && d(p) < a.max(b)) {
                    spec.between_lines.push(cells);
                }
            }
        }
        "region_sum_lines" => {
            let boxed = |(r, c): Pos| (r / 3, c / 3);
            while spec.region_sum_lines.len() < 5 {
                let most = 3 + rng.below(4);
                let cells = walk(rng, most);
                let mut sums: Vec<u32> = Vec::new();
                for (k, &p) in cells.iter().enumerate() {
                    if k == 0 || boxed(p) != boxed(cells[k - 1]) {
                        sums.push(0);
                    }
                    *sums.last_mut().unwrap() += d(p);
                }
                if sums.len() >= 2 && sums.iter().all(|&s| s == sums[0]) {
                    spec.region_sum_lines.push(cells);
                }
            }
        }
        "quadruples" => {
            for _ in 0..10 {
                let (r, c) = (rng.below(8), rng.below(8));
                let cells = vec![(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
                let mut digits: Vec<u32> = cells.iter().map(|&p| d(p)).collect();
                digits.truncate(2 + rng.below(3));
                spec.quadruples.push(Quadruple { cells, digits });
            }
        }
        "min_max" => {
            for r in 0..9 {
                for c in 0..9 {
                    let around: Vec<u32> = [(0usize, 1usize), (2, 1), (1, 0), (1, 2)]
                        .into_iter()
                        .filter_map(|(dr, dc)| {
                            let (r, c) = ((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?);
                            (r < 9 && c < 9).then(|| d((r, c)))
                        })
                        .collect();
                    if rng.below(2) == 0 && around.iter().all(|&x| x > d((r, c))) {
                        spec.minimum.push((r, c));
                    } else if rng.below(2) == 0 && around.iter().all(|&x| x < d((r, c))) {
                        spec.maximum.push((r, c));
                    }
                }
            }
        }
        "clones" => {
            while spec.clones.len() < 4 {
                // A 2x2 square and another holding the same digits in the same places.
                let (r, c) = (rng.below(8), rng.below(8));
                let (s, t) = (rng.below(8), rng.below(8));
                let square =
                    |r: usize, c: usize| vec![(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
                let (a, b) = (square(r, c), square(s, t));
                let overlap = a.iter().any(|p| b.contains(p));
                let same = a.iter().zip(&b).filter(|(&p, &q)| d(p) == d(q)).count();
                if !overlap && same >= 2 {
                    let (cells, copy): (Vec<Pos>, Vec<Pos>) =
                        a.into_iter().zip(b).filter(|&(p, q)| d(p) == d(q)).unzip();
                    spec.clones.push(ClonePair { cells, copy });
                }
            }
        }
        _ => {
            // Cages of 2-4 cells without sums, tiling part of the grid.
            let mut taken = [[false; 9]; 9];
            for _ in 0..40 {
                let start = (rng.below(9), rng.below(9));
                let mut cells = vec![start];
                while cells.len() < 2 + rng.below(3) {
                    let (r, c) = cells[rng.below(cells.len())];
                    let next = match rng.below(4) {
                        0 if r > 0 => (r - 1, c),
                        1 if r < 8 => (r + 1, c),
                        2 if c > 0 => (r, c - 1),
                        3 if c < 8 => (r, c + 1),
                        _ => continue,
                    };
                    if !cells.contains(&next) {
                        cells.push(next);
                    }
                }
                let digits: Vec<u32> = cells.iter().map(|&p| d(p)).collect();
                let distinct = (1..=9).filter(|x| digits.contains(x)).count() == digits.len();
                if distinct && cells.iter().all(|&(r, c)| !taken[r][c]) {
                    cells.iter().for_each(|&(r, c)| taken[r][c] = true);
                    spec.cages.push(Cage { sum: None, cells });
                }
            }
        }
    }
    spec
}

/// The full grid less givens removed in a random order while the puzzle stays unique.
fn carve(rng: &mut Rng, engine: &mut Engine, g: &[[u32; 9]; 9], rules: &Rules) -> Puzzle {
    let mut grid = Grid::empty(Shape::NINE);
    for (r, row) in g.iter().enumerate() {
        for (c, &digit) in row.iter().enumerate() {
            grid.set(at(r, c), Digit::new(digit as u8)).unwrap();
        }
    }
    let mut order: Vec<usize> = (0..81).collect();
    for i in (1..81).rev() {
        order.swap(i, rng.below(i + 1));
    }
    for i in order {
        let cell = at(i / 9, i % 9);
        let kept = grid.get(cell);
        grid.set(cell, None).unwrap();
        let puzzle = Puzzle::new(grid.clone(), rules.clone()).unwrap();
        let budget = Budget::work(2_000_000);
        let unique = engine
            .count(&puzzle, 2, &budget)
            .is_ok_and(|counted| counted.count == 1);
        if !unique {
            grid.set(cell, kept).unwrap();
        }
    }
    Puzzle::new(grid, rules.clone()).unwrap()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let puzzles: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let reps: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let only = args.next();
    if let Some(name) = only.as_deref().filter(|name| !FAMILIES.contains(name)) {
        eprintln!("no family {name}; the families are {}", FAMILIES.join(", "));
        std::process::exit(2);
    }
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut engine = Engine::new();
    println!(
        "{} puzzles a family, solved and counted to 2, best of {reps} runs",
        puzzles
    );
    println!(
        "{:<17} {:>6} {:>9} {:>9} {:>9} {:>10} {:>8} {:>18}",
        "family",
        "givens",
        "p50 ms",
        "p99 ms",
        "max ms",
        "units avg",
        "us/unit",
        "guesses p50/p99/sum"
    );
    let mut all = Vec::new();
    for family in FAMILIES {
        let made = Instant::now();
        let set: Vec<(Puzzle, [[u32; 9]; 9])> = (0..puzzles)
            .map(|_| {
                let g = full_grid(&mut rng, &mut engine);
                let rules = Rules::new(Shape::NINE, instances(family, &mut rng, &g)).unwrap();
                (carve(&mut rng, &mut engine, &g, &rules), g)
            })
            .collect();
        let made = made.elapsed();
        match only.as_deref() {
            Some(name) if name != family => continue,
            _ => {}
        }
        let mut times = Vec::new();
        let (mut units, mut givens, mut guesses) = (0u64, 0usize, Vec::new());
        for (puzzle, g) in &set {
            givens += (0..81)
                .filter(|&i| puzzle.grid().get(at(i / 9, i % 9)).is_some())
                .count();
            let mut best = Duration::MAX;
            for _ in 0..reps {
                let budget = Budget::unlimited();
                let start = Instant::now();
                let counted = engine.count(puzzle, 2, &budget).expect("no limit set");
                best = best.min(start.elapsed());
                units += budget.used();
                assert_eq!(counted.count, 1, "{family}: made unique");
                let solution = counted.first.unwrap();
                assert!(validate(solution.grid(), puzzle.rules()).solved, "{family}");
                let found = |r, c| u32::from(solution.grid().get(at(r, c)).unwrap().get());
                assert!(
                    (0..81).all(|i| found(i / 9, i % 9) == g[i / 9][i % 9]),
                    "{family}"
                );
            }
            times.push(best);
            guesses.push(
                engine
                    .count(puzzle, 2, &Budget::unlimited())
                    .expect("no limit set")
                    .stats
                    .guesses,
            );
        }
        guesses.sort_unstable();
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        let total: Duration = times.iter().sum::<Duration>() * reps;
        let units_avg = units as f64 / (set.len() as f64 * f64::from(reps));
        println!(
            "{family:<17} {:>6.1} {:>9.3} {:>9.3} {:>9.3} {:>10.0} {:>8.2} {:>18}   (made in {:.1} s)",
            givens as f64 / set.len() as f64,
            ms(at(0.5)),
            ms(at(0.99)),
            ms(*times.last().unwrap()),
            units_avg,
            total.as_secs_f64() * 1e6 / units.max(1) as f64,
            format!(
                "{}/{}/{}",
                guesses[guesses.len() / 2],
                guesses[((guesses.len() - 1) as f64 * 0.99).round() as usize],
                guesses.iter().sum::<u64>()
            ),
            made.as_secs_f64()
        );
        all.extend(times);
        if only.is_some() {
            break;
        }
    }
    all.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "all {} puzzles: p50 {:.3} ms, p99 {:.3} ms",
        all.len(),
        ms(all[all.len() / 2]),
        ms(all[(all.len() - 1) * 99 / 100])
    );
}
