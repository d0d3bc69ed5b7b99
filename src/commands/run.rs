//! `experiment run`: simulate, analyse, and write everything atomically.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;

use crate::cli::RunArgs;
use crate::frame::write_table;
use crate::interrupt;
use crate::manifest::Manifest;
use crate::output::Staging;
use crate::registry::Registry;
use crate::runner::{Runner, RunnerSettings};
use crate::spec::Experiment;

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
    let target = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&experiment.name));
    // Fail on an unusable output folder before spending time on the simulation.
    let mut staging = Staging::new(&target)?;
    let mut manifest = Manifest::new(&experiment);

    let runner = Runner::new(RunnerSettings {
        threads: args.threads.map_or(0, usize::from),
        chunk_size: args.chunk_size,
        show_progress: !args.quiet && std::io::stderr().is_terminal(),
    })?;
    // SIGINT, SIGTERM or SIGHUP stop the workers, remove the staging folder and exit.
    interrupt::hold().set_on_interrupt(runner.cancel_flag());
    let started = Instant::now();
    let output = study.run(&experiment, &runner)?;
    if runner.is_cancelled() {
        anyhow::bail!("interrupted: no results were written");
    }
    let simulated = started.elapsed().as_secs_f64();

    for table in &output.tables {
        for format in &experiment.output.formats {
            let name = format!("{}.{}", table.name, format.extension());
            staging.write(&name, |path| {
                write_table(&mut table.frame.clone(), path, *format)
            })?;
        }
    }
    staging.write("report.md", |path| {
        Ok(std::fs::write(path, report(&experiment, &output.report))?)
    })?;
    if experiment.output.plots {
        for (stem, chart) in &output.charts {
            staging.write(&format!("{stem}.png"), |path| chart.save_png(path))?;
            staging.write(&format!("{stem}.svg"), |path| chart.save_svg(path))?;
        }
    }
    manifest.threads = runner.threads();
    manifest.chunk_size = runner.chunk_size();
    manifest.wall_seconds = started.elapsed().as_secs_f64();
    manifest.trials_per_second = output.trials as f64 / simulated;
    crate::html::write(&mut staging, &experiment, &output, &manifest)?;
    manifest.files = staging.files().to_vec();
    manifest.files.push("manifest.json".into());
    let manifest_json = serde_json::to_string_pretty(&manifest)? + "\n";
    staging.write("manifest.json", |path| {
        Ok(std::fs::write(path, manifest_json)?)
    })?;
    let target = staging.commit()?;

    if !output.console.is_empty() {
        super::emit(&format!("{}\n", output.console))?;
    }
    eprintln!(
        "Results in {}/ ({} trials in {:.1} s, {:.0} trials/s on {} threads)",
        target.display(),
        output.trials,
        manifest.wall_seconds,
        manifest.trials_per_second,
        runner.threads()
    );
    Ok(())
}

fn report(experiment: &Experiment, body: &str) -> String {
    let variants: Vec<String> = experiment
        .variants
        .iter()
        .map(|v| format!("`{}`", v.name))
        .collect();
    format!(
        "# {name}\n\n{description}\n\n- game: `{game}`\n- seed: {seed}\n- trials per variant: \
         {trials}\n- variants: {variants}\n- reproduce: `experiment run {path} --seed {seed} \
         --trials {trials}`\n\n{body}",
        name = experiment.name,
        description = experiment.description,
        game = experiment.study.game(),
        seed = experiment.seed,
        trials = experiment.trials,
        variants = variants.join(", "),
        path = experiment.path.display(),
    )
}
