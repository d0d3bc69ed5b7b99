//! Comparisons in a common design: every variant played trial `i` on the same random numbers,
//! so each pair the [`PairedSummary`] keeps is compared trial by trial (the paired t-test for
//! means, McNemar's test for proportions), and the report says how much the pairing gained.
//!
//! Only the families whose metric is a per-trial paired value ([`Game::PAIRED`]) are tested.
//! The others (distributions, study-computed estimates, proportions or means over a subset of
//! trials) have tests that assume independent samples, which a common design does not give:
//! they are left out of the comparisons, and the report names them.
//!
//! [`Game::PAIRED`]: crate::games::Game::PAIRED

use super::comparison::{adjust, no_data, Comparison};
use super::{Kind, Measured, Measures, Metric, Pairs};
use crate::design::PairedSummary;
use crate::games::Paired;
use crate::report::{estimate_text, Block, Text};
use crate::stats::paired::{mcnemar, paired_t, uninformative, Discordant, PairedTest};

/// Up to this many comparisons in the headline family, the report gives each pair's paired
/// difference and precision gain in a sentence; beyond, one sentence sums them up.
pub const PAIR_SENTENCES: usize = 6;

/// The paired statistics of a common design, with what each paired value measures.
#[derive(Clone, Copy, Debug)]
pub struct Common<'a> {
    /// The exact paired sums.
    pub summary: &'a PairedSummary,
    /// The game's paired values ([`crate::games::Game::PAIRED`]), in the summary's order.
    pub values: &'static [Paired],
}

impl Common<'_> {
    /// The index of the paired value that is `metric`'s per-trial value, if any.
    pub fn position(&self, metric: &str) -> Option<usize> {
        self.values.iter().position(|v| v.metric == metric)
    }
}

/// The paired test of variants `i` and `j` (pair `p` of the summary) on `metric`, paired
/// value `m`.
///
/// # Panics
/// If the paired value does not match the declared metric: the metric is not a proportion or
/// a mean over every trial, or the paired sums differ from the variant's own summary (a
/// programming error in a game's [`crate::games::Game::paired_values`]).
fn test<S>(
    metric: &Metric<S>,
    rows: &[Measured<S>],
    common: Common,
    m: usize,
    (p, i, j): (usize, usize, usize),
) -> PairedTest {
    let summary = common.summary;
    let (a, b) = (&summary.values[i][m], &summary.values[j][m]);
    let d = &summary.differences[p][m];
    let scale = common.values[m].scale;
    let matches = |total: u64, sum: i128, side: &crate::summary::IntegerMoments| {
        total == summary.trials && sum * i128::from(scale) == side.sum
    };
    let test = match &metric.kind {
        Kind::Proportion { successes, of } => {
            for (row, side) in [(i, a), (j, b)] {
                let s = rows[row].summary;
                assert!(
                    matches(of(s), i128::from(successes(s)), side),
                    "the paired value of {} is not its per-trial value over every trial",
                    metric.name
                );
            }
            let discordant = Discordant::from_sums(a, b, d, scale).unwrap_or_else(|| {
                panic!("the paired values of {} are not 0 or {scale}", metric.name)
            });
            mcnemar(a, b, d, discordant, summary.trials)
        }
        Kind::Mean(moments) => {
            for (row, side) in [(i, a), (j, b)] {
                let own = moments(rows[row].summary);
                assert!(
                    matches(own.n, own.sum, side),
                    "the paired value of {} is not its per-trial value over every trial",
                    metric.name
                );
            }
            paired_t(a, b, d, scale)
        }
        _ => panic!(
            "{} has a paired value but is neither a proportion nor a mean",
            metric.name
        ),
    };
    if uninformative(a, b, d) {
        PairedTest {
            result: no_data(test.result),
            ..test
        }
    } else {
        test
    }
}

/// Every paired comparison `measures` implies between `rows` on the pairs `common` keeps,
/// Holm-adjusted within families; families without a paired value are left out.
///
/// # Panics
/// If `rows` and the summary hold different numbers of variants, or a paired value does not
/// match its metric (see [`test`]).
pub fn compare<S>(measures: &Measures<S>, rows: &[Measured<S>], common: Common) -> Vec<Comparison> {
    if measures.pairs == Pairs::Own {
        return Vec::new();
    }
    assert_eq!(
        rows.len(),
        common.summary.values.len(),
        "the paired summary holds another number of variants"
    );
    let pairs = common.summary.pairs();
    let mut out = Vec::new();
    for family in measures.families() {
        let Some(m) = common.position(family.metric) else {
            continue;
        };
        let metric = measures.metric(family.metric);
        for (p, &(i, j)) in pairs.iter().enumerate() {
            let paired = test(metric, rows, common, m, (p, i, j));
            out.push(
                Comparison::new(
                    family.name,
                    &rows[i].variant.name,
                    &rows[j].variant.name,
                    paired.result,
                )
                .with_pairing(paired.correlation, paired.variance_ratio),
            );
        }
    }
    adjust(&mut out);
    out
}

/// `x` to two significant figures (`8.2`, `13`, `150`, `0.83`).
pub fn two_significant(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return crate::frame::format_number(x);
    }
    let step = 10f64.powi(x.log10().floor() as i32 - 1);
    let rounded = (x / step).round() * step;
    let decimals = (1 - rounded.log10().floor() as i32).max(0) as usize;
    format!("{rounded:.decimals$}")
}

/// What a variance ratio means for one comparison, in words (nothing for NaN: the pair has
/// no variance to compare).
pub fn precision_words(ratio: f64) -> Option<String> {
    if ratio.is_nan() {
        return None;
    }
    if ratio.is_infinite() {
        return Some(
            "the two variants gave the same value in every trial, so common random numbers \
             left this difference no sampling variance at all"
                .to_string(),
        );
    }
    let n = two_significant(ratio);
    Some(if ratio >= 1.0 {
        format!(
            "common random numbers made this comparison {n} times more precise: an \
             independent design would need {n} times the games for the same interval"
        )
    } else {
        format!(
            "common random numbers made this comparison less precise, {n} times as precise: \
             an independent design would need only {n} times the games for the same interval"
        )
    })
}

/// The family the report sums the precision gain up for: the first compared one whose
/// metric is the headline, else the first one compared.
fn headline_family<S>(measures: &Measures<S>, comparisons: &[Comparison]) -> Option<&'static str> {
    let compared = |name: &str| comparisons.iter().any(|c| c.family == name);
    measures
        .families()
        .iter()
        .find(|f| f.metric == measures.headline && compared(f.name))
        .map(|f| f.name)
        .or(comparisons.first().map(|c| c.family))
}

/// The report's account of a common design after the comparison tables: each pair of the
/// headline family with its paired difference and precision gain (see
/// [`family_precision_blocks`]).
pub fn precision_blocks<S>(measures: &Measures<S>, comparisons: &[Comparison]) -> Vec<Block> {
    match headline_family(measures, comparisons) {
        Some(family) => family_precision_blocks(family, comparisons),
        None => Vec::new(),
    }
}

/// Each paired comparison of `family` among `comparisons` with its paired difference and
/// precision gain: a sentence each, or one sentence over them all when there are more than
/// [`PAIR_SENTENCES`]; nothing when no comparison of the family has a variance ratio (an
/// independent design).
pub fn family_precision_blocks(family: &str, comparisons: &[Comparison]) -> Vec<Block> {
    let members: Vec<&Comparison> = comparisons
        .iter()
        .filter(|c| c.family == family && !c.variance_ratio.is_nan())
        .collect();
    if members.is_empty() {
        return Vec::new();
    }
    if members.len() <= PAIR_SENTENCES {
        let items = members
            .iter()
            .filter_map(|c| {
                let words = precision_words(c.variance_ratio)?;
                Some(Text::new().plain(format!(
                    "{} − {}: {}; {words}.",
                    c.a,
                    c.b,
                    estimate_text(&c.result.effect)
                )))
            })
            .collect();
        return vec![
            Block::paragraph(
                Text::new()
                    .plain("Paired differences of ")
                    .code(family)
                    .plain(" (a − b, 95% intervals):"),
            ),
            Block::List(items),
        ];
    }
    let mut ratios: Vec<f64> = members.iter().map(|c| c.variance_ratio).collect();
    ratios.sort_by(f64::total_cmp);
    let median = ratios[(ratios.len() - 1) / 2];
    vec![Block::paragraph(
        Text::new()
            .plain(format!("Over the {} comparisons of ", members.len()))
            .code(family)
            .plain(format!(
                ", common random numbers made each between {} and {} times as precise (median \
                 {}) as an independent design of the same size: an independent design would \
                 need that many times the games for the same intervals. The ",
                two_significant(ratios[0]),
                two_significant(ratios[ratios.len() - 1]),
                two_significant(median),
            ))
            .code("variance_ratio")
            .plain(" column of ")
            .code("comparisons.csv")
            .plain(" gives each pair's."),
    )]
}

/// The paragraph that opens the comparisons of a common design: how they were tested.
pub fn methods_paragraph() -> Block {
    Block::paragraph(
        Text::new()
            .plain(
                "Common random numbers: every variant played trial i with the same random \
                 numbers, so each pair is compared trial by trial: the paired t-test for \
                 means, McNemar's test for proportions (exact binomial below 1,000 trials where \
                 the two differ, chi-square with continuity correction from there on); ",
            )
            .code("p_holm")
            .plain(
                " is Holm-corrected within each family; effects are paired differences a - b \
                 with 95% intervals (Student t for means, Agresti–Min for proportions). The \
                 variance ratio is the variance the difference would have with independent \
                 samples of the same size over the variance it has here: the factor of games \
                 the pairing saved.",
            ),
    )
}

/// The families a common design leaves out of the comparisons, and why (nothing when every
/// family has a paired value or the study compares its variants itself).
pub fn left_out_blocks<S>(measures: &Measures<S>, common: Common) -> Vec<Block> {
    let mut out = Vec::new();
    let left_out: Vec<&'static str> = measures
        .families()
        .iter()
        .filter(|f| common.position(f.metric).is_none())
        .map(|f| f.name)
        .collect();
    if !left_out.is_empty() && measures.pairs != Pairs::Own {
        out.push(Block::paragraph(
            Text::new()
                .plain("Not compared: ")
                .append(Text::join(left_out, ", ", crate::report::code))
                .plain(
                    ". Their tests (of distributions, of estimates, or of shares and means \
                     over a subset of the trials) assume independent samples, and in a common \
                     design the variants' samples are not independent; their estimates are in ",
                )
                .code("summary.csv")
                .plain("."),
        ));
    }
    out
}
