//! `experiment run`: simulate, analyse, and write everything atomically; with `--shard`, play
//! one shard and write only its summaries file.

use crate::console::note;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Result};

use super::checkpoint;
use super::overrides::{self, default_folder, output_folder, Overrides, Writes};
use super::results::{report_done, Done};
use super::session::{self, RunResults};
use super::summaries;
use super::topup;
use crate::cli::RunArgs;
use crate::ledger::file::{FileKind, ShardId};
use crate::registry::Registry;
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::staging::Staging;
use crate::studies::Study;

/// Where a run writes, beyond its spec: what `experiment run`'s flags `--out`, `--resume`,
/// `--replace`, `--checkpoint-every` and `--shard` say.
#[derive(Clone, Debug, Default)]
pub struct Writing {
    /// The output folder (none: `results/<name>`, or `results/<name>-shards` for a shard).
    pub out: Option<PathBuf>,
    /// Continue from the checkpoint an interrupted run left.
    pub resume: bool,
    /// Replace a folder that holds more trials than this run asks for.
    pub replace: bool,
    /// Seconds between checkpoints (0: none).
    pub checkpoint_every: u64,
    /// Play only this shard and write only its summaries file.
    pub shard: Option<ShardId>,
}

/// What a run that writes gives back.
pub enum Ran {
    /// A whole run: its results (also written into the folder).
    Results(Box<RunResults>, PathBuf),
    /// One shard: its summaries file, the shards' folder, trials played and wall seconds.
    Shard {
        /// The shard's summaries file.
        file: PathBuf,
        /// The folder of every shard's file, for `merge`.
        folder: PathBuf,
        /// Trials the shard holds.
        trials: u64,
        /// Wall-clock seconds the shard took.
        seconds: f64,
    },
}

/// Runs the spec named in `args`.
pub fn run(args: &RunArgs, registry: &Registry) -> Result<()> {
    let (study, mut experiment) = overrides::load(registry, &args.spec, Overrides::of_run(args))?;
    overrides::apply_stop(args, study, &mut experiment)?;
    let playing = session::Playing {
        threads: args.threads,
        chunk_size: args.chunk_size,
        progress: !args.quiet,
        watch: None,
    };
    let writing = Writing {
        out: args.out.clone(),
        resume: args.resume,
        replace: args.replace,
        checkpoint_every: args.checkpoint_every,
        shard: args.shard,
    };
    let name = experiment.name.clone();
    let results_folder = default_folder(&experiment, Writes::Results);
    match run_into(study, experiment, &playing, &writing)? {
        Ran::Results(results, target) => report_done(
            &results.output,
            &target,
            &results.manifest,
            Done::Played(results.played),
        ),
        Ran::Shard {
            file,
            folder,
            trials,
            seconds,
        } => {
            let shard = args.shard.expect("a shard run was asked for");
            note!(
                "Shard {shard} of {name}: {trials} trials in {seconds:.1} s, summaries in {}\n\
                 When every shard is done: experiment merge {} --out {}",
                file.display(),
                crate::shell::quote(&folder.display().to_string()),
                results_folder.display()
            );
            Ok(())
        }
    }
}

/// Plays `experiment` (already validated against `study`) as `playing` says and writes what
/// `writing` asks for: the results folder, swapped into place whole (checkpointing beside it
/// on the way), or one shard's summaries file. What `experiment run` does after reading its
/// arguments.
pub fn run_into(
    study: &'static dyn Study,
    experiment: Experiment,
    playing: &session::Playing,
    writing: &Writing,
) -> Result<Ran> {
    let runner = session::runner(&experiment, playing)?;
    if let Some(shard) = writing.shard {
        return run_shard(writing, study, &experiment, runner, shard);
    }
    let out = writing.out.as_deref();
    let target = output_folder(out, &experiment, Writes::Results);
    // Fail on an unusable output folder before spending time on the simulation; the lock
    // taken here also keeps a second run away from the checkpoint.
    let staging = Staging::new(&target)?;
    let header = summaries::header(&experiment, &runner, None);
    topup::refuse_fuller(&target, &header, writing.replace)?;
    let streams = summaries::streams(&experiment, study)?;
    let ledger = checkpoint::open(
        &checkpoint::path_beside(&target),
        writing.resume,
        writing.checkpoint_every,
        header,
        &streams,
    )?;
    let mut reused = 0;
    if let Some(table) = experiment.mode.staged() {
        super::stop::no_topup(&target, table);
    } else if !writing.resume {
        if let Some(saved) = topup::previous(&target, &ledger.to_file(), &streams) {
            reused = saved.trials_done;
            ledger.add(saved.streams);
        }
    }
    let runner = runner.with_ledger(Arc::clone(&ledger));
    let started = Instant::now();
    let mut results = session::play(study, experiment, &runner, &ledger, reused, started, out)?;
    let target = results.write(staging)?;
    checkpoint::finish(&ledger);
    Ok(Ran::Results(Box::new(results), target))
}

/// Plays shard `shard` of `experiment` and writes its summaries file into `--out`.
fn run_shard(
    writing: &Writing,
    study: &dyn Study,
    experiment: &Experiment,
    runner: Runner,
    shard: ShardId,
) -> Result<Ran> {
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
    let folder = output_folder(writing.out.as_deref(), experiment, Writes::Shards);
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
        writing.resume,
        writing.checkpoint_every,
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
    Ok(Ran::Shard {
        file,
        folder,
        trials: record.trials_done,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The name of shard `shard`'s summaries file, e.g. `shard-3-of-8.json`.
pub fn shard_file_name(shard: ShardId) -> String {
    format!("shard-{}-of-{}.json", shard.index, shard.count)
}
