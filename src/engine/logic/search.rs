//! SE's list of step finders, in SE's order.
//!
//! Sudoku Explainer rates a puzzle by solving it one step at a time, always taking the first
//! step its ordered list of finders produces, and keeping the hardest rating met. The order
//! below is that list for Sukaku Explainer's default technique set; it is mostly, not
//! exactly, increasing in rating (a 4.3 empty rectangle is found before a 4.2 XY-Wing), and
//! following it exactly is what makes the ratings agree.

use super::{
    als_wings, chains, direct, exclusion, fish, intersections, singles, strong_links, subsets,
    uniqueness, wings, Candidates, Step,
};

/// What a search may assume about the puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
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
}

/// Sukaku Explainer's default finders, in its order.
const SE_ORDER: [Finder; 34] = [
    Finder::FullHouse,
    Finder::HiddenSingle,
    Finder::DirectLocking,
    Finder::DirectHidden(2),
    Finder::NakedSingle,
    Finder::DirectHidden(3),
    Finder::Locking,
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

/// The classic elimination techniques kept in a careful player's pencil marks.
const PENCIL_MARKS: [Finder; 8] = [
    Finder::Locking,
    Finder::Naked(2),
    Finder::Fish(2),
    Finder::Hidden(2),
    Finder::Naked(3),
    Finder::Fish(3),
    Finder::Hidden(3),
    Finder::XyWing,
];

impl Finder {
    fn find(self, marks: &Candidates, rules: &Rules) -> Option<Step> {
        match self {
            Finder::FullHouse => singles::full_house(marks),
            Finder::HiddenSingle => singles::hidden(marks),
            Finder::DirectLocking => direct::locking(marks),
            Finder::DirectHidden(size) => direct::hidden_set(marks, size),
            Finder::NakedSingle => singles::naked(marks),
            Finder::Locking => intersections::locking(marks),
            Finder::Naked(size) => subsets::naked(marks, size),
            Finder::Fish(size) => fish::find(marks, size),
            Finder::Hidden(size) => subsets::hidden(marks, size),
            Finder::StrongLinks(links) => strong_links::find(marks, links),
            Finder::XyWing => wings::xy_wing(marks),
            Finder::XyzWing => wings::xyz_wing(marks),
            Finder::UniqueLoops => rules
                .uniqueness
                .then(|| uniqueness::unique_loops(marks))
                .flatten(),
            Finder::AlsWing(cells) => als_wings::find(marks, cells),
            Finder::Bug => rules.uniqueness.then(|| uniqueness::bug(marks)).flatten(),
            Finder::AlignedPair => exclusion::aligned_pair(marks),
            Finder::AlignedTriple => exclusion::aligned_triple(marks),
            Finder::Chains(level) => chains::find(marks, level),
        }
    }
}

impl Rules {
    /// Rules for a puzzle known to have exactly one solution.
    pub fn unique() -> Rules {
        Rules { uniqueness: true }
    }

    /// The first step SE's ordered finders produce on `marks`, or `None` when none applies.
    pub fn next_step(&self, marks: &Candidates) -> Option<Step> {
        SE_ORDER.iter().find_map(|f| f.find(marks, self))
    }
}

/// The first elimination among the pencil-mark techniques, in SE's order.
pub(crate) fn pencil_mark_step(marks: &Candidates) -> Option<Step> {
    let rules = Rules::default();
    PENCIL_MARKS.iter().find_map(|f| f.find(marks, &rules))
}
