//! Random playouts: the engine's simplest player and a statistics source.

use super::{Move, Outcome, RunError, State};
use crate::ir::Game;
use crate::rng::Rng;

/// What one random playout did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playout {
    /// Turns played.
    pub plies: u32,
    /// Sum of the number of legal moves over every position where a move was chosen.
    pub branching: u64,
    /// How the game ended; `None` if it hit the length cap (unfinished, not a draw).
    pub outcome: Option<Outcome>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The final position.
    pub last: State,
}

/// Plays uniformly random moves from `start` until the game ends or
/// `max_plies` turns were played.
pub fn playout(
    g: &Game,
    start: &State,
    rng: &mut Rng,
    max_plies: u32,
) -> Result<Playout, RunError> {
    let mut s = start.clone();
    let mut moves = Vec::new();
    let mut played = Vec::new();
    let mut branching = 0;
    let mut plies = 0;
    loop {
        s.legal_moves_into(g, &mut moves)?;
        if moves.is_empty() {
            let outcome = s.outcome(g)?;
            return Ok(Playout { plies, branching, outcome, moves: played, last: s });
        }
        if plies >= max_plies {
            return Ok(Playout { plies, branching, outcome: None, moves: played, last: s });
        }
        branching += moves.len() as u64;
        let m = &moves[rng.below(moves.len())];
        s.play_unchecked(g, m)?;
        played.push(m.clone());
        plies += 1;
    }
}
