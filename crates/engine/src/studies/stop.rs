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
use super::staged::{play_in_stages, Stages};
use super::{play_range, Played};
use crate::analysis::decided::{why, yes_no};
use crate::analysis::Measures;
use crate::design::{Design, COMMON_STREAM};
use crate::frame::Role;
use crate::games::Game;
use crate::report::{Block, Cell, StudyOutput, Table, Text};
use crate::runner::{Decisions, Runner, Stopped};
use crate::spec::{Experiment, Stop};
use crate::stats::Estimate;
use crate::summary::Summary;

pub use crate::analysis::decided::{GUARANTEED_COLUMN, STOPPED_COLUMN};

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
/// meets `stop`'s target or its cap; where each stopped comes back in [`Played::decisions`].
pub fn run_stages<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    estimator: &Estimator<G::Summary>,
    games: &[G],
    stop: &Stop,
) -> Result<Played<G::Summary>> {
    let rule = Rule {
        experiment,
        measures: estimator.measures(),
        games,
        stop,
        metric: stop_metric(estimator, stop)?,
        per_stage: stop.stage(experiment.trials),
    };
    Ok(match experiment.design {
        Design::Independent => play_in_stages(runner, Apart::new(rule, runner)),
        Design::Common => play_in_stages(runner, Together::new(rule, runner)),
    })
}

/// What both designs of a precision target read.
struct Rule<'a, G: Game> {
    experiment: &'a Experiment,
    measures: &'a Measures<G::Summary>,
    games: &'a [G],
    stop: &'a Stop,
    metric: Reader<'a, G::Summary>,
    per_stage: u64,
}

impl<G: Game> Rule<'_, G> {
    /// The end of stage `stage`.
    fn end(&self, stage: u64) -> u64 {
        self.stop.stage_end(stage, self.per_stage)
    }

    /// Where variant `v` stands at trial `end` with `summary`.
    fn stopped(&self, v: usize, summary: &G::Summary, end: u64) -> Stopped {
        let estimate = self.metric.estimate(v, summary);
        let half = half_width(&estimate);
        Stopped {
            variant: self.experiment.variants[v].name.clone(),
            unit: self.measures.unit,
            trials: end,
            reached: self.stop.target.met(estimate.point, half),
            point: estimate.point,
            half_width: half,
        }
    }

    /// The most trials of every variant.
    fn most_trials(&self) -> u64 {
        self.stop.max_trials.saturating_mul(self.games.len() as u64)
    }
}

/// The independent design: each variant stops on its own.
///
/// With a ledger (every `experiment run`), each stage asks for a variant's trials from trial 0
/// on: the ledger supplies what is already played and the runner plays the rest. A variant
/// whose ledger already holds trials past a stage's end had not stopped there.
struct Apart<'a, G: Game> {
    rule: Rule<'a, G>,
    /// Trials each variant's ledger already holds.
    held: Vec<Option<u64>>,
    totals: Vec<G::Summary>,
    played_to: Vec<u64>,
    stopped: Vec<Option<Stopped>>,
    active: Vec<usize>,
    /// The variants of the stage last played, and its end.
    due: Vec<usize>,
    end: u64,
}

impl<'a, G: Game> Apart<'a, G> {
    fn new(rule: Rule<'a, G>, runner: &Runner) -> Self {
        let count = rule.games.len();
        let held = (0..count)
            .map(|v| runner.held(rule.experiment.variants[v].stream))
            .collect();
        Apart {
            rule,
            held,
            totals: vec![G::Summary::default(); count],
            played_to: vec![0; count],
            stopped: vec![None; count],
            active: (0..count).collect(),
            due: Vec::new(),
            end: 0,
        }
    }
}

impl<G: Game> Stages for Apart<'_, G> {
    type Summary = G::Summary;

    fn most_trials(&self) -> u64 {
        self.rule.most_trials()
    }

    fn done(&self) -> bool {
        self.active.is_empty()
    }

    fn play(&mut self, runner: &Runner, stage: u64) -> bool {
        let end = self.rule.end(stage);
        let held = &self.held;
        self.due = self
            .active
            .iter()
            .copied()
            .filter(|&v| held[v].is_none_or(|held| held <= end))
            .collect();
        self.end = end;
        // With a ledger, from trial 0 (the ledger holds the rest); without, the new trials only
        // (every due variant has then played to the previous stage's end).
        let from = match held.first() {
            Some(Some(_)) => 0,
            _ => self.due.first().map_or(0, |&v| self.played_to[v]),
        };
        if !self.due.is_empty() {
            let (experiment, measures, games) =
                (self.rule.experiment, self.rule.measures, self.rule.games);
            let played = play_range(experiment, runner, measures, games, &self.due, from..end);
            for (&v, summary) in self.due.iter().zip(&played.summaries) {
                if from == 0 {
                    self.totals[v] = summary.clone();
                } else {
                    self.totals[v].merge(summary);
                }
                self.played_to[v] = end;
            }
        }
        true
    }

    fn decide(&mut self, _stage: u64) {
        for &v in &self.due {
            let stopped = self.rule.stopped(v, &self.totals[v], self.end);
            if stopped.reached || self.end == self.rule.stop.max_trials {
                self.stopped[v] = Some(stopped);
            }
        }
        let stopped = &self.stopped;
        self.active.retain(|&v| stopped[v].is_none());
    }

    fn finish(self, _cancelled: bool) -> Played<G::Summary> {
        Played {
            summaries: self.totals,
            paired: None,
            decisions: Decisions::Stops(self.stopped.into_iter().flatten().collect()),
        }
    }
}

/// The common design: the variants must stay paired (trial `i` of every variant on the same
/// numbers), so every variant plays every stage, and all stop together once every variant's
/// interval meets the target, or at the cap. Each variant's summary and the paired statistics
/// are then exactly those of a fixed common run of the trials taken.
///
/// The variants are one job recorded under [`COMMON_STREAM`], so one count of held trials
/// says where a resumed run is: past a stage's end, the variants had not stopped there.
struct Together<'a, G: Game> {
    rule: Rule<'a, G>,
    held: Option<u64>,
    played: Played<G::Summary>,
    played_to: u64,
    done: bool,
}

impl<'a, G: Game> Together<'a, G> {
    fn new(rule: Rule<'a, G>, runner: &Runner) -> Self {
        let count = rule.games.len();
        Together {
            rule,
            held: runner.held(COMMON_STREAM),
            played: Played {
                summaries: vec![G::Summary::default(); count],
                paired: None,
                decisions: Decisions::None,
            },
            played_to: 0,
            done: false,
        }
    }
}

impl<G: Game> Stages for Together<'_, G> {
    type Summary = G::Summary;

    fn most_trials(&self) -> u64 {
        self.rule.most_trials()
    }

    fn done(&self) -> bool {
        self.done
    }

    fn play(&mut self, runner: &Runner, stage: u64) -> bool {
        let end = self.rule.end(stage);
        // The last stage is always played: the run stops there at the latest.
        if end < self.rule.stop.max_trials && self.held.is_some_and(|held| held > end) {
            return false;
        }
        // With a ledger, from trial 0 (the ledger holds the rest); without, the new trials.
        let from = if self.held.is_some() {
            0
        } else {
            self.played_to
        };
        let all: Vec<usize> = (0..self.rule.games.len()).collect();
        let (experiment, measures, games) =
            (self.rule.experiment, self.rule.measures, self.rule.games);
        let part = play_range(experiment, runner, measures, games, &all, from..end);
        if from == 0 {
            self.played = part;
        } else {
            for (total, summary) in self.played.summaries.iter_mut().zip(&part.summaries) {
                total.merge(summary);
            }
            if let (Some(total), Some(paired)) = (&mut self.played.paired, &part.paired) {
                total.merge(paired);
            }
        }
        self.played_to = end;
        true
    }

    fn decide(&mut self, _stage: u64) {
        let end = self.played_to;
        let stops: Vec<Stopped> = self
            .played
            .summaries
            .iter()
            .enumerate()
            .map(|(v, summary)| self.rule.stopped(v, summary, end))
            .collect();
        if end == self.rule.stop.max_trials || stops.iter().all(|s| s.reached) {
            self.played.decisions = Decisions::Stops(stops);
            self.done = true;
        }
    }

    fn finish(self, _cancelled: bool) -> Played<G::Summary> {
        self.played
    }
}

/// Adds what `stops` say to `output` of a run with the precision target `stop` in the design
/// `design`: a "Precision targets" section at the end of the report, and the same table on the
/// console. (The `summary` table was built with its `stopped` and `guaranteed` columns, see
/// [`crate::analysis::decided`].)
pub fn report(output: &mut StudyOutput, stop: &Stop, design: Design, stops: &[Stopped]) {
    let blocks = section(stop, design, stops);
    output.report.extend(blocks.iter().cloned());
    output.console.extend(blocks.into_iter().skip(1));
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
            Cell::text(why(s)),
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
