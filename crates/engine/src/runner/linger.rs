//! Keeping idle workers awake for a while, so that the next piece of work starts on running
//! threads.
//!
//! Rayon puts a worker with nothing to do to sleep after a few dozen yields (tens of
//! microseconds), and waking it costs the waking thread a system call and the run the time the
//! sleeper takes to get going: together 0.1 to 0.2 ms on this kind of machine, per wake-up. A
//! small run is a few milliseconds of trials, with some serial work before and between its
//! queues: there, workers that stay awake are worth several percent. OpenMP runtimes do the
//! same: Intel's keeps an idle worker spinning for 200 ms before it sleeps, by default. Here a
//! worker lingers while a study runs, for up to [`LINGER`] after its last piece of work,
//! yielding its CPU to any other thread that wants it, and only in a pool with one worker per
//! CPU.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an idle worker keeps looking for work before it lets rayon put it to sleep, unless
/// the study ends first: long enough to cover a study's set-up (solving Chutes' optimal cube
/// takes about 90 ms).
const LINGER: Duration = Duration::from_millis(200);

thread_local! {
    /// Whether this thread is lingering (a lingering thread runs new work inside its loop, and
    /// must not start a second loop there).
    static LINGERING: Cell<bool> = const { Cell::new(false) };
}

/// Makes every worker of the current rayon pool but the calling one linger, from the moment it
/// is back in rayon's loop, while `allowed` holds. Does nothing outside a pool, or when
/// `allowed` does not hold.
pub fn others_linger(allowed: &Arc<AtomicBool>) {
    let Some(caller) = rayon::current_thread_index() else {
        return;
    };
    if !allowed.load(Ordering::Relaxed) {
        return;
    }
    let allowed = Arc::clone(allowed);
    // A broadcast job runs on its own worker only: no other worker can take it and linger in
    // its place.
    rayon::spawn_broadcast(move |context| {
        if context.index() != caller {
            linger(&allowed);
        }
    });
}

/// Keeps the calling rayon worker awake: it runs any work of its pool as it comes, and
/// returns once none has come for [`LINGER`] or `allowed` is cleared. Returns at once on a
/// thread already lingering.
fn linger(allowed: &AtomicBool) {
    if LINGERING.get() {
        return;
    }
    LINGERING.set(true);
    let mut until = Instant::now() + LINGER;
    while allowed.load(Ordering::Relaxed) {
        match rayon::yield_now() {
            Some(rayon::Yield::Executed) => until = Instant::now() + LINGER,
            Some(rayon::Yield::Idle) if Instant::now() < until => std::thread::yield_now(),
            _ => break,
        }
    }
    LINGERING.set(false);
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;
    use crate::runner::test_pool as pool;

    /// Sends, from a job spawned now, whether the worker that runs it is lingering.
    fn report_lingering(to: mpsc::Sender<bool>) {
        rayon::spawn(move || to.send(LINGERING.get()).expect("the test waits"));
    }

    #[test]
    fn a_lingering_worker_runs_the_work_that_comes_until_it_is_stopped() {
        let (send, receive) = mpsc::channel();
        let allowed = Arc::new(AtomicBool::new(true));
        let after = pool(1).install(|| {
            // This worker's own queue is last in, first out: the report runs, then the stop.
            let stop = Arc::clone(&allowed);
            rayon::spawn(move || stop.store(false, Ordering::Relaxed));
            report_lingering(send);
            linger(&allowed);
            LINGERING.get()
        });
        assert_eq!(receive.try_recv(), Ok(true), "run inside the loop");
        assert!(!allowed.load(Ordering::Relaxed), "stopped by the switch");
        assert!(!after, "the loop has ended");
    }

    #[test]
    fn the_other_workers_linger() {
        let (send, receive) = mpsc::channel();
        let allowed = Arc::new(AtomicBool::new(true));
        let switch = Arc::clone(&allowed);
        let lingering = pool(2).install(move || {
            others_linger(&switch);
            // Pushed on this worker's own queue while it stays busy here: only the other
            // worker can take the job, and it does so from inside its lingering loop.
            report_lingering(send);
            receive.recv_timeout(Duration::from_secs(10))
        });
        allowed.store(false, Ordering::Relaxed);
        assert_eq!(lingering, Ok(true));
    }
}
