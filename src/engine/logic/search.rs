//! SE's list of step finders, in SE's order.
//!
//! Sudoku Explainer rates a puzzle by solving it one step at a time, always taking the first
//! step its ordered list of finders produces, and keeping the hardest rating met. The order
//! below is that list for Sukaku Explainer's default technique set; it is mostly, not
//! exactly, increasing in rating (a 4.3 empty rectangle is found before a 4.2 XY-Wing), and
//! following it exactly is what makes the ratings agree.

use crate::engine::budget::{Budget, Exhausted};

use super::{
    als_wings, chains, direct, exclusion, fish, intersections, killer, singles, strong_links,
    subsets, uniqueness, wings, work, Candidates, Geometry, Rating, Step, Technique,
};

/// What a search may assume about the puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Assumptions {
    /// The puzzle is known to have exactly one solution, so uniqueness techniques (unique
    /// rectangles and loops, BUG) are sound.
    pub uniqueness: bool,
}

/// One SE finder.
#[derive(Clone, Copy, Debug)]
enum Finder {
    FullHouse,
    HiddenSingle,
    DirectLocking,
    DirectHidden(u32),
    NakedSingle,
    Locking,
    /// Generalized intersections: X, Hyper and Jigsaw only.
    GeneralizedLocking,
    Naked(u32),
    Fish(u32),
    Hidden(u32),
    StrongLinks(usize),
    XyWing,
    XyzWing,
    UniqueLoops,
    AlsWing(usize),
    Bug,
    AlignedPair,
    AlignedTriple,
    Chains(chains::Level),
    /// The Killer techniques rated at most this many tenths (see `killer.rs`).
    Cages(u16),
}

/// Sukaku Explainer's default finders, in its order.
const SE_ORDER: [Finder; 35] = [
    Finder::FullHouse,
    Finder::HiddenSingle,
    Finder::DirectLocking,
    Finder::DirectHidden(2),
    Finder::NakedSingle,
    Finder::DirectHidden(3),
    Finder::Locking,
    Finder::GeneralizedLocking,
    Finder::Naked(2),
    Finder::Fish(2),
    Finder::Hidden(2),
    Finder::Naked(3),
    Finder::Fish(3),
    Finder::Hidden(3),
    Finder::StrongLinks(2),
    Finder::XyWing,
    Finder::XyzWing,
    Finder::UniqueLoops,
    Finder::Naked(4),
    Finder::Fish(4),
    Finder::Hidden(4),
    Finder::StrongLinks(3),
    Finder::AlsWing(3),
    Finder::Bug,
    Finder::StrongLinks(4),
    Finder::AlsWing(4),
    Finder::AlignedPair,
    Finder::AlsWing(5),
    Finder::Chains(chains::Level::Static),
    Finder::AlsWing(6),
    Finder::AlignedTriple,
    Finder::Chains(chains::Level::Nishio),
    Finder::Chains(chains::Level::Multiple),
    Finder::Chains(chains::Level::Dynamic),
    Finder::Chains(chains::Level::DynamicPlus),
];

/// SE's order with the Killer techniques placed by their ratings: cage sums (1.3) after the
/// hidden singles, combinations and single innies (2.0-2.2) before the naked singles, the
/// cage steps up to 2.8 before locked candidates, and the rest after the intersections (2.6-
/// 2.9) and before the pairs.
const KILLER_ORDER: [Finder; 39] = with_cages(SE_ORDER);

/// `order` with `Cages(limit)` after the finders at these positions.
const CAGE_SLOTS: [(usize, u16); 4] = [(1, 15), (3, 22), (5, 28), (7, u16::MAX)];

const fn with_cages(order: [Finder; 35]) -> [Finder; 39] {
    let mut out = [Finder::FullHouse; 39];
    let (mut i, mut o, mut slot) = (0, 0, 0);
    while i < order.len() {
        out[o] = order[i];
        o += 1;
        if slot < CAGE_SLOTS.len() && CAGE_SLOTS[slot].0 == i {
            out[o] = Finder::Cages(CAGE_SLOTS[slot].1);
            o += 1;
            slot += 1;
        }
        i += 1;
    }
    out
}

/// The classic elimination techniques kept in a careful player's pencil marks, after the
/// cage techniques (which find nothing without cages).
const PENCIL_MARKS: [Finder; 10] = [
    Finder::Cages(u16::MAX),
    Finder::Locking,
    Finder::GeneralizedLocking,
    Finder::Naked(2),
    Finder::Fish(2),
    Finder::Hidden(2),
    Finder::Naked(3),
    Finder::Fish(3),
    Finder::Hidden(3),
    Finder::XyWing,
];

impl Finder {
    /// What one look costs, in thousandths of a work unit (about a nanosecond each): a fixed
    /// part, paid before the finder looks, and a part per operation it counted in the
    /// [`work`] tally (the loops whose length depends on the marks), paid after. So the
    /// budget bounds a grade or hint the way it bounds a solve, whatever the position.
    /// Calibrated with `examples/work_units.rs` (BENCHMARKS.md has its table): the ratio of
    /// CPU time to units charged, over the solve paths of the rated puzzles and of generated
    /// variants, lies near a microsecond per unit for every finder.
    const fn price(self) -> (u64, u64) {
        match self {
            Finder::FullHouse => (700, 0),
            Finder::HiddenSingle => (780, 0),
            Finder::NakedSingle => (200, 0),
            Finder::DirectLocking => (250, 4),
            Finder::DirectHidden(_) => (1_000, 7),
            Finder::Locking => (3_400, 1),
            Finder::GeneralizedLocking => (6_000, 0),
            Finder::Naked(_) => (690, 21),
            Finder::Fish(_) => (6_000, 23),
            Finder::Hidden(_) => (680, 31),
            Finder::StrongLinks(_) => (100, 23),
            Finder::XyWing | Finder::XyzWing => (460, 19),
            Finder::UniqueLoops => (360, 12),
            Finder::AlsWing(_) => (400, 12),
            Finder::Bug => (1_500, 0),
            Finder::AlignedPair => (480, 27),
            Finder::AlignedTriple => (500, 20),
            Finder::Cages(_) => (760, 20),
            Finder::Chains(level) => match level {
                chains::Level::Static => (12_000, 36),
                chains::Level::Nishio => (1_100, 188),
                chains::Level::Multiple => (720, 120),
                chains::Level::Dynamic => (650, 166),
                chains::Level::DynamicPlus => (480, 9),
            },
        }
    }

    /// False for a finder that can find nothing on `geometry`'s boards: it is neither run nor
    /// charged, so adding one for the variants leaves the classic board's work unchanged.
    fn applies(self, geometry: &Geometry) -> bool {
        match self {
            Finder::Cages(_) => !geometry.cages().is_empty(),
            Finder::GeneralizedLocking => geometry.has_variant_houses(),
            _ => true,
        }
    }

    /// The lowest rating a step of this finder can have: the base rating of its easiest
    /// technique (sizes and lengths only add).
    fn lowest(self) -> Rating {
        let easiest = match self {
            Finder::FullHouse | Finder::Cages(_) => Technique::FullHouse,
            Finder::HiddenSingle => Technique::HiddenSingle,
            Finder::DirectLocking => Technique::DirectPointing,
            Finder::DirectHidden(2) => Technique::DirectHiddenPair,
            Finder::DirectHidden(_) => Technique::DirectHiddenTriple,
            Finder::NakedSingle => Technique::NakedSingle,
            Finder::Locking => Technique::LockedCandidatesPointing,
            Finder::GeneralizedLocking => Technique::GeneralizedIntersection,
            Finder::Naked(2) => Technique::NakedPair,
            Finder::Naked(3) => Technique::NakedTriple,
            Finder::Naked(_) => Technique::NakedQuad,
            Finder::Fish(2) => Technique::XWing,
            Finder::Fish(3) => Technique::Swordfish,
            Finder::Fish(_) => Technique::Jellyfish,
            Finder::Hidden(2) => Technique::HiddenPair,
            Finder::Hidden(3) => Technique::HiddenTriple,
            Finder::Hidden(_) => Technique::HiddenQuad,
            Finder::StrongLinks(2) => Technique::Skyscraper,
            Finder::StrongLinks(3) => Technique::ThreeStrongLinks,
            Finder::StrongLinks(_) => Technique::FourStrongLinks,
            Finder::XyWing => Technique::XyWing,
            Finder::XyzWing => Technique::XyzWing,
            Finder::UniqueLoops => Technique::UniqueRectangle,
            Finder::AlsWing(3) => Technique::WxyzWing,
            Finder::AlsWing(4) => Technique::VwxyzWing,
            Finder::AlsWing(5) => Technique::UvwxyzWing,
            Finder::AlsWing(_) => Technique::TuvwxyzWing,
            Finder::Bug => Technique::BivalueUniversalGrave,
            Finder::AlignedPair => Technique::AlignedPairExclusion,
            Finder::AlignedTriple => Technique::AlignedTripleExclusion,
            Finder::Chains(level) => match level {
                chains::Level::Static => Technique::XCycle,
                chains::Level::Nishio => Technique::NishioForcingChain,
                chains::Level::Multiple => Technique::CellForcingChain,
                chains::Level::Dynamic => Technique::DynamicForcingChain,
                chains::Level::DynamicPlus => Technique::DynamicForcingChainPlus,
            },
        };
        easiest.base_rating()
    }

    /// The finder's step. Its work beyond the fixed price is counted in the [`work`] tally.
    fn find(self, marks: &Candidates, assume: &Assumptions) -> Option<Step> {
        match self {
            Finder::Cages(max) => killer::find(marks, max),
            Finder::FullHouse => singles::full_house(marks),
            Finder::HiddenSingle => singles::hidden(marks),
            Finder::DirectLocking => direct::locking(marks),
            Finder::DirectHidden(size) => direct::hidden_set(marks, size),
            Finder::NakedSingle => singles::naked(marks),
            Finder::Locking => intersections::locking(marks),
            Finder::GeneralizedLocking => intersections::generalized(marks),
            Finder::Naked(size) => subsets::naked(marks, size),
            Finder::Fish(size) => fish::find(marks, size),
            Finder::Hidden(size) => subsets::hidden(marks, size),
            Finder::StrongLinks(links) => strong_links::find(marks, links),
            Finder::XyWing => wings::xy_wing(marks),
            Finder::XyzWing => wings::xyz_wing(marks),
            Finder::UniqueLoops => assume
                .uniqueness
                .then(|| uniqueness::unique_loops(marks))
                .flatten(),
            Finder::AlsWing(cells) => als_wings::find(marks, cells),
            Finder::Bug => assume.uniqueness.then(|| uniqueness::bug(marks)).flatten(),
            Finder::AlignedPair => exclusion::aligned_pair(marks),
            Finder::AlignedTriple => exclusion::aligned_triple(marks),
            Finder::Chains(level) => chains::find(marks, level),
        }
    }

    /// One look, charged: the fixed price first (a spent budget does not look), then what
    /// the look counted.
    fn charged_find(
        self,
        marks: &Candidates,
        assume: &Assumptions,
        budget: &Budget,
    ) -> Result<Option<Step>, Exhausted> {
        let (fixed, per_op) = self.price();
        budget.charge_milli(fixed)?;
        work::take();
        let step = self.find(marks, assume);
        budget.charge_milli(work::take().saturating_mul(per_op))?;
        Ok(step)
    }
}

impl Assumptions {
    /// Assumptions for a puzzle known to have exactly one solution.
    pub fn unique() -> Assumptions {
        Assumptions { uniqueness: true }
    }

    /// The first step SE's ordered finders produce on `marks`, or `None` when none applies;
    /// `Err` when `budget` stops the search first.
    pub fn next_step(
        &self,
        marks: &Candidates,
        budget: &Budget,
    ) -> Result<Option<Step>, Exhausted> {
        self.next_step_within(marks, None, budget)
    }

    /// [`next_step`](Self::next_step) for a caller that only wants to know whether a step
    /// rated at most `cap` comes first: the tail of the order whose finders can only rate
    /// above `cap` is left out (a generator asking "is this at most 5.9?" skips the dynamic
    /// chains). `None` then means "no step, or the first would be above `cap`".
    pub(crate) fn next_step_within(
        &self,
        marks: &Candidates,
        cap: Option<Rating>,
        budget: &Budget,
    ) -> Result<Option<Step>, Exhausted> {
        let (used, _) = finders_within(marks.geometry(), cap);
        first_step(used, marks, self, budget)
    }
}

/// The finders a step's search under `cap` runs on `geometry`, and those it leaves out: the
/// tail of the order whose finders can only rate above `cap`.
fn finders_within(
    geometry: &Geometry,
    cap: Option<Rating>,
) -> (&'static [Finder], &'static [Finder]) {
    let order: &'static [Finder] = if geometry.cages().is_empty() {
        &SE_ORDER
    } else {
        &KILLER_ORDER
    };
    let used = match cap {
        Some(cap) => order
            .iter()
            .rposition(|f| f.lowest() <= cap)
            .map_or(0, |last| last + 1),
        None => order.len(),
    };
    order.split_at(used)
}

/// The lowest rating a step could have that [`Assumptions::next_step_within`] under `cap`
/// does not look for on `geometry`; `None` when it looks for every technique. When such a
/// search finds nothing, the next step (if any) rates at least this.
pub(crate) fn lowest_left_out(geometry: &Geometry, cap: Option<Rating>) -> Option<Rating> {
    let (_, left_out) = finders_within(geometry, cap);
    left_out.iter().map(|f| f.lowest()).min()
}

/// The first elimination among the pencil-mark techniques, in SE's order.
pub(crate) fn pencil_mark_step(
    marks: &Candidates,
    budget: &Budget,
) -> Result<Option<Step>, Exhausted> {
    first_step(&PENCIL_MARKS, marks, &Assumptions::default(), budget)
}

/// The one place logic work is charged: each finder pays its cost before it looks.
fn first_step(
    finders: &[Finder],
    marks: &Candidates,
    assume: &Assumptions,
    budget: &Budget,
) -> Result<Option<Step>, Exhausted> {
    for finder in finders {
        if !finder.applies(marks.geometry()) {
            continue;
        }
        if let Some(step) = finder.charged_find(marks, assume, budget)? {
            debug_assert!(step.rating >= finder.lowest(), "{finder:?}: {step:?}");
            return Ok(Some(step));
        }
    }
    Ok(None)
}

/// One look of a finder, timed: for the work-unit calibration benchmark.
#[derive(Clone, Debug)]
pub struct TimedLook {
    /// The finder's name (one per price).
    pub family: &'static str,
    /// What the look is charged, in thousandths of a unit.
    pub milli: u64,
    /// How long it took.
    pub time: std::time::Duration,
    /// The operations it counted in the [`work`] tally.
    pub ops: u64,
}

impl Finder {
    /// The name under which the calibration groups looks: one per price.
    fn family(self) -> &'static str {
        match self {
            Finder::FullHouse => "full house",
            Finder::HiddenSingle => "hidden single",
            Finder::NakedSingle => "naked single",
            Finder::DirectLocking => "direct locking",
            Finder::DirectHidden(_) => "direct hidden set",
            Finder::Locking => "locked candidates",
            Finder::GeneralizedLocking => "generalized intersection",
            Finder::Naked(_) => "naked set",
            Finder::Fish(_) => "fish",
            Finder::Hidden(_) => "hidden set",
            Finder::StrongLinks(_) => "strong links",
            Finder::XyWing | Finder::XyzWing => "xy/xyz-wing",
            Finder::UniqueLoops => "unique loops",
            Finder::AlsWing(_) => "als wing",
            Finder::Bug => "bug",
            Finder::AlignedPair => "aligned pair",
            Finder::AlignedTriple => "aligned triple",
            Finder::Chains(chains::Level::Static) => "chains: static",
            Finder::Chains(chains::Level::Nishio) => "chains: nishio",
            Finder::Chains(chains::Level::Multiple) => "chains: multiple",
            Finder::Chains(chains::Level::Dynamic) => "chains: dynamic",
            Finder::Chains(chains::Level::DynamicPlus) => "chains: dynamic plus",
            Finder::Cages(_) => "cages",
        }
    }
}

/// [`Assumptions::next_step`], timing every look on the way and handing it to `record`.
/// Each look runs once, as in a grade: a finder's caches (the strong-link graphs of a
/// position, the cage answers) serve the later looks at the same position, so a repeated
/// look would time the cached path.
pub(crate) fn timed_next_step(
    marks: &Candidates,
    assume: &Assumptions,
    mut record: impl FnMut(TimedLook),
) -> Option<Step> {
    let order: &[Finder] = if marks.geometry().cages().is_empty() {
        &SE_ORDER
    } else {
        &KILLER_ORDER
    };
    for &finder in order.iter().filter(|f| f.applies(marks.geometry())) {
        work::take();
        let start = std::time::Instant::now();
        let found = std::hint::black_box(finder.find(marks, assume));
        let time = start.elapsed();
        let ops = work::take();
        let (fixed, per_op) = finder.price();
        record(TimedLook {
            family: finder.family(),
            milli: fixed + ops * per_op,
            time,
            ops,
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_killer_order_is_se_order_with_the_cage_steps_by_rating() {
        let named =
            |order: &[Finder]| -> Vec<String> { order.iter().map(|f| format!("{f:?}")).collect() };
        let without: Vec<Finder> = KILLER_ORDER
            .into_iter()
            .filter(|f| !matches!(f, Finder::Cages(_)))
            .collect();
        assert_eq!(named(&without), named(&SE_ORDER));
        let before_each_cage: Vec<String> = KILLER_ORDER
            .windows(2)
            .filter(|w| matches!(w[1], Finder::Cages(_)))
            .map(|w| format!("{:?} {:?}", w[0], w[1]))
            .collect();
        assert_eq!(
            before_each_cage,
            [
                "HiddenSingle Cages(15)",
                "DirectHidden(2) Cages(22)",
                "DirectHidden(3) Cages(28)",
                "GeneralizedLocking Cages(65535)"
            ]
        );
    }

    #[test]
    fn a_finder_runs_only_where_it_can_find_something() {
        use crate::engine::model::grid::Shape;
        use crate::engine::model::rules::{Cage, RuleSpec, Rules};
        let geometry =
            |spec: RuleSpec| Geometry::for_rules(&Rules::new(Shape::NINE, spec).unwrap());
        let killer = geometry(RuleSpec {
            cages: vec![Cage {
                sum: Some(3),
                cells: vec![(0, 0), (0, 1)],
            }],
            ..RuleSpec::default()
        })
        .unwrap();
        let x = geometry(RuleSpec {
            diagonals: true,
            ..RuleSpec::default()
        })
        .unwrap();
        let rows_as_regions = (0..9)
            .map(|r| (0..9).map(|_| Some(r.to_string())).collect())
            .collect();
        let jigsaw = geometry(RuleSpec {
            regions: Some(rows_as_regions),
            ..RuleSpec::default()
        })
        .unwrap();
        let applies =
            |finder: Finder| [Geometry::classic(), &killer, &x, &jigsaw].map(|g| finder.applies(g));
        assert_eq!(
            applies(Finder::Cages(u16::MAX)),
            [false, true, false, false]
        );
        assert_eq!(
            applies(Finder::GeneralizedLocking),
            [false, false, true, true]
        );
        assert_eq!(applies(Finder::Locking), [true; 4]);
    }
}
