//! Parse tree to AST, one function per grammar rule (as in pest_meta).
//!
//! A pair that does not have the shape the grammar promises is still a bug
//! in this file, not a user error, but it never panics: `next` and every
//! other check return a [`Mismatch`] naming what was expected, lowering
//! stops, and [`file`] reports it as `tabula::syntax::internal` at the pair
//! where it was found (or the declaration, statement or expression whose
//! parts ran out), with the problems collected before it. User problems
//! found here (a number too large, nesting too deep) are collected.
//!
//! Depth is bounded here for every later stage: blocks, statements and
//! expressions count one level each on the way down ([`MAX_DEPTH`] in all),
//! and an operator chain counts the height of the tree it builds, so
//! `1 + 1 + ... + 1` or `not not ... x` cannot make a tree deeper than the
//! limit. Past the limit a placeholder stands in and "nesting too deep" is
//! reported once, at the deepest point, with a short span.

use super::ast::*;
use super::{Rule, MAX_DEPTH};
use crate::diag::Problem;
use crate::source::Span;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::LazyLock;

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::or_op, Assoc::Left))
        .op(Op::infix(Rule::and_op, Assoc::Left))
        .op(Op::prefix(Rule::not_op))
        .op(Op::infix(Rule::eq_op, Assoc::Left)
            | Op::infix(Rule::ne_op, Assoc::Left)
            | Op::infix(Rule::lt_op, Assoc::Left)
            | Op::infix(Rule::le_op, Assoc::Left)
            | Op::infix(Rule::gt_op, Assoc::Left)
            | Op::infix(Rule::ge_op, Assoc::Left)
            | Op::infix(Rule::in_op, Assoc::Left))
        .op(Op::infix(Rule::add_op, Assoc::Left) | Op::infix(Rule::sub_op, Assoc::Left))
        .op(Op::infix(Rule::mul_op, Assoc::Left)
            | Op::infix(Rule::div_op, Assoc::Left)
            | Op::infix(Rule::mod_op, Assoc::Left))
        .op(Op::prefix(Rule::neg_op))
});

struct Lower {
    problems: Vec<Problem>,
    depth: usize,
    /// "Nesting too deep" was reported under the node being lowered at the
    /// limit: its other children stay quiet (one report per place).
    deep_reported: bool,
}

/// A lowered expression with the height of its tree (a leaf is 1), and the
/// first place an operator chain went past the limit.
type Lowered = (Expr, usize, Option<Span>);

/// The stand-in for a part that was not lowered (a problem is reported).
fn placeholder(span: Span) -> Expr {
    Expr { kind: ExprKind::Int(0), span }
}

/// The first token of a pair: a short span for "nesting too deep".
fn head(p: &Pair<Rule>) -> Span {
    let start = p.as_span().start();
    let text = p.as_str();
    let word = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    let len = if word > 0 { word } else { text.chars().next().map_or(0, char::len_utf8) };
    Span::new(start, start + len)
}

/// The span of a pair without trailing whitespace and comments (pest's
/// implicit whitespace before a failed optional part stays inside a pair).
fn span(p: &Pair<Rule>) -> Span {
    Span::new(p.as_span().start(), end_of(p))
}

fn end_of(p: &Pair<Rule>) -> usize {
    // The chain of last children, outermost first (iterative: the chain is
    // as long as the tree is deep).
    let mut chain = vec![p.clone()];
    while let Some(last) = chain.last().and_then(|q| q.clone().into_inner().next_back()) {
        chain.push(last);
    }
    let mut end = chain.pop().map_or(p.as_span().end(), |leaf| leaf.as_span().end());
    while let Some(q) = chain.pop() {
        end = trim_end(&q, end);
    }
    end
}

/// The end of `q` without trailing whitespace and comments, given the end
/// of its last child.
fn trim_end(q: &Pair<Rule>, child_end: usize) -> usize {
    let start = q.as_span().start();
    let text = q.as_str().as_bytes();
    let mut i = child_end.saturating_sub(start);
    let mut end = i;
    while i < text.len() {
        if text[i].is_ascii_whitespace() {
            i += 1;
        } else if text[i..].starts_with(b"//") {
            while i < text.len() && text[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with(b"/*") {
            i += 2;
            while i < text.len() && !text[i..].starts_with(b"*/") {
                i += 1;
            }
            i = (i + 2).min(text.len());
        } else {
            i += 1;
            end = i;
        }
    }
    start + end
}

/// A pair without the shape the grammar promises: a bug in this file, which
/// [`file`] reports as `tabula::syntax::internal` instead of panicking.
#[derive(Debug)]
struct Mismatch {
    /// Where it was found: the unexpected pair, or, when the parts of a
    /// pair ran out, that pair (filled in on the way up, see [`or_at`]).
    ///
    /// [`or_at`]: Mismatch::or_at
    at: Option<Span>,
    /// What the lowering expected there.
    expected: String,
}

impl Mismatch {
    #[cold]
    fn new(at: Span, expected: impl Into<String>) -> Mismatch {
        Mismatch { at: Some(at), expected: expected.into() }
    }

    /// The parts of a pair ran out: the pair is not known yet.
    #[cold]
    fn missing(expected: impl Into<String>) -> Mismatch {
        Mismatch { at: None, expected: expected.into() }
    }

    /// Places a mismatch found among the parts of the pair at `at`.
    fn or_at(mut self, at: Span) -> Mismatch {
        self.at = self.at.or(Some(at));
        self
    }

    #[cold]
    fn problem(self) -> Problem {
        Problem::new(
            "tabula::syntax::internal",
            "internal error: the parser and the lowering disagree here",
            self.at.unwrap_or(Span::new(0, 0)),
            format!("the lowering expected {}", self.expected),
        )
        .help(
            "this is a bug in tabula, not in the game file; \
             please report it with the game file attached",
        )
    }
}

/// The next pair, which the grammar guarantees to be `expected`.
fn next<'i>(pairs: &mut Pairs<'i, Rule>, expected: Rule) -> Result<Pair<'i, Rule>, Mismatch> {
    match pairs.next() {
        Some(p) if p.as_rule() == expected => Ok(p),
        Some(p) => {
            Err(Mismatch::new(span(&p), format!("`{expected:?}` here, not `{:?}`", p.as_rule())))
        }
        None => Err(Mismatch::missing(format!("`{expected:?}` in this"))),
    }
}

/// The operator of an infix rule (kept in step with [`PRATT`]).
fn binop(rule: Rule) -> Option<BinOp> {
    Some(match rule {
        Rule::or_op => BinOp::Or,
        Rule::and_op => BinOp::And,
        Rule::eq_op => BinOp::Eq,
        Rule::ne_op => BinOp::Ne,
        Rule::lt_op => BinOp::Lt,
        Rule::le_op => BinOp::Le,
        Rule::gt_op => BinOp::Gt,
        Rule::ge_op => BinOp::Ge,
        Rule::add_op => BinOp::Add,
        Rule::sub_op => BinOp::Sub,
        Rule::mul_op => BinOp::Mul,
        Rule::div_op => BinOp::Div,
        Rule::mod_op => BinOp::Rem,
        Rule::in_op => BinOp::In,
        _ => return None,
    })
}

pub(super) fn file(pairs: Pairs<Rule>) -> Result<File, Vec<Problem>> {
    let mut l = Lower { problems: Vec::new(), depth: 0, deep_reported: false };
    match l.file(pairs) {
        Ok(file) if l.problems.is_empty() => Ok(file),
        Ok(_) => Err(l.problems),
        Err(m) => {
            l.problems.push(m.problem());
            Err(l.problems)
        }
    }
}

impl Lower {
    fn file(&mut self, mut pairs: Pairs<Rule>) -> Result<File, Mismatch> {
        let file_pair = next(&mut pairs, Rule::file)?;
        let mut items = Vec::new();
        for p in file_pair.into_inner() {
            if p.as_rule() == Rule::EOI {
                break;
            }
            let sp = span(&p);
            items.push(self.item(p).map_err(|m| m.or_at(sp))?);
        }
        Ok(File { items })
    }

    fn ident(&self, p: Pair<Rule>) -> Ident {
        Ident { name: p.as_str().to_string(), span: span(&p) }
    }

    fn string(&self, p: Pair<Rule>) -> Result<Str, Mismatch> {
        match p.as_str().strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
            Some(text) => Ok(Str { text: text.to_string(), span: span(&p) }),
            None => Err(Mismatch::new(span(&p), "a string in quotes here")),
        }
    }

    fn signed(&mut self, p: Pair<Rule>) -> i32 {
        match p.as_str().parse::<i32>() {
            Ok(n) if n.abs() <= 1000 => n,
            _ => {
                self.problems.push(Problem::new(
                    "tabula::syntax::number",
                    "coordinate too large",
                    span(&p),
                    "coordinates are at most 1000",
                ));
                0
            }
        }
    }

    /// A coordinate `(x, y)`.
    fn coord(&mut self, c: Pair<Rule>) -> Result<(i32, i32), Mismatch> {
        let mut xy = c.into_inner();
        let x = self.signed(next(&mut xy, Rule::signed)?);
        let y = self.signed(next(&mut xy, Rule::signed)?);
        Ok((x, y))
    }

    fn item(&mut self, p: Pair<Rule>) -> Result<Item, Mismatch> {
        let sp = span(&p);
        let rule = p.as_rule();
        let mut inner = p.into_inner();
        Ok(match rule {
            Rule::game_decl => Item::Game(self.string(next(&mut inner, Rule::string)?)?),
            Rule::players_decl => {
                let mut names = Vec::new();
                let mut count = None;
                for q in inner {
                    match q.as_rule() {
                        Rule::ident => names.push(self.ident(q)),
                        _ => count = Some(self.expr(q)?),
                    }
                }
                Item::Players(names, count, sp)
            }
            Rule::param_decl => {
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let value = self.expr(next(&mut inner, Rule::pexpr)?)?;
                let range = match inner.next() {
                    Some(lo) => {
                        let lo = self.expr(lo)?;
                        let hi = self.expr(next(&mut inner, Rule::pexpr)?)?;
                        Some((lo, hi))
                    }
                    None => None,
                };
                Item::Param { name, value, range, span: sp }
            }
            Rule::board_decl => {
                let shape = match inner.next() {
                    Some(s) if s.as_rule() == Rule::square_board => {
                        let mut i = s.into_inner();
                        let width = self.expr(next(&mut i, Rule::expr)?)?;
                        let height = self.expr(next(&mut i, Rule::expr)?)?;
                        let neighbours = i.next().map(|e| self.expr(e)).transpose()?;
                        BoardShape::Square { width, height, neighbours }
                    }
                    Some(s) if s.as_rule() == Rule::rhombus_board => {
                        let mut i = s.into_inner();
                        let width = self.expr(next(&mut i, Rule::expr)?)?;
                        let height = self.expr(next(&mut i, Rule::expr)?)?;
                        BoardShape::Rhombus { width, height }
                    }
                    Some(s) if s.as_rule() == Rule::graph_board => {
                        BoardShape::Graph(self.graph(s)?)
                    }
                    Some(s) if s.as_rule() == Rule::hex_board => {
                        let mut i = s.into_inner();
                        BoardShape::HexHex { side: self.expr(next(&mut i, Rule::expr)?)? }
                    }
                    Some(s) => return Err(Mismatch::new(span(&s), "a board shape here")),
                    None => return Err(Mismatch::missing("a board shape in this")),
                };
                Item::Board(shape, sp)
            }
            Rule::piece_decl => {
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let mut symbol = None;
                let mut props = Vec::new();
                let mut covers = None;
                for q in inner {
                    match q.as_rule() {
                        Rule::string => symbol = Some(self.string(q)?),
                        Rule::covers => {
                            let csp = span(&q);
                            let mut cells = Vec::new();
                            for c in q.into_inner() {
                                cells.push(self.coord(c)?);
                            }
                            covers = Some((cells, csp));
                        }
                        _ => {
                            let mut i = q.into_inner();
                            let n = self.ident(next(&mut i, Rule::ident)?);
                            let v = self.expr(next(&mut i, Rule::expr)?)?;
                            props.push((n, v));
                        }
                    }
                }
                Item::Piece { name, symbol, props, covers, span: sp }
            }
            Rule::zone_decl => {
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let per_player = inner.next().map(|p| p.as_rule()) == Some(Rule::per_player);
                let mut ordered = false;
                let mut visibility = Visibility::Public;
                for o in inner {
                    let osp = span(&o);
                    match o.into_inner().next().map(|x| x.as_rule()) {
                        Some(Rule::ordered) => ordered = true,
                        Some(Rule::owner_only) => visibility = Visibility::Owner,
                        Some(Rule::hidden) => visibility = Visibility::Hidden,
                        _ => return Err(Mismatch::new(osp, "a zone option here")),
                    }
                }
                Item::Zone { name, per_player, ordered, visibility, span: sp }
            }
            Rule::def_decl => {
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let mut params = Vec::new();
                let mut body = None;
                for q in inner {
                    match q.as_rule() {
                        Rule::params => params = q.into_inner().map(|i| self.ident(i)).collect(),
                        _ => body = Some(self.expr(q)?),
                    }
                }
                let body = body.ok_or_else(|| Mismatch::missing("a body in this `def`"))?;
                Item::Def { name, params, body, span: sp }
            }
            Rule::action_decl => {
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let mut params = Vec::new();
                let mut body = None;
                for q in inner {
                    match q.as_rule() {
                        Rule::params => params = q.into_inner().map(|i| self.ident(i)).collect(),
                        _ => body = Some(self.block(q)?),
                    }
                }
                let body = body.ok_or_else(|| Mismatch::missing("a body in this `action`"))?;
                Item::Action { name, params, body, span: sp }
            }
            Rule::setup_decl => Item::Setup(self.block(next(&mut inner, Rule::block)?)?, sp),
            Rule::turn_decl => {
                let phase = match inner.peek().map(|p| p.as_rule()) {
                    Some(Rule::ident) => Some(self.ident(next(&mut inner, Rule::ident)?)),
                    _ => None,
                };
                Item::Turn(phase, self.block(next(&mut inner, Rule::block)?)?, sp)
            }
            Rule::var_decl | Rule::clock_decl => {
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let (mut per_player, mut ty, mut value) = (false, None, None);
                for q in inner {
                    match q.as_rule() {
                        Rule::per_player => per_player = true,
                        Rule::ident => ty = Some(self.ident(q)),
                        _ => value = Some(self.expr(q)?),
                    }
                }
                Item::Var { name, per_player, ty, value, clock: rule == Rule::clock_decl, span: sp }
            }
            Rule::nomoves_decl => Item::NoMoves(self.block(next(&mut inner, Rule::block)?)?, sp),
            Rule::atend_decl => Item::AtEnd(self.block(next(&mut inner, Rule::block)?)?, sp),
            r => return Err(Mismatch::new(sp, format!("a declaration here, not `{r:?}`"))),
        })
    }

    /// One level down; `false` (and a report) past the limit. Every
    /// `enter` is matched by a `leave`, on every path out (a mismatch too).
    fn enter(&mut self, at: Span) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.too_deep(at);
            return false;
        }
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
        if self.depth < MAX_DEPTH {
            self.deep_reported = false;
        }
    }

    #[cold]
    fn too_deep(&mut self, at: Span) {
        if self.deep_reported {
            return;
        }
        self.deep_reported = true;
        self.problems.push(
            Problem::new(
                "tabula::syntax::too_deep",
                "nesting too deep",
                at,
                format!("more than {MAX_DEPTH} levels of nesting here"),
            )
            .help("split the rule into named `def`s or `action`s"),
        );
    }

    fn block(&mut self, p: Pair<Rule>) -> Result<Block, Mismatch> {
        let sp = span(&p);
        if !self.enter(head(&p)) {
            self.leave();
            return Ok(Block { stmts: Vec::new(), span: sp });
        }
        let stmts: Result<Vec<Stmt>, Mismatch> = p.into_inner().map(|s| self.stmt(s)).collect();
        self.leave();
        Ok(Block { stmts: stmts?, span: sp })
    }

    fn opt_where(&mut self, inner: &mut Pairs<Rule>) -> Result<Option<Expr>, Mismatch> {
        if inner.peek().map(|p| p.as_rule()) == Some(Rule::where_clause) {
            let w = next(inner, Rule::where_clause)?;
            Ok(Some(self.expr(next(&mut w.into_inner(), Rule::expr)?)?))
        } else {
            Ok(None)
        }
    }

    /// An `as` clause: its label, if any, and whether it says `short`.
    fn as_clause(&mut self, clause: Option<Pair<Rule>>) -> Result<(Option<Str>, bool), Mismatch> {
        let (mut label, mut short) = (None, false);
        for part in clause.into_iter().flat_map(|c| c.into_inner()) {
            match part.as_rule() {
                Rule::string => label = Some(self.string(part)?),
                _ => short = true,
            }
        }
        Ok((label, short))
    }

    fn stmt(&mut self, p: Pair<Rule>) -> Result<Stmt, Mismatch> {
        let sp = span(&p);
        if !self.enter(head(&p)) {
            self.leave();
            return Ok(Stmt { kind: StmtKind::Pass, span: sp });
        }
        let s = self.stmt_inner(p, sp);
        self.leave();
        s.map_err(|m| m.or_at(sp))
    }

    fn stmt_inner(&mut self, p: Pair<Rule>, sp: Span) -> Result<Stmt, Mismatch> {
        let rule = p.as_rule();
        let mut inner = p.into_inner();
        let kind = match rule {
            Rule::let_stmt => {
                let v = self.ident(next(&mut inner, Rule::ident)?);
                StmtKind::Let(v, self.expr(next(&mut inner, Rule::expr)?)?)
            }
            Rule::choose_stmt => {
                let var = self.ident(next(&mut inner, Rule::ident)?);
                let domain = self.expr(next(&mut inner, Rule::expr)?)?;
                let filter = self.opt_where(&mut inner)?;
                let (label, short) = self.as_clause(inner.next())?;
                StmtKind::Choose { var, domain, filter, label, short }
            }
            Rule::random_stmt => {
                let var = self.ident(next(&mut inner, Rule::ident)?);
                let domain = self.expr(next(&mut inner, Rule::expr)?)?;
                let filter = self.opt_where(&mut inner)?;
                let (label, short) = self.as_clause(inner.next())?;
                StmtKind::Random { var, domain, filter, label, short }
            }
            Rule::either_stmt => {
                let branches = inner
                    .map(|b| -> Result<_, Mismatch> {
                        let bsp = span(&b);
                        let mut parts = b.into_inner();
                        let label = match parts.peek().map(|p| p.as_rule()) {
                            Some(Rule::string) => {
                                Some(self.string(next(&mut parts, Rule::string)?)?)
                            }
                            _ => None,
                        };
                        let block = next(&mut parts, Rule::block).map_err(|m| m.or_at(bsp))?;
                        Ok((label, self.block(block)?))
                    })
                    .collect::<Result<_, _>>()?;
                StmtKind::Either(branches)
            }
            Rule::for_stmt => {
                let var = self.ident(next(&mut inner, Rule::ident)?);
                let domain = self.expr(next(&mut inner, Rule::expr)?)?;
                let filter = self.opt_where(&mut inner)?;
                let body = self.block(next(&mut inner, Rule::block)?)?;
                StmtKind::For { var, domain, filter, body }
            }
            Rule::while_stmt => {
                let cond = self.expr(next(&mut inner, Rule::expr)?)?;
                StmtKind::While { cond, body: self.block(next(&mut inner, Rule::block)?)? }
            }
            Rule::if_stmt => {
                let cond = self.expr(next(&mut inner, Rule::expr)?)?;
                let then = self.block(next(&mut inner, Rule::block)?)?;
                let otherwise = match inner.next() {
                    Some(e) if e.as_rule() == Rule::block => Some(self.block(e)?),
                    Some(e) => {
                        let s = self.stmt(e)?;
                        Some(Block { span: s.span, stmts: vec![s] })
                    }
                    None => None,
                };
                StmtKind::If { cond, then, otherwise }
            }
            Rule::require_stmt => {
                let cond = self.expr(next(&mut inner, Rule::expr)?)?;
                let message = inner.next().map(|s| self.string(s)).transpose()?;
                StmtKind::Require { cond, message }
            }
            Rule::win_stmt => StmtKind::Win(self.expr(next(&mut inner, Rule::expr)?)?),
            Rule::lose_stmt => StmtKind::Lose(self.expr(next(&mut inner, Rule::expr)?)?),
            Rule::compare_stmt => {
                let var = self.ident(next(&mut inner, Rule::ident)?);
                let domain = self.expr(next(&mut inner, Rule::expr)?)?;
                let mut keys = Vec::new();
                let mut share = false;
                for k in inner {
                    match k.as_rule() {
                        Rule::share_ties => share = true,
                        _ => keys.push(self.key(k)?),
                    }
                }
                StmtKind::Compare { var, domain, keys, share }
            }
            Rule::draw_stmt => StmtKind::Draw,
            Rule::pass_stmt => StmtKind::Pass,
            Rule::place_stmt => {
                let kind = self.expr(next(&mut inner, Rule::expr)?)?;
                let mut owner = None;
                if inner.peek().map(|p| p.as_rule()) == Some(Rule::of_clause) {
                    let o = next(&mut inner, Rule::of_clause)?;
                    owner = Some(self.expr(next(&mut o.into_inner(), Rule::expr)?)?);
                }
                let at = self.expr(next(&mut inner, Rule::expr)?)?;
                StmtKind::Place { kind, owner, at }
            }
            Rule::remove_stmt => StmtKind::Remove(self.expr(next(&mut inner, Rule::expr)?)?),
            Rule::move_stmt => {
                let parts: Vec<Pair<Rule>> = inner.collect();
                let has_from = parts.iter().any(|p| p.as_rule() == Rule::from_clause);
                let all = parts.first().map(|p| p.as_rule()) == Some(Rule::all_of);
                let mut exprs = Vec::new();
                let mut from = None;
                for p in parts {
                    match p.as_rule() {
                        Rule::expr => exprs.push(self.expr(p)?),
                        Rule::from_clause => {
                            from = Some(self.expr(next(&mut p.into_inner(), Rule::expr)?)?)
                        }
                        _ => {}
                    }
                }
                let to = exprs.pop().ok_or_else(|| Mismatch::missing("where to `move` in this"))?;
                match (has_from, from, exprs.pop()) {
                    (true, Some(from), Some(kind)) => {
                        let count = match (all, exprs.pop()) {
                            (true, _) => Count::All,
                            (false, Some(n)) => Count::Number(n),
                            (false, None) => Count::One,
                        };
                        StmtKind::Transfer { count, kind, from, to }
                    }
                    (true, Some(_), None) => {
                        // The grammar lets `move all from Z to Y` through.
                        self.problems.push(
                            Problem::new(
                                "tabula::syntax::move",
                                "`move all` between zones needs a kind",
                                sp,
                                "all of which pieces?",
                            )
                            .help("write `move all K from Z to Y`: every piece of kind `K` in `Z`"),
                        );
                        StmtKind::Pass
                    }
                    (_, _, last) => {
                        exprs.extend(last);
                        if all || exprs.len() != 1 {
                            self.problems.push(
                                Problem::new(
                                    "tabula::syntax::move",
                                    "this `move` needs `from`",
                                    sp,
                                    "moving between zones",
                                )
                                .help("write `move C to D` for a piece on the board, or `move [N | all] K from Z to Y` between zones"),
                            );
                        }
                        let from = exprs.pop().unwrap_or_else(|| to.clone());
                        StmtKind::Move { from, to }
                    }
                }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(next(&mut inner, Rule::expr)?)?),
            Rule::add_stmt | Rule::take_stmt => {
                let mut es: Vec<Expr> = inner.map(|e| self.expr(e)).collect::<Result<_, _>>()?;
                let zone = es.pop().ok_or_else(|| Mismatch::missing("a zone in this"))?;
                let kind = es.pop().ok_or_else(|| Mismatch::missing("a kind of piece in this"))?;
                let count = es.pop();
                if rule == Rule::add_stmt {
                    StmtKind::Add { count, kind, zone }
                } else {
                    StmtKind::Take { count, kind, zone }
                }
            }
            Rule::call_stmt => {
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let args = match inner.next() {
                    Some(a) => a.into_inner().map(|e| self.expr(e)).collect::<Result<_, _>>()?,
                    None => Vec::new(),
                };
                StmtKind::Call(name, args)
            }
            Rule::change_stmt => {
                let at = self.expr(next(&mut inner, Rule::expr)?)?;
                let to = self.expr(next(&mut inner, Rule::expr)?)?;
                let of = match inner.next() {
                    Some(o) => Some(self.expr(next(&mut o.into_inner(), Rule::expr)?)?),
                    None => None,
                };
                StmtKind::Change { at, to, of }
            }
            Rule::next_stmt => {
                let _ = next(&mut inner, Rule::next_turn)?;
                StmtKind::NextTurn(self.expr(next(&mut inner, Rule::expr)?)?)
            }
            Rule::again_stmt => StmtKind::Again,
            Rule::phase_stmt => StmtKind::Phase(self.ident(next(&mut inner, Rule::ident)?)),
            Rule::assign_stmt => {
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let player = match inner.peek().map(|p| p.as_rule()) {
                    Some(Rule::expr) => Some(self.expr(next(&mut inner, Rule::expr)?)?),
                    _ => None,
                };
                let op = match next(&mut inner, Rule::assign_op)?.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                let value = self.expr(next(&mut inner, Rule::expr)?)?;
                StmtKind::Assign { name, player, op, value }
            }
            r => return Err(Mismatch::new(sp, format!("a statement here, not `{r:?}`"))),
        };
        Ok(Stmt { kind, span: sp })
    }

    fn key(&mut self, p: Pair<Rule>) -> Result<Key, Mismatch> {
        let sp = span(&p);
        let Some(k) = p.into_inner().next() else {
            return Err(Mismatch::new(sp, "a ranking key in this"));
        };
        if k.as_rule() == Rule::expr {
            return Ok(Key::Value(self.expr(k)?));
        }
        let mut inner = k.into_inner();
        let var = self.ident(next(&mut inner, Rule::ident)?);
        let domain = self.expr(next(&mut inner, Rule::expr)?)?;
        let filter = self.opt_where(&mut inner)?;
        let body = self.expr(next(&mut inner, Rule::expr)?)?;
        Ok(Key::Descending { var, domain, filter, body })
    }

    fn expr(&mut self, p: Pair<Rule>) -> Result<Expr, Mismatch> {
        Ok(self.expr_h(p)?.0)
    }

    /// An expression and the height of its tree.
    fn expr_h(&mut self, p: Pair<Rule>) -> Result<(Expr, usize), Mismatch> {
        let sp = span(&p);
        if !self.enter(head(&p)) {
            self.leave();
            return Ok((placeholder(sp), 1));
        }
        let e = self.operators(p, sp);
        self.leave();
        e.map_err(|m| m.or_at(sp))
    }

    /// The body of [`Lower::expr_h`], one level down: an operator chain.
    fn operators(&mut self, p: Pair<Rule>, sp: Span) -> Result<(Expr, usize), Mismatch> {
        // pest's Pratt parser recurses once per prefix operator: a long run
        // of `not` or `-` is refused before it starts. It also panics on
        // parts that do not read `prefix* primary (infix prefix* primary)*`:
        // their order is checked here first.
        let mut run = 0;
        let mut operand = true;
        for q in p.clone().into_inner() {
            if matches!(q.as_rule(), Rule::not_op | Rule::neg_op) && operand {
                run += 1;
                if self.depth + run > MAX_DEPTH {
                    self.too_deep(span(&q));
                    return Ok((placeholder(sp), 1));
                }
            } else if binop(q.as_rule()).is_some() != operand {
                run = 0;
                operand = !operand;
            } else {
                let expected = if operand { "a value" } else { "an operator" };
                return Err(Mismatch::new(
                    span(&q),
                    format!("{expected} here, not `{:?}`", q.as_rule()),
                ));
            }
        }
        if operand {
            return Err(Mismatch::missing("a value at the end of this"));
        }
        let (e, h, deep) = self.pratt(p.into_inner())?;
        if let Some(at) = deep {
            self.too_deep(at);
        }
        Ok((e, h))
    }

    /// An operator chain whose parts [`Lower::operators`] checked.
    fn pratt(&mut self, pairs: Pairs<Rule>) -> Result<Lowered, Mismatch> {
        // A tree that would reach past the limit is replaced by a
        // placeholder where it does, so the result stays shallow.
        let base = self.depth;
        let cap = move |e: Expr, h: usize, deep: Option<Span>, at: Span| -> Lowered {
            if base + h > MAX_DEPTH {
                (placeholder(e.span), 1, deep.or(Some(at)))
            } else {
                (e, h, deep)
            }
        };
        // Each part comes with its extent in the text, brackets included:
        // a value in brackets, `(x - 1)`, keeps the span of what is inside
        // them, and an operator around it, `6 / (x - 1)`, spans both.
        PRATT
            .map_primary(|p| -> Result<(Lowered, Span), Mismatch> {
                let outer = span(&p);
                let (e, h) = self.primary(p)?;
                Ok(((e, h, None), outer))
            })
            .map_prefix(move |op, rhs| {
                let ((rhs, h, deep), outer) = rhs?;
                let sp = span(&op).to(outer);
                let u = if op.as_rule() == Rule::not_op { UnOp::Not } else { UnOp::Neg };
                let e = Expr { kind: ExprKind::Unary(u, Box::new(rhs)), span: sp };
                Ok((cap(e, h + 1, deep, span(&op)), sp))
            })
            .map_infix(move |lhs, op, rhs| {
                let (((lhs, hl, dl), lo), ((rhs, hr, dr), ro)) = (lhs?, rhs?);
                let sp = lo.to(ro);
                let Some(b) = binop(op.as_rule()) else {
                    return Err(Mismatch::new(span(&op), "an operator here"));
                };
                let e = Expr { kind: ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)), span: sp };
                Ok((cap(e, 1 + hl.max(hr), dl.or(dr), span(&op)), sp))
            })
            .parse(pairs)
            .map(|(lowered, _)| lowered)
    }

    /// `graph { points ... links ... lines ... }`
    fn graph(&mut self, p: Pair<Rule>) -> Result<Graph, Mismatch> {
        let mut g = Graph::default();
        for part in p.into_inner() {
            match part.as_rule() {
                Rule::points_decl => {
                    for pt in part.into_inner() {
                        let psp = span(&pt);
                        let mut i = pt.into_inner();
                        let name = self.ident(next(&mut i, Rule::ident).map_err(|m| m.or_at(psp))?);
                        let at = i.next().map(|c| self.coord(c)).transpose()?;
                        g.points.push((name, at));
                    }
                }
                Rule::links_decl => {
                    let mut dirs = (None, None);
                    for q in part.into_inner() {
                        match q.as_rule() {
                            Rule::link_dirs => {
                                let qsp = span(&q);
                                let mut i = q.into_inner();
                                let a = next(&mut i, Rule::ident).map_err(|m| m.or_at(qsp))?;
                                dirs.0 = Some(self.ident(a));
                                dirs.1 = i.next().map(|b| self.ident(b));
                            }
                            _ => {
                                let chain = q.into_inner().map(|x| self.ident(x)).collect();
                                g.links.push((dirs.0.clone(), dirs.1.clone(), chain));
                            }
                        }
                    }
                }
                _ => {
                    for l in part.into_inner() {
                        let ids: Vec<Ident> = l.into_inner().map(|x| self.ident(x)).collect();
                        g.lines.push(ids);
                    }
                }
            }
        }
        Ok(g)
    }

    fn primary(&mut self, p: Pair<Rule>) -> Result<(Expr, usize), Mismatch> {
        let sp = span(&p);
        let mut h = 1;
        let kind = match p.as_rule() {
            Rule::int => match p.as_str().parse::<i64>() {
                Ok(n) if n <= i64::from(i32::MAX) => ExprKind::Int(n),
                _ => {
                    self.problems.push(Problem::new(
                        "tabula::syntax::number",
                        "number too large",
                        sp,
                        "this does not fit in 32 bits",
                    ));
                    ExprKind::Int(0)
                }
            },
            Rule::ident => ExprKind::Name(p.as_str().to_string()),
            Rule::expr => return self.expr_h(p),
            Rule::indexed => {
                let mut inner = p.into_inner();
                let Some(first) = inner.next() else {
                    return Err(Mismatch::new(sp, "a value in this"));
                };
                let (mut e, mut h) = self.primary(first)?;
                // Most values have no index: they are the atom itself.
                for ix in inner {
                    let isp = span(&ix);
                    let Some(x) = ix.into_inner().next() else {
                        return Err(Mismatch::new(isp, "an index in this"));
                    };
                    let (i, hi) = self.expr_h(x)?;
                    h = 1 + h.max(hi);
                    let sp2 = e.span.to(isp);
                    e = Expr { kind: ExprKind::Index(Box::new(e), Box::new(i)), span: sp2 };
                }
                return Ok((e, h));
            }
            Rule::cond => {
                let mut parts = Vec::new();
                for e in p.into_inner() {
                    let (a, ha) = self.expr_h(e)?;
                    h = h.max(ha + 1);
                    parts.push(Box::new(a));
                }
                let (Some(c), Some(a), Some(b)) = (parts.first(), parts.get(1), parts.get(2))
                else {
                    return Err(Mismatch::new(sp, "three parts in this `if ... then ... else`"));
                };
                ExprKind::Cond(c.clone(), a.clone(), b.clone())
            }
            Rule::list => {
                let mut items = Vec::new();
                for e in p.into_inner() {
                    let (a, ha) = self.expr_h(e)?;
                    h = h.max(ha + 1);
                    items.push(a);
                }
                ExprKind::List(items)
            }
            Rule::call => {
                let mut inner = p.into_inner();
                let name = self.ident(next(&mut inner, Rule::ident)?);
                let mut args = Vec::new();
                for e in inner.next().into_iter().flat_map(|a| a.into_inner()) {
                    let (a, ha) = self.expr_h(e)?;
                    h = h.max(ha + 1);
                    args.push(a);
                }
                ExprKind::Call(name, args)
            }
            Rule::quant => {
                let mut inner = p.into_inner();
                let q = next(&mut inner, Rule::quant_kw)?;
                let quant = match q.as_str().trim() {
                    "any" => Quant::Any,
                    "all" => Quant::All,
                    "none" => Quant::None,
                    "count" => Quant::Count,
                    "sum" => Quant::Sum,
                    "max" => Quant::Max,
                    "min" => Quant::Min,
                    _ => Quant::Collect,
                };
                let var = self.ident(next(&mut inner, Rule::ident)?);
                let (domain, hd) = self.expr_h(next(&mut inner, Rule::expr)?)?;
                let filter = match inner.peek().map(|p| p.as_rule()) {
                    Some(Rule::where_clause) => {
                        let w = next(&mut inner, Rule::where_clause)?;
                        let (f, hf) = self.expr_h(next(&mut w.into_inner(), Rule::expr)?)?;
                        h = h.max(hf + 1);
                        Some(Box::new(f))
                    }
                    _ => None,
                };
                let body = match inner.next() {
                    Some(b) => {
                        let (b, hb) = self.expr_h(b)?;
                        h = h.max(hb + 1);
                        Some(Box::new(b))
                    }
                    None => None,
                };
                h = h.max(hd + 1);
                ExprKind::Quant { quant, var, domain: Box::new(domain), filter, body }
            }
            r => return Err(Mismatch::new(sp, format!("a value here, not `{r:?}`"))),
        };
        Ok((Expr { kind, span: sp }, h))
    }
}

#[cfg(test)]
mod tests {
    use super::super::parser::TabulaParser;
    use super::*;
    use pest::Parser as _;

    /// The first pair of `text` read as `rule`.
    fn pair(rule: Rule, text: &str) -> Pair<'_, Rule> {
        TabulaParser::parse(rule, text).unwrap().next().unwrap()
    }

    fn lower() -> Lower {
        Lower { problems: Vec::new(), depth: 0, deep_reported: false }
    }

    /// The report of a mismatch, checked for what every such report has.
    fn reported(m: Mismatch) -> Problem {
        let p = m.problem();
        assert_eq!(p.code, "tabula::syntax::internal");
        assert!(p.span.start < p.span.end, "an empty span: {p:?}");
        assert!(p.label.starts_with("the lowering expected "), "{p:?}");
        assert!(p.help.as_deref().is_some_and(|h| h.contains("report it")), "{p:?}");
        p
    }

    #[test]
    fn an_operator_spans_the_brackets_around_its_operands() {
        // `6 / (x - 1)`: the division ends at the closing bracket, its
        // bracketed operand keeps the span inside the brackets, and a
        // `not` before a bracketed value spans to the bracket too.
        let text = "6 / (x - 1) + (y)";
        let e = lower().expr(pair(Rule::expr, text)).unwrap();
        let ExprKind::Binary(BinOp::Add, div, y) = &e.kind else { panic!("{e:?}") };
        assert_eq!(e.span, Span::new(0, text.len()));
        assert_eq!(div.span, Span::new(0, 11));
        assert_eq!(y.span, Span::new(15, 16));
        let ExprKind::Binary(BinOp::Div, _, sub) = &div.kind else { panic!("{div:?}") };
        assert_eq!(sub.span, Span::new(5, 10));
        let e = lower().expr(pair(Rule::expr, "not (a or b)")).unwrap();
        assert_eq!(e.span, Span::new(0, 12));
    }

    #[test]
    fn a_tree_of_the_wrong_shape_is_reported_not_a_panic() {
        // An expression where the grammar promises a file.
        let pairs = TabulaParser::parse(Rule::expr, "1 + 2").unwrap();
        let problems = file(pairs).unwrap_err();
        let [p] = problems.as_slice() else { panic!("one problem expected: {problems:?}") };
        assert_eq!(p.code, "tabula::syntax::internal");
        assert_eq!(p.span, Span::new(0, 5));
        assert_eq!(p.label, "the lowering expected `file` here, not `expr`");
        assert!(p.help.as_deref().is_some_and(|h| h.contains("bug in tabula")));
    }

    #[test]
    fn a_part_of_the_wrong_rule_is_reported_where_it_is() {
        // A statement where a declaration is expected.
        let mut l = lower();
        let p = reported(l.item(pair(Rule::win_stmt, "win me")).unwrap_err());
        assert_eq!(
            (p.span, p.label.as_str()),
            (Span::new(0, 6), "the lowering expected a declaration here, not `win_stmt`")
        );
        // An `if` taken for a block: its condition is no statement.
        let p = reported(l.block(pair(Rule::if_stmt, "if x { pass }")).unwrap_err());
        assert_eq!(
            (p.span, p.label.as_str()),
            (Span::new(3, 4), "the lowering expected a statement here, not `expr`")
        );
        // A declaration where a statement is expected.
        let p = reported(l.stmt(pair(Rule::game_decl, "game \"G\"")).unwrap_err());
        assert_eq!(p.label, "the lowering expected a statement here, not `game_decl`");
        // A name where a string is expected (its quotes were sliced off).
        let p = reported(l.string(pair(Rule::ident, "x")).unwrap_err());
        assert_eq!(p.label, "the lowering expected a string in quotes here");
        assert_eq!(l.depth, 0, "every `enter` has its `leave`");
        assert!(l.problems.is_empty());
    }

    #[test]
    fn an_operator_chain_of_the_wrong_shape_is_reported_not_a_panic() {
        // No parts and two values in a row would make pest's Pratt parser
        // panic, so they are refused before it; a statement is no value.
        let mut l = lower();
        let p = reported(l.expr(pair(Rule::ident, "x")).unwrap_err());
        assert_eq!(
            (p.span, p.label.as_str()),
            (Span::new(0, 1), "the lowering expected a value at the end of this")
        );
        let p = reported(l.expr(pair(Rule::args, "a, b")).unwrap_err());
        assert_eq!(
            (p.span, p.label.as_str()),
            (Span::new(3, 4), "the lowering expected an operator here, not `expr`")
        );
        let p = reported(l.expr(pair(Rule::block, "{ pass }")).unwrap_err());
        assert_eq!(p.label, "the lowering expected a value here, not `pass_stmt`");
        assert_eq!(l.depth, 0, "every `enter` has its `leave`");
    }
}
