//! What a run that decides as it goes decided, carried with its played results to its tables
//! and manifest ([`Decisions`]): where each variant of a precision-target run stopped ([`Stopped`]),
//! and what a selection of the best chose ([`Selection`]).

/// Where a run that stops each variant on its own stopped one of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Stopped {
    /// The variant.
    pub variant: String,
    /// What one trial is called in its tables (the trial-count column, e.g. `games`).
    pub unit: &'static str,
    /// The trials it played.
    pub trials: u64,
    /// Whether it stopped because it met its target (else it reached the cap).
    pub reached: bool,
    /// The metric's estimate when it stopped.
    pub point: f64,
    /// The half-width of the estimate's 95% interval when it stopped.
    pub half_width: f64,
}

impl Stopped {
    /// Whether it met the target on an interval of no width: every trial so far gave the
    /// same value, so the variance estimate was 0 and the stage was too small to say how
    /// precise the estimate is. The target's guarantee does not hold for it.
    pub fn degenerate(&self) -> bool {
        self.reached && self.half_width == 0.0
    }

    /// Whether the precision target's guarantee holds for it: it met the target, on an
    /// interval of positive width (see [`Stopped::degenerate`]).
    pub fn guaranteed(&self) -> bool {
        self.reached && !self.degenerate()
    }
}

/// One variant of a selection (`[select]`): how far it went.
#[derive(Clone, Debug, PartialEq)]
pub struct Selected {
    /// The variant.
    pub variant: String,
    /// The trials it played.
    pub trials: u64,
    /// The stage (from 1) after which it was eliminated; none if it was never eliminated.
    pub eliminated_at: Option<u64>,
    /// The metric's estimate over its trials, with its 95% interval.
    pub point: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

/// What a selection of the best variant decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    /// What one trial is called in its tables (e.g. `games`).
    pub unit: &'static str,
    /// Each variant, in variant order.
    pub variants: Vec<Selected>,
    /// The variant chosen (an index into `variants`).
    pub chosen: usize,
    /// Whether it was the only one left (else the cap was reached with several left, and the
    /// one with the best estimate among them is chosen, without the guarantee).
    pub alone: bool,
    /// Stages played.
    pub stages: u64,
    /// Trials of the first stage, from which the variances are estimated.
    pub first_stage: u64,
    /// Trials Rinott's two-stage procedure would take over all variants for the same
    /// guarantee, from the first stage's variances (with independent sampling).
    pub rinott_trials: u64,
    /// Trials an equal allocation would take for the same guarantee.
    pub equal_trials: u64,
    /// In the common design: how many pairs of variants had a positive correlation over the
    /// first stage, of how many pairs.
    pub positive_correlations: Option<(usize, usize)>,
    /// The pairs of variants (by name) whose per-trial differences were all equal over the
    /// first stage: their variance estimate is 0, so the procedure's allowance between them is
    /// 0 and the guarantee does not hold for them.
    pub degenerate: Vec<(String, String)>,
}

impl Selection {
    /// Whether the stated guarantee holds: one variant was left, and no pair's first-stage
    /// variance estimate was 0.
    pub fn guaranteed(&self) -> bool {
        self.alone && self.degenerate.is_empty()
    }

    /// Trials played over all variants.
    pub fn total_trials(&self) -> u64 {
        self.variants.iter().map(|v| v.trials).sum()
    }
}

/// What a run in stages decided, carried with its played results to its tables and manifest.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Decisions {
    /// A fixed run decides nothing.
    #[default]
    None,
    /// Where each variant of a precision-target run stopped, in variant order.
    Stops(Vec<Stopped>),
    /// What a selection of the best chose.
    Selection(Selection),
}

impl Decisions {
    /// Where each variant stopped (empty unless the run had a precision target).
    pub fn stops(&self) -> &[Stopped] {
        match self {
            Decisions::Stops(stops) => stops,
            _ => &[],
        }
    }

    /// What the selection chose, in a run that selected the best variant.
    pub fn selection(&self) -> Option<&Selection> {
        match self {
            Decisions::Selection(selection) => Some(selection),
            _ => None,
        }
    }
}
