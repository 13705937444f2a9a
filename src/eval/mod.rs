//! The game API over the compiled program: legal moves, playing a move,
//! outcomes, perft.
//!
//! # How a turn becomes moves
//! The `turn` block is a small program. It runs deterministically except at
//! `choose` and `either`, where the player decides. A **move** is the list
//! of values chosen at every decision on one run of the program that
//! reaches the end of the turn (or a `win`/`draw`/`pass`) without failing:
//! a failed `require`, a `choose` with no option, or an impossible effect
//! (placing on an occupied cell, taking from an empty zone) kills that run,
//! and it is not a move.
//!
//! The compiled turn runs until its first decision; there [`search`] forks:
//! each option continues from a copy of the position and frame (the last
//! one in place), and a run that finishes is a move whose resulting
//! position is handed on at once. Moves are therefore listed in a canonical
//! order: the order of the options at the first decision, then at the
//! second, and so on. Domain order is cell id order for cells (`a1`, `b1`,
//! ..., `a2`, ...), declaration order for kinds and players, direction
//! order for directions and start-cell order for lines.
//!
//! [`machine`] runs the compiled ops between decisions; the reference
//! interpreter (`crate::interp`) computes the same things by re-running the
//! turn, and a test keeps the two equal.

mod leaf;
pub mod machine;
pub mod search;

pub use crate::notation::MoveError;
pub use crate::state::{
    Choice, Move, Outcome, RunError, State, Turn, DECISION_LIMIT, LIST_LIMIT, NODE_LIMIT,
    SEARCH_STACK,
};

use crate::compile::Program;
use crate::notation;
use crate::Game;

impl State {
    /// The starting position: the empty position after `setup`, with the
    /// engine's random state seeded by 0 (see [`State::initial_seeded`]).
    pub fn initial(g: &Game) -> Result<State, RunError> {
        State::initial_seeded(g, 0)
    }

    /// The starting position with `seed` deciding the chance events of
    /// `setup` (the deal): the same seed gives the same deal.
    pub fn initial_seeded(g: &Game, seed: u64) -> Result<State, RunError> {
        let mut rng = crate::rng::Rng::new(seed);
        with_program!(g, p => {
            // Every deal runs the same way up to `setup`'s first chance
            // event: that part is run once per game.
            let prefix = p.setup_prefix.get_or_init(|| search::setup_prefix(p, State::empty(g)));
            let mut s = match prefix {
                Some(pre) => {
                    let mut s = pre.st.clone();
                    if let Some(at) = pre.at {
                        // A frame kept from an earlier deal, made like
                        // the prefix's (copied, not allocated).
                        let kept = pre.frames.lock().ok().and_then(|mut v| v.pop());
                        let mut fr = match kept {
                            Some(mut fr) => {
                                fr.copy_from(&pre.fr);
                                fr
                            }
                            None => pre.fr.clone(),
                        };
                        let stop = machine::Stop::Fork(at);
                        let r = search::sample_on(p, &p.setup, &mut s, &mut fr, stop, &mut rng, "setup");
                        if let Ok(mut v) = pre.frames.lock() {
                            v.push(fr);
                        }
                        r?;
                    }
                    s
                }
                None => {
                    let mut s = State::empty(g);
                    search::run_sampled(p, &p.setup, &mut s, &mut rng, "setup")?;
                    s
                }
            };
            s.record(g);
            search::settle(p, &mut s)?;
            Ok(s)
        })
    }

    /// Fixes the order of every face-down piece (a referee's deal, a
    /// stacked deck for tests), drawing it with `rng`: afterwards draws
    /// follow that order and are no longer chance events.
    pub fn stack(&mut self, g: &Game, rng: &mut crate::rng::Rng) -> Result<(), RunError> {
        if self.pending.is_some() {
            return Ok(());
        }
        for seq in &mut self.seqs {
            let mut hidden: Vec<u16> =
                seq.hidden_kinds().flat_map(|(k, n)| std::iter::repeat_n(k, n as usize)).collect();
            for j in (1..hidden.len()).rev() {
                hidden.swap(j, rng.below(j + 1));
            }
            for k in hidden {
                seq.reveal(k, true);
            }
        }
        settle(g, self)
    }

    /// Player `p`'s score by the game's `def score(p)`, if it has one.
    pub fn score(&self, g: &Game, p: u8) -> Result<Option<i64>, RunError> {
        with_program!(g, prog => score_w(prog, self, p))
    }

    /// Whether the game is over: ended by a rule, or the mover has no move
    /// and `on no moves` ends the game.
    pub fn is_over(&self, g: &Game) -> Result<bool, RunError> {
        Ok(self.outcome(g)?.is_some())
    }

    /// The outcome, if the game is over.
    pub fn outcome(&self, g: &Game) -> Result<Option<Outcome>, RunError> {
        if self.outcome.is_some() {
            return Ok(self.outcome);
        }
        if self.turn() == Turn::Chance {
            return Ok(None);
        }
        with_program!(g, p => search::with_searcher(p, |sr| {
            if has_move_in(p, self, sr)? {
                return Ok(None);
            }
            Ok(stuck_in(p, self, sr)?.outcome)
        }))
    }

    /// The position after `on no moves` (a pass, or the end of the game).
    fn stuck(&self, g: &Game) -> Result<State, RunError> {
        with_program!(g, p => search::with_searcher(p, |sr| stuck_in(p, self, sr)))
    }

    /// At a chance node ([`Turn::Chance`]): each outcome as a move, with its
    /// weight; the probability of an outcome is its weight over the sum.
    /// Empty elsewhere.
    pub fn chance_outcomes(&self, g: &Game) -> Result<Vec<(Move, u32)>, RunError> {
        // In this thread's scratch run for the program (no new frame).
        let mut out = Vec::new();
        with_program!(g, p => search::with_searcher(p, |sr| {
            let (run, opts) = sr.chance_run();
            search::chance_outcomes_in(p, self, run, opts, &mut out)
        }))?;
        Ok(out.into_iter().map(|(c, w)| (Move { choices: vec![c], stuck: false }, w)).collect())
    }

    /// All legal moves in canonical order; empty exactly when the game is
    /// over. At a chance node, the chance outcomes (see
    /// [`State::chance_outcomes`] for their probabilities).
    pub fn legal_moves(&self, g: &Game) -> Result<Vec<Move>, RunError> {
        let mut out = Vec::new();
        self.legal_moves_into(g, &mut out)?;
        Ok(out)
    }

    /// Like [`State::legal_moves`], reusing `out`'s allocation.
    pub fn legal_moves_into(&self, g: &Game, out: &mut Vec<Move>) -> Result<(), RunError> {
        out.clear();
        if self.outcome.is_some() {
            return Ok(());
        }
        if self.turn() == Turn::Chance {
            out.extend(self.chance_outcomes(g)?.into_iter().map(|(m, _)| m));
            return Ok(());
        }
        with_program!(g, p => search::with_searcher(p, |s| {
            s.search(p, self, &mut search::MovesSink { out: &mut *out, held: 0 })
        }))?;
        if out.is_empty() && self.stuck(g)?.outcome.is_none() {
            out.push(Move { choices: Vec::new(), stuck: true });
        }
        Ok(())
    }

    /// How many legal moves there are, without building them.
    pub fn count_moves(&self, g: &Game) -> Result<u64, RunError> {
        if self.turn() == Turn::Chance {
            return Ok(self.chance_outcomes(g)?.len() as u64);
        }
        perft(g, self, 1)
    }

    /// Plays a move after checking that it is legal.
    pub fn play(&self, g: &Game, mv: &Move) -> Result<State, MoveError> {
        let legal = self.legal_moves(g).map_err(MoveError::Rule)?;
        if !legal.contains(mv) {
            return Err(MoveError::Illegal { text: notation::text(g, mv), legal: legal.len() });
        }
        let mut s = self.clone();
        s.play_unchecked(g, mv).map_err(MoveError::Rule)?;
        Ok(s)
    }

    /// Plays a move known to be legal (from [`State::legal_moves`]); at a
    /// chance node, resolves the chance event with that outcome.
    pub fn play_unchecked(&mut self, g: &Game, mv: &Move) -> Result<(), RunError> {
        if self.turn() == Turn::Chance {
            let Some(c) = mv.choices.first() else {
                return Err(RunError::new("a chance event needs an outcome", g.turn_span));
            };
            return with_program!(g, p => search::with_searcher(p, |sr| {
                search::resolve_in(p, self, c, sr.chance_run().0)
            }));
        }
        if mv.stuck {
            *self = self.stuck(g)?;
            return Ok(());
        }
        with_program!(g, p => search::play(p, self, &mv.choices, g.turn_span))
    }

    /// The move written in the game's notation.
    pub fn move_text(g: &Game, mv: &Move) -> String {
        notation::text(g, mv)
    }
    /// Finds the legal move written as `text`.
    pub fn parse_move(&self, g: &Game, text: &str) -> Result<Move, MoveError> {
        notation::parse(g, self, text)
    }
}

/// Settles a position at the start of a turn: a turn that begins with a
/// chance event makes the position that chance node (position texts are
/// read this way).
pub fn settle(g: &Game, s: &mut State) -> Result<(), RunError> {
    with_program!(g, p => search::settle(p, s))
}

/// Counts the move paths of exactly `depth` complete turns from `s`.
/// A game that ends earlier contributes nothing.
pub fn perft(g: &Game, s: &State, depth: u32) -> Result<u64, RunError> {
    with_program!(g, p => perft_with(p, s, depth, None))
}

/// [`perft`] with this thread's searchers for `p` (kept from one call to
/// the next: a perft split at its root calls this once per move).
fn perft_with<const W: usize>(
    p: &Program<W>,
    s: &State,
    depth: u32,
    sample: Option<crate::rng::Rng>,
) -> Result<u64, RunError>
where
    search::Searcher<W>: search::SearcherSlot,
{
    // Nothing face down and nothing to turn face down: the program without
    // reveals (`Program::face_up`) counts the same tree.
    let p = match &p.face_up {
        Some(up) if s.pending.is_none() && !s.seqs.iter().any(crate::state::Seq::any_hidden) => up,
        _ => p,
    };
    search::with_searchers(p, |stack| {
        // Play adds no pieces to zones: the count at the root bounds it
        // at every position below.
        let pieces = p.fixed_pieces.then(|| s.zone_pieces(p.t.counter_base));
        let mut cx = PerftCx {
            stack: stack.drain(..).map(|sr| Some(Box::new(sr))).collect(),
            sample,
            pieces,
            scratch: Vec::new(),
            chance: Chance::default(),
        };
        let r = perft_w(p, s, depth, &mut cx, 0);
        stack.extend(cx.stack.into_iter().flatten().map(|sr| *sr));
        r
    })
}

/// Like [`perft`], but each chance node counts one outcome drawn with
/// `rng` (with the outcomes' probabilities) instead of all of them: a
/// sample of the move tree where chance is decided, as in a real game.
pub fn perft_sampled(
    g: &Game,
    s: &State,
    depth: u32,
    rng: &mut crate::rng::Rng,
) -> Result<u64, RunError> {
    let seed = rng.next_u64();
    with_program!(g, p => perft_with(p, s, depth, Some(crate::rng::Rng::new(seed))))
}

/// The working memory of perft: a searcher per depth, and the random
/// source when chance nodes are sampled rather than expanded.
struct PerftCx<const W: usize> {
    /// The searcher of each depth, taken out while its search runs (an
    /// `Option`, so that taking it out and putting it back leaves no
    /// searcher to drop; boxed, so that both move a pointer, not the
    /// searcher).
    stack: Vec<Option<Box<search::Searcher<W>>>>,
    sample: Option<crate::rng::Rng>,
    /// A bound on the pieces in zones at every position of the count
    /// ([`Program::fixed_pieces`]).
    pieces: Option<u64>,
    /// Per depth, the run a lazy decision's options complete in.
    scratch: Vec<Option<search::Level<W>>>,
    /// The buffers of chance nodes.
    chance: Chance<W>,
}

/// What perft's chance nodes reuse from one node to the next, so that
/// they allocate nothing once grown: the run that lists and resolves
/// outcomes, its listing, and spare outcome lists and positions (taken
/// and given back around each node, which may hold others below it).
struct Chance<const W: usize> {
    run: Option<search::Level<W>>,
    opts: machine::Options<W>,
    lists: Vec<Vec<(Choice, u32)>>,
    states: Vec<State>,
    weights: Vec<u32>,
}

impl<const W: usize> Default for Chance<W> {
    fn default() -> Self {
        Chance {
            run: None,
            opts: machine::Options::default(),
            lists: Vec::new(),
            states: Vec::new(),
            weights: Vec::new(),
        }
    }
}

impl<const W: usize> Chance<W> {
    /// A spare position holding a copy of `s`.
    fn copy_of(&mut self, s: &State) -> State {
        match self.states.pop() {
            Some(mut t) if t.same_shape(s) => {
                t.copy_from(s);
                t
            }
            _ => s.clone(),
        }
    }
}

fn perft_w<const W: usize>(
    p: &Program<W>,
    s: &State,
    depth: u32,
    cx: &mut PerftCx<W>,
    level: usize,
) -> Result<u64, RunError> {
    if depth == 0 {
        return Ok(1);
    }
    if s.outcome.is_some() {
        return Ok(0);
    }
    if let Some(n) = leaf_count(p, s, depth, cx) {
        return Ok(n);
    }
    if let Some(n) = perft_planned(p, s, depth, cx, level)? {
        return Ok(n);
    }
    if s.turn() == Turn::Chance {
        // A chance node is not a move: every outcome counts, at the same
        // depth (or one, drawn, when sampling).
        let ch = &mut cx.chance;
        let mut outcomes = ch.lists.pop().unwrap_or_default();
        search::chance_outcomes_in(p, s, &mut ch.run, &mut ch.opts, &mut outcomes)?;
        let r = perft_outcomes(p, s, depth, cx, level, &outcomes);
        cx.chance.lists.push(outcomes);
        return r;
    }
    let (nodes, leaves) =
        perft_search(cx, depth, level, |sr, sink, pieces| sr.search_within(p, s, sink, pieces))?;
    if leaves > 0 {
        return Ok(nodes);
    }
    perft_stuck(p, s, depth, cx, level)
}

/// At perft's last ply, the moves of `s` counted without a search (pass
/// 33, [`leaf::count`]), where the program and the position allow it.
#[inline(always)]
fn leaf_count<const W: usize>(
    p: &Program<W>,
    s: &State,
    depth: u32,
    cx: &PerftCx<W>,
) -> Option<u64> {
    let plan = p.leaf_count.as_ref().filter(|_| depth == 1)?;
    if s.outcome.is_some() || s.pending.is_some() {
        return None;
    }
    leaf::count(p, plan, s, cx.pieces)
}

/// Above perft's last ply, the nodes below `s` by pass 33's plan, where
/// [`leaf::walkable`] says the search would hand every arm's options over
/// unrun: each option (the arms in order, each arm's held kinds in their
/// listed order) completed as the perft sink completes a lazy decision's
/// options — in a copy of the position whose frame is the arm's as the
/// search leaves it (fresh, the listing's steps taken), its tail run, the
/// turn passed — and counted below, without the search's walk to the
/// arms, their copies and listings. `None` where the plan does not walk
/// (the search counts).
fn perft_planned<const W: usize>(
    p: &Program<W>,
    s: &State,
    depth: u32,
    cx: &mut PerftCx<W>,
    level: usize,
) -> Result<Option<u64>, RunError> {
    let Some(plan) = p.leaf_count.as_ref().filter(|_| depth > 1) else { return Ok(None) };
    if s.outcome.is_some() || s.pending.is_some() {
        return Ok(None);
    }
    let Some(counts) = leaf::walkable(p, plan, s, cx.pieces) else { return Ok(None) };
    if cx.scratch.len() <= level {
        cx.scratch.resize_with(level + 1, || None);
    }
    let mut lv = match cx.scratch[level].take() {
        Some(lv) => lv,
        None => Box::new(search::LevelData { st: Box::new(s.clone()), fr: p.new_frame() }),
    };
    let (mut nodes, mut leaves) = (0, 0);
    let mut walk = || -> Result<(), RunError> {
        for (arm, &n) in plan.arms.iter().zip(&counts) {
            let held = arm.counts(&p.t, s).unwrap_or(&[]);
            let kinds = held.iter().enumerate().filter(|(_, &c)| c != 0).map(|(k, _)| k);
            for k in kinds {
                lv.st.copy_from(s);
                let fr = &mut lv.fr;
                fr.epoch += 1;
                fr.steps = n;
                fr.err = None;
                if !search::finish(p, arm.pc, machine::Pick::W(k as i64), &mut lv)? {
                    continue;
                }
                leaves += 1;
                search::advance(&mut lv.st, p.t.players);
                search::settle(p, &mut lv.st)?;
                nodes += perft_own(p, &mut lv.st, depth - 1, cx, level + 1)?;
            }
        }
        Ok(())
    };
    let r = walk();
    cx.scratch[level] = Some(lv);
    r?;
    if leaves == 0 {
        return Ok(None);
    }
    Ok(Some(nodes))
}

/// Runs `search` with the searcher of depth `level` and a perft sink:
/// the nodes counted and the finished turns found.
#[inline(always)]
fn perft_search<const W: usize>(
    cx: &mut PerftCx<W>,
    depth: u32,
    level: usize,
    search: impl FnOnce(
        &mut search::Searcher<W>,
        &mut PerftSink<'_, W>,
        Option<u64>,
    ) -> Result<(), RunError>,
) -> Result<(u64, u64), RunError> {
    while cx.stack.len() <= level {
        cx.stack.push(None);
    }
    let mut searcher = cx.stack[level].take().unwrap_or_default();
    let pieces = cx.pieces;
    let mut sink = PerftSink { depth, cx, level, nodes: 0, leaves: 0 };
    let r = search(&mut searcher, &mut sink, pieces);
    let (nodes, leaves) = (sink.nodes, sink.leaves);
    cx.stack[level] = Some(searcher);
    r.map(|()| (nodes, leaves))
}

/// The nodes of position `s`, whose mover has no move: after `on no
/// moves`.
fn perft_stuck<const W: usize>(
    p: &Program<W>,
    s: &State,
    depth: u32,
    cx: &mut PerftCx<W>,
    level: usize,
) -> Result<u64, RunError> {
    let st = stuck_in(p, s, cx.stack[level].get_or_insert_with(Default::default))?;
    if st.outcome.is_some() {
        return Ok(0);
    }
    if depth == 1 {
        return Ok(1);
    }
    perft_w(p, &st, depth - 1, cx, level + 1)
}

/// [`perft_w`] of a position the caller does not read again (a run's
/// result, a lazy option completed): moved into the search instead of
/// copied ([`search::Searcher::search_owned`]) where the program allows
/// it and no chance event can stop the search (no face-down piece now, and
/// [`Program::owned_perft`]: none can appear); the caller's box holds a
/// spare position afterwards. Otherwise as [`perft_w`].
fn perft_own<const W: usize>(
    p: &Program<W>,
    s: &mut Box<State>,
    depth: u32,
    cx: &mut PerftCx<W>,
    level: usize,
) -> Result<u64, RunError> {
    if depth == 0 {
        return Ok(1);
    }
    if let Some(n) = leaf_count(p, s, depth, cx) {
        return Ok(n);
    }
    if let Some(n) = perft_planned(p, s, depth, cx, level)? {
        return Ok(n);
    }
    let owned = p.owned_perft
        && s.outcome.is_none()
        && s.pending.is_none()
        && !s.seqs.iter().any(crate::state::Seq::any_hidden);
    if !owned {
        return perft_w(p, s, depth, cx, level);
    }
    let (nodes, leaves) =
        perft_search(cx, depth, level, |sr, sink, pieces| sr.search_owned(p, s, sink, pieces))?;
    if leaves > 0 {
        return Ok(nodes);
    }
    // Without a move the search still holds the position: back it comes.
    if !cx.stack[level].as_mut().is_some_and(|sr| sr.give_back(s)) {
        return Err(RunError::new(
            "internal error: a search kept the position it was to give back",
            Default::default(),
        ));
    }
    perft_stuck(p, s, depth, cx, level)
}

/// [`perft_w`] of chance node `s`: the sum over its `outcomes`, or one
/// drawn when sampling.
fn perft_outcomes<const W: usize>(
    p: &Program<W>,
    s: &State,
    depth: u32,
    cx: &mut PerftCx<W>,
    level: usize,
    outcomes: &[(Choice, u32)],
) -> Result<u64, RunError> {
    let mut one = None;
    if let Some(rng) = &mut cx.sample {
        let w = &mut cx.chance.weights;
        w.clear();
        w.extend(outcomes.iter().map(|o| o.1));
        let Some(i) = crate::rng::pick_weighted(w, w.len(), rng) else { return Ok(0) };
        one = Some(i);
    }
    let mut n = 0;
    for (i, (c, _)) in outcomes.iter().enumerate() {
        if one.is_some_and(|j| j != i) {
            continue;
        }
        let mut t = cx.chance.copy_of(s);
        let r = search::resolve_in(p, &mut t, c, &mut cx.chance.run)
            .and_then(|()| perft_w(p, &t, depth, cx, level));
        cx.chance.states.push(t);
        n += r?;
    }
    Ok(n)
}

/// Counts perft nodes below each finished turn of a search.
struct PerftSink<'a, const W: usize> {
    depth: u32,
    cx: &'a mut PerftCx<W>,
    level: usize,
    nodes: u64,
    leaves: u64,
}

impl<const W: usize> PerftSink<'_, W> {
    /// The nodes below finished turn `st`, after the turn passes (the
    /// search does not read `st` again: it may be moved into the search
    /// below).
    #[inline(never)]
    fn below(&mut self, p: &Program<W>, st: &mut Box<State>) -> Result<bool, RunError> {
        search::advance(st, p.t.players);
        search::settle(p, st)?;
        self.nodes += perft_own(p, st, self.depth - 1, self.cx, self.level + 1)?;
        Ok(true)
    }
}

impl<const W: usize> search::Sink<W> for PerftSink<'_, W> {
    /// At the last ply the moves are only counted.
    fn reads_only(&self) -> bool {
        self.depth == 1
    }

    /// At the last ply, which may count the moves without a search.
    fn counts(&self) -> bool {
        self.depth == 1
    }

    fn counted(&mut self, n: u64) {
        self.leaves += n;
        self.nodes += n;
    }

    /// At the last ply a count in the search's loop; above it, the count
    /// below the position, out of line.
    #[inline(always)]
    fn done(
        &mut self,
        p: &Program<W>,
        st: &mut Box<State>,
        _: &[(u16, machine::Pick<W>)],
    ) -> Result<bool, RunError> {
        self.leaves += 1;
        if self.depth == 1 {
            self.nodes += 1;
            return Ok(true);
        }
        self.below(p, st)
    }

    fn chance(
        &mut self,
        p: &Program<W>,
        _: &mut search::Level<W>,
        _: u32,
        path: &[(u16, machine::Pick<W>)],
        at: &search::ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        self.leaves += 1;
        if self.depth == 1 {
            self.nodes += 1;
        } else {
            let mut t = match self.cx.chance.states.pop() {
                Some(t) => t,
                None => at.start()?.clone(),
            };
            at.state_into(p, path, &mut t)?;
            let r = perft_w(p, &t, self.depth - 1, self.cx, self.level + 1);
            self.cx.chance.states.push(t);
            self.nodes += r?;
        }
        Ok(true)
    }

    fn lazy_chance(
        &mut self,
        p: &Program<W>,
        _: &mut search::Level<W>,
        pc: u32,
        path: &[(u16, machine::Pick<W>)],
        opts: &mut Box<machine::Options<W>>,
        at: &search::ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        self.leaves += opts.len() as u64;
        if self.depth == 1 {
            self.nodes += opts.len() as u64;
            return Ok(true);
        }
        let site = machine::site_at(&p.turn, pc);
        let mut picks = path.to_vec();
        let mut t = match self.cx.chance.states.pop() {
            Some(t) => t,
            None => at.start()?.clone(),
        };
        for i in 0..opts.len() {
            picks.truncate(path.len());
            search::push_pick(&mut picks, site, opts.get(i));
            if let Err(e) = at.state_into(p, &picks, &mut t) {
                self.cx.chance.states.push(t);
                return Err(e);
            }
            match perft_w(p, &t, self.depth - 1, self.cx, self.level + 1) {
                Ok(n) => self.nodes += n,
                Err(e) => {
                    self.cx.chance.states.push(t);
                    return Err(e);
                }
            }
        }
        self.cx.chance.states.push(t);
        Ok(true)
    }

    fn lazy(
        &mut self,
        p: &Program<W>,
        fork: &mut search::Level<W>,
        pc: u32,
        _: &[(u16, machine::Pick<W>)],
        opts: &mut Box<machine::Options<W>>,
    ) -> Result<bool, RunError> {
        self.leaves += opts.len() as u64;
        if self.depth == 1 {
            self.nodes += opts.len() as u64;
            return Ok(true);
        }
        // The level's scratch run, kept for the whole count (the deeper
        // levels use their own).
        let kept = self.cx.scratch.get_mut(self.level).and_then(Option::take);
        let mut scratch = kept.unwrap_or_else(|| fork.clone());
        let n = opts.len();
        for i in 0..n {
            // The last option runs in the fork itself (not read again).
            let lv = if i + 1 == n {
                if !search::finish(p, pc, opts.get(i), fork)? {
                    self.leaves -= 1;
                    continue;
                }
                &mut *fork
            } else {
                if !search::complete(p, fork, pc, opts.get(i), &mut scratch)? {
                    self.leaves -= 1;
                    continue;
                }
                &mut scratch
            };
            search::advance(&mut lv.st, p.t.players);
            search::settle(p, &mut lv.st)?;
            // Not read again (the next option is completed over it, the
            // fork is spent): moved into the search below.
            self.nodes += perft_own(p, &mut lv.st, self.depth - 1, self.cx, self.level + 1)?;
        }
        if self.cx.scratch.len() <= self.level {
            self.cx.scratch.resize_with(self.level + 1, || None);
        }
        self.cx.scratch[self.level] = Some(scratch);
        Ok(true)
    }
}

/// Whether the mover of `s` has at least one move of the turn (not
/// counting a forced pass), searching with the buffers of
/// `searcher` (a searcher of `p`, or new).
fn has_move_in<const W: usize>(
    p: &Program<W>,
    s: &State,
    searcher: &mut search::Searcher<W>,
) -> Result<bool, RunError> {
    let mut any = search::AnySink(false);
    searcher.search(p, s, &mut any)?;
    Ok(any.0)
}

/// Runs `on no moves` on a copy: the resulting state (a pass or an
/// ending). A pass when no player at all has a move ends the game
/// instead, with the result of `at end` (a draw if there is none).
/// Searches with the buffers of `searcher` (a searcher of `p`, or new):
/// callers pass one they keep, so asking whether anybody has a move
/// makes no new frames (whose tables of remembered conditions are
/// large).
pub(crate) fn stuck_in<const W: usize>(
    p: &Program<W>,
    s: &State,
    searcher: &mut search::Searcher<W>,
) -> Result<State, RunError> {
    if let Some(pd) = s.pending.as_deref() {
        // Stuck after a chance event: `on no moves` on the position as it
        // stands, and the turn ends there.
        let mut st = s.clone();
        st.pending = None;
        let mut fr = p.new_frame();
        search::replay_events(p, &mut st, &mut fr, &pd.events)?;
        match &p.no_moves {
            None => st.outcome = Some(Outcome::Draw),
            Some(body) => search::run_plain(p, body, &mut st, "`on no moves`")?,
        }
        if st.outcome.is_none() {
            st.advance(p.t.players);
            search::settle(p, &mut st)?;
        }
        return Ok(st);
    }
    let mut st = s.clone();
    let Some(body) = &p.no_moves else {
        st.outcome = Some(Outcome::Draw);
        return Ok(st);
    };
    search::run_plain(p, body, &mut st, "`on no moves`")?;
    if st.outcome.is_some() {
        return Ok(st);
    }
    let mut nobody = true;
    for pl in 0..p.t.players as u8 {
        let mut t = s.clone();
        t.current = pl;
        if has_move_in(p, &t, searcher)? {
            nobody = false;
            break;
        }
    }
    if nobody {
        let mut end = s.clone();
        if let Some(body) = &p.at_end {
            search::run_plain(p, body, &mut end, "`at end`")?;
        }
        end.outcome = end.outcome.or(Some(Outcome::Draw));
        return Ok(end);
    }
    st.advance(p.t.players);
    search::settle(p, &mut st)?;
    Ok(st)
}

fn score_w<const W: usize>(p: &Program<W>, s: &State, pl: u8) -> Result<Option<i64>, RunError>
where
    search::Searcher<W>: search::SearcherSlot,
{
    let Some((slot, f)) = &p.score else { return Ok(None) };
    // In this thread's scratch run (a position and a frame kept from one
    // call to the next), not a new frame and a clone each time.
    search::with_searcher(p, |sr| {
        let lv = search::fresh(p, sr.chance_run().0, s);
        let search::LevelData { st, fr } = &mut **lv;
        if let Some(w) = fr.w.get_mut(*slot as usize) {
            *w = i64::from(pl);
        }
        let v = f(&mut crate::compile::Cx { t: &p.t, st, fr });
        match fr.err.take() {
            Some(e) => Err(e),
            None => Ok(Some(v)),
        }
    })
}
