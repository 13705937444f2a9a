//! Pass 22: sure tails (see the module docs of [`super`]). A decision
//! whose tail completes whatever the option, provided the position at
//! the decision meets conditions the search can check there: the zones
//! the tail reads the ends of lie face up, every draw-until loop finds a
//! piece that stops it, no zone can overflow and the steps stay within
//! the limit.

use super::{
    assigned, domain_size, free_locals, may_fail, reads_state_but, safe_stmt, some_player,
    stable_zone, transfer_safe, Facts, TailWalk, Tails, ZonePlayer,
};
use crate::ir::{BinOp, Builtin, Expr, Key, Quant, Stmt, StmtKind, UnOp, Value};
use std::collections::BTreeSet;

/// A bound on steps: a polynomial in the number of pieces all zones
/// hold together, coefficients lowest power first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Poly(Vec<u64>);

/// The highest power a bound may have (deeper nesting is not bounded).
const MAX_DEGREE: usize = 6;

impl Poly {
    fn constant(k: u64) -> Poly {
        Poly(vec![k])
    }

    /// The number of pieces itself.
    fn pieces() -> Poly {
        Poly(vec![0, 1])
    }

    fn add(&self, o: &Poly) -> Option<Poly> {
        let n = self.0.len().max(o.0.len());
        let at = |p: &Poly, i: usize| p.0.get(i).copied().unwrap_or(0);
        (0..n).map(|i| at(self, i).checked_add(at(o, i))).collect::<Option<_>>().map(Poly)
    }

    fn mul(&self, o: &Poly) -> Option<Poly> {
        if self.0.is_empty() || o.0.is_empty() {
            return Some(Poly::default());
        }
        let n = self.0.len() + o.0.len() - 1;
        if n > MAX_DEGREE + 1 {
            return None;
        }
        let mut out = vec![0u64; n];
        for (i, a) in self.0.iter().enumerate() {
            for (j, b) in o.0.iter().enumerate() {
                out[i + j] = out[i + j].checked_add(a.checked_mul(*b)?)?;
            }
        }
        Some(Poly(out))
    }

    /// The bound when the zones hold `n` pieces (`None` past `u64`).
    pub fn at(&self, n: u64) -> Option<u64> {
        self.0.iter().rev().try_fold(0u64, |acc, c| acc.checked_mul(n)?.checked_add(*c))
    }
}

/// What the search must check at a decision whose tail is sure (pass 22).
#[derive(Debug, Clone)]
pub struct SureTail {
    /// Ordered zones whose ends the tail reads: none of their pieces may
    /// lie face down (a tail without `shuffle` that moves only known
    /// pieces keeps them face up).
    pub face_up: Vec<Expr>,
    /// Draw-until loops: the zone (one of `face_up` too) and the loop's
    /// test, about the zone's end piece alone. The zone must hold a piece
    /// for which the test fails.
    pub until: Vec<(Expr, Expr)>,
    /// Most steps the tail takes, by the pieces in all zones.
    pub steps: Poly,
    /// The tail moves pieces between zones: all zones together must hold
    /// at most 65535 pieces (so that none can overflow).
    pub moves_pieces: bool,
    /// No `add` anywhere in the turn (see [`super::ChanceTail::no_adds`]).
    pub no_adds: bool,
}

/// The sure tail after a decision: the continuations `conts` (innermost
/// last) walked from `facts`; `None` when some statement on the way may
/// fail, ask for a decision, or raise an error that the conditions of
/// [`SureTail`] do not rule out.
pub(super) fn sure_tail(conts: &[&[Stmt]], facts: Facts, out: &Tails) -> Option<SureTail> {
    let tw = TailWalk { facts, written: BTreeSet::new(), moves_pieces: false, steps: 0 };
    let mut w = Walk { tw, face_up: Vec::new(), until: Vec::new(), drawn: None, out };
    let mut steps = Poly::default();
    for c in conts.iter().rev() {
        let (s, ended) = w.block(c)?;
        steps = steps.add(&s)?;
        if ended {
            break;
        }
    }
    let mut face_up: Vec<Expr> = Vec::new();
    for z in w.face_up {
        if !face_up.iter().any(|y| stable_zone(y) == stable_zone(&z)) {
            face_up.push(z);
        }
    }
    let (until, moves_pieces, no_adds) = (w.until, w.tw.moves_pieces, out.no_adds);
    Some(SureTail { face_up, until, steps, moves_pieces, no_adds })
}

struct Walk<'o> {
    /// What is known (facts, zones written, whether pieces move).
    tw: TailWalk,
    face_up: Vec<Expr>,
    until: Vec<(Expr, Expr)>,
    /// A zone (and end) whose end piece is known to be a piece that
    /// stopped a draw-until loop: right after the loop, before anything
    /// else changes.
    drawn: Option<((u16, ZonePlayer), bool)>,
    out: &'o Tails,
}

/// The expressions of a statement without blocks inside.
fn leaf_exprs(s: &Stmt) -> Vec<&Expr> {
    match &s.kind {
        StmtKind::Let(_, e)
        | StmtKind::Require(e, _)
        | StmtKind::Remove(e)
        | StmtKind::Win(e)
        | StmtKind::Lose(e)
        | StmtKind::NextTurn(e) => vec![e],
        StmtKind::Assign(t, e) => match t {
            crate::ir::Target::Var(_, Some(p)) => vec![p, e],
            _ => vec![e],
        },
        StmtKind::Place { kind, owner, at, .. } => {
            [Some(kind), owner.as_ref(), Some(at)].into_iter().flatten().collect()
        }
        StmtKind::Move { from, to } => vec![from, to],
        StmtKind::Take { count, kind, zone } => {
            [count.as_ref(), Some(kind), Some(zone)].into_iter().flatten().collect()
        }
        _ => Vec::new(),
    }
}

/// `first(z)` / `last(z)` of a zone: the zone and whether it is the front.
pub(super) fn zone_end(e: &Expr) -> Option<(&Expr, bool)> {
    match e {
        Expr::Builtin(f @ (Builtin::First | Builtin::Last), args, _)
            if matches!(args.first(), Some(Expr::Zone(..))) =>
        {
            Some((&args[0], *f == Builtin::First))
        }
        _ => None,
    }
}

/// The ends of zones `e` reads (first or last pieces), outermost first.
pub(super) fn ends_read(e: &Expr, out: &mut Vec<(Expr, bool)>) {
    if let Some((z, f)) = zone_end(e) {
        out.push((z.clone(), f));
    }
    e.children(&mut |c| ends_read(c, out));
}

impl Walk<'_> {
    fn face_up_zone(&mut self, z: &Expr) -> Option<()> {
        let (id, _) = stable_zone(z)?;
        if !self.out.ordered.get(id as usize).copied().unwrap_or(false) {
            return None;
        }
        self.face_up.push(z.clone());
        Some(())
    }

    /// A zone named with a player that is never `none`.
    fn zone_ok(&self, z: &Expr) -> bool {
        match z {
            Expr::Zone(_, None) => true,
            Expr::Zone(_, Some(p)) => match &**p {
                Expr::Local(x, _) => self.tw.facts.get(*x).some,
                // The seat after the mover.
                Expr::Builtin(Builtin::Next, a, _) => matches!(a.first(), Some(Expr::Me)),
                p => some_player(p),
            },
            _ => false,
        }
    }

    /// The most steps evaluating `e` takes; the zones whose ends it reads
    /// must lie face up. `None` for what may raise an error: arithmetic
    /// (which may overflow), `sum` but of counts, ranges, division.
    fn expr(&mut self, e: &Expr) -> Option<Poly> {
        match e {
            Expr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem, ..)
            | Expr::Unary(UnOp::Neg, _)
            | Expr::Builtin(Builtin::Range | Builtin::Abs, ..) => return None,
            _ => {}
        }
        if let Some((z, _)) = zone_end(e) {
            self.face_up_zone(z)?;
            return Some(Poly::default());
        }
        if let Expr::Quant { quant, domain, filter, body, .. } = e {
            let counts =
                |b: &Expr| matches!(b, Expr::Builtin(Builtin::CountKind | Builtin::CountAll, ..));
            if *quant == Quant::Sum && !body.as_deref().is_some_and(counts) {
                return None;
            }
            let n = self.size(domain)?;
            let mut round = Poly::constant(1);
            for x in filter.iter().chain(body.iter()) {
                round = round.add(&self.expr(x)?)?;
            }
            return self.expr(domain)?.add(&n.mul(&round)?);
        }
        let mut total = Some(Poly::default());
        e.children(&mut |c| {
            total = match (total.take(), self.expr(c)) {
                (Some(a), Some(b)) => a.add(&b),
                _ => None,
            }
        });
        total
    }

    /// The most elements walking `domain` gives.
    fn size(&self, domain: &Expr) -> Option<Poly> {
        match domain {
            // A counted zone gives each kind it holds once.
            Expr::Zone(z, _) if self.zone_ok(domain) => {
                Some(match self.out.ordered.get(*z as usize).copied().unwrap_or(true) {
                    true => Poly::pieces(),
                    false => Poly::constant(u64::from(self.out.kinds)),
                })
            }
            Expr::Zone(..) => None,
            d => domain_size(d, self.out).map(Poly::constant),
        }
    }

    /// Walks `stmts`: the most steps they take and whether every path
    /// through them ends the turn.
    fn block(&mut self, stmts: &[Stmt]) -> Option<(Poly, bool)> {
        let mut total = Poly::default();
        for s in stmts {
            let (steps, ended) = self.stmt(s)?;
            total = total.add(&steps)?;
            if ended {
                return Some((total, true));
            }
        }
        Some((total, false))
    }

    /// Forgets what a loop's rounds may change (entering or leaving it).
    fn forget_loop(&mut self, body: &[Stmt]) {
        let f = &mut self.tw.facts;
        f.forget_all();
        f.held.clear();
        let mut changed = Vec::new();
        assigned(body, &mut changed);
        for x in changed {
            f.forget_slot(x);
        }
        self.drawn = None;
    }

    fn stmt(&mut self, s: &Stmt) -> Option<(Poly, bool)> {
        let none = Poly::default();
        match &s.kind {
            // Face up (checked at the decision): the end is known, the
            // reveal does nothing.
            StmtKind::Reveal { zone, .. } => {
                self.face_up_zone(zone)?;
                Some((none, false))
            }
            StmtKind::Transfer { count, kind, from, to } => {
                let drawn = self.drawn.take();
                if let Some((z, front)) = zone_end(kind) {
                    // The piece a draw-until loop stopped at, taken.
                    let one = matches!(count, Some(Expr::Const(Value::Int(1))));
                    let here = stable_zone(z).zip(Some(front));
                    if !one
                        || here.is_none()
                        || here != drawn
                        || stable_zone(from) != stable_zone(z)
                    {
                        return None;
                    }
                    self.draw(from, to)?;
                    return Some((none, false));
                }
                transfer_safe(count.as_ref(), kind, from, to, &mut self.tw, self.out)?;
                Some((none, false))
            }
            StmtKind::For { slot, domain, filter, body } => {
                let n = self.size(domain)?;
                let elems_some = matches!(
                    domain,
                    Expr::Zone(..) | Expr::Const(Value::Players) | Expr::Const(Value::Kinds)
                );
                let mut round = Poly::constant(1);
                if let Some(f) = filter {
                    if may_fail(f) {
                        return None;
                    }
                    round = round.add(&self.expr(f)?)?;
                }
                let dsteps = self.expr(domain)?;
                self.forget_loop(body);
                self.tw.facts.forget_slot(*slot);
                if elems_some {
                    self.tw.facts.with(*slot, |k| k.some = true);
                }
                let (b, _) = self.block(body)?;
                self.forget_loop(body);
                self.tw.facts.forget_slot(*slot);
                Some((dsteps.add(&n.mul(&round.add(&b)?)?)?, false))
            }
            StmtKind::While { pre, cond, body } => self.draw_until(pre, cond, body),
            StmtKind::If { cond, then, otherwise } => {
                if may_fail(cond) {
                    return None;
                }
                let c = self.expr(cond)?;
                let outer = self.tw.facts.clone();
                let drawn = self.drawn;
                self.tw.facts.learn(cond, true);
                let (a, ea) = self.block(then)?;
                let fa = std::mem::replace(&mut self.tw.facts, outer.clone());
                self.drawn = drawn;
                self.tw.facts.learn(cond, false);
                let (b, eb) = self.block(otherwise)?;
                let fb = std::mem::replace(&mut self.tw.facts, outer);
                let steps = c.add(&a)?.add(&b)?;
                self.drawn = None;
                match (ea, eb) {
                    (true, true) => return Some((steps, true)),
                    (true, false) => self.tw.facts = fb,
                    (false, true) => self.tw.facts = fa,
                    (false, false) => {
                        let mut both = then.to_vec();
                        both.extend(otherwise.iter().cloned());
                        self.forget_loop(&both);
                    }
                }
                Some((steps, false))
            }
            // Ends the game: the turn is complete.
            StmtKind::Compare { slot, domain, keys, .. } => {
                let n = self.size(domain)?;
                self.tw.facts.forget_slot(*slot);
                if matches!(domain, Expr::Const(Value::Players)) {
                    self.tw.facts.with(*slot, |k| k.some = true);
                }
                let mut round = Poly::constant(1);
                for k in keys {
                    let Key::Value(e) = k else { return None };
                    if may_fail(e) {
                        return None;
                    }
                    round = round.add(&self.expr(e)?)?;
                }
                Some((self.expr(domain)?.add(&n.mul(&round)?)?, true))
            }
            StmtKind::Block(binds, body) => {
                let mut steps = Poly::default();
                for (p, e) in binds.iter() {
                    match e {
                        Expr::Local(x, _) => {
                            let r = self.tw.facts.root(*x);
                            self.tw.facts.alias.insert(*p, r);
                        }
                        e if !may_fail(e) => {
                            steps = steps.add(&self.expr(e)?)?;
                            let next_of_me = matches!(e, Expr::Builtin(Builtin::Next, a, _)
                                if matches!(a.first(), Some(Expr::Me)));
                            if matches!(e, Expr::Me) || next_of_me {
                                self.tw.facts.with(*p, |k| k.some = true);
                            }
                        }
                        _ => return None,
                    }
                }
                let (b, ended) = self.block(body)?;
                Some((steps.add(&b)?, ended))
            }
            StmtKind::Let(..)
            | StmtKind::Assign(..)
            | StmtKind::NextTurn(_)
            | StmtKind::Win(_)
            | StmtKind::Lose(_)
            | StmtKind::Draw
            | StmtKind::Pass
            | StmtKind::Place { .. }
            | StmtKind::Remove(_)
            | StmtKind::Move { .. }
            | StmtKind::Take { .. }
            | StmtKind::Require(..) => {
                self.drawn = None;
                let mut steps = Poly::default();
                for e in leaf_exprs(s) {
                    steps = steps.add(&self.expr(e)?)?;
                }
                let mut f = Some(self.tw.facts.clone());
                if !safe_stmt(s, &mut f, None) {
                    return None;
                }
                match f {
                    None => Some((steps, true)),
                    Some(f) => {
                        self.tw.facts = f;
                        Some((steps, false))
                    }
                }
            }
            _ => None,
        }
    }

    /// `move 1 E from z to T` of the end `E` of zone `z`, a piece known to
    /// be there: `T` another zone of a player never `none`.
    fn draw(&mut self, from: &Expr, to: &Expr) -> Option<()> {
        let (z, _) = stable_zone(from)?;
        let Expr::Zone(t, _) = to else { return None };
        if *t == z || !self.zone_ok(to) {
            return None;
        }
        self.face_up_zone(from)?;
        self.tw.written.insert(z);
        self.tw.written.insert(*t);
        self.tw.moves_pieces = true;
        self.tw.facts.held.clear();
        Some(())
    }

    /// `while C(end(z)) { move 1 end(z) from z to T; ... }`, where `C`
    /// is a condition of the end piece's kind alone and the rest of the
    /// body leaves `z` alone: each round takes the end piece, so the loop
    /// stops at the first piece whose kind fails `C`, if `z` holds one
    /// (checked at the decision), and at most as many rounds as `z` holds
    /// pieces.
    fn draw_until(&mut self, pre: &[Stmt], cond: &Expr, body: &[Stmt]) -> Option<(Poly, bool)> {
        let mut ends = Vec::new();
        ends_read(cond, &mut ends);
        let (zone, front) = ends.first()?.clone();
        let zone = &zone;
        let here = stable_zone(zone)?;
        if ends.iter().any(|(z, f)| *f != front || stable_zone(z) != Some(here)) {
            return None;
        }
        let is_reveal = |s: &Stmt| {
            matches!(&s.kind, StmtKind::Reveal { zone: z, front: f, .. }
                if *f == front && stable_zone(z) == Some(here))
        };
        if !pre.iter().all(is_reveal) || may_fail(cond) {
            return None;
        }
        // A test of the end piece alone: no local from outside, no other
        // read of the position, not even `me` (the compiler asks it of
        // every kind when the game loads, `Compiler::draw_stops`).
        let mut free = Vec::new();
        free_locals(cond, &mut Vec::new(), &mut free);
        let is_end =
            |e: &Expr| zone_end(e).is_some_and(|(z, f)| f == front && stable_zone(z) == Some(here));
        if !free.is_empty() || reads_state_but(cond, true, &is_end) {
            return None;
        }
        let body = &body[body.iter().take_while(|s| is_reveal(s)).count()..];
        let (take, rest) = body.split_first()?;
        let StmtKind::Transfer { count: Some(Expr::Const(Value::Int(1))), kind, from, to } =
            &take.kind
        else {
            return None;
        };
        if zone_end(kind).map(|(z, f)| (stable_zone(z), f)) != Some((Some(here), front))
            || stable_zone(from) != Some(here)
        {
            return None;
        }
        let c = self.expr(cond)?;
        self.forget_loop(body);
        self.draw(from, to)?;
        let written = std::mem::take(&mut self.tw.written);
        let (r, _) = self.block(rest)?;
        if self.tw.written.contains(&here.0) {
            return None;
        }
        self.tw.written.extend(written);
        self.forget_loop(body);
        self.drawn = Some((here, front));
        self.until.push((zone.clone(), cond.clone()));
        // At most one round per piece of the zone, and a last test.
        let rounds = Poly::pieces().add(&Poly::constant(1))?;
        Some((rounds.mul(&Poly::constant(1).add(&c)?.add(&r)?)?, false))
    }
}

#[cfg(test)]
mod tests {
    use super::Poly;

    #[test]
    fn bounds_add_multiply_and_evaluate_like_polynomials() {
        let n = Poly::pieces();
        let one = Poly::constant(1);
        // (n + 1)(2n + 3) = 2n² + 5n + 3
        let a = n.add(&one).and_then(|a| a.mul(&n.add(&n)?.add(&Poly::constant(3))?));
        for x in [0u64, 1, 7, 66] {
            assert_eq!(a.as_ref().and_then(|a| a.at(x)), Some(2 * x * x + 5 * x + 3));
        }
        assert_eq!(Poly::constant(u64::MAX).add(&one), None);
        assert_eq!(Poly::pieces().at(u64::MAX), Some(u64::MAX));
        assert_eq!(n.mul(&n).and_then(|x| x.at(u64::MAX)), None);
    }

    #[test]
    fn a_sure_tails_bound_is_its_polynomial_whatever_was_asked_before() {
        // `SureTail::bound` keeps the last value: asked again with the same
        // pieces it gives it, with other pieces the polynomial's value,
        // and it keeps nothing it cannot tell apart (too many pieces, too
        // large a value).
        let tail = |steps: Option<Poly>| crate::compile::SureTail::<1> {
            face_up: Vec::new(),
            until: Vec::new(),
            steps: steps.unwrap_or_default(),
            moves_pieces: false,
            no_adds: true,
            last: std::sync::atomic::AtomicU64::new(0),
        };
        let n = Poly::pieces();
        let square = || n.mul(&n).and_then(|x| x.add(&Poly::constant(3)));
        let t = tail(square());
        // (2^21)² + 3 has bits above bit 40, which would read as 2^21 + 5.
        let asked = [
            u64::MAX,
            7,
            7,
            0,
            8,
            8,
            7,
            1 << 23,
            (1 << 23) - 1,
            1 << 21,
            (1 << 21) + 4,
            1 << 30,
            7,
        ];
        for x in asked {
            assert_eq!(t.bound(x), t.steps.at(x), "{x} pieces");
        }
        assert_eq!(t.bound(7), Some(52));
        assert_eq!(tail(square()).bound(u64::MAX), None);
        // 2^24 + 6 pieces: its bound would be kept under 7 = 6 + 1.
        let t = tail(Some(n.clone()));
        for x in [(1 << 24) + 6, 6, (1 << 23) + 6, 6] {
            assert_eq!(t.bound(x), Some(x), "{x} pieces");
        }
    }
}
