//! The region and line families (extra regions, disjoint groups, German whispers,
//! palindromes, renban) through the facade,
//! against a plain reference search written here: on random small boards (4x4, 6x6) with
//! random instances of each family, alone and together, the engine's solution count (to 2)
//! agrees with the reference, every solution keeps the rules, validation finds a planted
//! break by its unit, and the pencil marks keep every digit of every solution.

mod common;

use common::small::{
    box_of, every_family_agrees, grid_of, random_cells, random_line, Reading, Rng,
};
use sudoku_service::engine::{validate, Cell, RuleSpec, Rules, Shape, Whisper};

/// The reference's own reading of a rule set, checked on a partial grid (row-major, 0
/// empty). Shares nothing with the engine but `RuleSpec`.
struct Reference {
    side: usize,
    /// Every group of cells whose digits must differ: rows, columns, boxes, then what the
    /// spec adds.
    groups: Vec<Vec<(usize, usize)>>,
    /// Pairs of cells and what their two digits must meet.
    pairs: Vec<Pair>,
}

type Pair = ((usize, usize), (usize, usize), Box<dyn Fn(u8, u8) -> bool>);

impl Reference {
    fn new(side: usize, spec: &RuleSpec) -> Reference {
        let (bh, bw) = box_of(side);
        let corner = |b: usize| ((b / (side / bw)) * bh, (b % (side / bw)) * bw);
        let mut groups: Vec<Vec<(usize, usize)>> = Vec::new();
        for i in 0..side {
            groups.push((0..side).map(|c| (i, c)).collect());
            groups.push((0..side).map(|r| (r, i)).collect());
            let (top, left) = corner(i);
            groups.push((0..side).map(|k| (top + k / bw, left + k % bw)).collect());
            if spec.disjoint_groups {
                // Place i of every box.
                groups.push(
                    (0..side)
                        .map(|b| {
                            let (top, left) = corner(b);
                            (top + i / bw, left + i % bw)
                        })
                        .collect(),
                );
            }
        }
        groups.extend(spec.extra_regions.iter().cloned());
        let mut pairs: Vec<Pair> = Vec::new();
        for whisper in &spec.whispers {
            let least = whisper.difference.unwrap_or(side.div_ceil(2) as u32) as u8;
            for step in whisper.cells.windows(2) {
                pairs.push((
                    step[0],
                    step[1],
                    Box::new(move |a, b| a.abs_diff(b) >= least),
                ));
            }
        }
        for line in &spec.palindromes {
            for (&p, &q) in line.iter().zip(line.iter().rev()) {
                pairs.push((p, q, Box::new(|a, b| a == b)));
            }
        }
        // A renban line: distinct digits no further apart than its length allows, which
        // on a full line is a run.
        for line in &spec.renban {
            groups.push(line.clone());
            let span = line.len() as u8 - 1;
            for (k, &p) in line.iter().enumerate() {
                for &q in &line[k + 1..] {
                    pairs.push((p, q, Box::new(move |a, b| a.abs_diff(b) <= span)));
                }
            }
        }
        Reference {
            side,
            groups,
            pairs,
        }
    }

    fn at(&self, cells: &[u8], (r, c): (usize, usize)) -> u8 {
        cells[r * self.side + c]
    }
}

impl Reading for Reference {
    fn consistent_at(&self, cells: &[u8], i: usize) -> bool {
        let p = (i / self.side, i % self.side);
        let pairs_hold = self.pairs.iter().all(|(a, b, holds)| {
            let (x, y) = (self.at(cells, *a), self.at(cells, *b));
            !(*a == p || *b == p) || x == 0 || y == 0 || holds(x, y)
        });
        pairs_hold
            && self.groups.iter().filter(|g| g.contains(&p)).all(|group| {
                let mut seen = 0u32;
                group.iter().all(|&q| {
                    let d = self.at(cells, q);
                    let fresh = d == 0 || seen & 1 << d == 0;
                    seen |= 1 << d;
                    fresh
                })
            })
    }
}

/// The families this file checks, each drawn at random by `add`.
const FAMILIES: usize = 5;

/// Adds random instances of family `family` to `spec`.
fn add(rng: &mut Rng, side: usize, family: usize, spec: &mut RuleSpec) {
    match family {
        0 => {
            for _ in 0..1 + rng.below(3) {
                let most = 2 + rng.below(side - 1);
                spec.extra_regions.push(random_cells(rng, side, most));
            }
        }
        1 => spec.disjoint_groups = true,
        2 => {
            for _ in 0..1 + rng.below(2) {
                let most = 2 + rng.below(4);
                spec.whispers.push(Whisper {
                    cells: random_line(rng, side, most),
                    difference: (rng.below(3) == 0).then(|| 1 + rng.below(side - 2) as u32),
                });
            }
        }
        3 => {
            for _ in 0..1 + rng.below(2) {
                let most = 2 + rng.below(side);
                spec.palindromes.push(random_line(rng, side, most));
            }
        }
        _ => {
            for _ in 0..1 + rng.below(3) {
                let most = 2 + rng.below(side - 1);
                spec.renban.push(random_line(rng, side, most));
            }
        }
    }
}

/// The cell at (row, col), 0-based.
fn at(row: usize, col: usize) -> Cell {
    Cell::new(row, col).unwrap()
}

#[test]
fn counts_solutions_and_marks_agree_with_a_plain_search_for_every_family() {
    every_family_agrees(0x5eed_0f11_e5a1, FAMILIES, 40, add, Reference::new);
}

#[test]
fn validation_names_the_broken_instance_and_its_cells() {
    let shape = Shape::SIX;
    let spec = RuleSpec {
        extra_regions: vec![vec![(0, 0), (5, 5)], vec![(2, 0), (3, 4)]],
        disjoint_groups: true,
        ..RuleSpec::default()
    };
    let rules = Rules::new(shape, spec).unwrap();
    // 4 at r3c1 and r4c5 repeats in extra region 2; 1 at r1c1 and r3c4 (first cells of
    // boxes 1 and 4) repeats in disjoint group 1.
    let mut cells = vec![0u8; 36];
    cells[2 * 6] = 4;
    cells[3 * 6 + 4] = 4;
    cells[0] = 1;
    cells[2 * 6 + 3] = 1;
    let report = validate(&grid_of(&cells, shape), &rules);
    let found: Vec<(&str, usize, u8, Vec<Cell>)> = report
        .conflicts
        .iter()
        .map(|c| {
            (
                c.unit.kind.name(),
                c.unit.index,
                c.digit.get(),
                c.cells.clone(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("disjoint_group", 0, 1, vec![at(0, 0), at(2, 3)]),
            ("extra_region", 1, 4, vec![at(2, 0), at(3, 4)]),
        ]
    );
    assert_eq!(
        report.conflicts[1].to_string(),
        "digit 4 repeats in extra region 2: row 3, column 1 and row 4, column 5"
    );
}
