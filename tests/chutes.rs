//! The chutes study and commands through the real binary.

use crate::common::cell_number;
use std::path::Path;

use predicates::prelude::*;

use crate::common::experiment;
use crate::common::header_and_rows as read_csv;

/// Writes a spec whose `[params]` and `[sweep]` are `body` and returns its path.
fn write_spec(dir: &Path, body: &str) -> std::path::PathBuf {
    let path = dir.join("spec.toml");
    let text =
        format!("version = 1\nname = \"t\"\ngame = \"chutes\"\nseed = 1\ntrials = 100\n{body}");
    std::fs::write(&path, text).expect("write spec");
    path
}

#[test]
fn fails_with_clear_message_on_unknown_strategy() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write_spec(
        dir.path(),
        "[sweep]\nfirst = [\"never\", \"martingale\"]\nsecond = [\"never\"]\n",
    );
    experiment()
        .arg("validate")
        .arg(&spec)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("spec.toml:7:")
                .and(predicate::str::contains("unknown first 'martingale'"))
                .and(predicate::str::contains(
                    "never, always, cautious, threshold, optimal",
                )),
        );
}

#[test]
fn fails_with_clear_message_on_thresholds_outside_zero_to_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (body, line, message) in [
        (
            "[params]\ndouble_at = 1.5\n",
            7,
            "double_at = 1.5 is out of range",
        ),
        (
            "[params]\ntake_at = -0.1\n",
            7,
            "take_at = -0.1 is out of range",
        ),
    ] {
        let spec = write_spec(dir.path(), body);
        experiment()
            .arg("run")
            .arg(&spec)
            .arg("--out")
            .arg(dir.path().join("out"))
            .assert()
            .failure()
            .stderr(
                predicate::str::contains(format!("spec.toml:{line}:"))
                    .and(predicate::str::contains(message))
                    .and(predicate::str::contains("from 0 to 1")),
            );
    }
}

#[test]
fn fails_with_clear_message_when_max_cube_is_not_a_power_of_two() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write_spec(dir.path(), "[params]\nmax_cube = 1000\n");
    experiment()
        .arg("validate")
        .arg(&spec)
        .assert()
        .failure()
        .stderr(
            // The error points at the max_cube line (line 7: five header lines, then [params]).
            predicate::str::contains("spec.toml:7:")
                .and(predicate::str::contains("max_cube must be a power of two"))
                .and(predicate::str::contains("got 1000")),
        );
}

#[test]
fn the_default_spec_is_a_round_robin_of_every_ordered_pair() {
    experiment()
        .arg("validate")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/chutes_doubling.toml"))
        .assert()
        .success()
        .stdout(
            predicate::str::contains("25 variants")
                .and(predicate::str::contains("optimal-never"))
                .and(predicate::str::contains("never-optimal"))
                .and(predicate::str::contains("threshold-threshold")),
        );
}

#[test]
fn a_small_tournament_writes_every_table_chart_and_the_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    experiment()
        .arg("run")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/chutes_doubling.toml"))
        .args(["--trials", "300", "--threads", "1", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    for file in [
        "payoffs.csv",
        "payoffs.parquet",
        "base_game.csv",
        "base_game_hist.csv",
        "strategies.csv",
        "comparisons.csv",
        "report.md",
        "payoff_matrix.png",
        "payoff_matrix.svg",
        "game_length.png",
        "game_length.svg",
        "manifest.json",
    ] {
        assert!(out.join(file).is_file(), "{file} missing");
    }
    let (header, rows) = read_csv(&out.join("payoffs.csv"));
    for column in [
        "first",
        "second",
        "games",
        "mean_payoff",
        "mean_payoff_lo",
        "mean_payoff_hi",
        "drop_rate",
        "mean_final_stake",
        "exact_payoff",
        "z",
        "cap_reached",
        "cap_reached_rate",
        "p1_win_rate",
        "mean_turns",
    ] {
        assert!(
            header.iter().any(|h| h == column),
            "payoffs.csv lacks {column}"
        );
    }
    assert_eq!(rows.len(), 25);
    // always against always doubles to the cap of 1024 in every game.
    let always = rows
        .iter()
        .find(|r| r[0] == "always-always")
        .expect("always-always row");
    assert_eq!(cell_number(&header, always, "cap_reached"), 300.0);
    assert_eq!(cell_number(&header, always, "mean_final_stake"), 1024.0);
    let (header, rows) = read_csv(&out.join("base_game.csv"));
    for column in [
        "games",
        "p1_win_rate",
        "p1_win_rate_lo",
        "p1_win_rate_hi",
        "mean_turns",
        "mean_turns_lo",
        "mean_turns_hi",
    ] {
        assert!(
            header.iter().any(|h| h == column),
            "base_game.csv lacks {column}"
        );
    }
    assert_eq!(cell_number(&header, &rows[0], "games"), 300.0);
    let (header, rows) = read_csv(&out.join("base_game_hist.csv"));
    assert_eq!(&header[..2], ["turns", "count"]);
    let total: f64 = rows.iter().map(|r| cell_number(&header, r, "count")).sum();
    assert_eq!(total, 300.0);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    for section in [
        "## Reading",
        "## Payoff matrix",
        "Holm",
        "Which strategy makes money",
    ] {
        assert!(report.contains(section), "report lacks {section}");
    }
}

#[test]
fn simulated_values_agree_with_the_exact_ones_at_a_fixed_seed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    experiment()
        .arg("run")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/chutes_doubling.toml"))
        .args(["--trials", "200000", "--seed", "7", "--quiet"])
        .args(["--variant", "optimal-never", "--out"])
        .arg(&out)
        .assert()
        .success();
    let (header, rows) = read_csv(&out.join("base_game.csv"));
    let (sim, exact) = (
        cell_number(&header, &rows[0], "p1_win_rate"),
        cell_number(&header, &rows[0], "exact_p1_win_rate"),
    );
    let se = (exact * (1.0 - exact) / 200_000.0).sqrt();
    assert!(
        (sim - exact).abs() < 4.0 * se,
        "P(p1 wins) {sim} vs {exact}"
    );
    assert!(exact > 0.5, "moving first is an advantage");
    let (header, rows) = read_csv(&out.join("payoffs.csv"));
    let row = &rows[0];
    let (sim, exact) = (
        cell_number(&header, row, "mean_payoff"),
        cell_number(&header, row, "exact_payoff"),
    );
    // The 95% interval is mean ± t·se with t ≈ 1.96.
    let se = (cell_number(&header, row, "mean_payoff_hi")
        - cell_number(&header, row, "mean_payoff_lo"))
        / 3.92;
    assert!(se > 0.0);
    assert!(
        (sim - exact).abs() < 4.0 * se,
        "optimal-never {sim} vs {exact} (se {se})"
    );
    assert!(exact > 0.0, "optimal gains against never");
}

#[test]
fn a_pairing_gives_the_same_results_whatever_else_is_selected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |name: &str, variants: &[&str]| {
        let out = dir.path().join(name);
        let mut command = experiment();
        command
            .arg("run")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/chutes_doubling.toml"))
            .args(["--trials", "500", "--quiet", "--out"])
            .arg(&out);
        for variant in variants {
            command.args(["--variant", variant]);
        }
        command.assert().success();
        out
    };
    let alone = run("alone", &["threshold-always"]);
    let together = run("together", &["never-never", "threshold-always"]);
    let base = |out: &Path| std::fs::read_to_string(out.join("base_game.csv")).expect("read");
    assert_eq!(base(&alone), base(&together));
    let row = |out: &Path| {
        let (_, rows) = read_csv(&out.join("payoffs.csv"));
        rows.into_iter()
            .find(|r| r[0] == "threshold-always")
            .expect("row")[..8]
            .to_vec()
    };
    assert_eq!(row(&alone), row(&together));
}

#[test]
fn play_prints_one_game_move_by_move_and_whether_player_one_won() {
    experiment()
        .args(["play", "chutes", "--seed", "3"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("Player 1 rolls")
                .and(predicate::str::contains("Player 2 rolls"))
                .and(
                    predicate::str::is_match(r"Player [12] wins after \d+ moves \(.*\)\n$")
                        .expect("regex"),
                ),
        );
}

#[test]
fn exact_prints_the_turn_distribution_the_first_player_advantage_and_payoffs() {
    experiment()
        .args([
            "exact",
            "chutes",
            "--max-cube",
            "16",
            "--pair",
            "optimal-never",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("One player alone: mean")
                .and(predicate::str::contains("minimum 7"))
                .and(predicate::str::contains("P(player 1 wins) = 0.5"))
                .and(predicate::str::contains("Optimal cubeful equity"))
                .and(predicate::str::contains("| optimal | never | +")),
        );
}

#[test]
fn exact_fails_with_clear_message_on_a_bad_pair_or_cap() {
    experiment()
        .args(["exact", "chutes", "--pair", "optimal-martingale"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("martingale").and(predicate::str::contains(
                "never, always, cautious, threshold, optimal",
            )),
        );
    experiment()
        .args(["exact", "chutes", "--max-cube", "1000"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("power of two"));
}

#[test]
fn a_tournament_writes_a_summary_and_a_length_histogram_per_pairing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write_spec(
        dir.path(),
        "[sweep]\nfirst = [\"never\", \"always\"]\nsecond = [\"never\", \"always\"]\n",
    );
    let out = dir.path().join("out");
    experiment()
        .arg("run")
        .arg(&spec)
        .args(["--threads", "1", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    for file in ["summary.parquet", "histogram.parquet", "estimates.png"] {
        assert!(out.join(file).is_file(), "{file} missing");
    }
    let (header, rows) = read_csv(&out.join("summary.csv"));
    assert_eq!(
        header,
        [
            "variant",
            "first",
            "second",
            "double_at",
            "take_at",
            "max_cube",
            "games",
            "p1_wins",
            "p1_win_rate",
            "p1_win_rate_lo",
            "p1_win_rate_hi",
            "drop_rate",
            "drop_rate_lo",
            "drop_rate_hi",
            "cap_reached_rate",
            "cap_reached_rate_lo",
            "cap_reached_rate_hi",
            "mean_payoff",
            "mean_payoff_lo",
            "mean_payoff_hi",
            "mean_final_stake",
            "mean_final_stake_lo",
            "mean_final_stake_hi",
            "mean_doubles",
            "mean_turns",
            "mean_turns_lo",
            "mean_turns_hi",
        ]
    );
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        [
            "never-never",
            "never-always",
            "always-never",
            "always-always"
        ]
    );
    // The same estimates as payoffs.csv, which the study writes itself.
    let (payoff_header, payoff_rows) = read_csv(&out.join("payoffs.csv"));
    for (row, payoff_row) in rows.iter().zip(&payoff_rows) {
        for column in ["games", "p1_win_rate", "mean_payoff", "mean_turns_lo"] {
            assert_eq!(
                cell_number(&header, row, column),
                cell_number(&payoff_header, payoff_row, column),
                "{column} of {}",
                row[0]
            );
        }
        assert_eq!(
            cell_number(&header, row, "p1_win_rate"),
            cell_number(&header, row, "p1_wins") / 100.0
        );
    }
    // always against always doubles to the cap of 1024 in every game.
    assert_eq!(cell_number(&header, &rows[3], "cap_reached_rate"), 1.0);
    assert_eq!(cell_number(&header, &rows[3], "mean_final_stake"), 1024.0);
    // Every pairing's games are in its length histogram, no game shorter than 13 moves.
    let (header, rows) = read_csv(&out.join("histogram.csv"));
    assert_eq!(header, ["variant", "first", "second", "turns", "count"]);
    for name in names {
        let mine: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == name).collect();
        let total: f64 = mine.iter().map(|r| cell_number(&header, r, "count")).sum();
        assert_eq!(total, 100.0, "{name}");
        assert!(mine
            .iter()
            .all(|r| cell_number(&header, r, "turns") >= 13.0));
    }
    // The summary adds no comparison between pairings: the strategy families only.
    let (header, rows) = read_csv(&out.join("comparisons.csv"));
    let family = header.iter().position(|h| h == "family").expect("family");
    assert!(rows
        .iter()
        .all(|r| r[family] == "average_payoff" || r[family] == "head_to_head"));
}
