//! `experiment scale --half-width H`: the trials needed per variant. For a proportion the
//! answer must be the textbook one, p(1 - p)(1.96 / H)², from the same data.

use crate::common::{experiment, numbers, read_csv, texts};

#[test]
fn the_trials_needed_for_a_win_rate_are_the_normal_approximations() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("scale");
    let assert = experiment()
        .args([
            "scale",
            "experiments/twentyone_thresholds.toml",
            "--trials-list",
            "500,4000",
            "--repeats",
            "2",
            "--half-width",
            "0.01",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let printed = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(printed.contains("Trials needed per variant:"), "{printed}");
    let table = read_csv(&out.join("trials_needed.csv"));
    let names = texts(&table, "variant");
    assert_eq!(names.len(), 30, "{names:?}");
    let (p, h, needed) = (
        numbers(&table, "estimate"),
        numbers(&table, "half_width"),
        numbers(&table, "trials_needed"),
    );
    for k in 0..names.len() {
        assert_eq!(h[k], 0.01);
        // Wilson's half-width at 4,000 trials is the normal one to well under 1%: 5% is room
        // for the two repeats' estimates differing from their pooled one.
        let textbook = p[k] * (1.0 - p[k]) * (1.959964 / 0.01f64).powi(2);
        assert!(
            (needed[k] / textbook - 1.0).abs() < 0.05,
            "{}: {} trials against {textbook}",
            names[k],
            needed[k]
        );
    }
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("## How many trials?"), "{report}");
}

#[test]
fn a_count_beyond_the_cap_is_said_to_be_a_lower_bound() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("scale");
    // War's mean turns to within 1e-12 turns needs about 10^29 games.
    let assert = experiment()
        .args([
            "scale",
            "experiments/war_placement.toml",
            "--trials-list",
            "50,200",
            "--repeats",
            "2",
            "--half-width",
            "1e-12",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let printed = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(
        printed.contains("more than 1,000,000,000,000,000,000 trials for half-width")
            && printed.contains("a lower bound: the target is out of reach"),
        "{printed}"
    );
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("needs more than 1,000,000,000,000,000,000 trials, the most this table")
            && report.contains("is a lower bound"),
        "{report}"
    );
    let table = read_csv(&out.join("trials_needed.csv"));
    assert!(numbers(&table, "trials_needed").iter().all(|&n| n == 1e18));
}
