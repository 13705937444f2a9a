//! boop. (rules/boop.md, games/boop.game), hand-written with bitboards.
//!
//! Squares are numbered `rank * 6 + file`: a1 = 0, b1 = 1, ..., f6 = 35,
//! the interpreter's cell order. A move is a complete turn: the piece and
//! square, the graduating line if one must graduate, the removed piece if
//! all eight were on the bed. Resolutions of `games/boop.game`: only the
//! mover's lines are checked; three Cats win before any graduation; with
//! all eight on the bed and no line, eight Cats win, otherwise the mover
//! removes any one of their pieces.

use super::{bits64, Outcome, Rng};

/// Board side.
const N: usize = 6;
/// Squares.
const SQUARES: usize = N * N;
/// All squares.
const FULL: u64 = (1 << SQUARES) - 1;
/// "No square".
const NONE: u8 = u8::MAX;
/// Pieces each player owns.
const PIECES: u8 = 8;

/// The four line axes in the canonical line order: east, north,
/// north-east, north-west (as `(rank, file)` steps).
const AXES: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Each player's Kittens on the bed.
    pub kittens: [u64; 2],
    /// Each player's Cats on the bed.
    pub cats: [u64; 2],
    /// Kittens in each pool.
    pub pool_kittens: [u8; 2],
    /// Cats in each pool.
    pub pool_cats: [u8; 2],
    /// Cats out of play (not graduated yet).
    pub stock: [u8; 2],
    /// Player to move: 0 = Orange, 1 = Gray.
    pub to_move: u8,
    /// The winner, once someone has won.
    pub winner: Option<u8>,
}

impl State {
    fn pieces(&self, p: usize) -> u64 {
        self.kittens[p] | self.cats[p]
    }

    fn occupied(&self) -> u64 {
        self.pieces(0) | self.pieces(1)
    }
}

/// A complete turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// A Cat (`true`) or a Kitten.
    pub cat: bool,
    /// The square placed on.
    pub square: u8,
    /// The graduating line (an index into [`Game::line`]).
    pub grad: Option<u8>,
    /// The square of the piece removed under the all-eight rule.
    pub remove: Option<u8>,
}

/// The fixed tables.
#[derive(Debug, Clone)]
pub struct Game {
    /// Per square, the neighbour in each of the 8 directions and the square
    /// beyond it (`NONE` off the bed).
    boop: [[(u8, u8); 8]; SQUARES],
    /// Per square, its on-board neighbours.
    around: [u64; SQUARES],
    /// Per axis: the shift of one step and the squares where a line of
    /// three starts.
    axes: [(u32, u64); 4],
    /// Per square and axis, the line index starting there.
    line_at: [[u8; 4]; SQUARES],
    /// The lines of three, by start square then axis.
    lines: Vec<[u8; 3]>,
}

fn square(rank: i32, file: i32) -> u8 {
    if (0..N as i32).contains(&rank) && (0..N as i32).contains(&file) {
        (rank * N as i32 + file) as u8
    } else {
        NONE
    }
}

impl Default for Game {
    fn default() -> Self {
        Self::new()
    }
}

impl Game {
    /// Builds the tables.
    pub fn new() -> Game {
        let mut boop = [[(NONE, NONE); 8]; SQUARES];
        let mut around = [0u64; SQUARES];
        let mut line_at = [[NONE; 4]; SQUARES];
        let mut lines = Vec::new();
        let mut axes = [(0u32, 0u64); 4];
        for (a, &(dr, df)) in AXES.iter().enumerate() {
            axes[a].0 = (dr * N as i32 + df) as u32;
        }
        for s in 0..SQUARES {
            let (r, f) = ((s / N) as i32, (s % N) as i32);
            let mut d = 0;
            for dr in -1..=1 {
                for df in -1..=1 {
                    if (dr, df) == (0, 0) {
                        continue;
                    }
                    let n = square(r + dr, f + df);
                    if n != NONE {
                        around[s] |= 1 << n;
                        boop[s][d] = (n, square(r + 2 * dr, f + 2 * df));
                    }
                    d += 1;
                }
            }
            for (a, &(dr, df)) in AXES.iter().enumerate() {
                let (b, c) = (square(r + dr, f + df), square(r + 2 * dr, f + 2 * df));
                if b != NONE && c != NONE {
                    axes[a].1 |= 1 << s;
                    line_at[s][a] = lines.len() as u8;
                    lines.push([s as u8, b, c]);
                }
            }
        }
        Game { boop, around, axes, line_at, lines }
    }

    /// The squares of line `i`, in order along its axis.
    pub fn line(&self, i: u8) -> [u8; 3] {
        self.lines[i as usize]
    }

    /// Per axis, the squares where a line of three pieces of `m` starts.
    #[inline]
    fn line_starts(&self, m: u64) -> [u64; 4] {
        self.axes.map(|(k, starts)| m & (m >> k) & (m >> (2 * k)) & starts)
    }

    #[inline]
    fn has_line(&self, m: u64) -> bool {
        self.line_starts(m).iter().any(|&x| x != 0)
    }

    /// The empty bed, eight Kittens in each pool and eight Cats in each
    /// stock, Orange to move.
    pub fn initial(&self) -> State {
        State {
            kittens: [0; 2],
            cats: [0; 2],
            pool_kittens: [PIECES; 2],
            pool_cats: [0; 2],
            stock: [PIECES; 2],
            to_move: 0,
            winner: None,
        }
    }

    /// Rules 4 and 5: place a piece of the mover and boop its neighbours.
    #[inline]
    fn place(&self, s: &State, cat: bool, sq: usize) -> State {
        let me = s.to_move as usize;
        let mut t = *s;
        if cat {
            t.pool_cats[me] -= 1;
            t.cats[me] |= 1 << sq;
        } else {
            t.pool_kittens[me] -= 1;
            t.kittens[me] |= 1 << sq;
        }
        let occ = s.occupied();
        if self.around[sq] & occ == 0 {
            return t;
        }
        // Pieces this one may push: a Kitten pushes only Kittens.
        let pushable = if cat { occ } else { s.kittens[0] | s.kittens[1] };
        for &(n, beyond) in &self.boop[sq] {
            if n == NONE || pushable >> n & 1 == 0 {
                continue;
            }
            let nb = 1u64 << n;
            let owner = usize::from(t.pieces(1) & nb != 0);
            let is_cat = t.cats[owner] & nb != 0;
            if beyond == NONE {
                // Off the bed: home to its owner's pool.
                if is_cat {
                    t.cats[owner] &= !nb;
                    t.pool_cats[owner] += 1;
                } else {
                    t.kittens[owner] &= !nb;
                    t.pool_kittens[owner] += 1;
                }
            } else if t.occupied() >> beyond & 1 == 0 {
                let bb = 1u64 << beyond;
                if is_cat {
                    t.cats[owner] ^= nb | bb;
                } else {
                    t.kittens[owner] ^= nb | bb;
                }
            }
        }
        t
    }

    /// Takes the mover's piece off `sq` (graduation or the all-eight rule):
    /// the pool gains a Cat; a Kitten brings it from the stock.
    #[inline]
    fn promote(t: &mut State, me: usize, sq: usize) {
        let b = 1u64 << sq;
        if t.kittens[me] & b != 0 {
            t.kittens[me] &= !b;
            t.stock[me] -= 1;
        } else {
            t.cats[me] &= !b;
        }
        t.pool_cats[me] += 1;
    }

    /// Calls `f` with every complete turn and the position after it.
    #[inline]
    fn generate(&self, s: &State, mut f: impl FnMut(Move, &State)) {
        if s.winner.is_some() {
            return;
        }
        let me = s.to_move as usize;
        let empty = !s.occupied() & FULL;
        for cat in [false, true] {
            let have = if cat { s.pool_cats[me] } else { s.pool_kittens[me] };
            if have == 0 {
                continue;
            }
            for sq in bits64(empty) {
                let simple = Move { cat, square: sq as u8, grad: None, remove: None };
                let mut t = self.place(s, cat, sq);
                t.to_move ^= 1;
                // 6.1 Three Cats in a line win.
                if self.has_line(t.cats[me]) {
                    t.winner = Some(me as u8);
                    f(simple, &t);
                    continue;
                }
                // 6.2 Graduation of one line of three.
                let mine = t.pieces(me);
                let starts = self.line_starts(mine);
                let any = starts[0] | starts[1] | starts[2] | starts[3];
                if any != 0 {
                    for start in bits64(any) {
                        for (axis, st) in starts.iter().enumerate() {
                            if st >> start & 1 != 0 {
                                let l = self.line_at[start][axis];
                                let mut u = t;
                                for &c in &self.lines[l as usize] {
                                    Self::promote(&mut u, me, c as usize);
                                }
                                f(Move { grad: Some(l), ..simple }, &u);
                            }
                        }
                    }
                    continue;
                }
                // 6.3 All eight on the bed.
                if t.pool_kittens[me] + t.pool_cats[me] == 0 {
                    if t.kittens[me] == 0 {
                        t.winner = Some(me as u8);
                        f(simple, &t);
                    } else {
                        for r in bits64(mine) {
                            let mut u = t;
                            Self::promote(&mut u, me, r);
                            f(Move { remove: Some(r as u8), ..simple }, &u);
                        }
                    }
                    continue;
                }
                f(simple, &t);
            }
        }
    }

    /// The number of complete turns, without building them.
    fn count_moves(&self, s: &State) -> u64 {
        if s.winner.is_some() {
            return 0;
        }
        let me = s.to_move as usize;
        let empty = !s.occupied() & FULL;
        let mut n = 0u64;
        for cat in [false, true] {
            let have = if cat { s.pool_cats[me] } else { s.pool_kittens[me] };
            if have == 0 {
                continue;
            }
            for sq in bits64(empty) {
                let t = self.place(s, cat, sq);
                if self.has_line(t.cats[me]) {
                    n += 1;
                    continue;
                }
                let mine = t.pieces(me);
                let lines: u32 = self.line_starts(mine).iter().map(|x| x.count_ones()).sum();
                n += if lines > 0 {
                    u64::from(lines)
                } else if t.pool_kittens[me] + t.pool_cats[me] == 0 && t.kittens[me] != 0 {
                    u64::from(mine.count_ones())
                } else {
                    1
                };
            }
        }
        n
    }

    /// Every complete turn, into `out` (cleared first): Kittens before
    /// Cats, squares ascending, lines by start square then axis, removals
    /// by square.
    pub fn legal_moves(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        self.generate(s, |m, _| out.push(m));
    }

    /// The position after a complete turn from [`Game::legal_moves`].
    pub fn play(&self, s: &State, m: &Move) -> State {
        let me = s.to_move as usize;
        let mut t = self.place(s, m.cat, m.square as usize);
        t.to_move ^= 1;
        if self.has_line(t.cats[me]) {
            t.winner = Some(me as u8);
        } else if let Some(l) = m.grad {
            for &c in &self.lines[l as usize] {
                Self::promote(&mut t, me, c as usize);
            }
        } else if let Some(r) = m.remove {
            Self::promote(&mut t, me, r as usize);
        } else if t.pool_kittens[me] + t.pool_cats[me] == 0 {
            t.winner = Some(me as u8);
        }
        t
    }

    /// The result, once the game is over.
    pub fn outcome(&self, s: &State) -> Option<Outcome> {
        s.winner.map(Outcome::Win)
    }

    /// Complete-turn move paths of exactly `depth`.
    pub fn perft(&self, s: &State, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(s),
            _ => {
                let mut n = 0;
                self.generate(s, |_, t| n += self.perft(t, depth - 1));
                n
            }
        }
    }

    /// A uniformly random game from `s` until it ends or `max_plies`
    /// turns were played; returns the plies played and the last position.
    pub fn playout(&self, s: &State, rng: &mut Rng, max_plies: u32) -> (u32, State) {
        let mut moves = Vec::with_capacity(128);
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
