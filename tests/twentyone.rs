//! Twenty-One from the command line: the interactive game over stdin, the standing-rule study,
//! and the exact values.

use crate::common::{cell, cell_number};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use experiment_twentyone::exact::{exact_outcome, exact_win_probability, OptimalPolicy};
use experiment_twentyone::game::Strategy;
use predicates::prelude::*;

use crate::common::experiment;
use crate::common::header_and_rows as read_csv;

fn spec_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/twentyone_thresholds.toml")
}

fn play(args: &[&str], input: &str) -> String {
    let output = experiment()
        .args(["play", "twentyone"])
        .args(args)
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(output).expect("the game writes UTF-8")
}

#[test]
fn plays_a_whole_session_over_stdin_with_a_fixed_seed_rejecting_invalid_answers() {
    let text = play(&["--seed", "1"], "HIT\nhit me\n stay\nmaybe\nn\n");
    let expected = "Seed 1 (replay this game with: experiment play twentyone --seed 1)\n\
        TWENTY-ONE: get closer to 21 than the computer without going over.\n\
        \n\
        New game.\n\
        Your cards: 2 of clubs, 4 of spades (score 6)\n\
        Chance the next card keeps you at or under 21: 100.0%\n\
        HIT or STAY?\n\
        You draw J of clubs.\n\
        Your cards: 2 of clubs, 4 of spades, J of clubs (score 16)\n\
        Chance the next card keeps you at or under 21: 36.7%\n\
        HIT or STAY?\n\
        Please answer HIT or STAY.\n\
        HIT or STAY?\n\
        You stay with 16.\n\
        Computer's cards: J of diamonds, 2 of spades (score 12)\n\
        Computer draws 2 of diamonds (score 14).\n\
        Computer draws 5 of spades (score 19).\n\
        Computer wins: 19 beats 16.\n\
        PLAY AGAIN (Y/N)?\n\
        Please answer Y or N.\n\
        PLAY AGAIN (Y/N)?\n\
        Thanks for playing: you won 0 of 1 games.\n";
    assert_eq!(text, expected);
}

#[test]
fn plays_again_on_yes_in_any_case_and_counts_the_games() {
    let text = play(&["--seed", "7"], "stay\nsure\ny\nStAy\nN\n");
    assert_eq!(text.matches("New game.").count(), 2);
    assert!(text.contains("PLAY AGAIN (Y/N)?\nPlease answer Y or N.\nPLAY AGAIN (Y/N)?\n"));
    assert!(text.contains(" of 2 games.\n"), "{text}");
}

#[test]
fn end_of_input_at_any_prompt_exits_cleanly_with_status_zero() {
    for input in ["", "hit\n", "stay\n", "stay\nmaybe\n"] {
        let text = play(&["--seed", "3"], input);
        assert!(
            text.ends_with(" games.\n") && text.contains("Thanks for playing"),
            "input {input:?}: {text}"
        );
    }
}

#[test]
fn without_a_seed_prints_the_seed_it_used_so_the_game_can_be_replayed() {
    let first = play(&[], "stay\nn\n");
    let seed = first
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("Seed "))
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the first line names the seed");
    assert!(seed.parse::<u64>().is_ok(), "seed {seed:?}");
    assert_eq!(play(&["--seed", seed], "stay\nn\n"), first);
}

fn run_study(out: &Path, trials: &str, extra: &[&str]) {
    experiment()
        .arg("run")
        .arg(spec_path())
        .args(["--trials", trials, "--quiet", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
}

#[test]
fn study_writes_every_output_and_its_rates_agree_with_exact_values_within_four_standard_errors() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("results");
    run_study(&out, "20000", &[]);
    for file in [
        "summary.csv",
        "summary.parquet",
        "comparisons.csv",
        "player_totals.csv",
        "report.md",
        "win_rate.png",
        "win_rate.svg",
        "manifest.json",
    ] {
        assert!(out.join(file).is_file(), "{file} is missing");
    }
    let (header, rows) = read_csv(&out.join("summary.csv"));
    assert_eq!(rows.len(), 30, "10 stand_at, 19 probability and optimal");
    for row in &rows {
        let games = cell_number(&header, row, "games");
        assert_eq!(games, 20000.0);
        let win = cell_number(&header, row, "win_rate");
        assert!(cell_number(&header, row, "win_rate_lo") <= win);
        assert!(win <= cell_number(&header, row, "win_rate_hi"));
        for rate in ["win", "bust", "dealer_bust", "tie"] {
            let simulated = cell_number(&header, row, &format!("{rate}_rate"));
            let exact = cell_number(&header, row, &format!("exact_{rate}_rate"));
            let se = (exact * (1.0 - exact) / games).sqrt();
            assert!(
                (simulated - exact).abs() <= 4.0 * se,
                "{} {rate}: simulated {simulated}, exact {exact}",
                row[0]
            );
        }
    }
    let stand_at_17 = rows
        .iter()
        .find(|row| cell(&header, row, "variant") == "stand_at-17")
        .expect("stand_at-17 runs");
    assert_eq!(cell(&header, stand_at_17, "strategy"), "stand_at");
    assert_eq!(cell_number(&header, stand_at_17, "param"), 17.0);
    let exact = exact_win_probability(&Strategy::StandAt(17));
    assert!((cell_number(&header, stand_at_17, "exact_win_rate") - exact).abs() < 1e-12);
    let optimal = rows
        .iter()
        .find(|row| cell(&header, row, "variant") == "optimal")
        .expect("optimal runs");
    assert_eq!(cell(&header, optimal, "param"), "");
    let half = rows
        .iter()
        .find(|row| cell(&header, row, "variant") == "probability-0.5")
        .expect("probability-0.5 runs");
    assert_eq!(cell_number(&header, half, "param"), 0.5);
}

#[test]
fn report_names_the_best_rule_and_compares_every_other_rule_with_it_after_holm_correction() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("results");
    run_study(
        &out,
        "20000",
        &[
            "--variant",
            "stand_at-12",
            "--variant",
            "stand_at-21",
            "--variant",
            "optimal",
        ],
    );
    let (header, rows) = read_csv(&out.join("comparisons.csv"));
    // The shipped spec plays common shoes: up to 20 rules every pair is compared.
    assert_eq!(rows.len(), 3, "every pair of three rules");
    assert_eq!(cell(&header, &rows[0], "family"), "win_rate");
    let p: Vec<f64> = rows
        .iter()
        .map(|r| cell_number(&header, r, "p_value"))
        .collect();
    let holm: Vec<f64> = rows
        .iter()
        .map(|r| cell_number(&header, r, "p_holm"))
        .collect();
    // Holm with three tests: the smallest p triples, the others are at least that.
    let small = (0..3)
        .reduce(|a, b| if p[b] < p[a] { b } else { a })
        .expect("three");
    assert!((holm[small] - (3.0 * p[small]).min(1.0)).abs() < 1e-12);
    assert!((0..3).all(|k| holm[k] >= holm[small] && holm[k] >= p[k]));
    let stand_at_21 = rows
        .iter()
        .find(|r| cell(&header, r, "a") == "stand_at-21" && cell(&header, r, "b") == "optimal")
        .expect("stand_at-21 is compared with optimal");
    assert!(cell_number(&header, stand_at_21, "effect") < 0.0);
    assert!(
        cell_number(&header, stand_at_21, "p_holm") < 0.05,
        "significant"
    );
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(report.contains("**Best rule.** In simulation `optimal` wins"));
    // optimal beats stand_at 21 by ~30 points and is the reference the reading names.
    assert!(report
        .contains("**Against the reference.** Each rule's win rate against that of `optimal`"));
    assert!(report.contains("## Comparisons against the reference rule"));
    assert!(report.contains("![Win rate by rule](win_rate.png)"));
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let variants = ["--variant", "stand_at-16", "--variant", "optimal"];
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    run_study(
        &one,
        "10000",
        &[&variants[..], &["--threads", "1"]].concat(),
    );
    run_study(
        &two,
        "10000",
        &[&variants[..], &["--threads", "2", "--chunk-size", "777"]].concat(),
    );
    for file in ["summary.csv", "comparisons.csv", "player_totals.csv"] {
        assert_eq!(
            std::fs::read(one.join(file)).expect("written"),
            std::fs::read(two.join(file)).expect("written"),
            "{file}"
        );
    }
}

fn spec_with_variant(dir: &Path, variant: &str) -> PathBuf {
    let path = dir.join("bad.toml");
    std::fs::write(
        &path,
        format!(
            "version = 1\nname = \"bad\"\ngame = \"twentyone\"\nseed = 1\ntrials = 10\n\n\
             [[variant]]\n{variant}\n"
        ),
    )
    .expect("spec written");
    path
}

#[test]
fn fails_with_clear_message_on_unknown_strategy() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let spec = spec_with_variant(dir.path(), "strategy = \"martingale\"");
    experiment()
        .arg("validate")
        .arg(&spec)
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "{}:8: unknown strategy 'martingale' (expected one of: stand_at, probability, \
             optimal)",
            spec.display()
        )));
}

#[test]
fn fails_with_clear_message_on_out_of_range_threshold_or_probability() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (line, message) in [
        (
            "stand_at = 25",
            "stand_at = 25 is out of range (expected a whole number from 2 to 21)",
        ),
        (
            "probability = 1.5",
            "probability = 1.5 is out of range (expected a number from 0 to 1)",
        ),
    ] {
        let spec = spec_with_variant(dir.path(), line);
        experiment()
            .arg("run")
            .arg(&spec)
            .assert()
            .failure()
            .stderr(predicate::str::contains(format!(
                "{}:8: {message}",
                spec.display()
            )));
    }
}

#[test]
fn exact_command_lists_every_stand_at_rule_and_optimal_with_exact_probabilities() {
    let output = experiment()
        .args(["exact", "twentyone"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).expect("UTF-8");
    for n in 2..=21u16 {
        let outcome = exact_outcome(&Strategy::StandAt(n));
        let line = format!(
            "| stand_at-{n} | {:.6} | {:.6} | {:.6} | {:.6} |",
            outcome.win, outcome.player_bust, outcome.dealer_bust, outcome.tie
        );
        assert!(text.contains(&line), "missing {line}");
    }
    let optimal = exact_win_probability(&Strategy::Optimal(Arc::new(OptimalPolicy::solve())));
    assert!(text.contains(&format!("| optimal | {optimal:.6} |")));
    assert!(text.contains(&format!("Best optimal rule: optimal (win {optimal:.6})")));
    assert!(text.contains("| probability-0.5 | "));
}
