//! One generated puzzle, from what was asked to the object `/v1/generate` answers: the same
//! steps for `/v1/generate`, `/v1/daily`, each line of `/v1/generate/batch` and each line of
//! `sudoku-service generate`, so a seed gives the same object everywhere.

use std::ops::RangeInclusive;

use crate::engine::{
    Budget, Engine, EngineError, Grade, Grid, Pattern, Puzzle, Rating, Symmetry, Variant,
    GENERATOR_VERSION,
};
use crate::shapes::{BoardText, GenerateResponse, GradeJson, RulesJson, SeedJson};

/// The symmetries by the names requests and the CLI give them.
pub const SYMMETRIES: [(&str, Symmetry); 2] = [
    ("none", Symmetry::None),
    ("rotational", Symmetry::Rotational),
];

/// The board forms by name: `true` for rows (nine strings), `false` for one line.
pub const FORMATS: [(&str, bool); 2] = [("rows", true), ("line", false)];

/// What to generate: a puzzle of a variant (classic: `None`) in a rating range, or a
/// variant's minimal puzzle without a grade (no level asked for).
#[derive(Debug, Clone)]
pub enum Wanted {
    Rated(Option<Variant>, RangeInclusive<Rating>),
    Unrated(Variant),
}

/// A generation request, read and checked: what to make, how, and in which board form.
#[derive(Debug, Clone)]
pub struct Asked {
    what: Wanted,
    symmetry: Symmetry,
    as_rows: bool,
    /// Where the givens go, for a classic puzzle drawn to a pattern.
    pattern: Option<Pattern>,
}

/// Why a pattern does not fit the rest of a generation request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PatternConflict {
    #[error(
        "a pattern places the givens of a classic puzzle; a variant's generator places its own"
    )]
    Variant,
    #[error(
        "a pattern fixes where the givens go, so it takes no symmetry: draw the pattern \
         symmetric instead"
    )]
    Symmetry,
    #[error(
        "givens on a pattern are carved from random grids, which reaches rating {highest}; \
         ask for a range that starts at {highest} or below, or leave the pattern out"
    )]
    Rating { highest: Rating },
}

impl Asked {
    /// `what` with `symmetry`, its boards as rows (or one line each); refused when no
    /// puzzle of that variant can have the ratings asked for.
    pub fn new(what: Wanted, symmetry: Symmetry, as_rows: bool) -> Result<Asked, EngineError> {
        if let Wanted::Rated(variant, ratings) = &what {
            Engine::check_reachable(*variant, symmetry, ratings)?;
        }
        Ok(Asked {
            what,
            symmetry,
            as_rows,
            pattern: None,
        })
    }

    /// The same request with its givens exactly on `pattern`: classic puzzles only, without
    /// a symmetry (the pattern is the whole layout).
    pub fn with_pattern(self, pattern: Pattern) -> Result<Asked, PatternConflict> {
        if self.variant().is_some() {
            return Err(PatternConflict::Variant);
        }
        if self.symmetry != Symmetry::None {
            return Err(PatternConflict::Symmetry);
        }
        let highest = Engine::highest_in_pattern();
        if self
            .ratings()
            .is_some_and(|ratings| *ratings.start() > highest)
        {
            return Err(PatternConflict::Rating { highest });
        }
        Ok(Asked {
            pattern: Some(pattern),
            ..self
        })
    }

    /// The variant asked for; `None` for classic.
    pub fn variant(&self) -> Option<Variant> {
        match &self.what {
            Wanted::Rated(variant, _) => *variant,
            Wanted::Unrated(variant) => Some(*variant),
        }
    }

    /// The ratings asked for; `None` for a variant's minimal puzzle, which is not graded.
    pub fn ratings(&self) -> Option<&RangeInclusive<Rating>> {
        match &self.what {
            Wanted::Rated(_, ratings) => Some(ratings),
            Wanted::Unrated(_) => None,
        }
    }

    /// Everything a seeded answer depends on besides the seed, as text: the variant, the
    /// ratings asked for, the symmetry and the board form, each as the generator reads it (so
    /// `difficulty=hard` and `rating=2.6-4.0` have the same key), and the generator's
    /// version, which changes whenever a seed may give another puzzle.
    pub fn key(&self) -> String {
        let asked = match &self.what {
            Wanted::Rated(variant, ratings) => format!(
                "{};{}-{}",
                variant.map_or("classic", Variant::name),
                ratings.start().tenths(),
                ratings.end().tenths()
            ),
            Wanted::Unrated(variant) => format!("{};unrated", variant.name()),
        };
        let pattern = self
            .pattern
            .map_or(String::new(), |p| format!(";pattern {}", p.text()));
        format!(
            "generator {GENERATOR_VERSION};{asked};{:?};rows {};canonical{pattern}",
            self.symmetry, self.as_rows
        )
    }
}

/// A generation's result, before it is rendered: the puzzle, its solution, its grade (absent
/// for a variant generated without a level) and, for every puzzle but a Killer, its
/// canonical form.
pub struct Made {
    puzzle: Puzzle,
    solution: Grid,
    grade: Option<Grade>,
    canonical: Option<Puzzle>,
}

impl Made {
    /// How many cells are given.
    pub fn clues(&self) -> usize {
        self.puzzle.grid().given_count()
    }

    /// The puzzle made.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// Its solution.
    pub fn solution(&self) -> &Grid {
        &self.solution
    }

    /// Its grade (absent for a variant generated without a level).
    pub fn grade(&self) -> Option<&Grade> {
        self.grade.as_ref()
    }

    /// The id of the canonical form (every puzzle but a Killer).
    pub fn canonical_id(&self) -> Option<String> {
        self.canonical.as_ref().map(Puzzle::id)
    }
}

/// Generates what `asked` wants from `seed`, on a solver thread; a classic, X, Hyper or
/// Jigsaw puzzle's canonical form is found in the same job (tens of microseconds beside the generation).
pub fn make(
    engine: &mut Engine,
    budget: &Budget,
    asked: &Asked,
    seed: u64,
) -> Result<Made, EngineError> {
    let made = match (&asked.what, asked.pattern) {
        (Wanted::Rated(None, ratings), Some(pattern)) => {
            engine.generate_in_pattern(pattern, ratings.clone(), seed, budget)?
        }
        (Wanted::Unrated(variant), _) => {
            engine.generate_variant(*variant, seed, asked.symmetry, budget)?
        }
        (Wanted::Rated(variant, ratings), _) => {
            engine.generate(*variant, ratings.clone(), seed, asked.symmetry, budget)?
        }
    };
    let canonical = match engine.canonical(&made.puzzle, budget) {
        Ok(form) => Some(form),
        Err(EngineError::NoCanonicalForm { .. }) => None,
        Err(other) => return Err(other),
    };
    Ok(Made {
        solution: made.solution.grid().clone(),
        puzzle: made.puzzle,
        grade: made.grade,
        canonical,
    })
}

/// `made` as `/generate` answers it.
pub fn respond(made: &Made, asked: &Asked, seed: u64) -> GenerateResponse {
    let render = |grid: &Grid| {
        if asked.as_rows {
            BoardText::Rows(grid.to_rows())
        } else {
            BoardText::Line(grid.to_line())
        }
    };
    let Made {
        puzzle,
        solution,
        grade,
        canonical,
    } = made;
    GenerateResponse {
        id: puzzle.id(),
        variant: asked.variant().map_or("classic", Variant::name),
        board: render(puzzle.grid()),
        solution: render(solution),
        canonical: canonical.as_ref().map(|form| render(form.grid())),
        canonical_regions: (canonical.as_ref())
            .and_then(|form| RulesJson::new(form.rules(), asked.as_rows).regions),
        canonical_id: canonical.as_ref().map(Puzzle::id),
        difficulty: grade
            .as_ref()
            .and_then(|g| g.difficulty())
            .map(|d| d.name()),
        seed: SeedJson(seed),
        symmetry: match asked.symmetry {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
        },
        clues: puzzle.grid().given_count(),
        grade: grade.as_ref().map(GradeJson::from),
        rules: RulesJson::new(puzzle.rules(), asked.as_rows),
    }
}
