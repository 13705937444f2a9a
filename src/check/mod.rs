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
mod vars;

use crate::board::{Board, Shape};
use crate::diag::Problem;
use crate::ir::{self, Slot, Ty};
use crate::source::{Source, Span};
use crate::syntax::ast;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Deepest nesting of the checked rules, defs and actions inlined (stack
/// safety of the compiler and the evaluator).
pub const MAX_IR_DEPTH: usize = 256;
/// Most expressions and statements checked, defs and actions inlined at
/// every use: the size of the checked rules is bounded by this.
pub const MAX_IR_SIZE: usize = 200_000;
/// Most piece kinds (a cell stores player and kind in 16 bits).
pub const MAX_KINDS: usize = 1000;
/// Most zones, and most properties.
pub const MAX_ZONES: usize = 256;
/// Most zone counters in a state (zones x owners x kinds).
pub const MAX_COUNTERS: usize = 1 << 16;
/// Most local slots and decision points (ids are 16 bits).
pub const MAX_SLOTS: usize = 60_000;
/// Unknown names that get a "did you mean" (each costs a scan of all names).
const MAX_SUGGESTIONS: usize = 100;
/// Checks a parsed file with parameter overrides (`name`, `value`).
///
/// A game that checks is also checked across its declared parameter
/// ranges (see [`ranges`]): a value the range allows but the rules cannot
/// take is an error now, not when someone sets it.
pub fn check(
    file: &ast::File,
    source: &Source,
    overrides: &[(String, i64)],
) -> Result<ir::Game, Vec<Problem>> {
    let game = Checker::default().run(file, source, overrides)?;
    let problems = ranges(file, source, overrides);
    if problems.is_empty() {
        Ok(game)
    } else {
        Err(problems)
    }
}

/// Values of a range checked by [`ranges`]: all of them up to this many,
/// else this many spread evenly, both ends included.
pub const RANGE_SAMPLES: i64 = 8;

/// When a sample fails, ranges of up to this many values are checked at
/// every value, to name exactly those that fail.
pub const RANGE_EXACT: i64 = 64;

/// Checks the game at the values of every declared parameter range: each
/// parameter on its own (up to [`RANGE_SAMPLES`] values, the others as
/// set), then all parameters at their lowest and all at their highest
/// values together. Returns one problem per parameter whose range holds
/// values the game does not check with (naming them), and one per failing
/// corner.
pub fn ranges(file: &ast::File, source: &Source, overrides: &[(String, i64)]) -> Vec<Problem> {
    // The declared ranges, with their values as the game sets them.
    let mut decl: Vec<(&ast::Ident, Span, i64, i64)> = Vec::new();
    let mut probe = Checker::default();
    probe.params(file, overrides);
    for item in &file.items {
        if let ast::Item::Param { name, range: Some((lo, hi)), .. } = item {
            let (Some(l), Some(h)) = (probe.constant_quiet(lo), probe.constant_quiet(hi)) else {
                continue;
            };
            if l <= h {
                decl.push((name, lo.span.to(hi.span), l, h));
            }
        }
    }
    let attempt = |set: &[(String, i64)]| -> Option<Problem> {
        let mut ovr: Vec<(String, i64)> =
            overrides.iter().filter(|(n, _)| !set.iter().any(|(m, _)| m == n)).cloned().collect();
        ovr.extend(set.iter().cloned());
        Checker { probe: true, ..Checker::default() }.run(file, source, &ovr).err().and_then(
            |mut ps| {
                ps.sort_by_key(|p| (p.span.start, p.span.end));
                ps.into_iter().next()
            },
        )
    };
    let mut out = Vec::new();
    for &(name, span, lo, hi) in &decl {
        let current = probe.params.iter().find(|(n, _)| *n == name.name).and_then(|p| p.1);
        let n = hi - lo + 1;
        let values: Vec<i64> = if n <= RANGE_SAMPLES {
            (lo..=hi).collect()
        } else {
            (0..RANGE_SAMPLES).map(|i| lo + (n - 1) * i / (RANGE_SAMPLES - 1)).collect()
        };
        let probe_all = |values: &mut dyn Iterator<Item = i64>| {
            let mut failing: Vec<(i64, Problem)> = Vec::new();
            for v in values {
                if Some(v) == current {
                    continue;
                }
                if let Some(p) = attempt(&[(name.name.clone(), v)]) {
                    failing.push((v, p));
                }
            }
            failing
        };
        let mut failing = probe_all(&mut values.into_iter());
        // A sample found a failure: say exactly which values fail, when the
        // range is short enough to try them all.
        let exact = n <= RANGE_SAMPLES || n <= RANGE_EXACT;
        if !failing.is_empty() && n > RANGE_SAMPLES && exact {
            failing = probe_all(&mut (lo..=hi));
        }
        let Some((v0, first)) = failing.first() else { continue };
        let list = runs(&failing.iter().map(|(v, _)| *v).collect::<Vec<_>>());
        let sampled = if exact { "" } else { " (of the values checked)" };
        let mut p = Problem::new(
            "tabula::check::param_range",
            format!(
                "parameter `{}` allows {lo}..{hi}, but the game does not check with {} = {list}{sampled}",
                name.name, name.name
            ),
            span,
            "declared range",
        )
        .also(first.span, format!("with {} = {v0}: {}", name.name, detail(first)))
        .help("narrow the range to the values the rules can take");
        if first.span == Span::default() {
            p.secondary.clear();
            p = p.help(format!("with {} = {v0}: {}", name.name, detail(first)));
        }
        out.push(p);
    }
    // The corners: all lowest, all highest (when each value checks alone).
    if out.is_empty() && decl.len() > 1 {
        for (which, pick) in [("lowest", 0), ("highest", 1)] {
            let set: Vec<(String, i64)> = decl
                .iter()
                .map(|(n, _, l, h)| (n.name.clone(), if pick == 0 { *l } else { *h }))
                .collect();
            if let Some(first) = attempt(&set) {
                let values: Vec<String> = set.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                out.push(
                    Problem::new(
                        "tabula::check::param_range",
                        format!(
                            "the parameters do not check together at their {which} values ({})",
                            values.join(", ")
                        ),
                        decl[0].1,
                        "declared range",
                    )
                    .also(first.span, detail(&first))
                    .help("narrow the ranges so that every combination the game allows works"),
                );
            }
        }
    }
    out
}

/// A problem in one line: its message and its label.
fn detail(p: &Problem) -> String {
    format!("{} ({})", p.message, p.label)
}

/// `1, 3..5, 9` from sorted values.
fn runs(values: &[i64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let mut j = i;
        while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}..{}", values[i], values[j])
        } else {
            values[i].to_string()
        });
        i = j + 1;
    }
    parts.join(", ")
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
    Var(u16),
}

/// The singular declarations of a file, found in pass 2.
#[derive(Default)]
struct Sections<'a> {
    name: Option<String>,
    board: Option<(&'a ast::BoardShape, Span)>,
    setup: Option<(&'a ast::Block, Span)>,
    turn: Option<(&'a ast::Block, Span)>,
    /// Every `turn` block with its phase name.
    turns: Vec<(Option<&'a ast::Ident>, &'a ast::Block, Span)>,
    /// `var` and `clock` declarations, resolved once the board is known.
    vars: Vec<&'a ast::Item>,
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

/// The local names in scope: a stack of scopes with an index by name, so
/// a lookup does not scan every `let` of a long block.
#[derive(Default)]
struct Scopes {
    names: Vec<(String, Slot, Ty, bool, Span)>,
    marks: Vec<usize>,
    index: HashMap<String, Vec<usize>>,
    /// Names bound in a block that has ended: where the name was bound and
    /// the block (the latest such block for each name), so that a use after
    /// the block can name the cause.
    ended: HashMap<String, (Span, Span)>,
}

impl Scopes {
    /// Scopes holding one empty scope (the start of a body or an inlining).
    fn fresh() -> Scopes {
        Scopes { marks: vec![0], ..Scopes::default() }
    }

    fn open(&mut self) {
        self.marks.push(self.names.len());
    }

    fn close(&mut self) {
        self.close_inner(None);
    }

    /// Closes the scope of the block `block`, remembering its names as
    /// ended there.
    fn close_block(&mut self, block: Span) {
        self.close_inner(Some(block));
    }

    fn close_inner(&mut self, block: Option<Span>) {
        let mark = self.marks.pop().unwrap_or(0);
        while self.names.len() > mark {
            if let Some((n, _, _, _, at)) = self.names.pop() {
                if let Some(v) = self.index.get_mut(&n) {
                    v.pop();
                    if v.is_empty() {
                        self.index.remove(&n);
                    }
                }
                if let Some(b) = block {
                    self.ended.insert(n, (at, b));
                }
            }
        }
    }

    /// Binds a name in the innermost scope (nothing without a scope).
    fn bind(&mut self, name: &ast::Ident, slot: Slot, ty: Ty) {
        self.bind_as(name, slot, ty, false);
    }

    /// Binds a name; `assignable` for a `let` (which `x = e` may change).
    fn bind_as(&mut self, name: &ast::Ident, slot: Slot, ty: Ty, assignable: bool) {
        if self.marks.is_empty() {
            return;
        }
        self.index.entry(name.name.clone()).or_default().push(self.names.len());
        self.names.push((name.name.clone(), slot, ty, assignable, name.span));
    }

    /// Where `name` was bound and the block that ended its scope, when it
    /// is not in scope now.
    fn ended(&self, name: &str) -> Option<(Span, Span)> {
        if self.index.contains_key(name) {
            return None;
        }
        self.ended.get(name).copied()
    }

    fn lookup(&self, name: &str) -> Option<(Slot, Ty)> {
        self.lookup_full(name).map(|(s, t, _)| (s, t))
    }

    /// A local with whether it may be assigned.
    fn lookup_full(&self, name: &str) -> Option<(Slot, Ty, bool)> {
        let i = *self.index.get(name)?.last()?;
        self.names.get(i).map(|(_, s, t, a, _)| (*s, *t, *a))
    }
}

#[derive(Default)]
struct Checker<'a> {
    /// Checking a parameter range's value only: skip work whose result only
    /// running the game needs (tile placements).
    probe: bool,
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
    scopes: Scopes,
    next_slot: usize,
    expanding: Vec<String>,
    sites: Vec<ir::Site>,
    in_turn: bool,
    in_setup: bool,
    /// The type of every slot handed out so far.
    slot_tys: Vec<Ty>,
    /// Global names used somewhere (for "never used" warnings).
    used: BTreeSet<String>,
    /// Current nesting of the checked rules (defs and actions inlined).
    depth: usize,
    /// "Nesting too deep" was reported below the current node.
    deep_reported: bool,
    /// Expressions and statements checked so far.
    size: usize,
    /// The size budget ran out: everything else is skipped.
    exhausted: bool,
    /// Where each def or action being inlined was used, outermost first.
    calls: Vec<Span>,
    /// "Did you mean" suggestions made so far.
    suggestions: usize,
    /// Variables kept in the position.
    vars: Vec<ir::VarDecl>,
    /// Literal lists of words.
    lists: Vec<Vec<i64>>,
    /// The turn's phases.
    phases: Vec<String>,
    /// `repetitions` is used.
    history: bool,
    /// `upto` or `before` is used: lines need their prefixes.
    prefixes: bool,
    /// The phase variable, when the turn has phases.
    phase_var: Option<u16>,
    /// The game text (line numbers in messages).
    text: std::sync::Arc<str>,
    /// Where each kind's symbol is written (its name when it has none).
    symbol_spans: Vec<Span>,
    /// Warnings found while checking (unused names are added at the end).
    warnings: Vec<Problem>,
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
                .help("every player, piece, property, zone, variable, parameter, def and action needs its own name"),
            );
            return;
        }
        self.globals.insert(name.name.clone(), (g, name.span));
    }

    fn slot(&mut self, ty: Ty) -> Slot {
        // Past the limit every slot is the last one; `run` reports it.
        self.next_slot += 1;
        self.slot_tys.push(ty);
        (self.next_slot - 1).min(MAX_SLOTS) as Slot
    }

    fn bind(&mut self, name: &ast::Ident, ty: Ty) -> Slot {
        let s = self.slot(ty);
        self.scopes.bind(name, s, ty);
        s
    }

    /// Reports a use of `name` after the block that bound it ended;
    /// `false` when `name` was never bound in an ended block.
    fn out_of_scope(&mut self, name: &str, span: Span) -> bool {
        let Some((bound, block)) = self.scopes.ended(name) else {
            return false;
        };
        let text = &self.text;
        let end = (block.end as usize).min(text.len());
        let line = text[..end].matches('\n').count() + 1;
        let close = Span::new(end.saturating_sub(1), end);
        self.report(
            Problem::new(
                "tabula::check::out_of_scope",
                format!("`{name}` was bound inside a block that ended at line {line}"),
                span,
                "used after its block",
            )
            .also(bound, "bound here")
            .also(close, "its block ends here")
            .help(format!(
                "use `{name}` inside that block, or declare it before the block with `let {name} = ...` and assign it inside"
            )),
        );
        true
    }

    fn lookup_local(&self, name: &str) -> Option<(Slot, Ty)> {
        self.scopes.lookup(name)
    }

    /// One level into the checked rules; `false` (and one report) past
    /// [`MAX_IR_DEPTH`] or once the size budget is spent. A `true` is
    /// matched by a `leave`.
    fn enter(&mut self, at: Span) -> bool {
        if self.exhausted {
            return false;
        }
        self.size += 1;
        if self.size > MAX_IR_SIZE {
            self.exhausted = true;
            let at = self.calls.first().copied().unwrap_or(at);
            self.report(
                Problem::new(
                    "tabula::check::too_large",
                    "the rules are too large once defs and actions are inlined",
                    at,
                    format!("more than {MAX_IR_SIZE} expressions and statements from here"),
                )
                .help("defs and actions are copied at every use: a def that uses another twice doubles it; use `let` for a value needed twice"),
            );
            return false;
        }
        if self.depth >= MAX_IR_DEPTH {
            if !self.deep_reported {
                self.deep_reported = true;
                let mut p = Problem::new(
                    "tabula::check::too_deep",
                    "nesting too deep once defs and actions are inlined",
                    at,
                    format!("more than {MAX_IR_DEPTH} levels of nesting here"),
                )
                .help("defs and actions are copied where they are used, so their nesting adds up; use `let` to name a part");
                if let Some(first) = self.calls.first() {
                    p = p.also(*first, "inlined from here");
                }
                self.report(p);
            }
            return false;
        }
        self.depth += 1;
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
        if self.depth + 1 < MAX_IR_DEPTH {
            self.deep_reported = false;
        }
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

    /// The value of `e` if it is a constant number, reporting nothing.
    fn constant_quiet(&mut self, e: &'a ast::Expr) -> Option<i64> {
        let saved = (self.problems.len(), self.reported.clone());
        let (ir, ty) = self.expr(e);
        self.problems.truncate(saved.0);
        self.reported = saved.1;
        if ty == Ty::Int {
            self.const_int(&ir)
        } else {
            None
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
        self.text = source.text.clone();
        self.params(file, overrides);
        let sec = self.declarations(file);
        let sequences = self.layout();
        self.required(&sec);
        self.variables(&sec);
        let b = self.bodies(&sec);
        if self.prefixes {
            if let Some(board) = self.board.as_mut() {
                board.add_prefixes();
            }
        }
        self.limits(file);
        if !self.problems.is_empty() {
            return Err(std::mem::take(&mut self.problems));
        }
        let mut warnings = std::mem::take(&mut self.warnings);
        warnings.extend(self.unused(source));
        let mut warnings: Vec<Problem> =
            warnings.into_iter().map(|p| p.with_source(source)).collect();
        warnings.sort_by_key(|p| (p.span.start, p.span.end));
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
            turn_span: sec.turns.first().map(|t| t.2).unwrap_or_default(),
            no_moves: b.no_moves,
            at_end: b.at_end,
            placements: b.placements,
            sequences,
            score: b.score,
            warnings,
            sites: std::mem::take(&mut self.sites),
            slots: self.next_slot,
            slot_tys: std::mem::take(&mut self.slot_tys),
            vars: std::mem::take(&mut self.vars),
            lists: std::mem::take(&mut self.lists),
            phases: std::mem::take(&mut self.phases),
            history: self.history,
            limits: crate::state::Limits::default(),
        })
    }

    /// Sizes that ids and states must fit in (reported once each).
    fn limits(&mut self, file: &'a ast::File) {
        let at = file.items.last().map_or(Span::default(), item_span);
        if self.next_slot > MAX_SLOTS || self.sites.len() > MAX_SLOTS {
            self.report(
                Problem::new(
                    "tabula::check::too_large",
                    "the rules have too many local values or decision points",
                    at,
                    format!("more than {MAX_SLOTS}, once defs and actions are inlined"),
                )
                .help("split the game, or use loops instead of repeated statements"),
            );
        }
        let owners = self.players.len().max(1);
        let counters: usize = self
            .zones
            .iter()
            .filter(|z| !z.ordered)
            .map(|z| if z.per_player { owners } else { 1 } * self.kinds.len())
            .sum();
        if counters > MAX_COUNTERS {
            self.report(
                Problem::new(
                    "tabula::check::too_large",
                    format!("a position would hold {counters} zone counters"),
                    at,
                    format!("at most {MAX_COUNTERS} (zones x owners x piece kinds)"),
                )
                .help("declare fewer zones or piece kinds"),
            );
        }
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
                ast::Item::Piece { name: n, symbol, props, covers, span } => {
                    if self.kinds.len() >= MAX_KINDS {
                        self.report(Problem::new(
                            "tabula::check::too_large",
                            "too many piece kinds",
                            n.span,
                            format!("a game has at most {MAX_KINDS} piece kinds"),
                        ));
                        continue;
                    }
                    let _ = span;
                    let id = self.kinds.len() as u16;
                    self.declare(n, Global::Kind(id));
                    let mut values = vec![0; self.props.len()];
                    for (pn, pv) in props {
                        let pid = match self.globals.get(&pn.name) {
                            Some((Global::Prop(p), _)) => *p as usize,
                            _ if self.props.len() >= MAX_ZONES => {
                                self.report(Problem::new(
                                    "tabula::check::too_large",
                                    "too many properties",
                                    pn.span,
                                    format!("a game has at most {MAX_ZONES} properties"),
                                ));
                                continue;
                            }
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
                    } else if let Some(first) = self.kinds.iter().position(|k| k.symbol == symbol) {
                        let first_span = self.symbol_spans.get(first).copied().unwrap_or(sp);
                        self.warnings.push(
                            Problem::new(
                                "tabula::check::same_symbol",
                                format!(
                                    "`{}` and `{}` have the same symbol `{symbol}`",
                                    self.kinds[first].name, n.name
                                ),
                                sp,
                                format!("`{}` is written `{symbol}` too", n.name),
                            )
                            .also(first_span, format!("`{}` is written `{symbol}`", self.kinds[first].name))
                            .help(format!("moves and position texts name a piece by its symbol: give `{}` one no other piece has", n.name))
                            .warning(),
                        );
                    }
                    self.symbol_spans.push(sp);
                    let shape = covers.as_ref().map(|(cells, csp)| {
                        if cells.len() > crate::board::MAX_CELLS {
                            self.report(Problem::new(
                                "tabula::check::covers",
                                "a tile covers more cells than a board has",
                                *csp,
                                format!("at most {} cells", crate::board::MAX_CELLS),
                            ));
                            return Vec::new();
                        }
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
                    if self.zones.len() >= MAX_ZONES {
                        self.report(Problem::new(
                            "tabula::check::too_large",
                            "too many zones",
                            n.span,
                            format!("a game has at most {MAX_ZONES} zones"),
                        ));
                        continue;
                    }
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
                ast::Item::Turn(phase, b, sp) => {
                    let unnamed = sec.turns.iter().find(|t| t.0.is_none() || phase.is_none());
                    if let Some(first) = unnamed {
                        let first = header(first.2, first.1);
                        self.report(
                            Problem::new(
                                "tabula::check::duplicate",
                                "`turn` is declared twice",
                                header(*sp, b),
                                "declared again here",
                            )
                            .also(first, "first declared here")
                            .help("merge the two `turn` blocks into one, or name each one as a phase: `turn placing { ... }`, `turn moving { ... }`"),
                        );
                        continue;
                    }
                    if let Some(n) = phase {
                        if let Some(first) =
                            sec.turns.iter().find(|t| t.0.is_some_and(|m| m.name == n.name))
                        {
                            let first = first.0.map_or(header(first.2, first.1), |m| m.span);
                            self.report(
                                Problem::new(
                                    "tabula::check::duplicate",
                                    format!("phase `{}` is declared twice", n.name),
                                    n.span,
                                    "declared again here",
                                )
                                .also(first, "first declared here"),
                            );
                            continue;
                        }
                    }
                    sec.turns.push((phase.as_ref(), b, *sp));
                    if sec.turn.is_none() {
                        sec.turn = Some((b, *sp));
                    }
                }
                ast::Item::Var { name: n, .. } => {
                    let id = sec.vars.len() as u16;
                    sec.vars.push(item);
                    self.declare(n, Global::Var(id));
                }
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
        if let (Some(board), false) = (&self.board, self.probe) {
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
            self.in_turn = true;
            b.turn = self.turns(sec);
            self.in_turn = false;
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
                    self.scopes = Scopes::fresh();
                    let slot = self.bind(p, Ty::Player);
                    let e = self.expect(body, Ty::Int);
                    self.scopes = Scopes::default();
                    b.score = Some((slot, e));
                }
            }
        }

        b
    }

    fn board_from(&mut self, shape: &'a ast::BoardShape, sp: Span) {
        type Make = fn(&[u32]) -> Shape;
        let (dims, make): (Vec<Option<i64>>, Make) = match shape {
            ast::BoardShape::Graph(g) => {
                self.graph_board(g, sp);
                return;
            }
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
                Global::Var(_) => "variable",
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
        v.extend(self.scopes.names.iter().map(|(n, _, _, _, _)| n.clone()));
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

/// The span of a declaration.
fn item_span(item: &ast::Item) -> Span {
    match item {
        ast::Item::Game(s) => s.span,
        ast::Item::Players(_, _, sp)
        | ast::Item::Board(_, sp)
        | ast::Item::Setup(_, sp)
        | ast::Item::Turn(_, _, sp)
        | ast::Item::Var { span: sp, .. }
        | ast::Item::NoMoves(_, sp)
        | ast::Item::AtEnd(_, sp) => *sp,
        ast::Item::Param { name, .. }
        | ast::Item::Piece { name, .. }
        | ast::Item::Zone { name, .. }
        | ast::Item::Def { name, .. }
        | ast::Item::Action { name, .. } => name.span,
    }
}

/// The part of a block's declaration before its braces (`turn`, `turn
/// placing`, `on no moves`): what a report about the declaration itself
/// labels, rather than the whole block.
fn header(item: Span, b: &ast::Block) -> Span {
    match b.span.start {
        end if end > item.start && end <= item.end => Span { start: item.start, end },
        _ => item,
    }
}

fn dup_block<'a>(
    c: &mut Checker<'a>,
    slot: &mut Option<(&'a ast::Block, Span)>,
    b: &'a ast::Block,
    sp: Span,
    what: &str,
) {
    if let Some((first_block, first)) = slot {
        let first = header(*first, first_block);
        c.report(
            Problem::new(
                "tabula::check::duplicate",
                format!("`{what}` is declared twice"),
                header(sp, b),
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
        // Checked on its own (`Builtin::In`, `Builtin::Contains`).
        A::In => I::Eq,
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
