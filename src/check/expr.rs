//! Checking expressions: name resolution, types, arity, inlining of `def`s.

use super::{suggest, Checker, Global, MAX_SUGGESTIONS};
use crate::board::NO_CELL;
use crate::diag::Problem;
use crate::ir::{Builtin, Expr, Slot, Ty, Value, NONE16, NONE8};
use crate::source::Span;
use crate::syntax::ast::{self, BinOp as B, ExprKind, Quant};

/// Names the language defines (used for suggestions and in the docs).
pub(crate) const BUILTIN_NAMES: &[&str] = &[
    "me",
    "opponent",
    "none",
    "true",
    "false",
    "cells",
    "dirs",
    "kinds",
    "players",
    "ply",
    "empty",
    "occupied",
    "off",
    "owner",
    "kind",
    "step",
    "neighbours",
    "pieces",
    "count",
    "size",
    "contains",
    "next",
    "min",
    "max",
    "abs",
    "lines",
    "ray",
    "upto",
    "before",
    "first",
    "last",
    "repetitions",
];

type Checked = (Expr, Ty);

const ERR: Checked = (Expr::Const(Value::Bool(false)), Ty::Error);

impl<'a> Checker<'a> {
    /// Checks `e` and requires type `want` (a `none` literal takes `want`'s sentinel).
    pub(super) fn expect(&mut self, e: &'a ast::Expr, want: Ty) -> Expr {
        let (ir, ty) = self.expr(e);
        // An error is reported once, where it was found.
        if ty == want || ty == Ty::Error || want == Ty::Error {
            return ir;
        }
        if ty == Ty::None {
            if let Some(v) = none_of(want) {
                return Expr::Const(v);
            }
        }
        // A cell or a line is also a set of cells.
        if want == Ty::Cells && ty == Ty::Cell {
            return Expr::Builtin(Builtin::Singleton, Box::new([ir]), Span::default());
        }
        if want == Ty::Cells && ty == Ty::Line {
            return Expr::Builtin(Builtin::LineCells, Box::new([ir]), Span::default());
        }
        self.report(self.mismatch(e.span, want, ty));
        ir
    }

    /// Checks an iterable expression; returns it and its element type.
    pub(super) fn domain(&mut self, e: &'a ast::Expr) -> (Expr, Ty) {
        let (ir, ty) = self.expr(e);
        match ty.elem() {
            Some(el) => (ir, el),
            None => {
                self.report(
                    Problem::new(
                        "tabula::check::not_iterable",
                        format!("a {} cannot be iterated", ty.name()),
                        e.span,
                        "expected cells, a line, lines, a zone, dirs, kinds or players",
                    )
                    .help("for example `cells`, `neighbours(c)`, `lines(3)` or `pool(me)`"),
                );
                (ir, Ty::Error)
            }
        }
    }

    /// Checks an expression; the result remembers where it was written.
    pub(super) fn expr(&mut self, e: &'a ast::Expr) -> Checked {
        if !self.enter(e.span) {
            return ERR;
        }
        let (ir, ty) = self.expr_inner(e);
        self.leave();
        (ir.with_span(e.span), ty)
    }

    fn expr_inner(&mut self, e: &'a ast::Expr) -> Checked {
        match &e.kind {
            ExprKind::Int(n) => (Expr::Const(Value::Int(*n)), Ty::Int),
            ExprKind::Name(n) => self.name(n, e.span),
            ExprKind::Call(f, args) => self.call(f, args, e.span),
            ExprKind::Unary(op, a) => {
                let want = if *op == ast::UnOp::Not { Ty::Bool } else { Ty::Int };
                let a = self.expect(a, want);
                (Expr::Unary(super::unop(*op), Box::new(a)), want)
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::List(items) => self.list(items, e.span),
            ExprKind::Cond(c, a, b) => self.cond(c, a, b, e.span),
            ExprKind::Index(l, i) => {
                let l = self.expect(l, Ty::Line);
                let i = self.expect(i, Ty::Int);
                (Expr::Builtin(Builtin::LineAt, Box::new([l, i]), e.span), Ty::Cell)
            }
            ExprKind::Quant { quant, var, domain, filter, body } => {
                let (d, el) = self.domain(domain);
                self.scopes.open();
                let slot = self.bind(var, el);
                let filter = filter.as_ref().map(|f| Box::new(self.expect(f, Ty::Bool)));
                let (body_ir, ty) = match (quant, body) {
                    (Quant::Any | Quant::All | Quant::None | Quant::Count, Some(b)) => {
                        (Some(Box::new(self.expect(b, Ty::Bool))), Ty::Bool)
                    }
                    (Quant::Sum | Quant::Max | Quant::Min, Some(b)) => {
                        (Some(Box::new(self.expect(b, Ty::Int))), Ty::Int)
                    }
                    (Quant::Collect, Some(b)) => {
                        (Some(Box::new(self.expect(b, Ty::Cells))), Ty::Cells)
                    }
                    (Quant::Collect, None) => {
                        let e =
                            self.coerce_cells(Expr::Local(slot, Span::default()), el, domain.span);
                        (Some(Box::new(e)), Ty::Cells)
                    }
                    (Quant::Count | Quant::Any | Quant::None, None) => (None, Ty::Int),
                    (_, None) => {
                        self.report(
                            Problem::new(
                                "tabula::check::quantifier",
                                "this quantifier needs a body",
                                e.span,
                                "missing `: ...`",
                            )
                            .help(format!("write e.g. `{} x in cells: ...`", quant_word(*quant))),
                        );
                        (None, Ty::Error)
                    }
                };
                self.scopes.close();
                let ty = match (quant, ty) {
                    (_, Ty::Error) => Ty::Error,
                    (Quant::Count | Quant::Sum | Quant::Max | Quant::Min, _) => Ty::Int,
                    (Quant::Collect, _) => Ty::Cells,
                    _ => Ty::Bool,
                };
                let q = Expr::Quant {
                    quant: super::quant(*quant),
                    slot,
                    domain: Box::new(d),
                    filter,
                    body: body_ir,
                    span: e.span,
                };
                (q, ty)
            }
        }
    }

    /// A value of type `ty` as a set of cells (for `collect` without a body).
    fn coerce_cells(&mut self, e: Expr, ty: Ty, span: Span) -> Expr {
        match ty {
            Ty::Cells | Ty::Error => e,
            Ty::Cell => Expr::Builtin(Builtin::Singleton, Box::new([e]), Span::default()),
            Ty::Line => Expr::Builtin(Builtin::LineCells, Box::new([e]), Span::default()),
            other => {
                self.report(
                    Problem::new(
                        "tabula::check::type",
                        format!("`collect` gathers cells, but these are {}s", other.name()),
                        span,
                        format!("a collection of {}s", other.name()),
                    )
                    .help("give a body that is a cell or a set: `collect x in D: cells_of(x)`"),
                );
                e
            }
        }
    }

    fn name(&mut self, n: &str, span: Span) -> Checked {
        if let Some((slot, ty)) = self.lookup_local(n) {
            return (Expr::Local(slot, Span::default()), ty);
        }
        // The collections keep their meaning even when a parameter shares the
        // name (`param players = 3` for `--set players=3`).
        let collection = matches!(n, "players" | "kinds" | "dirs" | "cells");
        if let Some((g, _)) = self.globals.get(n).copied().filter(|_| !collection) {
            self.used.insert(n.to_string());
            return match g {
                Global::Param(i) => match self.params[i].1 {
                    Some(v) => (Expr::Const(Value::Int(v)), Ty::Int),
                    None => ERR,
                },
                Global::Player(p) => (Expr::Const(Value::Player(p)), Ty::Player),
                Global::Kind(k) => (Expr::Const(Value::Kind(k)), Ty::Kind),
                Global::Zone(z) if !self.zones[z as usize].per_player => {
                    (Expr::Zone(z, None), Ty::Zone)
                }
                Global::Def(d) if self.defs[d].0.is_empty() => self.inline_def(d, n, &[], span),
                Global::Var(v) if !self.var_per_player(v) => self.var_read(v, None),
                _ => {
                    let what = match g {
                        Global::Prop(_) => "a property: write `name(kind)`",
                        Global::Zone(_) => "a zone of each player: write `name(player)`",
                        Global::Def(_) => "a def with parameters: call it with arguments",
                        Global::Var(_) => "a variable of each player: write `name(player)`",
                        _ => "an action: run it as a statement, `name(...)`",
                    };
                    self.report(Problem::new(
                        "tabula::check::arity",
                        format!("`{n}` needs arguments"),
                        span,
                        format!("`{n}` is {what}"),
                    ));
                    ERR
                }
            };
        }
        let v = match n {
            "me" => return (Expr::Me, Ty::Player),
            "opponent" => {
                return (
                    Expr::Builtin(Builtin::Next, Box::new([Expr::Me]), Span::default()),
                    Ty::Player,
                );
            }
            "none" => return (Expr::Const(Value::Bool(false)), Ty::None),
            "true" => (Value::Bool(true), Ty::Bool),
            "false" => (Value::Bool(false), Ty::Bool),
            "cells" => {
                return (Expr::Builtin(Builtin::AllCells, Box::new([]), Span::default()), Ty::Cells)
            }
            "dirs" => (Value::Dirs, Ty::Dirs),
            "kinds" => (Value::Kinds, Ty::Kinds),
            "players" => (Value::Players, Ty::Players),
            "ply" => return (Expr::Builtin(Builtin::Ply, Box::new([]), Span::default()), Ty::Int),
            "repetitions" => {
                self.history = true;
                return (
                    Expr::Builtin(Builtin::Repetitions, Box::new([]), Span::default()),
                    Ty::Int,
                );
            }
            _ => {
                if let Some(b) = &self.board {
                    if let Some(d) = b.dir_names.iter().position(|d| *d == n) {
                        return (Expr::Const(Value::Dir(d as u8)), Ty::Dir);
                    }
                    // A cell's name, e.g. `e1`, is that cell.
                    if let Some(c) = b.names.iter().position(|c| c == n) {
                        return (Expr::Const(Value::Cell(c as u16)), Ty::Cell);
                    }
                }
                self.unknown(n, span);
                return ERR;
            }
        };
        (Expr::Const(v.0), v.1)
    }

    fn unknown(&mut self, n: &str, span: Span) {
        if self.out_of_scope(n, span) {
            return;
        }
        let p = Problem::new(
            "tabula::check::unknown_name",
            format!("unknown name `{n}`"),
            span,
            "not defined",
        );
        self.suggestions += 1;
        let guess = if self.suggestions <= MAX_SUGGESTIONS {
            suggest(n, &self.known_names())
        } else {
            None
        };
        let p = match guess {
            Some(s) => p.help(format!("did you mean `{s}`?")),
            None => p.help("names are declared with `param`, `players`, `piece`, `zone`, `def`, `let`, `choose` or `for`"),
        };
        self.report(p);
    }

    /// Checks the number of arguments; `params` names them for the help line.
    fn arity(&mut self, f: &ast::Ident, params: &[&str], got: usize, span: Span) -> bool {
        let want = params.len();
        if want == got {
            return true;
        }
        let mut p = Problem::new(
            "tabula::check::arity",
            format!(
                "`{}` takes {want} argument{}, but {got} {} given",
                f.name,
                if want == 1 { "" } else { "s" },
                if got == 1 { "was" } else { "were" }
            ),
            span,
            format!("{got} argument{}", if got == 1 { "" } else { "s" }),
        )
        .help(match f.name.as_str() {
            // The likely slip: the ray's start and direction given directly.
            "upto" | "before" if got == 2 => {
                format!("write `{}(line)`, e.g. `{}(ray(c, d))`", f.name, f.name)
            }
            _ => format!("write `{}({})`", f.name, params.join(", ")),
        });
        if let Some((_, decl)) = self.globals.get(&f.name) {
            p = p.also(*decl, "declared here");
        }
        self.report(p);
        false
    }

    fn call(&mut self, f: &'a ast::Ident, args: &'a [ast::Expr], span: Span) -> Checked {
        if self.lookup_local(&f.name).is_some() {
            self.report(Problem::new(
                "tabula::check::not_function",
                format!("`{}` is a local value, not a function", f.name),
                f.span,
                "cannot be called",
            ));
            return ERR;
        }
        if let Some((g, decl)) = self.globals.get(&f.name).copied() {
            self.used.insert(f.name.clone());
            return match g {
                Global::Def(d) => {
                    let names: Vec<&str> = self.defs[d].0.iter().map(|p| p.name.as_str()).collect();
                    if !self.arity(f, &names, args.len(), span) {
                        return ERR;
                    }
                    self.inline_def(d, &f.name, args, span)
                }
                Global::Prop(p) => {
                    if !self.arity(f, &["kind"], args.len(), span) {
                        return ERR;
                    }
                    let k = self.expect(&args[0], Ty::Kind);
                    (Expr::Prop(p, Box::new(k), span), Ty::Int)
                }
                Global::Zone(z) if self.zones[z as usize].per_player => {
                    if !self.arity(f, &["player"], args.len(), span) {
                        return ERR;
                    }
                    let p = self.expect(&args[0], Ty::Player);
                    (Expr::Zone(z, Some(Box::new(p))), Ty::Zone)
                }
                Global::Var(v) if self.var_per_player(v) => {
                    if !self.arity(f, &["player"], args.len(), span) {
                        return ERR;
                    }
                    let p = self.expect(&args[0], Ty::Player);
                    self.var_read(v, Some(p))
                }
                Global::Action(_) => {
                    self.report(
                        Problem::new(
                            "tabula::check::action_in_expr",
                            format!("`{}` is an action, not a value", f.name),
                            span,
                            "used as a value here",
                        )
                        .help("run an action as a statement on its own line; use `def` for values"),
                    );
                    ERR
                }
                _ => {
                    let mut p = Problem::new(
                        "tabula::check::not_function",
                        format!("`{}` is not a function", f.name),
                        f.span,
                        "cannot be called",
                    );
                    if BUILTIN_NAMES.contains(&f.name.as_str()) {
                        // A name of the game (`param size`) hides the
                        // built-in function of that name.
                        p = p.help(format!(
                            "this game declares `{}`, which hides the built-in `{}(...)`: give it another name",
                            f.name, f.name
                        ));
                        p = p.also(decl, "declared here");
                    }
                    self.report(p);
                    ERR
                }
            };
        }
        use Ty::*;
        let sig: (&[Ty], Ty, Builtin) = match f.name.as_str() {
            "empty" => (&[Cell], Bool, Builtin::Empty),
            "off" => (&[Cell], Bool, Builtin::Off),
            "occupied" => (&[Cell], Bool, Builtin::Occupied),
            "owner" => (&[Cell], Player, Builtin::Owner),
            "kind" => (&[Cell], Kind, Builtin::KindOf),
            "step" => (&[Cell, Dir], Cell, Builtin::Step),
            "neighbours" => {
                if !self.arity(f, &["cell or set"], args.len(), span) {
                    return ERR;
                }
                let (a, ty) = self.expr(&args[0]);
                return match ty {
                    Cell => {
                        (Expr::Builtin(Builtin::Neighbours, Box::new([a]), Span::default()), Cells)
                    }
                    Cells | Line | Error => {
                        let a = self.coerce_cells(a, ty, args[0].span);
                        (
                            Expr::Builtin(Builtin::NeighboursOf, Box::new([a]), Span::default()),
                            Cells,
                        )
                    }
                    other => {
                        self.report(self.mismatch(args[0].span, Cell, other));
                        ERR
                    }
                };
            }
            "group" => (&[Cell], Cells, Builtin::Group),
            "groups" => (&[Player], Groups, Builtin::Groups),
            "touches" => (&[Cells, Cells], Bool, Builtin::Touches),
            "same_shape" => (&[Cells, Cells], Bool, Builtin::SameShape),
            "union" => (&[Cells, Cells], Cells, Builtin::Union),
            "intersect" => (&[Cells, Cells], Cells, Builtin::Intersect),
            "minus" => (&[Cells, Cells], Cells, Builtin::Minus),
            "file" => (&[Cell], Int, Builtin::File),
            "rank" => (&[Cell], Int, Builtin::Rank),
            "cell" => (&[Int, Int], Cell, Builtin::CellAt),
            "placements" => (&[Kind], Placements, Builtin::Placements),
            "first" | "last" => {
                if !self.arity(f, &["zone, line or set"], args.len(), span) {
                    return ERR;
                }
                let first = f.name == "first";
                let (a, ty) = self.expr(&args[0]);
                let (b, out) = match ty {
                    Zone => (if first { Builtin::First } else { Builtin::Last }, Kind),
                    Line => (if first { Builtin::LineFirst } else { Builtin::LineLast }, Cell),
                    Cells => (if first { Builtin::SetFirst } else { Builtin::SetLast }, Cell),
                    Error => return ERR,
                    other => {
                        self.report(
                            Problem::new(
                                "tabula::check::type",
                                format!("expected a zone, a line or a set of cells, found a {}", other.name()),
                                args[0].span,
                                format!("this is a {}", other.name()),
                            )
                            .help("`first(z)` is the first piece of an ordered zone; `first(l)` the first cell of a line"),
                        );
                        return ERR;
                    }
                };
                return (Expr::Builtin(b, Box::new([a]), span), out);
            }
            "ray" => {
                if let Some(b) = self.board.as_mut() {
                    b.add_rays();
                }
                (&[Cell, Dir], Line, Builtin::Ray)
            }
            "upto" | "before" => {
                self.prefixes = true;
                if let Some(b) = self.board.as_mut() {
                    if b.empty_line.is_none() {
                        b.empty_line = Some(b.line_of(Vec::new()));
                    }
                }
                (&[Line], Line, if f.name == "upto" { Builtin::UpTo } else { Builtin::Before })
            }
            "range" => (&[Int, Int], Ints, Builtin::Range),
            "pieces" => (&[Player], Cells, Builtin::Pieces),
            "next" => (&[Player], Player, Builtin::Next),
            "min" => (&[Int, Int], Int, Builtin::Min),
            "max" => (&[Int, Int], Int, Builtin::Max),
            "abs" => (&[Int], Int, Builtin::Abs),
            "count" => {
                if args.len() == 1 {
                    (&[Zone], Int, Builtin::CountAll)
                } else {
                    (&[Zone, Kind], Int, Builtin::CountKind)
                }
            }
            "size" | "contains" => {
                let want: &[&str] = if f.name == "size" { &["set"] } else { &["set", "cell"] };
                if !self.arity(f, want, args.len(), span) {
                    return ERR;
                }
                let (s, ty) = self.expr(&args[0]);
                let (s, ty) = if ty == Cell {
                    (Expr::Builtin(Builtin::Singleton, Box::new([s]), Span::default()), Cells)
                } else {
                    (s, ty)
                };
                if !matches!(ty, Cells | Line | Error) {
                    self.report(
                        Problem::new(
                            "tabula::check::type",
                            format!("expected a set of cells or a line, found a {}", ty.name()),
                            args[0].span,
                            format!("this is a {}", ty.name()),
                        )
                        .help("`count(zone)` counts the pieces in a zone"),
                    );
                }
                if want.len() == 1 {
                    return (Expr::Builtin(Builtin::Size, Box::new([s]), Span::default()), Int);
                }
                let c = self.expect(&args[1], Cell);
                return (Expr::Builtin(Builtin::Contains, Box::new([s, c]), Span::default()), Bool);
            }
            "lines" => {
                if !self.arity(f, &["length"], args.len(), span) {
                    return ERR;
                }
                let Some(k) = self.constant(&args[0], "a line length") else {
                    return ERR;
                };
                if !(1..=64).contains(&k) {
                    self.report(Problem::new(
                        "tabula::check::lines",
                        "a line has 1 to 64 cells",
                        args[0].span,
                        format!("{k} cells"),
                    ));
                    return ERR;
                }
                let probe = self.probe;
                let Some(board) = self.board.as_mut() else { return ERR };
                // A probe of parameter values only looks for problems and
                // no check reads the lines (the compiled rules do, but a
                // probe compiles nothing): they are not made.
                if !probe {
                    board.add_lines(k as u32);
                }
                let (a, b) = board.lines_of(k as u32);
                return (Expr::Lines(a, b), Lines);
            }
            _ => {
                self.unknown(&f.name, f.span);
                return ERR;
            }
        };
        let names: Vec<&str> = sig.0.iter().map(|t| t.name()).collect();
        if !self.arity(f, &names, args.len(), span) {
            return ERR;
        }
        let mut ir = Vec::with_capacity(args.len());
        for (a, t) in args.iter().zip(sig.0) {
            ir.push(self.expect(a, *t));
        }
        (Expr::Builtin(sig.2, ir.into_boxed_slice(), span), sig.1)
    }

    fn inline_def(&mut self, d: usize, name: &str, args: &'a [ast::Expr], span: Span) -> Checked {
        if self.expanding.iter().any(|n| n == name) {
            self.report(
                Problem::new(
                    "tabula::check::recursion",
                    format!("`{name}` uses itself"),
                    span,
                    "recursive use",
                )
                .help("defs and actions cannot be recursive; use `while` or a quantifier"),
            );
            return ERR;
        }
        let (params, body) = self.defs[d];
        let mut binds = Vec::new();
        let mut tys = Vec::new();
        for a in args {
            let (e, t) = self.expr(a);
            binds.push(e);
            tys.push(t);
        }
        let saved = std::mem::replace(&mut self.scopes, super::Scopes::fresh());
        self.expanding.push(name.to_string());
        self.calls.push(span);
        let slots = self.bind_params(params, tys, binds);
        let (b, ty) = self.expr(body);
        self.calls.pop();
        self.expanding.pop();
        self.scopes = saved;
        if slots.is_empty() {
            (b, ty)
        } else {
            (Expr::Inline(slots.into_boxed_slice(), Box::new(b), span), ty)
        }
    }

    /// Binds a def's or action's parameters to its arguments. An argument
    /// that is already a local is shared, not copied: the parameter names
    /// the caller's slot. Returns the bindings still to evaluate.
    pub(super) fn bind_params(
        &mut self,
        params: &[ast::Ident],
        tys: Vec<Ty>,
        args: Vec<Expr>,
    ) -> Vec<(Slot, Expr)> {
        let mut binds = Vec::new();
        for ((p, t), e) in params.iter().zip(tys).zip(args) {
            match e {
                Expr::Local(s, _) => self.scopes.bind(p, s, t),
                e => binds.push((self.bind(p, t), e)),
            }
        }
        binds
    }

    fn binary(&mut self, op: B, a: &'a ast::Expr, b: &'a ast::Expr, span: Span) -> Checked {
        let mk = |x, y| Expr::Binary(super::binop(op), Box::new(x), Box::new(y), span);
        match op {
            B::Or | B::And => {
                let x = self.expect(a, Ty::Bool);
                let y = self.expect(b, Ty::Bool);
                (mk(x, y), Ty::Bool)
            }
            B::Lt | B::Le | B::Gt | B::Ge => {
                let x = self.expect(a, Ty::Int);
                let y = self.expect(b, Ty::Int);
                (mk(x, y), Ty::Bool)
            }
            B::Add | B::Sub | B::Mul | B::Div | B::Rem => {
                let x = self.expect(a, Ty::Int);
                let y = self.expect(b, Ty::Int);
                (mk(x, y), Ty::Int)
            }
            B::In => {
                let (d, dt) = self.expr(b);
                let Some(el) = dt.elem() else {
                    self.report(
                        Problem::new(
                            "tabula::check::not_iterable",
                            format!("`in` needs a collection on its right, found a {}", dt.name()),
                            b.span,
                            "not a collection",
                        )
                        .help("for example `kind(c) in [Rook, Queen]` or `c in neighbours(x)`"),
                    );
                    return ERR;
                };
                if dt == Ty::Error {
                    return ERR;
                }
                let x = self.expect(a, el);
                if matches!(dt, Ty::Cells | Ty::Line) {
                    let d = self.coerce_cells(d, dt, b.span);
                    return (Expr::Builtin(Builtin::Contains, Box::new([d, x]), span), Ty::Bool);
                }
                if !matches!(el, Ty::Kind | Ty::Player | Ty::Dir | Ty::Int) {
                    self.report(Problem::new(
                        "tabula::check::type",
                        format!("`in` compares single values, but these are {}s", el.name()),
                        b.span,
                        "a collection of collections",
                    ));
                    return ERR;
                }
                (Expr::Builtin(Builtin::In, Box::new([d, x]), span), Ty::Bool)
            }
            B::Eq | B::Ne => {
                let (x, tx) = self.expr(a);
                let (y, ty) = self.expr(b);
                let (x, y) = match (tx, ty) {
                    (Ty::Error, _) | (_, Ty::Error) => return (mk(x, y), Ty::Error),
                    (Ty::None, Ty::None) => {
                        return (Expr::Const(Value::Bool(op == B::Eq)), Ty::Bool);
                    }
                    (Ty::None, t) => match none_of(t) {
                        Some(v) => (Expr::Const(v), y),
                        None => {
                            self.report(none_mismatch(a.span, t));
                            return ERR;
                        }
                    },
                    (t, Ty::None) => match none_of(t) {
                        Some(v) => (x, Expr::Const(v)),
                        None => {
                            self.report(none_mismatch(b.span, t));
                            return ERR;
                        }
                    },
                    (s, t) if s == t && !matches!(s, Ty::Dirs | Ty::Kinds | Ty::Players) => (x, y),
                    (s, t) => {
                        self.report(
                            Problem::new(
                                "tabula::check::type",
                                format!("cannot compare a {} with a {}", s.name(), t.name()),
                                span,
                                format!("a {} on the left, a {} on the right", s.name(), t.name()),
                            )
                            .help("values of different types are never equal"),
                        );
                        return ERR;
                    }
                };
                (mk(x, y), Ty::Bool)
            }
        }
    }
}

impl<'a> Checker<'a> {
    /// `if C then A else B`: both branches of one type (`none` takes the
    /// other's; cells, lines and sets make a set).
    fn cond(
        &mut self,
        c: &'a ast::Expr,
        a: &'a ast::Expr,
        b: &'a ast::Expr,
        span: Span,
    ) -> Checked {
        let c = self.expect(c, Ty::Bool);
        let (x, tx) = self.expr(a);
        let (y, ty) = self.expr(b);
        let cellish = |t: Ty| matches!(t, Ty::Cell | Ty::Cells | Ty::Line);
        let (x, y, t) = match (tx, ty) {
            (Ty::Error, _) | (_, Ty::Error) => return ERR,
            (s, t) if s == t && s != Ty::None => (x, y, s),
            (Ty::None, t) | (t, Ty::None) if none_of(t).is_some() => {
                let n = Expr::Const(none_of(t).unwrap_or(Value::Bool(false)));
                if tx == Ty::None {
                    (n, y, t)
                } else {
                    (x, n, t)
                }
            }
            (s, t) if cellish(s) && cellish(t) => {
                let x = self.coerce_cells(x, s, a.span);
                let y = self.coerce_cells(y, t, b.span);
                (x, y, Ty::Cells)
            }
            (s, t) => {
                self.report(
                    Problem::new(
                        "tabula::check::type",
                        format!("the branches give a {} and a {}", s.name(), t.name()),
                        span,
                        "`then` and `else` differ",
                    )
                    .help(
                        "both branches of `if ... then ... else ...` give the same type of value",
                    ),
                );
                return ERR;
            }
        };
        (Expr::Builtin(Builtin::Cond, Box::new([c, x, y]), span), t)
    }

    /// `[a, b, ...]`: cells (and lines and sets) make a set of cells;
    /// constant kinds, players, directions or numbers make a list.
    fn list(&mut self, items: &'a [ast::Expr], span: Span) -> Checked {
        let checked: Vec<(Expr, Ty, Span)> = items
            .iter()
            .map(|e| {
                let (x, t) = self.expr(e);
                (x, t, e.span)
            })
            .collect();
        if checked.iter().any(|c| c.1 == Ty::Error) {
            return ERR;
        }
        let cellish = |t: Ty| matches!(t, Ty::Cell | Ty::Cells | Ty::Line);
        if checked.is_empty() || checked.iter().all(|c| cellish(c.1) || c.1 == Ty::None) {
            let mut set = crate::board::CellSet::EMPTY;
            let mut parts = Vec::new();
            let mut constant = true;
            for (x, t, _) in checked {
                match (&x, t) {
                    (_, Ty::None) => {}
                    (Expr::Const(Value::Cell(c)), _) => {
                        if *c != NO_CELL {
                            set.insert(*c);
                        }
                    }
                    (_, Ty::Cell) => {
                        constant = false;
                        parts.push(Expr::Builtin(
                            Builtin::Singleton,
                            Box::new([x]),
                            Span::default(),
                        ));
                    }
                    (_, Ty::Line) => {
                        constant = false;
                        parts.push(Expr::Builtin(
                            Builtin::LineCells,
                            Box::new([x]),
                            Span::default(),
                        ));
                    }
                    _ => {
                        constant = false;
                        parts.push(x);
                    }
                }
            }
            if constant {
                return (Expr::Const(Value::Cells(set)), Ty::Cells);
            }
            if !set.is_empty() {
                parts.push(Expr::Const(Value::Cells(set)));
            }
            return (Expr::Builtin(Builtin::SetOf, parts.into_boxed_slice(), span), Ty::Cells);
        }
        // The first value that is not `none` gives the list its type; a
        // list that starts with cells holds cells only.
        let ty = checked.iter().map(|c| c.1).find(|t| *t != Ty::None).unwrap_or(Ty::None);
        for (_, t, sp) in &checked {
            let same = *t == ty || (cellish(ty) && (cellish(*t) || *t == Ty::None));
            if !same {
                self.report(
                    Problem::new(
                        "tabula::check::list",
                        format!("a list of {}s holds a {}", ty.name(), t.name()),
                        *sp,
                        format!("this is a {}", t.name()),
                    )
                    .help("the values of a list are all of one type"),
                );
                return ERR;
            }
        }
        let mut words = Vec::new();
        for (x, t, sp) in &checked {
            match x {
                Expr::Const(v) if matches!(t, Ty::Kind | Ty::Player | Ty::Dir | Ty::Int) => {
                    words.push(super::vars::word_of(v).unwrap_or(0));
                }
                _ => {
                    self.report(
                        Problem::new(
                            "tabula::check::list",
                            format!("a list of {}s names them", t.name()),
                            *sp,
                            "not a name or a number",
                        )
                        .help("write the values themselves, e.g. `[Rook, Bishop]`, `[n, e, s, w]`, `[1, 2, 3]`; lists of cells may be computed"),
                    );
                    return ERR;
                }
            }
        }
        let id = self.lists.len() as u32;
        self.lists.push(words);
        let (v, t) = match ty {
            Ty::Kind => (Value::KindList(id), Ty::Kinds),
            Ty::Player => (Value::PlayerList(id), Ty::Players),
            Ty::Dir => (Value::DirList(id), Ty::Dirs),
            _ => (Value::IntList(id), Ty::Ints),
        };
        (Expr::Const(v), t)
    }
}

fn none_of(t: Ty) -> Option<Value> {
    match t {
        Ty::Cell => Some(Value::Cell(NO_CELL)),
        Ty::Player => Some(Value::Player(NONE8)),
        Ty::Kind => Some(Value::Kind(NONE16)),
        _ => None,
    }
}

fn none_mismatch(span: Span, t: Ty) -> Problem {
    Problem::new(
        "tabula::check::type",
        format!("a {} is never `none`", t.name()),
        span,
        "`none` compares only with cells, players and piece kinds",
    )
}

fn quant_word(q: Quant) -> &'static str {
    match q {
        Quant::Any => "any",
        Quant::All => "all",
        Quant::None => "none",
        Quant::Count => "count",
        Quant::Sum => "sum",
        Quant::Max => "max",
        Quant::Min => "min",
        Quant::Collect => "collect",
    }
}
