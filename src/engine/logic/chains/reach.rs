//! Which nodes a chain can reach at all, for every start at once.
//!
//! Most candidates start no static chain; proving that by a full breadth-first search from
//! each of them is most of the cost of a failed search. The links of one grid form a fixed
//! directed graph, so its strongly connected components, visited in reverse topological order,
//! give every node's reachable set as a bitset in one pass; starts whose target is not
//! reachable are skipped without changing which chains are found.

use super::super::candidates::Candidates;
use super::{off_to_on, on_to_off, Grid, Mode, Node, NODES};

const WORDS: usize = NODES.div_ceil(64);

/// The nodes reachable from each node (itself included) under one set of link rules.
pub(crate) struct Reach {
    /// Index of each node's component in `sets`, or `u16::MAX` for absent candidates.
    component: Vec<u16>,
    sets: Vec<[u64; WORDS]>,
    /// The graph itself, kept for the searches that walk it: node `n`'s links are
    /// `targets[start[n]..start[n + 1]]`, in the order the link functions give them.
    start: Vec<u32>,
    targets: Vec<Node>,
    /// The links of the graph (its building cost, in chain operations).
    links: u64,
}

impl Reach {
    pub(crate) fn new(marks: &Candidates, grid: &Grid, mode: Mode) -> Reach {
        // Adjacency in compressed rows over the nodes of present candidates.
        let mut start = vec![0u32; NODES + 1];
        let mut targets: Vec<Node> = Vec::with_capacity(NODES * 8);
        for n in 0..NODES as Node {
            start[n as usize] = targets.len() as u32;
            let (cell, d) = (n as usize / 18, n as usize / 2 % 9);
            if grid.masks[cell] >> d & 1 == 0 {
                continue;
            }
            if n & 1 == 1 {
                on_to_off(marks, grid, n, mode.cell_links, |q| targets.push(q));
            } else {
                off_to_on(marks, grid, n, mode, |q| targets.push(q));
            }
        }
        start[NODES] = targets.len() as u32;
        let edges = |n: usize| &targets[start[n] as usize..start[n + 1] as usize];
        // Iterative Tarjan; components come out in reverse topological order.
        let mut index = vec![u32::MAX; NODES];
        let mut low = vec![0u32; NODES];
        let mut on_stack = vec![false; NODES];
        let mut stack: Vec<usize> = Vec::new();
        let mut component = vec![u16::MAX; NODES];
        let mut sets: Vec<[u64; WORDS]> = Vec::new();
        let mut counter = 0u32;
        let mut call: Vec<(usize, usize)> = Vec::new();
        for root in 0..NODES {
            let (cell, d) = (root / 18, root / 2 % 9);
            if index[root] != u32::MAX || grid.masks[cell] >> d & 1 == 0 {
                continue;
            }
            call.push((root, 0));
            while let Some(&mut (v, ref mut next)) = call.last_mut() {
                if *next == 0 {
                    index[v] = counter;
                    low[v] = counter;
                    counter += 1;
                    stack.push(v);
                    on_stack[v] = true;
                }
                if let Some(&w) = edges(v).get(*next) {
                    *next += 1;
                    let w = w as usize;
                    if index[w] == u32::MAX {
                        call.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let id = sets.len() as u16;
                    let mut set = [0u64; WORDS];
                    let mut members = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component[w] = id;
                        set[w / 64] |= 1 << (w % 64);
                        members.push(w);
                        if w == v {
                            break;
                        }
                    }
                    for &w in &members {
                        for &x in edges(w) {
                            let c = component[x as usize];
                            if c != id && c != u16::MAX {
                                let other = sets[c as usize];
                                for (a, b) in set.iter_mut().zip(other) {
                                    *a |= b;
                                }
                            }
                        }
                    }
                    sets.push(set);
                }
            }
        }
        let links = (targets.len() + sets.len() * WORDS) as u64;
        Reach {
            component,
            sets,
            start,
            targets,
            links,
        }
    }

    /// The nodes `n` links to, as [`on_to_off`] or [`off_to_on`] would list them for the grid
    /// and mode this was built for (none for an absent candidate): a search over the same
    /// grid reads them here rather than working them out again at every expansion.
    pub(crate) fn links_from(&self, n: Node) -> &[Node] {
        &self.targets[self.start[n as usize] as usize..self.start[n as usize + 1] as usize]
    }

    /// What building it took, in chain operations: its links, and the component sets merged.
    pub(crate) fn links(&self) -> u64 {
        self.links
    }

    /// True when `to` can be reached from `from`.
    pub(crate) fn reaches(&self, from: Node, to: Node) -> bool {
        match self.component[from as usize] {
            u16::MAX => false,
            c => self.sets[c as usize][to as usize / 64] >> (to % 64) & 1 != 0,
        }
    }
}

/// True when a chain from `start` could end anywhere in `targets`.
pub(crate) fn any_reached(reach: &Reach, start: Node, targets: &[Node]) -> bool {
    targets.iter().any(|&t| reach.reaches(start, t))
}
