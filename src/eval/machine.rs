//! The compiled evaluator's machine: runs a block's ops from a program
//! counter until the block finishes, a rule fails, or a decision is
//! reached.
//!
//! A decision stops the run with [`Stop::Fork`]; the caller (the search,
//! or a guided run that replays a given move) lists the options with
//! [`options`], writes one into the frame with [`bind`] and resumes from
//! the program counter `bind` returns. Everything a resumed run needs — the position, the
//! locals, the loop cursors — is in the `State` and the `Frame`, so a fork
//! is a copy of those two, never a replay of the turn so far.

use super::{Choice, RunError, State};
use crate::compile::effect::{tick, Ctl};
use crate::compile::expr::{const_word, each_ticked, word_value};
use crate::compile::opt::{CellRequire, SizeAnswers};
use crate::compile::stmt::{ChooseOp, Op};
use crate::compile::{Block, Cx, Dom, Frame, Program, Set, Var};
use crate::ir::{Quant, Ty, Value, NONE8};
use crate::source::Span;
use crate::state::End;
use std::sync::Arc;

/// How a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The block finished (or a `win`, `lose`, `draw`, `pass`, `compare`
    /// ended the turn).
    Done,
    /// The run is not a legal turn: this rule failed.
    Fail(Span),
    /// A decision at this op.
    Fork(u32),
}

/// The options of a decision, as words or sets.
#[derive(Debug, Default)]
pub struct Options<const W: usize> {
    /// Word options (cells, kinds, players, numbers, lines, branches).
    pub words: Vec<i64>,
    /// Set options (placements, groups, sets of cells).
    pub sets: Vec<Set<W>>,
    /// Which of the two the decision offers.
    pub is_set: bool,
    /// For a chance event: each option's weight (its probability is the
    /// weight over the sum); empty for a decision of the mover.
    pub weights: Vec<u32>,
    /// When the options are the cells of a set, in increasing order: that
    /// set (`words` is then empty; a set form's options are not listed
    /// one by one).
    pub cells: Option<Set<W>>,
    /// When the options are placements of one kind (pass 11): that kind's
    /// placements, the ones offered being the set bits of `placed`, in
    /// order (`sets` is then empty), and how many there are.
    pub placements: Option<(Arc<[Set<W>]>, usize)>,
    /// The indices of the placements offered, as a bit set.
    pub placed: Vec<u64>,
}

impl<const W: usize> Clone for Options<W> {
    fn clone(&self) -> Options<W> {
        Options {
            words: self.words.clone(),
            sets: self.sets.clone(),
            is_set: self.is_set,
            weights: self.weights.clone(),
            cells: self.cells,
            placements: self.placements.clone(),
            placed: self.placed.clone(),
        }
    }

    /// Reuses the buffers (a successor list keeps options from one search
    /// to the next).
    fn clone_from(&mut self, o: &Options<W>) {
        // Most of the lists are empty on both sides: no call to copy
        // nothing.
        fn copy<T: Clone>(a: &mut Vec<T>, b: &[T]) {
            if !(a.is_empty() && b.is_empty()) {
                a.clear();
                a.extend_from_slice(b);
            }
        }
        copy(&mut self.words, &o.words);
        copy(&mut self.sets, &o.sets);
        self.is_set = o.is_set;
        copy(&mut self.weights, &o.weights);
        self.cells = o.cells;
        if self.placements.is_some() || o.placements.is_some() {
            self.placements.clone_from(&o.placements);
        }
        copy(&mut self.placed, &o.placed);
    }
}

impl<const W: usize> Options<W> {
    /// Number of options.
    pub fn len(&self) -> usize {
        if let Some(c) = self.cells {
            c.len()
        } else if let Some((_, n)) = &self.placements {
            *n
        } else if self.is_set {
            self.sets.len()
        } else {
            self.words.len()
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The options of an `either` of `n` arms: the branch numbers.
    pub fn branches(&mut self, n: usize) {
        self.clear();
        self.is_set = false;
        self.words.extend(0..n as i64);
    }

    fn clear(&mut self) {
        self.cells = None;
        self.placements = None;
        self.placed.clear();
        self.words.clear();
        self.sets.clear();
        self.weights.clear();
    }
}

/// One option of a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick<const W: usize> {
    /// A word value (or a branch number).
    W(i64),
    /// A set of cells.
    S(Set<W>),
}

impl<const W: usize> Options<W> {
    /// Option `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Pick<W> {
        if let Some(c) = self.cells {
            Pick::W(c.nth(i).map_or(i64::MIN, i64::from))
        } else if let Some((ps, _)) = &self.placements {
            let s = nth_bit(&self.placed, i).and_then(|j| ps.get(j).copied());
            Pick::S(s.unwrap_or(Set::EMPTY))
        } else if self.is_set {
            Pick::S(self.sets[i])
        } else {
            Pick::W(self.words[i])
        }
    }
}

/// Where a walk through placement options is (see [`Options::next_placed`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct PlacedWalk {
    /// The next word of [`Options::placed`] to load.
    word: usize,
    /// The bits of the current word not yet taken.
    bits: u64,
}

impl<const W: usize> Options<W> {
    /// When the options are placements: the next one of a walk through
    /// them in order (option `i` for the `i`-th call from a new walk);
    /// `None` for other options, or past the last one.
    #[inline]
    pub fn next_placed(&self, at: &mut PlacedWalk) -> Option<Pick<W>> {
        let (ps, _) = self.placements.as_ref()?;
        while at.bits == 0 {
            at.bits = *self.placed.get(at.word)?;
            at.word += 1;
        }
        let j = (at.word - 1) * 64 + at.bits.trailing_zeros() as usize;
        at.bits &= at.bits - 1;
        ps.get(j).map(|&s| Pick::S(s))
    }
}

/// The index of the `i`-th set bit (from 0) of a bit set, if any.
#[inline]
fn nth_bit(words: &[u64], mut i: usize) -> Option<usize> {
    for (w, &x) in words.iter().enumerate() {
        let n = x.count_ones() as usize;
        if i < n {
            let mut x = x;
            for _ in 0..i {
                x &= x - 1;
            }
            return Some(w * 64 + x.trailing_zeros() as usize);
        }
        i -= n;
    }
    None
}

/// The value a pick stands for at a decision of type `ty`.
pub fn pick_value<const W: usize>(ty: Ty, p: Pick<W>) -> Value {
    match p {
        Pick::W(w) => word_value(ty, w),
        Pick::S(s) => Value::Cells(s.to_cells()),
    }
}

/// A value given for a decision (from a move), as a pick.
pub fn value_pick<const W: usize>(v: &Value) -> Pick<W> {
    match v {
        Value::Cells(s) => Pick::S(Set::from_cells(s)),
        v => Pick::W(const_word(v).unwrap_or(i64::MIN)),
    }
}

/// Lists the options of the decision at `pc` (the run stopped there).
pub fn options<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    out: &mut Options<W>,
) -> Result<(), RunError> {
    out.clear();
    let mut cx = Cx { t: &p.t, st, fr };
    match block.ops.get(pc as usize) {
        Some(Op::Either { arms, .. }) => out.branches(arms.len()),
        Some(Op::Choose(c)) => {
            choose_options(&mut cx, c, out);
        }
        Some(Op::Random(c)) => random_options(&mut cx, c, out),
        Some(Op::Reveal { zone, front, .. }) => {
            out.is_set = false;
            let w = zone(&mut cx);
            if let Some(seq) = face_down_end(cx.t, cx.st, w, *front) {
                for (k, n) in seq.hidden_kinds() {
                    out.words.push(i64::from(k));
                    out.weights.push(u32::from(n));
                }
            }
        }
        _ => {}
    }
    match fr_err(cx.fr) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Pass 54: the candidates of the `choose` at `pc` whose filter a
/// playout asks only of the options it draws (`SiteInfo::filter_draw`):
/// the cells of its set-form part (and the domain), or the domain's cells,
/// without the filter asked per element; nothing counted against the step
/// limit (the caller has checked that listing them all would stay within
/// it). False, with `out` unspecified, where the decision is not of that
/// form or reading the domain raised an error: the caller lists the
/// options instead.
pub fn candidates<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    out: &mut Options<W>,
) -> bool {
    out.clear();
    out.is_set = false;
    let Some(Op::Choose(c)) = block.ops.get(pc as usize) else { return false };
    // The domain (and the set form) are found as the listing finds them,
    // with the same steps; the filter per element is left out.
    let steps = fr.steps;
    let mut cx = Cx { t: &p.t, st, fr };
    let cells = match &c.fast {
        Some((dom, pred, Some(_))) => {
            let d = dom(&mut cx);
            Some(d.and(pred(&mut cx, d).0))
        }
        Some(_) => None,
        None => match (c.filter.is_some(), c.dom_is_set, (c.dom)(&mut cx)) {
            (true, true, Dom::Set(s)) => Some(s),
            _ => None,
        },
    };
    if cx.fr.err.is_some() || cells.is_none() {
        // Not of the form, or a rule error where the listing would meet
        // it: the listing says so, with its steps.
        cx.fr.err = None;
        cx.fr.steps = steps;
        return false;
    }
    out.cells = cells;
    true
}

/// Whether option `pick` of the `choose` at `pc`, listed by
/// [`candidates`], passes the filter that listing left out (the rest of
/// the filter after its set-form part, or all of it): the chosen value
/// bound in `fr`, the filter asked there.
pub fn filter_holds<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    pick: Pick<W>,
) -> Result<bool, RunError> {
    let Some(Op::Choose(c)) = block.ops.get(pc as usize) else { return Ok(true) };
    let (Var::W(i), Pick::W(x)) = (c.var, pick) else { return Ok(true) };
    fr.w[i as usize] = x;
    let mut cx = Cx { t: &p.t, st, fr };
    let holds = match (&c.fast, &c.filter) {
        (Some((_, _, Some(rest))), _) => rest(&mut cx),
        (Some(_), _) => true,
        (None, Some(f)) => f(&mut cx),
        (None, None) => true,
    };
    match fr_err(cx.fr) {
        Some(e) => Err(e),
        None => Ok(holds),
    }
}

/// How many options [`options`] would list at `pc`, where that can be
/// told without listing them, with the same steps counted: a `choose`
/// among the kinds of a counted zone named in the rule (`choose card in
/// hand(me)`), its player a constant, `me` or a local, whose listing
/// reads the zone's counters in place. `None`, with nothing changed,
/// anywhere else, or where the listing would take another way (an
/// ordered zone, no player, the steps past the limit).
pub fn count_options<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &State,
    fr: &mut Frame<W>,
) -> Option<usize> {
    let Some(Op::Choose(c)) = block.ops.get(pc as usize) else { return None };
    if c.fast.is_some() {
        return None;
    }
    let (z, who) = c.kinds.as_ref()?;
    let pl = match who {
        crate::compile::effect::Arg::Const(k) => *k,
        crate::compile::effect::Arg::Me => i64::from(st.current),
        crate::compile::effect::Arg::Slot(i) => *fr.w.get(*i)?,
        crate::compile::effect::Arg::Fn(_) => return None,
    } as u8;
    let counts = p.t.kind_counts(&st.data, *z, pl)?;
    let n = crate::compile::kinds_held(counts) as usize;
    let steps = fr.steps.checked_add(n as u32).filter(|&s| s <= p.t.max_steps)?;
    fr.steps = steps;
    Some(n)
}

/// At a reveal of a face-down end (op `pc`), the kind a draw weighted by
/// the face-down counts picks with `rng` — the outcome that listing the
/// options and [`crate::rng::pick_weighted`] would give, from the same
/// random number, without listing them. `None` where `pc` is no such
/// reveal.
pub fn sample_reveal<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    rng: &mut crate::rng::Rng,
) -> Result<Option<i64>, RunError> {
    let Some(Op::Reveal { zone, front, .. }) = block.ops.get(pc as usize) else {
        return Ok(None);
    };
    let mut cx = Cx { t: &p.t, st, fr };
    let w = zone(&mut cx);
    if let Some(e) = fr_err(cx.fr) {
        return Err(e);
    }
    let Some(seq) = face_down_end(cx.t, cx.st, w, *front) else { return Ok(None) };
    let total = seq.hidden() as u64;
    if total == 0 {
        return Ok(None);
    }
    let r = ((u128::from(rng.next_u64()) * u128::from(total)) >> 64) as u64;
    Ok(seq.nth_hidden_kind(r).map(i64::from))
}

/// The ordered zone named by zone word `w`, if its first (`front`) or
/// last piece is face down: where a `Reveal` stops the run for chance.
#[inline]
pub fn face_down_end<'s, const W: usize>(
    t: &crate::compile::Tables<W>,
    st: &'s State,
    w: i64,
    front: bool,
) -> Option<&'s crate::state::Seq> {
    let (z, pl) = crate::compile::word::unzone(w);
    if pl == NONE8 || !t.zones.get(z as usize).is_some_and(|x| x.1) {
        return None;
    }
    let seq = st.seqs.get(t.sequence(z, pl))?;
    ((if front { seq.first() } else { seq.last() }) == End::Unknown).then_some(seq)
}

#[inline]
fn fr_err<const W: usize>(fr: &mut Frame<W>) -> Option<RunError> {
    fr.err.as_ref()?;
    fr.err.take()
}

fn choose_options<const W: usize>(cx: &mut Cx<'_, W>, c: &ChooseOp<W>, out: &mut Options<W>) {
    if let Some((dom, pred, rest)) = &c.fast {
        out.is_set = false;
        let d = dom(cx);
        let cand = d.and(pred(cx, d).0);
        match rest {
            None => out.cells = Some(cand),
            Some(rest) => {
                for x in cand.iter() {
                    if let Var::W(i) = c.var {
                        cx.fr.w[i as usize] = i64::from(x);
                    }
                    if rest(cx) {
                        out.words.push(i64::from(x));
                    }
                }
            }
        }
        return;
    }
    if let Some((z, who)) = &c.kinds {
        // The zone's kinds read in place (the same listing as below).
        out.is_set = false;
        let pl = who.get(cx) as u8;
        if zone_kinds(cx, *z, pl, out) {
            return;
        }
    }
    let d = (c.dom)(cx);
    out.is_set = matches!(c.var, Var::S(_));
    let var = c.var;
    if let (None, None, Dom::Zone(z, pl), Var::W(_)) = (&c.filter, &c.elems, d, var) {
        if zone_kinds(cx, z, pl, out) {
            return;
        }
    }
    if let (None, Dom::Set(s), Var::W(_)) = (&c.filter, d, var) {
        // Every cell of the set is an option (`choose c in pieces(me)`):
        // the set itself, in the same order, its cells counted as the
        // walk below counts them (past the limit, the same error).
        if crate::compile::effect::tick_n(cx, s.len() as u32, c.span) {
            out.cells = Some(s);
        }
        return;
    }
    if let Some(test) = &c.elems {
        let sets = test.sets(cx);
        if let Some(sh) = c.by_shifts.and_then(|i| cx.t.shifts.get(i)) {
            // Lines as shifts: the accepted lines of each axis at once, in
            // the board's order (by start cell, then axis).
            let s = sets.target(cx.t.all);
            let mut acc = [Set::EMPTY; crate::compile::MAX_LINE_AXES];
            let mut any = Set::EMPTY;
            for (ax, slot) in acc.iter_mut().enumerate().take(sh.axes.len()) {
                *slot = sets.line_starts(sh, s, ax);
                any = any.or(*slot);
            }
            for cell in any.iter() {
                for (ax, set) in acc.iter().enumerate().take(sh.axes.len()) {
                    if set.contains(cell) {
                        out.words.push(i64::from(sh.ids[ax][cell as usize]));
                    }
                }
            }
            return;
        }
        if let Dom::Placements(k) = d {
            if placements_by_cells(cx, k, &sets, out) {
                return;
            }
        }
        each_ticked(cx, d, var, c.span, |cx| {
            if sets.test(crate::compile::opt::elem_cells(cx, var)) {
                match var {
                    Var::W(i) => out.words.push(cx.fr.w[i as usize]),
                    Var::S(i) => out.sets.push(cx.fr.s[i as usize]),
                    Var::D(_) => {}
                }
            }
            true
        });
        return;
    }
    each_ticked(cx, d, var, c.span, |cx| {
        if c.filter.as_ref().is_none_or(|f| f(cx)) {
            match var {
                Var::W(i) => out.words.push(cx.fr.w[i as usize]),
                Var::S(i) => out.sets.push(cx.fr.s[i as usize]),
                Var::D(_) => {}
            }
        }
        true
    });
}

/// Drops the options of the decision at `pc` (listed into `opts`) that
/// the `require` asked with it rejects (pass 17): a search that runs every
/// option calls this after counting them against its budget, as the
/// written rule counts them; a playout that draws asks [`admits`] of the
/// option it draws instead.
pub fn prune<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    opts: &mut Options<W>,
) {
    let Some(Op::Choose(c)) = block.ops.get(pc as usize) else { return };
    if let Some(r) = &c.cell {
        prune_cells(r, &mut Cx { t: &p.t, st, fr }, opts);
        return;
    }
    let Some(r) = &c.nbr else { return };
    let mut cx = Cx { t: &p.t, st, fr };
    let ns = r.sets(&mut cx);
    let t = cx.t;
    if let Some((ps, n)) = &mut opts.placements {
        // The neighbours of each placement of this kind, made at load.
        let nbrs = t
            .placements
            .iter()
            .position(|q| Arc::ptr_eq(q, ps))
            .and_then(|k| r.nbrs.get(k).map(|x| (k, x)));
        for (w, bits) in opts.placed.iter_mut().enumerate() {
            let mut m = *bits;
            while m != 0 {
                let b = m.trailing_zeros() as usize;
                m &= m - 1;
                let i = w * 64 + b;
                let ok = match (nbrs.and_then(|(k, x)| Some((k, *x.get(i)?))), ps.get(i)) {
                    (Some((k, nb)), Some(&e)) => {
                        r.holds_around(&ns, nb) && r.groups_hold_at(&mut cx, &ns, (k, i), e, nb)
                    }
                    (None, Some(&e)) => r.holds(&mut cx, &ns, e),
                    _ => false,
                };
                if !ok {
                    *bits &= !(1u64 << b);
                    *n -= 1;
                }
            }
        }
    } else {
        opts.sets.retain(|&e| r.holds(&mut cx, &ns, e));
    }
}

/// [`prune`] of a decision among cells whose `require`s the listing asks
/// (pass 44): the cells they reject leave the options.
fn prune_cells<const W: usize>(r: &CellRequire<W>, cx: &mut Cx<'_, W>, opts: &mut Options<W>) {
    let Some(pl) = r.placing(cx) else { return };
    let mut known = SizeAnswers::default();
    let mut admits = |cx: &mut Cx<'_, W>, x: i64| match r.size_at(cx, pl, x) {
        Some(size) => known.admits(r, cx, x, size),
        None => true,
    };
    if let Some(set) = &mut opts.cells {
        for x in set.iter() {
            if !admits(cx, i64::from(x)) {
                set.remove(x);
            }
        }
    } else if !opts.is_set {
        opts.words.retain(|&x| admits(cx, x));
    }
}

/// Whether the `require`s asked with the decision at `pc` (passes 17, 19
/// and 44) admit option `pick` (always, for a decision without them).
pub fn admits<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    pick: Pick<W>,
) -> bool {
    let Some(Op::Choose(c)) = block.ops.get(pc as usize) else { return true };
    match (pick, &c.nbr, &c.cell) {
        (Pick::S(e), Some(r), _) => r.admits(&mut Cx { t: &p.t, st, fr }, e),
        (Pick::W(x), _, Some(r)) => cell_failure(r, &mut Cx { t: &p.t, st, fr }, x).is_none(),
        _ => true,
    }
}

/// The span of the first of pass 44's `require`s that rejects cell `x`
/// (`None`: they admit it, or its placement would not go ahead).
fn cell_failure<const W: usize>(r: &CellRequire<W>, cx: &mut Cx<'_, W>, x: i64) -> Option<Span> {
    let pl = r.placing(cx)?;
    r.first_failure(cx, pl, x)
}

/// The kinds in a counted (unordered) zone, as the options of a `choose`
/// without a filter: read from the zone's counters at once, each kind a
/// step as when walked one by one. False (nothing written) for an ordered
/// zone, or when the steps would pass the limit (the walk then reports
/// the error at the same element).
#[inline]
fn zone_kinds<const W: usize>(cx: &mut Cx<'_, W>, z: u16, pl: u8, out: &mut Options<W>) -> bool {
    let Some(counts) = cx.t.kind_counts(&cx.st.data, z, pl) else { return false };
    let start = out.words.len();
    // Every kind written, the next one over it when none is held: no
    // branch a kind (whether a kind is held is the processor's guess to
    // miss).
    out.words.resize(start + counts.len(), 0);
    let buf = &mut out.words[start..];
    let mut j = 0;
    for (k, &n) in counts.iter().enumerate() {
        if let Some(w) = buf.get_mut(j) {
            *w = k as i64;
        }
        j += usize::from(n > 0);
    }
    out.words.truncate(start + j);
    let n = j as u32;
    match cx.fr.steps.checked_add(n) {
        Some(s) if s <= cx.t.max_steps => {
            cx.fr.steps = s;
            true
        }
        _ => {
            out.words.truncate(start);
            false
        }
    }
}

/// The placements of kind `k` an element test accepts, into `out` as the
/// bit set of their indices (see [`Options::placements`]), from the table
/// of the placements covering each cell:
/// `all` rejects the placements covering a cell outside its set, `any`
/// keeps the ones covering a cell of its set, `none` rejects them. False
/// (nothing written) when the kind has no table.
fn placements_by_cells<const W: usize>(
    cx: &Cx<'_, W>,
    k: u16,
    sets: &crate::compile::opt::ElemSets<W>,
    out: &mut Options<W>,
) -> bool {
    let t = cx.t;
    let (Some(cov), Some(ps)) = (t.covering.get(k as usize), t.placements.get(k as usize)) else {
        return false;
    };
    if cov.is_empty() && !ps.is_empty() {
        return false;
    }
    let words = ps.len().div_ceil(64);
    // The cells that decide, and whether covering one rejects (else keeps):
    // for `all` the cells outside its target set.
    let target = sets.target(t.all);
    let (cells, rejects) = match sets.q {
        Quant::All => (t.all.minus(target), true),
        Quant::Any => (target, false),
        _ => (target, true),
    };
    let mut n = 0;
    out.placed.clear();
    for w in 0..words {
        let mut m = 0u64;
        for c in cells.iter() {
            m |= cov.get(c as usize * words + w).copied().unwrap_or(0);
        }
        let valid = if (w + 1) * 64 <= ps.len() { u64::MAX } else { (1u64 << (ps.len() % 64)) - 1 };
        let acc = if rejects { !m & valid } else { m & valid };
        n += acc.count_ones() as usize;
        out.placed.push(acc);
    }
    out.placements = Some((ps.clone(), n));
    true
}

/// The options of a chance event `random x in D where F`: the distinct
/// elements that pass, each weighted by how often it occurs (a zone's
/// pieces count one each).
fn random_options<const W: usize>(cx: &mut Cx<'_, W>, c: &ChooseOp<W>, out: &mut Options<W>) {
    let d = (c.dom)(cx);
    out.is_set = matches!(c.var, Var::S(_));
    let var = c.var;
    let counted = match d {
        Dom::Zone(z, pl) if pl != NONE8 && !cx.t.zones[z as usize].1 => Some((z, pl)),
        _ => None,
    };
    each_ticked(cx, d, var, c.span, |cx| {
        if c.filter.as_ref().is_none_or(|f| f(cx)) {
            match var {
                Var::W(i) => {
                    let w = cx.fr.w[i as usize];
                    let n = match counted {
                        Some((z, pl)) => u32::from(cx.st.data[cx.t.counter(z, pl, w as u16)]),
                        None => 1,
                    };
                    match out.words.iter().position(|&x| x == w) {
                        Some(j) => out.weights[j] += n,
                        None => {
                            out.words.push(w);
                            out.weights.push(n);
                        }
                    }
                }
                Var::S(i) => {
                    let s = cx.fr.s[i as usize];
                    match out.sets.iter().position(|&x| x == s) {
                        Some(j) => out.weights[j] += 1,
                        None => {
                            out.sets.push(s);
                            out.weights.push(1);
                        }
                    }
                }
                Var::D(_) => {}
            }
        }
        true
    });
}

/// Writes option `pick` of the decision or chance event at `pc` into the
/// frame (a revealed piece: into the position) and returns where the run
/// resumes.
#[inline(always)]
pub fn bind<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    pick: Pick<W>,
) -> u32 {
    match block.ops.get(pc as usize) {
        Some(Op::Reveal { zone, front, .. }) => {
            let mut cx = Cx { t: &p.t, st, fr };
            let (z, pl) = crate::compile::word::unzone(zone(&mut cx));
            if let (Pick::W(k), true) = (pick, pl != NONE8) {
                let i = p.t.sequence(z, pl);
                cx.st.seqs[i].reveal(k as u16, *front);
            }
            pc + 1
        }
        Some(Op::Choose(c) | Op::Random(c)) => {
            match (c.var, pick) {
                (Var::W(i), Pick::W(w)) => fr.w[i as usize] = w,
                (Var::S(i), Pick::S(s)) => fr.s[i as usize] = s,
                _ => {}
            }
            pc + 1
        }
        _ => resume_of(block, pc, pick),
    }
}

/// The word local that each option of the decision at `pc` is written
/// into, when it is a `choose` of a word: found once for all the
/// options, so that [`bind_in`] writes each without matching the op.
#[inline(always)]
pub fn word_of<const W: usize>(block: &Block<W>, pc: u32) -> Option<usize> {
    match block.ops.get(pc as usize) {
        Some(Op::Choose(c)) => match c.var {
            Var::W(x) => Some(x as usize),
            _ => None,
        },
        _ => None,
    }
}

/// [`bind`] of decision `pc` whose [`word_of`] is `word`.
#[inline(always)]
pub fn bind_in<const W: usize>(
    word: Option<usize>,
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    pick: Pick<W>,
) -> u32 {
    match (word, pick) {
        (Some(x), Pick::W(w)) => {
            fr.w[x] = w;
            pc + 1
        }
        _ => bind(p, block, pc, st, fr, pick),
    }
}

/// Where a run goes on after option `pick` of decision `pc`: the chosen
/// branch of an `either`, else the next op (see [`bind`], which also
/// records the pick).
pub fn resume_of<const W: usize>(block: &Block<W>, pc: u32, pick: Pick<W>) -> u32 {
    match (block.ops.get(pc as usize), pick) {
        (Some(Op::Either { arms, .. }), Pick::W(b)) => {
            arms.get(b as usize).copied().unwrap_or(pc + 1)
        }
        _ => pc + 1,
    }
}

/// The site id of the decision at `pc`.
pub fn site_at<const W: usize>(block: &Block<W>, pc: u32) -> u16 {
    match block.ops.get(pc as usize) {
        Some(Op::Choose(c) | Op::Random(c)) => c.site,
        Some(Op::Reveal { site, .. }) => *site,
        Some(Op::Either { site, .. }) => *site,
        _ => 0,
    }
}

/// A given choice for the decision at `pc`, as in a move being played:
/// checks that it answers this decision and passes its filter (the
/// domain is not enumerated). Returns where to resume, or the failure.
pub fn take_choice<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    pc: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    choice: &Choice,
) -> Result<Result<u32, Span>, RunError> {
    let mut cx = Cx { t: &p.t, st, fr };
    let r = match block.ops.get(pc as usize) {
        Some(Op::Reveal { site, zone, front, span }) => {
            let (z, pl) = crate::compile::word::unzone(zone(&mut cx));
            match choice.value {
                Value::Kind(k) if *site == choice.site && pl != NONE8 => {
                    let i = p.t.sequence(z, pl);
                    if cx.st.seqs[i].reveal(k, *front) {
                        Ok(pc + 1)
                    } else {
                        Err(*span)
                    }
                }
                _ => Err(*span),
            }
        }
        Some(Op::Choose(c) | Op::Random(c)) => {
            if c.site != choice.site {
                Err(c.span)
            } else {
                let pick = value_pick::<W>(&choice.value);
                match (c.var, pick) {
                    (Var::W(i), Pick::W(w)) => cx.fr.w[i as usize] = w,
                    (Var::S(i), Pick::S(s)) => cx.fr.s[i as usize] = s,
                    _ => {}
                }
                if !c.filter.as_ref().is_none_or(|f| f(&mut cx)) {
                    Err(c.filter_span)
                } else if let (Some(r), Pick::S(e)) = (&c.nbr, pick) {
                    // Passes 17 and 19: the `require`s after the decision,
                    // asked now.
                    match r.first_failure(&mut cx, e) {
                        None => Ok(pc + 1),
                        Some(span) => Err(span),
                    }
                } else if let (Some(r), Pick::W(x)) = (&c.cell, pick) {
                    // Pass 44: likewise.
                    match cell_failure(r, &mut cx, x) {
                        None => Ok(pc + 1),
                        Some(span) => Err(span),
                    }
                } else {
                    Ok(pc + 1)
                }
            }
        }
        Some(Op::Either { site, arms, span }) => match choice.value {
            Value::Int(b) if *site == choice.site && (b as usize) < arms.len() && b >= 0 => {
                Ok(arms[b as usize])
            }
            _ => Err(*span),
        },
        _ => Err(Span::default()),
    };
    match fr_err(cx.fr) {
        Some(e) => Err(e),
        None => Ok(r),
    }
}

/// Runs `block` from op `pc` until it finishes, fails or reaches a decision.
#[inline(always)]
pub fn run<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    st: &mut State,
    fr: &mut Frame<W>,
    mut pc: u32,
) -> Result<Stop, RunError> {
    let mut cx = Cx { t: &p.t, st, fr };
    let ops = &block.ops;
    // Statements: on to the next op, or the run's end as they ended it.
    macro_rules! statements {
        ($f:expr) => {
            match $f(&mut cx) {
                Ctl::Next => {}
                Ctl::Done => return Ok(Stop::Done),
                Ctl::Fail => return Ok(Stop::Fail(cx.fr.failed)),
                Ctl::Error => return Err(error(cx.fr)),
            }
        };
    }
    // A test's answer, or the run's end at the rule error it raised.
    macro_rules! test {
        ($c:expr) => {{
            let ok = $c(&mut cx);
            if cx.fr.err.is_some() {
                return Err(error(cx.fr));
            }
            ok
        }};
    }
    loop {
        let Some(op) = ops.get(pc as usize) else { return Ok(Stop::Done) };
        pc += 1;
        match op {
            Op::Run(f) => statements!(f),
            Op::RunUnless(f, c, to) => {
                statements!(f);
                pc = if test!(c) { pc + 1 } else { *to };
            }
            Op::RunElseIf { run, test, or, then, to } => {
                statements!(run);
                pc = if test!(test) {
                    pc + 1
                } else if test!(or) {
                    *then
                } else {
                    *to
                };
            }
            Op::Jump(to) => pc = *to,
            Op::JumpUnless(c, to) => {
                if !test!(c) {
                    pc = *to;
                }
            }
            Op::Tick(span) => {
                if !tick(&mut cx, *span) {
                    return Err(error(cx.fr));
                }
            }
            Op::LoopStart { coll, dom, idx } => {
                let d = coll(&mut cx);
                if cx.fr.err.is_some() {
                    return Err(error(cx.fr));
                }
                cx.fr.d[*dom as usize] = d;
                cx.fr.w[*idx as usize] = 0;
            }
            Op::LoopNext { dom, idx, var, filter, exit, span } => loop {
                if !next_elem(&mut cx, *dom as usize, *idx as usize, *var) {
                    pc = *exit;
                    break;
                }
                if !tick(&mut cx, *span) {
                    return Err(error(cx.fr));
                }
                let ok = filter.as_ref().is_none_or(|f| f(&mut cx));
                if cx.fr.err.is_some() {
                    return Err(error(cx.fr));
                }
                if ok {
                    break;
                }
            },
            Op::Choose(_) | Op::Either { .. } | Op::Random(_) => return Ok(Stop::Fork(pc - 1)),
            Op::Reveal { zone, front, .. } => {
                let w = zone(&mut cx);
                if cx.fr.err.is_some() {
                    return Err(error(cx.fr));
                }
                if face_down_end(cx.t, cx.st, w, *front).is_some() {
                    return Ok(Stop::Fork(pc - 1));
                }
            }
        }
    }
}

/// The rule error recorded in the frame.
#[cold]
fn error<const W: usize>(fr: &mut Frame<W>) -> RunError {
    fr.err.take().unwrap_or_else(|| {
        RunError::new("internal error: a rule failed without a reason", Span::default())
    })
}

/// Binds the next element of loop `dom`/`idx` to `var`; false when done.
#[inline]
fn next_elem<const W: usize>(cx: &mut Cx<'_, W>, dom: usize, idx: usize, var: Var) -> bool {
    let i = cx.fr.w[idx] as usize;
    let put_w = |cx: &mut Cx<'_, W>, v: i64| {
        if let Var::W(s) = var {
            cx.fr.w[s as usize] = v;
        }
    };
    let put_s = |cx: &mut Cx<'_, W>, v: Set<W>| {
        if let Var::S(s) = var {
            cx.fr.s[s as usize] = v;
        }
    };
    match cx.fr.d[dom] {
        Dom::Set(mut s) => match s.pop() {
            Some(c) => {
                cx.fr.d[dom] = Dom::Set(s);
                put_w(cx, i64::from(c));
                true
            }
            None => false,
        },
        Dom::Line(l) => match cx.t.lines.get(l as usize).and_then(|x| x.cells.get(i)).copied() {
            Some(c) => {
                cx.fr.w[idx] += 1;
                put_w(cx, i64::from(c));
                true
            }
            None => false,
        },
        Dom::Dirs | Dom::Kinds | Dom::Players => {
            let n = match cx.fr.d[dom] {
                Dom::Dirs => cx.t.dirs,
                Dom::Kinds => cx.t.kinds,
                _ => cx.t.players,
            };
            if i >= n {
                return false;
            }
            cx.fr.w[idx] += 1;
            put_w(cx, i as i64);
            true
        }
        Dom::Lines(a, b) => {
            let l = a as usize + i;
            if l >= b as usize {
                return false;
            }
            cx.fr.w[idx] += 1;
            put_w(cx, l as i64);
            true
        }
        Dom::List(id) => match cx.t.lists.get(id as usize).and_then(|l| l.get(i)).copied() {
            Some(w) => {
                cx.fr.w[idx] += 1;
                put_w(cx, w);
                true
            }
            None => false,
        },
        Dom::Range(a, b) => {
            let Some(x) = a.checked_add(i as i64) else { return false };
            if x > b {
                return false;
            }
            cx.fr.w[idx] += 1;
            put_w(cx, x);
            true
        }
        Dom::Groups(pl) => {
            crate::compile::expr::fresh_groups(cx, pl as usize);
            let g = cx.fr.groups.get(pl as usize).and_then(|e| e.list.get(i)).copied();
            match g {
                Some(g) => {
                    cx.fr.w[idx] += 1;
                    put_s(cx, g);
                    true
                }
                None => false,
            }
        }
        Dom::Placements(k) => {
            match cx.t.placements.get(k as usize).and_then(|ps| ps.get(i)).copied() {
                Some(g) => {
                    cx.fr.w[idx] += 1;
                    put_s(cx, g);
                    true
                }
                None => false,
            }
        }
        Dom::Zone(z, pl) => {
            if pl == NONE8 {
                return false;
            }
            if cx.t.zones[z as usize].1 {
                match cx.st.seqs[cx.t.sequence(z, pl)].nth(i) {
                    Some(k) => {
                        cx.fr.w[idx] += 1;
                        put_w(cx, i64::from(k));
                        true
                    }
                    None => false,
                }
            } else {
                // The zone's counters, one per kind in order, as
                // `effect::walk_kinds` reads them.
                let base = cx.t.counter(z, pl, 0);
                let counts = cx.st.data.get(base + i..base + cx.t.kinds);
                match counts.and_then(crate::compile::effect::first_held).map(|j| i + j) {
                    Some(k) => {
                        cx.fr.w[idx] = k as i64 + 1;
                        put_w(cx, k as i64);
                        true
                    }
                    None => false,
                }
            }
        }
    }
}

/// Converts a decision's pick into the interpreter's choice.
pub fn choice_of<const W: usize>(p: &Program<W>, site: u16, pick: Pick<W>) -> Choice {
    let ty = p.sites.get(site as usize).map_or(Ty::Int, |s| s.ty);
    Choice { site, value: pick_value(ty, pick) }
}
