//! Checking the newer declarations: variables kept in the position (`var`,
//! `clock`), the turn's phases, and graph boards.

use super::{Checker, Global, Sections};
use crate::board::{Board, CellId, GraphSpec, Shape};
use crate::diag::Problem;
use crate::ir::{self, BinOp, Expr, Stmt, StmtKind, Ty, Value};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::BTreeMap;

/// The type a `var` declaration names.
fn type_named(n: &str) -> Option<Ty> {
    Some(match n {
        "number" => Ty::Int,
        "condition" => Ty::Bool,
        "cell" => Ty::Cell,
        "player" => Ty::Player,
        "kind" => Ty::Kind,
        "direction" => Ty::Dir,
        _ => return None,
    })
}

/// A constant value as a word (`None` for sets and collections).
pub(super) fn word_of(v: &Value) -> Option<i64> {
    Some(match *v {
        Value::Int(n) => n,
        Value::Bool(b) => i64::from(b),
        Value::Cell(c) => i64::from(c),
        Value::Player(p) => i64::from(p),
        Value::Kind(k) => i64::from(k),
        Value::Dir(d) => i64::from(d),
        _ => return None,
    })
}

impl<'a> Checker<'a> {
    /// Resolves the `var` and `clock` declarations (their values may name
    /// cells, so after the board), adds the phase variable when the turn
    /// has phases, and lays the variables out in a state.
    pub(super) fn variables(&mut self, sec: &Sections<'a>) {
        for item in &sec.vars {
            let ast::Item::Var { name, per_player, ty, value, clock, span } = item else {
                continue;
            };
            let declared = match ty {
                None if *clock => Some(Ty::Int),
                Some(t) => match type_named(&t.name) {
                    Some(x) => Some(x),
                    None => {
                        self.report(
                            Problem::new(
                                "tabula::check::var",
                                format!("`{}` is not a type of variable", t.name),
                                t.span,
                                "unknown type",
                            )
                            .help("a variable is a `number`, `condition`, `cell`, `player`, `kind` or `direction`"),
                        );
                        Some(Ty::Error)
                    }
                },
                None => None,
            };
            let (ty, init) = match (declared, value) {
                (Some(t), None) => (t, default_word(t).unwrap_or(0)),
                (t, Some(v)) => {
                    let (e, got) = self.expr(v);
                    let ty = match (t, got) {
                        (Some(t), Ty::None) => t,
                        (Some(Ty::Error), _) | (_, Ty::Error) => Ty::Error,
                        (Some(t), g) if t != g => {
                            self.report(self.mismatch(v.span, t, g));
                            Ty::Error
                        }
                        (None, Ty::None) => {
                            self.report(
                                Problem::new(
                                    "tabula::check::var",
                                    "the type of this variable is unknown",
                                    v.span,
                                    "`none` of what?",
                                )
                                .help(format!(
                                    "give the type: `var {}: cell = none` (or `player`, `kind`)",
                                    name.name
                                )),
                            );
                            Ty::Error
                        }
                        (_, g) => g,
                    };
                    let w = match (&e, got) {
                        (_, Ty::None) => default_word(ty),
                        (Expr::Const(c), _) => word_of(c),
                        _ if ty == Ty::Int => self.const_int(&e),
                        _ => None,
                    };
                    if ty != Ty::Error && w.is_none() {
                        self.report(
                            Problem::new(
                                "tabula::check::not_constant",
                                "a variable starts with a constant value",
                                v.span,
                                "this is not a constant",
                            )
                            .help("give a number, a name (cell, player, kind) or `none`; `setup` may change it"),
                        );
                    }
                    (ty, w.unwrap_or(0))
                }
                (None, None) => (Ty::Error, 0),
            };
            let ty = match ty {
                Ty::Int | Ty::Bool | Ty::Cell | Ty::Player | Ty::Kind | Ty::Dir | Ty::Error => ty,
                other => {
                    self.report(
                        Problem::new(
                            "tabula::check::var",
                            format!("a variable cannot hold a {}", other.name()),
                            *span,
                            "not a single value",
                        )
                        .help("a variable is a number, condition, cell, player, kind or direction"),
                    );
                    Ty::Error
                }
            };
            if *clock && !matches!(ty, Ty::Int | Ty::Error) {
                self.report(Problem::new(
                    "tabula::check::var",
                    "a clock counts: its value is a number",
                    *span,
                    "not a number",
                ));
            }
            self.vars.push(ir::VarDecl {
                name: name.name.clone(),
                per_player: *per_player,
                ty,
                init,
                clock: *clock,
                base: 0,
                phase: false,
            });
        }
        if sec.turns.iter().any(|t| t.0.is_some()) {
            self.phases = sec.turns.iter().filter_map(|t| t.0.map(|n| n.name.clone())).collect();
            self.phase_var = Some(self.vars.len() as u16);
            self.vars.push(ir::VarDecl {
                name: "phase".into(),
                per_player: false,
                ty: Ty::Int,
                init: 0,
                clock: false,
                base: 0,
                phase: true,
            });
        }
        let players = self.players.len().max(1);
        let (mut nv, mut nc) = (0, 0);
        for v in &mut self.vars {
            let n = if v.per_player { players } else { 1 };
            let at = if v.clock { &mut nc } else { &mut nv };
            v.base = *at;
            *at += n;
        }
    }

    /// The turn: its one block, or its phases, each run while the phase
    /// variable names it.
    pub(super) fn turns(&mut self, sec: &Sections<'a>) -> Vec<Stmt> {
        let Some(pv) = self.phase_var else {
            return match sec.turn {
                Some((b, _)) => self.block(b),
                None => Vec::new(),
            };
        };
        let blocks: Vec<(Vec<Stmt>, Span)> =
            sec.turns.iter().map(|(_, b, sp)| (self.block(b), *sp)).collect();
        let mut rest: Vec<Stmt> = Vec::new();
        for (i, (body, sp)) in blocks.into_iter().enumerate().rev() {
            let cond = Expr::Binary(
                BinOp::Eq,
                Box::new(Expr::Var(pv, Ty::Int, None)),
                Box::new(Expr::Const(Value::Int(i as i64))),
                Span::default(),
            );
            rest =
                vec![Stmt { kind: StmtKind::If { cond, then: body, otherwise: rest }, span: sp }];
        }
        rest
    }

    /// `phase NAME`: the phase of the turns after this one.
    pub(super) fn phase_stmt(&mut self, n: &ast::Ident) -> StmtKind {
        let Some(pv) = self.phase_var else {
            self.report(
                Problem::new(
                    "tabula::check::phase",
                    "this game has no phases",
                    n.span,
                    "no `turn` is named",
                )
                .help("name each turn block as a phase: `turn placing { ... }`, `turn moving { ... }`"),
            );
            return StmtKind::Block(Vec::new(), Vec::new());
        };
        match self.phases.iter().position(|p| *p == n.name) {
            Some(i) => {
                StmtKind::Assign(ir::Target::Var(pv, None), Expr::Const(Value::Int(i as i64)))
            }
            None => {
                let p = Problem::new(
                    "tabula::check::phase",
                    format!("unknown phase `{}`", n.name),
                    n.span,
                    "no `turn` of this name",
                );
                let p = match super::suggest(&n.name, &self.phases) {
                    Some(s) => p.help(format!("did you mean `{s}`?")),
                    None => p.help(format!("the phases are {}", self.phases.join(", "))),
                };
                self.report(p);
                StmtKind::Block(Vec::new(), Vec::new())
            }
        }
    }

    /// A variable's read (`total`, `score(p)`), if `name` is one.
    pub(super) fn var_read(&mut self, v: u16, arg: Option<Expr>) -> (Expr, Ty) {
        let ty = self.vars.get(v as usize).map_or(Ty::Error, |d| d.ty);
        (Expr::Var(v, ty, arg.map(Box::new)), ty)
    }

    /// Whether variable `v` is per player.
    pub(super) fn var_per_player(&self, v: u16) -> bool {
        self.vars.get(v as usize).is_some_and(|d| d.per_player)
    }

    /// A global name's variable id.
    pub(super) fn global_var(&self, name: &str) -> Option<u16> {
        match self.globals.get(name) {
            Some((Global::Var(v), _)) => Some(*v),
            _ => None,
        }
    }

    /// Builds a graph board: points, their layout, links with their
    /// directions, and lines, every name checked.
    pub(super) fn graph_board(&mut self, g: &'a ast::Graph, sp: Span) {
        let mut spec = GraphSpec::default();
        let mut index: BTreeMap<&str, CellId> = BTreeMap::new();
        let mut places: BTreeMap<(i32, i32), &ast::Ident> = BTreeMap::new();
        let placed = g.points.iter().filter(|p| p.1.is_some()).count();
        let mut declared: BTreeMap<&str, Span> = BTreeMap::new();
        for (n, at) in &g.points {
            if let Some(first) = declared.get(n.name.as_str()) {
                self.report(
                    Problem::new(
                        "tabula::check::graph",
                        format!("point `{}` is declared twice", n.name),
                        n.span,
                        "declared again here",
                    )
                    .also(*first, "first declared here"),
                );
                continue;
            }
            declared.insert(n.name.as_str(), n.span);
            if placed > 0 && at.is_none() {
                self.report(
                    Problem::new(
                        "tabula::check::graph",
                        format!("point `{}` has no place in the layout", n.name),
                        n.span,
                        "no `at (x, y)`",
                    )
                    .help("give every point a place, or none of them"),
                );
            }
            if let Some(xy) = at {
                if let Some(other) = places.insert(*xy, n) {
                    let other = other.span;
                    self.report(
                        Problem::new(
                            "tabula::check::graph",
                            "two points at the same place",
                            n.span,
                            "this point",
                        )
                        .also(other, "is where this one is"),
                    );
                }
            }
            index.insert(n.name.as_str(), spec.names.len() as CellId);
            spec.names.push(n.name.clone());
            spec.at.push(*at);
        }
        let names: Vec<String> = spec.names.clone();
        let point = |c: &mut Self, n: &ast::Ident| -> Option<CellId> {
            match index.get(n.name.as_str()) {
                Some(&i) => Some(i),
                None => {
                    let p = Problem::new(
                        "tabula::check::graph",
                        format!("unknown point `{}`", n.name),
                        n.span,
                        "not among the points",
                    );
                    let p = match super::suggest(&n.name, &names) {
                        Some(s) => p.help(format!("did you mean `{s}`?")),
                        None => p.help("declare it with `points`"),
                    };
                    c.report(p);
                    None
                }
            }
        };
        let dir_of = |c: &mut Self, spec: &mut GraphSpec, d: &Option<ast::Ident>| {
            let d = d.as_ref()?;
            if index.contains_key(d.name.as_str()) {
                c.report(Problem::new(
                    "tabula::check::graph",
                    format!("`{}` names a point and a direction", d.name),
                    d.span,
                    "a direction",
                ));
            }
            Some(match spec.dirs.iter().position(|x| *x == d.name) {
                Some(i) => i as u8,
                None => {
                    spec.dirs.push(d.name.clone());
                    (spec.dirs.len() - 1) as u8
                }
            })
        };
        let mut taken: BTreeMap<(CellId, u8), Span> = BTreeMap::new();
        for (fwd, back, chain) in &g.links {
            let f = dir_of(self, &mut spec, fwd);
            let b = dir_of(self, &mut spec, back);
            let pts: Vec<Option<CellId>> = chain.iter().map(|n| point(self, n)).collect();
            for (i, w) in pts.windows(2).enumerate() {
                let (Some(a), Some(z)) = (w[0], w[1]) else { continue };
                let at = chain[i].span.to(chain[i + 1].span);
                if a == z {
                    self.report(Problem::new(
                        "tabula::check::graph",
                        "a point linked to itself",
                        at,
                        "the same point twice",
                    ));
                    continue;
                }
                for (from, d) in [(a, f), (z, b)] {
                    if let Some(d) = d {
                        if let Some(first) = taken.insert((from, d), at) {
                            self.report(
                                Problem::new(
                                    "tabula::check::graph",
                                    format!(
                                        "two links leave `{}` in direction `{}`",
                                        spec.names[from as usize], spec.dirs[d as usize]
                                    ),
                                    at,
                                    "the second one",
                                )
                                .also(first, "the first one"),
                            );
                        }
                    }
                }
                spec.links.push((a, z, f, b));
            }
        }
        for l in &g.lines {
            let pts: Vec<Option<CellId>> = l.iter().map(|n| point(self, n)).collect();
            if let Some(pts) = pts.into_iter().collect::<Option<Vec<CellId>>>() {
                let mut sorted = pts.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != pts.len() {
                    let at = l[0].span.to(l[l.len() - 1].span);
                    self.report(Problem::new(
                        "tabula::check::graph",
                        "a line goes through a point twice",
                        at,
                        "this line",
                    ));
                    continue;
                }
                spec.lines.push(pts);
            }
        }
        match Board::new(Shape::Graph(Box::new(spec))) {
            Ok(b) => self.board = Some(b),
            Err(why) => self.report(Problem::new(
                "tabula::check::board",
                "this board cannot be built",
                sp,
                why,
            )),
        }
    }
}

/// The value a typed variable without one starts with: 0, false, `none`.
fn default_word(t: Ty) -> Option<i64> {
    Some(match t {
        Ty::Cell => i64::from(crate::board::NO_CELL),
        Ty::Player => i64::from(ir::NONE8),
        Ty::Kind => i64::from(ir::NONE16),
        _ => 0,
    })
}
