//! `experiment scale`: an experiment's variants at a ladder of trial counts, several times
//! each, answering two questions any spec raises: how does the running time grow with the
//! number of trials, and how do the results (the study's headline metric) vary with it?

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::analysis::scaling::{
    agreement, chi_square_p, default_ladder, fit_line, grouped_fit, repeat_seed, LineFit,
};
use crate::cli::ScaleArgs;
use crate::frame::{format_number, format_p, to_markdown, write_table, TableBuilder};
use crate::manifest::Manifest;
use crate::output::Staging;
use crate::plot::{Chart, LineChart, LinePanels, Series, SeriesStyle};
use crate::registry::Registry;
use crate::runner::{Runner, RunnerSettings, DEFAULT_CHUNK_SIZE};
use crate::spec::{self, Experiment, TableFormat, Variant, MAX_TRIALS};
use crate::stats::Estimate;

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
/// The count the report quotes the spread of repeats at (the assignment's range ends there).
const SPREAD_AT: u64 = 1_000;
/// Significance level of the agreement test.
const ALPHA: f64 = 0.05;
/// Most variants given their own colour in the running-time chart.
const COLOURED_VARIANTS: usize = 8;

/// Runs the ladder the arguments ask for and writes its tables, charts, report and manifest.
pub fn scale(args: &ScaleArgs, registry: &Registry) -> Result<()> {
    let started = Instant::now();
    let experiment = spec::load(&args.spec, registry)?;
    let (ladder, capped) = ladder(args, experiment.trials)?;
    let target = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(format!("{}-scale", experiment.name)));
    // Fail on an unusable output folder before spending time on the ladder.
    let staging = Staging::new(&target)?;
    let runner = Runner::new(RunnerSettings {
        threads: args.threads.map_or(0, usize::from),
        chunk_size: DEFAULT_CHUNK_SIZE,
        show_progress: false,
    })?;
    let cancel = runner.cancel_flag();
    ctrlc::set_handler(move || cancel.store(true, std::sync::atomic::Ordering::Relaxed))
        .context("cannot install the Ctrl-C handler")?;
    // Start-up: everything before the first timed run, including the study's one-off
    // preparation (an exact solver a strategy plays from), done by an empty run of every
    // variant.
    experiment.study.headline(
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
                let headline = experiment.study.headline(&run, &runner)?;
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
        threads: runner.threads(),
        command: command_line(args),
    };
    let findings = Findings::new(&ladder_run);
    let target = write_outputs(staging, &ladder_run, &findings, started)?;
    println!("{}", findings.summary(&ladder_run));
    eprintln!(
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
        output: experiment.output.clone(),
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

/// The command that reproduces this ladder.
fn command_line(args: &ScaleArgs) -> String {
    let mut command = format!("experiment scale {}", args.spec.display());
    if let Some(list) = &args.trials_list {
        command.push_str(&format!(" --trials-list {list}"));
    }
    if let Some(max) = args.max_trials {
        command.push_str(&format!(" --max-trials {max}"));
    }
    command.push_str(&format!(" --repeats {}", args.repeats));
    command
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
    threads: usize,
    command: String,
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

fn half_width(estimate: &Estimate) -> f64 {
    (estimate.confidence_interval.upper - estimate.confidence_interval.lower) / 2.0
}

/// The pooled estimate of several repeats: inverse-variance weighted where every repeat has a
/// usable standard error, else the plain mean of the finite points.
fn pooled(estimates: &[Estimate]) -> f64 {
    agreement(estimates).map_or_else(
        || {
            let finite: Vec<f64> = estimates
                .iter()
                .map(|e| e.point)
                .filter(|p| p.is_finite())
                .collect();
            finite.iter().sum::<f64>() / finite.len() as f64
        },
        |a| a.pooled,
    )
}

/// The agreement test at one count, summed over the variants where it is defined.
struct CountTest {
    trials: u64,
    q: f64,
    df: f64,
    p: f64,
    variants: usize,
}

/// Per variant: the reference estimate and what the ladder shows about it.
struct VariantFindings {
    /// Pooled estimate of the repeats at the top of the ladder.
    reference: f64,
    /// Mean half-width of the repeats' intervals at the top, times sqrt(top): the constant of
    /// the 1/sqrt(trials) envelope.
    envelope: f64,
    /// Largest distance of a repeat from the pooled estimate at the spread count.
    spread: f64,
    /// The fit of log10 half-width on log10 trials.
    width: LineFit,
    /// The fit of seconds on trials.
    time: LineFit,
}

/// What the ladder shows.
struct Findings {
    time: LineFit,
    width: LineFit,
    width_from: u64,
    spread_at: Option<u64>,
    tests: Vec<CountTest>,
    variants: Vec<VariantFindings>,
}

impl Findings {
    fn new(run: &Ladder) -> Findings {
        let time = fit_line(&mean_times(run));
        let large = run.ladder.iter().filter(|&&n| n >= MIN_WIDTH_FIT).count();
        let width_from = if large >= 2 {
            MIN_WIDTH_FIT
        } else {
            run.ladder.first().copied().unwrap_or(1)
        };
        let width_points = |variant: usize| -> Vec<(f64, f64)> {
            run.rows
                .iter()
                .filter(|r| r.variant == variant && r.trials >= width_from)
                .map(|r| ((r.trials as f64).log10(), half_width(&r.estimate).log10()))
                .collect()
        };
        let variant_count = run.experiment.variants.len();
        let width = grouped_fit(&(0..variant_count).map(width_points).collect::<Vec<_>>());
        let spread_at = run.ladder.iter().copied().min_by(|a, b| {
            let distance = |n: u64| ((n as f64).ln() - (SPREAD_AT as f64).ln()).abs();
            distance(*a).total_cmp(&distance(*b))
        });
        let top = run.top();
        let variants = (0..variant_count)
            .map(|v| {
                let at_top = run.estimates(v, top);
                let widths: Vec<f64> = at_top
                    .iter()
                    .map(half_width)
                    .filter(|w| w.is_finite())
                    .collect();
                let spread = spread_at.map_or(f64::NAN, |n| {
                    let estimates = run.estimates(v, n);
                    let centre = pooled(&estimates);
                    estimates
                        .iter()
                        .map(|e| (e.point - centre).abs())
                        .filter(|d| d.is_finite())
                        .fold(f64::NAN, f64::max)
                });
                VariantFindings {
                    reference: pooled(&at_top),
                    envelope: widths.iter().sum::<f64>() / widths.len() as f64
                        * (top as f64).sqrt(),
                    spread,
                    width: fit_line(&width_points(v)),
                    time: fit_line(
                        &run.rows
                            .iter()
                            .filter(|r| r.variant == v)
                            .map(|r| (r.trials as f64, r.seconds))
                            .collect::<Vec<_>>(),
                    ),
                }
            })
            .collect();
        let tests = run
            .ladder
            .iter()
            .filter(|&&trials| trials >= MIN_TEST_TRIALS)
            .filter_map(|&trials| {
                let agreements: Vec<_> = (0..variant_count)
                    .filter_map(|v| agreement(&run.estimates(v, trials)))
                    .collect();
                if agreements.is_empty() {
                    return None;
                }
                let q = agreements.iter().map(|a| a.q).sum();
                let df = agreements.iter().map(|a| a.df).sum();
                Some(CountTest {
                    trials,
                    q,
                    df,
                    p: chi_square_p(q, df),
                    variants: agreements.len(),
                })
            })
            .collect();
        Findings {
            time,
            width,
            width_from,
            spread_at,
            tests,
            variants,
        }
    }

    /// The two answers in a few lines, for the terminal.
    fn summary(&self, run: &Ladder) -> String {
        format!(
            "Running time: {} + {} per trial (R² = {:.4}); start-up {} measured separately.\n\
             CI half-width of {} falls as trials^{:.3} (expected -0.5).\n\
             Repeats agree with their pooled estimate at {} of {} tested counts (α = {ALPHA}).",
            duration(self.time.intercept),
            duration(self.time.slope),
            self.time.r_squared,
            duration(run.startup),
            run.metric,
            self.width.slope,
            self.tests.iter().filter(|t| t.p >= ALPHA).count(),
            self.tests.len(),
        )
    }
}

/// For each (count, repeat), the mean wall time of a variant's run: the cost of the average
/// variant, whose per-trial cost is what `experiment run` reports as trials per second.
fn mean_times(run: &Ladder) -> Vec<(f64, f64)> {
    let variants = run.experiment.variants.len() as f64;
    let mut points = Vec::new();
    for &trials in &run.ladder {
        for repeat in 1..=run.repeats {
            let total: f64 = run
                .rows
                .iter()
                .filter(|r| r.trials == trials && r.repeat == repeat)
                .map(|r| r.seconds)
                .sum();
            points.push((trials as f64, total / variants));
        }
    }
    points
}

/// A duration in the unit that suits it.
fn duration(seconds: f64) -> String {
    let magnitude = seconds.abs();
    if !seconds.is_finite() {
        "–".to_string()
    } else if magnitude >= 1.0 {
        format!("{seconds:.2} s")
    } else if magnitude >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else if magnitude >= 1e-6 {
        format!("{:.2} µs", seconds * 1e6)
    } else {
        format!("{:.1} ns", seconds * 1e9)
    }
}

fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn scaling_table(run: &Ladder) -> Result<polars::prelude::DataFrame> {
    let rows = &run.rows;
    TableBuilder::new()
        .text("variant", rows.iter().map(|r| run.variant_name(r.variant)))
        .count("trials", rows.iter().map(|r| r.trials))
        .count("repeat", rows.iter().map(|r| u64::from(r.repeat)))
        .count("seed", rows.iter().map(|r| r.seed))
        .real("seconds", rows.iter().map(|r| r.seconds))
        .text("metric", rows.iter().map(|_| run.metric))
        .estimate(
            "estimate",
            &rows.iter().map(|r| r.estimate).collect::<Vec<_>>(),
        )
        .build()
}

fn running_time_chart(run: &Ladder, findings: &Findings) -> Chart {
    let points = |keep: &dyn Fn(&Row) -> bool| -> Vec<(f64, f64)> {
        run.rows
            .iter()
            .filter(|r| keep(r))
            .map(|r| (r.trials as f64, r.seconds))
            .collect()
    };
    let variants = run.experiment.variants.len();
    let mut series: Vec<Series> = if variants <= COLOURED_VARIANTS {
        (0..variants)
            .map(|v| Series {
                label: run.variant_name(v).to_string(),
                points: points(&|r| r.variant == v),
                style: SeriesStyle::Points,
                ..Series::default()
            })
            .collect()
    } else {
        vec![Series {
            label: format!("runs ({variants} variants)"),
            points: points(&|_| true),
            style: SeriesStyle::Points,
            ..Series::default()
        }]
    };
    let fit = findings.time;
    series.push(Series {
        label: format!(
            "fit to the mean of the variants: {} + {} × trials (R² = {:.4})",
            duration(fit.intercept),
            duration(fit.slope),
            fit.r_squared
        ),
        points: fitted_curve(run.ladder.first().copied().unwrap_or(1), run.top())
            .map(|n| (n, fit.intercept + fit.slope * n))
            .collect(),
        ..Series::default()
    });
    Chart::Lines(LineChart {
        title: format!(
            "{}: wall time of a run against trials ({} repeats, {} threads)",
            run.experiment.name, run.repeats, run.threads
        ),
        x_label: "trials (log scale)".into(),
        y_label: "seconds (log scale)".into(),
        series,
        x_log: true,
        y_log: true,
        ..LineChart::default()
    })
}

/// Points log-spaced from `first` to `last`, enough to draw a smooth curve on a log axis.
fn fitted_curve(first: u64, last: u64) -> impl Iterator<Item = f64> {
    let (low, high) = ((first.max(1) as f64).log10(), (last.max(1) as f64).log10());
    (0..=100).map(move |i| 10f64.powf(low + (high - low) * f64::from(i) / 100.0))
}

fn convergence_chart(run: &Ladder, findings: &Findings) -> Chart {
    let spread = |repeat: u32| {
        let centre = f64::from(run.repeats + 1) / 2.0;
        10f64.powf(0.015 * (f64::from(repeat) - centre))
    };
    let top = run.top();
    let panels = findings
        .variants
        .iter()
        .enumerate()
        .map(|(v, found)| {
            let rows: Vec<&Row> = run.rows.iter().filter(|r| r.variant == v).collect();
            let (low, high) = rows
                .iter()
                .map(|r| r.estimate.point)
                .chain([found.reference])
                .filter(|p| p.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p), hi.max(p))
                });
            let pad = ((high - low) * 0.1).max(high.abs().max(1.0) * 1e-3);
            let envelope = |n: f64| found.envelope / n.sqrt();
            LineChart {
                title: run.variant_name(v).to_string(),
                x_label: "trials (log scale)".into(),
                y_label: run.label.into(),
                series: vec![
                    Series {
                        label: "repeats (95% CI)".into(),
                        points: rows
                            .iter()
                            .map(|r| (r.trials as f64 * spread(r.repeat), r.estimate.point))
                            .collect(),
                        band: rows
                            .iter()
                            .map(|r| {
                                let ci = r.estimate.confidence_interval;
                                (r.trials as f64 * spread(r.repeat), ci.lower, ci.upper)
                            })
                            .collect(),
                        style: SeriesStyle::Points,
                    },
                    Series {
                        label: format!("pooled at {} ± c/√trials", thousands(top)),
                        points: run
                            .ladder
                            .iter()
                            .map(|&n| (n as f64, found.reference))
                            .collect(),
                        band: run
                            .ladder
                            .iter()
                            .map(|&n| {
                                let n = n as f64;
                                (
                                    n,
                                    found.reference - envelope(n),
                                    found.reference + envelope(n),
                                )
                            })
                            .collect(),
                        style: SeriesStyle::Dashed,
                    },
                ],
                x_log: true,
                y_range: low.is_finite().then_some((low - pad, high + pad)),
                ..LineChart::default()
            }
        })
        .collect();
    Chart::LinePanels(LinePanels {
        title: format!(
            "{}: {} against trials, {} repeats each",
            run.experiment.name, run.label, run.repeats
        ),
        panels,
    })
}

fn report(run: &Ladder, findings: &Findings) -> Result<String> {
    let experiment = run.experiment;
    let variants: Vec<String> = experiment
        .variants
        .iter()
        .map(|v| format!("`{}`", v.name))
        .collect();
    let ladder: Vec<String> = run.ladder.iter().map(|&n| thousands(n)).collect();
    let small = run.ladder.iter().filter(|&&n| n <= SPREAD_AT).count();
    let mut out = format!(
        "# {name}: running time and results against the number of trials\n\n{description}\n\n\
         - game: `{game}`; headline metric: {label} (`{metric}`)\n\
         - variants: {variants}\n\
         - ladder: {ladder} trials per variant ({count} counts, {small} of them from 1 to \
         1,000), each run {repeats} times\n\
         - seeds: repeat 1 plays the spec's seed {seed} (so its rows are what `experiment run \
         --trials N` gives); repeat r plays the seed in the `seed` column, derived from it\n\
         - threads: {threads}\n\
         - reproduce: `{command}`\n",
        name = experiment.name,
        description = experiment.description,
        game = experiment.study.game(),
        label = run.label,
        metric = run.metric,
        variants = variants.join(", "),
        ladder = ladder.join(", "),
        count = run.ladder.len(),
        repeats = run.repeats,
        seed = experiment.seed,
        threads = run.threads,
        command = run.command,
    );
    if run.capped {
        out.push_str(&format!(
            "- the default ladder stops at {} trials, below the spec's {}, so that the whole \
             default War ladder finishes in under a minute on two cores; `--max-trials` moves \
             the top\n",
            thousands(DEFAULT_TOP),
            thousands(experiment.trials)
        ));
    }
    out.push_str(&format!(
        "- start-up: {} (reading the spec, starting the worker threads and the study's one-off \
         preparation, such as an exact solver a strategy plays from), measured once and \
         included in no row\n\n",
        duration(run.startup)
    ));
    out.push_str(&running_time_section(run, findings)?);
    out.push_str(&results_section(run, findings)?);
    Ok(out)
}

fn running_time_section(run: &Ladder, findings: &Findings) -> Result<String> {
    let fit = findings.time;
    let variants = run.experiment.variants.len() as f64;
    let spec_trials = run.experiment.trials as f64;
    let shape = if fit.r_squared >= 0.99 {
        "linear in the number of trials"
    } else {
        "close to linear in the number of trials, with noticeable timing noise"
    };
    let mut out = format!(
        "## Running time against trials\n\n\
         ![Running time against trials](running_time.png)\n\n\
         Running time is {shape}: the least-squares line through the mean wall time of a \
         variant's run at each of the {points} (count, repeat) steps is \
         **seconds = {a} + {b} × trials** (R² = {r2:.4}): {b} per trial, about {rate} trials \
         per second on {threads} threads, plus a fixed {a} per run{intercept_note}. At the \
         spec's {spec} trials that predicts {one} per variant and {all} for all {count} \
         variants. Variants differ in cost per trial (the table at the end of this report \
         gives each one's own slope), which is the spread of the points at each count.\n\n",
        intercept_note = if fit.intercept < 0.0 {
            " (a negative intercept: the fixed cost is too small to separate from the timing \
             noise of the largest runs)"
        } else {
            ""
        },
        points = fit.points,
        a = duration(fit.intercept),
        b = duration(fit.slope),
        r2 = fit.r_squared,
        rate = thousands((1.0 / fit.slope).round() as u64),
        threads = run.threads,
        spec = thousands(run.experiment.trials),
        one = duration(fit.intercept + fit.slope * spec_trials),
        all = duration(variants * (fit.intercept + fit.slope * spec_trials)),
        count = variants,
    );
    if run.ladder.iter().any(|&n| n < DEFAULT_CHUNK_SIZE) && run.threads > 1 {
        out.push_str(&format!(
            "Runs of fewer than {} trials are one chunk of work and use one thread, so their cost \
             per trial is higher than the slope, which the largest runs determine.\n\n",
            thousands(DEFAULT_CHUNK_SIZE)
        ));
    }
    let mut trials = Vec::new();
    let (mut median, mut per_trial, mut low, mut high, mut predicted) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for &n in &run.ladder {
        let mut seconds: Vec<f64> = run
            .rows
            .iter()
            .filter(|r| r.trials == n)
            .map(|r| r.seconds)
            .collect();
        seconds.sort_by(f64::total_cmp);
        let middle = seconds[seconds.len() / 2];
        trials.push(n);
        median.push(middle);
        per_trial.push(middle / n as f64 * 1e6);
        low.push(seconds[0]);
        high.push(seconds[seconds.len() - 1]);
        predicted.push(fit.intercept + fit.slope * n as f64);
    }
    let table = TableBuilder::new()
        .count("trials", trials)
        .real("median_seconds", median)
        .real("min_seconds", low)
        .real("max_seconds", high)
        .real("fitted_seconds", predicted)
        .real("median_us_per_trial", per_trial)
        .build()?;
    out.push_str("Wall time of the runs at each count, over variants and repeats:\n\n");
    out.push_str(&to_markdown(&table));
    out.push('\n');
    Ok(out)
}

fn results_section(run: &Ladder, findings: &Findings) -> Result<String> {
    let width = findings.width;
    let mut out = format!(
        "## Results against trials\n\n\
         ![Headline estimate against trials](convergence.png)\n\n\
         Each panel shows every repeat's estimate of {label} with its 95% interval, the pooled \
         estimate of the repeats at the top of the ladder (dashed) and the envelope c/√trials \
         around it, c fitted at the top.\n\n\
         - **How results vary with the number of trials.** The 95% interval's half-width falls \
         as **trials^{k:.3}** (standard error {se:.3}; fitted on log–log axes within each \
         variant over the counts from {from}; sampling theory says -0.5): a hundred times more \
         trials make the interval ten times narrower.\n",
        label = run.label,
        k = width.slope,
        se = width.slope_se,
        from = thousands(findings.width_from),
    );
    if let Some(n) = findings.spread_at {
        let (worst, spread) = findings
            .variants
            .iter()
            .enumerate()
            .filter(|(_, f)| f.spread.is_finite())
            .max_by(|a, b| a.1.spread.total_cmp(&b.1.spread))
            .map_or((String::from("–"), f64::NAN), |(v, f)| {
                (run.variant_name(v).to_string(), f.spread)
            });
        out.push_str(&format!(
            "- **Spread of repeats.** At {} trials the {} repeats of a variant differ from their \
             pooled estimate by up to ±{} (`{worst}`); the per-variant spread is in the table \
             below.\n",
            thousands(n),
            run.repeats,
            format_number(spread),
        ));
    }
    let agreeing = findings.tests.iter().filter(|t| t.p >= ALPHA).count();
    if findings.tests.is_empty() {
        out.push_str(
            "- **Are repeats consistent?** Not testable here: it needs at least two repeats \
             with usable standard errors.\n",
        );
    } else {
        out.push_str(&format!(
            "- **Are repeats consistent?** Cochran's Q (each repeat against the repeats' \
             inverse-variance pooled estimate, chi-square with repeats - 1 degrees of freedom, \
             summed over variants) finds them consistent at α = {ALPHA} at {agreeing} of {} \
             tested counts; with consistent repeats about 1 count in 20 is flagged by chance. \
             Counts below {MIN_TEST_TRIALS} trials are not tested (the standard errors the test \
             weighs repeats by are themselves too rough there), nor are variants whose estimate \
             has no usable standard error at a count (no finished game, a share of 0 or 1).\n\n",
            findings.tests.len()
        ));
        let tests = &findings.tests;
        let table = TableBuilder::new()
            .count("trials", tests.iter().map(|t| t.trials))
            .count("variants_tested", tests.iter().map(|t| t.variants as u64))
            .real("q", tests.iter().map(|t| t.q))
            .real("df", tests.iter().map(|t| t.df))
            .real("p_value", tests.iter().map(|t| t.p))
            .text(
                "consistent",
                tests
                    .iter()
                    .map(|t| if t.p >= ALPHA { "yes" } else { "no" }),
            )
            .build()?;
        out.push_str(&to_markdown(&table));
        out.push('\n');
    }
    let variants = &findings.variants;
    let count = variants.len();
    let table = TableBuilder::new()
        .text("variant", (0..count).map(|v| run.variant_name(v)))
        .real(
            &format!("pooled_at_{}", run.top()),
            variants.iter().map(|f| f.reference),
        )
        .real(
            &format!("spread_at_{}", findings.spread_at.unwrap_or(0)),
            variants.iter().map(|f| f.spread),
        )
        .real(
            "half_width_exponent",
            variants.iter().map(|f| f.width.slope),
        )
        .real("us_per_trial", variants.iter().map(|f| f.time.slope * 1e6))
        .build()?;
    out.push_str("\nPer variant:\n\n");
    out.push_str(&to_markdown(&table));
    out.push_str(&format!(
        "\nEvery run is a row of `scaling.csv` (its p-values: {}).\n",
        if findings.tests.iter().any(|t| t.p < ALPHA) {
            format!(
                "smallest {}",
                format_p(findings.tests.iter().map(|t| t.p).fold(1.0, f64::min))
            )
        } else {
            "none below α".to_string()
        }
    ));
    Ok(out)
}

/// `manifest.json` of a ladder: the run manifest's fields plus what is particular to it.
#[derive(Serialize)]
struct ScaleManifest {
    #[serde(flatten)]
    run: Manifest,
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

/// Writes every file through a staging folder (as `run` does) and moves them into place.
fn write_outputs(
    mut staging: Staging,
    run: &Ladder,
    findings: &Findings,
    started: Instant,
) -> Result<PathBuf> {
    let mut table = scaling_table(run)?;
    for format in [TableFormat::Csv, TableFormat::Parquet] {
        let path = staging.file(&format!("scaling.{}", format.extension()));
        write_table(&mut table, &path, format)?;
    }
    std::fs::write(staging.file("report.md"), report(run, findings)?)
        .context("cannot write report.md")?;
    for (stem, chart) in [
        ("running_time", running_time_chart(run, findings)),
        ("convergence", convergence_chart(run, findings)),
    ] {
        chart.save_png(&staging.file(&format!("{stem}.png")))?;
        chart.save_svg(&staging.file(&format!("{stem}.svg")))?;
    }
    let mut manifest = Manifest::new(run.experiment, run.threads, DEFAULT_CHUNK_SIZE);
    manifest.wall_seconds = started.elapsed().as_secs_f64();
    manifest.trials_per_second = run.rows.iter().map(|r| r.trials).sum::<u64>() as f64
        / run.rows.iter().map(|r| r.seconds).sum::<f64>();
    manifest.files = staging.files().to_vec();
    manifest.files.push("manifest.json".into());
    let manifest = ScaleManifest {
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
    };
    let json = serde_json::to_string_pretty(&manifest)?;
    std::fs::write(staging.file("manifest.json"), json + "\n")
        .context("cannot write manifest.json")?;
    staging.commit()
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

    #[test]
    fn durations_are_written_in_a_fitting_unit() {
        assert_eq!(duration(0.0008), "800.00 µs");
        assert_eq!(duration(4.3e-6), "4.30 µs");
        assert_eq!(duration(2.5), "2.50 s");
        assert_eq!(duration(0.0123), "12.30 ms");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
