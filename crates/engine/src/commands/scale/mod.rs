//! `experiment scale`: an experiment's variants at a ladder of trial counts, several times
//! each, answering two questions any spec raises: how does the running time grow with the
//! number of trials, and how do the results (the study's headline metric) vary with it?

mod charts;
mod findings;
mod needed;
mod report;

use crate::console::note;
use crate::stats::ALPHA;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use super::export::{json_text, Export};
use super::overrides::{self, output_folder, Overrides, Writes};
use crate::analysis::scaling::{default_ladder, repeat_seed};
use crate::cli::ScaleArgs;
use crate::frame::{NamedTable, Role, TableBuilder, TableFormat};
use crate::manifest::Manifest;
use crate::registry::Registry;
use crate::report::StudyOutput;
use crate::runner::DEFAULT_CHUNK_SIZE;
use crate::spec::{Experiment, Variant, MAX_TRIALS};
use crate::staging::Staging;
use crate::stats::Estimate;

use findings::Findings;
use report::duration;

/// Top of the default ladder (unless the spec asks for fewer trials): the default War ladder,
/// six strategies at 16 counts five times each, then plays about 4.8 million games, which
/// takes well under a minute on two cores.
pub const DEFAULT_TOP: u64 = 100_000;
/// Smallest count in the fit of interval width against trials: below it Student-t and
/// Wilson intervals are visibly wider than the 1/sqrt(trials) law they approach.
const MIN_WIDTH_FIT: u64 = 100;
/// Smallest count the agreement test runs at: with fewer trials the standard errors it weighs
/// the repeats by are themselves too uncertain for its chi-square reference.
const MIN_TEST_TRIALS: u64 = 30;
/// The count the report quotes the spread of repeats at (the range the scale study asks about ends there).
const SPREAD_AT: u64 = 1_000;
/// Most variants given their own colour in the running-time chart.
const COLOURED_VARIANTS: usize = 8;
/// Runs the ladder the arguments ask for and writes its tables, charts, report and manifest.
pub fn scale(args: &ScaleArgs, registry: &Registry) -> Result<()> {
    let started = Instant::now();
    // The ladder sets its own trials and seeds: the spec's are only where it starts from.
    let (study, experiment) = overrides::load(registry, &args.spec, Overrides::default())?;
    let (ladder, capped) = ladder(args, experiment.trials)?;
    let target = output_folder(args.out.as_deref(), &experiment, Writes::Ladder);
    // Fail on an unusable output folder before spending time on the ladder.
    let staging = Staging::new(&target)?;
    // No bar of the runner's: the ladder draws its own.
    let runner = overrides::runner(args.threads, DEFAULT_CHUNK_SIZE, false)?;
    // SIGINT, SIGTERM or SIGHUP stop the workers, remove the staging folder and exit.
    crate::interrupt::hold().set_on_interrupt(runner.cancel_flag());
    // Start-up: everything before the first timed run, including the study's one-off
    // preparation (an exact solver a strategy plays from), done by an empty run of every
    // variant.
    study.headline(
        &one_run(&experiment, &experiment.variants, 0, experiment.seed),
        &runner,
    )?;
    let startup = started.elapsed().as_secs_f64();

    let bar = progress_bar(&experiment, &ladder, args.repeats, args.quiet);
    let mut rows = Vec::new();
    let mut metric = ("", "");
    for &trials in &ladder {
        bar.set_prefix(format!("{trials} trials"));
        for repeat in 1..=args.repeats {
            let seed = repeat_seed(experiment.seed, repeat);
            for (variant, v) in experiment.variants.iter().enumerate() {
                let run = one_run(&experiment, std::slice::from_ref(v), trials, seed);
                let clock = Instant::now();
                let headline = study.headline(&run, &runner)?;
                let seconds = clock.elapsed().as_secs_f64();
                if runner.is_cancelled() {
                    bail!("interrupted: no results were written");
                }
                metric = (headline.metric, headline.label);
                rows.push(Row {
                    variant,
                    trials,
                    repeat,
                    seed,
                    seconds,
                    estimate: headline.estimates[0],
                });
                bar.inc(trials);
            }
        }
    }
    bar.finish_and_clear();

    let ladder_run = Ladder {
        experiment: &experiment,
        ladder,
        capped,
        repeats: args.repeats,
        metric: metric.0,
        label: metric.1,
        rows,
        startup,
        elapsed: started.elapsed().as_secs_f64(),
        threads: runner.threads(),
        command: command_line(args),
        half_width: args.half_width,
    };
    let findings = Findings::new(&ladder_run);
    let target = write_outputs(staging, &ladder_run, &findings, started)?;
    super::emit(&format!(
        "{}\n{}\n",
        findings.summary(&ladder_run),
        needed::summary(&ladder_run, &needed::needed(&ladder_run, &findings))
    ))
    .with_context(|| {
        format!(
            "the results were written to {}/, but their summary could not be printed",
            target.display()
        )
    })?;
    note!(
        "Results in {}/ ({} runs in {:.1} s, start-up {}, on {} threads)",
        target.display(),
        ladder_run.rows.len(),
        started.elapsed().as_secs_f64(),
        duration(startup),
        ladder_run.threads
    );
    Ok(())
}

/// The trial counts to run, in increasing order, and whether the default ladder was cut at
/// [`DEFAULT_TOP`] below the spec's trials.
fn ladder(args: &ScaleArgs, spec_trials: u64) -> Result<(Vec<u64>, bool)> {
    let Some(text) = &args.trials_list else {
        let top = args.max_trials.unwrap_or(DEFAULT_TOP);
        return Ok((
            default_ladder(spec_trials.min(top)),
            args.max_trials.is_none() && spec_trials > DEFAULT_TOP,
        ));
    };
    Ok((parse_trials_list(text, args.max_trials)?, false))
}

/// Parses `--trials-list`: whole numbers from 1 up, comma-separated, each at most once and at
/// most `--max-trials`; returned in increasing order.
fn parse_trials_list(text: &str, max: Option<u64>) -> Result<Vec<u64>> {
    let mut counts = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            bail!("--trials-list '{text}': an empty entry (expected whole numbers separated by commas, e.g. 1,10,100)");
        }
        let count: u64 = item.replace('_', "").parse().map_err(|_| {
            anyhow::anyhow!(
                "--trials-list: '{item}' is not a whole number of trials (expected whole \
                 numbers from 1 separated by commas, e.g. 1,10,100)"
            )
        })?;
        if count == 0 {
            bail!(
                "--trials-list: 0 trials cannot be run or timed (every count must be at least 1)"
            );
        }
        if count > MAX_TRIALS as u64 {
            bail!("--trials-list: {count} is more than the {MAX_TRIALS} trials a run may have");
        }
        if let Some(max) = max.filter(|&max| count > max) {
            bail!("--trials-list: {count} is above --max-trials {max}");
        }
        if counts.contains(&count) {
            bail!("--trials-list: {count} is listed twice (each count runs --repeats times)");
        }
        counts.push(count);
    }
    counts.sort_unstable();
    Ok(counts)
}

/// The experiment restricted to `variants`, at `trials` trials with master seed `seed`.
fn one_run(experiment: &Experiment, variants: &[Variant], trials: u64, seed: u64) -> Experiment {
    Experiment {
        path: experiment.path.clone(),
        source: String::new(),
        name: experiment.name.clone(),
        description: String::new(),
        study: experiment.study,
        seed,
        trials,
        variants: variants.to_vec(),
        variant_subset: experiment.variant_subset,
        output: experiment.output.clone(),
        design: experiment.design,
        compare: experiment.compare.clone(),
        mode: crate::spec::Mode::Fixed,
    }
}

fn progress_bar(experiment: &Experiment, ladder: &[u64], repeats: u32, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let total = ladder.iter().sum::<u64>() * u64::from(repeats) * experiment.variants.len() as u64;
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>16} [{bar:30}] {human_pos}/{human_len} trials of the ladder, ETA {eta}",
        )
        .expect("the progress template is valid")
        .progress_chars("=> "),
    );
    bar
}

/// The command that reproduces this ladder, quoted for a POSIX shell.
fn command_line(args: &ScaleArgs) -> String {
    let mut words = super::results::program_words();
    words.extend(["scale".into(), crate::shell::path_argument(&args.spec)]);
    if let Some(list) = &args.trials_list {
        words.extend(["--trials-list".to_string(), list.clone()]);
    }
    if let Some(max) = args.max_trials {
        words.extend(["--max-trials".to_string(), max.to_string()]);
    }
    words.extend(["--repeats".to_string(), args.repeats.to_string()]);
    if let Some(h) = args.half_width {
        words.extend(["--half-width".to_string(), h.to_string()]);
    }
    if let Some(out) = &args.out {
        words.extend(["--out".to_string(), crate::shell::path_argument(out)]);
    }
    crate::shell::command(words)
}

/// One timed run: one variant at one count with one repeat's seed.
struct Row {
    variant: usize,
    trials: u64,
    repeat: u32,
    seed: u64,
    seconds: f64,
    estimate: Estimate,
}

/// A finished ladder.
struct Ladder<'a> {
    experiment: &'a Experiment,
    ladder: Vec<u64>,
    capped: bool,
    repeats: u32,
    metric: &'static str,
    label: &'static str,
    rows: Vec<Row>,
    startup: f64,
    /// Wall time from the command's start to the end of the last run.
    elapsed: f64,
    threads: usize,
    command: String,
    /// The half-width `--half-width` asks the trials needed for, if given.
    half_width: Option<f64>,
}

impl Ladder<'_> {
    fn top(&self) -> u64 {
        self.ladder.last().copied().unwrap_or(0)
    }

    fn estimates(&self, variant: usize, trials: u64) -> Vec<Estimate> {
        self.rows
            .iter()
            .filter(|r| r.variant == variant && r.trials == trials)
            .map(|r| r.estimate)
            .collect()
    }

    fn variant_name(&self, variant: usize) -> &str {
        &self.experiment.variants[variant].name
    }
}

fn scaling_table(run: &Ladder) -> Result<NamedTable> {
    let rows = &run.rows;
    TableBuilder::new()
        .text("variant", rows.iter().map(|r| run.variant_name(r.variant)))
        .role(Role::Label)
        .count("trials", rows.iter().map(|r| r.trials))
        .count("repeat", rows.iter().map(|r| u64::from(r.repeat)))
        .count("seed", rows.iter().map(|r| r.seed))
        .real("seconds", rows.iter().map(|r| r.seconds))
        .text("metric", rows.iter().map(|_| run.metric))
        .estimate(
            "estimate",
            &rows.iter().map(|r| r.estimate).collect::<Vec<_>>(),
        )
        .named("scaling")
}

/// `manifest.json` of a ladder: the run manifest's fields plus what is particular to it.
#[derive(Serialize)]
struct ScaleManifest<'a> {
    #[serde(flatten)]
    run: &'a Manifest,
    metric: &'static str,
    ladder: Vec<u64>,
    repeats: u32,
    repeat_seeds: Vec<u64>,
    startup_seconds: f64,
    time_fit: TimeFit,
    half_width_exponent: f64,
    half_width_exponent_se: f64,
}

#[derive(Serialize)]
struct TimeFit {
    intercept_seconds: f64,
    seconds_per_trial: f64,
    r_squared: f64,
}

/// Writes every file through a staging folder (as `run` does, with [`Export`]) and moves
/// them into place.
fn write_outputs(
    staging: Staging,
    run: &Ladder,
    findings: &Findings,
    started: Instant,
) -> Result<PathBuf> {
    let table = scaling_table(run)?;
    let answers = needed::needed(run, findings);
    let needed_table = needed::table(run, findings, &answers)?;
    let mut body = report::blocks(run, findings)?;
    body.extend(needed::section(run, &needed_table, &answers));
    let charts = vec![
        (
            "running_time".to_string(),
            charts::running_time_chart(run, findings),
        ),
        (
            "convergence".to_string(),
            charts::convergence_chart(run, findings),
        ),
    ];
    let mut manifest = Manifest::new(run.experiment);
    manifest.threads = run.threads;
    manifest.chunk_size = DEFAULT_CHUNK_SIZE;
    manifest.trials_per_second = run.rows.iter().map(|r| r.trials).sum::<u64>() as f64
        / run.rows.iter().map(|r| r.seconds).sum::<f64>();
    let page = StudyOutput {
        tables: vec![table, needed_table],
        report: body.clone(),
        charts,
        console: Vec::new(),
        trials: run.rows.iter().map(|r| r.trials).sum(),
        decisions: crate::runner::Decisions::None,
    };
    let export = Export {
        experiment: run.experiment,
        output: &page,
        // Both formats and the charts whatever the spec's `[output]` says: the ladder's own
        // files (its report reads the charts).
        formats: &[TableFormat::Csv, TableFormat::Parquet],
        charts: true,
        report: body,
        reproduce: &run.command,
        summaries: None,
    };
    export.publish(staging, &mut manifest, started, |manifest| {
        json_text(&ScaleManifest {
            run: manifest,
            metric: run.metric,
            ladder: run.ladder.clone(),
            repeats: run.repeats,
            repeat_seeds: (1..=run.repeats)
                .map(|r| repeat_seed(run.experiment.seed, r))
                .collect(),
            startup_seconds: run.startup,
            time_fit: TimeFit {
                intercept_seconds: findings.time.intercept,
                seconds_per_trial: findings.time.slope,
                r_squared: findings.time.r_squared,
            },
            half_width_exponent: findings.width.slope,
            half_width_exponent_se: findings.width.slope_se,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trials_list_is_sorted_and_checked() {
        assert_eq!(
            parse_trials_list("100,1_000, 10", None).expect("valid"),
            [10, 100, 1_000]
        );
        let error = |text, max| parse_trials_list(text, max).unwrap_err().to_string();
        assert!(error("10,abc", None).contains("'abc' is not a whole number"));
        assert!(error("0,10", None).contains("at least 1"));
        assert!(error("10,10", None).contains("listed twice"));
        assert!(error("10,,20", None).contains("empty entry"));
        assert!(error("10,2000", Some(1000)).contains("above --max-trials 1000"));
    }
}
