//! Choosing the best (`[select]`) through the binary: `selection.csv` and the report's
//! "Selection" section with its guarantee, each variant's row equal to a fixed run of the
//! trials it took, an interrupted selection resumed with the same tables, and the refusals
//! (wrong keys and values on their line, shards, Slurm, `[stop]` beside it, a metric Chutes
//! does not have), each naming the file and line.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::runs::{
    checkpoint_of, interrupt_at_first_checkpoint, quiet_run_args, quiet_run_on_two_threads,
    stderr_text,
};
use crate::common::{experiment, header_and_rows};

/// A Twenty-One `stand_at` 12..21 spec in `design` with the `[select]` lines `select`.
fn spec(dir: &Path, design: &str, select: &str) -> PathBuf {
    let path = dir.join("select.toml");
    let text = format!(
        "version = 1\nname = \"select\"\ngame = \"twentyone\"\nseed = 3\ntrials = 2_000\n\
         [sweep]\nstand_at = {{ from = 12, to = 21 }}\n[design]\nrandom_numbers = \"{design}\"\n\
         {select}"
    );
    fs::write(&path, text).expect("spec written");
    path
}

const SELECT: &str = "[select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = 0.005\n\
                      max_trials = 2_000_000\n";

/// The row of `variant` in the CSV `path`, by the header's `variant` column.
fn row_of(path: &Path, variant: &str) -> Vec<String> {
    let (names, rows) = header_and_rows(path);
    let at = names.iter().position(|n| n == "variant").expect("variant");
    rows.into_iter()
        .find(|row| row[at] == variant)
        .unwrap_or_else(|| panic!("no row {variant} in {}", path.display()))
}

#[test]
fn a_selection_writes_its_table_and_guarantee_and_each_row_equals_a_fixed_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = spec(dir.path(), "independent", SELECT);
    let out = dir.path().join("out");
    let output =
        quiet_run_on_two_threads(&[spec.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr_text(&output));
    let (names, rows) = header_and_rows(&out.join("selection.csv"));
    assert_eq!(
        names,
        [
            "variant",
            "trials",
            "eliminated_at_stage",
            "selected",
            "guaranteed",
            "win_rate",
            "win_rate_lo",
            "win_rate_hi"
        ]
    );
    assert_eq!(rows.len(), 10);
    let chosen: Vec<&Vec<String>> = rows.iter().filter(|r| r[3] == "yes").collect();
    assert_eq!(chosen.len(), 1, "{rows:?}");
    assert_eq!(chosen[0][2], "", "the chosen variant was never eliminated");
    for row in &rows {
        let trials: u64 = row[1].parse().expect("a count");
        assert_eq!(trials % 2_000, 0, "stages of 2,000 trials: {row:?}");
        if row[3] == "no" {
            let stage: u64 = row[2].parse().expect("an elimination stage");
            assert_eq!(trials, stage * 2_000, "{row:?}");
        }
    }
    let report = fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("## Selection"), "{report}");
    assert!(
        report
            .contains("with probability at least 95%, its win_rate is within 0.005 of the best's"),
        "{report}"
    );
    assert!(report.contains("Rinott"), "{report}");
    let manifest = fs::read_to_string(out.join("manifest.json")).expect("manifest");
    assert!(manifest.contains("selection.csv"), "{manifest}");
    // The manifest records the rule, the choice and each variant's trials, in variant order
    // (the sweep's, stand_at 12..21), and counts trials per variant as the most played.
    let manifest: serde_json::Value = serde_json::from_str(&manifest).expect("JSON");
    let select = &manifest["select"];
    assert_eq!(select["metric"], "win_rate");
    assert_eq!(select["goal"], "max");
    assert_eq!(select["stage_trials"], 2_000);
    assert_eq!(select["selected"].as_str(), Some(chosen[0][0].as_str()));
    assert_eq!(select["guaranteed"], true);
    let each: Vec<u64> = select["variant_trials"]
        .as_array()
        .expect("variant_trials")
        .iter()
        .map(|t| t.as_u64().expect("a count"))
        .collect();
    let from_table: Vec<u64> = rows
        .iter()
        .map(|r| r[1].parse().expect("a count"))
        .collect();
    assert_eq!(each, from_table);
    assert_eq!(
        manifest["trials_per_variant"].as_u64(),
        each.iter().max().copied()
    );
    let page = fs::read_to_string(out.join("report.html")).expect("page");
    assert!(
        page.contains("until the variant is eliminated or the only one left, in stages of 2000"),
        "the HTML run facts state the rule"
    );

    // The chosen variant and one eliminated first, each alone at its trials without [select].
    let first_out: &Vec<String> = rows
        .iter()
        .filter(|r| r[3] == "no")
        .min_by_key(|r| r[1].parse::<u64>().expect("a count"))
        .expect("an eliminated variant");
    for row in [chosen[0], first_out] {
        let fixed_dir = dir.path().join(format!("fixed-{}", row[0]));
        fs::create_dir_all(&fixed_dir).expect("dir");
        let fixed_spec = self::spec(&fixed_dir, "independent", "");
        let fixed_out = fixed_dir.join("out");
        let output = quiet_run_on_two_threads(&[
            fixed_spec.to_str().unwrap(),
            "--trials",
            &row[1],
            "--variant",
            &row[0],
            "--out",
            fixed_out.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", stderr_text(&output));
        assert_eq!(
            row_of(&fixed_out.join("summary.csv"), &row[0]),
            row_of(&out.join("summary.csv"), &row[0]),
            "{}",
            row[0]
        );
    }
}

#[test]
fn a_common_selection_says_its_comparisons_are_unpaired() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = spec(dir.path(), "common", SELECT);
    let out = dir.path().join("out");
    let output =
        quiet_run_on_two_threads(&[spec.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr_text(&output));
    let report = fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("The comparisons of this report treat the variants as independent"),
        "{report}"
    );
    assert!(report.contains("Random numbers: common"), "{report}");
    let (names, rows) = header_and_rows(&out.join("selection.csv"));
    assert_eq!(names[0], "variant");
    assert_eq!(rows.iter().filter(|r| r[3] == "yes").count(), 1);
}

#[test]
fn an_interrupted_selection_resumes_to_the_same_tables() {
    let dir = tempfile::tempdir().expect("tempdir");
    let slow = "[select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = 0.0008\n\
                max_trials = 20_000_000\nstage_trials = 20_000\n";
    let spec = spec(dir.path(), "independent", slow);
    let out = dir.path().join("out");
    // Long enough on one thread to be interrupted after its first checkpoint.
    let arguments = ["--threads", "1", "--checkpoint-every", "1"];
    interrupt_at_first_checkpoint(&quiet_run_args(&spec, &out, &arguments), &out);

    let mut resume = quiet_run_args(&spec, &out, &arguments);
    resume.push("--resume".into());
    experiment().args(&resume).assert().success();
    assert!(
        !checkpoint_of(&out).exists(),
        "a finished run removes its checkpoint"
    );
    let whole = dir.path().join("whole");
    let output =
        quiet_run_on_two_threads(&[spec.to_str().unwrap(), "--out", whole.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr_text(&output));
    for table in ["selection.csv", "summary.csv", "comparisons.csv"] {
        assert!(
            fs::read(whole.join(table)).expect("whole")
                == fs::read(out.join(table)).expect("resumed"),
            "{table} differs after resuming"
        );
    }
}

/// The error a run of a spec with `select` (and `extra` arguments) fails with.
fn refusal(design: &str, select: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = spec(dir.path(), design, select);
    let output = experiment()
        .arg("run")
        .arg(&spec)
        .args(extra)
        .args(["--quiet", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .expect("runs");
    assert!(!output.status.success(), "{select} {extra:?} was accepted");
    assert!(
        !dir.path().join("out").exists(),
        "{select}: results written"
    );
    stderr_text(&output)
}

#[test]
fn wrong_selections_are_refused_on_their_line_with_the_valid_choices() {
    let cases = [
        (
            "[select]\nmetric = \"win_rate\"\ngoal = \"best\"\nindifference = 0.01\nmax_trials = 9\n",
            "select.toml:12",
            "unknown goal 'best' in [select] (expected one of: max, min)",
        ),
        (
            "[select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = 0\nmax_trials = 9\n",
            "select.toml:13",
            "indifference = 0 must be a number above 0",
        ),
        (
            "[select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = 0.01\n\
             confidence = 1.5\nmax_trials = 9000\n",
            "select.toml:14",
            "confidence = 1.5 must be above 0.5 and below 1",
        ),
        (
            "[select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = 0.01\n",
            "select.toml:10",
            "[select] needs max_trials",
        ),
        (
            "[select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = 0.01\n\
             max_trials = 9000\nsteps = 3\n",
            "select.toml:",
            "unknown field `steps`",
        ),
        (
            "[select]\nmetric = \"wins\"\ngoal = \"max\"\nindifference = 0.01\nmax_trials = 9000\n",
            "select.toml:11",
            "[select] metric 'wins' is not a metric of this game that a selection can compare \
             trial by trial (expected one of: win_rate, bust_rate",
        ),
        (
            "[select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = 0.01\n\
             max_trials = 9000\n[stop]\nmetric = \"win_rate\"\nhalf_width = 0.01\n\
             max_trials = 9000\n",
            "select.toml:10",
            "[select] and [stop] cannot both be given",
        ),
    ];
    for (select, at, message) in cases {
        let said = refusal("independent", select, &[]);
        assert!(said.contains(at), "{select}: {said}");
        assert!(said.contains(message), "{select}: {said}");
    }
}

#[test]
fn a_selection_cannot_be_sharded_or_sent_to_slurm() {
    let said = refusal("common", SELECT, &["--shard", "0/2"]);
    assert!(
        said.contains("a spec with [select] cannot be split into shards"),
        "{said}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = spec(dir.path(), "common", SELECT);
    let output = experiment()
        .args(["slurm"])
        .arg(&spec)
        .args(["--shards", "2", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(
        stderr_text(&output).contains("a spec with [select] cannot be split into shards"),
        "{}",
        stderr_text(&output)
    );
}

/// Chutes plays in stages (every built-in game does; the refusal of a game that cannot is a
/// unit test of `commands::overrides`): a selection and a precision target on its pairings are
/// accepted, and a metric it does not have is refused listing the ones it has.
#[test]
fn chutes_takes_a_selection_and_a_precision_target_on_its_own_metrics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("chutes.toml");
    let select = |metric: &str| {
        format!(
            "[select]\nmetric = \"{metric}\"\ngoal = \"max\"\nindifference = 0.05\n\
             max_trials = 9000\n"
        )
    };
    let stop = |metric: &str| {
        format!("[stop]\nmetric = \"{metric}\"\nhalf_width = 0.01\nmax_trials = 9000\n")
    };
    let cases = [
        (
            select("win_rate"),
            Some(
                "[select] metric 'win_rate' is not a metric of this game that a selection can \
                 compare trial by trial (expected one of: mean_payoff, p1_win_rate, drop_rate, \
                 cap_reached_rate, mean_final_stake, mean_turns)",
            ),
        ),
        (
            stop("first_win_rate"),
            Some(
                "[stop] metric 'first_win_rate' is not a metric of this game with a 95% \
                 interval (expected one of: p1_win_rate, drop_rate, cap_reached_rate, \
                 mean_payoff, mean_final_stake, mean_turns)",
            ),
        ),
        (select("mean_payoff"), None),
        (stop("mean_turns"), None),
    ];
    for (table, refused) in cases {
        fs::write(
            &path,
            format!(
                "version = 1\nname = \"chutes_select\"\ngame = \"chutes\"\nseed = 1\n\
                 trials = 1000\n[sweep]\nfirst = [\"never\", \"always\"]\n{table}"
            ),
        )
        .expect("spec");
        let output = experiment()
            .arg("validate")
            .arg(&path)
            .output()
            .expect("runs");
        let said = stderr_text(&output);
        match refused {
            Some(message) => {
                assert!(!output.status.success(), "{table}");
                assert!(said.contains(message), "{said}");
            }
            None => assert!(output.status.success(), "{table}: {said}"),
        }
    }
}

#[test]
fn validate_refuses_a_selection_metric_the_game_cannot_compare_trial_by_trial() {
    let dir = tempfile::tempdir().expect("tempdir");
    let select = "[select]\nmetric = \"mean_player_total\"\ngoal = \"max\"\nindifference = 0.01\n\
                  max_trials = 9000\n";
    let spec = spec(dir.path(), "independent", select);
    let output = experiment()
        .arg("validate")
        .arg(&spec)
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let said = stderr_text(&output);
    assert!(said.contains("select.toml:11"), "{said}");
    assert!(
        said.contains(
            "[select] metric 'mean_player_total' is not a metric of this game that a \
                       selection can compare trial by trial (expected one of: win_rate, \
                       bust_rate, dealer_bust_rate, tie_rate, mean_payoff)"
        ),
        "{said}"
    );
    let good = self::spec(dir.path(), "common", SELECT);
    let output = experiment()
        .arg("validate")
        .arg(&good)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", stderr_text(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains(
            "select: the variant with the highest win_rate (max), indifference 0.005, \
             confidence 0.95"
        ),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn a_first_stage_whose_differences_do_not_vary_guarantees_nothing_and_says_so() {
    // The case found by the hostile-input probe: stages of 2 games on a 0/1 metric, where
    // most pairs' first-stage differences are all equal (variance 0, allowance 0).
    let dir = tempfile::tempdir().expect("tempdir");
    let select = "[select]\nmetric = \"win_rate\"\ngoal = \"max\"\nindifference = 0.005\n\
                  stage_trials = 2\nmax_trials = 20000\n";
    let spec = spec(dir.path(), "common", select);
    let out = dir.path().join("out");
    let output = quiet_run_on_two_threads(&[
        spec.to_str().unwrap(),
        "--seed",
        "8",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr_text(&output));
    let (names, rows) = header_and_rows(&out.join("selection.csv"));
    let at = names
        .iter()
        .position(|n| n == "guaranteed")
        .expect("guaranteed");
    assert!(rows.iter().all(|r| r[at] == "no"), "{rows:?}");
    let report = fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("but nothing is guaranteed"), "{report}");
    assert!(
        report.contains("the variance estimate of the difference was 0"),
        "{report}"
    );
    assert!(!report.contains("Guaranteed:"), "{report}");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).expect("manifest"))
            .expect("JSON");
    assert_eq!(manifest["select"]["guaranteed"], false);
}
