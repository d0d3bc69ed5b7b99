//! The library example `examples/gamblers_ruin.rs`: a fifth game written only against the
//! public API, run through its own binary, checked against the closed forms.

mod common;

use common::{gamblers_ruin, header, numbers, read_csv, texts};

/// P(ruin) starting from `i` units with target `n`, winning each bet with probability `p`.
fn ruin_probability(p: f64, i: f64, n: f64) -> f64 {
    if p == 0.5 {
        return 1.0 - i / n;
    }
    let r = (1.0 - p) / p;
    (r.powf(i) - r.powf(n)) / (1.0 - r.powf(n))
}

/// The expected number of bets until ruin or the target.
fn expected_duration(p: f64, i: f64, n: f64) -> f64 {
    if p == 0.5 {
        return i * (n - i);
    }
    let q = 1.0 - p;
    let r = q / p;
    i / (q - p) - n / (q - p) * (1.0 - r.powf(i)) / (1.0 - r.powf(n))
}

#[test]
fn ruin_rate_and_duration_agree_with_the_closed_forms_within_their_intervals() {
    let out = tempfile::tempdir().expect("temp dir");
    gamblers_ruin()
        .args([
            "run",
            "examples/gamblers_ruin.toml",
            "--trials",
            "40000",
            "--quiet",
        ])
        .arg("--out")
        .arg(out.path())
        .assert()
        .success();
    for file in [
        "summary.csv",
        "histogram.csv",
        "comparisons.csv",
        "report.md",
    ] {
        assert!(out.path().join(file).exists(), "{file} is missing");
    }
    for file in ["estimates.png", "histogram.svg", "manifest.json"] {
        assert!(out.path().join(file).exists(), "{file} is missing");
    }
    let summary = read_csv(&out.path().join("summary.csv"));
    let columns = header(&summary);
    for name in [
        "variant",
        "p",
        "start",
        "target",
        "games",
        "ruin_rate",
        "ruin_rate_lo",
        "ruin_rate_hi",
        "mean_duration",
        "mean_duration_lo",
        "mean_duration_hi",
    ] {
        assert!(
            columns.iter().any(|c| c == name),
            "no column {name} in {columns:?}"
        );
    }
    assert_eq!(
        texts(&summary, "variant"),
        ["p-0.45", "p-0.48", "p-0.5", "p-0.52"]
    );
    let (p, games) = (numbers(&summary, "p"), numbers(&summary, "games"));
    let (ruin, ruin_lo, ruin_hi) = (
        numbers(&summary, "ruin_rate"),
        numbers(&summary, "ruin_rate_lo"),
        numbers(&summary, "ruin_rate_hi"),
    );
    let (mean, mean_lo) = (
        numbers(&summary, "mean_duration"),
        numbers(&summary, "mean_duration_lo"),
    );
    for k in 0..p.len() {
        assert_eq!(games[k], 40000.0);
        // The exact value lies within 4.4 standard errors (half a 95% interval is 1.96 of them):
        // a false alarm has probability about 1e-5 per check at this fixed seed.
        let exact = ruin_probability(p[k], 10.0, 20.0);
        let se = (ruin_hi[k] - ruin_lo[k]) / (2.0 * 1.96);
        assert!(
            (ruin[k] - exact).abs() < 4.4 * se,
            "p = {}: ruin {} vs exact {exact}",
            p[k],
            ruin[k]
        );
        let exact = expected_duration(p[k], 10.0, 20.0);
        let se = (mean[k] - mean_lo[k]) / 1.96;
        assert!(
            (mean[k] - exact).abs() < 4.4 * se,
            "p = {}: duration {} vs exact {exact}",
            p[k],
            mean[k]
        );
    }
    let comparisons = read_csv(&out.path().join("comparisons.csv"));
    assert_eq!(
        header(&comparisons),
        [
            "family",
            "a",
            "b",
            "test",
            "statistic",
            "df",
            "p_value",
            "p_holm",
            "effect_name",
            "effect",
            "effect_lo",
            "effect_hi"
        ]
    );
    // Six pairs of four variants for each of ruin_rate, mean_duration and the distribution.
    assert_eq!(comparisons.height(), 18);
}

#[test]
fn the_example_binary_knows_the_built_in_games_and_its_own() {
    let listed = gamblers_ruin().arg("list").assert().success();
    let text = String::from_utf8_lossy(&listed.get_output().stdout).to_string();
    let built_in = experiment::registry::Registry::builtin().names();
    for game in built_in.into_iter().chain(["gamblers_ruin"]) {
        assert!(
            text.contains(&format!("{game}:")),
            "{game} missing from:\n{text}"
        );
    }
    gamblers_ruin()
        .args(["validate", "examples/gamblers_ruin.toml"])
        .assert()
        .success();
}
