//! Chutes & Ladders in the common design (`[design] random_numbers = "common"`): every way of
//! playing a run (threads and chunk sizes, shards and `experiment merge`, a checkpoint
//! resumed, a run interrupted and resumed, a top-up) gives the tables and report of one
//! uninterrupted run byte for byte; and the report says, per compared pair of pairings, how
//! much more precise the common dice made the comparison, which an independent run's never
//! says.

mod common;

use std::fs;
use std::path::Path;

use common::runs::{
    assert_same_files, checkpoint_of, interrupt_at_first_checkpoint, merge_quietly, quiet_run_args,
    run_quietly, shard_as_checkpoint, tables, write,
};
use common::{experiment, numbers, read_csv, report_without_reproduce, texts};

/// Two tournaments (two cube caps) of four pairings each, in the design `design`.
fn spec(design: &str, trials: u64) -> String {
    format!(
        "version = 1\nname = \"chutes_common\"\ngame = \"chutes\"\nseed = 29\ntrials = {trials}\n\
         [params]\ntake_at = 0.25\ndouble_at = 0.6\n[sweep]\nfirst = [\"never\", \"threshold\"]\n\
         second = [\"always\", \"threshold\"]\nmax_cube = [16, 64]\n[design]\n\
         random_numbers = \"{design}\"\n"
    )
}

/// Runs `spec` into `out` with `args`, returning stderr; the run must succeed.
fn run(spec: &Path, out: &Path, args: &[&str]) -> String {
    run_quietly(experiment, spec, out, args)
}

/// Every CSV and Parquet table of `folder` with its bytes, and report.md without its
/// `- reproduce:` line (which names the folder and the run's arguments).
fn contents(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = tables(folder);
    assert!(found.len() > 4, "too few tables in {}", folder.display());
    let report = report_without_reproduce(&folder.join("report.md"));
    found.push(("report.md".into(), report.into_bytes()));
    found
}

fn assert_same(expected: &Path, actual: &Path, what: &str) {
    assert_same_files(&contents(expected), &contents(actual), what);
}

#[test]
fn a_common_chutes_run_gives_the_same_tables_every_way_it_is_played() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write(dir.path(), "spec.toml", &spec("common", 3000));
    let reference = dir.path().join("reference");
    run(&spec, &reference, &["--threads", "1"]);

    let threads = dir.path().join("threads");
    run(&spec, &threads, &["--threads", "2"]);
    assert_same(&reference, &threads, "2 threads");
    let chunks = dir.path().join("chunks");
    run(&spec, &chunks, &["--threads", "2", "--chunk-size", "37"]);
    assert_same(&reference, &chunks, "chunks of 37");

    // Three shards on different threads, merged.
    let shards = dir.path().join("shards");
    for (index, threads) in [("0/3", "1"), ("1/3", "2"), ("2/3", "2")] {
        run(&spec, &shards, &["--shard", index, "--threads", threads]);
    }
    let shard_file = fs::read_to_string(shards.join("shard-0-of-3.json")).expect("shard");
    assert!(shard_file.contains("\"design\":\"common\""), "{shard_file}");
    let merged = dir.path().join("merged");
    merge_quietly(experiment, &shards, &merged);
    assert_same(&reference, &merged, "3 shards merged");

    // A checkpoint holding the first shard's trials (the file a run of all the trials saves
    // when stopped there), finished with --resume.
    let resumed = dir.path().join("resumed");
    let checkpoint = shard_as_checkpoint(&shard_file, 3);
    fs::write(dir.path().join("resumed.checkpoint.json"), checkpoint).expect("checkpoint");
    run(&spec, &resumed, &["--resume", "--threads", "2"]);
    assert!(!dir.path().join("resumed.checkpoint.json").exists());
    assert_same(&reference, &resumed, "resumed from a checkpoint");

    // A top-up: a third of the trials, then all of them into the same folder.
    let topped = dir.path().join("topped");
    run(&spec, &topped, &["--trials", "1000"]);
    let said = run(&spec, &topped, &["--threads", "2"]);
    assert!(said.contains("Top-up: reusing 1,000 trials"), "{said}");
    assert_same(&reference, &topped, "topped up");
}

#[test]
fn a_common_chutes_run_interrupted_and_resumed_equals_an_uninterrupted_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Long enough on one thread that a checkpoint is saved well before the end.
    let spec = write(dir.path(), "spec.toml", &spec("common", 800_000));
    let out = dir.path().join("out");
    let checkpoint = checkpoint_of(&out);
    let arguments = ["--threads", "1", "--checkpoint-every", "1"];
    interrupt_at_first_checkpoint(&quiet_run_args(&spec, &out, &arguments), &out);

    let mut resume = arguments.to_vec();
    resume.push("--resume");
    run(&spec, &out, &resume);
    assert!(
        !checkpoint.exists(),
        "a finished run removes its checkpoint"
    );
    let whole = dir.path().join("whole");
    run(&spec, &whole, &["--threads", "2"]);
    assert_same(&whole, &out, "interrupted and resumed");
}

#[test]
fn the_report_says_how_much_more_precise_the_common_dice_made_each_comparison() {
    let dir = tempfile::tempdir().expect("temp dir");
    let common_spec = write(dir.path(), "common.toml", &spec("common", 4000));
    let common = dir.path().join("common");
    run(&common_spec, &common, &["--threads", "2"]);
    let report = fs::read_to_string(common.join("report.md")).expect("report");

    // The pairs compared on the same dice, with their variance ratios.
    let frame = read_csv(&common.join("comparisons.csv"));
    let families = texts(&frame, "family");
    let ratios = numbers(&frame, "variance_ratio");
    let (a, b) = (texts(&frame, "a"), texts(&frame, "b"));
    let paired: Vec<usize> = (0..families.len())
        .filter(|&row| families[row] == "pairing_points")
        .collect();
    // Per tournament, two pairs differ in the first player's strategy, two in the second's.
    assert_eq!(paired.len(), 8, "{families:?}");
    assert!(report.contains("### pairing_points"), "{report}");
    for &row in &paired {
        let ratio = ratios[row];
        assert!(ratio.is_finite() && ratio > 0.0, "row {row}: {ratio}");
        let words = experiment::analysis::paired::precision_words(ratio).expect("words");
        let sentence = format!("{} − {}: ", a[row], b[row]);
        let line = report
            .lines()
            .find(|line| line.contains(&sentence) && line.contains(&words))
            .unwrap_or_else(|| panic!("no sentence for {sentence}{words} in\n{report}"));
        assert!(line.starts_with("- "), "one item per pair: {line}");
    }
    assert!(report.contains("times more precise: an independent design would need"));

    // A strategy's average over correlated pairings has no interval from the kept sums: the
    // averages are given without one, and the report says why.
    let strategies = read_csv(&common.join("strategies.csv"));
    let points = numbers(&strategies, "mean_payoff");
    assert!(points.iter().any(|p| p.is_finite()), "{points:?}");
    for column in ["mean_payoff_lo", "mean_payoff_hi", "mean_payoff_first_lo"] {
        let bounds = numbers(&strategies, column);
        assert!(bounds.iter().all(|b| b.is_nan()), "{column}: {bounds:?}");
    }
    assert!(report.contains("shown without intervals"), "{report}");
    assert!(
        report.contains("| strategy | opponents | average payoff | as player 1 |"),
        "no interval promised in the header: {report}"
    );
    assert!(
        report.contains("In this common design the comparisons of strategies' averages"),
        "{report}"
    );
    assert!(!report.contains("Welch–Satterthwaite"), "{report}");

    // An independent run of the same spec says nothing of it.
    let independent_spec = write(dir.path(), "independent.toml", &spec("independent", 4000));
    let independent = dir.path().join("independent");
    run(&independent_spec, &independent, &["--threads", "2"]);
    let report = fs::read_to_string(independent.join("report.md")).expect("report");
    assert!(report.contains("Welch–Satterthwaite"), "{report}");
    let strategies = read_csv(&independent.join("strategies.csv"));
    let bounds = numbers(&strategies, "mean_payoff_lo");
    assert!(bounds.iter().any(|b| b.is_finite()), "{bounds:?}");
    for absent in [
        "pairing_points",
        "more precise",
        "same dice",
        "without intervals",
    ] {
        assert!(
            !report.contains(absent),
            "{absent} in an independent report"
        );
    }
}
