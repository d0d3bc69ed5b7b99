//! Precision targets: the optional `[stop]` table (and the `experiment run` flags with the same
//! meaning), which makes a run play in stages and stop each variant once the 95% interval of a
//! metric is narrow enough, or at a cap on its trials.
//!
//! Stage `s` (from 1) ends at trial `min(s * stage_trials, max_trials)`: the stage ends depend
//! on the spec alone, so where each variant stops is reproducible from the seed.

use serde::Deserialize;
use toml::Spanned;

use super::locate::Locator;
use super::raw::{raw_value, text, Value};
use super::SpecError;

/// The `[stop]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopSpec {
    /// The metric whose 95% interval must be narrow enough.
    pub metric: Option<Value>,
    /// The largest half-width of the interval, in the metric's units.
    pub half_width: Option<Value>,
    /// The largest half-width as a fraction of the estimate.
    pub relative_half_width: Option<Value>,
    /// Most trials a variant plays.
    pub max_trials: Option<Value>,
    /// Trials per stage (default: the spec's `trials`, at most `max_trials`).
    pub stage_trials: Option<Value>,
}

/// How narrow the interval must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// Half-width at most this, in the metric's units (`half_width`).
    Absolute(f64),
    /// Half-width at most this fraction of the estimate's magnitude (`relative_half_width`).
    Relative(f64),
}

impl Target {
    /// Whether an interval with this `point` and half-width `half` meets the target.
    pub fn met(self, point: f64, half: f64) -> bool {
        match self {
            Target::Absolute(width) => half <= width,
            Target::Relative(fraction) => half <= fraction * point.abs(),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Absolute(width) => write!(f, "±{width}"),
            Target::Relative(fraction) => write!(f, "±{}% of the estimate", fraction * 100.0),
        }
    }
}

/// A validated precision target.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// The metric (checked against the study's metrics when the run starts).
    pub metric: String,
    /// Where `metric` was given, for messages: `spec.toml:12` or `--stop-metric`.
    pub metric_at: String,
    /// How narrow its 95% interval must be.
    pub target: Target,
    /// Most trials a variant plays.
    pub max_trials: u64,
    /// Trials per stage as given (`stage_trials` or `--stage-trials`); none: the spec's
    /// `trials`, at most `max_trials` (see [`Stop::stage`]).
    pub stage_trials: Option<u64>,
}

impl Stop {
    /// Trials per stage in a run of `trials` trials per variant (the spec's `trials`, or
    /// `--trials`), unless `stage_trials` says otherwise.
    pub fn stage(&self, trials: u64) -> u64 {
        super::stages::stage_size(self.stage_trials, trials, self.max_trials)
    }

    /// The end of stage `stage` (from 1) for stages of `per_stage` trials.
    pub fn stage_end(&self, stage: u64, per_stage: u64) -> u64 {
        super::stages::stage_end(stage, per_stage, self.max_trials)
    }

    /// The `experiment run` flags that give exactly this target in a run of `trials` trials
    /// per variant (for the command that reproduces a run).
    pub fn arguments(&self, trials: u64) -> Vec<String> {
        let (flag, value) = match self.target {
            Target::Absolute(width) => ("--half-width", width),
            Target::Relative(fraction) => ("--relative-half-width", fraction),
        };
        vec![
            "--stop-metric".into(),
            self.metric.clone(),
            flag.into(),
            value.to_string(),
            "--max-trials".into(),
            self.max_trials.to_string(),
            "--stage-trials".into(),
            self.stage(trials).to_string(),
        ]
    }

    /// The settings in one line, as the identity of a run's summaries records them.
    pub fn describe(&self, trials: u64) -> String {
        let target = match self.target {
            Target::Absolute(width) => format!("half_width = {width:?}"),
            Target::Relative(fraction) => format!("relative_half_width = {fraction:?}"),
        };
        format!(
            "[stop] metric = {:?}, {target}, max_trials = {}, stage_trials = {}",
            self.metric,
            self.max_trials,
            self.stage(trials)
        )
    }
}

/// The flags of `experiment run` that set or change a precision target, each `None` to keep
/// the spec's.
#[derive(Clone, Debug, Default)]
pub struct StopFlags {
    /// `--stop-metric`.
    pub metric: Option<String>,
    /// `--half-width`.
    pub half_width: Option<f64>,
    /// `--relative-half-width`.
    pub relative_half_width: Option<f64>,
    /// `--max-trials`.
    pub max_trials: Option<u64>,
    /// `--stage-trials`.
    pub stage_trials: Option<u64>,
}

impl StopFlags {
    /// Whether any flag is given.
    pub fn any(&self) -> bool {
        self.metric.is_some()
            || self.half_width.is_some()
            || self.relative_half_width.is_some()
            || self.max_trials.is_some()
            || self.stage_trials.is_some()
    }

    /// The spec's target `spec` changed by these flags (a half-width flag replaces either
    /// half-width key); without a `[stop]` table the flags must give a metric, one half-width
    /// and `--max-trials`.
    pub fn apply(&self, spec: Option<Stop>) -> Result<Option<Stop>, String> {
        if !self.any() {
            return Ok(spec);
        }
        if self.half_width.is_some() && self.relative_half_width.is_some() {
            return Err(
                "--half-width and --relative-half-width are two ways to set one target: give one"
                    .into(),
            );
        }
        let flagged = self
            .half_width
            .map(|width| check_width("--half-width", width).map(Target::Absolute))
            .or_else(|| {
                self.relative_half_width.map(|fraction| {
                    check_width("--relative-half-width", fraction).map(Target::Relative)
                })
            })
            .transpose()?;
        let mut stop = match spec {
            Some(stop) => stop,
            None => {
                let missing: Vec<&str> = [
                    (self.metric.is_none(), "--stop-metric"),
                    (flagged.is_none(), "--half-width or --relative-half-width"),
                    (self.max_trials.is_none(), "--max-trials"),
                ]
                .iter()
                .filter(|(missing, _)| *missing)
                .map(|(_, flag)| *flag)
                .collect();
                if !missing.is_empty() {
                    return Err(format!(
                        "the spec has no [stop] table, so a precision target from the command \
                         line needs {} too",
                        missing.join(" and ")
                    ));
                }
                Stop {
                    metric: String::new(),
                    metric_at: String::new(),
                    target: Target::Absolute(0.0),
                    max_trials: 0,
                    stage_trials: None,
                }
            }
        };
        if let Some(metric) = &self.metric {
            stop.metric = metric.clone();
            stop.metric_at = "--stop-metric".into();
        }
        if let Some(target) = flagged {
            stop.target = target;
        }
        if let Some(max) = self.max_trials {
            stop.max_trials = max;
        }
        if let Some(stage) = self.stage_trials {
            stop.stage_trials = Some(stage);
        }
        if stop
            .stage_trials
            .is_some_and(|stage| stage > stop.max_trials)
        {
            return Err(format!(
                "stage_trials {} is more than max_trials {}: a stage cannot be longer than the \
                 cap",
                stop.stage_trials.unwrap_or_default(),
                stop.max_trials
            ));
        }
        Ok(Some(stop))
    }
}

/// A half-width or fraction that is a positive finite number, or why not.
fn check_width(name: &str, width: f64) -> Result<f64, String> {
    if width.is_finite() && width > 0.0 {
        Ok(width)
    } else {
        Err(format!("{name} = {width} must be a number above 0"))
    }
}

/// Validates the `[stop]` table `table`, if the spec has one.
pub(super) fn validate(
    table: Option<&Spanned<StopSpec>>,
    locate: &Locator,
) -> Result<Option<Stop>, SpecError> {
    let Some(table) = table else {
        return Ok(None);
    };
    let missing =
        |key: &str, why: &str| locate.error(table.span(), format!("[stop] needs {key}: {why}"));
    let spec = table.get_ref();
    let metric_value = spec.metric.as_ref().ok_or_else(|| {
        missing(
            "metric",
            "the name of the metric whose 95% interval must be narrow enough, e.g. metric = \
             \"win_rate\"",
        )
    })?;
    let metric = text(locate, "metric", metric_value)?.to_string();
    let number = |key: &str, value: &Value| -> Result<f64, SpecError> {
        let number = match value.get_ref() {
            toml::Value::Float(number) => *number,
            toml::Value::Integer(number) => *number as f64,
            other => {
                return Err(locate.error(
                    value.span(),
                    format!(
                        "{key} must be a number above 0, not {}",
                        raw_value(other).describe()
                    ),
                ))
            }
        };
        check_width(key, number).map_err(|message| locate.error(value.span(), message))
    };
    let target = match (&spec.half_width, &spec.relative_half_width) {
        (Some(_), Some(relative)) => {
            return Err(locate.error(
                relative.span(),
                "[stop] sets both half_width and relative_half_width: keep one (an absolute \
                 half-width, or one as a fraction of the estimate)",
            ))
        }
        (Some(width), None) => Target::Absolute(number("half_width", width)?),
        (None, Some(fraction)) => Target::Relative(number("relative_half_width", fraction)?),
        (None, None) => {
            return Err(missing(
                "half_width or relative_half_width",
                "how narrow the 95% interval must be, in the metric's units (half_width = \
                 0.001) or as a fraction of the estimate (relative_half_width = 0.01)",
            ))
        }
    };
    let (max_trials, stage_trials) = super::stages::validate(
        "stop",
        table,
        spec.max_trials.as_ref(),
        spec.stage_trials.as_ref(),
        "the most trials a variant plays if its interval never gets narrow enough",
        locate,
    )?;
    Ok(Some(Stop {
        metric,
        metric_at: format!(
            "{}:{}",
            locate.path.display(),
            locate.line(metric_value.span().start)
        ),
        target,
        max_trials,
        stage_trials,
    }))
}
