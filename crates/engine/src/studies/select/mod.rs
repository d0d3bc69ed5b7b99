//! Choosing the best variant (`[select]`, see [`crate::spec::Select`]): Kim and Nelson's fully
//! sequential procedure ([`crate::stats::selection`]), screening at the end of each stage.
//!
//! Stage `s` ends at trial `min(s * stage_trials, max_trials)`. The first stage plays every
//! variant and estimates the variance of each pair's per-trial differences; after each stage
//! the variants still in play are screened against each other, and those clearly worse than
//! another are eliminated. The run stops when one variant remains, or at the cap.
//!
//! Every stage's variants play side by side as one job ([`CommonGame`]): in the common design
//! on the trial's common numbers, in the independent design each from its own stream, so that
//! every variant's summary is exactly that of a fixed run of the trials it took. Each stage is
//! recorded under a stream of its own ([`stage_stream`]), from the stage's first trial, so a
//! checkpoint holds every stage played and a resumed run screens again from the same sums.

mod output;

pub use output::{report, SELECTION_TABLE};

use anyhow::{bail, Result};

use super::estimator::Estimator;
use super::staged::{play_in_stages, Stages};
use super::Played;
use crate::design::{CommonGame, CommonSummary, Design, PairSet, PairedSummary};
use crate::games::Game;
use crate::rng::variant_stream;
use crate::runner::{Decisions, Job, Runner, Selected, Selection};
use crate::spec::{Experiment, Select, MAX_STAGES};
use crate::stats::selection::{equal_trials, kn_h2, kn_survivors, rinott_trials};
use crate::summary::{IntegerMoments, Summary};

/// Most variants a selection takes: its first stage keeps every pair's differences.
pub const MAX_SELECT_VARIANTS: usize = 100;

/// The stream under which stage `stage` (from 1) of a selection is played and recorded: the
/// stream [`variant_stream`] gives the fixed identity `select` / `stage=N`. The numbers come
/// from the variants' own streams or the common design's, never from this one.
pub fn stage_stream(stage: u64) -> u64 {
    variant_stream("select", &format!("stage={stage}"))
}

/// What summaries files call [`stage_stream`]`(stage)`.
pub fn stage_label(stage: u64) -> String {
    format!("[select] stage {stage}")
}

/// The metrics with a 95% interval (declared, or the study's own, see [`Estimator`]) that `G`
/// records trial by trial ([`Game::PAIRED`]), proportions and means alike: what a selection
/// may compare (what [`crate::studies::Study::selectable_metrics`] gives).
pub fn selectable_with<G: Game>(estimator: &Estimator<G::Summary>) -> Vec<&'static str> {
    let known = estimator.names();
    G::PAIRED
        .iter()
        .map(|p| p.metric)
        .filter(|name| known.contains(name))
        .collect()
}

/// Refuses a selection whose metric is not one of `names` (see [`selectable_with`]), naming
/// the valid ones.
pub fn check_metric(select: &Select, names: &[&str]) -> Result<()> {
    if names.contains(&select.metric.as_str()) {
        return Ok(());
    }
    bail!(
        "{}: [select] metric '{}' is not a metric of this game that a selection can compare \
         trial by trial (expected one of: {})",
        select.metric_at,
        select.metric,
        names.join(", ")
    )
}

/// Refuses a selection among `count` variants unless they are 2 to [`MAX_SELECT_VARIANTS`],
/// naming the `[select]` table's line: what `run` (after any `--variant`) and `validate` say
/// alike.
pub fn check_variant_count(select: &Select, count: usize) -> Result<()> {
    if (2..=MAX_SELECT_VARIANTS).contains(&count) {
        return Ok(());
    }
    let fix = if count < 2 {
        "give it more variants ([sweep] or [[variant]]) or remove [select]"
    } else {
        "choose fewer (with --variant, or fewer values in [sweep]) or remove [select]"
    };
    bail!(
        "{}: [select] chooses among 2 to {MAX_SELECT_VARIANTS} variants, and this run has \
         {count}: {fix}",
        select.at
    )
}

/// The position in [`Game::PAIRED`] of the metric `select` names, or why it cannot be.
fn paired_metric<G: Game>(estimator: &Estimator<G::Summary>, select: &Select) -> Result<usize> {
    check_metric(select, &selectable_with::<G>(estimator))?;
    Ok(G::PAIRED
        .iter()
        .position(|p| p.metric == select.metric)
        .expect("a selectable metric is paired"))
}

/// Plays the variants of `experiment` (whose games `games` are) stage by stage, eliminating
/// the clearly worse, until one remains or the cap of `select`; what it chose comes back in
/// [`Played::decisions`]. [`Played::paired`] is none: the variants played different trials, so
/// no paired test covers all of each one's (see [`Selection::positive_correlations`]).
pub fn run_selection<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    estimator: &Estimator<G::Summary>,
    games: &[G],
    select: &Select,
) -> Result<Played<G::Summary>> {
    let count = games.len();
    check_variant_count(select, count)?;
    let m = paired_metric::<G>(estimator, select)?;
    let per_stage = select.stage(experiment.trials);
    if per_stage < 2 || select.stages(experiment.trials) > MAX_STAGES {
        bail!(
            "{}: [select] with stages of {per_stage} trials up to max_trials = {} needs stages \
             of at least 2 trials and at most {MAX_STAGES} stages",
            experiment.path.display(),
            select.max_trials
        );
    }
    let screening = Screening {
        experiment,
        estimator,
        games,
        select,
        m,
        scale: f64::from(G::PAIRED[m].scale),
        per_stage,
        h2: kn_h2(count, select.confidence, per_stage),
        totals: vec![G::Summary::default(); count],
        values: vec![IntegerMoments::default(); count],
        trials: vec![0; count],
        eliminated: vec![None; count],
        first: None,
        active: (0..count).collect(),
        stage: None,
        stages: 0,
        from: 0,
    };
    Ok(play_in_stages(runner, screening))
}

/// A selection in progress: what each variant has played, and who is still in.
struct Screening<'a, G: Game> {
    experiment: &'a Experiment,
    estimator: &'a Estimator<'a, G::Summary>,
    games: &'a [G],
    select: &'a Select,
    /// The position of the selection's metric in [`Game::PAIRED`], and its scale.
    m: usize,
    scale: f64,
    per_stage: u64,
    h2: f64,
    totals: Vec<G::Summary>,
    values: Vec<IntegerMoments>,
    trials: Vec<u64>,
    eliminated: Vec<Option<u64>>,
    /// The first stage's paired statistics, which estimate the variances.
    first: Option<PairedSummary>,
    active: Vec<usize>,
    /// The stage last played, until it is decided on.
    stage: Option<CommonSummary<G::Summary>>,
    /// Stages played, and the end of the last.
    stages: u64,
    from: u64,
}

impl<G: Game> Stages for Screening<'_, G> {
    type Summary = G::Summary;

    fn most_trials(&self) -> u64 {
        self.select
            .max_trials
            .saturating_mul(self.games.len() as u64)
    }

    fn done(&self) -> bool {
        self.active.len() <= 1 || self.from >= self.select.max_trials
    }

    fn play(&mut self, runner: &Runner, stage: u64) -> bool {
        let end = self.select.stage_end(stage, self.per_stage);
        let (experiment, games) = (self.experiment, self.games);
        self.stage = Some(play_stage(
            experiment,
            runner,
            games,
            &self.active,
            stage,
            self.from..end,
        ));
        self.stages = stage;
        true
    }

    fn decide(&mut self, stage: u64) {
        let end = self.select.stage_end(stage, self.per_stage);
        let CommonSummary { variants, paired } = self.stage.take().expect("a stage was played");
        let m = self.m;
        for (local, &v) in self.active.iter().enumerate() {
            self.totals[v].merge(&variants[local]);
            self.values[v].merge(&paired.values[local][m]);
            self.trials[v] = end;
        }
        if stage == 1 {
            self.first = Some(paired);
        }
        let first = self
            .first
            .as_ref()
            .expect("the first stage is played first");
        let (select, scale) = (self.select, self.scale);
        let means: Vec<f64> = self
            .values
            .iter()
            .map(|moments| select.goal.orient(moments.mean() / scale))
            .collect();
        let variance = |i: usize, l: usize| {
            let (a, b) = (i.min(l), i.max(l));
            first
                .difference(a, b, m)
                .map_or(f64::INFINITY, IntegerMoments::variance)
                / (scale * scale)
        };
        let kept = kn_survivors(
            &self.active,
            &means,
            end,
            self.h2,
            select.indifference,
            variance,
        );
        for &v in &self.active {
            if !kept.contains(&v) {
                self.eliminated[v] = Some(stage);
            }
        }
        self.active = kept;
        self.from = end;
    }

    fn finish(self, cancelled: bool) -> Played<G::Summary> {
        let decisions = if cancelled {
            Decisions::None
        } else {
            Decisions::Selection(self.selection())
        };
        Played {
            summaries: self.totals,
            paired: None,
            decisions,
        }
    }
}

impl<G: Game> Screening<'_, G> {
    /// What the finished selection chose, and what it guarantees.
    fn selection(&self) -> Selection {
        let (experiment, select, m, scale) = (self.experiment, self.select, self.m, self.scale);
        let count = self.games.len();
        let first = self
            .first
            .as_ref()
            .expect("a selection plays at least one stage");
        let best = |v: &usize| select.goal.orient(self.values[*v].mean());
        let chosen = self
            .active
            .iter()
            .copied()
            .reduce(|a, b| if best(&b) > best(&a) { b } else { a })
            .expect("a variant is never eliminated by itself");
        let degenerate = first
            .pairs()
            .iter()
            .enumerate()
            .filter(|&(p, _)| first.differences[p][m].variance() == 0.0)
            .map(|(_, &(a, b))| {
                (
                    experiment.variants[a].name.clone(),
                    experiment.variants[b].name.clone(),
                )
            })
            .collect();
        let variances: Vec<f64> = (0..count)
            .map(|v| first.values[v][m].variance() / (scale * scale))
            .collect();
        let metric = self
            .estimator
            .reader(&select.metric)
            .expect("a selectable metric has an estimate");
        let rows = (0..count)
            .map(|v| {
                let estimate = metric.estimate(v, &self.totals[v]);
                Selected {
                    variant: experiment.variants[v].name.clone(),
                    trials: self.trials[v],
                    eliminated_at: self.eliminated[v],
                    point: estimate.point,
                    lower: estimate.confidence_interval.lower,
                    upper: estimate.confidence_interval.upper,
                }
            })
            .collect();
        let (confidence, indifference) = (select.confidence, select.indifference);
        Selection {
            unit: self.estimator.measures().unit,
            variants: rows,
            chosen,
            alone: self.active.len() == 1,
            stages: self.stages,
            first_stage: self.per_stage,
            rinott_trials: rinott_trials(&variances, confidence, indifference, self.per_stage),
            equal_trials: equal_trials(&variances, confidence, indifference, self.per_stage),
            positive_correlations: (experiment.design == Design::Common)
                .then(|| positive_correlations(first, m)),
            degenerate,
        }
    }
}

/// How many pairs of `first`'s variants have a positive correlation of paired value `m`, of
/// how many pairs.
fn positive_correlations(first: &PairedSummary, m: usize) -> (usize, usize) {
    let pairs = first.pairs();
    let positive = pairs
        .iter()
        .enumerate()
        .filter(|&(p, &(a, b))| {
            let (va, vb) = (first.values[a][m].variance(), first.values[b][m].variance());
            va + vb - first.differences[p][m].variance() > 0.0
        })
        .count();
    (positive, pairs.len())
}

/// Plays trials `trials` of the variants `active` as stage `stage`: one job of every active
/// variant side by side, every pair's differences kept in the first stage (which estimates
/// the variances) and only each variant's values after it. The job is recorded as trials
/// `0..len` of the stage's stream (a [`Shifted`] game), so that a checkpoint holds each
/// stream from its start.
fn play_stage<G: Game>(
    experiment: &Experiment,
    runner: &Runner,
    games: &[G],
    active: &[usize],
    stage: u64,
    trials: std::ops::Range<u64>,
) -> CommonSummary<G::Summary> {
    let own: Vec<u64> = active
        .iter()
        .map(|&v| experiment.variants[v].stream)
        .collect();
    let common = CommonGame {
        games: active.iter().map(|&v| &games[v]).collect(),
        seed: experiment.seed,
        pairs: if stage == 1 {
            PairSet::Every
        } else {
            PairSet::With(0)
        },
        own_streams: (experiment.design == Design::Independent).then_some(own.as_slice()),
    };
    let shifted = Shifted {
        game: &common,
        first: trials.start,
    };
    let label = stage_label(stage);
    let job = Job {
        label: &label,
        variant: stage_stream(stage),
        game: &shifted,
    };
    runner.count_each_trial_as(active.len() as u64);
    let summary = runner
        .run_jobs(
            std::slice::from_ref(&job),
            experiment.seed,
            0..trials.end - trials.start,
        )
        .pop()
        .expect("one job gives one summary");
    runner.count_each_trial_as(1);
    summary
}

/// A game whose trial `t` is trial `first + t` of `game`: a stage's trials numbered from 0.
struct Shifted<'a, G> {
    game: &'a G,
    first: u64,
}

impl<G: Game> Game for Shifted<'_, G> {
    type Outcome = G::Outcome;
    type Summary = G::Summary;

    const INDEXED: bool = true;

    /// Unused: a shifted trial needs its index, which [`Game::play_at`] takes.
    fn play(&self, _rng: &mut crate::rng::TrialRng) -> Self::Outcome {
        unreachable!("a shifted game plays through play_at")
    }

    fn play_at(&self, seed: u64, stream: u64, trial: u64) -> Self::Outcome {
        self.game.play_at(seed, stream, self.first + trial)
    }

    fn check_summary(&self, summary: &Self::Summary, trials: u64) -> Result<(), String> {
        self.game.check_summary(summary, trials)
    }
}
