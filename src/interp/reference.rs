//! The reference interpreter's move generation: the tree-walking
//! interpreter (`exec`) re-runs the turn from its start for every node of
//! the choice tree. Slow and simple; the compiled evaluator is checked
//! against it (the same moves in the same order, the same resulting
//! positions, the same outcomes), and `explain` runs on it.

use super::exec::{Exec, Flow, Frame};
use crate::ir::Game;
use crate::source::Span;
use crate::state::{Choice, Move, Outcome, RunError, State, NODE_LIMIT};

/// The starting position with `seed`, set up by the reference interpreter.
pub fn initial(g: &Game, seed: u64) -> Result<State, RunError> {
    let mut s = State::empty(g);
    s.rng = crate::rng::Rng::new(seed).next_u64();
    let mut slots = Frame::new(g);
    let mut ex = Exec::new(g, &mut s, &mut slots, &[]);
    match ex.run(&g.setup)? {
        Flow::Fail(span) => Err(RunError {
            message: "setup could not be carried out (an effect was impossible)".into(),
            span,
        }),
        Flow::Pause => Err(RunError {
            message: "setup cannot ask for decisions".into(),
            span: Span::default(),
        }),
        Flow::Next | Flow::End => Ok(s),
    }
}

/// All legal moves in canonical order (empty exactly when the game is over).
pub fn legal_moves(g: &Game, s: &State) -> Result<Vec<Move>, RunError> {
    let mut out = Vec::new();
    if s.outcome.is_some() {
        return Ok(out);
    }
    turn_moves(g, s, &mut out)?;
    if out.is_empty() && stuck(g, s)?.outcome.is_none() {
        out.push(Move { choices: Vec::new(), stuck: true });
    }
    Ok(out)
}

/// The outcome, if the game is over.
pub fn outcome(g: &Game, s: &State) -> Result<Option<Outcome>, RunError> {
    if s.outcome.is_some() {
        return Ok(s.outcome);
    }
    let mut moves = Vec::new();
    turn_moves(g, s, &mut moves)?;
    if !moves.is_empty() {
        return Ok(None);
    }
    Ok(stuck(g, s)?.outcome)
}

/// Plays a move (from [`legal_moves`]) by running the turn with its choices.
pub fn play(g: &Game, s: &State, mv: &Move) -> Result<State, RunError> {
    if mv.stuck {
        return stuck(g, s);
    }
    let mut t = s.clone();
    let mut slots = Frame::new(g);
    let flow = Exec::new(g, &mut t, &mut slots, &mv.choices).run(&g.turn)?;
    match flow {
        Flow::Next | Flow::End => {
            if t.outcome.is_none() {
                t.advance(g.players.len());
            }
            Ok(t)
        }
        Flow::Fail(span) => {
            Err(RunError { message: "this move is not legal in this position".into(), span })
        }
        Flow::Pause => Err(RunError {
            message: "the move stops before the turn is complete".into(),
            span: g.turn_span,
        }),
    }
}

/// Runs `on no moves` on a copy (see `State::outcome`).
fn stuck(g: &Game, s: &State) -> Result<State, RunError> {
    let mut t = s.clone();
    let Some(body) = &g.no_moves else {
        t.outcome = Some(Outcome::Draw);
        return Ok(t);
    };
    let mut slots = Frame::new(g);
    if let Flow::Fail(span) = Exec::new(g, &mut t, &mut slots, &[]).run(body)? {
        return Err(RunError { message: "`on no moves` could not be carried out".into(), span });
    }
    if t.outcome.is_some() {
        return Ok(t);
    }
    let mut nobody = true;
    let mut moves = Vec::new();
    for p in 0..g.players.len() as u8 {
        let mut u = s.clone();
        u.current = p;
        turn_moves(g, &u, &mut moves)?;
        if !moves.is_empty() {
            nobody = false;
            break;
        }
    }
    if nobody {
        let mut end = s.clone();
        if let Some(body) = &g.at_end {
            if let Flow::Fail(span) = Exec::new(g, &mut end, &mut slots, &[]).run(body)? {
                return Err(RunError { message: "`at end` could not be carried out".into(), span });
            }
        }
        end.outcome = end.outcome.or(Some(Outcome::Draw));
        return Ok(end);
    }
    t.advance(g.players.len());
    Ok(t)
}

/// The reusable working memory of move generation.
struct Search {
    prefix: Vec<Choice>,
    frame: Frame,
    options: Vec<Choice>,
    scratch: State,
    budget: u32,
}

fn turn_moves(g: &Game, s: &State, out: &mut Vec<Move>) -> Result<(), RunError> {
    out.clear();
    let mut search = Search {
        prefix: Vec::new(),
        frame: Frame::new(g),
        options: Vec::new(),
        scratch: s.clone(),
        budget: NODE_LIMIT,
    };
    expand(g, s, &mut search, out)
}

/// One node of the choice tree: run the turn with the choices made so
/// far on a copy of the state, then either record a move, drop a failed
/// branch, or recurse into the options of the next decision.
fn expand(g: &Game, s: &State, k: &mut Search, out: &mut Vec<Move>) -> Result<(), RunError> {
    k.scratch.copy_from(s);
    k.options.clear();
    let flow = {
        let mut ex = Exec::new(g, &mut k.scratch, &mut k.frame, &k.prefix);
        ex.collect = Some(&mut k.options);
        ex.run(&g.turn)?
    };
    match flow {
        Flow::Next | Flow::End => out.push(Move { choices: k.prefix.clone(), stuck: false }),
        Flow::Fail(_) => {}
        Flow::Pause => {
            let opts = std::mem::take(&mut k.options);
            if opts.len() as u32 > k.budget {
                let span = opts.first().map_or(g.turn_span, |o| g.sites[o.site as usize].span);
                return Err(RunError {
                    message: format!(
                        "one turn explores more than {NODE_LIMIT} choices; are its decisions meant to multiply like this?"
                    ),
                    span,
                });
            }
            k.budget -= opts.len() as u32;
            for o in &opts {
                k.prefix.push(*o);
                expand(g, s, k, out)?;
                k.prefix.pop();
            }
        }
    }
    Ok(())
}

/// Player `p`'s score by `def score(p)`, evaluated by the reference interpreter.
pub fn score(g: &Game, s: &State, p: u8) -> Result<Option<i64>, RunError> {
    let Some((slot, e)) = &g.score else { return Ok(None) };
    let mut slots = Frame::new(g);
    slots.slots[*slot as usize] = crate::ir::Value::Player(p);
    let mut t = s.clone();
    let mut ex = Exec::new(g, &mut t, &mut slots, &[]);
    match ex.eval_expr(e)? {
        crate::ir::Value::Int(n) => Ok(Some(n)),
        _ => Ok(None),
    }
}
