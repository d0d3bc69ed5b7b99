//! The common design (`[design] random_numbers = "common"`) end to end: every way of playing
//! a run (threads, chunk sizes, shards and merge, a checkpoint resumed, a top-up) gives the
//! same tables byte for byte; a variant's numbers depend only on the seed and the trial, so
//! its summary is the same in any spec that contains it; the spec's errors are located; and
//! files of the two designs never mix.

use std::fs;
use std::path::Path;

use crate::common::runs::{
    assert_same_files, merge_quietly, run_quietly, shard_as_checkpoint, tables, write, Program,
};
use crate::common::{experiment, gamblers_ruin, header_and_rows};
use predicates::prelude::*;

/// A War spec in the common design with `placements` as its variants.
fn war_spec(placements: &[&str]) -> String {
    let list: Vec<String> = placements.iter().map(|p| format!("\"{p}\"")).collect();
    format!(
        "version = 1\nname = \"war_common\"\ngame = \"war\"\nseed = 17\ntrials = 600\n\n\
         [params]\nmax_turns = 3000\n\n[sweep]\nplacement = [{}]\n\n[design]\n\
         random_numbers = \"common\"\n",
        list.join(", ")
    )
}

/// The library example's spec in the common design with `ps` as its variants.
fn ruin_spec(ps: &[&str]) -> String {
    format!(
        "version = 1\nname = \"ruin_common\"\ngame = \"gamblers_ruin\"\nseed = 23\n\
         trials = 900\n\n[params]\nstart = 5\ntarget = 10\n\n[sweep]\np = [{}]\n\n\
         [design]\nrandom_numbers = \"common\"\n",
        ps.join(", ")
    )
}

fn assert_same_tables(expected: &Path, actual: &Path, what: &str) {
    assert_same_files(&tables(expected), &tables(actual), what);
}

/// The same run played every way the engine can play it gives the same tables.
fn every_way_gives_the_same_tables(program: Program, spec_text: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write(dir.path(), "spec.toml", spec_text);
    let reference = dir.path().join("reference");
    run_quietly(program, &spec, &reference, &["--threads", "1"]);
    let report = fs::read_to_string(reference.join("report.md")).expect("report");
    assert!(
        report.contains("- random numbers: common (every variant plays trial i"),
        "{report}"
    );
    let manifest = fs::read_to_string(reference.join("manifest.json")).expect("manifest");
    assert!(
        manifest.contains("\"random_numbers\": \"common\""),
        "{manifest}"
    );

    let threads = dir.path().join("threads");
    run_quietly(program, &spec, &threads, &["--threads", "2"]);
    assert_same_tables(&reference, &threads, "2 threads");

    let chunks = dir.path().join("chunks");
    run_quietly(
        program,
        &spec,
        &chunks,
        &["--threads", "2", "--chunk-size", "37"],
    );
    assert_same_tables(&reference, &chunks, "chunks of 37");

    // Two shards, merged.
    let shards = dir.path().join("shards");
    for (index, threads) in [("0/2", "1"), ("1/2", "2")] {
        run_quietly(
            program,
            &spec,
            &shards,
            &["--shard", index, "--threads", threads],
        );
    }
    let shard_file = fs::read_to_string(shards.join("shard-0-of-2.json")).expect("shard");
    assert!(shard_file.contains("\"design\":\"common\""), "{shard_file}");
    assert!(
        shard_file.contains("common design"),
        "one stream for the design"
    );
    let merged = dir.path().join("merged");
    merge_quietly(program, &shards, &merged);
    assert_same_tables(&reference, &merged, "2 shards merged");

    // An interrupted run: the first shard's trials as the checkpoint a run of the whole
    // trials saves (the same file, of the whole run), continued with --resume.
    let resumed = dir.path().join("resumed");
    let checkpoint = shard_as_checkpoint(&shard_file, 2);
    fs::write(dir.path().join("resumed.checkpoint.json"), checkpoint).expect("checkpoint");
    run_quietly(program, &spec, &resumed, &["--resume", "--threads", "2"]);
    assert!(!dir.path().join("resumed.checkpoint.json").exists());
    assert_same_tables(&reference, &resumed, "resumed from a checkpoint");

    // A top-up: a third of the trials first, then all of them into the same folder.
    let topped = dir.path().join("topped");
    run_quietly(program, &spec, &topped, &["--trials", "300"]);
    let said = run_quietly(program, &spec, &topped, &["--threads", "2"]);
    assert!(said.contains("Top-up: reusing 300 trials"), "{said}");
    assert_same_tables(&reference, &topped, "topped up");
}

#[test]
fn a_common_run_of_the_example_game_gives_the_same_tables_every_way_it_is_played() {
    every_way_gives_the_same_tables(gamblers_ruin, &ruin_spec(&["0.45", "0.5", "0.55"]));
}

#[test]
fn a_common_run_of_war_gives_the_same_tables_every_way_it_is_played() {
    every_way_gives_the_same_tables(experiment, &war_spec(&["winner_first", "loser_first"]));
}

/// The summary table's row of `variant` in `folder`.
fn row(folder: &Path, variant: &str) -> Vec<String> {
    let (names, rows) = header_and_rows(&folder.join("summary.csv"));
    let at = names
        .iter()
        .position(|n| n == "variant")
        .expect("variant column");
    rows.into_iter()
        .find(|row| row[at] == variant)
        .unwrap_or_else(|| panic!("no row {variant}"))
}

#[test]
fn a_variants_summary_in_a_common_design_is_the_same_in_any_spec_that_holds_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let few = write(dir.path(), "few.toml", &ruin_spec(&["0.45", "0.5"]));
    let more = write(dir.path(), "more.toml", &ruin_spec(&["0.55", "0.5", "0.4"]));
    let (a, b) = (dir.path().join("few"), dir.path().join("more"));
    run_quietly(gamblers_ruin, &few, &a, &[]);
    run_quietly(gamblers_ruin, &more, &b, &[]);
    assert_eq!(row(&a, "p-0.5"), row(&b, "p-0.5"));
    assert_ne!(row(&b, "p-0.55"), row(&b, "p-0.4"));
}

#[test]
fn war_in_a_common_design_deals_every_variant_the_same_cards_in_any_spec() {
    let dir = tempfile::tempdir().expect("temp dir");
    let two = write(
        dir.path(),
        "two.toml",
        &war_spec(&["winner_first", "random"]),
    );
    let one = write(dir.path(), "one.toml", &war_spec(&["random"]));
    let (a, b) = (dir.path().join("two"), dir.path().join("one"));
    run_quietly(experiment, &two, &a, &[]);
    run_quietly(experiment, &one, &b, &[]);
    assert_eq!(row(&a, "random"), row(&b, "random"));
}

#[test]
fn the_independent_design_is_the_default_and_is_stated_by_validate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let independent = ruin_spec(&["0.45", "0.5"]).replace("\"common\"", "\"independent\"");
    let written = write(dir.path(), "independent.toml", &independent);
    let plain = write(
        dir.path(),
        "plain.toml",
        &independent.replace("[design]\nrandom_numbers = \"independent\"\n", ""),
    );
    let common = write(dir.path(), "common.toml", &ruin_spec(&["0.45", "0.5"]));
    for (spec, said) in [
        (&written, "random numbers: independent"),
        (&plain, "random numbers: independent"),
        (&common, "random numbers: common"),
    ] {
        gamblers_ruin()
            .arg("validate")
            .arg(spec)
            .assert()
            .success()
            .stdout(predicate::str::contains(said));
    }
    // Saying the default is the default: the same tables, and the report states the design.
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    run_quietly(gamblers_ruin, &written, &a, &[]);
    run_quietly(gamblers_ruin, &plain, &b, &[]);
    assert_same_tables(&a, &b, "independent written or not");
    let report = fs::read_to_string(a.join("report.md")).expect("report");
    assert!(report.contains("- random numbers: independent"), "{report}");
}

#[test]
fn the_design_table_refuses_unknown_keys_and_values_naming_the_line_and_the_choices() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = war_spec(&["winner_first", "loser_first"]);
    let line = base.lines().count();
    for (text, said) in [
        (
            base.replace("\"common\"", "\"shared\""),
            format!(
                ":{line}: unknown random_numbers 'shared' in [design] (expected one of: \
                 independent, common)"
            ),
        ),
        (
            base.replace("\"common\"", "true"),
            format!(":{line}: random_numbers in [design] must be one of the strings"),
        ),
        (
            base.replace("random_numbers = \"common\"", "pairing = \"common\""),
            format!(":{line}: unknown key 'pairing' in [design] (expected one of: random_numbers)"),
        ),
    ] {
        let spec = write(dir.path(), "bad.toml", &text);
        experiment()
            .arg("validate")
            .arg(&spec)
            .assert()
            .failure()
            .stderr(predicate::str::contains(format!("bad.toml{said}")));
    }
}

#[test]
fn files_of_one_design_are_never_used_by_a_run_of_the_other() {
    let dir = tempfile::tempdir().expect("temp dir");
    let common_text = ruin_spec(&["0.45", "0.5"]);
    let common = write(dir.path(), "common.toml", &common_text);
    let independent = write(
        dir.path(),
        "independent.toml",
        &common_text.replace("\"common\"", "\"independent\""),
    );
    // A top-up of a common run by an independent one reuses nothing, and says why.
    let out = dir.path().join("out");
    run_quietly(gamblers_ruin, &common, &out, &["--trials", "300"]);
    let said = run_quietly(gamblers_ruin, &independent, &out, &[]);
    assert!(
        said.contains("Not a top-up")
            && said.contains(
                "the design of the random numbers is common in the folder's run but \
                 independent in this run"
            ),
        "{said}"
    );
    // Shards of the two designs are not one run.
    let shards = dir.path().join("shards");
    run_quietly(gamblers_ruin, &common, &shards, &["--shard", "0/2"]);
    run_quietly(gamblers_ruin, &independent, &shards, &["--shard", "1/2"]);
    gamblers_ruin()
        .arg("merge")
        .arg(&shards)
        .arg("--out")
        .arg(dir.path().join("merged"))
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the design of the random numbers is common in",
        ));
}
