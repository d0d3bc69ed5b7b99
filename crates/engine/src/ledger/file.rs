//! The summaries file: a versioned, self-describing JSON record of which trials of which
//! variants a run has completed, with their exact summaries. Checkpoints and shards are both
//! such files; `experiment merge` reads them back.

use crate::console::note;
use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::str::FromStr;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::design::Design;
use crate::digest::sha256_hex;

/// What the `format` field of every summaries file says.
pub const FORMAT: &str = "experiment-summaries";
/// Version of the layout below; a file of another version is refused. Version 2 added each
/// part's digest ([`Part::sha256`]).
pub const FORMAT_VERSION: u32 = 2;

/// Why a summaries file was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    /// Saved by a run so that `--resume` can continue it.
    Checkpoint,
    /// One shard of a run split with `--shard`, for `experiment merge`.
    Shard,
    /// A finished run, kept in its results folder as `summaries.json`, so that a later run
    /// of the same spec with more trials plays only the new ones (a top-up).
    Results,
}

/// Which share of every variant's trials a shard plays: `index` of `count` (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardId {
    /// This shard, 0 to `count - 1`.
    pub index: u64,
    /// How many shards the run is split into.
    pub count: u64,
}

impl ShardId {
    /// This shard's share of `trials`: the `index`-th of `count` consecutive, disjoint ranges
    /// that differ in length by at most one trial and together make up `trials`.
    pub fn range(&self, trials: Range<u64>) -> Range<u64> {
        let length = u128::from(trials.end.saturating_sub(trials.start));
        let bound = |index: u64| {
            trials.start + (length * u128::from(index) / u128::from(self.count)) as u64
        };
        bound(self.index)..bound(self.index + 1)
    }
}

impl FromStr for ShardId {
    type Err = String;

    /// Parses `INDEX/COUNT`, e.g. `3/8`, with INDEX from 0 to COUNT - 1.
    fn from_str(text: &str) -> Result<ShardId, String> {
        let parsed = text.split_once('/').and_then(|(index, count)| {
            Some((index.trim().parse().ok()?, count.trim().parse().ok()?))
        });
        match parsed {
            Some((index, count)) if count >= 1 && index < count && count <= MAX_SHARDS => {
                Ok(ShardId { index, count })
            }
            _ => Err(format!(
                "'{text}' is not a shard: write INDEX/COUNT with COUNT from 1 to {MAX_SHARDS} and \
                 INDEX from 0 to COUNT-1, e.g. 0/4 (Slurm: --shard $SLURM_ARRAY_TASK_ID/4)"
            )),
        }
    }
}

/// The most shards a run may be split into.
pub const MAX_SHARDS: u64 = 100_000;

impl fmt::Display for ShardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a summaries file belongs to: two files can be combined, or a file used by a run, only
/// when these agree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Version of the engine that wrote the file.
    pub crate_version: String,
    /// Experiment name.
    pub experiment: String,
    /// Game played.
    pub game: String,
    /// SHA-256 of the spec text.
    pub spec_sha256: String,
    /// Master seed.
    pub seed: u64,
    /// Trials per variant of the whole run (all shards together).
    pub trials_per_variant: u64,
    /// Trials per parallel chunk.
    pub chunk_size: u64,
    /// Variants run, in order.
    pub variants: Vec<String>,
    /// How the variants get their random numbers. Not written for the default (independent)
    /// design, so files of independent runs read as they did before designs existed.
    #[serde(default, skip_serializing_if = "Design::is_default")]
    pub design: Design,
    /// The settings of a run in stages, as one line (`[stop] metric = "mean_turns",
    /// relative_half_width = 0.05, max_trials = 100000, stage_trials = 1000`), which
    /// [`Identity::spec_sha256`] covers too; not written for a run of fixed trials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stages: Option<String>,
}

impl Identity {
    /// Each field where `other` differs from `self`, as "name: X here, Y there" with the
    /// labels given.
    pub fn differences(&self, other: &Identity, mine: &str, theirs: &str) -> Vec<String> {
        let fields: [(&str, IdentityField); 9] = [
            ("the engine version", |i| i.crate_version.clone()),
            ("the experiment", |i| i.experiment.clone()),
            ("the game", |i| i.game.clone()),
            ("the spec's SHA-256", |i| i.spec_sha256.clone()),
            ("the seed", |i| i.seed.to_string()),
            ("the trials per variant", |i| {
                i.trials_per_variant.to_string()
            }),
            ("the chunk size", |i| i.chunk_size.to_string()),
            ("the variants", |i| i.variants.join(",")),
            ("the design of the random numbers", |i| {
                i.design.name().to_string()
            }),
        ];
        let staged = stage_differences(self.stages.as_deref(), other.stages.as_deref());
        let mut found: Vec<String> = fields
            .iter()
            // Settings of the stages that differ change the digest and the cap too: the
            // settings are named instead.
            .filter(|(name, _)| {
                staged.is_empty()
                    || !["the spec's SHA-256", "the trials per variant"].contains(name)
            })
            .filter_map(|(name, field)| {
                let (a, b) = (field(self), field(other));
                (a != b).then(|| format!("{name} is {a} in {mine} but {b} in {theirs}"))
            })
            .collect();
        found.extend(
            staged
                .into_iter()
                .map(|(key, a, b)| format!("{key} is {a} in {mine} but {b} in {theirs}")),
        );
        found
    }
}

/// Each setting that differs between two lines of stage settings ([`Identity::stages`]), as
/// (setting, first value, second value): `[stop] relative_half_width`, `0.06`, `0.05`.
fn stage_differences(mine: Option<&str>, theirs: Option<&str>) -> Vec<(String, String, String)> {
    if mine == theirs {
        return Vec::new();
    }
    let split = |line: Option<&str>| -> (String, Vec<(String, String)>) {
        let line = line.unwrap_or("");
        let (table, settings) = line.split_once(' ').unwrap_or((line, ""));
        let pairs = settings
            .split(", ")
            .filter_map(|pair| pair.split_once(" = "))
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect();
        (table.to_string(), pairs)
    };
    let ((table, a), (other_table, b)) = (split(mine), split(theirs));
    if table != other_table || table.is_empty() {
        let shown =
            |line: Option<&str>| line.map_or("a run of fixed trials".into(), |l| format!("`{l}`"));
        return vec![("the run in stages".into(), shown(mine), shown(theirs))];
    }
    let value = |pairs: &[(String, String)], key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map_or("not set".to_string(), |(_, v)| v.clone())
    };
    let mut keys: Vec<&str> = Vec::new();
    for (key, _) in a.iter().chain(&b) {
        if !keys.contains(&key.as_str()) {
            keys.push(key);
        }
    }
    keys.into_iter()
        .filter_map(|key| {
            let (x, y) = (value(&a, key), value(&b, key));
            (x != y).then(|| (format!("{table} {key}"), x, y))
        })
        .collect()
}

/// One field of an [`Identity`], as text.
type IdentityField = fn(&Identity) -> String;

/// Consecutive trials of one variant and their summary.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Part {
    /// First trial and one past the last, `[first, end)`.
    pub trials: [u64; 2],
    /// The game's summary of those trials, as the game serializes it.
    pub summary: Box<RawValue>,
    /// The part's digest, [`Part::digest`] of its stream, trials and summary.
    pub sha256: String,
    /// Where the part was read from, for messages (`FILE: stream S (LABEL) part I`); empty
    /// for a part this process recorded.
    #[serde(skip)]
    pub origin: String,
}

impl Part {
    /// Trials `trials` of `stream` with their summary, and its digest.
    pub fn new(stream: u64, trials: Range<u64>, summary: Box<RawValue>) -> Part {
        let trials = [trials.start, trials.end];
        Part {
            sha256: Part::digest(stream, trials, summary.get()),
            trials,
            summary,
            origin: String::new(),
        }
    }

    /// The SHA-256 (in hex) of the text `experiment-summaries 2 stream S trials FIRST END`, a
    /// newline, and the summary's JSON exactly as written in the file. Anyone can compute it
    /// again, so it guards against accidents (a truncated copy, a flipped bit, a hand edit),
    /// not against someone who means to forge a file: the checks of the summaries' structure
    /// are what refuse a forged part whose digest was recomputed.
    pub fn digest(stream: u64, trials: [u64; 2], summary: &str) -> String {
        let [first, end] = trials;
        sha256_hex(&format!(
            "{FORMAT} {FORMAT_VERSION} stream {stream} trials {first} {end}\n{summary}"
        ))
    }
}

/// The completed trials of one random stream (a variant, or a game's extra stream).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StreamRecord {
    /// The stream (`Variant::stream`).
    pub stream: u64,
    /// The variant's name, or what else the stream plays (informational).
    pub label: String,
    /// Its parts, in trial order.
    pub parts: Vec<Part>,
}

/// A whole summaries file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SummaryFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`FORMAT_VERSION`] when written by this engine.
    pub format_version: u32,
    /// Checkpoint or shard.
    pub kind: FileKind,
    /// What the summaries belong to.
    pub identity: Identity,
    /// The spec file's path as given to the run.
    pub spec_path: String,
    /// The spec text, so a merge needs no copy of the spec file.
    pub spec: String,
    /// The shard this file holds (none for a whole run).
    pub shard: Option<ShardId>,
    /// Worker threads of the run that wrote it.
    pub threads: usize,
    /// Seconds the run had spent when it wrote the file.
    pub wall_seconds: f64,
    /// Trials completed, all streams together.
    pub trials_done: u64,
    /// Completed trials by stream.
    pub streams: Vec<StreamRecord>,
}

/// Just the fields that say whether a file is a summaries file at all, read first so that any
/// other JSON file gets a plain message.
#[derive(Deserialize)]
struct FormatProbe {
    format: Option<String>,
    format_version: Option<u32>,
}

impl SummaryFile {
    /// Reads the summaries file at `path` and checks it on its own (see `ledger::check`).
    pub fn read(path: &Path) -> Result<SummaryFile> {
        Ok(SummaryFile::read_with_digest(path)?.0)
    }

    /// [`SummaryFile::read`], with the SHA-256 of the file's text.
    pub fn read_with_digest(path: &Path) -> Result<(SummaryFile, String)> {
        let text = super::read::read_text(path)?;
        let probe: FormatProbe = serde_json::from_str(&text).map_err(|err| {
            anyhow::anyhow!(
                "{} is not a summaries file written by `experiment` ({err})",
                path.display()
            )
        })?;
        if probe.format.as_deref() != Some(FORMAT) {
            bail!(
                "{} is not a summaries file written by `experiment` (no \"format\": \"{FORMAT}\")",
                path.display()
            );
        }
        if probe.format_version != Some(FORMAT_VERSION) {
            bail!(
                "{} has summaries format version {}, but this engine reads version \
                 {FORMAT_VERSION}: merge or resume it with the engine version that wrote it",
                path.display(),
                probe
                    .format_version
                    .map_or("(none)".to_string(), |v| v.to_string())
            );
        }
        let mut file: SummaryFile = serde_json::from_str(&text)
            .with_context(|| format!("summaries file {} is damaged", path.display()))?;
        super::check::check_file(&file, path)?;
        for record in &mut file.streams {
            for (index, part) in record.parts.iter_mut().enumerate() {
                part.origin = format!(
                    "{}: stream {} ({}) part {index}",
                    path.display(),
                    record.stream,
                    record.label
                );
            }
        }
        Ok((file, sha256_hex(&text)))
    }

    /// The trials this file's parts may hold: the shard's share of the run, or all of it.
    pub fn scope(&self) -> Range<u64> {
        let trials = 0..self.identity.trials_per_variant;
        self.shard
            .map_or(trials.clone(), |shard| shard.range(trials))
    }

    /// Writes the file to `path` through a temporary file renamed into place, so `path` always
    /// holds a complete file (the previous one until the rename).
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string(self)? + "\n";
        let limit = super::read::limit_bytes()?;
        if text.len() as u64 > limit {
            note!(
                "warning: {} is larger than {} MiB, the most `merge` and `--resume` read: set \
                 {}={} when they read it",
                path.display(),
                limit >> 20,
                super::read::LIMIT_VARIABLE,
                (text.len() as u64).div_ceil(1 << 20)
            );
        }
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temporary = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|err| {
                let _ = std::fs::remove_file(&temporary);
                anyhow::anyhow!("cannot write {}: {err}", path.display())
            })
    }
}
