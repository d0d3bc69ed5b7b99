//! Shards and merge: `run --shard INDEX/COUNT` plays a disjoint share of every variant and
//! `merge` turns the shard files into exactly the tables of a one-machine run.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{experiment, gamblers_ruin};
use predicates::prelude::*;

/// A function giving a binary to run: `experiment`, or the library example's.
type Program = fn() -> assert_cmd::Command;

/// Every table file (CSV and Parquet) in `folder`, by name.
fn tables(folder: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", folder.display()))
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            let name = path.to_string_lossy();
            name.ends_with(".csv") || name.ends_with(".parquet")
        })
        .collect();
    found.sort();
    found
}

/// Asserts that `merged` holds the same tables as `local`, byte for byte.
fn assert_same_tables(local: &Path, merged: &Path) {
    let expected = tables(local);
    assert!(!expected.is_empty(), "no tables in {}", local.display());
    for table in &expected {
        let name = table.file_name().expect("name");
        let other = merged.join(name);
        assert!(
            fs::read(table).expect("local table") == fs::read(&other).expect("merged table"),
            "{} differs between the local run and the merge",
            name.to_string_lossy()
        );
    }
    assert!(merged.join("report.html").exists());
    assert!(merged.join("report.md").exists());
}

/// Runs `spec` with `args` into `out` with the binary `program` gives.
fn run(program: Program, spec: &str, out: &Path, args: &[&str]) {
    program()
        .args(["run", spec, "--quiet"])
        .args(args)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// Plays every shard of `count` of `spec` into `folder`, alternating 1 and 2 threads.
fn run_shards(program: Program, spec: &str, folder: &Path, count: u64, args: &[&str]) {
    for index in 0..count {
        let shard = format!("{index}/{count}");
        let threads = if index % 2 == 0 { "1" } else { "2" };
        let mut all = vec!["--shard", &shard, "--threads", threads];
        all.extend_from_slice(args);
        run(program, spec, folder, &all);
    }
}

fn merge(program: Program, inputs: &[&Path], out: &Path) {
    program()
        .arg("merge")
        .args(inputs)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .assert()
        .success();
}

#[test]
fn shards_merged_give_the_tables_of_one_run_for_1_3_and_7_shards() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = "experiments/war_placement.toml";
    let args = ["--trials", "3000", "--seed", "11"];
    let local = dir.path().join("local");
    run(experiment, spec, &local, &args);
    for count in [1, 3, 7] {
        let shards = dir.path().join(format!("shards-{count}"));
        run_shards(experiment, spec, &shards, count, &args);
        let files = fs::read_dir(&shards).expect("shards").count();
        assert_eq!(
            files as u64, count,
            "one summaries file per shard, nothing else"
        );
        let merged = dir.path().join(format!("merged-{count}"));
        merge(experiment, &[&shards], &merged);
        assert_same_tables(&local, &merged);
        let manifest: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(merged.join("manifest.json")).unwrap())
                .expect("manifest");
        let recorded = manifest["shards"].as_array().expect("shards recorded");
        assert_eq!(recorded.len() as u64, count);
        let trials: u64 = recorded.iter().map(|s| s["trials"].as_u64().unwrap()).sum();
        assert_eq!(trials, 6 * 3000);
        let html = fs::read_to_string(merged.join("report.html")).expect("report.html");
        assert!(
            html.contains("merged from"),
            "the HTML report names the shards"
        );
    }
}

#[test]
fn every_shipped_game_and_the_example_merge_exactly() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Every spec in experiments/, however many there are, and the example's.
    let mut specs: Vec<String> = fs::read_dir("experiments")
        .expect("experiments/")
        .map(|entry| entry.expect("entry").path().display().to_string())
        .filter(|path| path.ends_with(".toml"))
        .collect();
    specs.sort();
    assert!(!specs.is_empty(), "no spec in experiments/");
    let mut cases: Vec<(Program, &str, &str)> = specs
        .iter()
        .map(|spec| (experiment as Program, spec.as_str(), "300"))
        .collect();
    cases.push((gamblers_ruin, "examples/gamblers_ruin.toml", "500"));
    for (program, spec, trials) in cases {
        let stem = Path::new(spec).file_stem().unwrap().to_string_lossy();
        let args = ["--trials", trials];
        let local = dir.path().join(format!("{stem}-local"));
        run(program, spec, &local, &args);
        let shards = dir.path().join(format!("{stem}-shards"));
        run_shards(program, spec, &shards, 3, &args);
        let merged = dir.path().join(format!("{stem}-merged"));
        // Files named one by one, in any order, merge like their folder.
        let mut files: Vec<PathBuf> = (0..3)
            .rev()
            .map(|i| shards.join(format!("shard-{i}-of-3.json")))
            .collect();
        files.sort_by_key(|path| path.to_string_lossy().len());
        let inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        merge(program, &inputs, &merged);
        assert_same_tables(&local, &merged);
    }
}

/// Three shards of a small War run in `folder`, with `seed`.
fn three_shards(folder: &Path, seed: &str) {
    run_shards(
        experiment,
        "experiments/war_placement.toml",
        folder,
        3,
        &["--trials", "300", "--seed", seed],
    );
}

fn merge_fails(inputs: &[&Path], out: &Path, message: &str) {
    experiment()
        .arg("merge")
        .args(inputs)
        .arg("--out")
        .arg(out)
        .assert()
        .failure()
        .stderr(predicate::str::contains(message));
    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

#[test]
fn a_missing_a_duplicated_or_a_foreign_shard_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shards = dir.path().join("shards");
    three_shards(&shards, "1");
    let out = dir.path().join("merged");
    let [first, second, third] = [0, 1, 2].map(|i| shards.join(format!("shard-{i}-of-3.json")));

    merge_fails(&[&first, &third], &out, "1 of 3 shards missing: shard 1");
    let copy = dir.path().join("copy.json");
    fs::copy(&second, &copy).expect("copy");
    merge_fails(
        &[&first, &second, &copy, &third],
        &out,
        "duplicated shards: shard 1 is in",
    );
    let other = dir.path().join("other-seed");
    three_shards(&other, "2");
    merge_fails(
        &[&first, &other.join("shard-1-of-3.json"), &third],
        &out,
        "the seed is 1 in",
    );
    let four = dir.path().join("four");
    run(
        experiment,
        "experiments/war_placement.toml",
        &four,
        &["--trials", "300", "--seed", "1", "--shard", "1/4"],
    );
    merge_fails(
        &[&first, &four.join("shard-1-of-4.json"), &third],
        &out,
        "is one of 3 shards but",
    );
    let not_ours = dir.path().join("notes.json");
    fs::write(&not_ours, "{\"a\": 1}").expect("write");
    merge_fails(&[&not_ours], &out, "is not a summaries file");
    merge_fails(&[dir.path()], &out, "holds no shard files");
}

#[test]
fn a_shard_that_is_not_index_of_count_is_refused_with_the_form_to_use() {
    for shard in ["3/3", "x", "1/0", "2/-1"] {
        experiment()
            .args(["run", "experiments/war_placement.toml", "--shard", shard])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("INDEX/COUNT"));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    experiment()
        .args(["run", "experiments/war_placement.toml", "--trials", "2"])
        .args(["--shard", "0/3", "--out"])
        .arg(dir.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot be split into 3 shards"));
}

#[test]
fn slurm_writes_an_array_job_of_shards_and_a_merge_job_that_waits_for_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("war");
    experiment()
        .args(["slurm", "experiments/war_placement.toml", "--shards", "8"])
        .args([
            "--partition",
            "short",
            "--time",
            "00:30:00",
            "--cpus-per-task",
            "4",
        ])
        .args(["--trials", "1000", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("--dependency=afterok:"));
    let folder = dir.path().join("war.slurm");
    let array = fs::read_to_string(folder.join("shards.sbatch")).expect("array script");
    for line in [
        "#SBATCH --array=0-7",
        "#SBATCH --partition=short",
        "#SBATCH --time=00:30:00",
        "#SBATCH --cpus-per-task=4",
        "--shard \"$shard\"",
        "shard=\"$SLURM_ARRAY_TASK_ID/8\"",
        "--threads \"${SLURM_CPUS_PER_TASK:-1}\"",
        "--trials 1000",
    ] {
        assert!(array.contains(line), "no {line} in:\n{array}");
    }
    let merge = fs::read_to_string(folder.join("merge.sbatch")).expect("merge script");
    assert!(merge.contains(" merge "), "{merge}");
    assert!(merge.contains(&out.display().to_string()), "{merge}");
    assert!(!merge.contains("--array"), "{merge}");
    // Both scripts are valid bash.
    for script in ["shards.sbatch", "merge.sbatch"] {
        let status = std::process::Command::new("bash")
            .arg("-n")
            .arg(folder.join(script))
            .status()
            .expect("bash");
        assert!(status.success(), "{script} is not valid bash");
    }
}
