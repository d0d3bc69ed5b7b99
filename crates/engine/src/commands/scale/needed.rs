//! "How many trials do I need?": per variant, the trials that give the headline metric's 95%
//! interval a target half-width, from the ladder's fitted envelope (half-width = c/√trials),
//! and the time they would take from the variant's fitted cost per trial.

use anyhow::Result;

use super::findings::Findings;
use super::report::duration;
use super::Ladder;
use crate::frame::{NamedTable, Role, TableBuilder};
use crate::report::{Block, Text};

/// The relative half-width asked for when `--half-width` is not given: 1% of the estimate.
pub(super) const DEFAULT_RELATIVE: f64 = 0.01;

/// The largest count of trials needed shown: a larger one is shown as this, a lower bound.
pub(super) const TRIALS_CAP: u64 = 1_000_000_000_000_000_000;

/// One variant's answer.
pub(super) struct Needed {
    /// The half-width asked for.
    pub(super) half_width: f64,
    /// Trials per variant that give it (at least 1; 1 when the interval has no width at all),
    /// or `None` when the ladder gave no interval.
    pub(super) trials: Option<u64>,
    /// Seconds those trials would take on the ladder's threads.
    pub(super) seconds: f64,
}

impl Needed {
    /// Whether the trials needed reach [`TRIALS_CAP`], so that the count shown is only a
    /// lower bound.
    pub(super) fn capped(&self) -> bool {
        self.trials == Some(TRIALS_CAP)
    }
}

/// The target for a variant whose pooled estimate is `reference` and whose envelope constant
/// is `envelope` at the ladder's `top`: `asked`, or 1% of the estimate (a tenth of the top
/// half-width when the estimate is 0).
fn target(asked: Option<f64>, reference: f64, envelope: f64, top: u64) -> f64 {
    asked.unwrap_or_else(|| {
        if reference.is_finite() && reference != 0.0 {
            DEFAULT_RELATIVE * reference.abs()
        } else {
            envelope / (top as f64).sqrt() / 10.0
        }
    })
}

/// Every variant's answer, in variant order.
pub(super) fn needed(run: &Ladder, findings: &Findings) -> Vec<Needed> {
    findings
        .variants
        .iter()
        .map(|f| {
            let half_width = target(run.half_width, f.reference, f.envelope, run.top());
            let trials = (f.envelope.is_finite() && f.envelope >= 0.0).then(|| {
                let exact = (f.envelope / half_width).powi(2).ceil();
                // Past the cap the count only says the target is out of reach: it is shown
                // as the cap, and said to be a lower bound (see `Needed::capped`).
                exact.clamp(1.0, TRIALS_CAP as f64) as u64
            });
            let seconds = trials.map_or(f64::NAN, |n| f.time.slope.max(0.0) * n as f64);
            Needed {
                half_width,
                trials,
                seconds,
            }
        })
        .collect()
}

/// The `trials_needed` table.
pub(super) fn table(run: &Ladder, findings: &Findings, needed: &[Needed]) -> Result<NamedTable> {
    let count = needed.len();
    TableBuilder::new()
        .text("variant", (0..count).map(|v| run.variant_name(v)))
        .role(Role::Label)
        .real("estimate", findings.variants.iter().map(|f| f.reference))
        .role(Role::Number)
        .real("half_width", needed.iter().map(|n| n.half_width))
        .role(Role::Number)
        // 0: the ladder gave no interval to scale.
        .count(
            "trials_needed",
            needed.iter().map(|n| n.trials.unwrap_or(0)),
        )
        .real("seconds_needed", needed.iter().map(|n| n.seconds))
        .role(Role::Number)
        .named("trials_needed")
}

/// The report's section on it.
pub(super) fn section(run: &Ladder, table: &NamedTable, needed: &[Needed]) -> Vec<Block> {
    let asked = match run.half_width {
        Some(h) => Text::new().plain(format!(
            "a 95% interval of {} with half-width {h}",
            run.metric
        )),
        None => Text::new()
            .plain(format!(
                "a 95% interval of {} with half-width 1% of its estimate (choose another with ",
                run.metric
            ))
            .code("--half-width H")
            .plain(")"),
    };
    vec![
        Block::heading(2, "How many trials?"),
        Block::paragraph(
            Text::new()
                .plain("Trials per variant for ")
                .append(asked)
                .plain(format!(
                    ", from the half-width at {} trials scaled as 1/√trials, and the time they \
                     would take on {} threads at the variant's fitted cost per trial. The \
                     scaling holds once the central limit theorem does; check the half-width \
                     exponent above is near -0.5.",
                    crate::commands::thousands(run.top()),
                    run.threads
                )),
        ),
        Block::Table(crate::report::Table::from_named(table)),
        Block::paragraph(
            Text::new()
                .plain("In ")
                .code("trials_needed.csv")
                .plain(".")
                .plain(capped_note(run, needed)),
        ),
    ]
}

/// What the report and the terminal say of the variants whose trials needed reach the cap
/// (empty when none does).
fn capped_note(run: &Ladder, needed: &[Needed]) -> String {
    let capped: Vec<String> = needed
        .iter()
        .enumerate()
        .filter(|(_, n)| n.capped())
        .map(|(v, _)| run.variant_name(v).to_string())
        .collect();
    if capped.is_empty() {
        return String::new();
    }
    format!(
        " For {}, the half-width asked for needs more than {} trials, the most this table \
         shows: {} is a lower bound, and the target is out of reach.",
        capped.join(", "),
        crate::commands::thousands(TRIALS_CAP),
        crate::commands::thousands(TRIALS_CAP)
    )
}

/// The answer in one line per variant, for the terminal.
pub(super) fn summary(run: &Ladder, needed: &[Needed]) -> String {
    let lines: Vec<String> = needed
        .iter()
        .enumerate()
        .map(|(v, n)| match n.trials {
            Some(trials) => format!(
                "  {}: {}{} trials for half-width {:.3e} (about {}){}",
                run.variant_name(v),
                if n.capped() { "more than " } else { "" },
                crate::commands::thousands(trials),
                n.half_width,
                duration(n.seconds),
                if n.capped() {
                    "; warning: beyond the most this table shows, a lower bound: the target \
                     is out of reach"
                } else {
                    ""
                }
            ),
            None => format!("  {}: no interval width to scale", run.variant_name(v)),
        })
        .collect();
    format!("Trials needed per variant:\n{}", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_target_is_one_percent_of_the_estimate_or_a_tenth_of_the_width() {
        assert_eq!(target(Some(0.002), 0.5, 1.0, 100), 0.002);
        assert!((target(None, -0.4, 1.0, 100) - 0.004).abs() < 1e-15);
        assert!((target(None, 0.0, 1.0, 100) - 0.01).abs() < 1e-15);
    }
}
