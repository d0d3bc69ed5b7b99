//! Checks of a summaries file before anything in it is used, each refusal saying what is
//! wrong and where (`shard-1-of-3.json: stream 12 (high_first) part 0: …`):
//!
//! - [`check_file`], on the file alone: its header (a shard that exists, trials within the
//!   spec's limits), every part's digest, every part's trials inside the file's share of the
//!   run, no two parts overlapping, each stream once, and `trials_done` their total;
//! - [`check_run`], against the run that uses it: every stream one of the run's, and the
//!   trials usable as they are: a checkpoint's from the start of its share with no gap, a
//!   shard's all of its share for every stream.
//!
//! The summaries inside the parts are checked by the game when they are read
//! ([`crate::summary::Summary::check`], from `Ledger::completed`).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;

use anyhow::{bail, Result};

use super::file::{FileKind, Part, StreamRecord, SummaryFile, MAX_SHARDS};
use crate::summary_check::MAX_TRIALS;

/// The random streams of a run, by stream: the variant's name (a stream a file must label
/// with that name), or what else the stream plays.
pub struct RunStreams {
    streams: BTreeMap<u64, (String, bool)>,
}

impl RunStreams {
    /// The streams of a run: its variants' (stream, variant name), and `others` (stream, what
    /// it plays).
    pub fn new<'a>(
        variants: impl IntoIterator<Item = (u64, &'a str)>,
        others: &[(u64, &str)],
    ) -> RunStreams {
        let mut streams: BTreeMap<u64, (String, bool)> = others
            .iter()
            .map(|&(stream, what)| (stream, (what.to_string(), false)))
            .collect();
        for (stream, name) in variants {
            streams.insert(stream, (name.to_string(), true));
        }
        RunStreams { streams }
    }
}

/// Checks `file`, read from `path`, on its own.
pub fn check_file(file: &SummaryFile, path: &Path) -> Result<()> {
    let at = path.display();
    let identity = &file.identity;
    if !(1..=MAX_TRIALS).contains(&identity.trials_per_variant) {
        bail!(
            "{at}: trials_per_variant {} is outside 1 to {MAX_TRIALS}",
            identity.trials_per_variant
        );
    }
    if identity.chunk_size == 0 {
        bail!("{at}: chunk_size is 0");
    }
    if i64::try_from(identity.seed).is_err() {
        bail!("{at}: seed {} is outside 0 to 2^63 - 1", identity.seed);
    }
    if !(file.wall_seconds.is_finite() && file.wall_seconds >= 0.0) {
        bail!("{at}: wall_seconds {} is not a duration", file.wall_seconds);
    }
    match (file.kind, file.shard) {
        (FileKind::Shard, None) => bail!("{at}: a shard file that names no shard"),
        (_, Some(shard))
            if shard.count == 0 || shard.count > MAX_SHARDS || shard.index >= shard.count =>
        {
            bail!(
                "{at}: shard {}/{} does not exist (COUNT from 1 to {MAX_SHARDS}, INDEX from 0 \
                 to COUNT-1)",
                shard.index,
                shard.count
            )
        }
        (_, Some(shard)) if identity.trials_per_variant < shard.count => bail!(
            "{at}: {} trials per variant cannot be split into {} shards",
            identity.trials_per_variant,
            shard.count
        ),
        _ => {}
    }
    let scope = file.scope();
    let mut seen = BTreeSet::new();
    let mut trials_done: u64 = 0;
    for record in &file.streams {
        let stream = format!("{at}: stream {} ({})", record.stream, record.label);
        if !seen.insert(record.stream) {
            bail!("{stream} is in the file twice");
        }
        check_parts(record, &scope, &stream)?;
        for part in &record.parts {
            trials_done = trials_done.saturating_add(part.trials[1] - part.trials[0]);
        }
    }
    if trials_done != file.trials_done {
        bail!(
            "{at}: trials_done {} but its parts hold {trials_done} trials",
            file.trials_done
        );
    }
    Ok(())
}

/// Checks the parts of `record` (named `stream` in messages) against their digests, `scope`
/// and each other.
fn check_parts(record: &StreamRecord, scope: &Range<u64>, stream: &str) -> Result<()> {
    let mut previous: Option<[u64; 2]> = None;
    for (index, part) in record.parts.iter().enumerate() {
        let Part { trials, .. } = part;
        let [first, end] = *trials;
        let at = format!("{stream} part {index}");
        if part.sha256 != Part::digest(record.stream, *trials, part.summary.get()) {
            bail!(
                "{at}: its digest does not match its content (the file was damaged or edited; \
                 run that part again)"
            );
        }
        if first >= end {
            bail!("{at}: trials {first}..{end} hold no trial");
        }
        if first < scope.start || end > scope.end {
            bail!(
                "{at}: trials {first}..{end} go beyond the file's trials {}..{}",
                scope.start,
                scope.end
            );
        }
        if let Some([before, after]) = previous {
            if first < after {
                bail!(
                    "{at}: trials {first}..{end} overlap trials {before}..{after} of part {}",
                    index - 1
                );
            }
        }
        previous = Some(*trials);
    }
    Ok(())
}

/// Checks that `file`, read from `path`, fits the run whose streams are `run`: each of its
/// streams is one of the run's, labelled as the run labels it, and its trials can be used as
/// they are: with `whole` (a shard to merge), every stream of the run holds all of the
/// file's share; otherwise (a checkpoint), each stream's trials start at its share's start
/// and have no gap.
pub fn check_run(file: &SummaryFile, path: &Path, run: &RunStreams, whole: bool) -> Result<()> {
    let at = path.display();
    let scope = file.scope();
    let mut present = BTreeSet::new();
    for record in &file.streams {
        let stream = format!("{at}: stream {} ({})", record.stream, record.label);
        match run.streams.get(&record.stream) {
            None => bail!(
                "{stream} is not a stream of this run (its streams are its variants' and the \
                 game's own): the file was edited or belongs to another run"
            ),
            Some((name, true)) if *name != record.label => bail!(
                "{stream} is the stream of variant '{name}', not of '{}'",
                record.label
            ),
            Some(_) => {}
        }
        present.insert(record.stream);
        let mut next = scope.start;
        for (index, part) in record.parts.iter().enumerate() {
            let [first, end] = part.trials;
            if first != next {
                bail!(
                    "{stream} part {index}: trials {first}..{end} do not continue trials \
                     {}..{next}{}",
                    scope.start,
                    if whole { "" } else { " (a gap)" }
                );
            }
            next = end;
        }
        if whole && next != scope.end {
            bail!(
                "{stream}: trials {next}..{} of its share {}..{} are missing",
                scope.end,
                scope.start,
                scope.end
            );
        }
    }
    if whole {
        let missing: Vec<String> = run
            .streams
            .iter()
            .filter(|(stream, _)| !present.contains(stream))
            .map(|(stream, (name, _))| format!("stream {stream} ({name})"))
            .collect();
        if !missing.is_empty() {
            bail!(
                "{at}: {} of the run's streams are missing: {}",
                missing.len(),
                missing.join(", ")
            );
        }
    }
    Ok(())
}
