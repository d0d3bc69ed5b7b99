//! `experiment run`: simulate, analyse, and write everything atomically; with `--shard`, play
//! one shard and write only its summaries file.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::checkpoint;
use crate::cli::RunArgs;
use crate::frame::write_table;
use crate::interrupt;
use crate::ledger::check::RunStreams;
use crate::ledger::file::{FileKind, Identity, ShardId, SummaryFile, FORMAT, FORMAT_VERSION};
use crate::ledger::Ledger;
use crate::manifest::Manifest;
use crate::output::Staging;
use crate::registry::Registry;
use crate::report::{code, markdown, Block, StudyOutput, Text};
use crate::runner::{Runner, RunnerSettings};
use crate::spec::Experiment;
use crate::studies::Study;

/// Runs the spec named in `args`.
pub fn run(args: &RunArgs, registry: &Registry) -> Result<()> {
    let (study, mut experiment) = registry.load(&args.spec)?;
    if let Some(trials) = args.trials {
        experiment.trials = trials;
    }
    if let Some(seed) = args.seed {
        experiment.seed = seed;
    }
    experiment
        .select_variants(&args.variants)
        .map_err(anyhow::Error::msg)?;
    let runner = Runner::new(RunnerSettings {
        threads: args.threads.map_or(0, usize::from),
        chunk_size: args
            .chunk_size
            .unwrap_or_else(|| crate::runner::default_chunk_size(experiment.trials)),
        show_progress: !args.quiet && std::io::stderr().is_terminal(),
    })?;
    if let Some(shard) = args.shard {
        return run_shard(args, study, &experiment, runner, shard);
    }
    let target = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&experiment.name));
    // Fail on an unusable output folder before spending time on the simulation; the lock
    // taken here also keeps a second run away from the checkpoint.
    let staging = Staging::new(&target)?;
    let header = ledger_header(&experiment, &runner, None);
    let streams = RunStreams::of(&experiment, study.other_streams());
    let ledger = checkpoint::open(
        &checkpoint::path_beside(&target),
        args.resume,
        args.checkpoint_every,
        header,
        &streams,
    )?;
    let runner = runner.with_ledger(Arc::clone(&ledger));
    let started = Instant::now();
    let output = simulate(study, &experiment, &runner, &ledger)?;
    let simulated = started.elapsed().as_secs_f64();

    let mut manifest = Manifest::new(&experiment);
    manifest.threads = runner.threads();
    manifest.chunk_size = runner.chunk_size();
    manifest.trials_per_second = runner.played() as f64 / simulated;
    manifest.simulation_seconds = runner.playing_seconds();
    manifest.simulation_trials_per_second = runner.played() as f64 / runner.playing_seconds();
    let target = write_results(
        staging,
        &experiment,
        &output,
        &mut manifest,
        started,
        args.out.as_deref(),
    )?;
    checkpoint::finish(&ledger);
    report_done(&output, &target, &manifest)
}

/// Runs `study` on `runner`, which records into `ledger`: interrupted, the ledger is saved as
/// a checkpoint (if it has a file) and the process exits.
fn simulate(
    study: &dyn Study,
    experiment: &Experiment,
    runner: &Runner,
    ledger: &Arc<Ledger>,
) -> Result<StudyOutput> {
    // SIGINT, SIGTERM or SIGHUP stop the workers, save the checkpoint, remove the staging
    // folder and exit.
    interrupt::hold().set_on_interrupt(runner.cancel_flag());
    checkpoint::save_on_interrupt(ledger);
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
    if experiment.trials < shard.count {
        bail!(
            "--shard {shard}: {} trials per variant cannot be split into {} shards of at least \
             one trial each: use at most {} shards or more trials",
            experiment.trials,
            shard.count,
            experiment.trials
        );
    }
    let folder = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(format!("{}-shards", experiment.name)));
    std::fs::create_dir_all(&folder)
        .map_err(|err| anyhow::anyhow!("cannot create shard folder {}: {err}", folder.display()))?;
    let file = folder.join(shard_file_name(shard));
    let checkpoint_path = folder.join(format!(
        "shard-{}-of-{}.checkpoint.json",
        shard.index, shard.count
    ));
    let header = ledger_header(experiment, &runner, Some(shard));
    let streams = RunStreams::of(experiment, study.other_streams());
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
    simulate(study, experiment, &runner, &ledger)?;
    let mut summaries = ledger.to_file();
    summaries.kind = FileKind::Shard;
    summaries.write(&file)?;
    checkpoint::finish(&ledger);
    eprintln!(
        "Shard {shard} of {}: {} trials in {:.1} s, summaries in {}\nWhen every shard is done: \
         experiment merge {} --out results/{}",
        experiment.name,
        summaries.trials_done,
        started.elapsed().as_secs_f64(),
        file.display(),
        crate::shell::quote(&folder.display().to_string()),
        experiment.name
    );
    Ok(())
}

/// The name of shard `shard`'s summaries file, e.g. `shard-3-of-8.json`.
pub fn shard_file_name(shard: ShardId) -> String {
    format!("shard-{}-of-{}.json", shard.index, shard.count)
}

/// What the summaries files of a run of `experiment` on `runner` say about it.
fn ledger_header(experiment: &Experiment, runner: &Runner, shard: Option<ShardId>) -> SummaryFile {
    SummaryFile {
        format: FORMAT.into(),
        format_version: FORMAT_VERSION,
        kind: FileKind::Checkpoint,
        identity: Identity::of(experiment, runner.chunk_size()),
        spec_path: experiment.path.display().to_string(),
        spec: experiment.source.clone(),
        shard,
        threads: runner.threads(),
        wall_seconds: 0.0,
        trials_done: 0,
        streams: Vec::new(),
    }
}

/// Writes a study's output (tables, report, charts, HTML report and `manifest`) into
/// `staging` and swaps it into place, returning the output folder. `started` is when the
/// work began, for the manifest's wall time; `out` is the run's `--out` (`None`: the default
/// folder), which the reports' "reproduce" command repeats.
pub fn write_results(
    mut staging: Staging,
    experiment: &Experiment,
    output: &StudyOutput,
    manifest: &mut Manifest,
    started: Instant,
    out: Option<&Path>,
) -> Result<PathBuf> {
    let reproduce = reproduce_command(experiment, manifest.chunk_size, out);
    for table in &output.tables {
        for format in &experiment.output.formats {
            let name = format!("{}.{}", table.name, format.extension());
            staging.write(&name, |path| {
                write_table(&mut table.frame.clone(), path, *format)
            })?;
        }
    }
    staging.write("report.md", |path| {
        Ok(std::fs::write(
            path,
            markdown::render(&report(experiment, &output.report, &reproduce)),
        )?)
    })?;
    if experiment.output.plots {
        for (stem, chart) in &output.charts {
            staging.write(&format!("{stem}.png"), |path| chart.save_png(path))?;
            staging.write(&format!("{stem}.svg"), |path| chart.save_svg(path))?;
        }
    }
    manifest.wall_seconds = started.elapsed().as_secs_f64();
    crate::html::write(&mut staging, experiment, output, manifest, &reproduce)?;
    manifest.list_files(&staging)?;
    let manifest_json = serde_json::to_string_pretty(manifest)? + "\n";
    staging.write("manifest.json", |path| {
        Ok(std::fs::write(path, manifest_json)?)
    })?;
    staging.commit()
}

/// Prints the study's console text and where the results went.
pub fn report_done(output: &StudyOutput, target: &Path, manifest: &Manifest) -> Result<()> {
    if !output.console.is_empty() {
        let console = markdown::render(&output.console);
        super::emit(&format!("{}\n", console.trim_end_matches('\n'))).with_context(|| {
            format!(
                "the results were written to {}/, but their summary could not be printed",
                target.display()
            )
        })?;
    }
    eprintln!(
        "Results in {}/ ({} trials in {:.1} s, {:.0} trials/s on {} threads)",
        target.display(),
        output.trials,
        manifest.wall_seconds,
        manifest.trials_per_second,
        manifest.threads
    );
    Ok(())
}

/// The command that reproduces a run of `experiment` with chunk size `chunk_size` into `out`
/// (`None`: the default folder), quoted for a POSIX shell: the spec, `--seed`, `--trials`,
/// every variant chosen with `--variant` (as `--variant=NAME`, so a name such as `-x` is not
/// taken for an option), `--chunk-size` unless it is the default, and `--out`.
pub fn reproduce_command(experiment: &Experiment, chunk_size: u64, out: Option<&Path>) -> String {
    let mut words = vec![
        "experiment".to_string(),
        "run".into(),
        crate::shell::path_argument(&experiment.path),
        "--seed".into(),
        experiment.seed.to_string(),
        "--trials".into(),
        experiment.trials.to_string(),
    ];
    if experiment.selected {
        words.extend(
            experiment
                .variants
                .iter()
                .map(|variant| format!("--variant={}", variant.name)),
        );
    }
    if chunk_size != crate::runner::default_chunk_size(experiment.trials) {
        words.extend(["--chunk-size".to_string(), chunk_size.to_string()]);
    }
    if let Some(out) = out {
        words.extend(["--out".to_string(), crate::shell::path_argument(out)]);
    }
    crate::shell::command(words)
}

/// `report.md`'s blocks: the title, the question, the run's facts and the study's body.
fn report(experiment: &Experiment, body: &[Block], reproduce: &str) -> Vec<Block> {
    let mut out = vec![
        Block::heading(1, experiment.name.as_str()),
        Block::paragraph(experiment.description.as_str()),
        Block::List(vec![
            Text::new().plain("game: ").code(experiment.study.game()),
            Text::new().plain(format!("seed: {}", experiment.seed)),
            Text::new().plain(format!("trials per variant: {}", experiment.trials)),
            Text::new()
                .plain("variants: ")
                .append(Text::join(&experiment.variants, ", ", |v| code(&v.name))),
            Text::new().plain("reproduce: ").code(reproduce),
        ]),
    ];
    out.extend(body.iter().cloned());
    out
}
