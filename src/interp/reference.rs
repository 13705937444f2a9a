//! The reference interpreter's move generation: the tree-walking
//! interpreter (`exec`) re-runs the turn from its start for every node of
//! the choice tree. Slow and simple; the compiled evaluator is checked
//! against it (the same moves in the same order, the same resulting
//! positions, the same outcomes), and `explain` runs on it.
//!
//! A turn interrupted by a chance event is kept as its start and its events
//! (`State::pending`); this interpreter resumes it the way it does
//! everything else: by running the turn again with those events as the
//! first choices.

use super::exec::{Exec, Flow, Frame};
use crate::ir::Game;
use crate::source::Span;
use crate::state::{
    Choice, Move, Outcome, Pending, RunError, State, Turn, DECISION_LIMIT, LIST_LIMIT,
};

/// How a run of the turn with given choices ended.
enum End {
    /// The turn finished; its position (before the turn passes).
    Done(State),
    /// A rule failed.
    Fail(Span),
    /// Stopped at a decision or chance event after the given choices.
    Pause { site: u16, options: Vec<Choice>, weights: Vec<u32>, at: State },
}

/// Runs `block` from `start` with `choices` taken in order.
fn run(
    g: &Game,
    block: &[crate::ir::Stmt],
    start: &State,
    choices: &[Choice],
) -> Result<End, RunError> {
    let mut t = start.clone();
    let mut frame = Frame::new(g);
    let mut options = Vec::new();
    let (flow, weights) = {
        let mut ex = Exec::new(g, &mut t, &mut frame, choices);
        ex.collect = Some(&mut options);
        let flow = ex.run(block)?;
        (flow, std::mem::take(&mut ex.weights))
    };
    Ok(match flow {
        Flow::Next | Flow::End => End::Done(t),
        Flow::Fail(span) => End::Fail(span),
        Flow::Pause => {
            let site = options.first().map_or(0, |c| c.site);
            End::Pause { site, options, weights, at: t }
        }
    })
}

fn is_chance(g: &Game, site: u16) -> bool {
    g.sites.get(site as usize).is_some_and(|s| s.chance)
}

/// The turn's start and its events so far.
fn turn_of(s: &State) -> (State, Vec<Choice>) {
    let mut start = s.clone();
    let events = start.pending.take().map_or_else(Vec::new, |p| p.events);
    (start, events)
}

/// A position at the start of a turn, with the turn's events so far.
fn under_way(mut start: State, events: Vec<Choice>, chance: bool) -> State {
    start.pending = Some(Box::new(Pending { events, chance }));
    start
}

/// What the board and zones look like at the stop of a turn under way
/// (the position itself for a turn that has not begun).
pub fn view(g: &Game, s: &State) -> Result<State, RunError> {
    let Some(pd) = s.pending.as_deref() else { return Ok(s.clone()) };
    let (start, _) = turn_of(s);
    match run(g, &g.turn, &start, &pd.events)? {
        End::Pause { at, .. } | End::Done(at) => Ok(at),
        End::Fail(span) => Err(RunError::new("the turn under way does not replay", span)),
    }
}

/// The starting position with `seed` deciding the chance events of setup.
pub fn initial(g: &Game, seed: u64) -> Result<State, RunError> {
    let empty = State::empty(g);
    let mut rng = crate::rng::Rng::new(seed);
    let mut events = Vec::new();
    loop {
        match run(g, &g.setup, &empty, &events)? {
            End::Done(mut s) => {
                s.record(g);
                settle(g, &mut s)?;
                return Ok(s);
            }
            End::Fail(span) => return Err(RunError::new("setup could not be carried out", span)),
            End::Pause { site, options, weights, .. } => {
                if !is_chance(g, site) {
                    return Err(RunError::new("setup cannot ask for decisions", Span::default()));
                }
                let Some(i) = crate::rng::pick_weighted(&weights, options.len(), &mut rng) else {
                    return Err(RunError::new(
                        "setup: a chance event has no outcome",
                        g.sites.get(site as usize).map_or(Span::default(), |s| s.span),
                    ));
                };
                events.push(options[i]);
            }
        }
    }
}

/// If the turn of `s` begins with a chance event, `s` becomes that chance node.
fn settle(g: &Game, s: &mut State) -> Result<(), RunError> {
    if !g.has_chance() || s.outcome.is_some() || s.pending.is_some() {
        return Ok(());
    }
    if let End::Pause { site, .. } = run(g, &g.turn, s, &[])? {
        if is_chance(g, site) {
            s.pending = Some(Box::new(Pending { events: Vec::new(), chance: true }));
        }
    }
    Ok(())
}

/// The span of decision or chance event `site`: the turn's for an id the
/// game does not have (a move built by hand may hold one).
fn site_span(g: &Game, site: u16) -> Span {
    g.sites.get(usize::from(site)).map_or(g.turn_span, |s| s.span)
}

/// At a chance node: the outcomes with their weights.
pub fn chance_outcomes(g: &Game, s: &State) -> Result<Vec<(Choice, u32)>, RunError> {
    if s.turn() != Turn::Chance {
        return Ok(Vec::new());
    }
    let (start, events) = turn_of(s);
    match run(g, &g.turn, &start, &events)? {
        End::Pause { site, .. } if events.len() >= DECISION_LIMIT => {
            Err(RunError::too_deep(site_span(g, site)))
        }
        End::Pause { options, weights, .. } => {
            Ok(options.into_iter().zip(weights.into_iter().chain(std::iter::repeat(1))).collect())
        }
        _ => Ok(Vec::new()),
    }
}

/// The turn goes on from `start` with `events` to its next stop.
fn go_on(g: &Game, start: State, events: Vec<Choice>) -> Result<State, RunError> {
    match run(g, &g.turn, &start, &events)? {
        End::Done(mut t) => {
            if t.outcome.is_none() {
                t.advance(g.players.len());
            }
            settle(g, &mut t)?;
            Ok(t)
        }
        End::Pause { site, .. } => {
            let chance = is_chance(g, site);
            Ok(under_way(start, events, chance))
        }
        End::Fail(span) => {
            Err(RunError::new("after this chance event the turn cannot go on: a rule fails", span))
        }
    }
}

/// All legal moves in canonical order (empty exactly when the game is over).
pub fn legal_moves(g: &Game, s: &State) -> Result<Vec<Move>, RunError> {
    let mut out = Vec::new();
    if s.outcome.is_some() {
        return Ok(out);
    }
    if s.turn() == Turn::Chance {
        return Ok(chance_outcomes(g, s)?
            .into_iter()
            .map(|(c, _)| Move { choices: vec![c], stuck: false })
            .collect());
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
    if s.turn() == Turn::Chance {
        return Ok(None);
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
    if s.turn() == Turn::Chance {
        let (start, mut all) = turn_of(s);
        if let (true, Some(c)) = (all.len() >= DECISION_LIMIT, mv.choices.first()) {
            return Err(RunError::too_deep(site_span(g, c.site)));
        }
        all.extend(mv.choices.iter().copied());
        return go_on(g, start, all);
    }
    if mv.stuck {
        return stuck(g, s);
    }
    let (start, mut all) = turn_of(s);
    all.extend(mv.choices.iter().copied());
    match run(g, &g.turn, &start, &all)? {
        End::Done(mut t) => {
            if t.outcome.is_none() {
                t.advance(g.players.len());
            }
            settle(g, &mut t)?;
            Ok(t)
        }
        End::Fail(span) => Err(RunError::new("this move is not legal in this position", span)),
        End::Pause { site, .. } if is_chance(g, site) => Ok(under_way(start, all, true)),
        End::Pause { .. } => {
            Err(RunError::new("the move stops before the turn is complete", g.turn_span))
        }
    }
}

/// Runs `on no moves` on a copy (see `State::outcome`).
fn stuck(g: &Game, s: &State) -> Result<State, RunError> {
    let mut t = view(g, s)?;
    t.pending = None;
    let Some(body) = &g.no_moves else {
        t.outcome = Some(Outcome::Draw);
        return Ok(t);
    };
    let mut slots = Frame::new(g);
    if let Flow::Fail(span) = Exec::new(g, &mut t, &mut slots, &[]).run(body)? {
        return Err(RunError::new("`on no moves` could not be carried out", span));
    }
    if t.outcome.is_some() {
        return Ok(t);
    }
    if s.pending.is_some() {
        // Stuck after a chance event: the turn ends here.
        t.advance(g.players.len());
        settle(g, &mut t)?;
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
                return Err(RunError::new("`at end` could not be carried out", span));
            }
        }
        end.outcome = end.outcome.or(Some(Outcome::Draw));
        return Ok(end);
    }
    t.advance(g.players.len());
    settle(g, &mut t)?;
    Ok(t)
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

/// The reusable working memory of move generation.
struct Search {
    /// The turn's events so far, then the choices of the move being built.
    prefix: Vec<Choice>,
    /// How many of `prefix` are the turn's earlier events.
    base: usize,
    frame: Frame,
    options: Vec<Choice>,
    scratch: State,
    budget: u32,
    /// The choices of the moves found so far, all together.
    held: usize,
}

fn turn_moves(g: &Game, s: &State, out: &mut Vec<Move>) -> Result<(), RunError> {
    out.clear();
    let (start, events) = turn_of(s);
    let mut search = Search {
        base: events.len(),
        prefix: events,
        frame: Frame::new(g),
        options: Vec::new(),
        scratch: start.clone(),
        budget: g.limits.choices,
        held: 0,
    };
    expand(g, &start, &mut search, out)
}

/// One node of the choice tree: run the turn with the choices made so
/// far on a copy of the state, then either record a move, drop a failed
/// branch, or recurse into the options of the next decision. A run that
/// stops at a chance event is a move: chance decides what follows.
fn expand(g: &Game, s: &State, k: &mut Search, out: &mut Vec<Move>) -> Result<(), RunError> {
    k.scratch.copy_from(s);
    k.options.clear();
    let flow = {
        let mut ex = Exec::new(g, &mut k.scratch, &mut k.frame, &k.prefix);
        ex.collect = Some(&mut k.options);
        ex.run(&g.turn)?
    };
    // A move: its choices held, at most `LIST_LIMIT` in all.
    let done = |k: &mut Search| {
        let choices = &k.prefix[k.base..];
        k.held += choices.len();
        if k.held > LIST_LIMIT {
            let span = choices.last().map_or(g.turn_span, |c| site_span(g, c.site));
            return Err(RunError::list_too_long(span));
        }
        Ok(Move { choices: choices.to_vec(), stuck: false })
    };
    match flow {
        Flow::Next | Flow::End => out.push(done(k)?),
        Flow::Fail(_) => {}
        Flow::Pause if k.options.first().is_some_and(|c| is_chance(g, c.site)) => {
            out.push(done(k)?)
        }
        Flow::Pause => {
            let opts = std::mem::take(&mut k.options);
            let span = || opts.first().map_or(g.turn_span, |o| site_span(g, o.site));
            if k.prefix.len() >= DECISION_LIMIT {
                return Err(RunError::too_deep(span()));
            }
            if opts.len() as u32 > k.budget {
                let span = span();
                return Err(RunError::new(format!(
                        "one turn explores more than {} choices; are its decisions meant to multiply like this? (`--max-choices` raises the limit)",
                        g.limits.choices
                    ), span));
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
