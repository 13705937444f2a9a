//! Expressions → typed closures.
//!
//! [`Compiler::bool_`], [`Compiler::word`], [`Compiler::set`] and
//! [`Compiler::dom`] compile an IR expression of the matching type. Leaf
//! operands that are locals or constants are read directly inside the
//! closure that uses them (no call per leaf); the optimisation passes of
//! [`super::opt`] get the first say on quantifiers and `choose` domains.

use super::opt::Pred;
use super::{word, Cx, Dom, Set, Tables, Var, B, D, I, S};
use crate::board::{CellId, NO_CELL};
use crate::ir::{self, BinOp, Builtin, Expr, Quant, Slot, Ty, UnOp, Value, NONE16, NONE8};
use crate::source::Span;
use crate::state::{End, State};

/// The compiler's state: the game, its tables, where each IR slot lives,
/// and how big the frame's banks have grown.
pub struct Compiler<'g, const W: usize> {
    /// The checked game.
    pub g: &'g ir::Game,
    /// Its tables.
    pub t: &'g Tables<W>,
    vars: Vec<Var>,
    /// The types of the slots the passes added past the checked game's
    /// ([`Compiler::fresh_cell_local`]).
    extra_tys: Vec<Ty>,
    sizes: (usize, usize, usize),
    /// What the passes did.
    pub notes: Vec<String>,
    /// Memo tables handed out (see `opt::memo_cond`).
    pub memos: usize,
    /// Tables of remembered collections handed out (pass 23).
    pub pair_memos: usize,
    /// Whether `same_shape` is compiled (its shape codes are remembered).
    pub shapes: bool,
    /// Whether a collection `groups(P)` is compiled: only then does a
    /// frame keep each player's list of groups ([`super::Frame::groups`]).
    pub group_lists: bool,
    /// The collections given those tables: the element, the other set
    /// local, the domain, filter and body, and the table (one table for
    /// collections that are the same but for the names of those locals).
    pub memo_sites: Vec<MemoSite>,
    /// Whether a pass reads each player's pieces at the turn's start
    /// ([`super::Frame::start`], pass 13).
    pub reads_start: bool,
    /// Subexpressions computed once per evaluation of the quantifier being
    /// compiled (see `opt::hoist`): the expression, the local caching its
    /// value and the word that says whether it is cached.
    pub hoisted: Vec<(*const Expr, Var, u16)>,
    /// The decisions asked a `require` as their options are listed (pass
    /// 17, `stmt::ChooseOp::nbr`).
    pub nbr_sites: Vec<u16>,
    /// The `require` statements asked as a decision's options are listed
    /// (passes 17 and 19), by address: the lazy-tail pass passes over them.
    pub preasked: Vec<usize>,
    /// The statements compiled before the decision just before them (pass
    /// 28, `opt::Tails::before_decision`), by address.
    pub before_decision: std::collections::BTreeSet<usize>,
    /// Pass 25: the decision whose options the `while` condition just
    /// compiled stores (its site, the set local and the word that says the
    /// set is there), for the `choose` that reads them.
    pub fused: Option<(u16, u16, u16)>,
    /// Slots the passes added that one op leaves for another to read
    /// (pass 25's options): copied with every option of every decision
    /// (pass 35, [`super::live`]). A slot a pass adds for use within one
    /// op (`fresh_word` and the like) needs no mention.
    pub kept: Vec<Var>,
    /// The cursors of `for` loops that run as ops (pass 35).
    pub cursors: super::live::Cursors,
    /// While pass 44 compiles its conditions: the chosen cell's slot and
    /// the word that holds `size(group(c))`.
    pub group_size: Option<(ir::Slot, usize)>,
    /// While pass 49 compiles a pattern to tabulate it (the pattern's own
    /// closure must not look itself up).
    pub in_pattern: bool,
}

/// A collection remembered by pass 23 (see [`Compiler::memo_sites`]).
pub struct MemoSite {
    /// The element's slot.
    pub slot: Slot,
    /// The other set local's slot.
    pub a: Slot,
    /// `domain`, `filter`, `body`.
    pub parts: (Expr, Option<Expr>, Option<Expr>),
    /// Its table.
    pub id: usize,
}

/// The board code on `c` (0 when empty or not a cell).
#[inline(always)]
pub fn code_at<const W: usize>(cx: &Cx<'_, W>, c: CellId) -> u16 {
    if (c as usize) < cx.t.cells {
        cx.st.data[c as usize]
    } else {
        0
    }
}

/// Records an arithmetic overflow at `span` (a rule error, never a wrap).
#[cold]
pub fn overflow<const W: usize>(cx: &mut Cx<'_, W>, span: Span) -> i64 {
    cx.fr.fail("the numbers here overflow (beyond 64 bits)".into(), span);
    0
}

/// The rule error for reading a face-down end of a zone where it cannot
/// be revealed (inside a quantifier over something the zone depends on).
#[cold]
pub fn face_down() -> String {
    "this reads a face-down piece of an ordered zone where it cannot be revealed (inside a quantifier); read it outside first, e.g. with `let`".into()
}

/// The kind of the first (`first`) or last piece of an ordered zone as a
/// word (`none` for an empty zone); `None` when that piece is face down.
#[inline(always)]
fn end_kind(seq: &crate::state::Seq, first: bool) -> Option<i64> {
    match if first { seq.first() } else { seq.last() } {
        End::Known(k) => Some(i64::from(k)),
        End::Empty => Some(i64::from(NONE16)),
        End::Unknown => None,
    }
}

/// Occupancy set number `i` of a state (players first, then kinds).
#[inline(always)]
pub fn bits_at<const W: usize>(st: &State, i: usize) -> Set<W> {
    match st.bits.get(i * W..).and_then(|ws| ws.first_chunk::<W>()) {
        Some(ws) => Set(*ws),
        None => Set::EMPTY,
    }
}

/// The seat after the mover's (`opponent`, `next(me)`): the mover is
/// always a seat, so no division is needed.
#[inline(always)]
pub fn next_seat<const W: usize>(cx: &Cx<'_, W>) -> usize {
    let n = usize::from(cx.st.current) + 1;
    if n >= cx.t.players {
        0
    } else {
        n
    }
}

/// Every occupied cell.
#[inline(always)]
pub fn occupied<const W: usize>(cx: &Cx<'_, W>) -> Set<W> {
    // The players' sets come first in the position's occupancy sets: the
    // first two folded at once, then the other players' one by one (at
    // most eight players). A loop over their words is vectorised, and its
    // set-up costs more than the two or three sets it folds. With one
    // player the second set is the first kind's, whose pieces are all that
    // player's (every piece has an owner): the union is the same.
    let mut s = bits_at::<W>(cx.st, 0).or(bits_at(cx.st, 1));
    let mut p = 2;
    while p < cx.t.players {
        s = s.or(bits_at(cx.st, p));
        p += 1;
    }
    s
}

/// The cells of player `p`'s pieces (empty for `none`).
#[inline(always)]
pub fn pieces<const W: usize>(cx: &Cx<'_, W>, p: i64) -> Set<W> {
    if (p as usize) < cx.t.players {
        bits_at(cx.st, p as usize)
    } else {
        Set::EMPTY
    }
}

/// The cells holding kind `k` (empty for `none`).
#[inline(always)]
pub fn kind_cells<const W: usize>(cx: &Cx<'_, W>, k: i64) -> Set<W> {
    if (k as usize) < cx.t.kinds {
        bits_at(cx.st, cx.t.players + k as usize)
    } else {
        Set::EMPTY
    }
}

/// The cells next to some cell of `s` (including cells of `s` itself that
/// neighbour another cell of `s`).
#[inline(always)]
pub fn around<const W: usize>(t: &Tables<W>, s: Set<W>) -> Set<W> {
    let mut out = Set::EMPTY;
    for c in s.iter() {
        out = out.or(t.nbr[c as usize]);
    }
    out
}

/// The connected part of `own` containing `seed`.
#[inline]
pub fn flood<const W: usize>(t: &Tables<W>, own: Set<W>, seed: Set<W>) -> Set<W> {
    let mut g = seed;
    let mut frontier = seed;
    while let Some(x) = frontier.pop() {
        let n = t.nbr[x as usize].and(own).minus(g);
        g = g.or(n);
        frontier = frontier.or(n);
    }
    g
}

/// `group(c)`: the group of the piece on `c` (empty if there is none).
#[inline]
pub fn group_of<const W: usize>(cx: &Cx<'_, W>, c: CellId) -> Set<W> {
    let code = code_at(cx, c);
    if code == 0 {
        return Set::EMPTY;
    }
    let p = cx.t.codes[code as usize].0;
    flood(cx.t, bits_at(cx.st, p as usize), Set::one(c))
}

/// The shape code of `s` (see `Board::shape_code`), remembered in the
/// frame; `None` for sets it does not cover.
#[inline]
fn shape_code<const W: usize>(cx: &mut Cx<'_, W>, s: Set<W>) -> Option<u64> {
    /// Remembered for sets without a code.
    const NO_CODE: u64 = u64::MAX - 1;
    let code = match cx.fr.m.shapes.get(&s) {
        Some(c) => c,
        None => {
            let mut cells = [0; 8];
            let n = s.len();
            let c = if n <= cells.len() {
                for (slot, x) in cells.iter_mut().zip(s.iter()) {
                    *slot = x;
                }
                cx.t.board.shape_code(&cells[..n]).unwrap_or(NO_CODE)
            } else {
                NO_CODE
            };
            cx.fr.m.shapes.put(s, c);
            c
        }
    };
    (code != NO_CODE).then_some(code)
}

/// Makes player `p`'s cached groups current (by first cell). The test
/// of the epoch is inlined (most calls find the list current); the
/// rest is out of line, so that those calls save no registers.
#[inline]
pub fn fresh_groups<const W: usize>(cx: &mut Cx<'_, W>, p: usize) {
    let epoch = cx.fr.epoch;
    if cx.fr.groups.get(p).is_some_and(|e| e.epoch != epoch) {
        refresh_groups(cx, p);
    }
}

/// [`fresh_groups`] when the board may have changed since the list was made.
#[inline(never)]
fn refresh_groups<const W: usize>(cx: &mut Cx<'_, W>, p: usize) {
    let epoch = cx.fr.epoch;
    let Some(entry) = cx.fr.groups.get_mut(p) else { return };
    entry.epoch = epoch;
    let own: Set<W> = bits_at(cx.st, p);
    if entry.own == own {
        // The same pieces as when the list was made (an effect on
        // another player's pieces, or an earlier run of this frame).
        return;
    }
    entry.list.clear();
    let mut rest = own;
    while let Some(c) = rest.first() {
        let g = flood(cx.t, own, Set::one(c));
        entry.list.push(g);
        rest = rest.minus(g);
    }
    entry.own = own;
}

/// How many pieces of kind `k` zone `(z, p)` holds.
#[inline]
pub fn zone_count<const W: usize>(cx: &Cx<'_, W>, z: u16, p: u8, k: u16) -> i64 {
    if cx.t.zones[z as usize].1 {
        cx.st.seqs[cx.t.sequence(z, p)].count(k) as i64
    } else {
        i64::from(cx.st.data[cx.t.counter(z, p, k)])
    }
}

/// How many pieces zone `(z, p)` holds.
#[inline]
pub fn zone_total<const W: usize>(cx: &Cx<'_, W>, z: u16, p: u8) -> i64 {
    if cx.t.zones[z as usize].1 {
        cx.st.seqs[cx.t.sequence(z, p)].len() as i64
    } else {
        let base = cx.t.counter(z, p, 0);
        let counts = cx.st.data.get(base..base + cx.t.kinds).unwrap_or(&[]);
        counts.iter().map(|&n| i64::from(n)).sum()
    }
}

/// The number of pieces of ordered zone sequence `i` (`zone_total` of
/// an ordered zone whose sequence is known at load).
#[inline(always)]
fn seq_len<const W: usize>(cx: &Cx<'_, W>, i: usize) -> i64 {
    cx.st.seqs.get(i).map_or(0, |q| q.len() as i64)
}

/// Binds each element of `d` to `var` in turn and calls `f`, until `f`
/// says stop (returns false). Zones and groups are read live, as the
/// position may change between elements.
#[inline(always)]
pub fn each<const W: usize>(
    cx: &mut Cx<'_, W>,
    d: Dom<W>,
    var: Var,
    mut f: impl FnMut(&mut Cx<'_, W>) -> bool,
) {
    let set_w = |cx: &mut Cx<'_, W>, v: i64| {
        if let Var::W(i) = var {
            cx.fr.w[i as usize] = v;
        }
    };
    match d {
        Dom::Set(s) => {
            for c in s.iter() {
                set_w(cx, i64::from(c));
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::Line(l) => {
            let n = cx.t.lines.get(l as usize).map_or(0, |x| x.cells.len());
            for i in 0..n {
                let c = cx.t.lines[l as usize].cells[i];
                set_w(cx, i64::from(c));
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::Dirs => {
            for d in 0..cx.t.dirs {
                set_w(cx, d as i64);
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::Kinds => {
            for k in 0..cx.t.kinds {
                set_w(cx, k as i64);
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::Players => {
            for p in 0..cx.t.players {
                set_w(cx, p as i64);
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::Lines(a, b) => {
            for l in a..b {
                set_w(cx, i64::from(l));
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::Range(a, b) => {
            let mut x = a;
            while x <= b {
                set_w(cx, x);
                if !f(cx) || cx.fr.err.is_some() {
                    return;
                }
                match x.checked_add(1) {
                    Some(y) => x = y,
                    None => return,
                }
            }
        }
        Dom::Groups(p) => {
            let mut i = 0;
            loop {
                fresh_groups(cx, p as usize);
                let Some(g) = cx.fr.groups.get(p as usize).and_then(|e| e.list.get(i)).copied()
                else {
                    return;
                };
                i += 1;
                if let Var::S(v) = var {
                    cx.fr.s[v as usize] = g;
                }
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::Placements(k) => {
            let n = cx.t.placements.get(k as usize).map_or(0, |p| p.len());
            for i in 0..n {
                let g = cx.t.placements[k as usize][i];
                if let Var::S(v) = var {
                    cx.fr.s[v as usize] = g;
                }
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::List(id) => {
            let n = cx.t.lists.get(id as usize).map_or(0, Vec::len);
            for i in 0..n {
                let w = cx.t.lists[id as usize][i];
                set_w(cx, w);
                if !f(cx) {
                    return;
                }
            }
        }
        Dom::Zone(z, p) => {
            if p == NONE8 {
                return;
            }
            let ordered = cx.t.zones[z as usize].1;
            // A counted zone's counters lie side by side, one per kind.
            let (base, kinds) = (cx.t.counter(z, p, 0), cx.t.kinds);
            let mut i = 0usize;
            loop {
                let k = if ordered {
                    let seq = &cx.st.seqs[cx.t.sequence(z, p)];
                    match seq.nth(i) {
                        Some(k) => {
                            i += 1;
                            k
                        }
                        None => return,
                    }
                } else {
                    let counts = cx.st.data.get(base + i..base + kinds).unwrap_or(&[]);
                    match super::effect::first_held(counts) {
                        Some(j) => {
                            i += j + 1;
                            (i - 1) as u16
                        }
                        None => return,
                    }
                };
                set_w(cx, i64::from(k));
                if !f(cx) {
                    return;
                }
            }
        }
    }
}

/// [`each`], counting every element against the run's step budget (the
/// error names the rule at `span`).
#[inline(always)]
pub fn each_ticked<const W: usize>(
    cx: &mut Cx<'_, W>,
    d: Dom<W>,
    var: Var,
    span: Span,
    mut f: impl FnMut(&mut Cx<'_, W>) -> bool,
) {
    each(cx, d, var, |cx| super::effect::tick(cx, span) && f(cx))
}

/// The one condition of a quantifier over the directions that pass 51
/// may take: its body, or for `any`, `none` and `count` its filter where
/// it has no body (the same question); `None` with both, or for `all`
/// with a filter.
fn ray_cond<'e>(q: Quant, filter: Option<&'e Expr>, body: Option<&'e Expr>) -> Option<&'e Expr> {
    match (filter, body) {
        (None, Some(b)) => Some(b),
        (Some(f), None) if q != Quant::All => Some(f),
        _ => None,
    }
}

/// Marks the hoisted values of a quantifier (their flag words) as not yet
/// computed: done at the start of each evaluation of the quantifier.
#[inline(always)]
pub fn forget<const W: usize>(cx: &mut Cx<'_, W>, flags: &[u16]) {
    for &f in flags {
        cx.fr.w[f as usize] = 0;
    }
}

/// The `none` of a word type (0 for numbers and conditions).
pub fn none_word(ty: Ty) -> i64 {
    match ty {
        Ty::Cell => i64::from(NO_CELL),
        Ty::Player => i64::from(NONE8),
        Ty::Kind => i64::from(NONE16),
        _ => 0,
    }
}

/// Whether word `x` is an element of collection `d` (of words).
pub fn member<const W: usize>(cx: &mut Cx<'_, W>, d: Dom<W>, x: i64) -> bool {
    match d {
        Dom::Dirs => (0..cx.t.dirs as i64).contains(&x),
        Dom::Kinds => (0..cx.t.kinds as i64).contains(&x),
        Dom::Players => (0..cx.t.players as i64).contains(&x),
        Dom::Range(a, b) => a <= x && x <= b,
        Dom::List(i) => cx.t.lists.get(i as usize).is_some_and(|l| l.contains(&x)),
        Dom::Set(s) => (0..cx.t.cells as i64).contains(&x) && s.contains(x as CellId),
        // Zones hold kinds: a kind is in one when it counts some.
        Dom::Zone(z, p) => {
            p != NONE8 && (0..cx.t.kinds as i64).contains(&x) && zone_count(cx, z, p, x as u16) > 0
        }
        // Collections of lines or sets never hold a single value.
        _ => false,
    }
}

/// A word operand: read from a slot, a constant, a [`Leaf`] computed in
/// place, or computed by its own closure.
enum Opnd<const W: usize> {
    Slot(usize),
    Const(i64),
    Leaf(Leaf),
    Fn(I<W>),
}

/// A word read from word slots and the position in a few instructions:
/// the closure that uses it computes it in place, with no call of its own.
#[derive(Debug, Clone, Copy)]
pub enum Leaf {
    /// `kind(c)` of a cell slot.
    KindOf(usize),
    /// `owner(c)` of a cell slot.
    OwnerOf(usize),
    /// `p(kind(c))`: property `p` of the piece on a cell slot.
    PropKindOf(usize, usize),
    /// `p(k)`: property `p` of a kind slot.
    PropOf(usize, usize),
    /// `step(c, d)` of a cell slot and a constant direction.
    StepConst(usize, usize),
    /// `step(c, d)` of a cell slot and a direction slot.
    StepSlot(usize, usize),
}

impl Leaf {
    /// [`Leaf::StepSlot`]'s word: `step(c, d)` of cell word `c` and
    /// direction word `d`.
    #[inline(always)]
    pub fn step_slot<const W: usize>(cx: &Cx<'_, W>, c: usize, d: usize) -> i64 {
        i64::from(cx.t.step(cx.fr.w[c] as CellId, cx.fr.w[d] as usize))
    }

    /// The word, as the closure of the same expression computes it.
    #[inline(always)]
    pub fn eval<const W: usize>(self, cx: &Cx<'_, W>) -> i64 {
        match self {
            Leaf::KindOf(c) => match code_at(cx, cx.fr.w[c] as CellId) {
                0 => i64::from(NONE16),
                v => i64::from(cx.t.codes[v as usize].1),
            },
            Leaf::OwnerOf(c) => match code_at(cx, cx.fr.w[c] as CellId) {
                0 => i64::from(NONE8),
                v => i64::from(cx.t.codes[v as usize].0),
            },
            Leaf::PropKindOf(p, c) => match code_at(cx, cx.fr.w[c] as CellId) {
                0 => 0,
                v => {
                    let k = cx.t.codes[v as usize].1 as usize;
                    cx.t.props[k].get(p).copied().unwrap_or(0)
                }
            },
            Leaf::PropOf(p, k) => {
                cx.t.props.get(cx.fr.w[k] as usize).and_then(|ps| ps.get(p)).copied().unwrap_or(0)
            }
            Leaf::StepConst(c, d) => i64::from(cx.t.step(cx.fr.w[c] as CellId, d)),
            Leaf::StepSlot(c, d) => Leaf::step_slot(cx, c, d),
        }
    }
}

/// A comparison of property `p` of the piece on a cell with property `q`
/// of a kind local (`strength(kind(n)) <= strength(piece)`) as a table:
/// its answer for each board code (0: no piece, whose property reads 0)
/// and each value of the local (the kinds, then one entry for a value
/// that is no kind, whose property also reads 0), as [`Leaf::PropKindOf`]
/// and [`Leaf::PropOf`] read them.
struct CodeKindTable {
    /// `answers[code * (kinds + 1) + kind]`.
    answers: Box<[bool]>,
    kinds: usize,
}

/// Most entries of a [`CodeKindTable`].
const CODE_KIND_TABLE: usize = 1 << 16;

impl CodeKindTable {
    /// The comparison's closure: the code on the cell in word local `c`,
    /// the kind in word local `k`.
    fn closure<const W: usize>(self, c: usize, k: usize) -> B<W> {
        Box::new(move |cx| {
            let code = code_at(cx, cx.fr.w[c] as CellId) as usize;
            let v = cx.fr.w[k];
            let kind = if v >= 0 && (v as usize) < self.kinds { v as usize } else { self.kinds };
            self.answers.get(code * (self.kinds + 1) + kind).copied().unwrap_or(false)
        })
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// The [`CodeKindTable`] of `f(property p of the piece on a cell,
    /// property q of a kind)`; `None` when it would be too large.
    fn code_kind_table(
        &self,
        p: usize,
        q: usize,
        f: impl Fn(i64, i64) -> bool,
    ) -> Option<CodeKindTable> {
        let kinds = self.t.kinds;
        let codes = self.t.codes.len();
        if codes.checked_mul(kinds + 1)? > CODE_KIND_TABLE {
            return None;
        }
        let prop =
            |k: usize, p: usize| self.t.props.get(k).and_then(|ps| ps.get(p)).copied().unwrap_or(0);
        let answers = (0..codes)
            .flat_map(|code| {
                let a = match code {
                    0 => 0,
                    v => prop(self.t.codes[v].1 as usize, p),
                };
                (0..=kinds).map(move |k| (a, if k < kinds { prop(k, q) } else { 0 }))
            })
            .map(|(a, b)| f(a, b))
            .collect();
        Some(CodeKindTable { answers, kinds })
    }
}

/// What `check --passes` says of a [`Counted`] compared with a constant.
const COUNT_NOTE: &str = "count in place: a zone's count compared with a constant";

/// `count(Z)` of an unordered zone named in the rule, shared or the
/// mover's: the sum of `n` counters from `base` in the position's data,
/// plus `per` times the mover when the zone is the mover's (`Z(me)`; 0
/// when no one moves), else `per` is 0. Read in place, with no call.
#[derive(Debug, Clone, Copy)]
pub struct Counted {
    base: u32,
    per: u32,
    n: u32,
}

impl Counted {
    /// The count, as `zone_total` computes it.
    #[inline(always)]
    pub fn eval<const W: usize>(self, cx: &Cx<'_, W>) -> i64 {
        let me = cx.st.current;
        if self.per != 0 && me == NONE8 {
            return 0;
        }
        let b = self.base as usize + self.per as usize * me as usize;
        let counts = cx.st.data.get(b..b + self.n as usize).unwrap_or(&[]);
        // Most games have a kind or two: no loop for them.
        match *counts {
            [x] => i64::from(x),
            [x, y] => i64::from(x) + i64::from(y),
            _ => counts.iter().map(|&x| i64::from(x)).sum(),
        }
    }

    /// [`Counted::eval`] of a zone of `N` kinds (`n == N`): the counters
    /// read as one slice of a length known when compiled, with no branch
    /// on the length.
    #[inline(always)]
    fn eval_n<const W: usize, const N: usize>(self, cx: &Cx<'_, W>) -> i64 {
        let me = cx.st.current;
        if self.per != 0 && me == NONE8 {
            return 0;
        }
        let b = self.base as usize + self.per as usize * me as usize;
        cx.st.data.get(b..b + N).map_or(0, |c| c.iter().map(|&x| i64::from(x)).sum())
    }

    /// A closure of `f` of the count, made for the number of kinds (one or
    /// two, the common cases, without a branch on it).
    fn closure<const W: usize, R: 'static>(
        self,
        f: impl Fn(i64) -> R + Send + Sync + 'static,
    ) -> Box<dyn Fn(&mut Cx<'_, W>) -> R + Send + Sync> {
        match self.n {
            1 => Box::new(move |cx| f(self.eval_n::<W, 1>(cx))),
            2 => Box::new(move |cx| f(self.eval_n::<W, 2>(cx))),
            _ => Box::new(move |cx| f(self.eval(cx))),
        }
    }
}

macro_rules! with_opnd {
    ($opnd:expr, |$cx:ident, $c:ident| $body:expr) => {
        match $opnd {
            Opnd::Slot(i) => Box::new(move |$cx: &mut Cx<'_, W>| {
                let $c = $cx.fr.w[i];
                $body
            }),
            Opnd::Const(k) => Box::new(move |$cx: &mut Cx<'_, W>| {
                let _ = &$cx;
                let $c = k;
                $body
            }),
            Opnd::Leaf(l) => Box::new(move |$cx: &mut Cx<'_, W>| {
                let $c = l.eval($cx);
                $body
            }),
            Opnd::Fn(f) => Box::new(move |$cx: &mut Cx<'_, W>| {
                let $c = f($cx);
                $body
            }),
        }
    };
}

/// A value as a word (see [`super::word`]); `None` for collections and sets.
pub fn const_word(v: &Value) -> Option<i64> {
    Some(match *v {
        Value::Int(n) => n,
        Value::Bool(b) => i64::from(b),
        Value::Cell(c) => i64::from(c),
        Value::Player(p) => i64::from(p),
        Value::Kind(k) => i64::from(k),
        Value::Dir(d) => i64::from(d),
        Value::Line(l) => i64::from(l),
        Value::Zone(z, p) => word::zone(z, p),
        _ => return None,
    })
}

/// A word of type `ty` as an interpreter value.
pub fn word_value(ty: Ty, w: i64) -> Value {
    match ty {
        Ty::Bool => Value::Bool(w != 0),
        Ty::Cell => Value::Cell(w as CellId),
        Ty::Player => Value::Player(w as u8),
        Ty::Kind => Value::Kind(w as u16),
        Ty::Dir => Value::Dir(w as u8),
        Ty::Line => Value::Line(w as u32),
        Ty::Zone => {
            let (z, p) = word::unzone(w);
            Value::Zone(z, p)
        }
        _ => Value::Int(w),
    }
}

impl<'g, const W: usize> Compiler<'g, W> {
    /// A compiler for `g`, with every IR slot given its bank.
    pub fn new(g: &'g ir::Game, t: &'g Tables<W>) -> Self {
        let mut sizes = (0, 0, 0);
        let vars = g
            .slot_tys
            .iter()
            .map(|&ty| match Var::bank(ty) {
                1 => {
                    sizes.1 += 1;
                    Var::S((sizes.1 - 1) as u16)
                }
                2 => {
                    sizes.2 += 1;
                    Var::D((sizes.2 - 1) as u16)
                }
                _ => {
                    sizes.0 += 1;
                    Var::W((sizes.0 - 1) as u16)
                }
            })
            .collect();
        Compiler {
            g,
            t,
            vars,
            extra_tys: Vec::new(),
            sizes,
            notes: Vec::new(),
            memos: 0,
            pair_memos: 0,
            shapes: false,
            group_lists: false,
            memo_sites: Vec::new(),
            reads_start: false,
            hoisted: Vec::new(),
            nbr_sites: Vec::new(),
            preasked: Vec::new(),
            before_decision: Default::default(),
            fused: None,
            kept: Vec::new(),
            cursors: Default::default(),
            group_size: None,
            in_pattern: false,
        }
    }

    /// Where IR slot `s` lives.
    pub fn var(&self, s: Slot) -> Var {
        self.vars.get(s as usize).copied().unwrap_or(Var::W(0))
    }

    /// A fresh word: for a value that lives within one op (a hoisted
    /// value and its flag), or else registered where pass 35 finds it —
    /// in [`Compiler::kept`] (left by one op for another) or
    /// [`Compiler::cursors`] (a loop's cursor) — so that the copies of a
    /// level at a decision carry it.
    pub fn fresh_word(&mut self) -> u16 {
        self.sizes.0 += 1;
        (self.sizes.0 - 1) as u16
    }

    /// A fresh cell local for a pass that rewrites an expression (passes
    /// 52 and 53 put it in place of a cell expression to ask for a set
    /// form): an IR slot past the checked game's, of type cell, in a
    /// fresh word that no run reads; `None` when the slots run out.
    pub fn fresh_cell_local(&mut self) -> Option<Slot> {
        let slot = Slot::try_from(self.vars.len()).ok()?;
        let w = self.fresh_word();
        self.vars.push(Var::W(w));
        self.extra_tys.push(Ty::Cell);
        Some(slot)
    }

    /// A fresh set slot (see [`Compiler::fresh_word`]).
    pub fn fresh_set(&mut self) -> u16 {
        self.sizes.1 += 1;
        (self.sizes.1 - 1) as u16
    }

    /// A fresh collection slot (the collection a loop walks; see
    /// [`Compiler::fresh_word`]).
    pub fn fresh_dom(&mut self) -> u16 {
        self.sizes.2 += 1;
        (self.sizes.2 - 1) as u16
    }

    /// The frame's bank sizes.
    pub fn frame_sizes(&self) -> (usize, usize, usize) {
        (self.sizes.0.max(1), self.sizes.1.max(1), self.sizes.2.max(1))
    }

    /// The type of an expression.
    pub fn ty(&self, e: &Expr) -> Ty {
        let checked = self.g.slot_tys.len();
        match e {
            Expr::Local(s, _) if *s as usize >= checked => {
                self.extra_tys.get(*s as usize - checked).copied().unwrap_or(Ty::Error)
            }
            _ => e.ty(&self.g.slot_tys),
        }
    }

    /// `e` as a [`Leaf`], if it is one.
    pub fn leaf(&self, e: &Expr) -> Option<Leaf> {
        let slot = |x: &Expr| match x {
            Expr::Local(s, _) => match self.var(*s) {
                Var::W(i) => Some(i as usize),
                _ => None,
            },
            _ => None,
        };
        Some(match e {
            Expr::Builtin(Builtin::KindOf, a, _) => Leaf::KindOf(slot(&a[0])?),
            Expr::Builtin(Builtin::Owner, a, _) => Leaf::OwnerOf(slot(&a[0])?),
            Expr::Builtin(Builtin::Step, a, _) => {
                let c = slot(&a[0])?;
                match &a[1] {
                    Expr::Const(Value::Dir(d)) => Leaf::StepConst(c, *d as usize),
                    x => Leaf::StepSlot(c, slot(x)?),
                }
            }
            Expr::Prop(p, k, _) => match &**k {
                Expr::Builtin(Builtin::KindOf, a, _) => Leaf::PropKindOf(*p as usize, slot(&a[0])?),
                x => Leaf::PropOf(*p as usize, slot(x)?),
            },
            _ => return None,
        })
    }

    /// `e` as a [`Counted`] zone count, if it is one.
    fn counted(&self, e: &Expr) -> Option<Counted> {
        let Expr::Builtin(Builtin::CountAll, a, _) = e else { return None };
        self.counted_count(a.first()?)
    }

    /// The sequence of `count(Z)` for an ordered zone `Z` whose sequence
    /// is known at load.
    fn seq_count(&self, e: &Expr) -> Option<usize> {
        let Expr::Builtin(Builtin::CountAll, a, _) = e else { return None };
        self.fixed_seq(a.first()?)
    }

    /// `count(z)` as a [`Counted`], if zone expression `z` allows it.
    fn counted_count(&self, z: &Expr) -> Option<Counted> {
        let (z, p) = self.counted_zone(z)?;
        let per = match p {
            None => 0,
            Some(Expr::Me) => self.t.kinds,
            _ => return None,
        };
        Some(Counted {
            base: u32::try_from(self.t.counter(z, 0, 0)).ok()?,
            per: u32::try_from(per).ok()?,
            n: u32::try_from(self.t.kinds).ok()?,
        })
    }

    fn opnd(&mut self, e: &Expr) -> Opnd<W> {
        if let Some(w) = self.group_size_of(e) {
            return Opnd::Slot(w);
        }
        if let Some(l) = self.leaf(e) {
            return Opnd::Leaf(l);
        }
        match e {
            Expr::Local(s, _) => match self.var(*s) {
                Var::W(i) => Opnd::Slot(i as usize),
                _ => Opnd::Fn(self.word(e)),
            },
            Expr::Const(v) => match const_word(v) {
                Some(w) => Opnd::Const(w),
                None => Opnd::Fn(self.word(e)),
            },
            _ => Opnd::Fn(self.word(e)),
        }
    }

    /// Compiles a condition.
    pub fn bool_(&mut self, e: &Expr) -> B<W> {
        if let Some((Var::W(v), flag)) = self.take_hoisted(e) {
            let inner = self.bool_(e);
            self.hoisted.push((e, Var::W(v), flag));
            let (v, flag) = (v as usize, flag as usize);
            return Box::new(move |cx| {
                if cx.fr.w[flag] == 0 {
                    let x = inner(cx);
                    cx.fr.w[v] = i64::from(x);
                    cx.fr.w[flag] = 1;
                }
                cx.fr.w[v] != 0
            });
        }
        match e {
            Expr::Const(Value::Bool(b)) => {
                let b = *b;
                Box::new(move |_| b)
            }
            Expr::Local(s, _) => match self.var(*s) {
                Var::W(i) => {
                    let i = i as usize;
                    Box::new(move |cx| cx.fr.w[i] != 0)
                }
                _ => Box::new(|_| false),
            },
            Expr::Unary(UnOp::Not, a) => {
                let a = self.bool_(a);
                Box::new(move |cx| !a(cx))
            }
            Expr::Binary(op, a, b, span) => self.binary_bool(*op, a, b, *span),
            Expr::Builtin(f, args, span) => self.builtin_bool(*f, args, *span),
            Expr::Inline(binds, body, _) => {
                if let Some(e) = super::opt::inline_once(binds, body, &self.hoisted) {
                    self.notes.push("argument read in place: a `def`'s one parameter".into());
                    return self.bool_(&e);
                }
                let binds = self.binds(binds);
                let body = self.bool_(body);
                Box::new(move |cx| {
                    for b in &binds {
                        b(cx);
                    }
                    body(cx)
                })
            }
            Expr::Quant { .. } => match self.quant_cond(e) {
                Ok((bits, i)) => super::opt::Hoisted::LinesBits(bits, i).cond(),
                Err(c) => c,
            },
            _ => {
                let w = self.word(e);
                Box::new(move |cx| w(cx) != 0)
            }
        }
    }

    /// Condition `e` of an `if` statement: as [`Compiler::bool_`] compiles
    /// it, or, where that would be pass 10's line test of one or two
    /// occupancy sets, the test itself (`Ok`), for the `if` to make in
    /// its own closure ([`super::opt::if_lines`]).
    pub fn if_cond(&mut self, e: &Expr) -> Result<(super::opt::OccBits, usize), B<W>> {
        if !matches!(e, Expr::Quant { .. }) || !self.hoisted.is_empty() {
            return Err(self.bool_(e));
        }
        self.quant_cond(e)
    }

    /// Quantifier `e` as a condition, the passes tried in order (`Err`),
    /// or pass 10's line test of one or two occupancy sets (`Ok`), which
    /// the caller makes a closure of ([`Compiler::bool_`]) or reads in
    /// place ([`Compiler::if_cond`]).
    fn quant_cond(&mut self, e: &Expr) -> Result<(super::opt::OccBits, usize), B<W>> {
        let Expr::Quant { quant, slot, domain, filter, body, span } = e else {
            return Err(self.bool_(e));
        };
        if let Some(q) =
            self.set_quant_bool(*quant, *slot, domain, filter.as_deref(), body.as_deref())
        {
            return Err(q);
        }
        match self.hoisted_quant(*quant, *slot, domain, filter.as_deref(), body.as_deref(), *span) {
            Some(super::opt::Hoisted::LinesBits(bits, i)) => Ok((bits, i)),
            Some(q) => Err(q.cond()),
            None => Err(self.quant_bool(
                *quant,
                *slot,
                domain,
                filter.as_deref(),
                body.as_deref(),
                *span,
            )),
        }
    }

    /// Compiles the bindings of an inlined `def` or action: each stores its
    /// argument in the parameter's slot.
    pub fn binds(&mut self, binds: &[(Slot, Expr)]) -> Vec<super::Store<W>> {
        binds.iter().map(|(s, e)| self.store(self.var(*s), e)).collect()
    }

    /// Evaluates `e` into `var`.
    pub fn store(&mut self, var: Var, e: &Expr) -> super::Store<W> {
        match var {
            Var::W(i) => {
                let i = i as usize;
                let f = self.word(e);
                Box::new(move |cx| {
                    let v = f(cx);
                    cx.fr.w[i] = v;
                })
            }
            Var::S(i) => {
                let i = i as usize;
                let f = self.set(e);
                Box::new(move |cx| {
                    let v = f(cx);
                    cx.fr.s[i] = v;
                })
            }
            Var::D(i) => {
                let i = i as usize;
                let f = self.dom(e);
                Box::new(move |cx| {
                    let v = f(cx);
                    cx.fr.d[i] = v;
                })
            }
        }
    }

    fn binary_bool(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> B<W> {
        if let Some(t) = self.collect_nonempty(op, a, b) {
            return t;
        }
        match op {
            BinOp::And => {
                // `empty(x) and ...` / `occupied(x) and ...` of a local: the
                // cell test inside this closure, one call fewer.
                if let Expr::Builtin(f @ (Builtin::Empty | Builtin::Occupied), args, _) = a {
                    if let [Expr::Local(x, _)] = &args[..] {
                        if let Var::W(i) = self.var(*x) {
                            let (i, occupied) = (i as usize, *f == Builtin::Occupied);
                            let b = self.bool_(b);
                            return Box::new(move |cx| {
                                let c = cx.fr.w[i];
                                (c as usize) < cx.t.cells
                                    && (cx.st.data[c as usize] != 0) == occupied
                                    && b(cx)
                            });
                        }
                    }
                }
                let (a, b) = (self.bool_(a), self.bool_(b));
                Box::new(move |cx| a(cx) && b(cx))
            }
            BinOp::Or => {
                let (a, b) = (self.bool_(a), self.bool_(b));
                Box::new(move |cx| a(cx) || b(cx))
            }
            BinOp::Eq | BinOp::Ne => {
                let ne = op == BinOp::Ne;
                match Var::bank(self.ty(a)) {
                    1 => {
                        let (a, b) = (self.set(a), self.set(b));
                        Box::new(move |cx| (a(cx) == b(cx)) != ne)
                    }
                    2 => {
                        let (a, b) = (self.dom(a), self.dom(b));
                        Box::new(move |cx| (a(cx) == b(cx)) != ne)
                    }
                    _ => {
                        if self.ty(a) == Ty::Bool {
                            let (a, b) = (self.bool_(a), self.bool_(b));
                            return Box::new(move |cx| (a(cx) == b(cx)) != ne);
                        }
                        self.compare_words(a, b, move |x, y| (x == y) != ne)
                    }
                }
            }
            BinOp::Lt => self.compare_words(a, b, |x, y| x < y),
            BinOp::Le => self.compare_words(a, b, |x, y| x <= y),
            BinOp::Gt => self.compare_words(a, b, |x, y| x > y),
            BinOp::Ge => self.compare_words(a, b, |x, y| x >= y),
            _ => {
                let w = self.binary_word(op, a, b, span);
                Box::new(move |cx| w(cx) != 0)
            }
        }
    }

    /// `f(size(S), E)` for a set `S` (not a line) and `E` a constant or
    /// a word local, in one closure: `S` itself read in place when it is
    /// `group(c)` of a cell local. Not for a size hoisted out of a
    /// quantifier (its closure reads the slot it is kept in).
    fn size_compared(
        &mut self,
        size: &Expr,
        e: &Expr,
        f: impl Fn(i64, i64) -> bool + Copy + Send + Sync + 'static,
    ) -> Option<B<W>> {
        let Expr::Builtin(Builtin::Size, args, _) = size else { return None };
        let [set] = &args[..] else { return None };
        if self.group_size_of(size).is_some() {
            // Pass 44's size, read from its word.
            return None;
        }
        if self.ty(set) == Ty::Line || self.is_hoisted(size) || self.is_hoisted(set) {
            return None;
        }
        let e = match e {
            Expr::Const(v) => Opnd::<W>::Const(const_word(v)?),
            Expr::Local(x, _) => match self.var(*x) {
                Var::W(i) => Opnd::Slot(i as usize),
                _ => return None,
            },
            _ => return None,
        };
        let n = |s: Set<W>| s.len() as i64;
        if let Expr::Builtin(Builtin::Group, g, _) = set {
            if let [Expr::Local(x, _)] = &g[..] {
                if let Var::W(c) = self.var(*x) {
                    let c = c as usize;
                    return Some(match e {
                        Opnd::Slot(i) => {
                            Box::new(move |cx| f(n(group_of(cx, cx.fr.w[c] as CellId)), cx.fr.w[i]))
                        }
                        Opnd::Const(k) => {
                            Box::new(move |cx| f(n(group_of(cx, cx.fr.w[c] as CellId)), k))
                        }
                        _ => return None,
                    });
                }
            }
        }
        let s = self.set(set);
        Some(match e {
            Opnd::Slot(i) => Box::new(move |cx| {
                let x = n(s(cx));
                f(x, cx.fr.w[i])
            }),
            Opnd::Const(k) => Box::new(move |cx| f(n(s(cx)), k)),
            _ => return None,
        })
    }

    fn compare_words(
        &mut self,
        a: &Expr,
        b: &Expr,
        f: impl Fn(i64, i64) -> bool + Copy + Send + Sync + 'static,
    ) -> B<W> {
        // A zone's count against a constant (`count(hand(me)) == 0`): one
        // closure, the count read in place.
        if let (Some(c), Expr::Const(v)) = (self.counted(a), b) {
            if let Some(k) = const_word(v) {
                self.notes.push(COUNT_NOTE.into());
                return c.closure(move |x| f(x, k));
            }
        }
        if let (Expr::Const(v), Some(c)) = (a, self.counted(b)) {
            if let Some(k) = const_word(v) {
                self.notes.push(COUNT_NOTE.into());
                return c.closure(move |x| f(k, x));
            }
        }
        // An ordered zone's count against a constant (`count(row) == 6`):
        // its sequence's length, read in place.
        for (z, v, swap) in [(a, b, false), (b, a, true)] {
            if let (Some(i), Expr::Const(v)) = (self.seq_count(z), v) {
                if let Some(k) = const_word(v) {
                    self.notes.push(COUNT_NOTE.into());
                    return Box::new(move |cx| {
                        let n = seq_len(cx, i);
                        if swap {
                            f(k, n)
                        } else {
                            f(n, k)
                        }
                    });
                }
            }
        }
        // A set's size against a constant or a word local (`size(group(c))
        // <= limit`): the size read in the comparison's closure.
        if let Some(t) = self.size_compared(a, b, f) {
            return t;
        }
        if let Some(t) = self.size_compared(b, a, move |x, y| f(y, x)) {
            return t;
        }
        // A property of the piece on a cell against a kind's
        // (`strength(kind(n)) <= strength(piece)`): the answer for each
        // board code and kind, made now, read by the closure from the
        // cell's code and the local's kind.
        match (self.leaf(a), self.leaf(b)) {
            (Some(Leaf::PropKindOf(p, c)), Some(Leaf::PropOf(q, k))) => {
                if let Some(t) = self.code_kind_table(p, q, f) {
                    return t.closure(c, k);
                }
                return Box::new(move |cx| {
                    f(Leaf::PropKindOf(p, c).eval(cx), Leaf::PropOf(q, k).eval(cx))
                });
            }
            (Some(Leaf::PropOf(q, k)), Some(Leaf::PropKindOf(p, c))) => {
                if let Some(t) = self.code_kind_table(p, q, move |x, y| f(y, x)) {
                    return t.closure(c, k);
                }
                return Box::new(move |cx| {
                    f(Leaf::PropOf(q, k).eval(cx), Leaf::PropKindOf(p, c).eval(cx))
                });
            }
            _ => {}
        }
        let (a, b) = (self.opnd(a), self.opnd(b));
        match (a, b) {
            (Opnd::Slot(i), Opnd::Const(k)) => Box::new(move |cx| f(cx.fr.w[i], k)),
            (Opnd::Const(k), Opnd::Slot(i)) => Box::new(move |cx| f(k, cx.fr.w[i])),
            (Opnd::Slot(i), Opnd::Slot(j)) => Box::new(move |cx| f(cx.fr.w[i], cx.fr.w[j])),
            (Opnd::Fn(x), Opnd::Const(k)) => Box::new(move |cx| f(x(cx), k)),
            (Opnd::Const(k), Opnd::Fn(y)) => Box::new(move |cx| f(k, y(cx))),
            (Opnd::Fn(x), Opnd::Slot(i)) => Box::new(move |cx| {
                let a = x(cx);
                f(a, cx.fr.w[i])
            }),
            (Opnd::Slot(i), Opnd::Fn(y)) => Box::new(move |cx| {
                let a = cx.fr.w[i];
                f(a, y(cx))
            }),
            (Opnd::Const(a), Opnd::Const(b)) => {
                let r = f(a, b);
                Box::new(move |_| r)
            }
            (Opnd::Fn(x), Opnd::Fn(y)) => Box::new(move |cx| {
                let a = x(cx);
                f(a, y(cx))
            }),
            (Opnd::Leaf(x), Opnd::Leaf(y)) => Box::new(move |cx| f(x.eval(cx), y.eval(cx))),
            (Opnd::Leaf(x), Opnd::Slot(i)) => Box::new(move |cx| f(x.eval(cx), cx.fr.w[i])),
            (Opnd::Slot(i), Opnd::Leaf(y)) => Box::new(move |cx| f(cx.fr.w[i], y.eval(cx))),
            (Opnd::Leaf(x), Opnd::Const(k)) => Box::new(move |cx| f(x.eval(cx), k)),
            (Opnd::Const(k), Opnd::Leaf(y)) => Box::new(move |cx| f(k, y.eval(cx))),
            (Opnd::Leaf(x), Opnd::Fn(y)) => Box::new(move |cx| {
                let a = x.eval(cx);
                f(a, y(cx))
            }),
            (Opnd::Fn(x), Opnd::Leaf(y)) => Box::new(move |cx| {
                let a = x(cx);
                f(a, y.eval(cx))
            }),
        }
    }

    fn builtin_bool(&mut self, f: Builtin, args: &[Expr], span: Span) -> B<W> {
        match f {
            Builtin::Empty => {
                let c = self.opnd(&args[0]);
                with_opnd!(c, |cx, c| (c as usize) < cx.t.cells && cx.st.data[c as usize] == 0)
            }
            Builtin::Occupied => {
                let c = self.opnd(&args[0]);
                with_opnd!(c, |cx, c| (c as usize) < cx.t.cells && cx.st.data[c as usize] != 0)
            }
            Builtin::Off => {
                let c = self.opnd(&args[0]);
                with_opnd!(c, |cx, c| c == i64::from(NO_CELL))
            }
            Builtin::Contains => {
                let s = self.set(&args[0]);
                let c = self.opnd(&args[1]);
                with_opnd!(c, |cx, c| s(cx).contains(c as CellId))
            }
            Builtin::Touches => {
                // Adjacency is symmetric: spread the smaller set.
                fn touches<const W: usize>(t: &super::Tables<W>, a: Set<W>, b: Set<W>) -> bool {
                    if a.len() <= b.len() {
                        around(t, a).meets(b)
                    } else {
                        around(t, b).meets(a)
                    }
                }
                if let (Some(i), Some(j)) = (self.set_slot(&args[0]), self.set_slot(&args[1])) {
                    // Two set locals, read in place.
                    return Box::new(move |cx| touches(cx.t, cx.fr.s[i], cx.fr.s[j]));
                }
                let (a, b) = (self.set(&args[0]), self.set(&args[1]));
                Box::new(move |cx| {
                    let a = a(cx);
                    let b = b(cx);
                    touches(cx.t, a, b)
                })
            }
            Builtin::Cond => {
                let (c, a, b) = (self.bool_(&args[0]), self.bool_(&args[1]), self.bool_(&args[2]));
                Box::new(move |cx| if c(cx) { a(cx) } else { b(cx) })
            }
            Builtin::In => {
                let x = self.opnd(&args[1]);
                match &args[0] {
                    // A literal list: its words, looked up at once.
                    Expr::Const(
                        Value::KindList(i)
                        | Value::PlayerList(i)
                        | Value::DirList(i)
                        | Value::IntList(i),
                    ) => {
                        let words: Vec<i64> =
                            self.t.lists.get(*i as usize).cloned().unwrap_or_default();
                        if words.iter().all(|&w| (0..64).contains(&w)) {
                            let mask = words.iter().fold(0u64, |m, &w| m | 1 << w);
                            with_opnd!(x, |cx, x| (0..64).contains(&x) && mask & (1 << x) != 0)
                        } else {
                            with_opnd!(x, |cx, x| words.contains(&x))
                        }
                    }
                    d => {
                        let d = self.dom(d);
                        with_opnd!(x, |cx, x| {
                            let dv = d(cx);
                            member(cx, dv, x)
                        })
                    }
                }
            }
            Builtin::SameShape => {
                self.shapes = true;
                fn same<const W: usize>(cx: &mut Cx<'_, W>, a: Set<W>, b: Set<W>) -> bool {
                    if a.len() != b.len() {
                        return false;
                    }
                    if a.len() <= 1 {
                        // Two single cells (or none): one translation.
                        return true;
                    }
                    // Small shapes: their codes, remembered per set.
                    match (shape_code(cx, a), shape_code(cx, b)) {
                        (Some(x), Some(y)) => x == y,
                        _ => cx.t.board.same_shape(&a.to_cells(), &b.to_cells()),
                    }
                }
                if let (Some(i), Some(j)) = (self.set_slot(&args[0]), self.set_slot(&args[1])) {
                    // Two set locals, read in place.
                    return Box::new(move |cx| {
                        let (a, b) = (cx.fr.s[i], cx.fr.s[j]);
                        same(cx, a, b)
                    });
                }
                let (a, b) = (self.set(&args[0]), self.set(&args[1]));
                Box::new(move |cx| {
                    let a = a(cx);
                    let b = b(cx);
                    same(cx, a, b)
                })
            }
            _ => {
                let w = self.builtin_word(f, args, span);
                Box::new(move |cx| w(cx) != 0)
            }
        }
    }

    /// Compiles a number or small value.
    pub fn word(&mut self, e: &Expr) -> I<W> {
        if let Some(w) = self.group_size_of(e) {
            return Box::new(move |cx| cx.fr.w[w]);
        }
        if let Some((Var::W(v), flag)) = self.take_hoisted(e) {
            let inner = self.word(e);
            self.hoisted.push((e, Var::W(v), flag));
            let (v, flag) = (v as usize, flag as usize);
            return Box::new(move |cx| {
                if cx.fr.w[flag] == 0 {
                    let x = inner(cx);
                    cx.fr.w[v] = x;
                    cx.fr.w[flag] = 1;
                }
                cx.fr.w[v]
            });
        }
        match e {
            Expr::Const(v) => {
                let w = const_word(v).unwrap_or(0);
                Box::new(move |_| w)
            }
            Expr::Local(s, _) => match self.var(*s) {
                Var::W(i) => {
                    let i = i as usize;
                    Box::new(move |cx| cx.fr.w[i])
                }
                _ => Box::new(|_| 0),
            },
            Expr::Me => Box::new(|cx| i64::from(cx.st.current)),
            Expr::Unary(UnOp::Neg, a) => {
                let span = a.span();
                let a = self.word(a);
                Box::new(move |cx| {
                    let x = a(cx);
                    x.checked_neg().unwrap_or_else(|| overflow(cx, span))
                })
            }
            Expr::Binary(op, a, b, span) => self.binary_word(*op, a, b, *span),
            Expr::Builtin(f, args, span) => self.builtin_word(*f, args, *span),
            Expr::Prop(p, k, _) => {
                let p = *p as usize;
                // `prop(kind(c))`: the property of the piece on a cell, in one step.
                if let Expr::Builtin(Builtin::KindOf, args, _) = &**k {
                    let c = self.opnd(&args[0]);
                    return with_opnd!(c, |cx, c| match code_at(cx, c as CellId) {
                        0 => 0,
                        v => {
                            let k = cx.t.codes[v as usize].1 as usize;
                            cx.t.props[k].get(p).copied().unwrap_or(0)
                        }
                    });
                }
                let k = self.opnd(k);
                with_opnd!(k, |cx, k| cx
                    .t
                    .props
                    .get(k as usize)
                    .and_then(|ps| ps.get(p))
                    .copied()
                    .unwrap_or(0))
            }
            Expr::Zone(z, p) => {
                let z = *z;
                match p.as_deref() {
                    None => {
                        let w = word::zone(z, 0);
                        Box::new(move |_| w)
                    }
                    Some(Expr::Me) => Box::new(move |cx| word::zone(z, cx.st.current)),
                    Some(p) => {
                        let p = self.opnd(p);
                        with_opnd!(p, |cx, p| word::zone(z, p as u8))
                    }
                }
            }
            Expr::Inline(binds, body, _) => {
                if let Some(e) = super::opt::inline_once(binds, body, &self.hoisted) {
                    self.notes.push("argument read in place: a `def`'s one parameter".into());
                    return self.word(&e);
                }
                let binds = self.binds(binds);
                let body = self.word(body);
                Box::new(move |cx| {
                    for b in &binds {
                        b(cx);
                    }
                    body(cx)
                })
            }
            Expr::Quant { quant, slot, domain, filter, body, span } => match quant {
                Quant::Any | Quant::All | Quant::None => {
                    let b = self.bool_(e);
                    Box::new(move |cx| i64::from(b(cx)))
                }
                _ => {
                    if let Some(q) = self.set_quant_count(
                        *quant,
                        *slot,
                        domain,
                        filter.as_deref(),
                        body.as_deref(),
                    ) {
                        return q;
                    }
                    if let Some(q) = self.hoisted_quant(
                        *quant,
                        *slot,
                        domain,
                        filter.as_deref(),
                        body.as_deref(),
                        *span,
                    ) {
                        return q.word();
                    }
                    self.quant_word(
                        *quant,
                        *slot,
                        domain,
                        filter.as_deref(),
                        body.as_deref(),
                        *span,
                    )
                }
            },
            Expr::Unary(UnOp::Not, _) => {
                let b = self.bool_(e);
                Box::new(move |cx| i64::from(b(cx)))
            }
            Expr::Lines(..) => Box::new(|_| 0),
            Expr::Var(v, ty, p) => {
                let (per, clock, base) = self.t.vars.get(*v as usize).copied().unwrap_or_default();
                let none = none_word(*ty);
                match p {
                    None if clock => {
                        Box::new(move |cx| cx.st.clocks.get(base).copied().unwrap_or(0))
                    }
                    None => Box::new(move |cx| cx.st.vars.get(base).copied().unwrap_or(0)),
                    Some(p) => {
                        let _ = per;
                        let p = self.opnd(p);
                        with_opnd!(p, |cx, p| {
                            if p == i64::from(NONE8) {
                                return none;
                            }
                            let bank = if clock { &cx.st.clocks } else { &cx.st.vars };
                            bank.get(base + p as usize).copied().unwrap_or(none)
                        })
                    }
                }
            }
        }
    }

    fn binary_word(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> I<W> {
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                // Overflow is a rule error at the operator, never a wrap.
                let f: fn(i64, i64) -> Option<i64> = match op {
                    BinOp::Add => i64::checked_add,
                    BinOp::Sub => i64::checked_sub,
                    _ => i64::checked_mul,
                };
                match (self.opnd(a), self.opnd(b)) {
                    (Opnd::Slot(i), Opnd::Const(k)) => {
                        Box::new(move |cx| f(cx.fr.w[i], k).unwrap_or_else(|| overflow(cx, span)))
                    }
                    (x, y) => {
                        let x = self.opnd_fn(x);
                        let y = self.opnd_fn(y);
                        Box::new(move |cx| {
                            let a = x(cx);
                            let b = y(cx);
                            f(a, b).unwrap_or_else(|| overflow(cx, span))
                        })
                    }
                }
            }
            BinOp::Div | BinOp::Rem => {
                let (x, y) = (self.word(a), self.word(b));
                let div = op == BinOp::Div;
                Box::new(move |cx| {
                    let a = x(cx);
                    let b = y(cx);
                    if b == 0 {
                        cx.fr.fail("division by zero".into(), span);
                        return 0;
                    }
                    let r = if div { a.checked_div(b) } else { a.checked_rem(b) };
                    r.unwrap_or_else(|| overflow(cx, span))
                })
            }
            _ => {
                let c = self.binary_bool(op, a, b, span);
                Box::new(move |cx| i64::from(c(cx)))
            }
        }
    }

    fn opnd_fn(&mut self, o: Opnd<W>) -> I<W> {
        match o {
            Opnd::Slot(i) => Box::new(move |cx| cx.fr.w[i]),
            Opnd::Const(k) => Box::new(move |_| k),
            Opnd::Leaf(l) => Box::new(move |cx| l.eval(cx)),
            Opnd::Fn(f) => f,
        }
    }

    /// Pass 50: `last(upto(ray(c, d)))`, the first piece along a ray (or
    /// the ray's last cell, `none` for the empty ray), in one closure: the
    /// ray's line looked up and scanned for its first occupied cell
    /// ([`super::Tables::first_in_or_last`]), without making the prefix
    /// line that `upto` makes and `last` reads. `c` and then `d` are
    /// evaluated as the three calls evaluate them.
    fn ray_stop(&mut self, c: &Expr, d: &Expr) -> I<W> {
        self.notes.push(super::opt::RAY_STOP_NOTE.into());
        let c = self.opnd(c);
        let stop = |cx: &Cx<'_, W>, c: i64, d: usize| {
            let l = cx.t.ray(c as CellId, d);
            i64::from(cx.t.first_in_or_last(l, occupied(cx)))
        };
        match d {
            Expr::Const(Value::Dir(d)) => {
                let d = usize::from(*d);
                with_opnd!(c, |cx, c| stop(cx, c, d))
            }
            other => {
                let d = self.word(other);
                with_opnd!(c, |cx, c| {
                    let d = d(cx) as usize;
                    stop(cx, c, d)
                })
            }
        }
    }

    fn builtin_word(&mut self, f: Builtin, args: &[Expr], span: Span) -> I<W> {
        let none8 = i64::from(NONE8);
        let none16 = i64::from(NONE16);
        match f {
            Builtin::Owner => {
                let c = self.opnd(&args[0]);
                with_opnd!(c, |cx, c| {
                    match code_at(cx, c as CellId) {
                        0 => none8,
                        v => i64::from(cx.t.codes[v as usize].0),
                    }
                })
            }
            Builtin::KindOf => {
                let c = self.opnd(&args[0]);
                with_opnd!(c, |cx, c| {
                    match code_at(cx, c as CellId) {
                        0 => none16,
                        v => i64::from(cx.t.codes[v as usize].1),
                    }
                })
            }
            Builtin::Step => {
                let c = self.opnd(&args[0]);
                match &args[1] {
                    Expr::Const(Value::Dir(d)) => {
                        let d = *d as usize;
                        with_opnd!(c, |cx, c| i64::from(cx.t.step(c as CellId, d)))
                    }
                    Expr::Local(s, _) if matches!(self.var(*s), Var::W(_)) => {
                        let Var::W(d) = self.var(*s) else { return Box::new(|_| 0) };
                        let d = d as usize;
                        with_opnd!(c, |cx, c| {
                            let d = cx.fr.w[d] as usize;
                            i64::from(cx.t.step(c as CellId, d))
                        })
                    }
                    other => {
                        let d = self.word(other);
                        with_opnd!(c, |cx, c| {
                            let d = d(cx) as usize;
                            i64::from(cx.t.step(c as CellId, d))
                        })
                    }
                }
            }
            Builtin::Next if matches!(args[0], Expr::Me) => {
                // `opponent`: one closure, `me` read in place.
                Box::new(|cx| next_seat(cx) as i64)
            }
            Builtin::Next => {
                let p = self.opnd(&args[0]);
                with_opnd!(p, |cx, p| if p == none8 {
                    none8
                } else {
                    (p + 1) % cx.t.players as i64
                })
            }
            Builtin::CountKind => {
                let z = self.word(&args[0]);
                let k = self.word(&args[1]);
                Box::new(move |cx| {
                    let (z, p) = word::unzone(z(cx));
                    let k = k(cx);
                    if p == NONE8 || k == none16 {
                        return 0;
                    }
                    zone_count(cx, z, p, k as u16)
                })
            }
            Builtin::CountAll => {
                if let Some(c) = self.counted_count(&args[0]) {
                    return c.closure(|x| x);
                }
                if let Some(i) = self.fixed_seq(&args[0]) {
                    return Box::new(move |cx| seq_len(cx, i));
                }
                // A zone named in the rule, its player read in place.
                if let Expr::Zone(z, p) = &args[0] {
                    let z = *z;
                    match p.as_deref() {
                        None => return Box::new(move |cx| zone_total(cx, z, 0)),
                        Some(Expr::Me) => {
                            return Box::new(move |cx| match cx.st.current {
                                NONE8 => 0,
                                p => zone_total(cx, z, p),
                            })
                        }
                        _ => {}
                    }
                }
                let z = self.word(&args[0]);
                Box::new(move |cx| {
                    let (z, p) = word::unzone(z(cx));
                    if p == NONE8 {
                        return 0;
                    }
                    zone_total(cx, z, p)
                })
            }
            Builtin::First | Builtin::Last => {
                let first = f == Builtin::First;
                if let Some(i) = self.fixed_seq(&args[0]) {
                    // A zone whose sequence is known at load: read in place,
                    // with the same answers and error as below.
                    return Box::new(move |cx| match cx.st.seqs.get(i) {
                        Some(seq) => end_kind(seq, first).unwrap_or_else(|| {
                            cx.fr.fail(face_down(), span);
                            none16
                        }),
                        None => none16,
                    });
                }
                let z = self.word(&args[0]);
                Box::new(move |cx| {
                    let (z, p) = word::unzone(z(cx));
                    if p == NONE8 || !cx.t.zones[z as usize].1 {
                        return none16;
                    }
                    let seq = &cx.st.seqs[cx.t.sequence(z, p)];
                    end_kind(seq, first).unwrap_or_else(|| {
                        cx.fr.fail(face_down(), span);
                        none16
                    })
                })
            }
            Builtin::Size => match self.ty(&args[0]) {
                Ty::Line => {
                    let l = self.word(&args[0]);
                    Box::new(move |cx| {
                        let l = l(cx);
                        cx.t.lines.get(l as usize).map_or(0, |x| x.cells.len() as i64)
                    })
                }
                _ => {
                    let s = self.set(&args[0]);
                    Box::new(move |cx| s(cx).len() as i64)
                }
            },
            Builtin::Min | Builtin::Max => {
                let (a, b) = (self.word(&args[0]), self.word(&args[1]));
                let min = f == Builtin::Min;
                Box::new(move |cx| {
                    let x = a(cx);
                    let y = b(cx);
                    if min {
                        x.min(y)
                    } else {
                        x.max(y)
                    }
                })
            }
            Builtin::Abs => {
                let a = self.word(&args[0]);
                Box::new(move |cx| {
                    let x = a(cx);
                    x.checked_abs().unwrap_or_else(|| overflow(cx, span))
                })
            }
            Builtin::File | Builtin::Rank => {
                let c = self.opnd(&args[0]);
                let file = f == Builtin::File;
                with_opnd!(c, |cx, c| match cx.t.file_rank.get(c as usize) {
                    Some(&(x, y)) => {
                        if file {
                            x
                        } else {
                            y
                        }
                    }
                    None => 0,
                })
            }
            Builtin::CellAt => {
                let (a, b) = (self.word(&args[0]), self.word(&args[1]));
                Box::new(move |cx| {
                    let f = a(cx);
                    let r = b(cx);
                    let (fmin, rmin, fw, rh, ref at) = cx.t.at;
                    let (x, y) = (f.wrapping_sub(fmin), r.wrapping_sub(rmin));
                    if x < 0 || y < 0 || x >= fw || y >= rh {
                        return i64::from(NO_CELL);
                    }
                    i64::from(at[(y * fw + x) as usize])
                })
            }
            Builtin::Ply => Box::new(|cx| i64::from(cx.st.ply)),
            Builtin::Repetitions => {
                Box::new(|cx| cx.st.repetitions_in(cx.t.players, &mut cx.fr.reps))
            }
            Builtin::Cond => {
                let (c, a, b) = (self.bool_(&args[0]), self.word(&args[1]), self.word(&args[2]));
                Box::new(move |cx| if c(cx) { a(cx) } else { b(cx) })
            }
            Builtin::Ray => {
                let c = self.opnd(&args[0]);
                match &args[1] {
                    Expr::Const(Value::Dir(d)) => {
                        let d = *d as usize;
                        with_opnd!(c, |cx, c| i64::from(cx.t.ray(c as CellId, d)))
                    }
                    other => {
                        let d = self.word(other);
                        with_opnd!(c, |cx, c| {
                            let d = d(cx) as usize;
                            i64::from(cx.t.ray(c as CellId, d))
                        })
                    }
                }
            }
            Builtin::UpTo | Builtin::Before => {
                let l = self.opnd(&args[0]);
                let upto = f == Builtin::UpTo;
                with_opnd!(l, |cx, l| {
                    let k = cx.t.before_first(l as u32, occupied(cx));
                    i64::from(cx.t.prefix(l as u32, if upto { k + 1 } else { k }))
                })
            }
            // Pass 50: the first piece along a ray (or the ray's last cell),
            // in one closure.
            Builtin::LineLast if super::opt::upto_ray(&args[0]).is_some() => {
                let Some((c, d)) = super::opt::upto_ray(&args[0]) else { return Box::new(|_| 0) };
                self.ray_stop(c, d)
            }
            Builtin::LineFirst | Builtin::LineLast => {
                let l = self.opnd(&args[0]);
                let first = f == Builtin::LineFirst;
                with_opnd!(l, |cx, l| {
                    let cells = cx.t.lines.get(l as usize).map_or(&[][..], |x| &x.cells[..]);
                    let c = if first { cells.first() } else { cells.last() };
                    i64::from(c.copied().unwrap_or(NO_CELL))
                })
            }
            Builtin::LineAt => {
                let l = self.opnd(&args[0]);
                let i = self.word(&args[1]);
                with_opnd!(l, |cx, l| {
                    let i = i(cx);
                    let cells = cx.t.lines.get(l as usize).map_or(&[][..], |x| &x.cells[..]);
                    let c = if i >= 1 { cells.get((i - 1) as usize) } else { None };
                    i64::from(c.copied().unwrap_or(NO_CELL))
                })
            }
            Builtin::SetFirst | Builtin::SetLast => {
                let s = self.set(&args[0]);
                let first = f == Builtin::SetFirst;
                Box::new(move |cx| {
                    let s = s(cx);
                    let c = if first { s.first() } else { s.last() };
                    i64::from(c.unwrap_or(NO_CELL))
                })
            }
            Builtin::In => {
                let b = self.builtin_bool(f, args, span);
                Box::new(move |cx| i64::from(b(cx)))
            }
            Builtin::Empty
            | Builtin::Occupied
            | Builtin::Off
            | Builtin::Contains
            | Builtin::Touches
            | Builtin::SameShape => {
                let b = self.builtin_bool(f, args, span);
                Box::new(move |cx| i64::from(b(cx)))
            }
            // Sets and collections are not words: a checked game never asks.
            _ => Box::new(|_| 0),
        }
    }

    /// The frame word of `e` when it is a word local read as it stands
    /// (not a value hoisted out of a quantifier).
    pub fn word_slot(&self, e: &Expr) -> Option<usize> {
        match e {
            Expr::Local(x, _) if !self.is_hoisted(e) => match self.var(*x) {
                Var::W(i) => Some(i as usize),
                _ => None,
            },
            _ => None,
        }
    }

    /// The frame slot of `e` when it is a set local read as it stands
    /// (not a value hoisted out of a quantifier).
    fn set_slot(&self, e: &Expr) -> Option<usize> {
        match e {
            Expr::Local(x, _) if !self.is_hoisted(e) && self.ty(e) != Ty::Line => {
                match self.var(*x) {
                    Var::S(i) => Some(i as usize),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Compiles a set of cells (a line stands for its cells).
    pub fn set(&mut self, e: &Expr) -> S<W> {
        if let Some((Var::S(v), flag)) = self.take_hoisted(e) {
            let inner = self.set(e);
            self.hoisted.push((e, Var::S(v), flag));
            let (v, flag) = (v as usize, flag as usize);
            return Box::new(move |cx| {
                if cx.fr.w[flag] == 0 {
                    let x = inner(cx);
                    cx.fr.s[v] = x;
                    cx.fr.w[flag] = 1;
                }
                cx.fr.s[v]
            });
        }
        if self.ty(e) == Ty::Line {
            let l = self.word(e);
            return Box::new(move |cx| {
                let l = l(cx);
                cx.t.lines.get(l as usize).map_or(Set::EMPTY, |x| x.set)
            });
        }
        if let Some(f) = self.cell_pattern(e) {
            return f;
        }
        match e {
            Expr::Const(Value::Cells(s)) => {
                let s = Set::from_cells(s);
                Box::new(move |_| s)
            }
            Expr::Local(s, _) => match self.var(*s) {
                Var::S(i) => {
                    let i = i as usize;
                    Box::new(move |cx| cx.fr.s[i])
                }
                _ => Box::new(|_| Set::EMPTY),
            },
            Expr::Builtin(f, args, _) => self.builtin_set(*f, args),
            Expr::Inline(binds, body, _) => {
                let binds = self.binds(binds);
                let body = self.set(body);
                Box::new(move |cx| {
                    for b in &binds {
                        b(cx);
                    }
                    body(cx)
                })
            }
            Expr::Quant { quant: Quant::Collect, slot, domain, filter, body, span } => {
                if let Some(q) = self.set_collect(*slot, domain, filter.as_deref(), body.as_deref())
                {
                    return q;
                }
                if let Some(q) =
                    self.groups_touching(*slot, domain, filter.as_deref(), body.as_deref())
                {
                    return q;
                }
                self.collect(*slot, domain, filter.as_deref(), body.as_deref(), *span)
            }
            _ => Box::new(|_| Set::EMPTY),
        }
    }

    fn builtin_set(&mut self, f: Builtin, args: &[Expr]) -> S<W> {
        match f {
            Builtin::Neighbours => {
                let c = self.opnd(&args[0]);
                with_opnd!(c, |cx, c| cx.t.nbr.get(c as usize).copied().unwrap_or(Set::EMPTY))
            }
            Builtin::Pieces => {
                let p = self.opnd(&args[0]);
                with_opnd!(p, |cx, p| pieces(cx, p))
            }
            Builtin::AllCells => Box::new(|cx| cx.t.all),
            Builtin::NeighboursOf => {
                let a = self.set(&args[0]);
                Box::new(move |cx| {
                    let a = a(cx);
                    around(cx.t, a).minus(a)
                })
            }
            Builtin::Singleton => {
                let c = self.opnd(&args[0]);
                with_opnd!(c, |cx, c| Set::one(c as CellId))
            }
            Builtin::LineCells => {
                let l = self.opnd(&args[0]);
                with_opnd!(l, |cx, l| cx.t.lines.get(l as usize).map_or(Set::EMPTY, |x| x.set))
            }
            Builtin::Group => {
                let c = self.opnd(&args[0]);
                with_opnd!(c, |cx, c| group_of(cx, c as CellId))
            }
            Builtin::Cond => {
                let (c, a, b) = (self.bool_(&args[0]), self.set(&args[1]), self.set(&args[2]));
                Box::new(move |cx| if c(cx) { a(cx) } else { b(cx) })
            }
            Builtin::SetOf => {
                let parts: Vec<S<W>> = args.iter().map(|a| self.set(a)).collect();
                Box::new(move |cx| {
                    let mut acc = Set::EMPTY;
                    for p in &parts {
                        acc = acc.or(p(cx));
                    }
                    acc
                })
            }
            Builtin::Union | Builtin::Intersect | Builtin::Minus => {
                let (a, b) = (self.set(&args[0]), self.set(&args[1]));
                match f {
                    Builtin::Union => Box::new(move |cx| {
                        let x = a(cx);
                        x.or(b(cx))
                    }),
                    Builtin::Intersect => Box::new(move |cx| {
                        let x = a(cx);
                        x.and(b(cx))
                    }),
                    _ => Box::new(move |cx| {
                        let x = a(cx);
                        x.minus(b(cx))
                    }),
                }
            }
            _ => Box::new(|_| Set::EMPTY),
        }
    }

    /// Compiles a collection to iterate (any iterable type).
    pub fn dom(&mut self, e: &Expr) -> D<W> {
        let ty = self.ty(e);
        match ty {
            Ty::Cells => {
                let s = self.set(e);
                return Box::new(move |cx| Dom::Set(s(cx)));
            }
            Ty::Line => {
                let l = self.word(e);
                return Box::new(move |cx| Dom::Line(l(cx) as u32));
            }
            Ty::Zone => {
                // A zone named in the rule, its player read in place.
                if let Expr::Zone(z, p) = e {
                    let z = *z;
                    if let Some(Expr::Me) = p.as_deref() {
                        return Box::new(move |cx| Dom::Zone(z, cx.st.current));
                    }
                    match p.as_deref().map(|p| self.opnd(p)) {
                        None => return Box::new(move |_| Dom::Zone(z, 0)),
                        Some(Opnd::Const(p)) => return Box::new(move |_| Dom::Zone(z, p as u8)),
                        Some(Opnd::Slot(i)) => {
                            return Box::new(move |cx| Dom::Zone(z, cx.fr.w[i] as u8))
                        }
                        Some(Opnd::Fn(p)) => return Box::new(move |cx| Dom::Zone(z, p(cx) as u8)),
                        Some(Opnd::Leaf(l)) => {
                            return Box::new(move |cx| Dom::Zone(z, l.eval(cx) as u8))
                        }
                    }
                }
                let z = self.word(e);
                return Box::new(move |cx| {
                    let (z, p) = word::unzone(z(cx));
                    Dom::Zone(z, p)
                });
            }
            _ => {}
        }
        match e {
            Expr::Const(v) => {
                let d = match *v {
                    Value::Dirs => Dom::Dirs,
                    Value::Kinds => Dom::Kinds,
                    Value::Players => Dom::Players,
                    Value::Lines(a, b) => Dom::Lines(a, b),
                    Value::Groups(p) => Dom::Groups(p),
                    Value::Placements(k) => Dom::Placements(k),
                    Value::Range(a, b) => Dom::Range(a, b),
                    Value::KindList(i)
                    | Value::PlayerList(i)
                    | Value::DirList(i)
                    | Value::IntList(i) => Dom::List(i),
                    _ => Dom::Range(1, 0),
                };
                Box::new(move |_| d)
            }
            Expr::Lines(a, b) => {
                let d = Dom::Lines(*a, *b);
                Box::new(move |_| d)
            }
            Expr::Local(s, _) => match self.var(*s) {
                Var::D(i) => {
                    let i = i as usize;
                    Box::new(move |cx| cx.fr.d[i])
                }
                _ => Box::new(|_| Dom::Range(1, 0)),
            },
            Expr::Inline(binds, body, _) => {
                let binds = self.binds(binds);
                let body = self.dom(body);
                Box::new(move |cx| {
                    for b in &binds {
                        b(cx);
                    }
                    body(cx)
                })
            }
            Expr::Builtin(Builtin::Groups, args, _) => {
                self.group_lists = true;
                match &args[0] {
                    // `groups(me)`, `groups(opponent)`: the player read in place.
                    Expr::Me => Box::new(|cx| Dom::Groups(cx.st.current)),
                    Expr::Builtin(Builtin::Next, a, _) if matches!(a[0], Expr::Me) => {
                        Box::new(|cx| Dom::Groups(next_seat(cx) as u8))
                    }
                    p => {
                        let p = self.word(p);
                        Box::new(move |cx| Dom::Groups(p(cx) as u8))
                    }
                }
            }
            Expr::Builtin(Builtin::Cond, args, _) => {
                let (c, a, b) = (self.bool_(&args[0]), self.dom(&args[1]), self.dom(&args[2]));
                Box::new(move |cx| if c(cx) { a(cx) } else { b(cx) })
            }
            Expr::Builtin(Builtin::Placements, args, _) => {
                let k = self.word(&args[0]);
                Box::new(move |cx| Dom::Placements(k(cx) as u16))
            }
            Expr::Builtin(Builtin::Range, args, _) => {
                let (a, b) = (self.word(&args[0]), self.word(&args[1]));
                Box::new(move |cx| {
                    let x = a(cx);
                    Dom::Range(x, b(cx))
                })
            }
            _ => Box::new(|_| Dom::Range(1, 0)),
        }
    }

    /// The loop variable of a quantifier or statement over `domain`.
    pub fn elem_var(&self, slot: Slot) -> Var {
        self.var(slot)
    }

    fn quant_bool(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: Span,
    ) -> B<W> {
        if let Some(b) = self.groups_by_change(q, slot, domain, filter, body, span) {
            return b;
        }
        if let (Expr::Const(Value::Dirs), Some(cond)) = (domain, ray_cond(q, filter, body)) {
            if let Some(b) = self.ray_quant(q, slot, cond, span) {
                return b;
            }
        }
        if let Expr::Const(Value::Dirs) = domain {
            if let Some(b) = self.dirs_guard(q, slot, filter, body, span) {
                return b;
            }
        }
        let var = self.var(slot);
        if matches!(var, Var::W(_)) {
            if let Some(b) = self.kind_quant_bool(q, slot, domain, filter, body) {
                return b;
            }
        }
        if let (Some(seq), Var::W(x)) = (self.fixed_seq(domain), var) {
            return self.seq_quant_bool(q, seq, x as usize, slot, filter, body, span);
        }
        let d = self.dom(domain);
        let through = self.lines_through(slot, domain, filter);
        // Pass 43: an element that passes `any` or `none` passes the
        // filter and the body; one that fails `all` passes the filter.
        let bound = match q {
            Quant::All => self.touch_bound(slot, domain, &[filter]),
            _ => self.touch_bound(slot, domain, &[filter, body]),
        };
        let (flags, f, b) = self.quant_conds(slot, filter, body);
        // `any`: some element passes; `all`: no element fails; `none`: no element passes.
        let want = q != Quant::All;
        Box::new(move |cx| {
            if bound.as_ref().is_some_and(|b| !b.holds(cx)) {
                // No element passes (`any`, `none`), or none is asked
                // (`all`).
                return q != Quant::Any;
            }
            let dv = d(cx);
            forget(cx, &flags);
            let mut hit = false;
            if let Some(lt) = &through {
                // Pass 18: only the lines through the cell; the others
                // fail the filter's first test and are counted in bulk.
                let at = lt.lines(cx);
                let mut done = lt.first;
                for &l in at {
                    if !super::effect::tick_n(cx, l + 1 - done, span) {
                        return q != Quant::Any;
                    }
                    done = l + 1;
                    if let Var::W(i) = var {
                        cx.fr.w[i as usize] = i64::from(l);
                    }
                    if let Some(f) = &f {
                        if !f(cx) {
                            continue;
                        }
                    }
                    if b.as_ref().is_none_or(|b| b(cx)) == want {
                        hit = true;
                        break;
                    }
                }
                if !hit {
                    super::effect::tick_n(cx, lt.end - done, span);
                }
                return match q {
                    Quant::Any => hit,
                    _ => !hit,
                };
            }
            each_ticked(cx, dv, var, span, |cx| {
                if let Some(f) = &f {
                    if !f(cx) {
                        return true;
                    }
                }
                let t = b.as_ref().is_none_or(|b| b(cx));
                if t == want {
                    hit = true;
                    return false;
                }
                true
            });
            match q {
                Quant::Any => hit,
                _ => !hit,
            }
        })
    }

    /// A condition quantifier's hoisted values (their flag words), filter
    /// and body, compiled.
    pub fn quant_conds(
        &mut self,
        slot: Slot,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> (Vec<u16>, Option<B<W>>, Option<B<W>>) {
        let flags = self.hoist(slot, filter, body);
        let f = filter.map(|f| self.cond_of(slot, f));
        let b = body.map(|b| self.cond_of(slot, b));
        self.unhoist(&flags);
        (flags, f, b)
    }

    /// [`Compiler::quant_bool`] over an ordered zone named in the rule
    /// whose sequence is known at load (`any n in row: ...`): its pieces
    /// read from the sequence in place, in the order [`each`] gives them
    /// (the known ones at the start, the face-down ones by kind, the known
    /// ones at the end), each counted against the step limit.
    #[allow(clippy::too_many_arguments)]
    fn seq_quant_bool(
        &mut self,
        q: Quant,
        seq: usize,
        x: usize,
        slot: Slot,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: Span,
    ) -> B<W> {
        let (flags, f, b) = self.quant_conds(slot, filter, body);
        let want = q != Quant::All;
        Box::new(move |cx| {
            forget(cx, &flags);
            // One element: `false` stops (an element decided, or the step
            // limit passed).
            let mut hit = false;
            let mut one = |cx: &mut Cx<'_, W>, k: u16| {
                if !super::effect::tick(cx, span) {
                    return false;
                }
                cx.fr.w[x] = i64::from(k);
                if f.as_ref().is_some_and(|f| !f(cx)) {
                    return true;
                }
                if b.as_ref().is_none_or(|b| b(cx)) == want {
                    hit = true;
                    return false;
                }
                true
            };
            // Each piece read afresh, as the general walk does (a condition
            // cannot change the zone, but nothing here relies on that).
            'walk: {
                let mut i = 0;
                while let Some(k) = cx.st.seqs.get(seq).and_then(|z| z.front_nth(i)) {
                    i += 1;
                    if !one(cx, k) {
                        break 'walk;
                    }
                }
                let mut k = 0;
                while let Some(&n) = cx.st.seqs.get(seq).and_then(|z| z.middle().get(k)) {
                    for _ in 0..n {
                        if !one(cx, k as u16) {
                            break 'walk;
                        }
                    }
                    k += 1;
                }
                let mut i = 0;
                while let Some(&k) = cx.st.seqs.get(seq).and_then(|z| z.back.get(i)) {
                    i += 1;
                    if !one(cx, k) {
                        break 'walk;
                    }
                }
            }
            match q {
                Quant::Any => hit,
                _ => !hit,
            }
        })
    }

    fn quant_word(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: Span,
    ) -> I<W> {
        if let Some(f) = self.largest_group(q, slot, domain, filter, body, span) {
            return f;
        }
        if let Some(f) = self.first_in_range(q, slot, domain, filter, body, span) {
            return f;
        }
        if let (Quant::Count, Expr::Const(Value::Dirs), Some(cond)) =
            (q, domain, ray_cond(q, filter, body))
        {
            if let Some(f) = self.ray_count(slot, cond, span) {
                return f;
            }
        }
        let var = self.var(slot);
        let d = self.dom(domain);
        let flags = self.hoist(slot, filter, body);
        let f = filter.map(|f| self.cond_of(slot, f));
        if q == Quant::Count {
            let b = body.map(|b| self.cond_of(slot, b));
            self.unhoist(&flags);
            return Box::new(move |cx| {
                let dv = d(cx);
                forget(cx, &flags);
                let mut n = 0i64;
                each_ticked(cx, dv, var, span, |cx| {
                    if let Some(f) = &f {
                        if !f(cx) {
                            return true;
                        }
                    }
                    if b.as_ref().is_none_or(|b| b(cx)) {
                        n += 1;
                    }
                    true
                });
                n
            });
        }
        let b = body.map(|b| self.word(b));
        self.unhoist(&flags);
        Box::new(move |cx| {
            let dv = d(cx);
            forget(cx, &flags);
            let mut acc = 0i64;
            let mut seen = false;
            each_ticked(cx, dv, var, span, |cx| {
                if let Some(f) = &f {
                    if !f(cx) {
                        return true;
                    }
                }
                let x = b.as_ref().map_or(0, |b| b(cx));
                acc = match q {
                    Quant::Sum => match acc.checked_add(x) {
                        Some(v) => v,
                        None => {
                            overflow(cx, span);
                            return false;
                        }
                    },
                    Quant::Max if seen => acc.max(x),
                    Quant::Min if seen => acc.min(x),
                    _ => x,
                };
                seen = true;
                true
            });
            acc
        })
    }

    fn collect(
        &mut self,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: Span,
    ) -> S<W> {
        let var = self.var(slot);
        let d = self.dom(domain);
        let flags = self.hoist(slot, filter, body);
        let shared = self.share_body(filter, body);
        let f = filter.map(|f| self.cond_of(slot, f));
        let b = body.map(|b| self.set(b));
        self.unhoist(&flags);
        if let Some(s) = shared {
            self.unhoist(&[s]);
        }
        let shared = shared.map(usize::from);
        let memo = self.collect_memo(slot, domain, filter, body);
        let bound = self.touch_bound(slot, domain, &[filter]);
        let walk: S<W> = Box::new(move |cx| {
            // Pass 43: no element can pass when the bound says so.
            if bound.as_ref().is_some_and(|b| !b.holds(cx)) {
                return Set::EMPTY;
            }
            let dv = d(cx);
            forget(cx, &flags);
            let mut acc = Set::EMPTY;
            each_ticked(cx, dv, var, span, |cx| {
                if let Some(s) = shared {
                    // The body's value is this element's.
                    cx.fr.w[s] = 0;
                }
                if let Some(f) = &f {
                    if !f(cx) {
                        return true;
                    }
                }
                if let Some(b) = &b {
                    acc = acc.or(b(cx));
                }
                true
            });
            acc
        });
        match memo {
            Some(m) => m.wrap(walk),
            None => walk,
        }
    }

    /// Compiles a set-form predicate (see [`Pred`]) into a closure giving
    /// its set of cells and whether it holds at `none`.
    pub fn pred_fn(&mut self, p: Pred<W>) -> super::P<W> {
        p.into_fn()
    }
}
