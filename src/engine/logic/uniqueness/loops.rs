//! Unique rectangles and loops.
//!
//! A loop of cells that all hold the digits `{a, b}`, where each unit the loop touches holds
//! exactly two of its cells (one at an odd, one at an even position), could swap `a` and `b`
//! and still be a solution. So in a unique puzzle the cells with other candidates ("extra"
//! cells) must use one of them:
//! * type 1: one extra cell, which loses `a` and `b`;
//! * type 2: the extra cells share one extra digit, removed from every cell seeing them all;
//! * type 3: two extra cells in one unit act as one cell of their extra digits and form a naked
//!   set with other cells of the unit (or `a`, `b` form a hidden set there);
//! * type 4: two extra cells in one unit where `a` has no other place: they cannot be `b`.
//!
//! Rating (SE): 4.5 for a rectangle, 4.6 for a loop of 6, 4.7 of 8, 5.0 of 10 or more; type 3
//! adds 0.1 per digit of the naked set beyond one, or per hidden cell beyond one.

use std::cmp::Ordering;

use crate::engine::model::grid::Cell;

use super::super::candidates::{digit, digits_of, indices_of, subsets, Candidates, ALL_DIGITS};
use super::super::cellset::CellSet;
use super::super::rating::ExactRating;
use super::super::text::list;
use super::super::{Step, Technique};

/// The unit of kind `kind` (0 box, 1 row, 2 column) holding `cell`.
fn unit_of(kind: usize, cell: usize) -> usize {
    let (r, c) = (cell / 9, cell % 9);
    match kind {
        0 => 18 + (r / 3) * 3 + c / 3,
        1 => r,
        _ => 9 + c,
    }
}

/// A type-specific conclusion about one loop.
struct Found {
    loop_cells: CellSet,
    size: usize,
    /// The type (1-4), and 0 or 1 to tell the naked and hidden forms of type 3 apart: SE keeps
    /// one conclusion of each form per loop.
    kind: (u8, u8),
    exact: ExactRating,
    removed: Vec<(usize, usize)>,
    pair: (usize, usize),
    what: String,
}

/// The easiest unique rectangle or loop step, by SE's order (rating, then type).
pub fn find(marks: &Candidates) -> Option<Step> {
    if !marks.geometry().is_classic() {
        return None;
    }
    let mut found: Vec<Found> = Vec::new();
    for start in 0..81 {
        let m = marks.mask(start);
        if m.count_ones() != 2 {
            continue;
        }
        let mut pair = indices_of(m);
        let (Some(a), Some(b)) = (pair.next(), pair.next()) else {
            continue;
        };
        let mut loops = Vec::new();
        let mut path = vec![start];
        search(marks, (a, b), &mut path, 2, 0, None, &mut loops);
        for cells in loops {
            if is_valid_loop(&cells) {
                conclude(marks, &cells, (a, b), &mut found);
            }
        }
    }
    let best = found.into_iter().min_by(|x, y| {
        x.exact
            .partial_cmp(&y.exact)
            .unwrap_or(Ordering::Equal)
            .then(x.kind.0.cmp(&y.kind.0))
    })?;
    Some(to_step(best))
}

/// Depth-first search of closed loops through cells holding both digits, never using the same
/// unit kind twice in a row. At most two cells may hold more digits, or any number when they
/// all add the same single digit (type 2). Branches that could never pass
/// [`is_valid_loop`] (a unit with three loop cells, or two at the same parity) are cut.
fn search(
    marks: &Candidates,
    (a, b): (usize, usize),
    path: &mut Vec<usize>,
    allowed_extra: i32,
    extra: u16,
    last_kind: Option<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    super::super::work::count(path.len() as u64 + 27);
    let g = marks.geometry();
    let cell = *path.last().expect("path starts with one cell");
    let both = 1u16 << a | 1 << b;
    for kind in 0..3 {
        if Some(kind) == last_kind {
            continue;
        }
        let unit = unit_of(kind, cell);
        for &next in g.cells_of(unit) {
            let next = next as usize;
            if next == path[0] && path.len() >= 4 {
                out.push(path.clone());
                continue;
            }
            let m = marks.mask(next);
            if path.contains(&next) || m & both != both {
                continue;
            }
            let new_extra = extra | (m & !both);
            let count = m.count_ones();
            if !(count == 2 || new_extra.count_ones() == 1 || allowed_extra > 0) {
                continue;
            }
            if !can_join(path, next) {
                continue;
            }
            path.push(next);
            let left = if count > 2 {
                allowed_extra - 1
            } else {
                allowed_extra
            };
            search(marks, (a, b), path, left, new_extra, Some(kind), out);
            path.pop();
        }
    }
}

/// Whether `next`, at position `path.len()`, can still be part of a valid loop: each of its
/// units holds at most one loop cell so far, and that one at the other parity.
fn can_join(path: &[usize], next: usize) -> bool {
    let parity = path.len() % 2;
    (0..3).all(|kind| {
        let unit = unit_of(kind, next);
        let mut seen = path
            .iter()
            .enumerate()
            .filter(|&(_, &c)| unit_of(kind, c) == unit);
        match (seen.next(), seen.next()) {
            (None, _) => true,
            (Some((i, _)), None) => i % 2 != parity,
            _ => false,
        }
    })
}

/// Every unit touched by the loop holds exactly two of its cells, one at an odd and one at an
/// even position.
fn is_valid_loop(cells: &[usize]) -> bool {
    (0..3).all(|kind| {
        let mut odd = CellSet::EMPTY;
        let mut even = CellSet::EMPTY;
        for (i, &c) in cells.iter().enumerate() {
            let u = unit_of(kind, c);
            let side = if i % 2 == 1 { &mut odd } else { &mut even };
            if side.contains(u) {
                return false;
            }
            side.insert(u);
        }
        odd == even
    })
}

fn base(size: usize) -> u32 {
    match size {
        4 => 0,
        6 => 1,
        8 => 2,
        _ => 5,
    }
}

/// Adds the type 1-4 conclusions of one valid loop (each type once per set of cells).
fn conclude(marks: &Candidates, cells: &[usize], (a, b): (usize, usize), found: &mut Vec<Found>) {
    let loop_cells: CellSet = cells.iter().copied().collect();
    let both = 1u16 << a | 1 << b;
    let extra_cells: Vec<usize> = cells
        .iter()
        .copied()
        .filter(|&c| marks.mask(c).count_ones() > 2)
        .collect();
    let size = cells.len();
    let steps = base(size);
    let mut add = |kind: (u8, u8), bonus: u32, removed: Vec<(usize, usize)>, what: String| {
        if removed.is_empty()
            || found
                .iter()
                .any(|f| f.kind == kind && f.loop_cells == loop_cells)
        {
            return;
        }
        found.push(Found {
            loop_cells,
            size,
            kind,
            exact: ExactRating::new(45, steps + bonus),
            removed,
            pair: (a, b),
            what,
        });
    };
    let extra_of = |cells: &[usize]| cells.iter().fold(0u16, |acc, &c| acc | marks.mask(c)) & !both;
    match extra_cells.len() {
        1 => {
            let c = extra_cells[0];
            add(
                (1, 0),
                0,
                vec![(c, a), (c, b)],
                format!("{} must hold one of its other digits", Cell::from_index(c)),
            );
        }
        n if n > 2 => {
            type_2(marks, &extra_cells, extra_of(&extra_cells), &mut add);
        }
        2 => {
            let extra = extra_of(&extra_cells);
            if extra.count_ones() == 1 {
                type_2(marks, &extra_cells, extra, &mut add);
            } else if extra.count_ones() >= 2 {
                type_3(
                    marks,
                    (extra_cells[0], extra_cells[1]),
                    (a, b),
                    extra,
                    &mut add,
                );
            }
            type_4(marks, (extra_cells[0], extra_cells[1]), (a, b), &mut add);
        }
        _ => {}
    }
}

fn type_2(
    marks: &Candidates,
    extra_cells: &[usize],
    extra: u16,
    add: &mut impl FnMut((u8, u8), u32, Vec<(usize, usize)>, String),
) {
    let g = marks.geometry();
    let Some(d) = indices_of(extra).next() else {
        return;
    };
    let set: CellSet = extra_cells.iter().copied().collect();
    let removed = g.common_peers(set) & marks.cells_with(d);
    let named: Vec<Cell> = extra_cells.iter().map(|&c| Cell::from_index(c)).collect();
    add(
        (2, 0),
        0,
        removed.iter().map(|c| (c, d)).collect(),
        format!("one of {} must be {}", list(&named), digit(d)),
    );
}

/// Type 3: the two extra cells act as one cell holding their extra digits.
fn type_3(
    marks: &Candidates,
    (c1, c2): (usize, usize),
    (a, b): (usize, usize),
    extra: u16,
    add: &mut impl FnMut((u8, u8), u32, Vec<(usize, usize)>, String),
) {
    let g = marks.geometry();
    let both = 1u16 << a | 1 << b;
    for degree in 2..=7u32 {
        for kind in 0..3 {
            let unit = unit_of(kind, c1);
            if unit != unit_of(kind, c2) {
                continue;
            }
            let empty = marks.empty_in(unit);
            let cells = g.cells_of(unit);
            let j1 = cells.iter().position(|&c| c as usize == c1).unwrap_or(0);
            let j2 = cells.iter().position(|&c| c as usize == c2).unwrap_or(0);
            if degree * 2 <= empty && degree >= extra.count_ones() {
                for chosen in subsets(0x1FF, degree) {
                    if chosen >> j1 & 1 == 0 || chosen >> j2 & 1 != 0 {
                        continue;
                    }
                    let others: Vec<usize> = indices_of(chosen & !(1 << j1))
                        .map(|j| cells[j] as usize)
                        .collect();
                    let naked = others
                        .iter()
                        .fold(extra & marks.mask(c1) & marks.mask(c2), |acc, &c| {
                            acc | marks.mask(c)
                        });
                    let union = others.iter().fold(extra, |acc, &c| acc | marks.mask(c));
                    let each_two = others.iter().all(|&c| marks.mask(c).count_ones() >= 2);
                    if naked.count_ones() != degree || union.count_ones() != degree || !each_two {
                        continue;
                    }
                    let keep: CellSet = others.iter().copied().chain([c1, c2]).collect();
                    let removed: Vec<(usize, usize)> = (g.set_of(unit) - keep)
                        .iter()
                        .flat_map(|c| indices_of(marks.mask(c) & union).map(move |d| (c, d)))
                        .collect();
                    let named: Vec<Cell> = others.iter().map(|&c| Cell::from_index(c)).collect();
                    let digits: Vec<_> = digits_of(union).collect();
                    add(
                        (3, 0),
                        degree - 1,
                        removed,
                        format!(
                            "their extra digits form a naked set of {} with {} in {}",
                            list(&digits),
                            list(&named),
                            g.unit(unit)
                        ),
                    );
                }
            }
            if degree * 2 < empty {
                let rest = ALL_DIGITS & !both & !extra;
                if (degree - 2) as usize > rest.count_ones() as usize {
                    continue;
                }
                for chosen in subsets(rest, degree - 2) {
                    let values = chosen | both;
                    let mut union = CellSet::EMPTY;
                    let mut each = true;
                    for d in indices_of(values) {
                        let places = marks.places_in(unit, d) - CellSet::single(c2);
                        each &= !places.is_empty();
                        union |= places;
                    }
                    if !each || union.len() != degree {
                        continue;
                    }
                    let hidden = union - CellSet::single(c1) - CellSet::single(c2);
                    let removed: Vec<(usize, usize)> = hidden
                        .iter()
                        .flat_map(|c| indices_of(marks.mask(c) & !values).map(move |d| (c, d)))
                        .collect();
                    let digits: Vec<_> = digits_of(values).collect();
                    add(
                        (3, 1),
                        hidden.len().saturating_sub(1),
                        removed,
                        format!(
                            "{} form a hidden set in {} with them",
                            list(&digits),
                            g.unit(unit)
                        ),
                    );
                }
            }
        }
    }
}

/// Type 4: in a unit shared by the two extra cells, one loop digit has no other place.
fn type_4(
    marks: &Candidates,
    (c1, c2): (usize, usize),
    (a, b): (usize, usize),
    add: &mut impl FnMut((u8, u8), u32, Vec<(usize, usize)>, String),
) {
    let g = marks.geometry();
    let mut locked_a = None;
    let mut locked_b = None;
    for kind in 0..3 {
        let unit = unit_of(kind, c1);
        if unit != unit_of(kind, c2) {
            continue;
        }
        let pair: CellSet = [c1, c2].into_iter().collect();
        if (marks.places_in(unit, a) - pair).is_empty() {
            locked_a = Some(unit);
        }
        if (marks.places_in(unit, b) - pair).is_empty() {
            locked_b = Some(unit);
        }
    }
    let (unit, locked, other) = match (locked_a, locked_b) {
        (Some(u), _) => (u, a, b),
        (None, Some(u)) => (u, b, a),
        _ => return,
    };
    add(
        (4, 0),
        0,
        vec![(c1, other), (c2, other)],
        format!(
            "in {}, {} can only go in {} and {}, so neither can be {}",
            g.unit(unit),
            digit(locked),
            Cell::from_index(c1),
            Cell::from_index(c2),
            digit(other)
        ),
    );
}

fn to_step(found: Found) -> Step {
    let (a, b) = (digit(found.pair.0), digit(found.pair.1));
    let cells: Vec<Cell> = found.loop_cells.iter().map(Cell::from_index).collect();
    let technique = if found.size == 4 {
        Technique::UniqueRectangle
    } else {
        Technique::UniqueLoop
    };
    let shape = if found.size == 4 {
        "a rectangle".to_string()
    } else {
        format!("a loop of {}", found.size)
    };
    Step::eliminating(
        technique,
        found.exact.rating(),
        found
            .removed
            .iter()
            .map(|&(c, d)| (Cell::from_index(c), digit(d)))
            .collect(),
        cells.clone(),
        vec![a, b],
        Vec::new(),
        format!(
            "{} form {shape} on {a} and {b} (type {}) that would allow two solutions, so {}.",
            super::super::text::capitalize(&list(&cells)),
            found.kind.0,
            found.what
        ),
    )
}
