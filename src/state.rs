//! Positions and moves: the types every part of tabula shares. How moves
//! are found and played is `eval`; how positions are shown is `render` and
//! `wire`.

use crate::board::NO_CELL;
use crate::diag::Problem;
use crate::ir::{Game, Value, NONE8};
use crate::source::Span;
use std::sync::Arc;

/// Most nodes of one turn's choice tree that move generation explores
/// (the default of [`Limits::choices`]).
pub const NODE_LIMIT: u32 = 2_000_000;

/// Most steps one run of a block may take (the default of
/// [`Limits::steps`]).
pub const STEP_LIMIT: u32 = 2_000_000;

/// How much work a rule may do before it is stopped with an error: a
/// game's own (`ir::Game::limits`), which both evaluators keep to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Steps of one run of a block: every round of a loop and every element
    /// a quantifier, `choose`, `random` or `compare` looks at.
    pub steps: u32,
    /// Options one turn's move search may explore, over all its decisions.
    pub choices: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { steps: STEP_LIMIT, choices: NODE_LIMIT }
    }
}

/// Most decisions and chance events one turn meets, together: the depth
/// of its choice tree. A search refuses a decision (with
/// options) met after as many; a chance event met after as many is
/// refused where its outcomes are listed, drawn or played. Move
/// generation recurses once per decision, so a loop that makes a
/// decision in every round would otherwise exhaust the stack before any
/// one run met the step limit; and a turn under way is replayed from its
/// start with its events, so one that loops over chance events would
/// cost ever longer replays. A search needs about
/// 1 KB of stack per decision in a release build (about 20 KB in a debug
/// build): tabula's own threads have [`SEARCH_STACK`].
pub const DECISION_LIMIT: usize = 1_000;

/// Most choices one list of a turn's moves holds, over all its moves: a
/// choice is 48 bytes, so a list stays under 100 MB however its moves
/// multiply (the decision limit alone allows a million moves of a
/// thousand choices each).
pub const LIST_LIMIT: usize = 2_000_000;

/// The stack of the threads tabula starts for work that searches moves:
/// room for [`DECISION_LIMIT`] decisions in either build, with a margin.
/// Only the pages a search touches are ever mapped.
pub const SEARCH_STACK: usize = 64 << 20;

/// Starts `f` on a thread of scope `s` with a [`SEARCH_STACK`]; an error
/// when the system starts no thread (the closure is then dropped).
pub fn spawn_search<'scope, T: Send + 'scope>(
    s: &'scope std::thread::Scope<'scope, '_>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    std::thread::Builder::new().stack_size(SEARCH_STACK).spawn_scoped(s, f)
}

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
///
/// One pointer wide (its [`Fault`] boxed, read through `Deref`: `e.message`,
/// `e.span`), so that a `Result` of the evaluator's hot functions comes back
/// in registers rather than through memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError(Box<Fault>);

/// What a [`RunError`] holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong.
    pub message: String,
    /// The rule that went wrong.
    pub span: Span,
}

impl RunError {
    /// The failure `message` of the rule at `span`.
    #[cold]
    #[inline(never)]
    pub fn new(message: impl Into<String>, span: Span) -> RunError {
        RunError(Box::new(Fault { message: message.into(), span }))
    }

    /// The error of a turn that meets another decision or chance event
    /// after [`DECISION_LIMIT`] of them, at that one's `span`.
    #[cold]
    #[inline(never)]
    pub fn too_deep(span: Span) -> RunError {
        RunError::new(
            format!(
                "one turn meets more than {DECISION_LIMIT} decisions and chance events; is a loop endless?"
            ),
            span,
        )
    }

    /// The error of a list of a turn's moves that would hold more than
    /// [`LIST_LIMIT`] choices, at the last decision of the move that
    /// passes it.
    #[cold]
    #[inline(never)]
    pub fn list_too_long(span: Span) -> RunError {
        RunError::new(
            format!(
                "one turn's moves hold more than {LIST_LIMIT} choices in all; are its decisions meant to multiply like this?"
            ),
            span,
        )
    }

    /// The error as a diagnostic on the game's source.
    pub fn to_problem(&self, g: &Game) -> Problem {
        Problem::new("tabula::run", "a rule failed while running", self.span, self.message.clone())
            .help("this is a problem in the game file, not in the move")
            .with_source(&g.source)
    }
}

impl std::ops::Deref for RunError {
    type Target = Fault;
    fn deref(&self) -> &Fault {
        &self.0
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at bytes {}..{})", self.message, self.span.start, self.span.end)
    }
}

impl std::error::Error for RunError {}

/// A position: board, zones, whose turn, how many turns were played, outcome.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Board cells (0 = empty, else `1 + owner * kinds + kind`), then zone counters.
    pub(crate) data: Box<[u16]>,
    /// Occupancy bit sets, kept in step with the cells: one set per player,
    /// then one per kind, [`crate::board::Board::set_words`] words each.
    pub(crate) bits: Box<[u64]>,
    /// The contents of ordered zones, first to last.
    pub(crate) seqs: Vec<Seq>,
    /// A turn interrupted by a chance event (or resumed after one).
    pub(crate) pending: Option<Box<Pending>>,
    pub(crate) current: u8,
    pub(crate) ply: u32,
    pub(crate) outcome: Option<Outcome>,
    /// Which `compare` key decided the outcome (0 = the first).
    pub(crate) decided_by: Option<u8>,
    /// Variables kept in the position (`var`), as words.
    pub(crate) vars: Box<[i64]>,
    /// Clocks (`clock`): variables that do not make positions differ for
    /// repetitions.
    pub(crate) clocks: Box<[i64]>,
    /// Who moves after this turn, when a rule said (`again`, `next turn
    /// P`); [`NONE8`] otherwise. Always [`NONE8`] between turns.
    pub(crate) next: u8,
    /// For games that count repetitions: the keys of the positions that
    /// began a turn, this one last.
    pub(crate) history: History,
}

/// The positions a game went through, as keys (see [`State::key`]): a
/// shared list, so copying a position does not copy its past.
#[derive(Debug, Clone, Default)]
pub struct History(Option<Arc<Past>>);

/// One position of a history and the ones before it.
#[derive(Debug)]
pub struct Past {
    key: u64,
    len: u32,
    prev: Option<Arc<Past>>,
}

impl Drop for Past {
    // A long history is unlinked one by one, not by recursion.
    fn drop(&mut self) {
        let mut p = self.prev.take();
        while let Some(a) = p {
            match Arc::try_unwrap(a) {
                Ok(mut h) => p = h.prev.take(),
                Err(_) => break,
            }
        }
    }
}

impl History {
    /// The keys, latest first.
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        let mut p = self.0.as_deref();
        std::iter::from_fn(move || {
            let h = p?;
            p = h.prev.as_deref();
            Some(h.key)
        })
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |h| h.len as usize)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// Whether both are the very same list (a cheap test before copying).
    pub fn same(&self, o: &History) -> bool {
        match (&self.0, &o.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    /// Adds a position's key.
    pub fn push(&mut self, key: u64) {
        let len = self.len() as u32 + 1;
        self.0 = Some(Arc::new(Past { key, len, prev: self.0.take() }));
    }

    /// A history from keys, oldest first.
    pub fn from_keys(keys: &[u64]) -> History {
        let mut h = History::default();
        for &k in keys {
            h.push(k);
        }
        h
    }
}

/// How often each key occurs in one [`History`], kept for `repetitions` so
/// that asking costs a table lookup instead of a walk of the game so far.
/// It follows the histories it is asked about: one a few positions away
/// from the one it counts (a later turn of the same game, a sibling in a
/// search, a move taken back) is reached by adding and removing those
/// positions' keys; any other is counted afresh.
#[derive(Debug, Clone, Default)]
pub struct RepCount {
    /// The history counted (held, so its identity is not reused).
    at: History,
    counts: std::collections::HashMap<u64, u32, KeyHash>,
}

/// Hashing for keys that are hashes already (see [`State::key`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyHash;

/// The [`std::hash::Hasher`] of [`KeyHash`]: one multiplication.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyHasher(u64);

impl std::hash::BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl RepCount {
    /// Most positions added and removed to follow a history before it is
    /// counted afresh instead.
    const STEPS: usize = 32;

    /// How often `key` occurs in `h`.
    pub fn count(&mut self, h: &History, key: u64) -> u32 {
        if !self.at.same(h) {
            if !self.follow(h) {
                self.counts.clear();
                for k in h.keys() {
                    *self.counts.entry(k).or_insert(0) += 1;
                }
            }
            self.at = h.clone();
        }
        self.counts.get(&key).copied().unwrap_or(0)
    }

    /// Brings the counts from `self.at` to `h` through their last common
    /// position, when it is at most [`RepCount::STEPS`] changes away;
    /// false (the counts left to be redone) otherwise.
    fn follow(&mut self, h: &History) -> bool {
        let (mut a, mut b) = (self.at.0.as_ref(), h.0.as_ref());
        let len = |x: Option<&Arc<Past>>| x.map_or(0, |p| p.len as usize);
        let (la, lb) = (len(a), len(b));
        if la.abs_diff(lb) > Self::STEPS {
            return false;
        }
        // The keys to remove (of `a`'s side) and to add (of `b`'s side).
        let mut gone = [0u64; Self::STEPS];
        let mut new = [0u64; Self::STEPS];
        let (mut ng, mut nn) = (0, 0);
        loop {
            match (a, b) {
                (Some(x), Some(y)) if Arc::ptr_eq(x, y) => break,
                (None, None) => break,
                _ => {}
            }
            if ng + nn >= Self::STEPS {
                return false;
            }
            let (lx, ly) = (len(a), len(b));
            if lx >= ly {
                let Some(x) = a else { return false };
                gone[ng] = x.key;
                ng += 1;
                a = x.prev.as_ref();
            }
            if ly >= lx {
                let Some(y) = b else { return false };
                new[nn] = y.key;
                nn += 1;
                b = y.prev.as_ref();
            }
        }
        for &k in &gone[..ng] {
            if let Some(n) = self.counts.get_mut(&k) {
                *n -= 1;
                if *n == 0 {
                    self.counts.remove(&k);
                }
            }
        }
        for &k in &new[..nn] {
            *self.counts.entry(k).or_insert(0) += 1;
        }
        true
    }
}

impl PartialEq for History {
    fn eq(&self, o: &History) -> bool {
        match (&self.0, &o.0) {
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => true,
            _ => self.len() == o.len() && self.keys().eq(o.keys()),
        }
    }
}

impl Eq for History {}

impl std::hash::Hash for History {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.len().hash(h);
        if let Some(k) = self.keys().next() {
            k.hash(h);
        }
    }
}

/// Whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// This player decides.
    Player(u8),
    /// A chance event is due: see [`State::chance_outcomes`].
    Chance,
    /// The game is over.
    Over,
}

/// A turn under way, stopped at a chance event or at the decision that
/// follows one. The position's own contents are those at the start of the
/// turn; the turn goes on from there through `events` (a continuation kept
/// as its history, so that any evaluator can resume it, and two positions
/// are equal exactly when their turns began alike and went alike). What the
/// board looks like at the stop is `interp::reference::view`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Pending {
    /// Every decision and chance outcome of the turn so far, in order.
    pub events: Vec<Choice>,
    /// Waiting for chance (rather than for the mover).
    pub chance: bool,
}

impl Clone for Pending {
    /// A copy with room for the events a turn under way goes on to add
    /// (each chance outcome or decision adds one): no reallocation at the
    /// next.
    fn clone(&self) -> Pending {
        let mut events = Vec::with_capacity(self.events.len() + 4);
        events.extend_from_slice(&self.events);
        Pending { events, chance: self.chance }
    }

    fn clone_from(&mut self, o: &Pending) {
        self.events.clone_from(&o.events);
        self.chance = o.chance;
    }
}

/// An ordered zone: its pieces first to last. After a `shuffle` the order
/// of the pieces does not exist yet: they form the `middle`, of which only
/// how many of each kind are known. Reading the first (last) piece of a
/// zone whose front (back) is face down is a chance event that fixes it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Seq {
    /// The known pieces at the start, last to first: the first piece is
    /// the vector's last element, so that a draw is a `pop` (read in
    /// order with [`Seq::front`]).
    head: Vec<u16>,
    /// How many of each kind lie face down in the middle (indexed by kind;
    /// empty when there are none): read with [`Seq::middle`], made with
    /// [`Seq::from_parts`]. A boxed slice, not a `Vec`: the zone's
    /// description stays as large as before the count below was added
    /// (a larger one cost Bug Off!'s stacked perft 3% in copies).
    middle: Box<[u16]>,
    /// The known pieces at the end, first to last.
    pub back: Vec<u16>,
    /// The sum of `middle`, kept with it: whether a draw is a chance event
    /// is asked at every search and draw, and a sum or a walk of the kinds
    /// each time cost more than keeping it.
    hidden: u32,
}

/// The first or last piece of an ordered zone, as far as it is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The zone is empty.
    Empty,
    /// This kind.
    Known(u16),
    /// Face down: a chance event decides it.
    Unknown,
}

impl Seq {
    /// A zone of `front`, then `middle[k]` face-down pieces of each kind
    /// `k`, then `back`, in its canonical form (with nothing face down,
    /// one known list).
    pub fn from_parts(mut front: Vec<u16>, middle: Vec<u16>, back: Vec<u16>) -> Seq {
        let hidden = middle.iter().map(|&n| u32::from(n)).sum();
        front.reverse();
        let mut q = Seq { head: front, middle: middle.into_boxed_slice(), back, hidden };
        q.settle();
        q
    }

    /// The known pieces at the start, first to last.
    pub fn front(&self) -> impl ExactSizeIterator<Item = u16> + '_ {
        self.head.iter().rev().copied()
    }

    /// The `i`-th of the known pieces at the start.
    #[inline]
    pub fn front_nth(&self, i: usize) -> Option<u16> {
        let j = self.head.len().checked_sub(i + 1)?;
        self.head.get(j).copied()
    }

    /// How many of each kind lie face down in the middle (indexed by kind;
    /// empty when there are none).
    pub fn middle(&self) -> &[u16] {
        &self.middle
    }

    /// Pieces face down in the middle.
    #[inline]
    pub fn hidden(&self) -> usize {
        self.hidden as usize
    }

    /// Whether any piece lies face down.
    #[inline]
    pub fn any_hidden(&self) -> bool {
        self.hidden != 0
    }

    /// Number of pieces.
    pub fn len(&self) -> usize {
        self.head.len() + self.hidden() + self.back.len()
    }

    /// Whether the zone is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many pieces of kind `k` it holds.
    pub fn count(&self, k: u16) -> usize {
        self.head.iter().filter(|&&x| x == k).count()
            + self.middle.get(k as usize).map_or(0, |&n| n as usize)
            + self.back.iter().filter(|&&x| x == k).count()
    }

    /// The first piece.
    pub fn first(&self) -> End {
        match self.head.last() {
            Some(&k) => End::Known(k),
            None if self.any_hidden() => End::Unknown,
            None => self.back.first().map_or(End::Empty, |&k| End::Known(k)),
        }
    }

    /// The last piece.
    pub fn last(&self) -> End {
        match self.back.last() {
            Some(&k) => End::Known(k),
            None if self.any_hidden() => End::Unknown,
            None => self.head.first().map_or(End::Empty, |&k| End::Known(k)),
        }
    }

    /// The `i`-th piece in iteration order: the front, then the face-down
    /// middle kind by kind, then the back.
    pub fn nth(&self, i: usize) -> Option<u16> {
        if let Some(k) = self.front_nth(i) {
            return Some(k);
        }
        let mut i = i - self.head.len();
        for (k, &n) in self.middle.iter().enumerate() {
            if i < n as usize {
                return Some(k as u16);
            }
            i -= n as usize;
        }
        self.back.get(i).copied()
    }

    /// Puts `n` pieces of kind `k` at the end.
    pub fn push(&mut self, k: u16, n: usize) {
        if !self.any_hidden() && self.back.is_empty() {
            // After the last known piece: before the first element.
            match n {
                1 => self.head.insert(0, k),
                _ => {
                    self.head.splice(0..0, std::iter::repeat_n(k, n));
                }
            }
        } else {
            self.back.extend(std::iter::repeat_n(k, n));
        }
    }

    /// Takes the first `n` pieces of kind `k` (front first, then face-down
    /// ones, then the back); false, changing nothing, if there are fewer.
    #[inline]
    pub fn take(&mut self, k: u16, n: usize) -> bool {
        // The common case, before counting the whole zone: the first
        // pieces are the ones asked for.
        if n == 1 && self.head.last() == Some(&k) {
            // A draw: one piece, the first. The zone stays in its
            // canonical form (nothing else changes), so no `settle`.
            self.head.pop();
            return true;
        }
        self.take_rest(k, n)
    }

    /// [`Seq::take`] but for a draw of the first piece.
    #[inline(never)]
    fn take_rest(&mut self, k: u16, n: usize) -> bool {
        let len = self.head.len();
        if len >= n && self.head[len - n..].iter().all(|&x| x == k) {
            self.head.truncate(len - n);
            self.settle();
            return true;
        }
        if self.count(k) < n {
            return false;
        }
        // The first ones of the known front are the last elements: the
        // ones of the kind before them are kept.
        let in_head = self.head.iter().filter(|&&x| x == k).count();
        let taken = in_head.min(n);
        let mut keep = in_head - taken;
        let mut left = n - taken;
        self.head.retain(|&x| {
            if x == k {
                if keep > 0 {
                    keep -= 1;
                    true
                } else {
                    false
                }
            } else {
                true
            }
        });
        if let Some(m) = self.middle.get_mut(k as usize) {
            let t = (*m as usize).min(left);
            *m -= t as u16;
            self.hidden -= t as u32;
            left -= t;
        }
        self.back.retain(|&x| {
            if x == k && left > 0 {
                left -= 1;
                false
            } else {
                true
            }
        });
        self.settle();
        true
    }

    /// Turns every piece face down (the order no longer exists).
    pub fn shuffle(&mut self, kinds: usize) {
        if self.middle.len() < kinds {
            let mut m = self.middle.to_vec();
            m.resize(kinds, 0);
            self.middle = m.into_boxed_slice();
        }
        for k in self.head.drain(..).chain(self.back.drain(..)) {
            self.middle[k as usize] += 1;
            self.hidden += 1;
        }
        self.settle();
    }

    /// Fixes the face-down piece at the front (or, with `front` false, at
    /// the back) as kind `k`; false if there is no such face-down piece.
    pub fn reveal(&mut self, k: u16, front: bool) -> bool {
        match self.middle.get_mut(k as usize) {
            Some(n) if *n > 0 => {
                *n -= 1;
                self.hidden -= 1;
                if front {
                    // After the known front: before its first element.
                    self.head.insert(0, k);
                } else {
                    self.back.insert(0, k);
                }
                self.settle();
                true
            }
            _ => false,
        }
    }

    /// The face-down kinds with how many of each (the weights of a reveal).
    pub fn hidden_kinds(&self) -> impl Iterator<Item = (u16, u16)> + '_ {
        self.middle.iter().enumerate().filter(|(_, &n)| n > 0).map(|(k, &n)| (k as u16, n))
    }

    /// The kind of face-down piece `r` (`0 <= r < hidden()`), counting the
    /// kinds in order: the outcome a draw weighted by the counts of
    /// [`Seq::hidden_kinds`] picks for the same `r`.
    pub fn nth_hidden_kind(&self, r: u64) -> Option<u16> {
        // The kinds whose running total is at most `r` come before the
        // one drawn: counted without a branch per kind (which kind a
        // random `r` falls in is not predictable).
        let mut total = 0u64;
        let mut k = 0usize;
        for &n in &self.middle {
            total += u64::from(n);
            k += usize::from(total <= r);
        }
        (k < self.middle.len()).then_some(k as u16)
    }

    /// Keeps the canonical form: with nothing face down, one known list.
    fn settle(&mut self) {
        if !self.any_hidden() {
            if !self.middle.is_empty() {
                self.middle = Box::default();
            }
            if !self.back.is_empty() {
                let back = std::mem::take(&mut self.back);
                self.head.splice(0..0, back.into_iter().rev());
            }
        }
    }

    /// Copies `o` into `self`, reusing buffers.
    #[inline(always)]
    pub fn copy_from(&mut self, o: &Seq) {
        // Most of the three lists are empty on both sides: no call to copy
        // nothing.
        for (a, b) in [(&mut self.head, &o.head), (&mut self.back, &o.back)] {
            if !(a.is_empty() && b.is_empty()) {
                a.clone_from(b);
            }
        }
        if self.middle.len() == o.middle.len() {
            if !o.middle.is_empty() {
                self.middle.copy_from_slice(&o.middle);
            }
        } else {
            self.middle.clone_from(&o.middle);
        }
        self.hidden = o.hidden;
    }
}

impl State {
    /// The empty position before `setup` runs: first player to move.
    pub fn empty(g: &Game) -> State {
        State {
            data: vec![0; g.board.len() + g.counters()].into_boxed_slice(),
            bits: vec![0; g.board.set_words() * (g.players.len() + g.kinds.len())]
                .into_boxed_slice(),
            seqs: vec![Seq::default(); g.sequences],
            pending: None,
            current: 0,
            ply: 0,
            outcome: None,
            decided_by: None,
            vars: Vec::new().into_boxed_slice(),
            clocks: Vec::new().into_boxed_slice(),
            next: NONE8,
            history: History::default(),
        }
        .with_vars(g)
    }

    /// Sets every variable to its starting value.
    fn with_vars(mut self, g: &Game) -> State {
        let (nv, nc) = g.var_words();
        let mut vars = vec![0; nv];
        let mut clocks = vec![0; nc];
        for v in &g.vars {
            let k = if v.per_player { g.players.len() } else { 1 };
            let bank = if v.clock { &mut clocks } else { &mut vars };
            for x in bank.iter_mut().skip(v.base).take(k) {
                *x = v.init;
            }
        }
        self.vars = vars.into_boxed_slice();
        self.clocks = clocks.into_boxed_slice();
        self
    }

    /// Variable `v` (of player `p` when per player), as a word.
    pub fn var(&self, g: &Game, v: u16, p: u8) -> i64 {
        let d = &g.vars[v as usize];
        let i = d.base + if d.per_player { p as usize } else { 0 };
        let bank = if d.clock { &self.clocks } else { &self.vars };
        bank.get(i).copied().unwrap_or(0)
    }

    /// Sets variable `v` (of player `p` when per player) to word `w`.
    pub fn set_var(&mut self, g: &Game, v: u16, p: u8, w: i64) {
        let d = &g.vars[v as usize];
        let i = d.base + if d.per_player { p as usize } else { 0 };
        let bank = if d.clock { &mut self.clocks } else { &mut self.vars };
        if let Some(x) = bank.get_mut(i) {
            *x = w;
        }
    }

    /// The positions that began a turn so far (for `repetitions`).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Replaces the history. For setting up positions.
    pub fn set_history(&mut self, h: History) {
        self.history = h;
    }

    /// A key of the position for repetitions: the board, the zones, the
    /// variables (not the clocks) and `mover`, the player to move. Equal
    /// positions have equal keys; different ones almost surely differ
    /// (64-bit FNV-1a).
    pub fn key(&self, mover: u8) -> u64 {
        const P: u64 = 0x0000_0100_0000_01b3;
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(P);
        };
        for &d in self.data.iter() {
            eat(u64::from(d));
        }
        for q in &self.seqs {
            eat(u64::MAX);
            for k in q.front().chain(q.middle.iter().copied()).chain(q.back.iter().copied()) {
                eat(u64::from(k));
            }
            eat(q.head.len() as u64 | (q.middle.len() as u64) << 20);
        }
        for &v in self.vars.iter() {
            eat(v as u64);
        }
        eat(u64::from(mover) | 1 << 40);
        h
    }

    /// Records this position as beginning a turn (games with repetitions).
    pub fn record(&mut self, g: &Game) {
        if g.history && self.outcome.is_none() {
            let k = self.key(self.current);
            self.history.push(k);
        }
    }

    /// How often the position as it stands, with the turn passed on, has
    /// begun a turn, this time included (`repetitions`).
    pub fn repetitions(&self, players: usize) -> i64 {
        let k = self.key(self.next_player(players));
        1 + self.history.keys().filter(|&x| x == k).count() as i64
    }

    /// [`State::repetitions`], counted with `reps` (the same answer).
    pub fn repetitions_in(&self, players: usize, reps: &mut RepCount) -> i64 {
        let k = self.key(self.next_player(players));
        1 + i64::from(reps.count(&self.history, k))
    }

    /// The player who moves after the turn under way.
    pub(crate) fn next_player(&self, players: usize) -> u8 {
        if self.next != NONE8 {
            self.next
        } else {
            ((self.current as usize + 1) % players.max(1)) as u8
        }
    }

    /// The player to move, or [`Turn::Over`].
    pub fn turn(&self) -> Turn {
        if self.outcome.is_some() {
            Turn::Over
        } else if self.pending.as_ref().is_some_and(|p| p.chance) {
            Turn::Chance
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
        if (cell as usize) < g.board.len() {
            self.put(g, cell, piece.map_or(0, |(p, k)| 1 + p as u16 * g.kinds.len() as u16 + k));
        }
    }

    /// Writes board code `code` on cell `c` (on the board), keeping the
    /// occupancy sets in step. Every change of a cell goes through here
    /// (or through [`State::put_w`], its fixed-width twin).
    pub(crate) fn put(&mut self, g: &Game, c: u16, code: u16) {
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

    /// The contents of an ordered zone.
    pub fn sequence(&self, g: &Game, zone: u16, player: u8) -> &Seq {
        &self.seqs[g.sequence(zone, player)]
    }

    /// Sets the contents of an ordered zone. For setting up positions.
    pub fn set_sequence(&mut self, g: &Game, zone: u16, player: u8, seq: Seq) {
        let i = g.sequence(zone, player);
        self.seqs[i] = seq;
    }

    /// The turn under way, if it was interrupted by a chance event.
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_deref()
    }

    /// Which `compare` key decided the outcome (0 = the first), if any.
    pub fn decided_by(&self) -> Option<u8> {
        self.decided_by
    }

    /// Approximate memory of this state in bytes: the struct itself plus
    /// its heap buffers (cells and counters, occupancy sets, ordered zones,
    /// a turn under way).
    pub fn size_bytes(&self) -> usize {
        std::mem::size_of::<State>()
            + std::mem::size_of_val(&*self.data)
            + std::mem::size_of_val(&*self.bits)
            + self.seqs.capacity() * std::mem::size_of::<Seq>()
            + self
                .seqs
                .iter()
                .map(|q| 2 * (q.head.capacity() + q.middle.len() + q.back.capacity()))
                .sum::<usize>()
            + std::mem::size_of_val(&*self.vars)
            + std::mem::size_of_val(&*self.clocks)
            + self.pending.as_ref().map_or(0, |p| {
                std::mem::size_of::<Pending>() + p.events.capacity() * std::mem::size_of::<Choice>()
            })
    }

    /// The stored outcome, if the game ended by a rule (`win`, `lose`, `draw`).
    pub fn ended(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The turn is over: the next player (the one a rule named, else the
    /// next seat) moves; a game with repetitions records the position.
    #[inline]
    pub(crate) fn advance(&mut self, players: usize) {
        self.current = self.next_player(players);
        self.next = NONE8;
        self.ply += 1;
        if !self.history.is_empty() && self.outcome.is_none() {
            let k = self.key(self.current);
            self.history.push(k);
        }
    }

    /// Whether `o` has the same shape (the same game): [`State::copy_from`]
    /// works between the two.
    pub(crate) fn same_shape(&self, o: &State) -> bool {
        self.data.len() == o.data.len()
            && self.bits.len() == o.bits.len()
            && self.seqs.len() == o.seqs.len()
            && self.vars.len() == o.vars.len()
            && self.clocks.len() == o.clocks.len()
    }

    /// How many pieces all zones hold together (`base`: where the zone
    /// counters begin in `data`, after the board's cells).
    pub(crate) fn zone_pieces(&self, base: usize) -> u64 {
        // In chunks whose sum fits a u32 (a loop the compiler vectorises).
        let counted: u64 = self
            .data
            .get(base..)
            .unwrap_or(&[])
            .chunks(1 << 16)
            .map(|c| u64::from(c.iter().map(|&n| u32::from(n)).sum::<u32>()))
            .sum();
        counted + self.seqs.iter().map(|q| q.len() as u64).sum::<u64>()
    }

    /// Copies `src` into `self`, reusing `self`'s buffers (`self` must have
    /// the same shape, [`State::same_shape`]).
    #[inline]
    pub(crate) fn copy_from(&mut self, src: &State) {
        if self.pending.is_some() || src.pending.is_some() {
            self.pending.clone_from(&src.pending);
        }
        self.copy_unpending(src);
    }

    /// Whether [`State::copy_plain`] may stand for a copy of this position
    /// into one that was made a copy of it and has since only been run
    /// in: no turn under way, no ordered zones, variables or clocks (the
    /// history, which a run does not change, stays as that copy left it).
    #[inline(always)]
    pub(crate) fn plain(&self) -> bool {
        self.pending.is_none()
            && self.seqs.is_empty()
            && self.vars.is_empty()
            && self.clocks.is_empty()
    }

    /// [`State::copy_from`] of a [`State::plain`] position `src` into one
    /// that was a copy of it and has since only been run in (a run
    /// changes no turn under way and no history): the board, the counters,
    /// the occupancy sets and the scalars, with no test of the rest.
    #[inline(always)]
    pub(crate) fn copy_plain(&mut self, src: &State) {
        self.data.copy_from_slice(&src.data);
        self.bits.copy_from_slice(&src.bits);
        self.current = src.current;
        self.ply = src.ply;
        self.outcome = src.outcome;
        self.decided_by = src.decided_by;
        self.next = src.next;
    }

    /// [`State::copy_from`] but for the turn under way, which is left as
    /// it was.
    #[inline(always)]
    pub(crate) fn copy_unpending(&mut self, src: &State) {
        self.data.copy_from_slice(&src.data);
        // A game without a board has no occupancy sets: no call to copy
        // nothing.
        if !self.bits.is_empty() {
            self.bits.copy_from_slice(&src.bits);
        }
        if !self.seqs.is_empty() {
            for (a, b) in self.seqs.iter_mut().zip(&src.seqs) {
                a.copy_from(b);
            }
        }
        self.current = src.current;
        self.ply = src.ply;
        self.outcome = src.outcome;
        self.decided_by = src.decided_by;
        // Most games have no variables: no call to copy nothing.
        if !self.vars.is_empty() {
            self.vars.copy_from_slice(&src.vars);
        }
        if !self.clocks.is_empty() {
            self.clocks.copy_from_slice(&src.clocks);
        }
        self.next = src.next;
        if !self.history.same(&src.history) {
            self.history.clone_from(&src.history);
        }
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            data: self.data.clone(),
            bits: self.bits.clone(),
            seqs: self.seqs.clone(),
            pending: self.pending.clone(),
            current: self.current,
            ply: self.ply,
            outcome: self.outcome,
            decided_by: self.decided_by,
            vars: self.vars.clone(),
            clocks: self.clocks.clone(),
            next: self.next,
            history: self.history.clone(),
        }
    }

    /// Reuses `self`'s buffers when both are positions of one game.
    fn clone_from(&mut self, src: &State) {
        if self.same_shape(src) {
            self.copy_from(src);
        } else {
            *self = src.clone();
        }
    }
}

/// Two players' `compare` keys, in order, value by value, a missing value
/// as 0 (a descending key's lists may differ in length).
fn cmp_keys(a: &[Vec<i64>], b: &[Vec<i64>]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b.iter()) {
        for j in 0..x.len().max(y.len()) {
            let (u, v) = (x.get(j).copied().unwrap_or(0), y.get(j).copied().unwrap_or(0));
            if u != v {
                return u.cmp(&v);
            }
        }
    }
    std::cmp::Ordering::Equal
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
    let first = |i: usize, m: usize| scored.get(i).map_or(&[][..], |s| &s.1[..m.min(s.1.len())]);
    rank_by(
        scored.len(),
        |i| scored.get(i).map_or(0, |s| s.0),
        nkeys,
        share,
        |a, b, m| cmp_keys(first(a, m), first(b, m)),
    )
}

/// The outcome of a `compare` of `n` entries, entry `i` being player
/// `id(i)`, where `cmp(a, b, m)` compares the first `m` keys of entries
/// `a` and `b`: the best (the last of the equal best) wins, or the
/// entries equal to it share the win (or draw, when that is all of them
/// and ties do not share); with it, the first key after which the best
/// were already the final ones, when not everybody is. Makes no lists.
pub(crate) fn rank_by(
    n: usize,
    id: impl Fn(usize) -> u8,
    nkeys: usize,
    share: bool,
    cmp: impl Fn(usize, usize, usize) -> std::cmp::Ordering,
) -> (Outcome, Option<u8>) {
    if n == 0 {
        return (Outcome::Draw, None);
    }
    // The last of the best, as `max_by` finds it.
    let mut best = 0;
    for i in 1..n {
        if cmp(i, best, nkeys).is_ge() {
            best = i;
        }
    }
    // The players equal to the best on the first `m` keys, in order.
    let (cmp, id) = (&cmp, &id);
    let top = move |m: usize| (0..n).filter(move |&i| cmp(i, best, m).is_eq()).map(id);
    let count = top(nkeys).count();
    let decided_by = (count < n)
        .then(|| (1..=nkeys).find(|&m| top(m).eq(top(nkeys))).map(|m| (m - 1) as u8))
        .flatten();
    let outcome = match top(nkeys).next() {
        Some(w) if count == 1 => Outcome::Win(w),
        _ if count == n && !share => Outcome::Draw,
        _ => Outcome::Shared(top(nkeys).fold(0, |m, w| m | (1 << w))),
    };
    (outcome, decided_by)
}

#[cfg(test)]
mod tests {
    use super::Seq;

    fn seq(front: &[u16], middle: &[u16], back: &[u16]) -> Seq {
        Seq::from_parts(front.to_vec(), middle.to_vec(), back.to_vec())
    }

    /// The ranking `compare` had before [`super::rank_by`], with lists:
    /// the oracle the test below holds the shared ranking to.
    fn rank_lists(
        scored: &[(u8, Vec<Vec<i64>>)],
        nkeys: usize,
        share: bool,
    ) -> (super::Outcome, Option<u8>) {
        use super::Outcome;
        // The key order is the one `rank_by` uses; what this oracle checks
        // is the ranking built on it.
        let cmp = super::cmp_keys;
        let Some(best) = scored.iter().map(|s| &s.1).max_by(|a, b| cmp(a, b)).cloned() else {
            return (Outcome::Draw, None);
        };
        let top = |n: usize| -> Vec<u8> {
            let best = &best[..n];
            scored.iter().filter(|s| cmp(&s.1[..n], best).is_eq()).map(|s| s.0).collect()
        };
        let winners = top(nkeys);
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

    #[test]
    fn rank_ranks_as_the_lists_did() {
        // Small values, so that ties on some keys are common; players may
        // repeat; a descending key's lists may differ in length.
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..5000 {
            let n = rng.below(9);
            let nkeys = 1 + rng.below(4);
            let share = rng.below(2) == 1;
            let scored: Vec<(u8, Vec<Vec<i64>>)> = (0..n)
                .map(|_| {
                    let keys = (0..nkeys)
                        .map(|_| (0..1 + rng.below(2)).map(|_| rng.below(3) as i64).collect())
                        .collect();
                    (rng.below(8) as u8, keys)
                })
                .collect();
            let want = rank_lists(&scored, nkeys, share);
            // Numbers alone, through the table `compare` ranks them in.
            let firsts: Vec<Vec<i64>> =
                scored.iter().map(|s| s.1.iter().map(|k| k[0]).collect()).collect();
            let ids: Vec<u8> = scored.iter().map(|s| s.0).collect();
            let numbers: Vec<(u8, Vec<Vec<i64>>)> =
                scored.iter().map(|s| (s.0, s.1.iter().map(|k| vec![k[0]]).collect())).collect();
            let by = super::rank_by(
                n,
                |i| ids[i],
                nkeys,
                share,
                |a, b, m| firsts[a][..m].cmp(&firsts[b][..m]),
            );
            assert_eq!(by, rank_lists(&numbers, nkeys, share), "{numbers:?} {share}");
            assert_eq!(super::rank(scored.clone(), nkeys, share), want, "{scored:?} {share}");
        }
    }

    #[test]
    fn take_removes_the_first_pieces_of_a_kind_front_then_middle_then_back() {
        // The first pieces are the ones asked for.
        let mut s = seq(&[2, 2, 1], &[], &[]);
        assert!(s.take(2, 2));
        assert_eq!(s, seq(&[1], &[], &[]));
        // Not at the start: the first ones of the kind, wherever they are.
        let mut s = seq(&[2, 1, 2, 2], &[], &[]);
        assert!(s.take(2, 2));
        assert_eq!(s, seq(&[1, 2], &[], &[]));
        let mut s = seq(&[1, 2], &[], &[]);
        assert!(s.take(2, 1));
        assert_eq!(s, seq(&[1], &[], &[]));
        // Then face-down ones, then the back.
        let mut s = seq(&[1, 2], &[0, 0, 2], &[2, 0]);
        assert!(s.take(2, 4));
        assert_eq!(s, seq(&[1, 0], &[], &[]));
        let mut s = seq(&[0], &[0, 1, 3], &[2]);
        assert!(s.take(2, 2));
        assert_eq!(s, seq(&[0], &[0, 1, 1], &[2]));
        // Fewer than asked for: nothing changes.
        let mut s = seq(&[2, 2], &[0, 0, 1], &[1]);
        assert!(!s.take(2, 4));
        assert_eq!(s, seq(&[2, 2], &[0, 0, 1], &[1]));
        assert!(!seq(&[], &[], &[]).take(0, 1));
        // None asked for.
        let mut s = seq(&[1], &[], &[]);
        assert!(s.take(2, 0));
        assert_eq!(s, seq(&[1], &[], &[]));
    }

    /// Pieces pushed go after the known ones, a piece revealed at the front
    /// right after the known front, and draws take the first: the known
    /// front is kept last to first, so each of these is easy to get
    /// backwards.
    #[test]
    fn push_reveal_and_take_keep_the_order() {
        let mut s = seq(&[1, 2], &[], &[]);
        s.push(0, 1);
        assert_eq!(s, seq(&[1, 2, 0], &[], &[]));
        s.push(3, 2);
        assert_eq!(s, seq(&[1, 2, 0, 3, 3], &[], &[]));
        assert_eq!(s.front().collect::<Vec<_>>(), [1, 2, 0, 3, 3]);
        assert_eq!((s.front_nth(0), s.front_nth(4), s.front_nth(5)), (Some(1), Some(3), None));
        assert_eq!((s.first(), s.last()), (super::End::Known(1), super::End::Known(3)));
        assert!(s.take(1, 1));
        assert_eq!(s, seq(&[2, 0, 3, 3], &[], &[]));
        let mut s = seq(&[0], &[0, 2], &[]);
        assert!(s.reveal(1, true));
        assert_eq!(s, seq(&[0, 1], &[0, 1], &[]));
        assert_eq!(s.front().collect::<Vec<_>>(), [0, 1]);
        assert!(s.reveal(1, true));
        assert_eq!(s, seq(&[0, 1, 1], &[], &[]));
        let mut s = seq(&[2], &[0, 1], &[3]);
        assert!(s.reveal(1, false));
        assert_eq!(s, seq(&[2, 1, 3], &[], &[]));
        assert_eq!(s.nth(1), Some(1));
    }

    /// The count of face-down pieces a zone keeps is the sum of its counts
    /// per kind after every change (shuffles, reveals at either end,
    /// takes, pushes, copies), and the zone stays in the form `from_parts`
    /// gives the same pieces.
    #[test]
    fn the_face_down_count_follows_every_change() {
        let check = |q: &Seq, what: &str| {
            let sum: usize = q.middle().iter().map(|&n| n as usize).sum();
            assert_eq!(q.hidden(), sum, "{what}: {q:?}");
            assert_eq!(q.any_hidden(), sum > 0, "{what}: {q:?}");
            let canon = Seq::from_parts(q.front().collect(), q.middle().to_vec(), q.back.clone());
            assert_eq!(*q, canon, "{what}");
        };
        let mut rng = crate::rng::Rng::new(11);
        let mut q = seq(&[0, 1, 2, 2, 1], &[], &[]);
        let mut copy = Seq::default();
        let mut hidden_seen = 0;
        for step in 0..2000 {
            let k = rng.below(3) as u16;
            let what = match rng.below(6) {
                0 => {
                    q.shuffle(3);
                    "shuffle"
                }
                1 => {
                    q.reveal(k, rng.below(2) == 0);
                    "reveal"
                }
                2 => {
                    q.take(k, 1 + rng.below(2));
                    "take"
                }
                3 => {
                    q.push(k, 1 + rng.below(2));
                    "push"
                }
                4 => {
                    copy.copy_from(&q);
                    check(&copy, "copy");
                    assert_eq!(copy, q, "copy at step {step}");
                    "copied"
                }
                _ => {
                    q.copy_from(&copy);
                    "copied back"
                }
            };
            check(&q, what);
            hidden_seen += usize::from(q.any_hidden());
        }
        // The walk spends a good part of its steps with pieces face down.
        assert!(hidden_seen > 200, "{hidden_seen}");
    }

    /// The counts of a [`super::RepCount`] agree with a walk of the
    /// history, whatever history it is asked about next: a longer one of
    /// the same game, a sibling, one taken back, one far away or unrelated.
    #[test]
    fn rep_counts_follow_any_history_and_agree_with_a_walk() {
        use super::{History, RepCount};
        fn next(x: &mut u64, n: u64) -> u64 {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            *x % n
        }
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut known: Vec<History> = vec![History::default()];
        let mut reps = RepCount::default();
        let (mut followed, mut redone) = (0, 0);
        for _ in 0..4000 {
            // A new history: a known one, extended by a few keys (out of
            // five, so that keys repeat), or a fresh one.
            let mut h = match next(&mut x, 10) {
                0 => History::default(),
                _ => known[next(&mut x, known.len() as u64) as usize].clone(),
            };
            let long = next(&mut x, 8) == 0;
            for _ in 0..next(&mut x, if long { 60 } else { 3 }) {
                h.push(next(&mut x, 5));
            }
            let before = reps.clone();
            for key in 0..6 {
                let walk = h.keys().filter(|&k| k == key).count() as u32;
                assert_eq!(reps.count(&h, key), walk, "key {key}, history of {}", h.len());
            }
            // No count of zero is kept.
            assert!(reps.counts.values().all(|&n| n > 0));
            let mut again = before.clone();
            if again.follow(&h) {
                followed += 1;
            } else {
                redone += 1;
            }
            known.push(h);
            if known.len() > 50 {
                known.remove(next(&mut x, 50) as usize);
            }
        }
        // Both ways were taken many times.
        assert!(followed > 1000 && redone > 100, "followed {followed}, redone {redone}");
    }
}
