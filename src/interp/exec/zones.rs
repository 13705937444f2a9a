//! Zones (counted and ordered) and `compare`.

use super::{bug, Exec, Res};
use crate::ir::{Expr, Key, Slot, Value};
use crate::source::Span;
use crate::state::{Outcome, RunError};

impl Exec<'_, '_> {
    /// `compare`: each player's keys, compared in order (lists element by
    /// element, a missing element counting 0); the best player wins, a tie
    /// of everybody is a draw, a tie of some is a shared win.
    pub(super) fn compare(
        &mut self,
        slot: Slot,
        domain: &Expr,
        keys: &[Key],
        share: bool,
        span: Span,
    ) -> Res<(Outcome, Option<u8>)> {
        let d = self.eval(domain)?;
        let mut scored: Vec<(u8, Vec<Vec<i64>>)> = Vec::new();
        let mut i = 0;
        while let Some((v, n)) = self.next_elem(d, i) {
            i = n;
            self.tick(span)?;
            let Value::Player(p) = v else { return Err(bug(Span::default())) };
            self.frame.slots[slot as usize] = v;
            let mut ks = Vec::new();
            for k in keys {
                match k {
                    Key::Value(e) => ks.push(vec![self.int(e)?]),
                    Key::Descending { slot, domain, filter, body } => {
                        let d = self.eval(domain)?;
                        let mut vals = Vec::new();
                        let mut j = 0;
                        while let Some((v, n)) = self.next_elem(d, j) {
                            j = n;
                            self.tick(span)?;
                            self.frame.slots[*slot as usize] = v;
                            if let Some(f) = filter {
                                if !self.truth(f)? {
                                    continue;
                                }
                            }
                            vals.push(self.int(body)?);
                        }
                        vals.sort_unstable_by(|a, b| b.cmp(a));
                        ks.push(vals);
                    }
                }
            }
            scored.push((p, ks));
        }
        Ok(crate::state::rank(scored, keys.len(), share))
    }

    pub(super) fn zone_count(&self, z: u16, p: u8, k: u16) -> i64 {
        if self.g.zones[z as usize].ordered {
            self.st.seqs[self.g.sequence(z, p)].count(k) as i64
        } else {
            i64::from(self.st.data[self.g.board.len() + self.g.counter(z, p, k)])
        }
    }

    pub(super) fn zone_total(&self, z: u16, p: u8) -> i64 {
        if self.g.zones[z as usize].ordered {
            self.st.seqs[self.g.sequence(z, p)].len() as i64
        } else {
            (0..self.g.kinds.len() as u16).map(|k| self.zone_count(z, p, k)).sum()
        }
    }

    /// Adds `n` pieces of kind `k` (at the end of an ordered zone).
    pub(super) fn zone_add(&mut self, z: u16, p: u8, k: u16, n: i64, span: Span) -> Res<bool> {
        // The limit is per kind in a counted zone, in all in an ordered one.
        let held = if self.g.zones[z as usize].ordered {
            self.zone_total(z, p)
        } else {
            self.zone_count(z, p, k)
        };
        if held + n > i64::from(u16::MAX) {
            return Err(RunError::new("a zone would hold more than 65535 pieces", span));
        }
        if self.g.zones[z as usize].ordered {
            let i = self.g.sequence(z, p);
            self.st.seqs[i].push(k, n as usize);
        } else {
            let i = self.g.board.len() + self.g.counter(z, p, k);
            self.st.data[i] += n as u16;
        }
        Ok(true)
    }

    /// Takes `n` pieces of kind `k` (the first ones of an ordered zone);
    /// false if there are not enough.
    pub(super) fn zone_take(&mut self, z: u16, p: u8, k: u16, n: i64) -> bool {
        if self.zone_count(z, p, k) < n {
            return false;
        }
        if self.g.zones[z as usize].ordered {
            let i = self.g.sequence(z, p);
            self.st.seqs[i].take(k, n as usize);
        } else {
            let i = self.g.board.len() + self.g.counter(z, p, k);
            self.st.data[i] -= n as u16;
        }
        true
    }
}
