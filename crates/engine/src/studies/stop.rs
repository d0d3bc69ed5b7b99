//! Runs with a precision target (`[stop]`, see [`crate::spec::Stop`]): the variants play in
//! stages; after each stage, every variant whose 95% interval of the metric is narrow enough
//! stops, and the others play the next stage. Stage `s` ends at trial
//! `min(s * stage_trials, max_trials)`, so where each variant stops depends on the spec and
//! the seed alone (never on threads or chunks), and each variant's summary is exactly that of
//! a fixed run of the trials it took.
//!
//! In a common design the variants must stay paired, so they play every stage together and
//! stop together, once every variant's interval is narrow enough or at the cap.
//!
//! With a ledger (every `experiment run`), each stage asks for a variant's trials from trial 0
//! on: the ledger supplies what is already played and the runner plays the rest, so a
//! checkpoint always holds each variant's trials from 0. A resumed run takes the same stages:
//! a variant whose checkpointed trials go past a stage's end had not stopped there (the
//! decision the interrupted run took), and every other decision is made again from the
//! summary at the stage's end.

use anyhow::{bail, Result};

use super::estimator::{Estimator, Reader};
use super::{play_range, Played};
use crate::analysis::Measures;
use crate::design::{Design, COMMON_STREAM};
use crate::frame::Role;
use crate::games::Game;
use crate::report::{Block, Cell, StudyOutput, Table, Text};
use crate::runner::{Decisions, Runner, Stopped};
use crate::spec::{Experiment, Stop};
use crate::stats::Estimate;
use crate::summary::Summary;

/// The column of the summary table that says why a variant stopped.
pub const STOPPED_COLUMN: &str = "stopped";

/// The column of the summary table, after [`STOPPED_COLUMN`], that says whether the target's
/// guarantee holds for the variant ([`Stopped::guaranteed`]): `yes` or `no`.
pub const GUARANTEED_COLUMN: &str = "guaranteed";

/// The reader of the metric `stop` names, if `estimator` knows it with an interval, or the
/// error of [`check_metric`].
pub fn stop_metric<'a, S>(estimator: &Estimator<'a, S>, stop: &Stop) -> Result<Reader<'a, S>> {
    check_metric(stop, &estimator.names())?;
    Ok(estimator
        .reader(&stop.metric)
        .expect("check_metric found it among the names"))
}

/// Refuses `stop` unless its metric is one of `names` (a study's metrics with a 95% interval,
/// [`crate::studies::Study::estimated_metrics`]), naming where the metric was given and the
/// valid choices: what `run` and `validate` say alike.
pub fn check_metric(stop: &Stop, names: &[&str]) -> Result<()> {
    if names.contains(&stop.metric.as_str()) {
        return Ok(());
    }
    bail!(
        "{}: [stop] metric '{}' is not a metric of this game with a 95% interval (expected one \
         of: {})",
        stop.metric_at,
        stop.metric,
        names.join(", ")
    )
}

/// The half-width of `estimate`'s interval (NaN when it has none yet).
fn half_width(estimate: &Estimate) -> f64 {
    (estimate.confidence_interval.upper - estimate.confidence_interval.lower) / 2.0
}

/// Plays the variants of `experiment` (whose games `games` are) stage by stage until each
/// meets `stop`'s target or its cap, and notes on `runner` where each stopped.
pub fn run_stages<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    estimator: &Estimator<G::Summary>,
    games: &[G],
    stop: &Stop,
) -> Result<Played<G::Summary>> {
    let measures = estimator.measures();
    let metric = stop_metric(estimator, stop)?;
    if experiment.design == Design::Common {
        return Ok(run_common_stages(
            experiment, runner, measures, games, stop, &metric,
        ));
    }
    let per_stage = stop.stage(experiment.trials);
    let count = games.len();
    let stream = |v: usize| experiment.variants[v].stream;
    // Trials each variant's ledger already holds: past a stage's end, it did not stop there.
    let held: Vec<Option<u64>> = (0..count).map(|v| runner.held(stream(v))).collect();
    let mut totals: Vec<G::Summary> = vec![G::Summary::default(); count];
    let mut played_to = vec![0u64; count];
    let mut stopped: Vec<Option<Stopped>> = vec![None; count];
    let mut active: Vec<usize> = (0..count).collect();
    runner.expect_trials(stop.max_trials.saturating_mul(count as u64));
    let mut stage = 1;
    while !active.is_empty() && !runner.is_cancelled() {
        let end = stop.stage_end(stage, per_stage);
        let due: Vec<usize> = active
            .iter()
            .copied()
            .filter(|&v| held[v].is_none_or(|held| held <= end))
            .collect();
        // With a ledger, from trial 0 (the ledger holds the rest); without, the new trials only
        // (every due variant has then played to the previous stage's end).
        let from = match held.first() {
            Some(Some(_)) => 0,
            _ => due.first().map_or(0, |&v| played_to[v]),
        };
        if !due.is_empty() {
            let played = play_range(experiment, runner, measures, games, &due, from..end);
            for (&v, summary) in due.iter().zip(&played.summaries) {
                if from == 0 {
                    totals[v] = summary.clone();
                } else {
                    totals[v].merge(summary);
                }
                played_to[v] = end;
            }
        }
        if runner.is_cancelled() {
            break;
        }
        for &v in &due {
            let estimate = metric.estimate(v, &totals[v]);
            let half = half_width(&estimate);
            let reached = stop.target.met(estimate.point, half);
            if reached || end == stop.max_trials {
                stopped[v] = Some(Stopped {
                    variant: experiment.variants[v].name.clone(),
                    unit: measures.unit,
                    trials: end,
                    reached,
                    point: estimate.point,
                    half_width: half,
                });
            }
        }
        active.retain(|&v| stopped[v].is_none());
        stage += 1;
    }
    Ok(Played {
        summaries: totals,
        paired: None,
        decisions: Decisions::Stops(stopped.into_iter().flatten().collect()),
    })
}

/// [`run_stages`] in the common design: the variants must stay paired (trial `i` of every
/// variant on the same numbers), so every variant plays every stage, and all stop together
/// once every variant's interval meets the target, or at the cap. Each variant's summary and
/// the paired statistics are then exactly those of a fixed common run of the trials taken.
///
/// The variants are one job recorded under [`COMMON_STREAM`], so one count of held trials
/// says where a resumed run is: past a stage's end, the variants had not stopped there.
fn run_common_stages<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    measures: &Measures<G::Summary>,
    games: &[G],
    stop: &Stop,
    metric: &Reader<G::Summary>,
) -> Played<G::Summary> {
    let per_stage = stop.stage(experiment.trials);
    let all: Vec<usize> = (0..games.len()).collect();
    let held = runner.held(COMMON_STREAM);
    let mut played = Played {
        summaries: vec![G::Summary::default(); games.len()],
        paired: None,
        decisions: Decisions::None,
    };
    let mut played_to = 0;
    runner.expect_trials(stop.max_trials.saturating_mul(games.len() as u64));
    let mut stage = 1;
    while !runner.is_cancelled() {
        let end = stop.stage_end(stage, per_stage);
        stage += 1;
        // The last stage is always played: the run stops there at the latest.
        if end < stop.max_trials && held.is_some_and(|held| held > end) {
            continue;
        }
        // With a ledger, from trial 0 (the ledger holds the rest); without, the new trials.
        let from = if held.is_some() { 0 } else { played_to };
        let part = play_range(experiment, runner, measures, games, &all, from..end);
        if from == 0 {
            played = part;
        } else {
            for (total, summary) in played.summaries.iter_mut().zip(&part.summaries) {
                total.merge(summary);
            }
            if let (Some(total), Some(paired)) = (&mut played.paired, &part.paired) {
                total.merge(paired);
            }
        }
        played_to = end;
        if runner.is_cancelled() {
            break;
        }
        let stops: Vec<Stopped> = experiment
            .variants
            .iter()
            .zip(&played.summaries)
            .enumerate()
            .map(|(v, (variant, summary))| {
                let estimate = metric.estimate(v, summary);
                let half = half_width(&estimate);
                Stopped {
                    variant: variant.name.clone(),
                    unit: measures.unit,
                    trials: end,
                    reached: stop.target.met(estimate.point, half),
                    point: estimate.point,
                    half_width: half,
                }
            })
            .collect();
        if end == stop.max_trials || stops.iter().all(|s| s.reached) {
            played.decisions = Decisions::Stops(stops);
            break;
        }
    }
    played
}

/// Adds what `stops` say to `output` of a run with the precision target `stop` in the design
/// `design`: the column `stopped` (`target` or `cap`) after the trial-count column of the
/// `summary` table, a "Precision targets" section at the end of the report, and the same
/// table on the console.
pub fn annotate(
    output: &mut StudyOutput,
    stop: &Stop,
    design: Design,
    stops: &[Stopped],
) -> Result<()> {
    let word = |s: &Stopped| if s.reached { "target" } else { "cap" };
    if let Some(table) = output.tables.iter_mut().find(|t| t.name == "summary") {
        // The summary table has a row per variant, in variant order, as `stops` has.
        let words: Vec<&str> = stops.iter().map(word).collect();
        let unit = stops.first().map_or("", |s| s.unit);
        let at = table
            .frame
            .get_column_index(unit)
            .map_or(table.roles.len(), |index| index + 1);
        let column = polars::prelude::Column::new(STOPPED_COLUMN.into(), words);
        table.frame.insert_column(at, column)?;
        table.roles.insert(at, Role::Text);
        let held: Vec<&str> = stops.iter().map(|s| yes_no(s.guaranteed())).collect();
        let column = polars::prelude::Column::new(GUARANTEED_COLUMN.into(), held);
        table.frame.insert_column(at + 1, column)?;
        table.roles.insert(at + 1, Role::Text);
    }
    let blocks = section(stop, design, stops);
    output.report.extend(blocks.iter().cloned());
    output.console.extend(blocks.into_iter().skip(1));
    Ok(())
}

/// The "Precision targets" section: the rule in words and a row per variant.
fn section(stop: &Stop, design: Design, stops: &[Stopped]) -> Vec<Block> {
    let unit = stops.first().map_or("trials", |s| s.unit);
    let mut table = Table::new([
        ("variant", Role::Label),
        (unit, Role::Count),
        (STOPPED_COLUMN, Role::Text),
        (GUARANTEED_COLUMN, Role::Text),
        (stop.metric.as_str(), Role::Number),
        ("95% half-width", Role::Number),
    ]);
    for s in stops {
        table.row(vec![
            Cell::text(s.variant.as_str()),
            Cell::count(s.trials),
            Cell::text(if s.reached { "target" } else { "cap" }),
            Cell::text(yes_no(s.guaranteed())),
            Cell::number(s.point),
            Cell::number(s.half_width),
        ]);
    }
    let reached = stops.iter().filter(|s| s.reached).count();
    let outcome = if reached == stops.len() {
        format!("all {reached} variants reached the target (stopped = target)")
    } else {
        format!(
            "{reached} of {} variants reached the target (stopped = target), the others the \
             cap (stopped = cap)",
            stops.len()
        )
    };
    let rule = match design {
        Design::Independent => Text::new()
            .plain("Each variant played stages of trials until the 95% interval of ")
            .code(stop.metric.as_str())
            .plain(format!(
                " was {} or it reached {} trials; {outcome}. Each variant's numbers are \
                 exactly those of a fixed run of the trials it took.",
                stop.target, stop.max_trials
            )),
        Design::Common => Text::new()
            .plain(
                "The variants played stages of trials together, so that they stay paired \
                 (common random numbers), until the 95% interval of ",
            )
            .code(stop.metric.as_str())
            .plain(format!(
                " was {} for every variant or they reached {} trials; {outcome}. The numbers \
                 are exactly those of a fixed common run of the trials taken.",
                stop.target, stop.max_trials
            )),
    };
    let mut blocks = vec![
        Block::heading(2, "Precision targets"),
        Block::paragraph(rule),
    ];
    let degenerate: Vec<&str> = stops
        .iter()
        .filter(|s| s.degenerate())
        .map(|s| s.variant.as_str())
        .collect();
    if !degenerate.is_empty() {
        blocks.push(Block::paragraph(
            Text::new()
                .strong("The target's guarantee does not hold")
                .plain(format!(
                    " for {} (guaranteed = no): every trial of its stages gave the same value \
                     of ",
                    degenerate.join(", ")
                ))
                .code(stop.metric.as_str())
                .plain(
                    ", so the variance estimate was 0 and its interval had no width when it \
                     stopped: the stage was too small to estimate the variance. Use larger \
                     stages (stage_trials) so that the first holds trials of different values.",
                ),
        ));
    }
    blocks.push(Block::Table(table));
    blocks
}

/// `yes` or `no`, as the tables write a truth.
fn yes_no(truth: bool) -> &'static str {
    if truth {
        "yes"
    } else {
        "no"
    }
}
