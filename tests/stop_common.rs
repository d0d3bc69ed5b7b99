//! Precision targets (`[stop]`) in the common design: the variants play every stage together
//! and stop together once every variant's interval meets the target, so they stay paired; the
//! tables equal a fixed common run of the trials taken, paired comparisons included, also
//! after an interrupted run is resumed; the manifest and the HTML page state the rule and the
//! trials taken as report.md does.

use std::fs;
use std::path::Path;

use experiment_engine::studies::stop::{GUARANTEED_COLUMN, STOPPED_COLUMN};

use crate::common::runs::{
    checkpoint_of, interrupt_at_first_checkpoint, quiet_run_args, run_quietly, write,
};
use crate::common::{experiment, gamblers_ruin, header_and_rows, numbers, read_csv};

/// Two War placements in the common design, with the `[stop]` lines `stop`.
fn war_spec(stop: &str) -> String {
    format!(
        "version = 1\nname = \"war_stop_common\"\ngame = \"war\"\nseed = 11\ntrials = 150\n\
         [params]\nmax_turns = 3000\n[sweep]\nplacement = [\"high_first\", \"random\"]\n\
         [design]\nrandom_numbers = \"common\"\n{stop}"
    )
}

/// The library example's game at two win probabilities in the common design, with `stop`.
fn ruin_spec(stop: &str) -> String {
    format!(
        "version = 1\nname = \"ruin_stop_common\"\ngame = \"gamblers_ruin\"\nseed = 23\n\
         trials = 200\n[params]\nstart = 5\ntarget = 10\n[sweep]\np = [0.45, 0.5]\n\
         [design]\nrandom_numbers = \"common\"\n{stop}"
    )
}

/// A relative target on War's mean game length that takes a few stages of 150 games.
const WAR_STOP: &str = "[stop]\nmetric = \"mean_turns\"\nrelative_half_width = 0.06\n\
                        max_trials = 30_000\n";
/// The relative half-width [`WAR_STOP`] asks for.
const WAR_TARGET: f64 = 0.06;

/// The summary table's trial counts and `stopped` column, row by row.
fn stops(folder: &Path, unit: &str) -> Vec<(u64, String)> {
    let (header, rows) = header_and_rows(&folder.join("summary.csv"));
    let at = header.iter().position(|c| c == unit).expect("trial count");
    assert_eq!(header[at + 1], "stopped", "{header:?}");
    rows.iter()
        .map(|row| (row[at].parse().expect("a count"), row[at + 1].clone()))
        .collect()
}

/// `summary.csv` of `folder` as text, without its `stopped` and `guaranteed` columns.
fn summary_without_stopped(folder: &Path) -> String {
    let text = fs::read_to_string(folder.join("summary.csv")).expect("summary");
    let header: Vec<&str> = text.lines().next().expect("header").split(',').collect();
    let Some(at) = header.iter().position(|c| *c == "stopped") else {
        return text;
    };
    assert_eq!(header[at + 1], "guaranteed", "{header:?}");
    text.lines()
        .map(|line| {
            let mut cells: Vec<&str> = line.split(',').collect();
            cells.drain(at..at + 2);
            cells.join(",") + "\n"
        })
        .collect()
}

/// Asserts that `fixed` (a fixed run) holds the tables of `staged` (a run with `[stop]`):
/// the summary without the `stopped` and `guaranteed` columns, and every other table byte for
/// byte.
fn assert_same_as_fixed(staged: &Path, fixed: &Path) {
    assert_eq!(
        summary_without_stopped(staged),
        fs::read_to_string(fixed.join("summary.csv")).expect("fixed summary")
    );
    for table in ["comparisons.csv", "histogram.csv"] {
        assert!(
            fs::read(staged.join(table)).expect("staged")
                == fs::read(fixed.join(table)).expect("fixed"),
            "{table} differs from the fixed run's"
        );
    }
}

/// Whether each variant of the fixed run in `folder` meets War's relative target.
fn meets_war_target(folder: &Path) -> Vec<bool> {
    let frame = read_csv(&folder.join("summary.csv"));
    let (mean, lo, hi) = (
        numbers(&frame, "mean_turns"),
        numbers(&frame, "mean_turns_lo"),
        numbers(&frame, "mean_turns_hi"),
    );
    (0..mean.len())
        .map(|v| (hi[v] - lo[v]) / 2.0 <= WAR_TARGET * mean[v].abs())
        .collect()
}

#[test]
fn the_variants_of_a_common_design_stop_together_when_every_one_meets_the_target() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = write(dir.path(), "stop.toml", &war_spec(WAR_STOP));
    let staged = dir.path().join("staged");
    run_quietly(experiment, &spec, &staged, &["--threads", "2"]);
    let stopped = stops(&staged, "games");
    let trials = stopped[0].0;
    assert!(
        stopped.iter().all(|s| *s == (trials, "target".to_string())),
        "every variant stops at the same trial, on the target: {stopped:?}"
    );
    assert!(
        trials > 150 && trials.is_multiple_of(150),
        "stages of 150: {trials}"
    );
    let report = fs::read_to_string(staged.join("report.md")).expect("report");
    assert!(
        report.contains("The variants played stages of trials together")
            && report.contains("for every variant or they reached 30000 trials"),
        "{report}"
    );

    // A fixed common run of the trials taken gives the same tables.
    let fixed_spec = write(dir.path(), "fixed.toml", &war_spec(""));
    let fixed = dir.path().join("fixed");
    run_quietly(
        experiment,
        &fixed_spec,
        &fixed,
        &["--trials", &trials.to_string()],
    );
    assert_same_as_fixed(&staged, &fixed);
    assert!(meets_war_target(&fixed).iter().all(|&met| met));
    // One stage earlier some variant had not met it: the run waited for every variant.
    let earlier = dir.path().join("earlier");
    let before = (trials - 150).to_string();
    run_quietly(experiment, &fixed_spec, &earlier, &["--trials", &before]);
    assert!(
        meets_war_target(&earlier).contains(&false),
        "every variant met the target one stage earlier"
    );

    // The manifest and the page state the rule and the trials taken, as report.md does.
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(staged.join("manifest.json")).expect("manifest"))
            .expect("JSON");
    assert_eq!(manifest["trials_per_variant"], trials);
    assert_eq!(manifest["stop"]["stage_trials"], 150);
    assert_eq!(manifest["stop"]["max_trials"], 30_000);
    assert_eq!(manifest["stop"]["metric"], "mean_turns");
    assert_eq!(
        manifest["stop"]["variant_trials"],
        serde_json::json!([trials, trials])
    );
    assert_eq!(manifest["stop"]["reached"], serde_json::json!([true, true]));
    let header_line = report
        .lines()
        .find_map(|line| line.strip_prefix("- trials per variant: "))
        .expect("the header's trials line");
    assert_eq!(
        header_line,
        "until the precision target, in stages of 150, at most 30000"
    );
    let html = fs::read_to_string(staged.join("report.html")).expect("page");
    let facts = format!(
        "<dt>trials per variant</dt><dd>{header_line} (every variant played {trials})</dd>"
    );
    assert!(html.contains(&facts), "{facts} not on the page");
    assert!(
        html.contains("<dt>random numbers</dt><dd>common (every variant plays trial i"),
        "the page states the design"
    );
    assert!(html.contains(&format!("on a run of {} trials", 2 * trials)));
}

#[test]
fn a_common_precision_target_keeps_the_paired_comparisons_of_a_fixed_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stop = "[stop]\nmetric = \"ruin_rate\"\nhalf_width = 0.03\nmax_trials = 20_000\n";
    let spec = write(dir.path(), "stop.toml", &ruin_spec(stop));
    let staged = dir.path().join("staged");
    run_quietly(
        gamblers_ruin,
        &spec,
        &staged,
        &["--threads", "2", "--chunk-size", "64"],
    );
    let stopped = stops(&staged, "games");
    let trials = stopped[0].0;
    assert!(stopped.iter().all(|s| s.0 == trials), "{stopped:?}");
    assert!(trials > 200, "more than one stage: {trials}");
    let frame = read_csv(&staged.join("comparisons.csv"));
    let ratios = numbers(&frame, "variance_ratio");
    assert!(
        !ratios.is_empty() && ratios.iter().all(|r| r.is_finite() && *r > 1.0),
        "paired comparisons with a variance ratio: {ratios:?}"
    );

    let fixed_spec = write(dir.path(), "fixed.toml", &ruin_spec(""));
    let fixed = dir.path().join("fixed");
    run_quietly(
        gamblers_ruin,
        &fixed_spec,
        &fixed,
        &["--trials", &trials.to_string()],
    );
    assert_same_as_fixed(&staged, &fixed);
}

#[test]
fn an_interrupted_common_precision_target_resumes_to_the_tables_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Several hundred thousand games per variant: long enough on one thread to checkpoint.
    let stop = "[stop]\nmetric = \"mean_turns\"\nrelative_half_width = 0.002\n\
                max_trials = 2_000_000\nstage_trials = 20_000\n";
    let spec = write(dir.path(), "stop.toml", &war_spec(stop));
    let out = dir.path().join("out");
    let checkpoint = checkpoint_of(&out);
    let arguments = ["--threads", "1", "--checkpoint-every", "1"];
    let done = interrupt_at_first_checkpoint(&quiet_run_args(&spec, &out, &arguments), &out);
    // Past the first stage's end (of both variants), so the resumed run passes stages by.
    assert!(done > 2 * 20_000, "the checkpoint holds {done} trials");

    let mut resume = arguments.to_vec();
    resume.push("--resume");
    run_quietly(experiment, &spec, &out, &resume);
    assert!(
        !checkpoint.exists(),
        "a finished run removes its checkpoint"
    );
    let whole = dir.path().join("whole");
    run_quietly(experiment, &spec, &whole, &["--threads", "2"]);
    for table in ["summary.csv", "comparisons.csv", "histogram.csv"] {
        assert!(
            fs::read(out.join(table)).expect("resumed")
                == fs::read(whole.join(table)).expect("whole"),
            "{table} differs after resuming"
        );
    }
    let stopped = stops(&whole, "games");
    assert!(stopped[0].0 > 20_000, "more than one stage: {stopped:?}");
}

/// Two Twenty-One rules in the common design, with `stop`.
fn twenty_one_spec(stop: &str) -> String {
    format!(
        "version = 1\nname = \"t21_stop_common\"\ngame = \"twentyone\"\nseed = 5\ntrials = 500\n\
         [[variant]]\nname = \"stand_at-16\"\nstrategy = \"stand_at\"\nstand_at = 16\n\
         [[variant]]\nname = \"stand_at-17\"\nstrategy = \"stand_at\"\nstand_at = 17\n\
         [design]\nrandom_numbers = \"common\"\n{stop}"
    )
}

/// Every table of a study's output as CSV text, by name.
fn csv_tables(output: &mut experiment_engine::report::StudyOutput) -> Vec<(String, String)> {
    use polars::prelude::{CsvWriter, SerWriter};
    output
        .tables
        .iter_mut()
        .map(|table| {
            let mut bytes = Vec::new();
            CsvWriter::new(&mut bytes)
                .include_header(true)
                .finish(&mut table.frame)
                .expect("CSV");
            (table.name.clone(), String::from_utf8(bytes).expect("UTF-8"))
        })
        .collect()
}

#[test]
fn without_a_ledger_the_stages_of_a_common_target_merge_into_a_fixed_common_run() {
    use experiment_engine::runner::{Runner, RunnerSettings};

    let dir = tempfile::tempdir().expect("tempdir");
    let stop = "[stop]\nmetric = \"win_rate\"\nhalf_width = 0.02\nmax_trials = 100_000\n";
    let staged_path = write(dir.path(), "staged.toml", &twenty_one_spec(stop));
    let fixed_path = write(dir.path(), "fixed.toml", &twenty_one_spec(""));
    let registry = experiment::registry();
    let runner = || {
        Runner::new(RunnerSettings {
            threads: 2,
            chunk_size: 64,
            show_progress: false,
        })
        .expect("a pool")
    };
    // A runner without a ledger plays each stage's new trials only, and merges them.
    let (study, staged_spec) = registry.load(&staged_path).expect("the spec loads");
    let staged_runner = runner();
    let mut staged = study.run(&staged_spec, &staged_runner).expect("the run");
    let stops = staged.decisions.stops().to_vec();
    let trials = stops[0].trials;
    assert!(
        trials > 500 && stops.iter().all(|s| s.trials == trials && s.reached),
        "{stops:?}"
    );
    let (study, mut fixed_spec) = registry.load(&fixed_path).expect("the spec loads");
    fixed_spec.trials = trials;
    let mut fixed = study.run(&fixed_spec, &runner()).expect("the run");
    // The staged run's summary table is built with where its variants stopped; the rest of it
    // is the fixed run's.
    let summary = staged
        .tables
        .iter_mut()
        .find(|t| t.name == "summary")
        .expect("a summary table");
    for (column, word) in [(STOPPED_COLUMN, "target"), (GUARANTEED_COLUMN, "yes")] {
        let dropped = summary.frame.drop_in_place(column).expect(column);
        let words = dropped.str().expect("text");
        let words: Vec<Option<&str>> = (0..words.len()).map(|i| words.get(i)).collect();
        assert_eq!(words, [Some(word), Some(word)], "{column}");
    }
    let (staged, fixed) = (csv_tables(&mut staged), csv_tables(&mut fixed));
    assert!(staged
        .iter()
        .any(|(name, table)| name == "comparisons" && table.contains("McNemar")));
    assert_eq!(staged, fixed);
}
