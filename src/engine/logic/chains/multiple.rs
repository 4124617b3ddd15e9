//! Chains built from whole propagations (SE's "multiple" chaining): Nishio (7.5), cell and
//! region forcing chains (8.0), dynamic forcing chains (8.5) and dynamic forcing chains "plus"
//! (9.0).
//!
//! For each cell (with more than two candidates for static chains, two or more for dynamic
//! ones) and each of its digits, SE derives the consequences of the digit being on and off:
//! * a contradiction proves the assumption wrong (Nishio and dynamic only);
//! * a node derived both from on and from off holds either way ("double forcing", dynamic only,
//!   cells with three or more candidates);
//! * a node derived from every place of the digit in a unit holds (region forcing chain; the
//!   unit is taken once, from its first place);
//! * and, over all digits of the cell, a node derived from each of them holds (cell forcing
//!   chain).
//!
//! All such hints have the level's base rating plus the length steps of their complexity (the
//! node counts of all their branches added up); SE takes the lowest complexity, then double
//! forcing, cell, region, contradiction, then the first found.

use std::cmp::Ordering;

use crate::engine::model::grid::Cell;

use super::super::barren;
use super::super::candidates::{digit, indices_of, Candidates};
use super::super::rating::{length_steps, ExactRating};
use super::super::text::list;
use super::super::{Step, Technique};
use super::derivation::Propagation;
use super::propagate::{propagate, Settings};
use super::{conclusion, describe, is_on, negation, node, Grid, Level, Node, OnLinks, CANDS};

/// What SE does at each level.
struct Plan {
    settings: Settings,
    /// Look at cells with two candidates too (dynamic), not only three or more.
    bivalue_cells: bool,
    contradictions: bool,
    double: bool,
    regions_and_cells: bool,
    base: u16,
    technique: Technique,
}

fn plan(level: Level) -> Plan {
    match level {
        Level::Nishio => Plan {
            settings: Settings {
                dynamic: true,
                cell_links: false,
                plus: false,
            },
            bivalue_cells: true,
            contradictions: true,
            double: false,
            regions_and_cells: false,
            base: 75,
            technique: Technique::NishioForcingChain,
        },
        Level::Multiple => Plan {
            settings: Settings {
                dynamic: false,
                cell_links: true,
                plus: false,
            },
            bivalue_cells: false,
            contradictions: false,
            double: false,
            regions_and_cells: true,
            base: 80,
            technique: Technique::CellForcingChain,
        },
        Level::Static | Level::Dynamic | Level::DynamicPlus => {
            let plus = level == Level::DynamicPlus;
            Plan {
                settings: Settings {
                    dynamic: true,
                    cell_links: true,
                    plus,
                },
                bivalue_cells: true,
                contradictions: true,
                double: true,
                regions_and_cells: true,
                base: if plus { 90 } else { 85 },
                technique: if plus {
                    Technique::DynamicForcingChainPlus
                } else {
                    Technique::DynamicForcingChain
                },
            }
        }
    }
}

/// The kinds of hint, in SE's tie-break order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Double = 1,
    Cell = 5,
    Region = 6,
    Contradiction = 7,
}

/// A candidate hint: its target, how it was found, and its complexity.
struct Found {
    target: Node,
    kind: Kind,
    complexity: usize,
    /// The assumption (contradiction, double) or the cell/unit the branches start from.
    origin: Origin,
}

#[derive(Clone, Copy)]
enum Origin {
    Assumption(Node),
    Cell(usize),
    Unit(usize, usize),
}

/// Memoised "on" propagations of every candidate for one grid.
/// Each candidate's "on" propagation, computed once per search and stored in buffers kept
/// per thread between searches (a search needs hundreds, each a few kilobytes).
struct Memo {
    /// `slot[cand]`: index + 1 of the candidate's propagation in `store`, 0 when not computed.
    slot: Vec<u16>,
    store: Vec<Propagation>,
    used: usize,
    /// Chain operations of the propagations computed so far.
    work: u64,
}

thread_local! {
    static SPARE: std::cell::RefCell<Vec<Propagation>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Memo {
    fn new() -> Memo {
        Memo {
            slot: vec![0; CANDS],
            store: SPARE.with(|spare| std::mem::take(&mut *spare.borrow_mut())),
            used: 0,
            work: 0,
        }
    }

    fn on(
        &mut self,
        marks: &Candidates,
        (grid, links): (&Grid, &mut OnLinks),
        settings: Settings,
        cand: usize,
    ) -> &Propagation {
        if self.slot[cand] == 0 {
            if self.used == self.store.len() {
                self.store.push(Propagation::new());
            }
            let p = &mut self.store[self.used];
            propagate(marks, (grid, links), (cand * 2 + 1) as Node, settings, p);
            self.work += p.work;
            self.used += 1;
            self.slot[cand] = self.used as u16;
        }
        self.get(cand)
    }

    fn get(&self, cand: usize) -> &Propagation {
        &self.store[usize::from(self.slot[cand]) - 1]
    }
}

impl Drop for Memo {
    fn drop(&mut self) {
        let store = std::mem::take(&mut self.store);
        SPARE.with(|spare| *spare.borrow_mut() = store);
    }
}

/// The best hint at `level`, by SE's order, and the chain operations it took (every
/// propagation's, and the nodes counted for complexities).
pub(crate) fn find(marks: &Candidates, level: Level) -> (Option<Step>, u64) {
    let plan = plan(level);
    let grid = Grid::of(marks);
    let mut links = OnLinks::new(plan.settings.cell_links);
    let mut memo = Memo::new();
    let mut off = Propagation::new();
    let mut best: Option<Found> = None;
    let mut work = 0u64;
    let g = marks.geometry();
    // Nishio follows one digit: a digit whose places gave no contradiction before gives none.
    let nishio = level == Level::Nishio;
    let digits = if nishio {
        barren::worth_a_look(barren::Search::Nishio, marks)
    } else {
        [true; 9]
    };
    for cell in 0..81 {
        let mask = marks.mask(cell);
        let count = mask.count_ones();
        if count < 2 || (count == 2 && !plan.bivalue_cells) {
            continue;
        }
        for d in indices_of(mask).filter(|&d| digits[d]) {
            let cand = cell * 9 + d;
            let on_node = node(cell, d, true);
            if plan.contradictions {
                let on = memo.on(marks, (&grid, &mut links), plan.settings, cand);
                if let Some(found) = contradiction(on_node, on, &mut work) {
                    consider(&mut best, found);
                }
            }
            let need_off = plan.contradictions || (plan.double && count >= 3);
            if need_off {
                propagate(
                    marks,
                    (&grid, &mut links),
                    negation(on_node),
                    plan.settings,
                    &mut off,
                );
                work += off.work;
                if plan.contradictions {
                    if let Some(found) = contradiction(negation(on_node), &off, &mut work) {
                        consider(&mut best, found);
                    }
                }
                if plan.double && count >= 3 {
                    let on = memo.on(marks, (&grid, &mut links), plan.settings, cand);
                    for list in [&on.ons, &on.offs] {
                        for &t in list.iter() {
                            if !off.contains(t) || !worth(marks, t) {
                                continue;
                            }
                            let bound = on.depth(t) + off.depth(t) + 2;
                            if !could_win(&best, bound, Kind::Double) {
                                continue;
                            }
                            let complexity = on.ancestors(t) + off.ancestors(t);
                            work += complexity as u64;
                            consider(
                                &mut best,
                                Found {
                                    target: t,
                                    kind: Kind::Double,
                                    complexity,
                                    origin: Origin::Assumption(on_node),
                                },
                            );
                        }
                    }
                }
            }
            if plan.regions_and_cells {
                for unit in g.houses_of(cell) {
                    let places = marks.places_in(unit, d);
                    if places.len() < 2 || places.first() != Some(cell) {
                        continue;
                    }
                    let branches: Vec<usize> = g
                        .cells_of(unit)
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| places.contains(c))
                        .map(|c| c * 9 + d)
                        .collect();
                    work += common_consequences(
                        marks,
                        (&grid, &mut links),
                        &plan,
                        &mut memo,
                        &branches,
                        Kind::Region,
                        Origin::Unit(unit, d),
                        &mut best,
                    );
                }
            }
        }
        if plan.regions_and_cells {
            let branches: Vec<usize> = indices_of(mask).map(|d| cell * 9 + d).collect();
            work += common_consequences(
                marks,
                (&grid, &mut links),
                &plan,
                &mut memo,
                &branches,
                Kind::Cell,
                Origin::Cell(cell),
                &mut best,
            );
        }
    }
    // Only with no hint at all did every digit's propagations run unbounded.
    if nishio && best.is_none() {
        for d in (0..9).filter(|&d| digits[d]) {
            barren::found_nothing(barren::Search::Nishio, marks, d);
        }
    }
    (best.map(|f| to_step(marks, &plan, f)), work + memo.work)
}

/// Nodes derived in every branch (in the first branch's order) as cell or region hints;
/// returns the nodes it counted for complexities (its propagations are the memo's).
#[allow(clippy::too_many_arguments)]
fn common_consequences(
    marks: &Candidates,
    (grid, links): (&Grid, &mut OnLinks),
    plan: &Plan,
    memo: &mut Memo,
    branches: &[usize],
    kind: Kind,
    origin: Origin,
    best: &mut Option<Found>,
) -> u64 {
    let mut work = 0u64;
    for &b in branches {
        memo.on(marks, (grid, &mut *links), plan.settings, b);
    }
    let props: Vec<&Propagation> = branches.iter().map(|&b| memo.get(b)).collect();
    let first = props[0];
    for list in [&first.ons, &first.offs] {
        for &t in list.iter() {
            if !props[1..].iter().all(|p| p.contains(t)) || !worth(marks, t) {
                continue;
            }
            let bound: usize = props.iter().map(|p| p.depth(t) + 1).sum();
            if !could_win(best, bound, kind) {
                continue;
            }
            let complexity: usize = props.iter().map(|p| p.ancestors(t)).sum();
            work += complexity as u64;
            consider(
                best,
                Found {
                    target: t,
                    kind,
                    complexity,
                    origin,
                },
            );
        }
    }
    work
}

/// A target changes something: an on target has other candidates to remove, an off target is
/// still a candidate.
fn worth(marks: &Candidates, t: Node) -> bool {
    let (cell, d) = (super::cell_of(t), super::digit_of(t));
    if is_on(t) {
        marks.mask(cell) & !(1 << d) != 0
    } else {
        marks.mask(cell) >> d & 1 != 0
    }
}

fn could_win(best: &Option<Found>, lower_bound: usize, kind: Kind) -> bool {
    best.as_ref()
        .is_none_or(|b| (lower_bound, kind) < (b.complexity, b.kind))
}

/// The step "`assumed` is false" when its propagation `side` reached a contradiction, with
/// the nodes counted for its complexity added to `work`.
fn contradiction(assumed: Node, side: &Propagation, work: &mut u64) -> Option<Found> {
    let (a, b) = side.contradiction.as_ref()?;
    let complexity = side.side_ancestors(a) + side.side_ancestors(b);
    *work += complexity as u64;
    Some(Found {
        target: negation(assumed),
        kind: Kind::Contradiction,
        complexity,
        origin: Origin::Assumption(assumed),
    })
}

fn consider(best: &mut Option<Found>, found: Found) {
    let better = best.as_ref().is_none_or(|b| {
        (found.complexity, found.kind).cmp(&(b.complexity, b.kind)) == Ordering::Less
    });
    if better {
        *best = Some(found);
    }
}

fn to_step(marks: &Candidates, plan: &Plan, found: Found) -> Step {
    let g = marks.geometry();
    let exact = ExactRating::new(plan.base, length_steps(found.complexity));
    let (placements, eliminations) = conclusion(marks, found.target);
    let technique = match (plan.technique, found.kind) {
        (Technique::CellForcingChain, Kind::Region) => Technique::RegionForcingChain,
        (t, _) => t,
    };
    let conclusion_text = describe(found.target);
    let n = found.complexity;
    let explanation = match found.origin {
        Origin::Assumption(start) if found.kind == Kind::Contradiction => format!(
            "If {}, its consequences ({n} candidates) contradict each other, so \
             {conclusion_text}.",
            describe(start)
        ),
        Origin::Assumption(start) => format!(
            "Whether or not {}, the consequences ({n} candidates) show that {conclusion_text}.",
            describe(start)
        ),
        Origin::Cell(cell) => {
            let digits: Vec<_> = indices_of(marks.mask(cell)).map(digit).collect();
            format!(
                "Whichever of {} goes in {}, the consequences ({n} candidates) show that \
                 {conclusion_text}.",
                list(&digits),
                Cell::from_index(cell)
            )
        }
        Origin::Unit(unit, d) => format!(
            "Wherever {} goes in {}, the consequences ({n} candidates) show that \
             {conclusion_text}.",
            digit(d),
            g.unit(unit)
        ),
    };
    let pos = Cell::from_index(super::cell_of(found.target));
    let mut step = Step::eliminating(
        technique,
        exact.rating(),
        eliminations,
        vec![pos],
        vec![digit(super::digit_of(found.target))],
        Vec::new(),
        explanation,
    );
    step.placements = placements;
    step
}
