//! Statements as closures: every effect (`place`, `remove`, `move`, zone
//! changes, `shuffle`, `compare`, the endings), and `if`, `for`, `while`
//! and inlined actions whose bodies hold no decision. A statement closure
//! returns a [`Ctl`]; a rule error is left in the frame.

use super::expr::{code_at, each, zone_count, zone_total, Leaf};
use super::{word, Cx, Dom, Set, Var, B, D, I, S};
use crate::board::{CellId, NO_CELL};
use crate::ir::{NONE16, NONE8};
use crate::source::Span;
use crate::state::{End, Outcome};

pub use crate::state::STEP_LIMIT;

/// How a statement ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctl {
    /// Carry on with the next statement.
    Next,
    /// The turn is over (`win`, `lose`, `draw`, `pass`, `compare`).
    Done,
    /// Not a legal turn: this rule failed (where: [`super::Frame::failed`],
    /// written by [`fail`]). Without a payload the enum is one byte, so
    /// every statement closure returns it in a register.
    Fail,
    /// A rule error, recorded in the frame.
    Error,
}

/// A compiled statement.
pub type StmtFn<const W: usize> = Box<dyn Fn(&mut Cx<'_, W>) -> Ctl + Send + Sync>;

/// The rule at `span` failed: `Ctl::Fail`, with the span kept in the
/// frame for whoever stops the run.
#[inline(always)]
pub fn fail<const W: usize>(cx: &mut Cx<'_, W>, span: Span) -> Ctl {
    cx.fr.failed = span;
    Ctl::Fail
}

/// Stops the statement when an expression raised an error.
macro_rules! check {
    ($cx:expr) => {
        if $cx.fr.err.is_some() {
            return Ctl::Error;
        }
    };
}

/// Counts one loop iteration; false (with the error recorded) past the limit.
#[inline(always)]
pub fn tick<const W: usize>(cx: &mut Cx<'_, W>, span: Span) -> bool {
    cx.fr.steps += 1;
    if cx.fr.steps > cx.t.max_steps {
        too_many_steps(cx, span);
        return false;
    }
    true
}

/// Counts `n` loop iterations at once (elements a pass knows to be passed
/// over); false (with the error recorded) past the limit, as the `n`
/// ticks one by one would have.
#[inline(always)]
pub fn tick_n<const W: usize>(cx: &mut Cx<'_, W>, n: u32, span: Span) -> bool {
    cx.fr.steps = cx.fr.steps.saturating_add(n);
    if cx.fr.steps > cx.t.max_steps {
        too_many_steps(cx, span);
        return false;
    }
    true
}

#[cold]
fn too_many_steps<const W: usize>(cx: &mut Cx<'_, W>, span: Span) {
    let n = cx.t.max_steps;
    cx.fr.fail(
        format!("this rule ran more than {n} steps (loop rounds and elements looked at); is a loop endless? (`--max-steps` raises the limit)"),
        span,
    );
}

#[cold]
fn none_player<const W: usize>(cx: &mut Cx<'_, W>, span: Span) -> Ctl {
    cx.fr.fail("this player is `none`".into(), span);
    Ctl::Error
}

/// [`put`] of the piece `code` (of player `p`, kind `k`) on the empty
/// cell `c`.
#[inline(always)]
fn put_new<const W: usize>(cx: &mut Cx<'_, W>, c: CellId, code: u16, p: usize, k: usize) {
    let players = cx.t.players;
    let st = &mut *cx.st;
    st.data[c as usize] = code;
    let (w, bit) = ((c >> 6) as usize, 1u64 << (c & 63));
    if w < W {
        for set in [p, players + k] {
            if let Some(x) = st.bits.get_mut(set * W + w) {
                *x |= bit;
            }
        }
    }
    cx.fr.epoch += 1;
}

/// Writes board code `code` on cell `c`, keeping the occupancy sets in step.
#[inline(always)]
pub fn put<const W: usize>(cx: &mut Cx<'_, W>, c: CellId, code: u16) {
    let t = cx.t;
    let st = &mut *cx.st;
    let old = st.data[c as usize];
    st.data[c as usize] = code;
    let (w, bit) = ((c >> 6) as usize, 1u64 << (c & 63));
    if w >= W {
        return;
    }
    if old != 0 {
        let (p, k) = t.codes[old as usize];
        if let Some(x) = st.bits.get_mut(p as usize * W + w) {
            *x &= !bit;
        }
        if let Some(x) = st.bits.get_mut((t.players + k as usize) * W + w) {
            *x &= !bit;
        }
    }
    if code != 0 {
        let (p, k) = t.codes[code as usize];
        if let Some(x) = st.bits.get_mut(p as usize * W + w) {
            *x |= bit;
        }
        if let Some(x) = st.bits.get_mut((t.players + k as usize) * W + w) {
            *x |= bit;
        }
    }
    cx.fr.epoch += 1;
}

/// `win P`
pub fn win<const W: usize>(p: I<W>, span: Span) -> StmtFn<W> {
    Box::new(move |cx| {
        let w = p(cx);
        check!(cx);
        if w == i64::from(NONE8) || w < 0 {
            return none_player(cx, span);
        }
        cx.st.outcome = Some(Outcome::Win(w as u8));
        Ctl::Done
    })
}

/// `lose P`
pub fn lose<const W: usize>(p: I<W>, span: Span) -> StmtFn<W> {
    Box::new(move |cx| {
        let w = p(cx);
        check!(cx);
        if w == i64::from(NONE8) || w < 0 {
            return none_player(cx, span);
        }
        let n = cx.t.players as u8;
        let others = ((1u16 << n) - 1) as u8 & !(1 << w);
        cx.st.outcome =
            Some(if n == 2 { Outcome::Win(1 - w as u8) } else { Outcome::Shared(others) });
        Ctl::Done
    })
}

/// `draw`
pub fn draw<const W: usize>() -> StmtFn<W> {
    Box::new(|cx| {
        cx.st.outcome = Some(Outcome::Draw);
        Ctl::Done
    })
}

/// `pass`
pub fn pass<const W: usize>() -> StmtFn<W> {
    Box::new(|_| Ctl::Done)
}

/// `require C [else "message"]` (the message is for explanations)
pub fn require<const W: usize>(c: B<W>, span: Span) -> StmtFn<W> {
    Box::new(move |cx| {
        let ok = c(cx);
        check!(cx);
        if ok {
            Ctl::Next
        } else {
            fail(cx, span)
        }
    })
}

/// The owner of a placed piece: given, or the mover.
fn owner<const W: usize>(cx: &mut Cx<'_, W>, o: &Option<Arg<W>>) -> i64 {
    match o {
        Some(o) => o.get(cx),
        None => i64::from(cx.st.current),
    }
}

/// `place K [of P] at C`
pub fn place<const W: usize>(
    kind: Arg<W>,
    own: Option<Arg<W>>,
    at: Arg<W>,
    span: Span,
) -> StmtFn<W> {
    if let (None, Arg::Slot(ci)) = (&own, &at) {
        // The mover's piece at a cell local (`place Stone at c`): no
        // operand can raise an error, and the cell is empty when written;
        // the kind read by its form.
        match kind {
            Arg::Const(k) => return place_new(PConst(k), *ci, span),
            Arg::Slot(i) => return place_new(PSlot(i), *ci, span),
            Arg::Me | Arg::Fn(_) => {}
        }
    }
    Box::new(move |cx| {
        let k = kind.get(cx);
        check!(cx);
        let o = owner(cx, &own);
        check!(cx);
        if o == i64::from(NONE8) {
            return none_player(cx, span);
        }
        if k == i64::from(NONE16) {
            return fail(cx, span);
        }
        let c = at.get(cx);
        check!(cx);
        if c == i64::from(NO_CELL) || code_at(cx, c as CellId) != 0 {
            return fail(cx, span);
        }
        let code = 1 + o as u16 * cx.t.kinds as u16 + k as u16;
        put(cx, c as CellId, code);
        Ctl::Next
    })
}

/// [`place`] of the mover's piece of kind `kind` at the cell in word
/// local `ci`.
fn place_new<const W: usize, K: Plain>(kind: K, ci: usize, span: Span) -> StmtFn<W> {
    Box::new(move |cx| {
        let k = kind.read(cx);
        let o = cx.st.current;
        if o == NONE8 {
            return none_player(cx, span);
        }
        if k == i64::from(NONE16) {
            return fail(cx, span);
        }
        let c = cx.fr.w[ci];
        if c == i64::from(NO_CELL) || code_at(cx, c as CellId) != 0 {
            return fail(cx, span);
        }
        let code = 1 + u16::from(o) * cx.t.kinds as u16 + k as u16;
        // The cell is empty: no old piece's sets to clear, and the new
        // one's owner and kind are `o` and `k`.
        put_new(cx, c as CellId, code, usize::from(o), k as usize);
        Ctl::Next
    })
}

/// `place K [of P] at S` for a set of cells.
pub fn place_many<const W: usize>(
    kind: Arg<W>,
    own: Option<Arg<W>>,
    at: S<W>,
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let k = kind.get(cx);
        check!(cx);
        let o = owner(cx, &own);
        check!(cx);
        if o == i64::from(NONE8) {
            return none_player(cx, span);
        }
        if k == i64::from(NONE16) {
            return fail(cx, span);
        }
        let set: Set<W> = at(cx);
        check!(cx);
        if set.meets(super::expr::occupied(cx)) {
            return fail(cx, span);
        }
        // Every cell is empty: write the code, then the occupancy sets of
        // the owner and the kind at once.
        let code = 1 + o as u16 * cx.t.kinds as u16 + k as u16;
        for c in set.iter() {
            if let Some(x) = cx.st.data.get_mut(c as usize) {
                *x = code;
            }
        }
        let (p, kk) = cx.t.codes[code as usize];
        for i in [p as usize, cx.t.players + kk as usize] {
            if let Some(ws) = cx.st.bits.get_mut(i * W..i * W + W) {
                for (x, y) in ws.iter_mut().zip(set.0) {
                    *x |= y;
                }
            }
        }
        cx.fr.epoch += 1;
        Ctl::Next
    })
}

/// `change C to K of P`: the piece on `C` gets kind `K` and/or owner `P`.
pub fn change<const W: usize>(
    at: I<W>,
    kind: Option<I<W>>,
    own: Option<I<W>>,
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let c = at(cx);
        check!(cx);
        let c = c as CellId;
        let code = code_at(cx, c);
        if c == NO_CELL || code == 0 {
            return fail(cx, span);
        }
        let (mut p, mut k) = cx.t.codes[code as usize];
        if let Some(kind) = &kind {
            let x = kind(cx);
            check!(cx);
            if x == i64::from(NONE16) {
                return fail(cx, span);
            }
            k = x as u16;
        }
        if let Some(own) = &own {
            let x = own(cx);
            check!(cx);
            if x == i64::from(NONE8) {
                return none_player(cx, span);
            }
            p = x as u8;
        }
        put(cx, c, 1 + u16::from(p) * cx.t.kinds as u16 + k);
        Ctl::Next
    })
}

/// `x = e` for a variable of the position.
pub fn set_var<const W: usize>(
    (per, clock, base): (bool, bool, usize),
    player: Option<I<W>>,
    value: I<W>,
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let i = match &player {
            Some(p) if per => {
                let p = p(cx);
                check!(cx);
                if p == i64::from(NONE8) {
                    return none_player(cx, span);
                }
                base + p as usize
            }
            _ => base,
        };
        let v = value(cx);
        check!(cx);
        let bank = if clock { &mut cx.st.clocks } else { &mut cx.st.vars };
        if let Some(x) = bank.get_mut(i) {
            *x = v;
        }
        Ctl::Next
    })
}

/// `next turn P` (`again`: `next turn me`).
pub fn next_turn<const W: usize>(p: I<W>, span: Span) -> StmtFn<W> {
    Box::new(move |cx| {
        let p = p(cx);
        check!(cx);
        if p == i64::from(NONE8) || p < 0 {
            return none_player(cx, span);
        }
        cx.st.next = p as u8;
        Ctl::Next
    })
}

/// `remove C`
pub fn remove<const W: usize>(c: Arg<W>, span: Span) -> StmtFn<W> {
    if let Arg::Slot(i) = c {
        // A cell local (`remove c`): read in place, it cannot raise an
        // error.
        return Box::new(move |cx| {
            let c = cx.fr.w[i] as CellId;
            if c == NO_CELL || code_at(cx, c) == 0 {
                return fail(cx, span);
            }
            put(cx, c, 0);
            Ctl::Next
        });
    }
    Box::new(move |cx| {
        let c = c.get(cx);
        check!(cx);
        let c = c as CellId;
        if c == NO_CELL || code_at(cx, c) == 0 {
            return fail(cx, span);
        }
        put(cx, c, 0);
        Ctl::Next
    })
}

/// `move C to C`
pub fn move_piece<const W: usize>(from: Arg<W>, to: Arg<W>, span: Span) -> StmtFn<W> {
    if let (Arg::Slot(i), Arg::Slot(j)) = (&from, &to) {
        // Two cell locals (`move n to behind`): read in place, no operand
        // can raise an error.
        let (i, j) = (*i, *j);
        return Box::new(move |cx| {
            let (a, b) = (cx.fr.w[i] as CellId, cx.fr.w[j] as CellId);
            move_cells(cx, a, b, span)
        });
    }
    Box::new(move |cx| {
        let a = from.get(cx);
        check!(cx);
        let b = to.get(cx);
        check!(cx);
        move_cells(cx, a as CellId, b as CellId, span)
    })
}

/// `move a to b` of two cells: not a move when either is off the board,
/// `a` is empty or `b` taken.
#[inline(always)]
fn move_cells<const W: usize>(cx: &mut Cx<'_, W>, a: CellId, b: CellId, span: Span) -> Ctl {
    // `b` on the board and empty, then as into an empty cell (`a` off the
    // board or `none` reads as empty there).
    if b == NO_CELL || code_at(cx, b) != 0 {
        return fail(cx, span);
    }
    move_into_empty(cx, a, b, span)
}

/// `move a to b` where `b` is known to be on the board and empty (an arm
/// of a cell switch on `b` that only `empty(b)` reaches, pass 39): the
/// same answers as [`move_piece`] with fewer questions.
#[inline(always)]
pub fn move_into_empty<const W: usize>(
    cx: &mut Cx<'_, W>,
    a: CellId,
    b: CellId,
    span: Span,
) -> Ctl {
    let pa = code_at(cx, a);
    if pa == 0 {
        // Empty, off the board or `none`.
        return fail(cx, span);
    }
    shift(cx, a, b, pa);
    Ctl::Next
}

/// Moves the piece `code` on cell `a` to the empty cell `b` (both on the
/// board): `put(b, code)` then `put(a, 0)` in one, the owner's and the
/// kind's bits found once.
#[inline(always)]
fn shift<const W: usize>(cx: &mut Cx<'_, W>, a: CellId, b: CellId, code: u16) {
    let t = cx.t;
    let st = &mut *cx.st;
    st.data[b as usize] = code;
    st.data[a as usize] = 0;
    let (p, k) = t.codes[code as usize];
    for set in [p as usize, t.players + k as usize] {
        if let Some(ws) = st.bits.get_mut(set * W..set * W + W) {
            let (wa, wb) = ((a >> 6) as usize, (b >> 6) as usize);
            let (ba, bb) = (1u64 << (a & 63), 1u64 << (b & 63));
            // One read and one write of a word that holds both cells
            // (always, on a board of one word: both are on the board).
            if W == 1 || wa == wb {
                if let Some(x) = ws.get_mut(wa) {
                    *x = (*x & !ba) | bb;
                }
                continue;
            }
            if let Some(x) = ws.get_mut(wa) {
                *x &= !ba;
            }
            if let Some(x) = ws.get_mut(wb) {
                *x |= bb;
            }
        }
    }
    cx.fr.epoch += 1;
}

/// Adds `n` pieces of kind `k` to zone `(z, p)` (at the end of an ordered zone).
#[inline]
fn zone_add<const W: usize>(cx: &mut Cx<'_, W>, z: u16, p: u8, k: u16, n: i64, span: Span) -> bool {
    // The limit is per kind in a counted zone, in all in an ordered one.
    let held = if cx.t.zones[z as usize].1 {
        zone_total(cx, z, p)
    } else {
        i64::from(cx.st.data[cx.t.counter(z, p, k)])
    };
    if held + n > i64::from(u16::MAX) {
        zone_full(cx, span);
        return false;
    }
    if cx.t.zones[z as usize].1 {
        let i = cx.t.sequence(z, p);
        cx.st.seqs[i].push(k, n as usize);
    } else {
        let i = cx.t.counter(z, p, k);
        cx.st.data[i] += n as u16;
    }
    true
}

/// Takes `n` pieces of kind `k` from zone `(z, p)` (the first ones of an
/// ordered zone); false if there are not enough.
fn zone_take<const W: usize>(cx: &mut Cx<'_, W>, z: u16, p: u8, k: u16, n: i64) -> bool {
    if cx.t.zones[z as usize].1 {
        cx.st.seqs[cx.t.sequence(z, p)].take(k, n as usize)
    } else {
        let i = cx.t.counter(z, p, k);
        if i64::from(cx.st.data[i]) < n {
            return false;
        }
        cx.st.data[i] -= n as u16;
        true
    }
}

/// `add N K to Z` / `take N K from Z`
pub fn zone<const W: usize>(
    count: Option<I<W>>,
    kind: I<W>,
    zone: I<W>,
    add: bool,
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let n = match &count {
            Some(c) => c(cx),
            None => 1,
        };
        check!(cx);
        let k = kind(cx);
        check!(cx);
        let (z, pl) = word::unzone(zone(cx));
        check!(cx);
        if k == i64::from(NONE16) || pl == NONE8 || n < 0 {
            return fail(cx, span);
        }
        let ok = if add {
            zone_add(cx, z, pl, k as u16, n, span)
        } else {
            zone_take(cx, z, pl, k as u16, n)
        };
        check!(cx);
        if ok {
            Ctl::Next
        } else {
            fail(cx, span)
        }
    })
}

/// `move N K from Z to Y` (`N` absent: all)
pub fn transfer<const W: usize>(
    count: Option<I<W>>,
    kind: I<W>,
    from: I<W>,
    to: I<W>,
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let k = kind(cx);
        check!(cx);
        let (z1, p1) = word::unzone(from(cx));
        check!(cx);
        let (z2, p2) = word::unzone(to(cx));
        check!(cx);
        let n = match &count {
            Some(c) => c(cx),
            None if k == i64::from(NONE16) || p1 == NONE8 => 0,
            None => zone_count(cx, z1, p1, k as u16),
        };
        check!(cx);
        if k == i64::from(NONE16) || p1 == NONE8 || p2 == NONE8 || n < 0 {
            return fail(cx, span);
        }
        if !zone_take(cx, z1, p1, k as u16, n) || !zone_add(cx, z2, p2, k as u16, n, span) {
            check!(cx);
            return fail(cx, span);
        }
        Ctl::Next
    })
}

/// Where [`transfer_first`] puts the piece.
pub enum Dest<const W: usize> {
    /// A zone named in the rule (counted or ordered): its id and player.
    Named(u16, Arg<W>),
    /// Any zone, by its zone word.
    Word(I<W>),
}

/// `move first(Z) from Z to Y` for an ordered zone `Z` named in the rule
/// (shared, or of a constant player: sequence `seq`), a draw: [`transfer`]'s
/// checks in the same order, the piece read and taken from the sequence's
/// start directly. `at` is the span of `first(Z)` (its error's).
pub fn transfer_first<const W: usize>(seq: usize, to: Dest<W>, at: Span, span: Span) -> StmtFn<W> {
    Box::new(move |cx| {
        let k = match cx.st.seqs.get(seq).map(crate::state::Seq::first) {
            Some(End::Known(k)) => k,
            Some(End::Unknown) => {
                cx.fr.fail(super::expr::face_down(), at);
                return Ctl::Error;
            }
            _ => NONE16,
        };
        let (z2, p2) = match &to {
            Dest::Named(z, who) => {
                let p = who.get(cx);
                check!(cx);
                (*z, p as u8)
            }
            Dest::Word(f) => {
                let w = f(cx);
                check!(cx);
                word::unzone(w)
            }
        };
        if k == NONE16 || p2 == NONE8 {
            return fail(cx, span);
        }
        // The first piece is the first of its kind.
        let taken = cx.st.seqs.get_mut(seq).is_some_and(|q| q.take(k, 1));
        if !taken || !zone_add(cx, z2, p2, k, 1, span) {
            check!(cx);
            return fail(cx, span);
        }
        Ctl::Next
    })
}

/// [`transfer_first`] to another ordered zone named in the rule, shared or
/// of a constant player (sequence `to`; `move first(deck) from deck to
/// row`): the same checks, failures and errors in the same order, the
/// piece moved from one sequence to the other directly instead of through
/// [`Dest`] and `zone_add`'s tests of the zone's kind. `None` where the two
/// are one sequence.
pub fn transfer_first_seq<const W: usize>(
    seq: usize,
    to: usize,
    at: Span,
    span: Span,
) -> Option<StmtFn<W>> {
    if seq == to {
        return None;
    }
    Some(Box::new(move |cx| {
        let (from, dest) = match cx.st.seqs.split_at_mut_checked(seq.max(to)) {
            Some((a, [b, ..])) if seq < to => (a.get_mut(seq), Some(b)),
            Some((a, [b, ..])) => (Some(b), a.get_mut(to)),
            _ => (None, None),
        };
        let (Some(from), Some(dest)) = (from, dest) else { return fail(cx, span) };
        let k = match from.first() {
            End::Known(k) => k,
            End::Unknown => {
                cx.fr.fail(super::expr::face_down(), at);
                return Ctl::Error;
            }
            End::Empty => return fail(cx, span),
        };
        // The first piece is the first of its kind; an ordered zone's
        // limit is on all its pieces (as `zone_add` asks it).
        if !from.take(k, 1) {
            return fail(cx, span);
        }
        if dest.len() + 1 > usize::from(u16::MAX) {
            zone_full(cx, span);
            return Ctl::Error;
        }
        dest.push(k, 1);
        Ctl::Next
    }))
}

/// [`transfer_first`] to a counted zone named in the rule whose player is
/// a constant, `me` or a word local (`move first(deck) from deck to
/// hand(p)`): the same checks, failures and errors in the same order, the
/// destination's counter found directly instead of through [`Dest`] and
/// `zone_add`'s test of the zone's kind. `None` for another player
/// operand.
pub fn transfer_first_counted<const W: usize>(
    seq: usize,
    (z, who): (u16, &Arg<W>),
    at: Span,
    span: Span,
) -> Option<StmtFn<W>> {
    fn made<const W: usize, P: Plain>(
        seq: usize,
        z: u16,
        who: P,
        at: Span,
        span: Span,
    ) -> StmtFn<W> {
        Box::new(move |cx| {
            // The player cannot raise an error, so reading it first changes
            // nothing: the face-down test still comes before its own.
            let p = who.read(cx) as u8;
            let st = &mut *cx.st;
            let Some(q) = st.seqs.get_mut(seq) else { return fail(cx, span) };
            let k = match q.first() {
                End::Known(k) => k,
                End::Unknown => {
                    cx.fr.fail(super::expr::face_down(), at);
                    return Ctl::Error;
                }
                End::Empty => return fail(cx, span),
            };
            if p == NONE8 {
                return fail(cx, span);
            }
            // The first piece is the first of its kind.
            let i = cx.t.counter(z, p, k);
            if i >= st.data.len() || !q.take(k, 1) {
                return fail(cx, span);
            }
            one_piece(cx, i, true, span)
        })
    }
    match *who {
        Arg::Const(k) => Some(made(seq, z, PConst(k), at, span)),
        Arg::Me => Some(made(seq, z, PMe, at, span)),
        Arg::Slot(i) => Some(made(seq, z, PSlot(i), at, span)),
        Arg::Fn(_) => None,
    }
}

/// A word operand of an effect, read in place when it is a constant,
/// `me` or a word local.
pub enum Arg<const W: usize> {
    /// A constant.
    Const(i64),
    /// `me`
    Me,
    /// A word local.
    Slot(usize),
    /// Anything else, by its closure.
    Fn(I<W>),
}

impl<const W: usize> Arg<W> {
    /// The operand's value.
    #[inline(always)]
    pub fn get(&self, cx: &mut Cx<'_, W>) -> i64 {
        match self {
            Arg::Const(k) => *k,
            Arg::Me => i64::from(cx.st.current),
            Arg::Slot(i) => cx.fr.w[*i],
            Arg::Fn(f) => f(cx),
        }
    }
}

/// [`transfer`] between two counted zones named in the rule (`move card
/// from hand(me) to display(me)`): the same checks in the same order, the
/// counters found from the zones and players directly instead of through
/// a packed zone word and a test of the zone's kind for each.
pub fn transfer_counted<const W: usize>(
    count: Option<Arg<W>>,
    kind: Arg<W>,
    from: (u16, Arg<W>),
    to: (u16, Arg<W>),
    span: Span,
) -> StmtFn<W> {
    let ((z1, who1), (z2, who2)) = (from, to);
    // The commonest shapes (a kind in a local, each player a constant,
    // `me` or a local, all pieces or a constant count) as closures of
    // their own, each operand read without a match.
    if let Arg::Slot(ks) = kind {
        let all = match count {
            None => Some(None),
            Some(Arg::Const(c)) => Some(Some(c)),
            _ => None,
        };
        if let Some(n) = all {
            macro_rules! plain {
                ($a:expr, |$x:ident| $body:expr) => {
                    match $a {
                        Arg::Const(k) => {
                            let $x = PConst(*k);
                            $body
                        }
                        Arg::Me => {
                            let $x = PMe;
                            $body
                        }
                        Arg::Slot(i) => {
                            let $x = PSlot(*i);
                            $body
                        }
                        Arg::Fn(_) => None,
                    }
                };
            }
            let made = plain!(&who1, |a| plain!(&who2, |b| Some(transfer_plain(
                n,
                PSlot(ks),
                (z1, a),
                (z2, b),
                span
            ))));
            if let Some(f) = made {
                return f;
            }
        }
    }
    let plain = |a: &Arg<W>| !matches!(a, Arg::Fn(_));
    if plain(&kind) && plain(&who1) && plain(&who2) && count.as_ref().is_none_or(plain) {
        // No operand can raise an error (constants, `me`, locals): the
        // same checks in the same order, without looking for one.
        return Box::new(move |cx| {
            let (k, p1, p2) = (kind.get(cx), who1.get(cx) as u8, who2.get(cx) as u8);
            let n = count.as_ref().map(|c| c.get(cx));
            counted_values(cx, k, (z1, p1), (z2, p2), n, span)
        });
    }
    Box::new(move |cx| {
        let k = kind.get(cx);
        check!(cx);
        let p1 = who1.get(cx) as u8;
        check!(cx);
        let p2 = who2.get(cx) as u8;
        check!(cx);
        let n = match &count {
            Some(c) => c.get(cx),
            None if k == i64::from(NONE16) || p1 == NONE8 => 0,
            None => i64::from(cx.st.data[cx.t.counter(z1, p1, k as u16)]),
        };
        check!(cx);
        if k == i64::from(NONE16) || p1 == NONE8 || p2 == NONE8 || n < 0 {
            return fail(cx, span);
        }
        let i = cx.t.counter(z1, p1, k as u16);
        if i64::from(cx.st.data[i]) < n {
            return fail(cx, span);
        }
        counted_move(cx, i, cx.t.counter(z2, p2, k as u16), n, span)
    })
}

/// `for q in players { move N K from Z1(q) to Z2(q) }` (see
/// `Compiler::players_transfer`), `kind` a word local or a constant:
/// each player's round as [`for_upto`] runs it (`q` written, a step),
/// then the move as `transfer_plain` makes it — the same rounds, steps,
/// failures and errors, without a call for each move. `None` for another
/// kind operand.
pub fn for_players_transfer<const W: usize>(
    q: usize,
    n: Option<i64>,
    kind: Arg<W>,
    (z1, z2): (u16, u16),
    (outer, inner): (Span, Span),
) -> Option<StmtFn<W>> {
    fn made<const W: usize, K: Plain>(
        q: usize,
        n: Option<i64>,
        kind: K,
        (z1, z2): (u16, u16),
        (outer, inner): (Span, Span),
    ) -> StmtFn<W> {
        Box::new(move |cx| {
            for pl in 0..cx.t.players {
                cx.fr.w[q] = pl as i64;
                if !tick(cx, outer) {
                    return Ctl::Error;
                }
                let k = kind.read(cx);
                let p = cx.fr.w[q] as u8;
                if n.is_none() && k != i64::from(NONE16) && p != NONE8 {
                    // All of a kind: none held moves nothing and cannot
                    // fail, so the destination is not looked at.
                    let i = cx.t.counter(z1, p, k as u16);
                    let held = cx.st.data[i];
                    if held != 0 {
                        let j = cx.t.counter(z2, p, k as u16);
                        match counted_move(cx, i, j, i64::from(held), inner) {
                            Ctl::Next => {}
                            other => return other,
                        }
                    }
                    continue;
                }
                match counted_values(cx, k, (z1, p), (z2, p), n, inner) {
                    Ctl::Next => {}
                    other => return other,
                }
            }
            if cx.fr.err.is_some() {
                Ctl::Error
            } else {
                Ctl::Next
            }
        })
    }
    match kind {
        Arg::Slot(i) => Some(made(q, n, PSlot(i), (z1, z2), (outer, inner))),
        Arg::Const(k) => Some(made(q, n, PConst(k), (z1, z2), (outer, inner))),
        _ => None,
    }
}

/// An operand read without a match (see [`transfer_plain`]).
trait Plain: Copy + Send + Sync + 'static {
    /// The operand's value.
    fn read<const W: usize>(self, cx: &Cx<'_, W>) -> i64;
}

/// A constant operand.
#[derive(Clone, Copy)]
struct PConst(i64);

/// `me`.
#[derive(Clone, Copy)]
struct PMe;

/// A word local.
#[derive(Clone, Copy)]
struct PSlot(usize);

impl Plain for PConst {
    #[inline(always)]
    fn read<const W: usize>(self, _: &Cx<'_, W>) -> i64 {
        self.0
    }
}

impl Plain for PMe {
    #[inline(always)]
    fn read<const W: usize>(self, cx: &Cx<'_, W>) -> i64 {
        i64::from(cx.st.current)
    }
}

impl Plain for PSlot {
    #[inline(always)]
    fn read<const W: usize>(self, cx: &Cx<'_, W>) -> i64 {
        cx.fr.w[self.0]
    }
}

/// [`transfer_counted`] with operands that raise no error, each of a
/// shape known when the closure is made: `n` pieces (all of them for
/// `None`) of kind `kind` from `from` to `to`, the checks of the general
/// closure in the same order.
fn transfer_plain<const W: usize, K: Plain, P: Plain, Q: Plain>(
    n: Option<i64>,
    kind: K,
    (z1, who1): (u16, P),
    (z2, who2): (u16, Q),
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let (k, p1, p2) = (kind.read(cx), who1.read(cx) as u8, who2.read(cx) as u8);
        counted_values(cx, k, (z1, p1), (z2, p2), n, span)
    })
}

/// The move of [`transfer_counted`] once its operands are read (none of
/// which can raise an error): `n` pieces (all of them for `None`) of kind
/// `k` from zone `z1` of player `p1` to zone `z2` of player `p2`.
#[inline(always)]
fn counted_values<const W: usize>(
    cx: &mut Cx<'_, W>,
    k: i64,
    (z1, p1): (u16, u8),
    (z2, p2): (u16, u8),
    n: Option<i64>,
    span: Span,
) -> Ctl {
    if k == i64::from(NONE16) || p1 == NONE8 || p2 == NONE8 {
        return fail(cx, span);
    }
    let i = cx.t.counter(z1, p1, k as u16);
    let held = i64::from(cx.st.data[i]);
    let n = n.unwrap_or(held);
    if n < 0 || held < n {
        return fail(cx, span);
    }
    counted_move(cx, i, cx.t.counter(z2, p2, k as u16), n, span)
}

/// `n` pieces (at most as many as counter `i` holds) moved from counter
/// `i` to counter `j`: taken first, so that a move within one zone never
/// overflows; an error past 65535 pieces.
#[inline(always)]
fn counted_move<const W: usize>(cx: &mut Cx<'_, W>, i: usize, j: usize, n: i64, span: Span) -> Ctl {
    cx.st.data[i] -= n as u16;
    if i64::from(cx.st.data[j]) + n > i64::from(u16::MAX) {
        zone_full(cx, span);
        return Ctl::Error;
    }
    cx.st.data[j] += n as u16;
    Ctl::Next
}

/// [`zone`] on a counted zone named in the rule (`take piece from
/// pool(me)`): the same checks in the same order, the counter found from
/// the zone and player directly.
pub fn zone_counted<const W: usize>(
    count: Option<Arg<W>>,
    kind: Arg<W>,
    (z, who): (u16, Arg<W>),
    add: bool,
    span: Span,
) -> StmtFn<W> {
    if let (None, Arg::Slot(ks), Arg::Me, false) = (&count, &kind, &who, add) {
        // One piece of a kind in a local from the mover's zone (`take
        // piece from pool(me)`): no operand can raise an error.
        let ks = *ks;
        return Box::new(move |cx| {
            let k = cx.fr.w[ks];
            let pl = cx.st.current;
            if k == i64::from(NONE16) || pl == NONE8 {
                return fail(cx, span);
            }
            let i = cx.t.counter(z, pl, k as u16);
            match cx.st.data[i] {
                0 => fail(cx, span),
                held => {
                    cx.st.data[i] = held - 1;
                    Ctl::Next
                }
            }
        });
    }
    if let (None, Arg::Const(k), Arg::Me) = (&count, &kind, &who) {
        // One piece of a named kind to or from the mover's zone (`add Cat
        // to pool(me)`, `take Cat from stock(me)`): no operand can raise
        // an error; the same checks in the same order as below.
        let k = *k;
        return Box::new(move |cx| {
            let pl = cx.st.current;
            if k == i64::from(NONE16) || pl == NONE8 {
                return fail(cx, span);
            }
            let i = cx.t.counter(z, pl, k as u16);
            one_piece(cx, i, add, span)
        });
    }
    Box::new(move |cx| {
        let n = match &count {
            Some(c) => c.get(cx),
            None => 1,
        };
        check!(cx);
        let k = kind.get(cx);
        check!(cx);
        let pl = who.get(cx) as u8;
        check!(cx);
        if k == i64::from(NONE16) || pl == NONE8 || n < 0 {
            return fail(cx, span);
        }
        let i = cx.t.counter(z, pl, k as u16);
        let held = i64::from(cx.st.data[i]);
        if add {
            if held + n > i64::from(u16::MAX) {
                zone_full(cx, span);
                return Ctl::Error;
            }
            cx.st.data[i] += n as u16;
        } else {
            if held < n {
                return fail(cx, span);
            }
            cx.st.data[i] -= n as u16;
        }
        Ctl::Next
    })
}

/// `add kind(c) to Z(owner(c))` / `take kind(c) from Z(owner(c))`: one
/// piece of the kind on a cell, to or from its owner's counted zone (a
/// captured piece going home): [`zone_counted`]'s checks, the piece on
/// the cell read once.
pub fn zone_piece<const W: usize>(z: u16, cell: usize, add: bool, span: Span) -> StmtFn<W> {
    Box::new(move |cx| {
        let v = code_at(cx, cx.fr.w[cell] as CellId);
        if v == 0 {
            // An empty cell has no kind and no owner.
            return fail(cx, span);
        }
        let (pl, k) = cx.t.codes[v as usize];
        let i = cx.t.counter(z, pl, k);
        one_piece(cx, i, add, span)
    })
}

/// `add kind(c) to Z(owner(c))` and then `remove c` (a piece leaving the
/// board for its owner's counted zone) as one closure: [`zone_piece`]'s
/// checks, failure and error at `span` (the `add`'s), then the cell
/// emptied with the piece already read. The `remove` cannot fail there:
/// the cell holds the piece the `add` read.
pub fn piece_home<const W: usize>(z: u16, cell: usize, span: Span) -> StmtFn<W> {
    Box::new(move |cx| piece_home_at(cx, cx.fr.w[cell] as CellId, z, span))
}

/// [`piece_home`] of the piece on cell `c`.
#[inline(always)]
pub fn piece_home_at<const W: usize>(cx: &mut Cx<'_, W>, c: CellId, z: u16, span: Span) -> Ctl {
    let v = code_at(cx, c);
    if v == 0 {
        // An empty cell has no kind and no owner.
        return fail(cx, span);
    }
    let (pl, k) = cx.t.codes[v as usize];
    let i = cx.t.counter(z, pl, k);
    match one_piece(cx, i, true, span) {
        Ctl::Next => {}
        other => return other,
    }
    put_off(cx, c, usize::from(pl), usize::from(k));
    Ctl::Next
}

/// [`put`] of an empty cell on the cell `c`, which holds a piece of player
/// `p` and kind `k`.
#[inline(always)]
fn put_off<const W: usize>(cx: &mut Cx<'_, W>, c: CellId, p: usize, k: usize) {
    let players = cx.t.players;
    let st = &mut *cx.st;
    st.data[c as usize] = 0;
    let (w, bit) = ((c >> 6) as usize, 1u64 << (c & 63));
    if w < W {
        for set in [p, players + k] {
            if let Some(x) = st.bits.get_mut(set * W + w) {
                *x &= !bit;
            }
        }
    }
    cx.fr.epoch += 1;
}

/// Records the error of a zone that would pass 65535 pieces.
#[cold]
fn zone_full<const W: usize>(cx: &mut Cx<'_, W>, span: Span) {
    cx.fr.fail("a zone would hold more than 65535 pieces".into(), span);
}

/// One piece added to (`add`) or taken from zone counter `i`: an error
/// past 65535 pieces, a failure when there is none to take.
#[inline(always)]
fn one_piece<const W: usize>(cx: &mut Cx<'_, W>, i: usize, add: bool, span: Span) -> Ctl {
    let held = cx.st.data[i];
    if add {
        if held == u16::MAX {
            zone_full(cx, span);
            return Ctl::Error;
        }
        cx.st.data[i] = held + 1;
    } else {
        if held == 0 {
            return fail(cx, span);
        }
        cx.st.data[i] = held - 1;
    }
    Ctl::Next
}

/// `shuffle Z`
pub fn shuffle<const W: usize>(z: I<W>, span: Span) -> StmtFn<W> {
    Box::new(move |cx| {
        let (z, pl) = word::unzone(z(cx));
        check!(cx);
        if pl == NONE8 || !cx.t.zones[z as usize].1 {
            return fail(cx, span);
        }
        let i = cx.t.sequence(z, pl);
        let kinds = cx.t.kinds;
        cx.st.seqs[i].shuffle(kinds);
        Ctl::Next
    })
}

/// A ranking key of `compare`.
pub enum CKey<const W: usize> {
    /// A number, higher is better.
    Value(I<W>),
    /// Values over a collection, highest first.
    Desc {
        /// The element's local.
        var: Var,
        /// The collection.
        dom: D<W>,
        /// `where`
        filter: Option<B<W>>,
        /// The value per element.
        body: I<W>,
    },
}

/// `compare p in D by keys [ties share]`
pub fn compare<const W: usize>(
    var: Var,
    dom: D<W>,
    keys: Vec<CKey<W>>,
    share: bool,
    span: Span,
) -> StmtFn<W> {
    // Keys that are numbers, few enough for the fast path below.
    let values = keys.len() <= 4 && keys.iter().all(|k| matches!(k, CKey::Value(_)));
    Box::new(move |cx| {
        let d = dom(cx);
        check!(cx);
        let mut players = Vec::new();
        super::expr::each_ticked(cx, d, var, span, |cx| {
            if let Var::W(i) = var {
                players.push(cx.fr.w[i as usize]);
            }
            true
        });
        if let (true, Var::W(v), true) = (values, var, players.len() <= 8) {
            // Numbers for at most eight players: ranked in place.
            let mut vals = [[0i64; 4]; 8];
            for (pl, row) in players.iter().zip(vals.iter_mut()) {
                cx.fr.w[v as usize] = *pl;
                for (k, x) in keys.iter().zip(row.iter_mut()) {
                    if let CKey::Value(e) = k {
                        *x = e(cx);
                    }
                }
            }
            check!(cx);
            let (outcome, decided_by) = crate::state::rank_by(
                players.len(),
                |i| players.get(i).map_or(0, |&p| p as u8),
                keys.len(),
                share,
                |a, b, m| vals[a][..m].cmp(&vals[b][..m]),
            );
            cx.st.outcome = Some(outcome);
            cx.st.decided_by = decided_by;
            return Ctl::Done;
        }
        let mut scored: Vec<(u8, Vec<Vec<i64>>)> = Vec::new();
        for pl in players {
            if let Var::W(i) = var {
                cx.fr.w[i as usize] = pl;
            }
            let mut ks = Vec::new();
            for k in &keys {
                match k {
                    CKey::Value(e) => ks.push(vec![e(cx)]),
                    CKey::Desc { var, dom, filter, body } => {
                        let d = dom(cx);
                        let mut vals = Vec::new();
                        super::expr::each_ticked(cx, d, *var, span, |cx| {
                            if filter.as_ref().is_none_or(|f| f(cx)) {
                                vals.push(body(cx));
                            }
                            true
                        });
                        vals.sort_unstable_by(|a, b| b.cmp(a));
                        ks.push(vals);
                    }
                }
            }
            scored.push((pl as u8, ks));
        }
        check!(cx);
        let (outcome, decided_by) = crate::state::rank(scored, keys.len(), share);
        cx.st.outcome = Some(outcome);
        cx.st.decided_by = decided_by;
        Ctl::Done
    })
}

/// Runs statements in order until one does not say `Next`.
#[inline(always)]
pub fn run_seq<const W: usize>(cx: &mut Cx<'_, W>, body: &[StmtFn<W>]) -> Ctl {
    for s in body {
        match s(cx) {
            Ctl::Next => {}
            other => return other,
        }
    }
    Ctl::Next
}

/// `f` after the leaf `let`s `lets` (word slot, leaf) are computed, in
/// one closure (pass 26, see `Compiler::push_fused`).
pub fn after_lets<const W: usize>(lets: Vec<(usize, Leaf)>, f: StmtFn<W>) -> StmtFn<W> {
    match lets[..] {
        [] => f,
        [(i, l)] => Box::new(move |cx| {
            cx.fr.w[i] = l.eval(cx);
            f(cx)
        }),
        [(i, l), (j, m)] => Box::new(move |cx| {
            cx.fr.w[i] = l.eval(cx);
            cx.fr.w[j] = m.eval(cx);
            f(cx)
        }),
        _ => Box::new(move |cx| {
            for &(i, l) in &lets {
                cx.fr.w[i] = l.eval(cx);
            }
            f(cx)
        }),
    }
}

/// Leaf `let`s with no statement after them, each its own closure.
pub fn flush_lets<const W: usize>(lets: &mut Vec<(usize, Leaf)>, out: &mut Vec<StmtFn<W>>) {
    for (i, l) in lets.drain(..) {
        out.push(Box::new(move |cx| {
            cx.fr.w[i] = l.eval(cx);
            Ctl::Next
        }));
    }
}

/// A sequence of statements as one.
pub fn seq<const W: usize>(mut body: Vec<StmtFn<W>>) -> StmtFn<W> {
    // Three or four statements written out, each called from a place of
    // its own: one call site for every statement of every sequence is one
    // the processor keeps mispredicting. Two stay in the loop: written
    // out they save instructions but no time (session 25, three copies
    // of each build: Tic-tac-toe 0.99, Hex 1.015, Bug Off! 1.01; session
    // 24's 7% loss on Tic-tac-toe was measured on one file per build,
    // which docs/performance.md shows can mislead by as much).
    match body.len() {
        1 => {
            if let Some(s) = body.pop() {
                return s;
            }
        }
        3 => {
            if let (Some(c), Some(b), Some(a)) = (body.pop(), body.pop(), body.pop()) {
                return Box::new(move |cx| match a(cx) {
                    Ctl::Next => match b(cx) {
                        Ctl::Next => c(cx),
                        other => other,
                    },
                    other => other,
                });
            }
        }
        4 => {
            if let (Some(d), Some(c), Some(b), Some(a)) =
                (body.pop(), body.pop(), body.pop(), body.pop())
            {
                return Box::new(move |cx| match a(cx) {
                    Ctl::Next => match b(cx) {
                        Ctl::Next => match c(cx) {
                            Ctl::Next => d(cx),
                            other => other,
                        },
                        other => other,
                    },
                    other => other,
                });
            }
        }
        _ => {}
    }
    Box::new(move |cx| run_seq(cx, &body))
}

/// `if C { ... } else { ... }` without decisions. `sure`: the condition
/// cannot fail (no error to look for after it).
pub fn if_<const W: usize>(
    c: B<W>,
    mut then: Vec<StmtFn<W>>,
    mut other: Vec<StmtFn<W>>,
    sure: bool,
) -> StmtFn<W> {
    if sure {
        // The common shapes without a loop over one statement or a look
        // for an error no part of the condition can raise.
        match (then.len(), other.len()) {
            (1, 0) => {
                if let Some(t) = then.pop() {
                    return Box::new(move |cx| if c(cx) { t(cx) } else { Ctl::Next });
                }
            }
            (1, 1) => {
                if let (Some(t), Some(o)) = (then.pop(), other.pop()) {
                    return Box::new(move |cx| if c(cx) { t(cx) } else { o(cx) });
                }
            }
            (_, 0) => {
                return Box::new(move |cx| if c(cx) { run_seq(cx, &then) } else { Ctl::Next });
            }
            _ => {}
        }
    }
    if other.is_empty() {
        // No `else`: nothing to run when the condition fails.
        return Box::new(move |cx| {
            let ok = c(cx);
            check!(cx);
            if ok {
                run_seq(cx, &then)
            } else {
                Ctl::Next
            }
        });
    }
    Box::new(move |cx| {
        let ok = c(cx);
        check!(cx);
        run_seq(cx, if ok { &then } else { &other })
    })
}

/// `while C { ... }` without decisions.
pub fn while_<const W: usize>(c: B<W>, body: Vec<StmtFn<W>>, span: Span) -> StmtFn<W> {
    Box::new(move |cx| loop {
        let ok = c(cx);
        check!(cx);
        if !ok {
            return Ctl::Next;
        }
        if !tick(cx, span) {
            return Ctl::Error;
        }
        match run_seq(cx, &body) {
            Ctl::Next => {}
            other => return other,
        }
    })
}

/// [`for_`] over the kinds a counted zone named in the rule holds (`for k
/// in display(q) where ...`), its player read in place (`who` is never a
/// closure): the same kinds in the same order (each kind with pieces,
/// the counters read again after every round), the same steps and
/// errors, without a closure and a match for the collection.
pub fn for_kinds<const W: usize>(
    z: u16,
    who: Arg<W>,
    var: Var,
    filter: Option<B<W>>,
    body: Vec<StmtFn<W>>,
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let pl = who.get(cx) as u8;
        check!(cx);
        if pl == NONE8 {
            return Ctl::Next;
        }
        if let Some(ctl) = walk_kinds(cx, z, pl, var, (&filter, ()), &body, span) {
            return ctl;
        }
        if cx.fr.err.is_some() {
            Ctl::Error
        } else {
            Ctl::Next
        }
    })
}

/// The rounds of [`for_kinds`] over zone `z` of player `pl`: each kind
/// with pieces in order, the counters read again after every round.
/// `Some`: the loop stops with that.
#[inline(always)]
fn walk_kinds<const W: usize, F: RoundFilter<W>>(
    cx: &mut Cx<'_, W>,
    z: u16,
    pl: u8,
    var: Var,
    filter: (&F, F::Fixed),
    body: &[StmtFn<W>],
    span: Span,
) -> Option<Ctl> {
    let (base, kinds) = (cx.t.counter(z, pl, 0), cx.t.kinds);
    let mut i = 0usize;
    while let Some(j) = cx.st.data.get(base + i..base + kinds).and_then(first_held) {
        let k = i + j;
        i = k + 1;
        if let Some(ctl) = for_round(cx, var, k as i64, filter, body, span) {
            return Some(ctl);
        }
    }
    None
}

/// The first counter of `c` above 0: four at a time (a zone's kinds are
/// mostly not held).
#[inline(always)]
pub fn first_held(c: &[u16]) -> Option<usize> {
    let mut chunks = c.chunks_exact(4);
    let mut at = 0;
    for q in &mut chunks {
        let w =
            u64::from(q[0]) | u64::from(q[1]) << 16 | u64::from(q[2]) << 32 | u64::from(q[3]) << 48;
        if w != 0 {
            return Some(at + (w.trailing_zeros() / 16) as usize);
        }
        at += 4;
    }
    chunks.remainder().iter().position(|&n| n > 0).map(|j| at + j)
}

/// `for q in players { for k in Z(q) where F { ... } }` (see
/// `Compiler::players_kinds`): each player's round as [`for_upto`] runs
/// it (`q` written, a step), then that player's kinds as [`for_kinds`]
/// walks them (each kind with pieces, the counters read again after every
/// round) — the same rounds, steps and errors, without a call for each
/// player's walk. `spans`: the outer loop's and the inner one's.
///
/// The filter's part that no round changes ([`RoundFilter::fixed`]) is
/// read once, before the first round.
pub fn for_players_kinds<const W: usize, F: RoundFilter<W>>(
    q: usize,
    z: u16,
    var: Var,
    filter: F,
    body: Vec<StmtFn<W>>,
    (outer, inner): (Span, Span),
) -> StmtFn<W> {
    Box::new(move |cx| {
        let fixed = filter.fixed(cx);
        for pl in 0..cx.t.players {
            cx.fr.w[q] = pl as i64;
            if !tick(cx, outer) {
                return Ctl::Error;
            }
            if let Some(ctl) = walk_kinds(cx, z, pl as u8, var, (&filter, fixed), &body, inner) {
                return ctl;
            }
            if cx.fr.err.is_some() {
                return Ctl::Error;
            }
        }
        if cx.fr.err.is_some() {
            Ctl::Error
        } else {
            Ctl::Next
        }
    })
}

/// One round of a `for` without decisions over element `v`: the loop's
/// local, the round's step, the filter, the body. `Some`: the loop stops
/// with that (an error, the turn's end, a failure).
#[inline(always)]
fn for_round<const W: usize, F: RoundFilter<W>>(
    cx: &mut Cx<'_, W>,
    var: Var,
    v: i64,
    (filter, fixed): (&F, F::Fixed),
    body: &[StmtFn<W>],
    span: Span,
) -> Option<Ctl> {
    if let Var::W(x) = var {
        cx.fr.w[x as usize] = v;
    }
    if !tick(cx, span) {
        return Some(Ctl::Error);
    }
    let ok = filter.pass(cx, fixed);
    if cx.fr.err.is_some() {
        return Some(Ctl::Error);
    }
    if !ok {
        return None;
    }
    let ctl = match body {
        [one] => one(cx),
        body => run_seq(cx, body),
    };
    (ctl != Ctl::Next).then_some(ctl)
}

/// A `for` round's filter as `for_round` asks it: a condition's
/// closure (or none), or a form whose part that no round changes is read
/// once per loop (pass 41: `opt::kinds::KindQuant`).
pub trait RoundFilter<const W: usize>: Send + Sync + 'static {
    /// What the filter reads that no round of the loop changes.
    type Fixed: Copy;
    /// Reads it, before the first round.
    fn fixed(&self, cx: &mut Cx<'_, W>) -> Self::Fixed;
    /// Whether the round's element passes (an error recorded in the frame).
    fn pass(&self, cx: &mut Cx<'_, W>, fixed: Self::Fixed) -> bool;
}

impl<const W: usize> RoundFilter<W> for Option<B<W>> {
    type Fixed = ();
    #[inline(always)]
    fn fixed(&self, _: &mut Cx<'_, W>) {}
    #[inline(always)]
    fn pass(&self, cx: &mut Cx<'_, W>, _: ()) -> bool {
        self.as_ref().is_none_or(|f| f(cx))
    }
}

/// What [`for_upto`] counts up to: a count of the game's.
#[derive(Clone, Copy)]
pub enum Upto {
    /// `players`.
    Players,
    /// `dirs`.
    Dirs,
    /// `kinds`.
    Kinds,
}

/// [`for_`] over `players`, `dirs` or `kinds` (the numbers from 0 to the
/// game's count of them): the same rounds, steps and errors, without a
/// collection made and walked through a closure.
pub fn for_upto<const W: usize>(
    upto: Upto,
    var: Var,
    filter: Option<B<W>>,
    body: Vec<StmtFn<W>>,
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let n = match upto {
            Upto::Players => cx.t.players,
            Upto::Dirs => cx.t.dirs,
            Upto::Kinds => cx.t.kinds,
        };
        for v in 0..n {
            if let Some(ctl) = for_round(cx, var, v as i64, (&filter, ()), &body, span) {
                return ctl;
            }
        }
        if cx.fr.err.is_some() {
            Ctl::Error
        } else {
            Ctl::Next
        }
    })
}

/// `for x in D where F { ... }` without decisions.
pub fn for_<const W: usize>(
    coll: D<W>,
    var: Var,
    filter: Option<B<W>>,
    body: Vec<StmtFn<W>>,
    span: Span,
) -> StmtFn<W> {
    Box::new(move |cx| {
        let d: Dom<W> = coll(cx);
        check!(cx);
        let mut ctl = Ctl::Next;
        each(cx, d, var, |cx| {
            if !tick(cx, span) {
                ctl = Ctl::Error;
                return false;
            }
            if let Some(f) = &filter {
                let ok = f(cx);
                if cx.fr.err.is_some() {
                    ctl = Ctl::Error;
                    return false;
                }
                if !ok {
                    return true;
                }
            }
            match run_seq(cx, &body) {
                Ctl::Next => true,
                other => {
                    ctl = other;
                    false
                }
            }
        });
        if ctl == Ctl::Next && cx.fr.err.is_some() {
            return Ctl::Error;
        }
        ctl
    })
}

#[cfg(test)]
mod tests {
    use super::first_held;

    #[test]
    fn first_held_is_the_first_counter_above_zero() {
        // Every pattern of held (any count above 0, up to 65535) and
        // empty counters on up to 10 kinds, against a plain search.
        for len in 0..=10usize {
            for bits in 0u32..1 << len {
                let c: Vec<u16> = (0..len)
                    .map(|k| if bits >> k & 1 != 0 { [1, 7, u16::MAX][k % 3] } else { 0 })
                    .collect();
                assert_eq!(first_held(&c), c.iter().position(|&n| n > 0), "{c:?}");
            }
        }
    }
}
