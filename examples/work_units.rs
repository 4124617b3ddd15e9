//! The work meters against CPU time: nanoseconds of this thread's CPU per work unit, for each
//! engine and rule set, on the inputs where a budget matters (hard, open or hostile boards).
//!
//! A work unit is documented as about a microsecond of CPU, so that the job budget (250,000
//! units) is about a quarter of a second and the generation budget (5,000,000) about five. A
//! meter that undercounts lets a small body take seconds; one that overcounts refuses honest
//! puzzles. Every row here should lie within 500-2,000 ns per unit; the `ok` column says so.
//!
//! Each row runs its jobs under a budget (the row's), measures the thread's CPU time
//! (Linux scheduler statistics) and the units charged, and prints the total ratio and the
//! highest ratio of any one job that charged at least a thousand units (a cheaper one is
//! dominated by fixed costs no budget needs to bound).
//!
//! ```text
//! cargo run --release --example work_units -- [DATA=../shared/data] [ROUNDS=3]
//! ```

use std::time::Duration;

use sudoku_service::engine::calibration::{self, Look};
use sudoku_service::engine::{
    random_killer, Budget, Cage, Difficulty, Engine, Grid, Outside, Puzzle, RuleSpec, Rules, Shape,
    Side, SkyscraperClue, Symmetry, Variant, XSumClue,
};
use sudoku_service::http::config::DEFAULT_GENERATE_WORK_BUDGET;

/// One job of a row: what it charged (in thousandths of a unit) and what it cost.
struct Sample {
    milli: u64,
    cpu: Duration,
}

/// A row of the table.
struct Row {
    name: String,
    samples: Vec<Sample>,
    /// Jobs charged fewer thousandths of a unit are left out of the worst case and the
    /// percentiles (their fixed costs dominate, and no budget needs to bound them).
    worst_from: u64,
}

impl Row {
    fn print(&self) {
        let milli: u64 = self.samples.iter().map(|s| s.milli).sum();
        let cpu: Duration = self.samples.iter().map(|s| s.cpu).sum();
        let per = |cpu: Duration, milli: u64| cpu.as_nanos() as f64 * 1000.0 / milli.max(1) as f64;
        let worst = self
            .samples
            .iter()
            .filter(|s| s.milli >= self.worst_from)
            .map(|s| per(s.cpu, s.milli))
            .fold(f64::NAN, f64::max);
        let mean = per(cpu, milli);
        let mut ratios: Vec<f64> = self
            .samples
            .iter()
            .filter(|s| s.milli >= self.worst_from)
            .map(|s| per(s.cpu, s.milli))
            .collect();
        ratios.sort_by(f64::total_cmp);
        let pct = |p: f64| {
            ratios
                .get(((ratios.len().max(1) - 1) as f64 * p).round() as usize)
                .copied()
                .unwrap_or(f64::NAN)
        };
        let ok = (500.0..=2_000.0).contains(&mean) && (worst.is_nan() || worst <= 2_000.0);
        println!(
            "{:<44} {:>6} {:>12} {:>10.1} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>4}",
            self.name,
            self.samples.len(),
            milli / 1000,
            cpu.as_secs_f64() * 1000.0,
            mean,
            pct(0.5),
            pct(0.99),
            worst,
            if ok { "ok" } else { "OUT" }
        );
    }
}

/// Time this thread has spent on a CPU (cheap enough to read around each job).
fn thread_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Runs `job` under `budget`, timing it.
fn measure(budget: &Budget, job: impl FnOnce(&Budget)) -> Sample {
    let start = thread_cpu();
    job(budget);
    Sample {
        milli: budget.used() * 1000,
        cpu: thread_cpu().saturating_sub(start),
    }
}

fn lines(data: &str, file: &str, most: usize) -> Vec<Puzzle> {
    let path = format!("{data}/{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .take(most)
        .map(|line| {
            let grid = Grid::from_line(&line[..81]).expect("a puzzle line");
            Puzzle::classic(grid).expect("no clash")
        })
        .collect()
}

fn rules(shape: Shape, spec: RuleSpec) -> Rules {
    Rules::new(shape, spec).expect("valid rules")
}

/// The shifted-rows full grid of a square shape (box side `b`): row `r`, column `c` holds
/// `(b * (r % b) + r / b + c) % side + 1`.
fn pattern(side: usize, b: usize) -> Vec<u8> {
    (0..side * side)
        .map(|i| {
            let (r, c) = (i / side, i % side);
            ((b * (r % b) + r / b + c) % side + 1) as u8
        })
        .collect()
}

/// Boards of `side` with about `keep` of every 100 cells of a shuffled full grid given, then
/// one given changed to a digit none of its given peers holds: almost always no solution,
/// but nothing shows it before a search. The hostile kind of board: cheap to send, and the
/// solver must search until it knows.
fn hidden_contradictions(side: usize, keep: u64, count: u64) -> Vec<Puzzle> {
    let b = (side as f64).sqrt() as usize;
    let full = pattern(side, b);
    (0..count)
        .filter_map(|seed| {
            let mut state = (seed + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            // Relabel the digits: another full grid of the same family.
            let mut relabel: Vec<u8> = (1..=side as u8).collect();
            for i in (1..side).rev() {
                relabel.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            let mut cells: Vec<u8> = full
                .iter()
                .map(|&d| {
                    if next() % 100 < keep {
                        relabel[usize::from(d) - 1]
                    } else {
                        0
                    }
                })
                .collect();
            let sees = |a: usize, z: usize| {
                let (ra, ca, rz, cz) = (a / side, a % side, z / side, z % side);
                ra == rz || ca == cz || (ra / b == rz / b && ca / b == cz / b)
            };
            let at = (0..cells.len()).find(|&i| cells[i] != 0 && next() % 4 == 0)?;
            let digit = (1..=side as u8).find(|&d| {
                d != cells[at] && (0..cells.len()).all(|j| j == at || !sees(at, j) || cells[j] != d)
            })?;
            cells[at] = digit;
            let rows: Vec<Vec<Option<i64>>> = cells
                .chunks(side)
                .map(|row| {
                    row.iter()
                        .map(|&d| (d > 0).then_some(i64::from(d)))
                        .collect()
                })
                .collect();
            Puzzle::classic(Grid::from_numbers(&rows).ok()?).ok()
        })
        .collect()
}

fn solver_rows(data: &str, rounds: usize) -> Vec<Row> {
    let mut engine = Engine::new();
    let mut rows = Vec::new();
    let mut count_row = |name: &str, puzzles: &[Puzzle], limit: u32, work: u64| {
        let mut samples = Vec::new();
        let (mut guesses, mut dead_ends) = (0u64, 0u64);

        for _ in 0..rounds {
            for puzzle in puzzles {
                samples.push(measure(&Budget::work(work), |budget| {
                    if let Ok(counted) = std::hint::black_box(engine.count(puzzle, limit, budget)) {
                        guesses += counted.stats.guesses;
                        dead_ends += counted.stats.dead_ends;
                    }
                }));
            }
        }
        if std::env::var_os("NODES").is_some() {
            let cpu: Duration = samples.iter().map(|s| s.cpu).sum();
            println!(
                "  {name}: {guesses} guesses, {dead_ends} dead ends, {:.0} ns per guess+dead end+puzzle",
                cpu.as_nanos() as f64 / (guesses + dead_ends + samples.len() as u64).max(1) as f64
            );
        }
        rows.push(Row {
            name: name.to_string(),
            samples,
            worst_from: 1_000_000,
        });
    };
    for (file, most) in [
        ("puzzles_17_clue.txt", 2_000),
        ("magictour_top1465.txt", 1_465),
        ("forum_hardest_1106.txt", 375),
        ("serg_benchmark.txt", 2_000),
    ] {
        let puzzles = lines(data, file, most);
        count_row(&format!("band, count to 2: {file}"), &puzzles, 2, 250_000);
    }
    let open = |shape: Shape, spec: RuleSpec| {
        Puzzle::new(Grid::empty(shape), rules(shape, spec)).expect("an empty board")
    };

    let regions = |rows: [&str; 9]| {
        Some(
            rows.iter()
                .map(|r| r.chars().map(|c| Some(c.to_string())).collect())
                .collect(),
        )
    };
    let jigsaw = regions([
        "112222333",
        "111222333",
        "111122333",
        "444555666",
        "774555666",
        "744555666",
        "744488899",
        "778889999",
        "777888999",
    ]);
    let general: Vec<(&str, Puzzle)> = vec![
        (
            "4x4",
            open(Shape::from_side(4).unwrap(), RuleSpec::default()),
        ),
        (
            "6x6",
            open(Shape::from_side(6).unwrap(), RuleSpec::default()),
        ),
        (
            "9x9 X",
            open(
                Shape::NINE,
                RuleSpec {
                    diagonals: true,
                    ..RuleSpec::default()
                },
            ),
        ),
        (
            "9x9 Hyper",
            open(
                Shape::NINE,
                RuleSpec {
                    windows: true,
                    ..RuleSpec::default()
                },
            ),
        ),
        (
            "9x9 Jigsaw",
            open(
                Shape::NINE,
                RuleSpec {
                    regions: jigsaw.clone(),
                    ..RuleSpec::default()
                },
            ),
        ),
        (
            "9x9 Jigsaw X Hyper",
            open(
                Shape::NINE,
                RuleSpec {
                    regions: jigsaw,
                    diagonals: true,
                    windows: true,
                    ..RuleSpec::default()
                },
            ),
        ),
        ("16x16", open(Shape::SIXTEEN, RuleSpec::default())),
        ("25x25", open(Shape::TWENTY_FIVE, RuleSpec::default())),
    ];
    for (name, puzzle) in &general {
        count_row(
            &format!("general, every solution: empty {name}"),
            std::slice::from_ref(puzzle),
            u32::MAX,
            250_000,
        );
    }
    for (side, keep) in [(9, 25), (16, 35), (25, 45)] {
        let puzzles = hidden_contradictions(side, keep, 6);
        count_row(
            &format!("general/band: {side}x{side} hidden contradiction"),
            &puzzles,
            2,
            250_000,
        );
    }
    let killers: Vec<Puzzle> = (1..=20).map(|seed| random_killer(seed).puzzle()).collect();
    count_row("general, count to 2: 9x9 Killer", &killers, 2, 250_000);
    for (side, width, cages) in [(16, 8, 24), (25, 7, 40)] {
        count_row(
            &format!("general, count to 2: {side}x{side} Killer {width}-cell"),
            &[row_killer(side, width, cages)],
            2,
            250_000,
        );
    }
    for side in [16, 25] {
        for family in [OutsideFamily::Skyscrapers, OutsideFamily::XSums] {
            count_row(
                &format!("general, count to 2: {side}x{side} {family:?} on every line"),
                &[outside_clued(side, family)],
                2,
                250_000,
            );
        }
    }
    rows
}

/// The outside clues whose propagators walk a whole line each time.
#[derive(Clone, Copy, Debug)]
enum OutsideFamily {
    Skyscrapers,
    XSums,
}

/// An empty board of `side` with a clue of `family` at both ends of every row and column,
/// read off the pattern grid (so it has a solution): a small body whose propagators each
/// read a whole line, on a search the clues barely steer (a 25x25 of skyscrapers took five
/// microseconds a unit before the walks were charged by the square of the side).
fn outside_clued(side: usize, family: OutsideFamily) -> Puzzle {
    let b = (side as f64).sqrt() as usize;
    let full = shuffled(&pattern(side, b), side, b);
    let shape = Shape::from_side(side).unwrap();
    let places = [Side::Left, Side::Right, Side::Top, Side::Bottom]
        .into_iter()
        .flat_map(|s| (0..side).map(move |index| Outside { side: s, index }));
    let mut spec = RuleSpec::default();
    for at in places {
        let digits: Vec<u32> = at
            .cells(shape)
            .iter()
            .map(|c| u32::from(full[c.row() * side + c.col()]))
            .collect();
        match family {
            OutsideFamily::Skyscrapers => {
                let mut tallest = 0;
                let count = digits
                    .iter()
                    .filter(|&&d| {
                        let seen = d > tallest;
                        tallest = tallest.max(d);
                        seen
                    })
                    .count() as u32;
                spec.skyscrapers.push(SkyscraperClue { at, count });
            }
            OutsideFamily::XSums => {
                let sum = digits[..digits[0] as usize].iter().sum();
                spec.x_sums.push(XSumClue { at, sum });
            }
        }
    }
    Puzzle::new(Grid::empty(shape), rules(shape, spec)).expect("an empty board")
}

/// `grid` (a full grid of `side`, box side `b`) with its digits relabelled, its rows
/// shuffled within their bands and its columns within their stacks, by a fixed seed: still a
/// full grid, less regular than the pattern (whose lines show clues that nearly solve it).
fn shuffled(grid: &[u8], side: usize, b: usize) -> Vec<u8> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut below = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n
    };
    let mut permutation = |n: usize, within: usize| {
        let mut order: Vec<usize> = (0..n).collect();
        for start in (0..n).step_by(within) {
            for i in (start + 1..start + within).rev() {
                order.swap(i, start + below(i - start + 1));
            }
        }
        order
    };
    let (digits, rows, cols) = (
        permutation(side, side),
        permutation(side, b),
        permutation(side, b),
    );
    (0..side * side)
        .map(|i| {
            let d = grid[rows[i / side] * side + cols[i % side]];
            digits[usize::from(d) - 1] as u8 + 1
        })
        .collect()
}

/// An empty board of `side` with `count` cages of `width` cells along the rows, their sums
/// read off the pattern grid (so it has a solution): cheap to send, costly to search.
fn row_killer(side: usize, width: usize, count: usize) -> Puzzle {
    let b = (side as f64).sqrt() as usize;
    let full = pattern(side, b);
    let cages = (0..count)
        .map(|k| {
            let per_row = side / width;
            let (r, start) = (k / per_row, (k % per_row) * width);
            let cells: Vec<(usize, usize)> = (start..start + width).map(|c| (r, c)).collect();
            let sum = cells
                .iter()
                .map(|&(r, c)| u32::from(full[r * side + c]))
                .sum();
            Cage {
                sum: Some(sum),
                cells,
            }
        })
        .collect();
    Puzzle::with_cages(Grid::empty(Shape::from_side(side).unwrap()), cages).expect("valid cages")
}

fn generator_rows(seeds: u64) -> Vec<Row> {
    let mut engine = Engine::new();
    let mut rows = Vec::new();
    for variant in [
        None,
        Some(Variant::Killer),
        Some(Variant::X),
        Some(Variant::Hyper),
    ] {
        for difficulty in [Difficulty::Medium, Difficulty::Expert, Difficulty::Extreme] {
            let samples = (1..=seeds)
                .map(|seed| {
                    measure(&Budget::work(DEFAULT_GENERATE_WORK_BUDGET), |budget| {
                        let _ = std::hint::black_box(engine.generate(
                            variant,
                            difficulty.ratings(),
                            seed,
                            Symmetry::None,
                            budget,
                        ));
                    })
                })
                .collect();
            rows.push(Row {
                name: format!(
                    "generate {} {}",
                    variant.map_or("classic", Variant::name),
                    difficulty.name()
                ),
                samples,
                worst_from: 1_000_000,
            });
        }
    }
    rows
}

/// The logic engine, one row per finder family: every look of SE's order on the positions of
/// the rated puzzles' solve paths (and of generated variants'), timed one by one.
fn logic_rows(data: &str) -> Vec<Row> {
    let mut puzzles = Vec::new();
    for file in ["rated/se_unbiased_500.txt", "rated/se_bank_sample.txt"] {
        puzzles.extend(lines(data, file, 400));
    }
    let mut looks: Vec<Look> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    for (i, puzzle) in puzzles.iter().enumerate() {
        let found = calibration::logic_looks(puzzle, 3);
        labels.extend(
            found
                .iter()
                .map(|_| format!("classic {i} {}", puzzle.grid().to_line())),
        );
        looks.extend(found);
    }
    let mut engine = Engine::new();
    for variant in Variant::ALL {
        for seed in 1..=8 {
            if let Ok(made) =
                engine.generate_variant(variant, seed, Symmetry::None, &Budget::unlimited())
            {
                let found = calibration::logic_looks(&made.puzzle, 3);
                labels.extend(found.iter().map(|_| format!("{} {seed}", variant.name())));
                looks.extend(found);
            }
        }
    }
    if let Some(path) = std::env::var_os("LOOKS_CSV") {
        let mut out = String::from("family,milli,ops,ns,source\n");
        for (look, label) in looks.iter().zip(&labels) {
            out.push_str(&format!(
                "{},{},{},{},{}\n",
                look.family,
                look.milli,
                look.ops,
                look.cpu.as_nanos(),
                label.split(' ').next().unwrap_or("")
            ));
        }
        std::fs::write(path, out).expect("writable");
    }
    if std::env::var_os("WORST").is_some() {
        let mut order: Vec<usize> = (0..looks.len()).collect();
        order.sort_by(|&a, &b| {
            let r = |l: &Look| l.cpu.as_nanos() as f64 * 1000.0 / l.milli.max(1) as f64;
            r(&looks[b]).total_cmp(&r(&looks[a]))
        });
        for &i in order.iter().take(40) {
            println!(
                "{:<26} {:>9} milli {:>9.1} us  {}",
                looks[i].family,
                looks[i].milli,
                looks[i].cpu.as_secs_f64() * 1e6,
                labels[i]
            );
        }
    }
    let mut families: Vec<&'static str> = looks.iter().map(|l| l.family).collect();
    families.sort();
    families.dedup();
    families
        .into_iter()
        .map(|family| Row {
            name: format!("logic: {family}"),
            samples: looks
                .iter()
                .filter(|l| l.family == family)
                .map(|l| Sample {
                    milli: l.milli,
                    cpu: l.cpu,
                })
                .collect(),
            worst_from: 1,
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let data = args.next().unwrap_or_else(|| "../shared/data".to_string());
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    println!(
        "{:<44} {:>6} {:>12} {:>10} {:>9} {:>9} {:>9} {:>9} {:>4}",
        "meter: inputs", "jobs", "units", "cpu ms", "ns/unit", "p50", "p99", "worst", ""
    );
    for row in solver_rows(&data, rounds) {
        row.print();
    }
    for row in logic_rows(&data) {
        row.print();
    }
    for row in generator_rows(4) {
        row.print();
    }
}
