//! A run as a value: a validated experiment played, and everything it gives (tables, charts,
//! report, manifest and the summaries of its trials) kept in memory. Writing a results folder
//! is one use of it ([`RunResults::write`], what `experiment run` does); a library caller reads
//! the tables as they are ([`run_in_memory`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Result};
use polars::prelude::DataFrame;

use super::checkpoint;
use super::export::{json_text, Export};
use super::overrides;
pub use super::overrides::Overrides;
use super::results::{report, reproduce_command};
use super::summaries;
use crate::interrupt;
use crate::ledger::file::{FileKind, SummaryFile};
use crate::ledger::Ledger;
use crate::manifest::Manifest;
use crate::registry::Registry;
use crate::report::{markdown, Block, StudyOutput};
use crate::runner::{Runner, Watch};
use crate::spec::Experiment;
use crate::staging::Staging;
use crate::studies::Study;

/// How a run is played: on how many threads, in chunks of how many trials, with or without a
/// progress bar, watched or not. None of them changes a number.
#[derive(Clone, Debug, Default)]
pub struct Playing {
    /// Worker threads (none: one per core).
    pub threads: Option<u16>,
    /// Trials per parallel chunk (none: the default for the trial count).
    pub chunk_size: Option<u64>,
    /// Whether a progress bar is drawn (on a terminal only).
    pub progress: bool,
    /// A caller's handle that follows the run and can stop it (an embedding program's; the
    /// command line stops runs by its signal handler).
    pub watch: Option<Watch>,
}

/// The error of a run stopped through its [`Watch`] (an embedding program's interrupt): what
/// was kept, and how to continue. The command line exits from its signal handler instead.
#[derive(Debug, thiserror::Error)]
#[error("interrupted{kept}")]
pub struct Interrupted {
    /// What was kept: the checkpoint saved and how to continue, or why nothing was.
    pub kept: String,
}

/// A finished run, in memory.
pub struct RunResults {
    /// The experiment played, with its overrides applied.
    pub experiment: Experiment,
    /// What the study gives: its tables (by name, as Polars frames, in the order the report
    /// shows them), charts, report body and console text.
    pub output: StudyOutput,
    /// The record of the run; it lists files only once a folder is written.
    pub manifest: Manifest,
    /// The summaries of every trial, by random stream (what `summaries.json` keeps).
    pub summaries: SummaryFile,
    /// Trials this run played itself (all variants); a top-up reused the others.
    pub played: u64,
    /// The command that reproduces the run, quoted for a POSIX shell.
    pub reproduce: String,
    /// When the work began, for the manifest's wall time.
    pub started: Instant,
}

impl RunResults {
    /// The table called `name` (e.g. `summary`, `comparisons`), if the run has one.
    pub fn table(&self, name: &str) -> Option<&DataFrame> {
        self.output
            .tables
            .iter()
            .find(|table| table.name == name)
            .map(|table| &table.frame)
    }

    /// The whole report as blocks: the run's header (name, description, game, seed, trials,
    /// design, variants, the reproduce command) above the study's body.
    pub fn report(&self) -> Vec<Block> {
        report(
            &self.experiment,
            &self.manifest,
            &self.output.report,
            &self.reproduce,
        )
    }

    /// The report as Markdown: exactly `report.md`.
    pub fn markdown(&self) -> String {
        markdown::render(&self.report())
    }

    /// The report as one self-contained HTML page: `report.html` (charts inline).
    pub fn html(&self) -> Result<String> {
        crate::html::page(
            &self.experiment,
            &self.output,
            &self.manifest,
            &self.reproduce,
        )
    }

    /// The manifest as the text of `manifest.json`.
    pub fn manifest_json(&self) -> Result<String> {
        json_text(&self.manifest)
    }

    /// Writes the results folder into `staging` (tables in every format the spec asks for,
    /// `summaries.json`, `report.md`, charts, `report.html`, `manifest.json`) and swaps it into
    /// place, returning the folder.
    pub fn write(&mut self, staging: Staging) -> Result<PathBuf> {
        let summaries = SummaryFile {
            kind: FileKind::Results,
            shard: None,
            ..self.summaries.clone()
        };
        Export {
            experiment: &self.experiment,
            output: &self.output,
            formats: &self.experiment.output.formats,
            charts: self.experiment.output.plots,
            report: self.report(),
            reproduce: &self.reproduce,
            summaries: Some(&summaries),
        }
        .publish(staging, &mut self.manifest, self.started, json_text)
    }
}

/// Runs the spec at `spec` (its games from `registry`) with `overrides`, played as `playing`
/// says, and returns the results in memory, writing nothing: no results folder, no
/// checkpoint. The same spec, seed and trials give the same tables as `experiment run`.
pub fn run_in_memory(
    registry: &Registry,
    spec: &Path,
    overrides: Overrides,
    playing: Playing,
) -> Result<RunResults> {
    let (study, experiment) = overrides::load(registry, spec, overrides)?;
    run_experiment(study, experiment, &playing)
}

/// As [`run_in_memory`], for an experiment already validated (and overridden) against the
/// games of `study`'s registry.
pub fn run_experiment(
    study: &'static dyn Study,
    experiment: Experiment,
    playing: &Playing,
) -> Result<RunResults> {
    let started = Instant::now();
    let runner = runner(&experiment, playing)?;
    let header = summaries::header(&experiment, &runner, None);
    let ledger = Arc::new(Ledger::new(header));
    let runner = runner.with_ledger(Arc::clone(&ledger));
    play(study, experiment, &runner, &ledger, 0, started, None)
}

/// The runner `playing` asks for, for `experiment`'s trials.
pub fn runner(experiment: &Experiment, playing: &Playing) -> Result<Runner> {
    let chunk_size = playing
        .chunk_size
        .unwrap_or_else(|| crate::runner::default_chunk_size(experiment.trials));
    runner_with_chunks(playing, chunk_size)
}

/// The runner `playing` asks for, in chunks of `chunk_size` trials (a merge's are the shards').
pub fn runner_with_chunks(playing: &Playing, chunk_size: u64) -> Result<Runner> {
    let runner = overrides::runner(playing.threads, chunk_size, playing.progress)?;
    Ok(match &playing.watch {
        Some(watch) => runner.watched(watch),
        None => runner,
    })
}

/// Plays `experiment` with `study` on `runner`, which records into `ledger` (whose trials
/// beyond the `reused` ones of a top-up are the run's own), and keeps the results. `out` is
/// the folder the run writes (`--out`; `None`: the default), which the reproduce command
/// repeats. Interrupted, the ledger is saved as a checkpoint if it has a file, and the run
/// ends with an error.
pub fn play(
    study: &dyn Study,
    experiment: Experiment,
    runner: &Runner,
    ledger: &Arc<Ledger>,
    reused: u64,
    started: Instant,
    out: Option<&Path>,
) -> Result<RunResults> {
    let simulating = Instant::now();
    let mut output = simulate(study, &experiment, runner, ledger, reused)?;
    crate::studies::report_decisions(&mut output, &experiment)?;
    let simulated = simulating.elapsed().as_secs_f64();
    let mut manifest = Manifest::new(&experiment);
    manifest.note_decisions(&experiment, &output.decisions);
    manifest.threads = runner.threads();
    manifest.chunk_size = runner.chunk_size();
    manifest.trials_per_second = runner.played() as f64 / simulated;
    manifest.simulation_seconds = runner.playing_seconds();
    manifest.simulation_trials_per_second = runner.played() as f64 / runner.playing_seconds();
    manifest.wall_seconds = started.elapsed().as_secs_f64();
    let reproduce = reproduce_command(&experiment, manifest.chunk_size, out);
    Ok(RunResults {
        summaries: ledger.to_file(),
        played: runner.played(),
        reproduce,
        started,
        experiment,
        output,
        manifest,
    })
}

/// Runs `study` on `runner`, which records into `ledger`: interrupted, the ledger is saved as
/// a checkpoint (if it has a file and holds more than the `reused` trials of a top-up) and the
/// process exits; stopped through a [`Watch`] (no signal handler installed), the checkpoint
/// is saved the same way and the run ends with an [`Interrupted`] error.
pub fn simulate(
    study: &dyn Study,
    experiment: &Experiment,
    runner: &Runner,
    ledger: &Arc<Ledger>,
    reused: u64,
) -> Result<StudyOutput> {
    // SIGINT, SIGTERM or SIGHUP stop the workers, save the checkpoint, remove the staging
    // folder and exit.
    interrupt::hold().set_on_interrupt(runner.cancel_flag());
    checkpoint::save_on_interrupt(ledger, reused);
    // On the pool, so that each batch of trials starts on a running worker (see
    // `Runner::install`), rather than wake the workers and put this thread to sleep each time.
    let output = runner.install(|| study.run(experiment, runner));
    if let Some(reason) = ledger.refusal() {
        return Err(match ledger.path() {
            Some(path) => checkpoint::unusable(path, &reason),
            None => anyhow::anyhow!(reason),
        });
    }
    // A stopped run's study ends with an error of its own (nothing analysed): the stop is
    // what the caller needs to hear.
    if runner.is_cancelled() {
        if !interrupt::installed() {
            let resume = "to continue, run it again with resume=True (--resume)";
            let kept = checkpoint::save(ledger, reused, resume);
            return Err(Interrupted { kept }.into());
        }
        bail!("interrupted: no results were written");
    }
    output
}
