//! Parallel execution of trials: fixed-size chunks, taken by the threads of a rayon pool in
//! claims, one summary per chunk, merged in chunk order. Knows nothing of any particular game.
//!
//! With a [`Ledger`], a runner records every finished chunk that continues its job's trials
//! without a gap, as soon as it can be merged (for checkpoints), and plays only
//! the trials the ledger does not hold yet (for `--resume` and `experiment merge`); with a
//! shard, it plays only that shard's share of every range it is asked for.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::games::Game;
use crate::ledger::file::ShardId;
use crate::ledger::Ledger;
use crate::rng::trial_rng;
use crate::summary::Summary;

mod claims;
mod decisions;
mod linger;
mod watch;

pub use decisions::{Decisions, Selected, Selection, Stopped};
pub use watch::{Progress, Watch};

/// Trials per chunk: the unit of parallel work, independent of the thread count. Runs of
/// fewer trials use smaller chunks ([`default_chunk_size`]).
pub const DEFAULT_CHUNK_SIZE: u64 = 4_096;
/// Chunks per variant the default chunk size aims at, so that even a small run gives every
/// thread work and the slow variants' chunks spread over the threads.
const CHUNKS_PER_VARIANT: u64 = 64;
/// The smallest default chunk size: below it, per-chunk costs would show.
const MIN_CHUNK_SIZE: u64 = 16;

/// The chunk size a run of `trials` trials per variant uses unless told otherwise: a function
/// of the trials alone (never of the thread count), so every shard and every resumed part of a
/// run agrees on it.
pub fn default_chunk_size(trials: u64) -> u64 {
    trials
        .div_ceil(CHUNKS_PER_VARIANT)
        .clamp(MIN_CHUNK_SIZE, DEFAULT_CHUNK_SIZE)
}
/// Trials a batch of chunks holds at least: the threads take a batch's chunks in claims from
/// one counter, and meet at its end (where the progress bar's label follows the job); small
/// runs (small chunks) are one or two batches rather than many. A batch's chunks reach the
/// totals and the ledger one by one, as they finish, not at its end.
const TRIALS_PER_BATCH: u64 = 1 << 20;
/// Chunks a batch holds at least, so that every thread gets many chunks even with huge chunks.
const MIN_CHUNKS_PER_BATCH: u64 = 256;

/// Chunks per batch for chunks of `chunk` trials: about a million trials, and at least
/// [`MIN_CHUNKS_PER_BATCH`] chunks.
fn chunks_per_batch(chunk: u64) -> u64 {
    (TRIALS_PER_BATCH / chunk).max(MIN_CHUNKS_PER_BATCH)
}

/// Stack of each worker thread: what a main thread gets, since whole studies may run on the
/// pool (see [`Runner::install`]).
const WORKER_STACK_BYTES: usize = 8 << 20;

/// Runs trials of any game on a fixed-size thread pool.
pub struct Runner {
    pool: rayon::ThreadPool,
    chunk_size: u64,
    progress: ProgressBar,
    /// Whether finished chunks move `progress` (a drawn bar or a [`Watch`]): a bar nobody
    /// reads is not touched per chunk.
    counting: bool,
    cancelled: Arc<AtomicBool>,
    ledger: Option<Arc<Ledger>>,
    shard: Option<ShardId>,
    played: AtomicU64,
    /// Variant-trials each trial counts for on the progress bar and in [`Runner::played`]: 1,
    /// or every variant of a common design's one job (see [`Runner::count_each_trial_as`]).
    weight: AtomicU64,
    /// Wall-clock nanoseconds spent playing trials (inside [`Runner::run_jobs`]).
    playing_nanos: AtomicU64,
    /// Set while a study runs (see [`Runner::install`]): idle workers then linger awake
    /// between pieces of work (see `linger`). `None` unless each worker has a CPU of its own,
    /// so that a lingering worker never takes a CPU another one needs.
    linger: Option<Arc<AtomicBool>>,
}

/// How a [`Runner`] is built.
#[derive(Clone, Copy, Debug)]
pub struct RunnerSettings {
    /// Worker threads (0 = one per core).
    pub threads: usize,
    /// Trials per chunk.
    pub chunk_size: u64,
    /// Whether to draw a progress bar on stderr (only drawn when stderr is a terminal).
    pub show_progress: bool,
}

impl Runner {
    /// A runner with its own thread pool.
    pub fn new(settings: RunnerSettings) -> Result<Runner> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(settings.threads)
            .stack_size(WORKER_STACK_BYTES)
            .build()
            .context("cannot start the worker threads")?;
        // A pool that takes every CPU gets one worker per CPU (see `affinity`); numbers never
        // depend on it, only how quickly small runs finish.
        let pinned = crate::affinity::pin_workers(&pool);
        let progress = if settings.show_progress {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix:>12} [{bar:30}] {human_pos}/{human_len} trials, \
                     {per_sec}, ETA {eta}",
                )
                .expect("the progress template is valid")
                .progress_chars("=> "),
            );
            bar
        } else {
            ProgressBar::hidden()
        };
        Ok(Runner {
            pool,
            chunk_size: settings.chunk_size.max(1),
            counting: settings.show_progress,
            progress,
            cancelled: Arc::new(AtomicBool::new(false)),
            ledger: None,
            shard: None,
            played: AtomicU64::new(0),
            weight: AtomicU64::new(1),
            playing_nanos: AtomicU64::new(0),
            linger: pinned.then(|| Arc::new(AtomicBool::new(false))),
        })
    }

    /// This runner, recording completed work in `ledger` and skipping what it already holds.
    pub fn with_ledger(mut self, ledger: Arc<Ledger>) -> Runner {
        self.ledger = Some(ledger);
        self
    }

    /// This runner, counting its trials for `watch` (in place of any bar on the terminal) and
    /// stopping when `watch` is stopped.
    pub fn watched(mut self, watch: &Watch) -> Runner {
        self.progress = watch.bar.clone();
        self.cancelled = Arc::clone(&watch.stop);
        self.counting = true;
        self
    }

    /// This runner, playing only `shard`'s share of every trial range.
    pub fn with_shard(mut self, shard: ShardId) -> Runner {
        self.shard = Some(shard);
        self
    }

    /// Counts each trial played from now on as `variants` trials (the trials of every variant
    /// of a common design, played as one job); 1 counts trials as they are.
    pub fn count_each_trial_as(&self, variants: u64) {
        self.weight.store(variants.max(1), Ordering::Relaxed);
    }

    /// Trials this runner has played itself (not counting those its ledger already held).
    pub fn played(&self) -> u64 {
        self.played.load(Ordering::Relaxed)
    }

    /// Wall-clock seconds this runner has spent playing trials, analysis excluded.
    pub fn playing_seconds(&self) -> f64 {
        self.playing_nanos.load(Ordering::Relaxed) as f64 * 1e-9
    }

    /// A flag that, once set (e.g. from a Ctrl-C handler), makes every remaining chunk a no-op
    /// so the run stops quickly; the caller must then discard the results.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancelled)
    }

    /// Whether the run was cancelled (its summaries are incomplete).
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Runs `work` on this runner's thread pool, so parallel analysis (e.g. exact solvers)
    /// respects `--threads` too.
    ///
    /// A whole study run this way plays its trials without hand-overs: each
    /// [`Runner::run_jobs`] starts on a worker that is already running, rather than waking one
    /// and putting the calling thread to sleep until the last chunk is merged.
    ///
    /// The other workers linger meanwhile (in a pool with one worker per CPU, see `linger`):
    /// awake through the study's set-up, they are running when its first trials begin, and
    /// between its queues of trials. They stop when the outermost `install` returns.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        self.pool.install(|| {
            let Some(studying) = &self.linger else {
                return work();
            };
            let outermost = !studying.swap(true, Ordering::Relaxed);
            if outermost {
                linger::others_linger(studying);
            }
            let result = work();
            if outermost {
                studying.store(false, Ordering::Relaxed);
            }
            result
        })
    }

    /// Worker threads in the pool.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// How many trials of `stream` this runner's ledger holds from trial 0 on; `None` without
    /// a ledger.
    pub fn held(&self, stream: u64) -> Option<u64> {
        self.ledger.as_ref().map(|ledger| ledger.held(stream))
    }

    /// Trials per chunk.
    pub fn chunk_size(&self) -> u64 {
        self.chunk_size
    }

    /// Announces the total number of trials about to run, for the progress bar.
    pub fn expect_trials(&self, total: u64) {
        let total = self.shard.map_or(total, |shard| {
            let share = shard.range(0..total);
            share.end - share.start
        });
        self.progress.set_length(total);
        self.progress.set_position(0);
    }

    /// Labels the progress bar (e.g. with the variant being run).
    pub fn set_label(&self, label: &str) {
        self.progress.set_prefix(label.to_string());
    }

    /// Clears the progress bar.
    pub fn finish(&self) {
        self.progress.finish_and_clear();
    }

    /// Plays trials `trials` of variant `variant` and folds them into one summary.
    ///
    /// Trial `i` always plays with `trial_rng(seed, variant, i)` and chunk summaries are merged
    /// in chunk order, so the result is identical for any thread count or chunk size.
    pub fn run<G: Game>(
        &self,
        game: &G,
        seed: u64,
        variant: u64,
        trials: Range<u64>,
    ) -> G::Summary {
        let job = Job {
            label: "",
            variant,
            game,
        };
        self.run_jobs(std::slice::from_ref(&job), seed, trials)
            .pop()
            .expect("one job gives one summary")
    }

    /// Plays trials `trials` of every job side by side on the pool and returns one summary per
    /// job, in job order: each is exactly what [`Runner::run`] gives for that job alone.
    ///
    /// All jobs' chunks form one queue (job by job, chunk by chunk), cut into batches that run
    /// in parallel, so a spec with many small variants keeps every thread busy; each job's
    /// chunk summaries are still merged in chunk order. A shard runner plays its share of
    /// `trials`; a job's trials already in the ledger are not played again.
    pub fn run_jobs<G: Game>(
        &self,
        jobs: &[Job<'_, G>],
        seed: u64,
        trials: Range<u64>,
    ) -> Vec<G::Summary> {
        let started = std::time::Instant::now();
        let trials = self
            .shard
            .map_or(trials.clone(), |shard| shard.range(trials));
        let chunk = self.chunk_size;
        let (totals, next): (Vec<G::Summary>, Vec<u64>) = jobs
            .iter()
            .map(|job| {
                let done = match &self.ledger {
                    Some(ledger) => ledger
                        .completed(job.variant, &trials, |summary, trials| {
                            job.game.check_summary(summary, trials)
                        })
                        .unwrap_or_else(|_| {
                            // Refused (the ledger says why): nothing is played, as after a cancel.
                            self.cancelled.store(true, Ordering::Relaxed);
                            None
                        }),
                    None => None,
                };
                done.unwrap_or_else(|| (G::Summary::default(), trials.start))
            })
            .unzip();
        // What the ledger held is recorded again as one summary per stream, so its file holds
        // one part per stream however many files or batches the trials came from.
        if let Some(ledger) = &self.ledger {
            for ((job, total), &from) in jobs.iter().zip(&totals).zip(&next) {
                if from > trials.start {
                    ledger.record(job.variant, job.label, trials.start..from, total);
                }
            }
        }
        let weight = self.weight.load(Ordering::Relaxed);
        self.progress
            .inc(weight * next.iter().map(|&from| from - trials.start).sum::<u64>());
        // offsets[j]..offsets[j + 1] are job j's remaining chunks in the queue.
        let mut offsets = vec![0];
        for &from in &next {
            let last = offsets[offsets.len() - 1];
            offsets.push(last + (trials.end - from).div_ceil(chunk));
        }
        let job_of = |item: u64| offsets[..jobs.len()].partition_point(|&o| o <= item) - 1;
        let work = offsets[jobs.len()];
        let batch = chunks_per_batch(chunk);
        // A bar nobody reads is not touched per chunk: its counter is one cache line that
        // both threads would pass back and forth at every chunk.
        let count_chunks = self.counting;
        // Finished chunks join their job's total in chunk order as soon as every chunk before
        // them has finished (see `Assembly`), and each total that grows is recorded in the
        // ledger at once: a checkpoint, saved on a timer or on a signal, keeps every chunk
        // that continues its job's trials without a gap, losing at most the chunks in
        // progress (about one per thread).
        let assembly = std::sync::Mutex::new(Assembly {
            totals,
            next: 0,
            pending: std::collections::BTreeMap::new(),
        });
        // Claims of one chunk when a ledger records them, so that no thread runs far ahead of
        // the others with chunks that could not be kept.
        let most = if self.ledger.is_some() { 1 } else { u64::MAX };
        // The whole loop runs on the pool, so that a batch's end and the next one's start are
        // a join between workers rather than a hand-over to a sleeping caller thread and back:
        // on a small run those wake-ups would cost as much as the trials.
        self.pool.install(|| {
            let mut batch_start = 0;
            // Once cancelled, the remaining batches are not even visited.
            while batch_start < work && !self.is_cancelled() {
                let batch_end = (batch_start + batch).min(work);
                let label = jobs[job_of(batch_start)].label;
                if !label.is_empty() {
                    self.set_label(label);
                }
                // Threads take chunks in claims from one shared counter (see `claims`); each
                // chunk is played into a summary of its own and handed to the assembly, which
                // merges the chunks in chunk order (merging is associative, so neither the
                // claims nor the order chunks finish in change a bit).
                let play_claim = |claim: Range<u64>| {
                    for item in claim {
                        if self.is_cancelled() {
                            break;
                        }
                        let j = job_of(item);
                        let first = next[j] + (item - offsets[j]) * chunk;
                        let last = (first + chunk).min(trials.end);
                        let mut summary = G::Summary::default();
                        let game = jobs[j].game;
                        let cancel = &self.cancelled;
                        // A chunk cut short by a cancel is incomplete: it is dropped.
                        if !play_until(
                            &mut summary,
                            game,
                            seed,
                            jobs[j].variant,
                            first..last,
                            cancel,
                        ) {
                            break;
                        }
                        if count_chunks {
                            self.progress.inc(weight * (last - first));
                        }
                        self.played
                            .fetch_add(weight * (last - first), Ordering::Relaxed);
                        let mut held = lock(&assembly);
                        let assembly = &mut *held;
                        assembly.pending.insert(item, summary);
                        while let Some(summary) = assembly.pending.remove(&assembly.next) {
                            let item = assembly.next;
                            let j = job_of(item);
                            assembly.totals[j].merge(&summary);
                            assembly.next += 1;
                            if let Some(ledger) = &self.ledger {
                                let end =
                                    (next[j] + (item + 1 - offsets[j]) * chunk).min(trials.end);
                                let (job, total) = (&jobs[j], &assembly.totals[j]);
                                ledger.record(job.variant, job.label, trials.start..end, total);
                            }
                        }
                        drop(held);
                        if let Some(ledger) = &self.ledger {
                            ledger.note_played(last - first);
                            ledger.save_if_due();
                        }
                    }
                };
                claims::in_claims(
                    batch_start..batch_end,
                    most,
                    self.linger.as_ref(),
                    play_claim,
                );
                batch_start = batch_end;
            }
        });
        let totals = assembly
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .totals;
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.playing_nanos.fetch_add(nanos, Ordering::Relaxed);
        totals
    }
}

/// One variant's share of a [`Runner::run_jobs`] call.
pub struct Job<'a, G> {
    /// Shown on the progress bar while the job's chunks run (empty: leave the label alone).
    pub label: &'a str,
    /// The variant index that, with the seed and the trial index, fixes each trial's stream.
    pub variant: u64,
    /// The game the variant plays.
    pub game: &'a G,
}

/// Plays consecutive trials serially into one summary.
pub fn play_chunk<G: Game>(game: &G, seed: u64, variant: u64, trials: Range<u64>) -> G::Summary {
    let mut summary = G::Summary::default();
    let whole = play_until(
        &mut summary,
        game,
        seed,
        variant,
        trials,
        &AtomicBool::new(false),
    );
    debug_assert!(whole, "nothing cancels it");
    summary
}

/// Trials played between two looks at the cancel flag inside a chunk, so a cancelled run stops
/// within moments even with huge chunks or long games.
const TRIALS_PER_CANCEL_CHECK: u64 = 256;

/// Plays consecutive trials serially into `summary`, stopping early (leaving it incomplete, to
/// be discarded) once `cancel` is set; whether every trial was played.
fn play_until<G: Game>(
    summary: &mut G::Summary,
    game: &G,
    seed: u64,
    variant: u64,
    trials: Range<u64>,
    cancel: &AtomicBool,
) -> bool {
    let mut trial = trials.start;
    if G::INDEXED {
        for trial in trials.clone() {
            if (trial - trials.start).is_multiple_of(TRIALS_PER_CANCEL_CHECK)
                && cancel.load(Ordering::Relaxed)
            {
                return false;
            }
            summary.record(&game.play_at(seed, variant, trial));
        }
        return true;
    }
    // Two at a time, so a game can play them side by side; outcomes fold in trial order.
    while trial + 1 < trials.end {
        if (trial - trials.start) % TRIALS_PER_CANCEL_CHECK < 2 && cancel.load(Ordering::Relaxed) {
            return false;
        }
        let mut first = trial_rng(seed, variant, trial);
        let mut second = trial_rng(seed, variant, trial + 1);
        for outcome in &game.play_two(&mut first, &mut second) {
            summary.record(outcome);
        }
        trial += 2;
    }
    if trial < trials.end {
        summary.record(&game.play(&mut trial_rng(seed, variant, trial)));
    }
    true
}

/// The chunks of a [`Runner::run_jobs`] call merged so far: each job's total holds its chunks
/// up to (not including) work item `next`, and chunks that finished ahead of an unfinished one
/// wait in `pending`.
struct Assembly<S> {
    totals: Vec<S>,
    next: u64,
    pending: std::collections::BTreeMap<u64, S>,
}

/// Locks `mutex`, ignoring poisoning (a worker that panics ends the run anyway).
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A plain rayon pool of `threads` workers, for the tests of the runner's parts.
#[cfg(test)]
fn test_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Draw, Walk};

    fn runner(threads: usize, chunk_size: u64) -> Runner {
        Runner::new(RunnerSettings {
            threads,
            chunk_size,
            show_progress: false,
        })
        .expect("pool")
    }

    #[test]
    fn results_do_not_depend_on_threads_or_chunk_size() {
        let game = Walk(10);
        let serial = play_chunk(&game, 42, 3, 0..1_000);
        let one = runner(1, 7).run(&game, 42, 3, 0..1_000);
        let two = runner(2, 100).run(&game, 42, 3, 0..1_000);
        assert_eq!(serial, one);
        assert_eq!(serial, two);
    }

    #[test]
    fn shards_of_the_trial_range_merge_into_the_whole() {
        let game = Walk(8);
        let runner = runner(2, 64);
        let whole = runner.run(&game, 5, 0, 0..900);
        let mut merged = runner.run(&game, 5, 0, 0..300);
        merged.merge(&runner.run(&game, 5, 0, 300..900));
        assert_eq!(whole, merged);
    }

    #[test]
    fn a_cancelled_runner_skips_the_remaining_work() {
        let game = Walk(6);
        let runner = runner(1, 10);
        runner.cancel_flag().store(true, Ordering::Relaxed);
        assert!(runner.is_cancelled());
        assert_eq!(runner.run(&game, 1, 0, 0..1_000).trials, 0);
    }

    #[test]
    fn variants_run_side_by_side_equal_each_variant_run_alone() {
        let games: Vec<Walk> = [10, 6, 12].into_iter().map(Walk).collect();
        let jobs: Vec<Job<'_, Walk>> = games
            .iter()
            .enumerate()
            .map(|(i, game)| Job {
                label: "",
                variant: 10 + i as u64,
                game,
            })
            .collect();
        for (threads, chunk) in [(1, 1_000), (2, 7), (2, 64)] {
            let together = runner(threads, chunk).run_jobs(&jobs, 9, 0..300);
            assert_eq!(together.len(), 3);
            for (job, summary) in jobs.iter().zip(&together) {
                assert_eq!(summary, &play_chunk(job.game, 9, job.variant, 0..300));
            }
        }
    }

    #[test]
    fn cancelling_stops_a_run_inside_a_huge_chunk_within_a_second() {
        let game = Walk(10);
        // One chunk of a billion games: hours of work unless the chunk itself looks at the flag.
        let runner = runner(2, 1_000_000_000);
        let cancel = runner.cancel_flag();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(200));
            cancel.store(true, Ordering::Relaxed);
        });
        let started = std::time::Instant::now();
        let summary = runner.run(&game, 1, 0, 0..10_000_000_000);
        let elapsed = started.elapsed();
        stopper.join().expect("stopper");
        assert!(elapsed.as_secs_f64() < 1.5, "stopped after {elapsed:?}");
        assert!(summary.trials < 1_000_000_000);
    }

    #[test]
    fn runs_of_several_batches_merge_every_job_in_trial_order() {
        // 4,096-trial chunks make 256-chunk batches: two jobs of 1.5 million trials are 734
        // chunks, three batches, with the second job starting inside the second batch.
        let trials = 0..1_500_000;
        assert_eq!(chunks_per_batch(4_096), 256);
        let jobs = [
            Job {
                label: "",
                variant: 1,
                game: &Draw,
            },
            Job {
                label: "",
                variant: 2,
                game: &Draw,
            },
        ];
        let together = runner(2, 4_096).run_jobs(&jobs, 7, trials.clone());
        for (job, summary) in jobs.iter().zip(&together) {
            let serial = play_chunk(job.game, 7, job.variant, trials.clone());
            assert_eq!(summary.trials, 1_500_000);
            assert_eq!(summary, &serial);
        }
        assert_ne!(together[0], together[1]);
    }

    #[test]
    fn a_run_from_inside_the_pool_equals_one_from_outside() {
        let game = Walk(12);
        let runner = runner(2, 16);
        let outside = runner.run(&game, 3, 1, 0..500);
        let inside = runner.install(|| runner.run(&game, 3, 1, 0..500));
        assert_eq!(inside, outside);
        assert_eq!(outside, play_chunk(&game, 3, 1, 0..500));
        assert_eq!(runner.played(), 1_000);
    }

    #[test]
    fn different_variants_get_different_streams() {
        let game = Walk(10);
        let a = play_chunk(&game, 42, 0, 0..200);
        let b = play_chunk(&game, 42, 1, 0..200);
        assert_ne!(a, b);
    }
}
