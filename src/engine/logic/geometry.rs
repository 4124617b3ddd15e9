//! Which cells belong together: the houses of a rule set, its Killer cages, and the peers of
//! each cell.
//!
//! Every technique reads the grid's shape from a [`Geometry`] value instead of assuming rows,
//! columns and boxes, so one logic engine serves classic Sudoku and the 9x9 variants: Sudoku
//! X (two diagonal houses), Hyper (four window houses), Jigsaw (regions in place of the
//! boxes) and Killer (cages: cells that see each other and add up to a sum). Houses are
//! numbered the same way in every geometry: rows 0-8, columns 9-17, boxes or regions 18-26,
//! then the diagonals and windows the rules add, and with the windows the five hidden windows
//! they imply (see `constraints/windows.rs`). Cages are not houses (a digit need not
//! appear in one), so they have their own list; they do make their cells peers.
//!
//! The classic table is built once ([`Geometry::classic`]); a variant's table is built per
//! puzzle ([`Geometry::for_rules`]) and borrowed by the [`Candidates`](super::Candidates) of
//! that puzzle, so no request leaves anything behind.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;

use crate::engine::model::board::{CELLS, SIZE};
use crate::engine::model::constraints::lines::{COLUMN, ROW};
use crate::engine::model::constraints::House;
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::rules::Rules;
use crate::engine::model::validate::Unit;

use super::cellset::CellSet;

/// Houses one cell can be in: its row, column, box or region, both diagonals (the centre),
/// one window or hidden window, and its disjoint group.
const MAX_CELL_HOUSES: usize = 7;

/// The houses of the classic geometry: rows 0-8, columns 9-17, boxes 18-26.
pub(crate) const ROWS: std::ops::Range<usize> = 0..9;
pub(crate) const COLUMNS: std::ops::Range<usize> = 9..18;
pub(crate) const BOXES: std::ops::Range<usize> = 18..27;
/// Where the houses a variant adds (diagonals, windows) start.
const EXTRAS: usize = 27;

/// A Killer cage as the logic engine sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CageArea {
    /// The cage as named in explanations (`cage 3`).
    pub(crate) unit: Unit,
    pub(crate) cells: CellSet,
    pub(crate) sum: u32,
}

/// A union of houses the rule of 45 reasons about: one house, up to four neighbouring rows
/// or columns, or two neighbouring boxes; with the cages it holds wholly, the cages it shares
/// with the rest of the grid, and its cells in no cage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Area {
    pub(crate) houses: Vec<usize>,
    pub(crate) cells: CellSet,
    pub(crate) inside: Vec<usize>,
    pub(crate) partial: Vec<usize>,
    pub(crate) uncovered: CellSet,
    /// "row 1", "rows 1-3", "boxes 4 and 5".
    pub(crate) name: String,
}

/// Most neighbouring lines an area unites.
const MAX_AREA_LINES: usize = 4;

/// The houses and cages of a rule set and the derived per-cell tables.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Distinguishes tables that are built at different times (caches key on it); equal
    /// tables built twice have different ids, which only costs a cache miss.
    id: u64,
    /// The cells of each house, in the house's own reading order.
    unit_cells: Vec<[u8; SIZE]>,
    /// The same cells as sets.
    unit_sets: Vec<CellSet>,
    /// What each house is called, for explanations.
    units: Vec<Unit>,
    /// The other cells that share a house or a cage with each cell.
    peers: Box<[CellSet; CELLS]>,
    /// The other cells that share a house with each cell (cages left out).
    house_peers: Box<[CellSet; CELLS]>,
    /// Bit `k` set when the cell is in house `k`.
    cell_units: Box<[u64; CELLS]>,
    /// The houses of each cell in the order chains visit them: box or region, row, column,
    /// then diagonals and windows; `cell_house_count` of them are used.
    cell_houses: Box<[[u8; MAX_CELL_HOUSES]; CELLS]>,
    cell_house_count: Box<[u8; CELLS]>,
    /// The houses in the order SE scans them for singles and subsets: boxes, columns, rows,
    /// then the extra houses.
    scan_order: Vec<usize>,
    cages: Vec<CageArea>,
    /// The areas of the rule of 45 (none without cages).
    areas: Vec<Area>,
    /// The cage (index into `cages`) holding each cell.
    cage_of: Box<[Option<u8>; CELLS]>,
    /// Boxes are the plain 3x3 boxes (not Jigsaw regions), so box/line groupings apply.
    standard_boxes: bool,
    /// Only rows, columns and boxes.
    classic: bool,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

static CLASSIC: LazyLock<Geometry> = LazyLock::new(|| {
    Geometry::build(&Rules::classic(Shape::NINE), 0).expect("the classic rules are 9x9")
});

impl Geometry {
    /// Plain Sudoku: houses 0-8 are the rows, 9-17 the columns, 18-26 the boxes.
    pub fn classic() -> &'static Geometry {
        &CLASSIC
    }

    /// The geometry of a 9x9 puzzle under `rules` (any combination of houses and cages);
    /// `None` for other sizes, and for rules that constrain cells outside the houses
    /// (anti-king, dots, thermometers), which the logic engine does not cover: its techniques reason over houses.
    pub fn for_rules(rules: &Rules) -> Option<Geometry> {
        Geometry::build(rules, NEXT_ID.fetch_add(1, Ordering::Relaxed))
    }

    fn build(rules: &Rules, id: u64) -> Option<Geometry> {
        // The Killer techniques reason over sums: a cage without one reaches beyond the
        // houses, and is left to the general path (basic marks and singles) like the other
        // rules beyond them.
        if rules.shape() != Shape::NINE || rules.reaches_beyond_houses() {
            return None;
        }
        let index = |cell: Cell| cell.row() * SIZE + cell.col();
        let houses: Vec<&House> = rules.house_table().logic().collect();
        let units: Vec<Unit> = houses.iter().map(|house| house.unit).collect();
        let unit_cells: Vec<[u8; SIZE]> = houses
            .iter()
            .map(|house| std::array::from_fn(|i| index(house.cells[i]) as u8))
            .collect();
        let unit_sets: Vec<CellSet> = unit_cells
            .iter()
            .map(|cells| cells.iter().map(|&c| c as usize).collect())
            .collect();
        let cages: Vec<CageArea> = (rules.house_table().distinct_sums().iter())
            .map(|summed| CageArea {
                unit: summed.unit,
                cells: summed.cells.iter().map(|&c| index(c)).collect(),
                sum: summed.total,
            })
            .collect();
        let mut cage_of = Box::new([None; CELLS]);
        for (k, cage) in cages.iter().enumerate() {
            for c in cage.cells.iter() {
                cage_of[c] = Some(k as u8);
            }
        }
        let mut cell_units = Box::new([0u64; CELLS]);
        for (k, set) in unit_sets.iter().enumerate() {
            for c in set.iter() {
                cell_units[c] |= 1 << k;
            }
        }
        let mut house_peers = Box::new([CellSet::EMPTY; CELLS]);
        for (c, peer) in house_peers.iter_mut().enumerate() {
            for (k, set) in unit_sets.iter().enumerate() {
                if cell_units[c] >> k & 1 != 0 {
                    *peer |= *set;
                }
            }
            peer.remove(c);
        }
        let mut peers = house_peers.clone();
        for (c, peer) in peers.iter_mut().enumerate() {
            if let Some(k) = cage_of[c] {
                *peer |= cages[usize::from(k)].cells;
            }
            peer.remove(c);
        }
        let mut cell_houses = Box::new([[0u8; MAX_CELL_HOUSES]; CELLS]);
        let mut cell_house_count = Box::new([0u8; CELLS]);
        for c in 0..CELLS {
            let order = [BOXES, ROWS, COLUMNS, EXTRAS..units.len()];
            let houses = order
                .into_iter()
                .flatten()
                .filter(|&k| cell_units[c] >> k & 1 != 0);
            for (slot, k) in houses.enumerate() {
                cell_houses[c][slot] = k as u8;
                cell_house_count[c] = slot as u8 + 1;
            }
        }
        let extras: Vec<usize> = (EXTRAS..units.len()).collect();
        let scan_order: Vec<usize> = [BOXES, COLUMNS, ROWS]
            .into_iter()
            .flatten()
            .chain(extras.iter().copied())
            .collect();
        // The third nine houses are the boxes, or the Jigsaw regions in their place.
        let standard_boxes = BOXES.into_iter().all(|k| {
            let in_box = |&c: &u8| Shape::NINE.box_of(usize::from(c) / SIZE, usize::from(c) % SIZE);
            unit_cells[k].iter().all(|c| in_box(c) == k - BOXES.start)
        });
        let classic = rules.is_classic();
        let areas = if cages.is_empty() {
            Vec::new()
        } else {
            areas(&units, &unit_sets, &cages, standard_boxes)
        };
        Some(Geometry {
            id,
            unit_cells,
            unit_sets,
            units,
            peers,
            house_peers,
            cell_units,
            cell_houses,
            cell_house_count,
            scan_order,
            cages,
            areas,
            cage_of,
            standard_boxes,
            classic,
        })
    }

    /// Tells tables apart for caches (see the field).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Number of houses.
    pub(crate) fn unit_count(&self) -> usize {
        self.unit_cells.len()
    }

    /// The cells of house `k` in the house's reading order.
    pub(crate) fn cells_of(&self, k: usize) -> &[u8; SIZE] {
        &self.unit_cells[k]
    }

    pub(crate) fn set_of(&self, k: usize) -> CellSet {
        self.unit_sets[k]
    }

    pub(crate) fn unit(&self, k: usize) -> Unit {
        self.units[k]
    }

    /// True for houses a player scans like a box (boxes, Jigsaw regions, Hyper windows)
    /// rather than like a line (rows, columns, diagonals); SE rates a box's singles and
    /// pointing lower than a line's.
    pub(crate) fn is_box_like(&self, k: usize) -> bool {
        self.units[k].kind.is_box_like()
    }

    pub(crate) fn peers(&self, cell: usize) -> CellSet {
        self.peers[cell]
    }

    /// True when two different cells share a house or a cage.
    pub(crate) fn sees(&self, a: usize, b: usize) -> bool {
        self.peers[a].contains(b)
    }

    /// Cells that see every cell of `cells` (none of `cells` itself).
    pub(crate) fn common_peers(&self, cells: CellSet) -> CellSet {
        cells
            .iter()
            .fold(CellSet::ALL, |acc, c| acc & self.peers[c])
            - cells
    }

    /// Cells that share a house (not just a cage) with every cell of `cells`, none of
    /// `cells` itself.
    pub(crate) fn common_house_peers(&self, cells: CellSet) -> CellSet {
        cells
            .iter()
            .fold(CellSet::ALL, |acc, c| acc & self.house_peers[c])
            - cells
    }

    /// True when the rules add houses to the classic ones or replace the boxes (X, Hyper,
    /// Jigsaw), whatever their cages.
    pub(crate) fn has_variant_houses(&self) -> bool {
        self.unit_count() > EXTRAS || !self.standard_boxes
    }

    /// The houses holding all of `cells`, as a bit mask over house indices (all houses for
    /// no cells).
    pub(crate) fn units_holding(&self, cells: CellSet) -> u64 {
        cells
            .iter()
            .fold(u64::MAX, |acc, c| acc & self.cell_units[c])
    }

    /// A house holding all of `cells`, preferring the order rows, columns, boxes, extras;
    /// `None` when they are spread over several houses (or `cells` is empty).
    pub(crate) fn shared_unit(&self, cells: CellSet) -> Option<usize> {
        cells.first()?;
        let common = self.units_holding(cells);
        (common != 0).then(|| common.trailing_zeros() as usize)
    }

    /// The houses of `cell` in the order chains visit them: box or region, row, column,
    /// then diagonals and windows.
    pub(crate) fn houses_of(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.cell_houses[cell][..usize::from(self.cell_house_count[cell])]
            .iter()
            .map(|&k| usize::from(k))
    }

    /// Every house in SE's scanning order for singles and subsets.
    pub(crate) fn scan_order(&self) -> &[usize] {
        &self.scan_order
    }

    /// The Killer cages (none without cages).
    pub(crate) fn cages(&self) -> &[CageArea] {
        &self.cages
    }

    /// The areas the rule of 45 looks at, singles houses first (none without cages).
    pub(crate) fn areas(&self) -> &[Area] {
        &self.areas
    }

    /// The cage holding `cell`, as an index into [`cages`](Self::cages).
    pub(crate) fn cage_of(&self, cell: usize) -> Option<usize> {
        self.cage_of[cell].map(usize::from)
    }

    /// True when houses 18-26 are the plain 3x3 boxes (every geometry but Jigsaw's).
    pub(crate) fn has_standard_boxes(&self) -> bool {
        self.standard_boxes
    }

    /// True for the classic rows, columns and boxes.
    pub(crate) fn is_classic(&self) -> bool {
        self.classic
    }
}

/// The rule of 45's areas: every house, then 2 to [`MAX_AREA_LINES`] neighbouring rows and
/// columns, then (plain boxes only) two neighbouring boxes side by side or one above the
/// other.
fn areas(units: &[Unit], sets: &[CellSet], cages: &[CageArea], standard_boxes: bool) -> Vec<Area> {
    let mut groups: Vec<(Vec<usize>, String)> = (0..units.len())
        .map(|k| (vec![k], units[k].to_string()))
        .collect();
    for (lines, kind) in [(ROWS, ROW), (COLUMNS, COLUMN)] {
        for len in 2..=MAX_AREA_LINES {
            for first in 0..=SIZE - len {
                let houses: Vec<usize> = (lines.start + first..lines.start + first + len).collect();
                let name = format!("{} {}-{}", kind.plural(), first + 1, first + len);
                groups.push((houses, name));
            }
        }
    }
    if standard_boxes {
        let pairs = (0..SIZE)
            .filter(|b| b % 3 < 2)
            .map(|b| (b, b + 1))
            .chain((0..6).map(|b| (b, b + 3)));
        for (a, b) in pairs {
            let name = format!("boxes {} and {}", a + 1, b + 1);
            groups.push((vec![BOXES.start + a, BOXES.start + b], name));
        }
    }
    let covered = cages.iter().fold(CellSet::EMPTY, |acc, c| acc | c.cells);
    groups
        .into_iter()
        .map(|(houses, name)| {
            let cells = houses.iter().fold(CellSet::EMPTY, |acc, &k| acc | sets[k]);
            let (inside, partial): (Vec<usize>, Vec<usize>) = (0..cages.len())
                .filter(|&i| !(cages[i].cells & cells).is_empty())
                .partition(|&i| cages[i].cells.is_subset(cells));
            Area {
                houses,
                cells,
                inside,
                partial,
                uncovered: cells - covered,
                name,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::diagonals::DIAGONAL;
    use crate::engine::model::constraints::regions::REGION;
    use crate::engine::model::constraints::windows::{HIDDEN_WINDOW, WINDOW};
    use crate::engine::model::rules::{Cage, RuleSpec};

    #[test]
    fn classic_tables_match_units_and_peers() {
        let g = Geometry::classic();
        assert_eq!(g.unit_count(), 27);
        assert!(g.is_classic() && g.has_standard_boxes());
        for k in 0..27 {
            let Unit { kind, index } = g.unit(k);
            let expected: Vec<usize> = (0..9)
                .map(|i| {
                    if kind == ROW {
                        index * 9 + i
                    } else if kind == COLUMN {
                        i * 9 + index
                    } else {
                        let (row, col) = Shape::NINE.box_cell(index, i);
                        row * 9 + col
                    }
                })
                .collect();
            let got: Vec<usize> = g.cells_of(k).iter().map(|&i| i as usize).collect();
            assert_eq!(got, expected);
            assert_eq!(g.set_of(k).len(), 9);
        }
        for c in 0..81 {
            assert_eq!(g.peers(c).len(), 20);
            assert!(!g.peers(c).contains(c));
            let houses: Vec<usize> = g.houses_of(c).collect();
            let (r, col) = (c / 9, c % 9);
            assert_eq!(houses, [18 + (r / 3) * 3 + col / 3, r, 9 + col]);
        }
        let row_pair: CellSet = [0, 5].into_iter().collect();
        assert_eq!(g.shared_unit(row_pair), Some(0));
        let box_pair: CellSet = [0, 10].into_iter().collect();
        assert_eq!(g.shared_unit(box_pair), Some(18));
        assert_eq!(g.common_peers(row_pair).len(), 7);
        let order: Vec<usize> = g.scan_order().to_vec();
        assert_eq!(&order[..3], [18, 19, 20]);
        assert_eq!(&order[24..], [6, 7, 8]);
        assert!(g.cages().is_empty() && !g.has_variant_houses());
    }

    #[test]
    fn variant_houses_and_cages_make_peers() {
        let rules = Rules::new(
            Shape::NINE,
            RuleSpec {
                diagonals: true,
                windows: true,
                cages: vec![Cage {
                    sum: Some(10),
                    cells: vec![(0, 0), (0, 1), (1, 1), (2, 1)],
                }],
                ..RuleSpec::default()
            },
        )
        .unwrap();
        let g = Geometry::for_rules(&rules).unwrap();
        assert!(!g.is_classic() && g.has_standard_boxes() && g.has_variant_houses());
        assert_eq!(g.unit_count(), 27 + 2 + 4 + 5);
        assert_eq!(g.unit(27).kind, DIAGONAL);
        assert_eq!(g.unit(29).kind, WINDOW);
        // The windows imply five more: the first is rows 1, 5, 9 by columns 1, 5, 9.
        assert_eq!(g.unit(33).kind, HIDDEN_WINDOW);
        let corners: CellSet = [0, 4, 8, 36, 40, 44, 72, 76, 80].into_iter().collect();
        assert_eq!(g.set_of(33), corners);
        let second: Vec<u8> = g.cells_of(34).to_vec();
        assert_eq!(second, [1, 2, 3, 37, 38, 39, 73, 74, 75]);
        assert_eq!(
            g.unit(34).to_string(),
            "hidden window 2 (rows 1, 5, 9, columns 2-4)"
        );
        assert_eq!(
            g.unit(36).to_string(),
            "hidden window 4 (rows 2-4, columns 1, 5, 9)"
        );
        // Every cell is in exactly one window or hidden window.
        for c in 0..CELLS {
            let windows = g.houses_of(c).filter(|&k| k >= 29).count();
            assert_eq!(windows, 1, "cell {c}");
        }
        // The centre is on both diagonals and in the corners' hidden window.
        assert_eq!(g.houses_of(40).collect::<Vec<_>>(), [22, 4, 13, 27, 28, 33]);
        // r2c2 is on the main diagonal and in window 1.
        assert_eq!(g.houses_of(10).collect::<Vec<_>>(), [18, 1, 10, 27, 29]);
        assert!(g.sees(0, 80), "the main diagonal");
        assert!(g.sees(10, 30), "window 1 holds r2c2 and r4c4");
        // r1c1 and r2c4 share no house; r4c4 sees both (main diagonal, column 4).
        let apart: CellSet = [0, 12].into_iter().collect();
        assert!(g.common_house_peers(apart).contains(30));
        // A cage across boxes: r1c3 and r2c4 see each other by it alone, which the house
        // peers leave out; cages alone add no variant house.
        let killer = Geometry::for_rules(
            &Rules::for_cages(
                Shape::NINE,
                vec![Cage {
                    sum: Some(6),
                    cells: vec![(0, 2), (0, 3), (1, 3)],
                }],
            )
            .unwrap(),
        )
        .unwrap();
        let one = CellSet::single(2);
        assert!(killer.common_peers(one).contains(12));
        assert!(!killer.common_house_peers(one).contains(12));
        assert!(!killer.is_classic() && !killer.has_variant_houses());
        // The cage makes r3c2 a peer of r1c1 (they share a box anyway) and of r1c2.
        let cage = &g.cages()[0];
        assert_eq!((cage.sum, cage.cells.len()), (10, 4));
        assert_eq!(g.cage_of(19), Some(0));
        assert_eq!(g.cage_of(2), None);
        assert_eq!(g.scan_order().len(), 38);
        assert_eq!(
            &g.scan_order()[27..],
            [27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37]
        );
        assert!(g.is_box_like(29) && g.is_box_like(33) && !g.is_box_like(27));
        assert_eq!(g.shared_unit([0, 80].into_iter().collect()), Some(27));
        assert_ne!(g.id(), Geometry::classic().id());
    }

    #[test]
    fn jigsaw_regions_take_the_boxes_places() {
        // Each region is a row: legal (nine connected cells), and easy to check.
        let bands: Vec<Vec<Option<String>>> = (0..9)
            .map(|r| (0..9).map(|_| Some(r.to_string())).collect())
            .collect();
        let rules = Rules::new(
            Shape::NINE,
            RuleSpec {
                regions: Some(bands),
                ..RuleSpec::default()
            },
        )
        .unwrap();
        let g = Geometry::for_rules(&rules).unwrap();
        assert!(!g.has_standard_boxes() && !g.is_classic());
        assert_eq!(g.unit(18).kind, REGION);
        assert_eq!(g.set_of(18), g.set_of(0), "region 1 is row 1");
        assert_eq!(g.peers(0).len(), 16, "row and column only");
        assert!(Geometry::for_rules(&Rules::classic(Shape::FOUR)).is_none());
    }
}
