//! Every command applies the command line to an experiment the same way: `run`, `run
//! --shard`, `slurm` (whose job scripts repeat the overrides), `merge` (which reads them back
//! from the shards) and `scale` take the same `--trials`, `--seed` and `--variant`, refuse the
//! same unknown variant with the same message, and write into the same default folders under
//! `results/`.

use crate::common::manifest;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::runs::tables;
use crate::common::{experiment, names};

const SPEC: &str = "experiments/war_placement.toml";
/// Overrides that change all three: trials, seed and (out of spec order) two variants.
const OVERRIDES: [&str; 8] = [
    "--trials",
    "30",
    "--seed",
    "11",
    "--variant",
    "low_first",
    "--variant",
    "random",
];

fn spec() -> PathBuf {
    Path::new(SPEC).canonicalize().expect("the shipped spec")
}

/// What a manifest says was run: seed, trials per variant and variants.
fn what_ran(folder: &Path) -> (u64, u64, Vec<String>) {
    let manifest = manifest(folder);
    let variants = manifest["variants"]
        .as_array()
        .expect("variants")
        .iter()
        .map(|v| v.as_str().expect("a name").to_string())
        .collect();
    (
        manifest["seed"].as_u64().expect("seed"),
        manifest["trials_per_variant"].as_u64().expect("trials"),
        variants,
    )
}

/// The words after `--quiet` on the `exec` line of a shard job script: the overrides it
/// repeats, before `"${resume[@]}"`.
fn repeated_overrides(script: &str) -> Vec<String> {
    let line = script
        .lines()
        .find(|line| line.starts_with("exec "))
        .expect("an exec line");
    let (_, rest) = line.split_once(" --quiet ").expect("--quiet");
    let (words, _) = rest
        .split_once("\"${resume[@]}\"")
        .expect("the resume words");
    // The overrides here are plain words, which the script writes unquoted.
    words.split_whitespace().map(str::to_string).collect()
}

#[test]
fn run_slurm_shards_and_merge_apply_the_same_overrides() {
    let dir = tempfile::tempdir().expect("temp dir");
    let direct = dir.path().join("direct");
    experiment()
        .args(["run", SPEC, "--quiet"])
        .args(OVERRIDES)
        .arg("--out")
        .arg(&direct)
        .assert()
        .success();
    // Spec order, whatever the order given.
    let expected = (11, 30, vec!["random".to_string(), "low_first".to_string()]);
    assert_eq!(what_ran(&direct), expected);

    // The shard job script repeats the overrides; the shards it would run, merged, are the
    // direct run.
    let merged = dir.path().join("merged");
    experiment()
        .args(["slurm", SPEC, "--shards", "2"])
        .args(OVERRIDES)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    let script = fs::read_to_string(dir.path().join("merged.slurm/shards.sbatch")).expect("script");
    let words = repeated_overrides(&script);
    assert_eq!(
        words,
        [
            "--trials",
            "30",
            "--seed",
            "11",
            "--variant=random",
            "--variant=low_first"
        ]
    );
    let shards = dir.path().join("shards");
    for index in 0..2 {
        experiment()
            .args(["run", SPEC, "--quiet", "--shard", &format!("{index}/2")])
            .args(&words)
            .arg("--out")
            .arg(&shards)
            .assert()
            .success();
    }
    experiment()
        .arg("merge")
        .arg(&shards)
        .args(["--quiet", "--out"])
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(what_ran(&merged), expected);
    assert_eq!(tables(&merged), tables(&direct));
}

#[test]
fn an_unknown_variant_is_refused_alike_by_every_command_that_takes_variants() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let message = "war_placement.toml: no variant named 'nope' (expected one of: winner_first, \
                   loser_first, random, high_first, low_first, player1_first)";
    let commands: [&[&str]; 3] = [
        &["run", SPEC, "--variant", "nope"],
        &["run", SPEC, "--variant", "nope", "--shard", "0/2"],
        &["slurm", SPEC, "--shards", "2", "--variant", "nope"],
    ];
    for args in commands {
        let refused = experiment()
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .failure();
        let stderr = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(
        names(dir.path()).is_empty(),
        "a refused command wrote files"
    );
}

#[test]
fn every_command_writes_into_its_default_folder_under_results() {
    let dir = tempfile::tempdir().expect("temp dir");
    let results = dir.path().join("results");
    let spec = spec();
    let run = |args: &[&str]| {
        experiment()
            .current_dir(dir.path())
            .args(args)
            .assert()
            .success()
    };
    let spec_arg = spec.to_str().expect("UTF-8 path");
    let shard = run(&[
        "run", spec_arg, "--quiet", "--trials", "20", "--shard", "0/1",
    ]);
    let told = String::from_utf8_lossy(&shard.get_output().stderr).to_string();
    assert!(
        told.contains("experiment merge results/war_placement-shards --out results/war_placement"),
        "{told}"
    );
    assert_eq!(
        names(&results.join("war_placement-shards")),
        ["shard-0-of-1.json"]
    );
    run(&["merge", "results/war_placement-shards", "--quiet"]);
    assert_eq!(what_ran(&results.join("war_placement")).1, 20);
    // A run replaces the merged results it can prove this engine wrote.
    run(&["run", spec_arg, "--quiet", "--trials", "25"]);
    assert_eq!(what_ran(&results.join("war_placement")).1, 25);
    run(&[
        "scale",
        spec_arg,
        "--quiet",
        "--trials-list",
        "5",
        "--repeats",
        "1",
    ]);
    assert!(results.join("war_placement-scale/manifest.json").exists());
    run(&["slurm", spec_arg, "--shards", "2"]);
    let merge_script =
        fs::read_to_string(results.join("war_placement.slurm/merge.sbatch")).expect("script");
    let out = dir
        .path()
        .canonicalize()
        .expect("temp dir")
        .join("results/war_placement");
    assert!(
        merge_script.contains(&format!("--out {}", out.display())),
        "{merge_script}"
    );
    assert_eq!(
        names(&results),
        [
            "war_placement",
            "war_placement-scale",
            "war_placement-shards",
            "war_placement.slurm"
        ]
    );
}
