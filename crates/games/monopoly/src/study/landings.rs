//! Each variant's landings: the share of every square with its interval and, for cards drawn
//! with replacement, the exact chain's share; and the comparisons between variants.

use anyhow::Result;

use super::{share, MonopolyParams};
use crate::exact::expected_landings_under;
use crate::game::{CardModel, Monopoly, MonopolySummary, SQUARES};
use experiment_engine::analysis::comparison::{self, Comparison};
use experiment_engine::spec::Variant;
use experiment_engine::stats::{self, Estimate};

/// One variant's landings: simulated estimates and, for with-replacement cards, the chain's.
pub struct VariantLandings<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The game it plays.
    pub game: Monopoly,
    /// Its landings.
    pub summary: &'a MonopolySummary,
    /// Each square's share of landings (index 0 = Go).
    pub freq: Vec<Estimate>,
    /// Exact share of landings per square (with-replacement cards only).
    pub exact: Option<Vec<f64>>,
}

impl<'a> VariantLandings<'a> {
    /// The landings of `variant`, summarised in `summary`.
    pub fn new(variant: &'a Variant, summary: &'a MonopolySummary) -> Result<VariantLandings<'a>> {
        let game = variant.params.typed::<MonopolyParams>()?.game();
        let freq = (0..SQUARES.len())
            .map(|square| share(summary, square))
            .collect();
        let exact = (game.cards == CardModel::WithReplacement).then(|| {
            let expected = expected_landings_under(game.jail, &game.rules, game.turns);
            let total: f64 = expected.iter().sum();
            expected.iter().map(|e| e / total).collect()
        });
        Ok(VariantLandings {
            variant,
            game,
            summary,
            freq,
            exact,
        })
    }

    /// (simulated − exact) share of `square` in standard errors (NaN without a chain).
    pub fn z(&self, square: usize) -> f64 {
        match &self.exact {
            Some(exact) if self.freq[square].standard_error > 0.0 => {
                (self.freq[square].point - exact[square]) / self.freq[square].standard_error
            }
            _ => f64::NAN,
        }
    }

    /// The chain's share of `square` (NaN without a chain).
    pub fn exact_at(&self, square: usize) -> f64 {
        self.exact.as_ref().map_or(f64::NAN, |e| e[square])
    }

    /// Mean over squares of the variance across games relative to a multinomial's.
    fn design_effect(&self) -> f64 {
        let total = self.summary.total() as f64;
        let ratios: Vec<f64> = self
            .freq
            .iter()
            .filter(|f| f.point > 0.0 && f.standard_error > 0.0)
            .map(|f| f.standard_error.powi(2) / (f.point * (1.0 - f.point) / total))
            .collect();
        ratios.iter().sum::<f64>() / ratios.len() as f64
    }
}

/// Every pair of variants compared (within each group of `[compare] within`): a chi-square test of their landing distributions (family
/// `distribution`, Rao-Scott corrected) and a z-test per square (family `square`, the square
/// named in `effect_name`). Returns the comparisons and, aligned with them, the square each
/// per-square comparison is about.
pub fn compare(rows: &[VariantLandings]) -> (Vec<Comparison>, Vec<Option<usize>>) {
    let mut overall = Vec::new();
    let mut squares = Vec::new();
    for (i, a) in rows.iter().enumerate() {
        // Only variants of one group of `[compare] within` (every pair without it).
        let compared = |b: &&VariantLandings| {
            a.variant
                .compare
                .compares(&a.variant.params, &b.variant.params)
        };
        for b in rows[i + 1..].iter().filter(compared) {
            let (ca, cb) = (a.summary.counts(), b.summary.counts());
            let deff = (a.design_effect() + b.design_effect()) / 2.0;
            let result = stats::rao_scott(stats::chi_square_homogeneity(&[&ca, &cb]), deff);
            overall.push(Comparison::new(
                "distribution",
                &a.variant.name,
                &b.variant.name,
                result,
            ));
            for (square, (name, _)) in SQUARES.iter().enumerate() {
                if a.freq[square].point == 0.0 && b.freq[square].point == 0.0 {
                    continue;
                }
                let result = stats::difference_z(&a.freq[square], &b.freq[square]);
                let comparison =
                    Comparison::new("square", &a.variant.name, &b.variant.name, result)
                        .with_effect_name(format!(
                            "difference in share of landings on square {} {name} (a - b)",
                            square + 1
                        ));
                squares.push((square, comparison));
            }
        }
    }
    let mut which = vec![None; overall.len()];
    which.extend(squares.iter().map(|(square, _)| Some(*square)));
    let mut comparisons = overall;
    comparisons.extend(squares.into_iter().map(|(_, c)| c));
    comparison::adjust(&mut comparisons);
    (comparisons, which)
}
