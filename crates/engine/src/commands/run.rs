//! `experiment run`: simulate, analyse, and write everything atomically; with `--shard`, play
//! one shard and write only its summaries file.

use crate::console::note;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Result};

use super::checkpoint;
use super::overrides::{self, default_folder, output_folder, Overrides, Writes};
use super::results::{report_done, write_results, Done};
use super::summaries;
use super::topup;
use crate::cli::RunArgs;
use crate::interrupt;
use crate::ledger::file::{FileKind, ShardId};
use crate::ledger::Ledger;
use crate::manifest::Manifest;
use crate::output::Staging;
use crate::registry::Registry;
use crate::report::StudyOutput;
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::studies::Study;

/// Runs the spec named in `args`.
pub fn run(args: &RunArgs, registry: &Registry) -> Result<()> {
    let (study, mut experiment) = overrides::load(registry, &args.spec, Overrides::of_run(args))?;
    overrides::apply_stop(args, study, &mut experiment)?;
    let chunk_size = args
        .chunk_size
        .unwrap_or_else(|| crate::runner::default_chunk_size(experiment.trials));
    let runner = overrides::runner(args.threads, chunk_size, !args.quiet)?;
    if let Some(shard) = args.shard {
        return run_shard(args, study, &experiment, runner, shard);
    }
    let target = output_folder(args.out.as_deref(), &experiment, Writes::Results);
    // Fail on an unusable output folder before spending time on the simulation; the lock
    // taken here also keeps a second run away from the checkpoint.
    let staging = Staging::new(&target)?;
    let header = summaries::header(&experiment, &runner, None);
    topup::refuse_fuller(&target, &header, args.replace)?;
    let streams = summaries::streams(&experiment, study)?;
    let ledger = checkpoint::open(
        &checkpoint::path_beside(&target),
        args.resume,
        args.checkpoint_every,
        header,
        &streams,
    )?;
    let mut reused = 0;
    if let Some(table) = super::stop::staged(&experiment) {
        super::stop::no_topup(&target, table);
    } else if !args.resume {
        if let Some(saved) = topup::previous(&target, &ledger.to_file(), &streams) {
            reused = saved.trials_done;
            ledger.add(saved.streams);
        }
    }
    let runner = runner.with_ledger(Arc::clone(&ledger));
    let started = Instant::now();
    let mut output = simulate(study, &experiment, &runner, &ledger, reused)?;
    if let Some(stop) = &experiment.stop {
        crate::studies::stop::annotate(&mut output, stop, experiment.design, &runner.stops())?;
    }
    if let (Some(select), Some(selection)) = (&experiment.select, runner.selection()) {
        crate::studies::select::annotate(&mut output, select, experiment.design, &selection)?;
    }
    let simulated = started.elapsed().as_secs_f64();

    let mut manifest = Manifest::new(&experiment);
    manifest.note_stops(&experiment, &runner.stops());
    manifest.note_selection(&experiment, runner.selection().as_ref());
    manifest.threads = runner.threads();
    manifest.chunk_size = runner.chunk_size();
    manifest.trials_per_second = runner.played() as f64 / simulated;
    manifest.simulation_seconds = runner.playing_seconds();
    manifest.simulation_trials_per_second = runner.played() as f64 / runner.playing_seconds();
    let target = write_results(
        staging,
        &experiment,
        &output,
        &ledger,
        &mut manifest,
        started,
        args.out.as_deref(),
    )?;
    checkpoint::finish(&ledger);
    report_done(&output, &target, &manifest, Done::Played(runner.played()))
}

/// Runs `study` on `runner`, which records into `ledger`: interrupted, the ledger is saved as
/// a checkpoint (if it has a file and holds more than the `reused` trials of a top-up) and the
/// process exits.
fn simulate(
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
    let output = output?;
    if runner.is_cancelled() {
        bail!("interrupted: no results were written");
    }
    Ok(output)
}

/// Plays shard `shard` of `experiment` and writes its summaries file into `--out`.
fn run_shard(
    args: &RunArgs,
    study: &dyn Study,
    experiment: &Experiment,
    runner: Runner,
    shard: ShardId,
) -> Result<()> {
    if let Some(table) = super::stop::staged(experiment) {
        bail!("--shard: {}", super::stop::no_shards(table));
    }
    if experiment.trials < shard.count {
        bail!(
            "--shard {shard}: {} trials per variant cannot be split into {} shards of at least \
             one trial each: use at most {} shards or more trials",
            experiment.trials,
            shard.count,
            experiment.trials
        );
    }
    let folder = output_folder(args.out.as_deref(), experiment, Writes::Shards);
    std::fs::create_dir_all(&folder)
        .map_err(|err| anyhow::anyhow!("cannot create shard folder {}: {err}", folder.display()))?;
    let file = folder.join(shard_file_name(shard));
    let checkpoint_path = folder.join(format!(
        "shard-{}-of-{}.checkpoint.json",
        shard.index, shard.count
    ));
    let header = summaries::header(experiment, &runner, Some(shard));
    let streams = summaries::streams(experiment, study)?;
    let ledger = checkpoint::open(
        &checkpoint_path,
        args.resume,
        args.checkpoint_every,
        header,
        &streams,
    )?;
    let runner = runner.with_shard(shard).with_ledger(Arc::clone(&ledger));
    let started = Instant::now();
    // The study analyses the shard's trials too; only the summaries are kept.
    simulate(study, experiment, &runner, &ledger, 0)?;
    let mut record = ledger.to_file();
    record.kind = FileKind::Shard;
    record.write(&file)?;
    checkpoint::finish(&ledger);
    note!(
        "Shard {shard} of {}: {} trials in {:.1} s, summaries in {}\nWhen every shard is done: \
         experiment merge {} --out {}",
        experiment.name,
        record.trials_done,
        started.elapsed().as_secs_f64(),
        file.display(),
        crate::shell::quote(&folder.display().to_string()),
        default_folder(experiment, Writes::Results).display()
    );
    Ok(())
}

/// The name of shard `shard`'s summaries file, e.g. `shard-3-of-8.json`.
pub fn shard_file_name(shard: ShardId) -> String {
    format!("shard-{}-of-{}.json", shard.index, shard.count)
}
