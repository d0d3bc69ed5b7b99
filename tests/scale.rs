//! `experiment scale`: the ladder of trial counts, its table, its fits and its errors, run
//! through the real binaries.

use crate::common::manifest;

use crate::common::{experiment, gamblers_ruin, header, numbers, read_csv, shipped_specs, texts};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

/// The columns of `scaling.csv`, an interface named in the issue.
const COLUMNS: [&str; 9] = [
    "variant",
    "trials",
    "repeat",
    "seed",
    "seconds",
    "metric",
    "estimate",
    "estimate_lo",
    "estimate_hi",
];

fn distinct(values: &[f64]) -> Vec<f64> {
    let mut values: Vec<f64> = values.to_vec();
    values.sort_by(f64::total_cmp);
    values.dedup();
    values
}

#[test]
fn writes_the_scaling_table_charts_report_and_manifest_with_the_documented_schema() {
    let out = tempfile::tempdir().expect("temp dir");
    experiment()
        .args([
            "scale",
            "experiments/war_placement.toml",
            "--trials-list",
            "100,10",
            "--repeats",
            "2",
            "--quiet",
        ])
        .arg("--out")
        .arg(out.path())
        .assert()
        .success()
        .stdout(contains("per trial"));
    for file in [
        "scaling.csv",
        "scaling.parquet",
        "running_time.png",
        "running_time.svg",
        "convergence.png",
        "convergence.svg",
        "report.md",
        "manifest.json",
    ] {
        assert!(out.path().join(file).is_file(), "{file} is missing");
    }
    let table = read_csv(&out.path().join("scaling.csv"));
    assert_eq!(header(&table), COLUMNS);
    // Six strategies, two counts, two repeats.
    assert_eq!(table.height(), 6 * 2 * 2);
    assert_eq!(distinct(&numbers(&table, "trials")), [10.0, 100.0]);
    assert!(texts(&table, "metric").iter().all(|m| m == "mean_turns"));
    assert!(numbers(&table, "seconds").iter().all(|s| *s > 0.0));
    let (repeats, seeds) = (numbers(&table, "repeat"), numbers(&table, "seed"));
    assert_eq!(distinct(&repeats), [1.0, 2.0]);
    // Repeat 1 plays the spec's seed; repeat 2 another one.
    for (repeat, seed) in repeats.iter().zip(&seeds) {
        assert_eq!(
            *repeat == 1.0,
            *seed == 20_261_130.0,
            "repeat {repeat} seed {seed}"
        );
    }
    let (lo, point, hi) = (
        numbers(&table, "estimate_lo"),
        numbers(&table, "estimate"),
        numbers(&table, "estimate_hi"),
    );
    for i in 0..table.height() {
        assert!(lo[i] <= point[i] && point[i] <= hi[i], "row {i}");
    }
    let report = std::fs::read_to_string(out.path().join("report.md")).expect("report");
    assert!(report.contains("seconds = ") && report.contains("trials^"));
    assert!(report.contains("running_time.png") && report.contains("convergence.png"));
    let manifest = manifest(out.path());
    assert_eq!(manifest["ladder"], serde_json::json!([10, 100]));
    assert_eq!(manifest["repeats"], 2);
    // The fitted cost per trial is a number; its sign is a timing, which tests never assert
    // (between 10 and 100 trials a loaded machine can make it negative).
    assert!(manifest["time_fit"]["seconds_per_trial"]
        .as_f64()
        .expect("slope")
        .is_finite());
}

#[test]
fn a_default_ladder_has_at_least_ten_counts_from_one_to_a_thousand() {
    let out = tempfile::tempdir().expect("temp dir");
    experiment()
        .args([
            "scale",
            "experiments/war_placement.toml",
            "--max-trials",
            "1000",
            "--repeats",
            "2",
            "--quiet",
        ])
        .arg("--out")
        .arg(out.path())
        .assert()
        .success();
    let table = read_csv(&out.path().join("scaling.csv"));
    let counts = distinct(&numbers(&table, "trials"));
    assert!(counts.len() >= 12, "{counts:?}");
    let small = counts
        .iter()
        .filter(|&&n| (1.0..=1000.0).contains(&n))
        .count();
    assert!(small >= 10, "{counts:?}");
    assert_eq!((counts[0], counts[counts.len() - 1]), (1.0, 1000.0));
}

/// The fitted exponent of the interval half-width against trials, recomputed from the table:
/// the least-squares slope of log half-width on log trials within each variant.
fn half_width_exponent(table: &polars::prelude::DataFrame) -> f64 {
    let variants = texts(table, "variant");
    let trials = numbers(table, "trials");
    let (lo, hi) = (numbers(table, "estimate_lo"), numbers(table, "estimate_hi"));
    let mut names = variants.clone();
    names.sort();
    names.dedup();
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for name in &names {
        let points: Vec<(f64, f64)> = (0..table.height())
            .filter(|&i| &variants[i] == name)
            .map(|i| (trials[i].ln(), ((hi[i] - lo[i]) / 2.0).ln()))
            .collect();
        let m = points.len() as f64;
        let mx = points.iter().map(|p| p.0).sum::<f64>() / m;
        let my = points.iter().map(|p| p.1).sum::<f64>() / m;
        sxy += points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>();
        sxx += points.iter().map(|p| (p.0 - mx).powi(2)).sum::<f64>();
    }
    sxy / sxx
}

#[test]
fn the_interval_half_width_shrinks_as_one_over_the_square_root_of_trials() {
    // Tolerance: a Wilson half-width is z·sqrt(p(1-p)/n) up to O(1/n) terms (under 1% at
    // n = 100 here), so log half-width = const - 0.5 log n + 0.5 log(p̂(1-p̂)). The last term's
    // standard deviation is 0.5|1-2p| / sqrt(n p(1-p)), at most 0.12 at n = 100 for the
    // spec's most lopsided variant (p ≈ 0.88) and ten times less by n = 10,000. Its weight in
    // the slope over ln n = ln 100 .. ln 100,000 is 1.5·ln 10 / (5·(ln 10)²) ≈ 0.13, so one
    // (variant, repeat) series' slope has a standard deviation below 0.02, and the fit over 4
    // variants × 5 repeats below 0.005: the 0.1 tolerance is more than 20 of them.
    let out = tempfile::tempdir().expect("temp dir");
    gamblers_ruin()
        .args([
            "scale",
            "examples/gamblers_ruin.toml",
            "--trials-list",
            "100,1000,10000,100000",
            "--quiet",
        ])
        .arg("--out")
        .arg(out.path())
        .assert()
        .success();
    let table = read_csv(&out.path().join("scaling.csv"));
    assert_eq!(header(&table), COLUMNS);
    assert_eq!(table.height(), 4 * 4 * 5, "4 variants, 4 counts, 5 repeats");
    assert!(texts(&table, "metric").iter().all(|m| m == "ruin_rate"));
    let k = half_width_exponent(&table);
    assert!((k + 0.5).abs() < 0.1, "fitted exponent {k}");
    let reported = manifest(out.path())["half_width_exponent"]
        .as_f64()
        .expect("exponent");
    assert!(
        (reported - k).abs() < 1e-9,
        "manifest {reported} vs table {k}"
    );
}

#[test]
fn every_shipped_spec_scales_with_its_own_headline_metric() {
    for spec in shipped_specs() {
        let spec_name = spec.display().to_string();
        let out = tempfile::tempdir().expect("temp dir");
        experiment()
            .arg("scale")
            .arg(&spec)
            .args(["--trials-list", "20,50", "--repeats", "2", "--quiet"])
            .arg("--out")
            .arg(out.path())
            .assert()
            .success();
        let table = read_csv(&out.path().join("scaling.csv"));
        assert_eq!(header(&table), COLUMNS, "{spec_name}");
        let metric = manifest(out.path())["metric"]
            .as_str()
            .expect("the manifest names the metric")
            .to_string();
        assert!(
            texts(&table, "metric").iter().all(|m| *m == metric),
            "{spec_name}"
        );
        assert!(
            numbers(&table, "estimate").iter().all(|e| e.is_finite()),
            "{spec_name}: every run at 20 or more trials has an estimate"
        );
        // The study's own metric: a column of the tables a run of the spec writes.
        let run = tempfile::tempdir().expect("temp dir");
        experiment()
            .arg("run")
            .arg(&spec)
            .args(["--trials", "20", "--quiet", "--out"])
            .arg(run.path())
            .assert()
            .success();
        let columns: Vec<String> = crate::common::names(run.path())
            .iter()
            .filter(|name| name.ends_with(".csv"))
            .flat_map(|name| header(&read_csv(&run.path().join(name))))
            .collect();
        assert!(
            columns.contains(&metric),
            "{spec_name}: {metric} is no column of its run's tables"
        );
    }
}

#[test]
fn fails_with_clear_message_on_a_bad_trials_list() {
    for (list, extra, message) in [
        ("10,abc", None, "'abc' is not a whole number of trials"),
        ("0,10", None, "at least 1"),
        ("10,20,10", None, "10 is listed twice"),
        ("10,,20", None, "an empty entry"),
        ("10,5000", Some("1000"), "5000 is above --max-trials 1000"),
    ] {
        let out = tempfile::tempdir().expect("temp dir");
        let target = out.path().join("scale");
        let mut command = experiment();
        command
            .args([
                "scale",
                "experiments/war_placement.toml",
                "--trials-list",
                list,
            ])
            .arg("--out")
            .arg(&target);
        if let Some(max) = extra {
            command.args(["--max-trials", max]);
        }
        command
            .assert()
            .failure()
            .stderr(contains("--trials-list").and(contains(message)));
        assert!(!target.exists(), "{list}: nothing is written");
        assert_eq!(
            std::fs::read_dir(out.path()).expect("list").count(),
            0,
            "{list}: no staging folder is left"
        );
    }
}
