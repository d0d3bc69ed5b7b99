//! The library example `examples/gamblers_ruin.rs`: a fifth game written only against the
//! public API, run through its own binary, checked against the closed forms.

use crate::common::{gamblers_ruin, header, numbers, read_csv, texts};

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
    assert!(
        !columns.iter().any(|c| c == "stakes"),
        "a rule at its default is not a column: {columns:?}"
    );
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
            "effect_hi",
            "correlation",
            "variance_ratio",
            "a_p",
            "b_p"
        ]
    );
    // Six pairs of four variants for each of ruin_rate, mean_duration and the distribution.
    assert_eq!(comparisons.height(), 18);
}

#[test]
fn the_example_binary_knows_the_built_in_games_and_its_own() {
    let listed = gamblers_ruin().arg("list").assert().success();
    let text = String::from_utf8_lossy(&listed.get_output().stdout).to_string();
    let built_in = experiment::registry().names();
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

/// The example's list parameter: stakes of 5 from 10 to 20 are the one-unit game from 2 to 4,
/// and one stake of 10 settles the game in one bet.
#[test]
fn a_list_parameter_sets_the_stakes_and_becomes_a_column_when_changed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("stakes.toml");
    std::fs::write(
        &spec,
        "version = 1\nname = \"stakes\"\ngame = \"gamblers_ruin\"\nseed = 3\ntrials = 40000\n\
         [params]\np = 0.45\nstart = 10\ntarget = 20\n[sweep]\nstakes = [[5], [10]]\n",
    )
    .expect("spec written");
    let out = dir.path().join("out");
    gamblers_ruin()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&spec)
        .assert()
        .success();
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(texts(&summary, "variant"), ["stakes-5", "stakes-10"]);
    assert_eq!(texts(&summary, "stakes"), ["[5]", "[10]"]);
    let (ruin, lo, hi) = (
        numbers(&summary, "ruin_rate"),
        numbers(&summary, "ruin_rate_lo"),
        numbers(&summary, "ruin_rate_hi"),
    );
    let mean = numbers(&summary, "mean_duration");
    for (k, exact) in [ruin_probability(0.45, 2.0, 4.0), 0.55]
        .into_iter()
        .enumerate()
    {
        // Within 4.4 standard errors, as above.
        let se = (hi[k] - lo[k]) / (2.0 * 1.96);
        assert!(
            (ruin[k] - exact).abs() < 4.4 * se,
            "{k}: {} vs {exact}",
            ruin[k]
        );
    }
    assert_eq!(
        mean[1], 1.0,
        "one stake of 10 settles every game in one bet"
    );
}

/// Runs the example's binary on a spec of `body` (gambler's ruin from 2 to 4 units, 2,000
/// games per variant) named `name`, and returns the results folder, under `dir`.
fn run_small(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    let spec = dir.join(format!("{name}.toml"));
    std::fs::write(
        &spec,
        format!(
            "version = 1\nname = \"{name}\"\ngame = \"gamblers_ruin\"\nseed = 9\ntrials = 2000\n\
             [params]\nstart = 2\ntarget = 4\n{body}"
        ),
    )
    .expect("spec written");
    let out = dir.join(format!("{name}-out"));
    gamblers_ruin()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&spec)
        .assert()
        .success();
    out
}

/// A spec whose one variant is set in `[params]`: the variant is named after the spec (not
/// `default`), plays the same games as that variant swept under another name (the name is not
/// part of its identity), and the report says in one sentence that there is nothing to
/// compare instead of an empty section; its reproduce line names this program, which knows
/// the game, not `experiment`, which does not.
#[test]
fn a_lone_variant_is_named_after_its_spec_and_its_report_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let lone = run_small(dir.path(), "lone", "p = 0.45\n");
    let swept = run_small(dir.path(), "swept", "[sweep]\np = [0.45]\n");
    let (lone_summary, swept_summary) = (
        read_csv(&lone.join("summary.csv")),
        read_csv(&swept.join("summary.csv")),
    );
    assert_eq!(texts(&lone_summary, "variant"), ["lone"]);
    assert_eq!(texts(&swept_summary, "variant"), ["p-0.45"]);
    for column in ["ruin_rate", "mean_duration"] {
        assert_eq!(
            numbers(&lone_summary, column),
            numbers(&swept_summary, column),
            "{column}: the same games"
        );
    }
    let report = std::fs::read_to_string(lone.join("report.md")).expect("report.md");
    assert!(
        report.contains("## Comparisons\n\nOnly one variant ran: nothing to compare.\n"),
        "{report}"
    );
    assert!(
        !report.contains("Welch's t"),
        "no methods for tests that were not run:\n{report}"
    );
    assert!(
        report.contains("- variants: `lone`")
            && report.contains("- reproduce: `cargo run --release --example gamblers_ruin -- run "),
        "{report}"
    );
    let html = std::fs::read_to_string(lone.join("report.html")).expect("report.html");
    assert!(
        html.contains("Only one variant ran: nothing to compare."),
        "the page says it too"
    );
}
