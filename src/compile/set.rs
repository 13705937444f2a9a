//! `Set<W>`: a set of cells as `W` machine words. The compiled evaluator is
//! generic over `W` and instantiated with the smallest width that holds the
//! board (one word up to 64 cells, two up to 128, four up to 256), so cell
//! sets on small boards are single `u64`s.

use crate::board::{CellId, CellSet, NO_CELL};

/// A set of cells in `W` words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Set<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Set<W> {
    fn default() -> Self {
        Set([0; W])
    }
}

impl<const W: usize> Set<W> {
    /// The empty set.
    pub const EMPTY: Set<W> = Set([0; W]);

    /// Whether the set holds `c` (false for [`NO_CELL`] and cells beyond `W` words).
    #[inline(always)]
    pub fn contains(&self, c: CellId) -> bool {
        let i = (c >> 6) as usize;
        i < W && self.0[i] & (1 << (c & 63)) != 0
    }

    /// Adds `c` (ignored for cells beyond `W` words, e.g. [`NO_CELL`]).
    #[inline(always)]
    pub fn insert(&mut self, c: CellId) {
        let i = (c >> 6) as usize;
        if i < W {
            self.0[i] |= 1 << (c & 63);
        }
    }

    /// Removes `c`.
    #[inline(always)]
    pub fn remove(&mut self, c: CellId) {
        let i = (c >> 6) as usize;
        if i < W {
            self.0[i] &= !(1 << (c & 63));
        }
    }

    /// `self ∪ o`
    #[inline(always)]
    pub fn or(self, o: Set<W>) -> Set<W> {
        let mut r = self;
        for i in 0..W {
            r.0[i] |= o.0[i];
        }
        r
    }

    /// `self ∩ o`
    #[inline(always)]
    pub fn and(self, o: Set<W>) -> Set<W> {
        let mut r = self;
        for i in 0..W {
            r.0[i] &= o.0[i];
        }
        r
    }

    /// `self ∖ o`
    #[inline(always)]
    pub fn minus(self, o: Set<W>) -> Set<W> {
        let mut r = self;
        for i in 0..W {
            r.0[i] &= !o.0[i];
        }
        r
    }

    /// Whether `self ∩ o` is not empty.
    #[inline(always)]
    pub fn meets(self, o: Set<W>) -> bool {
        (0..W).any(|i| self.0[i] & o.0[i] != 0)
    }

    /// Whether `self ⊆ o`.
    #[inline(always)]
    pub fn within(self, o: Set<W>) -> bool {
        (0..W).all(|i| self.0[i] & !o.0[i] == 0)
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Number of cells.
    #[inline(always)]
    pub fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The smallest cell, if any.
    #[inline(always)]
    pub fn first(self) -> Option<CellId> {
        for i in 0..W {
            if self.0[i] != 0 {
                return Some((i as u32 * 64 + self.0[i].trailing_zeros()) as CellId);
            }
        }
        None
    }

    /// The largest cell, if any.
    #[inline(always)]
    pub fn last(self) -> Option<CellId> {
        for i in (0..W).rev() {
            if self.0[i] != 0 {
                return Some((i as u32 * 64 + 63 - self.0[i].leading_zeros()) as CellId);
            }
        }
        None
    }

    /// The cells of the set below cell `c`.
    #[inline(always)]
    pub fn below(self, c: CellId) -> Set<W> {
        let mut out = self;
        let (w, b) = ((c >> 6) as usize, c & 63);
        for i in 0..W {
            if i > w {
                out.0[i] = 0;
            } else if i == w {
                out.0[i] &= (1u64 << b) - 1;
            }
        }
        out
    }

    /// The cells of the set above cell `c`.
    #[inline(always)]
    pub fn above(self, c: CellId) -> Set<W> {
        let mut out = self;
        let (w, b) = ((c >> 6) as usize, c & 63);
        for i in 0..W {
            if i < w {
                out.0[i] = 0;
            } else if i == w {
                out.0[i] &= if b == 63 { 0 } else { u64::MAX << (b + 1) };
            }
        }
        out
    }

    /// The `k`-th smallest cell (from 0), if the set has that many.
    #[inline]
    pub fn nth(self, k: usize) -> Option<CellId> {
        let mut k = k as u32;
        for i in 0..W {
            let mut w = self.0[i];
            let n = w.count_ones();
            if k >= n {
                k -= n;
                continue;
            }
            // Select the k-th set bit of w: halve the range by popcounts.
            let mut pos = 0u32;
            for shift in [32u32, 16, 8, 4, 2, 1] {
                let low = (w & ((1u64 << shift) - 1)).count_ones();
                if k >= low {
                    k -= low;
                    w >>= shift;
                    pos += shift;
                }
            }
            return Some((i as u32 * 64 + pos) as CellId);
        }
        None
    }

    /// Removes and returns the smallest cell.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<CellId> {
        for i in 0..W {
            let w = self.0[i];
            if w != 0 {
                self.0[i] = w & (w - 1);
                return Some((i as u32 * 64 + w.trailing_zeros()) as CellId);
            }
        }
        None
    }

    /// The cells in increasing order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = CellId> {
        let mut s = self;
        std::iter::from_fn(move || s.pop())
    }

    /// A one-cell set (empty for [`NO_CELL`]).
    #[inline(always)]
    pub fn one(c: CellId) -> Set<W> {
        let mut s = Set::EMPTY;
        if c != NO_CELL {
            s.insert(c);
        }
        s
    }

    /// The set moved down by `n` cells (`n < 0`: up): cell `c + n` becomes
    /// `c`; cells that fall off either end are dropped.
    #[inline(always)]
    pub fn shift_down(self, n: i32) -> Set<W> {
        let mut r = Set::EMPTY;
        if W == 1 {
            // One word (boards of up to 64 cells): a plain shift.
            let x = self.0[0];
            r.0[0] = match n {
                0..=63 => x >> n,
                -63..=-1 => x << -n,
                _ => 0,
            };
            return r;
        }
        if n >= 0 {
            let (q, b) = ((n / 64) as usize, (n % 64) as u32);
            for i in 0..W {
                let lo = self.0.get(i + q).copied().unwrap_or(0);
                let hi = self.0.get(i + q + 1).copied().unwrap_or(0);
                r.0[i] = if b == 0 { lo } else { (lo >> b) | (hi << (64 - b)) };
            }
        } else {
            let m = -n;
            let (q, b) = ((m / 64) as usize, (m % 64) as u32);
            for i in 0..W {
                let lo = if i >= q { self.0[i - q] } else { 0 };
                let lower = if i > q { self.0[i - q - 1] } else { 0 };
                r.0[i] = if b == 0 { lo } else { (lo << b) | (lower >> (64 - b)) };
            }
        }
        r
    }

    /// From the interpreter's 256-bit set (cells beyond `W` words are dropped).
    pub fn from_cells(c: &CellSet) -> Set<W> {
        let mut s = Set::EMPTY;
        for i in 0..W.min(4) {
            s.0[i] = c.0[i];
        }
        s
    }

    /// To the interpreter's 256-bit set.
    pub fn to_cells(self) -> CellSet {
        let mut c = CellSet::EMPTY;
        for i in 0..W.min(4) {
            c.0[i] = self.0[i];
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_agree_with_their_definitions() {
        let mut a: Set<2> = Set::EMPTY;
        for c in [0, 5, 63, 64, 100] {
            a.insert(c);
        }
        let b = Set::<2>::one(64).or(Set::one(7));
        assert_eq!(a.len(), 5);
        assert!(a.contains(100) && !a.contains(101) && !a.contains(NO_CELL));
        assert_eq!(a.and(b).iter().collect::<Vec<_>>(), [64]);
        assert_eq!(a.minus(b).iter().collect::<Vec<_>>(), [0, 5, 63, 100]);
        assert!(a.meets(b) && !a.within(b) && a.and(b).within(a));
        assert_eq!(a.first(), Some(0));
        assert_eq!(Set::<2>::from_cells(&a.to_cells()), a);
        assert_eq!(Set::<1>::one(NO_CELL), Set::EMPTY);
        let s = Set::<2>::one(70).or(Set::one(3));
        assert_eq!(s.shift_down(3).iter().collect::<Vec<_>>(), [0, 67]);
        assert_eq!(s.shift_down(-60).iter().collect::<Vec<_>>(), [63]);
        assert_eq!(s.shift_down(-64).iter().collect::<Vec<_>>(), [67]);
        assert_eq!(s.shift_down(64).iter().collect::<Vec<_>>(), [6]);
    }

    #[test]
    fn nth_is_the_kth_cell_in_order() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200 {
            let mut s = Set::<2>::EMPTY;
            for w in s.0.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *w = seed & (seed >> 3);
            }
            let cells: Vec<_> = s.iter().collect();
            for (k, &c) in cells.iter().enumerate() {
                assert_eq!(s.nth(k), Some(c));
            }
            assert_eq!(s.nth(cells.len()), None);
        }
        assert_eq!(Set::<1>([u64::MAX]).nth(63), Some(63));
    }
}
