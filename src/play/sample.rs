//! Positions a player cannot tell apart: random full positions consistent
//! with what a viewer sees, for searches that must not peek (information-
//! set Monte Carlo tree search, [`super::mcts`]).
//!
//! Everything the sampler knows comes from the zones' visibility
//! declarations, the same ones [`crate::wire::observe`] reads: the board and
//! every zone the viewer may see are copied; the pieces of every zone the
//! viewer may not see are pooled (that multiset is what the viewer can
//! infer: all pieces minus the seen ones) and dealt back at random into
//! those zones, each receiving as many pieces as it holds (sizes are
//! public). An ordered zone receives its pieces face down (its `middle`):
//! an unseen order does not exist for the viewer.
//!
//! The pool is built as a count per kind, so its order is canonical: two
//! positions that differ only in what the viewer cannot see give the same
//! samples for the same random source.
//!
//! A turn under way (after a chance event, [`State::pending`]) keeps its
//! events: the position at the start of the turn is sampled, and a sample
//! whose events no longer replay (a card drawn that the sample does not
//! hold where it was drawn from) is drawn again.

use crate::ir::Visibility;
use crate::rng::Rng;
use crate::state::{RunError, Seq, State};
use crate::Game;

/// Most draws tried for a turn under way before giving up.
const TRIES: usize = 1000;

/// Whether `viewer` may see the contents of instance `owner` of zone `z`.
pub fn can_see(g: &Game, z: usize, owner: u8, viewer: u8) -> bool {
    let zone = &g.zones[z];
    match zone.visibility {
        Visibility::Public => true,
        Visibility::Owner => zone.per_player && owner == viewer,
        Visibility::Hidden => false,
    }
}

/// The zone instances `viewer` cannot see, in canonical order (zone, then owner).
fn unseen(g: &Game, viewer: u8) -> Vec<(u16, u8)> {
    let mut out = Vec::new();
    for (z, zone) in g.zones.iter().enumerate() {
        let owners = if zone.per_player { g.players.len() as u8 } else { 1 };
        for p in 0..owners {
            if !can_see(g, z, p, viewer) {
                out.push((z as u16, p));
            }
        }
    }
    out
}

/// What `viewer` knows of the unseen zones: how many of each kind they
/// hold together, and each zone's size.
fn pool(g: &Game, s: &State, zones: &[(u16, u8)]) -> (Vec<u32>, Vec<usize>) {
    let kinds = g.kinds.len();
    let mut pool = vec![0u32; kinds];
    let mut sizes = Vec::with_capacity(zones.len());
    for &(z, p) in zones {
        let mut size = 0;
        if g.zones[z as usize].ordered {
            let seq = s.sequence(g, z, p);
            for k in 0..kinds as u16 {
                let n = seq.count(k);
                pool[k as usize] += n as u32;
                size += n;
            }
        } else {
            for k in 0..kinds as u16 {
                let n = s.count(g, z, p, k) as usize;
                pool[k as usize] += n as u32;
                size += n;
            }
        }
        sizes.push(size);
    }
    (pool, sizes)
}

/// A random full position that `viewer` cannot tell from `s` (see the
/// module documentation). Without hidden zones, `s` itself.
pub fn sample(g: &Game, s: &State, viewer: u8, rng: &mut Rng) -> Result<State, RunError> {
    let zones = unseen(g, viewer);
    if zones.is_empty() {
        return Ok(s.clone());
    }
    let (pool, sizes) = pool(g, s, &zones);
    let Some(pending) = s.pending.clone() else {
        let mut t = s.clone();
        deal(g, &mut t, &zones, &pool, &sizes, rng);
        return Ok(t);
    };
    // A turn under way: sample its start, keep the events if they replay.
    let mut last = None;
    for _ in 0..TRIES {
        let mut t = s.clone();
        t.pending = None;
        deal(g, &mut t, &zones, &pool, &sizes, rng);
        t.pending = Some(pending.clone());
        if replays(g, &t) {
            return Ok(t);
        }
        last = Some(t);
    }
    // No consistent deal found by chance: the last one (its events may not
    // replay; searches then see the rule error and skip the sample).
    Ok(last.unwrap_or_else(|| s.clone()))
}

/// Deals the pool into the unseen zones of `t`, each with its size.
fn deal(
    g: &Game,
    t: &mut State,
    zones: &[(u16, u8)],
    pool: &[u32],
    sizes: &[usize],
    rng: &mut Rng,
) {
    let mut cards: Vec<u16> = pool
        .iter()
        .enumerate()
        .flat_map(|(k, &n)| std::iter::repeat_n(k as u16, n as usize))
        .collect();
    for j in (1..cards.len()).rev() {
        cards.swap(j, rng.below(j + 1));
    }
    let kinds = g.kinds.len();
    let mut next = 0;
    for (&(z, p), &size) in zones.iter().zip(sizes) {
        let hand = &cards[next..next + size];
        next += size;
        let mut counts = vec![0u16; kinds];
        for &k in hand {
            counts[k as usize] += 1;
        }
        if g.zones[z as usize].ordered {
            let seq = if size == 0 {
                Seq::default()
            } else {
                Seq::from_parts(Vec::new(), counts, Vec::new())
            };
            t.set_sequence(g, z, p, seq);
        } else {
            for (k, &n) in counts.iter().enumerate() {
                t.set_count(g, z, p, k as u16, n);
            }
        }
    }
}

/// Whether the turn under way in `t` goes on from its start: its events
/// replay, and it reaches its next chance event or decision.
fn replays(g: &Game, t: &State) -> bool {
    match t.pending.as_deref() {
        None => true,
        Some(pd) if pd.chance => t.chance_outcomes(g).is_ok_and(|o| !o.is_empty()),
        Some(_) => t.legal_moves(g).is_ok_and(|m| !m.is_empty()),
    }
}
