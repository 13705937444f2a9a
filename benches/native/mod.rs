//! Hand-written native engines for four bundled games, the baselines the
//! interpreter is measured against (`cargo bench`) and cross-checked with
//! (`tests/it/native.rs` and the games' tests).
//!
//! Each is plain Rust written for that one game, from the rules texts and
//! the resolutions taken in `games/*.game`; none uses the `tabula` crate.
//! Every module has the same shape:
//!
//! - `Game`: the fixed tables (neighbours, lines, placements) and parameters;
//! - `State` (`Clone`, small, mostly `Copy`): one position;
//! - `Game::initial` (Bug Off!: `Game::deal(seed)`, a random deal), and
//!   `Game::legal_moves(&State, &mut Vec<Move>)`: every complete turn, into
//!   a reused buffer, in the interpreter's canonical order;
//! - `Game::play`, `Game::outcome`;
//! - `Game::perft(&State, depth)`: complete-turn move paths of exactly
//!   `depth` (a forced pass is one move; a finished game contributes
//!   nothing), and `Game::playout(&State, &mut Rng, max_plies)`: uniformly
//!   random complete moves until the game ends or the cap, returning the
//!   number of plies played.
#![allow(dead_code)]

pub mod boop;
pub mod bug;
pub mod bug_off;
pub mod snekagon;

/// SplitMix64: a tiny seeded generator for playouts and deals.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One player won.
    Win(u8),
    /// The players in the bit mask share the win.
    Shared(u8),
    /// Nobody won.
    Draw,
}

/// The set bits of a word, lowest first.
pub fn bits64(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

/// The set bits of a 128-bit word, lowest first.
pub fn bits128(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}
