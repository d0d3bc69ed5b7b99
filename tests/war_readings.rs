//! War's reading for one strategy whose games never end: it speaks of that strategy alone.

mod common;

use std::path::Path;

#[test]
fn a_lone_cycling_strategy_is_not_set_against_strategies_that_did_not_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/war_placement.toml");
    common::experiment()
        .arg("run")
        .arg(spec)
        .args([
            "--quiet",
            "--trials",
            "300",
            "--variant",
            "player1_first",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    let line = report
        .lines()
        .find(|l| l.starts_with("- **Games that never end.**"))
        .unwrap_or_else(|| panic!("no such item in\n{report}"));
    // About a third of player1_first's games cycle: 300 games all but surely have some.
    assert!(line.contains("`player1_first` "), "{line}");
    assert!(!line.contains("not listed"), "{line}");
}
