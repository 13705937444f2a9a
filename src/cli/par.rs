//! Work split over threads with results that do not depend on the number
//! of threads: item `i` is computed from `i` alone, items are handed out
//! in blocks in index order, and each thread folds its items into its own
//! accumulator, merged at the end (the accumulators of `playout` are exact
//! integer sums, so the merge order does not matter).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use tabula::state::spawn_search;

/// Items handed out at a time.
const BLOCK: u64 = 16;

/// Folds `step(acc, i)` over `i` in `0..n` on `jobs` threads, stopping at
/// `deadline` if one is given (then fewer than `n` items may be done).
/// `tick(k)` reports `k` more items done. On errors, the error of the
/// smallest index is returned: blocks are handed out in order and every
/// block handed out is finished (up to its first error), so every index
/// below an error is computed whatever the number of threads.
/// Returns the merged accumulator and the number of items done.
pub fn fold<A, E>(
    n: u64,
    jobs: usize,
    deadline: Option<Instant>,
    init: impl Fn() -> A + Sync,
    step: impl Fn(&mut A, u64) -> Result<(), E> + Sync,
    merge: impl Fn(&mut A, A),
    tick: impl Fn(u64) + Sync,
) -> Result<(A, u64), E>
where
    A: Send,
    E: Send,
{
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failed: Mutex<Option<(u64, E)>> = Mutex::new(None);
    let worker = || {
        let mut acc = init();
        let mut done = 0u64;
        loop {
            if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let first = next.fetch_add(BLOCK, Ordering::Relaxed);
            if first >= n {
                break;
            }
            let last = first.saturating_add(BLOCK).min(n);
            let mut k = 0;
            for i in first..last {
                if let Err(e) = step(&mut acc, i) {
                    stop.store(true, Ordering::Relaxed);
                    let mut f = failed.lock().unwrap_or_else(|p| p.into_inner());
                    if f.as_ref().is_none_or(|(j, _)| i < *j) {
                        *f = Some((i, e));
                    }
                    break;
                }
                k += 1;
            }
            done += k;
            tick(k);
        }
        (acc, done)
    };
    let results: Vec<(A, u64)> = if jobs <= 1 {
        vec![worker()]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..jobs).filter_map(|_| spawn_search(s, worker).ok()).collect();
            if handles.is_empty() {
                // No thread could be started: the work is done here.
                return vec![worker()];
            }
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    };
    if let Some((_, e)) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut total = 0;
    let mut it = results.into_iter();
    let (mut acc, d) = it.next().unwrap_or_else(|| (init(), 0));
    total += d;
    for (a, d) in it {
        merge(&mut acc, a);
        total += d;
    }
    Ok((acc, total))
}

/// Computes `f(i)` for every `i` in `0..n` on `jobs` threads; the results
/// in index order (for perft's root moves: a short list).
pub fn map<T, E>(
    n: usize,
    jobs: usize,
    f: impl Fn(usize) -> Result<T, E> + Sync,
    tick: impl Fn(u64) + Sync,
) -> Result<Vec<T>, E>
where
    T: Send,
    E: Send,
{
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let worker = || {
        let mut out: Vec<(usize, Result<T, E>)> = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed) as usize;
            if i >= n {
                break;
            }
            let r = f(i);
            if r.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
            out.push((i, r));
            tick(1);
        }
        out
    };
    let mut all: Vec<(usize, Result<T, E>)> = if jobs <= 1 {
        worker()
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> =
                (0..jobs.min(n.max(1))).filter_map(|_| spawn_search(s, worker).ok()).collect();
            if handles.is_empty() {
                // No thread could be started: the work is done here.
                return worker();
            }
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    };
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}
