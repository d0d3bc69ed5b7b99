//! Guided self-scheduling on a rayon pool: every thread takes work items from one shared
//! counter in claims that shrink as the work runs out, and each claim is one call of the work.
//! Knows nothing of trials or games.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A claim is at most the items left over this many times the thread count: big claims while
/// much is left (few results to merge, no per-item cost), single items at the end (no thread
/// waits long for another's last claim).
const CLAIMS_PER_THREAD: u64 = 4;

/// How long the calling thread spins, once the items are all claimed, for the other threads'
/// last claims before it lets rayon put it to sleep: far longer than a small run's last claim,
/// far shorter than a big run's batch.
const AWAKE_WAIT: Duration = Duration::from_millis(1);

/// Runs `work` over consecutive claims of at most `most` items that together cover `items`
/// exactly once, on every thread of the current rayon pool (the global pool outside one), and
/// returns the claims' results in item order, whichever thread ran them.
///
/// The calling thread starts at once; the others join as they wake. With `linger`, the others
/// then linger while it holds (see [`super::linger`]), ready for the next piece of work. How
/// the items fall into claims depends on timing and the thread count: `work` must give results
/// that combine the same way however the items are grouped.
pub fn in_claims<R: Send>(
    items: Range<u64>,
    most: u64,
    linger: Option<&Arc<AtomicBool>>,
    work: impl Fn(Range<u64>) -> R + Sync,
) -> Vec<R> {
    let threads = rayon::current_num_threads();
    let next = AtomicU64::new(items.start);
    // One list per thread, so that threads finishing together do not queue for one lock (a
    // thread that waits there sleeps, and waking it costs more than a small run's last claim).
    let claimed: Vec<Mutex<Vec<(u64, R)>>> = (0..threads).map(|_| Mutex::default()).collect();
    let take_claims = || {
        let mut mine = Vec::new();
        while let Some(claim) = next_claim(&next, items.end, threads as u64, most) {
            mine.push((claim.start, work(claim)));
        }
        let slot = rayon::current_thread_index().unwrap_or(0) % threads;
        lock(&claimed[slot]).append(&mut mine);
    };
    let (helping, helped) = (AtomicUsize::new(0), AtomicUsize::new(0));
    rayon::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| {
                helping.fetch_add(1, Ordering::AcqRel);
                take_claims();
                helped.fetch_add(1, Ordering::AcqRel);
            });
        }
        take_claims();
        // Wait awake, for a while, for the threads still on their last claim: the end of the
        // scope would put this thread to sleep, and the last of them would have to wake it.
        let awake_until = Instant::now() + AWAKE_WAIT;
        while helped.load(Ordering::Acquire) < helping.load(Ordering::Acquire)
            && Instant::now() < awake_until
        {
            std::hint::spin_loop();
        }
    });
    if let Some(allowed) = linger {
        super::linger::others_linger(allowed);
    }
    let mut done: Vec<(u64, R)> = claimed
        .into_iter()
        .flat_map(|list| {
            list.into_inner()
                .expect("no thread panics while holding its list")
        })
        .collect();
    done.sort_unstable_by_key(|&(first, _)| first);
    done.into_iter().map(|(_, result)| result).collect()
}

/// The list's lock: it is only ever held to append to the list.
fn lock<T>(list: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    list.lock()
        .expect("no thread panics while holding its list")
}

/// Takes the next claim (of at most `most` items) from `next`, or `None` once it has reached
/// `end`.
fn next_claim(next: &AtomicU64, end: u64, threads: u64, most: u64) -> Option<Range<u64>> {
    let mut first = next.load(Ordering::Relaxed);
    loop {
        if first >= end {
            return None;
        }
        let size = ((end - first) / (CLAIMS_PER_THREAD * threads)).clamp(1, most.max(1));
        match next.compare_exchange_weak(first, first + size, Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => return Some(first..first + size),
            Err(now) => first = now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::test_pool as pool;

    #[test]
    fn claims_cover_every_item_once_in_order() {
        for threads in [1, 2, 3] {
            for items in [0..0, 5..6, 3..1_000, 0..10_007] {
                let claims = pool(threads)
                    .install(|| in_claims(items.clone(), u64::MAX, None, |claim| claim));
                let covered: Vec<u64> = claims.into_iter().flatten().collect();
                assert_eq!(
                    covered,
                    items.clone().collect::<Vec<_>>(),
                    "{threads} threads"
                );
            }
        }
    }

    #[test]
    fn claims_shrink_to_single_items_at_the_end() {
        let claims = pool(1).install(|| in_claims(0..1_000, u64::MAX, None, |claim| claim));
        assert_eq!(claims[0], 0..250);
        assert_eq!(claims.last().map(|claim| claim.end - claim.start), Some(1));
        assert!(claims.len() < 40, "{} claims", claims.len());
    }

    #[test]
    fn every_thread_takes_claims() {
        let threads = pool(2).install(|| {
            in_claims(0..2_000, u64::MAX, None, |claim| {
                // Long enough per item that the second thread wakes before the work runs out.
                std::thread::sleep(std::time::Duration::from_micros(
                    20 * (claim.end - claim.start),
                ));
                rayon::current_thread_index()
            })
        });
        assert!(threads.contains(&Some(0)) && threads.contains(&Some(1)));
    }
}
