//! An independent, hand-written reference implementation of Bug
//! (rules: `/work/shared/rules/bug.md`), used only to cross-check the
//! interpreter's perft counts. It deliberately does not use the `tabula`
//! crate. Written for clarity, not speed.
//!
//! Cells are axial `(q, r)` with `max(|q|, |r|, |q + r|) <= side - 1`,
//! stored in a `(2 side - 1)^2` square array (off-board slots unused).
#![allow(dead_code)]

use std::collections::BTreeSet;

/// The six axial neighbour offsets.
const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// A position: board side, stones (0 = Black, 1 = White), player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bug {
    pub side: i32,
    cells: Vec<Option<u8>>,
    pub to_move: u8,
}

/// A complete turn: the Grow cell, then the bonus cells in order.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct BugMove {
    pub grow: (i32, i32),
    pub bonus: Vec<(i32, i32)>,
}

/// The bugs of a position: `label[i]` is the bug index of the stone on
/// cell `i` (`usize::MAX` if empty); `bugs[k]` is (owner, cells).
struct Bugs {
    label: Vec<usize>,
    bugs: Vec<(u8, Vec<usize>)>,
}

/// The canonical form of a set of cells under translation, the six
/// rotations and reflection: the least sorted, translated image.
pub fn canonical(cells: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mut best: Option<Vec<(i32, i32)>> = None;
    let mut cur: Vec<(i32, i32)> = cells.to_vec();
    for refl in 0..2 {
        if refl == 1 {
            // Cube (x, y, z) -> (x, z, y): axial (q, r) -> (q, -q - r).
            cur = cells.iter().map(|&(q, r)| (q, -q - r)).collect();
        }
        for _ in 0..6 {
            // Rotate 60 degrees: cube (x, y, z) -> (-z, -x, -y).
            cur = cur.iter().map(|&(q, r)| (-r, q + r)).collect();
            let mq = cur.iter().map(|c| c.0).min().unwrap_or(0);
            let mr = cur.iter().map(|c| c.1).min().unwrap_or(0);
            let mut img: Vec<(i32, i32)> = cur.iter().map(|&(q, r)| (q - mq, r - mr)).collect();
            img.sort_unstable();
            if best.as_ref().is_none_or(|b| img < *b) {
                best = Some(img);
            }
        }
    }
    best.unwrap_or_default()
}

/// The number of free polyhexes of each size `1..=max` (1, 1, 3, 7, 22, ...).
pub fn free_polyhex_counts(max: usize) -> Vec<usize> {
    let mut level: BTreeSet<Vec<(i32, i32)>> = BTreeSet::from([vec![(0, 0)]]);
    let mut out = vec![1];
    for _ in 1..max {
        let mut next = BTreeSet::new();
        for shape in &level {
            for &(q, r) in shape {
                for (dq, dr) in DIRS {
                    let c = (q + dq, r + dr);
                    if !shape.contains(&c) {
                        let mut s = shape.clone();
                        s.push(c);
                        next.insert(canonical(&s));
                    }
                }
            }
        }
        out.push(next.len());
        level = next;
    }
    out
}

impl Bug {
    /// The empty board of side `side`, Black (player 0) to move.
    pub fn new(side: i32) -> Bug {
        let w = (2 * side - 1) as usize;
        Bug { side, cells: vec![None; w * w], to_move: 0 }
    }

    fn on_board(&self, (q, r): (i32, i32)) -> bool {
        let m = self.side - 1;
        q.abs() <= m && r.abs() <= m && (q + r).abs() <= m
    }

    fn idx(&self, (q, r): (i32, i32)) -> usize {
        assert!(self.on_board((q, r)), "cell ({q}, {r}) is off the board");
        ((q + self.side - 1) * (2 * self.side - 1) + r + self.side - 1) as usize
    }

    fn coord(&self, i: usize) -> (i32, i32) {
        let w = 2 * self.side - 1;
        (i as i32 / w - (self.side - 1), i as i32 % w - (self.side - 1))
    }

    /// Indices of all on-board cells.
    fn board(&self) -> Vec<usize> {
        (0..self.cells.len()).filter(|&i| self.on_board(self.coord(i))).collect()
    }

    /// On-board neighbour indices of cell `i`.
    fn nbrs(&self, i: usize) -> Vec<usize> {
        let (q, r) = self.coord(i);
        DIRS.iter()
            .map(|&(dq, dr)| (q + dq, r + dr))
            .filter(|&c| self.on_board(c))
            .map(|c| self.idx(c))
            .collect()
    }

    pub fn get(&self, q: i32, r: i32) -> Option<u8> {
        self.cells[self.idx((q, r))]
    }

    /// Puts a stone of `owner` (0 = Black, 1 = White) on a cell, or empties it.
    pub fn set(&mut self, q: i32, r: i32, owner: Option<u8>) {
        let i = self.idx((q, r));
        self.cells[i] = owner;
    }

    pub fn set_to_move(&mut self, p: u8) {
        self.to_move = p;
    }

    /// Finds all bugs (maximal same-coloured connected groups).
    fn bugs(&self) -> Bugs {
        let mut label = vec![usize::MAX; self.cells.len()];
        let mut bugs = Vec::new();
        for start in self.board() {
            let Some(owner) = self.cells[start] else { continue };
            if label[start] != usize::MAX {
                continue;
            }
            let k = bugs.len();
            label[start] = k;
            let mut stack = vec![start];
            let mut members = Vec::new();
            while let Some(i) = stack.pop() {
                members.push(i);
                for n in self.nbrs(i) {
                    if self.cells[n] == Some(owner) && label[n] == usize::MAX {
                        label[n] = k;
                        stack.push(n);
                    }
                }
            }
            bugs.push((owner, members));
        }
        Bugs { label, bugs }
    }

    /// The canonical shape of bug `k`.
    fn shape(&self, b: &Bugs, k: usize) -> Vec<(i32, i32)> {
        canonical(&b.bugs[k].1.iter().map(|&i| self.coord(i)).collect::<Vec<_>>())
    }

    /// Labels of the distinct bugs of `owner` adjacent to cell `i`.
    fn adjacent_bugs(&self, b: &Bugs, i: usize, owner: u8) -> BTreeSet<usize> {
        self.nbrs(i)
            .into_iter()
            .filter(|&n| self.cells[n] == Some(owner))
            .map(|n| b.label[n])
            .collect()
    }

    /// Legal Grow cells for the player to move (rule 7).
    fn grow_cells(&self) -> Vec<usize> {
        let b = self.bugs();
        let largest = b.bugs.iter().map(|(_, m)| m.len()).max().unwrap_or(0);
        let me = self.to_move;
        self.board()
            .into_iter()
            .filter(|&i| self.cells[i].is_none())
            .filter(|&i| {
                let adj = self.adjacent_bugs(&b, i, me);
                match adj.len() {
                    0 => true,
                    1 => b.bugs[*adj.iter().next().unwrap()].1.len() < largest,
                    _ => false,
                }
            })
            .collect()
    }

    /// The prey of mover's bug `a`: adjacent enemy bugs of the same shape.
    fn prey(&self, b: &Bugs, a: usize) -> Vec<usize> {
        let (owner, members) = &b.bugs[a];
        let enemy = 1 - owner;
        let adj: BTreeSet<usize> =
            members.iter().flat_map(|&i| self.adjacent_bugs(b, i, enemy)).collect();
        let same_size: Vec<usize> =
            adj.into_iter().filter(|&e| b.bugs[e].1.len() == members.len()).collect();
        if same_size.is_empty() {
            return same_size;
        }
        let shape = self.shape(b, a);
        same_size.into_iter().filter(|&e| self.shape(b, e) == shape).collect()
    }

    /// A copy of the board with the given bugs removed.
    fn without(&self, b: &Bugs, gone: &[usize]) -> Bug {
        let mut out = self.clone();
        for &e in gone {
            for &i in &b.bugs[e].1 {
                out.cells[i] = None;
            }
        }
        out
    }

    /// Runs the eat loop (rule 9) from this position, the mover being
    /// `self.to_move`; every finished turn is added to `out`.
    fn eat_loop(&self, grow: (i32, i32), bonus: &mut Vec<(i32, i32)>, out: &mut BTreeSet<BugMove>) {
        let b = self.bugs();
        let me = self.to_move;
        let mut ate = false;
        for a in 0..b.bugs.len() {
            if b.bugs[a].0 != me {
                continue;
            }
            let prey = self.prey(&b, a);
            if prey.is_empty() {
                continue;
            }
            let after = self.without(&b, &prey);
            // Bonus cells: empty after the prey leaves, next to `a`, and
            // next to no other bug of the mover.
            let cells: BTreeSet<usize> = b.bugs[a]
                .1
                .iter()
                .flat_map(|&i| after.nbrs(i))
                .filter(|&c| after.cells[c].is_none())
                .filter(|&c| after.adjacent_bugs(&b, c, me).iter().all(|&k| k == a))
                .collect();
            for c in cells {
                ate = true;
                let mut next = after.clone();
                next.cells[c] = Some(me);
                bonus.push(self.coord(c));
                next.eat_loop(grow, bonus, out);
                bonus.pop();
            }
        }
        if !ate {
            out.insert(BugMove { grow, bonus: bonus.clone() });
        }
    }

    /// All complete turns, deduplicated and sorted; empty if the player to
    /// move has no legal Grow (they have won).
    pub fn moves(&self) -> Vec<BugMove> {
        let mut out = BTreeSet::new();
        for g in self.grow_cells() {
            let mut next = self.clone();
            next.cells[g] = Some(self.to_move);
            next.eat_loop(self.coord(g), &mut Vec::new(), &mut out);
        }
        out.into_iter().collect()
    }

    /// Plays a complete turn (assumed legal) and passes the move.
    pub fn play(&self, m: &BugMove) -> Bug {
        let me = self.to_move;
        let mut pos = self.clone();
        pos.set(m.grow.0, m.grow.1, Some(me));
        for &cell in &m.bonus {
            let b = pos.bugs();
            let c = pos.idx(cell);
            // The bonus cell touches exactly one friendly bug: the eater.
            let eaters = pos.adjacent_bugs(&b, c, me);
            assert_eq!(eaters.len(), 1, "bonus cell {cell:?} must touch exactly one eater");
            let a = *eaters.iter().next().unwrap();
            let prey = pos.prey(&b, a);
            assert!(!prey.is_empty(), "bonus cell {cell:?}: the eater has no prey");
            pos = pos.without(&b, &prey);
            pos.cells[c] = Some(me);
        }
        pos.to_move = 1 - me;
        pos
    }
}

/// Move paths of exactly `depth` complete turns.
pub fn perft(pos: &Bug, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return pos.moves().len() as u64,
        _ => {}
    }
    pos.moves().iter().map(|m| perft(&pos.play(m), depth - 1)).sum()
}
