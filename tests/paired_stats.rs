//! The analysis of a common design: a toy die game played by `CommonGame`, so the paired
//! summary is the engine's own, compared with paired tests (McNemar for the share of wins, the
//! paired t-test for the mean score), its distribution family left out with a sentence, and
//! the report's account of what the pairing gained. The independent analysis of the same
//! summaries keeps its tests and writes the two new columns empty.

use experiment_engine::analysis::{Analysis, Kind, Measures, Metric};
use experiment_engine::design::{CommonGame, CommonSummary, PairSet};
use experiment_engine::games::{Game, Paired};
use experiment_engine::params::{ParamDef, ParamKind, ParamSet, Params};
use experiment_engine::report::markdown;
use experiment_engine::rng::{CommonStreams, OneStream, Purpose, Streams, TrialRng};
use experiment_engine::spec::Variant;
use experiment_engine::summary::{Histogram, IntegerMoments, Summary};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// Rolls a die (its own purpose) and wins when it shows at least `at`; scores the die when
/// it wins, 0 otherwise.
struct Threshold {
    at: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Tally {
    games: u64,
    wins: u64,
    score: IntegerMoments,
    die: Histogram,
}

impl Summary for Tally {
    type Outcome = (bool, u32);
    fn record(&mut self, &(win, die): &(bool, u32)) {
        self.games += 1;
        self.wins += u64::from(win);
        self.score.record(if win { i64::from(die) } else { 0 });
        self.die.record(die as usize);
    }
    fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.score.merge(&other.score);
        self.die.merge(&other.die);
    }
    fn check(&self, _trials: u64) -> Result<(), String> {
        Ok(())
    }
}

impl Threshold {
    fn roll(&self, streams: &mut impl Streams) -> (bool, u32) {
        let die = streams.rng(Purpose(1)).random_range(1..=6);
        (die >= self.at, die)
    }
}

impl Game for Threshold {
    type Outcome = (bool, u32);
    type Summary = Tally;
    fn play(&self, rng: &mut TrialRng) -> (bool, u32) {
        self.roll(&mut OneStream(rng))
    }
    fn play_common(&self, streams: &mut CommonStreams) -> (bool, u32) {
        self.roll(streams)
    }
    const PAIRED: &'static [Paired] = &[
        Paired {
            metric: "win_rate",
            scale: 1,
        },
        Paired {
            metric: "mean_score",
            scale: 1,
        },
    ];
    fn paired_values(&self, &(win, die): &(bool, u32), values: &mut [i64]) {
        values[0] = i64::from(win);
        values[1] = if win { i64::from(die) } else { 0 };
    }
}

#[derive(Default, Serialize, Deserialize)]
struct At {
    at: i64,
}

impl Params for At {
    const DECLARED: &'static [ParamDef] = &[ParamDef::new(
        "at",
        ParamKind::Int { min: 0, max: 7 },
        "the smallest winning die",
    )];
}

fn die(s: &Tally) -> &[u64] {
    s.die.counts()
}

fn measures() -> Measures<Tally> {
    Measures::new(
        "games",
        |s| s.games,
        "win_rate",
        vec![
            Metric::new(
                "win_rate",
                "share of games won",
                Kind::Proportion {
                    successes: |s| s.wins,
                    of: |s| s.games,
                },
            ),
            Metric::new("mean_score", "score", Kind::Mean(|s| s.score)),
            Metric::new(
                "die",
                "games",
                Kind::Histogram {
                    table: "dice",
                    bin: "die",
                    counts: die,
                },
            ),
        ],
    )
}

fn variants(thresholds: &[u32]) -> Vec<Variant> {
    thresholds
        .iter()
        .enumerate()
        .map(|(index, &at)| Variant {
            index,
            stream: index as u64,
            name: format!("at-{at}"),
            params: ParamSet::from_typed(&At { at: i64::from(at) }).expect("declared"),
            compare: Default::default(),
        })
        .collect()
}

/// `trials` trials of every threshold on the same dice.
fn play(thresholds: &[u32], trials: u64, against: Option<u32>) -> CommonSummary<Tally> {
    let games: Vec<Threshold> = thresholds.iter().map(|&at| Threshold { at }).collect();
    let common = CommonGame {
        games: games.iter().collect(),
        seed: 2024,
        pairs: against.map_or(PairSet::Every, PairSet::With),
        own_streams: None,
    };
    let mut summary = CommonSummary::default();
    for trial in 0..trials {
        summary.record(&common.play_at(2024, 0, trial));
    }
    summary
}

/// How many of column `name`'s cells are empty, and how many it has.
fn empty_cells(table: &experiment_engine::frame::NamedTable, name: &str) -> (usize, usize) {
    let column = table.frame.column(name).expect("column");
    (column.null_count(), column.len())
}

#[test]
fn proportions_get_mcnemar_means_the_paired_t_and_distributions_are_left_out() {
    let thresholds = [3, 4, 5];
    let summary = play(&thresholds, 20_000, None);
    let (measures, variants) = (measures(), variants(&thresholds));
    let analysis = Analysis::new(&measures, &variants, &summary.variants)
        .with_paired(Some(&summary.paired), Threshold::PAIRED);
    let families: Vec<&str> = analysis.comparisons.iter().map(|c| c.family).collect();
    assert_eq!(
        families,
        [
            "win_rate",
            "win_rate",
            "win_rate",
            "mean_score",
            "mean_score",
            "mean_score"
        ],
        "the die's distribution is not compared"
    );
    let win = experiment_engine::analysis::comparison::between(
        &analysis.comparisons,
        "win_rate",
        "at-4",
        "at-5",
    )
    .expect("compared");
    // About 20,000/6 discordant trials (a die of 4): the chi-square form.
    assert_eq!(win.result.test, "McNemar");
    // The exact difference is 1/6; the 95% interval covers it (seed fixed).
    let ci = win.result.effect.confidence_interval;
    assert!(ci.lower < 1.0 / 6.0 && 1.0 / 6.0 < ci.upper, "{ci:?}");
    // Exact: var_a = 1/4, var_b = 2/9, var_(a−b) = 5/36, so the ratio is 17/5 = 3.4 and the
    // correlation (1/6)/sqrt(1/18) = 0.7071. The ratio's relative standard error is about
    // that of the discordant share, sqrt(5/20,000) = 1.6%: 0.3 is over 5 of them.
    assert!(
        (win.variance_ratio - 3.4).abs() < 0.3,
        "{}",
        win.variance_ratio
    );
    assert!(
        (win.correlation - 0.5f64.sqrt()).abs() < 0.05,
        "{}",
        win.correlation
    );
    let score = experiment_engine::analysis::comparison::between(
        &analysis.comparisons,
        "mean_score",
        "at-3",
        "at-4",
    )
    .expect("compared");
    assert_eq!(score.result.test, "paired t");
    assert_eq!(score.result.df, 19_999.0);
    // They differ only on a 3, by 3: exact mean difference 3/6 = 0.5.
    let ci = score.result.effect.confidence_interval;
    assert!(ci.lower < 0.5 && 0.5 < ci.upper, "{ci:?}");
    assert!(analysis
        .comparisons
        .iter()
        .all(|c| c.p_holm >= c.result.p_value));

    let table = analysis.comparisons_table().expect("table");
    let names: Vec<String> = table
        .frame
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    // The pairing's columns, then each side's swept parameter (`a_at`, `b_at`).
    assert_eq!(
        &names[names.len() - 4..],
        ["correlation", "variance_ratio", "a_at", "b_at"]
    );
    assert_eq!(empty_cells(&table, "variance_ratio"), (0, 6));
    assert_eq!(empty_cells(&table, "correlation"), (0, 6));

    let report = markdown::render(&analysis.standard_report());
    assert!(report.contains("Common random numbers: every variant played trial i"));
    assert!(report.contains("Not compared: `die`"), "{report}");
    assert!(report.contains("variance ratio"));
    let sentence = "times more precise: an independent design would need ";
    assert!(
        report.contains("at-4 − at-5: ") && report.contains(sentence),
        "{report}"
    );
    assert!(!report.contains("Welch"));
}

#[test]
fn few_discordant_trials_get_the_exact_binomial_p_value() {
    // At 6 against never (7): they differ exactly when the die shows 6, always for at-6.
    let thresholds = [6, 7];
    let summary = play(&thresholds, 600, None);
    let (measures, variants) = (measures(), variants(&thresholds));
    let analysis = Analysis::new(&measures, &variants, &summary.variants)
        .with_paired(Some(&summary.paired), Threshold::PAIRED);
    let win = &analysis.comparisons[0];
    assert_eq!(win.result.test, "McNemar exact");
    let sixes = summary.variants[0].wins;
    assert_eq!(win.result.statistic, sixes as f64);
    // Every discordant trial on one side: p = 2·2^−sixes.
    let expected = 2f64.powi(1 - sixes as i32);
    assert!((win.result.p_value / expected - 1.0).abs() < 1e-9);
    // at-7 never wins and never scores: its side does not vary, so there is no correlation.
    assert!(win.correlation.is_nan());
    assert!(
        win.variance_ratio > 0.99 && win.variance_ratio < 1.01,
        "var_b = 0"
    );
}

#[test]
fn the_independent_analysis_is_unchanged_but_for_two_empty_columns() {
    let thresholds = [3, 4];
    let summary = play(&thresholds, 2_000, None);
    let (measures, variants) = (measures(), variants(&thresholds));
    let independent = Analysis::new(&measures, &variants, &summary.variants);
    let none = Analysis::new(&measures, &variants, &summary.variants).with_paired(None, &[]);
    let tests: Vec<&str> = independent
        .comparisons
        .iter()
        .map(|c| c.result.test)
        .collect();
    assert_eq!(
        tests,
        ["two-proportion z", "Welch t", "chi-square homogeneity"]
    );
    assert_eq!(
        markdown::render(&independent.standard_report()),
        markdown::render(&none.standard_report())
    );
    let report = markdown::render(&independent.standard_report());
    assert!(!report.contains("variance ratio") && !report.contains("Common random numbers"));
    let table = independent.comparisons_table().expect("table");
    // 14 columns, then each side's swept parameter.
    assert_eq!(table.frame.width(), 16);
    for name in ["correlation", "variance_ratio"] {
        assert_eq!(empty_cells(&table, name), (3, 3), "{name}");
    }
}

#[test]
fn many_pairs_get_one_sentence_and_comparisons_with_the_best_are_said() {
    let thresholds = [1, 2, 3, 4, 5, 6, 7];
    let summary = play(&thresholds, 3_000, None);
    let (measures, variants) = (measures(), variants(&thresholds));
    let analysis = Analysis::new(&measures, &variants, &summary.variants)
        .with_paired(Some(&summary.paired), Threshold::PAIRED);
    let report = markdown::render(&analysis.standard_report());
    // 21 pairs, but at-1 (always wins) against at-7 (never) has no variance to compare.
    assert!(
        report.contains("Over the 20 comparisons of `win_rate`"),
        "{report}"
    );
    assert!(!report.contains("at-1 − at-2:"));

    let best = play(&thresholds, 3_000, Some(0));
    let analysis = Analysis::new(&measures, &variants, &best.variants)
        .with_paired(Some(&best.paired), Threshold::PAIRED);
    assert!(analysis.comparisons.iter().all(|c| c.b == "at-1"));
    assert_eq!(analysis.comparisons.len(), 2 * 6);
    let report = markdown::render(&analysis.standard_report());
    assert!(
        report.contains("each variant is compared with `at-1`"),
        "{report}"
    );
    // at-1 always wins: against it every other variant's win rate is below, and the
    // McNemar p-values are tiny.
    assert!(analysis
        .comparisons
        .iter()
        .filter(|c| c.family == "win_rate")
        .all(|c| c.result.effect.point < 0.0 && c.p_holm < 1e-6));
}

#[test]
fn merged_parts_give_the_same_comparisons_table() {
    let thresholds = [2, 4, 5];
    let whole = play(&thresholds, 1_500, None);
    let games: Vec<Threshold> = thresholds.iter().map(|&at| Threshold { at }).collect();
    let common = CommonGame {
        games: games.iter().collect(),
        seed: 2024,
        pairs: PairSet::Every,
        own_streams: None,
    };
    let mut parts = CommonSummary::<Tally>::default();
    for range in [0..700u64, 700..1_500] {
        let mut part = CommonSummary::default();
        for trial in range {
            part.record(&common.play_at(2024, 0, trial));
        }
        parts.merge(&part);
    }
    let (measures, variants) = (measures(), variants(&thresholds));
    let csv = |s: &CommonSummary<Tally>| {
        let analysis = Analysis::new(&measures, &variants, &s.variants)
            .with_paired(Some(&s.paired), Threshold::PAIRED);
        format!("{:?}", analysis.comparisons_table().expect("table").frame)
    };
    assert_eq!(csv(&whole), csv(&parts));
}
