//! Move generation over the compiled program: the choice tree of one turn,
//! explored depth first by forking.
//!
//! The turn runs from its start on a copy of the position. At a decision
//! the run stops ([`Stop::Fork`]); its options are listed, and each option
//! continues from a copy of the position and frame at the fork (the last
//! option continues in place, without a copy). A run that finishes is a
//! move, and its resulting position is handed to the caller (a [`Sink`])
//! at once: move lists, perft and playouts never run a turn twice. A
//! decision whose tail is lazy (see `compile::opt`) hands its options to
//! the sink as moves without running them; the sink completes only the
//! ones it needs.
//!
//! Copies go into buffers indexed by the depth of the choice path, reused
//! from one search to the next, so a search allocates nothing once its
//! buffers have grown.

use super::machine::{bind, options, run, site_at, Options, Pick, Stop};
use super::{Choice, Move, RunError, State, NODE_LIMIT};
use crate::compile::{Block, Frame, Program};

/// A position and a frame: one level of the search's copies.
pub struct Level<const W: usize> {
    /// The position.
    pub st: State,
    /// The frame.
    pub fr: Frame<W>,
}

impl<const W: usize> Level<W> {
    fn copy_from(&mut self, o: &Level<W>) {
        self.st.copy_from(&o.st);
        self.fr.copy_from(&o.fr);
    }
}

impl<const W: usize> Clone for Level<W> {
    fn clone(&self) -> Self {
        Level { st: self.st.clone(), fr: self.fr.clone() }
    }
}

/// Where the finished turns of a search go.
pub trait Sink<const W: usize> {
    /// A finished turn; `st` is its resulting position before the turn
    /// passes (the sink may change it). `false` stops the search.
    fn done(
        &mut self,
        p: &Program<W>,
        st: &mut State,
        path: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError>;

    /// A lazy decision: every option is a finished turn. `fork` is the
    /// position and frame at the decision, `pc` the decision. `false`
    /// stops the search.
    fn lazy(
        &mut self,
        p: &Program<W>,
        fork: &Level<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &Options<W>,
    ) -> Result<bool, RunError>;
}

/// The reusable memory of move generation.
pub struct Searcher<const W: usize> {
    levels: Vec<Level<W>>,
    opts: Vec<Options<W>>,
    path: Vec<(u16, Pick<W>)>,
    budget: u32,
}

impl<const W: usize> Default for Searcher<W> {
    fn default() -> Self {
        Searcher { levels: Vec::new(), opts: Vec::new(), path: Vec::new(), budget: NODE_LIMIT }
    }
}

impl<const W: usize> Frame<W> {
    /// Copies `o` into `self`, reusing `self`'s buffers.
    pub fn copy_from(&mut self, o: &Frame<W>) {
        self.w.clone_from(&o.w);
        self.s.clone_from(&o.s);
        self.d.clone_from(&o.d);
        self.epoch = o.epoch;
        self.steps = o.steps;
        self.err = None;
        if self.groups.len() != o.groups.len() {
            self.groups.clone_from(&o.groups);
        } else {
            for (a, b) in self.groups.iter_mut().zip(&o.groups) {
                a.0 = b.0;
                a.1.clone_from(&b.1);
            }
        }
    }
}

/// The turn finished: the next player moves, unless the game ended.
#[inline]
pub fn advance(st: &mut State, players: usize) {
    if st.outcome.is_none() {
        st.current = ((st.current as usize + 1) % players) as u8;
        st.ply += 1;
    }
}

impl<const W: usize> Searcher<W> {
    fn level(&mut self, i: usize, like: &Level<W>) {
        while self.levels.len() <= i {
            self.levels.push(like.clone());
        }
    }

    /// Explores the turn from position `st`, handing finished turns to `sink`.
    pub fn search(
        &mut self,
        p: &Program<W>,
        st: &State,
        sink: &mut impl Sink<W>,
    ) -> Result<(), RunError> {
        if self.levels.is_empty() {
            self.levels.push(Level { st: st.clone(), fr: p.new_frame() });
        } else {
            self.levels[0].st.copy_from(st);
        }
        let fr = &mut self.levels[0].fr;
        fr.epoch += 1;
        fr.steps = 0;
        fr.err = None;
        self.path.clear();
        self.budget = NODE_LIMIT;
        self.explore(p, 0, 0, sink)?;
        Ok(())
    }

    fn explore(
        &mut self,
        p: &Program<W>,
        b: usize,
        pc: u32,
        sink: &mut impl Sink<W>,
    ) -> Result<bool, RunError> {
        let depth = self.path.len();
        let block = &p.turn;
        let stop = {
            let lv = &mut self.levels[b];
            run(p, block, &mut lv.st, &mut lv.fr, pc)?
        };
        let at = match stop {
            Stop::Done => return sink.done(p, &mut self.levels[b].st, &self.path),
            Stop::Fail(_) => return Ok(true),
            Stop::Fork(at) => at,
        };
        while self.opts.len() <= depth {
            self.opts.push(Options::default());
        }
        {
            let lv = &mut self.levels[b];
            options(p, block, at, &mut lv.st, &mut lv.fr, &mut self.opts[depth])?;
        }
        let n = self.opts[depth].len();
        if n == 0 {
            return Ok(true);
        }
        let site = site_at(block, at);
        if n as u32 > self.budget {
            return Err(RunError {
                message: format!(
                    "one turn explores more than {NODE_LIMIT} choices; are its decisions meant to multiply like this?"
                ),
                span: p.sites.get(site as usize).map_or_else(Default::default, |s| s.span),
            });
        }
        self.budget -= n as u32;
        if p.sites.get(site as usize).is_some_and(|s| s.lazy) {
            return sink.lazy(p, &self.levels[b], at, &self.path, &self.opts[depth]);
        }
        for i in 0..n {
            let pick = self.opts[depth].get(i);
            let nb = if i + 1 == n {
                b
            } else {
                if self.levels.len() <= depth + 1 {
                    let like = self.levels[b].clone();
                    self.level(depth + 1, &like);
                }
                let (lo, hi) = self.levels.split_at_mut(depth + 1);
                hi[0].copy_from(&lo[b]);
                depth + 1
            };
            let resume = bind(block, at, &mut self.levels[nb].fr, pick);
            self.path.push((site, pick));
            let go = self.explore(p, nb, resume, sink)?;
            self.path.pop();
            if !go {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Runs the tail of lazy decision `pc` with `pick` from `fork` into `out`;
/// `Ok(false)` if the tail failed after all (never for a correct pass).
pub fn complete<const W: usize>(
    p: &Program<W>,
    fork: &Level<W>,
    pc: u32,
    pick: Pick<W>,
    out: &mut Level<W>,
) -> Result<bool, RunError> {
    out.copy_from(fork);
    let resume = bind(&p.turn, pc, &mut out.fr, pick);
    match run(p, &p.turn, &mut out.st, &mut out.fr, resume)? {
        Stop::Done => Ok(true),
        Stop::Fail(_) => Ok(false),
        Stop::Fork(_) => Err(RunError {
            message: "internal error: a lazy decision was followed by another".into(),
            span: Default::default(),
        }),
    }
}

/// A move from a choice path.
pub fn path_move<const W: usize>(p: &Program<W>, path: &[(u16, Pick<W>)]) -> Move {
    Move {
        choices: path
            .iter()
            .map(|&(site, pick)| super::machine::choice_of(p, site, pick))
            .collect(),
        stuck: false,
    }
}

/// Collects moves.
pub struct MovesSink<'a> {
    /// The moves found.
    pub out: &'a mut Vec<Move>,
}

impl<const W: usize> Sink<W> for MovesSink<'_> {
    fn done(
        &mut self,
        p: &Program<W>,
        _: &mut State,
        path: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError> {
        self.out.push(path_move(p, path));
        Ok(true)
    }

    fn lazy(
        &mut self,
        p: &Program<W>,
        _: &Level<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &Options<W>,
    ) -> Result<bool, RunError> {
        let site = site_at(&p.turn, pc);
        for i in 0..opts.len() {
            let mut m = path_move(p, path);
            m.choices.push(super::machine::choice_of(p, site, opts.get(i)));
            self.out.push(m);
        }
        Ok(true)
    }
}

/// Counts moves.
pub struct CountSink(pub u64);

impl<const W: usize> Sink<W> for CountSink {
    fn done(
        &mut self,
        _: &Program<W>,
        _: &mut State,
        _: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError> {
        self.0 += 1;
        Ok(true)
    }

    fn lazy(
        &mut self,
        _: &Program<W>,
        _: &Level<W>,
        _: u32,
        _: &[(u16, Pick<W>)],
        opts: &Options<W>,
    ) -> Result<bool, RunError> {
        self.0 += opts.len() as u64;
        Ok(true)
    }
}

/// Stops at the first move.
pub struct AnySink(pub bool);

impl<const W: usize> Sink<W> for AnySink {
    fn done(
        &mut self,
        _: &Program<W>,
        _: &mut State,
        _: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError> {
        self.0 = true;
        Ok(false)
    }

    fn lazy(
        &mut self,
        _: &Program<W>,
        _: &Level<W>,
        _: u32,
        _: &[(u16, Pick<W>)],
        opts: &Options<W>,
    ) -> Result<bool, RunError> {
        self.0 |= !opts.is_empty();
        Ok(!self.0)
    }
}

/// Every move of a position with its resulting position, kept for
/// choosing one (playouts, engines): finished turns are stored as
/// positions, lazy decisions as their fork and options.
#[derive(Default)]
pub struct Successors<const W: usize> {
    states: Vec<State>,
    forks: Vec<(Level<W>, u32, Options<W>)>,
    /// In search order: (lazy?, index into `states` or `forks`, number of moves).
    segments: Vec<(bool, usize, usize)>,
    n_states: usize,
    n_forks: usize,
    /// Number of moves.
    pub total: usize,
    players: usize,
    scratch: Option<Level<W>>,
}

impl<const W: usize> Successors<W> {
    /// Empties the list, keeping its buffers.
    pub fn clear(&mut self, players: usize) {
        self.segments.clear();
        self.n_states = 0;
        self.n_forks = 0;
        self.total = 0;
        self.players = players;
    }

    /// Move `i`'s resulting position (after the turn passes), written into `out`.
    pub fn result(&mut self, p: &Program<W>, i: usize, out: &mut State) -> Result<(), RunError> {
        let mut at = i;
        for &(lazy, idx, n) in &self.segments {
            if at >= n {
                at -= n;
                continue;
            }
            if !lazy {
                out.copy_from(&self.states[idx + at]);
                return Ok(());
            }
            let (fork, pc, opts) = &self.forks[idx];
            let scratch = self.scratch.get_or_insert_with(|| fork.clone());
            complete(p, fork, *pc, opts.get(at), scratch)?;
            advance(&mut scratch.st, self.players);
            out.copy_from(&scratch.st);
            return Ok(());
        }
        Ok(())
    }
}

impl<const W: usize> Sink<W> for Successors<W> {
    fn done(
        &mut self,
        _: &Program<W>,
        st: &mut State,
        _: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError> {
        advance(st, self.players);
        if self.n_states < self.states.len() {
            self.states[self.n_states].copy_from(st);
        } else {
            self.states.push(st.clone());
        }
        match self.segments.last_mut() {
            Some((false, _, n)) => *n += 1,
            _ => self.segments.push((false, self.n_states, 1)),
        }
        self.n_states += 1;
        self.total += 1;
        Ok(true)
    }

    fn lazy(
        &mut self,
        _: &Program<W>,
        fork: &Level<W>,
        pc: u32,
        _: &[(u16, Pick<W>)],
        opts: &Options<W>,
    ) -> Result<bool, RunError> {
        if self.n_forks < self.forks.len() {
            let f = &mut self.forks[self.n_forks];
            f.0.copy_from(fork);
            f.1 = pc;
            f.2.clone_from(opts);
        } else {
            self.forks.push((fork.clone(), pc, opts.clone()));
        }
        self.segments.push((true, self.n_forks, opts.len()));
        self.n_forks += 1;
        self.total += opts.len();
        Ok(true)
    }
}

/// Runs a block that may not ask for decisions (`setup`, `on no moves`,
/// `at end`) on `st`.
pub fn run_plain<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    st: &mut State,
    what: &str,
) -> Result<(), RunError> {
    let mut fr = p.new_frame();
    match run(p, block, st, &mut fr, 0)? {
        Stop::Done => Ok(()),
        Stop::Fail(span) => {
            Err(RunError { message: format!("{what} could not be carried out"), span })
        }
        Stop::Fork(_) => Err(RunError {
            message: format!("{what} cannot ask for decisions"),
            span: Default::default(),
        }),
    }
}

/// The choices of a move, replayed on `st` (a guided run), leaving the
/// resulting position before the turn passes. A move that fails, or stops
/// before the turn is complete, is an error at the failing rule (or at
/// `turn_span`).
pub fn replay<const W: usize>(
    p: &Program<W>,
    st: &mut State,
    choices: &[Choice],
    turn_span: crate::source::Span,
) -> Result<(), RunError> {
    let mut fr = p.new_frame();
    let mut pc = 0;
    let mut i = 0;
    let illegal =
        |span| RunError { message: "this move is not legal in this position".into(), span };
    loop {
        match run(p, &p.turn, st, &mut fr, pc)? {
            Stop::Done => return Ok(()),
            Stop::Fail(span) => return Err(illegal(span)),
            Stop::Fork(at) => {
                let Some(c) = choices.get(i) else {
                    return Err(RunError {
                        message: "the move stops before the turn is complete".into(),
                        span: turn_span,
                    });
                };
                i += 1;
                match super::machine::take_choice(p, &p.turn, at, st, &mut fr, c)? {
                    Ok(next) => pc = next,
                    Err(span) => return Err(illegal(span)),
                }
            }
        }
    }
}
