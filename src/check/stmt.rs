//! Checking statements: scopes, decision points, effects, inlined actions.

use super::{Checker, Global};
use crate::diag::Problem;
use crate::ir::{Key, Site, Stmt, StmtKind, Ty};
use crate::syntax::ast::{self, StmtKind as S};

impl<'a> Checker<'a> {
    /// Checks a block in a new scope.
    pub(super) fn block(&mut self, b: &'a ast::Block) -> Vec<Stmt> {
        self.scopes.open();
        let mut out = Vec::new();
        for s in &b.stmts {
            let s = self.stmt(s);
            // A statement that reads the first or last piece of an ordered
            // zone reveals it first (a chance event when it is face down).
            out.extend(self.reveals(&s));
            out.push(s);
        }
        self.scopes.close_block(b.span);
        out
    }

    /// The reveal statements `s` needs before it runs (see `StmtKind::Reveal`).
    pub(super) fn reveals(&mut self, s: &Stmt) -> Vec<Stmt> {
        let mut found: Vec<(crate::ir::Expr, bool, crate::source::Span)> = Vec::new();
        let mut bound: Vec<crate::ir::Slot> = Vec::new();
        let mut look =
            |e: &crate::ir::Expr, bound: &mut Vec<crate::ir::Slot>| ends_read(e, bound, &mut found);
        match &s.kind {
            StmtKind::Let(_, e)
            | StmtKind::Require(e, _)
            | StmtKind::Win(e)
            | StmtKind::Lose(e)
            | StmtKind::NextTurn(e) => look(e, &mut bound),
            StmtKind::Assign(t, e) => {
                if let crate::ir::Target::Var(_, Some(p)) = t {
                    look(p, &mut bound);
                }
                look(e, &mut bound);
            }
            StmtKind::Change { at, kind, owner } => {
                look(at, &mut bound);
                for x in kind.iter().chain(owner.iter()) {
                    look(x, &mut bound);
                }
            }
            StmtKind::Remove(e) | StmtKind::Shuffle(e) => look(e, &mut bound),
            StmtKind::If { cond, .. } => look(cond, &mut bound),
            StmtKind::Choose { domain, .. }
            | StmtKind::Random { domain, .. }
            | StmtKind::For { domain, .. }
            | StmtKind::Compare { domain, .. } => look(domain, &mut bound),
            StmtKind::Place { kind, owner, at, .. } => {
                look(kind, &mut bound);
                if let Some(o) = owner {
                    look(o, &mut bound);
                }
                look(at, &mut bound);
            }
            StmtKind::Move { from, to } => {
                look(from, &mut bound);
                look(to, &mut bound);
            }
            StmtKind::Add { count, kind, zone } | StmtKind::Take { count, kind, zone } => {
                if let Some(c) = count {
                    look(c, &mut bound);
                }
                look(kind, &mut bound);
                look(zone, &mut bound);
            }
            StmtKind::Transfer { count, kind, from, to } => {
                if let Some(c) = count {
                    look(c, &mut bound);
                }
                look(kind, &mut bound);
                look(from, &mut bound);
                look(to, &mut bound);
            }
            StmtKind::Block(binds, _) => {
                for (_, e) in binds {
                    look(e, &mut bound);
                }
            }
            _ => {}
        }
        found
            .into_iter()
            .map(|(zone, front, span)| {
                let site = self.sites.len() as u16;
                self.sites.push(Site {
                    label: None,
                    branches: None,
                    ty: Ty::Kind,
                    span,
                    var: String::new(),
                    domain_span: span,
                    filter_span: None,
                    chance: true,
                    short: false,
                });
                Stmt { kind: StmtKind::Reveal { site, zone, front }, span }
            })
            .collect()
    }

    fn stmt(&mut self, s: &'a ast::Stmt) -> Stmt {
        if !self.enter(s.span) {
            return Stmt { kind: StmtKind::Block(Vec::new(), Vec::new()), span: s.span };
        }
        let out = self.stmt_inner(s);
        self.leave();
        out
    }

    fn stmt_inner(&mut self, s: &'a ast::Stmt) -> Stmt {
        let kind = match &s.kind {
            S::Let(v, e) => {
                let (ir, ty) = self.expr(e);
                let ty = if ty == Ty::None { Ty::Error } else { ty };
                let slot = self.slot(ty);
                self.scopes.bind_as(v, slot, ty, true);
                StmtKind::Let(slot, ir)
            }
            S::Assign { name, player, op, value } => self.assign(name, player.as_ref(), *op, value),
            S::Change { at, to, of } => self.change(at, to, of.as_ref()),
            S::NextTurn(p) => {
                self.decision_allowed_in("next turn", s.span);
                StmtKind::NextTurn(self.expect(p, Ty::Player))
            }
            S::Again => {
                self.decision_allowed_in("again", s.span);
                StmtKind::NextTurn(crate::ir::Expr::Me)
            }
            S::Phase(n) => self.phase_stmt(n),
            S::Choose { var, domain, filter, label, short } => {
                let filter_ast = filter.as_ref();
                self.decision_allowed("choose", s.span);
                let (d, el) = self.domain(domain);
                let slot = self.bind(var, el);
                let filter = filter.as_ref().map(|f| self.expect(f, Ty::Bool));
                let site = self.sites.len().min(super::MAX_SLOTS) as u16;
                self.sites.push(Site {
                    label: label.as_ref().map(|l| l.text.clone()),
                    branches: None,
                    ty: el,
                    span: s.span,
                    var: var.name.clone(),
                    domain_span: domain.span,
                    filter_span: filter_ast.map(|f| f.span),
                    chance: false,
                    short: *short,
                });
                StmtKind::Choose { site, slot, domain: d, filter }
            }
            S::Random { var, domain, filter, label, short } => {
                let filter_ast = filter.as_ref();
                if !self.in_turn && !self.in_setup {
                    self.report(
                        Problem::new(
                            "tabula::check::random_outside",
                            "`random` outside `turn` and `setup`",
                            s.span,
                            "no chance event can happen here",
                        )
                        .help("`on no moves` and `at end` decide without chance"),
                    );
                }
                let (d, el) = self.domain(domain);
                let slot = self.bind(var, el);
                let filter = filter.as_ref().map(|f| self.expect(f, Ty::Bool));
                let site = self.sites.len() as u16;
                self.sites.push(Site {
                    label: label.as_ref().map(|l| l.text.clone()),
                    branches: None,
                    ty: el,
                    span: s.span,
                    var: var.name.clone(),
                    domain_span: domain.span,
                    filter_span: filter_ast.map(|f| f.span),
                    chance: true,
                    short: *short,
                });
                StmtKind::Random { site, slot, domain: d, filter }
            }
            S::Either(branches) => {
                self.decision_allowed("either", s.span);
                let site = self.sites.len().min(super::MAX_SLOTS) as u16;
                self.sites.push(Site {
                    label: None,
                    branches: Some(
                        branches.iter().map(|(l, _)| l.as_ref().map(|l| l.text.clone())).collect(),
                    ),
                    ty: Ty::Int,
                    span: s.span,
                    var: String::new(),
                    domain_span: s.span,
                    filter_span: None,
                    chance: false,
                    short: false,
                });
                let branches = branches.iter().map(|(_, b)| self.block(b)).collect();
                StmtKind::Either { site, branches }
            }
            S::For { var, domain, filter, body } => {
                let body_span = body.span;
                let (d, el) = self.domain(domain);
                self.scopes.open();
                let slot = self.bind(var, el);
                let filter = filter.as_ref().map(|f| self.expect(f, Ty::Bool));
                let body = self.block(body);
                self.scopes.close_block(body_span);
                StmtKind::For { slot, domain: d, filter, body }
            }
            S::While { cond, body } => {
                let cond = self.expect(cond, Ty::Bool);
                let test = Stmt {
                    kind: StmtKind::If { cond, then: vec![], otherwise: vec![] },
                    span: s.span,
                };
                let pre = self.reveals(&test);
                let StmtKind::If { cond, .. } = test.kind else { unreachable_if() };
                StmtKind::While { pre, cond, body: self.block(body) }
            }
            S::If { cond, then, otherwise } => {
                let cond = self.expect(cond, Ty::Bool);
                let then = self.block(then);
                let otherwise = otherwise.as_ref().map(|b| self.block(b)).unwrap_or_default();
                StmtKind::If { cond, then, otherwise }
            }
            S::Require { cond, message } => StmtKind::Require(
                self.expect(cond, Ty::Bool),
                message.as_ref().map(|m| m.text.clone()),
            ),
            S::Win(p) => StmtKind::Win(self.expect(p, Ty::Player)),
            S::Lose(p) => StmtKind::Lose(self.expect(p, Ty::Player)),
            S::Draw => StmtKind::Draw,
            S::Pass => StmtKind::Pass,
            S::Place { kind, owner, at } => {
                let kind = self.expect(kind, Ty::Kind);
                let owner = owner.as_ref().map(|o| self.expect(o, Ty::Player));
                let (at_ir, ty) = self.expr(at);
                let (at_ir, many) = match ty {
                    Ty::Cell | Ty::Error => (at_ir, false),
                    Ty::Cells | Ty::Line => (self.expect(at, Ty::Cells), true),
                    other => {
                        self.report(self.mismatch(at.span, Ty::Cell, other));
                        (at_ir, false)
                    }
                };
                StmtKind::Place { kind, owner, at: at_ir, many }
            }
            S::Compare { var, domain, keys, share } => {
                let (d, el) = self.domain(domain);
                if !matches!(el, Ty::Player | Ty::Error) {
                    self.report(
                        Problem::new(
                            "tabula::check::compare",
                            "`compare` ranks players",
                            domain.span,
                            format!("these are {}s", el.name()),
                        )
                        .help("write `compare p in players by ...`"),
                    );
                }
                self.scopes.open();
                let slot = self.bind(var, el);
                let keys = keys
                    .iter()
                    .map(|k| match k {
                        ast::Key::Value(e) => Key::Value(self.expect(e, Ty::Int)),
                        ast::Key::Descending { var, domain, filter, body } => {
                            let (d, el) = self.domain(domain);
                            self.scopes.open();
                            let slot = self.bind(var, el);
                            let filter = filter.as_ref().map(|f| self.expect(f, Ty::Bool));
                            let body = self.expect(body, Ty::Int);
                            self.scopes.close();
                            Key::Descending { slot, domain: d, filter, body }
                        }
                    })
                    .collect();
                self.scopes.close();
                StmtKind::Compare { slot, domain: d, keys, share: *share }
            }
            S::Remove(c) => StmtKind::Remove(self.expect(c, Ty::Cell)),
            S::Transfer { count, kind, from, to } => StmtKind::Transfer {
                count: match count {
                    ast::Count::One => Some(crate::ir::Expr::Const(crate::ir::Value::Int(1))),
                    ast::Count::Number(n) => Some(self.expect(n, Ty::Int)),
                    ast::Count::All => None,
                },
                kind: self.expect(kind, Ty::Kind),
                from: self.expect(from, Ty::Zone),
                to: self.expect(to, Ty::Zone),
            },
            S::Shuffle(z) => {
                let ir = self.expect(z, Ty::Zone);
                if let crate::ir::Expr::Zone(id, _) = &ir {
                    if !self.zones[*id as usize].ordered {
                        self.report(
                            Problem::new(
                                "tabula::check::shuffle",
                                "only an ordered zone can be shuffled",
                                z.span,
                                "this zone only counts its pieces",
                            )
                            .help("declare it `ordered`, e.g. `zone deck shared ordered hidden`"),
                        );
                    }
                }
                StmtKind::Shuffle(ir)
            }
            S::Move { from, to } => {
                StmtKind::Move { from: self.expect(from, Ty::Cell), to: self.expect(to, Ty::Cell) }
            }
            S::Add { count, kind, zone } => StmtKind::Add {
                count: count.as_ref().map(|c| self.expect(c, Ty::Int)),
                kind: self.expect(kind, Ty::Kind),
                zone: self.expect(zone, Ty::Zone),
            },
            S::Take { count, kind, zone } => StmtKind::Take {
                count: count.as_ref().map(|c| self.expect(c, Ty::Int)),
                kind: self.expect(kind, Ty::Kind),
                zone: self.expect(zone, Ty::Zone),
            },
            S::Call(f, args) => return self.call_action(f, args, s),
        };
        Stmt { kind, span: s.span }
    }

    /// Turn control belongs in the turn (and `on no moves`).
    fn decision_allowed_in(&mut self, what: &str, span: crate::source::Span) {
        if self.in_setup {
            self.report(
                Problem::new(
                    "tabula::check::turn_control",
                    format!("`{what}` in `setup`"),
                    span,
                    "no turn is being played here",
                )
                .help("the first player moves first; `setup` cannot change that"),
            );
        }
    }

    /// `x = e`, `x += e`, `score(p) = e`: a `let` local or a variable.
    fn assign(
        &mut self,
        name: &'a ast::Ident,
        player: Option<&'a ast::Expr>,
        op: ast::AssignOp,
        value: &'a ast::Expr,
    ) -> StmtKind {
        use crate::ir::{BinOp, Expr, Target};
        let empty = StmtKind::Block(Vec::new(), Vec::new());
        let (target, read, ty) = if let Some((slot, ty, ok)) = self.scopes.lookup_full(&name.name) {
            if !ok {
                self.report(
                    Problem::new(
                        "tabula::check::assign",
                        format!("`{}` cannot be changed", name.name),
                        name.span,
                        "bound by `choose`, `for`, a quantifier or a parameter",
                    )
                    .help(format!(
                        "only a `let` can change: `let {0} = ...` then `{0} = ...`",
                        name.name
                    )),
                );
                return empty;
            }
            if player.is_some() {
                self.report(Problem::new(
                    "tabula::check::assign",
                    format!("`{}` is a local value, not a variable of each player", name.name),
                    name.span,
                    "no player here",
                ));
                return empty;
            }
            (Target::Local(slot), Expr::Local(slot, crate::source::Span::default()), ty)
        } else if let Some(v) = self.global_var(&name.name) {
            self.used.insert(name.name.clone());
            let per = self.var_per_player(v);
            let p = match (per, player) {
                (true, Some(p)) => Some(self.expect(p, Ty::Player)),
                (false, None) => None,
                (true, None) => {
                    self.report(
                        Problem::new(
                            "tabula::check::assign",
                            format!("`{}` is a variable of each player", name.name),
                            name.span,
                            "whose?",
                        )
                        .help(format!("write `{}(me) = ...`", name.name)),
                    );
                    return empty;
                }
                (false, Some(p)) => {
                    self.report(Problem::new(
                        "tabula::check::assign",
                        format!("`{}` is one variable, not one per player", name.name),
                        p.span,
                        "no player needed",
                    ));
                    return empty;
                }
            };
            let (read, ty) = self.var_read(v, p.clone());
            (Target::Var(v, p), read, ty)
        } else {
            if !self.globals.contains_key(&name.name) && self.out_of_scope(&name.name, name.span) {
                return empty;
            }
            let p = Problem::new(
                "tabula::check::assign",
                format!("`{}` is not a variable", name.name),
                name.span,
                "nothing to change",
            );
            let p = if self.globals.contains_key(&name.name) {
                p.help("only `let` locals and `var` declarations can change")
            } else {
                p.help(format!(
                    "introduce it with `let {0} = ...` (in a block) or `var {0} = ...` (kept in the position)",
                    name.name
                ))
            };
            self.report(p);
            return empty;
        };
        let value = match op {
            ast::AssignOp::Set => self.expect(value, ty),
            ast::AssignOp::Add | ast::AssignOp::Sub => {
                if ty != Ty::Int && ty != Ty::Error {
                    self.report(self.mismatch(name.span, Ty::Int, ty));
                }
                let e = self.expect(value, Ty::Int);
                let bop = if op == ast::AssignOp::Add { BinOp::Add } else { BinOp::Sub };
                let at = name.span.to(value.span);
                Expr::Binary(bop, Box::new(read), Box::new(e), at)
            }
        };
        StmtKind::Assign(target, value)
    }

    /// `change C to K [of P]` / `change C to P`.
    fn change(
        &mut self,
        at: &'a ast::Expr,
        to: &'a ast::Expr,
        of: Option<&'a ast::Expr>,
    ) -> StmtKind {
        let at = self.expect(at, Ty::Cell);
        let (t, ty) = self.expr(to);
        match (ty, of) {
            (Ty::Kind, of) => {
                let owner = of.map(|o| self.expect(o, Ty::Player));
                StmtKind::Change { at, kind: Some(t), owner }
            }
            (Ty::Player, None) => StmtKind::Change { at, kind: None, owner: Some(t) },
            (Ty::Error, _) => StmtKind::Block(Vec::new(), Vec::new()),
            (other, _) => {
                self.report(
                    self.mismatch(to.span, Ty::Kind, other)
                        .help("write `change c to Queen`, `change c to opponent` or `change c to Queen of me`"),
                );
                StmtKind::Block(Vec::new(), Vec::new())
            }
        }
    }

    /// Decisions are made by the player to move: only in the turn.
    fn decision_allowed(&mut self, what: &str, span: crate::source::Span) {
        if !self.in_turn {
            self.report(
                Problem::new(
                    "tabula::check::choose_outside_turn",
                    format!("`{what}` outside a turn"),
                    span,
                    "no player decides here",
                )
                .help("decisions belong in `turn { ... }` or in actions it runs"),
            );
        }
    }

    fn call_action(&mut self, f: &'a ast::Ident, args: &'a [ast::Expr], s: &'a ast::Stmt) -> Stmt {
        let empty = Stmt { kind: StmtKind::Block(Vec::new(), Vec::new()), span: s.span };
        self.used.insert(f.name.clone());
        let a = match self.globals.get(&f.name) {
            Some((Global::Action(a), _)) => *a,
            Some(_) => {
                self.report(
                    Problem::new(
                        "tabula::check::not_action",
                        format!("`{}` is not an action", f.name),
                        f.span,
                        "a statement must do something",
                    )
                    .help("declare effects with `action name(...) { ... }`; use values in `if`, `let` or `require`"),
                );
                return empty;
            }
            None => {
                let p = Problem::new(
                    "tabula::check::unknown_name",
                    format!("unknown action `{}`", f.name),
                    f.span,
                    "not defined",
                );
                let names: Vec<String> = self
                    .globals
                    .iter()
                    .filter(|(_, (g, _))| matches!(g, Global::Action(_)))
                    .map(|(n, _)| n.clone())
                    .collect();
                let p = match super::suggest(&f.name, &names) {
                    Some(n) => p.help(format!("did you mean `{n}`?")),
                    None => p.help("actions are declared with `action name(params) { ... }`"),
                };
                self.report(p);
                return empty;
            }
        };
        let (params, body) = self.actions[a];
        if params.len() != args.len() {
            self.report(
                Problem::new(
                    "tabula::check::arity",
                    format!(
                        "`{}` takes {} argument{}, but {} {} given",
                        f.name,
                        params.len(),
                        if params.len() == 1 { "" } else { "s" },
                        args.len(),
                        if args.len() == 1 { "was" } else { "were" }
                    ),
                    s.span,
                    format!("{} argument{}", args.len(), if args.len() == 1 { "" } else { "s" }),
                )
                .also(f.span, "called here"),
            );
            return empty;
        }
        if self.expanding.contains(&f.name) {
            self.report(
                Problem::new(
                    "tabula::check::recursion",
                    format!("`{}` runs itself", f.name),
                    s.span,
                    "recursive use",
                )
                .help("defs and actions cannot be recursive; use `while`"),
            );
            return empty;
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.expr(a));
        }
        let saved = std::mem::replace(&mut self.scopes, super::Scopes::fresh());
        self.expanding.push(f.name.clone());
        self.calls.push(s.span);
        let (args, tys): (Vec<_>, Vec<_>) = vals.into_iter().unzip();
        let binds = self.bind_params(params, tys, args);
        let body = self.block(body);
        self.calls.pop();
        self.expanding.pop();
        self.scopes = saved;
        Stmt { kind: StmtKind::Block(binds, body), span: s.span }
    }
}

/// Never called: `test` above is built as an `if`.
#[cold]
fn unreachable_if() -> ! {
    panic!("internal error: a `while` test is not an `if`")
}

/// Collects the `first(Z)` / `last(Z)` in `e` whose zone does not depend on
/// a variable bound inside `e` (those can be revealed before `e` runs).
fn ends_read(
    e: &crate::ir::Expr,
    bound: &mut Vec<crate::ir::Slot>,
    out: &mut Vec<(crate::ir::Expr, bool, crate::source::Span)>,
) {
    use crate::ir::{Builtin, Expr};
    match e {
        Expr::Builtin(f @ (Builtin::First | Builtin::Last), args, span) => {
            let z = &args[0];
            if bound.iter().all(|s| !z.reads_slot(*s)) {
                out.push((z.clone(), *f == Builtin::First, *span));
            }
            ends_read(z, bound, out);
        }
        Expr::Inline(binds, body, _) => {
            let n = bound.len();
            for (s, x) in binds.iter() {
                ends_read(x, bound, out);
                bound.push(*s);
            }
            ends_read(body, bound, out);
            bound.truncate(n);
        }
        Expr::Quant { slot, domain, filter, body, .. } => {
            ends_read(domain, bound, out);
            bound.push(*slot);
            if let Some(f) = filter {
                ends_read(f, bound, out);
            }
            if let Some(b) = body {
                ends_read(b, bound, out);
            }
            bound.pop();
        }
        _ => e.children(&mut |c| ends_read(c, bound, out)),
    }
}
