//! Chains of strong links on one digit (Sukaku Explainer's "strong links" finder): the
//! Skyscraper, 2-String Kite, Turbot Fish and Empty Rectangle with two links (4.0-4.3), and
//! their three- and four-link versions (5.4-5.7, 5.8-6.1).
//!
//! A strong link is a unit where the digit's places split into two groups, one of which must
//! hold the digit: two cells, or (grouped) two clusters that each lie in one line-box
//! intersection. Links are chained end to start through a shared unit (a weak link: at most
//! one of two places in a unit holds the digit). Then one of the two outer ends holds the
//! digit, so cells that see both ends lose it. When the outer ends also share a unit the chain
//! is a loop, and every weak link of it eliminates.
//!
//! Rating: the base for the number of links, plus 0.3 when any link is grouped, else 0.1 for
//! a box link or for links in both rows and columns, 0.2 for both (a Skyscraper, two parallel
//! lines, stays at the base).

use std::cmp::Ordering;

use crate::engine::model::grid::Cell;

use super::barren;
use super::candidates::{digit, Candidates};
use super::cellset::CellSet;
use super::geometry::{Geometry, BOXES, COLUMNS, ROWS};
use super::rating::ExactRating;
use super::text::list;
use super::{Step, Technique};

/// One strong link: the digit's places in `unit` are `places`, split into two end groups.
#[derive(Clone, Copy, Debug)]
struct Link {
    unit: usize,
    places: CellSet,
    ends: [CellSet; 2],
    grouped: bool,
}

/// A complete chain, with what it eliminates.
struct Chain {
    links: Vec<usize>,
    removed: CellSet,
    exact: ExactRating,
    technique: Technique,
}

/// Box cell positions (0-8 in the box's reading order) that are in the same row or column as
/// `heart`, other than it: `(column mates, row mates, the four cells in neither)`.
const fn cross_of(heart: usize) -> ([usize; 2], [usize; 2], [usize; 4]) {
    let (r, c) = (heart / 3, heart % 3);
    let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
    let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
    let (lo_r, hi_r) = if r1 < r2 { (r1, r2) } else { (r2, r1) };
    let (lo_c, hi_c) = if c1 < c2 { (c1, c2) } else { (c2, c1) };
    (
        [lo_r * 3 + c, hi_r * 3 + c],
        [r * 3 + lo_c, r * 3 + hi_c],
        [
            lo_r * 3 + lo_c,
            lo_r * 3 + hi_c,
            hi_r * 3 + lo_c,
            hi_r * 3 + hi_c,
        ],
    )
}

/// [`cross_of`] for the nine hearts.
const CROSSES: [([usize; 2], [usize; 2], [usize; 4]); 9] = {
    let mut all = [([0; 2], [0; 2], [0; 4]); 9];
    let mut heart = 0;
    while heart < 9 {
        all[heart] = cross_of(heart);
        heart += 1;
    }
    all
};

/// The strong links of digit `d` in unit `k` (none, one, or two for a 2x2 block of places
/// that can be split by rows or by columns).
fn links_in(marks: &Candidates, k: usize, d: usize, out: &mut Vec<Link>) {
    let g = marks.geometry();
    let places = marks.places_in(k, d);
    let count = places.len();
    let cells = g.cells_of(k);
    let of = |positions: &[usize]| -> CellSet {
        positions
            .iter()
            .map(|&j| cells[j] as usize)
            .filter(|&c| places.contains(c))
            .collect()
    };
    if count == 2 {
        let mut it = places.iter();
        let (a, b) = (it.next().unwrap_or(0), it.next().unwrap_or(0));
        if g.is_box_like(k) && (a / 9 == b / 9 || a % 9 == b % 9) {
            return; // the same link is found in the line
        }
        out.push(Link {
            unit: k,
            places,
            ends: [CellSet::single(a), CellSet::single(b)],
            grouped: false,
        });
        return;
    }
    // Groups are line-box intersections: plain boxes and lines only.
    if !(3..=6).contains(&count) || !g.has_standard_boxes() || k >= BOXES.end {
        return;
    }
    let grouped = |ends: [CellSet; 2]| Link {
        unit: k,
        places,
        ends,
        grouped: true,
    };
    if !BOXES.contains(&k) {
        // A line: the places avoid one box segment and fill the other two.
        for empty in 0..3 {
            let segment = of(&[3 * empty, 3 * empty + 1, 3 * empty + 2]);
            if !segment.is_empty() {
                continue;
            }
            let others: Vec<usize> = (0..3).filter(|&s| s != empty).collect();
            let blade = |s: usize| of(&[3 * s, 3 * s + 1, 3 * s + 2]);
            let (b1, b2) = (blade(others[0]), blade(others[1]));
            if !b1.is_empty() && !b2.is_empty() {
                out.push(grouped([b1, b2]));
            }
            return;
        }
        return;
    }
    // A box: the places lie in the cross of one cell (the "heart") ...
    for (&heart_cell, (column_mates, row_mates, outside)) in cells.iter().zip(CROSSES) {
        if !of(&outside).is_empty() {
            continue;
        }
        let (b1, b2) = (of(&column_mates), of(&row_mates));
        let has_heart = places.contains(heart_cell as usize);
        let heart_cell = CellSet::single(heart_cell as usize);
        if b1.is_empty() || b2.is_empty() {
            return;
        }
        let ends = match (b1.len(), b2.len()) {
            (_, 1) => [b2, b1 | heart_cell],
            (1, _) => [b1, b2 | heart_cell],
            _ if has_heart => [b1 | heart_cell, b2 | heart_cell],
            _ => [b1, b2],
        };
        out.push(grouped(ends));
        return;
    }
    // ... or in two of its rows (then columns) with at least two places each.
    if count < 4 {
        return;
    }
    let line_sets: [[usize; 3]; 6] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
    ];
    for (empty, pair) in [
        (2, (0, 1)),
        (1, (0, 2)),
        (0, (1, 2)),
        (5, (3, 4)),
        (4, (3, 5)),
        (3, (4, 5)),
    ] {
        if !of(&line_sets[empty]).is_empty() {
            continue;
        }
        let (b1, b2) = (of(&line_sets[pair.0]), of(&line_sets[pair.1]));
        if b1.is_empty() || b2.is_empty() {
            return;
        }
        out.push(grouped([b1, b2]));
        // Four places in a rectangle split the other way too.
        let (v1, v2): (Vec<usize>, Vec<usize>) = (b1.iter().collect(), b2.iter().collect());
        let same_line = |a: usize, b: usize| a / 9 == b / 9 || a % 9 == b % 9;
        if count == 4
            && v1.len() == 2
            && v2.len() == 2
            && same_line(v1[0], v2[0])
            && same_line(v1[1], v2[1])
        {
            let first: CellSet = [v1[0], v2[0]].into_iter().collect();
            let second: CellSet = [v1[1], v2[1]].into_iter().collect();
            out.push(grouped([first, second]));
        }
        return;
    }
}

/// The unit kinds and grouping of a chain decide its rating.
fn exact_rating(g: &Geometry, links: &[Link], base: u16) -> (ExactRating, bool, bool) {
    let grouped = links.iter().any(|l| l.grouped);
    let has_box = links.iter().any(|l| g.is_box_like(l.unit));
    let has_row = links.iter().any(|l| ROWS.contains(&l.unit));
    let has_column = links.iter().any(|l| COLUMNS.contains(&l.unit));
    // A diagonal is a third direction of line.
    let has_diagonal = links
        .iter()
        .any(|l| !g.is_box_like(l.unit) && l.unit >= BOXES.end);
    let mixed_lines = [has_row, has_column, has_diagonal]
        .into_iter()
        .filter(|&x| x)
        .count()
        >= 2;
    let steps = if grouped {
        3
    } else {
        match (has_box, mixed_lines) {
            (false, false) => 0,
            (true, true) => 2,
            _ => 1,
        }
    };
    (ExactRating::new(base, steps), grouped, has_box)
}

/// The best chain of `count` strong links (2-4) on any digit, by SE's order: easiest, then
/// most eliminations. Every house has links of two places; grouped links need the plain
/// boxes (line-box intersections).
pub fn find(marks: &Candidates, count: usize) -> Option<Step> {
    let g = marks.geometry();
    let base = match count {
        2 => 40,
        3 => 54,
        _ => 58,
    };
    let search = barren::Search::StrongLinks(count);
    let digits = barren::worth_a_look(search, marks);
    let mut best: Option<(usize, Chain)> = None;
    let key = (g.id(), std::array::from_fn(|c| marks.mask(c)));
    GRAPHS.with(|cache| {
        let mut cache = cache.borrow_mut();
        // The 2-, 3- and 4-link searches of one step see the same marks: build each digit's
        // graph once, when first needed.
        if cache.as_ref().is_none_or(|(cached, _)| *cached != key) {
            *cache = Some((key, std::array::from_fn(|_| None)));
        }
        let (_, graphs) = cache.as_mut().expect("just filled");
        for d in (0..9).filter(|&d| digits[d]) {
            let digit_graph = graphs[d].get_or_insert_with(|| DigitGraph::new(marks, d));
            let mut on_digit = None;
            search_digit(marks, d, digit_graph, count, base, &mut on_digit);
            match on_digit {
                None => barren::found_nothing(search, marks, d),
                // Digits ascending, a later one only when strictly better: SE's order.
                Some((_, chain)) if is_better(&chain, best.as_ref().map(|(_, b)| b)) => {
                    best = Some((d, chain));
                }
                Some(_) => {}
            }
        }
    });
    let (d, chain) = best?;
    Some(chain_step(marks, d, count, chain))
}

/// Whether `chain` comes before `best` in SE's order: easier, then more eliminations.
fn is_better(chain: &Chain, best: Option<&Chain>) -> bool {
    best.is_none_or(|b| {
        chain
            .exact
            .partial_cmp(&b.exact)
            .unwrap_or(Ordering::Equal)
            .then(b.removed.len().cmp(&chain.removed.len()))
            == Ordering::Less
    })
}

/// The strong links of one digit and, for each link end (`2 * link + side`), the link ends it
/// can be weakly linked to: two groups share a unit exactly when some unit holds each.
struct DigitGraph {
    links: Vec<Link>,
    /// For each link end (`2 * link + side`), the link ends it can be weakly linked to, as
    /// (link, side): end `e`'s are `next[next_start[e]..next_start[e + 1]]`. One flat list,
    /// not one per end: a grade rebuilds the graphs whenever its marks change, and a list
    /// per end cost an allocation each.
    next: Vec<(usize, usize)>,
    next_start: Vec<usize>,
}

/// What the link graphs were built from: the geometry's id and the marks.
type GraphKey = (u64, [u16; 81]);

thread_local! {
    /// The link graphs of the last marks searched, with their key.
    static GRAPHS: std::cell::RefCell<Option<(GraphKey, [Option<DigitGraph>; 9])>> =
        const { std::cell::RefCell::new(None) };
}

impl DigitGraph {
    fn new(marks: &Candidates, d: usize) -> DigitGraph {
        let g = marks.geometry();
        let units = g.unit_count();
        let mut links = Vec::new();
        for k in 0..units {
            links_in(marks, k, d, &mut links);
        }
        let ends = 2 * links.len();
        // Only the geometry's units (an empty set of cells would be held by all 64).
        let in_geometry = u64::MAX >> (64 - units);
        let holding: Vec<u64> = (0..ends)
            .map(|end| g.units_holding(links[end / 2].ends[end % 2]) & in_geometry)
            .collect();
        // Each unit's ends, ascending: unit u's are `held[held_start[u]..held_start[u + 1]]`.
        let mut held_start = vec![0usize; units + 1];
        for &unit_set in &holding {
            for_each_unit(unit_set, |u| held_start[u + 1] += 1);
        }
        for u in 0..units {
            held_start[u + 1] += held_start[u];
        }
        let mut held = vec![0usize; held_start[units]];
        let mut filled = held_start.clone();
        for (end, &unit_set) in holding.iter().enumerate() {
            for_each_unit(unit_set, |u| {
                held[filled[u]] = end;
                filled[u] += 1;
            });
        }
        let mut next = Vec::new();
        let mut next_start = Vec::with_capacity(ends + 1);
        next_start.push(0);
        let mut to: Vec<usize> = Vec::new();
        for (from, &unit_set) in holding.iter().enumerate() {
            to.clear();
            for_each_unit(unit_set, |u| {
                to.extend(
                    held[held_start[u]..held_start[u + 1]]
                        .iter()
                        .copied()
                        .filter(|&end| end / 2 != from / 2),
                );
            });
            to.sort_unstable();
            to.dedup();
            next.extend(to.iter().map(|&end| (end / 2, end % 2)));
            next_start.push(next.len());
        }
        super::work::count((units + holding.len() * units + next.len()) as u64);
        DigitGraph {
            links,
            next,
            next_start,
        }
    }

    /// The link ends that `end` can be weakly linked to.
    fn next_of(&self, end: usize) -> &[(usize, usize)] {
        &self.next[self.next_start[end]..self.next_start[end + 1]]
    }
}

/// Calls `f` with each unit of a set of units, ascending.
fn for_each_unit(mut unit_set: u64, mut f: impl FnMut(usize)) {
    while unit_set != 0 {
        f(unit_set.trailing_zeros() as usize);
        unit_set &= unit_set - 1;
    }
}

/// All chains of `count` links of one digit, keeping the best in `best`.
fn search_digit(
    marks: &Candidates,
    d: usize,
    digit_graph: &DigitGraph,
    count: usize,
    base: u16,
    best: &mut Option<(usize, Chain)>,
) {
    let links = &digit_graph.links;
    if links.len() < count {
        return;
    }
    let mut path: Vec<(usize, usize)> = Vec::with_capacity(count);
    for (first, link) in links.iter().enumerate() {
        for side in 0..2 {
            path.push((first, side));
            extend(
                marks,
                d,
                digit_graph,
                count,
                base,
                &mut path,
                link.places,
                best,
            );
            path.pop();
        }
    }
}

/// Depth-first: `path` holds (link, start side) pairs; extend it by links whose start group
/// shares a unit with the current end group and whose places are not used yet.
#[allow(clippy::too_many_arguments)]
fn extend(
    marks: &Candidates,
    d: usize,
    graph: &DigitGraph,
    count: usize,
    base: u16,
    path: &mut Vec<(usize, usize)>,
    used: CellSet,
    best: &mut Option<(usize, Chain)>,
) {
    let links = &graph.links;
    super::work::count(1);
    if path.len() == count {
        super::work::count(path.len() as u64);
        if let Some(chain) = evaluate(marks, d, links, base, path) {
            if is_better(&chain, best.as_ref().map(|(_, b)| b)) {
                *best = Some((d, chain));
            }
        }
        return;
    }
    let &(last, side) = path.last().expect("path starts non-empty");
    for &(next, next_side) in graph.next_of(2 * last + 1 - side) {
        if !(links[next].places & used).is_empty() {
            continue;
        }
        path.push((next, next_side));
        let with = used | links[next].places;
        extend(marks, d, graph, count, base, path, with, best);
        path.pop();
    }
}

/// The eliminations and rating of a complete chain, if it eliminates anything.
fn evaluate(
    marks: &Candidates,
    d: usize,
    links: &[Link],
    base: u16,
    path: &[(usize, usize)],
) -> Option<Chain> {
    let g = marks.geometry();
    let start = links[path[0].0].ends[path[0].1];
    let (last, last_side) = path[path.len() - 1];
    let end = links[last].ends[1 - last_side];
    let base_cells = path
        .iter()
        .fold(CellSet::EMPTY, |acc, &(l, _)| acc | g.set_of(links[l].unit));
    // Weak links between consecutive links, each a pair of end groups.
    let weak = path
        .windows(2)
        .map(|w| links[w[0].0].ends[1 - w[0].1] | links[w[1].0].ends[w[1].1]);
    let candidates = marks.cells_with(d) - base_cells;
    let mut removed = g.common_peers(start | end) & candidates;
    if g.shared_unit(start | end).is_some() {
        // A loop: every weak link eliminates too.
        for cells in weak {
            removed |= g.common_peers(cells) & candidates;
        }
    } else if !removed.is_empty() {
        for cells in weak {
            if let Some(u) = preferred_shared_unit(marks, cells) {
                removed = removed - g.set_of(u);
            }
        }
    }
    if removed.is_empty() {
        return None;
    }
    let chain_links: Vec<Link> = path.iter().map(|&(l, _)| links[l]).collect();
    let (exact, grouped, has_box) = exact_rating(g, &chain_links, base);
    let technique = match (path.len(), grouped, has_box) {
        (2, true, _) => Technique::EmptyRectangle,
        (2, false, true) => Technique::TurbotFish,
        (2, false, false) if exact == ExactRating::new(base, 0) => Technique::Skyscraper,
        (2, ..) => Technique::TwoStringKite,
        (3, ..) => Technique::ThreeStrongLinks,
        _ => Technique::FourStrongLinks,
    };
    Some(Chain {
        links: path.iter().map(|&(l, _)| links[l].unit).collect(),
        removed,
        exact,
        technique,
    })
}

/// The house SE names for a weak link: a column, else a row, else a box (then a variant's
/// extra houses) holding all cells.
fn preferred_shared_unit(marks: &Candidates, cells: CellSet) -> Option<usize> {
    let g = marks.geometry();
    COLUMNS
        .chain(ROWS)
        .chain(BOXES.start..g.unit_count())
        .find(|&u| cells.is_subset(g.set_of(u)))
}

fn chain_step(marks: &Candidates, d: usize, count: usize, chain: Chain) -> Step {
    let g = marks.geometry();
    let digit = digit(d);
    let units: Vec<_> = chain.links.iter().map(|&u| g.unit(u)).collect();
    let named: Vec<String> = units.iter().map(|u| u.to_string()).collect();
    let kind = match chain.technique {
        Technique::Skyscraper => "a Skyscraper",
        Technique::TwoStringKite => "a 2-String Kite",
        Technique::TurbotFish => "a Turbot Fish",
        Technique::EmptyRectangle => "an Empty Rectangle",
        _ if count == 3 => "a chain of three strong links",
        _ => "a chain of four strong links",
    };
    let cells: Vec<Cell> = chain
        .links
        .iter()
        .flat_map(|&u| marks.places_in(u, d).iter())
        .map(Cell::from_index)
        .collect();
    Step::eliminating(
        chain.technique,
        chain.exact.rating(),
        chain.removed.marks_of(digit),
        cells,
        vec![digit],
        units,
        format!(
            "In {}, {digit} has two places (or two groups of places) each, linked end to end \
             ({kind}), so one end holds {digit} and {digit} is removed from every cell that sees \
             both ends.",
            list(&named)
        ),
    )
}
