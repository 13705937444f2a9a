//! The tree-walking interpreter for checked statements and expressions.
//!
//! An [`Exec`] runs one block against one state. Choices come from `prefix`
//! (the decisions made so far); at the first `choose` beyond the prefix the
//! run stops with [`Flow::Pause`] after writing the options into `collect`.
//! Every loop iteration costs a step; a run that exceeds the game's
//! step limit (`ir::Game::limits`, [`crate::state::STEP_LIMIT`] unless set)
//! stops with an error naming the loop.

use crate::board::{CellId, CellSet, NO_CELL};
use crate::ir::{Expr, Game, Stmt, StmtKind, Value, NONE16, NONE8};
use crate::source::Span;
use crate::state::{Choice, Outcome, RunError, State};

/// The interpreter's results ([`RunError`] is one pointer wide).
type Res<T> = Result<T, RunError>;

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
    /// At a chance event the run stopped at: each collected option's weight.
    pub weights: Vec<u32>,
    /// Set when explaining a move: records the path and the failure.
    pub explain: Option<&'s mut Explain>,
    steps: u32,
}

/// The reusable memory of runs: local slots and the groups cache.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Local variables.
    pub slots: Vec<Value>,
    /// Each player's groups, valid while the epoch is unchanged.
    groups: Vec<(u32, Vec<CellSet>)>,
    /// Changes whenever the position may have changed.
    epoch: u32,
}

impl Frame {
    /// A frame for the game's locals and predicates.
    pub fn new(g: &Game) -> Frame {
        Frame {
            slots: vec![Value::Int(0); g.slots],
            groups: vec![(0, Vec::new()); g.players.len()],
            epoch: 0,
        }
    }
}

mod expr;
mod why;
mod zones;

pub use why::{Explain, Step, Why};

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
        Exec {
            g,
            st,
            frame,
            prefix,
            pos: 0,
            collect: None,
            weights: Vec::new(),
            explain: None,
            steps: 0,
        }
    }

    /// Counts a loop iteration; only loops can run away (there is no
    /// recursion), so the error always names the loop.
    #[inline]
    pub(super) fn tick(&mut self, span: Span) -> Res<()> {
        self.steps += 1;
        if self.steps > self.g.limits.steps {
            return Err(runaway(self.g.limits.steps, span));
        }
        Ok(())
    }

    /// Evaluates one expression (an entry point).
    pub fn eval_expr(&mut self, e: &Expr) -> Result<Value, RunError> {
        self.eval(e)
    }

    /// Runs a block (the entry point).
    pub fn run(&mut self, stmts: &[Stmt]) -> Result<Flow, RunError> {
        self.block(stmts)
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
                | StmtKind::Change { .. }
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
                self.frame.slots[*slot as usize] = self.small(e)?;
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
                    self.tick(s.span)?;
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
            StmtKind::While { pre, cond, body } => loop {
                flow!(self.block(pre)?);
                if !self.truth(cond)? {
                    break;
                }
                self.tick(s.span)?;
                flow!(self.block(body)?);
            },
            StmtKind::Random { site, slot, domain, filter } => {
                if let Some(c) = self.prefix.get(self.pos) {
                    self.pos += 1;
                    if c.site != *site {
                        return fail;
                    }
                    self.frame.slots[*slot as usize] = c.value;
                    if let Some(f) = filter {
                        if !self.truth(f)? {
                            return fail;
                        }
                    }
                    let v = c.value;
                    self.note(s.span, |x| {
                        format!("random {} = {}", x.g.sites[*site as usize].var, x.show(v))
                    });
                    return Ok(Flow::Next);
                }
                // The distinct elements that pass, each weighted by how
                // often it occurs (a counted zone's pieces count one each).
                let d = self.eval(domain)?;
                let mut opts: Vec<Choice> = Vec::new();
                let mut weights: Vec<u32> = Vec::new();
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
                    let w = match (d, v) {
                        (Value::Zone(z, p), Value::Kind(k))
                            if !self.g.zones[z as usize].ordered =>
                        {
                            self.zone_count(z, p, k) as u32
                        }
                        _ => 1,
                    };
                    match opts.iter().position(|c| c.value == v) {
                        Some(j) => weights[j] += w,
                        None => {
                            opts.push(Choice { site: *site, value: v });
                            weights.push(w);
                        }
                    }
                }
                if let Some(x) = self.explain.as_mut() {
                    x.options = opts.iter().map(|c| (*c, true)).collect();
                    x.site = Some(*site);
                    return Ok(Flow::Pause);
                }
                if opts.is_empty() {
                    return fail;
                }
                self.weights = weights;
                if let Some(c) = self.collect.as_mut() {
                    c.extend(opts);
                }
                return Ok(Flow::Pause);
            }
            StmtKind::Reveal { site, zone, front } => {
                let zv = self.eval(zone)?;
                let Value::Zone(z, p) = zv else { return Err(bug(s.span)) };
                if p == NONE8 || !self.g.zones[z as usize].ordered {
                    return Ok(Flow::Next);
                }
                let i = self.g.sequence(z, p);
                let end = if *front { self.st.seqs[i].first() } else { self.st.seqs[i].last() };
                if end != crate::state::End::Unknown {
                    return Ok(Flow::Next);
                }
                if let Some(c) = self.prefix.get(self.pos) {
                    self.pos += 1;
                    match c.value {
                        Value::Kind(k) if c.site == *site && self.st.seqs[i].reveal(k, *front) => {
                            self.note(s.span, |x| {
                                format!("a face-down piece of {} is revealed", x.show(zv))
                            });
                            return Ok(Flow::Next);
                        }
                        _ => return fail,
                    }
                }
                let (opts, weights): (Vec<Choice>, Vec<u32>) = self.st.seqs[i]
                    .hidden_kinds()
                    .map(|(k, n)| (Choice { site: *site, value: Value::Kind(k) }, u32::from(n)))
                    .unzip();
                if let Some(x) = self.explain.as_mut() {
                    x.options = opts.iter().map(|c| (*c, true)).collect();
                    x.site = Some(*site);
                    return Ok(Flow::Pause);
                }
                self.weights = weights;
                if let Some(c) = self.collect.as_mut() {
                    c.extend(opts);
                }
                return Ok(Flow::Pause);
            }
            StmtKind::If { cond, then, otherwise } => {
                let b = if self.truth(cond)? { then } else { otherwise };
                flow!(self.block(b)?);
            }
            StmtKind::Require(c, message) => {
                if !self.truth(c)? {
                    return self.why_said(
                        s.span,
                        |_| message.clone().unwrap_or_else(|| "this requirement is false".into()),
                        Some(c),
                        message.is_some(),
                    );
                }
            }
            StmtKind::Assign(target, e) => {
                let v = self.eval(e)?;
                match target {
                    crate::ir::Target::Local(slot) => self.frame.slots[*slot as usize] = v,
                    crate::ir::Target::Var(var, p) => {
                        let p = match p {
                            Some(p) => self.player(p, s.span)?,
                            None => 0,
                        };
                        let w = crate::compile::expr::const_word(&v).unwrap_or(0);
                        self.note(s.span, |x| {
                            let d = &x.g.vars[*var as usize];
                            let who = if d.per_player {
                                format!("({})", x.g.players[p as usize])
                            } else {
                                String::new()
                            };
                            format!("{}{who} = {}", d.name, x.show_var(*var, w))
                        });
                        self.st.set_var(self.g, *var, p, w);
                    }
                }
            }
            StmtKind::Change { at, kind, owner } => {
                let c = self.cell(at)?;
                let Some((mut p, mut k)) = self.piece(c) else {
                    return self.why(
                        s.span,
                        |x| format!("there is no piece on {} to change", x.show(Value::Cell(c))),
                        None,
                    );
                };
                let before = |x: &Self| x.piece_text(c);
                let was = before(self);
                if let Some(kind) = kind {
                    k = self.kind(kind)?;
                    if k == NONE16 {
                        return self.why(
                            s.span,
                            |_| "there is no piece kind to change to (`none`)".into(),
                            None,
                        );
                    }
                }
                if let Some(o) = owner {
                    p = self.player(o, s.span)?;
                }
                let code = self.code(p, k);
                self.st.put(self.g, c, code);
                self.note(s.span, |x| {
                    format!("change {was} on {} to {}", x.show(Value::Cell(c)), x.piece_text(c))
                });
            }
            StmtKind::NextTurn(p) => {
                let p = self.player(p, s.span)?;
                self.note(s.span, |x| format!("{} moves next", x.g.players[p as usize]));
                self.st.next = p;
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
                        self.st.put(self.g, c, code);
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
                    self.st.put(self.g, c, code);
                    self.note(s.span, |x| {
                        format!("place {} at {}", what(x), x.show(Value::Cell(c)))
                    });
                }
            }
            StmtKind::Compare { slot, domain, keys, share } => {
                let (outcome, decided_by) = self.compare(*slot, domain, keys, *share, s.span)?;
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
                self.st.put(self.g, c, 0);
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
                self.st.put(self.g, b, pa);
                self.st.put(self.g, a, 0);
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
                    return self.too_few(s.span, zv, have, k, n);
                }
                self.note(s.span, |x| {
                    let verb = if add { "add" } else { "take" };
                    let dir = if add { "to" } else { "from" };
                    format!("{verb} {n} {} {dir} {}", x.kind_seen(k, &[(z, p)]), x.show(zv))
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
                    return self.too_few(s.span, fv, have, k, n);
                }
                self.note(s.span, |x| {
                    format!(
                        "move {n} {} from {} to {}",
                        x.kind_seen(k, &[(z1, p1), (z2, p2)]),
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
                let kinds = self.g.kinds.len();
                self.st.seqs[i].shuffle(kinds);
                self.note(s.span, |x| format!("shuffle {}", x.show(zv)));
            }
            StmtKind::Block(binds, body) => {
                for (slot, e) in binds {
                    self.frame.slots[*slot as usize] = self.small(e)?;
                }
                flow!(self.block(body)?);
            }
        }
        Ok(Flow::Next)
    }
}

pub(super) fn union(a: CellSet, b: CellSet) -> CellSet {
    CellSet([a.0[0] | b.0[0], a.0[1] | b.0[1], a.0[2] | b.0[2], a.0[3] | b.0[3]])
}

pub(super) fn minus(a: CellSet, b: CellSet) -> CellSet {
    CellSet([a.0[0] & !b.0[0], a.0[1] & !b.0[1], a.0[2] & !b.0[2], a.0[3] & !b.0[3]])
}

pub(super) fn next_cell(s: &CellSet, from: usize) -> Option<CellId> {
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
pub(super) fn runaway(limit: u32, span: Span) -> RunError {
    RunError::new(
        format!("this rule ran more than {limit} steps (loop rounds and elements looked at); is a loop endless? (`--max-steps` raises the limit)"),
        span,
    )
}

#[cold]
pub(super) fn bug(span: Span) -> RunError {
    RunError::new("internal error: a value had an unexpected type", span)
}
