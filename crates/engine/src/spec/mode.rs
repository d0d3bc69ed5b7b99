//! How a run proceeds, as one value: a fixed number of trials per variant, stages until a
//! precision target is met (`[stop]` or its flags), or stages until the best variant is
//! selected (`[select]`). A run is never two of them.

use super::{Select, Stop};

/// How a run proceeds.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Mode {
    /// The spec's (or `--trials`') trials per variant.
    #[default]
    Fixed,
    /// Stages until each variant's interval is narrow enough (`[stop]`).
    Stop(Stop),
    /// Stages until one variant is left or every other is eliminated (`[select]`).
    Select(Select),
}

impl Mode {
    /// The mode of a validated spec's `[stop]` and `[select]` (the spec layer refuses both).
    pub fn of(stop: Option<Stop>, select: Option<Select>) -> Mode {
        match (stop, select) {
            (Some(stop), _) => Mode::Stop(stop),
            (None, Some(select)) => Mode::Select(select),
            (None, None) => Mode::Fixed,
        }
    }

    /// The precision target, in a run to one.
    pub fn stop(&self) -> Option<&Stop> {
        match self {
            Mode::Stop(stop) => Some(stop),
            _ => None,
        }
    }

    /// The selection, in a run that selects the best variant.
    pub fn select(&self) -> Option<&Select> {
        match self {
            Mode::Select(select) => Some(select),
            _ => None,
        }
    }

    /// The table that makes a run proceed in stages, as messages name it; none for a fixed run.
    pub fn staged(&self) -> Option<&'static str> {
        match self {
            Mode::Fixed => None,
            Mode::Stop(_) => Some("[stop] (or --stop-metric)"),
            Mode::Select(_) => Some("[select]"),
        }
    }

    /// The most trials a variant plays: `trials`, or the cap of a run in stages.
    pub fn most_trials(&self, trials: u64) -> u64 {
        match self {
            Mode::Fixed => trials,
            Mode::Stop(stop) => stop.max_trials,
            Mode::Select(select) => select.max_trials,
        }
    }

    /// The settings of a run in stages in one line; none for a fixed run.
    pub fn describe(&self, trials: u64) -> Option<String> {
        match self {
            Mode::Fixed => None,
            Mode::Stop(stop) => Some(stop.describe(trials)),
            Mode::Select(select) => Some(select.describe(trials)),
        }
    }
}
