//! The rule fields every puzzle endpoint takes beside `board`, as they are on the wire: the
//! macro that adds them to a request body, [`RuleFields`] (what a request sent) and its
//! conversion into the engine's [`RuleSpec`], and each family's JSON shape. A new rule
//! family is one field in the macro, [`RuleFields`] and [`RuleFields::rules`], and its shape
//! here.

use std::fmt;

use schemars::JsonSchema;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use super::BoardText;
use crate::engine::{
    Arrow, Cage, ClonePair, Direction, Dot, DotKind, LittleKiller, Negative, OneDiagonal, Outside,
    Puzzle, PuzzleError, Quadruple, RuleSpec, Rules, RulesError, SandwichClue, Shape, Side,
    SkyscraperClue, Thermometer, Unit, Whisper, XSumClue,
};

/// The native request fields, named once: the f-puzzles translation writes these (a request
/// that sends `fpuzzles` must send none of them), and refusals point at them.
pub mod native {
    pub const BOARD: &str = "board";
    pub const GIVENS: &str = "givens";
    pub const CAGES: &str = "cages";
    pub const REGIONS: &str = "regions";
    pub const DIAGONALS: &str = "diagonals";
    pub const WINDOWS: &str = "windows";
    pub const ANTI_KING: &str = "anti_king";
    pub const ANTI_KNIGHT: &str = "anti_knight";
    pub const NON_CONSECUTIVE: &str = "non_consecutive";
    pub const DISJOINT_GROUPS: &str = "disjoint_groups";
    pub const ODD: &str = "odd";
    pub const EVEN: &str = "even";
    pub const THERMOMETERS: &str = "thermometers";
    pub const WHISPERS: &str = "whispers";
    pub const PALINDROMES: &str = "palindromes";
    pub const RENBAN: &str = "renban";
    pub const EXTRA_REGIONS: &str = "extra_regions";
    pub const DOTS: &str = "dots";
    pub const NEGATIVE: &str = "negative";
    pub const ARROWS: &str = "arrows";
    pub const LITTLE_KILLERS: &str = "little_killers";
    pub const SANDWICHES: &str = "sandwiches";
    pub const X_SUMS: &str = "x_sums";
    pub const SKYSCRAPERS: &str = "skyscrapers";
    pub const BETWEEN_LINES: &str = "between_lines";
    pub const REGION_SUM_LINES: &str = "region_sum_lines";
    pub const QUADRUPLES: &str = "quadruples";
    pub const MINIMUM: &str = "minimum";
    pub const MAXIMUM: &str = "maximum";
    pub const CLONES: &str = "clones";

    /// Every native field the puzzle is made of: `fpuzzles` replaces all of them.
    pub const PUZZLE_FIELDS: [&str; 30] = [
        BOARD,
        GIVENS,
        CAGES,
        REGIONS,
        DIAGONALS,
        WINDOWS,
        ANTI_KING,
        ANTI_KNIGHT,
        NON_CONSECUTIVE,
        DISJOINT_GROUPS,
        ODD,
        EVEN,
        THERMOMETERS,
        WHISPERS,
        PALINDROMES,
        RENBAN,
        EXTRA_REGIONS,
        DOTS,
        NEGATIVE,
        ARROWS,
        LITTLE_KILLERS,
        SANDWICHES,
        X_SUMS,
        SKYSCRAPERS,
        BETWEEN_LINES,
        REGION_SUM_LINES,
        QUADRUPLES,
        MINIMUM,
        MAXIMUM,
        CLONES,
    ];
}

/// Declares a request body that takes the rule fields every puzzle endpoint shares
/// (`cages`, `regions`, `diagonals`, `windows`) after its own fields, and implements
/// [`HasRules`] for it. A macro rather than `#[serde(flatten)]`, which cannot be combined
/// with `deny_unknown_fields`: a misspelt rule field must be an error, never a silently
/// classic puzzle.
macro_rules! with_rule_fields {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
            /// Killer Sudoku cages.
            #[serde(default, deserialize_with = "objects")]
            pub cages: Option<Vec<CageJson>>,
            /// Jigsaw regions in place of the boxes: a grid of labels, one per cell.
            #[serde(default)]
            pub regions: Option<RegionLabels>,
            /// Both main diagonals are houses too (Sudoku X): `true`; or one alone,
            /// `"main"` (top-left to bottom-right) or `"anti"` (top-right to bottom-left).
            #[serde(default, deserialize_with = "diagonals_field")]
            pub diagonals: DiagonalsJson,
            /// The four 3x3 windows of a 9x9 grid are houses too (Hyper Sudoku, Windoku).
            #[serde(default)]
            pub windows: bool,
            /// No two cells a king's move apart hold the same digit (anti-king).
            #[serde(default)]
            pub anti_king: bool,
            /// No two cells a knight's move apart hold the same digit (anti-knight).
            #[serde(default)]
            pub anti_knight: bool,
            /// Orthogonal neighbours never hold digits that differ by 1.
            #[serde(default)]
            pub non_consecutive: bool,
            /// The cells in the same place of every box hold every digit once.
            #[serde(default)]
            pub disjoint_groups: bool,
            /// Groups of cells whose digits do not repeat.
            #[serde(default, deserialize_with = "objects")]
            pub extra_regions: Option<Vec<CellGroupJson>>,
            /// Cells that hold odd digits, 0-based.
            #[serde(default)]
            pub odd: Option<Vec<CellInput>>,
            /// Cells that hold even digits, 0-based.
            #[serde(default)]
            pub even: Option<Vec<CellInput>>,
            /// Thermometers: digits increase from the bulb (the first cell).
            #[serde(default, deserialize_with = "objects")]
            pub thermometers: Option<Vec<ThermometerJson>>,
            /// Kropki (white, black) and XV dots between orthogonal neighbours.
            #[serde(default, deserialize_with = "objects")]
            pub dots: Option<Vec<DotJson>>,
            /// Kinds of dot that are all given: no other pair of neighbours is in their
            /// relation.
            #[serde(default)]
            pub negative: Option<Vec<NegativeJson>>,
            /// German whispers: neighbours along each line differ by at least a difference.
            #[serde(default, deserialize_with = "objects")]
            pub whispers: Option<Vec<WhisperJson>>,
            /// Palindromes: each line reads the same from either end.
            #[serde(default, deserialize_with = "objects")]
            pub palindromes: Option<Vec<CellGroupJson>>,
            /// Renban: each line holds distinct consecutive digits, in any order.
            #[serde(default, deserialize_with = "objects")]
            pub renban: Option<Vec<CellGroupJson>>,
            /// Arrows: the digits on each arrow's lines add up to its circle.
            #[serde(default, deserialize_with = "objects")]
            pub arrows: Option<Vec<ArrowJson>>,
            /// Little killers: the digits on a diagonal add up to the clue outside the grid.
            #[serde(default, deserialize_with = "objects")]
            pub little_killers: Option<Vec<LittleKillerJson>>,
            /// Sandwiches: the digits between a line's 1 and its largest digit add up to
            /// the clue.
            #[serde(default, deserialize_with = "objects")]
            pub sandwiches: Option<Vec<SumClueJson>>,
            /// X-sums: the first X digits seen from the clue add up to it, X the first digit.
            #[serde(default, deserialize_with = "objects")]
            pub x_sums: Option<Vec<SumClueJson>>,
            /// Skyscrapers: the clue counts the digits taller than every digit before them.
            #[serde(default, deserialize_with = "objects")]
            pub skyscrapers: Option<Vec<SkyscraperJson>>,
            /// Between lines: each inner cell lies strictly between the two ends' digits.
            #[serde(default, deserialize_with = "objects")]
            pub between_lines: Option<Vec<CellGroupJson>>,
            /// Region-sum lines: the line's segments in each box or region have one sum.
            #[serde(default, deserialize_with = "objects")]
            pub region_sum_lines: Option<Vec<CellGroupJson>>,
            /// Quadruples: the digits must appear among the four cells around a corner.
            #[serde(default, deserialize_with = "objects")]
            pub quadruples: Option<Vec<QuadrupleJson>>,
            /// Cells smaller than each orthogonal neighbour, 0-based.
            #[serde(default)]
            pub minimum: Option<Vec<CellInput>>,
            /// Cells larger than each orthogonal neighbour, 0-based.
            #[serde(default)]
            pub maximum: Option<Vec<CellInput>>,
            /// Clones: two groups of cells holding the same digits, cell for cell.
            #[serde(default, deserialize_with = "objects")]
            pub clones: Option<Vec<CloneJson>>,
        }

        impl HasRules for $name {
            fn rule_fields(&self) -> RuleFields<'_> {
                RuleFields {
                    cages: self.cages.as_deref(),
                    regions: self.regions.as_ref(),
                    diagonals: self.diagonals,
                    windows: self.windows,
                    anti_king: self.anti_king,
                    anti_knight: self.anti_knight,
                    non_consecutive: self.non_consecutive,
                    disjoint_groups: self.disjoint_groups,
                    extra_regions: self.extra_regions.as_deref(),
                    odd: self.odd.as_deref(),
                    even: self.even.as_deref(),
                    thermometers: self.thermometers.as_deref(),
                    dots: self.dots.as_deref(),
                    negative: self.negative.as_deref(),
                    whispers: self.whispers.as_deref(),
                    palindromes: self.palindromes.as_deref(),
                    renban: self.renban.as_deref(),
                    arrows: self.arrows.as_deref(),
                    little_killers: self.little_killers.as_deref(),
                    sandwiches: self.sandwiches.as_deref(),
                    x_sums: self.x_sums.as_deref(),
                    skyscrapers: self.skyscrapers.as_deref(),
                    between_lines: self.between_lines.as_deref(),
                    region_sum_lines: self.region_sum_lines.as_deref(),
                    quadruples: self.quadruples.as_deref(),
                    minimum: self.minimum.as_deref(),
                    maximum: self.maximum.as_deref(),
                    clones: self.clones.as_deref(),
                }
            }
        }
    };
}

/// The rule fields of a request, as sent.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleFields<'a> {
    pub cages: Option<&'a [CageJson]>,
    pub regions: Option<&'a RegionLabels>,
    pub diagonals: DiagonalsJson,
    pub windows: bool,
    pub anti_king: bool,
    pub anti_knight: bool,
    pub non_consecutive: bool,
    pub disjoint_groups: bool,
    pub extra_regions: Option<&'a [CellGroupJson]>,
    pub odd: Option<&'a [CellInput]>,
    pub even: Option<&'a [CellInput]>,
    pub thermometers: Option<&'a [ThermometerJson]>,
    pub dots: Option<&'a [DotJson]>,
    pub negative: Option<&'a [NegativeJson]>,
    pub whispers: Option<&'a [WhisperJson]>,
    pub palindromes: Option<&'a [CellGroupJson]>,
    pub renban: Option<&'a [CellGroupJson]>,
    pub arrows: Option<&'a [ArrowJson]>,
    pub little_killers: Option<&'a [LittleKillerJson]>,
    pub sandwiches: Option<&'a [SumClueJson]>,
    pub x_sums: Option<&'a [SumClueJson]>,
    pub skyscrapers: Option<&'a [SkyscraperJson]>,
    pub between_lines: Option<&'a [CellGroupJson]>,
    pub region_sum_lines: Option<&'a [CellGroupJson]>,
    pub quadruples: Option<&'a [QuadrupleJson]>,
    pub minimum: Option<&'a [CellInput]>,
    pub maximum: Option<&'a [CellInput]>,
    pub clones: Option<&'a [CloneJson]>,
}

/// A request body with the shared rule fields.
pub trait HasRules {
    fn rule_fields(&self) -> RuleFields<'_>;

    /// The rules for a grid of `shape`, checked (regions, windows, cages).
    fn rules(&self, shape: Shape) -> Result<Rules, RulesError> {
        self.rule_fields().rules(shape)
    }

    /// The puzzle `board` under these rules (givens must not clash).
    fn puzzle_of(&self, board: &BoardText) -> Result<Puzzle, PuzzleError> {
        let grid = board.parse()?;
        let rules = self.rules(grid.shape())?;
        Puzzle::new(grid, rules)
    }
}

impl RuleFields<'_> {
    /// The rules these fields describe for a grid of `shape`.
    pub fn rules(&self, shape: Shape) -> Result<Rules, RulesError> {
        // Most requests are classic: their rules without the rule set's description of
        // twenty-odd empty families (1,500 of a classic `/solve`'s instructions).
        if self.is_classic() {
            return Ok(Rules::classic(shape));
        }
        self.described(shape)
    }

    /// [`RuleFields::rules`] through the full description, whatever the fields.
    pub(super) fn described(&self, shape: Shape) -> Result<Rules, RulesError> {
        Rules::new(
            shape,
            RuleSpec {
                regions: self.regions.map(|labels| labels.cells(shape.side())),
                diagonals: self.diagonals == DiagonalsJson::Both(true),
                one_diagonal: match self.diagonals {
                    DiagonalsJson::One(OneDiagonalJson::Main) => Some(OneDiagonal::Main),
                    DiagonalsJson::One(OneDiagonalJson::Anti) => Some(OneDiagonal::Anti),
                    DiagonalsJson::Both(_) => None,
                },
                windows: self.windows,
                anti_king: self.anti_king,
                anti_knight: self.anti_knight,
                non_consecutive: self.non_consecutive,
                disjoint_groups: self.disjoint_groups,
                extra_regions: groups_of(self.extra_regions),
                odd: pairs_of(self.odd),
                even: pairs_of(self.even),
                thermometers: self
                    .thermometers
                    .into_iter()
                    .flatten()
                    .map(|t| Thermometer {
                        cells: pairs_of(Some(&t.cells)),
                        slow: t.slow,
                    })
                    .collect(),
                dots: self
                    .dots
                    .into_iter()
                    .flatten()
                    .map(|d| Dot {
                        cells: d.cells.map(|c| (c.row, c.col)),
                        kind: match d.kind {
                            DotKindJson::White => DotKind::White,
                            DotKindJson::Black => DotKind::Black,
                            DotKindJson::X => DotKind::X,
                            DotKindJson::V => DotKind::V,
                        },
                        value: d.value,
                    })
                    .collect(),
                negative: self
                    .negative
                    .into_iter()
                    .flatten()
                    .map(|n| match n {
                        NegativeJson::White => Negative::White,
                        NegativeJson::Black => Negative::Black,
                        NegativeJson::Xv => Negative::Xv,
                    })
                    .collect(),
                whispers: self
                    .whispers
                    .into_iter()
                    .flatten()
                    .map(|w| Whisper {
                        cells: pairs_of(Some(&w.cells)),
                        difference: w.difference,
                    })
                    .collect(),
                palindromes: groups_of(self.palindromes),
                renban: groups_of(self.renban),
                arrows: (self.arrows.into_iter().flatten())
                    .map(|a| Arrow {
                        circle: pairs_of(Some(&a.circle)),
                        lines: a.lines.iter().map(|l| pairs_of(Some(l))).collect(),
                    })
                    .collect(),
                little_killers: (self.little_killers.into_iter().flatten())
                    .map(|k| LittleKiller {
                        start: (k.start.row, k.start.col),
                        direction: k.direction.into(),
                        sum: k.sum,
                    })
                    .collect(),
                sandwiches: (self.sandwiches.into_iter().flatten())
                    .map(|c| SandwichClue {
                        at: c.outside(),
                        sum: c.sum,
                    })
                    .collect(),
                x_sums: (self.x_sums.into_iter().flatten())
                    .map(|c| XSumClue {
                        at: c.outside(),
                        sum: c.sum,
                    })
                    .collect(),
                skyscrapers: (self.skyscrapers.into_iter().flatten())
                    .map(|c| SkyscraperClue {
                        at: Outside {
                            side: c.side.into(),
                            index: c.index,
                        },
                        count: c.count,
                    })
                    .collect(),
                between_lines: groups_of(self.between_lines),
                region_sum_lines: groups_of(self.region_sum_lines),
                quadruples: (self.quadruples.into_iter().flatten())
                    .map(|q| Quadruple {
                        cells: pairs_of(Some(&q.cells)),
                        digits: q.digits.clone(),
                    })
                    .collect(),
                minimum: pairs_of(self.minimum),
                maximum: pairs_of(self.maximum),
                clones: (self.clones.into_iter().flatten())
                    .map(|c| ClonePair {
                        cells: pairs_of(Some(&c.cells)),
                        copy: pairs_of(Some(&c.copy)),
                    })
                    .collect(),
                cages: engine_cages(self.cages),
            },
        )
    }

    /// Whether these fields add nothing to the classic rules (absent, `false` or empty):
    /// no field is sent that would point anywhere.
    pub fn is_classic(&self) -> bool {
        self.first_pointer().is_none()
    }

    /// The JSON pointer of the field a rule the engine names came from: the cage itself
    /// (`/cages/3`), whose place the engine keeps (a cage without a sum among cages with
    /// sums), or the whole field for the others (`/thermometers`); `None` for a unit no field
    /// here makes (rows, columns, boxes).
    pub fn pointer_of(unit: Unit) -> Option<String> {
        let field = match unit.kind.name() {
            "cage" => return Some(format!("/{}/{}", native::CAGES, unit.index)),
            "region" => native::REGIONS,
            "diagonal" => native::DIAGONALS,
            "window" | "hidden_window" => native::WINDOWS,
            "anti_king" => native::ANTI_KING,
            "anti_knight" => native::ANTI_KNIGHT,
            "non_consecutive" => native::NON_CONSECUTIVE,
            "disjoint_group" => native::DISJOINT_GROUPS,
            "extra_region" => native::EXTRA_REGIONS,
            "odd" => native::ODD,
            "even" => native::EVEN,
            "thermometer" => native::THERMOMETERS,
            "dot" => native::DOTS,
            "negative" => native::NEGATIVE,
            "whispers" => native::WHISPERS,
            "palindrome" => native::PALINDROMES,
            "renban" => native::RENBAN,
            "arrow" => native::ARROWS,
            "little_killer" => native::LITTLE_KILLERS,
            "sandwich" => native::SANDWICHES,
            "x_sum" => native::X_SUMS,
            "skyscraper" => native::SKYSCRAPERS,
            "between_line" => native::BETWEEN_LINES,
            "region_sum_line" => native::REGION_SUM_LINES,
            "quadruple" => native::QUADRUPLES,
            "minimum" => native::MINIMUM,
            "maximum" => native::MAXIMUM,
            "clone" => native::CLONES,
            _ => return None,
        };
        Some(format!("/{field}"))
    }

    /// The JSON pointer of the first rule field sent (`/cages`, `/regions`, `/diagonals`,
    /// `/windows`), for a problem about the rule set as a whole; `None` for classic rules.
    pub fn first_pointer(&self) -> Option<&'static str> {
        [
            (self.cages.is_some_and(|c| !c.is_empty()), "/cages"),
            (self.regions.is_some(), "/regions"),
            (self.diagonals != DiagonalsJson::Both(false), "/diagonals"),
            (self.windows, "/windows"),
            (self.anti_king, "/anti_king"),
            (self.anti_knight, "/anti_knight"),
            (self.non_consecutive, "/non_consecutive"),
            (self.disjoint_groups, "/disjoint_groups"),
            (
                self.extra_regions.is_some_and(|r| !r.is_empty()),
                "/extra_regions",
            ),
            (self.odd.is_some_and(|c| !c.is_empty()), "/odd"),
            (self.even.is_some_and(|c| !c.is_empty()), "/even"),
            (
                self.thermometers.is_some_and(|t| !t.is_empty()),
                "/thermometers",
            ),
            (self.dots.is_some_and(|d| !d.is_empty()), "/dots"),
            (self.negative.is_some_and(|n| !n.is_empty()), "/negative"),
            (self.whispers.is_some_and(|w| !w.is_empty()), "/whispers"),
            (
                self.palindromes.is_some_and(|p| !p.is_empty()),
                "/palindromes",
            ),
            (self.renban.is_some_and(|r| !r.is_empty()), "/renban"),
            (self.arrows.is_some_and(|a| !a.is_empty()), "/arrows"),
            (
                self.little_killers.is_some_and(|k| !k.is_empty()),
                "/little_killers",
            ),
            (
                self.sandwiches.is_some_and(|c| !c.is_empty()),
                "/sandwiches",
            ),
            (self.x_sums.is_some_and(|c| !c.is_empty()), "/x_sums"),
            (
                self.skyscrapers.is_some_and(|c| !c.is_empty()),
                "/skyscrapers",
            ),
            (
                self.between_lines.is_some_and(|l| !l.is_empty()),
                "/between_lines",
            ),
            (
                self.region_sum_lines.is_some_and(|l| !l.is_empty()),
                "/region_sum_lines",
            ),
            (
                self.quadruples.is_some_and(|q| !q.is_empty()),
                "/quadruples",
            ),
            (self.minimum.is_some_and(|c| !c.is_empty()), "/minimum"),
            (self.maximum.is_some_and(|c| !c.is_empty()), "/maximum"),
            (self.clones.is_some_and(|c| !c.is_empty()), "/clones"),
        ]
        .into_iter()
        .find_map(|(sent, pointer)| sent.then_some(pointer))
    }
}

/// Jigsaw region labels as sent: row strings (a label per character), one line of all cells,
/// or rows of labels (numbers or strings, null for none). Labels are compared as they are
/// written, never as numbers: `1e300` and `2e300` are two regions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegionLabels {
    /// `["112223333", ...]`
    Rows(Vec<String>),
    /// `"112223333..."`
    Line(String),
    /// `[[1, 1, 2, ...], ...]` or `[["a", "a", "b", ...], ...]`
    Labels(Vec<Vec<Option<String>>>),
}

impl RegionLabels {
    /// The label of each cell, rows top first: each character of a row (or of the line, cut
    /// into rows of `side`), or each label (null: no label).
    pub fn cells(&self, side: usize) -> Vec<Vec<Option<String>>> {
        let of_chars = |row: &[char]| row.iter().map(|c| Some(c.to_string())).collect();
        match self {
            RegionLabels::Rows(rows) => rows
                .iter()
                .map(|row| of_chars(&row.chars().collect::<Vec<_>>()))
                .collect(),
            RegionLabels::Line(line) => {
                let chars: Vec<char> = line.chars().collect();
                chars.chunks(side.max(1)).map(of_chars).collect()
            }
            RegionLabels::Labels(rows) => rows.clone(),
        }
    }
}

impl<'de> Deserialize<'de> for RegionLabels {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        const EXPECTED: &str = "regions as an array of row strings (a label per character), one \
                                string of all cells, or an array of rows of labels (numbers or \
                                strings)";
        let refuse = || de::Error::custom(format!("expected {EXPECTED}"));
        // A label as written: a number keeps its JSON spelling's value exactly (f64's
        // shortest round-trip form), so different numbers stay different labels.
        let label = |value: serde_json::Value| match value {
            serde_json::Value::Null => Ok(None),
            serde_json::Value::String(text) => Ok(Some(text)),
            serde_json::Value::Number(number) => Ok(Some(number.to_string())),
            _ => Err(refuse()),
        };
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(line) => Ok(RegionLabels::Line(line)),
            serde_json::Value::Array(rows) if rows.iter().all(|r| r.is_string()) => {
                Ok(RegionLabels::Rows(
                    rows.into_iter()
                        .filter_map(|r| r.as_str().map(str::to_string))
                        .collect(),
                ))
            }
            serde_json::Value::Array(rows) => rows
                .into_iter()
                .map(|row| match row {
                    serde_json::Value::Array(cells) => cells.into_iter().map(label).collect(),
                    _ => Err(refuse()),
                })
                .collect::<Result<_, _>>()
                .map(RegionLabels::Labels),
            _ => Err(refuse()),
        }
    }
}

/// Cages as sent, as the engine takes them.
pub(super) fn engine_cages(cages: Option<&[CageJson]>) -> Vec<Cage> {
    cages
        .into_iter()
        .flatten()
        .map(|c| Cage {
            sum: c.sum,
            cells: c.cells.iter().map(|cell| (cell.row, cell.col)).collect(),
        })
        .collect()
}

/// Groups or lines of cells as sent, each as 0-based `(row, col)` pairs.
fn groups_of(groups: Option<&[CellGroupJson]>) -> Vec<Vec<(usize, usize)>> {
    groups
        .into_iter()
        .flatten()
        .map(|group| pairs_of(Some(&group.cells)))
        .collect()
}

/// Cells as sent, as 0-based `(row, col)` pairs.
fn pairs_of(cells: Option<&[CellInput]>) -> Vec<(usize, usize)> {
    cells
        .into_iter()
        .flatten()
        .map(|cell| (cell.row, cell.col))
        .collect()
}

/// A thermometer as sent: its cells from the bulb, each the king's-move neighbour of the one
/// before; `slow`: digits never decrease (rather than strictly increase).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThermometerJson {
    pub cells: Vec<CellInput>,
    #[serde(default)]
    pub slow: bool,
}

/// Cells as sent for an extra region (anywhere on the grid), or a palindrome or renban
/// line (each cell touching the one before).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CellGroupJson {
    pub cells: Vec<CellInput>,
}

/// A German whispers line as sent: its cells from either end, each touching the one before,
/// and the least difference between neighbours (default: half the side rounded up).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WhisperJson {
    pub cells: Vec<CellInput>,
    #[serde(default)]
    pub difference: Option<u32>,
}

/// A dot between two orthogonal neighbours.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DotJson {
    pub cells: [CellInput; 2],
    pub kind: DotKindJson,
    /// White: the difference (default 1); black: the ratio (default 2); none for x and v.
    #[serde(default)]
    pub value: Option<u32>,
}

/// What a dot says: white, the digits differ by its value; black, one is its value times
/// the other; x, they sum to 10; v, to 5.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DotKindJson {
    White,
    Black,
    X,
    V,
}

/// A kind of dot that is all given: white (no other neighbours differ by 1), black (none
/// in ratio 2), xv (none sum to 10 or 5).
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NegativeJson {
    White,
    Black,
    Xv,
}

/// A cage as sent: its sum and its cells, 0-based, each as `[row, col]` or `{"row", "col"}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CageJson {
    /// None (or absent): the cage's digits are only distinct.
    #[serde(default)]
    pub sum: Option<u32>,
    pub cells: Vec<CellInput>,
}

/// A cell as sent: `[row, col]` (the compact form) or `{"row": r, "col": c}` (the form every
/// answer uses), 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellInput {
    pub row: usize,
    pub col: usize,
}

impl<'de> Deserialize<'de> for CellInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Named {
            row: usize,
            col: usize,
        }

        struct CellVisitor;

        impl<'de> Visitor<'de> for CellVisitor {
            type Value = CellInput;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a cell as [row, col] or {\"row\": r, \"col\": c}, 0-based")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CellInput, A::Error> {
                let row = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let col = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(CellInput { row, col })
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<CellInput, A::Error> {
                let named = Named::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(CellInput {
                    row: named.row,
                    col: named.col,
                })
            }
        }

        deserializer.deserialize_any(CellVisitor)
    }
}

/// An arrow as sent: its circle (one cell, or a pill of two or three in a straight run, read
/// as a number in reading order) and its lines, each from the cell next to the circle to
/// the tip.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArrowJson {
    pub circle: Vec<CellInput>,
    pub lines: Vec<Vec<CellInput>>,
}

/// Which way a little killer's arrow points along its diagonal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DirectionJson {
    DownRight,
    DownLeft,
    UpRight,
    UpLeft,
}

impl From<DirectionJson> for Direction {
    fn from(direction: DirectionJson) -> Direction {
        match direction {
            DirectionJson::DownRight => Direction::DownRight,
            DirectionJson::DownLeft => Direction::DownLeft,
            DirectionJson::UpRight => Direction::UpRight,
            DirectionJson::UpLeft => Direction::UpLeft,
        }
    }
}

/// A little killer as sent: the diagonal's first cell on the grid (the clue sits one step
/// back, outside the grid), where the arrow points, and the sum.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LittleKillerJson {
    pub start: CellInput,
    pub direction: DirectionJson,
    pub sum: u32,
}

/// The side of the grid an outside clue is written on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SideJson {
    Left,
    Right,
    Top,
    Bottom,
}

impl From<SideJson> for Side {
    fn from(side: SideJson) -> Side {
        match side {
            SideJson::Left => Side::Left,
            SideJson::Right => Side::Right,
            SideJson::Top => Side::Top,
            SideJson::Bottom => Side::Bottom,
        }
    }
}

/// A sandwich or X-sum clue as sent: the side it is written on, the 0-based row (left,
/// right) or column (top, bottom) it faces, and the sum.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SumClueJson {
    pub side: SideJson,
    pub index: usize,
    pub sum: u32,
}

impl SumClueJson {
    fn outside(&self) -> Outside {
        Outside {
            side: self.side.into(),
            index: self.index,
        }
    }
}

/// A skyscraper clue as sent: its side, the row or column it faces, and how many digits it
/// sees.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkyscraperJson {
    pub side: SideJson,
    pub index: usize,
    pub count: u32,
}

/// A quadruple as sent: the four cells of a 2x2 square and the digits (1 to 4, a digit at
/// most twice) that must appear among them.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuadrupleJson {
    pub cells: Vec<CellInput>,
    pub digits: Vec<u32>,
}

/// A clone as sent: cells and their copy, in corresponding order.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloneJson {
    pub cells: Vec<CellInput>,
    pub copy: Vec<CellInput>,
}

/// The `diagonals` field: `true` for both main diagonals (Sudoku X), or one alone by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DiagonalsJson {
    Both(bool),
    One(OneDiagonalJson),
}

/// Reads `diagonals`, saying what it may be when it is something else.
pub(crate) fn diagonals_field<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<DiagonalsJson, D::Error> {
    match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Bool(both) => Ok(DiagonalsJson::Both(both)),
        serde_json::Value::Null => Ok(DiagonalsJson::Both(false)),
        serde_json::Value::String(name) if name == "main" => {
            Ok(DiagonalsJson::One(OneDiagonalJson::Main))
        }
        serde_json::Value::String(name) if name == "anti" => {
            Ok(DiagonalsJson::One(OneDiagonalJson::Anti))
        }
        _ => Err(de::Error::custom(
            "expected true (both main diagonals), false, \"main\" (top-left to bottom-right) \
             or \"anti\" (top-right to bottom-left)",
        )),
    }
}

impl Default for DiagonalsJson {
    fn default() -> DiagonalsJson {
        DiagonalsJson::Both(false)
    }
}

/// One main diagonal: `main` from the top-left corner, `anti` from the top-right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OneDiagonalJson {
    Main,
    Anti,
}
