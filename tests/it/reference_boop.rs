//! An independent, hand-written reference implementation of boop.
//! (rules: `/work/shared/rules/boop.md`), used only to cross-check the
//! interpreter's perft counts. It deliberately does not use the `tabula`
//! crate. Written for clarity, not speed.
//!
//! Squares are numbered `rank * 6 + file`: a1 = 0, b1 = 1, ..., f6 = 35.
#![allow(dead_code)]

/// Board side length.
const N: i32 = 6;

/// One piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// 0 = Orange, 1 = Gray.
    pub owner: usize,
    /// `true` for a Cat, `false` for a Kitten.
    pub cat: bool,
}

/// A position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boop {
    pub board: [Option<Piece>; 36],
    /// Kittens in each player's pool.
    pub kittens: [u32; 2],
    /// Cats in each player's pool.
    pub cats: [u32; 2],
    /// Cats out of play (not yet graduated) per player.
    pub stock: [u32; 2],
    /// Player to move.
    pub to_move: usize,
    /// The winner, once the game is over.
    pub winner: Option<usize>,
}

/// A complete turn: piece kind, square, graduated window, removed square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoopMove {
    pub cat: bool,
    pub square: usize,
    pub grad: Option<[usize; 3]>,
    pub remove: Option<usize>,
}

/// Square index of (rank, file), or `None` if off the board.
fn sq(rank: i32, file: i32) -> Option<usize> {
    if (0..N).contains(&rank) && (0..N).contains(&file) {
        Some((rank * N + file) as usize)
    } else {
        None
    }
}

/// (rank, file) of a square index.
fn coords(s: usize) -> (i32, i32) {
    (s as i32 / N, s as i32 % N)
}

/// All 3-square windows (rows, columns, both diagonals), squares ascending.
fn windows() -> Vec<[usize; 3]> {
    let dirs = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut out = Vec::new();
    for s in 0..36 {
        let (r, f) = coords(s);
        for &(dr, df) in &dirs {
            if let (Some(b), Some(c)) = (sq(r + dr, f + df), sq(r + 2 * dr, f + 2 * df)) {
                out.push([s, b, c]);
            }
        }
    }
    out
}

impl Default for Boop {
    fn default() -> Self {
        Self::new()
    }
}

impl Boop {
    /// Empty board, 8 kittens in each pool, 8 cats in each stock, Orange to move.
    pub fn new() -> Boop {
        Boop {
            board: [None; 36],
            kittens: [8, 8],
            cats: [0, 0],
            stock: [8, 8],
            to_move: 0,
            winner: None,
        }
    }

    /// Returns a piece to its owner's pool.
    fn return_to_pool(&mut self, p: Piece) {
        if p.cat {
            self.cats[p.owner] += 1;
        } else {
            self.kittens[p.owner] += 1;
        }
    }

    /// Takes the mover's piece off square `s` as a removal (graduation or
    /// all-eight rule): a kitten leaves the game and a cat comes from the
    /// stock to the pool; a cat goes back to the pool.
    fn take_off(&mut self, s: usize) {
        let p = self.board[s].take().expect("removing from an empty square");
        assert_eq!(p.owner, self.to_move, "removing an opponent's piece");
        if !p.cat {
            assert!(self.stock[p.owner] > 0, "stock exhausted");
            self.stock[p.owner] -= 1;
        }
        self.cats[p.owner] += 1;
    }

    /// Step 4 and 5: place a piece and boop its neighbours.
    fn place(&self, cat: bool, square: usize) -> Boop {
        let me = self.to_move;
        let mut b = self.clone();
        assert!(b.board[square].is_none(), "square occupied");
        if cat {
            assert!(b.cats[me] > 0, "no cat in pool");
            b.cats[me] -= 1;
        } else {
            assert!(b.kittens[me] > 0, "no kitten in pool");
            b.kittens[me] -= 1;
        }
        b.board[square] = Some(Piece { owner: me, cat });
        let (r, f) = coords(square);
        for dr in -1..=1 {
            for df in -1..=1 {
                if dr == 0 && df == 0 {
                    continue;
                }
                let Some(n) = sq(r + dr, f + df) else { continue };
                let Some(p) = b.board[n] else { continue };
                // A kitten boops only kittens; a cat boops both.
                if p.cat && !cat {
                    continue;
                }
                match sq(r + 2 * dr, f + 2 * df) {
                    None => {
                        // Off the board: back to the owner's pool.
                        b.board[n] = None;
                        b.return_to_pool(p);
                    }
                    Some(t) if b.board[t].is_none() => {
                        b.board[t] = Some(p);
                        b.board[n] = None;
                    }
                    Some(_) => {} // blocked: stays put
                }
            }
        }
        b
    }

    /// Is square `s` held by player `who` (and, if `cats_only`, by a cat)?
    fn holds(&self, s: usize, who: usize, cats_only: bool) -> bool {
        matches!(self.board[s], Some(p) if p.owner == who && (p.cat || !cats_only))
    }

    /// Windows of three where every square holds one of `who`'s pieces.
    fn lines(&self, who: usize, cats_only: bool) -> Vec<[usize; 3]> {
        windows().into_iter().filter(|w| w.iter().all(|&s| self.holds(s, who, cats_only))).collect()
    }

    /// All complete turns; empty once someone has won.
    pub fn moves(&self) -> Vec<BoopMove> {
        let mut out = Vec::new();
        if self.winner.is_some() {
            return out;
        }
        let me = self.to_move;
        let mut kinds = Vec::new();
        if self.kittens[me] > 0 {
            kinds.push(false);
        }
        if self.cats[me] > 0 {
            kinds.push(true);
        }
        for &cat in &kinds {
            for square in (0..36).filter(|&s| self.board[s].is_none()) {
                let simple = BoopMove { cat, square, grad: None, remove: None };
                let b = self.place(cat, square);
                // 6.1: three cats in a line wins at once.
                if !b.lines(me, true).is_empty() {
                    out.push(simple);
                    continue;
                }
                // 6.2: graduation, one window of choice.
                let grads = b.lines(me, false);
                if !grads.is_empty() {
                    out.extend(
                        grads.into_iter().map(|w| BoopMove { grad: Some(w), ..simple.clone() }),
                    );
                    continue;
                }
                // 6.3: all eight on the bed.
                if b.kittens[me] + b.cats[me] == 0 {
                    let mine: Vec<usize> = (0..36).filter(|&s| b.holds(s, me, false)).collect();
                    if mine.iter().all(|&s| b.holds(s, me, true)) {
                        out.push(simple); // all cats: a win
                    } else {
                        out.extend(
                            mine.into_iter()
                                .map(|s| BoopMove { remove: Some(s), ..simple.clone() }),
                        );
                    }
                    continue;
                }
                out.push(simple);
            }
        }
        out
    }

    /// Plays a complete turn (assumed to come from `moves()`).
    pub fn play(&self, m: &BoopMove) -> Boop {
        let me = self.to_move;
        let mut b = self.place(m.cat, m.square);
        if !b.lines(me, true).is_empty() {
            b.winner = Some(me);
        } else if let Some(w) = m.grad {
            assert!(b.lines(me, false).contains(&w), "not a graduation line");
            for s in w {
                b.take_off(s);
            }
        } else if b.kittens[me] + b.cats[me] == 0 {
            assert!(b.lines(me, false).is_empty(), "graduation was required");
            match m.remove {
                Some(s) => b.take_off(s),
                None => {
                    assert!((0..36).all(|s| !b.holds(s, me, false) || b.holds(s, me, true)));
                    b.winner = Some(me); // all eight are cats
                }
            }
        } else {
            assert!(m.remove.is_none() && b.lines(me, false).is_empty());
        }
        b.to_move = 1 - me;
        b
    }
}

/// Number of move paths of exactly `depth` complete turns.
pub fn perft(pos: &Boop, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.moves().iter().map(|m| perft(&pos.play(m), depth - 1)).sum()
}
