//! The stages of a run that decides as it goes (`[stop]`, `[select]`): a cap on each variant's
//! trials (`max_trials`) and the trials per stage (`stage_trials`, by default the spec's
//! `trials`). Stage `s` (from 1) ends at trial `min(s * stage_trials, max_trials)`, so the
//! points where the run decides depend on the spec alone.

use toml::Spanned;

use super::locate::Locator;
use super::raw::{whole, Value};
use super::{SpecError, MAX_TRIALS};

/// Most stages a run may have (`max_trials / stage_trials`, rounded up): each stage of a
/// selection is a stream of its own in the checkpoint.
pub const MAX_STAGES: u64 = 10_000;

/// Validates `max_trials` and `stage_trials` of the table `table` (called `name`): the cap is
/// required (`cap_why` says what it is for), a stage cannot be longer than the cap.
pub(super) fn validate<T>(
    name: &str,
    table: &Spanned<T>,
    max_value: Option<&Value>,
    stage_value: Option<&Value>,
    cap_why: &str,
    locate: &Locator,
) -> Result<(u64, Option<u64>), SpecError> {
    let max_value = max_value.ok_or_else(|| {
        locate.error(
            table.span(),
            format!("[{name}] needs max_trials: {cap_why}"),
        )
    })?;
    let max_trials = whole(locate, "max_trials", max_value, Some((1, MAX_TRIALS)))? as u64;
    let Some(value) = stage_value else {
        return Ok((max_trials, None));
    };
    let stage = whole(locate, "stage_trials", value, Some((1, MAX_TRIALS)))? as u64;
    if stage > max_trials {
        return Err(locate.error(
            value.span(),
            format!(
                "stage_trials = {stage} is more than max_trials = {max_trials}: a stage cannot \
                 be longer than the cap"
            ),
        ));
    }
    Ok((max_trials, Some(stage)))
}

/// Trials per stage in a run of `trials` trials per variant, unless `stage_trials` says
/// otherwise, and never more than `max_trials`.
pub fn stage_size(stage_trials: Option<u64>, trials: u64, max_trials: u64) -> u64 {
    stage_trials.unwrap_or(trials).min(max_trials)
}

/// The end of stage `stage` (from 1) for stages of `per_stage` trials and a cap of
/// `max_trials`.
pub fn stage_end(stage: u64, per_stage: u64, max_trials: u64) -> u64 {
    stage.saturating_mul(per_stage).min(max_trials)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_end_at_multiples_of_their_size_and_at_the_cap() {
        assert_eq!(stage_size(None, 1_000, 50_000), 1_000);
        assert_eq!(stage_size(Some(300), 1_000, 50_000), 300);
        assert_eq!(stage_size(None, 1_000, 700), 700);
        assert_eq!(stage_end(1, 300, 1_000), 300);
        assert_eq!(stage_end(3, 300, 1_000), 900);
        assert_eq!(stage_end(4, 300, 1_000), 1_000);
        assert_eq!(stage_end(u64::MAX, 300, 1_000), 1_000);
    }
}
