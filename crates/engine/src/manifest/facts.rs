//! The run's facts at the head of both reports (`report.md`'s list and `report.html`'s
//! header), read from one place, the run's manifest, and worded once.

use super::Manifest;
use crate::report::subset::REPORT_VARIANTS;

/// The variants as a report's header names them.
pub enum VariantNames<'a> {
    /// Every variant, by name.
    Listed(&'a [String]),
    /// Too many to list: how many there are (said in [`too_many_words`]).
    TooMany(usize),
}

/// What a header says of variants too many to list: the words before `manifest.json` (set
/// as code) and after it.
pub fn too_many_words() -> (String, &'static str) {
    (
        format!("more than the {REPORT_VARIANTS} a report lists; every name is in "),
        " and in the tables",
    )
}

/// The facts of a run, as both reports state them.
pub struct RunFacts<'a> {
    /// The game's name.
    pub game: &'a str,
    /// The master seed.
    pub seed: u64,
    /// Trials per variant: the number, or the rule of a run in stages ("until the precision
    /// target, in stages of 400, at most 100000").
    pub trials: String,
    /// A run in stages: what the variants played ("every variant played 400", "the variants
    /// played 400 to 2000").
    pub played: Option<String>,
    /// How the variants got their random numbers, in one sentence.
    pub design: &'static str,
    /// The variants.
    pub variants: VariantNames<'a>,
}

impl<'a> RunFacts<'a> {
    /// The facts `manifest` records.
    pub fn of(manifest: &'a Manifest) -> RunFacts<'a> {
        let staged = match (&manifest.stop, &manifest.select) {
            (Some(stop), _) => Some(format!(
                "until the precision target, in stages of {}, at most {}",
                stop.stage_trials, stop.max_trials
            )),
            (None, Some(select)) => Some(format!(
                "until the variant is eliminated or the only one left, in stages of {}, at most {}",
                select.stage_trials, select.max_trials
            )),
            (None, None) => None,
        };
        let played = staged.as_ref().map(|_| {
            let least = manifest
                .variant_trials()
                .and_then(|each| each.iter().min().copied())
                .unwrap_or(0);
            if least == manifest.trials_per_variant {
                format!("every variant played {least}")
            } else {
                format!(
                    "the variants played {least} to {}",
                    manifest.trials_per_variant
                )
            }
        });
        let variants = if manifest.variants.len() > REPORT_VARIANTS {
            VariantNames::TooMany(manifest.variants.len())
        } else {
            VariantNames::Listed(&manifest.variants)
        };
        RunFacts {
            game: &manifest.game,
            seed: manifest.seed,
            trials: staged.unwrap_or_else(|| manifest.trials_per_variant.to_string()),
            played,
            design: manifest.random_numbers.statement(),
            variants,
        }
    }
}
