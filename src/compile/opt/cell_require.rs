//! Pass 44: group-size requires (see the module docs of [`super`]).
//! `choose c in D [where F]`, then `place K at c` (the mover's piece),
//! then one or more `require C` whose only look at the position is
//! `size(group(c))`: each `C` is asked of every cell as the options are
//! listed, with the size the placement would give the group, and not
//! run after the decision.

use super::super::expr::{bits_at, flood, Compiler};
use super::super::{Cx, Set, Var, B, I};
use super::logical;
use crate::ir::{Builtin, Expr, Slot, Stmt, StmtKind, Ty, UnOp, NONE8};
use crate::source::Span;

/// `require`s right after the mover's `place K at c` of a chosen cell
/// `c`, about the size of `c`'s group once placed, asked of each cell as
/// the options are listed (pass 44). The group of the piece placed on an
/// empty cell `x` is `x` and the part of the mover's pieces its
/// neighbours reach: its size is found without placing anything.
pub struct CellRequire<const W: usize> {
    /// The chosen cell's word slot.
    cell: usize,
    /// The word slot the conditions read `size(group(c))` from.
    size: usize,
    /// The kind placed.
    kind: I<W>,
    /// Each `require`'s condition and the statement's span, in the written
    /// order.
    conds: Vec<(B<W>, Span)>,
    /// The conditions read the chosen cell only through its group's size,
    /// so within one listing their answer depends on the size alone.
    pub by_size: bool,
}

/// What a listing reads once for all its cells: the mover's pieces, or
/// `None` when the placement itself would not go ahead (no mover: the
/// run raises its error at the `place`; no kind: the `place` fails), and
/// then no cell is asked.
#[derive(Clone, Copy)]
pub struct Placing<const W: usize> {
    own: Set<W>,
}

impl<const W: usize> CellRequire<W> {
    /// The mover's pieces at the position of `cx`, when a piece of the
    /// mover can be placed.
    #[inline]
    pub fn placing(&self, cx: &mut Cx<'_, W>) -> Option<Placing<W>> {
        let me = cx.st.current;
        if me == NONE8 || !(0..cx.t.kinds as i64).contains(&(self.kind)(cx)) {
            return None;
        }
        Some(Placing { own: bits_at(cx.st, usize::from(me)) })
    }

    /// The size of the group of the mover's piece once placed on cell
    /// `x`: `x` and the mover's pieces its neighbours reach. `None` when
    /// the `place` would not go ahead (`x` off the board or occupied),
    /// which the run then meets as written.
    #[inline]
    pub fn size_at(&self, cx: &Cx<'_, W>, pl: Placing<W>, x: i64) -> Option<i64> {
        let t = cx.t;
        let nbr = *usize::try_from(x).ok().and_then(|i| t.nbr.get(i))?;
        if cx.st.data.get(x as usize) != Some(&0) {
            return None;
        }
        let joined = pl.own.and(nbr);
        if joined.is_empty() {
            return Some(1);
        }
        Some(1 + flood(t, pl.own, joined).len() as i64)
    }

    /// The span of the first `require` that rejects cell `x` when its
    /// group would have `size` cells (`None`: all hold). The cell's local
    /// is left as it was.
    #[inline]
    pub fn failure_at(&self, cx: &mut Cx<'_, W>, x: i64, size: i64) -> Option<Span> {
        let saved = std::mem::replace(&mut cx.fr.w[self.cell], x);
        cx.fr.w[self.size] = size;
        let failed = self.conds.iter().find(|(f, _)| !f(cx)).map(|(_, s)| *s);
        cx.fr.w[self.cell] = saved;
        failed
    }

    /// The span of the first `require` that rejects cell `x` once the
    /// mover's piece is placed there (`None`: all hold, or the `place`
    /// itself would not go ahead).
    #[inline]
    pub fn first_failure(&self, cx: &mut Cx<'_, W>, pl: Placing<W>, x: i64) -> Option<Span> {
        let size = self.size_at(cx, pl, x)?;
        self.failure_at(cx, x, size)
    }
}

/// What one listing learned of conditions that depend on the size alone
/// ([`CellRequire::by_size`]): for each size below 64, whether it was
/// asked and whether it passed.
#[derive(Default)]
pub struct SizeAnswers {
    asked: u64,
    passed: u64,
}

impl SizeAnswers {
    /// Whether `r`'s conditions admit cell `x` with group size `size`,
    /// asked once per size.
    #[inline]
    pub fn admits<const W: usize>(
        &mut self,
        r: &CellRequire<W>,
        cx: &mut Cx<'_, W>,
        x: i64,
        size: i64,
    ) -> bool {
        if !r.by_size || !(0..64).contains(&size) {
            return r.failure_at(cx, x, size).is_none();
        }
        let bit = 1u64 << size;
        if self.asked & bit == 0 {
            self.asked |= bit;
            if r.failure_at(cx, x, size).is_none() {
                self.passed |= bit;
            }
        }
        self.passed & bit != 0
    }
}

/// Whether `e` can be asked as the options are listed with the size of
/// the chosen cell's group in a word (pass 44): it never counts a step,
/// never raises an error and reads the position only as
/// `size(group(c))` — constants, locals, `me`, `not`, `and`, `or`,
/// comparisons, properties of kinds and inlined `def`s around it.
fn sized_only(e: &Expr, c: Slot) -> bool {
    if is_group_size(e, c) {
        return true;
    }
    let here = match e {
        Expr::Const(_) | Expr::Local(..) | Expr::Me | Expr::Prop(..) | Expr::Inline(..) => true,
        Expr::Unary(UnOp::Not, _) => true,
        Expr::Binary(op, ..) => logical(*op),
        _ => false,
    };
    let mut all = here;
    if all {
        e.children(&mut |x| all &= sized_only(x, c));
    }
    all
}

/// Whether `e` is `size(group(c))`.
fn is_group_size(e: &Expr, c: Slot) -> bool {
    let Expr::Builtin(Builtin::Size, a, _) = e else { return false };
    let [Expr::Builtin(Builtin::Group, g, _)] = &a[..] else { return false };
    matches!(&g[..], [Expr::Local(s, _)] if *s == c)
}

/// Whether `e` reads the local `c` other than as `size(group(c))`.
fn reads_cell(e: &Expr, c: Slot) -> bool {
    if is_group_size(e, c) {
        return false;
    }
    if matches!(e, Expr::Local(s, _) if *s == c) {
        return true;
    }
    let mut found = false;
    e.children(&mut |x| found |= reads_cell(x, c));
    found
}

/// Whether the kind placed can be read as the options are listed: a
/// constant or a local.
fn plain_kind(e: &Expr) -> bool {
    matches!(e, Expr::Const(_) | Expr::Local(..))
}

impl<const W: usize> Compiler<'_, W> {
    /// Pass 44: `choose c in D [where F]` (`c` a cell) at `stmts[i]`,
    /// then `place K at c` for the mover (`K` a constant or a local),
    /// then `require C` (one or more, each [`sized_only`]). Returns the
    /// indices in `stmts` of those `require`s and the form the listing
    /// asks of each cell. Exact: `group(c)` once the mover's piece is on
    /// the empty cell `c` is `c` and the mover's pieces its neighbours
    /// reach, whatever the kind; the conditions read nothing else of the
    /// position, count no step and raise no error, so a run without them
    /// meets the same limits; a cell they reject fails at its first
    /// failing `require` when run as written, and is dropped by the
    /// listing after it counted against the budget of choices.
    pub fn cell_require(
        &mut self,
        stmts: &[Stmt],
        i: usize,
    ) -> Option<(Vec<usize>, CellRequire<W>)> {
        let StmtKind::Choose { slot, .. } = &stmts.get(i)?.kind else { return None };
        let Var::W(cell) = self.var(*slot) else { return None };
        let StmtKind::Place { kind, owner: None, at, many: false } = &stmts.get(i + 1)?.kind else {
            return None;
        };
        if !matches!(at, Expr::Local(s, _) if s == slot)
            || self.ty(at) != Ty::Cell
            || !plain_kind(kind)
        {
            return None;
        }
        let asked: Vec<usize> = stmts
            .iter()
            .enumerate()
            .skip(i + 2)
            .take_while(|(_, s)| matches!(&s.kind, StmtKind::Require(c, _) if sized_only(c, *slot)))
            .map(|(j, _)| j)
            .collect();
        if asked.is_empty() {
            return None;
        }
        let size = self.fresh_word() as usize;
        self.group_size = Some((*slot, size));
        let mut by_size = true;
        let conds = asked
            .iter()
            .filter_map(|&j| match &stmts[j].kind {
                StmtKind::Require(c, _) => {
                    by_size &= !reads_cell(c, *slot);
                    Some((self.bool_(c), stmts[j].span))
                }
                _ => None,
            })
            .collect();
        self.group_size = None;
        self.notes.push("group-size require: asked of each cell as the options are listed".into());
        let kind = self.word(kind);
        Some((asked, CellRequire { cell: cell as usize, size, kind, conds, by_size }))
    }

    /// The word slot that holds `e` while pass 44 compiles its conditions,
    /// when `e` is the `size(group(c))` they read.
    pub(in crate::compile) fn group_size_of(&self, e: &Expr) -> Option<usize> {
        let (c, w) = self.group_size?;
        is_group_size(e, c).then_some(w)
    }
}
