//! Choosing the best variant: the optional `[select]` table, which makes a run play in stages
//! and eliminate the variants that are clearly not the best as it goes (Kim and Nelson's fully
//! sequential procedure, see `studies::select`), until one remains or the cap is reached.

use serde::Deserialize;
use toml::Spanned;

use super::locate::Locator;
use super::raw::{raw_value, text, Value};
use super::stages::{self, MAX_STAGES};
use super::SpecError;

/// The `[select]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectSpec {
    /// The metric whose best value is sought.
    pub metric: Option<Value>,
    /// `"max"` or `"min"`: which end of the metric is best.
    pub goal: Option<Value>,
    /// Differences smaller than this do not matter, in the metric's units.
    pub indifference: Option<Value>,
    /// The probability of a correct selection guaranteed (default 0.95).
    pub confidence: Option<Value>,
    /// Most trials a variant plays.
    pub max_trials: Option<Value>,
    /// Trials per stage (default: the spec's `trials`); the first stage estimates the
    /// variances.
    pub stage_trials: Option<Value>,
}

/// Which end of the metric is best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The largest value is best.
    Max,
    /// The smallest value is best.
    Min,
}

impl Goal {
    /// Every goal, for messages listing the valid choices.
    pub const ALL: [Goal; 2] = [Goal::Max, Goal::Min];

    /// The name a spec uses.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Max => "max",
            Goal::Min => "min",
        }
    }

    /// `value` turned so that larger is better.
    pub fn orient(self, value: f64) -> f64 {
        match self {
            Goal::Max => value,
            Goal::Min => -value,
        }
    }
}

/// The confidence a `[select]` table without one guarantees.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// A validated selection.
#[derive(Clone, Debug, PartialEq)]
pub struct Select {
    /// The metric (checked against the study's metrics when the run starts).
    pub metric: String,
    /// Where `metric` was given, for messages: `spec.toml:12`.
    pub metric_at: String,
    /// Where the `[select]` table starts, for messages about the selection as a whole:
    /// `spec.toml:9`.
    pub at: String,
    /// Which end is best.
    pub goal: Goal,
    /// The indifference zone, in the metric's units.
    pub indifference: f64,
    /// The probability of a correct selection guaranteed.
    pub confidence: f64,
    /// Most trials a variant plays.
    pub max_trials: u64,
    /// Trials per stage as given; none: the spec's `trials`, at most `max_trials`.
    pub stage_trials: Option<u64>,
}

impl Select {
    /// Trials per stage in a run of `trials` trials per variant (see [`stages::stage_size`]).
    pub fn stage(&self, trials: u64) -> u64 {
        stages::stage_size(self.stage_trials, trials, self.max_trials)
    }

    /// The end of stage `stage` (from 1) for stages of `per_stage` trials.
    pub fn stage_end(&self, stage: u64, per_stage: u64) -> u64 {
        stages::stage_end(stage, per_stage, self.max_trials)
    }

    /// How many stages a run of `trials` trials per variant has at most.
    pub fn stages(&self, trials: u64) -> u64 {
        self.max_trials.div_ceil(self.stage(trials).max(1))
    }

    /// The settings in one line, as the identity of a run's summaries records them.
    pub fn describe(&self, trials: u64) -> String {
        format!(
            "[select] metric = {:?}, goal = {:?}, indifference = {:?}, confidence = {:?}, \
             max_trials = {}, stage_trials = {}",
            self.metric,
            self.goal.name(),
            self.indifference,
            self.confidence,
            self.max_trials,
            self.stage(trials)
        )
    }
}

/// Validates the `[select]` table `table`, if the spec has one, for a run of `trials` trials
/// per variant.
pub(super) fn validate(
    table: Option<&Spanned<SelectSpec>>,
    trials: u64,
    locate: &Locator,
) -> Result<Option<Select>, SpecError> {
    let Some(table) = table else {
        return Ok(None);
    };
    let missing =
        |key: &str, why: &str| locate.error(table.span(), format!("[select] needs {key}: {why}"));
    let spec = table.get_ref();
    let metric_value = spec.metric.as_ref().ok_or_else(|| {
        missing(
            "metric",
            "the name of the metric whose best variant is sought, e.g. metric = \"mean_payoff\"",
        )
    })?;
    let metric = text(locate, "metric", metric_value)?.to_string();
    let goal_value = spec.goal.as_ref().ok_or_else(|| {
        missing(
            "goal",
            "which end of the metric is best: goal = \"max\" or goal = \"min\"",
        )
    })?;
    let goal_name = text(locate, "goal", goal_value)?;
    let goal = Goal::ALL
        .into_iter()
        .find(|goal| goal.name() == goal_name)
        .ok_or_else(|| {
            locate.error(
                goal_value.span(),
                format!("unknown goal '{goal_name}' in [select] (expected one of: max, min)"),
            )
        })?;
    let indifference_value = spec.indifference.as_ref().ok_or_else(|| {
        missing(
            "indifference",
            "the smallest difference in the metric that matters, e.g. indifference = 0.002",
        )
    })?;
    let indifference = number(locate, "indifference", indifference_value)?;
    if !(indifference.is_finite() && indifference > 0.0) {
        return Err(locate.error(
            indifference_value.span(),
            format!("indifference = {indifference} must be a number above 0"),
        ));
    }
    let confidence = match &spec.confidence {
        Some(value) => {
            let confidence = number(locate, "confidence", value)?;
            if !(confidence > 0.5 && confidence < 1.0) {
                return Err(locate.error(
                    value.span(),
                    format!(
                        "confidence = {confidence} must be above 0.5 and below 1 (the \
                         probability of choosing the best, e.g. 0.95)"
                    ),
                ));
            }
            confidence
        }
        None => DEFAULT_CONFIDENCE,
    };
    let (max_trials, stage_trials) = stages::validate(
        "select",
        table,
        spec.max_trials.as_ref(),
        spec.stage_trials.as_ref(),
        "the most trials a variant plays if the variants cannot be told apart sooner",
        locate,
    )?;
    let select = Select {
        metric,
        metric_at: format!(
            "{}:{}",
            locate.path.display(),
            locate.line(metric_value.span().start)
        ),
        at: format!(
            "{}:{}",
            locate.path.display(),
            locate.line(table.span().start)
        ),
        goal,
        indifference,
        confidence,
        max_trials,
        stage_trials,
    };
    let per_stage = select.stage(trials);
    if per_stage < 2 {
        return Err(locate.error(
            table.span(),
            "[select] needs stages of at least 2 trials: the first stage estimates each \
             variance",
        ));
    }
    if select.stages(trials) > MAX_STAGES {
        return Err(locate.error(
            table.span(),
            format!(
                "[select] would take up to {} stages of {per_stage} trials to reach max_trials \
                 = {max_trials}: at most {MAX_STAGES}; raise stage_trials or lower max_trials",
                select.stages(trials)
            ),
        ));
    }
    Ok(Some(select))
}

/// A number (integer or float) read from `value`, or a located error.
fn number(locate: &Locator, key: &str, value: &Value) -> Result<f64, SpecError> {
    match value.get_ref() {
        toml::Value::Float(number) => Ok(*number),
        toml::Value::Integer(number) => Ok(*number as f64),
        other => Err(locate.error(
            value.span(),
            format!(
                "{key} must be a number, not {}",
                raw_value(other).describe()
            ),
        )),
    }
}
