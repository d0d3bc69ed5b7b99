//! `experiment play war` without `--out` writes the game to standard output, and `experiment
//! exact war` says that War has no exact solver and what to run instead.

use crate::common::experiment;

#[test]
fn play_war_without_out_writes_the_same_game_to_standard_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("game.txt");
    let args = ["play", "war", "--seed", "7", "--placement", "random"];
    experiment()
        .args(args)
        .arg("--out")
        .arg(&file)
        .assert()
        .success()
        .stdout("");
    let written = std::fs::read_to_string(&file).expect("the game file");
    let output = experiment().args(args).output().expect("runs");
    assert!(output.status.success(), "{output:?}");
    // Standard output holds the game alone: the "Wrote ..." note is for a file only.
    assert!(output.stderr.is_empty(), "{output:?}");
    let printed = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(printed, written);
    assert!(
        printed.starts_with("War, seed 7, placement random."),
        "{printed}"
    );
    assert!(printed.lines().count() > 3);
    // Nothing else was written beside it.
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
}

#[test]
fn exact_war_says_war_has_no_exact_solver_and_what_to_run() {
    let output = experiment().args(["exact", "war"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    let said = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(said.starts_with("Error: War has no exact solver"), "{said}");
    assert!(!said.contains("unrecognized subcommand"), "{said}");
    // What it suggests exists and runs.
    assert!(
        said.contains("`experiment run experiments/war_placement.toml`"),
        "{said}"
    );
    assert!(std::path::Path::new("experiments/war_placement.toml").is_file());
    for game in ["monopoly", "chutes", "twentyone"] {
        assert!(
            said.contains(&format!("`experiment exact {game}`")),
            "{said}"
        );
    }
    // Any other name is still clap's usage error.
    experiment()
        .args(["exact", "nonsense"])
        .assert()
        .failure()
        .code(2);
}
