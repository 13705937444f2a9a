//! Snekagon (rules/snekagon.md, games/snekagon.game), hand-written with
//! 128-bit bitboards and a precomputed table of every tile placement.
//!
//! Cells are axial `(q, r)` with `max(|q|, |r|, |q + r|) <= side - 1`,
//! numbered in `(q, r)` order. Tiles: 0 = "1", 1 = "2", 2 = "3I", 3 = "3C",
//! 4 = "4S", 5 = "4L", 6 = "4I", 7 = "4U"; Red is player 0, Blue 1.
//! A move is (tile, covered cells) or a forced pass. Resolutions of
//! `games/snekagon.game`: a closed ring is a snake; a player who cannot
//! place passes, and the game ends when neither can place; the longer
//! longest snake wins, then the second longest, and so on, a missing snake
//! counting 0; all equal is a draw.

use super::{bits128, Outcome, Rng};

/// Tile names, by tile index.
pub const TILE_NAMES: [&str; 8] = ["1", "2", "3I", "3C", "4S", "4L", "4I", "4U"];

/// Tile cells in one orientation (the rules table).
const TILES: [&[(i32, i32)]; 8] = [
    &[(0, 0)],
    &[(0, 0), (1, 0)],
    &[(0, 0), (1, 0), (2, 0)],
    &[(0, 0), (1, 0), (1, 1)],
    &[(0, 0), (1, 0), (1, 1), (2, 1)],
    &[(0, 0), (1, 0), (2, 0), (2, 1)],
    &[(0, 0), (1, 0), (2, 0), (3, 0)],
    &[(1, 0), (2, 0), (0, 1), (2, 1)],
];

/// The six axial neighbour offsets.
const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Hexes per player.
    pub stones: [u128; 2],
    /// Per player, a bit per tile still in the supply.
    pub supply: [u8; 2],
    /// Player to move: 0 = Red, 1 = Blue.
    pub to_move: u8,
    /// Turns played (the opening is turn 0).
    pub ply: u32,
}

/// A complete turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A tile on the cells of one of its placements ([`Game::cells`]).
    Place {
        /// Tile index.
        tile: u8,
        /// Placement index of that tile.
        place: u16,
    },
    /// A forced pass.
    Pass,
}

/// One way a tile lies on the board.
#[derive(Debug, Clone, Copy)]
struct Placement {
    /// The covered cells.
    mask: u128,
    /// The cells next to the tile.
    ring: u128,
    cells: [u8; 4],
    len: u8,
}

/// Board geometry and every placement of every tile.
#[derive(Debug, Clone)]
pub struct Game {
    side: i32,
    coords: Vec<(i32, i32)>,
    nbr: Vec<u128>,
    /// Per tile: its distinct placements, ordered by their sorted cells.
    places: [Vec<Placement>; 8],
}

impl Game {
    /// The board of side `side` (3 to 7).
    pub fn new(side: i32) -> Game {
        assert!((3..=7).contains(&side), "side 3 to 7");
        let n = side - 1;
        let on = |q: i32, r: i32| q.abs().max(r.abs()).max((q + r).abs()) <= n;
        let mut coords = Vec::new();
        for q in -n..=n {
            for r in -n..=n {
                if on(q, r) {
                    coords.push((q, r));
                }
            }
        }
        let at = |q: i32, r: i32| coords.iter().position(|&c| c == (q, r));
        let nbr: Vec<u128> = coords
            .iter()
            .map(|&(q, r)| {
                DIRS.iter().filter_map(|&(dq, dr)| at(q + dq, r + dr)).fold(0, |m, c| m | 1 << c)
            })
            .collect();
        let places = TILES.map(|tile| {
            let mut all: Vec<Vec<usize>> = Vec::new();
            for refl in [false, true] {
                for rot in 0..6 {
                    // Optional reflection (q, r) -> (r, q), then `rot` turns of 60°.
                    let shape: Vec<(i32, i32)> = tile
                        .iter()
                        .map(|&(q, r)| {
                            let (mut q, mut r) = if refl { (r, q) } else { (q, r) };
                            for _ in 0..rot {
                                (q, r) = (-r, q + r);
                            }
                            (q, r)
                        })
                        .collect();
                    // Every translation putting the first hex on a cell.
                    let (fq, fr) = shape[0];
                    for &(aq, ar) in &coords {
                        let cells: Option<Vec<usize>> =
                            shape.iter().map(|&(q, r)| at(aq + q - fq, ar + r - fr)).collect();
                        if let Some(mut cells) = cells {
                            cells.sort_unstable();
                            all.push(cells);
                        }
                    }
                }
            }
            all.sort();
            all.dedup();
            all.iter()
                .map(|cells| {
                    let mask = cells.iter().fold(0u128, |m, &c| m | 1 << c);
                    let ring = cells.iter().fold(0u128, |m, &c| m | nbr[c]) & !mask;
                    let mut cs = [0u8; 4];
                    for (i, &c) in cells.iter().enumerate() {
                        cs[i] = c as u8;
                    }
                    Placement { mask, ring, cells: cs, len: cells.len() as u8 }
                })
                .collect()
        });
        Game { side, coords, nbr, places }
    }

    /// The axial coordinates of a cell.
    pub fn coords(&self, c: u8) -> (i32, i32) {
        self.coords[c as usize]
    }

    /// The number of distinct placements of a tile on the empty board.
    pub fn placements(&self, tile: usize) -> usize {
        self.places[tile].len()
    }

    /// The cells a placement covers (none for a pass).
    pub fn cells(&self, m: &Move) -> &[u8] {
        match *m {
            Move::Place { tile, place } => {
                let p = &self.places[tile as usize][place as usize];
                &p.cells[..p.len as usize]
            }
            Move::Pass => &[],
        }
    }

    /// The empty board; Red holds every tile and the single hex, Blue
    /// every tile but the single hex; Red to move.
    pub fn initial(&self) -> State {
        State { stones: [0; 2], supply: [0b1111_1111, 0b1111_1110], to_move: 0, ply: 0 }
    }

    /// Rules 3, 5 and 7 for placement `p` of player `me`.
    #[inline]
    fn legal(&self, s: &State, me: usize, p: &Placement) -> bool {
        let own = s.stones[me];
        let occ = own | s.stones[1 - me];
        if p.mask & occ != 0 {
            return false;
        }
        // A) touches nothing, or B) touches the mover's own hexes.
        let touch_own = p.ring & own;
        if touch_own == 0 {
            // A lone tile is a snake by itself.
            return p.ring & occ == 0;
        }
        // Rule 5: only the tile's hexes and the mover's hexes next to it
        // change their neighbourhood: each has at most two neighbours in
        // its snake, and two of them must not touch (no triangle).
        let after = own | p.mask;
        let check = |c: usize| {
            let k = self.nbr[c] & after;
            match k.count_ones() {
                0 | 1 => true,
                2 => self.nbr[k.trailing_zeros() as usize] & k == 0,
                _ => false,
            }
        };
        p.cells[..p.len as usize].iter().all(|&c| check(c as usize))
            && bits128(touch_own).all(check)
    }

    /// The tiles the player to move may play now.
    fn tiles(s: &State, me: usize) -> u8 {
        // 6. The opening is the single hex.
        if s.ply == 0 {
            s.supply[me] & 1
        } else {
            s.supply[me]
        }
    }

    /// Calls `f` with each placement `(tile, index)` of player `me`;
    /// stops as soon as `f` returns `false`.
    #[inline]
    fn placements_of(&self, s: &State, me: usize, mut f: impl FnMut(u8, u16) -> bool) {
        let tiles = Self::tiles(s, me);
        for (t, places) in self.places.iter().enumerate() {
            if tiles >> t & 1 == 0 {
                continue;
            }
            for (i, p) in places.iter().enumerate() {
                if self.legal(s, me, p) && !f(t as u8, i as u16) {
                    return;
                }
            }
        }
    }

    fn can_place(&self, s: &State, me: usize) -> bool {
        let mut any = false;
        self.placements_of(s, me, |_, _| {
            any = true;
            false
        });
        any
    }

    /// Every complete turn, into `out` (cleared first): tiles in order,
    /// placements by their cells; a single pass when the mover cannot
    /// place but the other player can; none at the end.
    pub fn legal_moves(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        let me = s.to_move as usize;
        self.placements_of(s, me, |tile, place| {
            out.push(Move::Place { tile, place });
            true
        });
        if out.is_empty() && self.can_place(s, 1 - me) {
            out.push(Move::Pass);
        }
    }

    fn count_moves(&self, s: &State) -> u64 {
        let me = s.to_move as usize;
        let mut n = 0;
        self.placements_of(s, me, |_, _| {
            n += 1;
            true
        });
        if n == 0 && self.can_place(s, 1 - me) {
            n = 1;
        }
        n
    }

    /// The position after a move.
    pub fn play(&self, s: &State, m: &Move) -> State {
        let mut t = *s;
        if let Move::Place { tile, place } = *m {
            let me = s.to_move as usize;
            t.stones[me] |= self.places[tile as usize][place as usize].mask;
            t.supply[me] &= !(1 << tile);
        }
        t.to_move ^= 1;
        t.ply += 1;
        t
    }

    /// A player's snake lengths, longest first.
    pub fn snakes(&self, s: &State, p: usize) -> Vec<u32> {
        let own = s.stones[p];
        let mut rest = own;
        let mut lens = Vec::new();
        while rest != 0 {
            let (mut group, mut frontier) =
                (rest & rest.wrapping_neg(), rest & rest.wrapping_neg());
            while frontier != 0 {
                frontier = bits128(frontier).fold(0, |d, c| d | self.nbr[c]) & own & !group;
                group |= frontier;
            }
            rest &= !group;
            lens.push(group.count_ones());
        }
        lens.sort_unstable_by(|a, b| b.cmp(a));
        lens
    }

    /// The result, once neither player can place (rule 10).
    pub fn outcome(&self, s: &State) -> Option<Outcome> {
        let me = s.to_move as usize;
        if self.can_place(s, me) || self.can_place(s, 1 - me) {
            return None;
        }
        // Lengths are positive, so a shorter list compares as if padded with 0.
        Some(match self.snakes(s, 0).cmp(&self.snakes(s, 1)) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// Complete-turn move paths of exactly `depth` (a forced pass is a move).
    pub fn perft(&self, s: &State, depth: u32) -> u64 {
        let mut bufs = vec![Vec::with_capacity(4096); depth as usize];
        self.perft_with(s, depth, &mut bufs)
    }

    fn perft_with(&self, s: &State, depth: u32, bufs: &mut [Vec<Move>]) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(s),
            _ => {
                let (buf, rest) = bufs.split_first_mut().expect("a buffer per depth");
                self.legal_moves(s, buf);
                buf.iter().map(|m| self.perft_with(&self.play(s, m), depth - 1, rest)).sum()
            }
        }
    }

    /// Like [`Game::playout`], but each move is drawn the way tabula's
    /// playouts draw it (pass 15), for a like-for-like figure: the
    /// candidates are the placements on empty cells of the tiles the mover
    /// may play, each draw is uniform among the candidates not yet found
    /// illegal, and an illegal one is put aside and the draw repeated. A
    /// forced pass is played when no candidate is legal and the other
    /// player can place.
    pub fn playout_drawn(&self, s: &State, rng: &mut Rng, max_plies: u32) -> (u32, State) {
        let mut cands: Vec<(u8, u16)> = Vec::with_capacity(4096);
        let mut s = *s;
        let mut plies = 0;
        loop {
            let me = s.to_move as usize;
            let occ = s.stones[0] | s.stones[1];
            cands.clear();
            let tiles = Self::tiles(&s, me);
            for (t, places) in self.places.iter().enumerate() {
                if tiles >> t & 1 == 1 {
                    for (i, p) in places.iter().enumerate() {
                        if p.mask & occ == 0 {
                            cands.push((t as u8, i as u16));
                        }
                    }
                }
            }
            let mut found = None;
            if plies >= max_plies {
                if cands
                    .iter()
                    .any(|&(t, i)| self.legal(&s, me, &self.places[t as usize][i as usize]))
                {
                    return (plies, s);
                }
            } else {
                while !cands.is_empty() {
                    let j = rng.below(cands.len());
                    let (t, i) = cands[j];
                    if self.legal(&s, me, &self.places[t as usize][i as usize]) {
                        found = Some(Move::Place { tile: t, place: i });
                        break;
                    }
                    cands.swap_remove(j);
                }
            }
            let m = match found {
                Some(m) => m,
                None if self.can_place(&s, 1 - me) && plies < max_plies => Move::Pass,
                None => return (plies, s),
            };
            s = self.play(&s, &m);
            plies += 1;
        }
    }

    /// A uniformly random game from `s` until it ends or `max_plies`
    /// turns were played; returns the plies played and the last position.
    pub fn playout(&self, s: &State, rng: &mut Rng, max_plies: u32) -> (u32, State) {
        let mut moves = Vec::with_capacity(4096);
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
