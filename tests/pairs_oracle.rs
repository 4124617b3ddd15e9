//! The families of cell domains and pairwise relations (anti-knight, non-consecutive, odd
//! and even cells, thermometers, Kropki and XV dots with their negative constraints) through
//! the facade, against a plain reference search written here: on random small boards (4x4,
//! 6x6) with random instances of each family, the engine's solution count (to 2) agrees
//! with the reference, every solution keeps the rules, and the pencil marks keep every digit
//! of every solution.

mod common;

use common::small::{agree, box_of, solutions, Rng};
use sudoku_service::engine::{Dot, DotKind, Engine, Negative, RuleSpec, Rules, Shape, Thermometer};

/// The reference's own reading of a rule set: every rule as "digits of two cells" or "digit
/// of one cell", checked on a partial grid. Shares nothing with the engine but `RuleSpec`.
struct Reference<'a> {
    side: usize,
    spec: &'a RuleSpec,
}

impl Reference<'_> {
    /// Whether the digits `a` at `p` and `b` at `q` (both placed) break no rule.
    fn pair_ok(&self, p: (usize, usize), a: u8, q: (usize, usize), b: u8) -> bool {
        let (bh, bw) = box_of(self.side);
        let (dr, dc) = (p.0.abs_diff(q.0), p.1.abs_diff(q.1));
        let same_house = p.0 == q.0 || p.1 == q.1 || (p.0 / bh == q.0 / bh && p.1 / bw == q.1 / bw);
        if a == b && (same_house || (self.spec.anti_knight && dr * dc == 2)) {
            return false;
        }
        let orthogonal = dr + dc == 1;
        if self.spec.non_consecutive && orthogonal && a.abs_diff(b) == 1 {
            return false;
        }
        let (a32, b32) = (u32::from(a), u32::from(b));
        let mut dotted = [false; 3];
        for dot in &self.spec.dots {
            let [x, y] = dot.cells;
            if !((x, y) == (p, q) || (x, y) == (q, p)) {
                continue;
            }
            let ok = match dot.kind {
                DotKind::White => a32.abs_diff(b32) == dot.value.unwrap_or(1),
                DotKind::Black => {
                    let v = dot.value.unwrap_or(2);
                    a32 * v == b32 || b32 * v == a32
                }
                DotKind::X => a + b == 10,
                DotKind::V => a + b == 5,
            };
            if !ok {
                return false;
            }
            dotted[match dot.kind {
                DotKind::White => 0,
                DotKind::Black => 1,
                _ => 2,
            }] = true;
        }
        if orthogonal {
            for negative in &self.spec.negative {
                let broken = match negative {
                    Negative::White => !dotted[0] && a.abs_diff(b) == 1,
                    Negative::Black => !dotted[1] && (a * 2 == b || b * 2 == a),
                    Negative::Xv => !dotted[2] && (a + b == 10 || a + b == 5),
                };
                if broken {
                    return false;
                }
            }
        }
        for thermo in &self.spec.thermometers {
            for step in thermo.cells.windows(2) {
                let ordered = |lo: u8, hi: u8| if thermo.slow { lo <= hi } else { lo < hi };
                if (step[0], step[1]) == (p, q) && !ordered(a, b)
                    || (step[0], step[1]) == (q, p) && !ordered(b, a)
                {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `d` may go at cell `i` of `cells` (row-major, 0 empty).
    fn allowed(&self, cells: &[u8], i: usize, d: u8) -> bool {
        let side = self.side;
        let p = (i / side, i % side);
        let odd = self.spec.odd.contains(&p);
        let even = self.spec.even.contains(&p);
        if odd && d % 2 == 0 || even && d % 2 == 1 {
            return false;
        }
        (0..side * side)
            .all(|j| j == i || cells[j] == 0 || self.pair_ok(p, d, (j / side, j % side), cells[j]))
    }

    /// Solutions of `cells` up to `limit`, by plain depth-first search in reading order.
    fn solutions(&self, cells: &mut [u8], limit: usize, out: &mut Vec<Vec<u8>>) {
        solutions(cells, self.side, limit, out, &|cells: &[u8], i| {
            self.allowed(cells, i, cells[i])
        });
    }
}

/// A random orthogonal neighbour pair of a grid of `side`.
fn neighbours(rng: &mut Rng, side: usize) -> [(usize, usize); 2] {
    let (r, c) = (rng.below(side), rng.below(side));
    if rng.below(2) == 0 && c + 1 < side || r + 1 == side {
        let c = c.min(side - 2);
        [(r, c), (r, c + 1)]
    } else {
        [(r, c), (r + 1, c)]
    }
}

/// Random instances of family `family` (0-5) for a grid of `side`.
fn random_spec(rng: &mut Rng, side: usize, family: usize) -> RuleSpec {
    let mut spec = RuleSpec::default();
    match family {
        0 => spec.anti_knight = true,
        1 => spec.non_consecutive = true,
        2 => {
            let mut cells: Vec<(usize, usize)> = (0..side + 2)
                .map(|_| (rng.below(side), rng.below(side)))
                .collect();
            cells.sort_unstable();
            cells.dedup();
            let half = cells.len() / 2;
            spec.even = cells.split_off(half);
            spec.odd = cells;
        }
        3 => {
            for _ in 0..1 + rng.below(3) {
                // A walk of king's moves that does not revisit a cell.
                let mut cells = vec![(rng.below(side), rng.below(side))];
                for _ in 0..1 + rng.below(side - 1) {
                    let &(r, c) = cells.last().unwrap();
                    let (r, c) = (
                        (r + rng.below(3)).saturating_sub(1).min(side - 1),
                        (c + rng.below(3)).saturating_sub(1).min(side - 1),
                    );
                    if !cells.contains(&(r, c)) {
                        cells.push((r, c));
                    }
                }
                if cells.len() >= 2 {
                    spec.thermometers.push(Thermometer {
                        cells,
                        slow: rng.below(3) == 0,
                    });
                }
            }
        }
        _ => {
            // X (a sum of 10) needs digits up to 6 at least.
            let kinds = [DotKind::White, DotKind::Black, DotKind::V, DotKind::X];
            for _ in 0..1 + rng.below(side) {
                let kind = kinds[rng.below(if side >= 6 { 4 } else { 3 })];
                let value = match kind {
                    DotKind::White if rng.below(3) == 0 => Some(2),
                    DotKind::Black if side >= 6 && rng.below(3) == 0 => Some(3),
                    _ => None,
                };
                spec.dots.push(Dot {
                    cells: neighbours(rng, side),
                    kind,
                    value,
                });
            }
            if family == 5 {
                spec.negative = match rng.below(4) {
                    0 => vec![Negative::White],
                    1 | 2 => vec![Negative::Black],
                    _ => vec![Negative::Xv],
                };
            }
        }
    }
    spec
}

#[test]
fn counts_solutions_and_marks_agree_with_a_plain_search_for_every_family() {
    let mut rng = Rng(0x9a1e_5eed_7043);
    let mut engine = Engine::new();
    for family in 0..6 {
        let mut seen_counts = [0usize; 3];
        for shape in [Shape::FOUR, Shape::SIX] {
            let side = shape.side();
            for _ in 0..40 {
                let spec = random_spec(&mut rng, side, family);
                let reference = Reference { side, spec: &spec };
                let rules = Rules::new(shape, spec.clone()).unwrap();
                // Random givens, each kept only where the reference allows it (few under
                // non-consecutive, which leaves few grids at all).
                let mut cells = vec![0u8; side * side];
                let givens = match family {
                    1 | 5 => rng.below(4) + side - 4,
                    _ => rng.below(side + 2) + 2 * side - 4,
                };
                for _ in 0..givens {
                    let i = rng.below(side * side);
                    let d = rng.below(side) as u8 + 1;
                    if cells[i] == 0 && reference.allowed(&cells, i, d) {
                        cells[i] = d;
                    }
                }
                let mut all = Vec::new();
                reference.solutions(&mut cells.clone(), 60, &mut all);
                let obeys =
                    |found: &[u8]| (0..side * side).all(|i| reference.allowed(found, i, found[i]));
                seen_counts[agree(&mut engine, &rules, &cells, &all, obeys, &spec)] += 1;
            }
        }
        // Family by family, the boards drawn cover none, one and many solutions.
        assert!(
            seen_counts.iter().all(|&n| n > 0),
            "family {family}: {seen_counts:?}"
        );
    }
}
