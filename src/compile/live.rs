//! Live locals at a decision (pass 35): the frame slots a run resumed
//! after a decision may read before it writes them.
//!
//! A search runs each option of a decision in a copy of the level the
//! decision was listed in. The position must be copied whole, but most of
//! the frame need not be: a local is read only inside the scope of its
//! binding, after the binding has run (`let`, `choose`, `for`, an action's
//! arguments: the checker gives every binding a slot of its own), so a run
//! resumed at a decision reads no local whose binding's scope does not
//! enclose the decision without writing it first. The same holds for the
//! cursor of a `for` whose body holds a decision: it is read only inside
//! that loop. The other slots the compiler adds are of two sorts: values
//! computed within one op and forgotten at its start (hoisted and shared
//! values, `Compiler::hoist`), which no decision can interrupt, and values
//! one op leaves for another, which are registered as kept
//! (`Compiler::kept`) and copied at every decision.
//!
//! So a copy of a level for an option need only carry the slots in scope
//! at the decision and the kept ones ([`Live`]): for boop.'s `choose
//! square`, two words of fifteen (`piece`, and `square` itself, which
//! the option's binding writes anyway), instead of every bank. Where the
//! copy level holds the run of the option before, only those of them
//! that a run resumed there may write need copying again ([`AtSite`]):
//! for `choose square`, none. Debug builds fill every other slot of the
//! copy with junk first ([`Live::copy`]), so that a test run would
//! notice a slot read that this reasoning missed.

use super::{Dom, Frame, Set, Var};
use crate::ir::{Slot, Stmt, StmtKind, Target};

/// The frame slots to copy for the options of one decision: per bank
/// (words, sets, collections), a bit for each slot to copy, or
/// [`WHOLE`] for the whole bank (copied in one go, cheaper than slot by
/// slot when much of it is live, and the only way for slots past 63).
/// Plain words, so that a loop over options holds them in registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Live(pub [u64; 3]);

/// A bank copied whole.
pub const WHOLE: u64 = u64::MAX;

/// Above this many live slots of a bank, the bank is copied whole. Debug
/// builds copy slot by slot whenever some slot is left out, so that the
/// tests' runs fill every slot left out with junk.
const SLOT_BY_SLOT: u32 = if cfg!(debug_assertions) { 64 } else { 4 };

impl Default for Live {
    fn default() -> Live {
        Live::ALL
    }
}

impl Live {
    /// Every slot of every bank: a copy of the whole frame.
    pub const ALL: Live = Live([WHOLE; 3]);

    /// The live slots `vars` (repeats allowed) in a frame of `sizes`.
    pub fn of(vars: &[Var], sizes: (usize, usize, usize)) -> Live {
        let mut m = [0u64; 3];
        let mut wide = [false; 3];
        for v in vars {
            let (b, i) = match *v {
                Var::W(i) => (0, i),
                Var::S(i) => (1, i),
                Var::D(i) => (2, i),
            };
            match 1u64.checked_shl(u32::from(i)) {
                Some(bit) => m[b] |= bit,
                None => wide[b] = true,
            }
        }
        let sizes = [sizes.0, sizes.1, sizes.2];
        for b in 0..3 {
            // A bank whose slots are all live, or mostly (in release
            // builds), or live past 63, is copied whole.
            if wide[b] || m[b].count_ones() > SLOT_BY_SLOT || m[b].count_ones() as usize >= sizes[b]
            {
                m[b] = WHOLE;
            }
        }
        Live(m)
    }

    /// Copies the live slots of `b` into `a`, a frame of the same program
    /// (the same bank sizes). The others keep what `a` held — in debug
    /// builds, junk, so that a read of one shows in the tests.
    #[inline(always)]
    pub fn copy<const W: usize>(self, a: &mut Frame<W>, b: &Frame<W>) {
        self.copy_filling(a, b, true);
    }

    /// [`Live::copy`] into a frame that holds a copy of `b`'s live slots
    /// already, written since by a run only in the slots copied here (the
    /// slots of [`AtSite`]'s `each`): the other slots are left as they
    /// are, in debug builds too (they hold that copy's values, which a
    /// run resumed at the decision may read).
    #[inline(always)]
    pub fn copy_again<const W: usize>(self, a: &mut Frame<W>, b: &Frame<W>) {
        self.copy_filling(a, b, false);
    }

    #[inline(always)]
    fn copy_filling<const W: usize>(self, a: &mut Frame<W>, b: &Frame<W>, fill: bool) {
        let [w, s, d] = self.0;
        if w | s | d == 0 {
            return;
        }
        copy_bank(w, &mut a.w, &b.w, fill.then_some(JUNK_WORD));
        copy_bank(s, &mut a.s, &b.s, fill.then_some(Set([JUNK_WORD as u64; W])));
        copy_bank(d, &mut a.d, &b.d, fill.then_some(Dom::Range(JUNK_WORD, i64::MAX)));
    }

    /// How many slots of each bank are copied, for notes: `None` for a
    /// bank copied whole.
    pub fn counts(&self) -> [Option<usize>; 3] {
        self.0.map(|m| (m != WHOLE).then_some(m.count_ones() as usize))
    }
}

/// What a debug build writes into the slots a copy leaves out.
const JUNK_WORD: i64 = -0x5a5a_5a5a_5a5a_5a5b;

/// Copies slots `live` (a bit each, or [`WHOLE`]) of `b` into `a`; a
/// debug build first fills `a` with `junk`, where given.
#[inline(always)]
fn copy_bank<T: Copy>(mut live: u64, a: &mut [T], b: &[T], _junk: Option<T>) {
    if live == WHOLE {
        match (&mut *a, b) {
            // Most frames' sets and collections: one or two, without a
            // call to `memcpy`.
            ([x], [y]) => *x = *y,
            ([x0, x1], [y0, y1]) => {
                *x0 = *y0;
                *x1 = *y1;
            }
            (a, b) => a.copy_from_slice(b),
        }
        return;
    }
    #[cfg(debug_assertions)]
    if let Some(junk) = _junk {
        a.fill(junk);
    }
    while live != 0 {
        let i = live.trailing_zeros() as usize;
        live &= live - 1;
        if let (Some(x), Some(y)) = (a.get_mut(i), b.get(i)) {
            *x = *y;
        }
    }
}

/// The cursors of the `for` loops that run as ops: by the slot of the
/// element, the collection and index slots (one pair per place the loop
/// is compiled).
pub type Cursors = std::collections::HashMap<Slot, Vec<(u16, u16)>>;

/// What pass 35 finds at one decision: the slots in scope there
/// (`live`: what a copy of a level for an option must carry), and those
/// of them that a run resumed there may write (`each`: what a copy must
/// carry again for each option, into a level that held the run of the
/// one before; the decision's own variable, written by every option's
/// binding, is not among them).
#[derive(Debug, Clone, Default)]
pub struct AtSite {
    /// In scope at the decision.
    pub live: Vec<Var>,
    /// In scope there and maybe written after it.
    pub each: Vec<Var>,
}

/// For each decision site of `blocks` (the turn, then the blocks run
/// after it, which are taken to follow every decision), what
/// [`AtSite`] says. `var` maps a slot to its place; `cursors`, by the
/// slot of a `for` statement's element, the collection and index slots
/// of its cursors where the loop runs as ops (more than one where an
/// action with the loop is called in more than one place); `kept` is
/// added to both lists of every decision.
pub fn at_sites(
    blocks: &[&[Stmt]],
    sites: usize,
    var: &dyn Fn(Slot) -> Var,
    cursors: &Cursors,
    kept: &[Var],
) -> Vec<AtSite> {
    let mut w = Walk {
        var,
        cursors,
        kept,
        out: vec![AtSite::default(); sites],
        conts: Vec::new(),
        loops: 0,
    };
    // Blocks after the turn (`on no moves`, `at end`) run in the same
    // frame: their writes count after every decision.
    w.conts.extend(blocks.iter().skip(1).copied());
    let mut scope = kept.to_vec();
    if let Some(turn) = blocks.first() {
        w.walk(turn, &mut scope);
    }
    for (k, b) in blocks.iter().enumerate().skip(1) {
        w.conts.clear();
        w.conts.extend(blocks.iter().skip(k + 1).copied());
        w.walk(b, &mut scope);
    }
    w.out
}

/// The walk of [`at_sites`].
struct Walk<'a> {
    var: &'a dyn Fn(Slot) -> Var,
    cursors: &'a Cursors,
    kept: &'a [Var],
    out: Vec<AtSite>,
    /// What runs after the statement being walked: the rest of each
    /// enclosing block, outermost first.
    conts: Vec<&'a [Stmt]>,
    /// How many loops enclose it.
    loops: usize,
}

impl<'a> Walk<'a> {
    /// Records the scope at each decision of `stmts` (extending `scope`
    /// as bindings come into it, and leaving it as it was).
    fn walk(&mut self, stmts: &'a [Stmt], scope: &mut Vec<Var>) {
        let mark = scope.len();
        for (i, s) in stmts.iter().enumerate() {
            self.conts.push(&stmts[i + 1..]);
            match &s.kind {
                StmtKind::Let(slot, _) => scope.push((self.var)(*slot)),
                StmtKind::Choose { site, slot, .. } | StmtKind::Random { site, slot, .. } => {
                    let own = (self.var)(*slot);
                    scope.push(own);
                    self.record(*site, scope, Some(own), &[]);
                }
                StmtKind::Reveal { site, .. } => self.record(*site, scope, None, &[]),
                StmtKind::Either { site, branches } => {
                    self.record(*site, scope, None, branches);
                    for b in branches {
                        self.walk(b, scope);
                    }
                }
                StmtKind::For { slot, body, .. } => {
                    let m = scope.len();
                    scope.push((self.var)(*slot));
                    for &(dom, idx) in self.cursors.get(slot).into_iter().flatten() {
                        scope.extend([Var::D(dom), Var::W(idx)]);
                    }
                    self.loops += 1;
                    self.walk(body, scope);
                    self.loops -= 1;
                    scope.truncate(m);
                }
                StmtKind::While { pre, body, .. } => {
                    self.loops += 1;
                    self.walk(pre, scope);
                    self.walk(body, scope);
                    self.loops -= 1;
                }
                StmtKind::If { then, otherwise, .. } => {
                    self.walk(then, scope);
                    self.walk(otherwise, scope);
                }
                StmtKind::Block(args, body) => {
                    let m = scope.len();
                    scope.extend(args.iter().map(|(slot, _)| (self.var)(*slot)));
                    self.walk(body, scope);
                    scope.truncate(m);
                }
                _ => {}
            }
            self.conts.pop();
        }
        scope.truncate(mark);
    }

    /// Records decision `site` with `scope` in scope, its own variable
    /// `own`, and `arms` (an `either`'s) run after it.
    fn record(&mut self, site: u16, scope: &[Var], own: Option<Var>, arms: &[Vec<Stmt>]) {
        let mut after = Vec::new();
        if self.loops == 0 {
            for c in self.conts.iter().copied().chain(arms.iter().map(|a| &a[..])) {
                writes(c, self.var, self.cursors, &mut after);
            }
        }
        let each = scope.iter().copied().filter(|v| {
            Some(*v) != own && (self.loops > 0 || after.contains(v) || self.kept.contains(v))
        });
        if let Some(o) = self.out.get_mut(usize::from(site)) {
            o.each.extend(each);
            o.live.extend_from_slice(scope);
        }
    }
}

/// Adds to `out` every slot `stmts` may write: bindings (the checker gives
/// each its own slot, but an action called in two places binds its slots
/// in both), assignments and loop cursors.
fn writes(stmts: &[Stmt], var: &dyn Fn(Slot) -> Var, cursors: &Cursors, out: &mut Vec<Var>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Let(slot, _)
            | StmtKind::Choose { slot, .. }
            | StmtKind::Random { slot, .. }
            | StmtKind::Assign(Target::Local(slot), _) => out.push(var(*slot)),
            StmtKind::For { slot, body, .. } => {
                out.push(var(*slot));
                for &(dom, idx) in cursors.get(slot).into_iter().flatten() {
                    out.extend([Var::D(dom), Var::W(idx)]);
                }
                writes(body, var, cursors, out);
            }
            StmtKind::Block(args, body) => {
                out.extend(args.iter().map(|(slot, _)| var(*slot)));
                writes(body, var, cursors, out);
            }
            StmtKind::If { then, otherwise, .. } => {
                writes(then, var, cursors, out);
                writes(otherwise, var, cursors, out);
            }
            StmtKind::Either { branches, .. } => {
                branches.iter().for_each(|b| writes(b, var, cursors, out));
            }
            StmtKind::While { pre, body, .. } => {
                writes(pre, var, cursors, out);
                writes(body, var, cursors, out);
            }
            _ => {}
        }
    }
}
