//! The record of what one assumption derived: every node with the parents it was first
//! derived from, in derivation order, and the contradiction that ended it. Filled by
//! [`propagate`](super::propagate) and by the nested techniques
//! ([`nested`](super::nested)), and read by the chain searches to measure and build their
//! chains; kept apart so those two can both write it without importing each other.

use super::{is_on, Node, NodeSet, NODES};

/// A node derived at the contradiction but not stored (its negation was already there).
#[derive(Clone, Debug)]
pub(crate) struct Fresh {
    pub(crate) node: Node,
    pub(crate) parents: Vec<Node>,
}

/// One side of a contradiction.
#[derive(Clone, Debug)]
pub(crate) enum Side {
    Stored(Node),
    Fresh(Fresh),
}

/// The consequences of one assumption.
pub(crate) struct Propagation {
    /// For each node: 0 when not derived, else its index + 1 in `entries`.
    slot: Vec<u32>,
    entries: Vec<Entry>,
    parents: Vec<Node>,
    /// The derived "on" and "off" nodes in the order they were derived.
    pub(crate) ons: Vec<Node>,
    pub(crate) offs: Vec<Node>,
    /// The contradiction that stopped the propagation: (on side, off side).
    pub(crate) contradiction: Option<(Side, Side)>,
    /// What it took, in chain operations: the nodes it derived. (With nesting, the techniques
    /// on its reduced grid count their own work.)
    pub(crate) work: u64,
}

#[derive(Clone, Copy)]
struct Entry {
    parents_start: u32,
    parents_len: u16,
    /// Length of the longest parent path back to the assumption: a cheap lower bound of the
    /// ancestor count (which is at least `depth + 1`).
    depth: u16,
}

impl Propagation {
    pub(crate) fn new() -> Propagation {
        Propagation {
            slot: vec![0; NODES],
            entries: Vec::new(),
            parents: Vec::new(),
            ons: Vec::new(),
            offs: Vec::new(),
            contradiction: None,
            work: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        for &n in self.ons.iter().chain(&self.offs) {
            self.slot[n as usize] = 0;
        }
        self.entries.clear();
        self.parents.clear();
        self.ons.clear();
        self.offs.clear();
        self.contradiction = None;
        self.work = 0;
    }

    pub(crate) fn contains(&self, n: Node) -> bool {
        self.slot[n as usize] != 0
    }

    fn entry(&self, n: Node) -> Option<&Entry> {
        match self.slot[n as usize] {
            0 => None,
            i => Some(&self.entries[i as usize - 1]),
        }
    }

    fn parents_of(&self, n: Node) -> &[Node] {
        match self.entry(n) {
            Some(e) => {
                let start = e.parents_start as usize;
                &self.parents[start..start + usize::from(e.parents_len)]
            }
            None => &[],
        }
    }

    /// A lower bound of [`Propagation::ancestors`] for a stored node.
    pub(crate) fn depth(&self, n: Node) -> usize {
        self.entry(n).map_or(0, |e| usize::from(e.depth))
    }

    /// Adds an "off" node derived by a technique on the reduced grid (nesting).
    pub(crate) fn add_nested(&mut self, n: Node, parents: &[Node]) {
        self.add(n, parents);
    }

    pub(super) fn add(&mut self, n: Node, parents: &[Node]) {
        let depth = parents
            .iter()
            .filter_map(|&p| self.entry(p))
            .map(|e| e.depth + 1)
            .max()
            .unwrap_or(0);
        self.entries.push(Entry {
            parents_start: self.parents.len() as u32,
            parents_len: parents.len() as u16,
            depth,
        });
        self.parents.extend_from_slice(parents);
        self.slot[n as usize] = self.entries.len() as u32;
        if is_on(n) {
            self.ons.push(n);
        } else {
            self.offs.push(n);
        }
    }

    /// SE's complexity of the chain ending at `n`: the number of distinct nodes it was derived
    /// from, itself included.
    pub(crate) fn ancestors(&self, n: Node) -> usize {
        self.count_from(&[n], None)
    }

    /// The same for one side of a contradiction.
    pub(crate) fn side_ancestors(&self, side: &Side) -> usize {
        match side {
            Side::Stored(n) => self.ancestors(*n),
            Side::Fresh(f) => self.count_from(&f.parents, Some(f.node)),
        }
    }

    fn count_from(&self, starts: &[Node], extra: Option<Node>) -> usize {
        let mut seen = NodeSet::EMPTY;
        let mut stack: Vec<Node> = Vec::with_capacity(64);
        let mut count = 0;
        if let Some(e) = extra {
            seen.insert(e);
            count += 1;
        }
        for &s in starts {
            if seen.insert(s) {
                count += 1;
                stack.push(s);
            }
        }
        while let Some(n) = stack.pop() {
            for &p in self.parents_of(n) {
                if seen.insert(p) {
                    count += 1;
                    stack.push(p);
                }
            }
        }
        count
    }
}
