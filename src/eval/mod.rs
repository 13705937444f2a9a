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

mod engine;
mod exec;
mod explain;
mod notation;
mod playout;
mod render;

pub use engine::{monte_carlo, Engine};
pub use exec::{Step, Why};
pub use explain::{explain, Attempt, Verdict};
pub use notation::MoveError;
pub use notation::{play_sequence, value_text, SequenceError};
pub use playout::{playout, Playout};
pub use render::{player_tags, render, render_for};

use crate::board::NO_CELL;
use crate::diag::Problem;
use crate::ir::{Game, Value};
use crate::source::Span;
use exec::{Exec, Flow, Frame};

/// Where complete turns go: into a move list, or just counted.
enum Sink<'a> {
    Moves(&'a mut Vec<Move>),
    Count(&'a mut u64),
}

/// The reusable working memory of move generation.
struct Search {
    /// The choices made so far.
    prefix: Vec<Choice>,
    frame: Frame,
    options: Vec<Choice>,
    /// The state each run works on (overwritten before every run).
    scratch: State,
    /// Choices that may still be explored.
    budget: u32,
}

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
    pub fn describe(self, g: &Game) -> String {
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
    pub fn to_problem(&self, g: &Game) -> Problem {
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
    pub fn empty(g: &Game) -> State {
        State {
            data: vec![0; g.board.len() + g.counters()].into_boxed_slice(),
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
        let mut slots = Frame::new(g);
        let mut ex = Exec::new(g, &mut s, &mut slots, &[]);
        match ex.run(&g.setup)? {
            Flow::Fail(span) => {
                return Err(RunError {
                    message: "setup could not be carried out (an effect was impossible)".into(),
                    span,
                })
            }
            Flow::Pause => {
                return Err(RunError {
                    message: "setup cannot ask for decisions".into(),
                    span: Span::default(),
                })
            }
            Flow::Next | Flow::End => {}
        }
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
    pub fn piece(&self, g: &Game, cell: u16) -> Option<(u8, u16)> {
        let v = *self.data.get(cell as usize)?;
        if v == 0 || cell == NO_CELL {
            return None;
        }
        let k = g.kinds.len() as u16;
        Some((((v - 1) / k) as u8, (v - 1) % k))
    }

    /// Puts a piece on a cell (or empties it). For setting up positions.
    pub fn set_piece(&mut self, g: &Game, cell: u16, piece: Option<(u8, u16)>) {
        if let Some(slot) = self.data.get_mut(cell as usize) {
            *slot = piece.map_or(0, |(p, k)| 1 + p as u16 * g.kinds.len() as u16 + k);
        }
    }

    /// How many pieces of `kind` are in zone `zone` of `player`.
    pub fn count(&self, g: &Game, zone: u16, player: u8, kind: u16) -> u16 {
        self.data[g.board.len() + g.counter(zone, player, kind)]
    }

    /// Sets a zone counter. For setting up positions.
    pub fn set_count(&mut self, g: &Game, zone: u16, player: u8, kind: u16, n: u16) {
        let i = g.board.len() + g.counter(zone, player, kind);
        self.data[i] = n;
    }

    /// Sets the player to move. For setting up positions.
    pub fn set_current(&mut self, p: u8) {
        self.current = p;
    }

    /// The contents of an ordered zone, first to last.
    pub fn sequence(&self, g: &Game, zone: u16, player: u8) -> &[u16] {
        &self.seqs[g.sequence(zone, player)]
    }

    /// Which `compare` key decided the outcome (0 = the first), if any.
    pub fn decided_by(&self) -> Option<u8> {
        self.decided_by
    }

    /// Player `p`'s score by the game's `def score(p)`, if it has one.
    pub fn score(&self, g: &Game, p: u8) -> Result<Option<i64>, RunError> {
        let Some((slot, e)) = &g.score else { return Ok(None) };
        let mut slots = Frame::new(g);
        slots.slots[*slot as usize] = Value::Player(p);
        let mut s = self.clone();
        let mut ex = Exec::new(g, &mut s, &mut slots, &[]);
        match ex.eval_expr(e)? {
            Value::Int(n) => Ok(Some(n)),
            _ => Ok(None),
        }
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
        let mut moves = Vec::new();
        self.turn_moves(g, &mut moves)?;
        if !moves.is_empty() {
            return Ok(None);
        }
        Ok(self.stuck(g)?.outcome)
    }

    /// Runs `on no moves` on a copy: the resulting state (a pass or an
    /// ending). A pass when no player at all has a move ends the game
    /// instead, with the result of `at end` (a draw if there is none).
    fn stuck(&self, g: &Game) -> Result<State, RunError> {
        let mut s = self.clone();
        let Some(body) = &g.no_moves else {
            s.outcome = Some(Outcome::Draw);
            return Ok(s);
        };
        let mut slots = Frame::new(g);
        if let Flow::Fail(span) = Exec::new(g, &mut s, &mut slots, &[]).run(body)? {
            return Err(RunError {
                message: "`on no moves` could not be carried out".into(),
                span,
            });
        }
        if s.outcome.is_some() {
            return Ok(s);
        }
        if self.nobody_can_move(g)? {
            let mut end = self.clone();
            if let Some(body) = &g.at_end {
                if let Flow::Fail(span) = Exec::new(g, &mut end, &mut slots, &[]).run(body)? {
                    return Err(RunError {
                        message: "`at end` could not be carried out".into(),
                        span,
                    });
                }
            }
            end.outcome = end.outcome.or(Some(Outcome::Draw));
            return Ok(end);
        }
        s.advance(g);
        Ok(s)
    }

    /// Whether every player, if it were their turn here, would have no move.
    fn nobody_can_move(&self, g: &Game) -> Result<bool, RunError> {
        let mut moves = Vec::new();
        for p in 0..g.players.len() as u8 {
            let mut t = self.clone();
            t.current = p;
            t.turn_moves(g, &mut moves)?;
            if !moves.is_empty() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn advance(&mut self, g: &Game) {
        self.current = ((self.current as usize + 1) % g.players.len()) as u8;
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
        self.turn_moves(g, out)?;
        if out.is_empty() && self.stuck(g)?.outcome.is_none() {
            out.push(Move { choices: Vec::new(), stuck: true });
        }
        Ok(())
    }

    fn turn_moves(&self, g: &Game, out: &mut Vec<Move>) -> Result<(), RunError> {
        self.turn_search(g, &mut Sink::Moves(out))
    }

    /// How many legal moves there are, without building them (for perft).
    pub fn count_moves(&self, g: &Game) -> Result<u64, RunError> {
        if self.outcome.is_some() {
            return Ok(0);
        }
        let mut n = 0;
        self.turn_search(g, &mut Sink::Count(&mut n))?;
        if n == 0 && self.stuck(g)?.outcome.is_none() {
            n = 1;
        }
        Ok(n)
    }

    fn turn_search(&self, g: &Game, out: &mut Sink) -> Result<(), RunError> {
        let mut search = Search {
            prefix: Vec::new(),
            frame: Frame::new(g),
            options: Vec::new(),
            scratch: self.clone(),
            budget: NODE_LIMIT,
        };
        self.expand(g, &mut search, out)
    }

    /// Copies `src` into `self`, reusing `self`'s buffers.
    fn copy_from(&mut self, src: &State) {
        self.data.copy_from_slice(&src.data);
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

    /// One node of the choice tree: run the turn with the choices made so
    /// far on a copy of the state, then either record a move, drop a failed
    /// branch, or recurse into the options of the next decision.
    fn expand(&self, g: &Game, k: &mut Search, out: &mut Sink) -> Result<(), RunError> {
        k.scratch.copy_from(self);
        k.options.clear();
        let flow = {
            let mut ex = Exec::new(g, &mut k.scratch, &mut k.frame, &k.prefix);
            ex.collect = Some(&mut k.options);
            ex.run(&g.turn)?
        };
        match flow {
            Flow::Next | Flow::End => match out {
                Sink::Moves(v) => v.push(Move { choices: k.prefix.clone(), stuck: false }),
                Sink::Count(n) => **n += 1,
            },
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
                    self.expand(g, k, out)?;
                    k.prefix.pop();
                }
            }
        }
        Ok(())
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
        let mut slots = Frame::new(g);
        let flow = Exec::new(g, self, &mut slots, &mv.choices).run(&g.turn)?;
        match flow {
            Flow::Next | Flow::End => {
                if self.outcome.is_none() {
                    self.advance(g);
                }
                Ok(())
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
    if depth == 0 {
        return Ok(1);
    }
    if depth == 1 {
        return s.count_moves(g);
    }
    let moves = s.legal_moves(g)?;
    let mut n = 0;
    for m in &moves {
        let mut t = s.clone();
        t.play_unchecked(g, m)?;
        n += perft(g, &t, depth - 1)?;
    }
    Ok(n)
}
