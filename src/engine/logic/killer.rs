//! Killer techniques: what a cage's sum says about its cells, and the rule of 45.
//!
//! * **Cage sum** (1.3): the size and sum of a cage alone rule digits out (two cells adding up
//!   to 3 hold 1 and 2). A player learns these from a table. The last empty cell of a cage
//!   (a one-cell cage above all) is a placement rated as a full house (1.0).
//! * **Cage combination** (2.0; 2.2 with 4-5 empty cells, 2.4 with more): the ways of making
//!   the sum with the cells' current candidates rule digits out. Bigger cages have more ways
//!   to keep in mind.
//! * **Rule of 45** (2.0 for one cell; 2.3 + 0.1 per cell beyond two for two to four cells;
//!   plus 0.2 for each house beyond the first): the digits of a house add up to 45, so the
//!   cells of a house (or of up to four neighbouring rows or columns, or two neighbouring
//!   boxes) outside the cages wholly inside it (*innies*) add up to what those cages leave,
//!   and the cells of the cages covering it that stick out (*outies*) add up to the excess.
//! * **Cage split** (2.6, 2.8 with four or more empty cells, plus 0.2 per extra house): the
//!   innies (or outies) are all of one cage's cells on one side of the area, so the rest of
//!   that cage adds up to what is left of its sum; its cells are distinct, so its
//!   combinations rule digits out.
//! * **Innie-outie difference** (2.8 + 0.1 per cell beyond two, plus 0.2 per extra house):
//!   when the cages holding most of an area leave a few cells inside and stick out by a few,
//!   the innies' sum minus the outies' sum is known.
//!
//! Sudoku Explainer has no cages; these values put the cage steps on its scale beside the
//! classic techniques a Killer solve also uses, in the order Killer players learn them: a
//! Killer that needs only cage sums and singles is `easy`, one that needs combinations and
//! single-house innies `medium`, unions of houses, splits and differences `hard`, and beyond
//! that the classic patterns and chains decide, with their SE values.

use crate::engine::model::grid::{Cell, Digit};

use super::candidates::{digit, digits_of, indices_of, Candidates};
use super::cellset::CellSet;
use super::geometry::{Area, CageArea, Geometry};
use super::rating::Rating;
use super::text::{capitalize, list};
use super::{Step, Technique};
use crate::engine::model::board::SIZE;
use crate::engine::model::sums::mask_sum;

/// Most open cells a rule-of-45 sum is worked out over: every assignment of their candidates
/// is tried (9^4 at most).
const MAX_SUM_CELLS: usize = 4;

/// The lowest rating a cage step can have, and the lowest of all but the cage sums.
const CAGE_SUM: u16 = 13;
const LOWEST_OTHER: u16 = 20;

/// The digit total of one house (1 + 2 + ... + 9).
const HOUSE_TOTAL: i32 = 45;

/// The easiest cage step rated at most `max_tenths`: a cage sum if there is one, else the
/// lowest-rated of the others (the first found among equals: cages in order, then areas);
/// with the work units it took.
pub fn find(marks: &Candidates, max_tenths: u16) -> Option<Step> {
    easiest(marks, max_tenths)
}

/// Counts cage work (sum-table transitions and assignment nodes; a memo lookup, with its
/// hashing and copying, as [`MEMO_LOOKUP`] of them): the cage steps' cost depends on the
/// cages and the marks, so it is charged as counted rather than at a fixed price per look.
fn count(ops: u64) {
    super::work::count(ops);
}

/// What a memo lookup counts as, in cage operations.
const MEMO_LOOKUP: u64 = 70;

fn easiest(marks: &Candidates, max_tenths: u16) -> Option<Step> {
    let g = marks.geometry();
    if g.cages().is_empty() || max_tenths < CAGE_SUM {
        return None;
    }
    // The search order asks up to four times per position with rising limits; the answers
    // for one position are worked out once.
    let key = (
        g.id(),
        *marks.board().raw(),
        std::array::from_fn(|c| marks.mask(c)),
    );
    FOUND.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.key != Some(key) {
            *cache = Found {
                key: Some(key),
                ..Found::default()
            };
        }
        let sums = cache
            .sums
            .get_or_insert_with(|| g.cages().iter().find_map(|cage| cage_sum(marks, cage)));
        if sums.is_some() {
            return sums.clone();
        }
        if max_tenths < LOWEST_OTHER {
            return None;
        }
        cache
            .others
            .get_or_insert_with(|| easiest_other(marks))
            .clone()
            .filter(|step| step.rating.tenths() <= max_tenths)
    })
}

/// What [`find`] worked out for the last position it saw.
#[derive(Default)]
struct Found {
    /// The geometry's id, the filled cells and the marks.
    key: Option<(u64, [u8; 81], [u16; 81])>,
    /// The first cage-sum step, once looked for.
    sums: Option<Option<Step>>,
    /// The easiest other cage step, once looked for.
    others: Option<Option<Step>>,
}

thread_local! {
    static FOUND: std::cell::RefCell<Found> = std::cell::RefCell::new(Found::default());
}

/// The lowest-rated cage step other than a cage sum (the first among equals).
fn easiest_other(marks: &Candidates) -> Option<Step> {
    let g = marks.geometry();
    let mut best: Option<Step> = None;
    let mut consider = |step: Step| {
        if best.as_ref().is_none_or(|b| step.rating < b.rating) {
            best = Some(step);
        }
        best.as_ref()
            .is_some_and(|b| b.rating.tenths() == LOWEST_OTHER)
    };
    for cage in g.cages() {
        if let Some(step) = cage_combination(marks, cage) {
            if consider(step) {
                return best;
            }
        }
    }
    for area in g.areas() {
        for step in area_steps(marks, area) {
            if consider(step) {
                return best;
            }
        }
    }
    best
}

const SUMS: [u8; 512] = {
    let mut sums = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        sums[m] = mask_sum(m as u32) as u8;
        m += 1;
    }
    sums
};

/// A set of digit sets (512 bits).
#[derive(Clone, Copy, Default)]
struct SetOfSets([u64; 8]);

impl SetOfSets {
    fn insert(&mut self, m: u16) {
        self.0[usize::from(m >> 6)] |= 1 << (m & 63);
    }

    fn contains(&self, m: u16) -> bool {
        self.0[usize::from(m >> 6)] >> (m & 63) & 1 != 0
    }

    /// The sets, ascending.
    fn members(self) -> impl Iterator<Item = u16> {
        self.0.into_iter().enumerate().flat_map(|(w, mut word)| {
            std::iter::from_fn(move || {
                let bit = (word != 0).then(|| word.trailing_zeros())?;
                word &= word - 1;
                Some((w as u16) << 6 | bit as u16)
            })
        })
    }
}

/// The ways of giving cells distinct digits from their masks that add up to a target.
#[derive(Clone)]
struct Ways {
    /// Per cell, the digits some way gives it.
    options: Vec<u16>,
    /// The digit sets the ways use (as masks, ascending).
    sets: Vec<u16>,
}

/// Every way of filling cells with the candidates `masks`, all digits distinct, adding up to
/// `target`: layer `i` of the forward pass holds the digit sets the first `i` cells can take,
/// the backward pass keeps only those that complete. At most 126 sets a layer.
fn distinct_ways(masks: &[u16], target: u32, geometry: u64) -> Ways {
    remembered(&WAYS, geometry, (masks.to_vec(), target as i32), || {
        work_out_ways(masks, target)
    })
}

/// Answers worked out before, by what they were worked out from: the same cage with the
/// same candidates comes up at step after step of a solve. A memo holds the answers for one
/// geometry (one puzzle's grade or hint, one generation's target) and starts afresh for
/// another, so what a request is charged never depends on the requests before it; and it is
/// cleared when full.
struct Memo<V> {
    geometry: u64,
    answers: std::collections::HashMap<(Vec<u16>, i32), V>,
}

impl<V> Default for Memo<V> {
    fn default() -> Memo<V> {
        Memo {
            geometry: 0,
            answers: std::collections::HashMap::new(),
        }
    }
}

/// Most answers a memo keeps before it starts afresh.
const MEMO_SIZE: usize = 4096;

thread_local! {
    static WAYS: std::cell::RefCell<Memo<Ways>> = std::cell::RefCell::default();
    static SIGNED: std::cell::RefCell<Memo<Vec<u16>>> = std::cell::RefCell::default();
}

/// `work()`'s answer for `key` under the geometry with id `geometry`, from `memo` when it is
/// there (a lookup, with its hashing and copying, counts as a work unit).
fn remembered<V: Clone>(
    memo: &'static std::thread::LocalKey<std::cell::RefCell<Memo<V>>>,
    geometry: u64,
    key: (Vec<u16>, i32),
    work: impl FnOnce() -> V,
) -> V {
    count(MEMO_LOOKUP);
    let known = memo.with(|m| {
        let mut m = m.borrow_mut();
        if m.geometry != geometry || m.answers.len() >= MEMO_SIZE {
            m.geometry = geometry;
            m.answers.clear();
        }
        m.answers.get(&key).cloned()
    });
    if let Some(known) = known {
        return known;
    }
    let value = work();
    memo.with(|m| m.borrow_mut().answers.insert(key, value.clone()));
    value
}

fn work_out_ways(masks: &[u16], target: u32) -> Ways {
    let n = masks.len();
    let mut layers = [SetOfSets::default(); SIZE + 1];
    layers[0].insert(0);
    for i in 0..n {
        let layer = layers[i];
        for m in layer.members() {
            count(9);
            let room = target.saturating_sub(u32::from(SUMS[usize::from(m)]));
            for d in indices_of(masks[i] & !m).filter(|&d| (d as u32) < room) {
                layers[i + 1].insert(m | 1 << d);
            }
        }
    }
    let mut complete = SetOfSets::default();
    let mut sets = Vec::new();
    for m in layers[n].members() {
        if u32::from(SUMS[usize::from(m)]) == target {
            complete.insert(m);
            sets.push(m);
        }
    }
    let mut options = vec![0u16; n];
    for i in (0..n).rev() {
        let mut earlier = SetOfSets::default();
        for m in layers[i].members() {
            count(9);
            for d in indices_of(masks[i] & !m) {
                if complete.contains(m | 1 << d) {
                    options[i] |= 1 << d;
                    earlier.insert(m);
                }
            }
        }
        complete = earlier;
    }
    Ways { options, sets }
}

/// Per cell, the digits some assignment gives it when the `plus` cells minus the `minus`
/// cells add up to `target`, cells that see each other holding different digits.
fn signed_options(
    g: &Geometry,
    marks: &Candidates,
    plus: &[usize],
    minus: &[usize],
    target: i32,
) -> Vec<u16> {
    let cells: Vec<(usize, i32)> = plus
        .iter()
        .map(|&c| (c, 1))
        .chain(minus.iter().map(|&c| (c, -1)))
        .collect();
    // Which cells see which (the geometry's id stands for that) and their candidates decide
    // the answer: cells, signs and masks go into the key.
    let key: Vec<u16> = cells
        .iter()
        .flat_map(|&(c, sign)| [c as u16 | if sign < 0 { 0x100 } else { 0 }, marks.mask(c)])
        .collect();
    remembered(&SIGNED, g.id(), (key, target), || {
        let mut options = vec![0u16; cells.len()];
        let mut chosen = vec![0usize; cells.len()];
        assign(g, marks, &cells, 0, target, &mut chosen, &mut options);
        options
    })
}

/// Depth-first over at most [`MAX_SUM_CELLS`] cells: `chosen[..i]` holds digit indices so
/// far, `left` what the rest must add up to (with signs).
fn assign(
    g: &Geometry,
    marks: &Candidates,
    cells: &[(usize, i32)],
    i: usize,
    left: i32,
    chosen: &mut [usize],
    options: &mut [u16],
) -> bool {
    count(1);
    if i == cells.len() {
        if left != 0 {
            return false;
        }
        for (j, &d) in chosen.iter().enumerate() {
            options[j] |= 1 << d;
        }
        return true;
    }
    let (cell, sign) = cells[i];
    // What the cells after this one can still add (with their signs).
    let (low, high) = cells[i + 1..].iter().fold((0, 0), |(lo, hi), &(c, s)| {
        let mask = marks.mask(c);
        let (min, max) = (
            mask.trailing_zeros() as i32 + 1,
            16 - mask.leading_zeros() as i32,
        );
        if s > 0 {
            (lo + min, hi + max)
        } else {
            (lo - max, hi - min)
        }
    });
    let mut any = false;
    for d in indices_of(marks.mask(cell)) {
        let rest = left - sign * (d as i32 + 1);
        if rest < low || rest > high {
            continue;
        }
        let clash = (0..i).any(|j| chosen[j] == d && g.sees(cells[j].0, cell));
        if clash {
            continue;
        }
        chosen[i] = d;
        any |= assign(g, marks, cells, i + 1, rest, chosen, options);
    }
    any
}

/// A cage's empty cells, the digits placed in it and their sum.
fn open_part(marks: &Candidates, cells: CellSet) -> (Vec<usize>, u16, u32) {
    let mut open = Vec::new();
    let (mut placed, mut sum) = (0u16, 0);
    for c in cells.iter() {
        match marks.value(Cell::from_index(c)) {
            Some(d) => {
                placed |= 1 << (d.get() - 1);
                sum += u32::from(d.get());
            }
            None => open.push(c),
        }
    }
    (open, placed, sum)
}

/// The candidates of `cells` that `options` rules out, in reading order.
fn removed(marks: &Candidates, cells: &[usize], options: &[u16]) -> Vec<(Cell, Digit)> {
    let mut out: Vec<(Cell, Digit)> = cells
        .iter()
        .zip(options)
        .flat_map(|(&c, &allowed)| {
            indices_of(marks.mask(c) & !allowed).map(move |d| (Cell::from_index(c), digit(d)))
        })
        .collect();
    out.sort();
    out
}

/// The eliminations as a clause, cells with the same losses together: "they cannot hold 5
/// or 6" when every cell of `cells` loses the same digits, else "row 1, column 1 cannot hold
/// 5 or 6, and row 2, column 1 cannot hold 9".
fn losses(cells: &[usize], eliminations: &[(Cell, Digit)]) -> String {
    let mut by_cell: Vec<(Cell, Vec<Digit>)> = Vec::new();
    for &(cell, d) in eliminations {
        match by_cell.iter_mut().find(|(c, _)| *c == cell) {
            Some((_, digits)) => digits.push(d),
            None => by_cell.push((cell, vec![d])),
        }
    }
    let mut groups: Vec<(Vec<Cell>, Vec<Digit>)> = Vec::new();
    for (cell, digits) in by_cell {
        match groups.iter_mut().find(|(_, d)| *d == digits) {
            Some((cells, _)) => cells.push(cell),
            None => groups.push((vec![cell], digits)),
        }
    }
    let or = |digits: &[Digit]| crate::engine::model::grid::join_words(digits, "or");
    if let [(group, digits)] = &groups[..] {
        if group.len() == cells.len() && cells.len() > 1 {
            return format!("they cannot hold {}", or(digits));
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(cells, digits)| format!("{} cannot hold {}", list(cells), or(digits)))
        .collect();
    list(&parts)
}

/// "1+2+6, 1+3+5 or 2+3+4": the ways as a player lists them, by smallest digit, then the
/// next (at most six named).
fn ways_text(sets: &[u16]) -> String {
    let mut sets = sets.to_vec();
    sets.sort_by_key(|&m| digits_of(m).collect::<Vec<_>>());
    let named: Vec<String> = sets
        .iter()
        .take(6)
        .map(|&m| {
            digits_of(m)
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("+")
        })
        .collect();
    match sets.len() {
        0 => "no way".to_string(),
        7 => format!("{} (or one other way)", named.join(", ")),
        n if n > 7 => format!("{} (or {} other ways)", named.join(", "), n - 6),
        _ => crate::engine::model::grid::join_words(&named, "or"),
    }
}

/// The ways of filling `open` (cells that see each other) with distinct candidates adding
/// up to `target`, and the candidates no way uses; `None` when no candidate goes, or when
/// there is no way at all (the position is already contradictory, which another check
/// reports).
fn distinct_eliminations(
    marks: &Candidates,
    open: &[usize],
    target: u32,
) -> Option<(Ways, Vec<(Cell, Digit)>)> {
    let masks: Vec<u16> = open.iter().map(|&c| marks.mask(c)).collect();
    let ways = distinct_ways(&masks, target, marks.geometry().id());
    let eliminations = removed(marks, open, &ways.options);
    (!ways.sets.is_empty() && !eliminations.is_empty()).then_some((ways, eliminations))
}

/// The cells of a cage, named: "cage 4 (row 1, column 1 and row 1, column 2)".
fn cage_name(cage: &CageArea, cells: &[usize]) -> String {
    let named: Vec<Cell> = cells.iter().map(|&c| Cell::from_index(c)).collect();
    format!("{} ({})", cage.unit, list(&named))
}

/// The cage's size and sum alone, without the cells' candidates.
fn cage_sum(marks: &Candidates, cage: &CageArea) -> Option<Step> {
    let (open, placed, sum) = open_part(marks, cage.cells);
    if open.is_empty() {
        return None;
    }
    let target = cage.sum.checked_sub(sum)?;
    if let [cell] = open[..] {
        return last_cell(marks, cage, cell, target, sum);
    }
    // Every set of that many digits not yet placed in the cage with that sum.
    count(512 / 8);
    let sets: Vec<u16> = (1..512u16)
        .filter(|&m| {
            m & placed == 0
                && m.count_ones() as usize == open.len()
                && u32::from(SUMS[usize::from(m)]) == target
        })
        .collect();
    let allowed = sets.iter().fold(0, |acc, &m| acc | m);
    let eliminations = removed(marks, &open, &vec![allowed; open.len()]);
    if eliminations.is_empty() || sets.is_empty() {
        return None;
    }
    let what = if sum == 0 {
        format!(
            "The {} cells of {} add up to {target}",
            open.len(),
            cage_name(cage, &open)
        )
    } else {
        format!(
            "The {} empty cells of {} add up to {target} (its {} less the {sum} placed)",
            open.len(),
            cage_name(cage, &open),
            cage.sum
        )
    };
    let explanation = format!(
        "{what}: only as {}, so {}.",
        ways_text(&sets),
        losses(&open, &eliminations)
    );
    Some(cage_step(
        Technique::CageSum,
        CAGE_SUM,
        eliminations,
        &open,
        cage,
        explanation,
    ))
}

/// The last empty cell of a cage holds what its sum leaves (a one-cell cage is a given in
/// all but name): rated as a full house.
fn last_cell(
    marks: &Candidates,
    cage: &CageArea,
    cell: usize,
    target: u32,
    placed: u32,
) -> Option<Step> {
    let d = Digit::new(u8::try_from(target).ok()?).filter(|d| d.get() <= 9)?;
    if marks.mask(cell) & (1 << (d.get() - 1)) == 0 {
        return None; // contradictory: another check reports it
    }
    let pos = Cell::from_index(cell);
    let explanation = if placed == 0 {
        format!(
            "{} is one cell, {pos}, so it is {d}.",
            capitalize(&cage.unit.to_string())
        )
    } else {
        format!(
            "{} is the last empty cell of {}, so it is {d}: the cage's {} less the {placed} \
             placed.",
            capitalize(&pos.to_string()),
            cage.unit,
            cage.sum
        )
    };
    Some(Step::placing(
        Technique::CageSum,
        10,
        (pos, d),
        vec![cage.unit],
        explanation,
    ))
}

/// The ways of making a cage's sum with its cells' candidates.
fn cage_combination(marks: &Candidates, cage: &CageArea) -> Option<Step> {
    let (open, _, sum) = open_part(marks, cage.cells);
    if open.is_empty() {
        return None;
    }
    let target = cage.sum.checked_sub(sum)?;
    let (ways, eliminations) = distinct_eliminations(marks, &open, target)?;
    let rating = match open.len() {
        0..=3 => 20,
        4..=5 => 22,
        _ => 24,
    };
    Some(cage_step(
        Technique::CageCombination,
        rating,
        eliminations.clone(),
        &open,
        cage,
        format!(
            "With their candidates, the {} empty cells of {} can make {target} only as {}, so \
             {}.",
            open.len(),
            cage_name(cage, &open),
            ways_text(&ways.sets),
            losses(&open, &eliminations)
        ),
    ))
}

fn cage_step(
    technique: Technique,
    rating: u16,
    eliminations: Vec<(Cell, Digit)>,
    cells: &[usize],
    cage: &CageArea,
    explanation: String,
) -> Step {
    let digits = eliminations.iter().map(|&(_, d)| d).collect();
    Step::eliminating(
        technique,
        Rating::from_tenths(rating),
        eliminations,
        cells.iter().map(|&c| Cell::from_index(c)).collect(),
        digits,
        vec![cage.unit],
        explanation,
    )
}

/// One way of reading an area: the cages taken as a whole (`taken`) leave `inside` cells of
/// the area and stick out of it by `outside` cells, and inside minus outside adds up to
/// `difference`.
struct Reading {
    taken: Vec<usize>,
    inside: CellSet,
    outside: CellSet,
    difference: i32,
}

/// The readings of an area: innies (the cages wholly inside), outies (every cage touching
/// it, when they cover it) and the mix (the cages mostly inside).
fn readings(g: &Geometry, area: &Area) -> Vec<Reading> {
    let total = HOUSE_TOTAL * area.houses.len() as i32;
    let cages = g.cages();
    let read = |taken: Vec<usize>| {
        let covered = taken
            .iter()
            .fold(CellSet::EMPTY, |acc, &k| acc | cages[k].cells);
        let sum: i32 = taken.iter().map(|&k| cages[k].sum as i32).sum();
        Reading {
            inside: area.cells - covered,
            outside: covered - area.cells,
            difference: total - sum,
            taken,
        }
    };
    let mut out = vec![read(area.inside.clone())];
    if area.partial.is_empty() {
        return out;
    }
    if area.uncovered.is_empty() {
        out.push(read(
            area.inside.iter().chain(&area.partial).copied().collect(),
        ));
    }
    let mostly: Vec<usize> = area
        .partial
        .iter()
        .copied()
        .filter(|&k| (cages[k].cells - area.cells).len() < (cages[k].cells & area.cells).len())
        .collect();
    if !mostly.is_empty() && mostly.len() < area.partial.len() {
        out.push(read(area.inside.iter().chain(&mostly).copied().collect()));
    }
    out
}

/// The rule-of-45 steps of one area: its readings' sums, and the cage splits they give.
fn area_steps(marks: &Candidates, area: &Area) -> Vec<Step> {
    let g = marks.geometry();
    let extra = 2 * (area.houses.len() as u16 - 1);
    let mut steps = Vec::new();
    for reading in readings(g, area) {
        let (inside, _, sum_in) = open_part(marks, reading.inside);
        let (outside, _, sum_out) = open_part(marks, reading.outside);
        let left = reading.difference - sum_in as i32 + sum_out as i32;
        let n = inside.len() + outside.len();
        if (1..=MAX_SUM_CELLS).contains(&n) {
            if let Some(step) = sum_step(marks, area, &reading, &inside, &outside, left, extra) {
                steps.push(step);
            }
        }
        if let Some(step) = split_step(marks, area, &reading, extra) {
            steps.push(step);
        }
    }
    steps
}

fn sum_step(
    marks: &Candidates,
    area: &Area,
    reading: &Reading,
    inside: &[usize],
    outside: &[usize],
    left: i32,
    extra: u16,
) -> Option<Step> {
    let g = marks.geometry();
    let options = signed_options(g, marks, inside, outside, left);
    let cells: Vec<usize> = inside.iter().chain(outside).copied().collect();
    // The reading decides the technique: cages mostly inside leave cells on both sides.
    let mixed = !reading.inside.is_empty() && !reading.outside.is_empty();
    let n = cells.len() as u16;
    let (technique, rating) = if mixed {
        (
            Technique::InnieOutieDifference,
            28 + extra + n.saturating_sub(2),
        )
    } else if n == 1 {
        (Technique::RuleOf45, 20 + extra)
    } else {
        (Technique::RuleOf45, 23 + extra + (n - 2))
    };
    let total = HOUSE_TOTAL * area.houses.len() as i32;
    let taken_sum: i32 = reading.taken.iter().map(|&k| g.cages()[k].sum as i32).sum();
    let named = |cells: &[usize]| {
        list(
            &cells
                .iter()
                .map(|&c| Cell::from_index(c))
                .collect::<Vec<_>>(),
        )
    };
    // Every cell of a side, a filled one with its digit: "row 7, column 8 (6)".
    let side = |cells: CellSet| {
        let parts: Vec<String> = cells
            .iter()
            .map(|c| {
                let pos = Cell::from_index(c);
                match marks.value(pos) {
                    Some(d) => format!("{pos} ({d})"),
                    None => pos.to_string(),
                }
            })
            .collect();
        list(&parts)
    };
    let is_or_add = |cells: &[usize]| if cells.len() == 1 { "is" } else { "add up to" };
    let reason = if mixed {
        format!(
            "The digits of {} add up to {total}; the cages lying mostly inside it add up to \
             {taken_sum}, leave {} in it and stick out by {}",
            area.name,
            side(reading.inside),
            side(reading.outside)
        )
    } else if reading.outside.is_empty() {
        // The innies are named again below; here only when some are filled.
        let leaves = if inside.len() < reading.inside.len() as usize {
            format!(", which leaves {}", side(reading.inside))
        } else {
            String::new()
        };
        format!(
            "The digits of {} add up to {total}; the cages wholly inside it add up to \
             {taken_sum}{leaves}",
            area.name
        )
    } else {
        let out = if outside.len() < reading.outside.len() as usize {
            format!("; that is what sticks out of it, {}", side(reading.outside))
        } else {
            String::new()
        };
        format!(
            "The cages covering {} add up to {taken_sum}, {} more than its digits{out}",
            area.name,
            taken_sum - total
        )
    };
    let sums = match (inside.is_empty(), outside.is_empty()) {
        (false, false) => {
            let (more, less, by) = if left >= 0 {
                (inside, outside, left)
            } else {
                (outside, inside, -left)
            };
            let together = |cells: &[usize]| {
                let also = if cells.len() > 1 { " together" } else { "" };
                format!("{}{also}", named(cells))
            };
            let verb = if more.len() == 1 { "is" } else { "are" };
            format!(
                "{} {verb} {by} more than {}",
                together(more),
                together(less)
            )
        }
        (false, true) => format!("{} {} {left}", named(inside), is_or_add(inside)),
        _ => format!("{} {} {}", named(outside), is_or_add(outside), -left),
    };
    let mut units: Vec<_> = area.houses.iter().map(|&k| g.unit(k)).collect();
    units.extend(reading.taken.iter().map(|&k| g.cages()[k].unit));
    if n == 1 && options[0].count_ones() == 1 {
        let cell = Cell::from_index(cells[0]);
        let d = digit(indices_of(options[0]).next()?);
        let step = Step::placing(
            technique,
            rating,
            (cell, d),
            units,
            format!("{reason}, so {sums}."),
        );
        return Some(step);
    }
    let eliminations = removed(marks, &cells, &options);
    if eliminations.is_empty() || options.contains(&0) {
        return None;
    }
    let digits = eliminations.iter().map(|&(_, d)| d).collect();
    Some(Step::eliminating(
        technique,
        Rating::from_tenths(rating),
        eliminations.clone(),
        cells.iter().map(|&c| Cell::from_index(c)).collect(),
        digits,
        units,
        format!("{reason}, so {sums}: {}.", losses(&cells, &eliminations)),
    ))
}

/// A cage split: the reading's cells on one side are all of one cage's cells on that side,
/// so the rest of the cage adds up to what its sum leaves.
fn split_step(marks: &Candidates, area: &Area, reading: &Reading, extra: u16) -> Option<Step> {
    let g = marks.geometry();
    let (side, sum) = match (reading.inside.is_empty(), reading.outside.is_empty()) {
        (false, true) => (reading.inside, reading.difference),
        (true, false) => (reading.outside, -reading.difference),
        _ => return None,
    };
    let cage_index = g.cage_of(side.first()?)?;
    let cage = &g.cages()[cage_index];
    if !side.is_subset(cage.cells) || side == cage.cells {
        return None;
    }
    let rest = cage.cells - side;
    let rest_sum = cage.sum as i32 - sum;
    let (open, _, placed_sum) = open_part(marks, rest);
    let target = u32::try_from(rest_sum - placed_sum as i32).ok()?;
    if open.is_empty() {
        return None;
    }
    let (ways, eliminations) = distinct_eliminations(marks, &open, target)?;
    let rating = 26 + extra + if open.len() >= 4 { 2 } else { 0 };
    let side_cells: Vec<Cell> = side.iter().map(Cell::from_index).collect();
    let where_ = if reading.outside.is_empty() {
        "innies"
    } else {
        "outies"
    };
    let mut units: Vec<_> = area.houses.iter().map(|&k| g.unit(k)).collect();
    units.push(cage.unit);
    let digits = eliminations.iter().map(|&(_, d)| d).collect();
    Some(Step::eliminating(
        Technique::CageSplit,
        Rating::from_tenths(rating),
        eliminations.clone(),
        open.iter().map(|&c| Cell::from_index(c)).collect(),
        digits,
        units,
        format!(
            "By the rule of 45 on {}, its {where_} {} add up to {sum}; they are part of {} \
             (sum {}), so the rest of it, {}, adds up to {rest_sum}, only as {}: {}.",
            area.name,
            list(&side_cells),
            cage.unit,
            cage.sum,
            list(&rest.iter().map(Cell::from_index).collect::<Vec<_>>()),
            ways_text(&ways.sets),
            losses(&open, &eliminations)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::logic::candidates::ALL_DIGITS;
    use crate::engine::model::board::Board;
    use crate::engine::model::grid::Shape;
    use crate::engine::model::rules::{Cage, Rules};

    /// 0-based (row, column) cells with their sum.
    fn geometry(cages: &[(u32, &[(usize, usize)])]) -> Geometry {
        let cages = cages
            .iter()
            .map(|&(sum, cells)| Cage {
                sum: Some(sum),
                cells: cells.to_vec(),
            })
            .collect();
        Geometry::for_rules(&Rules::for_cages(Shape::NINE, cages).unwrap()).unwrap()
    }

    fn cells(list: &[(usize, usize)]) -> Vec<Cell> {
        list.iter().map(|&(r, c)| Cell::at(r, c)).collect()
    }

    /// Every candidate of `cells` but `keep`, in reading order.
    fn all_but(cells: &[Cell], keep: &[u8]) -> Vec<(Cell, Digit)> {
        cells
            .iter()
            .flat_map(|&c| {
                (1..=9)
                    .filter(|d| !keep.contains(d))
                    .map(move |d| (c, Digit::new(d).unwrap()))
            })
            .collect()
    }

    fn area_named<'a>(g: &'a Geometry, name: &str) -> &'a Area {
        g.areas().iter().find(|a| a.name == name).unwrap()
    }

    #[test]
    fn a_cage_sum_needs_no_candidates() {
        let g = geometry(&[(3, &[(0, 0), (0, 1)])]);
        let marks = Candidates::with_geometry(&Board::empty(), &g);
        let step = easiest(&marks, 99).unwrap();
        assert_eq!(step.technique, Technique::CageSum);
        assert_eq!(step.rating, Rating::from_tenths(13));
        assert_eq!(
            step.eliminations,
            all_but(&cells(&[(0, 0), (0, 1)]), &[1, 2])
        );
        assert_eq!(
            step.explanation,
            "The 2 cells of cage 1 (row 1, column 1 and row 1, column 2) add up to 3: only as \
             1+2, so they cannot hold 3, 4, 5, 6, 7, 8 or 9."
        );
        // Below its rating, nothing.
        assert!(easiest(&marks, 12).is_none());
    }

    #[test]
    fn the_last_cell_of_a_cage_is_placed() {
        let g = geometry(&[(8, &[(0, 6)]), (12, &[(4, 4), (4, 5)])]);
        let mut marks = Candidates::with_geometry(&Board::empty(), &g);
        let step = easiest(&marks, 99).unwrap();
        assert_eq!(
            (step.technique, step.rating),
            (Technique::CageSum, Rating::from_tenths(10))
        );
        assert_eq!(
            step.placements,
            vec![(Cell::at(0, 6), Digit::new(8).unwrap())]
        );
        assert_eq!(
            step.explanation,
            "Cage 1 is one cell, row 1, column 7, so it is 8."
        );
        marks.apply(&step);
        marks.place(Cell::at(4, 4), Digit::new(5).unwrap());
        let step = easiest(&marks, 99).unwrap();
        assert_eq!(
            step.placements,
            vec![(Cell::at(4, 5), Digit::new(7).unwrap())]
        );
        assert_eq!(
            step.explanation,
            "Row 5, column 6 is the last empty cell of cage 2, so it is 7: the cage's 12 less \
             the 5 placed."
        );
    }

    #[test]
    fn a_cage_combination_uses_the_candidates() {
        let g = geometry(&[(10, &[(0, 0), (0, 1)])]);
        let mut marks = Candidates::with_geometry(&Board::empty(), &g);
        let step = easiest(&marks, 99).unwrap();
        assert_eq!(step.technique, Technique::CageSum, "5 first: 5+5 repeats");
        assert!(step.explanation.contains("only as 1+9, 2+8, 3+7 or 4+6"));
        marks.apply(&step);
        marks.restrict(Cell::at(0, 0), &[1, 2]);
        assert!(easiest(&marks, 19).is_none(), "a combination is rated 2.0");
        let step = easiest(&marks, 99).unwrap();
        assert_eq!(step.technique, Technique::CageCombination);
        assert_eq!(step.rating, Rating::from_tenths(20));
        assert_eq!(step.eliminations, all_but(&cells(&[(0, 1)]), &[5, 8, 9]));
        assert!(
            step.explanation.ends_with(
                "can make 10 only as 1+9 or 2+8, so row 1, column 2 cannot hold 1, 2, 3, 4, \
                 6 or 7."
            ),
            "{}",
            step.explanation
        );
    }

    /// Row 1 as four two-cell cages over columns 1-8 (sums of 1+2, 3+4, 5+6, 7+8) and what
    /// `last` adds for the rest.
    fn row_one(last: &[(u32, &'static [(usize, usize)])]) -> Geometry {
        let mut cages: Vec<(u32, &[(usize, usize)])> = vec![
            (3, &[(0, 0), (0, 1)]),
            (7, &[(0, 2), (0, 3)]),
            (11, &[(0, 4), (0, 5)]),
        ];
        cages.extend_from_slice(last);
        geometry(&cages)
    }

    #[test]
    fn the_rule_of_45_places_an_innie_and_bounds_several() {
        let g = row_one(&[(15, &[(0, 6), (0, 7)])]);
        let marks = Candidates::with_geometry(&Board::empty(), &g);
        let step = &area_steps(&marks, area_named(&g, "row 1"))[0];
        assert_eq!(step.technique, Technique::RuleOf45);
        assert_eq!(step.rating, Rating::from_tenths(20));
        assert_eq!(
            step.placements,
            vec![(Cell::at(0, 8), Digit::new(9).unwrap())]
        );
        assert_eq!(
            step.explanation,
            "The digits of row 1 add up to 45; the cages wholly inside it add up to 36, so \
             row 1, column 9 is 9."
        );
        // Without the fourth cage three innies add up to 24: 7+8+9.
        let g = row_one(&[]);
        let marks = Candidates::with_geometry(&Board::empty(), &g);
        let step = &area_steps(&marks, area_named(&g, "row 1"))[0];
        assert_eq!(step.rating, Rating::from_tenths(24));
        let innies = cells(&[(0, 6), (0, 7), (0, 8)]);
        assert_eq!(step.eliminations, all_but(&innies, &[7, 8, 9]));
        assert!(step
            .explanation
            .ends_with("add up to 24: they cannot hold 1, 2, 3, 4, 5 or 6."));
        // A filled innie is named with its digit, and the rest add up to what it leaves.
        let mut marks = marks;
        marks.place(Cell::at(0, 6), Digit::new(9).unwrap());
        let step = &area_steps(&marks, area_named(&g, "row 1"))[0];
        assert_eq!(
            step.explanation,
            "The digits of row 1 add up to 45; the cages wholly inside it add up to 21, which \
             leaves row 1, column 7 (9), row 1, column 8 and row 1, column 9, so row 1, column \
             8 and row 1, column 9 add up to 15: they cannot hold 1, 2, 3, 4, 5 or 6."
        );
    }

    #[test]
    fn outies_and_a_cage_split() {
        // Cage 4 holds r1c7-r1c9 and sticks out into r2c9; the cages cover row 1.
        let g = row_one(&[(25, &[(0, 6), (0, 7), (0, 8), (1, 8)])]);
        let marks = Candidates::with_geometry(&Board::empty(), &g);
        let steps = area_steps(&marks, area_named(&g, "row 1"));
        let outie = steps
            .iter()
            .find(|s| s.technique == Technique::RuleOf45 && !s.placements.is_empty())
            .unwrap();
        assert_eq!(
            outie.placements,
            vec![(Cell::at(1, 8), Digit::new(1).unwrap())]
        );
        assert_eq!(
            outie.explanation,
            "The cages covering row 1 add up to 46, 1 more than its digits, so row 2, column 9 \
             is 1."
        );
        let split = steps
            .iter()
            .find(|s| s.technique == Technique::CageSplit)
            .unwrap();
        assert_eq!(split.rating, Rating::from_tenths(26));
        assert!(split.units.contains(&g.cages()[3].unit));
        assert!(
            split
                .explanation
                .contains("they are part of cage 4 (sum 25)"),
            "{}",
            split.explanation
        );
    }

    #[test]
    fn an_innie_outie_difference() {
        // Cage 4 holds r1c7, r1c8 and r2c8; cage 5 r1c9 and r2c9. Taking cage 4 (mostly in
        // row 1) leaves r1c9 inside and r2c8 outside: r1c9 - r2c8 = 45 - 21 - 16 = 8.
        let g = row_one(&[(16, &[(0, 6), (0, 7), (1, 7)]), (12, &[(0, 8), (1, 8)])]);
        let marks = Candidates::with_geometry(&Board::empty(), &g);
        let step = area_steps(&marks, area_named(&g, "row 1"))
            .into_iter()
            .find(|s| s.technique == Technique::InnieOutieDifference)
            .unwrap();
        assert_eq!(step.rating, Rating::from_tenths(28));
        let mut expected = all_but(&cells(&[(0, 8)]), &[9]);
        expected.extend(all_but(&cells(&[(1, 7)]), &[1]));
        assert_eq!(step.eliminations, expected);
        assert!(
            step.explanation
                .contains("row 1, column 9 is 8 more than row 2, column 8"),
            "{}",
            step.explanation
        );
    }

    #[test]
    fn unions_of_rows_are_areas_too() {
        // Rows 1-2: vertical two-cell cages in columns 1-8 add up to 73, so r1c9 + r2c9 =
        // 90 - 73 = 17: 8 and 9 (they share column 9).
        let columns: Vec<(u32, Vec<(usize, usize)>)> = (0..8)
            .map(|c| (if c == 7 { 3 } else { 10 }, vec![(0, c), (1, c)]))
            .collect();
        let cages: Vec<(u32, &[(usize, usize)])> =
            columns.iter().map(|(s, c)| (*s, c.as_slice())).collect();
        let g = geometry(&cages);
        let marks = Candidates::with_geometry(&Board::empty(), &g);
        let area = area_named(&g, "rows 1-2");
        assert_eq!(area.houses, vec![0, 1]);
        let step = &area_steps(&marks, area)[0];
        assert_eq!(
            step.rating,
            Rating::from_tenths(25),
            "2.3 + 0.2 for a second house"
        );
        assert_eq!(
            step.eliminations,
            all_but(&cells(&[(0, 8), (1, 8)]), &[8, 9])
        );
        assert!(step
            .explanation
            .starts_with("The digits of rows 1-2 add up to 90"));
    }

    #[test]
    fn distinct_ways_find_every_completion() {
        // Two cells adding up to 10: 1+9, 2+8, 3+7, 4+6; never 5.
        let ways = distinct_ways(&[ALL_DIGITS, ALL_DIGITS], 10, 0);
        assert_eq!(ways.sets.len(), 4);
        assert_eq!(ways.options, vec![ALL_DIGITS & !(1 << 4); 2]);
        // With the first cell down to {1, 2}, the second is 8 or 9.
        let ways = distinct_ways(&[0b11, ALL_DIGITS], 10, 0);
        assert_eq!(ways.options, vec![0b11, 0b1_1000_0000]);
        // Three cells adding up to 6: only 1+2+3.
        let ways = distinct_ways(&[ALL_DIGITS; 3], 6, 0);
        assert_eq!(ways.sets, vec![0b111]);
        assert_eq!(ways.options, vec![0b111; 3]);
        // Impossible.
        let ways = distinct_ways(&[0b1, 0b1], 2, 0);
        assert!(ways.sets.is_empty());
        assert_eq!(ways.options, vec![0, 0]);
    }

    #[test]
    fn ways_and_losses_read_naturally() {
        assert_eq!(ways_text(&[0b11]), "1+2");
        assert_eq!(ways_text(&[0b1_0000_0001, 0b1000_0010]), "1+9 or 2+8");
        let five = Digit::new(5).unwrap();
        let six = Digit::new(6).unwrap();
        let (a, b, c) = (Cell::at(0, 0), Cell::at(0, 1), Cell::at(1, 0));
        let cells = [a.index(), b.index(), c.index()];
        assert_eq!(
            losses(
                &cells,
                &[(a, five), (a, six), (b, five), (b, six), (c, five)]
            ),
            "row 1, column 1 and row 1, column 2 cannot hold 5 or 6 and row 2, column 1 \
             cannot hold 5"
        );
        assert_eq!(
            losses(&cells[..2], &[(a, five), (b, five)]),
            "they cannot hold 5"
        );
    }
}
