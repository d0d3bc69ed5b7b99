//! `experiment run`: simulate, analyse, and write everything atomically; with `--shard`, play
//! one shard and write only its summaries file.

use crate::console::note;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Result};

use super::checkpoint;
use super::overrides::{self, default_folder, output_folder, Overrides, Writes};
use super::results::{report_done, Done};
use super::session;
use super::summaries;
use super::topup;
use crate::cli::RunArgs;
use crate::ledger::file::{FileKind, ShardId};
use crate::registry::Registry;
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::staging::Staging;
use crate::studies::Study;

/// Runs the spec named in `args`.
pub fn run(args: &RunArgs, registry: &Registry) -> Result<()> {
    let (study, mut experiment) = overrides::load(registry, &args.spec, Overrides::of_run(args))?;
    overrides::apply_stop(args, study, &mut experiment)?;
    let runner = session::runner(
        &experiment,
        session::Playing {
            threads: args.threads,
            chunk_size: args.chunk_size,
            progress: !args.quiet,
        },
    )?;
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
    if let Some(table) = experiment.mode.staged() {
        super::stop::no_topup(&target, table);
    } else if !args.resume {
        if let Some(saved) = topup::previous(&target, &ledger.to_file(), &streams) {
            reused = saved.trials_done;
            ledger.add(saved.streams);
        }
    }
    let runner = runner.with_ledger(Arc::clone(&ledger));
    let started = Instant::now();
    let mut results = session::play(
        study,
        experiment,
        &runner,
        &ledger,
        reused,
        started,
        args.out.as_deref(),
    )?;
    let target = results.write(staging)?;
    checkpoint::finish(&ledger);
    report_done(
        &results.output,
        &target,
        &results.manifest,
        Done::Played(results.played),
    )
}

/// Plays shard `shard` of `experiment` and writes its summaries file into `--out`.
fn run_shard(
    args: &RunArgs,
    study: &dyn Study,
    experiment: &Experiment,
    runner: Runner,
    shard: ShardId,
) -> Result<()> {
    if let Some(table) = experiment.mode.staged() {
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
    session::simulate(study, experiment, &runner, &ledger, 0)?;
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
