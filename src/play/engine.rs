//! The engines of `tabula play` and `tabula match`.
//!
//! [`Spec`] names an engine as the command line does (`random`, `greedy`,
//! `mc:1000`, `mcts:1000`, `mcts:500ms`, `mcts:1000x4`); [`Player`] is an
//! engine ready to play, keeping what it learnt between moves (the search
//! trees of [`super::mcts`]).
//!
//! `MonteCarlo` plays the move whose random continuations it wins most.
//! `Random` picks uniformly among the legal moves. `Greedy` takes a move
//! that wins at once (by a `win` rule) if there is one, and otherwise
//! avoids moves after which the next player can win at once, when there
//! are few enough positions to look at. Greedy looks only at positions the rules let it see: in
//! games with hidden zones it would peek at cards, so it plays randomly
//! there.

use super::mcts::{Budget, Config, Mcts, Report};
use crate::rng::Rng;
use crate::state::{Move, Outcome, RunError, State};
use crate::Game;
use std::sync::atomic::AtomicU64;

/// An engine by name, as `--seat 2=mcts:2000` or `match --a greedy` write it.
#[derive(Debug, Clone, PartialEq)]
pub enum Spec {
    /// `random`: uniformly random moves.
    Random,
    /// `greedy`: wins at once when it can, avoids handing over a win.
    Greedy,
    /// `mc:N`: flat Monte Carlo, N random games per decision.
    MonteCarlo(u32),
    /// `mcts:N` (N playouts), `mcts:Nms` (N milliseconds), with `xT` for T
    /// root-parallel trees: Monte Carlo tree search.
    Mcts(Config),
}

impl std::str::FromStr for Spec {
    type Err = String;

    fn from_str(text: &str) -> Result<Spec, String> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || {
            format!(
                "`{text}` is not an engine: write random, greedy, mc:N, mcts:N (playouts), \
                 mcts:Nms (milliseconds) or mcts:NxT (T trees)"
            )
        };
        let (name, arg) = t.split_once(':').map_or((t.as_str(), None), |(a, b)| (a, Some(b)));
        match (name, arg) {
            ("random", None) => Ok(Spec::Random),
            ("greedy", None) => Ok(Spec::Greedy),
            ("mc", None) => Ok(Spec::MonteCarlo(1000)),
            ("mc", Some(n)) => {
                n.parse().ok().filter(|&n| n > 0).map(Spec::MonteCarlo).ok_or_else(bad)
            }
            ("mcts", None) => Ok(Spec::Mcts(Config::playouts(1000))),
            ("mcts", Some(arg)) => {
                let (budget, trees) = match arg.split_once('x') {
                    Some((b, t)) => (b, t.parse::<u32>().ok().filter(|t| (1..=256).contains(t))),
                    None => (arg, Some(1)),
                };
                let trees = trees.ok_or_else(bad)?;
                let budget = if let Some(ms) = budget.strip_suffix("ms") {
                    Budget::Time(std::time::Duration::from_millis(ms.parse().map_err(|_| bad())?))
                } else if let Some(s) = budget.strip_suffix('s') {
                    let secs: u64 = s.parse().map_err(|_| bad())?;
                    Budget::Time(std::time::Duration::from_secs(secs))
                } else {
                    Budget::Playouts(budget.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?)
                };
                Ok(Spec::Mcts(Config { budget, trees, ..Config::playouts(1) }))
            }
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Random => write!(f, "random"),
            Spec::Greedy => write!(f, "greedy"),
            Spec::MonteCarlo(n) => write!(f, "mc:{n}"),
            Spec::Mcts(c) => write!(f, "{c}"),
        }
    }
}

/// An engine playing a game: its spec and what it keeps between moves.
#[derive(Debug)]
pub struct Player {
    /// Which engine.
    pub spec: Spec,
    mcts: Option<Mcts>,
}

/// An engine's move, with the search's figures when it searched.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The move.
    pub mv: Move,
    /// The search report (`mcts` only).
    pub report: Option<Report>,
}

impl Player {
    /// An engine; a search runs its trees on `jobs` threads.
    pub fn new(spec: Spec, jobs: usize) -> Player {
        let mcts = match &spec {
            Spec::Mcts(c) => Some(Mcts::new(c.clone(), jobs)),
            _ => None,
        };
        Player { spec, mcts }
    }

    /// Chooses among `moves` (the legal moves of `s`, not empty).
    /// `progress` counts a search's playouts as they run.
    pub fn choose(
        &mut self,
        g: &Game,
        s: &State,
        moves: &[Move],
        rng: &mut Rng,
        progress: Option<&AtomicU64>,
    ) -> Result<Decision, RunError> {
        let engine = match &self.spec {
            Spec::Random => Engine::Random,
            Spec::Greedy => Engine::Greedy,
            Spec::MonteCarlo(n) => Engine::MonteCarlo(*n),
            Spec::Mcts(_) => {
                if let Some(m) = &mut self.mcts {
                    let r = m.choose(g, s, moves, rng, progress)?;
                    return Ok(Decision { mv: r.mv.clone(), report: Some(r) });
                }
                Engine::Random
            }
        };
        Ok(Decision { mv: engine.choose(g, s, moves, rng)?, report: None })
    }

    /// Forgets what was learnt (a new game).
    pub fn reset(&mut self) {
        if let Some(m) = &mut self.mcts {
            m.clear();
        }
    }
}

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
