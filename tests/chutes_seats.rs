//! Per-seat Chutes players: the seat keys `first_double_at`, `first_take_at`,
//! `second_double_at` and `second_take_at` (each overriding the bare key for its seat, swept
//! like it, refused where no strategy reads it), the `take_only` strategy, the matching flags
//! of `experiment exact chutes`, and the exact seat averages the report reads.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::common::{experiment, header_and_rows};

/// Writes `body` under a chutes spec's header (seed 11, `trials` games) as `dir/spec.toml`.
fn write_spec(dir: &Path, trials: u64, body: &str) -> PathBuf {
    let path = dir.join("spec.toml");
    let text = format!(
        "version = 1\nname = \"seats\"\ngame = \"chutes\"\nseed = 11\ntrials = {trials}\n{body}"
    );
    std::fs::write(&path, text).expect("write spec");
    path
}

/// Runs `spec` quietly into `out`.
fn run(spec: &Path, out: &Path) {
    experiment()
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--out"])
        .arg(out)
        .assert()
        .success();
}

/// The rows of a CSV file as maps from column to cell.
fn rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let (header, rows) = header_and_rows(path);
    rows.into_iter()
        .map(|row| header.iter().cloned().zip(row).collect())
        .collect()
}

/// A number from a row (NaN for an empty cell).
fn number(row: &std::collections::HashMap<String, String>, column: &str) -> f64 {
    let text = row
        .get(column)
        .unwrap_or_else(|| panic!("no column {column}"));
    if text.is_empty() {
        f64::NAN
    } else {
        text.parse().unwrap_or_else(|_| panic!("{column} = {text}"))
    }
}

/// The exact payoff `experiment exact chutes` prints for `pair` with `flags`.
fn exact_payoff(pair: &str, flags: &[&str]) -> f64 {
    let output = experiment()
        .args(["exact", "chutes", "--max-cube", "16", "--pair", pair])
        .args(flags)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let (first, second) = pair.split_once('-').expect("a pair");
    let row = format!("| {first} | {second} | ");
    let line = text
        .lines()
        .find(|line| line.starts_with(&row))
        .unwrap_or_else(|| panic!("no row {row} in:\n{text}"));
    line[row.len()..]
        .trim_end_matches(" |")
        .parse()
        .expect("a payoff")
}

/// "I double at X; they take at 25%": `threshold` as player 1 with its own `double_at`, swept,
/// against `take_only` as player 2 with its own `take_at`.
const FIRST_DOUBLE_AT_SWEEP: &str = "\
[params]
max_cube = 16
second_take_at = 0.25

[sweep]
first = [\"threshold\"]
second = [\"take_only\", \"never\"]
first_double_at = { from = 0.6, to = 0.8, step = 0.1 }
";

#[test]
fn a_first_double_at_sweep_with_a_fixed_second_take_at_matches_its_exact_values() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write_spec(dir.path(), 20_000, FIRST_DOUBLE_AT_SWEEP);
    let out = dir.path().join("out");
    run(&spec, &out);

    // One tournament per value, named by it; no pairing differs from its exact payoff after
    // Holm's correction within its tournament (the report's own test), and each lies within its
    // 95% interval widened to the Bonferroni level over the run's 6 pairings.
    let payoffs = rows(&out.join("payoffs.csv"));
    assert_eq!(payoffs.len(), 6, "3 values x 2 pairings");
    for row in &payoffs {
        assert!(number(row, "p_holm") >= 0.05, "{row:?}");
        let exact = number(row, "exact_payoff");
        let (lo, hi) = (number(row, "mean_payoff_lo"), number(row, "mean_payoff_hi"));
        assert!(within(exact, lo, hi), "{row:?}");
    }
    let labels: Vec<&str> = payoffs.iter().map(|r| r["tournament"].as_str()).collect();
    assert_eq!(
        labels,
        [
            "first_double_at-0.6",
            "first_double_at-0.6",
            "first_double_at-0.7",
            "first_double_at-0.7",
            "first_double_at-0.8",
            "first_double_at-0.8"
        ]
    );

    // Each seat played its own thresholds: the spec's exact payoffs are those `exact chutes`
    // gives with the same flags, and they change with first_double_at.
    for (value, row) in ["0.6", "0.7", "0.8"].iter().zip(payoffs.iter().step_by(2)) {
        assert_eq!(
            row["variant"],
            format!("threshold-take_only-first_double_at-{value}")
        );
        let flags = ["--first-double-at", value, "--second-take-at", "0.25"];
        let printed = exact_payoff("threshold-take_only", &flags);
        assert!(
            (number(row, "exact_payoff") - printed).abs() < 1e-6,
            "{value}: {row:?} against {printed}"
        );
    }
    let exact: Vec<f64> = payoffs
        .iter()
        .step_by(2)
        .map(|r| number(r, "exact_payoff"))
        .collect();
    assert!(exact[0] != exact[1] && exact[1] != exact[2], "{exact:?}");

    // The exact seat averages: columns of strategies.csv, each within its seat's interval.
    let strategies = rows(&out.join("strategies.csv"));
    assert_eq!(strategies.len(), 9, "3 tournaments x 3 strategies");
    for row in &strategies {
        for seat in ["", "_first", "_second"] {
            let exact = number(row, &format!("exact_mean_payoff{seat}"));
            let (lo, hi) = (
                number(row, &format!("mean_payoff{seat}_lo")),
                number(row, &format!("mean_payoff{seat}_hi")),
            );
            assert_eq!(exact.is_nan(), lo.is_nan(), "{seat} {row:?}");
            assert!(exact.is_nan() || within(exact, lo, hi), "{seat} {row:?}");
        }
    }
    let threshold = strategies
        .iter()
        .find(|r| r["tournament"] == "first_double_at-0.7" && r["strategy"] == "threshold")
        .expect("threshold in 0.7");
    let mean = (exact[1] + number(&payoffs[3], "exact_payoff")) / 2.0;
    assert!((number(threshold, "exact_mean_payoff_first") - mean).abs() < 1e-12);

    // The report reads the seat averages against their exact values, from the table it shows.
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    for expected in [
        "**Seats, against exact values.**",
        "`threshold` as player 1 ",
        "| exact | exact as player 1 | exact as player 2 |",
        "The same averages, exact:",
        "player 1 doubles at a cubeless win probability of 0.6000 and takes at 0.2500, player 2 \
         doubles at a cubeless win probability of 0.7000 and takes at 0.2500",
    ] {
        assert!(report.contains(expected), "no {expected:?} in the report");
    }
    // What the reading says of the intervals is what strategies.csv shows, tournament by
    // tournament.
    for tournament in [
        "first_double_at-0.6",
        "first_double_at-0.7",
        "first_double_at-0.8",
    ] {
        let mut seats = 0;
        let mut outside = 0;
        for row in strategies.iter().filter(|r| r["tournament"] == tournament) {
            for seat in ["_first", "_second"] {
                let exact = number(row, &format!("exact_mean_payoff{seat}"));
                if exact.is_nan() {
                    continue;
                }
                seats += 1;
                let (lo, hi) = (
                    number(row, &format!("mean_payoff{seat}_lo")),
                    number(row, &format!("mean_payoff{seat}_hi")),
                );
                outside += usize::from(!(lo <= exact && exact <= hi));
            }
        }
        let section = report
            .split(&format!("## Tournament `{tournament}`"))
            .nth(1)
            .expect("the tournament's section");
        let expected = if outside == 0 {
            format!("Every exact value lies within the 95% interval of its simulated average ({seats} seat averages)")
        } else {
            format!("{outside} of the {seats} exact values lie outside the 95% interval")
        };
        assert!(section.contains(&expected), "{tournament}: no {expected:?}");
    }
}

/// The two-sided normal quantile of the Bonferroni level over the sweep's 6 pairings:
/// z(1 - 0.05 / 12).
const BONFERRONI_6: f64 = 2.638;

/// Whether `exact` lies within the 95% interval [`lo`, `hi`] widened to [`BONFERRONI_6`].
fn within(exact: f64, lo: f64, hi: f64) -> bool {
    let (middle, half) = ((lo + hi) / 2.0, (hi - lo) / 2.0);
    (exact - middle).abs() <= half * BONFERRONI_6 / 1.96
}

#[test]
fn a_seat_key_overrides_the_bare_key_for_its_seat_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    // threshold-threshold with player 1 doubling at 0.6 (own) and player 2 at 0.8 (bare): the
    // same exact payoff as `exact chutes` gives, and not that of both seats at either value.
    let spec = write_spec(
        dir.path(),
        200,
        "[params]\nmax_cube = 16\nfirst = \"threshold\"\nsecond = \"threshold\"\n\
         double_at = 0.8\nfirst_double_at = 0.6\n",
    );
    let out = dir.path().join("out");
    run(&spec, &out);
    let payoffs = rows(&out.join("payoffs.csv"));
    let spec_exact = number(&payoffs[0], "exact_payoff");
    let seats = exact_payoff(
        "threshold-threshold",
        &["--double-at", "0.8", "--first-double-at", "0.6"],
    );
    assert!((spec_exact - seats).abs() < 1e-6, "{spec_exact} vs {seats}");
    for both in ["0.6", "0.8"] {
        let same = exact_payoff("threshold-threshold", &["--double-at", both]);
        assert!(
            (spec_exact - same).abs() > 1e-4,
            "{both}: {spec_exact} vs {same}"
        );
    }
    // A seat key read by no strategy of its seat changes nothing.
    let never = exact_payoff("never-threshold", &["--first-double-at", "0.6"]);
    assert_eq!(never, exact_payoff("never-threshold", &[]));
    // The summary names the seat key that was set, and only it.
    let (header, _) = header_and_rows(&out.join("summary.csv"));
    assert!(
        header.contains(&"first_double_at".to_string()),
        "{header:?}"
    );
    assert!(
        !header.contains(&"second_take_at".to_string()),
        "{header:?}"
    );
}

#[test]
fn fails_with_clear_message_on_a_seat_key_no_strategy_of_its_seat_reads() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (body, line, message) in [
        (
            "[sweep]\nfirst = [\"never\"]\nsecond = [\"threshold\"]\nfirst_double_at = [0.6, 0.7]\n",
            9,
            "variant 'never-threshold-first_double_at-0.6' sets first_double_at, which game \
             'chutes' reads only when first is threshold (here first = never)",
        ),
        (
            "[params]\nsecond_take_at = 0.3\n\n[sweep]\nfirst = [\"threshold\"]\n\
             second = [\"never\", \"always\"]\n",
            7,
            "second_take_at is set in [params], but no variant reads it: game 'chutes' reads \
             it only when second is threshold or take_only",
        ),
        (
            "[params]\nfirst = \"take_only\"\nfirst_double_at = 0.6\n",
            8,
            "first_double_at is set in [params], but no variant reads it",
        ),
        (
            "[params]\nfirst = \"threshold\"\nfirst_take_at = 1.5\n",
            8,
            "first_take_at = 1.5 is out of range (expected a number from 0 to 1)",
        ),
    ] {
        let spec = write_spec(dir.path(), 100, body);
        experiment()
            .arg("validate")
            .arg(&spec)
            .assert()
            .failure()
            .stderr(
                predicate::str::contains(format!("spec.toml:{line}:"))
                    .and(predicate::str::contains(message)),
            );
    }
}

#[test]
fn take_only_never_doubles_and_against_a_non_doubler_plays_the_cubeless_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write_spec(
        dir.path(),
        2_000,
        "[params]\ntake_at = 0.4\n\n[sweep]\nfirst = [\"take_only\", \"never\"]\n\
         second = [\"take_only\", \"cautious\"]\n",
    );
    let out = dir.path().join("out");
    run(&spec, &out);
    let payoffs = rows(&out.join("payoffs.csv"));
    assert_eq!(payoffs.len(), 4);
    let never_never = exact_payoff("never-never", &[]);
    for row in &payoffs {
        assert_eq!(number(row, "mean_doubles"), 0.0, "{row:?}");
        assert_eq!(number(row, "drops"), 0.0, "{row:?}");
        assert_eq!(number(row, "mean_final_stake"), 1.0, "{row:?}");
        // Nobody doubles, so the exact payoff is the cubeless 2 P(player 1 wins) - 1.
        assert!(
            (number(row, "exact_payoff") - never_never).abs() < 1e-6,
            "{row:?}"
        );
    }
    // Against a doubler it takes by its threshold: `always` doubles before its first roll;
    // taking at 1 drops it (player 1 wins the stake of 1), taking at 0 takes every double, as
    // `never` does.
    assert_eq!(exact_payoff("always-take_only", &["--take-at", "1"]), 1.0);
    assert_eq!(
        exact_payoff("always-take_only", &["--take-at", "0"]),
        exact_payoff("always-never", &[])
    );
}

#[test]
fn exact_chutes_takes_the_seat_flags_and_prints_each_strategys_exact_seat_averages() {
    let output = experiment()
        .args([
            "exact",
            "chutes",
            "--max-cube",
            "16",
            "--pair",
            "threshold-take_only",
            "--pair",
            "take_only-threshold",
            "--first-double-at",
            "0.8",
            "--second-take-at",
            "0.3",
        ])
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        text.contains(
            "(player 1: double_at 0.8, take_at 0.25; player 2: double_at 0.7, take_at 0.3; \
             threshold reads both, take_only only take_at)"
        ),
        "{text}"
    );
    let ahead = exact_payoff(
        "threshold-take_only",
        &["--first-double-at", "0.8", "--second-take-at", "0.3"],
    );
    let behind = exact_payoff(
        "take_only-threshold",
        &["--first-double-at", "0.8", "--second-take-at", "0.3"],
    );
    // threshold's averages: as player 1 `ahead`, as player 2 `-behind`, overall their mean.
    let (_, averages) = text
        .split_once("Exact average payoff per game of each strategy")
        .unwrap_or_else(|| panic!("no averages in:\n{text}"));
    let row = averages
        .lines()
        .find(|line| line.starts_with("| threshold | "))
        .unwrap_or_else(|| panic!("no averages of threshold in:\n{text}"));
    let averages: Vec<f64> = row
        .split('|')
        .skip(2)
        .take(3)
        .map(|cell| cell.trim().parse().expect("a number"))
        .collect();
    let expected = [(ahead - behind) / 2.0, ahead, -behind];
    for (printed, expected) in averages.iter().zip(expected) {
        assert!((printed - expected).abs() < 2e-6, "{row}: {expected}");
    }
    for (flag, value) in [("--first-take-at", "1.5"), ("--second-double-at", "x")] {
        experiment()
            .args(["exact", "chutes", flag, value])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(flag).and(predicate::str::contains(value)));
    }
}
