//! The setter families that constrain several cells at once (arrows, little killers,
//! sandwiches, X-sums, skyscrapers, between lines, region-sum lines, quadruples) and the
//! minimum/maximum cells and clones, through the facade, against a plain reference search
//! written here: on random small boards (4x4, 6x6) with random instances of each family,
//! alone and two together, the engine's solution count (to 2) agrees with the reference,
//! every solution keeps the rules, and the pencil marks keep every digit of every solution.
//! Validation names a broken instance by its unit.

mod common;

use common::small::{
    box_of, every_family_agrees, grid_of, random_cells, random_walk, Reading, Rng,
};
use sudoku_service::engine::{
    validate, Arrow, ClonePair, Direction, LittleKiller, Outside, Quadruple, RuleSpec, Rules,
    SandwichClue, Shape, Side, SkyscraperClue, XSumClue,
};

type Pos = (usize, usize);

/// What the digits of a check's cells must meet.
type Holds = Box<dyn Fn(&[u8]) -> bool>;

/// A rule of several cells: its cells, and what their digits (in that order) must meet once
/// all are placed.
struct Check {
    cells: Vec<Pos>,
    holds: Holds,
}

/// The reference's own reading of a rule set, checked on a partial grid (row-major, 0
/// empty). Shares nothing with the engine but `RuleSpec`.
struct Reference {
    side: usize,
    checks: Vec<Check>,
}

/// The cells of a row (`Left`, `Right`) or column (`Top`, `Bottom`) from the clue's end.
fn line_from(side: usize, at: Outside) -> Vec<Pos> {
    let i = at.index;
    let mut cells: Vec<Pos> = match at.side {
        Side::Left | Side::Right => (0..side).map(|c| (i, c)).collect(),
        Side::Top | Side::Bottom => (0..side).map(|r| (r, i)).collect(),
    };
    if matches!(at.side, Side::Right | Side::Bottom) {
        cells.reverse();
    }
    cells
}

impl Reference {
    fn new(side: usize, spec: &RuleSpec) -> Reference {
        let mut checks: Vec<Check> = Vec::new();
        let mut check = |cells: Vec<Pos>, holds: Holds| checks.push(Check { cells, holds });
        for arrow in &spec.arrows {
            let mut circle = arrow.circle.clone();
            circle.sort_unstable();
            let n = circle.len();
            let cells: Vec<Pos> = circle
                .into_iter()
                .chain(arrow.lines.iter().flatten().copied())
                .collect();
            check(
                cells,
                Box::new(move |d| {
                    let value = d[..n].iter().fold(0u32, |v, &x| v * 10 + u32::from(x));
                    value == d[n..].iter().map(|&x| u32::from(x)).sum::<u32>()
                }),
            );
        }
        for clue in &spec.little_killers {
            let (dr, dc) = match clue.direction {
                Direction::DownRight => (1, 1),
                Direction::DownLeft => (1, -1),
                Direction::UpRight => (-1, 1),
                Direction::UpLeft => (-1, -1),
            };
            let mut cells = Vec::new();
            let (mut r, mut c) = (clue.start.0 as isize, clue.start.1 as isize);
            while (0..side as isize).contains(&r) && (0..side as isize).contains(&c) {
                cells.push((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            let sum = clue.sum;
            check(
                cells,
                Box::new(move |d| d.iter().map(|&x| u32::from(x)).sum::<u32>() == sum),
            );
        }
        for clue in &spec.sandwiches {
            let sum = clue.sum;
            let top = side as u8;
            check(
                line_from(side, clue.at),
                Box::new(move |d| {
                    let a = d.iter().position(|&x| x == 1).unwrap();
                    let b = d.iter().position(|&x| x == top).unwrap();
                    let between = &d[a.min(b) + 1..a.max(b)];
                    between.iter().map(|&x| u32::from(x)).sum::<u32>() == sum
                }),
            );
        }
        for clue in &spec.x_sums {
            let sum = clue.sum;
            check(
                line_from(side, clue.at),
                Box::new(move |d| {
                    let first = &d[..usize::from(d[0])];
                    first.iter().map(|&x| u32::from(x)).sum::<u32>() == sum
                }),
            );
        }
        for clue in &spec.skyscrapers {
            let count = clue.count;
            check(
                line_from(side, clue.at),
                Box::new(move |d| {
                    let mut tallest = 0;
                    let seen = d.iter().filter(|&&x| {
                        let taller = x > tallest;
                        tallest = tallest.max(x);
                        taller
                    });
                    seen.count() as u32 == count
                }),
            );
        }
        for line in &spec.between_lines {
            check(
                line.clone(),
                Box::new(|d| {
                    let (a, b) = (d[0], d[d.len() - 1]);
                    d[1..d.len() - 1]
                        .iter()
                        .all(|&x| a.min(b) < x && x < a.max(b))
                }),
            );
        }
        let (bh, bw) = box_of(side);
        for line in &spec.region_sum_lines {
            // Consecutive runs in one box.
            let mut cuts = vec![0];
            for k in 1..line.len() {
                let (p, q) = (line[k - 1], line[k]);
                if (p.0 / bh, p.1 / bw) != (q.0 / bh, q.1 / bw) {
                    cuts.push(k);
                }
            }
            cuts.push(line.len());
            check(
                line.clone(),
                Box::new(move |d| {
                    let sums: Vec<u32> = cuts
                        .windows(2)
                        .map(|w| d[w[0]..w[1]].iter().map(|&x| u32::from(x)).sum())
                        .collect();
                    sums.iter().all(|&s| s == sums[0])
                }),
            );
        }
        for quad in &spec.quadruples {
            let wanted = quad.digits.clone();
            check(
                quad.cells.clone(),
                Box::new(move |d| {
                    let mut left: Vec<u8> = d.to_vec();
                    wanted
                        .iter()
                        .all(|&w| match left.iter().position(|&x| u32::from(x) == w) {
                            Some(k) => {
                                left.remove(k);
                                true
                            }
                            None => false,
                        })
                }),
            );
        }
        for (cells, smaller) in [(&spec.minimum, true), (&spec.maximum, false)] {
            for &(r, c) in cells {
                let around = [(0, 1), (2, 1), (1, 0), (1, 2)]
                    .into_iter()
                    .filter_map(|(dr, dc)| {
                        let (r, c) = ((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?);
                        (r < side && c < side).then_some((r, c))
                    });
                for other in around {
                    check(
                        vec![(r, c), other],
                        Box::new(move |d| if smaller { d[0] < d[1] } else { d[0] > d[1] }),
                    );
                }
            }
        }
        for clone in &spec.clones {
            for (&a, &b) in clone.cells.iter().zip(&clone.copy) {
                check(vec![a, b], Box::new(|d| d[0] == d[1]));
            }
        }
        Reference { side, checks }
    }
}

impl Reading for Reference {
    /// Its row, column and box, and every check whose cells are all placed.
    fn consistent_at(&self, cells: &[u8], i: usize) -> bool {
        let side = self.side;
        let (bh, bw) = box_of(side);
        let (r, c) = (i / side, i % side);
        let d = cells[i];
        let clash = (0..side * side).any(|j| {
            let (s, t) = (j / side, j % side);
            j != i
                && cells[j] == d
                && d != 0
                && (s == r || t == c || (s / bh == r / bh && t / bw == c / bw))
        });
        !clash
            && self
                .checks
                .iter()
                .filter(|check| check.cells.contains(&(r, c)))
                .all(|check| {
                    let digits: Vec<u8> = check
                        .cells
                        .iter()
                        .map(|&(r, c)| cells[r * side + c])
                        .collect();
                    digits.contains(&0) || (check.holds)(&digits)
                })
    }
}

/// The families this file checks, each drawn at random by `add`.
const FAMILIES: usize = 10;

/// A random side and index of an outside clue.
fn outside(rng: &mut Rng, side: usize) -> Outside {
    let sides = [Side::Left, Side::Right, Side::Top, Side::Bottom];
    Outside {
        side: sides[rng.below(4)],
        index: rng.below(side),
    }
}

/// Adds random instances of family `family` to `spec`.
fn add(rng: &mut Rng, side: usize, family: usize, spec: &mut RuleSpec) {
    let total = (side * (side + 1) / 2) as u32;
    match family {
        0 => {
            for _ in 0..1 + rng.below(2) {
                let circle = (rng.below(side), rng.below(side - 1));
                let pill = side == 6 && rng.below(4) == 0;
                let mut cells = vec![circle];
                if pill {
                    cells.push((circle.0, circle.1 + 1));
                }
                // The walk's cells after the circle, up to any that is in the circle.
                let most = 2 + rng.below(3);
                let walk = random_walk(rng, side, most, circle);
                let shaft: Vec<Pos> = (walk.into_iter().skip(1))
                    .take_while(|p| !cells.contains(p))
                    .collect();
                if shaft.is_empty() {
                    continue;
                }
                spec.arrows.push(Arrow {
                    circle: cells,
                    lines: vec![shaft],
                });
            }
        }
        1 => {
            for _ in 0..1 + rng.below(2) {
                let (start, direction) = match rng.below(4) {
                    0 => ((0, rng.below(side - 1)), Direction::DownRight),
                    1 => ((0, 1 + rng.below(side - 1)), Direction::DownLeft),
                    2 => ((side - 1, rng.below(side - 1)), Direction::UpRight),
                    _ => ((rng.below(side - 1), side - 1), Direction::DownLeft),
                };
                let length = match direction {
                    Direction::DownRight | Direction::UpRight => side - start.1,
                    _ => (start.1 + 1).min(side - start.0),
                };
                let sum = (length + rng.below(length * (side - 1) + 1)) as u32;
                spec.little_killers.push(LittleKiller {
                    start,
                    direction,
                    sum,
                });
            }
        }
        2 => {
            let most = total - 1 - side as u32;
            spec.sandwiches.push(SandwichClue {
                at: outside(rng, side),
                sum: rng.below(most as usize + 1) as u32,
            });
        }
        3 => {
            spec.x_sums.push(XSumClue {
                at: outside(rng, side),
                sum: 1 + rng.below(total as usize) as u32,
            });
        }
        4 => {
            for _ in 0..1 + rng.below(2) {
                let at = outside(rng, side);
                if spec.skyscrapers.iter().any(|c| c.at == at) {
                    continue;
                }
                spec.skyscrapers.push(SkyscraperClue {
                    at,
                    count: 1 + rng.below(side) as u32,
                });
            }
        }
        5 => {
            for _ in 0..1 + rng.below(2) {
                let (start, most) = ((rng.below(side), rng.below(side)), 3 + rng.below(2));
                let line = random_walk(rng, side, most, start);
                if line.len() >= 3 {
                    spec.between_lines.push(line);
                }
            }
        }
        6 => {
            for _ in 0..1 + rng.below(2) {
                let (start, most) = ((rng.below(side), rng.below(side)), 2 + rng.below(4));
                let line = random_walk(rng, side, most, start);
                spec.region_sum_lines.push(line);
            }
        }
        7 => {
            for _ in 0..1 + rng.below(2) {
                let (r, c) = (rng.below(side - 1), rng.below(side - 1));
                let digits = (0..1 + rng.below(3))
                    .map(|_| 1 + rng.below(side) as u32)
                    .collect::<Vec<_>>();
                let mut sorted = digits.clone();
                sorted.sort_unstable();
                if sorted.windows(3).any(|w| w[0] == w[2]) {
                    continue;
                }
                spec.quadruples.push(Quadruple {
                    cells: vec![(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)],
                    digits,
                });
            }
        }
        8 => {
            let cells = random_cells(rng, side, 3);
            let split = rng.below(cells.len() + 1);
            spec.minimum = cells[..split].to_vec();
            spec.maximum = cells[split..].to_vec();
        }
        _ => {
            let cells = random_cells(rng, side, 4);
            let half = cells.len() / 2;
            if half > 0 {
                spec.clones.push(ClonePair {
                    cells: cells[..half].to_vec(),
                    copy: cells[half..2 * half].to_vec(),
                });
            }
        }
    }
}

#[test]
fn counts_solutions_and_marks_agree_with_a_plain_search_for_every_family() {
    every_family_agrees(0x5e77_e25e_ed01, FAMILIES, 30, add, Reference::new);
}

#[test]
fn validation_names_a_broken_instance_by_its_unit() {
    let shape = Shape::NINE;
    let spec = RuleSpec {
        arrows: vec![Arrow {
            circle: vec![(0, 0)],
            lines: vec![vec![(0, 1), (0, 2)]],
        }],
        sandwiches: vec![SandwichClue {
            at: Outside {
                side: Side::Left,
                index: 4,
            },
            sum: 0,
        }],
        ..RuleSpec::default()
    };
    let rules = Rules::new(shape, spec).unwrap();
    let mut cells = vec![0u8; 81];
    // 2 in the circle cannot be 5 + anything.
    cells[0] = 2;
    cells[1] = 5;
    // 1 and 9 one cell apart in row 5: whatever goes between them, the sum is not 0.
    cells[36] = 1;
    cells[38] = 9;
    let report = validate(&grid_of(&cells, shape), &rules);
    let found: Vec<(&str, usize)> = report
        .conflicts
        .iter()
        .map(|c| (c.unit.kind.name(), c.unit.index))
        .collect();
    assert_eq!(found, [("arrow", 0), ("sandwich", 0)]);
    assert_eq!(
        report.conflicts[0].to_string(),
        "digit 2 breaks arrow 1: row 1, column 1 and row 1, column 2"
    );
    // A board that keeps both is not reported: 8 = 5 + 3, and 1 beside 9.
    cells[0] = 8;
    cells[2] = 3;
    cells[38] = 0;
    cells[37] = 9;
    let report = validate(&grid_of(&cells, shape), &rules);
    assert!(report.conflicts.is_empty(), "{:?}", report.conflicts);
}
