//! Evaluating expressions: a plain tree walk, the reference semantics the
//! compiled evaluator (`crate::compile`) is checked against. The typed
//! helpers (`truth`, `int`, `cell`, ...) only avoid building `Value`s.

use super::{bug, minus, next_cell, union, Exec, Res};
use crate::board::{CellId, CellSet, NO_CELL};
use crate::ir::{BinOp, Builtin, Expr, Quant, Slot, UnOp, Value, NONE16, NONE8};
use crate::source::Span;
use crate::state::RunError;

impl Exec<'_, '_> {
    #[inline]
    pub(super) fn code(&self, p: u8, k: u16) -> u16 {
        1 + p as u16 * self.g.kinds.len() as u16 + k
    }

    /// The element of a domain at cursor `i` or later, and the next cursor.
    pub(super) fn next_elem(&mut self, d: Value, i: usize) -> Option<(Value, usize)> {
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
                seq.nth(i).map(|k| (Value::Kind(k), i + 1))
            }
            Value::KindList(l) | Value::PlayerList(l) | Value::DirList(l) | Value::IntList(l) => {
                let ty = d.ty().elem().unwrap_or(crate::ir::Ty::Int);
                let w = *self.g.lists.get(l as usize)?.get(i)?;
                Some((crate::compile::expr::word_value(ty, w), i + 1))
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
    pub(super) fn truth(&mut self, e: &Expr) -> Res<bool> {
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
                span,
            } => self.decide(*q, *slot, domain, filter.as_deref(), body.as_deref(), *span),
            _ => match self.eval(e)? {
                Value::Bool(b) => Ok(b),
                _ => Err(bug(Span::default())),
            },
        }
    }

    /// `any` / `all` / `none`, stopping at the first element that decides.
    pub(super) fn decide(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: Span,
    ) -> Res<bool> {
        let g = self.g;
        let d = self.eval(domain)?;
        // Returns Some(answer) when this element decides the quantifier.
        let step = |this: &mut Self, v: Value| -> Res<Option<bool>> {
            this.tick(span)?;
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
    pub(super) fn small(&mut self, e: &Expr) -> Res<Value> {
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

    pub(super) fn int(&mut self, e: &Expr) -> Res<i64> {
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

    pub(super) fn cell(&mut self, e: &Expr) -> Res<CellId> {
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

    pub(super) fn cells(&mut self, e: &Expr) -> Res<CellSet> {
        match self.eval(e)? {
            Value::Cells(s) => Ok(s),
            _ => Err(bug(Span::default())),
        }
    }

    /// Makes sure the cached list of `p`'s groups (by first cell) is current.
    pub(super) fn fresh_groups(&mut self, p: u8) {
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
    pub(super) fn group_of(&self, c: CellId) -> CellSet {
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
            // Neighbours, not steps: on a graph board a link without a
            // direction name connects too.
            for y in board.neighbours(x).iter() {
                if !set.contains(y) && self.piece(y).is_some_and(|p| p.0 == owner) {
                    set.insert(y);
                    stack[top] = y;
                    top += 1;
                }
            }
        }
        set
    }

    pub(super) fn kind(&mut self, e: &Expr) -> Res<u16> {
        match self.eval(e)? {
            Value::Kind(k) => Ok(k),
            _ => Err(bug(Span::default())),
        }
    }

    pub(super) fn player(&mut self, e: &Expr, span: Span) -> Res<u8> {
        match self.eval(e)? {
            Value::Player(p) if p != NONE8 => Ok(p),
            Value::Player(_) => Err(RunError::new("this player is `none`", span)),
            _ => Err(bug(span)),
        }
    }

    #[inline]
    pub(super) fn piece(&self, c: CellId) -> Option<(u8, u16)> {
        if c == NO_CELL {
            return None;
        }
        match self.st.data[c as usize] {
            0 => None,
            v => self.g.piece_codes.get(v as usize).copied(),
        }
    }

    pub(super) fn eval(&mut self, e: &Expr) -> Res<Value> {
        Ok(match e {
            Expr::Const(v) => *v,
            Expr::Local(s, _) => self.frame.slots[*s as usize],
            Expr::Me => Value::Player(self.st.current),
            Expr::Unary(UnOp::Not, a) => Value::Bool(!self.truth(a)?),
            Expr::Unary(UnOp::Neg, a) => {
                Value::Int(self.int(a)?.checked_neg().ok_or_else(|| overflow(a.span()))?)
            }
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
            Expr::Var(v, ty, p) => {
                let p = match p {
                    Some(p) => match self.eval(p)? {
                        Value::Player(NONE8) => {
                            return Ok(crate::compile::expr::word_value(
                                *ty,
                                crate::compile::expr::none_word(*ty),
                            ))
                        }
                        Value::Player(p) => p,
                        _ => return Err(bug(Span::default())),
                    },
                    None => 0,
                };
                crate::compile::expr::word_value(*ty, self.st.var(self.g, *v, p))
            }
            Expr::Inline(binds, body, _) => {
                for (slot, e) in binds.iter() {
                    self.frame.slots[*slot as usize] = self.eval(e)?;
                }
                self.eval(body)?
            }
            Expr::Quant { quant, slot, domain, filter, body, span } => {
                let d = self.eval(domain)?;
                let mut i = 0;
                let mut acc: i64 = 0;
                let mut set = CellSet::EMPTY;
                let mut seen = false;
                while let Some((v, n)) = self.next_elem(d, i) {
                    i = n;
                    self.tick(*span)?;
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
                                Quant::Sum => acc.checked_add(x).ok_or_else(|| overflow(*span))?,
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

    pub(super) fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Res<Value> {
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
                    BinOp::Add => Value::Int(x.checked_add(y).ok_or_else(|| overflow(span))?),
                    BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(|| overflow(span))?),
                    BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(|| overflow(span))?),
                    BinOp::Div | BinOp::Rem => {
                        if y == 0 {
                            return Err(RunError::new("division by zero", span));
                        }
                        Value::Int(
                            if op == BinOp::Div { x.checked_div(y) } else { x.checked_rem(y) }
                                .ok_or_else(|| overflow(span))?,
                        )
                    }
                    _ => return Err(bug(span)),
                }
            }
        })
    }

    pub(super) fn builtin(&mut self, f: Builtin, args: &[Expr]) -> Res<Value> {
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
                match if f == Builtin::First { seq.first() } else { seq.last() } {
                    crate::state::End::Known(k) => Value::Kind(k),
                    crate::state::End::Empty => Value::Kind(NONE16),
                    crate::state::End::Unknown => {
                        return Err(RunError::new(
                            crate::compile::expr::face_down(),
                            Span::default(),
                        ))
                    }
                }
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
            Builtin::Abs => Value::Int(
                self.int(&args[0])?.checked_abs().ok_or_else(|| overflow(args[0].span()))?,
            ),
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
                // Next to: neighbours (every link of a graph board), not
                // only the named directions.
                let hit = a.iter().any(|c| g.board.neighbours(c).iter().any(|n| b.contains(n)));
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
            Builtin::Repetitions => Value::Int(self.st.repetitions(g.players.len())),
            Builtin::Cond => {
                if self.truth(&args[0])? {
                    self.eval(&args[1])?
                } else {
                    self.eval(&args[2])?
                }
            }
            Builtin::Ray => {
                let c = self.cell(&args[0])?;
                let Value::Dir(d) = self.eval(&args[1])? else { return Err(bug(Span::default())) };
                Value::Line(g.board.ray(c, d as usize))
            }
            Builtin::UpTo | Builtin::Before => {
                let Value::Line(l) = self.eval(&args[0])? else {
                    return Err(bug(Span::default()));
                };
                // Walk the line to its first occupied cell.
                let cells = &g.board.lines[l as usize].cells;
                let k = cells
                    .iter()
                    .position(|&c| self.st.data[c as usize] != 0)
                    .unwrap_or(cells.len());
                let k = if f == Builtin::UpTo { k + 1 } else { k };
                Value::Line(g.board.prefix(l, k))
            }
            Builtin::LineFirst | Builtin::LineLast | Builtin::LineAt => {
                let Value::Line(l) = self.eval(&args[0])? else {
                    return Err(bug(Span::default()));
                };
                let cells = &g.board.lines[l as usize].cells;
                let c = match f {
                    Builtin::LineFirst => cells.first(),
                    Builtin::LineLast => cells.last(),
                    _ => {
                        let i = self.int(&args[1])?;
                        if i >= 1 {
                            cells.get((i - 1) as usize)
                        } else {
                            None
                        }
                    }
                };
                Value::Cell(c.copied().unwrap_or(NO_CELL))
            }
            Builtin::SetFirst | Builtin::SetLast => {
                let s = self.cells(&args[0])?;
                let c = if f == Builtin::SetFirst { s.iter().next() } else { s.iter().last() };
                Value::Cell(c.unwrap_or(NO_CELL))
            }
            Builtin::SetOf => {
                let mut acc = CellSet::EMPTY;
                for a in args {
                    acc = union(acc, self.cells(a)?);
                }
                Value::Cells(acc)
            }
            Builtin::In => {
                let d = self.eval(&args[0])?;
                let x = self.eval(&args[1])?;
                let mut i = 0;
                let mut hit = false;
                while let Some((v, n)) = self.next_elem(d, i) {
                    i = n;
                    if v == x {
                        hit = true;
                        break;
                    }
                }
                Value::Bool(hit)
            }
        })
    }
}

/// Arithmetic beyond 64 bits: a rule error, never a wrap.
#[cold]
fn overflow(span: Span) -> RunError {
    RunError::new("the numbers here overflow (beyond 64 bits)", span)
}
