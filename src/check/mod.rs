//! Syntax tree to checked game.
//!
//! `check` walks the AST once, in declaration order: parameters (constant,
//! overridable with `--set`), players, board, pieces, zones, then the bodies
//! of `setup`, `turn` and `on no moves`, with `def`s and `action`s inlined
//! at every call site. Names resolve to ids, every expression gets a type,
//! and every problem of the file is collected before anything is returned:
//! the checker carries on after an error with the type `Error`, which
//! silences follow-up complaints about the same expression.

mod expr;
mod stmt;

use crate::board::{Board, Shape};
use crate::diag::Problem;
use crate::ir::{self, Slot, Ty};
use crate::source::{Source, Span};
use crate::syntax::ast;
use std::collections::{BTreeMap, BTreeSet};

/// Checks a parsed file with parameter overrides (`name`, `value`).
pub fn check(
    file: &ast::File,
    source: &Source,
    overrides: &[(String, i64)],
) -> Result<ir::Game, Vec<Problem>> {
    let mut c = Checker::default();
    c.run(file, source, overrides)
}

/// A global name and what it refers to.
#[derive(Debug, Clone, Copy)]
enum Global {
    Param(usize),
    Player(u8),
    Kind(u16),
    Prop(u16),
    Zone(u16),
    Def(usize),
    Action(usize),
}

/// The singular declarations of a file, found in pass 2.
#[derive(Default)]
struct Sections<'a> {
    name: Option<String>,
    board: Option<(&'a ast::BoardShape, Span)>,
    setup: Option<(&'a ast::Block, Span)>,
    turn: Option<(&'a ast::Block, Span)>,
    no_moves: Option<(&'a ast::Block, Span)>,
    at_end: Option<(&'a ast::Block, Span)>,
    players_span: Option<Span>,
}

/// The checked rule bodies, from pass 3.
#[derive(Default)]
struct Bodies {
    setup: Vec<ir::Stmt>,
    turn: Vec<ir::Stmt>,
    no_moves: Option<Vec<ir::Stmt>>,
    at_end: Option<Vec<ir::Stmt>>,
    score: Option<(Slot, ir::Expr)>,
    placements: Vec<Vec<crate::board::CellSet>>,
}

#[derive(Default)]
struct Checker<'a> {
    problems: Vec<Problem>,
    reported: BTreeSet<(u32, u32, String)>,
    params: Vec<(String, Option<i64>)>,
    globals: BTreeMap<String, (Global, Span)>,
    players: Vec<String>,
    kinds: Vec<ir::Kind>,
    props: Vec<String>,
    zones: Vec<ir::Zone>,
    defs: Vec<(&'a [ast::Ident], &'a ast::Expr)>,
    actions: Vec<(&'a [ast::Ident], &'a ast::Block)>,
    board: Option<Board>,
    scopes: Vec<Vec<(String, Slot, Ty)>>,
    next_slot: usize,
    expanding: Vec<String>,
    sites: Vec<ir::Site>,
    in_turn: bool,
    in_setup: bool,
    /// The type of every slot handed out so far.
    slot_tys: Vec<Ty>,
    /// Global names used somewhere (for "never used" warnings).
    used: BTreeSet<String>,
}

impl<'a> Checker<'a> {
    fn report(&mut self, p: Problem) {
        // Inlined defs report problems in their body once per call: keep one.
        if self.reported.insert((p.span.start, p.span.end, p.message.clone())) {
            self.problems.push(p);
        }
    }

    fn declare(&mut self, name: &ast::Ident, g: Global) {
        if let Some((_, first)) = self.globals.get(&name.name) {
            let first = *first;
            self.report(
                Problem::new(
                    "tabula::check::duplicate",
                    format!("`{}` is defined twice", name.name),
                    name.span,
                    "defined again here",
                )
                .also(first, "first defined here")
                .help("every player, piece, property, zone, parameter, def and action needs its own name"),
            );
            return;
        }
        self.globals.insert(name.name.clone(), (g, name.span));
    }

    fn slot(&mut self, ty: Ty) -> Slot {
        self.next_slot += 1;
        self.slot_tys.push(ty);
        (self.next_slot - 1) as Slot
    }

    fn bind(&mut self, name: &str, ty: Ty) -> Slot {
        let s = self.slot(ty);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), s, ty));
        }
        s
    }

    fn lookup_local(&self, name: &str) -> Option<(Slot, Ty)> {
        for scope in self.scopes.iter().rev() {
            if let Some((_, s, t)) = scope.iter().rev().find(|(n, _, _)| n == name) {
                return Some((*s, *t));
            }
        }
        None
    }

    /// The integer value of a constant expression, if it is one.
    fn const_int(&self, e: &ir::Expr) -> Option<i64> {
        match e {
            ir::Expr::Const(ir::Value::Int(n)) => Some(*n),
            ir::Expr::Unary(ir::UnOp::Neg, a) => self.const_int(a).map(|n| -n),
            ir::Expr::Binary(op, a, b, _) => {
                let (a, b) = (self.const_int(a)?, self.const_int(b)?);
                match op {
                    ir::BinOp::Add => a.checked_add(b),
                    ir::BinOp::Sub => a.checked_sub(b),
                    ir::BinOp::Mul => a.checked_mul(b),
                    ir::BinOp::Div => a.checked_div(b),
                    ir::BinOp::Rem => a.checked_rem(b),
                    _ => None,
                }
            }
            ir::Expr::Builtin(ir::Builtin::Min, args, _) => {
                Some(self.const_int(&args[0])?.min(self.const_int(&args[1])?))
            }
            ir::Expr::Builtin(ir::Builtin::Max, args, _) => {
                Some(self.const_int(&args[0])?.max(self.const_int(&args[1])?))
            }
            _ => None,
        }
    }

    /// Checks `e` as a constant number (parameters, board sizes, properties).
    fn constant(&mut self, e: &'a ast::Expr, what: &str) -> Option<i64> {
        let (ir, ty) = self.expr(e);
        if ty == Ty::Error {
            return None;
        }
        if ty != Ty::Int {
            self.report(self.mismatch(e.span, Ty::Int, ty));
            return None;
        }
        let v = self.const_int(&ir);
        if v.is_none() {
            self.report(
                Problem::new(
                    "tabula::check::not_constant",
                    format!("{what} must be a constant number"),
                    e.span,
                    "this depends on the position",
                )
                .help("use numbers, parameters and arithmetic only"),
            );
        }
        v
    }

    fn run(
        &mut self,
        file: &'a ast::File,
        source: &Source,
        overrides: &[(String, i64)],
    ) -> Result<ir::Game, Vec<Problem>> {
        self.params(file, overrides);
        let sec = self.declarations(file);
        let sequences = self.layout();
        self.required(&sec);
        let b = self.bodies(&sec);
        if !self.problems.is_empty() {
            return Err(std::mem::take(&mut self.problems));
        }
        let warnings = self.unused(source);
        let board = match self.board.take() {
            Some(b) => b,
            None => return Err(vec![]),
        };
        let mut piece_codes = vec![(0, 0)];
        for p in 0..self.players.len() as u8 {
            for k in 0..self.kinds.len() as u16 {
                piece_codes.push((p, k));
            }
        }
        Ok(ir::Game {
            piece_codes,
            source: source.clone(),
            name: sec.name.unwrap_or_else(|| source.name.clone()),
            players: std::mem::take(&mut self.players),
            params: self.params.iter().map(|(n, v)| (n.clone(), v.unwrap_or(0))).collect(),
            board,
            kinds: std::mem::take(&mut self.kinds),
            props: std::mem::take(&mut self.props),
            zones: std::mem::take(&mut self.zones),
            setup: b.setup,
            turn: b.turn,
            turn_span: sec.turn.map(|t| t.1).unwrap_or_default(),
            no_moves: b.no_moves,
            at_end: b.at_end,
            placements: b.placements,
            sequences,
            score: b.score,
            warnings,
            sites: std::mem::take(&mut self.sites),
            slots: self.next_slot,
            slot_tys: std::mem::take(&mut self.slot_tys),
        })
    }

    /// Pass 1: parameters, in order (each may use the ones before it), with
    /// the `--set` overrides.
    fn params(&mut self, file: &'a ast::File, overrides: &[(String, i64)]) {
        let mut used_overrides = BTreeSet::new();
        for item in &file.items {
            if let ast::Item::Param { name: n, value, range, .. } = item {
                let Some(mut v) = self.constant(value, "a parameter's value") else {
                    self.params.push((n.name.clone(), None));
                    self.declare(n, Global::Param(self.params.len() - 1));
                    continue;
                };
                if let Some((_, o)) = overrides.iter().find(|(on, _)| *on == n.name) {
                    used_overrides.insert(n.name.clone());
                    v = *o;
                }
                if let Some((lo, hi)) = range {
                    let lo_v = self.constant(lo, "a parameter's bound");
                    let hi_v = self.constant(hi, "a parameter's bound");
                    if let (Some(l), Some(h)) = (lo_v, hi_v) {
                        if v < l || v > h {
                            self.report(
                                Problem::new(
                                    "tabula::check::param_range",
                                    format!("parameter `{}` is {v}, outside {l}..{h}", n.name),
                                    lo.span.to(hi.span),
                                    "allowed range",
                                )
                                .help(format!("choose a value from {l} to {h}")),
                            );
                            // Unknown from here on: no follow-up errors.
                            self.params.push((n.name.clone(), None));
                            self.declare(n, Global::Param(self.params.len() - 1));
                            continue;
                        }
                    }
                }
                self.params.push((n.name.clone(), Some(v)));
                self.declare(n, Global::Param(self.params.len() - 1));
            }
        }
        for (o, _) in overrides {
            if !used_overrides.contains(o) {
                let known: Vec<&str> = self.params.iter().map(|(n, _)| n.as_str()).collect();
                let p = Problem::new(
                    "tabula::check::unknown_param",
                    format!("`--set {o}=...`: the game has no parameter `{o}`"),
                    Span::default(),
                    "parameters are declared with `param`",
                );
                self.report(if known.is_empty() {
                    p.help("this game declares no parameters")
                } else {
                    p.help(format!("parameters: {}", known.join(", ")))
                });
            }
        }
    }

    /// Pass 2: every other declaration; the blocks are kept for pass 3.
    fn declarations(&mut self, file: &'a ast::File) -> Sections<'a> {
        let mut sec = Sections::default();
        for item in &file.items {
            match item {
                ast::Item::Param { .. } => {}
                ast::Item::Game(s) => {
                    if sec.name.is_some() {
                        self.report(Problem::new(
                            "tabula::check::duplicate",
                            "the game is named twice",
                            s.span,
                            "second `game`",
                        ));
                    }
                    sec.name = Some(s.text.clone());
                }
                ast::Item::Players(ps, count, sp) => {
                    if sec.players_span.is_some() {
                        self.report(Problem::new(
                            "tabula::check::duplicate",
                            "`players` is declared twice",
                            *sp,
                            "second `players`",
                        ));
                        continue;
                    }
                    sec.players_span = Some(*sp);
                    if ps.len() > 8 {
                        self.report(Problem::new(
                            "tabula::check::players",
                            "too many players",
                            *sp,
                            "at most 8 players",
                        ));
                    }
                    let mut take = ps.len().min(8);
                    if let Some(c) = count {
                        // A bare parameter name means the parameter, even `players`.
                        let param = match &c.kind {
                            ast::ExprKind::Name(n) => {
                                self.used.insert(n.clone());
                                self.params.iter().find(|p| p.0 == *n).map(|p| p.1)
                            }
                            _ => None,
                        };
                        let n = match param {
                            Some(v) => v,
                            None => self.constant(c, "the number of players"),
                        };
                        if let Some(n) = n {
                            if n < 1 || n as usize > ps.len().min(8) {
                                self.report(
                                    Problem::new(
                                        "tabula::check::players",
                                        format!("{n} players, but {} are named", ps.len()),
                                        c.span,
                                        format!("must be between 1 and {}", ps.len().min(8)),
                                    )
                                    .help("name as many players as the largest count allows"),
                                );
                            } else {
                                take = n as usize;
                            }
                        }
                    }
                    for p in ps.iter().take(take) {
                        self.players.push(p.name.clone());
                        self.declare(p, Global::Player((self.players.len() - 1) as u8));
                    }
                }
                ast::Item::Board(shape, sp) => {
                    if sec.board.is_some() {
                        self.report(Problem::new(
                            "tabula::check::duplicate",
                            "`board` is declared twice",
                            *sp,
                            "second `board`",
                        ));
                        continue;
                    }
                    sec.board = Some((shape, *sp));
                }
                ast::Item::Piece { name: n, symbol, props, covers, .. } => {
                    let id = self.kinds.len() as u16;
                    self.declare(n, Global::Kind(id));
                    let mut values = vec![0; self.props.len()];
                    for (pn, pv) in props {
                        let pid = match self.globals.get(&pn.name) {
                            Some((Global::Prop(p), _)) => *p as usize,
                            _ => {
                                self.props.push(pn.name.clone());
                                self.declare(pn, Global::Prop((self.props.len() - 1) as u16));
                                values.push(0);
                                self.props.len() - 1
                            }
                        };
                        if let Some(v) = self.constant(pv, "a property") {
                            values[pid] = v;
                        }
                    }
                    let sp = symbol.as_ref().map_or(n.span, |s| s.span);
                    let symbol = symbol.as_ref().map(|s| s.text.clone()).unwrap_or(n.name.clone());
                    if symbol.is_empty() || symbol.contains(char::is_whitespace) {
                        self.report(Problem::new(
                            "tabula::check::symbol",
                            "a piece symbol must be a non-empty word",
                            sp,
                            "used in move notation",
                        ));
                    }
                    let shape = covers.as_ref().map(|(cells, csp)| {
                        let mut sorted = cells.clone();
                        sorted.sort_unstable();
                        sorted.dedup();
                        if sorted.len() != cells.len() {
                            self.report(
                                Problem::new(
                                    "tabula::check::covers",
                                    "a cell is listed twice",
                                    *csp,
                                    "every covered cell once",
                                )
                                .help(
                                    "list each cell of the tile once, e.g. `covers (0, 0) (1, 0)`",
                                ),
                            );
                        }
                        cells.clone()
                    });
                    self.kinds.push(ir::Kind {
                        name: n.name.clone(),
                        symbol,
                        props: values,
                        shape,
                    });
                }
                ast::Item::Zone { name: n, per_player, ordered, visibility, .. } => {
                    self.zones.push(ir::Zone {
                        name: n.name.clone(),
                        per_player: *per_player,
                        ordered: *ordered,
                        visibility: visibility_of(*visibility),
                        seq_base: 0,
                    });
                    self.declare(n, Global::Zone((self.zones.len() - 1) as u16));
                }
                ast::Item::Def { name: n, params, body, .. } => {
                    self.defs.push((params, body));
                    self.declare(n, Global::Def(self.defs.len() - 1));
                }
                ast::Item::Action { name: n, params, body, .. } => {
                    self.actions.push((params, body));
                    self.declare(n, Global::Action(self.actions.len() - 1));
                }
                ast::Item::Setup(b, sp) => dup_block(self, &mut sec.setup, b, *sp, "setup"),
                ast::Item::Turn(b, sp) => dup_block(self, &mut sec.turn, b, *sp, "turn"),
                ast::Item::NoMoves(b, sp) => {
                    dup_block(self, &mut sec.no_moves, b, *sp, "on no moves")
                }
                ast::Item::AtEnd(b, sp) => dup_block(self, &mut sec.at_end, b, *sp, "at end"),
            }
        }
        sec
    }

    /// Sequence slots for ordered zones and full property vectors; returns
    /// the number of sequences a state holds.
    fn layout(&mut self) -> usize {
        // Ordered zones get sequence slots, now that the players are known.
        let mut sequences = 0;
        for z in &mut self.zones {
            if z.ordered {
                z.seq_base = sequences;
                sequences += if z.per_player { self.players.len().max(1) } else { 1 };
            }
        }
        // Kinds declared before a property got their value vectors short.
        for k in &mut self.kinds {
            k.props.resize(self.props.len(), 0);
        }

        sequences
    }

    /// The sections a game cannot do without, and the board.
    fn required(&mut self, sec: &Sections<'a>) {
        let start = Span::new(0, 0);
        if sec.players_span.is_none() {
            self.report(
                Problem::new(
                    "tabula::check::missing",
                    "the game has no `players` declaration",
                    start,
                    "expected `players` somewhere in this file",
                )
                .help("add a line such as `players White, Black`"),
            );
        }
        match sec.board {
            // A game without a board (a card game) has a board of no cells.
            None => self.board = Board::new(Shape::None).ok(),
            Some((shape, sp)) => self.board_from(shape, sp),
        }
        if sec.turn.is_none() {
            self.report(
                Problem::new(
                    "tabula::check::missing",
                    "the game has no `turn` rule",
                    start,
                    "expected `turn { ... }` somewhere in this file",
                )
                .help("a turn is a block of statements, e.g. `turn { choose c in cells where empty(c)  place Stone at c }`"),
            );
        }
    }

    /// Pass 3: the rule bodies (only meaningful with a board).
    fn bodies(&mut self, sec: &Sections<'a>) -> Bodies {
        let mut b = Bodies::default();
        if let Some(board) = &self.board {
            b.placements = self
                .kinds
                .iter()
                .map(|k| k.shape.as_ref().map_or(Vec::new(), |s| board.placements(s)))
                .collect();
        }
        if self.board.is_some() {
            if let Some((x, _)) = sec.setup {
                self.in_setup = true;
                b.setup = self.block(x);
                self.in_setup = false;
            }
            if let Some((x, _)) = sec.turn {
                self.in_turn = true;
                b.turn = self.block(x);
                self.in_turn = false;
            }
            if let Some((x, _)) = sec.no_moves {
                b.no_moves = Some(self.block(x));
            }
            if let Some((x, _)) = sec.at_end {
                b.at_end = Some(self.block(x));
            }
            // `def score(p)`: reported by playouts as each player's score.
            if let Some((Global::Def(d), _)) = self.globals.get("score").copied() {
                self.used.insert("score".into());
                let (params, body) = self.defs[d];
                if let [p] = params {
                    self.scopes = vec![Vec::new()];
                    let slot = self.bind(&p.name, Ty::Player);
                    let e = self.expect(body, Ty::Int);
                    self.scopes.clear();
                    b.score = Some((slot, e));
                }
            }
        }

        b
    }

    fn board_from(&mut self, shape: &'a ast::BoardShape, sp: Span) {
        type Make = fn(&[u32]) -> Shape;
        let (dims, make): (Vec<Option<i64>>, Make) = match shape {
            ast::BoardShape::Square { width, height, neighbours } => (
                vec![
                    self.constant(width, "the board's width"),
                    self.constant(height, "the board's height"),
                    match neighbours {
                        Some(n) => self.constant(n, "the number of neighbours"),
                        None => Some(4),
                    },
                ],
                |d| Shape::Square { width: d[0], height: d[1], neighbours: d[2] },
            ),
            ast::BoardShape::Rhombus { width, height } => (
                vec![
                    self.constant(width, "the board's width"),
                    self.constant(height, "the board's height"),
                ],
                |d| Shape::Rhombus { width: d[0], height: d[1] },
            ),
            ast::BoardShape::HexHex { side } => {
                (vec![self.constant(side, "the board's side")], |d| Shape::HexHex { side: d[0] })
            }
        };
        // A size that is not a constant was reported already.
        let Some(dims) = dims.into_iter().collect::<Option<Vec<i64>>>() else { return };
        if dims.iter().any(|&d| d <= 0) {
            self.report(Problem::new(
                "tabula::check::board",
                "board sizes must be positive",
                sp,
                "this board has no cells",
            ));
            return;
        }
        let dims: Vec<u32> = dims.iter().map(|&d| u32::try_from(d).unwrap_or(u32::MAX)).collect();
        let shape = make(&dims);
        match Board::new(shape) {
            Ok(b) => self.board = Some(b),
            Err(why) => self.report(
                Problem::new("tabula::check::board", "this board cannot be built", sp, why)
                    .help("change the board's size or its parameters"),
            ),
        }
    }

    /// Warnings for declarations nothing uses: defs, actions, parameters,
    /// zones and properties (a likely typo or a rule forgotten).
    fn unused(&self, source: &Source) -> Vec<Problem> {
        let mut out = Vec::new();
        for (name, (g, span)) in &self.globals {
            let what = match g {
                Global::Def(_) => "def",
                Global::Action(_) => "action",
                Global::Param(_) => "parameter",
                Global::Zone(_) => "zone",
                Global::Prop(_) => "property",
                Global::Player(_) | Global::Kind(_) => continue,
            };
            if self.used.contains(name) {
                continue;
            }
            out.push(
                Problem::new(
                    "tabula::check::unused",
                    format!("{what} `{name}` is never used"),
                    *span,
                    "declared here",
                )
                .help("use it in the rules, or remove it")
                .warning()
                .with_source(source),
            );
        }
        out.sort_by_key(|p| p.span.start);
        out
    }

    /// Every global name, for "did you mean" suggestions.
    fn known_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.globals.keys().cloned().collect();
        for scope in &self.scopes {
            v.extend(scope.iter().map(|(n, _, _)| n.clone()));
        }
        v.extend(expr::BUILTIN_NAMES.iter().map(|s| s.to_string()));
        if let Some(b) = &self.board {
            v.extend(b.dir_names.iter().map(|s| s.to_string()));
        }
        v
    }

    fn mismatch(&self, span: Span, want: Ty, got: Ty) -> Problem {
        let p = Problem::new(
            "tabula::check::type",
            format!("expected a {}, found a {}", want.name(), got.name()),
            span,
            format!("this is a {}", got.name()),
        );
        let how = match want {
            Ty::Int => {
                "numbers come from literals, parameters, `count(...)`, `size(...)` or properties"
            }
            Ty::Bool => {
                "conditions come from comparisons, `empty(c)`, `any x in ...: ...` and the like"
            }
            Ty::Cell => {
                "cells come from `choose`/`for` over `cells`, from `step(c, d)` or from a line"
            }
            Ty::Player => "players are `me`, `opponent`, a player's name or `owner(c)`",
            Ty::Kind => "piece kinds are the names declared with `piece`, or `kind(c)`",
            Ty::Zone => {
                "zones are declared with `zone`; a per-player zone is written `name(player)`"
            }
            Ty::Dir => "directions are the board's direction names, e.g. `n` or `ne`",
            _ => "see the table of types in docs/language.md",
        };
        p.help(how)
    }
}

fn dup_block<'a>(
    c: &mut Checker<'a>,
    slot: &mut Option<(&'a ast::Block, Span)>,
    b: &'a ast::Block,
    sp: Span,
    what: &str,
) {
    if let Some((_, first)) = slot {
        let first = *first;
        c.report(
            Problem::new(
                "tabula::check::duplicate",
                format!("`{what}` is declared twice"),
                sp,
                "declared again here",
            )
            .also(first, "first declared here")
            .help(format!("merge the two `{what}` blocks into one")),
        );
        return;
    }
    *slot = Some((b, sp));
}

/// The closest name to `name` among `known` (for "did you mean").
pub(crate) fn suggest(name: &str, known: &[String]) -> Option<String> {
    let mut best: Option<(usize, &String)> = None;
    for k in known {
        let d = distance(name, k);
        if d <= 2.max(name.len() / 3) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k.clone())
}

fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The IR's operators are its own types (the IR does not depend on the AST).
fn binop(op: ast::BinOp) -> ir::BinOp {
    use ast::BinOp as A;
    use ir::BinOp as I;
    match op {
        A::Or => I::Or,
        A::And => I::And,
        A::Eq => I::Eq,
        A::Ne => I::Ne,
        A::Lt => I::Lt,
        A::Le => I::Le,
        A::Gt => I::Gt,
        A::Ge => I::Ge,
        A::Add => I::Add,
        A::Sub => I::Sub,
        A::Mul => I::Mul,
        A::Div => I::Div,
        A::Rem => I::Rem,
    }
}

fn unop(op: ast::UnOp) -> ir::UnOp {
    match op {
        ast::UnOp::Not => ir::UnOp::Not,
        ast::UnOp::Neg => ir::UnOp::Neg,
    }
}

fn quant(q: ast::Quant) -> ir::Quant {
    use ast::Quant as A;
    use ir::Quant as I;
    match q {
        A::Any => I::Any,
        A::All => I::All,
        A::None => I::None,
        A::Count => I::Count,
        A::Sum => I::Sum,
        A::Max => I::Max,
        A::Min => I::Min,
        A::Collect => I::Collect,
    }
}

fn visibility_of(v: ast::Visibility) -> ir::Visibility {
    match v {
        ast::Visibility::Public => ir::Visibility::Public,
        ast::Visibility::Owner => ir::Visibility::Owner,
        ast::Visibility::Hidden => ir::Visibility::Hidden,
    }
}
