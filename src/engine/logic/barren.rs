//! What finders already know to be barren during a grade.
//!
//! A grade re-runs every finder below the step it takes, step after step, while most steps
//! touch a few cells and one or two digits: in the hard part of a solve most looks are
//! repeats. Some finders read only part of the marks, and remember where that part gave
//! nothing:
//! * a fish, a chain of strong links, a static X-chain or X-cycle, or a Nishio forcing chain
//!   on digit `d` reads nothing but `d`'s places (and the geometry): while they stay the
//!   same, it finds nothing on `d` again;
//! * aligned exclusion on a set of cells reads the marks of those cells and of the small
//!   cells they all see: while those stay the same, the set removes nothing again.
//!
//! This is exact because within a grade marks only go: cells fill and candidates leave.
//! What else these finders read only shrinks with them (the cells with two candidates or
//! more that chains start from; a fish skips digits placed often enough, and placing `d`
//! changes `d`'s places), and a shorter search bound only finds less, so a part that gave
//! nothing gives nothing again while what it reads stays. SE's order is unchanged (a barren
//! part would have produced nothing), so the steps and the rating are the same; only the
//! work is less. A grade that runs out of work may therefore get further than before.
//!
//! The memory lives for one grade ([`Scope`]), never across requests, so the work a grade
//! is charged depends on its puzzle alone: a generation stays deterministic. Outside a
//! scope (hints, pencil marks) nothing is remembered.

use std::cell::RefCell;
use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::candidates::Candidates;
use super::cellset::CellSet;

/// The finders that use the memory: each a one-digit search of some size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Search {
    /// Fish of 2, 3 or 4 lines.
    Fish(u32),
    /// Chains of 2, 3 or 4 strong links.
    StrongLinks(usize),
    /// Static X-cycles and X-chains (unit links only).
    XChains,
    /// Nishio forcing chains (one digit's links, following the grid).
    Nishio,
}

impl Search {
    /// Its row in [`Memory::barren`].
    fn slot(self) -> usize {
        match self {
            Search::Fish(size) => (size as usize).clamp(2, 4) - 2,
            Search::StrongLinks(links) => 3 + links.clamp(2, 4) - 2,
            Search::XChains => 6,
            Search::Nishio => 7,
        }
    }
}

const SEARCHES: usize = 8;
const DIGITS: usize = 9;

/// Per search and digit, the places on which it last found nothing; per set of aligned
/// cells, what it read when it last removed nothing.
struct Memory {
    geometry: u64,
    barren: [[Option<CellSet>; DIGITS]; SEARCHES],
    exclusions: HashMap<[u8; 3], Excluders, FixedState>,
}

impl Memory {
    fn new(geometry: u64) -> Memory {
        Memory {
            geometry,
            barren: [[None; DIGITS]; SEARCHES],
            exclusions: HashMap::default(),
        }
    }
}

/// The most sets of aligned cells remembered in one grade: about 1.3 MB at most, whatever
/// the puzzle (7/8 of the map's 16,384 slots of about 80 bytes, so it never grows past
/// them). The grades of the 1,546 SE-rated puzzles remember none at the median, 2,223 at
/// the 90th percentile and 6,824 at most; an `extreme` generation's candidates 372 at the
/// 99th.
const MOST_EXCLUSIONS: usize = 14_336;

/// The most small cells that two cells can both see (their common peers).
const MOST_EXCLUDERS: usize = 20;

/// What aligned exclusion on some cells reads: the small cells, and the marks of the cells
/// and then of the small cells (in cell order, the rest 0).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Excluders {
    small: CellSet,
    masks: [u16; 3 + MOST_EXCLUDERS],
}

/// One look of aligned exclusion at `cells` inside a scope: what it reads, to compare with
/// the memory and to record when it removes nothing.
pub(crate) struct ExclusionLook {
    key: [u8; 3],
    read: Excluders,
}

impl ExclusionLook {
    /// `None` outside a scope (or on another geometry), where nothing is remembered.
    pub(crate) fn of(marks: &Candidates, cells: &[usize], small: CellSet) -> Option<Self> {
        let current = MEMORY.with(|m| {
            m.borrow()
                .as_ref()
                .is_some_and(|memory| memory.geometry == marks.geometry().id())
        });
        if !current {
            return None;
        }
        let mut key = [u8::MAX; 3];
        let mut masks = [0u16; 3 + MOST_EXCLUDERS];
        for (k, &c) in cells.iter().enumerate() {
            key[k] = c as u8;
            masks[k] = marks.mask(c);
        }
        for (slot, c) in masks[3..].iter_mut().zip(small.iter()) {
            *slot = marks.mask(c);
        }
        Some(ExclusionLook {
            key,
            read: Excluders { small, masks },
        })
    }

    /// The same cells removed nothing the last time they read exactly this.
    pub(crate) fn known_barren(&self) -> bool {
        MEMORY.with(|m| {
            m.borrow()
                .as_ref()
                .and_then(|memory| memory.exclusions.get(&self.key))
                == Some(&self.read)
        })
    }

    /// Records that the cells removed nothing (while the memory has room: a full one keeps
    /// what it has and lets the rest be looked at again).
    pub(crate) fn found_nothing(self) {
        MEMORY.with(|m| {
            if let Some(memory) = m.borrow_mut().as_mut() {
                let room = memory.exclusions.len() < MOST_EXCLUSIONS
                    || memory.exclusions.contains_key(&self.key);
                if room {
                    memory.exclusions.insert(self.key, self.read);
                }
            }
        });
    }
}

thread_local! {
    static MEMORY: RefCell<Option<Memory>> = const { RefCell::new(None) };
}

/// While alive, the thread's one-digit finders remember their barren digits. Opened by a
/// grade around its steps; dropping it forgets everything.
pub(crate) struct Scope {
    /// What was there before: a scope inside a scope (a grade started by a grade's finder)
    /// must not hand the outer one its memory.
    outer: Option<Memory>,
}

impl Scope {
    pub(crate) fn open() -> Scope {
        let outer = MEMORY.with(|m| m.borrow_mut().replace(Memory::new(0)));
        Scope { outer }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let outer = self.outer.take();
        MEMORY.with(|m| *m.borrow_mut() = outer);
    }
}

/// The digits worth a look for `search` on `marks`: all of them outside a scope; inside,
/// those whose places changed since the search last found nothing on them.
pub(crate) fn worth_a_look(search: Search, marks: &Candidates) -> [bool; DIGITS] {
    let g = marks.geometry().id();
    MEMORY.with(|m| {
        let mut m = m.borrow_mut();
        let Some(memory) = m.as_mut() else {
            return [true; DIGITS];
        };
        if memory.geometry != g {
            *memory = Memory::new(g);
        }
        let row = &memory.barren[search.slot()];
        std::array::from_fn(|d| row[d] != Some(marks.cells_with(d)))
    })
}

/// Records that `search` found nothing on digit `d` of `marks` (a no-op outside a scope).
pub(crate) fn found_nothing(search: Search, marks: &Candidates, d: usize) {
    let g = marks.geometry().id();
    MEMORY.with(|m| {
        if let Some(memory) = m.borrow_mut().as_mut() {
            if memory.geometry == g {
                memory.barren[search.slot()][d] = Some(marks.cells_with(d));
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::Budget;
    use crate::engine::logic::candidates::digit;
    use crate::engine::logic::se_tests::PINS;
    use crate::engine::logic::{Assumptions, Step};
    use crate::engine::model::board::Board;
    use crate::engine::model::grid::Cell;

    #[test]
    fn a_digit_is_skipped_only_inside_a_scope_and_while_its_places_stay() {
        let board = Board::from_line(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .expect("a board");
        let marks = Candidates::new(&board);
        let fish = Search::Fish(2);
        found_nothing(fish, &marks, 3);
        assert_eq!(worth_a_look(fish, &marks), [true; DIGITS], "no scope");
        {
            let _scope = Scope::open();
            assert_eq!(worth_a_look(fish, &marks), [true; DIGITS]);
            found_nothing(fish, &marks, 3);
            let look = worth_a_look(fish, &marks);
            assert!(!look[3] && look.iter().filter(|&&x| x).count() == 8);
            assert_eq!(worth_a_look(Search::Fish(3), &marks), [true; DIGITS]);
            // Digit 4 (index 3) loses a place: it is worth a look again.
            let mut fewer = marks;
            let cell = marks.cells_with(3).iter().next().expect("a place");
            fewer.eliminate(Cell::from_index(cell), digit(3));
            assert!(worth_a_look(fish, &fewer)[3]);
            {
                let _inner = Scope::open();
                assert!(worth_a_look(fish, &marks)[3], "an inner scope starts empty");
            }
            assert!(
                !worth_a_look(fish, &marks)[3],
                "the outer scope's memory is back"
            );
        }
        assert_eq!(worth_a_look(fish, &marks), [true; DIGITS], "forgotten");
    }

    /// A finder as a grade calls it, by name.
    type Named = (&'static str, Box<dyn Fn(&Candidates) -> Option<Step>>);

    /// Every finder that remembers.
    fn rememberers() -> Vec<Named> {
        use crate::engine::logic::chains::{self, Level};
        use crate::engine::logic::{exclusion, fish, strong_links};
        let mut out: Vec<Named> = vec![];
        for size in 2..=4 {
            out.push(("fish", Box::new(move |m| fish::find(m, size))));
            let links = size as usize;
            out.push((
                "strong links",
                Box::new(move |m| strong_links::find(m, links)),
            ));
        }
        out.push(("aligned pair", Box::new(exclusion::aligned_pair)));
        out.push(("aligned triple", Box::new(exclusion::aligned_triple)));
        out.push((
            "static chains",
            Box::new(|m| chains::find(m, Level::Static)),
        ));
        out.push(("Nishio", Box::new(|m| chains::find(m, Level::Nishio))));
        out
    }

    /// Walks `puzzle` in SE's order inside a scope and, at every position, runs each finder
    /// that remembers twice: with what the walk has remembered so far, and afresh (an inner
    /// scope starts empty). Both must give the same step. Returns the steps and the work
    /// the walk was charged.
    fn walk_checking(puzzle: &str) -> (Vec<Step>, u64) {
        let board = Board::from_line(puzzle).expect("a board");
        let mut marks = Candidates::new(&board);
        let budget = Budget::unlimited();
        let finders = rememberers();
        let _scope = Scope::open();
        let mut steps = Vec::new();
        loop {
            for (name, find) in &finders {
                let remembered = find(&marks);
                let fresh = {
                    let _fresh = Scope::open();
                    find(&marks)
                };
                assert_eq!(
                    remembered,
                    fresh,
                    "{name} after {} steps of {puzzle}",
                    steps.len()
                );
            }
            let Some(step) = Assumptions::unique()
                .next_step(&marks, &budget)
                .expect("unlimited")
            else {
                break;
            };
            marks.apply(&step);
            steps.push(step);
        }
        (steps, budget.used())
    }

    /// Every step of SE's order on `puzzle` outside a scope, and the work it was charged.
    fn walk_forgetting(puzzle: &str) -> (Vec<Step>, u64) {
        let board = Board::from_line(puzzle).expect("a board");
        let mut marks = Candidates::new(&board);
        let budget = Budget::unlimited();
        let mut steps = Vec::new();
        while let Some(step) = Assumptions::unique()
            .next_step(&marks, &budget)
            .expect("unlimited")
        {
            marks.apply(&step);
            steps.push(step);
        }
        (steps, budget.used())
    }

    #[test]
    fn remembering_finders_find_what_fresh_ones_do() {
        // The pinned positions of the techniques whose finders remember, and of the chains
        // that run after them on every step.
        let users = [
            "x_wing",
            "jellyfish",
            "turbot_fish",
            "four_strong_links",
            "aligned_triple_exclusion",
            "forcing_chain",
            "nishio_forcing_chain",
        ];
        let mut saved = 0;
        for pin in PINS.iter().filter(|p| users.contains(&p.technique)) {
            let (plain, plain_work) = walk_forgetting(pin.puzzle);
            let (remembered, remembered_work) = walk_checking(pin.puzzle);
            assert_eq!(plain, remembered, "{}", pin.puzzle);
            // The checking walk ran every remembering finder on every position besides the
            // grade's own looks, so it remembered more: its own looks cost less still.
            assert!(remembered_work <= plain_work, "{}", pin.puzzle);
            saved += usize::from(remembered_work < plain_work);
        }
        assert!(saved >= users.len() / 2, "only {saved} walks did less work");
    }
}
