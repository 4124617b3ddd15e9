//! Which cells belong together: the units (houses) of a rule set and the peers of each cell.
//!
//! Every technique reads the grid's shape from a [`Geometry`] value instead of assuming rows,
//! columns and boxes, so that rule sets with more or other units (two diagonals, four extra
//! windows, irregular regions) can reuse the same logic with another table. Only the classic
//! table exists today; techniques that depend on boxes as such (pointing and claiming,
//! uniqueness patterns) say so where they use [`Geometry::is_classic`].

use crate::engine::board::{CELLS, SIZE};
use crate::engine::validate::{Unit, UnitKind};

use super::cellset::CellSet;

/// The units of a rule set and the derived per-cell tables.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// The cells of each unit, in the unit's own reading order.
    unit_cells: &'static [[u8; SIZE]],
    /// The same cells as sets.
    unit_sets: &'static [CellSet],
    /// What each unit is called, for explanations.
    units: &'static [Unit],
    /// The other cells that share a unit with each cell.
    peers: &'static [CellSet; CELLS],
    /// Bit `k` set when the cell is in unit `k`.
    cell_units: &'static [u32; CELLS],
    /// True for plain rows, columns and boxes.
    classic: bool,
}

/// Number of units of classic Sudoku: 9 rows, then 9 columns, then 9 boxes.
pub(crate) const CLASSIC_UNITS: usize = 27;

impl Geometry {
    /// Plain Sudoku: units 0-8 are the rows, 9-17 the columns, 18-26 the boxes.
    pub fn classic() -> &'static Geometry {
        &CLASSIC
    }

    pub(crate) fn unit_count(&self) -> usize {
        self.unit_cells.len()
    }

    /// The cells of unit `k` in the unit's reading order.
    pub(crate) fn cells_of(&self, k: usize) -> &[u8; SIZE] {
        &self.unit_cells[k]
    }

    pub(crate) fn set_of(&self, k: usize) -> CellSet {
        self.unit_sets[k]
    }

    pub(crate) fn unit(&self, k: usize) -> Unit {
        self.units[k]
    }

    pub(crate) fn peers(&self, cell: usize) -> CellSet {
        self.peers[cell]
    }

    /// True when two different cells share a unit.
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

    /// The units holding all of `cells`, as a bit mask over unit indices (all units for no
    /// cells).
    pub(crate) fn units_holding(&self, cells: CellSet) -> u32 {
        cells
            .iter()
            .fold(u32::MAX, |acc, c| acc & self.cell_units[c])
    }

    /// A unit holding all of `cells`, preferring the order rows, columns, boxes; `None` when
    /// they are spread over several units (or `cells` is empty).
    pub(crate) fn shared_unit(&self, cells: CellSet) -> Option<usize> {
        cells.first()?;
        let common = self.units_holding(cells);
        (common != 0).then(|| common.trailing_zeros() as usize)
    }

    /// True for the classic rows, columns and boxes.
    pub(crate) fn is_classic(&self) -> bool {
        self.classic
    }
}

/// Classic unit `k` (rows, then columns, then boxes) with its kind and index.
pub(crate) const fn classic_unit(k: usize) -> Unit {
    let kind = match k / SIZE {
        0 => UnitKind::Row,
        1 => UnitKind::Column,
        _ => UnitKind::Box,
    };
    Unit {
        kind,
        index: k % SIZE,
    }
}

const fn classic_cells() -> [[u8; SIZE]; CLASSIC_UNITS] {
    let mut units = [[0u8; SIZE]; CLASSIC_UNITS];
    let mut k = 0;
    while k < SIZE {
        let mut i = 0;
        while i < SIZE {
            units[k][i] = (k * SIZE + i) as u8;
            units[SIZE + k][i] = (i * SIZE + k) as u8;
            let row = (k / 3) * 3 + i / 3;
            let col = (k % 3) * 3 + i % 3;
            units[2 * SIZE + k][i] = (row * SIZE + col) as u8;
            i += 1;
        }
        k += 1;
    }
    units
}

const CLASSIC_CELLS: [[u8; SIZE]; CLASSIC_UNITS] = classic_cells();

const fn classic_sets() -> [CellSet; CLASSIC_UNITS] {
    let mut sets = [CellSet::EMPTY; CLASSIC_UNITS];
    let mut k = 0;
    while k < CLASSIC_UNITS {
        let mut i = 0;
        while i < SIZE {
            sets[k] = sets[k].union(CellSet::single(CLASSIC_CELLS[k][i] as usize));
            i += 1;
        }
        k += 1;
    }
    sets
}

const CLASSIC_SETS: [CellSet; CLASSIC_UNITS] = classic_sets();

const fn classic_cell_units() -> [u32; CELLS] {
    let mut out = [0u32; CELLS];
    let mut k = 0;
    while k < CLASSIC_UNITS {
        let mut i = 0;
        while i < SIZE {
            out[CLASSIC_CELLS[k][i] as usize] |= 1 << k;
            i += 1;
        }
        k += 1;
    }
    out
}

const CLASSIC_CELL_UNITS: [u32; CELLS] = classic_cell_units();

const fn classic_peers() -> [CellSet; CELLS] {
    let mut peers = [CellSet::EMPTY; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut k = 0;
        while k < CLASSIC_UNITS {
            if CLASSIC_CELL_UNITS[c] >> k & 1 != 0 {
                peers[c] = peers[c].union(CLASSIC_SETS[k]);
            }
            k += 1;
        }
        peers[c] = peers[c].intersect(CellSet::single(c).not_const());
        c += 1;
    }
    peers
}

const fn classic_units() -> [Unit; CLASSIC_UNITS] {
    let mut units = [classic_unit(0); CLASSIC_UNITS];
    let mut k = 0;
    while k < CLASSIC_UNITS {
        units[k] = classic_unit(k);
        k += 1;
    }
    units
}

static CLASSIC_PEERS: [CellSet; CELLS] = classic_peers();
static CLASSIC_UNIT_LIST: [Unit; CLASSIC_UNITS] = classic_units();
static CLASSIC_UNIT_CELLS: [[u8; SIZE]; CLASSIC_UNITS] = CLASSIC_CELLS;
static CLASSIC_UNIT_SETS: [CellSet; CLASSIC_UNITS] = CLASSIC_SETS;
static CLASSIC_CELL_UNIT_MASKS: [u32; CELLS] = CLASSIC_CELL_UNITS;

static CLASSIC: Geometry = Geometry {
    unit_cells: &CLASSIC_UNIT_CELLS,
    unit_sets: &CLASSIC_UNIT_SETS,
    units: &CLASSIC_UNIT_LIST,
    peers: &CLASSIC_PEERS,
    cell_units: &CLASSIC_CELL_UNIT_MASKS,
    classic: true,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grid::{Cell, Shape};

    #[test]
    fn classic_tables_match_units_and_peers() {
        let g = Geometry::classic();
        assert_eq!(g.unit_count(), 27);
        for k in 0..27 {
            let expected: Vec<usize> = g.unit(k).cells_in(Shape::NINE).map(Cell::index).collect();
            let got: Vec<usize> = g.cells_of(k).iter().map(|&i| i as usize).collect();
            assert_eq!(got, expected);
            assert_eq!(g.set_of(k).len(), 9);
        }
        for c in 0..81 {
            assert_eq!(g.peers(c).len(), 20);
            assert!(!g.peers(c).contains(c));
        }
        let row_pair: CellSet = [0, 5].into_iter().collect();
        assert_eq!(g.shared_unit(row_pair), Some(0));
        let box_pair: CellSet = [0, 10].into_iter().collect();
        assert_eq!(g.shared_unit(box_pair), Some(18));
        assert_eq!(g.common_peers(row_pair).len(), 7);
    }
}
