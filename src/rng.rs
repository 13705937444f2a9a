//! A small seeded random number generator (SplitMix64): reproducible
//! playouts and engine moves from `--seed`, with no global state.

/// SplitMix64: fast, good enough for random playouts, fully determined by its seed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// An index drawn with the given weights (uniform when there are none).
pub fn pick_weighted(weights: &[u32], n: usize, rng: &mut Rng) -> Option<usize> {
    if n == 0 {
        return None;
    }
    if weights.is_empty() {
        return Some(rng.below(n));
    }
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    let mut r = ((u128::from(rng.next_u64()) * u128::from(total)) >> 64) as u64;
    for (i, &w) in weights.iter().enumerate() {
        if r < u64::from(w) {
            return Some(i);
        }
        r -= u64::from(w);
    }
    Some(n - 1)
}
