//! The command line end to end: specs, the War experiment, outputs, reproducibility, and
//! printing commands that end quietly on a closed pipe or print what they did before an error.

use crate::common::read;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use predicates::prelude::*;

use crate::common::experiment;

fn run_war(out: &Path, extra: &[&str]) {
    let mut command = experiment();
    command
        .args([
            "run",
            "experiments/war_placement.toml",
            "--trials",
            "3000",
            "--quiet",
        ])
        .arg("--out")
        .arg(out)
        .args(extra)
        .assert()
        .success();
}

#[test]
fn every_bad_spec_fails_with_its_documented_message() {
    let mut checked = 0;
    for entry in fs::read_dir("tests/specs/bad").expect("bad specs") {
        let path = entry.expect("entry").path();
        let text = read(path.clone());
        let expected = text
            .lines()
            .last()
            .and_then(|line| line.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{} has no '# expect:' line", path.display()));
        let message = format!("Error: {}:{expected}\n", path.display());
        experiment()
            .arg("validate")
            .arg(&path)
            .assert()
            .failure()
            .code(1)
            .stderr(message);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} bad specs found");
}

#[test]
fn good_specs_validate_and_list_their_variants() {
    experiment()
        .args(["validate", "tests/specs/good/variant_tables.toml"])
        .assert()
        .success()
        .stdout(predicate::str::contains("2 variants"))
        .stdout(predicate::str::contains("short_random"))
        .stdout(predicate::str::contains("placement=random max_turns=100"));
    experiment()
        .args(["validate", "experiments/war_placement.toml"])
        .assert()
        .success()
        .stdout(predicate::str::contains("6 variants"))
        .stdout(predicate::str::contains("player1_first"));
}

#[test]
fn a_missing_spec_file_is_a_clear_error() {
    experiment()
        .args(["run", "experiments/no_such_spec.toml"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "experiments/no_such_spec.toml: cannot read the spec",
        ));
}

#[test]
fn run_writes_every_promised_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("war");
    run_war(&out, &[]);
    for name in [
        "summary.csv",
        "summary.parquet",
        "histogram.csv",
        "histogram.parquet",
        "comparisons.csv",
        "comparisons.parquet",
        "report.md",
        "game_length.png",
        "game_length.svg",
        "manifest.json",
    ] {
        assert!(out.join(name).is_file(), "{name} is missing");
    }
    let (header, rows) = crate::common::header_and_rows(&out.join("summary.csv"));
    for column in [
        "strategy",
        "games",
        "p1_wins",
        "p2_wins",
        "draws",
        "infinite",
        "cycled",
        "mean_turns",
        "mean_turns_lo",
        "mean_turns_hi",
        "mean_wars",
        "mean_double_wars",
    ] {
        assert!(
            header.iter().any(|c| c == column),
            "summary.csv lacks {column}"
        );
    }
    assert_eq!(rows.len(), 6, "six strategies");
    assert!(read(out.join("histogram.csv")).starts_with("variant,strategy,turns,count\n"));
    let png = fs::read(out.join("game_length.png")).expect("png");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let svg = read(out.join("game_length.svg"));
    assert!(svg.contains("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.contains("player1_first"),
        "the legend names the strategies"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&read(out.join("manifest.json"))).expect("manifest is JSON");
    assert_eq!(manifest["trials_per_variant"], 3000);
    assert_eq!(manifest["seed"], 20261130);
    assert_eq!(manifest["spec_sha256"].as_str().map(str::len), Some(64));
    assert!(manifest["trials_per_second"].as_f64().expect("rate") > 0.0);
    let report = read(out.join("report.md"));
    assert!(report.contains("## Reading") && report.contains("## Comparisons"));
    let leftovers = fs::read_dir(dir.path()).expect("list").count();
    assert_eq!(leftovers, 1, "no staging folder is left behind");
}

#[test]
fn tables_are_byte_identical_with_one_and_two_threads_and_any_chunk_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    run_war(&one, &["--threads", "1", "--chunk-size", "1000"]);
    run_war(&two, &["--threads", "2", "--chunk-size", "77"]);
    for name in ["summary.csv", "histogram.csv", "comparisons.csv"] {
        assert_eq!(read(one.join(name)), read(two.join(name)), "{name} differs");
    }
}

#[test]
fn a_variant_gives_the_same_results_whichever_others_run_beside_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let all = dir.path().join("all");
    let alone = dir.path().join("alone");
    run_war(&all, &[]);
    run_war(&alone, &["--variant", "random"]);
    let row = |path: PathBuf| {
        read(path)
            .lines()
            .find(|line| line.starts_with("random,"))
            .map(str::to_string)
            .expect("random row")
    };
    assert_eq!(row(all.join("summary.csv")), row(alone.join("summary.csv")));
}

#[test]
fn fails_with_clear_message_on_unknown_variant() {
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--variant",
            "winer_first",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "no variant named 'winer_first' (expected one of: winner_first, loser_first",
        ));
}

#[test]
fn an_unusable_output_folder_fails_before_writing_anything() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("taken");
    fs::write(&file, "not a folder").expect("write");
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--trials",
            "10",
            "--out",
        ])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is not a folder"));
    assert_eq!(read(file), "not a folder");
}

#[test]
fn zero_trials_on_the_command_line_are_rejected() {
    experiment()
        .args(["run", "experiments/war_placement.toml", "--trials", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--trials"));
}

#[test]
fn play_war_writes_a_game_turn_by_turn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("game.txt");
    experiment()
        .args(["play", "war", "--seed", "7", "--out"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let text = read(path.clone());
    assert!(text.contains("Turn 1: "));
    let first_bar = text.lines().nth(1).expect("bar line");
    assert_eq!(
        first_bar,
        format!("{}{}  26 v 26", "|".repeat(26), ".".repeat(26))
    );
    let last = text.lines().last().expect("last line");
    assert!(
        last.starts_with("Player 1 wins after")
            || last.starts_with("Player 2 wins after")
            || last.contains("draw")
            || last.contains("infinite"),
        "{last}"
    );
    // The same seed gives the same game.
    let again = dir.path().join("again.txt");
    experiment()
        .args(["play", "war", "--seed", "7", "--out"])
        .arg(&again)
        .assert()
        .success();
    assert_eq!(text, read(again));
}

#[test]
fn play_war_into_an_unwritable_file_fails_clearly() {
    experiment()
        .args(["play", "war", "--out", "/no/such/dir/game.txt"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "cannot write /no/such/dir/game.txt",
        ));
}

#[test]
fn list_names_every_game_and_its_strategies() {
    let listed = experiment().arg("list").assert().success();
    let text = String::from_utf8_lossy(&listed.get_output().stdout).to_string();
    // Every registered game, however many there are, with each parameter and choice.
    for study in experiment::registry().all() {
        let game = study.game();
        assert!(
            text.contains(&format!("{game}:")),
            "{game} missing:\n{text}"
        );
        for def in study.params().declared() {
            assert!(text.contains(def.name), "{game} {} missing", def.name);
            if let experiment_engine::params::ParamKind::Choice(names) = def.kind {
                for name in names {
                    assert!(text.contains(name), "{game} {}: {name} missing", def.name);
                }
            }
        }
    }
}

#[test]
fn help_shows_examples() {
    experiment()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "experiment run experiments/war_placement.toml",
        ));
}

/// `args` with standard output a pipe whose reader is already closed: every write fails with
/// a broken pipe.
fn assert_quiet_on_closed_pipe(args: &[&str]) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let output = StdCommand::new(assert_cmd::cargo::cargo_bin("experiment"))
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("Error"), "{args:?}: {stderr}");
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly_with_status_zero() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let out = out.to_str().expect("utf-8 path");
    for args in [
        &["exact", "monopoly"][..],
        &[
            "exact",
            "chutes",
            "--max-cube",
            "64",
            "--pair",
            "optimal-never",
        ],
        &["exact", "twentyone"],
        &["play", "chutes"],
        &["play", "war", "--max-turns", "100000"],
        &["validate", "experiments/war_placement.toml"],
        &["list"],
        &["trace", "monopoly", "--dice", "6,4,5,3", "--turns", "2"],
        &[
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            "50",
            "--out",
            out,
        ],
        &[
            "scale",
            "experiments/war_placement.toml",
            "--trials-list",
            "20,10",
            "--repeats",
            "2",
            "--quiet",
            "--out",
            out,
        ],
    ] {
        assert_quiet_on_closed_pipe(args);
    }
}

/// Runs `args` with standard error `stderr` (and standard output discarded); returns the
/// status code.
fn status_with_stderr(args: &[&str], stderr: Stdio) -> Option<i32> {
    StdCommand::new(assert_cmd::cargo::cargo_bin("experiment"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(stderr)
        .status()
        .expect("run")
        .code()
}

/// Standard error full (`2>/dev/full`, a Slurm log on a full disk) or closed: the messages are
/// lost, never the work or the exit status (before, `eprintln!` panicked with exit 101).
#[test]
fn an_unwritable_standard_error_changes_neither_the_work_nor_the_exit_status() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let run: &[&str] = &[
        "run",
        "experiments/war_placement.toml",
        "--trials",
        "50",
        "--out",
        out.to_str().expect("utf-8 path"),
    ];
    let full = || Stdio::from(fs::File::create("/dev/full").expect("/dev/full"));
    assert_eq!(status_with_stderr(run, full()), Some(0));
    assert!(
        out.join("summary.csv").is_file(),
        "the run wrote its results"
    );
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    assert_eq!(status_with_stderr(run, Stdio::from(writer)), Some(0));
    // An error still ends with status 1, its message lost.
    let failing = &["run", "no/such/spec.toml"];
    assert_eq!(status_with_stderr(failing, full()), Some(1));
}

/// Standard output full (`> /dev/full`): a command whose answer is its output says it could not
/// write it and fails, rather than panicking or claiming success.
#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().expect("temp dir");
    for args in [
        &["exact", "twentyone"][..],
        &[
            "scale",
            "experiments/war_placement.toml",
            "--trials-list",
            "20,10",
            "--repeats",
            "2",
            "--quiet",
            "--out",
            dir.path().join("scale").to_str().expect("utf-8 path"),
        ],
    ] {
        let output = StdCommand::new(assert_cmd::cargo::cargo_bin("experiment"))
            .args(args)
            .stdout(fs::File::create("/dev/full").expect("/dev/full"))
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn exact_monopoly_piped_into_head_exits_zero() {
    let binary = assert_cmd::cargo::cargo_bin("experiment");
    let script = format!(
        "set -o pipefail; '{}' exact monopoly | head -1",
        binary.display()
    );
    let output = StdCommand::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash");
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("Exact Markov chain"));
    assert!(output.stderr.is_empty(), "{output:?}");
}

#[test]
fn a_trace_that_runs_out_of_dice_prints_the_turns_it_played_then_the_error() {
    experiment()
        .args(["trace", "monopoly", "--dice", "6,4,5,3,3", "--turns", "5"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Tally: "))
        .stdout(predicate::str::contains("Turn 2"))
        .stdout(predicate::str::contains("Turn 3").not())
        .stderr(predicate::str::contains("out of dice on turn 3"))
        .stderr(predicate::str::contains("turns 1 to 2 of the 5 asked for"));
}
