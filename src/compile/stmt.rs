//! Statements → a flat op sequence.
//!
//! `if` and `while` become conditional jumps; `for` becomes a
//! `LoopStart` (the collection and an index go into the frame) and a
//! `LoopNext` at the top of the body that binds the next element or jumps
//! past the loop. Inlined actions become stores of their parameters
//! followed by their body. Decisions (`choose`, `either`) are ops at which
//! a run stops so the search can fork (see `eval::machine`).

use super::effect::{self, CKey, Ctl, StmtFn};
use super::expr::{Compiler, Leaf};
use super::opt::{CellRequire, NbrRequire, Pred};
use super::{Cx, Dom, Var, B, D, I, S};
use crate::ir::{Builtin, Expr, Key, Stmt, StmtKind, Ty, Value};
use crate::source::Span;

/// The options of a `choose` in set form: the domain's cells, the
/// set-form part of the filter, and the rest of the filter.
pub type FastOptions<const W: usize> = (S<W>, super::P<W>, Option<B<W>>);

/// A `choose`.
pub struct ChooseOp<const W: usize> {
    /// Its site id.
    pub site: u16,
    /// The chosen value's local.
    pub var: Var,
    /// The domain.
    pub dom: D<W>,
    /// The filter, asked per element.
    pub filter: Option<B<W>>,
    /// The options in set form, when the domain is cells and the filter
    /// starts with set-form conjuncts.
    pub fast: Option<FastOptions<W>>,
    /// The filter as a hoisted test on each element's cells, when the
    /// domain's elements are lines or sets (see `opt::ElemTest`).
    pub elems: Option<super::opt::ElemTest<W>>,
    /// With `elems`, over `lines(k)`: the index in `Tables::shifts` of
    /// those lines, when the options are listed by shifts.
    pub by_shifts: Option<usize>,
    /// Over placements: a `require` after the decision about the cells
    /// around the chosen one, asked of each placement as the options are
    /// listed (pass 17).
    pub nbr: Option<NbrRequire<W>>,
    /// Over cells: the `require`s right after the mover's `place K at c`
    /// of the chosen cell, asked of each cell as the options are listed
    /// (pass 44).
    pub cell: Option<CellRequire<W>>,
    /// The kinds in an unordered zone named in the rule, shared or `me`'s
    /// (`choose card in hand(me)`), without a filter: the zone and its
    /// player, read in place of the domain's closure.
    pub kinds: Option<(u16, effect::Arg<W>)>,
    /// The domain is a set of cells (`Dom::Set` at run time).
    pub dom_is_set: bool,
    /// The statement.
    pub span: Span,
    /// The filter's span (or the statement's).
    pub filter_span: Span,
}

/// One op of a compiled block.
pub enum Op<const W: usize> {
    /// Statements without decisions, run as one closure.
    Run(StmtFn<W>),
    /// Continue at the op.
    Jump(u32),
    /// Continue at the op when the condition is false.
    JumpUnless(B<W>, u32),
    /// A `Run` and the `JumpUnless` after it as one op (made by
    /// [`fuse_tests`] where nothing jumps to the test): the statements,
    /// then the test; continue at the op after next when it holds, at the
    /// op when not. The op after it is never run.
    RunUnless(StmtFn<W>, B<W>, u32),
    /// A `RunUnless` whose test's false branch begins with another test
    /// that nothing else reaches (an `else if` after statements), the
    /// second test moved in by [`fuse_tests`] (pass 46): the statements,
    /// then the first test (continue at the op after next when it
    /// holds), then the second (at op `then` when it holds, at op `to`
    /// when not). The op after it and the second test's old place are
    /// never run.
    RunElseIf {
        /// The statements.
        run: StmtFn<W>,
        /// The first test.
        test: B<W>,
        /// The second test, asked where the first fails.
        or: B<W>,
        /// Where the second test's branch starts.
        then: u32,
        /// Where both fail.
        to: u32,
    },
    /// One iteration of a `while` (counted against the step limit).
    Tick(Span),
    /// Starts a `for`: the collection into `d[dom]`, the index `w[idx]` = 0.
    LoopStart {
        /// The collection.
        coll: D<W>,
        /// Its frame slot.
        dom: u16,
        /// The index's frame slot.
        idx: u16,
    },
    /// Binds the next element the filter accepts (each element counts a
    /// step), or continues at `exit` when there is none.
    LoopNext {
        /// The collection's frame slot.
        dom: u16,
        /// The index's frame slot.
        idx: u16,
        /// The element's local.
        var: Var,
        /// `where`
        filter: Option<B<W>>,
        /// After the loop.
        exit: u32,
        /// The loop statement.
        span: Span,
    },
    /// A decision among the domain's elements.
    Choose(Box<ChooseOp<W>>),
    /// A chance event among the domain's elements (`random`).
    Random(Box<ChooseOp<W>>),
    /// If the first (last) piece of the zone is face down, a chance event
    /// decides it; otherwise nothing.
    Reveal {
        /// Its site id.
        site: u16,
        /// The zone.
        zone: I<W>,
        /// The first piece (else the last).
        front: bool,
        /// Where it is read.
        span: Span,
    },
    /// A decision among branches (each starts at its op).
    Either {
        /// Its site id.
        site: u16,
        /// Where each branch starts.
        arms: Vec<u32>,
        /// The statement.
        span: Span,
    },
}

/// How many ops jump to each op (an `either`'s branches included; the
/// last entry is the block's end).
fn jumps_to<const W: usize>(ops: &[Op<W>]) -> Vec<u32> {
    let mut count = vec![0u32; ops.len() + 1];
    let mut add = |to: u32| {
        if let Some(t) = count.get_mut(to as usize) {
            *t += 1;
        }
    };
    for op in ops {
        match op {
            Op::Jump(to) | Op::JumpUnless(_, to) | Op::RunUnless(_, _, to) => add(*to),
            Op::RunElseIf { then, to, .. } => {
                add(*then);
                add(*to);
            }
            Op::LoopNext { exit, .. } => add(*exit),
            Op::Either { arms, .. } => arms.iter().for_each(|&a| add(a)),
            _ => {}
        }
    }
    count
}

/// Makes each `Run` followed by a `JumpUnless` that no op jumps to one
/// `RunUnless` (pass 36), leaving a `Jump` past it in the test's place,
/// which no run reaches. (A run also resumes right after a decision or a
/// reveal, which is never the `Run` of such a pair.) Then (pass 46) a
/// `RunUnless` whose test, where it fails, goes to a `JumpUnless` that
/// only it reaches (no other op jumps there, and the op before is a
/// `Jump`, so no op runs on into it and no run resumes there) takes that
/// second test in: a `RunElseIf`, the second test's place left a `Jump`
/// past it, which no run reaches. Returns the notes of what was fused.
/// One dispatch of the machine fewer where a test of an `if` or `while`
/// with a decision inside follows statements (boop.'s `if any l in
/// lines(3): ...` after the placement and its pushes), and another where
/// that `if`'s `else if` is asked (boop.'s `else if count(pool(me)) ==
/// 0`, asked after every placement that makes no line).
pub fn fuse_tests<const W: usize>(ops: &mut [Op<W>]) -> Vec<&'static str> {
    let mut notes = Vec::new();
    let target = jumps_to(ops);
    for pc in 0..ops.len().saturating_sub(1) {
        if !matches!(
            (&ops[pc], &ops[pc + 1], target.get(pc + 1)),
            (Op::Run(_), Op::JumpUnless(..), Some(0))
        ) {
            continue;
        }
        let after = Op::Jump(pc as u32 + 2);
        if let (Op::Run(f), Op::JumpUnless(c, to)) = (
            std::mem::replace(&mut ops[pc], Op::Jump(0)),
            std::mem::replace(&mut ops[pc + 1], after),
        ) {
            ops[pc] = Op::RunUnless(f, c, to);
            notes.push(FUSED_TEST_NOTE);
        }
    }
    let target = jumps_to(ops);
    for pc in 0..ops.len() {
        let Op::RunUnless(_, _, to) = ops[pc] else { continue };
        let to = to as usize;
        let only_edge = target.get(to) == Some(&1)
            && to > 0
            && matches!(ops.get(to - 1), Some(Op::Jump(_)))
            && matches!(ops.get(to), Some(Op::JumpUnless(..)));
        if !only_edge {
            continue;
        }
        let gone = Op::Jump(to as u32 + 1);
        if let (Op::RunUnless(run, test, _), Op::JumpUnless(or, end)) =
            (std::mem::replace(&mut ops[pc], Op::Jump(0)), std::mem::replace(&mut ops[to], gone))
        {
            ops[pc] = Op::RunElseIf { run, test, or, then: to as u32 + 1, to: end };
            notes.push(ELSE_IF_NOTE);
        }
    }
    notes
}

/// The note of pass 36.
const FUSED_TEST_NOTE: &str = "fused test: statements and the test after them as one op";

/// The note of pass 46.
const ELSE_IF_NOTE: &str =
    "fused test: an `else if`'s test where the fused test fails, in the same op";

impl<const W: usize> Op<W> {
    /// Whether this op is a decision (`choose`, `either`, `random`): a run
    /// that reaches it stops there before doing anything.
    pub fn is_decision(&self) -> bool {
        matches!(self, Op::Choose(_) | Op::Either { .. } | Op::Random(_))
    }
}

/// Whether some decision of the mover (a `choose` or `either` whose site
/// `chance` does not call a chance event) can be reached in `block` after
/// a chance event (a `random`, a reveal, a chance site).
pub fn decides_after_chance<const W: usize>(
    block: &super::Block<W>,
    chance: impl Fn(u16) -> bool,
) -> bool {
    let ops = &block.ops;
    let is_chance = |op: &Op<W>| match op {
        Op::Random(_) | Op::Reveal { .. } => true,
        Op::Choose(c) => chance(c.site),
        Op::Either { site, .. } => chance(*site),
        _ => false,
    };
    let next = |pc: usize, out: &mut Vec<usize>| match ops.get(pc) {
        Some(&Op::Jump(to)) => out.push(to as usize),
        Some(&Op::JumpUnless(_, to)) => out.extend([pc + 1, to as usize]),
        Some(&Op::RunUnless(_, _, to)) => out.extend([pc + 2, to as usize]),
        Some(&Op::RunElseIf { then, to, .. }) => out.extend([pc + 2, then as usize, to as usize]),
        Some(&Op::LoopNext { exit, .. }) => out.extend([pc + 1, exit as usize]),
        Some(Op::Either { arms, .. }) => out.extend(arms.iter().map(|&a| a as usize)),
        Some(_) => out.push(pc + 1),
        None => {}
    };
    let mut seen = vec![false; ops.len() + 1];
    let mut todo = Vec::new();
    for (pc, op) in ops.iter().enumerate() {
        if is_chance(op) {
            next(pc, &mut todo);
        }
    }
    while let Some(pc) = todo.pop() {
        match seen.get_mut(pc) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        match ops.get(pc) {
            Some(op @ (Op::Choose(_) | Op::Either { .. })) if !is_chance(op) => return true,
            _ => next(pc, &mut todo),
        }
    }
    false
}

/// Whether a statement contains a decision.
fn has_fork(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Choose { .. }
        | StmtKind::Either { .. }
        | StmtKind::Random { .. }
        | StmtKind::Reveal { .. } => true,
        // A test that reveals pieces is a chance event each time round.
        StmtKind::While { pre, .. } if !pre.is_empty() => true,
        StmtKind::If { then, otherwise, .. } => {
            then.iter().any(has_fork) || otherwise.iter().any(has_fork)
        }
        StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::Block(_, body) => {
            body.iter().any(has_fork)
        }
        _ => false,
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Compiles a block into a flat op sequence.
    pub fn block(&mut self, stmts: &[Stmt]) -> super::Block<W> {
        let mut ops = Vec::new();
        self.stmts(stmts, &mut ops);
        for note in fuse_tests(&mut ops) {
            self.notes.push(note.into());
        }
        super::Block { ops }
    }

    fn stmts(&mut self, stmts: &[Stmt], ops: &mut Vec<Op<W>>) {
        let mut run: Vec<StmtFn<W>> = Vec::new();
        let mut lets = Vec::new();
        // A `require` asked as the options of a decision are listed (pass
        // 17): not run again after the decision.
        let mut pushed = Vec::new();
        for (i, s) in stmts.iter().enumerate() {
            if pushed.contains(&i) {
                continue;
            }
            if has_fork(s) {
                let (nbr, cell, js) = match self.nbr_require(stmts, i) {
                    Some((js, r)) => (Some(r), None, js),
                    None => match self.cell_require(stmts, i) {
                        Some((js, r)) => (None, Some(r), js),
                        None => (None, None, Vec::new()),
                    },
                };
                for &j in &js {
                    self.preasked.push(&stmts[j] as *const Stmt as usize);
                }
                pushed.extend(js);
                // Pass 28: the statement after a decision that may run
                // before it, once for all its options; not where the
                // listing asks a `require` (passes 17, 19 and 44), whose
                // options are handed over unrun.
                let next = stmts.get(i + 1).filter(|n| {
                    nbr.is_none()
                        && cell.is_none()
                        && matches!(s.kind, StmtKind::Choose { .. })
                        && self.before_decision.contains(&(*n as *const Stmt as usize))
                });
                if let Some(n) = next {
                    self.push_fused(n, &mut lets, &mut run);
                    pushed.push(i + 1);
                    self.notes
                        .push("before a decision: a `take` run once for all its options".into());
                }
                effect::flush_lets(&mut lets, &mut run);
                if !run.is_empty() {
                    ops.push(Op::Run(effect::seq(std::mem::take(&mut run))));
                }
                self.fork_stmt(s, ops, (nbr, cell));
            } else if let Some(f) = self.fused_pair(s, stmts.get(i + 1)) {
                run.push(effect::after_lets(std::mem::take(&mut lets), f));
                pushed.push(i + 1);
            } else {
                self.push_fused(s, &mut lets, &mut run);
            }
        }
        effect::flush_lets(&mut lets, &mut run);
        if !run.is_empty() {
            ops.push(Op::Run(effect::seq(run)));
        }
    }

    /// Pass 45: a statement and the one after it as one closure, where
    /// their pair has a form of its own: `add kind(c) to Z(owner(c))` then
    /// `remove c`, for a counted zone and a cell local (a piece leaving the
    /// board for its owner's zone).
    fn fused_pair(&mut self, s: &Stmt, next: Option<&Stmt>) -> Option<StmtFn<W>> {
        let (z, i, span) = self.home_pair(s, next)?;
        self.notes.push(PIECE_HOME_NOTE.into());
        Some(effect::piece_home(z, i, span))
    }

    /// Pass 45's pair `add kind(c) to Z(owner(c))`, `remove c` (`s` and
    /// `next`): the zone, the word of `c` and the `add`'s span.
    pub(super) fn home_pair(&self, s: &Stmt, next: Option<&Stmt>) -> Option<(u16, usize, Span)> {
        let (
            StmtKind::Add { count: None, kind: Expr::Builtin(Builtin::KindOf, ka, _), zone },
            Some(Stmt { kind: StmtKind::Remove(Expr::Local(r, _)), .. }),
        ) = (&s.kind, next)
        else {
            return None;
        };
        let Some((z, Some(Expr::Builtin(Builtin::Owner, pa, _)))) = self.counted_zone(zone) else {
            return None;
        };
        let ([Expr::Local(a, _)], [Expr::Local(b, _)]) = (&ka[..], &pa[..]) else {
            return None;
        };
        let (true, Var::W(i)) = (a == b && a == r, self.var(*a)) else {
            return None;
        };
        Some((z, i as usize, s.span))
    }

    /// Statements without decisions, as closures; a `let` of a leaf word
    /// (see [`super::expr::Leaf`]) is computed by the closure of the
    /// statement after it.
    pub(super) fn stmt_fns(&mut self, stmts: &[Stmt]) -> Vec<StmtFn<W>> {
        self.stmt_fns_then(stmts, None)
    }

    /// [`Compiler::stmt_fns`], followed by `last` (which computes the
    /// leaf `let`s just before it).
    pub(super) fn stmt_fns_then(
        &mut self,
        stmts: &[Stmt],
        last: Option<StmtFn<W>>,
    ) -> Vec<StmtFn<W>> {
        let mut out = Vec::new();
        let mut lets = Vec::new();
        let mut i = 0;
        while let Some(s) = stmts.get(i) {
            i += 1;
            if let Some(f) = self.fused_pair(s, stmts.get(i)) {
                out.push(effect::after_lets(std::mem::take(&mut lets), f));
                i += 1;
                continue;
            }
            self.push_fused(s, &mut lets, &mut out);
        }
        match last {
            Some(f) => out.push(effect::after_lets(std::mem::take(&mut lets), f)),
            None => effect::flush_lets(&mut lets, &mut out),
        }
        out
    }

    /// Pass 26: `s` into `out`, or, a `let` of a leaf word (which cannot
    /// fail and changes nothing but its local), into `lets`, to be
    /// computed in the closure of the next statement (one call and one
    /// round of the statement loop fewer).
    fn push_fused(&mut self, s: &Stmt, lets: &mut Vec<(usize, Leaf)>, out: &mut Vec<StmtFn<W>>) {
        if let StmtKind::Let(slot, e) = &s.kind {
            if let (Var::W(i), Some(l)) = (self.var(*slot), self.leaf(e)) {
                lets.push((i as usize, l));
                return;
            }
        }
        if let (StmtKind::If { cond, then, otherwise }, [_]) = (&s.kind, &lets[..]) {
            // The `let` computed in the switch's own closure.
            if let Some(f) = self.cell_switch(cond, then, otherwise, lets) {
                lets.clear();
                out.push(f);
                return;
            }
        }
        let f = self.stmt_fn(s);
        out.push(effect::after_lets(std::mem::take(lets), f));
    }

    /// A statement without decisions, as a closure.
    fn stmt_fn(&mut self, s: &Stmt) -> StmtFn<W> {
        let span = s.span;
        match &s.kind {
            StmtKind::Let(slot, e) => {
                if let (Var::W(i), Some(l)) = (self.var(*slot), self.leaf(e)) {
                    // A leaf cannot fail: computed and stored in place.
                    let i = i as usize;
                    return Box::new(move |cx| {
                        cx.fr.w[i] = l.eval(cx);
                        Ctl::Next
                    });
                }
                if let Var::W(i) = self.var(*slot) {
                    // A word: computed and stored in one closure.
                    let (i, f) = (i as usize, self.word(e));
                    return Box::new(move |cx| {
                        cx.fr.w[i] = f(cx);
                        if cx.fr.err.is_some() {
                            Ctl::Error
                        } else {
                            Ctl::Next
                        }
                    });
                }
                let st = self.store(self.var(*slot), e);
                Box::new(move |cx| {
                    st(cx);
                    if cx.fr.err.is_some() {
                        Ctl::Error
                    } else {
                        Ctl::Next
                    }
                })
            }
            StmtKind::For { slot, domain, filter, body } => {
                if filter.is_none() {
                    if let Some(f) = self.guarded_for(*slot, domain, body, span) {
                        return f;
                    }
                    if let Some(f) = self.remove_all(*slot, domain, body, span) {
                        return f;
                    }
                }
                let var = self.var(*slot);
                if let (Some((z, p)), Var::W(_)) = (self.counted_zone(domain), var) {
                    if let Some(who) = self.arg_in_place(p) {
                        // The kinds a counted zone holds, its player read in
                        // place.
                        self.notes.push(FOR_KINDS_NOTE.into());
                        let filter = filter.as_ref().map(|f| self.bool_(f));
                        let body = self.stmt_fns(body);
                        return effect::for_kinds(z, who, var, filter, body, span);
                    }
                }
                if let Some(f) = self.players_kinds(var, domain, filter.as_ref(), body, span) {
                    return f;
                }
                if let Some(f) = self.players_transfer(var, domain, filter.as_ref(), body, span) {
                    return f;
                }
                if let Expr::Const(v @ (Value::Players | Value::Dirs | Value::Kinds)) = domain {
                    // The numbers from 0 to the game's count of players,
                    // directions or kinds: no collection made.
                    let upto = match v {
                        Value::Players => effect::Upto::Players,
                        Value::Dirs => effect::Upto::Dirs,
                        _ => effect::Upto::Kinds,
                    };
                    let filter = filter.as_ref().map(|f| self.bool_(f));
                    let body = self.stmt_fns(body);
                    return effect::for_upto(upto, var, filter, body, span);
                }
                let coll = self.dom(domain);
                let filter = filter.as_ref().map(|f| self.bool_(f));
                let body = self.stmt_fns(body);
                effect::for_(coll, var, filter, body, span)
            }
            StmtKind::While { cond, body, .. } => {
                let c = match self.end_kind_test(cond) {
                    Some(c) => c,
                    None => self.bool_(cond),
                };
                let body = self.stmt_fns(body);
                effect::while_(c, body, span)
            }
            StmtKind::If { cond, then, otherwise } => {
                if let Some(f) = self.cell_switch(cond, then, otherwise, &[]) {
                    return f;
                }
                let c = if otherwise.is_empty() {
                    match self.if_cond(cond) {
                        Ok((bits, i)) => {
                            self.notes.push(
                                "if of a line test: the test made in the `if`'s closure".into(),
                            );
                            let then = self.stmt_fns(then);
                            return super::opt::if_lines(bits, i, then);
                        }
                        Err(c) => c,
                    }
                } else {
                    self.bool_(cond)
                };
                let (a, b) = (self.stmt_fns(then), self.stmt_fns(otherwise));
                effect::if_(c, a, b, super::opt::never_errs(cond))
            }
            StmtKind::Block(binds, body) => {
                // The parameters bound as `let`s are, in order, then the
                // body: a word argument stored by its own closure (a leaf
                // one computed in the next statement's, pass 26), not
                // through a `Store` and a closure around it.
                let stmts: Vec<Stmt> = binds
                    .iter()
                    .map(|(slot, e)| Stmt { kind: StmtKind::Let(*slot, e.clone()), span })
                    .chain(body.iter().cloned())
                    .collect();
                effect::seq(self.stmt_fns(&stmts))
            }
            StmtKind::Require(c, _) => effect::require(self.bool_(c), span),
            StmtKind::Assign(crate::ir::Target::Local(slot), e) => {
                let st = self.store(self.var(*slot), e);
                Box::new(move |cx| {
                    st(cx);
                    if cx.fr.err.is_some() {
                        Ctl::Error
                    } else {
                        Ctl::Next
                    }
                })
            }
            StmtKind::Assign(crate::ir::Target::Var(v, p), e) => {
                let layout = self.t.vars.get(*v as usize).copied().unwrap_or_default();
                let p = p.as_ref().map(|p| self.word(p));
                effect::set_var(layout, p, self.word(e), span)
            }
            StmtKind::Change { at, kind, owner } => {
                let at = self.word(at);
                let kind = kind.as_ref().map(|k| self.word(k));
                let owner = owner.as_ref().map(|o| self.word(o));
                effect::change(at, kind, owner, span)
            }
            StmtKind::NextTurn(p) => effect::next_turn(self.word(p), span),
            StmtKind::Win(p) => effect::win(self.word(p), span),
            StmtKind::Lose(p) => effect::lose(self.word(p), span),
            StmtKind::Draw => effect::draw(),
            StmtKind::Pass => effect::pass(),
            StmtKind::Place { kind, owner, at, many } => {
                let kind = self.arg(kind);
                let owner = owner.as_ref().map(|o| self.arg(o));
                if *many {
                    effect::place_many(kind, owner, self.set(at), span)
                } else {
                    effect::place(kind, owner, self.arg(at), span)
                }
            }
            StmtKind::Compare { slot, domain, keys, share } => {
                let var = self.var(*slot);
                let dom = self.dom(domain);
                let keys = keys
                    .iter()
                    .map(|k| match k {
                        Key::Value(e) => CKey::Value(self.word(e)),
                        Key::Descending { slot, domain, filter, body } => CKey::Desc {
                            var: self.var(*slot),
                            dom: self.dom(domain),
                            filter: filter.as_ref().map(|f| self.bool_(f)),
                            body: self.word(body),
                        },
                    })
                    .collect();
                effect::compare(var, dom, keys, *share, span)
            }
            StmtKind::Transfer { count, kind, from, to } => {
                // A draw: `move first(Z) from Z to Y`, `Z` an ordered zone
                // named in the rule.
                if let (
                    Some(Expr::Const(crate::ir::Value::Int(1))),
                    Expr::Builtin(Builtin::First, args, at),
                    Some(seq),
                ) = (count, kind, self.fixed_seq(from))
                {
                    if self.fixed_seq(&args[0]) == Some(seq) {
                        // A zone named in the rule (counted or ordered): its
                        // id and player, without a closure for its word.
                        if let Some(dest) = self.fixed_seq(to) {
                            if let Some(f) = effect::transfer_first_seq(seq, dest, *at, span) {
                                return f;
                            }
                        }
                        let to = match to {
                            Expr::Zone(z, p) => {
                                let who = self.arg_of(p.as_deref());
                                if self.counted_zone(to).is_some() {
                                    let f =
                                        effect::transfer_first_counted(seq, (*z, &who), *at, span);
                                    if let Some(f) = f {
                                        return f;
                                    }
                                }
                                effect::Dest::Named(*z, who)
                            }
                            _ => effect::Dest::Word(self.word(to)),
                        };
                        return effect::transfer_first(seq, to, *at, span);
                    }
                }
                if let (Some(a), Some(b)) = (self.counted_zone(from), self.counted_zone(to)) {
                    let count = count.as_ref().map(|c| self.arg(c));
                    let kind = self.arg(kind);
                    let (from, to) = ((a.0, self.arg_of(a.1)), (b.0, self.arg_of(b.1)));
                    return effect::transfer_counted(count, kind, from, to, span);
                }
                let count = count.as_ref().map(|c| self.word(c));
                let (kind, from, to) = (self.word(kind), self.word(from), self.word(to));
                effect::transfer(count, kind, from, to, span)
            }
            StmtKind::Shuffle(z) => effect::shuffle(self.word(z), span),
            StmtKind::Remove(c) => effect::remove(self.arg(c), span),
            StmtKind::Move { from, to } => {
                let (from, to) = (self.arg(from), self.arg(to));
                effect::move_piece(from, to, span)
            }
            StmtKind::Add { count, kind, zone } | StmtKind::Take { count, kind, zone } => {
                let add = matches!(s.kind, StmtKind::Add { .. });
                if let (
                    None,
                    Some((z, Some(Expr::Builtin(Builtin::Owner, pa, _)))),
                    Expr::Builtin(Builtin::KindOf, ka, _),
                ) = (count, self.counted_zone(zone), kind)
                {
                    // The piece on a cell, to or from its owner's zone.
                    if let ([Expr::Local(a, _)], [Expr::Local(b, _)]) = (&ka[..], &pa[..]) {
                        if let (true, Var::W(i)) = (a == b, self.var(*a)) {
                            return effect::zone_piece(z, i as usize, add, span);
                        }
                    }
                }
                if let Some((z, p)) = self.counted_zone(zone) {
                    let count = count.as_ref().map(|c| self.arg(c));
                    let kind = self.arg(kind);
                    let who = self.arg_of(p);
                    return effect::zone_counted(count, kind, (z, who), add, span);
                }
                let count = count.as_ref().map(|c| self.word(c));
                let (kind, zone) = (self.word(kind), self.word(zone));
                effect::zone(count, kind, zone, add, span)
            }
            // Decisions never reach here (see `has_fork`).
            StmtKind::Choose { .. }
            | StmtKind::Either { .. }
            | StmtKind::Random { .. }
            | StmtKind::Reveal { .. } => effect::pass(),
        }
    }

    /// A statement with a decision in it, as ops.
    fn fork_stmt(
        &mut self,
        s: &Stmt,
        ops: &mut Vec<Op<W>>,
        (nbr, cell): (Option<NbrRequire<W>>, Option<CellRequire<W>>),
    ) {
        let span = s.span;
        match &s.kind {
            StmtKind::Choose { site, slot, domain, filter } => {
                let var = self.var(*slot);
                let fast = match (self.ty(domain), filter) {
                    (Ty::Cells | Ty::Line, Some(f)) => {
                        self.split_filter(*slot, f).map(|(p, rest)| {
                            self.notes.push(format!(
                                "set form: options of `choose {}`",
                                self.g.sites[*site as usize].var
                            ));
                            (self.as_set(domain), Pred::into_fn(p), rest)
                        })
                    }
                    _ => None,
                };
                let elems = match (fast.is_some(), filter) {
                    (false, Some(f)) => self.elem_test(*slot, f),
                    _ => None,
                };
                if elems.is_some()
                    && self.ty(domain) == Ty::Placements
                    && self.t.covering.iter().any(|c| !c.is_empty())
                {
                    self.notes.push(format!(
                        "placements by cells: options of `choose {}`",
                        self.g.sites[*site as usize].var
                    ));
                }
                let by_shifts = match (&elems, domain) {
                    (Some(_), Expr::Lines(a, b)) => self.t.shifts.iter().position(|s| {
                        s.range == (*a, *b)
                            && !s.ids.is_empty()
                            && s.axes.len() <= super::MAX_LINE_AXES
                    }),
                    _ => None,
                };
                if by_shifts.is_some() {
                    self.notes.push(format!(
                        "lines as shifts: options of `choose {}`",
                        self.g.sites[*site as usize].var
                    ));
                }
                let mut dom = self.dom(domain);
                let kinds = match (filter, self.counted_zone(domain)) {
                    (None, Some((z, p))) => match self.arg_of(p) {
                        a @ (effect::Arg::Me | effect::Arg::Const(0..255)) => Some((z, a)),
                        _ => None,
                    },
                    _ => None,
                };
                let mut kinds = kinds.filter(|_| matches!(var, Var::W(_)));
                if let Some((_, k, flag)) = self.fused.take_if(|f| f.0 == *site) {
                    // The options may come from the `while` instead.
                    kinds = None;
                    // Pass 25: the `while` condition just stored the options.
                    let (k, flag) = (k as usize, flag as usize);
                    dom = Box::new(move |cx| {
                        if cx.fr.w[flag] != 0 {
                            cx.fr.w[flag] = 0;
                            Dom::Set(cx.fr.s[k])
                        } else {
                            dom(cx)
                        }
                    });
                }
                if kinds.is_some() {
                    self.notes.push(format!(
                        "kinds in place: options of `choose {}`, the zone's counters read directly",
                        self.g.sites[*site as usize].var
                    ));
                }
                let f = filter.as_ref().map(|f| self.bool_(f));
                let filter_span = self.g.sites[*site as usize].filter_span.unwrap_or(span);
                ops.push(Op::Choose(Box::new(ChooseOp {
                    site: *site,
                    var,
                    dom,
                    filter: f,
                    fast,
                    elems,
                    by_shifts,
                    nbr: nbr.inspect(|_| self.nbr_sites.push(*site)),
                    cell: cell.inspect(|_| self.nbr_sites.push(*site)),
                    kinds,
                    dom_is_set: self.ty(domain) == Ty::Cells,
                    span,
                    filter_span,
                })));
            }
            StmtKind::Either { site, branches } => {
                let at = ops.len();
                ops.push(Op::Either { site: *site, arms: Vec::new(), span });
                let mut arms = Vec::new();
                let mut ends = Vec::new();
                for b in branches {
                    arms.push(ops.len() as u32);
                    self.stmts(b, ops);
                    ends.push(ops.len());
                    ops.push(Op::Jump(0));
                }
                let after = ops.len() as u32;
                for e in ends {
                    ops[e] = Op::Jump(after);
                }
                ops[at] = Op::Either { site: *site, arms, span };
            }
            StmtKind::For { slot, domain, filter, body } => {
                let coll = self.dom(domain);
                let (dom, idx) = (self.fresh_dom(), self.fresh_word());
                self.cursors.entry(*slot).or_default().push((dom, idx));
                ops.push(Op::LoopStart { coll, dom, idx });
                let top = ops.len();
                let var = self.var(*slot);
                let filter = filter.as_ref().map(|f| self.bool_(f));
                ops.push(Op::Jump(0)); // becomes the LoopNext
                self.stmts(body, ops);
                ops.push(Op::Jump(top as u32));
                let exit = ops.len() as u32;
                ops[top] = Op::LoopNext { dom, idx, var, filter, exit, span };
            }
            StmtKind::Random { site, slot, domain, filter } => {
                let var = self.var(*slot);
                let dom = self.dom(domain);
                let f = filter.as_ref().map(|f| self.bool_(f));
                let filter_span = self.g.sites[*site as usize].filter_span.unwrap_or(span);
                ops.push(Op::Random(Box::new(ChooseOp {
                    site: *site,
                    var,
                    dom,
                    filter: f,
                    fast: None,
                    elems: None,
                    by_shifts: None,
                    nbr: None,
                    cell: None,
                    kinds: None,
                    dom_is_set: false,
                    span,
                    filter_span,
                })));
            }
            StmtKind::Reveal { site, zone, front } => {
                let zone = self.word(zone);
                ops.push(Op::Reveal { site: *site, zone, front: *front, span });
            }
            StmtKind::While { pre, cond, body } => {
                let top = ops.len();
                self.stmts(pre, ops);
                let test = ops.len();
                let c = match pre.is_empty().then(|| self.while_options(cond, body)).flatten() {
                    Some((c, fused)) => {
                        self.fused = Some(fused);
                        c
                    }
                    None => match self.end_kind_test(cond) {
                        Some(c) => c,
                        None => self.bool_(cond),
                    },
                };
                ops.push(Op::Jump(0));
                ops.push(Op::Tick(span));
                self.stmts(body, ops);
                ops.push(Op::Jump(top as u32));
                let exit = ops.len() as u32;
                ops[test] = Op::JumpUnless(c, exit);
            }
            StmtKind::If { cond, then, otherwise } => {
                let c = self.bool_(cond);
                let at = ops.len();
                ops.push(Op::Jump(0));
                self.stmts(then, ops);
                if otherwise.is_empty() {
                    let end = ops.len() as u32;
                    ops[at] = Op::JumpUnless(c, end);
                } else {
                    let skip = ops.len();
                    ops.push(Op::Jump(0));
                    let other = ops.len() as u32;
                    self.stmts(otherwise, ops);
                    let end = ops.len() as u32;
                    ops[at] = Op::JumpUnless(c, other);
                    ops[skip] = Op::Jump(end);
                }
            }
            StmtKind::Block(binds, body) => {
                let mut run: Vec<StmtFn<W>> = Vec::new();
                for (slot, e) in binds {
                    let st = self.store(self.var(*slot), e);
                    run.push(Box::new(move |cx: &mut Cx<'_, W>| {
                        st(cx);
                        if cx.fr.err.is_some() {
                            Ctl::Error
                        } else {
                            Ctl::Next
                        }
                    }));
                }
                if !run.is_empty() {
                    ops.push(Op::Run(effect::seq(run)));
                }
                self.stmts(body, ops);
            }
            _ => {
                let f = self.stmt_fn(s);
                ops.push(Op::Run(f));
            }
        }
    }

    /// A filter as a plain condition (for checking one given value).
    pub fn filter_of(&mut self, e: Option<&Expr>) -> Option<B<W>> {
        e.map(|e| self.bool_(e))
    }
}

/// Whether some path from the block's start reaches a chance event
/// (`random`, a reveal) before any decision.
pub fn chance_before_decision<const W: usize>(b: &super::Block<W>) -> bool {
    let mut seen = vec![false; b.ops.len() + 1];
    let mut todo = vec![0usize];
    while let Some(pc) = todo.pop() {
        if pc >= b.ops.len() || seen[pc] {
            continue;
        }
        seen[pc] = true;
        match &b.ops[pc] {
            Op::Random(_) | Op::Reveal { .. } => return true,
            Op::Choose(_) | Op::Either { .. } => {}
            Op::Jump(to) => todo.push(*to as usize),
            Op::JumpUnless(_, to) => {
                todo.push(*to as usize);
                todo.push(pc + 1);
            }
            Op::RunUnless(_, _, to) => {
                todo.push(*to as usize);
                todo.push(pc + 2);
            }
            Op::RunElseIf { then, to, .. } => {
                todo.extend([*then as usize, *to as usize, pc + 2]);
            }
            Op::LoopNext { exit, .. } => {
                todo.push(*exit as usize);
                todo.push(pc + 1);
            }
            Op::Run(_) | Op::Tick(_) | Op::LoopStart { .. } => todo.push(pc + 1),
        }
    }
    false
}

impl<const W: usize> Compiler<'_, W> {
    /// A word operand of an effect (see [`effect::Arg`]).
    fn arg(&mut self, e: &Expr) -> effect::Arg<W> {
        match e {
            Expr::Me => effect::Arg::Me,
            Expr::Const(v) => match super::expr::const_word(v) {
                Some(k) => effect::Arg::Const(k),
                None => effect::Arg::Fn(self.word(e)),
            },
            Expr::Local(x, _) => match self.var(*x) {
                Var::W(i) => effect::Arg::Slot(i as usize),
                _ => effect::Arg::Fn(self.word(e)),
            },
            _ => effect::Arg::Fn(self.word(e)),
        }
    }

    /// The player of a zone operand where it is read in place (a
    /// constant, `me` or a word local; a shared zone's is 0), compiling
    /// nothing; `None` where it needs a closure.
    pub(super) fn arg_in_place(&self, p: Option<&Expr>) -> Option<effect::Arg<W>> {
        Some(match p {
            None => effect::Arg::Const(0),
            Some(Expr::Me) => effect::Arg::Me,
            Some(Expr::Const(v)) => effect::Arg::Const(super::expr::const_word(v)?),
            Some(Expr::Local(x, _)) => match self.var(*x) {
                Var::W(i) => effect::Arg::Slot(i as usize),
                _ => return None,
            },
            Some(_) => return None,
        })
    }

    /// `for q in players { for k in Z(q) [where F] { ... } }`, the inner
    /// loop over the kinds a counted zone of `q` holds: the two loops as
    /// one closure (the inner one's rounds as [`effect::for_kinds`] walks
    /// them), so that each player's walk costs no call of its own.
    fn players_kinds(
        &mut self,
        var: Var,
        domain: &Expr,
        filter: Option<&Expr>,
        body: &[Stmt],
        span: Span,
    ) -> Option<effect::StmtFn<W>> {
        let (q, Stmt { kind: StmtKind::For { slot, domain, filter, body }, span: inner }) =
            players_loop(var, domain, filter, body)?
        else {
            return None;
        };
        let (z, Some(Expr::Local(p, _))) = self.counted_zone(domain)? else { return None };
        let (Var::W(pi), kvar @ Var::W(kw)) = (self.var(*p), self.var(*slot)) else { return None };
        if pi != q {
            return None;
        }
        self.notes.push(FOR_KINDS_NOTE.into());
        self.notes.push("players' kinds: a `for` over the players of a `for` over each one's zone's kinds, as one loop".into());
        let spans = (span, *inner);
        if let Some(kq) = filter.as_ref().and_then(|f| self.kind_filter(f, body)) {
            let body = self.stmt_fns(body);
            return Some(match kq.into_pass(kw as usize, self.t.kinds) {
                Ok(kp) => effect::for_players_kinds(q as usize, z, kvar, kp, body, spans),
                Err(kq) => effect::for_players_kinds(q as usize, z, kvar, kq, body, spans),
            });
        }
        let filter = filter.as_ref().map(|f| self.bool_(f));
        let body = self.stmt_fns(body);
        Some(effect::for_players_kinds(q as usize, z, kvar, filter, body, spans))
    }

    /// `for q in players { move N K from Z1(q) to Z2(q) }` between counted
    /// zones, `K` a word local or a constant and `N` all or a constant: the
    /// loop and the move as one closure (each round as
    /// [`effect::for_upto`] runs it, the move as
    /// [`effect::transfer_counted`] makes it).
    fn players_transfer(
        &mut self,
        var: Var,
        domain: &Expr,
        filter: Option<&Expr>,
        body: &[Stmt],
        span: Span,
    ) -> Option<effect::StmtFn<W>> {
        let (q, Stmt { kind: StmtKind::Transfer { count, kind, from, to }, span: inner }) =
            players_loop(var, domain, filter, body)?
        else {
            return None;
        };
        // The operands' shapes first, so that nothing is compiled for a
        // loop this does not take.
        if !matches!(kind, Expr::Local(..) | Expr::Const(_))
            || !matches!(count, None | Some(Expr::Const(_)))
        {
            return None;
        }
        let (a, b) = (self.counted_zone(from)?, self.counted_zone(to)?);
        let is_q = |p: Option<&Expr>| match p {
            Some(Expr::Local(s, _)) => self.var(*s) == Var::W(q),
            _ => false,
        };
        if !(is_q(a.1) && is_q(b.1)) {
            return None;
        }
        let n = match count.as_ref().map(|c| self.arg(c)) {
            None => None,
            Some(effect::Arg::Const(n)) => Some(n),
            Some(_) => return None,
        };
        let kind = match self.arg(kind) {
            k @ (effect::Arg::Slot(_) | effect::Arg::Const(_)) => k,
            _ => return None,
        };
        self.notes.push("players' moves: a `for` over the players of a `move` between each one's zones, as one loop".into());
        effect::for_players_transfer(q as usize, n, kind, (a.0, b.0), (span, *inner))
    }

    /// The player of a zone operand (a shared zone's is 0).
    fn arg_of(&mut self, p: Option<&Expr>) -> effect::Arg<W> {
        match p {
            Some(p) => self.arg(p),
            None => effect::Arg::Const(0),
        }
    }

    /// An ordered zone named in the rule whose sequence is known at load
    /// (shared, or of a constant player): that sequence.
    pub fn fixed_seq(&self, e: &Expr) -> Option<usize> {
        let Expr::Zone(z, p) = e else { return None };
        if !self.t.zones.get(*z as usize)?.1 {
            return None;
        }
        match p.as_deref() {
            None => Some(self.t.sequence(*z, 0)),
            Some(Expr::Const(crate::ir::Value::Player(p))) if (*p as usize) < self.t.players => {
                Some(self.t.sequence(*z, *p))
            }
            _ => None,
        }
    }

    /// A zone named in the rule (`hand(me)`, `discard`) that counts its
    /// pieces by kind (not an ordered zone): its id and player.
    pub(super) fn counted_zone<'e>(&self, e: &'e Expr) -> Option<(u16, Option<&'e Expr>)> {
        match e {
            Expr::Zone(z, p) if !self.t.zones.get(*z as usize)?.1 => Some((*z, p.as_deref())),
            _ => None,
        }
    }
}

/// `for q in players { S }` without a filter, `q` a word local and `S`
/// one statement: `q`'s word and `S` (the loops that
/// `Compiler::players_kinds` and `Compiler::players_transfer` fuse).
fn players_loop<'b>(
    var: Var,
    domain: &Expr,
    filter: Option<&Expr>,
    body: &'b [Stmt],
) -> Option<(u16, &'b Stmt)> {
    match (domain, filter, var, body) {
        (Expr::Const(Value::Players), None, Var::W(q), [one]) => Some((q, one)),
        _ => None,
    }
}

/// The note of a `for` over the kinds a counted zone holds, read in place
/// (alone, or inside a loop over the players).
const FOR_KINDS_NOTE: &str =
    "kinds in place: a `for` over a zone's kinds, its counters read directly";

/// The note of pass 45 ([`Compiler::fused_pair`]).
const PIECE_HOME_NOTE: &str =
    "piece home: `add kind(c) to Z(owner(c))` and `remove c` as one effect";
