//! Canonical forms of 9x9 puzzles under rules beyond the classic ones: the classic form's
//! idea (the least image under the rule set's symmetries and the digits' relabellings) for
//! rule sets whose symmetries the classic group contains and are few enough to try in full.
//!
//! A rearrangement of the classic group (bands, rows in a band, stacks, columns in a stack,
//! the transposition) keeps rows, columns and boxes. It keeps a puzzle under more rules the
//! same puzzle when it also maps every other rule onto a rule of the same kind; a relabelling
//! of the digits keeps a rule only when the rule names no digit. So this module takes the
//! rule sets whose house table is houses and forbidden pairs alone, with the boxes among the
//! houses (Sudoku X, Hyper, disjoint groups, extra regions, one diagonal, anti-king,
//! anti-knight, and any mix of them), and nothing from the families themselves: the group is
//! the stabiliser of those houses and pairs, found by a search over the classic group and
//! kept for the next puzzle with the same rules. For example:
//!
//! * **X**: 96 rearrangements (the row order commutes with the reversal `r -> 8 - r`, the
//!   column order likewise, and together they keep both diagonals), times the 9! relabellings.
//! * **Hyper**: 128 (rows and columns keep the windows' lines `{1, 2, 3}` and `{5, 6, 7}`).
//!   Hyper puzzles also have symmetries outside the classic group (the "hidden" windows let
//!   rows move across bands); those are not used, so two Hyper puzzles related only by them
//!   keep different forms.
//!
//! Each rule is first put in its plainest kind, so that one rule set written two ways has
//! one group: a set of distinct digits inside a house (or one cell) says nothing and goes,
//! nine distinct cells are a complete house, two are a forbidden pair. A rule set that adds
//! nothing then is the classic one, with the classic form's tree search (`canonical.rs`).
//!
//! * **Jigsaw**: regions in the boxes' place. Moving rows or columns would tear the regions
//!   apart, so the group is the grid's own turns and mirrors (8) that keep the rules beyond
//!   the regions (with X's diagonals, all 8); the regions move with the grid and are part of
//!   the form, compared before the cells ([`RuleGroup::Jigsaw`]). Two Jigsaws are one here
//!   when a turn or a mirror and a relabelling make one the other.
//!
//! Rules that name digits (cages with sums, thermometers, dots...) have no form here, nor do
//! rule sets that keep more than [`MAX_GROUP`] rearrangements
//! (one pair of cells keeps 2,304 or 3,456; a few cells more than 4,096): the image search below would
//! be slower than the classic form's tree search, the right tool for such large groups.
//! [`NoForm`] says which.
//!
//! The group search tries the 3,359,232 rearrangements once per rule set, less the line
//! orders that do not keep the rules' counts of cells per row and column (which leaves a few
//! hundred for Hyper or anti-king and all of them for X, whose diagonals cross every line
//! once), each dropped at the first rule it does not keep: about 20 ms for X, under 2 ms for
//! Hyper, anti-king or anti-knight, and 0.13-0.16 s for the worst rules found (dozens of extra
//! regions that each cross every row and column), charged to the budget like any search
//! (about 1.3-1.5 units a microsecond).
//!
//! For each rearrangement the best relabelling is forced (digits numbered in order of first
//! appearance), so the form is the least of |group| relabelled images, each abandoned at its
//! first cell above the best so far.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::model::board::{CELLS, ORDERS_OF_THREE, SIZE};
use crate::engine::model::canonical::minimal_image;
use crate::engine::model::constraints::regions::REGION;
use crate::engine::model::constraints::Role;
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::rules::Rules;

/// A rearrangement of the cells: the image's cell `i` holds the original's cell `map[i]`.
type CellMap = [u8; CELLS];

/// The most rearrangements a rule set's group may have for its puzzles to get a form here.
pub(crate) const MAX_GROUP: usize = 4_096;

/// Images tried per work unit (an image reads at most 81 cells, about a tenth of a
/// microsecond each).
const IMAGES_PER_UNIT: u64 = 8;

/// Steps of the group search per work unit (a step is a rearrangement tried, a cell mapped
/// or a rule looked up; most rearrangements are dropped at the image of their first cell).
const STEPS_PER_UNIT: u64 = 320;

/// Distinct row or column profiles moved by a line order per work unit.
const PROFILES_PER_UNIT: u64 = 64;

/// Groups kept for the next puzzle with the same rules; when full, the one asked for least
/// recently goes.
const KEPT_GROUPS: usize = 64;

/// What a rule is to a rearrangement: the kind it must map onto.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    /// Cells holding every digit once.
    Complete,
    /// Cells of distinct digits (an extra region).
    Distinct,
    /// Two cells that must differ though no house holds both (anti-king, anti-knight).
    Pair,
}

/// A rule as a set of the 81 cells (bit `row * 9 + col`), with its kind.
type Item = (Kind, u128);

/// The rules beyond rows, columns and boxes (or Jigsaw regions), sorted: what a
/// rearrangement must keep. Two rule sets with the same signature have the same group.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Signature {
    items: Vec<Item>,
    /// Jigsaw regions take the boxes' place: they are carried along by the grid's own
    /// symmetries, not kept (see [`RuleGroup::Jigsaw`]).
    jigsaw: bool,
}

/// The symmetry group of a rule set with a canonical form (see the module docs).
#[derive(Clone, Debug)]
pub(crate) enum RuleGroup {
    /// The rules add nothing to the classic ones (cells of distinct digits inside a house,
    /// one-cell regions): the classic group, and the classic form's tree search.
    Classic,
    /// The rearrangements that keep the rules.
    Listed(Arc<[CellMap]>),
    /// Jigsaw: the grid's rotations and reflections (8, the square's own symmetries) that
    /// keep the rules beyond the regions; the regions move with the grid and are part of
    /// the form. Moving rows or columns across a Jigsaw would tear its regions apart, so
    /// two Jigsaws are one puzzle here when a turn or a mirror and a relabelling of the
    /// digits make one the other.
    Jigsaw(Arc<[CellMap]>),
}

/// A canonical form: the cells (row-major, 0 for empty) and, for a Jigsaw, the regions
/// (each cell's region, numbered from 0 in reading order of their first cells).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    pub cells: [u8; CELLS],
    pub regions: Option<[u8; CELLS]>,
}

/// Why a rule set has no canonical form here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoForm {
    #[error("it is not 9x9")]
    NotNine,
    #[error(
        "its rules name digits (sums, order, parity, differences...), which a relabelling of \
         the digits does not keep"
    )]
    NamesDigits,
    #[error(
        "its rules keep more than 4,096 of the grid's rearrangements, too many to try one by \
         one"
    )]
    TooManySymmetries,
}

fn mask_of(cells: &[Cell]) -> u128 {
    cells
        .iter()
        .fold(0, |mask, cell| mask | 1 << (cell.row() * SIZE + cell.col()))
}

/// The rows, columns and boxes of the 9x9 grid, as cell sets: the classic rules' houses.
fn classic_houses() -> &'static [u128] {
    static HOUSES: OnceLock<Vec<u128>> = OnceLock::new();
    HOUSES.get_or_init(|| {
        let classic = Rules::classic(Shape::NINE);
        let houses = classic.house_table().complete();
        houses.map(|house| mask_of(&house.cells)).collect()
    })
}

/// `items` (houses and pairs) with each rule in its plainest kind, so that two ways of
/// writing one rule set give one signature (and one group, no smaller than the rules'):
/// a distinct set of one cell, or inside a complete house or a larger distinct set, says
/// nothing and goes; one of 9 cells is complete; one of 2 cells is a pair; a pair inside a
/// house goes. Sorted, without repeats.
fn normalised(items: Vec<Item>) -> Vec<Item> {
    let houses: Vec<Item> = items
        .iter()
        .copied()
        .filter(|&(kind, _)| kind != Kind::Pair)
        .collect();
    let inside = |kind: Kind, mask: u128| {
        houses.iter().any(|&(other, house)| {
            mask & !house == 0
                && (other == Kind::Complete || (house != mask && kind != Kind::Complete))
        })
    };
    let mut out: Vec<Item> = Vec::with_capacity(items.len());
    for (kind, mask) in items {
        let plain = match (kind, mask.count_ones()) {
            (Kind::Complete, _) => Some(Kind::Complete),
            (_, 0 | 1) => None,
            (_, 2) if !inside(Kind::Pair, mask) => Some(Kind::Pair),
            (Kind::Distinct, 9) => Some(Kind::Complete),
            (Kind::Distinct, _) if !inside(Kind::Distinct, mask) => Some(Kind::Distinct),
            _ => None,
        };
        out.extend(plain.map(|kind| (kind, mask)));
    }
    out.sort_unstable();
    out.dedup();
    out
}

impl Signature {
    /// The signature of `rules`: what they add to the classic rules, each rule in its
    /// plainest kind (see [`normalised`]); empty when that is nothing.
    fn of(rules: &Rules) -> Result<Signature, NoForm> {
        let table = rules.house_table();
        if rules.shape() != Shape::NINE {
            return Err(NoForm::NotNine);
        }
        if !table.domains().is_empty()
            || !table.relations().is_empty()
            || !table.distinct_sums().is_empty()
            || !table.propagators().is_empty()
        {
            return Err(NoForm::NamesDigits);
        }
        let classic = classic_houses();
        let jigsaw = rules.regions().is_some();
        // A Jigsaw's regions are left out: they move with the grid. Its other rules are put
        // in their plainest kind against the rows and columns alone, so that the signature
        // (and the group) does not depend on where the regions lie.
        let mut items: Vec<Item> = (table.checked())
            .filter(|house| house.unit.kind.name() != REGION.name())
            .map(|house| {
                let kind = match house.role {
                    Role::Complete => Kind::Complete,
                    _ => Kind::Distinct,
                };
                (kind, mask_of(&house.cells))
            })
            .collect();
        let kept = if jigsaw {
            &classic[..2 * SIZE]
        } else {
            classic
        };
        debug_assert!(kept.iter().all(|&m| items.contains(&(Kind::Complete, m))));
        items.extend(
            (table.forbidden_pairs().iter()).map(|pair| (Kind::Pair, mask_of(&pair.cells))),
        );
        let mut items = normalised(items);
        items.retain(|&(kind, mask)| !(kind == Kind::Complete && kept.contains(&mask)));
        Ok(Signature { items, jigsaw })
    }

    /// The grid's rotations and reflections that keep these rules (see
    /// [`RuleGroup::Jigsaw`]): the identity at least. Eight maps tried, each dropped at the
    /// first rule it moves off the rules.
    fn square_stabiliser(&self, budget: &Budget) -> Result<Vec<CellMap>, Exhausted> {
        let items = &self.items;
        budget.charge((8 * (CELLS + items.len() * SIZE) as u64).div_ceil(STEPS_PER_UNIT))?;
        let mut group = Vec::with_capacity(8);
        for symmetry in 0..8u8 {
            let map: CellMap = std::array::from_fn(|i| square_symmetry(symmetry, i as u8));
            let keeps = items.iter().all(|&(kind, mask)| {
                let image = (0..CELLS)
                    .filter(|&i| mask >> map[i] & 1 == 1)
                    .fold(0u128, |image, i| image | 1 << i);
                items.binary_search(&(kind, image)).is_ok()
            });
            if keeps {
                group.push(map);
            }
        }
        Ok(group)
    }

    /// Every rearrangement of the classic group that keeps these rules, or `None` when there
    /// are more than `cap`. Charged to `budget`.
    fn stabiliser(&self, cap: usize, budget: &Budget) -> Result<Option<Vec<CellMap>>, Exhausted> {
        let items = &self.items;
        let cells_of =
            |mask: u128| -> Vec<u8> { (0..CELLS as u8).filter(|&i| mask >> i & 1 == 1).collect() };
        // Checked smallest first: most rearrangements fail on the first cell or two.
        let mut checks: Vec<(Kind, Vec<u8>)> = items
            .iter()
            .map(|&(kind, mask)| (kind, cells_of(mask)))
            .collect();
        checks.sort_by_key(|(_, cells)| cells.len());
        // A rule's image must lie in the cells the rules of its kind cover.
        let mut covered = [0u128; 3];
        for &(kind, mask) in items {
            covered[kind as usize] |= mask;
        }
        // A rearrangement moves each rule's count of cells per row (and per column) with the
        // lines, so a line order that does not keep those counts' multiset keeps no rules.
        // Kept as distinct counts with their multiplicity: many pairs share a few.
        type Profile = Vec<((Kind, [u8; SIZE]), u32)>;
        let tally = |counts: Vec<(Kind, [u8; SIZE])>| -> Profile {
            let mut tally: HashMap<(Kind, [u8; SIZE]), u32> = HashMap::new();
            counts
                .into_iter()
                .for_each(|key| *tally.entry(key).or_default() += 1);
            let mut out: Profile = tally.into_iter().collect();
            out.sort_unstable();
            out
        };
        let profile = |line: fn(u8) -> usize| -> Profile {
            tally(
                (items.iter())
                    .map(|&(kind, mask)| {
                        let mut counts = [0u8; SIZE];
                        cells_of(mask)
                            .into_iter()
                            .for_each(|i| counts[line(i)] += 1);
                        (kind, counts)
                    })
                    .collect(),
            )
        };
        let rows = profile(|i| usize::from(i) / SIZE);
        let cols = profile(|i| usize::from(i) % SIZE);
        let moved = |order: &[usize; SIZE], from: &Profile| -> Profile {
            let mut out: Profile = (from.iter())
                .map(|&((kind, counts), times)| {
                    let mut moved = [0u8; SIZE];
                    (0..SIZE).for_each(|x| moved[order[x]] = counts[x]);
                    ((kind, moved), times)
                })
                .collect();
            out.sort_unstable();
            out
        };
        // A lookup is a binary search: a step per halving, each a wide comparison.
        let lookup_steps = 2 * u64::from(items.len().max(1).ilog2() + 1);
        let orders = line_orders();
        budget.charge((2 * orders.len() * (rows.len() + cols.len())) as u64 / PROFILES_PER_UNIT)?;
        let moved_rows: Vec<Profile> = orders.iter().map(|o| moved(o, &rows)).collect();
        let moved_cols: Vec<Profile> = orders.iter().map(|o| moved(o, &cols)).collect();
        let mut group = Vec::new();
        for transpose in [false, true] {
            // Transposed, the image's rows are the original's columns and the other way round.
            let (row_goal, col_goal) = if transpose {
                (&cols, &rows)
            } else {
                (&rows, &cols)
            };
            let keeping = |moved: &[Profile], goal: &Profile| -> Vec<&[usize; SIZE]> {
                (orders.iter().zip(moved))
                    .filter(|(_, profile)| *profile == goal)
                    .map(|(order, _)| order)
                    .collect()
            };
            let row_orders = keeping(&moved_rows, row_goal);
            let col_orders = keeping(&moved_cols, col_goal);
            for row_order in row_orders {
                // One step per rearrangement, per cell mapped and per rule looked up.
                let mut steps = col_orders.len() as u64;
                for col_order in &col_orders {
                    let from = |i: u8| {
                        let (r, c) = (
                            row_order[usize::from(i) / SIZE],
                            col_order[usize::from(i) % SIZE],
                        );
                        if transpose {
                            c * SIZE + r
                        } else {
                            r * SIZE + c
                        }
                    };
                    let keeps = checks.iter().all(|(kind, cells)| {
                        let mut image = 0u128;
                        for &i in cells {
                            steps += 1;
                            let to = from(i);
                            if covered[*kind as usize] >> to & 1 == 0 {
                                return false;
                            }
                            image |= 1 << to;
                        }
                        steps += lookup_steps;
                        items.binary_search(&(*kind, image)).is_ok()
                    });
                    if keeps {
                        if group.len() == cap {
                            return Ok(None);
                        }
                        group.push(std::array::from_fn(|i| from(i as u8) as u8));
                    }
                }
                budget.charge(steps.div_ceil(STEPS_PER_UNIT))?;
            }
        }
        Ok(Some(group))
    }
}

impl RuleGroup {
    /// The group of `rules` when their puzzles have a canonical form here (see the module
    /// docs), found once per rule set and kept; the search is charged to `budget`.
    pub(crate) fn of(
        rules: &Rules,
        budget: &Budget,
    ) -> Result<Result<RuleGroup, NoForm>, Exhausted> {
        let signature = match Signature::of(rules) {
            Ok(signature) if signature.items.is_empty() && !signature.jigsaw => {
                return Ok(Ok(RuleGroup::Classic))
            }
            Ok(signature) => signature,
            Err(why) => return Ok(Err(why)),
        };
        if signature.jigsaw {
            // Eight maps at most: found afresh each time, faster than a lookup.
            let maps = signature.square_stabiliser(budget)?;
            return Ok(Ok(RuleGroup::Jigsaw(maps.into())));
        }
        if let Some(kept) = kept_groups().find(&signature) {
            return Ok(kept);
        }
        // Searched outside the lock: two threads may both search a new rule set, which costs
        // time, not correctness. A search the budget stops is not kept.
        let found = match signature.stabiliser(MAX_GROUP, budget)? {
            Some(maps) => Ok(RuleGroup::Listed(maps.into())),
            None => Err(NoForm::TooManySymmetries),
        };
        kept_groups().keep(signature, found.clone());
        Ok(found)
    }

    /// The canonical form of `cells` (row-major, 0 for empty): the least relabelled image
    /// under the group. Puzzles of this rule set that are one puzzle in disguise (under the
    /// group) have the same form; the form is itself such a disguise.
    ///
    /// A Jigsaw's form carries its regions (`regions`: each cell's region, as
    /// [`Form::regions`] numbers them): the least image compares the regions first, then
    /// the cells.
    pub(crate) fn form(
        &self,
        cells: &[u8; CELLS],
        regions: Option<&[u8; CELLS]>,
        budget: &Budget,
    ) -> Result<Form, Exhausted> {
        let maps = match (self, regions) {
            (RuleGroup::Classic, _) => {
                let cells = minimal_image(cells, budget)?;
                return Ok(Form {
                    cells,
                    regions: None,
                });
            }
            (RuleGroup::Listed(maps), _) => maps,
            (RuleGroup::Jigsaw(maps), Some(regions)) => {
                return jigsaw_form(maps, cells, regions, budget)
            }
            (RuleGroup::Jigsaw(_), None) => {
                unreachable!("a Jigsaw's group comes from rules with regions")
            }
        };
        budget.charge((maps.len() as u64).div_ceil(IMAGES_PER_UNIT))?;
        let mut best = [u8::MAX; CELLS];
        for map in maps.iter() {
            let (mut label, mut next, mut below) = ([0u8; SIZE + 1], 1u8, false);
            let mut image = [0u8; CELLS];
            let mut beaten = false;
            for at in 0..CELLS {
                let value = match cells[usize::from(map[at])] {
                    0 => 0,
                    digit => {
                        let digit = usize::from(digit);
                        if label[digit] == 0 {
                            label[digit] = next;
                            next += 1;
                        }
                        label[digit]
                    }
                };
                if !below {
                    if value > best[at] {
                        beaten = true;
                        break;
                    }
                    below = value < best[at];
                }
                image[at] = value;
            }
            if !beaten && below {
                best = image;
            }
        }
        Ok(Form {
            cells: best,
            regions: None,
        })
    }
}

/// Cell `i` of the image under the square's symmetry `symmetry` (0-7: bit 0 mirrors the
/// rows, bit 1 the columns, bit 2 transposes): the original cell it shows.
fn square_symmetry(symmetry: u8, i: u8) -> u8 {
    let (mut row, mut col) = (i / SIZE as u8, i % SIZE as u8);
    if symmetry & 4 != 0 {
        (row, col) = (col, row);
    }
    if symmetry & 1 != 0 {
        row = SIZE as u8 - 1 - row;
    }
    if symmetry & 2 != 0 {
        col = SIZE as u8 - 1 - col;
    }
    row * SIZE as u8 + col
}

/// `values` read through `map`, each value numbered in order of first appearance from
/// `first` (0 stays 0 when `keep_zero`: an empty cell).
fn relabelled(values: &[u8; CELLS], map: &CellMap, first: u8, keep_zero: bool) -> [u8; CELLS] {
    let mut label = [0u8; 256];
    let mut next = first;
    std::array::from_fn(|at| {
        let value = values[usize::from(map[at])];
        if keep_zero && value == 0 {
            return 0;
        }
        let slot = &mut label[usize::from(value)];
        if *slot == 0 {
            *slot = next + 1;
            next += 1;
        }
        *slot - 1
    })
}

/// A Jigsaw's form: of the images under `maps`, with regions and digits numbered in order
/// of first appearance, the least by regions and then by cells.
fn jigsaw_form(
    maps: &[CellMap],
    cells: &[u8; CELLS],
    regions: &[u8; CELLS],
    budget: &Budget,
) -> Result<Form, Exhausted> {
    budget.charge((2 * maps.len() as u64).div_ceil(IMAGES_PER_UNIT))?;
    let best = maps
        .iter()
        .map(|map| {
            // Digits from 1, regions from 0.
            (
                relabelled(regions, map, 0, false),
                relabelled(cells, map, 1, true),
            )
        })
        .min()
        .unwrap_or_else(|| unreachable!("the identity keeps every rule"));
    Ok(Form {
        cells: best.1,
        regions: Some(best.0),
    })
}

/// The groups found so far, by signature, with when each was last asked for.
#[derive(Default)]
struct KeptGroups {
    groups: HashMap<Signature, (Result<RuleGroup, NoForm>, u64)>,
    clock: u64,
}

/// The one store of groups, behind its lock.
struct Kept(Mutex<KeptGroups>);

fn kept_groups() -> &'static Kept {
    static KEPT: OnceLock<Kept> = OnceLock::new();
    KEPT.get_or_init(|| Kept(Mutex::new(KeptGroups::default())))
}

impl Kept {
    fn lock(&self) -> std::sync::MutexGuard<'_, KeptGroups> {
        // A poisoned lock only means another thread panicked mid-update: the map is whole.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn find(&self, signature: &Signature) -> Option<Result<RuleGroup, NoForm>> {
        let mut kept = self.lock();
        kept.clock += 1;
        let now = kept.clock;
        kept.groups.get_mut(signature).map(|(group, used)| {
            *used = now;
            group.clone()
        })
    }

    /// Keeps `group`, putting out the least recently asked for when full (so a client
    /// cycling through new rule sets does not put out the groups every puzzle of X or Hyper
    /// asks for).
    fn keep(&self, signature: Signature, group: Result<RuleGroup, NoForm>) {
        let mut kept = self.lock();
        // Another thread may have kept this rule set meanwhile: then it is replaced, and
        // nothing else need go.
        if kept.groups.len() >= KEPT_GROUPS && !kept.groups.contains_key(&signature) {
            let oldest = (kept.groups.iter())
                .min_by_key(|(_, (_, used))| *used)
                .map(|(signature, _)| signature.clone());
            if let Some(oldest) = oldest {
                kept.groups.remove(&oldest);
            }
        }
        kept.clock += 1;
        let now = kept.clock;
        kept.groups.insert(signature, (group, now));
    }
}

/// Every order of the 9 lines that keeps bands together: the bands in any order, the lines
/// of each band in any order (6^4 = 1,296).
fn line_orders() -> Vec<[usize; SIZE]> {
    let mut orders = Vec::with_capacity(1296);
    for bands in ORDERS_OF_THREE {
        for a in ORDERS_OF_THREE {
            for b in ORDERS_OF_THREE {
                for c in ORDERS_OF_THREE {
                    let within = [a, b, c];
                    let mut order = [0; SIZE];
                    for (slot, band) in bands.into_iter().enumerate() {
                        for (k, line) in within[slot].into_iter().enumerate() {
                            order[slot * 3 + k] = band * 3 + line;
                        }
                    }
                    orders.push(order);
                }
            }
        }
    }
    orders
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::regions::Regions;
    use crate::engine::model::grid::Grid;
    use crate::engine::model::puzzle::Puzzle;
    use crate::engine::model::rules::{OneDiagonal, RuleSpec};
    use crate::engine::random::SplitMix64;
    use crate::engine::Engine;
    use std::collections::HashSet;

    /// Givens the tests disguise (read as cells only: no rule set checks them here).
    const GIVENS: &str =
        "..........2.5.3.....1...8..3...2..4..8.....7..4..9...2..6...1.....7.4.6..........";

    fn rules(spec: RuleSpec) -> Rules {
        Rules::new(Shape::NINE, spec).unwrap()
    }

    fn x() -> RuleSpec {
        RuleSpec {
            diagonals: true,
            ..RuleSpec::default()
        }
    }

    fn hyper() -> RuleSpec {
        RuleSpec {
            windows: true,
            ..RuleSpec::default()
        }
    }

    /// Two extra regions that a transposition (or a turn) does not keep: a 3-cell one across
    /// the top band's boxes and a 2-cell one (a pair).
    fn lopsided() -> RuleSpec {
        RuleSpec {
            extra_regions: vec![vec![(0, 0), (1, 4), (2, 8)], vec![(3, 1), (7, 5)]],
            ..RuleSpec::default()
        }
    }

    fn maps_of(spec: RuleSpec) -> Arc<[CellMap]> {
        match RuleGroup::of(&rules(spec), &Budget::unlimited()) {
            Ok(Ok(RuleGroup::Listed(maps))) => maps,
            other => panic!("no listed group: {other:?}"),
        }
    }

    fn cells(line: &str) -> [u8; CELLS] {
        std::array::from_fn(|i| match line.as_bytes()[i] {
            digit @ b'1'..=b'9' => digit - b'0',
            _ => 0,
        })
    }

    /// `cells` under `map`, relabelled by `relabel`.
    fn disguise(cells: &[u8; CELLS], map: &CellMap, relabel: &[u8]) -> [u8; CELLS] {
        std::array::from_fn(|i| match cells[usize::from(map[i])] {
            0 => 0,
            d => relabel[usize::from(d) - 1],
        })
    }

    fn quarter_turn() -> CellMap {
        std::array::from_fn(|i| ((SIZE - 1 - i % SIZE) * SIZE + i / SIZE) as u8)
    }

    /// The plain definition, written apart from the search: every rearrangement of the
    /// classic group (built cell by cell) whose images of the given cell sets are those sets.
    fn brute_force_group(sets: &[Vec<usize>]) -> HashSet<CellMap> {
        let sorted = |mut sets: Vec<Vec<usize>>| {
            sets.iter_mut().for_each(|set| set.sort_unstable());
            sets.sort();
            sets
        };
        let sets = sorted(sets.to_vec());
        let mut covered = [false; CELLS];
        sets.iter().flatten().for_each(|&i| covered[i] = true);
        let orders = line_orders();
        let mut group = HashSet::new();
        for transpose in [false, true] {
            for rows in &orders {
                for cols in &orders {
                    let map: CellMap = std::array::from_fn(|i| {
                        let (r, c) = (rows[i / SIZE], cols[i % SIZE]);
                        (if transpose {
                            c * SIZE + r
                        } else {
                            r * SIZE + c
                        }) as u8
                    });
                    // Quick rejection: a map that keeps the sets keeps their union.
                    if sets.iter().any(|set| !covered[usize::from(map[set[0]])]) {
                        continue;
                    }
                    let images = sets
                        .iter()
                        .map(|set| set.iter().map(|&i| usize::from(map[i])).collect())
                        .collect();
                    if sorted(images) == sets {
                        group.insert(map);
                    }
                }
            }
        }
        group
    }

    /// The groups are what the module docs say: their sizes, the identity and the square's
    /// turns among them, and closed under composition (so a least image is well defined).
    /// A mix of rules keeps exactly what keeps each of them.
    #[test]
    fn the_groups_keep_their_rules_and_are_groups() {
        let both = RuleSpec {
            diagonals: true,
            windows: true,
            ..RuleSpec::default()
        };
        let anti_king = RuleSpec {
            anti_king: true,
            ..RuleSpec::default()
        };
        let disjoint = RuleSpec {
            disjoint_groups: true,
            ..RuleSpec::default()
        };
        let cases = [
            ("x", x(), Some(96)),
            ("hyper", hyper(), Some(128)),
            ("both", both.clone(), None),
            ("anti-king", anti_king, None),
            ("disjoint", disjoint, None),
        ];
        for (name, spec, size) in cases {
            let maps = maps_of(spec);
            if let Some(size) = size {
                assert_eq!(maps.len(), size, "{name}");
            }
            let identity: CellMap = std::array::from_fn(|i| i as u8);
            assert!(maps.contains(&identity), "{name}");
            assert!(maps.contains(&quarter_turn()), "{name}");
            let set: HashSet<&CellMap> = maps.iter().collect();
            for a in maps.iter().step_by(7) {
                for b in maps.iter().step_by(5) {
                    let composed: CellMap = std::array::from_fn(|i| a[usize::from(b[i])]);
                    assert!(set.contains(&composed), "{name} is closed");
                }
            }
        }
        let (x, hyper) = (maps_of(x()), maps_of(hyper()));
        let mut meet: Vec<CellMap> = x.iter().filter(|m| hyper.contains(m)).copied().collect();
        let mut mixed = maps_of(both).to_vec();
        meet.sort_unstable();
        mixed.sort_unstable();
        assert_eq!(mixed, meet);
    }

    /// The search finds exactly the plain definition's group, for rules a transposition keeps
    /// (X, Hyper: houses written out here by hand) and for rules it does not.
    #[test]
    fn the_search_finds_the_group_the_definition_gives() {
        let diagonals: Vec<Vec<usize>> = vec![
            (0..SIZE).map(|i| i * SIZE + i).collect(),
            (0..SIZE).map(|i| i * SIZE + (SIZE - 1 - i)).collect(),
        ];
        let windows: Vec<Vec<usize>> = [(1, 1), (1, 5), (5, 1), (5, 5)]
            .into_iter()
            .map(|(top, left)| {
                (0..9)
                    .map(|k| (top + k / 3) * SIZE + left + k % 3)
                    .collect()
            })
            .collect();
        let lopsided_sets = vec![vec![0, 13, 26], vec![28, 68]];
        // A pair on rows 0 and 3 and columns 4 and 0: its rows and columns differ, yet some
        // rearrangements that transpose keep it (so the search must send rows' counts to
        // columns' when it transposes, and the other way round).
        let crossed = RuleSpec {
            extra_regions: vec![vec![(0, 4), (3, 0)]],
            ..RuleSpec::default()
        };
        let crossed_sets = vec![vec![4, 27]];
        let cases = [
            (x(), diagonals),
            (hyper(), windows),
            (lopsided(), lopsided_sets),
            (crossed.clone(), crossed_sets),
        ];
        for (spec, sets) in cases {
            let found: HashSet<CellMap> = maps_of(spec.clone()).iter().copied().collect();
            // Compared as a whole, printed by size (a group is thousands of maps).
            let brute = brute_force_group(&sets);
            let sizes = (found.len(), brute.len(), found.intersection(&brute).count());
            assert!(found == brute, "{:?}: {sizes:?}", spec.extra_regions);
        }
        assert!(!maps_of(lopsided()).iter().any(|map| *map == quarter_turn()));
        let transposes = |map: &CellMap| usize::from(map[1]) % SIZE == 0;
        assert!(maps_of(crossed).iter().any(transposes));
    }

    /// Every disguise of a puzzle under the group and a relabelling has the puzzle's form,
    /// which is the least of the group's relabelled images.
    #[test]
    fn disguises_share_the_form_and_it_is_the_least_image() {
        let mut random = SplitMix64::new(29);
        let budget = Budget::unlimited();
        let puzzle = cells(GIVENS);
        for spec in [x(), hyper(), lopsided()] {
            let maps = maps_of(spec.clone());
            let group = RuleGroup::Listed(maps.clone());
            let form = group.form(&puzzle, None, &budget).unwrap().cells;
            for _ in 0..20 {
                let map = maps[random.below(maps.len())];
                let mut relabel: Vec<u8> = (1..=9).collect();
                random.shuffle(&mut relabel);
                let disguised = disguise(&puzzle, &map, &relabel);
                let again = group.form(&disguised, None, &budget).unwrap().cells;
                assert_eq!(again, form, "{spec:?}");
            }
            let least = (maps.iter())
                .map(|map| {
                    let mut label = [0u8; 10];
                    let mut next = 1;
                    disguise(&puzzle, map, &(1..=9).collect::<Vec<u8>>()).map(|d| match d {
                        0 => 0,
                        d => {
                            if label[usize::from(d)] == 0 {
                                label[usize::from(d)] = next;
                                next += 1;
                            }
                            label[usize::from(d)]
                        }
                    })
                })
                .min()
                .unwrap();
            assert_eq!(form, least, "{spec:?}");
            let mut other = puzzle;
            other[0] = 9;
            let other = group.form(&other, None, &budget).unwrap().cells;
            assert_ne!(other, form, "{spec:?}");
        }
    }

    /// One rule set written two ways has one group: cells that say nothing more (one-cell
    /// regions, a region inside a box) leave X's group as it is and the classic rules
    /// classic, and a 9-cell extra region along the anti-diagonal is that diagonal (so with
    /// the main one it is X, whose group swaps the two).
    #[test]
    fn rules_that_say_nothing_more_leave_the_group_as_it_is() {
        let idle = vec![vec![(4, 4)], vec![(0, 0), (1, 1)], vec![(8, 0)]];
        let x_and_idle = RuleSpec {
            extra_regions: idle.clone(),
            ..x()
        };
        assert_eq!(maps_of(x_and_idle), maps_of(x()));
        let classic_and_idle = RuleSpec {
            extra_regions: idle,
            ..RuleSpec::default()
        };
        let group = RuleGroup::of(&rules(classic_and_idle), &Budget::unlimited()).unwrap();
        assert!(matches!(group, Ok(RuleGroup::Classic)));
        let one = RuleSpec {
            one_diagonal: Some(OneDiagonal::Main),
            ..RuleSpec::default()
        };
        let main_and_region = RuleSpec {
            extra_regions: vec![(0..SIZE).map(|i| (i, SIZE - 1 - i)).collect()],
            ..one
        };
        assert_eq!(maps_of(main_and_region), maps_of(x()));
    }

    /// Rules that name digits and other sizes get no group here, each with its reason; so does a group above the cap (X's 96 against a cap of 95).
    #[test]
    fn the_rule_sets_without_a_group_here_say_why() {
        let budget = Budget::unlimited();
        let why = |rules: Rules| RuleGroup::of(&rules, &budget).unwrap().err();
        assert_eq!(why(Rules::classic(Shape::FOUR)), Some(NoForm::NotNine));
        let non_consecutive = RuleSpec {
            non_consecutive: true,
            ..RuleSpec::default()
        };
        assert_eq!(why(rules(non_consecutive)), Some(NoForm::NamesDigits));
        let stripes = (0..SIZE)
            .map(|r| vec![Some((r + 1).to_string()); SIZE])
            .collect();
        // A Jigsaw has a form: its group is the square's symmetries that keep the windows
        // (all eight), whatever its regions.
        let jigsaw_hyper = RuleSpec {
            regions: Some(stripes),
            ..hyper()
        };
        let group = RuleGroup::of(&rules(jigsaw_hyper), &budget).unwrap();
        assert!(matches!(group, Ok(RuleGroup::Jigsaw(maps)) if maps.len() == 8));
        let signature = Signature::of(&rules(x())).unwrap();
        assert_eq!(signature.stabiliser(95, &budget).unwrap(), None);
        assert_eq!(
            signature.stabiliser(96, &budget).unwrap().unwrap().len(),
            96
        );
    }

    /// The search is charged by the steps it takes, so its worst inputs are bounded by the
    /// budget like any search: X's (no line order ruled out, so all 3,359,232 rearrangements
    /// tried; about 20 ms in a release build) costs tens of thousands of units, Hyper's (a
    /// few hundred rearrangements) a few hundred.
    #[test]
    fn the_search_is_charged_by_its_steps() {
        let charged = |spec: RuleSpec| {
            let budget = Budget::unlimited();
            let signature = Signature::of(&rules(spec)).unwrap();
            signature.stabiliser(MAX_GROUP, &budget).unwrap().unwrap();
            budget.used()
        };
        let x = charged(x());
        assert!((20_000..60_000).contains(&x), "{x}");
        let hyper = charged(hyper());
        assert!((50..1_000).contains(&hyper), "{hyper}");
    }

    /// A search the budget stops is an error and is not kept: the next ask with budget to
    /// spare finds the group.
    #[test]
    fn a_search_cut_short_is_an_error_and_not_kept() {
        let spec = RuleSpec {
            anti_knight: true,
            ..x()
        };
        let signature = Signature::of(&rules(spec.clone())).unwrap();
        assert!(signature.stabiliser(MAX_GROUP, &Budget::work(3)).is_err());
        assert!(RuleGroup::of(&rules(spec.clone()), &Budget::work(3)).is_err());
        assert!(!maps_of(spec).is_empty());
    }

    /// Boxes with two cells traded between the first two: a Jigsaw layout.
    const TRADED: [&str; 9] = [
        "000011222",
        "000111222",
        "001111222",
        "333444555",
        "333444555",
        "333444555",
        "666777888",
        "666777888",
        "666777888",
    ];

    /// Givens valid under [`TRADED`] (and under the boxes).
    const SPARSE: [&str; 9] = [
        "1........",
        "....2....",
        ".........",
        ".......6.",
        "....3....",
        ".........",
        ".5.......",
        ".........",
        "........4",
    ];

    fn jigsaw(rows: &[String], regions: &[String], also: RuleSpec) -> Puzzle {
        let spec = RuleSpec {
            regions: Some(
                (regions.iter())
                    .map(|row| row.chars().map(|c| Some(c.to_string())).collect())
                    .collect(),
            ),
            ..also
        };
        let grid = Grid::from_rows(rows).unwrap();
        Puzzle::new(grid, rules(spec)).unwrap()
    }

    /// A grid of characters turned a quarter clockwise: written apart from the maps.
    fn turned(rows: &[String]) -> Vec<String> {
        let chars: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
        (0..SIZE)
            .map(|r| (0..SIZE).map(|c| chars[SIZE - 1 - c][r]).collect())
            .collect()
    }

    fn mirrored(rows: &[String]) -> Vec<String> {
        rows.iter().map(|r| r.chars().rev().collect()).collect()
    }

    /// Every turn and mirror of a Jigsaw, with its digits and its region labels renamed,
    /// has the Jigsaw's form (its regions too); the form is one of those images; another
    /// layout has another form; and with X's diagonals (kept by every turn and mirror) the
    /// group is still all eight.
    #[test]
    fn a_jigsaw_turned_or_mirrored_and_relabelled_has_one_form() {
        let engine = Engine::new();
        let budget = Budget::unlimited();
        let givens: Vec<String> = SPARSE.iter().map(|r| r.to_string()).collect();
        let regions: Vec<String> = TRADED.iter().map(|r| r.to_string()).collect();
        for also in [RuleSpec::default(), x()] {
            let puzzle = jigsaw(&givens, &regions, also.clone());
            let form = engine.canonical(&puzzle, &budget).unwrap();
            let form_regions = form.rules().regions().unwrap().to_rows();
            assert_ne!(form.id(), puzzle.id());
            let mut images = Vec::new();
            let (mut g, mut r) = (givens.clone(), regions.clone());
            for turn in 0..8 {
                if turn == 4 {
                    (g, r) = (mirrored(&g), mirrored(&r));
                }
                // Digits renamed 1 -> 9, 2 -> 8...; regions 0 -> 'i', 1 -> 'h'...
                let g_renamed: Vec<String> = (g.iter())
                    .map(|row| {
                        (row.chars())
                            .map(|c| match c.to_digit(10) {
                                Some(d) => char::from_digit(10 - d, 10).unwrap(),
                                None => c,
                            })
                            .collect()
                    })
                    .collect();
                let r_renamed: Vec<String> = (r.iter())
                    .map(|row| {
                        (row.chars())
                            .map(|c| (b'i' - c.to_digit(10).unwrap() as u8) as char)
                            .collect()
                    })
                    .collect();
                let disguised = jigsaw(&g_renamed, &r_renamed, also.clone());
                let again = engine.canonical(&disguised, &budget).unwrap();
                assert_eq!(again.id(), form.id(), "turn {turn}");
                assert_eq!(again.grid(), form.grid(), "turn {turn}");
                assert_eq!(again.rules().regions().unwrap().to_rows(), form_regions);
                images.push((r.clone(), g.clone()));
                (g, r) = (turned(&g), turned(&r));
            }
            // The form is an image (up to names): its regions are one of the eight layouts.
            let named = |rows: &[String]| {
                Regions::new(
                    Shape::NINE,
                    &rows
                        .iter()
                        .map(|row| row.chars().map(|c| Some(c.to_string())).collect::<Vec<_>>())
                        .collect::<Vec<_>>(),
                )
                .unwrap()
                .to_rows()
            };
            assert!(images.iter().any(|(r, _)| named(r) == form_regions));
            let other: Vec<String> = ["000111222", "000011222"]
                .into_iter()
                .chain(TRADED[2..].iter().copied())
                .map(str::to_string)
                .collect();
            let other = engine
                .canonical(&jigsaw(&givens, &other, also.clone()), &budget)
                .unwrap();
            assert_ne!(other.id(), form.id());
        }
    }
}
