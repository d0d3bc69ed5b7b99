//! Numbers on the command line read like numbers in a spec: `1_000`, `1e6`, `2.5e6`; others
//! (too many threads, seeds and turns out of range) are refused naming the flag and its range,
//! before anything is written.

use std::time::Duration;

use crate::common::{experiment, header_and_rows};
use predicates::prelude::*;

const SPEC: &str = "version = 1\nname = \"n\"\ngame = \"twentyone\"\nseed = 1\ntrials = 10\n";

#[test]
fn trials_and_seed_take_underscores_and_whole_floats() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("n.toml");
    std::fs::write(&spec, SPEC).expect("write spec");
    for (flag, value, trials) in [
        ("--trials", "1_000", "1000"),
        ("--trials", "2.5e3", "2500"),
        ("--trials", "1e3", "1000"),
    ] {
        let out = dir.path().join(format!("out-{value}"));
        experiment()
            .arg("run")
            .arg(&spec)
            .args([
                flag,
                value,
                "--seed",
                "1_000",
                "--chunk-size",
                "1e2",
                "--quiet",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        let (header, rows) = header_and_rows(&out.join("summary.csv"));
        let games = header
            .iter()
            .position(|name| name == "games")
            .expect("games");
        assert_eq!(rows[0][games], trials, "{flag} {value}");
    }
}

#[test]
fn numbers_that_are_not_whole_or_in_range_are_refused_naming_the_flag() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("n.toml");
    std::fs::write(&spec, SPEC).expect("write spec");
    let out = dir.path().join("out");
    for (flag, value, message) in [
        (
            "--trials",
            "1.5",
            "'1.5' is not a whole number in 1..=1000000000000",
        ),
        ("--trials", "-1", "-1 is not in 1..=1000000000000"),
        ("--trials", "1e30", "1e30 is not in 1..=1000000000000"),
        (
            "--trials",
            "1__000",
            "'1__000' is not a whole number in 1..=1000000000000",
        ),
        ("--seed", "1e19", "1e19 is not in 0..=9223372036854775807"),
        ("--chunk-size", "0", "0 is not in 1..=18446744073709551615"),
    ] {
        experiment()
            .arg("run")
            .arg(&spec)
            .arg(format!("{flag}={value}"))
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "invalid value '{value}' for '{flag} <"
            )))
            .stderr(predicates::str::contains(message));
        assert!(!out.exists(), "{flag} {value} wrote results");
    }
    experiment()
        .args(["scale", "n.toml", "--repeats", "2e3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("2e3 is not in 1..=1000"));
    experiment()
        .args(["slurm", "n.toml", "--shards", "1.5"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "'1.5' is not a whole number in 1..=100000",
        ));
}

#[test]
fn fails_with_clear_message_on_more_threads_than_four_per_core() {
    let dir = tempfile::tempdir().expect("temp dir");
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--threads",
            "65535",
        ])
        .arg("--out")
        .arg(dir.path().join("out"))
        .timeout(Duration::from_secs(10))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("65535 is not in 1..="))
        .stderr(predicate::str::contains("per core"));
}

#[test]
fn seeds_on_the_command_line_take_the_range_specs_take() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let out = out.to_str().expect("utf-8 path");
    for args in [
        &[
            "run",
            "experiments/war_placement.toml",
            "--out",
            out,
            "--seed",
        ][..],
        &["play", "chutes", "--seed"],
    ] {
        experiment()
            .args(args)
            .arg("9223372036854775808")
            .timeout(Duration::from_secs(10))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("0..=9223372036854775807"));
    }
    experiment()
        .args(["play", "chutes", "--seed", "9223372036854775807"])
        .assert()
        .success();
}

#[test]
fn exact_monopoly_turns_have_the_limit_of_specs() {
    experiment()
        .args(["exact", "monopoly", "--turns", "4294967295"])
        .timeout(Duration::from_secs(10))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "--turns 4294967295 is not in 1..=1000000",
        ));
    experiment()
        .args(["exact", "monopoly", "--turns", "0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--turns 0 is not in 1..=1000000"));
}

#[test]
fn a_float_seed_is_read_exactly_or_refused_saying_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("n.toml");
    std::fs::write(&spec, SPEC).expect("write spec");
    // 2^53 + 1 and a 17-digit seed: no float holds them, yet they are whole and in range.
    for (value, seed) in [
        ("9007199254740993e0", 9_007_199_254_740_993_u64),
        ("12345678901234567.0", 12_345_678_901_234_567),
    ] {
        let out = dir.path().join(format!("out-{seed}"));
        experiment()
            .arg("run")
            .arg(&spec)
            .args(["--seed", value, "--quiet", "--out"])
            .arg(&out)
            .assert()
            .success();
        let manifest: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join("manifest.json")).expect("manifest"),
        )
        .expect("json");
        assert_eq!(manifest["seed"].as_u64(), Some(seed), "{value}");
    }
    experiment()
        .args(["play", "chutes", "--seed", "9007199254740993.5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "'9007199254740993.5' is not a whole number in 0..=9223372036854775807",
        ));
}
