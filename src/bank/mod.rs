//! Puzzle banks: batches of generated puzzles, as `POST /v1/generate/batch` streams them and
//! `sudoku-service generate` writes them to a file. Both front ends run the same [`Plan`] and
//! the same [`Run`], so the same options and seed give the same lines, byte for byte, and a
//! cursor from either continues in the other. Below the HTTP layer and the CLI, above the
//! engine: it knows nothing of requests, problems or files.
//!
//! * **Deterministic**: puzzle `i` is generated from a seed derived from the batch's seed and
//!   `i` ([`puzzle_seed`]), and that seed is its line's `seed`, so `/generate` with it (and the
//!   same options) gives the same puzzle. The same options give the same lines in the same
//!   order, whoever generates them and on how many threads.
//! * **Skips**: a seed whose generation finds no puzzle within the generation work budget, a
//!   puzzle outside the clue range, or (with `distinct`) one whose canonical form an earlier
//!   line had, is skipped: no line, and the next seed is tried. Which seeds are skipped
//!   depends only on the options and the work budget, never on the machine (a deadline is not
//!   a skip: [`Run::take`] hands it back, and the index is tried again on resume).
//! * **Technique targets**: with [`Teaches`], a puzzle whose grade does not have the
//!   technique (as its hardest step, or anywhere) is skipped like one outside the clue range:
//!   a filter on what the rating range gives, so the range should be the band the technique
//!   lives in (`hard` for an X-Wing), where such puzzles are common.
//! * **Resumable**: every line carries a `cursor` (the next index, the puzzles answered so
//!   far, the batch's seed, and a check of the options), which [`Plan::new`] reads back.

mod made;

use std::collections::HashSet;
use std::hash::{BuildHasher, Hasher};
use std::ops::RangeInclusive;

pub use made::{make, respond, Asked, Made, PatternConflict, Wanted, FORMATS, SYMMETRIES};

use crate::engine::{stable_hash, Engine, EngineError, Technique, Variant};
use crate::shapes::{GenerateBatchLine, MAX_SAFE_SEED};

/// Work units per generation unless configured: about 5 s of CPU, half the request time limit.
/// The service's default and the CLI's, so that a bank file and a batch answer agree.
pub const DEFAULT_GENERATE_WORK_BUDGET: u64 = 5_000_000;

/// Every clue count a 9x9 puzzle can have.
const CLUES: RangeInclusive<usize> = 0..=81;

/// A seed from the operating system's randomness, below 2^53 like every seed an answer
/// carries: for a generation or batch sent without one.
pub fn random_seed() -> u64 {
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
        & MAX_SAFE_SEED
}

/// The seed of puzzle `index` of a batch seeded `seed`: spread by a hash, so neighbouring
/// indices give unrelated puzzles, and below 2^53 like every seed an answer carries.
pub fn puzzle_seed(seed: u64, index: u64) -> u64 {
    stable_hash(format!("generate batch {seed} puzzle {index}").as_bytes()) & MAX_SAFE_SEED
}

/// The batch seed of part `shard` of a bank seeded `seed` (one pod of a Kubernetes Indexed
/// Job each): hashed like [`puzzle_seed`], so parts never share a batch seed's run of puzzle
/// seeds the way `seed + shard` would (part 1 of seed 7 would be part 0 of seed 8).
pub fn shard_seed(seed: u64, shard: u64) -> u64 {
    stable_hash(format!("generate bank {seed} shard {shard}").as_bytes()) & MAX_SAFE_SEED
}

/// Where a batch stands: the next index to try, and the puzzles answered so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub index: u64,
    pub answered: u64,
}

impl Position {
    /// A batch's beginning.
    pub const START: Position = Position {
        index: 0,
        answered: 0,
    };
}

/// A batch's options that are wrong, each naming the option it is about ([`BankError::field`])
/// so each front end can point at its own spelling of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BankError {
    #[error("count must be from 1 to {max}; got {got}")]
    Count { max: u64, got: u64 },
    #[error(
        "distinct compares canonical forms, which {0} puzzles do not have (their cages name \
         digits); leave it out for them"
    )]
    DistinctVariant(&'static str),
    #[error("a clue count is from 0 to 81; got {got}")]
    ClueEnd { max: bool, got: usize },
    #[error("the lowest clue count ({min}) is above the highest ({max})")]
    ClueOrder { min: usize, max: usize },
    #[error(
        "a technique is read off each puzzle's grade, so the batch needs a level or rating \
         range (for a variant too)"
    )]
    TechniqueUnrated,
    #[error("{technique} is a Killer technique: only killer puzzles can need it")]
    TechniqueKillerOnly { technique: &'static str },
    #[error(
        "{technique} steps rate {base} or more, so a puzzle that needs one is rated {base} or \
         more, above this batch's highest rating {max}: raise the rating range"
    )]
    TechniqueAboveRange {
        technique: &'static str,
        base: String,
        max: String,
    },
    #[error(
        "{technique} steps rate at most {highest}, so a puzzle whose hardest step is one is \
         rated at most {highest}, below this batch's lowest rating {min}: lower the rating \
         range, or ask for it anywhere (technique_as any)"
    )]
    TechniqueBelowRange {
        technique: &'static str,
        highest: String,
        min: String,
    },
    #[error("{0:?} is not a cursor: send back a line's `cursor` as it came")]
    NotACursor(String),
    #[error(
        "this cursor belongs to a batch with other options: resume with the options (and seed) \
         the batch was started with"
    )]
    OtherBatch,
    #[error("this cursor is past {answered} puzzles, more than count ({count})")]
    PastCount { answered: u64, count: u64 },
}

impl BankError {
    /// The option the error is about, as the batch request names it (`clues.min`).
    pub fn field(&self) -> &'static str {
        match self {
            BankError::Count { .. } => "count",
            BankError::DistinctVariant(_) => "distinct",
            BankError::ClueEnd { max: false, .. } => "clues.min",
            BankError::ClueEnd { max: true, .. } => "clues.max",
            BankError::ClueOrder { .. } => "clues",
            BankError::TechniqueUnrated
            | BankError::TechniqueKillerOnly { .. }
            | BankError::TechniqueAboveRange { .. }
            | BankError::TechniqueBelowRange { .. } => "technique",
            BankError::NotACursor(_) | BankError::OtherBatch | BankError::PastCount { .. } => {
                "cursor"
            }
        }
    }
}

/// Where a batch's technique must stand in each puzzle's grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The hardest step is of that technique: a puzzle that teaches it and nothing harder.
    Hardest,
    /// At least one step is of that technique, whatever else the puzzle needs.
    Any,
}

/// The roles by the names requests and the CLI give them.
pub const ROLES: [(&str, Role); 2] = [("hardest", Role::Hardest), ("any", Role::Any)];

/// Every technique a batch can target, by the name grades give it: SE's and the Killer ones.
pub fn techniques() -> Vec<(&'static str, Technique)> {
    (Technique::ALL.into_iter().chain(Technique::KILLER))
        .map(|t| (t.name(), t))
        .collect()
}

/// A technique every puzzle of a batch must need, and where in its grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Teaches {
    pub technique: Technique,
    pub role: Role,
}

impl Teaches {
    /// Whether `made`'s grade has the technique in its role. A puzzle without a grade, or
    /// whose grade stopped before the end, has none: what it would need is not known.
    fn taught_by(&self, made: &Made) -> bool {
        let Some(grade) = made.grade().filter(|g| g.rating().is_some()) else {
            return false;
        };
        match self.role {
            Role::Hardest => grade.hardest == Some(self.technique),
            Role::Any => grade.counts.contains_key(&self.technique),
        }
    }

    /// Why no puzzle of `asked` can have the technique in its role, if none can.
    fn check(&self, asked: &Asked) -> Result<(), BankError> {
        let Some(ratings) = asked.ratings() else {
            return Err(BankError::TechniqueUnrated);
        };
        let technique = self.technique.name();
        if Technique::KILLER.contains(&self.technique) && asked.variant() != Some(Variant::Killer) {
            return Err(BankError::TechniqueKillerOnly { technique });
        }
        // A puzzle's rating is its hardest step's: one step of the technique rates the
        // puzzle at least the technique's base, wherever in the grade it stands.
        let base = self.technique.base_rating();
        if base > *ratings.end() {
            return Err(BankError::TechniqueAboveRange {
                technique,
                base: base.to_string(),
                max: ratings.end().to_string(),
            });
        }
        let highest = self.technique.highest_rating();
        if let Some(highest) = highest.filter(|h| self.role == Role::Hardest && h < ratings.start())
        {
            return Err(BankError::TechniqueBelowRange {
                technique,
                highest: highest.to_string(),
                min: ratings.start().to_string(),
            });
        }
        Ok(())
    }
}

/// What a batch is asked for, before it is checked.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub asked: Asked,
    pub count: u64,
    /// The most puzzles one batch may ask for (the service's setting; the CLI has none).
    pub max_count: u64,
    /// The fewest and most givens to keep; either end may be open.
    pub clues: (Option<usize>, Option<usize>),
    pub distinct: bool,
    /// A technique each puzzle must need.
    pub technique: Option<Teaches>,
    /// The batch's seed; a random one when absent (and no cursor gives it).
    pub seed: Option<u64>,
    /// A line's cursor, to continue after that line.
    pub cursor: Option<&'a str>,
}

/// A batch, read and checked.
#[derive(Debug, Clone)]
pub struct Plan {
    pub asked: Asked,
    pub seed: u64,
    pub count: u64,
    pub clues: RangeInclusive<usize>,
    pub distinct: bool,
    pub technique: Option<Teaches>,
    /// A hash of everything the lines depend on but the position: a cursor carries it, so a
    /// cursor sent with other options is refused rather than continuing another batch.
    check: u32,
    /// Where this batch starts: the beginning, or the position of the cursor it was sent.
    pub from: Position,
}

impl Plan {
    /// The batch `request` asks for, or the first thing wrong with it.
    pub fn new(request: Request) -> Result<Plan, BankError> {
        let Request {
            asked,
            count,
            max_count,
            clues: (min, max),
            distinct,
            technique,
            seed,
            cursor,
        } = request;
        if !(1..=max_count).contains(&count) {
            return Err(BankError::Count {
                max: max_count,
                got: count,
            });
        }
        match asked.variant() {
            Some(variant) if distinct && !Engine::has_canonical_form(Some(variant)) => {
                return Err(BankError::DistinctVariant(variant.name()));
            }
            _ => {}
        }
        for (end, is_max) in [(min, false), (max, true)] {
            if let Some(got) = end.filter(|n| !CLUES.contains(n)) {
                return Err(BankError::ClueEnd { max: is_max, got });
            }
        }
        let clues = min.unwrap_or(*CLUES.start())..=max.unwrap_or(*CLUES.end());
        if clues.start() > clues.end() {
            return Err(BankError::ClueOrder {
                min: *clues.start(),
                max: *clues.end(),
            });
        }
        if let Some(teaches) = &technique {
            teaches.check(&asked)?;
        }
        let check = check_of(&asked, &clues, distinct, technique.as_ref());
        let (from, seed) = match cursor {
            None => (Position::START, seed.unwrap_or_else(random_seed)),
            Some(cursor) => {
                let (at, from_seed, at_check) = parse_cursor(cursor)
                    .ok_or_else(|| BankError::NotACursor(cursor.to_string()))?;
                if seed.is_some_and(|s| s != from_seed) || at_check != check(from_seed) {
                    return Err(BankError::OtherBatch);
                }
                if at.answered > count {
                    return Err(BankError::PastCount {
                        answered: at.answered,
                        count,
                    });
                }
                (at, from_seed)
            }
        };
        Ok(Plan {
            check: check(seed),
            asked,
            seed,
            count,
            clues,
            distinct,
            technique,
            from,
        })
    }

    /// The cursor of a line written at `at`: resuming from it continues after that line.
    pub fn cursor(&self, at: Position) -> String {
        format!(
            "{}.{}.{}.{:08x}",
            at.index, at.answered, self.seed, self.check
        )
    }
}

/// The check of a batch of `asked`, `clues`, `distinct` and `technique`, as a function of its
/// seed. A batch without a technique has the check it had before techniques were added, so
/// its cursors still resume it.
fn check_of(
    asked: &Asked,
    clues: &RangeInclusive<usize>,
    distinct: bool,
    technique: Option<&Teaches>,
) -> impl Fn(u64) -> u32 {
    let teaches = technique.map_or(String::new(), |t| {
        format!(";technique {} {:?}", t.technique.name(), t.role)
    });
    let asked = asked.key();
    let options = format!(
        ";clues {}-{};distinct {distinct}{teaches}",
        clues.start(),
        clues.end()
    );
    move |seed| stable_hash(format!("{asked};seed {seed}{options}").as_bytes()) as u32
}

/// A cursor's parts: the position, the batch's seed and its check.
fn parse_cursor(cursor: &str) -> Option<(Position, u64, u32)> {
    let mut parts = cursor.trim().split('.');
    let index = parts.next()?.parse().ok()?;
    let answered = parts.next()?.parse().ok()?;
    let seed = parts.next()?.parse().ok()?;
    let check = u32::from_str_radix(parts.next()?, 16).ok()?;
    if parts.next().is_some() || answered > index {
        return None;
    }
    Some((Position { index, answered }, seed, check))
}

/// A batch being answered: where it stands and, with `distinct`, the canonical forms it has
/// answered. The caller generates the puzzle of [`Run::seed`] (or several ahead, in
/// parallel) and hands each result to [`Run::take`] in index order.
#[derive(Debug)]
pub struct Run<'a> {
    plan: &'a Plan,
    /// Where the counts of the last line start: this response's first position (a stream),
    /// or the batch's beginning (a whole file).
    start: Position,
    at: Position,
    seen: HashSet<String>,
}

impl<'a> Run<'a> {
    /// A run of `plan` from its position, counting from there.
    pub fn new(plan: &'a Plan) -> Run<'a> {
        Run {
            plan,
            start: plan.from,
            at: plan.from,
            seen: HashSet::new(),
        }
    }

    /// A run continuing a whole batch from `plan`'s position, whose earlier lines had the
    /// canonical forms `seen`: its counts are the batch's, so the result is the same as if it
    /// had never stopped.
    pub fn resume(plan: &'a Plan, seen: HashSet<String>) -> Run<'a> {
        Run {
            plan,
            start: Position::START,
            at: plan.from,
            seen,
        }
    }

    /// Whether every puzzle asked for is answered.
    pub fn finished(&self) -> bool {
        self.at.answered >= self.plan.count
    }

    /// The plan being run.
    pub fn plan(&self) -> &'a Plan {
        self.plan
    }

    /// Puzzles still to answer.
    pub fn left(&self) -> u64 {
        self.plan.count.saturating_sub(self.at.answered)
    }

    /// Where the run stands.
    pub fn at(&self) -> Position {
        self.at
    }

    /// The cursor to continue from where the run stands.
    pub fn cursor(&self) -> String {
        self.plan.cursor(self.at)
    }

    /// The seed of the puzzle `ahead` indices after the next one to take.
    pub fn seed(&self, ahead: u64) -> u64 {
        puzzle_seed(self.plan.seed, self.at.index + ahead)
    }

    /// Takes the generation of the next index: its line, `None` for a skip, or the error when
    /// the generation was stopped by the clock (the index is not consumed, so a resumed run
    /// tries it again: skips never depend on how busy the machine was).
    pub fn take<E>(
        &mut self,
        made: Result<Made, EngineError>,
    ) -> Result<Option<GenerateBatchLine<E>>, EngineError> {
        let seed = self.seed(0);
        Ok(self.keep(made)?.map(|made| GenerateBatchLine::Puzzle {
            puzzle: Box::new(respond(&made, &self.plan.asked, seed)),
            cursor: self.cursor(),
        }))
    }

    /// [`Run::take`]'s choice without the line: the puzzle when it is kept (a booklet lays
    /// out the very puzzles a batch would answer), `None` for a skip.
    pub fn keep(&mut self, made: Result<Made, EngineError>) -> Result<Option<Made>, EngineError> {
        let made = match made {
            Err(error) if error.stopped_by_clock() => return Err(error),
            made => made,
        };
        self.at.index += 1;
        // No puzzle from this seed within the work budget: the same on every run.
        let Ok(made) = made else { return Ok(None) };
        if !self.plan.clues.contains(&made.clues()) {
            return Ok(None);
        }
        if self.plan.technique.is_some_and(|t| !t.taught_by(&made)) {
            return Ok(None);
        }
        let repeated =
            self.plan.distinct && made.canonical_id().is_some_and(|id| !self.seen.insert(id));
        if repeated {
            return Ok(None);
        }
        self.at.answered += 1;
        Ok(Some(made))
    }

    /// The last line: the puzzles answered and seeds skipped since the run's start.
    pub fn done<E>(&self) -> GenerateBatchLine<E> {
        let puzzles = self.at.answered - self.start.answered;
        GenerateBatchLine::Done {
            done: true,
            puzzles,
            skipped: self.at.index - self.start.index - puzzles,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Difficulty, Symmetry, Variant};

    fn asked(variant: Option<Variant>) -> Asked {
        Asked::new(
            Wanted::Rated(variant, Difficulty::Easy.ratings()),
            Symmetry::None,
            false,
        )
        .unwrap()
    }

    fn request(cursor: Option<&str>) -> Request<'_> {
        Request {
            asked: asked(None),
            count: 5,
            max_count: 10,
            clues: (None, None),
            distinct: true,
            technique: None,
            seed: Some(42),
            cursor,
        }
    }

    #[test]
    fn cursors_read_back_and_malformed_ones_are_refused() {
        assert_eq!(
            parse_cursor("12.10.42.0000abcd"),
            Some((
                Position {
                    index: 12,
                    answered: 10
                },
                42,
                0xabcd
            ))
        );
        for bad in ["", "1.2.3", "1.2.3.4.5", "x.0.1.ff", "1.2.3.zz", "1.5.3.ff"] {
            assert_eq!(parse_cursor(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn neighbouring_indices_get_unrelated_seeds_below_2_53() {
        let seeds: HashSet<u64> = (0..1000).map(|i| puzzle_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert!(seeds.iter().all(|&s| s <= MAX_SAFE_SEED));
        assert_ne!(puzzle_seed(7, 0), puzzle_seed(8, 0));
        let shards: HashSet<u64> = (0..1000).map(|k| shard_seed(7, k)).collect();
        assert_eq!(shards.len(), 1000);
        assert_ne!(shard_seed(7, 1), shard_seed(8, 0));
    }

    /// A plan's own cursor continues it; with other options, past the count or garbled it is
    /// refused, each error naming its field.
    #[test]
    fn a_cursor_continues_only_its_own_batch() {
        let plan = Plan::new(request(None)).unwrap();
        let at = Position {
            index: 7,
            answered: 3,
        };
        let cursor = plan.cursor(at);
        let resumed = Plan::new(request(Some(&cursor))).unwrap();
        assert_eq!((resumed.from, resumed.seed), (at, 42));
        let other = Request {
            distinct: false,
            ..request(Some(&cursor))
        };
        assert_eq!(Plan::new(other).unwrap_err(), BankError::OtherBatch);
        let fewer = Request {
            count: 2,
            ..request(Some(&cursor))
        };
        let error = Plan::new(fewer).unwrap_err();
        assert_eq!(error.field(), "cursor");
        assert!(matches!(error, BankError::PastCount { answered: 3, .. }));
        let garbled = Plan::new(request(Some("7.3"))).unwrap_err();
        assert_eq!(garbled, BankError::NotACursor("7.3".to_string()));
    }

    #[test]
    fn bad_options_name_their_field() {
        let cases = [
            (
                Request {
                    count: 0,
                    ..request(None)
                },
                "count",
            ),
            (
                Request {
                    count: 11,
                    ..request(None)
                },
                "count",
            ),
            (
                Request {
                    asked: asked(Some(Variant::Killer)),
                    ..request(None)
                },
                "distinct",
            ),
            (
                Request {
                    clues: (Some(82), None),
                    ..request(None)
                },
                "clues.min",
            ),
            (
                Request {
                    clues: (None, Some(99)),
                    ..request(None)
                },
                "clues.max",
            ),
            (
                Request {
                    clues: (Some(30), Some(25)),
                    ..request(None)
                },
                "clues",
            ),
        ];
        for (request, field) in cases {
            assert_eq!(Plan::new(request).unwrap_err().field(), field);
        }
    }

    /// A technique is refused where no puzzle of the range can need it in its role: a step
    /// of it rates the puzzle at least its base, and one that is the hardest step rates the
    /// puzzle at most its highest rating.
    #[test]
    fn a_technique_out_of_the_range_s_reach_is_refused() {
        let rated = |difficulty: Difficulty| {
            Asked::new(
                Wanted::Rated(None, difficulty.ratings()),
                Symmetry::None,
                false,
            )
            .unwrap()
        };
        let teaches = |name: &str, role| Teaches {
            technique: Technique::from_name(name).unwrap(),
            role,
        };
        let refused = |name, role, difficulty| teaches(name, role).check(&rated(difficulty));
        // X-Wing (3.2) in an easy (up to 1.5) puzzle: anywhere in it, it would rate it 3.2.
        for role in [Role::Hardest, Role::Any] {
            assert!(matches!(
                refused("x_wing", role, Difficulty::Easy),
                Err(BankError::TechniqueAboveRange { .. })
            ));
        }
        // A hidden single (1.2 or 1.5) cannot be the hardest step of a hard (2.6-4.0) puzzle,
        // but a hard puzzle can have one among its steps.
        let below = refused("hidden_single", Role::Hardest, Difficulty::Hard).unwrap_err();
        assert_eq!(
            below.to_string(),
            "hidden_single steps rate at most 1.5, so a puzzle whose hardest step is one is \
             rated at most 1.5, below this batch's lowest rating 2.6: lower the rating range, \
             or ask for it anywhere (technique_as any)"
        );
        assert_eq!(below.field(), "technique");
        assert!(refused("hidden_single", Role::Any, Difficulty::Hard).is_ok());
        // In its own band, and where its rating is not fixed (chains grow with their length).
        assert!(refused("x_wing", Role::Hardest, Difficulty::Hard).is_ok());
        assert!(refused("forcing_chain", Role::Hardest, Difficulty::Extreme).is_ok());
    }

    /// The same plan run twice gives the same lines; a run resumed from a line's cursor, with
    /// the forms before it, gives the rest of them and the same last line.
    #[test]
    fn a_resumed_run_ends_as_the_whole_one() {
        let plan = Plan::new(request(None)).unwrap();
        let mut engine = crate::engine::Engine::new();
        let budget = crate::engine::Budget::work(DEFAULT_GENERATE_WORK_BUDGET);
        let mut whole = Vec::new();
        let mut run = Run::new(&plan);
        while !run.finished() {
            let made = make(&mut engine, &budget, &plan.asked, run.seed(0));
            if let Some(line) = run.take::<()>(made).unwrap() {
                whole.push(serde_json::to_string(&line).unwrap());
            }
        }
        whole.push(serde_json::to_string(&run.done::<()>()).unwrap());
        let second: serde_json::Value = serde_json::from_str(&whole[1]).unwrap();
        let cursor = second["cursor"].as_str().unwrap().to_string();
        let seen = whole[..2]
            .iter()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
            .map(|line| line["canonical_id"].as_str().unwrap().to_string())
            .collect();
        let resumed_plan = Plan::new(request(Some(&cursor))).unwrap();
        let mut rest = whole[..2].to_vec();
        let mut run = Run::resume(&resumed_plan, seen);
        while !run.finished() {
            let made = make(&mut engine, &budget, &plan.asked, run.seed(0));
            if let Some(line) = run.take::<()>(made).unwrap() {
                rest.push(serde_json::to_string(&line).unwrap());
            }
        }
        rest.push(serde_json::to_string(&run.done::<()>()).unwrap());
        assert_eq!(rest, whole);
    }
}
