//! Pass 33 at run time: perft's count of a position's moves at its last
//! ply, where the turn has a [`LeafCount`] — it begins with a `choose`
//! among the kinds of a counted zone (`choose card in hand(me)`), or with
//! an `either` whose arms each begin with one, each with a sure tail whose
//! zones are known at load.
//!
//! A search counts such a position from its first decision
//! (`Searcher::count_at`): it spends the arms from the turn's budget of
//! choices, then per arm tells the options from the zone's counters
//! (`machine::count_options`, counting them as steps), spends them, and
//! asks the arm's sure tail (its bounds, then its zones), or for an arm
//! that counts alike an earlier one (`SiteInfo::counts_like`) only its
//! bounds. [`count`] asks the same questions of the position in the same
//! order, with the same budget and steps, without a level, a frame or a
//! searcher; where any of them would not hold (an error, a tail that
//! does not hold, no move at all) it gives up, and the search counts as
//! before, so its answers, errors included, are the search's.

use crate::compile::{LeafCount, Program, ALIKE_ARMS};
use crate::state::State;

/// What the plan asks of one position at the start of a turn besides
/// its zones: the budget left (the arms spent already, for an
/// `either`), and the pieces the zones hold (they are the pieces at the
/// turn's start too), counted once if asked.
struct Asking<'a, const W: usize> {
    p: &'a Program<W>,
    s: &'a State,
    budget: u64,
    /// The caller's bound on the pieces (`Program::fixed_pieces`).
    pieces: Option<u64>,
    now: Option<u64>,
}

impl<'a, const W: usize> Asking<'a, W> {
    /// The questions begun: `None` when the arms pass the budget.
    #[inline(always)]
    fn new(p: &'a Program<W>, plan: &LeafCount, s: &'a State, pieces: Option<u64>) -> Option<Self> {
        let mut a = Asking { p, s, budget: u64::from(p.t.max_choices), pieces, now: None };
        if plan.either {
            a.spend(plan.arms.len() as u64)?;
        }
        Some(a)
    }

    /// `n` options taken from the budget; `None` past it.
    #[inline(always)]
    fn spend(&mut self, n: u64) -> Option<()> {
        self.budget = self.budget.checked_sub(n)?;
        Some(())
    }

    /// The pieces a sure tail's bounds are asked with, as the search asks
    /// them (`Searcher::sure_pieces`): the caller's bound for a turn
    /// without `add`, else the zones' pieces now.
    #[inline(always)]
    fn pieces(&mut self, no_adds: bool) -> u64 {
        match (no_adds, self.pieces) {
            (true, Some(n)) => n,
            _ => *self.now.get_or_insert_with(|| self.s.zone_pieces(self.p.t.counter_base)),
        }
    }
}

impl<const W: usize> Asking<'_, W> {
    /// Arm `arm`'s options (`t` its sure tail): the kinds its zone holds,
    /// each a step of the listing; when there are some, spent and the sure
    /// tail asked with those steps (its step bound covers the listing's
    /// alone). `None` where that does not hold.
    #[inline(always)]
    fn options(
        &mut self,
        arm: &crate::compile::LeafArm,
        t: &crate::compile::SureTail<W>,
    ) -> Option<u32> {
        let (p, s) = (self.p, self.s);
        let n = crate::compile::kinds_held(arm.counts(&p.t, s)?);
        if n > 0 {
            self.spend(u64::from(n))?;
            let pieces = self.pieces(t.no_adds);
            if !tail_holds(p, t, pieces, n, s) {
                return None;
            }
        }
        Some(n)
    }

    /// Arm `i`'s options as the search counts them: for an arm that
    /// counts alike an earlier one (`Searcher::count_like`), as many as
    /// that arm, the budget spent and only this tail's bounds asked (its
    /// zones' questions are the earlier arm's, whose answers held); else
    /// (`Searcher::count_unlisted`) [`Asking::options`], recorded in
    /// `held` (`u32::MAX`: not listed) for the arms alike it.
    #[inline(always)]
    fn arm(
        &mut self,
        (i, arm): (usize, &crate::compile::LeafArm),
        held: &mut [u32; ALIKE_ARMS],
    ) -> Option<u32> {
        let p = self.p;
        let t = p.sure_tails.get(arm.site as usize)?.as_ref()?;
        let like = arm.like.and_then(|l| held.get(l as usize).copied().filter(|&n| n != u32::MAX));
        match like {
            Some(0) => Some(0),
            Some(n) => {
                self.spend(u64::from(n))?;
                let pieces = self.pieces(t.no_adds);
                super::search::sure_bound(p, t, pieces, n).then_some(n)
            }
            None => {
                let n = self.options(arm, t)?;
                if let Some(h) = held.get_mut(i) {
                    *h = n;
                }
                Some(n)
            }
        }
    }
}

/// The moves of position `s` (a position at the start of a turn, not
/// over, no turn under way) as a search would count them; `None` where
/// the search must count (see the module's notes), and for no move.
/// `pieces`: a bound on the pieces all zones hold, where the caller has
/// one (`Program::fixed_pieces`), as the search is told it.
#[inline]
pub(super) fn count<const W: usize>(
    p: &Program<W>,
    plan: &LeafCount,
    s: &State,
    pieces: Option<u64>,
) -> Option<u64> {
    let mut ask = Asking::new(p, plan, s, pieces)?;
    let mut held = [u32::MAX; ALIKE_ARMS];
    let mut total = 0;
    for arm in plan.arms.iter().enumerate() {
        total += u64::from(ask.arm(arm, &mut held)?);
    }
    (total > 0).then_some(total)
}

/// `search::sure_tail_holds` at the start of a turn, `steps` taken: its
/// zones are known at load ([`crate::compile::ZoneRef::Seq`]), read in
/// the position.
#[inline(always)]
fn tail_holds<const W: usize>(
    p: &Program<W>,
    t: &crate::compile::SureTail<W>,
    pieces: u64,
    steps: u32,
    s: &State,
) -> bool {
    use super::search::{face_up_holds, sure_bound, until_holds};
    let seq = |z: &crate::compile::ZoneRef<W>| match z {
        crate::compile::ZoneRef::Seq(i) => s.seqs.get(*i),
        crate::compile::ZoneRef::Word(_) => None,
    };
    sure_bound(p, t, pieces, steps)
        && t.face_up.iter().all(|z| face_up_holds(seq(z)))
        && t.until.iter().all(|(z, stops)| until_holds(seq(z), stops))
}

/// Whether perft below position `s` may walk the plan's moves itself
/// ([`moves`]): every arm's options, as the search lists them (the kinds
/// held, each a step), fit the budget, and each arm with options has its
/// sure tail holding, with the listing's steps taken. The search would
/// then hand every arm's options over unrun (a sure tail; the chance
/// tail, whose zone end is face down, cannot hold with it) in this order,
/// spending the same budget: nothing it asks later can differ. `None`
/// where not (the search walks, raising any error itself), or there is no
/// move; else each arm's options (at most [`ALIKE_ARMS`] arms).
pub(super) fn walkable<const W: usize>(
    p: &Program<W>,
    plan: &LeafCount,
    s: &State,
    pieces: Option<u64>,
) -> Option<[u32; ALIKE_ARMS]> {
    let mut out = [0; ALIKE_ARMS];
    if p.reads_start || p.group_lists || plan.arms.len() > ALIKE_ARMS {
        return None;
    }
    let mut ask = Asking::new(p, plan, s, pieces)?;
    let mut held = [u32::MAX; ALIKE_ARMS];
    for (arm, slot) in plan.arms.iter().enumerate().zip(&mut out) {
        *slot = ask.arm(arm, &mut held)?;
    }
    out.iter().any(|&n| n > 0).then_some(out)
}
