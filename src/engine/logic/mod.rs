//! Human-style solving: the techniques a player uses, one explained step at a time, and a
//! rating of the whole puzzle on the Sudoku Explainer (SE) scale.
//!
//! The exact solver ([`Solver`](crate::engine::Solver)) answers *what* the solution is; this
//! module answers *how a person gets there*. It works on [`Candidates`] (pencil marks) and
//! finds [`Step`]s, each made by one [`Technique`] and each sound: a step never removes a digit
//! that the true solution needs, so on a uniquely solvable puzzle following steps only ever
//! moves towards that solution.
//!
//! * [`candidates`](mod@candidates), `cellset`, [`geometry`]: pencil marks and the grid's
//!   shape (units and peers) as a value every technique reads.
//! * `singles`, `direct`, `intersections`, `subsets`, `fish`, `strong_links`, `wings`,
//!   `als_wings`, `uniqueness`, `exclusion`, `chains` (private): one module per technique
//!   family, each with finders `Candidates -> Option<Step>`.
//! * `search`: SE's list of finders in SE's order; the first one that finds a step wins,
//!   which is how SE picks "the easiest available step".
//! * [`rating`]: the SE number of a step, [`grade`](mod@grade): the puzzle's rating (its
//!   hardest step) and level, [`hint`](mod@hint): what to tell a player.
//!
//! Determinism: every finder scans in a fixed order (the one SE uses where it matters for which
//! step is taken) and returns the first or the best pattern that changes something, so the same
//! marks always give the same step.

mod als_wings;
mod barren;
pub mod candidates;
mod cellset;
mod chains;
mod direct;
mod exclusion;
mod fish;
pub(crate) mod general_hint;
pub mod geometry;
pub mod grade;
pub mod hint;
mod intersections;
mod killer;
pub(crate) mod marks;
pub mod rating;
pub(crate) mod search;
mod singles;
mod strong_links;
mod subsets;
mod text;
mod uniqueness;
mod wings;
mod work;

use std::fmt;

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::model::board::Board;
use crate::engine::model::grid::{Cell, Digit};
use crate::engine::model::validate::Unit;

pub use candidates::Candidates;
pub(crate) use cellset::CellSet;
pub use geometry::Geometry;
#[cfg(test)]
pub use grade::grade;
pub use grade::{Difficulty, Finish, Grade, Stopped};
#[cfg(test)]
pub use hint::hint;
pub use hint::{hint_with_givens, Hint};
pub use rating::Rating;
pub use search::Assumptions;

/// A solving technique, in the order SE searches for them (roughly easiest first). A
/// technique's steps can be rated above its [`base rating`](Technique::base_rating): size and
/// chain length add to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// The last empty cell of a row, column or box.
    FullHouse,
    /// A digit with one place left in a row, column or box.
    HiddenSingle,
    /// A pointing elimination that leaves a digit one place in another box.
    DirectPointing,
    /// A claiming elimination that leaves a digit one place in another row or column.
    DirectClaiming,
    /// A hidden pair that leaves another digit one place in the unit.
    DirectHiddenPair,
    /// A cell with one candidate left.
    NakedSingle,
    /// A hidden triple that leaves another digit one place in the unit.
    DirectHiddenTriple,
    /// A digit confined to one row or column inside a box leaves the rest of that line.
    LockedCandidatesPointing,
    /// A digit confined to one box inside a row or column leaves the rest of that box.
    LockedCandidatesClaiming,
    /// A variant's cell that sees every place of a digit in a house loses the digit.
    GeneralizedIntersection,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// A digit in two rows (columns) confined to the same two columns (rows).
    XWing,
    /// Two digits with the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit whose candidates together are three digits.
    NakedTriple,
    /// The three-line version of the X-Wing.
    Swordfish,
    /// Three digits whose places in a unit are together three cells.
    HiddenTriple,
    /// Two parallel lines where a digit has two places each, linked at one end.
    Skyscraper,
    /// A row and a column where a digit has two places each, linked in a box.
    TwoStringKite,
    /// Two strong links on a digit, one of them inside a box.
    TurbotFish,
    /// Two strong links on a digit, one of them grouped (an empty rectangle in a box).
    EmptyRectangle,
    /// A bivalue pivot and two bivalue pincers that force a digit out of their common peers.
    XyWing,
    /// An XY-Wing whose pivot also holds the eliminated digit.
    XyzWing,
    /// Four cells that would allow two solutions, unless one of their other digits is used.
    UniqueRectangle,
    /// A longer loop of cells that would allow two solutions, as the unique rectangle.
    UniqueLoop,
    /// Four cells of a unit whose candidates together are four digits.
    NakedQuad,
    /// The four-line version of the X-Wing.
    Jellyfish,
    /// Four digits whose places in a unit are together four cells.
    HiddenQuad,
    /// A chain of three strong links on one digit.
    ThreeStrongLinks,
    /// Three cells of a unit with four digits plus a bivalue cell linked to them.
    WxyzWing,
    /// Bivalue universal grave: all but a few cells bivalue, which would allow two solutions.
    BivalueUniversalGrave,
    /// A chain of four strong links on one digit.
    FourStrongLinks,
    /// Four cells of a unit with five digits plus a bivalue cell linked to them.
    VwxyzWing,
    /// Two cells whose candidate combinations are ruled out by bivalue cells they both see.
    AlignedPairExclusion,
    /// Five cells of a unit with six digits plus a bivalue cell linked to them.
    UvwxyzWing,
    /// A loop of one digit whose links are all both strong and weak.
    XCycle,
    /// A loop through bivalue cells.
    YCycle,
    /// A chain on one digit from a candidate back to its own negation.
    XChain,
    /// A loop mixing cell and unit links.
    BidirectionalCycle,
    /// A chain mixing cell and unit links from a candidate back to its own negation.
    ForcingChain,
    /// Six cells of a unit with seven digits plus a bivalue cell linked to them.
    TuvwxyzWing,
    /// Three cells whose candidate combinations are ruled out by cells they all see.
    AlignedTripleExclusion,
    /// A digit placed as a trial leads, by that digit alone, to a contradiction.
    NishioForcingChain,
    /// Every candidate of one cell leads to the same conclusion.
    CellForcingChain,
    /// Every place of a digit in one unit leads to the same conclusion.
    RegionForcingChain,
    /// Forcing chains that follow the grid as it changes under the assumption.
    DynamicForcingChain,
    /// Dynamic forcing chains that also use locked candidates, pairs and X-Wings on the way.
    DynamicForcingChainPlus,
    /// Killer: a cage's size and sum alone rule digits out (two cells adding up to 3 hold 1
    /// and 2). Killer techniques are not Sudoku Explainer's (it has no cages), so they are in
    /// [`Technique::KILLER`], not in [`Technique::ALL`]; `killer.rs` explains their values.
    CageSum,
    /// Killer: the ways of making a cage's sum with its cells' candidates rule digits out.
    CageCombination,
    /// Killer: a house's digits add up to the same total (45 on a 9x9 board), so the cells
    /// of a house or of neighbouring houses outside the cages inside them (innies), or the
    /// cells of the cages covering them that stick out (outies), add up to what is left.
    RuleOf45,
    /// Killer: the rule of 45's innies (or outies) are part of one cage, so the rest of that
    /// cage adds up to what is left of its sum.
    CageSplit,
    /// Killer: the cages mostly inside an area leave a few cells in it and stick out by a
    /// few, so the innies' sum minus the outies' sum is known.
    InnieOutieDifference,
    /// A setter's constraint (a thermometer, an arrow, a sandwich clue...) alone, with the
    /// digits its cells still allow, rules digits out: what the family's own rule says,
    /// step by step. Used by hints on rule sets the logic engine does not grade; it has no
    /// place on SE's scale, so it is in no list that grades.
    Constraint,
}

impl Technique {
    /// Every technique, in SE's search order.
    pub const ALL: [Technique; 46] = [
        Technique::FullHouse,
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::LockedCandidatesPointing,
        Technique::LockedCandidatesClaiming,
        Technique::GeneralizedIntersection,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle,
        Technique::UniqueLoop,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::ThreeStrongLinks,
        Technique::WxyzWing,
        Technique::BivalueUniversalGrave,
        Technique::FourStrongLinks,
        Technique::VwxyzWing,
        Technique::AlignedPairExclusion,
        Technique::UvwxyzWing,
        Technique::XCycle,
        Technique::YCycle,
        Technique::XChain,
        Technique::BidirectionalCycle,
        Technique::ForcingChain,
        Technique::TuvwxyzWing,
        Technique::AlignedTripleExclusion,
        Technique::NishioForcingChain,
        Technique::CellForcingChain,
        Technique::RegionForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
    ];

    /// The Killer techniques, easiest first.
    pub const KILLER: [Technique; 5] = [
        Technique::CageSum,
        Technique::CageCombination,
        Technique::RuleOf45,
        Technique::CageSplit,
        Technique::InnieOutieDifference,
    ];

    /// Stable snake_case name for wire formats and logs; never changes once published.
    pub const fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full_house",
            Technique::HiddenSingle => "hidden_single",
            Technique::DirectPointing => "direct_pointing",
            Technique::DirectClaiming => "direct_claiming",
            Technique::DirectHiddenPair => "direct_hidden_pair",
            Technique::NakedSingle => "naked_single",
            Technique::DirectHiddenTriple => "direct_hidden_triple",
            Technique::LockedCandidatesPointing => "locked_candidates_pointing",
            Technique::LockedCandidatesClaiming => "locked_candidates_claiming",
            Technique::GeneralizedIntersection => "generalized_intersection",
            Technique::NakedPair => "naked_pair",
            Technique::XWing => "x_wing",
            Technique::HiddenPair => "hidden_pair",
            Technique::NakedTriple => "naked_triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden_triple",
            Technique::Skyscraper => "skyscraper",
            Technique::TwoStringKite => "two_string_kite",
            Technique::TurbotFish => "turbot_fish",
            Technique::EmptyRectangle => "empty_rectangle",
            Technique::XyWing => "xy_wing",
            Technique::XyzWing => "xyz_wing",
            Technique::UniqueRectangle => "unique_rectangle",
            Technique::UniqueLoop => "unique_loop",
            Technique::NakedQuad => "naked_quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden_quad",
            Technique::ThreeStrongLinks => "three_strong_links",
            Technique::WxyzWing => "wxyz_wing",
            Technique::BivalueUniversalGrave => "bivalue_universal_grave",
            Technique::FourStrongLinks => "four_strong_links",
            Technique::VwxyzWing => "vwxyz_wing",
            Technique::AlignedPairExclusion => "aligned_pair_exclusion",
            Technique::UvwxyzWing => "uvwxyz_wing",
            Technique::XCycle => "x_cycle",
            Technique::YCycle => "y_cycle",
            Technique::XChain => "x_chain",
            Technique::BidirectionalCycle => "bidirectional_cycle",
            Technique::ForcingChain => "forcing_chain",
            Technique::TuvwxyzWing => "tuvwxyz_wing",
            Technique::AlignedTripleExclusion => "aligned_triple_exclusion",
            Technique::NishioForcingChain => "nishio_forcing_chain",
            Technique::CellForcingChain => "cell_forcing_chain",
            Technique::RegionForcingChain => "region_forcing_chain",
            Technique::DynamicForcingChain => "dynamic_forcing_chain",
            Technique::DynamicForcingChainPlus => "dynamic_forcing_chain_plus",
            Technique::CageSum => "cage_sum",
            Technique::CageCombination => "cage_combination",
            Technique::RuleOf45 => "rule_of_45",
            Technique::CageSplit => "cage_split",
            Technique::InnieOutieDifference => "innie_outie_difference",
            Technique::Constraint => "constraint",
        }
    }

    /// The technique with this [`name`](Technique::name).
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL
            .into_iter()
            .chain(Technique::KILLER)
            .find(|t| t.name() == name)
    }

    /// The lowest SE rating a step of this technique gets.
    pub const fn base_rating(self) -> Rating {
        let tenths = match self {
            Technique::FullHouse => 10,
            Technique::HiddenSingle => 12,
            Technique::DirectPointing => 17,
            Technique::DirectClaiming => 19,
            Technique::DirectHiddenPair => 20,
            Technique::NakedSingle => 23,
            Technique::DirectHiddenTriple => 25,
            Technique::LockedCandidatesPointing => 26,
            Technique::LockedCandidatesClaiming => 28,
            Technique::GeneralizedIntersection => 29,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple | Technique::Skyscraper => 40,
            Technique::TwoStringKite | Technique::TurbotFish => 41,
            Technique::EmptyRectangle => 43,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            Technique::UniqueRectangle => 45,
            Technique::UniqueLoop => 46,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad | Technique::ThreeStrongLinks => 54,
            Technique::WxyzWing => 55,
            Technique::BivalueUniversalGrave => 56,
            Technique::FourStrongLinks => 58,
            Technique::VwxyzWing | Technique::AlignedPairExclusion => 62,
            Technique::UvwxyzWing => 66,
            Technique::XCycle | Technique::YCycle => 65,
            Technique::XChain => 66,
            Technique::BidirectionalCycle | Technique::ForcingChain => 70,
            Technique::TuvwxyzWing
            | Technique::AlignedTripleExclusion
            | Technique::NishioForcingChain => 75,
            Technique::CellForcingChain | Technique::RegionForcingChain => 80,
            Technique::DynamicForcingChain => 85,
            Technique::DynamicForcingChainPlus => 90,
            // Placed on SE's scale as `killer.rs` explains.
            Technique::CageSum => 13,
            Technique::CageCombination | Technique::RuleOf45 => 20,
            Technique::CageSplit => 26,
            Technique::InnieOutieDifference => 28,
            // Not graded: a nominal value near the cage techniques', which are alike.
            Technique::Constraint => 15,
        };
        Rating::from_tenths(tenths)
    }

    /// The highest SE rating a step of this technique gets, where its steps have one rating
    /// (or two: a hidden single rates 1.2 in a box, 1.5 in a line). `None` where the rating
    /// grows with the step's size (chains by their length, uniqueness loops, wings of
    /// almost-locked sets, grouped strong links) or with a cage. A batch that asks for a
    /// technique as the hardest step of puzzles rated above this gets a plain refusal rather
    /// than a search that skips every seed (`bank::Teaches`).
    pub const fn highest_rating(self) -> Option<Rating> {
        match self {
            Technique::HiddenSingle => Some(Rating::from_tenths(15)),
            Technique::FullHouse
            | Technique::DirectPointing
            | Technique::DirectClaiming
            | Technique::DirectHiddenPair
            | Technique::NakedSingle
            | Technique::DirectHiddenTriple
            | Technique::LockedCandidatesPointing
            | Technique::LockedCandidatesClaiming
            | Technique::GeneralizedIntersection
            | Technique::NakedPair
            | Technique::XWing
            | Technique::HiddenPair
            | Technique::NakedTriple
            | Technique::Swordfish
            | Technique::HiddenTriple
            | Technique::XyWing
            | Technique::XyzWing
            | Technique::NakedQuad
            | Technique::Jellyfish
            | Technique::HiddenQuad
            | Technique::AlignedPairExclusion
            | Technique::AlignedTripleExclusion => Some(self.base_rating()),
            _ => None,
        }
    }

    /// The level a puzzle lands in when its hardest step is of this technique at its base
    /// rating.
    pub fn difficulty(self) -> Difficulty {
        Difficulty::of_rating(self.base_rating())
    }

    /// True for techniques that only remove pencil marks (the rule of 45 may place a digit).
    pub const fn eliminates_only(self) -> bool {
        !matches!(
            self,
            Technique::FullHouse
                | Technique::HiddenSingle
                | Technique::NakedSingle
                | Technique::DirectPointing
                | Technique::DirectClaiming
                | Technique::DirectHiddenPair
                | Technique::DirectHiddenTriple
                | Technique::RuleOf45
        )
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One deduction: what a technique found and what it changes.
///
/// Every step changes something: `placements` or `eliminations` is non-empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub technique: Technique,
    /// This step's SE rating: the technique's base plus its size or length modifiers.
    pub rating: Rating,
    /// Cells this step fills, with their digits.
    pub placements: Vec<(Cell, Digit)>,
    /// Pencil marks this step removes.
    pub eliminations: Vec<(Cell, Digit)>,
    /// The cells that form the pattern (what a player should look at), in reading order.
    pub cells: Vec<Cell>,
    /// The digits the pattern is about, ascending.
    pub digits: Vec<Digit>,
    /// The rows, columns and boxes the pattern lives in, for highlighting.
    pub units: Vec<Unit>,
    /// One sentence for a player, rows and columns 1-based.
    pub explanation: String,
}

impl Step {
    /// A step that fills one cell.
    pub(crate) fn placing(
        technique: Technique,
        rating_tenths: u16,
        (pos, digit): (Cell, Digit),
        units: Vec<Unit>,
        explanation: String,
    ) -> Step {
        Step {
            technique,
            rating: Rating::from_tenths(rating_tenths),
            placements: vec![(pos, digit)],
            eliminations: Vec::new(),
            cells: vec![pos],
            digits: vec![digit],
            units,
            explanation,
        }
    }

    /// A step that removes marks; the lists are put in reading (and digit) order.
    pub(crate) fn eliminating(
        technique: Technique,
        rating: Rating,
        mut eliminations: Vec<(Cell, Digit)>,
        mut cells: Vec<Cell>,
        mut digits: Vec<Digit>,
        units: Vec<Unit>,
        explanation: String,
    ) -> Step {
        eliminations.sort();
        eliminations.dedup();
        cells.sort();
        cells.dedup();
        digits.sort();
        digits.dedup();
        Step {
            technique,
            rating,
            placements: Vec::new(),
            eliminations,
            cells,
            digits,
            units,
            explanation,
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explanation)
    }
}

/// The easiest step that applies to `marks` in SE's order, or `None` when no technique makes
/// progress (the grid is solved, contradictory, or beyond every technique here).
/// Uniqueness techniques are left out: `marks` alone cannot tell whether the puzzle has one
/// solution. Use [`Assumptions::next_step`] when that is known. (The tests' entry point;
/// the engine asks [`Assumptions::next_step`] itself.)
#[cfg(test)]
pub fn next_step(marks: &Candidates, budget: &Budget) -> Result<Option<Step>, Exhausted> {
    Assumptions::default().next_step(marks, budget)
}

/// The pencil marks of `board`. With `with_techniques`, the classic elimination techniques a
/// careful player keeps in their marks (locked candidates, naked and hidden pairs and triples,
/// X-Wing, Swordfish, XY-Wing) are applied until none changes anything, but no digit is
/// placed: the result is what such a player's marks look like before the next cell is filled.
pub fn candidates<'g>(
    board: &Board,
    geometry: &'g Geometry,
    with_techniques: bool,
    budget: &Budget,
) -> Result<Candidates<'g>, Exhausted> {
    let mut marks = Candidates::with_geometry(board, geometry);
    if with_techniques {
        // Each step removes at least one of at most 729 marks, so this ends.
        while let Some(step) = search::pencil_mark_step(&marks, budget)? {
            marks.apply(&step);
        }
    }
    Ok(marks)
}

#[cfg(test)]
mod se_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod variant_tests;
