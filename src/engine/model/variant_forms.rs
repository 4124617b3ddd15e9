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
//! Rules that name digits (cages with sums, thermometers, dots...) and Jigsaw regions (no
//! boxes) have no form here, nor do rule sets that keep more than [`MAX_GROUP`] rearrangements
//! (one small extra region keeps tens of thousands): the image search below would be slower
//! than the classic form's tree search, which is the right tool for such large groups.
//!
//! The group search tries the 3,359,232 rearrangements once per rule set, less the line
//! orders that do not keep the rules' counts of cells per row and column (which leaves a few
//! hundred for Hyper or anti-king and all of them for X, whose diagonals cross every line
//! once): about 20 ms for X, 0.15 s for the worst rules found (nine extra regions that each
//! cross every row and column), charged to the budget like any search.
//!
//! For each rearrangement the best relabelling is forced (digits numbered in order of first
//! appearance), so the form is the least of |group| relabelled images, each abandoned at its
//! first cell above the best so far.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::model::board::{CELLS, ORDERS_OF_THREE, SIZE};
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

/// Groups kept for the next puzzle with the same rules; the store starts again when full.
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

/// The rules beyond rows, columns and boxes, sorted: what a rearrangement must keep. Two
/// rule sets with the same signature have the same group.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Signature(Vec<Item>);

/// The symmetry group of a rule set with a canonical form (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct RuleGroup {
    maps: Arc<[CellMap]>,
}

fn mask_of(cells: &[Cell]) -> u128 {
    cells
        .iter()
        .fold(0, |mask, cell| mask | 1 << (cell.row() * SIZE + cell.col()))
}

impl Signature {
    /// The signature of `rules`, when they are 9x9 rules with the boxes whose table is
    /// houses and forbidden pairs alone and that add something to the classic rules.
    fn of(rules: &Rules) -> Option<Signature> {
        let shape = rules.shape();
        let table = rules.house_table();
        if shape != Shape::NINE
            || !table.domains().is_empty()
            || !table.relations().is_empty()
            || !table.distinct_sums().is_empty()
            || !table.propagators().is_empty()
        {
            return None;
        }
        let mut classic: Vec<u128> = Vec::with_capacity(3 * SIZE);
        for k in 0..SIZE {
            let (band, stack) = (k / 3 * 3, k % 3 * 3);
            classic.push(mask_of(
                &(0..SIZE).map(|c| Cell::at(k, c)).collect::<Vec<_>>(),
            ));
            classic.push(mask_of(
                &(0..SIZE).map(|r| Cell::at(r, k)).collect::<Vec<_>>(),
            ));
            let in_box = (0..SIZE).map(|i| Cell::at(band + i / 3, stack + i % 3));
            classic.push(mask_of(&in_box.collect::<Vec<_>>()));
        }
        let mut found = vec![false; classic.len()];
        let mut items = Vec::new();
        for house in table.checked() {
            let mask = mask_of(&house.cells);
            if house.role == Role::Complete {
                if let Some(k) = classic.iter().position(|&m| m == mask) {
                    found[k] = true;
                    continue;
                }
                items.push((Kind::Complete, mask));
            } else {
                items.push((Kind::Distinct, mask));
            }
        }
        items.extend(
            (table.forbidden_pairs().iter()).map(|pair| (Kind::Pair, mask_of(&pair.cells))),
        );
        items.sort_unstable();
        items.dedup();
        // Without the boxes (Jigsaw) the classic group is not the rules' group; with nothing
        // beyond the classic houses the classic form applies.
        (found.iter().all(|&f| f) && !items.is_empty()).then_some(Signature(items))
    }

    /// Every rearrangement of the classic group that keeps these rules, or `None` when there
    /// are more than [`MAX_GROUP`]. Charged to `budget`.
    fn stabiliser(&self, budget: &Budget) -> Result<Option<Vec<CellMap>>, Exhausted> {
        let items = &self.0;
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
                        steps += 1;
                        items.binary_search(&(*kind, image)).is_ok()
                    });
                    if keeps {
                        if group.len() == MAX_GROUP {
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
    pub(crate) fn of(rules: &Rules, budget: &Budget) -> Result<Option<RuleGroup>, Exhausted> {
        type Store = Mutex<HashMap<Signature, Option<Arc<[CellMap]>>>>;
        static KEPT: OnceLock<Store> = OnceLock::new();
        let Some(signature) = Signature::of(rules) else {
            return Ok(None);
        };
        let kept = KEPT.get_or_init(Store::default);
        // A poisoned lock only means another thread panicked mid-insert: the map is whole.
        let lookup = |store: &Store| {
            let store = store
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            store.get(&signature).cloned()
        };
        let maps = match lookup(kept) {
            Some(maps) => maps,
            None => {
                // Searched outside the lock: two threads may both search a new rule set,
                // which costs time, not correctness.
                let maps: Option<Arc<[CellMap]>> = signature.stabiliser(budget)?.map(Into::into);
                let mut store = kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if store.len() >= KEPT_GROUPS {
                    store.clear();
                }
                store.insert(signature, maps.clone());
                maps
            }
        };
        Ok(maps.map(|maps| RuleGroup { maps }))
    }

    /// The canonical form of `cells` (row-major, 0 for empty): the least relabelled image
    /// under the group. Puzzles of this rule set that are one puzzle in disguise (under the
    /// group) have the same form; the form is itself such a disguise.
    pub(crate) fn form(
        &self,
        cells: &[u8; CELLS],
        budget: &Budget,
    ) -> Result<[u8; CELLS], Exhausted> {
        budget.charge((self.maps.len() as u64).div_ceil(IMAGES_PER_UNIT))?;
        let mut best = [u8::MAX; CELLS];
        for map in self.maps.iter() {
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
        Ok(best)
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
    use crate::engine::model::rules::RuleSpec;
    use crate::engine::random::SplitMix64;
    use std::collections::HashSet;

    /// Givens the tests disguise (read as cells only: no rule set checks them here).
    const X_PUZZLE: &str =
        "..........2.5.3.....1...8..3...2..4..8.....7..4..9...2..6...1.....7.4.6..........";

    fn rules(spec: RuleSpec) -> Rules {
        Rules::new(Shape::NINE, spec).unwrap()
    }

    fn x() -> Rules {
        rules(RuleSpec {
            diagonals: true,
            ..RuleSpec::default()
        })
    }

    fn hyper() -> Rules {
        rules(RuleSpec {
            windows: true,
            ..RuleSpec::default()
        })
    }

    fn group(rules: &Rules) -> RuleGroup {
        RuleGroup::of(rules, &Budget::unlimited()).unwrap().unwrap()
    }

    fn cells(line: &str) -> [u8; CELLS] {
        let mut cells = [0u8; CELLS];
        for (i, ch) in line.chars().enumerate() {
            cells[i] = ch.to_digit(10).unwrap_or(0) as u8;
        }
        cells
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

    /// The groups are what the module docs say: their sizes, the identity and the square's
    /// turns among them, and closed under composition (so a least image is well defined).
    /// A mix of rules keeps exactly what keeps each of them.
    #[test]
    fn the_groups_keep_their_rules_and_are_groups() {
        let both = rules(RuleSpec {
            diagonals: true,
            windows: true,
            ..RuleSpec::default()
        });
        let anti_king = rules(RuleSpec {
            anti_king: true,
            ..RuleSpec::default()
        });
        let disjoint = rules(RuleSpec {
            disjoint_groups: true,
            ..RuleSpec::default()
        });
        for (name, rules, size) in [("x", x(), Some(96)), ("hyper", hyper(), Some(128))]
            .into_iter()
            .chain([("both", both.clone(), None), ("anti-king", anti_king, None)])
            .chain([("disjoint", disjoint, None)])
        {
            let maps = group(&rules).maps;
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
        let (x, hyper) = (group(&x()).maps, group(&hyper()).maps);
        let mut meet: Vec<CellMap> = x.iter().filter(|m| hyper.contains(m)).copied().collect();
        let mut mixed = group(&both).maps.to_vec();
        meet.sort_unstable();
        mixed.sort_unstable();
        assert_eq!(mixed, meet);
    }

    /// Every disguise of a puzzle under the group and a relabelling has the puzzle's form,
    /// which is the least of all the images, checked against a plain search over the whole
    /// classic group filtered by the X and Hyper houses written out here by hand.
    #[test]
    fn disguises_share_the_form_and_it_is_the_least_image() {
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
        let mut random = SplitMix64::new(29);
        let budget = Budget::unlimited();
        let puzzle = cells(X_PUZZLE);
        for (rules, houses) in [(x(), diagonals), (hyper(), windows)] {
            let group = group(&rules);
            let form = group.form(&puzzle, &budget).unwrap();
            for _ in 0..20 {
                let map = group.maps[random.below(group.maps.len())];
                let mut relabel: Vec<u8> = (1..=9).collect();
                random.shuffle(&mut relabel);
                let disguised = disguise(&puzzle, &map, &relabel);
                assert_eq!(group.form(&disguised, &budget).unwrap(), form);
            }
            let sorted = |houses: &mut Vec<Vec<usize>>| {
                houses.iter_mut().for_each(|house| house.sort_unstable());
                houses.sort();
            };
            let mut houses = houses;
            sorted(&mut houses);
            let orders = line_orders();
            let mut least = [u8::MAX; CELLS];
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
                        let mut images: Vec<Vec<usize>> = houses
                            .iter()
                            .map(|h| h.iter().map(|&i| usize::from(map[i])).collect())
                            .collect();
                        sorted(&mut images);
                        if images != houses {
                            continue;
                        }
                        let mut label = [0u8; 10];
                        let mut next = 1;
                        let image = disguise(&puzzle, &map, &(1..=9).collect::<Vec<u8>>());
                        let relabelled = image.map(|d| match d {
                            0 => 0,
                            d => {
                                if label[usize::from(d)] == 0 {
                                    label[usize::from(d)] = next;
                                    next += 1;
                                }
                                label[usize::from(d)]
                            }
                        });
                        least = least.min(relabelled);
                    }
                }
            }
            assert_eq!(form, least);
        }
    }

    /// A puzzle and one that differs by a given are different puzzles.
    #[test]
    fn different_puzzles_have_different_forms() {
        let budget = Budget::unlimited();
        let puzzle = cells(X_PUZZLE);
        let mut other = puzzle;
        other[0] = 9;
        for rules in [x(), hyper()] {
            let group = group(&rules);
            assert_ne!(
                group.form(&puzzle, &budget).unwrap(),
                group.form(&other, &budget).unwrap()
            );
        }
    }

    /// Rules that name digits, Jigsaw regions, other sizes and the classic rules (the
    /// classic form's) get no group here; nor does a rule set that keeps too many
    /// rearrangements; a search cut short by the budget is an error, not a missing form.
    #[test]
    fn the_rule_sets_without_a_group_here() {
        let budget = Budget::unlimited();
        let none = |rules: Rules| RuleGroup::of(&rules, &budget).unwrap().is_none();
        assert!(none(Rules::classic(Shape::NINE)));
        assert!(none(Rules::classic(Shape::FOUR)));
        assert!(none(rules(RuleSpec {
            non_consecutive: true,
            ..RuleSpec::default()
        })));
        let stripes = (0..SIZE)
            .map(|r| vec![Some((r + 1).to_string()); SIZE])
            .collect();
        assert!(none(rules(RuleSpec {
            regions: Some(stripes),
            windows: true,
            ..RuleSpec::default()
        })));
        assert!(none(rules(RuleSpec {
            extra_regions: vec![vec![(0, 0), (0, 1)]],
            ..RuleSpec::default()
        })));
        let cut = Budget::work(3);
        assert!(RuleGroup::of(
            &rules(RuleSpec {
                diagonals: true,
                anti_knight: true,
                ..RuleSpec::default()
            }),
            &cut
        )
        .is_err());
    }
}
