//! One comparison between two tournaments: a weighted sum of pairing means in one minus one in
//! the other. In the independent design the means are independent (Welch–Satterthwaite); in
//! the common design every tournament plays the same dice, so the comparison is the paired t
//! of the per-game contrast, from the exact sums of products of the one job that played every
//! pairing ([`super::common::one_job`]), or has no data when none did.

use super::analysed::Analysed;
use super::pairings::{payoff_value, Weighted};
use experiment_engine::analysis::comparison::ALL_PAIRS_LIMIT;
use experiment_engine::analysis::Comparison;
use experiment_engine::design::PairedSummary;
use experiment_engine::stats::common_contrast::CommonContrast;
use experiment_engine::stats::{Contrast, IntegerMoments};

/// Why a common run compares nothing between tournaments (when one job did not play every
/// pairing).
pub(super) fn not_between() -> String {
    format!(
        "in a common design every tournament plays the same dice, but a run of more than \
         {ALL_PAIRS_LIMIT} pairings plays each tournament as a job of its own and keeps sums of \
         products only within a tournament, so the covariances a comparison between \
         tournaments needs are not known"
    )
}

/// Every pairing's paired statistics of a common run whose one job played them all.
pub(super) fn all<'p>(played: &[Analysed<'p>]) -> Option<&'p PairedSummary> {
    played.first()?.all
}

/// The terms Σ w x̄ of `played`'s pairings with `weights` (in its pairing order) times `sign`:
/// each weight, the pairing's payoff moments and its index among the run's variants.
fn terms<'p>(
    played: &'p Analysed,
    weights: &[f64],
    sign: f64,
) -> Vec<(f64, &'p IntegerMoments, usize)> {
    weights
        .iter()
        .zip(&played.pairings)
        .zip(&played.tournament.variants)
        .filter(|((w, _), _)| **w != 0.0)
        .map(|((w, p), &v)| (sign * w, p.payoff(), v))
        .collect()
}

/// The comparison of family `family` between tournaments `x` and `y`: Σ w x̄ over `x`'s
/// pairings (weights in its pairing order) minus Σ w ȳ over `y`'s, on the same dice when
/// `all` keeps every pairing's sums of products (a common run), else of independent means.
///
/// # Panics
/// If `all`'s payoff of a pairing is not its summary's (a programming error: the variants are
/// not in the run's order).
pub(super) fn compare(
    all: Option<&PairedSummary>,
    family: &'static str,
    (x, wx): (&Analysed, &[f64]),
    (y, wy): (&Analysed, &[f64]),
    effect_name: &'static str,
) -> Comparison {
    let mut kept = terms(x, wx, 1.0);
    kept.extend(terms(y, wy, -1.0));
    let moments: Vec<(f64, &IntegerMoments)> = kept.iter().map(|&(w, m, _)| (w, m)).collect();
    let weighted = match all {
        None => Weighted::Independent(Contrast::new(&moments)),
        Some(all) => {
            let m = payoff_value();
            for &(_, own, v) in &kept {
                let paired = all.values.get(v).and_then(|values| values.get(m));
                assert!(
                    paired.is_some_and(|p| (p.n, p.sum) == (own.n, own.sum)),
                    "the paired payoff of variant {v} is not its own"
                );
            }
            let product = |k: usize, l: usize| all.product(kept[k].2, kept[l].2, m);
            CommonContrast::new(&moments, product).map_or(Weighted::Missing, Weighted::Common)
        }
    };
    weighted.compare(
        family,
        (&x.tournament.label, &y.tournament.label),
        effect_name,
    )
}
