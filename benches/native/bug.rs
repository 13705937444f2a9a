//! Bug (rules/bug.md, games/bug.game), hand-written with bitboards.
//!
//! Cells are axial `(q, r)` with `max(|q|, |r|, |q + r|) <= side - 1`,
//! numbered in `(q, r)` order (so ascending bits are ascending
//! coordinates); one `u64` per colour holds boards up to side 5.
//! A move is a complete turn: the Grow cell, then the bonus cells of the
//! eat loop in order. Resolutions of `games/bug.game`: one eater at a time,
//! the mover's choice (a bonus cell names its eater); every bug of the mover
//! is checked on every pass; a player with no legal Grow wins.

use super::{bits64, Outcome, Rng};

/// Bonus placements one turn can hold: each eats at least one enemy bug,
/// and enemy bugs are pairwise apart, so at most one per two cells of a
/// row: 33 on side 5.
pub const MAX_BONUS: usize = 33;

/// The six axial neighbour offsets.
const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// A position: the stones of Black (0) and White (1), the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Stones per player.
    pub stones: [u64; 2],
    /// Player to move: 0 = Black, 1 = White.
    pub to_move: u8,
}

/// A complete turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The Grow cell.
    pub grow: u8,
    len: u8,
    bonus: [u8; MAX_BONUS],
}

impl Move {
    /// The bonus cells, in the order they were placed.
    pub fn bonus(&self) -> &[u8] {
        &self.bonus[..self.len as usize]
    }
}

/// The bonus cells placed so far in a turn being generated.
struct Path {
    cells: [u8; MAX_BONUS],
    len: usize,
}

/// Board geometry.
#[derive(Debug, Clone)]
pub struct Game {
    side: i32,
    /// Cell coordinates, by cell.
    coords: Vec<(i32, i32)>,
    /// `(2 side - 1)^2` square of axial coordinates -> cell (or `u8::MAX`).
    grid: Vec<u8>,
    /// Per cell, its neighbours.
    nbr: Vec<u64>,
    /// Per symmetry (6 rotations, each optionally reflected), each cell's image.
    sym: Vec<Vec<(i32, i32)>>,
    full: u64,
}

/// One bug of the mover that can eat in the current pass.
#[derive(Clone, Copy, Default)]
struct Candidate {
    prey: u64,
    bonus: u64,
}

impl Game {
    /// The board of side `side` (2 to 5).
    pub fn new(side: i32) -> Game {
        assert!((2..=5).contains(&side), "side 2 to 5");
        let n = side - 1;
        let w = (2 * side - 1) as usize;
        let on = |q: i32, r: i32| q.abs().max(r.abs()).max((q + r).abs()) <= n;
        let mut coords = Vec::new();
        let mut grid = vec![u8::MAX; w * w];
        for q in -n..=n {
            for r in -n..=n {
                if on(q, r) {
                    grid[(q + n) as usize * w + (r + n) as usize] = coords.len() as u8;
                    coords.push((q, r));
                }
            }
        }
        let mut g = Game { side, coords, grid, nbr: Vec::new(), sym: Vec::new(), full: 0 };
        g.full = (1u64 << g.coords.len()) - 1;
        g.nbr = g
            .coords
            .iter()
            .map(|&(q, r)| {
                DIRS.iter()
                    .filter_map(|&(dq, dr)| g.cell(q + dq, r + dr))
                    .fold(0, |m, c| m | 1 << c)
            })
            .collect();
        for refl in [false, true] {
            for rot in 0..6 {
                g.sym.push(
                    g.coords
                        .iter()
                        .map(|&(q, r)| {
                            let (mut q, mut r) = if refl { (r, q) } else { (q, r) };
                            for _ in 0..rot {
                                (q, r) = (-r, q + r);
                            }
                            (q, r)
                        })
                        .collect(),
                );
            }
        }
        g
    }

    /// The cell at axial `(q, r)`, if on the board.
    pub fn cell(&self, q: i32, r: i32) -> Option<u8> {
        let n = self.side - 1;
        if q.abs().max(r.abs()).max((q + r).abs()) > n {
            return None;
        }
        let w = 2 * self.side - 1;
        Some(self.grid[((q + n) * w + r + n) as usize])
    }

    /// The axial coordinates of a cell.
    pub fn coords(&self, c: u8) -> (i32, i32) {
        self.coords[c as usize]
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.coords.len()
    }

    /// The empty board, Black to move.
    pub fn initial(&self) -> State {
        State { stones: [0; 2], to_move: 0 }
    }

    /// The cells next to any cell of `m` (may include cells of `m`).
    #[inline]
    fn dilate(&self, m: u64) -> u64 {
        bits64(m).fold(0, |d, c| d | self.nbr[c])
    }

    /// The group of `seed` within `within`, and the cells next to it.
    #[inline]
    fn flood(&self, seed: u64, within: u64) -> (u64, u64) {
        let (mut group, mut frontier, mut around) = (seed, seed, 0);
        while frontier != 0 {
            let d = self.dilate(frontier);
            around |= d;
            frontier = d & within & !group;
            group |= frontier;
        }
        (group, around & !group)
    }

    /// Do two bugs of the same size have the same shape (translation,
    /// rotation, reflection)?
    fn same_shape(&self, a: u64, b: u64) -> bool {
        if a.count_ones() <= 2 {
            return true;
        }
        let (bq, br) = self.coords[b.trailing_zeros() as usize];
        self.sym.iter().any(|img| {
            // Move the least image cell onto the least cell of `b`.
            let (mq, mr) = bits64(a).map(|c| img[c]).min().unwrap_or_default();
            bits64(a).all(|c| {
                let (q, r) = img[c];
                self.cell(q - mq + bq, r - mr + br).is_some_and(|x| b >> x & 1 != 0)
            })
        })
    }

    /// The prey of bug `a` of the mover: the adjacent enemy bugs of the
    /// same shape, as one set.
    #[inline]
    fn prey(&self, a: u64, around: u64, enemy: u64) -> u64 {
        let size = a.count_ones();
        let mut touching = around & enemy;
        let mut prey = 0;
        while touching != 0 {
            let (e, _) = self.flood(touching & touching.wrapping_neg(), enemy);
            touching &= !e;
            if e.count_ones() == size && self.same_shape(a, e) {
                prey |= e;
            }
        }
        prey
    }

    /// The mover's bugs as `(cells, cells around)`, into `out`.
    #[inline]
    fn groups(&self, own: u64, out: &mut [(u64, u64); 64]) -> usize {
        let (mut rest, mut n) = (own, 0);
        while rest != 0 {
            let g = self.flood(rest & rest.wrapping_neg(), own);
            rest &= !g.0;
            out[n] = g;
            n += 1;
        }
        n
    }

    /// Rule 7: the legal Grow cells of the player to move.
    fn grow_cells(&self, s: &State) -> u64 {
        let me = s.to_move as usize;
        let (own, enemy) = (s.stones[me], s.stones[1 - me]);
        let empty = self.full & !(own | enemy);
        let mut groups = [(0u64, 0u64); 64];
        let n = self.groups(own, &mut groups);
        let mut largest = groups[..n].iter().map(|g| g.0.count_ones()).max().unwrap_or(0);
        let mut rest = enemy;
        while rest != 0 && largest < rest.count_ones() {
            let (e, _) = self.flood(rest & rest.wrapping_neg(), enemy);
            rest &= !e;
            largest = largest.max(e.count_ones());
        }
        // Cells next to two bugs (merging), or next to one that may not grow.
        let (mut once, mut twice, mut capped) = (0u64, 0u64, 0u64);
        for &(g, around) in &groups[..n] {
            twice |= once & around;
            once |= around;
            if g.count_ones() >= largest {
                capped |= around;
            }
        }
        empty & !twice & !capped
    }

    /// The eat loop (rule 9) after the mover's stones changed; `f` gets
    /// every finished turn's bonus cells and final position.
    fn eat(&self, s: State, me: usize, path: &mut Path, f: &mut impl FnMut(&[u8], &State)) {
        let (own, enemy) = (s.stones[me], s.stones[1 - me]);
        let mut groups = [(0u64, 0u64); 64];
        let n = self.groups(own, &mut groups);
        let mut cands = [Candidate::default(); 64];
        let mut union = 0u64;
        let empty = self.full & !(own | enemy);
        for (i, &(a, around)) in groups[..n].iter().enumerate() {
            if around & enemy == 0 {
                continue;
            }
            let prey = self.prey(a, around, enemy);
            if prey == 0 {
                continue;
            }
            let others = groups[..n]
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(0, |m, (_, g)| m | g.1);
            let bonus = around & (empty | prey) & !others;
            cands[i] = Candidate { prey, bonus };
            union |= bonus;
        }
        if union == 0 {
            let mut t = s;
            t.to_move ^= 1;
            f(&path.cells[..path.len], &t);
            return;
        }
        for x in bits64(union) {
            let c = cands[..n].iter().find(|c| c.bonus >> x & 1 != 0).copied().unwrap_or_default();
            let mut t = s;
            t.stones[1 - me] &= !c.prey;
            t.stones[me] |= 1 << x;
            path.cells[path.len] = x as u8;
            path.len += 1;
            self.eat(t, me, path, f);
            path.len -= 1;
        }
    }

    /// Calls `f` with every complete turn and the position after it, in
    /// the canonical order (Grow cell, then bonus cells, ascending).
    fn generate(&self, s: &State, mut f: impl FnMut(u8, &[u8], &State)) {
        let me = s.to_move as usize;
        let mut path = Path { cells: [0; MAX_BONUS], len: 0 };
        for c in bits64(self.grow_cells(s)) {
            let mut t = *s;
            t.stones[me] |= 1 << c;
            self.eat(t, me, &mut path, &mut |b, u| f(c as u8, b, u));
        }
    }

    /// Every complete turn, into `out` (cleared first).
    pub fn legal_moves(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        self.generate(s, |grow, b, _| {
            let mut bonus = [0; MAX_BONUS];
            bonus[..b.len()].copy_from_slice(b);
            out.push(Move { grow, len: b.len() as u8, bonus });
        });
    }

    /// The position after a complete turn from [`Game::legal_moves`].
    pub fn play(&self, s: &State, m: &Move) -> State {
        let me = s.to_move as usize;
        let mut t = *s;
        t.stones[me] |= 1 << m.grow;
        for &x in m.bonus() {
            let (own, enemy) = (t.stones[me], t.stones[1 - me]);
            // The bonus cell touches exactly one bug of the mover: the eater.
            let touching = self.nbr[x as usize] & own;
            let (a, around) = self.flood(touching & touching.wrapping_neg(), own);
            t.stones[1 - me] &= !self.prey(a, around, enemy);
            t.stones[me] |= 1 << x;
        }
        t.to_move ^= 1;
        t
    }

    /// Rule 8: the player to move wins when they have no legal Grow.
    pub fn outcome(&self, s: &State) -> Option<Outcome> {
        (self.grow_cells(s) == 0).then_some(Outcome::Win(s.to_move))
    }

    /// Complete-turn move paths of exactly `depth`.
    pub fn perft(&self, s: &State, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => {
                let mut n = 0;
                self.generate(s, |_, _, _| n += 1);
                n
            }
            _ => {
                let mut n = 0;
                self.generate(s, |_, _, t| n += self.perft(t, depth - 1));
                n
            }
        }
    }

    /// A uniformly random game from `s` until it ends or `max_plies`
    /// turns were played; returns the plies played and the last position.
    pub fn playout(&self, s: &State, rng: &mut Rng, max_plies: u32) -> (u32, State) {
        let mut moves = Vec::with_capacity(64);
        let mut s = *s;
        let mut plies = 0;
        loop {
            self.legal_moves(&s, &mut moves);
            if moves.is_empty() || plies >= max_plies {
                return (plies, s);
            }
            s = self.play(&s, &moves[rng.below(moves.len())]);
            plies += 1;
        }
    }
}
