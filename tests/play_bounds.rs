//! `experiment play` at its bounds: `play war` takes only the turn limits specs allow and stops
//! a cycling game with the cycle's period, and `play twentyone` reads answers with a bound,
//! so an endless line neither fills the memory nor ends the game.

use std::fs;
use std::process::Command as Process;

use crate::common::experiment;

#[test]
fn play_war_refuses_turn_limits_outside_the_specs_range() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let out = dir.path().join("game.txt");
    for turns in ["0", "100000001", "4294967295"] {
        experiment()
            .args(["play", "war", "--max-turns", turns, "--out"])
            .arg(&out)
            .assert()
            .failure()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "{turns} is not in 1..=100000000"
            )));
        assert!(!out.exists(), "--max-turns {turns} wrote a file");
    }
}

#[test]
fn play_war_stops_a_cycling_game_and_says_so_with_its_period() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let out = dir.path().join("game.txt");
    experiment()
        .args(["play", "war", "--seed", "9", "--placement", "player1_first"])
        .args(["--max-turns", "100000000", "--out"])
        .arg(&out)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .success();
    let text = fs::read_to_string(&out).expect("the game");
    assert!(text.len() < 100_000, "{} bytes", text.len());
    assert!(
        text.ends_with(
            "Cycle found: the hands after turn 242 are as after turn 190, so these 52 turns \
             repeat forever (a cycle of period 52); the game counts as cycled.\n"
        ),
        "{}",
        &text[text.len().saturating_sub(400)..]
    );
}

#[test]
fn play_twentyone_refuses_an_endless_line_without_keeping_it() {
    // 200 MB without a newline, read under a 150 MB address-space limit: kept whole, the line
    // would need a 256 MB buffer and the allocation would abort the program.
    let binary = assert_cmd::cargo::cargo_bin("experiment");
    let output = Process::new("bash")
        .arg("-c")
        .arg(
            r#"{ head -c 200000000 /dev/zero | tr '\0' x; printf '\nstay\nn\n'; } |
               (ulimit -v 150000; exec "$0" play twentyone --seed 5)"#,
        )
        .arg(&binary)
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains(
            "HIT or STAY?\nThat answer is longer than 1024 bytes. Please answer HIT or STAY.\n\
             HIT or STAY?\nYou stay with "
        ),
        "{stdout}"
    );
    assert!(stdout.ends_with("games.\n"), "{stdout}");
}
