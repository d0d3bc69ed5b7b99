//! Summaries files (shards and checkpoints) are checked before they are used: an edited,
//! damaged or forged file is refused with what is wrong and where, a merge never plays the
//! trials its files lack, `--resume` never sets a checkpoint aside, and reading is bounded (a
//! FIFO, a device or an oversized file is refused at once).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::experiment;
use predicates::prelude::*;
use serde_json::Value;
use sha2::{Digest, Sha256};

const SPEC: &str = "experiments/war_placement.toml";
/// Longer than any refusal takes, far shorter than playing the trials a refusal avoids.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Three shards of a 3,000-trial War run (1,000 trials each) in `<dir>/shards`.
fn three_shards(dir: &Path) -> PathBuf {
    let folder = dir.join("shards");
    for index in 0..3 {
        experiment()
            .args(["run", SPEC, "--quiet", "--trials", "3000", "--seed", "3"])
            .args(["--shard", &format!("{index}/3"), "--out"])
            .arg(&folder)
            .assert()
            .success();
    }
    folder
}

/// Shard `index` of the three in `folder`.
fn shard(folder: &Path, index: u64) -> PathBuf {
    folder.join(format!("shard-{index}-of-3.json"))
}

/// The digest of one part as the format documents it (recomputed here independently, as
/// anyone editing a file could).
fn digest(stream: u64, trials: [u64; 2], summary: &str) -> String {
    let text = format!(
        "experiment-summaries 2 stream {stream} trials {} {}\n{summary}",
        trials[0], trials[1]
    );
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Each part of `file` as (stream, trials, summary).
fn parts(file: &Value) -> Vec<(Value, Value, Value)> {
    let mut found = Vec::new();
    for record in file["streams"].as_array().expect("streams") {
        for part in record["parts"].as_array().expect("parts") {
            let key = (record["stream"].clone(), part["trials"].clone());
            found.push((key.0, key.1, part["summary"].clone()));
        }
    }
    found
}

/// Edits the summaries file at `path` with `change`, as a text editor would: the parts it
/// does not change keep valid digests (written again here, as the file is), the parts it
/// changes keep their old ones. With `recompute`, every part's digest and the file's
/// `trials_done` are made to match the edit, as a careful forger would.
fn edit(path: &Path, recompute: bool, change: impl FnOnce(&mut Value)) {
    let mut file: Value = serde_json::from_str(&fs::read_to_string(path).expect("read"))
        .expect("a JSON summaries file");
    let before = parts(&file);
    change(&mut file);
    let mut done = 0;
    for record in file["streams"].as_array_mut().expect("streams") {
        let id = record["stream"].clone();
        let stream = id.as_u64().expect("a stream");
        for part in record["parts"].as_array_mut().expect("parts") {
            let trials = [0, 1].map(|i| part["trials"][i].as_u64().expect("a trial"));
            done += trials[1] - trials[0];
            let key = (id.clone(), part["trials"].clone(), part["summary"].clone());
            if recompute || before.contains(&key) {
                let summary = serde_json::to_string(&part["summary"]).expect("JSON");
                part["sha256"] = digest(stream, trials, &summary).into();
            }
        }
    }
    if recompute {
        file["trials_done"] = done.into();
    }
    fs::write(path, serde_json::to_string(&file).expect("JSON")).expect("write");
}

/// The summary of the first part of the first stream of `file`.
fn first_summary(file: &mut Value) -> &mut Value {
    &mut file["streams"][0]["parts"][0]["summary"]
}

/// Asserts that merging `folder` fails at once with `message`, writing nothing.
fn merge_refused(folder: &Path, message: &str) {
    let out = folder.with_file_name("merged");
    let started = Instant::now();
    experiment()
        .arg("merge")
        .arg(folder)
        .arg("--out")
        .arg(&out)
        .timeout(TIMEOUT)
        .assert()
        .failure()
        .stderr(predicate::str::contains(message));
    assert!(
        started.elapsed() < TIMEOUT,
        "the merge did not refuse at once"
    );
    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

/// Each edit of a shard, made plainly (the digest catches it) and with the digests
/// recomputed (the structural checks catch it).
#[test]
fn every_edit_of_a_shard_is_refused_naming_the_file_the_stream_and_the_part() {
    type Edit = fn(&mut Value);
    let inflated: Edit = |file| {
        let wins = first_summary(file)["p1_wins"].as_u64().unwrap();
        first_summary(file)["p1_wins"] = (wins + 100).into();
    };
    let games: Edit = |file| first_summary(file)["games"] = 90_000.into();
    let shortened: Edit = |file| file["streams"][0]["parts"][0]["trials"][1] = 1900.into();
    let overlapping: Edit = |file| file["streams"][0]["parts"][0]["trials"][0] = 900.into();
    let duplicated_part: Edit = |file| {
        let part = file["streams"][0]["parts"][0].clone();
        file["streams"][0]["parts"]
            .as_array_mut()
            .unwrap()
            .push(part);
    };
    let duplicated_stream: Edit = |file| {
        let record = file["streams"][0].clone();
        file["streams"].as_array_mut().unwrap().push(record);
    };
    let wrapping: Edit = |file| {
        // Counts that add up, modulo 2^64, to the true number of finished games.
        let counts = &mut first_summary(file)["turn_histogram"]["counts"];
        let bins: Vec<usize> = (0..counts.as_array().unwrap().len())
            .filter(|&i| counts[i].as_u64().unwrap() > 0)
            .take(2)
            .collect();
        let (a, b) = (bins[0], bins[1]);
        let (ca, cb) = (counts[a].as_u64().unwrap(), counts[b].as_u64().unwrap());
        counts[a] = u64::MAX.into();
        counts[b] = (cb + ca + 1).into();
    };
    let forged_stream: Edit = |file| file["streams"][0]["stream"] = 12345.into();
    let swapped_label: Edit = |file| {
        let other = file["streams"][1]["label"].clone();
        file["streams"][0]["label"] = other;
    };
    let digest = "part 0: its digest does not match its content";
    let overlap = "part 1: trials 1000..2000 overlap trials 1000..2000 of part 0";
    let twice = "is in the file twice";
    let label = "is the stream of variant '";
    // (name, edit, refusal of the plain edit, refusal with the digests recomputed)
    let cases: [(&str, Edit, &str, &str); 9] = [
        (
            "inflated",
            inflated,
            digest,
            "part 0: p1_wins + p2_wins + draws + infinite + cycled 1100 but games is 1000",
        ),
        (
            "games",
            games,
            digest,
            "part 0: games 90000 but its trial range holds 1000",
        ),
        (
            "shortened",
            shortened,
            digest,
            ": trials 1900..2000 of its share 1000..2000 are missing",
        ),
        (
            "overlapping",
            overlapping,
            digest,
            "part 0: trials 900..2000 go beyond the file's trials 1000..2000",
        ),
        // A copied part or stream keeps its digest: the structure refuses it either way.
        ("duplicated part", duplicated_part, overlap, overlap),
        ("duplicated stream", duplicated_stream, twice, twice),
        (
            "wrapping",
            wrapping,
            digest,
            "the counts of turn_histogram add up to more than 2^64 - 1",
        ),
        (
            "forged stream",
            forged_stream,
            digest,
            "is not a stream of this run",
        ),
        // The label is not part of the digest: the run's streams refuse the swap.
        ("swapped label", swapped_label, label, label),
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    let pristine = three_shards(dir.path());
    for (name, change, plain, recomputed) in cases {
        for recompute in [false, true] {
            let case = dir.path().join(format!("{name}-{recompute}"));
            fs::create_dir_all(&case).expect("folder");
            let folder = case.join("shards");
            fs::create_dir(&folder).expect("folder");
            for index in 0..3 {
                fs::copy(shard(&pristine, index), shard(&folder, index)).expect("copy");
            }
            edit(&shard(&folder, 1), recompute, change);
            let expected = if recompute { recomputed } else { plain };
            // Every refusal names the file, and the stream and part where it has them.
            let file = shard(&folder, 1).display().to_string();
            merge_refused(&folder, &format!("{file}: "));
            merge_refused(&folder, expected);
        }
    }
}

/// Shard 0 edited to claim every trial, shards 1 and 2 emptied, every digest recomputed.
#[test]
fn a_shard_claiming_the_whole_run_beside_emptied_shards_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = three_shards(dir.path());
    // A file of the format before digests is refused with the version, not misread.
    let original = fs::read(shard(&folder, 1)).expect("shard");
    edit(&shard(&folder, 1), false, |file| {
        file["format_version"] = 1.into()
    });
    merge_refused(
        &folder,
        "has summaries format version 1, but this engine reads version 2",
    );
    fs::write(shard(&folder, 1), original).expect("put back");
    let empty = |file: &mut Value| file["streams"] = Value::Array(Vec::new());
    edit(&shard(&folder, 1), true, empty);
    edit(&shard(&folder, 2), true, empty);
    merge_refused(&folder, "of the run's streams are missing");
    edit(&shard(&folder, 0), true, |file| {
        for record in file["streams"].as_array_mut().unwrap() {
            let part = &mut record["parts"][0];
            part["trials"][1] = 3000.into();
            for key in ["games", "p1_wins"] {
                let value = part["summary"][key].as_u64().unwrap();
                part["summary"][key] = (value * 3).into();
            }
        }
    });
    merge_refused(
        &folder,
        "part 0: trials 0..3000 go beyond the file's trials 0..1000",
    );
}

/// Shards of a run of 10^12 trials per variant (made from small ones: only the ranges are
/// changed) that lack one stream, or whose summaries do not hold their ranges: playing the
/// missing trials would take days, and the merge must refuse at once instead.
#[test]
fn a_merge_never_plays_missing_trials_and_refuses_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = three_shards(dir.path());
    const TRIALS: u64 = 1_000_000_000_000;
    for index in 0..3 {
        edit(&shard(&folder, index), true, |file| {
            file["identity"]["trials_per_variant"] = TRIALS.into();
            let (first, end) = (TRIALS * index / 3, TRIALS * (index + 1) / 3);
            for record in file["streams"].as_array_mut().unwrap() {
                record["parts"][0]["trials"] = serde_json::json!([first, end]);
            }
            if index == 2 {
                file["streams"].as_array_mut().unwrap().pop();
            }
        });
    }
    merge_refused(
        &folder,
        "shard-2-of-3.json: 1 of the run's streams are missing: stream",
    );
    // Put the stream back (the same variant's summary, from shard 1, with shard 2's range):
    // now every range is covered, and it is the summaries that do not hold their ranges.
    let last = {
        let text = fs::read_to_string(shard(&folder, 1)).unwrap();
        let file: Value = serde_json::from_str(&text).unwrap();
        file["streams"][5].clone()
    };
    edit(&shard(&folder, 2), true, |file| {
        let mut record = last;
        record["parts"][0]["trials"] = serde_json::json!([TRIALS * 2 / 3, TRIALS]);
        file["streams"].as_array_mut().unwrap().push(record);
    });
    merge_refused(&folder, "shard-0-of-3.json: stream");
    merge_refused(
        &folder,
        "part 0: games 1000 but its trial range holds 333333333333",
    );
}

/// A checkpoint of the whole 3,000-trial run, made from a one-shard run, beside `<dir>/out`.
fn complete_checkpoint(dir: &Path) -> PathBuf {
    let folder = dir.join("one");
    experiment()
        .args(["run", SPEC, "--quiet", "--trials", "3000", "--seed", "3"])
        .args(["--shard", "0/1", "--out"])
        .arg(&folder)
        .assert()
        .success();
    let checkpoint = dir.join("out.checkpoint.json");
    fs::copy(folder.join("shard-0-of-1.json"), &checkpoint).expect("copy");
    edit(&checkpoint, false, |file| {
        file["kind"] = "checkpoint".into();
        file["shard"] = Value::Null;
    });
    checkpoint
}

/// `--resume` of the 3,000-trial run into `out`.
fn resume(out: &Path) -> assert_cmd::assert::Assert {
    experiment()
        .args([
            "run", SPEC, "--quiet", "--trials", "3000", "--seed", "3", "--resume",
        ])
        .arg("--out")
        .arg(out)
        .timeout(TIMEOUT)
        .assert()
}

#[test]
fn resume_refuses_a_checkpoint_it_cannot_use_and_leaves_it_as_it_is() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    // Untouched, the checkpoint finishes the run (with nothing left to play).
    let checkpoint = complete_checkpoint(dir.path());
    resume(&out).success();
    assert!(out.join("summary.csv").exists());
    assert!(
        !checkpoint.exists(),
        "a finished run removes its checkpoint"
    );
    type Edit = fn(&mut Value);
    let halved: Edit = |file| file["streams"][0]["parts"][0]["trials"][1] = 1500.into();
    let gap: Edit = |file| file["streams"][0]["parts"][0]["trials"][0] = 10.into();
    let unreadable: Edit = |file| *first_summary(file) = serde_json::json!({"games": "many"});
    let cases: [(Edit, &str); 3] = [
        (halved, "part 0: games 3000 but its trial range holds 1500"),
        (
            gap,
            "part 0: trials 10..3000 do not continue trials 0..0 (a gap)",
        ),
        (unreadable, "part 0: its summary cannot be read"),
    ];
    for (change, message) in cases {
        let checkpoint = complete_checkpoint(dir.path());
        edit(&checkpoint, true, change);
        let before = fs::read(&checkpoint).expect("checkpoint");
        resume(&out)
            .failure()
            .stderr(predicate::str::contains("--resume: the checkpoint"))
            .stderr(predicate::str::contains(message))
            .stderr(predicate::str::contains("It was left as it is; remove it"));
        assert_eq!(fs::read(&checkpoint).expect("kept"), before, "{message}");
        fs::remove_file(&checkpoint).expect("remove");
    }
    let checkpoint = complete_checkpoint(dir.path());
    edit(&checkpoint, false, halved);
    resume(&out).failure().stderr(predicate::str::contains(
        "its digest does not match its content",
    ));
}

#[test]
fn merge_refuses_fifos_devices_and_oversized_files_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("merged");
    let fifo = dir.path().join("fifo.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let refused = |input: &Path, envs: &[(&str, &str)], message: &str| {
        let started = Instant::now();
        experiment()
            .envs(envs.iter().copied())
            .timeout(TIMEOUT)
            .args(["merge"])
            .arg(input)
            .arg("--out")
            .arg(&out)
            .assert()
            .failure()
            .stderr(predicate::str::contains(message));
        assert!(started.elapsed() < Duration::from_secs(10), "{message}");
        assert!(!out.exists());
    };
    refused(&fifo, &[], "fifo.json is a FIFO (named pipe)");
    refused(Path::new("/dev/zero"), &[], "/dev/zero is a device");
    let big = dir.path().join("big.json");
    fs::File::create(&big)
        .and_then(|file| file.set_len(300 << 20))
        .expect("a sparse file");
    refused(
        &big,
        &[],
        "is larger than 256 MiB, the most a summaries file may have: set \
         EXPERIMENT_MAX_SUMMARIES_MIB",
    );
    let small = dir.path().join("small.json");
    fs::File::create(&small)
        .and_then(|file| file.set_len(2 << 20))
        .expect("a sparse file");
    refused(
        &small,
        &[("EXPERIMENT_MAX_SUMMARIES_MIB", "1")],
        "is larger than 1 MiB",
    );
    refused(
        &small,
        &[("EXPERIMENT_MAX_SUMMARIES_MIB", "lots")],
        "EXPERIMENT_MAX_SUMMARIES_MIB=lots is not a size",
    );
    // Under a memory limit a tenth of the file's size, the oversized file and the endless
    // device are still refused with their message (not an allocation failure).
    for input in [big.as_path(), Path::new("/dev/zero")] {
        let limited = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 100000 && exec \"$0\" merge \"$1\" --out \"$2\"")
            .arg(env!("CARGO_BIN_EXE_experiment"))
            .arg(input)
            .arg(&out)
            .output()
            .expect("sh");
        let stderr = String::from_utf8_lossy(&limited.stderr);
        assert!(!limited.status.success());
        assert!(
            stderr.contains("is larger than") || stderr.contains("is a device"),
            "{stderr}"
        );
    }
}

#[test]
fn a_malformed_size_limit_is_refused_before_any_trial_is_played() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    for args in [
        vec![
            "run",
            "experiments/war_placement.toml",
            "--trials",
            "1000000000",
        ],
        vec![
            "scale",
            "experiments/war_placement.toml",
            "--trials-list",
            "1000000000",
        ],
    ] {
        let started = Instant::now();
        experiment()
            .env("EXPERIMENT_MAX_SUMMARIES_MIB", "lots")
            .timeout(TIMEOUT)
            .args(&args)
            .args(["--quiet", "--out"])
            .arg(&out)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(
                "EXPERIMENT_MAX_SUMMARIES_MIB=lots is not a size: give a whole number of MiB \
                 from 1 to",
            ));
        assert!(started.elapsed() < Duration::from_secs(10), "{args:?}");
        assert!(!out.exists(), "{args:?}");
        assert!(
            fs::read_dir(dir.path()).expect("dir").next().is_none(),
            "{args:?}: no checkpoint nor lock is left"
        );
    }
}
