//! War's report when there is nothing to report: no game finishes.

use crate::common::{numbers, read_csv, texts};

#[test]
fn a_run_where_no_game_finishes_says_there_is_no_data_instead_of_testing_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("short.toml");
    std::fs::write(
        &spec,
        "version = 1\nname = \"short\"\ngame = \"war\"\nseed = 1\ntrials = 200\n\
         [params]\nmax_turns = 1\n[sweep]\nplacement = [\"winner_first\", \"random\"]\n",
    )
    .expect("spec");
    let out = dir.path().join("out");
    crate::common::experiment()
        .arg("run")
        .arg(&spec)
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        !report.contains("contains 50%"),
        "no interval to contain anything:\n{report}"
    );
    assert!(report.contains("No game finished"), "{report}");
    let comparisons = read_csv(&out.join("comparisons.csv"));
    let families = texts(&comparisons, "family");
    let (p, holm) = (
        numbers(&comparisons, "p_value"),
        numbers(&comparisons, "p_holm"),
    );
    for k in 0..families.len() {
        if p[k].is_nan() {
            assert!(
                holm[k].is_nan(),
                "{}: a Holm p-value without a test",
                families[k]
            );
        }
    }
    assert!(
        p.iter().any(|x| x.is_nan()),
        "mean turns of no finished game cannot be tested"
    );
}

/// `summary.csv` has both the turn limit (`turn_limit`, the spec's `max_turns`) and the longest
/// finished game observed (`max_turns`); the report says which is which, and the longest game
/// is within the limit.
#[test]
fn the_report_says_max_turns_is_the_longest_game_and_turn_limit_the_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("limited.toml");
    std::fs::write(
        &spec,
        "version = 1\nname = \"limited\"\ngame = \"war\"\nseed = 2\ntrials = 300\n\
         [params]\nmax_turns = 200\n[sweep]\nplacement = [\"winner_first\", \"player1_first\"]\n",
    )
    .expect("spec");
    let out = dir.path().join("out");
    crate::common::experiment()
        .arg("run")
        .arg(&spec)
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(numbers(&summary, "turn_limit"), [200.0, 200.0]);
    for longest in numbers(&summary, "max_turns") {
        assert!((1.0..=200.0).contains(&longest), "{longest}");
    }
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains(
            "there `turn_limit` is the spec's `max_turns` (the turn limit), and the column \
             `max_turns` is the longest finished game observed, in turns."
        ),
        "{report}"
    );
}
