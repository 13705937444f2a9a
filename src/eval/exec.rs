//! The tree-walking interpreter for checked statements and expressions.
//!
//! An [`Exec`] runs one block against one state. Choices come from `prefix`
//! (the decisions made so far); at the first `choose` beyond the prefix the
//! run stops with [`Flow::Pause`] after writing the options into `collect`.
//! Every loop iteration costs a step; a run that exceeds [`STEP_LIMIT`]
//! stops with an error naming the loop.

use super::{Choice, Outcome, RunError, State};
use crate::board::{CellId, CellSet, NO_CELL};
use crate::ir::{
    BinOp, Builtin, Expr, Game, Key, LineQuant, Quant, Slot, Stmt, StmtKind, UnOp, Value, NONE16,
    NONE8,
};
use crate::source::Span;

/// Most steps one run of a block may take.
pub const STEP_LIMIT: u32 = 2_000_000;

/// Errors are boxed inside the interpreter so that results stay small.
type Res<T> = Result<T, Box<RunError>>;

/// How a statement ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Carry on with the next statement.
    Next,
    /// This run is not a legal turn (at this statement).
    Fail(Span),
    /// The turn is over (`win`, `lose`, `draw`, `pass`).
    End,
    /// Stopped at an undecided `choose`.
    Pause,
}

pub struct Exec<'g, 's> {
    g: &'g Game,
    st: &'s mut State,
    frame: &'s mut Frame,
    prefix: &'s [Choice],
    pos: usize,
    pub collect: Option<&'s mut Vec<Choice>>,
    /// Set when explaining a move: records the path and the failure.
    pub explain: Option<&'s mut Explain>,
    steps: u32,
}

/// The reusable memory of runs: local slots and cached predicate answers.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Local variables.
    pub slots: Vec<Value>,
    preds: Vec<PredCache>,
    /// Each player's groups, valid while the epoch is unchanged.
    groups: Vec<(u32, Vec<CellSet>)>,
    /// Changes whenever the position may have changed.
    epoch: u32,
}

/// Answers of one cell predicate, valid while the epoch is unchanged.
#[derive(Debug, Clone, Copy, Default)]
struct PredCache {
    epoch: u32,
    known: CellSet,
    yes: CellSet,
}

impl Frame {
    /// A frame for the game's locals and predicates.
    pub fn new(g: &Game) -> Frame {
        Frame {
            slots: vec![Value::Int(0); g.slots],
            preds: vec![PredCache::default(); g.preds],
            groups: vec![(0, Vec::new()); g.players.len()],
            epoch: 0,
        }
    }
}

/// What an explaining run records.
#[derive(Debug, Default)]
pub struct Explain {
    /// The decision point the run paused at.
    pub site: Option<u16>,
    /// At the pause: every element of the `choose` domain (or every `either`
    /// branch) and whether its `where` accepts it.
    pub options: Vec<(Choice, bool)>,
    /// Each decision and effect of the run, in order.
    pub trace: Vec<Step>,
    /// Why the run failed, if it did.
    pub failure: Option<Why>,
}

/// One step of a turn: where, and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The statement.
    pub span: Span,
    /// What it did, e.g. `place Stone of White at c3`.
    pub text: String,
}

/// Why a run failed: the rule, a message, and the values that made it fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    /// The failing `require`, `where` or effect.
    pub span: Span,
    /// What went wrong.
    pub message: String,
    /// Sub-expressions with their values.
    pub values: Vec<(Span, String)>,
}

macro_rules! flow {
    ($e:expr) => {
        match $e {
            Flow::Next => {}
            f => return Ok(f),
        }
    };
}

impl<'g, 's> Exec<'g, 's> {
    pub fn new(
        g: &'g Game,
        st: &'s mut State,
        frame: &'s mut Frame,
        prefix: &'s [Choice],
    ) -> Exec<'g, 's> {
        // A new run: cached predicate answers from earlier runs are stale.
        frame.epoch = frame.epoch.wrapping_add(1);
        Exec { g, st, frame, prefix, pos: 0, collect: None, explain: None, steps: 0 }
    }

    /// Counts a loop iteration; only loops can run away (there is no
    /// recursion), so the error always names the loop.
    #[inline]
    fn tick(&mut self, span: Span) -> Res<()> {
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            return Err(runaway(span));
        }
        Ok(())
    }

    /// Evaluates one expression (an entry point: unboxes errors).
    pub fn eval_expr(&mut self, e: &Expr) -> Result<Value, RunError> {
        self.eval(e).map_err(|e| *e)
    }

    /// Runs a block (the entry point: unboxes errors).
    pub fn run(&mut self, stmts: &[Stmt]) -> Result<Flow, RunError> {
        self.block(stmts).map_err(|e| *e)
    }

    fn block(&mut self, stmts: &[Stmt]) -> Res<Flow> {
        for s in stmts {
            flow!(self.stmt(s)?);
        }
        Ok(Flow::Next)
    }

    fn stmt(&mut self, s: &Stmt) -> Res<Flow> {
        if matches!(
            s.kind,
            StmtKind::Place { .. }
                | StmtKind::Remove(_)
                | StmtKind::Move { .. }
                | StmtKind::Add { .. }
                | StmtKind::Take { .. }
                | StmtKind::Transfer { .. }
                | StmtKind::Shuffle(_)
        ) {
            // The position changes: cached predicate answers expire.
            self.frame.epoch = self.frame.epoch.wrapping_add(1);
        }
        let fail = Ok(Flow::Fail(s.span));
        match &s.kind {
            StmtKind::Let(slot, e) => {
                self.frame.slots[*slot as usize] = self.eval(e)?;
            }
            StmtKind::Choose { site, slot, domain, filter } => {
                if let Some(c) = self.prefix.get(self.pos) {
                    self.pos += 1;
                    if c.site != *site {
                        return fail;
                    }
                    self.frame.slots[*slot as usize] = c.value;
                    if let Some(f) = filter {
                        if !self.truth(f)? {
                            let v = c.value;
                            let at = self.g.sites[*site as usize].filter_span.unwrap_or(s.span);
                            return self.why(
                                at,
                                |x| format!("`where` rejects {}", x.show(v)),
                                Some(f),
                            );
                        }
                    }
                    let v = c.value;
                    self.note(s.span, |x| {
                        format!("choose {} = {}", x.g.sites[*site as usize].var, x.show(v))
                    });
                    return Ok(Flow::Next);
                }
                let d = self.eval(domain)?;
                let mut opts = Vec::new();
                let mut all = Vec::new();
                let mut i = 0;
                while let Some((v, n)) = self.next_elem(d, i) {
                    i = n;
                    self.frame.slots[*slot as usize] = v;
                    let ok = match filter {
                        Some(f) => self.truth(f)?,
                        None => true,
                    };
                    if self.explain.is_some() {
                        all.push((Choice { site: *site, value: v }, ok));
                    }
                    if ok {
                        opts.push(Choice { site: *site, value: v });
                    }
                }
                if let Some(x) = self.explain.as_mut() {
                    x.options = all;
                    x.site = Some(*site);
                    return Ok(Flow::Pause);
                }
                if opts.is_empty() {
                    return fail;
                }
                if let Some(c) = self.collect.as_mut() {
                    c.extend(opts);
                }
                return Ok(Flow::Pause);
            }
            StmtKind::Either { site, branches } => {
                let b = if let Some(c) = self.prefix.get(self.pos) {
                    self.pos += 1;
                    match c.value {
                        Value::Int(b) if c.site == *site && (b as usize) < branches.len() => {
                            b as usize
                        }
                        _ => return fail,
                    }
                } else {
                    let all = (0..branches.len())
                        .map(|b| Choice { site: *site, value: Value::Int(b as i64) });
                    if let Some(x) = self.explain.as_mut() {
                        x.options = all.map(|c| (c, true)).collect();
                        x.site = Some(*site);
                    } else if let Some(c) = self.collect.as_mut() {
                        c.extend(all);
                    }
                    return Ok(Flow::Pause);
                };
                self.note(s.span, |x| match &x.g.sites[*site as usize].branches {
                    Some(bs) => match bs.get(b).cloned().flatten() {
                        Some(l) => format!("either: the `{l}` branch"),
                        None => format!("either: branch {}", b + 1),
                    },
                    None => String::new(),
                });
                flow!(self.block(&branches[b])?);
            }
            StmtKind::For { slot, domain, filter, body } => {
                let d = self.eval(domain)?;
                let mut i = 0;
                while let Some((v, n)) = self.next_elem(d, i) {
                    i = n;
                    self.tick(s.span)?;
                    self.frame.slots[*slot as usize] = v;
                    if let Some(f) = filter {
                        if !self.truth(f)? {
                            continue;
                        }
                    }
                    flow!(self.block(body)?);
                }
            }
            StmtKind::While { cond, body } => {
                while self.truth(cond)? {
                    self.tick(s.span)?;
                    flow!(self.block(body)?);
                }
            }
            StmtKind::If { cond, then, otherwise } => {
                let b = if self.truth(cond)? { then } else { otherwise };
                flow!(self.block(b)?);
            }
            StmtKind::Require(c) => {
                if !self.truth(c)? {
                    return self.why(s.span, |_| "this requirement is false".into(), Some(c));
                }
            }
            StmtKind::Win(p) => {
                let p = self.player(p, s.span)?;
                self.note(s.span, |x| format!("win {}", x.g.players[p as usize]));
                self.st.outcome = Some(Outcome::Win(p));
                return Ok(Flow::End);
            }
            StmtKind::Lose(p) => {
                let p = self.player(p, s.span)?;
                let n = self.g.players.len() as u8;
                let others = ((1u16 << n) - 1) as u8 & !(1 << p);
                self.st.outcome =
                    Some(if n == 2 { Outcome::Win(1 - p) } else { Outcome::Shared(others) });
                return Ok(Flow::End);
            }
            StmtKind::Draw => {
                self.note(s.span, |_| "draw".into());
                self.st.outcome = Some(Outcome::Draw);
                return Ok(Flow::End);
            }
            StmtKind::Pass => {
                self.note(s.span, |_| "pass".into());
                return Ok(Flow::End);
            }
            StmtKind::Place { kind, owner, at, many } => {
                let k = self.kind(kind)?;
                let p = match owner {
                    Some(o) => self.player(o, s.span)?,
                    None => self.st.current,
                };
                if k == NONE16 {
                    return self.why(
                        s.span,
                        |_| "there is no piece kind to place (`none`)".into(),
                        None,
                    );
                }
                let code = self.code(p, k);
                let what = |x: &Self| {
                    format!("{} of {}", x.g.kinds[k as usize].name, x.g.players[p as usize])
                };
                if *many {
                    let set = self.cells(at)?;
                    if let Some(c) = set.iter().find(|&c| self.st.data[c as usize] != 0) {
                        return self.why(
                            s.span,
                            |x| format!("{} is not empty", x.show(Value::Cell(c))),
                            None,
                        );
                    }
                    for c in set.iter() {
                        self.st.data[c as usize] = code;
                    }
                    self.note(s.span, |x| {
                        format!("place {} at {}", what(x), x.show(Value::Cells(set)))
                    });
                } else {
                    let c = self.cell(at)?;
                    if c == NO_CELL {
                        return self.why(s.span, |_| "the cell is off the board".into(), None);
                    }
                    if self.st.data[c as usize] != 0 {
                        return self.why(
                            s.span,
                            |x| {
                                format!(
                                    "{} is not empty: it holds {}",
                                    x.show(Value::Cell(c)),
                                    x.piece_text(c)
                                )
                            },
                            None,
                        );
                    }
                    self.st.data[c as usize] = code;
                    self.note(s.span, |x| {
                        format!("place {} at {}", what(x), x.show(Value::Cell(c)))
                    });
                }
            }
            StmtKind::Compare { slot, domain, keys, share } => {
                let (outcome, decided_by) = self.compare(*slot, domain, keys, *share)?;
                self.note(s.span, |x| format!("compare: {}", outcome.describe(x.g)));
                self.st.outcome = Some(outcome);
                self.st.decided_by = decided_by;
                return Ok(Flow::End);
            }
            StmtKind::Remove(c) => {
                let c = self.cell(c)?;
                if c == NO_CELL || self.st.data[c as usize] == 0 {
                    return self.why(
                        s.span,
                        |x| format!("there is no piece on {} to remove", x.show(Value::Cell(c))),
                        None,
                    );
                }
                self.note(s.span, |x| {
                    format!("remove {} from {}", x.piece_text(c), x.show(Value::Cell(c)))
                });
                self.st.data[c as usize] = 0;
            }
            StmtKind::Move { from, to } => {
                let (a, b) = (self.cell(from)?, self.cell(to)?);
                if a == NO_CELL || b == NO_CELL {
                    return self.why(
                        s.span,
                        |_| "a cell of this move is off the board".into(),
                        None,
                    );
                }
                let (pa, pb) = (self.st.data[a as usize], self.st.data[b as usize]);
                if pa == 0 || pb != 0 {
                    return self.why(
                        s.span,
                        |x| {
                            if pa == 0 {
                                format!("there is no piece on {} to move", x.show(Value::Cell(a)))
                            } else {
                                format!("{} is not empty", x.show(Value::Cell(b)))
                            }
                        },
                        None,
                    );
                }
                self.note(s.span, |x| {
                    format!(
                        "move {} from {} to {}",
                        x.piece_text(a),
                        x.show(Value::Cell(a)),
                        x.show(Value::Cell(b))
                    )
                });
                self.st.data[b as usize] = pa;
                self.st.data[a as usize] = 0;
            }
            StmtKind::Add { count, kind, zone } | StmtKind::Take { count, kind, zone } => {
                let n = match count {
                    Some(c) => self.int(c)?,
                    None => 1,
                };
                let k = self.kind(kind)?;
                let zv = self.eval(zone)?;
                let Value::Zone(z, p) = zv else { return Err(bug(s.span)) };
                if k == NONE16 || p == NONE8 || n < 0 {
                    return self.why(
                        s.span,
                        |_| "nothing to add or take (`none` or a negative count)".into(),
                        None,
                    );
                }
                let add = matches!(s.kind, StmtKind::Add { .. });
                let ok = if add {
                    self.zone_add(z, p, k, n, s.span)?
                } else {
                    self.zone_take(z, p, k, n)
                };
                if !ok {
                    let have = self.zone_count(z, p, k);
                    return self.why(
                        s.span,
                        |x| {
                            format!(
                                "{} holds {have} {}, {n} needed",
                                x.show(zv),
                                x.g.kinds[k as usize].name
                            )
                        },
                        None,
                    );
                }
                self.note(s.span, |x| {
                    let verb = if add { "add" } else { "take" };
                    let dir = if add { "to" } else { "from" };
                    format!("{verb} {n} {} {dir} {}", x.g.kinds[k as usize].name, x.show(zv))
                });
            }
            StmtKind::Transfer { count, kind, from, to } => {
                let k = self.kind(kind)?;
                let (fv, tv) = (self.eval(from)?, self.eval(to)?);
                let Value::Zone(z1, p1) = fv else { return Err(bug(s.span)) };
                let Value::Zone(z2, p2) = tv else { return Err(bug(s.span)) };
                let n = match count {
                    Some(c) => self.int(c)?,
                    None if k == NONE16 || p1 == NONE8 => 0,
                    None => self.zone_count(z1, p1, k),
                };
                if k == NONE16 || p1 == NONE8 || p2 == NONE8 || n < 0 {
                    return self.why(
                        s.span,
                        |_| "nothing to move (`none` or a negative count)".into(),
                        None,
                    );
                }
                let have = self.zone_count(z1, p1, k);
                if !self.zone_take(z1, p1, k, n) || !self.zone_add(z2, p2, k, n, s.span)? {
                    return self.why(
                        s.span,
                        |x| {
                            format!(
                                "{} holds {have} {}, {n} needed",
                                x.show(fv),
                                x.g.kinds[k as usize].name
                            )
                        },
                        None,
                    );
                }
                self.note(s.span, |x| {
                    format!(
                        "move {n} {} from {} to {}",
                        x.g.kinds[k as usize].name,
                        x.show(fv),
                        x.show(tv)
                    )
                });
            }
            StmtKind::Shuffle(zone) => {
                let zv = self.eval(zone)?;
                let Value::Zone(z, p) = zv else { return Err(bug(s.span)) };
                if p == NONE8 || !self.g.zones[z as usize].ordered {
                    return fail;
                }
                let i = self.g.sequence(z, p);
                let mut rng = crate::rng::Rng::new(self.st.rng);
                let seq = &mut self.st.seqs[i];
                for j in (1..seq.len()).rev() {
                    let r = rng.below(j + 1);
                    seq.swap(j, r);
                }
                self.st.rng = rng.next_u64();
                self.note(s.span, |x| format!("shuffle {}", x.show(zv)));
            }
            StmtKind::Block(binds, body) => {
                for (slot, e) in binds {
                    self.frame.slots[*slot as usize] = self.eval(e)?;
                }
                flow!(self.block(body)?);
            }
        }
        Ok(Flow::Next)
    }

    /// `compare`: each player's keys, compared in order (lists element by
    /// element, a missing element counting 0); the best player wins, a tie
    /// of everybody is a draw, a tie of some is a shared win.
    fn compare(
        &mut self,
        slot: Slot,
        domain: &Expr,
        keys: &[Key],
        share: bool,
    ) -> Res<(Outcome, Option<u8>)> {
        let d = self.eval(domain)?;
        let mut scored: Vec<(u8, Vec<Vec<i64>>)> = Vec::new();
        let mut i = 0;
        while let Some((v, n)) = self.next_elem(d, i) {
            i = n;
            let Value::Player(p) = v else { return Err(bug(Span::default())) };
            self.frame.slots[slot as usize] = v;
            let mut ks = Vec::new();
            for k in keys {
                match k {
                    Key::Value(e) => ks.push(vec![self.int(e)?]),
                    Key::Descending { slot, domain, filter, body } => {
                        let d = self.eval(domain)?;
                        let mut vals = Vec::new();
                        let mut j = 0;
                        while let Some((v, n)) = self.next_elem(d, j) {
                            j = n;
                            self.frame.slots[*slot as usize] = v;
                            if let Some(f) = filter {
                                if !self.truth(f)? {
                                    continue;
                                }
                            }
                            vals.push(self.int(body)?);
                        }
                        vals.sort_unstable_by(|a, b| b.cmp(a));
                        ks.push(vals);
                    }
                }
            }
            scored.push((p, ks));
        }
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
            return Ok((Outcome::Draw, None));
        };
        let top = |n: usize| -> Vec<u8> {
            let best = &best[..n];
            scored.iter().filter(|s| cmp(&s.1[..n], best).is_eq()).map(|s| s.0).collect()
        };
        let winners = top(keys.len());
        // The first key after which the best players are already the final ones.
        let decided_by = (winners.len() < scored.len())
            .then(|| (1..=keys.len()).find(|&n| top(n) == winners).map(|n| (n - 1) as u8))
            .flatten();
        let outcome = match winners.as_slice() {
            [w] => Outcome::Win(*w),
            _ if winners.len() == scored.len() && !share => Outcome::Draw,
            _ => Outcome::Shared(winners.iter().fold(0, |m, w| m | (1 << w))),
        };
        Ok((outcome, decided_by))
    }

    fn zone_count(&self, z: u16, p: u8, k: u16) -> i64 {
        if self.g.zones[z as usize].ordered {
            self.st.seqs[self.g.sequence(z, p)].iter().filter(|&&x| x == k).count() as i64
        } else {
            i64::from(self.st.data[self.g.board.len() + self.g.counter(z, p, k)])
        }
    }

    fn zone_total(&self, z: u16, p: u8) -> i64 {
        if self.g.zones[z as usize].ordered {
            self.st.seqs[self.g.sequence(z, p)].len() as i64
        } else {
            (0..self.g.kinds.len() as u16).map(|k| self.zone_count(z, p, k)).sum()
        }
    }

    /// Adds `n` pieces of kind `k` (at the end of an ordered zone).
    fn zone_add(&mut self, z: u16, p: u8, k: u16, n: i64, span: Span) -> Res<bool> {
        if self.zone_total(z, p) + n > i64::from(u16::MAX) {
            return Err(Box::new(RunError {
                message: "a zone would hold more than 65535 pieces".into(),
                span,
            }));
        }
        if self.g.zones[z as usize].ordered {
            let i = self.g.sequence(z, p);
            self.st.seqs[i].extend(std::iter::repeat_n(k, n as usize));
        } else {
            let i = self.g.board.len() + self.g.counter(z, p, k);
            self.st.data[i] += n as u16;
        }
        Ok(true)
    }

    /// Takes `n` pieces of kind `k` (the first ones of an ordered zone);
    /// false if there are not enough.
    fn zone_take(&mut self, z: u16, p: u8, k: u16, n: i64) -> bool {
        if self.zone_count(z, p, k) < n {
            return false;
        }
        if self.g.zones[z as usize].ordered {
            let i = self.g.sequence(z, p);
            let mut left = n;
            self.st.seqs[i].retain(|&x| {
                if x == k && left > 0 {
                    left -= 1;
                    false
                } else {
                    true
                }
            });
        } else {
            let i = self.g.board.len() + self.g.counter(z, p, k);
            self.st.data[i] -= n as u16;
        }
        true
    }

    /// Records a step of the path (only when explaining).
    fn note(&mut self, span: Span, text: impl FnOnce(&Self) -> String) {
        if self.explain.is_some() {
            let t = text(self);
            if let Some(x) = self.explain.as_mut() {
                x.trace.push(Step { span, text: t });
            }
        }
    }

    /// Fails this run, recording why when explaining.
    fn why(
        &mut self,
        span: Span,
        message: impl FnOnce(&Self) -> String,
        cond: Option<&Expr>,
    ) -> Res<Flow> {
        if self.explain.is_some() {
            let message = message(self);
            let mut values = Vec::new();
            if let Some(c) = cond {
                self.values_of(c, 0, &mut values)?;
            }
            if let Some(x) = self.explain.as_mut() {
                x.failure = Some(Why { span, message, values });
            }
        }
        Ok(Flow::Fail(span))
    }

    /// The values of the parts of a condition that decide it, for labels.
    pub fn values_of(&mut self, e: &Expr, depth: usize, out: &mut Vec<(Span, String)>) -> Res<()> {
        let label = |this: &mut Self, e: &Expr, out: &mut Vec<(Span, String)>| -> Res<()> {
            let sp = e.span();
            if sp != Span::default() && !out.iter().any(|(s, _)| *s == sp) {
                let v = this.eval(e)?;
                out.push((sp, format!("= {}", this.show(v))));
            }
            Ok(())
        };
        match e {
            Expr::Binary(BinOp::And | BinOp::Or, a, b, _) if depth < 3 => {
                self.values_of(a, depth + 1, out)?;
                self.values_of(b, depth + 1, out)?;
            }
            Expr::Unary(UnOp::Not, a) if depth < 3 => self.values_of(a, depth + 1, out)?,
            Expr::Binary(_, a, b, _) => {
                label(self, a, out)?;
                label(self, b, out)?;
                if a.span() == Span::default() && b.span() == Span::default() {
                    label(self, e, out)?;
                }
            }
            Expr::Quant { quant, slot, domain, filter, body, span, .. }
                if depth < 3 && matches!(quant, Quant::All | Quant::None | Quant::Any) =>
            {
                let v = self.eval(e)?;
                let mut text = format!("= {}", self.show(v));
                // For a failed `all` / `none`, name the first element to blame.
                if matches!(
                    (quant, v),
                    (Quant::All, Value::Bool(false)) | (Quant::None, Value::Bool(false))
                ) {
                    let d = self.eval(domain)?;
                    let mut i = 0;
                    while let Some((x, n)) = self.next_elem(d, i) {
                        i = n;
                        self.frame.slots[*slot as usize] = x;
                        if let Some(f) = filter {
                            if !self.truth(f)? {
                                continue;
                            }
                        }
                        let t = match body {
                            Some(b) => self.truth(b)?,
                            None => true,
                        };
                        if t == (*quant == Quant::None) {
                            text = format!("{text}, because of {}", self.show(x));
                            break;
                        }
                    }
                }
                out.push((*span, text));
            }
            _ => label(self, e, out)?,
        }
        Ok(())
    }

    /// A value as notation.
    fn show(&self, v: Value) -> String {
        super::notation::value_text(self.g, v)
    }

    fn piece_text(&self, c: CellId) -> String {
        match self.piece(c) {
            Some((p, k)) => {
                format!("{} of {}", self.g.kinds[k as usize].name, self.g.players[p as usize])
            }
            None => "nothing".into(),
        }
    }

    #[inline]
    fn code(&self, p: u8, k: u16) -> u16 {
        1 + p as u16 * self.g.kinds.len() as u16 + k
    }

    /// The element of a domain at cursor `i` or later, and the next cursor.
    fn next_elem(&mut self, d: Value, i: usize) -> Option<(Value, usize)> {
        match d {
            Value::Cells(set) => next_cell(&set, i).map(|c| (Value::Cell(c), c as usize + 1)),
            Value::Line(l) => {
                let cells = &self.g.board.lines[l as usize].cells;
                cells.get(i).map(|&c| (Value::Cell(c), i + 1))
            }
            Value::Dirs => (i < self.g.board.dirs()).then(|| (Value::Dir(i as u8), i + 1)),
            Value::Kinds => (i < self.g.kinds.len()).then(|| (Value::Kind(i as u16), i + 1)),
            Value::Players => (i < self.g.players.len()).then(|| (Value::Player(i as u8), i + 1)),
            Value::Lines(a, b) => {
                let l = a as usize + i;
                (l < b as usize).then(|| (Value::Line(l as u32), i + 1))
            }
            Value::Groups(p) => {
                self.fresh_groups(p);
                self.frame.groups[p as usize].1.get(i).map(|g| (Value::Cells(*g), i + 1))
            }
            Value::Placements(k) => self
                .g
                .placements
                .get(k as usize)
                .and_then(|ps| ps.get(i))
                .map(|s| (Value::Cells(*s), i + 1)),
            Value::Range(a, b) => {
                let x = a.checked_add(i as i64)?;
                (x <= b).then_some((Value::Int(x), i + 1))
            }
            Value::Zone(z, p) if p != NONE8 && self.g.zones[z as usize].ordered => {
                let seq = &self.st.seqs[self.g.sequence(z, p)];
                seq.get(i).map(|&k| (Value::Kind(k), i + 1))
            }
            Value::Zone(_, NONE8) => None,
            Value::Zone(z, p) => (i..self.g.kinds.len())
                .find(|&k| self.st.data[self.g.board.len() + self.g.counter(z, p, k as u16)] > 0)
                .map(|k| (Value::Kind(k as u16), k + 1)),
            _ => None,
        }
    }

    /// A condition. The common forms are decided here directly, without
    /// building `Value`s: this is the hot path of move generation.
    fn truth(&mut self, e: &Expr) -> Res<bool> {
        match e {
            Expr::Binary(op, a, b, span) => match op {
                BinOp::And => Ok(self.truth(a)? && self.truth(b)?),
                BinOp::Or => Ok(self.truth(a)? || self.truth(b)?),
                BinOp::Eq => Ok(self.small(a)? == self.small(b)?),
                BinOp::Ne => Ok(self.small(a)? != self.small(b)?),
                BinOp::Lt => Ok(self.int(a)? < self.int(b)?),
                BinOp::Le => Ok(self.int(a)? <= self.int(b)?),
                BinOp::Gt => Ok(self.int(a)? > self.int(b)?),
                BinOp::Ge => Ok(self.int(a)? >= self.int(b)?),
                _ => Err(bug(*span)),
            },
            Expr::Unary(UnOp::Not, a) => Ok(!self.truth(a)?),
            Expr::Const(Value::Bool(b)) => Ok(*b),
            Expr::LineQuant(lq, _) => self.line_quant(lq),
            Expr::Builtin(Builtin::Empty, args, _) => {
                let c = self.cell(&args[0])?;
                Ok(c != NO_CELL && self.st.data[c as usize] == 0)
            }
            Expr::Builtin(Builtin::Occupied, args, _) => {
                let c = self.cell(&args[0])?;
                Ok(c != NO_CELL && self.st.data[c as usize] != 0)
            }
            Expr::Builtin(Builtin::Off, args, _) => Ok(self.cell(&args[0])? == NO_CELL),
            Expr::Inline(binds, body, _) => {
                for (slot, e) in binds.iter() {
                    self.frame.slots[*slot as usize] = self.small(e)?;
                }
                self.truth(body)
            }
            Expr::Quant {
                quant: q @ (Quant::Any | Quant::All | Quant::None),
                slot,
                domain,
                filter,
                body,
                pred,
                ..
            } => self.decide(*q, *slot, domain, filter.as_deref(), body.as_deref(), *pred),
            _ => match self.eval(e)? {
                Value::Bool(b) => Ok(b),
                _ => Err(bug(Span::default())),
            },
        }
    }

    /// `Q l in lines(k): Q' c in l: P(c)` with bit sets: `P` is asked once
    /// per cell of the lines looked at, while the position is unchanged.
    fn line_quant(&mut self, lq: &LineQuant) -> Res<bool> {
        let g = self.g;
        let epoch = self.frame.epoch;
        let p = lq.pred as usize;
        if self.frame.preds[p].epoch != epoch {
            self.frame.preds[p] = PredCache { epoch, ..PredCache::default() };
        }
        for l in lq.lines.0..lq.lines.1 {
            let set = g.board.lines[l as usize].set;
            let known = self.frame.preds[p].known;
            for c in minus(set, known).iter() {
                self.frame.slots[lq.cell as usize] = Value::Cell(c);
                let t = self.truth(&lq.body)?;
                let cache = &mut self.frame.preds[p];
                cache.known.insert(c);
                if t {
                    cache.yes.insert(c);
                }
            }
            let yes = self.frame.preds[p].yes;
            let inner = match lq.inner {
                Quant::All => minus(set, yes).is_empty(),
                Quant::Any => !minus(set, minus(set, yes)).is_empty(),
                _ => minus(set, minus(set, yes)).is_empty(),
            };
            match lq.outer {
                Quant::Any if inner => return Ok(true),
                Quant::All if !inner => return Ok(false),
                Quant::None if inner => return Ok(false),
                _ => {}
            }
        }
        Ok(lq.outer != Quant::Any)
    }

    /// `any` / `all` / `none`, stopping at the first element that decides.
    fn decide(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        pred: Option<u16>,
    ) -> Res<bool> {
        let g = self.g;
        let d = self.eval(domain)?;
        if let Some(p) = pred {
            let epoch = self.frame.epoch;
            let cache = &mut self.frame.preds[p as usize];
            if cache.epoch != epoch {
                *cache = PredCache { epoch, ..PredCache::default() };
            }
            // A set of cells: ask the predicate for the cells not known yet,
            // then answer with set operations.
            let set = match d {
                Value::Cells(set) => Some(set),
                Value::Line(l) => Some(g.board.lines[l as usize].set),
                _ => None,
            };
            if let (Some(set), Some(body), None) = (set, body, filter) {
                let known = self.frame.preds[p as usize].known;
                for c in minus(set, known).iter() {
                    self.frame.slots[slot as usize] = Value::Cell(c);
                    let t = self.truth(body)?;
                    let cache = &mut self.frame.preds[p as usize];
                    cache.known.insert(c);
                    if t {
                        cache.yes.insert(c);
                    }
                }
                let yes = self.frame.preds[p as usize].yes;
                let hits = minus(set, minus(set, yes));
                return Ok(match q {
                    Quant::All => hits == set,
                    Quant::Any => !hits.is_empty(),
                    _ => hits.is_empty(),
                });
            }
        }
        // Returns Some(answer) when this element decides the quantifier.
        let step = |this: &mut Self, v: Value| -> Res<Option<bool>> {
            // A cached cell predicate: each cell is asked once per position.
            let cached = match (pred, v) {
                (Some(p), Value::Cell(c)) => {
                    let cache = &this.frame.preds[p as usize];
                    cache.known.contains(c).then(|| cache.yes.contains(c))
                }
                _ => None,
            };
            let t = match cached {
                Some(t) => t,
                None => {
                    this.frame.slots[slot as usize] = v;
                    if let Some(f) = filter {
                        if !this.truth(f)? {
                            return Ok(None);
                        }
                    }
                    let t = match body {
                        Some(b) => this.truth(b)?,
                        None => true,
                    };
                    if let (Some(p), Value::Cell(c)) = (pred, v) {
                        let cache = &mut this.frame.preds[p as usize];
                        cache.known.insert(c);
                        if t {
                            cache.yes.insert(c);
                        }
                    }
                    t
                }
            };
            Ok(match q {
                Quant::Any if t => Some(true),
                Quant::All if !t => Some(false),
                Quant::None if t => Some(false),
                _ => None,
            })
        };
        match d {
            Value::Line(l) => {
                for &c in &g.board.lines[l as usize].cells {
                    if let Some(r) = step(self, Value::Cell(c))? {
                        return Ok(r);
                    }
                }
            }
            Value::Lines(a, b) => {
                for l in a..b {
                    if let Some(r) = step(self, Value::Line(l))? {
                        return Ok(r);
                    }
                }
            }
            _ => {
                let mut i = 0;
                while let Some((v, n)) = self.next_elem(d, i) {
                    i = n;
                    if let Some(r) = step(self, v)? {
                        return Ok(r);
                    }
                }
            }
        }
        Ok(q != Quant::Any)
    }

    /// A value of a small type (cell, player, kind, number, ...), with fast
    /// paths for the forms that comparisons use most.
    fn small(&mut self, e: &Expr) -> Res<Value> {
        match e {
            Expr::Local(s, _) => Ok(self.frame.slots[*s as usize]),
            Expr::Const(v) => Ok(*v),
            Expr::Me => Ok(Value::Player(self.st.current)),
            Expr::Builtin(Builtin::Owner, args, _) => {
                let c = self.cell(&args[0])?;
                Ok(Value::Player(self.piece(c).map_or(NONE8, |p| p.0)))
            }
            Expr::Builtin(Builtin::KindOf, args, _) => {
                let c = self.cell(&args[0])?;
                Ok(Value::Kind(self.piece(c).map_or(NONE16, |p| p.1)))
            }
            Expr::Builtin(Builtin::Step, _, _) => Ok(Value::Cell(self.cell(e)?)),
            _ => self.eval(e),
        }
    }

    fn int(&mut self, e: &Expr) -> Res<i64> {
        match e {
            Expr::Const(Value::Int(n)) => Ok(*n),
            Expr::Local(s, _) => match self.frame.slots[*s as usize] {
                Value::Int(n) => Ok(n),
                _ => Err(bug(Span::default())),
            },
            Expr::Prop(p, k, _) => match self.small(k)? {
                Value::Kind(NONE16) => Ok(0),
                Value::Kind(k) => Ok(self.g.kinds[k as usize].props[*p as usize]),
                _ => Err(bug(Span::default())),
            },
            _ => match self.eval(e)? {
                Value::Int(n) => Ok(n),
                _ => Err(bug(Span::default())),
            },
        }
    }

    fn cell(&mut self, e: &Expr) -> Res<CellId> {
        match e {
            Expr::Local(s, _) => match self.frame.slots[*s as usize] {
                Value::Cell(c) => Ok(c),
                _ => Err(bug(Span::default())),
            },
            Expr::Builtin(Builtin::Step, args, _) => {
                let c = self.cell(&args[0])?;
                let Value::Dir(d) = self.small(&args[1])? else {
                    return Err(bug(Span::default()));
                };
                Ok(self.g.board.step(c, d as usize))
            }
            _ => match self.eval(e)? {
                Value::Cell(c) => Ok(c),
                _ => Err(bug(Span::default())),
            },
        }
    }

    fn cells(&mut self, e: &Expr) -> Res<CellSet> {
        match self.eval(e)? {
            Value::Cells(s) => Ok(s),
            _ => Err(bug(Span::default())),
        }
    }

    /// Makes sure the cached list of `p`'s groups (by first cell) is current.
    fn fresh_groups(&mut self, p: u8) {
        let epoch = self.frame.epoch;
        if self.frame.groups[p as usize].0 == epoch {
            return;
        }
        let mut list = std::mem::take(&mut self.frame.groups[p as usize].1);
        list.clear();
        let mut seen = CellSet::EMPTY;
        for c in 0..self.g.board.len() as CellId {
            if !seen.contains(c) && self.piece(c).is_some_and(|x| x.0 == p) {
                let g = self.group_of(c);
                seen = union(seen, g);
                list.push(g);
            }
        }
        self.frame.groups[p as usize] = (epoch, list);
    }

    /// The connected group of same-owner pieces containing `c` (empty if none).
    fn group_of(&self, c: CellId) -> CellSet {
        let mut set = CellSet::EMPTY;
        let Some((owner, _)) = self.piece(c) else { return set };
        let board = &self.g.board;
        // Every cell enters the stack at most once: a board-sized array does.
        let mut stack = [0 as CellId; crate::board::MAX_CELLS];
        let mut top = 1;
        stack[0] = c;
        set.insert(c);
        while top > 0 {
            top -= 1;
            let x = stack[top];
            for d in 0..board.dirs() {
                let y = board.step(x, d);
                if y != NO_CELL && !set.contains(y) && self.piece(y).is_some_and(|p| p.0 == owner) {
                    set.insert(y);
                    stack[top] = y;
                    top += 1;
                }
            }
        }
        set
    }

    fn kind(&mut self, e: &Expr) -> Res<u16> {
        match self.eval(e)? {
            Value::Kind(k) => Ok(k),
            _ => Err(bug(Span::default())),
        }
    }

    fn player(&mut self, e: &Expr, span: Span) -> Res<u8> {
        match self.eval(e)? {
            Value::Player(p) if p != NONE8 => Ok(p),
            Value::Player(_) => {
                Err(Box::new(RunError { message: "this player is `none`".into(), span }))
            }
            _ => Err(bug(span)),
        }
    }

    #[inline]
    fn piece(&self, c: CellId) -> Option<(u8, u16)> {
        if c == NO_CELL {
            return None;
        }
        match self.st.data[c as usize] {
            0 => None,
            v => self.g.piece_codes.get(v as usize).copied(),
        }
    }

    fn eval(&mut self, e: &Expr) -> Res<Value> {
        Ok(match e {
            Expr::LineQuant(lq, _) => Value::Bool(self.line_quant(lq)?),
            Expr::Const(v) => *v,
            Expr::Local(s, _) => self.frame.slots[*s as usize],
            Expr::Me => Value::Player(self.st.current),
            Expr::Unary(UnOp::Not, a) => Value::Bool(!self.truth(a)?),
            Expr::Unary(UnOp::Neg, a) => Value::Int(self.int(a)?.wrapping_neg()),
            Expr::Binary(op, a, b, span) => self.binary(*op, a, b, *span)?,
            Expr::Builtin(f, args, _) => self.builtin(*f, args)?,
            Expr::Prop(p, k, _) => match self.kind(k)? {
                NONE16 => Value::Int(0),
                k => Value::Int(self.g.kinds[k as usize].props[*p as usize]),
            },
            Expr::Zone(z, p) => match p {
                None => Value::Zone(*z, 0),
                Some(p) => match self.eval(p)? {
                    Value::Player(p) => Value::Zone(*z, p),
                    _ => return Err(bug(Span::default())),
                },
            },
            Expr::Lines(a, b) => Value::Lines(*a, *b),
            Expr::Inline(binds, body, _) => {
                for (slot, e) in binds.iter() {
                    self.frame.slots[*slot as usize] = self.eval(e)?;
                }
                self.eval(body)?
            }
            Expr::Quant { quant, slot, domain, filter, body, .. } => {
                let d = self.eval(domain)?;
                let mut i = 0;
                let mut acc: i64 = 0;
                let mut set = CellSet::EMPTY;
                let mut seen = false;
                while let Some((v, n)) = self.next_elem(d, i) {
                    i = n;
                    self.frame.slots[*slot as usize] = v;
                    if let Some(f) = filter {
                        if !self.truth(f)? {
                            continue;
                        }
                    }
                    match quant {
                        Quant::Any | Quant::All | Quant::None | Quant::Count => {
                            let t = match body {
                                Some(b) => self.truth(b)?,
                                None => true,
                            };
                            match quant {
                                Quant::Any if t => return Ok(Value::Bool(true)),
                                Quant::All if !t => return Ok(Value::Bool(false)),
                                Quant::None if t => return Ok(Value::Bool(false)),
                                Quant::Count if t => acc += 1,
                                _ => {}
                            }
                        }
                        Quant::Collect => {
                            if let Some(b) = body {
                                set = union(set, self.cells(b)?);
                            }
                        }
                        Quant::Sum | Quant::Max | Quant::Min => {
                            let x = match body {
                                Some(b) => self.int(b)?,
                                None => 0,
                            };
                            acc = match quant {
                                Quant::Sum => acc.wrapping_add(x),
                                Quant::Max if seen => acc.max(x),
                                Quant::Min if seen => acc.min(x),
                                _ => x,
                            };
                            seen = true;
                        }
                    }
                }
                match quant {
                    Quant::Any => Value::Bool(false),
                    Quant::All | Quant::None => Value::Bool(true),
                    Quant::Collect => Value::Cells(set),
                    _ => Value::Int(acc),
                }
            }
        })
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Res<Value> {
        Ok(match op {
            BinOp::And => Value::Bool(self.truth(a)? && self.truth(b)?),
            BinOp::Or => Value::Bool(self.truth(a)? || self.truth(b)?),
            BinOp::Eq => Value::Bool(self.eval(a)? == self.eval(b)?),
            BinOp::Ne => Value::Bool(self.eval(a)? != self.eval(b)?),
            _ => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                match op {
                    BinOp::Lt => Value::Bool(x < y),
                    BinOp::Le => Value::Bool(x <= y),
                    BinOp::Gt => Value::Bool(x > y),
                    BinOp::Ge => Value::Bool(x >= y),
                    BinOp::Add => Value::Int(x.wrapping_add(y)),
                    BinOp::Sub => Value::Int(x.wrapping_sub(y)),
                    BinOp::Mul => Value::Int(x.wrapping_mul(y)),
                    BinOp::Div | BinOp::Rem => {
                        if y == 0 {
                            return Err(Box::new(RunError {
                                message: "division by zero".into(),
                                span,
                            }));
                        }
                        Value::Int(if op == BinOp::Div {
                            x.wrapping_div(y)
                        } else {
                            x.wrapping_rem(y)
                        })
                    }
                    _ => return Err(bug(span)),
                }
            }
        })
    }

    fn builtin(&mut self, f: Builtin, args: &[Expr]) -> Res<Value> {
        let g = self.g;
        Ok(match f {
            Builtin::Empty => {
                let c = self.cell(&args[0])?;
                Value::Bool(c != NO_CELL && self.st.data[c as usize] == 0)
            }
            Builtin::Occupied => {
                let c = self.cell(&args[0])?;
                Value::Bool(c != NO_CELL && self.st.data[c as usize] != 0)
            }
            Builtin::Off => Value::Bool(self.cell(&args[0])? == NO_CELL),
            Builtin::Owner => {
                let c = self.cell(&args[0])?;
                Value::Player(self.piece(c).map_or(NONE8, |p| p.0))
            }
            Builtin::KindOf => {
                let c = self.cell(&args[0])?;
                Value::Kind(self.piece(c).map_or(NONE16, |p| p.1))
            }
            Builtin::Step => {
                let c = self.cell(&args[0])?;
                let Value::Dir(d) = self.eval(&args[1])? else { return Err(bug(Span::default())) };
                Value::Cell(g.board.step(c, d as usize))
            }
            Builtin::Neighbours => {
                let c = self.cell(&args[0])?;
                Value::Cells(if c == NO_CELL { CellSet::EMPTY } else { g.board.neighbours(c) })
            }
            Builtin::Pieces => {
                let Value::Player(p) = self.eval(&args[0])? else {
                    return Err(bug(Span::default()));
                };
                let mut s = CellSet::EMPTY;
                for c in 0..g.board.len() as CellId {
                    if self.piece(c).is_some_and(|x| x.0 == p) {
                        s.insert(c);
                    }
                }
                Value::Cells(s)
            }
            Builtin::CountKind | Builtin::CountAll => {
                let Value::Zone(z, p) = self.eval(&args[0])? else {
                    return Err(bug(Span::default()));
                };
                if p == NONE8 {
                    return Ok(Value::Int(0));
                }
                if f == Builtin::CountKind {
                    let k = self.kind(&args[1])?;
                    if k == NONE16 {
                        return Ok(Value::Int(0));
                    }
                    Value::Int(self.zone_count(z, p, k))
                } else {
                    Value::Int(self.zone_total(z, p))
                }
            }
            Builtin::First | Builtin::Last => {
                let Value::Zone(z, p) = self.eval(&args[0])? else {
                    return Err(bug(Span::default()));
                };
                if p == NONE8 || !g.zones[z as usize].ordered {
                    return Ok(Value::Kind(NONE16));
                }
                let seq = &self.st.seqs[g.sequence(z, p)];
                let k = if f == Builtin::First { seq.first() } else { seq.last() };
                Value::Kind(k.copied().unwrap_or(NONE16))
            }
            Builtin::Range => Value::Range(self.int(&args[0])?, self.int(&args[1])?),
            Builtin::Size => match self.eval(&args[0])? {
                Value::Cells(s) => Value::Int(s.len() as i64),
                Value::Line(l) => Value::Int(g.board.lines[l as usize].cells.len() as i64),
                _ => return Err(bug(Span::default())),
            },
            Builtin::Contains => {
                let s = self.eval(&args[0])?;
                let c = self.cell(&args[1])?;
                Value::Bool(match s {
                    Value::Cells(s) => s.contains(c),
                    Value::Line(l) => g.board.lines[l as usize].set.contains(c),
                    _ => return Err(bug(Span::default())),
                })
            }
            Builtin::Next => {
                let Value::Player(p) = self.eval(&args[0])? else {
                    return Err(bug(Span::default()));
                };
                if p == NONE8 {
                    Value::Player(NONE8)
                } else {
                    Value::Player(((p as usize + 1) % g.players.len()) as u8)
                }
            }
            Builtin::Min => Value::Int(self.int(&args[0])?.min(self.int(&args[1])?)),
            Builtin::Max => Value::Int(self.int(&args[0])?.max(self.int(&args[1])?)),
            Builtin::Abs => Value::Int(self.int(&args[0])?.wrapping_abs()),
            Builtin::AllCells => Value::Cells(g.board.all()),
            Builtin::NeighboursOf => {
                let a = self.cells(&args[0])?;
                let mut out = CellSet::EMPTY;
                for c in a.iter() {
                    out = union(out, g.board.neighbours(c));
                }
                Value::Cells(minus(out, a))
            }
            Builtin::Singleton => {
                let c = self.cell(&args[0])?;
                let mut s = CellSet::EMPTY;
                if c != NO_CELL {
                    s.insert(c);
                }
                Value::Cells(s)
            }
            Builtin::LineCells => match self.eval(&args[0])? {
                Value::Line(l) => Value::Cells(g.board.lines[l as usize].set),
                _ => return Err(bug(Span::default())),
            },
            Builtin::Group => {
                let c = self.cell(&args[0])?;
                Value::Cells(self.group_of(c))
            }
            Builtin::Groups => match self.eval(&args[0])? {
                Value::Player(p) => Value::Groups(p),
                _ => return Err(bug(Span::default())),
            },
            Builtin::Touches => {
                let a = self.cells(&args[0])?;
                let b = self.cells(&args[1])?;
                let hit =
                    a.iter().any(|c| (0..g.board.dirs()).any(|d| b.contains(g.board.step(c, d))));
                Value::Bool(hit)
            }
            Builtin::SameShape => {
                let a = self.cells(&args[0])?;
                let b = self.cells(&args[1])?;
                Value::Bool(g.board.same_shape(&a, &b))
            }
            Builtin::Union => Value::Cells(union(self.cells(&args[0])?, self.cells(&args[1])?)),
            Builtin::Intersect => {
                let a = self.cells(&args[0])?;
                let b = self.cells(&args[1])?;
                Value::Cells(minus(a, minus(a, b)))
            }
            Builtin::Minus => Value::Cells(minus(self.cells(&args[0])?, self.cells(&args[1])?)),
            Builtin::File | Builtin::Rank => {
                let c = self.cell(&args[0])?;
                if c == NO_CELL {
                    return Ok(Value::Int(0));
                }
                let (file, rank) = g.board.file_rank(c);
                Value::Int(if f == Builtin::File { file } else { rank })
            }
            Builtin::Placements => Value::Placements(self.kind(&args[0])?),
            Builtin::CellAt => {
                let (file, rank) = (self.int(&args[0])?, self.int(&args[1])?);
                Value::Cell(g.board.cell_at(file, rank))
            }
            Builtin::Ply => Value::Int(i64::from(self.st.ply)),
        })
    }
}

fn union(a: CellSet, b: CellSet) -> CellSet {
    CellSet([a.0[0] | b.0[0], a.0[1] | b.0[1], a.0[2] | b.0[2], a.0[3] | b.0[3]])
}

fn minus(a: CellSet, b: CellSet) -> CellSet {
    CellSet([a.0[0] & !b.0[0], a.0[1] & !b.0[1], a.0[2] & !b.0[2], a.0[3] & !b.0[3]])
}

fn next_cell(s: &CellSet, from: usize) -> Option<CellId> {
    let mut w = from / 64;
    if w >= 4 {
        return None;
    }
    let mut bits = s.0[w] & (u64::MAX << (from % 64));
    loop {
        if bits != 0 {
            return Some((w * 64 + bits.trailing_zeros() as usize) as CellId);
        }
        w += 1;
        if w >= 4 {
            return None;
        }
        bits = s.0[w];
    }
}

#[cold]
fn runaway(span: Span) -> Box<RunError> {
    Box::new(RunError {
        message: format!("this rule ran more than {STEP_LIMIT} steps; is a loop endless?"),
        span,
    })
}

#[cold]
fn bug(span: Span) -> Box<RunError> {
    Box::new(RunError { message: "internal error: a value had an unexpected type".into(), span })
}
