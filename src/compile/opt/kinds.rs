//! Pass 30: kind sets (see the module docs of [`super`]). `any`, `all`
//! or `none` over the pieces of a zone named in the rule, whose filter
//! and body compare the piece's kind or a property of it with a constant
//! or with another local's kind or property (`any n in row: type(n) ==
//! type(k)`): the kinds the zone holds, as a bit set, met with the set of
//! kinds that pass, made at compile time (for each value of the other
//! local, when there is one).

use super::super::expr::Compiler;
use super::super::{
    effect::{Arg, RoundFilter},
    Cx, B,
};
use crate::ir::{BinOp, Expr, Quant, Slot, Stmt, StmtKind, UnOp, Value};

/// At most this many kinds: a set of kinds is one word.
const MAX_KINDS: usize = 64;

/// A condition about a zone's piece (a kind) in set form: the kinds for
/// which it holds.
enum KindSet {
    /// The same kinds whatever the position.
    Fixed(u64),
    /// A comparison with another local's kind or property: the kinds that
    /// pass for each kind the local may hold, and last the kinds that pass
    /// when it holds none.
    ByLocal(usize, Box<[u64]>),
    Not(Box<KindSet>),
    And(Box<KindSet>, Box<KindSet>),
    Or(Box<KindSet>, Box<KindSet>),
}

impl KindSet {
    /// The kinds that pass (`all`: every kind).
    #[inline(always)]
    fn eval<const W: usize>(&self, cx: &Cx<'_, W>, all: u64) -> u64 {
        match self {
            KindSet::Fixed(m) => *m,
            KindSet::ByLocal(slot, rows) => by_local(cx, *slot, rows),
            other => other.combined(cx, all),
        }
    }

    #[inline(never)]
    fn combined<const W: usize>(&self, cx: &Cx<'_, W>, all: u64) -> u64 {
        match self {
            KindSet::Not(a) => !a.eval(cx, all) & all,
            KindSet::And(a, b) => a.eval(cx, all) & b.eval(cx, all),
            KindSet::Or(a, b) => a.eval(cx, all) | b.eval(cx, all),
            leaf => leaf.eval(cx, all),
        }
    }
}

/// The row of `rows` for the value of word local `slot` (the last for a
/// value that is no kind).
#[inline(always)]
fn by_local<const W: usize>(cx: &Cx<'_, W>, slot: usize, rows: &[u64]) -> u64 {
    let v = cx.fr.w.get(slot).copied().unwrap_or(-1);
    let last = rows.len() - 1;
    let i = if v >= 0 && (v as usize) < last { v as usize } else { last };
    rows.get(i).copied().unwrap_or(0)
}

/// One side of a comparison: the zone's piece (its kind, or property
/// `p` of it), another word local (its value, or property `p` of the
/// kind it holds), or a constant.
#[derive(Clone, Copy)]
enum Side {
    Piece(Option<usize>),
    Local(usize, Option<usize>),
    Const(i64),
}

/// Where the pieces of the zone are read.
enum Pieces<const W: usize> {
    /// An ordered zone's sequence, known at load.
    Seq(usize),
    /// A counted zone and its player.
    Counted(u16, Arg<W>),
}

impl<const W: usize> Compiler<'_, W> {
    /// Pass 30: `any` / `all` / `none` over a zone's pieces whose filter
    /// and body are conditions about the piece's kind (see the module's
    /// list), in set form; `None` for anything else.
    pub fn kind_quant_bool(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> Option<B<W>> {
        let kq = self.kind_quant(q, slot, domain, (filter, body))?;
        Some(Box::new(move |cx| {
            let held = kq.held(cx);
            kq.test(cx, held)
        }))
    }

    /// [`Compiler::kind_quant_bool`], not yet in a closure.
    pub fn kind_quant(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        (filter, body): (Option<&Expr>, Option<&Expr>),
    ) -> Option<KindQuant<W>> {
        let kinds = self.t.kinds;
        if !matches!(q, Quant::Any | Quant::All | Quant::None) || kinds == 0 || kinds > MAX_KINDS {
            return None;
        }
        let pieces = match self.fixed_seq(domain) {
            Some(seq) => Pieces::Seq(seq),
            None => {
                let (z, p) = self.counted_zone(domain)?;
                Pieces::Counted(z, self.arg_in_place(p)?)
            }
        };
        let mut aliases = vec![(slot, None)];
        let f = match filter {
            Some(f) => Some(self.kind_set(f, &mut aliases)?),
            None => None,
        };
        let b = match body {
            Some(b) => Some(self.kind_set(b, &mut aliases)?),
            None => None,
        };
        let all = u64::MAX >> (MAX_KINDS - kinds);
        let name = match q {
            Quant::Any => "any",
            Quant::All => "all",
            _ => "none",
        };
        self.notes.push(format!("kind sets: `{name}` over a zone's pieces"));
        Some(KindQuant { q, pieces, f, b, all })
    }
}

/// A quantifier over a zone's pieces in set form (pass 30): the kinds the
/// zone holds ([`KindQuant::held`]) met with the kinds that pass.
pub struct KindQuant<const W: usize> {
    q: Quant,
    pieces: Pieces<W>,
    f: Option<KindSet>,
    b: Option<KindSet>,
    all: u64,
}

/// What `check --passes` says of a `for` filter made by
/// [`Compiler::kind_filter`].
pub const KIND_FILTER_NOTE: &str =
    "kind filter: a `for` over kinds whose filter is a kind set over a zone the loop leaves alone, that zone read once per loop";

impl<const W: usize> Compiler<'_, W> {
    /// Pass 41: the filter `f` of a `for` over kinds whose statements are
    /// `body`, when it is a quantifier of pass 30 (also a `def` of one
    /// called with locals, which the checker expands in place) over a
    /// zone whose identity cannot change and that no statement of `body`
    /// may change: the quantifier, whose zone's kinds the loop reads once
    /// ([`RoundFilter::fixed`]).
    pub fn kind_filter(&mut self, f: &Expr, body: &[Stmt]) -> Option<KindQuant<W>> {
        let Expr::Quant { quant, slot, domain, filter, body: b, .. } = f else { return None };
        let Expr::Zone(z, _) = &**domain else { return None };
        if writes_zone(body, *z) {
            return None;
        }
        let n = self.notes.len();
        let kq = self.kind_quant(*quant, *slot, domain, (filter.as_deref(), b.as_deref()))?;
        if !kq.fixed_zone() {
            self.notes.truncate(n);
            return None;
        }
        self.notes.push(KIND_FILTER_NOTE.into());
        Some(kq)
    }
}

/// Whether some statement of `stmts` may change zone `z` (its pieces, or
/// their order or faces): conservatively, any change of a zone that is
/// not named as a zone.
fn writes_zone(stmts: &[Stmt], z: u16) -> bool {
    let hits = |e: &Expr| !matches!(e, Expr::Zone(y, _) if *y != z);
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Transfer { from, to, .. } => hits(from) || hits(to),
        StmtKind::Add { zone, .. } | StmtKind::Take { zone, .. } => hits(zone),
        StmtKind::Shuffle(zone) | StmtKind::Reveal { zone, .. } => hits(zone),
        StmtKind::Either { branches, .. } => branches.iter().any(|b| writes_zone(b, z)),
        StmtKind::For { body, .. } | StmtKind::Block(_, body) => writes_zone(body, z),
        StmtKind::While { pre, body, .. } => writes_zone(pre, z) || writes_zone(body, z),
        StmtKind::If { then, otherwise, .. } => writes_zone(then, z) || writes_zone(otherwise, z),
        StmtKind::Let(..)
        | StmtKind::Choose { .. }
        | StmtKind::Random { .. }
        | StmtKind::Require(..)
        | StmtKind::Win(_)
        | StmtKind::Lose(_)
        | StmtKind::Draw
        | StmtKind::Pass
        | StmtKind::Place { .. }
        | StmtKind::Compare { .. }
        | StmtKind::Remove(_)
        | StmtKind::Move { .. }
        | StmtKind::Assign(..)
        | StmtKind::Change { .. }
        | StmtKind::NextTurn(_) => false,
    })
}

/// Pass 41's filter where the quantifier is `any n in Z: C(n, k)` with
/// `C` a kind set of the loop's own local `k` (and at most a fixed filter
/// on `n`): the kinds `k` that pass are the union, over the kinds `Z`
/// holds, of the kinds that pass with that one (`inverse`, made at load),
/// found once per loop; each round then tests its kind's bit. A value of
/// `k` that is no kind is asked of the quantifier as before.
pub struct KindPass<const W: usize> {
    kq: KindQuant<W>,
    /// Per kind `j` of the zone's pieces: the kinds `k` for which a piece
    /// of kind `j` passes.
    inverse: Box<[u64]>,
    /// The filter on the zone's pieces (`all` without one).
    held_filter: u64,
    /// The loop's local's word slot.
    slot: usize,
}

impl<const W: usize> KindQuant<W> {
    /// This quantifier as a [`KindPass`] of a loop over kinds whose local
    /// is word slot `slot`, if it has that form.
    pub fn into_pass(self, slot: usize, kinds: usize) -> Result<KindPass<W>, KindQuant<W>> {
        let held_filter = match (&self.q, &self.f) {
            (Quant::Any, None) => self.all,
            (Quant::Any, Some(KindSet::Fixed(m))) => *m,
            _ => return Err(self),
        };
        let inverse = match &self.b {
            Some(KindSet::ByLocal(s, rows)) if *s == slot && rows.len() > kinds => (0..kinds)
                .map(|j| {
                    (0..kinds).filter(|&k| rows[k] >> j & 1 != 0).fold(0u64, |m, k| m | 1 << k)
                })
                .collect(),
            _ => return Err(self),
        };
        Ok(KindPass { kq: self, inverse, held_filter, slot })
    }
}

impl<const W: usize> RoundFilter<W> for KindPass<W> {
    /// The kinds that pass, and the kinds the zone holds.
    type Fixed = (u64, u64);
    #[inline(always)]
    fn fixed(&self, cx: &mut Cx<'_, W>) -> (u64, u64) {
        let held = self.kq.held(cx);
        let mut js = held & self.held_filter;
        let mut pass = 0;
        while js != 0 {
            let j = js.trailing_zeros() as usize;
            js &= js - 1;
            pass |= self.inverse.get(j).copied().unwrap_or(0);
        }
        (pass, held)
    }
    #[inline(always)]
    fn pass(&self, cx: &mut Cx<'_, W>, (pass, held): (u64, u64)) -> bool {
        match cx.fr.w.get(self.slot).copied() {
            Some(k) if (0..self.inverse.len() as i64).contains(&k) => pass >> k & 1 != 0,
            _ => self.kq.test(cx, held),
        }
    }
}

impl<const W: usize> RoundFilter<W> for KindQuant<W> {
    type Fixed = u64;
    #[inline(always)]
    fn fixed(&self, cx: &mut Cx<'_, W>) -> u64 {
        self.held(cx)
    }
    #[inline(always)]
    fn pass(&self, cx: &mut Cx<'_, W>, held: u64) -> bool {
        self.test(cx, held)
    }
}

impl<const W: usize> KindQuant<W> {
    /// The zone the quantifier reads when it is one whose identity cannot
    /// change (a sequence known at load, or a counted zone of a constant
    /// player or `me`): then [`KindQuant::held`] reads only that zone.
    pub fn fixed_zone(&self) -> bool {
        match &self.pieces {
            Pieces::Seq(_) => true,
            Pieces::Counted(_, a) => matches!(a, Arg::Const(_) | Arg::Me),
        }
    }

    /// The kinds the zone holds, as a bit set.
    #[inline(always)]
    pub fn held(&self, cx: &mut Cx<'_, W>) -> u64 {
        match &self.pieces {
            Pieces::Seq(i) => cx.st.seqs.get(*i).map_or(0, |z| {
                let mut m = 0u64;
                for k in z.front() {
                    m |= 1u64 << (k as usize % MAX_KINDS);
                }
                for &k in &z.back {
                    m |= 1u64 << (k as usize % MAX_KINDS);
                }
                if z.any_hidden() {
                    for (k, &n) in z.middle().iter().enumerate() {
                        m |= u64::from(n != 0) << (k % MAX_KINDS);
                    }
                }
                m
            }),
            Pieces::Counted(z, a) => {
                // The player as the zone's word holds it (see `each`).
                let pl = a.get(cx) as u8;
                cx.t.kind_counts(&cx.st.data, *z, pl).map_or(0, |c| {
                    c.iter()
                        .enumerate()
                        .fold(0u64, |m, (k, &n)| m | u64::from(n != 0) << (k % MAX_KINDS))
                })
            }
        }
    }

    /// The quantifier's answer where the zone holds the kinds `held`.
    #[inline(always)]
    pub fn test(&self, cx: &Cx<'_, W>, held: u64) -> bool {
        let all = self.all;
        let pass = self.f.as_ref().map_or(all, |f| f.eval(cx, all)) & held;
        let good = self.b.as_ref().map_or(all, |b| b.eval(cx, all));
        match self.q {
            Quant::Any => pass & good != 0,
            Quant::None => pass & good == 0,
            _ => pass & !good == 0,
        }
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Condition `e` about the zone's piece (the local `aliases[0].0`, or
    /// a `def` parameter bound to it) in set form: comparisons of a side
    /// with the piece with a constant or another word local, and `not`,
    /// `and`, `or` of them. `aliases` maps `def` parameters bound to
    /// locals to those locals (`None`: the piece).
    fn kind_set(&self, e: &Expr, aliases: &mut Vec<(Slot, Option<Slot>)>) -> Option<KindSet> {
        let all = u64::MAX >> (MAX_KINDS - self.t.kinds);
        match e {
            Expr::Const(Value::Bool(b)) => Some(KindSet::Fixed(if *b { all } else { 0 })),
            Expr::Unary(UnOp::Not, a) => Some(KindSet::Not(Box::new(self.kind_set(a, aliases)?))),
            Expr::Binary(op @ (BinOp::And | BinOp::Or), a, b, _) => {
                let a = Box::new(self.kind_set(a, aliases)?);
                let b = Box::new(self.kind_set(b, aliases)?);
                Some(if *op == BinOp::And { KindSet::And(a, b) } else { KindSet::Or(a, b) })
            }
            Expr::Binary(op, a, b, _) => {
                let cmp = compare(*op)?;
                let (a, b) = (self.side(a, aliases)?, self.side(b, aliases)?);
                let (piece, other, flip) = match (a, b) {
                    (Side::Piece(p), other) => (p, other, false),
                    (other, Side::Piece(p)) => (p, other, true),
                    _ => return None,
                };
                match other {
                    // A word local compared as it is: only with the piece's
                    // kind (a kind local), and only for equality, which no
                    // kind meets when it holds none.
                    Side::Local(_, None) if piece.is_some() => None,
                    Side::Local(_, None) if !matches!(op, BinOp::Eq | BinOp::Ne) => None,
                    _ if flip => self.compared(piece, other, move |x, y| cmp(y, x)),
                    _ => self.compared(piece, other, cmp),
                }
            }
            Expr::Inline(binds, body, _) => {
                let n = aliases.len();
                for (param, arg) in binds.iter() {
                    let Expr::Local(x, _) = arg else {
                        aliases.truncate(n);
                        return None;
                    };
                    let to = self.resolve(*x, aliases);
                    aliases.push((*param, to));
                }
                let out = self.kind_set(body, aliases);
                aliases.truncate(n);
                out
            }
            _ => None,
        }
    }

    /// The local a slot stands for: `None` for the zone's piece.
    fn resolve(&self, x: Slot, aliases: &[(Slot, Option<Slot>)]) -> Option<Slot> {
        match aliases.iter().rev().find(|(s, _)| *s == x) {
            Some((_, to)) => *to,
            None => Some(x),
        }
    }

    fn side(&self, e: &Expr, aliases: &[(Slot, Option<Slot>)]) -> Option<Side> {
        let local = |x: Slot, p: Option<usize>| match self.resolve(x, aliases) {
            None => Some(Side::Piece(p)),
            Some(x) => match self.var(x) {
                super::super::Var::W(i) => Some(Side::Local(i as usize, p)),
                _ => None,
            },
        };
        match e {
            Expr::Const(v) => super::super::expr::const_word(v).map(Side::Const),
            Expr::Local(x, _) => local(*x, None),
            Expr::Prop(p, a, _) => match &**a {
                Expr::Local(x, _) => local(*x, Some(*p as usize)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The kinds whose piece side compares with `other` by `cmp`.
    fn compared(
        &self,
        piece: Option<usize>,
        other: Side,
        cmp: impl Fn(i64, i64) -> bool,
    ) -> Option<KindSet> {
        let kinds = self.t.kinds;
        let value = |k: usize, p: Option<usize>| match p {
            None => k as i64,
            Some(p) => self.t.props.get(k).and_then(|ps| ps.get(p)).copied().unwrap_or(0),
        };
        let set = |o: i64| {
            (0..kinds).filter(|&k| cmp(value(k, piece), o)).fold(0u64, |m, k| m | 1u64 << k)
        };
        match other {
            Side::Const(c) => Some(KindSet::Fixed(set(c))),
            Side::Local(slot, p) => {
                let mut rows: Vec<u64> = (0..kinds).map(|v| set(value(v, p))).collect();
                // The local holds no kind: its property reads 0 (as
                // `Leaf::PropOf` reads it); its value itself equals no kind
                // (`==` or `!=` only, see `kind_set`).
                rows.push(match p {
                    Some(_) => set(0),
                    None if cmp(1, 1) => 0,
                    None => u64::MAX >> (MAX_KINDS - kinds),
                });
                Some(KindSet::ByLocal(slot, rows.into_boxed_slice()))
            }
            Side::Piece(_) => None,
        }
    }
}

/// The comparison of an operator (`None` for the others).
fn compare(op: BinOp) -> Option<fn(i64, i64) -> bool> {
    Some(match op {
        BinOp::Eq => |a, b| a == b,
        BinOp::Ne => |a, b| a != b,
        BinOp::Lt => |a, b| a < b,
        BinOp::Le => |a, b| a <= b,
        BinOp::Gt => |a, b| a > b,
        BinOp::Ge => |a, b| a >= b,
        _ => return None,
    })
}
