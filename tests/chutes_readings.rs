//! The Chutes tournament's reading for sets of pairings that are not a full round robin: it
//! claims "best", "worst" and "dominate" only where the pairings that ran support them.

use std::path::{Path, PathBuf};

/// Runs the shipped tournament with `variants` (300 games each) and returns its folder.
fn run(variants: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let mut command = crate::common::experiment();
    command
        .arg("run")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/chutes_doubling.toml"))
        .args(["--quiet", "--trials", "300", "--out"])
        .arg(&out);
    for variant in variants {
        command.args(["--variant", variant]);
    }
    command.assert().success();
    (dir, out)
}

fn report(out: &Path) -> String {
    std::fs::read_to_string(out.join("report.md")).expect("report.md")
}

/// The reading's item that starts with `lead`.
fn item<'r>(report: &'r str, lead: &str) -> &'r str {
    let marker = format!("- **{lead}**");
    let start = report
        .find(&marker)
        .unwrap_or_else(|| panic!("no item {lead} in\n{report}"));
    report[start..].lines().next().expect("a line")
}

#[test]
fn a_cap_reached_only_in_self_play_dominates_no_average() {
    // always-always doubles to the cap in every game, but self-play is in no average.
    let (_dir, out) = run(&["always-always", "never-never"]);
    let report = report(&out);
    let cap = item(&report, "The cap.");
    assert!(cap.contains("`always-always` 100.0%"), "{cap}");
    assert!(!report.contains("dominate"), "{report}");
    assert!(
        item(&report, "Which strategy makes money.").contains("Only self-play ran"),
        "{report}"
    );
    assert!(
        report.contains("No two strategies could be compared here"),
        "an empty Comparisons section says why:\n{report}"
    );
}

#[test]
fn averages_over_different_opponents_name_no_best_or_worst_strategy() {
    // threshold plays always (both seats), optimal only never: their averages are over
    // different fields, so neither "does best" nor "does worst".
    let (_dir, out) = run(&["always-threshold", "threshold-always", "never-optimal"]);
    let report = report(&out);
    let money = item(&report, "Which strategy makes money.");
    assert!(!money.contains("does best"), "{money}");
    assert!(!money.contains("does worst"), "{money}");
    assert!(
        money.contains("did not all play the same opponents"),
        "{money}"
    );
    assert!(money.contains("has the lowest average"), "{money}");
}

#[test]
fn a_round_robin_among_the_strategies_that_ran_names_the_best() {
    // never and always each play the other in both seats: the same field.
    let (_dir, out) = run(&["never-always", "always-never"]);
    let report = report(&out);
    let money = item(&report, "Which strategy makes money.");
    assert!(money.contains("does best"), "{money}");
    assert!(money.contains("opponent and both seats"), "{money}");
    assert!(
        !money.contains("Averages reward exploiting weak opponents"),
        "with one opponent the average is the head-to-head payoff:\n{money}"
    );
}
