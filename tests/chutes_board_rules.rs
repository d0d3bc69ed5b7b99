//! Chutes & Ladders rules as spec parameters, through the real binary: a board as a name or a
//! list of jumps, the die's sides and the overshoot rule, refused with located messages when
//! they make no game, and followed by the simulation and the exact solver alike.

use crate::common::{cell, cell_number};
use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::common::experiment;
use crate::common::header_and_rows as read_csv;

/// Writes a chutes spec with `trials` and the given body and returns its path.
fn write_spec(dir: &Path, trials: u64, body: &str) -> PathBuf {
    let path = dir.join("spec.toml");
    let text = format!(
        "version = 1\nname = \"t\"\ngame = \"chutes\"\nseed = 7\ntrials = {trials}\n{body}"
    );
    std::fs::write(&path, text).expect("write spec");
    path
}

#[test]
fn boards_dice_and_overshoot_rules_that_make_no_game_are_refused_where_they_are_set() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases: [(&str, &[&str]); 9] = [
        (
            "board = [[5, 10], [10, 20]]",
            &[
                "spec.toml:7:",
                "board[0] = [5, 10]",
                "board[1] starts",
                "no chains",
            ],
        ),
        (
            "board = [[5, 10], [5, 10]]",
            &["spec.toml:7:", "board[1] = [5, 10] repeats board[0]"],
        ),
        (
            "board = [[5, 10], [7, 2], [5, 20]]",
            &[
                "spec.toml:7:",
                "board[2] starts on square 5, as board[0] does",
            ],
        ),
        (
            "board = [[100, 50]]",
            &[
                "spec.toml:7:",
                "must start on a square in 1..=99",
                "end on a square in 1..=100",
            ],
        ),
        (
            "board = [[0, 5]]",
            &["spec.toml:7:", "board[0] = [0, 5] leaves the board"],
        ),
        (
            "board = [[5, 10, 3]]",
            &["spec.toml:7:", "board[0] has 3 items"],
        ),
        (
            "board = \"snakes\"",
            &["spec.toml:7:", "milton_bradley, milton_bradley_48"],
        ),
        (
            "die_sides = 1",
            &[
                "spec.toml:7:",
                "cannot be finished",
                "1-sided die",
                "never end",
            ],
        ),
        (
            "overshoot = \"bounce\"",
            &["spec.toml:7:", "unknown overshoot 'bounce'", "wins, stays"],
        ),
    ];
    for (body, phrases) in cases {
        let spec = write_spec(dir.path(), 10, &format!("[params]\n{body}\n"));
        let mut expected = predicate::always().boxed();
        for &phrase in phrases {
            expected = expected.and(predicate::str::contains(phrase)).boxed();
        }
        experiment()
            .arg("validate")
            .arg(&spec)
            .assert()
            .failure()
            .stderr(expected);
    }
}

#[test]
fn a_board_of_ones_own_with_a_spinner_and_exact_landing_matches_the_exact_solver() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write_spec(
        dir.path(),
        100_000,
        "[params]\nboard = [[3, 40], [45, 2], [90, 20], [97, 62], [60, 100]]\ndie_sides = 10\n\
         overshoot = \"stays\"\nmax_cube = 8\n\n[sweep]\nfirst = [\"threshold\"]\n\
         second = [\"optimal\"]\n",
    );
    let out = dir.path().join("out");
    experiment()
        .args(["run", "--quiet", "--threads", "2", "--out"])
        .arg(&out)
        .arg(&spec)
        .assert()
        .success();
    // The base game: two players on this board, simulated within its intervals of the exact.
    let (header, rows) = read_csv(&out.join("base_game.csv"));
    let row = &rows[0];
    for (estimate, exact) in [
        ("p1_win_rate", "exact_p1_win_rate"),
        ("mean_turns", "exact_mean_turns"),
    ] {
        let exact_value = cell_number(&header, row, exact);
        let (lower, upper) = (
            cell_number(&header, row, &format!("{estimate}_lo")),
            cell_number(&header, row, &format!("{estimate}_hi")),
        );
        assert!(
            lower <= exact_value && exact_value <= upper,
            "{estimate}: [{lower}, {upper}] misses {exact_value}"
        );
    }
    // The pairing's payoff against its policy evaluation, and the rules in the summary.
    let (header, rows) = read_csv(&out.join("payoffs.csv"));
    let row = &rows[0];
    let exact = cell_number(&header, row, "exact_payoff");
    let (lower, upper) = (
        cell_number(&header, row, "mean_payoff_lo"),
        cell_number(&header, row, "mean_payoff_hi"),
    );
    assert!(
        lower <= exact && exact <= upper,
        "[{lower}, {upper}] misses {exact}"
    );
    let (header, rows) = read_csv(&out.join("summary.csv"));
    assert_eq!(cell(&header, &rows[0], "die_sides"), "10");
    assert_eq!(cell(&header, &rows[0], "overshoot"), "stays");
    assert!(cell(&header, &rows[0], "board").contains("45, 2"));
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("on a board of 2 ladders, 3 chutes, rolling 1 to 10, landing exactly"),
        "{report}"
    );
}

/// More pairings than a report gives sections to are refused before anything plays, by
/// `validate` and `run` alike, with the count, the limit and what to do.
#[test]
fn more_than_two_hundred_pairings_are_refused_with_their_count() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 6 × 6 strategies × 6 cube caps = 216 pairings.
    let spec = write_spec(
        dir.path(),
        10,
        "[sweep]\nfirst = [\"never\", \"always\", \"cautious\", \"threshold\", \"optimal\", \
         \"take_only\"]\nsecond = [\"never\", \"always\", \"cautious\", \"threshold\", \
         \"optimal\", \"take_only\"]\nmax_cube = [2, 4, 8, 16, 32, 64]\n",
    );
    let out = dir.path().join("out");
    for args in [
        vec!["validate"],
        vec!["run", "--out", out.to_str().expect("utf-8")],
    ] {
        experiment()
            .args(&args)
            .arg(&spec)
            .assert()
            .failure()
            .code(1)
            .stderr(predicate::str::contains("spec.toml:"))
            .stderr(predicate::str::contains(
                "the spec makes 216 pairings, more than the 200 a chutes run plays",
            ))
            .stderr(predicate::str::contains("split the sweep"));
    }
    assert!(!out.exists(), "nothing was written");
    // 200 pairings are accepted.
    let spec = write_spec(
        dir.path(),
        10,
        "[sweep]\nfirst = [\"never\", \"always\", \"cautious\", \"threshold\", \"take_only\"]\n\
         second = [\"never\", \"always\", \"cautious\", \"threshold\", \"take_only\"]\n\
         max_cube = [2, 4, 8, 16, 32, 64, 128, 256]\n",
    );
    experiment().arg("validate").arg(&spec).assert().success();
}
