//! An independent, hand-written reference implementation of Snekagon
//! (rules: `/work/shared/rules/snekagon.md`), used only to cross-check the
//! interpreter's counts. It deliberately does not use the `tabula` crate.
//!
//! Cells are axial `(q, r)` with `max(|q|, |r|, |q + r|) <= side - 1`,
//! numbered in `(q, r)` order so that sorted indices are sorted coordinates.
//! Tile indices: 0 = "1", 1 = "2", 2 = "3I", 3 = "3C", 4 = "4S", 5 = "4L",
//! 6 = "4I", 7 = "4U". Red is player 0, Blue is player 1.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::Arc;

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

/// Board geometry and every placement of every tile, shared by positions.
#[derive(Debug)]
struct Geo {
    side: i32,
    /// Cell index -> coordinates, in `(q, r)` order.
    coords: Vec<(i32, i32)>,
    /// Square `(2 side - 1)^2` array -> cell index (`usize::MAX` off board).
    grid: Vec<usize>,
    nbrs: Vec<Vec<usize>>,
    /// Per tile: the distinct sorted cell sets it can cover on an empty board.
    places: Vec<Vec<Vec<usize>>>,
}

impl Geo {
    fn new(side: i32) -> Geo {
        let n = side - 1;
        let w = (2 * side - 1) as usize;
        let on = |q: i32, r: i32| q.abs().max(r.abs()).max((q + r).abs()) <= n;
        let mut coords = Vec::new();
        let mut grid = vec![usize::MAX; w * w];
        for q in -n..=n {
            for r in -n..=n {
                if on(q, r) {
                    grid[(q + n) as usize * w + (r + n) as usize] = coords.len();
                    coords.push((q, r));
                }
            }
        }
        let at = |q: i32, r: i32| on(q, r).then(|| grid[(q + n) as usize * w + (r + n) as usize]);
        let nbrs = coords
            .iter()
            .map(|&(q, r)| DIRS.iter().filter_map(|&(dq, dr)| at(q + dq, r + dr)).collect())
            .collect();
        let mut places = Vec::new();
        for tile in TILES {
            let mut set: BTreeSet<Vec<usize>> = BTreeSet::new();
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
                    for dq in -2 * side..=2 * side {
                        for dr in -2 * side..=2 * side {
                            let cells: Option<Vec<usize>> =
                                shape.iter().map(|&(q, r)| at(q + dq, r + dr)).collect();
                            if let Some(mut cells) = cells {
                                cells.sort_unstable();
                                set.insert(cells);
                            }
                        }
                    }
                }
            }
            places.push(set.into_iter().collect());
        }
        Geo { side, coords, grid, nbrs, places }
    }

    fn index(&self, (q, r): (i32, i32)) -> usize {
        let n = self.side - 1;
        let w = (2 * self.side - 1) as usize;
        assert!(q.abs().max(r.abs()).max((q + r).abs()) <= n, "({q}, {r}) is off the board");
        self.grid[(q + n) as usize * w + (r + n) as usize]
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.nbrs[a].contains(&b)
    }
}

/// A position: board, remaining tiles per player, player to move.
#[derive(Clone, Debug)]
pub struct Snek {
    geo: Arc<Geo>,
    /// Per cell: 0 empty, 1 Red, 2 Blue.
    board: Vec<u8>,
    /// Per player: bitmask of remaining tile indices.
    tiles: [u8; 2],
    pub to_move: u8,
}

/// A move: a tile and the (sorted) cells it covers, or a forced pass.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum SnekMove {
    Place { tile: usize, cells: Vec<(i32, i32)> },
    Pass,
}

/// Internal move: (tile, index into `Geo::places[tile]`), or `None` = pass.
type Mv = Option<(usize, usize)>;

impl Snek {
    /// The empty board, Red to move.
    pub fn new(side: i32) -> Snek {
        let geo = Arc::new(Geo::new(side));
        let board = vec![0; geo.coords.len()];
        Snek { geo, board, tiles: [0b1111_1111, 0b1111_1110], to_move: 0 }
    }

    pub fn side(&self) -> i32 {
        self.geo.side
    }

    /// The owner (0 Red, 1 Blue) of a cell, if any.
    pub fn owner(&self, cell: (i32, i32)) -> Option<u8> {
        self.board[self.geo.index(cell)].checked_sub(1)
    }

    /// Remaining tile indices of a player.
    pub fn remaining(&self, player: u8) -> Vec<usize> {
        (0..8).filter(|t| self.tiles[player as usize] >> t & 1 == 1).collect()
    }

    /// Rule 5, checked locally around one hex `h` of colour `own`, with the
    /// tile `cells` counted as `own`: at most two same-snake neighbours, and
    /// if two, they must not touch each other (no triangle / tight turn).
    fn hex_ok(&self, h: usize, own: u8, cells: &[usize]) -> bool {
        let g = &self.geo;
        let mut same = g.nbrs[h].iter().filter(|&&x| self.board[x] == own || cells.contains(&x));
        match (same.next(), same.next(), same.next()) {
            (_, _, Some(_)) => false,
            (Some(&a), Some(&b), None) => !g.adjacent(a, b),
            _ => true,
        }
    }

    /// Is covering `cells` legal for `player` (rules 3, 5 and 7)?
    fn legal(&self, player: u8, cells: &[usize]) -> bool {
        let own = player + 1;
        if cells.iter().any(|&c| self.board[c] != 0) {
            return false;
        }
        let (mut touch_own, mut touch_opp) = (false, false);
        for &c in cells {
            for &x in &self.geo.nbrs[c] {
                match self.board[x] {
                    0 => {}
                    v if v == own => touch_own = true,
                    _ => touch_opp = true,
                }
            }
        }
        if touch_opp && !touch_own {
            return false;
        }
        // Only hexes of the tile and own hexes next to it change their
        // same-snake neighbourhood; the rest was legal before.
        cells.iter().all(|&c| {
            self.hex_ok(c, own, cells)
                && self.geo.nbrs[c]
                    .iter()
                    .all(|&x| self.board[x] != own || self.hex_ok(x, own, cells))
        })
    }

    /// The placements of `player`; with `first`, stops after finding one.
    fn placements(&self, player: u8, first: bool) -> Vec<Mv> {
        let mask = self.tiles[player as usize];
        // The single hex, while held, is the whole first move (rule 6).
        let tiles: Vec<usize> = if mask & 1 == 1 { vec![0] } else { (1..8).collect() };
        let mut out = Vec::new();
        for t in tiles.into_iter().filter(|t| mask >> t & 1 == 1) {
            for (i, cells) in self.geo.places[t].iter().enumerate() {
                if self.legal(player, cells) {
                    out.push(Some((t, i)));
                    if first {
                        return out;
                    }
                }
            }
        }
        out
    }

    fn moves_internal(&self) -> Vec<Mv> {
        let mine = self.placements(self.to_move, false);
        if !mine.is_empty() {
            mine
        } else if !self.placements(1 - self.to_move, true).is_empty() {
            vec![None]
        } else {
            Vec::new()
        }
    }

    fn play_internal(&self, m: Mv) -> Snek {
        let mut next = self.clone();
        if let Some((t, i)) = m {
            let p = self.to_move as usize;
            for &c in &self.geo.places[t][i] {
                next.board[c] = p as u8 + 1;
            }
            next.tiles[p] &= !(1 << t);
        }
        next.to_move = 1 - self.to_move;
        next
    }

    /// All legal moves (empty when the game is over).
    pub fn moves(&self) -> Vec<SnekMove> {
        let g = &self.geo;
        self.moves_internal()
            .into_iter()
            .map(|m| match m {
                None => SnekMove::Pass,
                Some((tile, i)) => SnekMove::Place {
                    tile,
                    cells: g.places[tile][i].iter().map(|&c| g.coords[c]).collect(),
                },
            })
            .collect()
    }

    /// Plays a move (assumed legal).
    pub fn play(&self, m: &SnekMove) -> Snek {
        match m {
            SnekMove::Pass => self.play_internal(None),
            SnekMove::Place { tile, cells } => {
                let mut idx: Vec<usize> = cells.iter().map(|&c| self.geo.index(c)).collect();
                idx.sort_unstable();
                let i = self.geo.places[*tile]
                    .iter()
                    .position(|p| *p == idx)
                    .unwrap_or_else(|| panic!("tile {} cannot cover {cells:?}", TILE_NAMES[*tile]));
                self.play_internal(Some((*tile, i)))
            }
        }
    }

    /// Snake lengths of a player, longest first.
    pub fn snakes(&self, player: u8) -> Vec<usize> {
        let own = player + 1;
        let mut seen = vec![false; self.board.len()];
        let mut lens = Vec::new();
        for s in 0..self.board.len() {
            if self.board[s] != own || seen[s] {
                continue;
            }
            seen[s] = true;
            let (mut stack, mut len) = (vec![s], 0);
            while let Some(c) = stack.pop() {
                len += 1;
                for &x in &self.geo.nbrs[c] {
                    if self.board[x] == own && !seen[x] {
                        seen[x] = true;
                        stack.push(x);
                    }
                }
            }
            lens.push(len);
        }
        lens.sort_unstable_by(|a, b| b.cmp(a));
        lens
    }

    /// Rule 10: `None` while the game goes on, `Some(None)` for a draw,
    /// `Some(Some(p))` when player `p` wins. Lengths are positive, so
    /// `Vec` order (a shorter prefix is smaller) equals padding with 0.
    pub fn winner(&self) -> Option<Option<u8>> {
        if !self.moves_internal().is_empty() {
            return None;
        }
        Some(match self.snakes(0).cmp(&self.snakes(1)) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        })
    }
}

/// Move paths of exactly `depth` moves (a forced pass is a move).
pub fn perft(pos: &Snek, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves_internal();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.into_iter().map(|m| perft(&pos.play_internal(m), depth - 1)).sum()
}

/// Distinct cell sets tile `tile` can cover on an empty board of `side`.
pub fn placements_on_empty_board(side: i32, tile: usize) -> usize {
    Geo::new(side).places[tile].len()
}
