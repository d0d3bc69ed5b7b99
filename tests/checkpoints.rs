//! Checkpoints: an interrupted or killed run keeps its completed trials beside the output
//! folder, and `--resume` finishes it with exactly the tables of an uninterrupted run.

use std::fs;
use std::path::Path;
use std::process::Child;

use crate::common::runs::{checkpoint_of, signal, spawn_until_checkpoint};
use crate::common::{experiment, stderr_of};
use predicates::prelude::*;

const SPEC: &str = "experiments/war_placement.toml";
/// Long enough on one thread that a checkpoint is saved well before the end.
const TRIALS: &str = "200000";
const SEED: &str = "5";

/// The arguments of the run every test interrupts, writing to `out`.
fn arguments(out: &Path) -> Vec<String> {
    let mut args: Vec<String> = ["run", SPEC, "--quiet", "--trials", TRIALS, "--seed", SEED]
        .map(String::from)
        .to_vec();
    args.extend(["--threads", "1", "--checkpoint-every", "1", "--out"].map(String::from));
    args.push(out.display().to_string());
    args
}

/// A run into `<temporary folder>/out` that has saved its first checkpoint.
fn run_until_checkpoint() -> (tempfile::TempDir, std::path::PathBuf, Child) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let child = spawn_until_checkpoint(&arguments(&out), &out);
    (dir, out, child)
}

fn trials_saved(out: &Path) -> u64 {
    let text = fs::read_to_string(checkpoint_of(out)).expect("checkpoint");
    let saved: serde_json::Value = serde_json::from_str(&text).expect("checkpoint is JSON");
    assert_eq!(saved["format"], "experiment-summaries");
    assert_eq!(saved["kind"], "checkpoint");
    assert_eq!(saved["identity"]["seed"], 5);
    saved["trials_done"].as_u64().expect("trials_done")
}

/// Runs `--resume` with the same arguments and checks the tables equal an uninterrupted run's.
fn resume_and_compare(dir: &Path, out: &Path) {
    experiment()
        .args(arguments(out))
        .arg("--resume")
        .assert()
        .success();
    assert!(
        !checkpoint_of(out).exists(),
        "a finished run removes its checkpoint"
    );
    let whole = dir.join("whole");
    experiment()
        .args([
            "run", SPEC, "--quiet", "--trials", TRIALS, "--seed", SEED, "--out",
        ])
        .arg(&whole)
        .assert()
        .success();
    for table in [
        "summary.csv",
        "histogram.csv",
        "comparisons.csv",
        "cycles.csv",
    ] {
        assert!(
            fs::read(whole.join(table)).expect("whole")
                == fs::read(out.join(table)).expect("resumed"),
            "{table} differs after resuming"
        );
    }
}

#[test]
fn sigint_saves_a_checkpoint_that_resume_finishes_with_identical_tables() {
    let (dir, out, mut child) = run_until_checkpoint();
    signal(&child, libc::SIGINT);
    let status = child.wait().expect("wait");
    let stderr = stderr_of(&mut child);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("completed trials are saved in"), "{stderr}");
    assert!(stderr.contains("--checkpoint-every 1 --out"), "{stderr}");
    assert!(stderr.trim_end().ends_with("--resume"), "{stderr}");
    assert!(!out.exists(), "an interrupted run wrote results");
    let saved = trials_saved(&out);
    assert!(saved > 0 && saved < 6 * 200_000, "{saved} trials saved");

    // Without --resume the checkpoint is not overwritten.
    experiment()
        .args(arguments(&out))
        .assert()
        .failure()
        .stderr(predicate::str::contains("add --resume"));
    assert_eq!(trials_saved(&out), saved);
    resume_and_compare(dir.path(), &out);
}

#[test]
fn after_sigkill_resume_loses_at_most_the_last_interval() {
    let (dir, out, mut child) = run_until_checkpoint();
    child.kill().expect("SIGKILL");
    child.wait().expect("wait");
    assert!(trials_saved(&out) > 0);
    resume_and_compare(dir.path(), &out);
}

#[test]
fn sigterm_saves_a_checkpoint_and_exits_143() {
    let (_dir, out, mut child) = run_until_checkpoint();
    signal(&child, libc::SIGTERM);
    assert_eq!(child.wait().expect("wait").code(), Some(143));
    assert!(trials_saved(&out) > 0);
}

#[test]
fn a_checkpoint_of_another_run_or_none_at_all_is_refused_by_resume() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    experiment()
        .args(arguments(&out))
        .arg("--resume")
        .assert()
        .failure()
        .stderr(predicate::str::contains("there is no checkpoint at"));
    let mut child = spawn_until_checkpoint(&arguments(&out), &out);
    child.kill().expect("SIGKILL");
    child.wait().expect("wait");
    let mut other_seed = arguments(&out);
    let seed = other_seed.iter().position(|a| a == "--seed").unwrap() + 1;
    other_seed[seed] = "6".into();
    experiment()
        .args(&other_seed)
        .arg("--resume")
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the seed is 5 in the checkpoint but 6 in this run",
        ));
    experiment()
        .args(arguments(&out))
        .args(["--chunk-size", "100", "--resume"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the chunk size is 3125 in the checkpoint but 100 in this run",
        ));
    assert!(!out.exists());
}

/// The number written just before `after` in `text`, thousands separators dropped.
fn number_before(text: &str, after: &str) -> u64 {
    let end = text
        .find(after)
        .unwrap_or_else(|| panic!("no '{after}' in {text}"));
    let word = text[..end].split_whitespace().last().expect("a number");
    word.replace(',', "").parse().expect("a number")
}

/// Two threads interrupted inside a batch of a million trials: the checkpoint keeps every
/// chunk that finished (but those still in progress and any that finished after one still in
/// progress), not only whole batches, says how many were played and kept, and `--resume`
/// finishes with the tables of an uninterrupted run.
#[test]
fn an_interrupt_keeps_every_finished_chunk_and_says_how_many_were_played() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let common = [
        "run",
        SPEC,
        "--quiet",
        "--variant",
        "random",
        "--trials",
        "1500000",
        "--seed",
        "11",
        "--threads",
        "2",
    ];
    let mut args: Vec<String> = common.map(String::from).to_vec();
    args.extend(["--checkpoint-every", "1", "--out"].map(String::from));
    args.push(out.display().to_string());
    let mut child = spawn_until_checkpoint(&args, &out);
    std::thread::sleep(std::time::Duration::from_millis(300));
    signal(&child, libc::SIGINT);
    let status = child.wait().expect("wait");
    let stderr = stderr_of(&mut child);
    assert_eq!(status.code(), Some(130), "{stderr}");
    let played = number_before(&stderr, " trials were played in whole chunks; ");
    let kept = number_before(&stderr, " completed trials are saved in");
    let saved: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(checkpoint_of(&out)).expect("checkpoint"))
            .expect("JSON");
    assert_eq!(saved["trials_done"].as_u64(), Some(kept));
    // Chunks are 4,096 trials and a batch 256 chunks (2^20 trials): kept are whole chunks,
    // and at most a few dozen of the chunks played are lost, not a batch.
    assert!(kept > 0 && kept.is_multiple_of(4_096), "{kept} trials kept");
    assert!(
        kept <= played && played - kept <= 64 * 4_096,
        "{played} played, {kept} kept: {stderr}"
    );

    let mut resume = args.clone();
    resume.push("--resume".into());
    experiment().args(&resume).assert().success();
    let whole = dir.path().join("whole");
    experiment()
        .args(common)
        .arg("--out")
        .arg(&whole)
        .assert()
        .success();
    for table in ["summary.csv", "histogram.csv", "cycles.csv"] {
        assert!(
            fs::read(whole.join(table)).expect("whole")
                == fs::read(out.join(table)).expect("resumed"),
            "{table} differs after resuming"
        );
    }
}
