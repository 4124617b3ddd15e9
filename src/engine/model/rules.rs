//! The rules a puzzle is played by beyond its grid: [`Rules`], a shape and a list of
//! [`Constraint`]s, one per rule family in play (see `constraints/`). Rows and columns
//! always; the shape's boxes or irregular Jigsaw regions in their place; optionally the
//! families a caller asks for. Every group of `side` cells holding each digit once is a
//! *house*; a cage is a unit too, but not a house.
//!
//! Rules are data, built from a [`RuleSpec`] by [`Rules::new`], which proves everything that
//! can be known without search (each family validates itself), so a solver never meets
//! rules it cannot trust. Their [`Houses`] table is built once, the first time an engine asks.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

pub use super::constraints::cages::{Cage, CageError, Cages};
use super::constraints::regions::{RegionError, Regions};
use super::constraints::windows::{Windows, WindowsNeedNine};
use super::constraints::{self, anti_king::AntiKing, boxes::Boxes, diagonals::Diagonals};
use super::constraints::{anti_knight::AntiKnight, non_consecutive::NonConsecutive};
pub use super::constraints::{
    arrows::Arrow,
    clones::ClonePair,
    diagonals::OneDiagonal,
    dots::{Dot, DotKind, Negative},
    little_killers::{Direction, LittleKiller},
    outside::{Outside, Side},
    quadruples::Quadruple,
    sandwiches::SandwichClue,
    skyscrapers::SkyscraperClue,
    thermometers::Thermometer,
    whispers::Whisper,
    x_sums::XSumClue,
    ConstraintError,
};
use super::constraints::{arrows::Arrows, between_lines::BetweenLines, clones::Clones};
use super::constraints::{disjoint_groups::DisjointGroups, extra_regions::ExtraRegions};
use super::constraints::{dots::Dots, parity::Parity, thermometers::Thermometers};
use super::constraints::{extremes::Extremes, little_killers::LittleKillers};
use super::constraints::{lines::Lines, Constraint, Family, Houses};
use super::constraints::{palindromes::Palindromes, renban::Renban, whispers::Whispers};
use super::constraints::{quadruples::Quadruples, region_sum_lines::RegionSumLines};
use super::constraints::{sandwiches::Sandwiches, skyscrapers::Skyscrapers, x_sums::XSums};
use super::grid::{Cell, Shape};
use super::validate::Unit;

/// The rule fields as a caller describes them, before validation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSpec {
    /// Jigsaw regions in place of the boxes: one label per cell, rows top first.
    pub regions: Option<Vec<Vec<Option<String>>>>,
    /// Both main diagonals are houses (Sudoku X).
    pub diagonals: bool,
    /// One main diagonal alone is a house (when `diagonals` is false).
    pub one_diagonal: Option<OneDiagonal>,
    /// The four windows of a 9x9 Hyper (Windoku) grid are houses.
    pub windows: bool,
    /// No two cells a king's move apart hold the same digit.
    pub anti_king: bool,
    /// No two cells a knight's move apart hold the same digit.
    pub anti_knight: bool,
    /// Orthogonal neighbours never differ by 1.
    pub non_consecutive: bool,
    /// The cells in the same place of every box hold every digit once.
    pub disjoint_groups: bool,
    /// Groups of cells whose digits do not repeat (0-based cells).
    pub extra_regions: Vec<Vec<(usize, usize)>>,
    /// Cells that hold odd digits (0-based).
    pub odd: Vec<(usize, usize)>,
    /// Cells that hold even digits (0-based).
    pub even: Vec<(usize, usize)>,
    /// Thermometers, bulb first.
    pub thermometers: Vec<Thermometer>,
    /// Kropki and XV dots.
    pub dots: Vec<Dot>,
    /// Kinds of dot that are all given.
    pub negative: Vec<Negative>,
    /// German whispers lines.
    pub whispers: Vec<Whisper>,
    /// Palindrome lines (0-based cells from either end).
    pub palindromes: Vec<Vec<(usize, usize)>>,
    /// Renban lines (0-based cells).
    pub renban: Vec<Vec<(usize, usize)>>,
    /// Arrows: circles and lines.
    pub arrows: Vec<Arrow>,
    /// Little killer clues.
    pub little_killers: Vec<LittleKiller>,
    /// Sandwich clues.
    pub sandwiches: Vec<SandwichClue>,
    /// X-sum clues.
    pub x_sums: Vec<XSumClue>,
    /// Skyscraper clues.
    pub skyscrapers: Vec<SkyscraperClue>,
    /// Between lines, bulb to bulb (0-based cells).
    pub between_lines: Vec<Vec<(usize, usize)>>,
    /// Region-sum lines (0-based cells).
    pub region_sum_lines: Vec<Vec<(usize, usize)>>,
    /// Quadruples.
    pub quadruples: Vec<Quadruple>,
    /// Cells smaller than their orthogonal neighbours (0-based).
    pub minimum: Vec<(usize, usize)>,
    /// Cells larger than their orthogonal neighbours (0-based).
    pub maximum: Vec<(usize, usize)>,
    /// Clones: groups of cells holding the same digits cell for cell.
    pub clones: Vec<ClonePair>,
    /// Killer cages.
    pub cages: Vec<Cage>,
}

impl RuleSpec {
    /// Whether no field but the cages is set (a classic or Killer puzzle).
    fn has_only_cages(&self) -> bool {
        // Every field named, so that a new one must be decided on here.
        let RuleSpec {
            regions,
            diagonals,
            one_diagonal,
            windows,
            anti_king,
            anti_knight,
            non_consecutive,
            disjoint_groups,
            extra_regions,
            odd,
            even,
            thermometers,
            dots,
            negative,
            whispers,
            palindromes,
            renban,
            arrows,
            little_killers,
            sandwiches,
            x_sums,
            skyscrapers,
            between_lines,
            region_sum_lines,
            quadruples,
            minimum,
            maximum,
            clones,
            cages: _,
        } = self;
        regions.is_none()
            && !diagonals
            && one_diagonal.is_none()
            && !windows
            && !anti_king
            && !anti_knight
            && !non_consecutive
            && !disjoint_groups
            && extra_regions.is_empty()
            && odd.is_empty()
            && even.is_empty()
            && thermometers.is_empty()
            && dots.is_empty()
            && negative.is_empty()
            && whispers.is_empty()
            && palindromes.is_empty()
            && renban.is_empty()
            && arrows.is_empty()
            && little_killers.is_empty()
            && sandwiches.is_empty()
            && x_sums.is_empty()
            && skyscrapers.is_empty()
            && between_lines.is_empty()
            && region_sum_lines.is_empty()
            && quadruples.is_empty()
            && minimum.is_empty()
            && maximum.is_empty()
            && clones.is_empty()
    }
}

/// Why a rule set cannot be played, for the rule field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error(transparent)]
    Cages(#[from] CageError),
    #[error(transparent)]
    Regions(#[from] RegionError),
    #[error(transparent)]
    WindowsNeedNine(#[from] WindowsNeedNine),
    /// A parity cell, thermometer, dot or extra region is malformed.
    #[error(transparent)]
    Constraint(#[from] ConstraintError),
}

/// Everything a puzzle is played by (see the module docs). Built only from validated parts.
#[derive(Clone, Debug)]
pub struct Rules {
    shape: Shape,
    /// In registry order; always the lines, the boxes or regions, and the cages (maybe none).
    constraints: Vec<Constraint>,
    /// Built from `constraints` on first use.
    houses: OnceLock<Houses>,
}

impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        self.shape == other.shape && self.constraints == other.constraints
    }
}

impl Eq for Rules {}

impl Hash for Rules {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.shape.hash(state);
        self.constraints.hash(state);
    }
}

impl Rules {
    fn of(shape: Shape, mut constraints: Vec<Constraint>) -> Rules {
        constraints::sort(&mut constraints);
        Rules {
            shape,
            constraints,
            houses: OnceLock::new(),
        }
    }

    /// Rows, columns and boxes of `shape`, nothing more.
    pub fn classic(shape: Shape) -> Rules {
        Rules::killer(Cages::none(shape))
    }

    /// The shape's rows, columns and boxes plus Killer cages (validated for that shape).
    pub fn killer(cages: Cages) -> Rules {
        let shape = cages.shape();
        Rules::of(shape, vec![Lines.into(), Boxes.into(), cages.into()])
    }

    /// The rules of `shape` with the cages as a caller describes them (none: classic),
    /// validated against the shape.
    pub fn for_cages(shape: Shape, cages: Vec<Cage>) -> Result<Rules, CageError> {
        Ok(Rules::killer(Cages::new(shape, cages)?))
    }

    /// The rules a caller describes, for a grid of `shape`; the first fault found is the
    /// error (regions, then windows, then cages).
    pub fn new(shape: Shape, spec: RuleSpec) -> Result<Rules, RulesError> {
        // Most requests are classic (or Killer): their rules without the house table and
        // the twenty empty families the general path builds and drops (9,500 of the 64,000
        // instructions of a classic `/solve`).
        if spec.has_only_cages() {
            return Ok(Rules::killer(Cages::new(shape, spec.cages)?));
        }
        Rules::described(shape, spec)
    }

    /// [`Rules::new`] for any rule fields.
    fn described(shape: Shape, spec: RuleSpec) -> Result<Rules, RulesError> {
        let mut constraints: Vec<Constraint> = vec![Lines.into()];
        // Regions that are the shape's boxes are no Jigsaw: the classic rules (and their
        // fast solver, and their puzzle id) apply.
        let regions = spec
            .regions
            .map(|labels| Regions::new(shape, &labels))
            .transpose()?
            .filter(|regions| !regions.are_boxes());
        // The box or region of each cell: region-sum lines split where a line changes it,
        // and the sums along lines know that the cells of one hold distinct digits.
        let house_of = |cell: Cell| match &regions {
            Some(regions) => regions.region_of(cell),
            None => shape.box_of(cell.row(), cell.col()),
        };
        // Only for the families that read it (a table of every cell is 2,800 instructions).
        let houses: Vec<usize> = if spec.arrows.is_empty() && spec.little_killers.is_empty() {
            Vec::new()
        } else {
            shape.all_cells().map(house_of).collect()
        };
        let region_sum_lines = RegionSumLines::new(shape, &spec.region_sum_lines, house_of)?;
        match regions {
            Some(regions) => constraints.push(regions.into()),
            None => constraints.push(Boxes.into()),
        }
        if spec.windows {
            constraints.push(Windows::new(shape)?.into());
        }
        if spec.diagonals {
            constraints.push(Diagonals::BOTH.into());
        } else if let Some(which) = spec.one_diagonal {
            constraints.push(Diagonals::one(which).into());
        }
        if spec.anti_king {
            constraints.push(AntiKing.into());
        }
        if spec.anti_knight {
            constraints.push(AntiKnight.into());
        }
        if spec.non_consecutive {
            constraints.push(NonConsecutive.into());
        }
        if spec.disjoint_groups {
            constraints.push(DisjointGroups.into());
        }
        let extra_regions = ExtraRegions::new(shape, &spec.extra_regions)?;
        if !extra_regions.is_empty() {
            constraints.push(extra_regions.into());
        }
        let parity = Parity::new(shape, &spec.odd, &spec.even)?;
        if !parity.is_empty() {
            constraints.push(parity.into());
        }
        let thermometers = Thermometers::new(shape, &spec.thermometers)?;
        if !thermometers.is_empty() {
            constraints.push(thermometers.into());
        }
        let dots = Dots::new(shape, &spec.dots, &spec.negative)?;
        if !dots.is_empty() {
            constraints.push(dots.into());
        }
        let whispers = Whispers::new(shape, &spec.whispers)?;
        if !whispers.is_empty() {
            constraints.push(whispers.into());
        }
        let palindromes = Palindromes::new(shape, &spec.palindromes)?;
        if !palindromes.is_empty() {
            constraints.push(palindromes.into());
        }
        let renban = Renban::new(shape, &spec.renban)?;
        if !renban.is_empty() {
            constraints.push(renban.into());
        }
        let arrows = Arrows::new(shape, &spec.arrows)?;
        if !arrows.is_empty() {
            constraints.push(arrows.in_houses(houses.clone()).into());
        }
        let little_killers = LittleKillers::new(shape, &spec.little_killers)?;
        if !little_killers.is_empty() {
            constraints.push(little_killers.in_houses(houses).into());
        }
        let sandwiches = Sandwiches::new(shape, &spec.sandwiches)?;
        if !sandwiches.is_empty() {
            constraints.push(sandwiches.into());
        }
        let x_sums = XSums::new(shape, &spec.x_sums)?;
        if !x_sums.is_empty() {
            constraints.push(x_sums.into());
        }
        let skyscrapers = Skyscrapers::new(shape, &spec.skyscrapers)?;
        if !skyscrapers.is_empty() {
            constraints.push(skyscrapers.into());
        }
        let between_lines = BetweenLines::new(shape, &spec.between_lines)?;
        if !between_lines.is_empty() {
            constraints.push(between_lines.into());
        }
        if !region_sum_lines.is_empty() {
            constraints.push(region_sum_lines.into());
        }
        let quadruples = Quadruples::new(shape, &spec.quadruples)?;
        if !quadruples.is_empty() {
            constraints.push(quadruples.into());
        }
        let extremes = Extremes::new(shape, &spec.minimum, &spec.maximum)?;
        if !extremes.is_empty() {
            constraints.push(extremes.into());
        }
        let clones = Clones::new(shape, &spec.clones)?;
        if !clones.is_empty() {
            constraints.push(clones.into());
        }
        constraints.push(Cages::new(shape, spec.cages)?.into());
        Ok(Rules::of(shape, constraints))
    }

    /// The shape the rules were made for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Every constraint, in registry order (the renderer draws each by its family).
    pub(crate) fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// The constraint of family `T`, when the rules have one.
    pub(crate) fn get<T: Family>(&self) -> Option<&T> {
        self.constraints.iter().find_map(Constraint::get)
    }

    /// The house table: every house and forbidden pair of every constraint.
    pub fn house_table(&self) -> &Houses {
        self.houses
            .get_or_init(|| Houses::build(self.shape, &self.constraints))
    }

    /// The cages (none for a classic puzzle).
    pub fn cages(&self) -> &Cages {
        // Both callers of `Rules::of` (`killer` and `new`) pass a `Cages`, empty or not.
        self.get::<Cages>()
            .unwrap_or_else(|| unreachable!("Rules::of is always given the cages"))
    }

    /// The Jigsaw regions, when they replace the boxes.
    pub fn regions(&self) -> Option<&Regions> {
        self.get::<Regions>()
    }

    /// The same rules with the Jigsaw regions `region_of` (each cell's, reading order) in
    /// place of these (a canonical form's: the grid moved, and the regions with it; the
    /// other rules are ones the move keeps).
    pub(crate) fn with_regions(&self, region_of: &[u8]) -> Rules {
        let side = self.shape.side();
        let labels: Vec<Vec<Option<String>>> = region_of
            .chunks(side)
            .map(|row| row.iter().map(|r| Some(r.to_string())).collect())
            .collect();
        let regions = Regions::new(self.shape, &labels)
            .unwrap_or_else(|e| unreachable!("moved regions are regions: {e}"));
        let constraints = (self.constraints.iter())
            .map(|constraint| match constraint {
                Constraint::Regions(_) => regions.clone().into(),
                other => other.clone(),
            })
            .collect();
        Rules::of(self.shape, constraints)
    }

    /// Whether both main diagonals are houses.
    pub fn diagonals(&self) -> bool {
        self.get::<Diagonals>().is_some_and(|d| d.both())
    }

    /// The one main diagonal that is a house, when only one is.
    pub fn one_diagonal(&self) -> Option<OneDiagonal> {
        self.get::<Diagonals>().and_then(|d| d.alone())
    }

    /// Whether the four Hyper windows are houses.
    pub fn windows(&self) -> bool {
        self.get::<Windows>().is_some()
    }

    /// Only rows, columns and boxes: nothing a classic solver would miss.
    pub fn is_classic(&self) -> bool {
        self.constraints.iter().all(|c| c.family().is_classic())
    }

    /// Whether the rules constrain cells outside the houses: forbidden pairs, domains or
    /// relations (the logic engine's techniques read houses only, so it does not take such
    /// rules).
    pub fn reaches_beyond_houses(&self) -> bool {
        self.house_table().reaches_beyond_houses()
    }

    /// The unit of a rule that reaches beyond the houses, if one does (see
    /// [`Houses::first_beyond_houses`]).
    pub fn first_beyond_houses(&self) -> Option<Unit> {
        self.house_table().first_beyond_houses()
    }

    /// The 0-based box (or Jigsaw region) of `cell`.
    pub fn region_of(&self, cell: Cell) -> usize {
        match self.regions() {
            Some(regions) => regions.region_of(cell),
            None => self.shape.box_of(cell.row(), cell.col()),
        }
    }

    /// Whether a full grid meets what the houses cannot say (every cage's sum).
    pub(crate) fn holds(&self, grid: &crate::engine::model::grid::Grid) -> bool {
        self.constraints.iter().all(|c| c.family().holds(grid))
    }

    /// Writes every constraint's part of the puzzle id, in registry order.
    pub(crate) fn identify(&self, hash: &mut dyn std::fmt::Write) {
        for constraint in &self.constraints {
            constraint.family().identify(hash);
        }
    }

    /// "9x9", "9x9 Killer", "9x9 Jigsaw X": how a puzzle under these rules is named in
    /// messages.
    pub fn kind(&self) -> String {
        let side = self.shape.side();
        let mut words: Vec<(u8, &str)> = self
            .constraints
            .iter()
            .filter_map(|c| c.family().kind_word())
            .collect();
        words.sort_unstable();
        let mut name = format!("{side}x{side}");
        for (_, word) in words {
            name.push(' ');
            name.push_str(word);
        }
        name
    }

    /// The houses (units holding every digit once): rows, columns, boxes or regions, then
    /// whatever the other families add.
    pub fn houses(&self) -> impl Iterator<Item = Unit> + '_ {
        self.house_table().complete().map(|house| house.unit)
    }

    /// Every unit checked for repeats with its cells: the houses, then the cages.
    pub fn units(&self) -> impl Iterator<Item = (Unit, Vec<Cell>)> + '_ {
        self.house_table()
            .checked()
            .map(|house| (house.unit, house.cells.clone()))
    }

    /// The cells of `unit` under these rules, in reading order (none for a unit the rules do
    /// not have).
    pub fn cells_of(&self, unit: Unit) -> Vec<Cell> {
        self.house_table().cells_of(unit).to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::cages::Cage;
    use crate::engine::model::constraints::dots::Negative;

    /// The shortcut for classic and Killer fields gives the rules the general path would.
    #[test]
    fn classic_and_killer_fields_take_the_shortcut_to_the_same_rules() {
        for shape in Shape::ALL {
            let general = Rules::described(shape, RuleSpec::default()).unwrap();
            assert_eq!(Rules::new(shape, RuleSpec::default()).unwrap(), general);
            assert_eq!(Rules::classic(shape), general);
        }
        let killer = RuleSpec {
            cages: vec![Cage {
                sum: Some(3),
                cells: vec![(0, 0), (0, 1)],
            }],
            ..RuleSpec::default()
        };
        let general = Rules::described(Shape::NINE, killer.clone()).unwrap();
        assert_eq!(Rules::new(Shape::NINE, killer).unwrap(), general);
        // A cage the shape refuses is the same error either way.
        let outside = RuleSpec {
            cages: vec![Cage {
                sum: Some(3),
                cells: vec![(0, 0), (0, 9)],
            }],
            ..RuleSpec::default()
        };
        assert_eq!(
            Rules::new(Shape::NINE, outside.clone()).unwrap_err(),
            Rules::described(Shape::NINE, outside).unwrap_err()
        );
        // Any other field is a rule the shortcut must not drop.
        let x = RuleSpec {
            diagonals: true,
            ..RuleSpec::default()
        };
        assert!(!x.has_only_cages());
        assert_ne!(
            Rules::new(Shape::NINE, x).unwrap(),
            Rules::classic(Shape::NINE)
        );
        let negative = RuleSpec {
            negative: vec![Negative::Xv],
            ..RuleSpec::default()
        };
        assert!(!negative.has_only_cages());
    }
}
