//! Running a checked game: states, complete-turn moves, outcomes, perft.
//!
//! # How a turn becomes moves
//! The `turn` block is a small program. It runs deterministically except at
//! `choose`, where the player decides. A **move** is the list of values
//! chosen at every `choose` on one run of the program that reaches the end of
//! the turn (or a `win`/`draw`/`pass`) without failing: a failed `require`, a
//! `choose` with no option, or an impossible effect (placing on an occupied
//! cell, taking from an empty zone) kills that run, and it is not a move.
//!
//! The generator explores the tree of choices depth first. At each node it
//! copies the state into a scratch state and re-runs the turn with the
//! choices made so far; the
//! run either finishes (a move), fails, or stops at the next `choose`, whose
//! options (domain order, filtered by `where`) become the children. Moves are
//! therefore listed in a canonical order: the order of the options at the
//! first choice, then at the second, and so on. Domain order is cell id
//! order for cells (`a1`, `b1`, ..., `a2`, ...), declaration order for kinds
//! and players, direction order for directions and start-cell order for
//! lines.

/// Runs `$body` with `$p` bound to the game's compiled program at its width.
macro_rules! with_program {
    ($g:expr, $p:ident => $body:expr) => {
        match $g.program() {
            crate::compile::Compiled::W1(prog) => {
                let $p = &**prog;
                $body
            }
            crate::compile::Compiled::W2(prog) => {
                let $p = &**prog;
                $body
            }
            crate::compile::Compiled::W4(prog) => {
                let $p = &**prog;
                $body
            }
        }
    };
}

mod engine;
mod exec;
mod explain;
pub mod machine;
mod notation;
mod playout;
pub mod reference;
mod render;
pub mod search;

pub use engine::{monte_carlo, Engine};
pub use exec::{Step, Why};
pub use explain::{explain, Attempt, Verdict};
pub use notation::MoveError;
pub use notation::{choice_text, play_sequence, value_text, SequenceError};
pub use playout::{playout, playout_recorded, Playout};
pub use render::{player_tags, render, render_for};

use crate::board::NO_CELL;
use crate::compile::Program;
use crate::diag::Problem;
use crate::ir::Value;
use crate::source::Span;
use crate::Game;

/// Most nodes of one turn's choice tree that move generation explores.
pub const NODE_LIMIT: u32 = 2_000_000;

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One player won.
    Win(u8),
    /// Nobody won.
    Draw,
    /// Several players share the win (bit `p` set for player `p`).
    Shared(u8),
}

impl Outcome {
    /// Whether player `p` is among the winners.
    pub fn is_winner(self, p: u8) -> bool {
        match self {
            Outcome::Win(w) => w == p,
            Outcome::Draw => false,
            Outcome::Shared(m) => m & (1 << p) != 0,
        }
    }

    /// Human-readable result, e.g. `White wins`.
    pub fn describe(self, g: &crate::ir::Game) -> String {
        match self {
            Outcome::Win(p) => format!("{} wins", g.players[p as usize]),
            Outcome::Draw => "draw".to_string(),
            Outcome::Shared(m) => {
                let names: Vec<&str> = (0..g.players.len())
                    .filter(|&p| m & (1 << p) != 0)
                    .map(|p| g.players[p].as_str())
                    .collect();
                format!("shared win: {}", names.join(", "))
            }
        }
    }
}

/// One decision of a move: the `choose` it answers and the value chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Choice {
    /// Index of the `choose` statement.
    pub site: u16,
    /// The value chosen.
    pub value: Value,
}

/// A complete turn: every decision, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move {
    /// The choices, in the order the turn made them.
    pub choices: Vec<Choice>,
    /// A turn forced by having no legal move (`on no moves`), e.g. a pass.
    pub stuck: bool,
}

/// A run-time failure of a rule (not an illegal move): a runaway loop, a
/// division by zero, an effect the rules make impossible in `setup`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    /// What went wrong.
    pub message: String,
    /// The rule that went wrong.
    pub span: Span,
}

impl RunError {
    /// The error as a diagnostic on the game's source.
    pub fn to_problem(&self, g: &crate::ir::Game) -> Problem {
        Problem::new("tabula::run", "a rule failed while running", self.span, self.message.clone())
            .help("this is a problem in the game file, not in the move")
            .with_source(&g.source)
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at bytes {}..{})", self.message, self.span.start, self.span.end)
    }
}

impl std::error::Error for RunError {}

/// A position: board, zones, whose turn, how many turns were played, outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Board cells (0 = empty, else `1 + owner * kinds + kind`), then zone counters.
    pub(crate) data: Box<[u16]>,
    /// Occupancy bit sets, kept in step with the cells: one set per player,
    /// then one per kind, [`crate::board::Board::set_words`] words each.
    pub(crate) bits: Box<[u64]>,
    /// The contents of ordered zones, first to last.
    pub(crate) seqs: Vec<Vec<u16>>,
    /// The engine's random state, used by `shuffle`.
    pub(crate) rng: u64,
    pub(crate) current: u8,
    pub(crate) ply: u32,
    pub(crate) outcome: Option<Outcome>,
    /// Which `compare` key decided the outcome (0 = the first).
    pub(crate) decided_by: Option<u8>,
}

/// Whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// This player decides.
    Player(u8),
    /// The game is over.
    Over,
}

impl State {
    /// The empty position before `setup` runs: first player to move.
    pub fn empty(g: &crate::ir::Game) -> State {
        State {
            data: vec![0; g.board.len() + g.counters()].into_boxed_slice(),
            bits: vec![0; g.board.set_words() * (g.players.len() + g.kinds.len())]
                .into_boxed_slice(),
            seqs: vec![Vec::new(); g.sequences],
            rng: 0,
            current: 0,
            ply: 0,
            outcome: None,
            decided_by: None,
        }
    }

    /// The starting position: the empty position after `setup`, with the
    /// engine's random state seeded by 0 (see [`State::initial_seeded`]).
    pub fn initial(g: &Game) -> Result<State, RunError> {
        State::initial_seeded(g, 0)
    }

    /// The starting position with `seed` for every `shuffle`: the same seed
    /// gives the same deal.
    pub fn initial_seeded(g: &Game, seed: u64) -> Result<State, RunError> {
        let mut s = State::empty(g);
        s.rng = crate::rng::Rng::new(seed).next_u64();
        with_program!(g, p => search::run_plain(p, &p.setup, &mut s, "setup"))?;
        Ok(s)
    }

    /// The player to move, or [`Turn::Over`].
    pub fn turn(&self) -> Turn {
        if self.outcome.is_some() {
            Turn::Over
        } else {
            Turn::Player(self.current)
        }
    }

    /// The player whose turn it is (the last mover once the game is over).
    pub fn current(&self) -> u8 {
        self.current
    }

    /// Turns played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The piece on a cell: `(owner, kind)`.
    pub fn piece(&self, g: &crate::ir::Game, cell: u16) -> Option<(u8, u16)> {
        let v = *self.data.get(cell as usize)?;
        if v == 0 || cell == NO_CELL {
            return None;
        }
        let k = g.kinds.len() as u16;
        Some((((v - 1) / k) as u8, (v - 1) % k))
    }

    /// Puts a piece on a cell (or empties it). For setting up positions.
    pub fn set_piece(&mut self, g: &crate::ir::Game, cell: u16, piece: Option<(u8, u16)>) {
        if (cell as usize) < g.board.len() {
            self.put(g, cell, piece.map_or(0, |(p, k)| 1 + p as u16 * g.kinds.len() as u16 + k));
        }
    }

    /// Writes board code `code` on cell `c` (on the board), keeping the
    /// occupancy sets in step. Every change of a cell goes through here
    /// (or through [`State::put_w`], its fixed-width twin).
    pub(crate) fn put(&mut self, g: &crate::ir::Game, c: u16, code: u16) {
        match g.board.set_words() {
            1 => self.put_w::<1>(g.kinds.len() as u16, g.players.len(), c, code),
            2 => self.put_w::<2>(g.kinds.len() as u16, g.players.len(), c, code),
            _ => self.put_w::<4>(g.kinds.len() as u16, g.players.len(), c, code),
        }
    }

    /// [`State::put`] for boards whose sets are `W` words.
    #[inline(always)]
    pub(crate) fn put_w<const W: usize>(&mut self, kinds: u16, players: usize, c: u16, code: u16) {
        let old = self.data[c as usize];
        self.data[c as usize] = code;
        let (word, bit) = ((c >> 6) as usize, 1u64 << (c & 63));
        if word >= W {
            return;
        }
        if old != 0 {
            let (p, k) = ((old - 1) / kinds, (old - 1) % kinds);
            if let Some(w) = self.bits.get_mut(p as usize * W + word) {
                *w &= !bit;
            }
            if let Some(w) = self.bits.get_mut((players + k as usize) * W + word) {
                *w &= !bit;
            }
        }
        if code != 0 {
            let (p, k) = ((code - 1) / kinds, (code - 1) % kinds);
            if let Some(w) = self.bits.get_mut(p as usize * W + word) {
                *w |= bit;
            }
            if let Some(w) = self.bits.get_mut((players + k as usize) * W + word) {
                *w |= bit;
            }
        }
    }

    /// How many pieces of `kind` are in zone `zone` of `player`.
    pub fn count(&self, g: &crate::ir::Game, zone: u16, player: u8, kind: u16) -> u16 {
        self.data[g.board.len() + g.counter(zone, player, kind)]
    }

    /// Sets a zone counter. For setting up positions.
    pub fn set_count(&mut self, g: &crate::ir::Game, zone: u16, player: u8, kind: u16, n: u16) {
        let i = g.board.len() + g.counter(zone, player, kind);
        self.data[i] = n;
    }

    /// Sets the player to move. For setting up positions.
    pub fn set_current(&mut self, p: u8) {
        self.current = p;
    }

    /// The contents of an ordered zone, first to last.
    pub fn sequence(&self, g: &crate::ir::Game, zone: u16, player: u8) -> &[u16] {
        &self.seqs[g.sequence(zone, player)]
    }

    /// Which `compare` key decided the outcome (0 = the first), if any.
    pub fn decided_by(&self) -> Option<u8> {
        self.decided_by
    }

    /// Player `p`'s score by the game's `def score(p)`, if it has one.
    pub fn score(&self, g: &Game, p: u8) -> Result<Option<i64>, RunError> {
        with_program!(g, prog => score_w(prog, self, p))
    }

    /// Approximate memory of this state in bytes: the struct itself plus
    /// its heap buffers (cells and counters, occupancy sets, ordered zones).
    pub fn size_bytes(&self) -> usize {
        std::mem::size_of::<State>()
            + std::mem::size_of_val(&*self.data)
            + std::mem::size_of_val(&*self.bits)
            + self.seqs.capacity() * std::mem::size_of::<Vec<u16>>()
            + self.seqs.iter().map(|q| q.capacity() * 2).sum::<usize>()
    }

    /// The engine's random state (decides future shuffles).
    pub fn rng_state(&self) -> u64 {
        self.rng
    }

    /// The stored outcome, if the game ended by a rule (`win`, `lose`, `draw`).
    pub fn ended(&self) -> Option<Outcome> {
        self.outcome
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
        with_program!(g, p => {
            if has_move_w(p, self)? {
                return Ok(None);
            }
            Ok(stuck_w(p, self)?.outcome)
        })
    }

    /// The position after `on no moves` (a pass, or the end of the game).
    fn stuck(&self, g: &Game) -> Result<State, RunError> {
        with_program!(g, p => stuck_w(p, self))
    }

    pub(crate) fn advance(&mut self, players: usize) {
        self.current = ((self.current as usize + 1) % players) as u8;
        self.ply += 1;
    }

    /// All legal moves in canonical order; empty exactly when the game is over.
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
        with_program!(g, p => {
            let mut s = search::Searcher::default();
            s.search(p, self, &mut search::MovesSink { out: &mut *out })
        })?;
        if out.is_empty() && self.stuck(g)?.outcome.is_none() {
            out.push(Move { choices: Vec::new(), stuck: true });
        }
        Ok(())
    }

    /// How many legal moves there are, without building them (for perft).
    pub fn count_moves(&self, g: &Game) -> Result<u64, RunError> {
        perft(g, self, 1)
    }

    /// Copies `src` into `self`, reusing `self`'s buffers.
    pub(crate) fn copy_from(&mut self, src: &State) {
        self.data.copy_from_slice(&src.data);
        self.bits.copy_from_slice(&src.bits);
        for (a, b) in self.seqs.iter_mut().zip(&src.seqs) {
            a.clear();
            a.extend_from_slice(b);
        }
        self.rng = src.rng;
        self.current = src.current;
        self.ply = src.ply;
        self.outcome = src.outcome;
        self.decided_by = src.decided_by;
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

    /// Plays a move known to be legal (from [`State::legal_moves`]).
    pub fn play_unchecked(&mut self, g: &Game, mv: &Move) -> Result<(), RunError> {
        if mv.stuck {
            *self = self.stuck(g)?;
            return Ok(());
        }
        with_program!(g, p => search::replay(p, self, &mv.choices, g.turn_span))?;
        if self.outcome.is_none() {
            self.advance(g.players.len());
        }
        Ok(())
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

/// Counts the move paths of exactly `depth` complete turns from `s`.
/// A game that ends earlier contributes nothing.
pub fn perft(g: &Game, s: &State, depth: u32) -> Result<u64, RunError> {
    with_program!(g, p => perft_w(p, s, depth, &mut Vec::new(), 0))
}

fn perft_w<const W: usize>(
    p: &Program<W>,
    s: &State,
    depth: u32,
    stack: &mut Vec<search::Searcher<W>>,
    level: usize,
) -> Result<u64, RunError> {
    if depth == 0 {
        return Ok(1);
    }
    if s.outcome.is_some() {
        return Ok(0);
    }
    while stack.len() <= level {
        stack.push(search::Searcher::default());
    }
    let mut searcher = std::mem::take(&mut stack[level]);
    let mut sink = PerftSink { depth, stack, level, nodes: 0, leaves: 0, scratch: None };
    let r = searcher.search(p, s, &mut sink);
    let (nodes, leaves) = (sink.nodes, sink.leaves);
    stack[level] = searcher;
    r?;
    if leaves > 0 {
        return Ok(nodes);
    }
    let st = stuck_w(p, s)?;
    if st.outcome.is_some() {
        return Ok(0);
    }
    if depth == 1 {
        return Ok(1);
    }
    perft_w(p, &st, depth - 1, stack, level + 1)
}

/// Counts perft nodes below each finished turn of a search.
struct PerftSink<'a, const W: usize> {
    depth: u32,
    stack: &'a mut Vec<search::Searcher<W>>,
    level: usize,
    nodes: u64,
    leaves: u64,
    scratch: Option<search::Level<W>>,
}

impl<const W: usize> search::Sink<W> for PerftSink<'_, W> {
    fn done(
        &mut self,
        p: &Program<W>,
        st: &mut State,
        _: &[(u16, machine::Pick<W>)],
    ) -> Result<bool, RunError> {
        self.leaves += 1;
        if self.depth == 1 {
            self.nodes += 1;
        } else {
            search::advance(st, p.t.players);
            self.nodes += perft_w(p, st, self.depth - 1, self.stack, self.level + 1)?;
        }
        Ok(true)
    }

    fn lazy(
        &mut self,
        p: &Program<W>,
        fork: &search::Level<W>,
        pc: u32,
        _: &[(u16, machine::Pick<W>)],
        opts: &machine::Options<W>,
    ) -> Result<bool, RunError> {
        self.leaves += opts.len() as u64;
        if self.depth == 1 {
            self.nodes += opts.len() as u64;
            return Ok(true);
        }
        let scratch = self.scratch.get_or_insert_with(|| fork.clone());
        for i in 0..opts.len() {
            if !search::complete(p, fork, pc, opts.get(i), scratch)? {
                self.leaves -= 1;
                continue;
            }
            search::advance(&mut scratch.st, p.t.players);
            self.nodes += perft_w(p, &scratch.st, self.depth - 1, self.stack, self.level + 1)?;
        }
        Ok(true)
    }
}

/// Whether the mover has at least one move of the turn (not counting a
/// forced pass).
fn has_move_w<const W: usize>(p: &Program<W>, s: &State) -> Result<bool, RunError> {
    let mut any = search::AnySink(false);
    search::Searcher::default().search(p, s, &mut any)?;
    Ok(any.0)
}

/// Runs `on no moves` on a copy: the resulting state (a pass or an
/// ending). A pass when no player at all has a move ends the game
/// instead, with the result of `at end` (a draw if there is none).
pub(crate) fn stuck_w<const W: usize>(p: &Program<W>, s: &State) -> Result<State, RunError> {
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
        if has_move_w(p, &t)? {
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
    Ok(st)
}

fn score_w<const W: usize>(p: &Program<W>, s: &State, pl: u8) -> Result<Option<i64>, RunError> {
    let Some((slot, f)) = &p.score else { return Ok(None) };
    let mut fr = p.new_frame();
    fr.w[*slot as usize] = i64::from(pl);
    let mut st = s.clone();
    let mut cx = crate::compile::Cx { t: &p.t, st: &mut st, fr: &mut fr };
    let v = f(&mut cx);
    match fr.err.take() {
        Some(e) => Err(*e),
        None => Ok(Some(v)),
    }
}

/// The result of `compare`: each player's keys, compared in order (lists
/// element by element, a missing element counting 0); the best player
/// wins, a tie of everybody is a draw (or a shared win with `ties share`),
/// a tie of some is a shared win. Also which key decided it (0 = first),
/// when it was not everybody's tie.
pub(crate) fn rank(
    scored: Vec<(u8, Vec<Vec<i64>>)>,
    nkeys: usize,
    share: bool,
) -> (Outcome, Option<u8>) {
    let cmp = |a: &[Vec<i64>], b: &[Vec<i64>]| {
        for (x, y) in a.iter().zip(b.iter()) {
            for j in 0..x.len().max(y.len()) {
                let (u, v) = (x.get(j).copied().unwrap_or(0), y.get(j).copied().unwrap_or(0));
                if u != v {
                    return u.cmp(&v);
                }
            }
        }
        std::cmp::Ordering::Equal
    };
    let Some(best) = scored.iter().map(|s| &s.1).max_by(|a, b| cmp(a, b)).cloned() else {
        return (Outcome::Draw, None);
    };
    let top = |n: usize| -> Vec<u8> {
        let best = &best[..n];
        scored.iter().filter(|s| cmp(&s.1[..n], best).is_eq()).map(|s| s.0).collect()
    };
    let winners = top(nkeys);
    // The first key after which the best players are already the final ones.
    let decided_by = (winners.len() < scored.len())
        .then(|| (1..=nkeys).find(|&n| top(n) == winners).map(|n| (n - 1) as u8))
        .flatten();
    let outcome = match winners.as_slice() {
        [w] => Outcome::Win(*w),
        _ if winners.len() == scored.len() && !share => Outcome::Draw,
        _ => Outcome::Shared(winners.iter().fold(0, |m, w| m | (1 << w))),
    };
    (outcome, decided_by)
}
