//! The engine that plays against people in `tabula play`.
//!
//! `MonteCarlo` plays the move whose random continuations it wins most.
//! `Random` picks uniformly among the legal moves. `Greedy` takes a move
//! that wins at once (by a `win` rule) if there is one, and otherwise
//! avoids moves after which the next player can win at once, when there
//! are few enough positions to look at. Greedy looks only at positions the rules let it see: in
//! games with hidden zones it would peek at cards, so it plays randomly
//! there.

use crate::rng::Rng;
use crate::state::{Move, Outcome, RunError, State};
use crate::Game;

/// How the engine chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Uniformly random.
    Random,
    /// Win at once if possible; otherwise avoid handing over a win.
    Greedy,
    /// Flat Monte Carlo with this many random games per decision.
    MonteCarlo(u32),
}

/// Most positions `Greedy` looks at to avoid handing over a win.
const LOOK_LIMIT: usize = 20_000;

impl Engine {
    /// The engine's choice among `moves` (the legal moves of `s`, not empty).
    pub fn choose(
        self,
        g: &Game,
        s: &State,
        moves: &[Move],
        rng: &mut Rng,
    ) -> Result<Move, RunError> {
        if let Engine::MonteCarlo(n) = self {
            return monte_carlo(g, s, moves, n, 300, rng);
        }
        if self == Engine::Random
            || g.has_hidden_information()
            || moves.len() < 2
            || moves.len() > 400
        {
            return Ok(moves[rng.below(moves.len())].clone());
        }
        let me = s.current();
        // Only wins declared by a rule are looked for: deciding "no moves"
        // endings would mean generating every reply's moves.
        let wins = |o: Option<Outcome>, p: u8| o.is_some_and(|o| o.is_winner(p));
        let mut after = Vec::with_capacity(moves.len());
        let mut winning = Vec::new();
        for m in moves {
            let mut t = s.clone();
            t.play_unchecked(g, m)?;
            if wins(t.ended(), me) {
                winning.push(m);
            }
            after.push(t);
        }
        if !winning.is_empty() {
            return Ok(winning[rng.below(winning.len())].clone());
        }
        // Avoid moves after which the next player wins at once.
        let mut safe = Vec::new();
        let mut looked = 0;
        for (m, t) in moves.iter().zip(&after) {
            let replies = t.legal_moves(g)?;
            looked += replies.len();
            if looked > LOOK_LIMIT {
                return Ok(moves[rng.below(moves.len())].clone());
            }
            let mut loses = false;
            for r in &replies {
                let mut u = t.clone();
                u.play_unchecked(g, r)?;
                if wins(u.ended(), t.current()) {
                    loses = true;
                    break;
                }
            }
            if !loses {
                safe.push(m);
            }
        }
        let pool: Vec<&Move> = if safe.is_empty() { moves.iter().collect() } else { safe };
        Ok(pool[rng.below(pool.len())].clone())
    }
}

/// Flat Monte Carlo: every legal move gets an equal share of `playouts`
/// random games; the move whose games the mover wins most often is played
/// (a draw or a game cut at `max_plies` counts half). For games without
/// hidden zones only (elsewhere it plays randomly).
pub fn monte_carlo(
    g: &Game,
    s: &State,
    moves: &[Move],
    playouts: u32,
    max_plies: u32,
    rng: &mut Rng,
) -> Result<Move, RunError> {
    if g.has_hidden_information() || moves.len() < 2 {
        return Ok(moves[rng.below(moves.len())].clone());
    }
    let me = s.current();
    let per_move = (playouts as usize / moves.len()).max(1);
    let mut best: Option<(u32, usize)> = None;
    for (i, m) in moves.iter().enumerate() {
        let mut t = s.clone();
        t.play_unchecked(g, m)?;
        let mut score = 0u32; // half points
        for _ in 0..per_move {
            let p = super::playout(g, &t, rng, max_plies)?;
            score += match p.outcome {
                Some(o) if o.is_winner(me) => 2,
                Some(Outcome::Win(_)) => 0,
                Some(Outcome::Shared(_)) => 0,
                _ => 1,
            };
        }
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, i));
        }
    }
    Ok(moves[best.map_or(0, |b| b.1)].clone())
}
