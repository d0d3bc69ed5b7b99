//! The ledger: the summaries of the trials a run has completed, by random stream. The runner
//! records into it after every batch of chunks, so a checkpoint saved at any moment (on a
//! timer or on a signal) holds exactly the completed work; filled from saved files, it lets a
//! resumed run or `experiment merge` play only what is missing.

pub mod check;
pub mod file;
mod read;

pub use read::{DEFAULT_LIMIT_MIB, LIMIT_VARIABLE};

use crate::console::note;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Result;
use serde_json::value::RawValue;

use crate::summary::Summary;
use file::{Part, StreamRecord, SummaryFile};

/// Checks the environment settings the ledger reads ([`LIMIT_VARIABLE`]), so that a command
/// that will write or read summaries files refuses a bad value before it plays any trial,
/// rather than fail at every checkpoint and at the end.
pub fn check_environment() -> Result<()> {
    read::limit_bytes().map(|_| ())
}

/// Completed trials by stream, and where and how often to save them.
pub struct Ledger {
    /// Everything but the streams and the timings, as the saved file will say.
    header: SummaryFile,
    streams: Mutex<BTreeMap<u64, StreamRecord>>,
    /// The latest summaries the runner recorded, not yet turned into JSON: that happens only
    /// when the ledger is read or saved, so the end of a batch never waits for it.
    recorded: Mutex<BTreeMap<u64, Recorded>>,
    /// Why saved summaries were refused (the first reason), if they were.
    refusal: Mutex<Option<String>>,
    /// Whether every trial asked for must be in the ledger already (a merge plays nothing).
    whole: bool,
    saving: Option<Saving>,
    started: Instant,
    /// Trials the runner played into this ledger in this process (see [`Ledger::note_played`]).
    played: AtomicU64,
}

/// A stream's completed trials as the runner recorded them.
struct Recorded {
    label: String,
    trials: Range<u64>,
    summary: Box<dyn JsonSummary>,
}

/// A summary that can be written as JSON later, whatever its type.
trait JsonSummary: Send {
    /// The summary as JSON.
    fn to_json(&self) -> Box<RawValue>;
}

impl<S: Summary> JsonSummary for S {
    fn to_json(&self) -> Box<RawValue> {
        serde_json::to_string(self)
            .and_then(RawValue::from_string)
            .expect("summaries of integers always serialize")
    }
}

/// Where a ledger saves itself, and how often.
struct Saving {
    path: PathBuf,
    every: Option<Duration>,
    last: Mutex<Instant>,
    /// Held while the file is written: a save on the timer (from a worker) and one on a signal
    /// never write it at once.
    writing: Mutex<()>,
}

impl Ledger {
    /// An empty ledger whose files will carry `header` (its streams are ignored).
    pub fn new(header: SummaryFile) -> Ledger {
        Ledger {
            header: SummaryFile {
                streams: Vec::new(),
                ..header
            },
            streams: Mutex::new(BTreeMap::new()),
            recorded: Mutex::new(BTreeMap::new()),
            refusal: Mutex::new(None),
            whole: false,
            saving: None,
            started: Instant::now(),
            played: AtomicU64::new(0),
        }
    }

    /// This ledger, saved to `path` by [`Ledger::save`], and also after a batch when `every`
    /// has passed since the last save.
    pub fn saving_to(mut self, path: &Path, every: Option<Duration>) -> Ledger {
        self.saving = Some(Saving {
            path: path.to_path_buf(),
            every,
            last: Mutex::new(Instant::now()),
            writing: Mutex::new(()),
        });
        self
    }

    /// This ledger, refusing (see [`Ledger::completed`]) any trials asked for that it does not
    /// hold: a merge plays nothing.
    pub fn whole(mut self) -> Ledger {
        self.whole = true;
        self
    }

    /// Adds completed trials read from a file. Parts of one stream from several files (the
    /// shards of a run) are kept in trial order.
    pub fn add(&self, records: Vec<StreamRecord>) {
        let mut streams = self.streams();
        for record in records {
            let entry = streams
                .entry(record.stream)
                .or_insert_with(|| StreamRecord {
                    stream: record.stream,
                    label: record.label.clone(),
                    parts: Vec::new(),
                });
            entry.parts.extend(record.parts);
            entry.parts.sort_by_key(|part| part.trials[0]);
        }
    }

    /// The summary of the trials of `stream` already completed from the start of `trials`, and
    /// the first trial still to play; none when nothing is recorded (and the ledger is not
    /// [`Ledger::whole`]). Recorded trials that cannot be used as they are (not continuing
    /// from the start, a summary that cannot be read or fails `check`, the game's check of a
    /// summary of so many trials) are refused, never played again: the reason is kept for
    /// [`Ledger::refusal`].
    pub fn completed<S: Summary>(
        &self,
        stream: u64,
        trials: &Range<u64>,
        check: impl Fn(&S, u64) -> Result<(), String>,
    ) -> Result<Option<(S, u64)>, Refused> {
        let streams = self.streams_with(|recorded| recorded == stream);
        let Some(record) = streams.get(&stream) else {
            if self.whole {
                return Err(self.refuse(format!(
                    "stream {stream}: trials {}..{} are in no file",
                    trials.start, trials.end
                )));
            }
            return Ok(None);
        };
        let mut summary = S::default();
        let mut next = trials.start;
        for (index, part) in record.parts.iter().enumerate() {
            let at = if part.origin.is_empty() {
                format!("stream {stream} ({}) part {index}", record.label)
            } else {
                part.origin.clone()
            };
            let [first, end] = part.trials;
            if first != next || end > trials.end || end < first {
                return Err(self.refuse(format!(
                    "{at}: trials {first}..{end} do not continue {}..{next} within {}..{}",
                    trials.start, trials.start, trials.end
                )));
            }
            let part_summary = serde_json::from_str::<S>(part.summary.get())
                .map_err(|err| format!("its summary cannot be read: {err}"))
                .and_then(|read| check(&read, end - first).map(|()| read))
                .map_err(|reason| self.refuse(format!("{at}: {reason}")))?;
            summary.merge(&part_summary);
            next = end;
        }
        // Each part passed its own check, whose bounds add up; the whole is checked again.
        if let Err(reason) = check(&summary, next - trials.start) {
            return Err(self.refuse(format!(
                "stream {stream} ({}): trials {}..{next} together: {reason}",
                record.label, trials.start
            )));
        }
        if self.whole && next != trials.end {
            return Err(self.refuse(format!(
                "stream {stream} ({}): trials {next}..{} are in no file",
                record.label, trials.end
            )));
        }
        Ok(Some((summary, next)))
    }

    /// How many trials of `stream` the ledger holds from trial 0 on without a gap (0 when
    /// none): what a run that decides as it goes (see `studies::stop`) has already decided on.
    pub fn held(&self, stream: u64) -> u64 {
        if let Some(recorded) = lock(&self.recorded).get(&stream) {
            if recorded.trials.start == 0 {
                return recorded.trials.end;
            }
        }
        lock(&self.streams).get(&stream).map_or(0, |record| {
            let mut next = 0;
            for part in &record.parts {
                if part.trials[0] != next {
                    break;
                }
                next = part.trials[1];
            }
            next
        })
    }

    /// Records that trials `trials` of `stream` are complete, with their summary (a copy is
    /// kept; it becomes JSON when the ledger is next read or saved).
    pub fn record<S: Summary>(&self, stream: u64, label: &str, trials: Range<u64>, summary: &S) {
        lock(&self.recorded).insert(
            stream,
            Recorded {
                label: label.to_string(),
                trials,
                summary: Box::new(summary.clone()),
            },
        );
    }

    /// The streams, with every recorded summary written into them first: each replaces its
    /// stream's record with one part.
    fn streams(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, StreamRecord>> {
        self.streams_with(|_| true)
    }

    /// The streams, with the recorded summaries of the streams `wanted` picks written into
    /// them first (a run that looks up one stream does not write out every other).
    fn streams_with(
        &self,
        wanted: impl Fn(u64) -> bool,
    ) -> std::sync::MutexGuard<'_, BTreeMap<u64, StreamRecord>> {
        // The streams' lock is taken first and held, so two flushes cannot cross and leave an
        // older summary over a newer one.
        let mut streams = lock(&self.streams);
        let ready: BTreeMap<u64, Recorded> = {
            let mut recorded = lock(&self.recorded);
            let (ready, waiting) = std::mem::take(&mut *recorded)
                .into_iter()
                .partition(|&(stream, _)| wanted(stream));
            *recorded = waiting;
            ready
        };
        for (stream, record) in ready {
            streams.insert(
                stream,
                StreamRecord {
                    stream,
                    label: record.label,
                    parts: vec![Part::new(stream, record.trials, record.summary.to_json())],
                },
            );
        }
        streams
    }

    /// Saves the ledger if it saves on a timer and the time has come; a failure is reported on
    /// stderr and the run goes on (the next save tries again).
    pub fn save_if_due(&self) {
        let Some(saving) = &self.saving else { return };
        let Some(every) = saving.every else { return };
        {
            // The time is taken as it is looked at, so of several threads one saves.
            let mut last = lock(&saving.last);
            if last.elapsed() < every {
                return;
            }
            *last = Instant::now();
        }
        if let Err(err) = self.save() {
            note!("warning: checkpoint not saved: {err:#}");
        }
    }

    /// Saves the ledger to its file (if it has one), returning the trials it holds.
    pub fn save(&self) -> Result<u64> {
        let file = self.to_file();
        if let Some(saving) = &self.saving {
            let _writing = lock(&saving.writing);
            file.write(&saving.path)?;
            *lock(&saving.last) = Instant::now();
        }
        Ok(file.trials_done)
    }

    /// The file this ledger saves: its header, timings and completed trials.
    pub fn to_file(&self) -> SummaryFile {
        let streams: Vec<StreamRecord> = self.streams().values().cloned().collect();
        SummaryFile {
            wall_seconds: self.started.elapsed().as_secs_f64(),
            trials_done: trials_in(streams.iter()),
            streams,
            ..self.header.clone()
        }
    }

    /// Counts `trials` more trials played into this ledger by this process (whether or not
    /// they can be kept: a chunk that finished ahead of an unfinished one cannot).
    pub fn note_played(&self, trials: u64) {
        self.played.fetch_add(trials, Ordering::Relaxed);
    }

    /// Trials played into this ledger by this process (see [`Ledger::note_played`]).
    pub fn played(&self) -> u64 {
        self.played.load(Ordering::Relaxed)
    }

    /// Trials completed, all streams together.
    pub fn trials_done(&self) -> u64 {
        trials_in(self.streams().values())
    }

    /// Where the ledger is saved, if anywhere.
    pub fn path(&self) -> Option<&Path> {
        self.saving.as_ref().map(|saving| saving.path.as_path())
    }

    /// Why recorded summaries were refused, if they were: the run must then stop (its runner
    /// was cancelled) and say so.
    pub fn refusal(&self) -> Option<String> {
        lock(&self.refusal).clone()
    }

    /// Keeps `reason` (unless an earlier one is kept) and says the trials were refused.
    fn refuse(&self, reason: String) -> Refused {
        lock(&self.refusal).get_or_insert(reason);
        Refused
    }
}

/// Recorded trials were refused: the reason is [`Ledger::refusal`].
#[derive(Debug, PartialEq, Eq)]
pub struct Refused;

/// Trials covered by the parts of `streams`.
fn trials_in<'a>(streams: impl Iterator<Item = &'a StreamRecord>) -> u64 {
    streams
        .flat_map(|record| &record.parts)
        .map(|part| part.trials[1].saturating_sub(part.trials[0]))
        .sum()
}

/// Locks `mutex`, ignoring poisoning (every update is a single assignment).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::file::{FileKind, Identity, ShardId, FORMAT, FORMAT_VERSION};
    use super::*;
    use crate::summary::Summary;
    use crate::testing::Tally;

    fn header() -> SummaryFile {
        SummaryFile {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            kind: FileKind::Checkpoint,
            identity: Identity {
                crate_version: "0".into(),
                experiment: "e".into(),
                game: "war".into(),
                spec_sha256: "00".into(),
                seed: 1,
                trials_per_variant: 10,
                chunk_size: 4,
                variants: vec!["a".into()],
                design: Default::default(),
                stages: None,
            },
            spec_path: "e.toml".into(),
            spec: String::new(),
            shard: None,
            threads: 1,
            wall_seconds: 0.0,
            trials_done: 0,
            streams: Vec::new(),
        }
    }

    #[test]
    fn shards_split_a_range_into_disjoint_consecutive_parts() {
        for count in [1, 3, 7, 10] {
            let mut next = 5;
            for index in 0..count {
                let range = ShardId { index, count }.range(5..15);
                assert_eq!(range.start, next);
                assert!(range.end - range.start >= 10 / count);
                next = range.end;
            }
            assert_eq!(next, 15);
        }
        assert!("3/3".parse::<ShardId>().is_err());
        assert!("-1/3".parse::<ShardId>().is_err());
        assert!("1/0".parse::<ShardId>().is_err());
        assert_eq!("2/3".parse::<ShardId>(), Ok(ShardId { index: 2, count: 3 }));
    }

    #[test]
    fn a_saved_and_read_ledger_gives_back_the_same_summaries() {
        let mut summary = Tally::default();
        for turns in [300, 12, 40, 7, 90, 5, 61, 8] {
            summary.record(&(turns % 3 == 0));
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("ledger.json");
        let ledger = Ledger::new(header()).saving_to(&path, None);
        ledger.record(42, "a", 0..8, &summary);
        assert_eq!(ledger.save().expect("saved"), 8);
        let read = SummaryFile::read(&path).expect("read");
        assert_eq!(read.identity, header().identity);
        let resumed = Ledger::new(header());
        resumed.add(read.streams);
        let (back, next) = resumed
            .completed::<Tally>(42, &(0..10), Tally::check)
            .expect("usable")
            .expect("recorded");
        assert_eq!((back, next), (summary, 8));
        assert_eq!(
            resumed.completed::<Tally>(43, &(0..10), Tally::check),
            Ok(None)
        );
    }

    #[test]
    fn the_latest_record_of_a_stream_is_what_the_ledger_reads_and_saves() {
        let summary = |games| Tally { games, rare: games };
        let ledger = Ledger::new(header());
        ledger.record(5, "a", 0..4, &summary(4));
        ledger.record(5, "a", 0..6, &summary(6));
        assert_eq!(ledger.trials_done(), 6);
        // A record after the ledger was read replaces what that read wrote out.
        ledger.record(5, "a", 0..9, &summary(9));
        ledger.record(6, "b", 0..2, &summary(2));
        assert_eq!(
            ledger.completed::<Tally>(5, &(0..10), Tally::check),
            Ok(Some((summary(9), 9)))
        );
        // Looking up stream 5 wrote out stream 5's record only.
        let waiting: Vec<u64> = lock(&ledger.recorded).keys().copied().collect();
        assert_eq!(waiting, vec![6]);
        let file = ledger.to_file();
        assert_eq!(file.trials_done, 11);
        let parts: Vec<_> = file
            .streams
            .iter()
            .map(|record| (record.stream, record.parts.len(), record.parts[0].trials))
            .collect();
        assert_eq!(parts, vec![(5, 1, [0, 9]), (6, 1, [0, 2])]);
    }

    #[test]
    fn parts_that_do_not_continue_the_range_or_fail_their_check_are_refused() {
        let games = |games| Tally { games, rare: games };
        let ledger = Ledger::new(header());
        ledger.record(1, "a", 2..8, &games(6));
        assert_eq!(
            ledger.completed::<Tally>(1, &(0..10), Tally::check),
            Err(Refused)
        );
        let reason = ledger.refusal().expect("a reason");
        assert!(
            reason.contains("trials 2..8 do not continue 0..0"),
            "{reason}"
        );
        let ledger = Ledger::new(header());
        ledger.record(1, "a", 0..8, &games(9));
        assert_eq!(
            ledger.completed::<Tally>(1, &(0..10), Tally::check),
            Err(Refused)
        );
        let reason = ledger.refusal().expect("a reason");
        assert!(
            reason.contains("stream 1 (a) part 0: games 9 but its trial range holds 8"),
            "{reason}"
        );
        let ledger = Ledger::new(header());
        ledger.record(1, "a", 0..8, &games(8));
        assert!(matches!(
            ledger.completed::<Tally>(1, &(0..10), Tally::check),
            Ok(Some((_, 8)))
        ));
        // A whole ledger (a merge) refuses trials it does not hold rather than play them.
        let whole = Ledger::new(header()).whole();
        whole.record(1, "a", 0..8, &games(8));
        assert_eq!(
            whole.completed::<Tally>(1, &(0..10), Tally::check),
            Err(Refused)
        );
        assert_eq!(
            whole.completed::<Tally>(2, &(0..10), Tally::check),
            Err(Refused)
        );
        assert!(whole
            .refusal()
            .expect("why")
            .contains("trials 8..10 are in no file"));
    }
}
