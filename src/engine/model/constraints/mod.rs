//! The rule families as constraints: each family lives in one file of this module and says,
//! through [`Family`], everything the engines need to know about it; the [`registry!`] below
//! lists them. A puzzle's [`Rules`](super::rules::Rules) are a shape and a list of these.
//!
//! What a family can declare:
//! - the **houses** it adds ([`House`]): cells that hold distinct digits, and whether they
//!   hold every digit ([`Role`]); the [`Houses`] table every engine reads is built from them;
//! - the **pairs of cells** that must not hold the same digit outside any house
//!   ([`Family::forbidden_pairs`]): the weak-link table that propagation and pencil marks
//!   read (anti-king);
//! - the **digits a cell may hold** ([`Family::domains`]: odd and even cells, a
//!   thermometer's bounds by position) and the **digit pairs two cells may hold**
//!   ([`Family::relations`]: a table per pair of cells, for dots, thermometers,
//!   non-consecutive): the general solver keeps every relation arc consistent, pencil marks
//!   remove what they rule out, validation reports a broken one by its unit and cells;
//! - **propagators** ([`Family::propagators`], `propagators.rs`) for what the rest cannot say
//!   about several cells at once (an arrow's sum, a sandwich, a skyscraper clue): every
//!   engine narrows candidates with them, and validation reports an instance that no
//!   digits of its empty cells could mend;
//! - its **check** for validation: each house and pair is a named unit, so a repeated digit
//!   is reported by the unit it breaks and its cells; what houses and pairs cannot say (a
//!   cage's sum) the family checks on a full grid ([`Family::holds`]);
//! - its **naming**: the word in a puzzle's kind ("Jigsaw", "Killer") and its part of the
//!   puzzle id.
//!
//! What the houses and pairs cannot say (a cage's sum) stays a propagator of the solvers,
//! which read the family's own data for it.
//!
//! Invariant: a rule family is one file here plus one line in the registry.

use std::any::Any;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

use super::grid::{Cell, Digit, Grid, Shape};
use super::validate::{Conflict, Unit};
use propagators::Propagator;

pub(crate) mod anti_king;
pub(crate) mod anti_knight;
pub(crate) mod arrows;
pub(crate) mod between_lines;
pub(crate) mod boxes;
pub(crate) mod cages;
pub(crate) mod clones;
pub(crate) mod diagonals;
pub(crate) mod disjoint_groups;
pub(crate) mod dots;
pub(crate) mod extra_regions;
pub(crate) mod extremes;
pub(crate) mod lines;
pub(crate) mod little_killers;
pub(crate) mod non_consecutive;
pub(crate) mod outside;
pub(crate) mod palindromes;
pub(crate) mod parity;
pub(crate) mod propagators;
pub(crate) mod quadruples;
pub(crate) mod region_sum_lines;
pub(crate) mod regions;
pub(crate) mod renban;
pub(crate) mod sandwiches;
pub(crate) mod skyscrapers;
pub(crate) mod thermometers;
pub(crate) mod whispers;
pub(crate) mod windows;
pub(crate) mod x_sums;

/// What a house is to the engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A rule: every digit exactly once (rows, columns, boxes, regions, diagonals, windows).
    Complete,
    /// A rule: digits distinct, but not every digit (a Killer cage).
    Distinct,
    /// Every digit exactly once, but implied by the other houses rather than a rule of its
    /// own (a Hyper puzzle's hidden windows): the logic engine and the pencil marks use it,
    /// validation never checks it (a board that breaks one breaks a rule elsewhere).
    Implied,
}

/// A group of cells whose digits are distinct.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct House {
    pub unit: Unit,
    /// In reading order.
    pub cells: Vec<Cell>,
    pub role: Role,
}

/// Cells of distinct digits that add up to a total (a Killer cage with its sum): what pencil
/// marks narrow to the digits of the sums that can still be made.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DistinctSum {
    pub unit: Unit,
    /// In reading order.
    pub cells: Vec<Cell>,
    pub total: u32,
}

/// Two cells that must not hold the same digit, and the unit that names the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    pub unit: Unit,
    /// In reading order.
    pub cells: [Cell; 2],
}

/// The digits one cell may hold (bit `d - 1` for digit `d`), and the unit that names the
/// rule when the cell holds another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Domain {
    pub unit: Unit,
    pub cell: Cell,
    pub allowed: u32,
    /// Whether the domain is a rule a board is checked against (an odd cell), not a
    /// consequence of other rules that only the solvers and marks use (a thermometer's
    /// bounds: a 9 on a bulb breaks no rule by itself, it only leaves no solution).
    pub rule: bool,
}

/// The digit pairs two cells may hold, and the unit that names the rule when they hold
/// another: `table[a - 1]` has bit `b - 1` set when the first cell may hold `a` while the
/// second holds `b`. A table rather than a predicate, so every engine reads one shape and
/// the solver revises an arc with one OR per candidate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Relation {
    pub unit: Unit,
    /// Two different cells (not necessarily in reading order: a thermometer's bulb first).
    pub cells: [Cell; 2],
    /// One mask per digit of the first cell, `side` of them.
    pub table: Vec<u32>,
}

impl Relation {
    /// The relation of the digit pairs `(a, b)` of a grid of `side` for which `allows`
    /// holds.
    pub fn of(
        unit: Unit,
        cells: [Cell; 2],
        side: usize,
        allows: impl Fn(u32, u32) -> bool,
    ) -> Relation {
        let table = (1..=side as u32)
            .map(|a| {
                (1..=side as u32)
                    .filter(|&b| allows(a, b))
                    .fold(0, |mask, b| mask | 1 << (b - 1))
            })
            .collect();
        Relation { unit, cells, table }
    }

    /// Whether the first cell may hold `a` while the second holds `b` (digits from 1).
    pub fn allows(&self, a: u8, b: u8) -> bool {
        self.table
            .get(usize::from(a) - 1)
            .is_some_and(|mask| mask >> (b - 1) & 1 != 0)
    }

    /// The same relation read from the second cell: `table[b - 1]` the digits of the first.
    pub fn reversed(&self) -> Vec<u32> {
        let side = self.table.len();
        (0..side)
            .map(|b| {
                (0..side)
                    .filter(|&a| self.table[a] >> b & 1 != 0)
                    .fold(0, |mask, a| mask | 1 << a)
            })
            .collect()
    }
}

/// Every pair of orthogonal neighbours of a grid of `side`, each once, the upper or left cell
/// first (for non-consecutive and the negative dots).
pub(crate) fn orthogonal_pairs(side: usize) -> impl Iterator<Item = [Cell; 2]> {
    (0..side).flat_map(move |row| {
        (0..side).flat_map(move |col| {
            let right = (col + 1 < side).then(|| [Cell::at(row, col), Cell::at(row, col + 1)]);
            let down = (row + 1 < side).then(|| [Cell::at(row, col), Cell::at(row + 1, col)]);
            right.into_iter().chain(down)
        })
    })
}

/// Why a family's instances cannot be played: which field, where in it (a JSON pointer from
/// the field on, the engine's own words for what the HTTP layer sends), and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct ConstraintError {
    /// The problem type's last segment: `invalid-thermometers`.
    pub problem: &'static str,
    /// `/thermometers/0/cells/2`.
    pub pointer: String,
    pub detail: String,
}

/// The cell `(row, col)` (0-based) of a grid of `side`, or the error for the field at
/// `pointer` saying it is off the grid.
pub(crate) fn cell_on(
    side: usize,
    (row, col): (usize, usize),
    problem: &'static str,
    pointer: impl FnOnce() -> String,
) -> Result<Cell, ConstraintError> {
    match Cell::new(row, col).filter(|_| row < side && col < side) {
        Some(cell) => Ok(cell),
        None => Err(ConstraintError {
            problem,
            pointer: pointer(),
            detail: format!(
                "row {}, column {} is outside the {side}x{side} grid",
                row.saturating_add(1),
                col.saturating_add(1)
            ),
        }),
    }
}

/// The cells of a line as sent (0-based), checked against a grid of `side`: at least two,
/// on the grid, none twice, each the king's-move neighbour of the one before. `field` and
/// `index` make the pointer (`/thermometers/0/cells/2`), `name` the detail's start
/// ("thermometer 1: ..."); errors are of type `problem`.
pub(crate) fn line_on(
    side: usize,
    line: &[(usize, usize)],
    problem: &'static str,
    (field, name, index): (&str, &str, usize),
) -> Result<Vec<Cell>, ConstraintError> {
    let fail = |pointer: String, detail: String| ConstraintError {
        problem,
        pointer,
        detail: format!("{name} {}: {detail}", index + 1),
    };
    if line.len() < 2 {
        return Err(fail(
            format!("/{field}/{index}/cells"),
            format!("a {name} has at least two cells"),
        ));
    }
    let mut cells: Vec<Cell> = Vec::with_capacity(line.len());
    for (k, &at) in line.iter().enumerate() {
        let pointer = || format!("/{field}/{index}/cells/{k}");
        let cell = cell_on(side, at, problem, pointer).map_err(|e| fail(e.pointer, e.detail))?;
        if cells.contains(&cell) {
            return Err(fail(pointer(), format!("{cell} is on the line twice")));
        }
        if let Some(&last) = cells.last() {
            if last.row().abs_diff(cell.row()) > 1 || last.col().abs_diff(cell.col()) > 1 {
                return Err(fail(
                    pointer(),
                    format!("{cell} does not touch {last}, the cell before it"),
                ));
            }
        }
        cells.push(cell);
    }
    Ok(cells)
}

/// Two sets of marked cells as sent (odd and even, minimum and maximum: `marks`, each its
/// field's name and cells, 0-based), checked against `shape`: on the grid, none twice, none
/// in both. Each comes back in reading order.
pub(crate) fn two_marks(
    shape: Shape,
    marks: [(&'static str, &[(usize, usize)]); 2],
    problem: &'static str,
) -> Result<[Vec<Cell>; 2], ConstraintError> {
    let side = shape.side();
    let mut marked: Vec<Option<&str>> = vec![None; shape.cells()];
    let mut lists = [Vec::new(), Vec::new()];
    for (list, (field, cells)) in lists.iter_mut().zip(marks) {
        for (k, &at) in cells.iter().enumerate() {
            let pointer = || format!("/{field}/{k}");
            let cell = cell_on(side, at, problem, pointer)?;
            let slot = &mut marked[cell.row() * side + cell.col()];
            if let Some(first) = *slot {
                return Err(ConstraintError {
                    problem,
                    pointer: pointer(),
                    detail: format!("{cell} is already marked {first}"),
                });
            }
            *slot = Some(field);
            list.push(cell);
        }
        list.sort();
    }
    Ok(lists)
}

/// Writes sets of marked cells to a puzzle id, each non-empty one as its word then its
/// cells (in reading order).
pub(crate) fn identify_marks(hash: &mut dyn fmt::Write, marks: [(&str, &[Cell]); 2]) {
    for (word, cells) in marks {
        if !cells.is_empty() {
            let _ = write!(hash, ";{word}");
            for cell in cells {
                let _ = write!(hash, ",{}.{}", cell.row(), cell.col());
            }
        }
    }
}

/// Writes lines of cells to a puzzle id, each as its word then its cells, sorted by cells
/// then `key` (what else tells two lines apart): the list's order is not the puzzle's.
pub(crate) fn identify_lines<'a, K: Ord>(
    hash: &mut dyn fmt::Write,
    lines: impl Iterator<Item = (&'a [Cell], K, &'a str)>,
) {
    let mut lines: Vec<(&[Cell], K, &str)> = lines.collect();
    lines.sort_unstable_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    for (cells, _, word) in lines {
        let _ = hash.write_str(word);
        for cell in cells {
            let _ = write!(hash, ",{}.{}", cell.row(), cell.col());
        }
    }
}

/// What one rule family tells the engines. Every method but the houses has a default that
/// declares nothing, so a family writes only what it adds.
pub(crate) trait Family: Any {
    /// Appends the houses this family adds, in its units' order.
    fn houses(&self, _shape: Shape, _out: &mut Vec<House>) {}

    /// Appends the groups of distinct digits with a fixed total (each also one of the
    /// family's houses).
    fn distinct_sums(&self, _shape: Shape, _out: &mut Vec<DistinctSum>) {}

    /// Appends the pairs of cells that must not hold the same digit, each named by the unit
    /// a broken one is reported as. Pairs that share a house are dropped by the table.
    fn forbidden_pairs(&self, _shape: Shape, _out: &mut Vec<Pair>) {}

    /// Appends the digits some cells may hold (odd and even cells).
    fn domains(&self, _shape: Shape, _out: &mut Vec<Domain>) {}

    /// Appends the digit pairs some pairs of cells may hold (dots, thermometers).
    fn relations(&self, _shape: Shape, _out: &mut Vec<Relation>) {}

    /// Appends the propagators of what the declarations above cannot say (sums, order,
    /// sets of digits), each named by the unit a broken one is reported as.
    fn propagators(&self, _shape: Shape, _out: &mut Vec<Arc<dyn Propagator>>) {}

    /// Whether a full grid meets what the houses and pairs cannot say (a cage's sum).
    fn holds(&self, _grid: &Grid) -> bool {
        true
    }

    /// The word this family adds to a puzzle's kind ("Jigsaw"), if any, with its place
    /// among the words (names read "9x9 Jigsaw Hyper X Killer", in the order players
    /// knew them before the registry had an order of its own).
    fn kind_word(&self) -> Option<(u8, &'static str)> {
        None
    }

    /// Writes this family's part of the puzzle id (nothing for a family every puzzle has).
    fn identify(&self, _hash: &mut dyn fmt::Write) {}

    /// Whether this constraint leaves the rules classic (rows, columns and boxes only).
    fn is_classic(&self) -> bool {
        false
    }
}

/// The registry: one line per family, in the order their houses are numbered and their
/// parts of the puzzle id are written. It makes [`Constraint`], one variant per family.
macro_rules! registry {
    ($($family:ident($ty:ty),)*) => {
        /// One constraint of a puzzle: an instance of one rule family.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Constraint {
            $($family($ty),)*
        }

        impl Constraint {
            /// The family's own declarations.
            pub(crate) fn family(&self) -> &dyn Family {
                match self {
                    $(Constraint::$family(family) => family,)*
                }
            }

            /// Where this constraint's family sits in the registry (the list's order).
            fn rank(&self) -> u8 {
                /// The families by place in the registry.
                #[allow(dead_code)]
                enum Rank {
                    $($family,)*
                }
                match self {
                    $(Constraint::$family(_) => Rank::$family as u8,)*
                }
            }
        }

        $(impl From<$ty> for Constraint {
            fn from(family: $ty) -> Constraint {
                Constraint::$family(family)
            }
        })*
    };
}

registry! {
    Lines(lines::Lines),
    Boxes(boxes::Boxes),
    Cages(cages::Cages),
    Regions(regions::Regions),
    Diagonals(diagonals::Diagonals),
    Windows(windows::Windows),
    DisjointGroups(disjoint_groups::DisjointGroups),
    ExtraRegions(extra_regions::ExtraRegions),
    AntiKing(anti_king::AntiKing),
    AntiKnight(anti_knight::AntiKnight),
    NonConsecutive(non_consecutive::NonConsecutive),
    Parity(parity::Parity),
    Thermometers(thermometers::Thermometers),
    Dots(dots::Dots),
    Whispers(whispers::Whispers),
    Palindromes(palindromes::Palindromes),
    Renban(renban::Renban),
    Arrows(arrows::Arrows),
    LittleKillers(little_killers::LittleKillers),
    Sandwiches(sandwiches::Sandwiches),
    XSums(x_sums::XSums),
    Skyscrapers(skyscrapers::Skyscrapers),
    BetweenLines(between_lines::BetweenLines),
    RegionSumLines(region_sum_lines::RegionSumLines),
    Quadruples(quadruples::Quadruples),
    Extremes(extremes::Extremes),
    Clones(clones::Clones),
}

impl Constraint {
    /// This constraint as its family's type, when it is one.
    pub(crate) fn get<T: Family>(&self) -> Option<&T> {
        (self.family() as &dyn Any).downcast_ref()
    }
}

/// Puts constraints in registry order (houses numbered, ids written in that order).
pub(crate) fn sort(constraints: &mut [Constraint]) {
    constraints.sort_by_key(Constraint::rank);
}

/// The one house table of a puzzle, built once from its constraints: what the general
/// solver, the logic engine, validation and pencil marks read as houses and peers.
#[derive(Clone, Debug, Default)]
pub struct Houses {
    /// Every house of every constraint, in registry order.
    houses: Vec<House>,
    /// Pairs of cells that must differ and share no house (anti-king).
    pairs: Vec<Pair>,
    /// Cells with fewer digits than the grid's (odd, even, thermometer bounds).
    domains: Vec<Domain>,
    /// Pairs of cells with a table of the digit pairs they may hold.
    relations: Vec<Relation>,
    /// Houses with a fixed total (Killer cages with a sum).
    distinct_sums: Vec<DistinctSum>,
    /// The places in `houses` of the distinct houses that are none of `distinct_sums`.
    without_total: Vec<usize>,
    /// Constraints on several cells at once (sums, order, sets).
    propagators: Vec<Arc<dyn Propagator>>,
}

/// The conflict of `propagator` on `grid`: its filled cells, when no digits of its empty
/// cells could satisfy it (as far as its narrowing can tell; exactly on a full grid).
fn broken(propagator: &dyn Propagator, grid: &Grid) -> Option<Conflict> {
    let all = grid.shape().all_digits();
    let mut masks: Vec<u32> = propagator
        .cells()
        .iter()
        .map(|&cell| grid.get(cell).map_or(all, |d| 1 << (d.get() - 1)))
        .collect();
    if propagators::revise(propagator, &mut masks, &mut 0) {
        return None;
    }
    let mut filled: Vec<Cell> = propagator
        .cells()
        .iter()
        .copied()
        .filter(|&cell| grid.get(cell).is_some())
        .collect();
    filled.sort();
    let digit = filled.first().and_then(|&cell| grid.get(cell))?;
    Some(Conflict {
        unit: propagator.unit(),
        digit,
        cells: filled,
    })
}

impl Houses {
    /// The table of `constraints` (in registry order) on a grid of `shape`.
    pub(crate) fn build(shape: Shape, constraints: &[Constraint]) -> Houses {
        let mut table = Houses::default();
        let mut pairs = Vec::new();
        for constraint in constraints {
            let family = constraint.family();
            family.houses(shape, &mut table.houses);
            family.distinct_sums(shape, &mut table.distinct_sums);
            family.forbidden_pairs(shape, &mut pairs);
            family.domains(shape, &mut table.domains);
            family.relations(shape, &mut table.relations);
            family.propagators(shape, &mut table.propagators);
        }
        let totalled: HashSet<Unit> = table.distinct_sums.iter().map(|sum| sum.unit).collect();
        table.without_total = (table.houses.iter().enumerate())
            .filter(|(_, house)| house.role == Role::Distinct && !totalled.contains(&house.unit))
            .map(|(k, _)| k)
            .collect();
        if !pairs.is_empty() {
            // A pair inside a house says nothing more, and would report a repeat twice.
            let mut houses_of = vec![Vec::new(); shape.cells()];
            for (k, house) in table.houses.iter().enumerate() {
                for &cell in &house.cells {
                    houses_of[cell.row() * shape.side() + cell.col()].push(k);
                }
            }
            let index = |cell: Cell| cell.row() * shape.side() + cell.col();
            pairs.retain(|pair| {
                let [a, b] = pair.cells;
                !houses_of[index(a)]
                    .iter()
                    .any(|k| houses_of[index(b)].contains(k))
            });
            table.pairs = pairs;
        }
        table
    }

    /// The houses that are rules and hold every digit: rows, columns, boxes or regions,
    /// then whatever the other families add.
    pub fn complete(&self) -> impl Iterator<Item = &House> + '_ {
        self.with(Role::Complete)
    }

    /// The houses with the given role, in registry order.
    pub fn with(&self, role: Role) -> impl Iterator<Item = &House> + '_ {
        self.houses.iter().filter(move |house| house.role == role)
    }

    /// The houses validation checks: the complete ones, then the distinct ones (cages).
    pub fn checked(&self) -> impl Iterator<Item = &House> + '_ {
        self.complete().chain(self.with(Role::Distinct))
    }

    /// The houses of the logic engine: the complete ones, then the implied ones.
    pub fn logic(&self) -> impl Iterator<Item = &House> + '_ {
        self.complete().chain(self.with(Role::Implied))
    }

    /// Every house a placed digit leaves the other cells of: checked ones, then implied ones.
    pub fn all(&self) -> impl Iterator<Item = &House> + '_ {
        self.checked().chain(self.with(Role::Implied))
    }

    /// The cells of `unit` (none for a unit the table does not have).
    pub fn cells_of(&self, unit: Unit) -> &[Cell] {
        self.houses
            .iter()
            .find(|house| house.unit == unit)
            .map_or(&[], |house| &house.cells)
    }

    /// Pairs of cells that must not hold the same digit though no house holds both.
    pub fn forbidden_pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The cells with fewer digits than the grid's, in registry order.
    pub fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The relations between pairs of cells, in registry order.
    pub fn relations(&self) -> &[Relation] {
        &self.relations
    }

    /// The houses with a fixed total, in registry order.
    pub fn distinct_sums(&self) -> &[DistinctSum] {
        &self.distinct_sums
    }

    /// The constraints on several cells at once, in registry order.
    pub(crate) fn propagators(&self) -> &[Arc<dyn Propagator>] {
        &self.propagators
    }

    /// Whether anything constrains cells outside the complete houses and the houses with a
    /// total (forbidden pairs, domains, relations, propagators, distinct houses without a
    /// total such as extra regions or cages without a sum): the logic engine reasons over
    /// those two only.
    pub fn reaches_beyond_houses(&self) -> bool {
        self.first_beyond_houses().is_some()
    }

    /// The unit of one rule that reaches beyond the houses (see
    /// [`Houses::reaches_beyond_houses`]), to name it where that matters (what grading cannot
    /// take): a distinct house without a total first, then pairs, domains, relations and
    /// propagators, each in registry order.
    pub fn first_beyond_houses(&self) -> Option<Unit> {
        (self.distinct_without_total().map(|house| house.unit))
            .chain(self.pairs.iter().map(|pair| pair.unit))
            .chain(self.domains.iter().map(|domain| domain.unit))
            .chain(self.relations.iter().map(|relation| relation.unit))
            .chain(self.propagators.iter().map(|propagator| propagator.unit()))
            .next()
    }

    /// The houses of distinct digits with no total (extra regions, renban lines, cages
    /// without a sum), which the solvers read as peers only: a house with a total is also
    /// one of [`Houses::distinct_sums`].
    pub fn distinct_without_total(&self) -> impl Iterator<Item = &House> + '_ {
        self.without_total.iter().map(|&k| &self.houses[k])
    }

    /// Every repeated digit: by house (checked houses in order), then by pair, then every
    /// cell outside its domain and every relation broken (named by the digit of its first
    /// cell), then every propagator that no digits of its empty cells could satisfy (named
    /// by its filled cells and the first one's digit).
    pub fn conflicts(&self, grid: &Grid) -> Vec<Conflict> {
        let mut found = Vec::new();
        for house in self.checked() {
            let (mut seen, mut repeated) = (0u32, 0u32);
            for &cell in &house.cells {
                if let Some(d) = grid.get(cell) {
                    let bit = 1u32 << (d.get() - 1);
                    repeated |= seen & bit;
                    seen |= bit;
                }
            }
            let mut digits = repeated;
            while digits != 0 {
                let value = digits.trailing_zeros() as u8 + 1;
                digits &= digits - 1;
                // `value - 1` is a bit of `repeated`, set above from a grid digit (1-25).
                let digit = Digit::new(value).unwrap_or_else(|| unreachable!("a grid digit"));
                let mut at: Vec<Cell> = house
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| grid.get(c) == Some(digit))
                    .collect();
                at.sort();
                found.push(Conflict {
                    unit: house.unit,
                    digit,
                    cells: at,
                });
            }
        }
        for pair in &self.pairs {
            let [a, b] = pair.cells;
            if let (Some(x), Some(y)) = (grid.get(a), grid.get(b)) {
                if x == y {
                    found.push(Conflict {
                        unit: pair.unit,
                        digit: x,
                        cells: vec![a, b],
                    });
                }
            }
        }
        for domain in self.domains.iter().filter(|domain| domain.rule) {
            if let Some(d) = grid.get(domain.cell) {
                if domain.allowed >> (d.get() - 1) & 1 == 0 {
                    found.push(Conflict {
                        unit: domain.unit,
                        digit: d,
                        cells: vec![domain.cell],
                    });
                }
            }
        }
        for relation in &self.relations {
            let [a, b] = relation.cells;
            if let (Some(x), Some(y)) = (grid.get(a), grid.get(b)) {
                if !relation.allows(x.get(), y.get()) {
                    found.push(Conflict {
                        unit: relation.unit,
                        digit: x,
                        cells: vec![a, b],
                    });
                }
            }
        }
        for propagator in self.propagators.iter().filter(|p| p.reported()) {
            if let Some(conflict) = broken(propagator.as_ref(), grid) {
                found.push(conflict);
            }
        }
        found
    }
}
