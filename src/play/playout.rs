//! Random playouts: the engine's simplest player and a statistics source.
//!
//! A playout lists every move of each position with its resulting position
//! (`search::Successors`), picks one uniformly with the random source, and
//! continues from that position: no turn is run twice, and the buffers are
//! reused from ply to ply.

use crate::compile::{Compiled, Program};
use crate::eval::search::{Searcher, Successors};
use crate::rng::Rng;
use crate::state::{Move, Outcome, RunError, State};
use crate::Game;

/// What one random playout did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playout {
    /// Turns played.
    pub plies: u32,
    /// Sum of the number of legal moves over every position where a move
    /// was chosen, but for the `drawn` ones.
    pub branching: u64,
    /// Positions where the move was drawn without listing every move (see
    /// [`playout`]): their number of moves is not known, nor counted in
    /// `branching`.
    pub drawn: u32,
    /// How the game ended; `None` if it hit the length cap (unfinished, not a draw).
    pub outcome: Option<Outcome>,
    /// The moves played (only from [`playout_recorded`]).
    pub moves: Vec<Move>,
    /// The final position.
    pub last: State,
}

/// Plays uniformly random moves from `start` until the game ends or
/// `max_plies` turns were played. The moves themselves are not kept (see
/// [`playout_recorded`]).
///
/// Where a decision's options can only fail or finish the turn (pass 15,
/// "drawn tails"), the move is drawn without running every option: each
/// draw is uniform among the moves and the options not yet found to fail,
/// and an option drawn is run; one that fails is put aside and the draw
/// repeated. The move played is uniform among the moves all the same, but
/// the random numbers are spent differently than by listing the moves
/// and picking one ([`playout_listed`]), and the number of moves of such
/// a position is not known ([`Playout::drawn`]).
pub fn playout(
    g: &Game,
    start: &State,
    rng: &mut Rng,
    max_plies: u32,
) -> Result<Playout, RunError> {
    playout_with(g, start, rng, max_plies, true)
}

/// Like [`playout`], but every position lists all its moves and picks one
/// with `rng.below(number of moves)`, as a list of the moves would: the
/// course a player taking moves from the move list takes, and the number
/// of moves of every position is counted.
pub fn playout_listed(
    g: &Game,
    start: &State,
    rng: &mut Rng,
    max_plies: u32,
) -> Result<Playout, RunError> {
    playout_with(g, start, rng, max_plies, false)
}

fn playout_with(
    g: &Game,
    start: &State,
    rng: &mut Rng,
    max_plies: u32,
    draw: bool,
) -> Result<Playout, RunError> {
    CACHE.with(|cache| {
        // Re-entered (never today): fresh buffers for the inner playout.
        let mut fresh = Cache::default();
        let mut held = cache.try_borrow_mut();
        let c = match held.as_deref_mut() {
            Ok(c) => c,
            Err(_) => &mut fresh,
        };
        match g.program() {
            Compiled::W1(p) => playout_w(p, Bufs::of(&mut c.w1, p.id), start, rng, max_plies, draw),
            Compiled::W2(p) => playout_w(p, Bufs::of(&mut c.w2, p.id), start, rng, max_plies, draw),
            Compiled::W4(p) => playout_w(p, Bufs::of(&mut c.w4, p.id), start, rng, max_plies, draw),
        }
    })
}

/// The buffers of move generation, kept from one playout to the next (a
/// playout is short in many games, and growing them anew each time cost
/// more than the moves: a quarter of Tic-tac-toe's playout time was
/// `malloc` and `free`). They are sized for one program (`id`).
struct Bufs<const W: usize> {
    id: u64,
    searcher: Searcher<W>,
    succ: Successors<W>,
}

impl<const W: usize> Bufs<W> {
    /// The buffers in `slot` if they belong to program `id`, else new ones.
    fn of(slot: &mut Option<Bufs<W>>, id: u64) -> &mut Bufs<W> {
        if slot.as_ref().is_some_and(|b| b.id != id) {
            *slot = None;
        }
        slot.get_or_insert_with(|| Bufs {
            id,
            searcher: Searcher::default(),
            succ: Successors::default(),
        })
    }
}

/// One set of buffers per board width, per thread.
#[derive(Default)]
struct Cache {
    w1: Option<Bufs<1>>,
    w2: Option<Bufs<2>>,
    w4: Option<Bufs<4>>,
}

thread_local! {
    static CACHE: std::cell::RefCell<Cache> = std::cell::RefCell::default();
}

fn playout_w<const W: usize>(
    p: &Program<W>,
    bufs: &mut Bufs<W>,
    start: &State,
    rng: &mut Rng,
    max_plies: u32,
    draw: bool,
) -> Result<Playout, RunError> {
    // Boxed: the move played is swapped in from the search's levels.
    let mut s = Box::new(start.clone());
    let Bufs { searcher, succ, .. } = bufs;
    // Play adds no pieces to zones: their count at the start bounds it
    // at every later position.
    let pieces = p.fixed_pieces.then(|| start.zone_pieces(p.t.counter_base));
    succ.drawing(draw);
    // Moves drawn among candidates (passes 15 and 54) keep the position
    // searched.
    let draws = draw && (p.filter_draws || p.sites.iter().any(|s| s.drawn.is_some()));
    let mut branching = 0;
    // A ply is a move of a player, or a turn that chance alone played.
    let mut plies = 0;
    let mut turn_ply = start.ply;
    let mut moved = false;
    let mut drawn = 0;
    let mut chance_buf = (Vec::new(), Vec::new());
    let end = |s: Box<State>, plies, (branching, drawn), outcome| {
        Ok(Playout { plies, branching, drawn, outcome, moves: Vec::new(), last: *s })
    };
    loop {
        if s.outcome.is_some() {
            let o = s.outcome;
            return end(s, plies, (branching, drawn), o);
        }
        if s.turn() == crate::state::Turn::Chance {
            // Chance decides, with its probabilities; not a ply.
            // In the buffers' scratch run (no new frame per chance node).
            let (run, opts) = searcher.chance_run();
            let outcomes = &mut chance_buf.0;
            crate::eval::search::chance_outcomes_in(p, &s, run, opts, outcomes)?;
            let weights = &mut chance_buf.1;
            weights.clear();
            weights.extend(outcomes.iter().map(|o| o.1));
            let Some(i) = crate::rng::pick_weighted(weights, outcomes.len(), rng) else {
                return end(s, plies, (branching, drawn), None);
            };
            crate::eval::search::resolve_in(p, &mut s, &outcomes[i].0, run)?;
            if s.ply != turn_ply {
                if !moved {
                    plies += 1;
                }
                turn_ply = s.ply;
                moved = false;
            }
            if plies >= max_plies && s.turn() != crate::state::Turn::Over {
                return end(s, plies, (branching, drawn), None);
            }
            continue;
        }
        succ.clear(p.t.players);
        // The position moves into the search instead of a copy when
        // nothing reads it afterwards but the move played into it (or,
        // without a move, `on no moves`, once the search gives it back):
        // not at the length cap, which ends the playout on it, nor where
        // moves are drawn among candidates (kept with it).
        let owned = p.owned_search && s.pending.is_none() && plies < max_plies && !draws;
        if owned {
            // By pass 33's plan where it answers, else traced.
            let counted = match p.count_playouts {
                true => match searcher.count_planned(p, &mut s, pieces)? {
                    Some(n) => Some((n, true)),
                    None => searcher.count_owned(p, &mut s, pieces)?.map(|n| (n, false)),
                },
                false => None,
            };
            if let Some((n, planned)) = counted {
                // The moves counted, one drawn as from their list, and
                // only that one played: the course a search's list takes
                // (the same draws, the same move), without the list.
                branching += n;
                let i = rng.below(n as usize);
                if planned {
                    searcher.play_planned(p, i as u64, rng, &mut s)?;
                } else {
                    searcher.play_counted(p, i as u64, rng, &mut s)?;
                }
                plies += 1;
                moved = s.ply == turn_ply;
                turn_ply = s.ply;
                continue;
            }
            searcher.search_owned(p, &mut s, succ, pieces)?;
        } else {
            searcher.search_within(p, &s, succ, pieces)?;
        }
        succ.within_limit(p)?;
        let n = succ.total;
        if owned && (n == 0 || succ.candidates > 0) && !searcher.give_back(&mut s) {
            return Err(RunError::new(
                "internal error: a search kept the position it was to give back",
                Default::default(),
            ));
        }
        if succ.candidates > 0 {
            // Some moves are candidates of a drawn decision (pass 15):
            // drawn without running them all. The length cap is checked
            // first, as below, once it is known whether there is a move.
            let stuck = if plies >= max_plies {
                if succ.any_move(p)? {
                    return end(s, plies, (branching, drawn), None);
                }
                true
            } else {
                !succ.draw(p, rng, &mut s)?
            };
            if !stuck {
                plies += 1;
                drawn += 1;
                moved = s.ply == turn_ply;
                turn_ply = s.ply;
                continue;
            }
        }
        if n == 0 {
            // No move of the turn: `on no moves` ends the game or passes.
            let st = crate::eval::stuck_in(p, &s, searcher)?;
            if st.outcome.is_some() {
                return end(s, plies, (branching, drawn), st.outcome);
            }
            if plies >= max_plies {
                return end(s, plies, (branching, drawn), None);
            }
            branching += 1;
            rng.below(1);
            *s = st;
            plies += 1;
            moved = s.ply == turn_ply;
            turn_ply = s.ply;
            continue;
        }
        if plies >= max_plies {
            return end(s, plies, (branching, drawn), None);
        }
        branching += n as u64;
        let i = rng.below(n);
        // A move that stops at a chance event: chance decides at once, and
        // the turn goes on from where it stopped.
        succ.play_out(p, i, rng, &mut s)?;
        plies += 1;
        moved = s.ply == turn_ply;
        turn_ply = s.ply;
    }
}

/// Like [`playout`], keeping the moves played (slower: each move is built
/// and played from the move list).
pub fn playout_recorded(
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
    let mut turn_ply = s.ply();
    let mut moved = false;
    loop {
        if s.turn() == crate::state::Turn::Chance {
            let outcomes = s.chance_outcomes(g)?;
            let weights: Vec<u32> = outcomes.iter().map(|o| o.1).collect();
            let Some(i) = crate::rng::pick_weighted(&weights, outcomes.len(), rng) else {
                return Ok(Playout {
                    plies,
                    branching,
                    drawn: 0,
                    outcome: None,
                    moves: played,
                    last: s,
                });
            };
            let m = outcomes[i].0.clone();
            s.play_unchecked(g, &m)?;
            played.push(m);
            if s.ply() != turn_ply {
                if !moved {
                    plies += 1;
                }
                turn_ply = s.ply();
                moved = false;
            }
            if plies >= max_plies && s.turn() != crate::state::Turn::Over {
                return Ok(Playout {
                    plies,
                    branching,
                    drawn: 0,
                    outcome: None,
                    moves: played,
                    last: s,
                });
            }
            continue;
        }
        s.legal_moves_into(g, &mut moves)?;
        if moves.is_empty() {
            let outcome = s.outcome(g)?;
            return Ok(Playout { plies, branching, drawn: 0, outcome, moves: played, last: s });
        }
        if plies >= max_plies {
            return Ok(Playout {
                plies,
                branching,
                drawn: 0,
                outcome: None,
                moves: played,
                last: s,
            });
        }
        branching += moves.len() as u64;
        let m = &moves[rng.below(moves.len())];
        s.play_unchecked(g, m)?;
        played.push(m.clone());
        plies += 1;
        moved = s.ply() == turn_ply;
        turn_ply = s.ply();
    }
}
