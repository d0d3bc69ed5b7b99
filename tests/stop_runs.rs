//! Precision targets through the binary: the `stopped` column beside the trial count, each
//! variant's row equal to a fixed run of its trials, the report's section, the flags, and the
//! refusals (shards, Slurm, wrong keys and metrics), each naming the file and line or flag.

use std::path::Path;

use crate::common::experiment;
use crate::common::runs::{
    interrupt_at_first_checkpoint, quiet_run_args, quiet_run_on_two_threads, stderr_text,
};

/// A War spec with two variants and the `[stop]` lines `stop`.
fn spec(dir: &Path, stop: &str) -> std::path::PathBuf {
    let path = dir.join("stop.toml");
    let text = format!(
        "version = 1\nname = \"war_stop\"\ngame = \"war\"\nseed = 11\ntrials = 150\n\
         [params]\nmax_turns = 3000\n[sweep]\nplacement = [\"high_first\", \"random\"]\n{stop}"
    );
    std::fs::write(&path, text).expect("spec written");
    path
}

const STOP: &str = "[stop]\nmetric = \"mean_turns\"\nrelative_half_width = 0.06\n\
                    max_trials = 30_000\n";

/// The CSV's lines split into cells.
fn cells(path: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .expect("a CSV")
        .lines()
        .map(|line| line.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn each_row_equals_a_fixed_run_of_the_trials_it_took() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = spec(dir.path(), STOP);
    let out = dir.path().join("adaptive");
    let output =
        quiet_run_on_two_threads(&[spec.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr_text(&output));
    let table = cells(&out.join("summary.csv"));
    let games = table[0].iter().position(|c| c == "games").expect("games");
    assert_eq!(table[0][games + 1], "stopped", "{:?}", table[0]);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("## Precision targets"), "{report}");
    for row in &table[1..] {
        assert_eq!(row[games + 1], "target", "{row:?}");
        let trials: u64 = row[games].parse().expect("a count");
        assert_eq!(trials % 150, 0, "stages of 150 trials: {row:?}");
        // The same variant alone, fixed at that many trials, without [stop].
        let fixed_dir = dir.path().join(format!("fixed-{}", row[0]));
        std::fs::create_dir_all(&fixed_dir).expect("dir");
        let fixed_spec = self::spec(&fixed_dir, "");
        let fixed_out = fixed_dir.join("out");
        let output = quiet_run_on_two_threads(&[
            fixed_spec.to_str().unwrap(),
            "--trials",
            &trials.to_string(),
            "--variant",
            &row[0],
            "--out",
            fixed_out.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", stderr_text(&output));
        let fixed = cells(&fixed_out.join("summary.csv"));
        assert!(!fixed[0].iter().any(|c| c == "stopped"), "{:?}", fixed[0]);
        let mut without = row.clone();
        without.drain(games + 1..games + 3);
        assert_eq!(fixed[1], without, "variant {}", row[0]);
    }
    // The two placements need different numbers of games.
    assert_ne!(table[1][games], table[2][games], "{table:?}");
}

#[test]
fn the_flags_set_a_target_and_a_cap_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = spec(dir.path(), "");
    let out = dir.path().join("capped");
    let output = quiet_run_on_two_threads(&[
        spec.to_str().unwrap(),
        "--stop-metric",
        "mean_turns",
        "--half-width",
        "0.01",
        "--max-trials",
        "300",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr_text(&output));
    let table = cells(&out.join("summary.csv"));
    let stopped = table[0]
        .iter()
        .position(|c| c == "stopped")
        .expect("stopped");
    for row in &table[1..] {
        assert_eq!(
            (row[stopped - 1].as_str(), row[stopped].as_str()),
            ("300", "cap")
        );
    }

    let output = quiet_run_on_two_threads(&[spec.to_str().unwrap(), "--stop-metric", "mean_turns"]);
    assert!(!output.status.success());
    assert!(
        stderr_text(&output)
            .contains("needs --half-width or --relative-half-width and --max-trials"),
        "{}",
        stderr_text(&output)
    );
    let output = quiet_run_on_two_threads(&[
        spec.to_str().unwrap(),
        "--stop-metric",
        "nope",
        "--half-width",
        "1",
        "--max-trials",
        "10",
        "--out",
        dir.path().join("nope").to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    let message = stderr_text(&output);
    assert!(
        message.contains("--stop-metric: [stop] metric 'nope' is not a metric")
            && message.contains("mean_turns"),
        "{message}"
    );
}

#[test]
fn shards_and_slurm_are_refused_naming_stop() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = spec(dir.path(), STOP);
    let output = quiet_run_on_two_threads(&[spec.to_str().unwrap(), "--shard", "0/2"]);
    assert!(!output.status.success());
    assert!(
        stderr_text(&output)
            .contains("a spec with [stop] (or --stop-metric) cannot be split into shards"),
        "{}",
        stderr_text(&output)
    );
    let output = experiment()
        .args(["slurm", spec.to_str().unwrap(), "--shards", "2", "--out"])
        .arg(dir.path().join("slurm"))
        .output()
        .expect("the binary runs");
    assert!(!output.status.success());
    assert!(
        stderr_text(&output).contains("[stop]"),
        "{}",
        stderr_text(&output)
    );
}

#[test]
fn stop_tables_with_mistakes_are_refused_at_their_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        (
            "[stop]\nmetric = \"mean_turns\"\nhalf_width = 1\nrelative_half_width = 0.1\n\
             max_trials = 10\n",
            "stop.toml:13: [stop] sets both half_width and relative_half_width",
        ),
        (
            "[stop]\nmetric = \"mean_turns\"\nhalf_width = 1\n",
            "stop.toml:10: [stop] needs max_trials",
        ),
        (
            "[stop]\nmetric = \"mean_turns\"\nhalf_width = -1\nmax_trials = 10\n",
            "stop.toml:12: half_width = -1 must be a number above 0",
        ),
        (
            "[stop]\nmetric = \"mean_turns\"\nhalf_width = 1\nmax_trials = 10\n\
             stage_trials = 20\n",
            "stop.toml:14: stage_trials = 20 is more than max_trials = 10",
        ),
        (
            "[stop]\nmetric = \"mean_turns\"\nhalf_width = 1\nmax_trials = 10\nsteps = 2\n",
            "unknown field `steps`",
        ),
    ];
    for (stop, expected) in cases {
        let spec = spec(dir.path(), stop);
        let output = experiment()
            .arg("validate")
            .arg(&spec)
            .output()
            .expect("runs");
        assert!(!output.status.success(), "{stop}");
        assert!(
            stderr_text(&output).contains(expected),
            "{}",
            stderr_text(&output)
        );
    }
    let spec = spec(
        dir.path(),
        "[stop]\nmetric = \"turns\"\nhalf_width = 1\nmax_trials = 10\n",
    );
    let output = quiet_run_on_two_threads(&[
        spec.to_str().unwrap(),
        "--out",
        dir.path().join("x").to_str().unwrap(),
    ]);
    let message = stderr_text(&output);
    assert!(
        message.contains("stop.toml:11: [stop] metric 'turns' is not a metric of this game with")
            && message.contains("expected one of: p1_win_rate"),
        "{message}"
    );
}

#[test]
fn flags_override_the_keys_of_the_spec() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = spec(dir.path(), STOP);
    let out = dir.path().join("overridden");
    // An absolute half-width no variant can reach in 300 games replaces the relative one.
    let output = quiet_run_on_two_threads(&[
        spec.to_str().unwrap(),
        "--half-width",
        "0.01",
        "--max-trials",
        "300",
        "--stage-trials",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr_text(&output));
    let table = cells(&out.join("summary.csv"));
    let stopped = table[0]
        .iter()
        .position(|c| c == "stopped")
        .expect("stopped");
    assert!(table[1..]
        .iter()
        .all(|row| row[stopped - 1] == "300" && row[stopped] == "cap"));
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains(
            "--stop-metric mean_turns --half-width 0.01 --max-trials 300 --stage-trials 100"
        ),
        "{report}"
    );
}

/// A `[stop]` run resumed with another metric, half-width, cap or stage size is refused with
/// each setting that differs (the checkpoint's value and this run's) and how to go on, never
/// with a changed spec digest or trials per variant it did not ask for.
#[test]
fn resuming_with_other_stop_settings_names_each_setting_that_differs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let slow = "[stop]\nmetric = \"mean_turns\"\nrelative_half_width = 0.0005\n\
                max_trials = 50_000_000\nstage_trials = 20_000\n";
    let spec = spec(dir.path(), slow);
    let out = dir.path().join("out");
    let arguments = ["--threads", "1", "--checkpoint-every", "1"];
    interrupt_at_first_checkpoint(&quiet_run_args(&spec, &out, &arguments), &out);
    let cases: [(&[&str], &str); 4] = [
        (
            &["--relative-half-width", "0.001"],
            "[stop] relative_half_width is 0.0005 in the checkpoint but 0.001 in this run",
        ),
        (
            &["--max-trials", "60000000"],
            "[stop] max_trials is 50000000 in the checkpoint but 60000000 in this run",
        ),
        (
            &["--stage-trials", "10000"],
            "[stop] stage_trials is 20000 in the checkpoint but 10000 in this run",
        ),
        (
            &["--stop-metric", "mean_wars"],
            "[stop] metric is \"mean_turns\" in the checkpoint but \"mean_wars\" in this run",
        ),
    ];
    for (flags, message) in cases {
        let mut args = quiet_run_args(&spec, &out, &arguments);
        args.extend(flags.iter().map(|flag| flag.to_string()));
        args.push("--resume".into());
        let output = experiment().args(&args).output().expect("runs");
        let said = stderr_text(&output);
        assert_eq!(output.status.code(), Some(1), "{said}");
        assert!(said.contains(message), "{said}");
        assert!(
            said.contains("give the interrupted run's [stop] or [select] settings"),
            "{said}"
        );
        assert!(!said.contains("SHA-256"), "{said}");
        assert!(!said.contains("the trials per variant"), "{said}");
        assert!(!said.contains("the spec's text differs"), "{said}");
    }
    assert!(!out.exists());
}

/// Stages of 2 games on a rare count (`mean_double_wars`): a variant whose first two games
/// have no double war has a variance estimate of 0 and an interval of no width, which meets
/// any half-width. The run says the target's guarantee does not hold for it, in the summary's
/// `guaranteed` column, the report and the manifest; a variant that met the target on an
/// interval of positive width keeps `guaranteed = yes`.
#[test]
fn a_target_met_on_a_zero_variance_estimate_is_said_not_to_be_guaranteed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tiny = "[stop]\nmetric = \"mean_double_wars\"\nhalf_width = 0.5\nmax_trials = 1_000\n\
                stage_trials = 2\n";
    let spec = spec(dir.path(), tiny);
    // Seed 2: one placement's first two games have no double war, the other's do.
    let text = std::fs::read_to_string(&spec).expect("spec");
    std::fs::write(&spec, text.replace("seed = 11", "seed = 2")).expect("spec written");
    let out = dir.path().join("out");
    let output =
        quiet_run_on_two_threads(&[spec.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr_text(&output));
    let table = cells(&out.join("summary.csv"));
    let column = |name: &str| table[0].iter().position(|c| c == name).expect(name);
    let (games, stopped, guaranteed) = (column("games"), column("stopped"), column("guaranteed"));
    assert_eq!(guaranteed, stopped + 1, "{:?}", table[0]);
    let (lo, hi) = (column("mean_double_wars_lo"), column("mean_double_wars_hi"));
    let mut degenerate = Vec::new();
    for row in &table[1..] {
        // No width: the interval's ends are equal.
        let flat = row[lo] == row[hi];
        let expected = if row[stopped] == "target" && !flat {
            "yes"
        } else {
            "no"
        };
        assert_eq!(row[guaranteed], expected, "{row:?}");
        if row[stopped] == "target" && flat {
            degenerate.push(row[0].clone());
            assert_eq!(row[games], "2", "it stopped after the first stage: {row:?}");
        }
    }
    assert_eq!(
        degenerate.len(),
        1,
        "one variant stopped on a zero variance: {table:?}"
    );
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains(&format!(
            "**The target's guarantee does not hold** for {} (guaranteed = no)",
            degenerate.join(", ")
        )),
        "{report}"
    );
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("manifest.json")).expect("manifest"),
    )
    .expect("JSON");
    let held: Vec<bool> = manifest["stop"]["guaranteed"]
        .as_array()
        .expect("stop.guaranteed")
        .iter()
        .map(|v| v.as_bool().expect("a truth"))
        .collect();
    let expected: Vec<bool> = table[1..]
        .iter()
        .map(|row| row[guaranteed] == "yes")
        .collect();
    assert_eq!(held, expected);
}
