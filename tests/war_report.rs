//! War's report when there is nothing to report: no game finishes.

mod common;

use common::{numbers, read_csv, texts};

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
    common::experiment()
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
