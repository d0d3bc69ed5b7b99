//! `manifest.json`: what was run, how, and how fast.

pub mod facts;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde::Serialize;

use crate::digest::sha256_hex;
use crate::runner::{Decisions, Selection, Stopped};
use crate::spec::{Experiment, Mode, Select, Stop};
use crate::staging::identity::{FileDigest, RESULTS_FORMAT, RESULTS_FORMAT_VERSION};
use crate::staging::Staging;

/// The record of one run.
#[derive(Debug, Serialize)]
pub struct Manifest {
    /// What this file is: always [`RESULTS_FORMAT`] ("experiment-results"), so a later run
    /// knows the folder is this engine's.
    pub format: String,
    /// The version of that format ([`RESULTS_FORMAT_VERSION`]).
    pub format_version: u32,
    /// Experiment name.
    pub experiment: String,
    /// Game played.
    pub game: String,
    /// Spec file path as given.
    pub spec_path: String,
    /// SHA-256 of the spec text.
    pub spec_sha256: String,
    /// The spec text.
    pub spec: String,
    /// Master seed used (after any `--seed`).
    pub seed: u64,
    /// Trials per variant (after any `--trials`). In a run with a precision target or a
    /// selection, the most trials any variant played (each variant's are in
    /// [`Manifest::stop`] or [`Manifest::select`]).
    pub trials_per_variant: u64,
    /// Variants run, in order.
    pub variants: Vec<String>,
    /// How the variants got their random numbers (`[design] random_numbers`).
    pub random_numbers: crate::design::Design,
    /// The parameters `[compare] within` lists: only variants equal in them were compared.
    /// Not written when the spec groups nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compare_within: Vec<String>,
    /// Trials per parallel chunk.
    pub chunk_size: u64,
    /// Worker threads.
    pub threads: usize,
    /// Version of this engine.
    pub crate_version: String,
    /// Git commit the engine was built from, embedded at build time ("unknown" when it was
    /// built outside a git work tree).
    pub engine_commit: String,
    /// Whether the engine's work tree had uncommitted changes to tracked files when it was
    /// built (none when unknown).
    pub engine_modified: Option<bool>,
    /// Git commit of the repository holding the spec file, when it is in a git work tree.
    pub spec_git_commit: Option<String>,
    /// Whether that repository had uncommitted changes to tracked files when the run started.
    pub spec_git_modified: Option<bool>,
    /// Wall-clock seconds of simulation and analysis.
    pub wall_seconds: f64,
    /// Trials per second over the whole run.
    pub trials_per_second: f64,
    /// Wall-clock seconds spent playing trials (analysis and writing excluded).
    pub simulation_seconds: f64,
    /// Trials played per second of `simulation_seconds`: the parallel engine's throughput.
    pub simulation_trials_per_second: f64,
    /// Files written next to this manifest, and the manifest itself.
    pub files: Vec<String>,
    /// The size and SHA-256 of every file but the manifest: what lets a later run prove the
    /// folder holds only what this engine wrote, and replace it.
    pub file_digests: Vec<FileDigest>,
    /// The shard files merged into these results (`experiment merge` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shards: Option<Vec<MergedShard>>,
    /// A run with a precision target (`[stop]`): its rule and where each variant stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<ManifestStop>,
    /// A selection of the best (`[select]`): its rule, what it chose, and how far each
    /// variant went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub select: Option<ManifestSelect>,
}

/// What the manifest of a run with a precision target records of it.
#[derive(Debug, Serialize)]
pub struct ManifestStop {
    /// The metric whose 95% interval had to be narrow enough.
    pub metric: String,
    /// How narrow, as the report writes it (`±0.001`, `±5% of the estimate`).
    pub target: String,
    /// Trials per stage.
    pub stage_trials: u64,
    /// Most trials a variant could play.
    pub max_trials: u64,
    /// The trials each variant played, in variant order.
    pub variant_trials: Vec<u64>,
    /// Whether each variant met the target (else it stopped at the cap), in variant order.
    pub reached: Vec<bool>,
    /// Whether the target's guarantee holds for each variant, in variant order: it met the
    /// target on an interval of positive width (not on a variance estimate of 0, when every
    /// trial of its stages gave the same value).
    pub guaranteed: Vec<bool>,
}

impl ManifestStop {
    /// The record of a run of `experiment` (`trials` per variant, before any stage size)
    /// with the precision target `stop` that stopped each variant as `stops` say.
    pub fn new(stop: &Stop, trials: u64, stops: &[Stopped]) -> ManifestStop {
        ManifestStop {
            metric: stop.metric.clone(),
            target: stop.target.to_string(),
            stage_trials: stop.stage(trials),
            max_trials: stop.max_trials,
            variant_trials: stops.iter().map(|s| s.trials).collect(),
            reached: stops.iter().map(|s| s.reached).collect(),
            guaranteed: stops.iter().map(Stopped::guaranteed).collect(),
        }
    }
}

/// What the manifest of a selection of the best records of it.
#[derive(Debug, Serialize)]
pub struct ManifestSelect {
    /// The metric whose best value was sought.
    pub metric: String,
    /// Which end of it is best: `max` or `min`.
    pub goal: String,
    /// Differences smaller than this do not matter, in the metric's units.
    pub indifference: f64,
    /// The probability of a correct selection guaranteed.
    pub confidence: f64,
    /// Trials per stage.
    pub stage_trials: u64,
    /// Most trials a variant could play.
    pub max_trials: u64,
    /// Stages played.
    pub stages: u64,
    /// The variant chosen.
    pub selected: String,
    /// Whether it was the only one left, so that the guarantee holds (else the cap was
    /// reached with several left).
    pub guaranteed: bool,
    /// The trials each variant played, in variant order.
    pub variant_trials: Vec<u64>,
    /// The stage (from 1) after which each variant was eliminated, in variant order (null
    /// for one never eliminated).
    pub eliminated_at_stage: Vec<Option<u64>>,
    /// Trials Rinott's two-stage procedure would take over all variants for the same guarantee.
    pub rinott_trials: u64,
    /// Trials an equal allocation would take for the same guarantee.
    pub equal_trials: u64,
}

impl ManifestSelect {
    /// The record of a run (`trials` per variant, before any stage size) of the selection
    /// `select` that decided `selection`.
    pub fn new(select: &Select, trials: u64, selection: &Selection) -> ManifestSelect {
        let rows = &selection.variants;
        ManifestSelect {
            metric: select.metric.clone(),
            goal: select.goal.name().to_string(),
            indifference: select.indifference,
            confidence: select.confidence,
            stage_trials: select.stage(trials),
            max_trials: select.max_trials,
            stages: selection.stages,
            selected: rows[selection.chosen].variant.clone(),
            guaranteed: selection.guaranteed(),
            variant_trials: rows.iter().map(|v| v.trials).collect(),
            eliminated_at_stage: rows.iter().map(|v| v.eliminated_at).collect(),
            rinott_trials: selection.rinott_trials,
            equal_trials: selection.equal_trials,
        }
    }
}

/// One shard file merged by `experiment merge`.
#[derive(Debug, Serialize)]
pub struct MergedShard {
    /// Its index, from 0.
    pub index: u64,
    /// How many shards the run was split into.
    pub count: u64,
    /// The file, as named to `merge`.
    pub file: String,
    /// SHA-256 of the file.
    pub sha256: String,
    /// Trials it holds.
    pub trials: u64,
    /// Worker threads of the run that wrote it.
    pub threads: usize,
    /// Wall-clock seconds of that run.
    pub wall_seconds: f64,
}

/// Runs `git -C dir args...` and returns its trimmed output, if git succeeded.
/// What the running program was built from, recorded in every manifest: the git commit, and
/// whether its sources had uncommitted changes (None: not known).
#[derive(Clone, Copy, Debug)]
pub struct Build {
    /// The commit, or "unknown" outside a git work tree.
    pub commit: &'static str,
    /// Whether the sources differed from the commit.
    pub modified: Option<bool>,
}

static BUILD: OnceLock<Build> = OnceLock::new();

/// Records what the program was built from (its build script knows; the engine does not), once,
/// before any manifest is written; a second call is ignored.
pub fn set_build(build: Build) {
    let _ = BUILD.set(build);
}

/// What the program was built from, as [`set_build`] recorded it ("unknown" otherwise).
pub fn build() -> Build {
    BUILD.get().copied().unwrap_or(Build {
        commit: "unknown",
        modified: None,
    })
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    output.status.success().then(|| text.trim().to_string())
}

/// The commit of the git work tree holding `file`, and whether tracked files have uncommitted
/// changes; none when `file` is not in a git work tree (or git is not installed).
pub fn repository_state(file: &Path) -> Option<(String, bool)> {
    let dir = match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let commit = git(dir, &["rev-parse", "--verify", "HEAD"]).filter(|c| !c.is_empty())?;
    let status = git(dir, &["status", "--porcelain", "--untracked-files=no"])?;
    Some((commit, !status.is_empty()))
}

impl Manifest {
    /// The manifest of a run of `experiment` about to start; the caller fills in the runner's
    /// settings, timings and files.
    pub fn new(experiment: &Experiment) -> Manifest {
        let spec_repository = repository_state(&experiment.path);
        Manifest {
            format: RESULTS_FORMAT.to_string(),
            format_version: RESULTS_FORMAT_VERSION,
            experiment: experiment.name.clone(),
            game: experiment.study.game().to_string(),
            spec_path: experiment.path.display().to_string(),
            spec_sha256: sha256_hex(&experiment.source),
            spec: experiment.source.clone(),
            seed: experiment.seed,
            trials_per_variant: experiment.trials,
            variants: experiment.variants.iter().map(|v| v.name.clone()).collect(),
            random_numbers: experiment.design,
            compare_within: experiment
                .compare
                .within
                .iter()
                .map(|name| name.to_string())
                .collect(),
            chunk_size: 0,
            threads: 0,
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            engine_commit: build().commit.to_string(),
            engine_modified: build().modified,
            spec_git_commit: spec_repository.as_ref().map(|(commit, _)| commit.clone()),
            spec_git_modified: spec_repository.map(|(_, modified)| modified),
            wall_seconds: 0.0,
            trials_per_second: 0.0,
            simulation_seconds: 0.0,
            simulation_trials_per_second: 0.0,
            files: Vec::new(),
            file_digests: Vec::new(),
            shards: None,
            stop: None,
            select: None,
        }
    }

    /// Records what a run in stages decided (`decisions`): the rule, each variant's trials
    /// (and, for a selection, the choice), and as trials per variant the most any variant
    /// played. Nothing changes for a fixed run.
    pub fn note_decisions(&mut self, experiment: &Experiment, decisions: &Decisions) {
        match (&experiment.mode, decisions) {
            (Mode::Stop(stop), Decisions::Stops(stops)) => {
                if let Some(most) = stops.iter().map(|s| s.trials).max() {
                    self.trials_per_variant = most;
                }
                self.stop = Some(ManifestStop::new(stop, experiment.trials, stops));
            }
            (Mode::Select(select), Decisions::Selection(selection)) => {
                if let Some(most) = selection.variants.iter().map(|v| v.trials).max() {
                    self.trials_per_variant = most;
                }
                self.select = Some(ManifestSelect::new(select, experiment.trials, selection));
            }
            _ => {}
        }
    }

    /// The trials each variant played, in variant order, where they differ from variant to
    /// variant (a run with a precision target or a selection).
    pub fn variant_trials(&self) -> Option<&[u64]> {
        match (&self.stop, &self.select) {
            (Some(stop), _) => Some(&stop.variant_trials),
            (None, Some(select)) => Some(&select.variant_trials),
            (None, None) => None,
        }
    }

    /// Trials played over every variant: each variant's own in a run with a precision
    /// target or a selection, else trials per variant times variants.
    pub fn total_trials(&self) -> u64 {
        match self.variant_trials() {
            Some(each) => each.iter().sum(),
            None => self.trials_per_variant * self.variants.len() as u64,
        }
    }

    /// Records the files written into `staging` so far, with their digests, and the manifest
    /// itself: call it last, just before writing the manifest.
    pub fn list_files(&mut self, staging: &Staging) -> anyhow::Result<()> {
        self.files = staging.files().to_vec();
        self.files.push(crate::staging::identity::MANIFEST.into());
        self.file_digests = staging.digests()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_outside_any_git_work_tree_has_no_repository_state() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(repository_state(&dir.path().join("spec.toml")), None);
    }
}
