//! Chutes in stages: a selection of a `threshold` player's `double_at` against `never`
//! (`tests/specs/good/chutes_select_double_at.toml`) and precision targets on the pairings'
//! mean payoff, in both designs. Each finishes, writes `selection.csv` or the `stopped`
//! column as every game's staged runs do, gives the same tables on one thread and on two, and
//! is checked against `experiment exact chutes`: the selected value's exact payoff is within
//! the indifference of the exact best's, and a common run stopped on precision gives the
//! tables of a fixed common run of the trials it took.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::runs::{
    assert_same_files, quiet_run_args, run_quietly, stderr_text, tables, write,
};
use crate::common::{experiment, header_and_rows, report_without_reproduce};

/// The selection spec.
const SELECT: &str = "tests/specs/good/chutes_select_double_at.toml";

/// Its `double_at` values and `[select] indifference`.
const DOUBLE_AT: [&str; 5] = ["0.5", "0.6", "0.7", "0.8", "0.9"];
const INDIFFERENCE: f64 = 0.03;

/// Every table of `folder` and its report without the reproduce line.
fn contents(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = tables(folder);
    let report = report_without_reproduce(&folder.join("report.md"));
    found.push(("report.md".into(), report.into_bytes()));
    found
}

/// Runs `spec` into `dir/name` on one thread and on two with `args`: the two give the same
/// tables and report, and the folder of the first is returned.
fn run_twice(spec: &Path, dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let one = dir.join(format!("{name}-1"));
    let two = dir.join(format!("{name}-2"));
    run_quietly(
        experiment,
        spec,
        &one,
        &[args, &["--threads", "1"]].concat(),
    );
    run_quietly(
        experiment,
        spec,
        &two,
        &[args, &["--threads", "2"]].concat(),
    );
    assert_same_files(&contents(&one), &contents(&two), name);
    one
}

/// The exact mean payoff to player 1 of `threshold` (doubling at `double_at`) against
/// `never`, as `experiment exact chutes` prints it.
fn exact_payoff(double_at: &str) -> f64 {
    let output = experiment()
        .args([
            "exact",
            "chutes",
            "--pair",
            "threshold-never",
            "--double-at",
        ])
        .arg(double_at)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", stderr_text(&output));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let row = text
        .lines()
        .find(|line| line.starts_with("| threshold | never |"))
        .unwrap_or_else(|| panic!("no threshold-never row in {text}"));
    row.trim_end_matches(" |")
        .rsplit("| ")
        .next()
        .expect("a value")
        .trim_start_matches('+')
        .parse()
        .unwrap_or_else(|_| panic!("a payoff in {row}"))
}

/// The selection spec in the design `design`.
fn selection_spec(dir: &Path, design: &str) -> PathBuf {
    let text = fs::read_to_string(SELECT).expect("the spec");
    assert!(text.contains("random_numbers = \"common\""));
    let text = text.replace(
        "random_numbers = \"common\"",
        &format!("random_numbers = \"{design}\""),
    );
    write(dir, &format!("select-{design}.toml"), &text)
}

#[test]
fn a_selection_of_double_at_chooses_within_the_indifference_of_the_exact_best() {
    let exact: Vec<f64> = DOUBLE_AT.iter().map(|d| exact_payoff(d)).collect();
    let best = exact.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let dir = tempfile::tempdir().expect("tempdir");
    for design in ["common", "independent"] {
        let spec = selection_spec(dir.path(), design);
        // Stages of 500 games, so that the selection screens over several stages.
        let out = run_twice(&spec, dir.path(), design, &["--trials", "500"]);
        let (names, rows) = header_and_rows(&out.join("selection.csv"));
        assert_eq!(
            names,
            [
                "variant",
                "trials",
                "eliminated_at_stage",
                "selected",
                "guaranteed",
                "mean_payoff",
                "mean_payoff_lo",
                "mean_payoff_hi"
            ]
        );
        let variants: Vec<String> = DOUBLE_AT.iter().map(|d| format!("double_at-{d}")).collect();
        assert_eq!(
            rows.iter().map(|r| r[0].clone()).collect::<Vec<_>>(),
            variants
        );
        let chosen: Vec<usize> = (0..rows.len()).filter(|&v| rows[v][3] == "yes").collect();
        assert_eq!(chosen.len(), 1, "{design}: {rows:?}");
        let chosen = chosen[0];
        assert_eq!(
            rows[chosen][2], "",
            "{design}: the chosen one was never eliminated"
        );
        assert_eq!(rows[chosen][4], "yes", "{design}: guaranteed: {rows:?}");
        for row in &rows {
            let trials: u64 = row[1].parse().expect("a count");
            assert_eq!(trials % 500, 0, "{design}: stages of 500 games: {row:?}");
        }
        // The guarantee, against the exact payoffs: within the indifference of the best.
        assert!(
            exact[chosen] >= best - INDIFFERENCE,
            "{design}: chose double_at {} (exact {}), the best is {best}",
            DOUBLE_AT[chosen],
            exact[chosen]
        );
        // The summary table's games are each pairing's trials, and the report says so.
        let (names, summary) = header_and_rows(&out.join("summary.csv"));
        let games = names.iter().position(|n| n == "games").expect("games");
        for (row, selected) in summary.iter().zip(&rows) {
            assert_eq!(row[games], selected[1], "{design}: {row:?}");
        }
        let report = fs::read_to_string(out.join("report.md")).expect("report");
        assert!(report.contains("## Selection"), "{report}");
        assert!(
            report.contains(&format!(
                "Selected: **`{}`**, the one variant left",
                variants[chosen]
            )),
            "{report}"
        );
    }
}

/// Six pairings of one tournament with a precision target on the mean payoff, in `design`.
fn stop_spec(dir: &Path, design: &str, stop: bool) -> PathBuf {
    let stop = if stop {
        "[stop]\nmetric = \"mean_payoff\"\nhalf_width = 0.05\nmax_trials = 100_000\n"
    } else {
        ""
    };
    let text = format!(
        "version = 1\nname = \"chutes_stop\"\ngame = \"chutes\"\nseed = 7\ntrials = 1_000\n\
         [params]\ndouble_at = 0.7\n[sweep]\nfirst = [\"never\", \"threshold\", \"optimal\"]\n\
         second = [\"never\", \"threshold\"]\n[design]\nrandom_numbers = \"{design}\"\n{stop}"
    );
    write(dir, &format!("stop-{design}-{stop}.toml"), &text)
}

#[test]
fn a_precision_target_stops_each_pairing_once_its_interval_meets_the_half_width() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = stop_spec(dir.path(), "independent", true);
    let out = run_twice(&spec, dir.path(), "independent", &[]);
    let (names, rows) = header_and_rows(&out.join("summary.csv"));
    let at = |name: &str| names.iter().position(|n| n == name).expect(name);
    let games = at("games");
    assert_eq!(names[games + 1], "stopped", "{names:?}");
    let (lo, hi) = (at("mean_payoff_lo"), at("mean_payoff_hi"));
    let mut counts = Vec::new();
    for row in &rows {
        assert_eq!(row[games + 1], "target", "{row:?}");
        let trials: u64 = row[games].parse().expect("a count");
        assert_eq!(trials % 1_000, 0, "stages of 1,000 games: {row:?}");
        let half = (row[hi].parse::<f64>().unwrap() - row[lo].parse::<f64>().unwrap()) / 2.0;
        assert!(half <= 0.05, "{row:?}: half-width {half}");
        counts.push(trials);
    }
    // never-never doubles nobody: its payoffs are ±1 and it stops long before the pairings
    // whose stakes double.
    assert!(counts.iter().min() < counts.iter().max(), "{counts:?}");
    let report = fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("## Precision targets"), "{report}");
    let least = counts.iter().min().unwrap();
    let most = counts.iter().max().unwrap();
    assert!(
        report.contains(&format!("{least} to {most} games per pairing, seed 7")),
        "{report}"
    );
}

#[test]
fn a_common_precision_target_gives_the_tables_of_a_fixed_common_run_of_its_trials() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = stop_spec(dir.path(), "common", true);
    let out = run_twice(&spec, dir.path(), "common", &[]);
    let (names, rows) = header_and_rows(&out.join("summary.csv"));
    let games = names.iter().position(|n| n == "games").expect("games");
    let trials = &rows[0][games];
    assert!(rows.iter().all(|row| &row[games] == trials), "{rows:?}");
    assert!(
        rows.iter().any(|row| row[games + 1] == "target"),
        "{rows:?}"
    );
    // The same pairings, fixed at that many games, on the same dice.
    let fixed_spec = stop_spec(dir.path(), "common", false);
    let fixed = dir.path().join("fixed");
    run_quietly(experiment, &fixed_spec, &fixed, &["--trials", trials]);
    for table in [
        "payoffs.csv",
        "comparisons.csv",
        "strategies.csv",
        "histogram.csv",
    ] {
        let read = |folder: &Path| fs::read(folder.join(table)).expect("a table");
        assert!(read(&out) == read(&fixed), "{table} differs");
    }
    let (_, comparisons) = header_and_rows(&out.join("comparisons.csv"));
    assert!(
        comparisons.iter().any(|row| row[0] == "pairing_points"),
        "paired comparisons: {comparisons:?}"
    );
}

#[test]
fn a_common_precision_target_over_more_than_twenty_pairings_is_refused_before_playing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = write(
        dir.path(),
        "big.toml",
        "version = 1\nname = \"big\"\ngame = \"chutes\"\nseed = 1\ntrials = 100\n[sweep]\n\
         first = [\"never\", \"always\", \"cautious\", \"threshold\", \"optimal\"]\n\
         second = [\"never\", \"always\", \"cautious\", \"threshold\", \"optimal\"]\n\
         [design]\nrandom_numbers = \"common\"\n[stop]\nmetric = \"mean_payoff\"\n\
         half_width = 0.1\nmax_trials = 1000\n",
    );
    let out = dir.path().join("out");
    for args in [
        vec!["validate".to_string(), spec.display().to_string()],
        quiet_run_args(&spec, &out, &[]),
    ] {
        let output = experiment().args(&args).output().expect("runs");
        assert!(!output.status.success(), "{args:?}");
        let said = stderr_text(&output);
        assert!(
            said.contains(
                "[stop] in a common design of Chutes takes at most 20 pairings, and this run \
                 has 25"
            ),
            "{said}"
        );
    }
    assert!(!out.exists());
    // Twenty of them play.
    let mut args = quiet_run_args(&spec, &out, &[]);
    for first in ["never", "always", "cautious", "threshold"] {
        for second in ["never", "always", "cautious", "threshold", "optimal"] {
            args.push(format!("--variant={first}-{second}"));
        }
    }
    let output = experiment().args(&args).output().expect("runs");
    assert!(output.status.success(), "{}", stderr_text(&output));
}
