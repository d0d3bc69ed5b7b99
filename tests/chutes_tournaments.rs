//! Chutes & Ladders tournaments: a spec that sweeps `double_at` (or `max_cube`, or any setting
//! but the two strategies) plays one tournament per value, each analysed as a run of one
//! tournament is, and compares them; a spec of one tournament keeps the tables it had.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{experiment, header, numbers, read_csv, texts};

/// The double_at sweep: ten tournaments of eight pairings each.
const SWEEP: &str = "tests/specs/good/chutes_double_at_sweep.toml";

/// The ten tournament names, in the order the sweep gives them.
fn double_at_labels() -> Vec<String> {
    [
        "0.5", "0.55", "0.6", "0.65", "0.7", "0.75", "0.8", "0.85", "0.9", "0.95",
    ]
    .iter()
    .map(|v| format!("double_at-{v}"))
    .collect()
}

/// Runs `spec` into `out` with `threads` threads.
fn run(spec: &Path, out: &Path, threads: &str) {
    experiment()
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--threads", threads, "--out"])
        .arg(out)
        .assert()
        .success();
}

/// Writes `body` as `name`.toml in `dir`.
fn spec(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            "version = 1\nname = \"{name}\"\ngame = \"chutes\"\nseed = 3\ntrials = 300\n{body}"
        ),
    )
    .expect("write spec");
    path
}

/// The rows of `column` in order of first appearance, without repeats.
fn distinct(values: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

#[test]
fn the_sweep_names_its_variants_by_strategies_and_value() {
    let out = experiment()
        .args(["validate", SWEEP])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    assert!(stdout.contains("80 variants"), "{stdout}");
    for label in double_at_labels() {
        for name in [
            format!("threshold-never-{label}"),
            format!("optimal-threshold-{label}"),
        ] {
            assert!(stdout.contains(&name), "no {name} in:\n{stdout}");
        }
    }
    assert!(!stdout.contains("0000000"), "inexact values in:\n{stdout}");
}

#[test]
fn each_double_at_is_its_own_tournament_and_tables_match_across_threads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    run(Path::new(SWEEP), &one, "1");
    run(Path::new(SWEEP), &two, "2");
    let mut compared = 0;
    for entry in std::fs::read_dir(&one).expect("out") {
        let path = entry.expect("entry").path();
        if path
            .extension()
            .is_some_and(|e| e == "csv" || e == "parquet")
        {
            let other = two.join(path.file_name().expect("name"));
            assert!(
                std::fs::read(&path).expect("read") == std::fs::read(&other).expect("read"),
                "{} differs between 1 and 2 threads",
                path.display()
            );
            compared += 1;
        }
    }
    assert!(compared >= 16, "only {compared} tables");

    // Ten tournaments of eight pairings, named by their value.
    let payoffs = read_csv(&one.join("payoffs.csv"));
    assert_eq!(
        header(&payoffs)[..5],
        ["variant", "tournament", "double_at", "first", "second"]
    );
    let tournaments = texts(&payoffs, "tournament");
    assert_eq!(distinct(tournaments.clone()), double_at_labels());
    for label in double_at_labels() {
        assert_eq!(tournaments.iter().filter(|t| **t == label).count(), 8);
    }
    // Every pairing's exact payoff is its own tournament's: threshold's depends on double_at,
    // and at 0.7 (with the default take_at and cap) it is the shipped tournament's.
    let variants = texts(&payoffs, "variant");
    let exact = numbers(&payoffs, "exact_payoff");
    let against_never: BTreeSet<u64> = variants
        .iter()
        .zip(&exact)
        .filter(|(v, _)| v.starts_with("threshold-never-"))
        .map(|(_, e)| e.to_bits())
        .collect();
    assert_eq!(against_never.len(), 10, "one exact payoff per double_at");
    let shipped = read_csv(Path::new("results/chutes_doubling/payoffs.csv"));
    let shipped_exact = texts(&shipped, "variant")
        .iter()
        .zip(numbers(&shipped, "exact_payoff"))
        .find(|(v, _)| *v == "threshold-never")
        .map(|(_, e)| e)
        .expect("threshold-never shipped");
    let at_07 = variants
        .iter()
        .zip(&exact)
        .find(|(v, _)| *v == "threshold-never-double_at-0.7")
        .map(|(_, e)| *e)
        .expect("threshold-never-double_at-0.7");
    assert!(
        (at_07 - shipped_exact).abs() <= 1e-12 * shipped_exact.abs().max(1.0),
        "{at_07} vs {shipped_exact}"
    );

    // Each tournament's standings and comparisons carry its name and value.
    let strategies = read_csv(&one.join("strategies.csv"));
    assert_eq!(
        header(&strategies)[..3],
        ["tournament", "double_at", "strategy"]
    );
    assert_eq!(strategies.height(), 10 * 5);
    let comparisons = read_csv(&one.join("comparisons.csv"));
    assert_eq!(
        header(&comparisons)[..3],
        ["tournament", "double_at", "family"]
    );
    assert_eq!(
        distinct(texts(&comparisons, "tournament")),
        double_at_labels()
    );

    // Across tournaments: each strategy's average between every two of the ten (each met the
    // same opponents in both), and each of the eight pairings between every two, each effect
    // the difference of the two standings.
    let across = read_csv(&one.join("tournament_comparisons.csv"));
    let family = texts(&across, "family");
    let subject = texts(&across, "subject");
    let strategy_rows: Vec<usize> = (0..across.height())
        .filter(|&i| family[i] == "strategy_average")
        .collect();
    assert_eq!(strategy_rows.len(), 5 * 45);
    assert_eq!(
        strategy_rows
            .iter()
            .filter(|&&i| subject[i] == "threshold")
            .count(),
        45
    );
    assert_eq!(family.iter().filter(|f| *f == "pairing").count(), 8 * 45);
    let (a, b, effect) = (
        texts(&across, "a"),
        texts(&across, "b"),
        numbers(&across, "effect"),
    );
    let (names, labels, means) = (
        texts(&strategies, "strategy"),
        texts(&strategies, "tournament"),
        numbers(&strategies, "mean_payoff"),
    );
    let standing = |strategy: &str, label: &str| {
        (0..strategies.height())
            .find(|&i| names[i] == strategy && labels[i] == label)
            .map(|i| means[i])
            .expect("a standing")
    };
    for &i in &strategy_rows {
        let expected = standing(&subject[i], &a[i]) - standing(&subject[i], &b[i]);
        assert!(
            (effect[i] - expected).abs() <= 1e-9 * expected.abs().max(1.0),
            "{} - {}: {} vs {expected}",
            a[i],
            b[i],
            effect[i]
        );
    }
    let (p, holm) = (numbers(&across, "p_value"), numbers(&across, "p_holm"));
    assert!(p.iter().zip(&holm).all(|(p, h)| h >= p && *h <= 1.0));

    // The report reads across them and gives each its own section and heatmap.
    let report = std::fs::read_to_string(one.join("report.md")).expect("report");
    assert!(
        report.contains(
            "**Across tournaments.** 10 tournaments, one for each setting of `double_at`"
        ),
        "{report}"
    );
    assert!(report.contains("## Across tournaments"));
    for label in double_at_labels() {
        assert!(
            report.contains(&format!("## Tournament `{label}`")),
            "no section {label}"
        );
        assert!(one.join(format!("payoff_matrix-{label}.svg")).exists());
    }
    assert!(one.join("across_tournaments.svg").exists());
}

#[test]
fn one_tournament_keeps_its_tables_without_tournament_columns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = spec(
        dir.path(),
        "one",
        "[params]\ndouble_at = 0.8\n[sweep]\nfirst = [\"threshold\", \"never\"]\nsecond = [\"never\", \"threshold\"]\n",
    );
    let out = dir.path().join("out");
    run(&path, &out, "2");
    let payoffs = read_csv(&out.join("payoffs.csv"));
    assert_eq!(header(&payoffs)[..3], ["variant", "first", "second"]);
    assert_eq!(
        header(&read_csv(&out.join("strategies.csv")))[0],
        "strategy"
    );
    assert_eq!(header(&read_csv(&out.join("comparisons.csv")))[0], "family");
    assert!(!out.join("tournament_comparisons.csv").exists());
    assert!(!out.join("across_tournaments.svg").exists());
    assert!(out.join("payoff_matrix.svg").exists());
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(!report.contains("Tournament"), "{report}");
}

#[test]
fn a_cap_sweep_plays_each_cap_with_its_own_solver() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = spec(
        dir.path(),
        "caps",
        "[sweep]\nfirst = [\"always\", \"optimal\"]\nsecond = [\"never\", \"always\"]\nmax_cube = [2, 1024]\n",
    );
    let out = dir.path().join("out");
    run(&path, &out, "2");
    let payoffs = read_csv(&out.join("payoffs.csv"));
    let names = header(&payoffs);
    assert_eq!(names[..4], ["variant", "tournament", "first", "second"]);
    assert_eq!(names.iter().filter(|n| *n == "max_cube").count(), 1);
    assert_eq!(
        distinct(texts(&payoffs, "tournament")),
        ["max_cube-2", "max_cube-1024"]
    );
    // always against always doubles every turn: the cap bounds the stake, and the exact payoff
    // with it (with a cap of 2 no game is won or lost at more than 2).
    let variants = texts(&payoffs, "variant");
    let stakes = numbers(&payoffs, "mean_final_stake");
    for (variant, stake) in variants.iter().zip(&stakes) {
        if variant.ends_with("max_cube-2") {
            assert!(*stake <= 2.0, "{variant}: {stake}");
        }
    }
    let strategies = read_csv(&out.join("strategies.csv"));
    assert_eq!(
        header(&strategies)[..3],
        ["tournament", "max_cube", "strategy"]
    );
    assert!(out.join("across_tournaments.svg").exists());
    let across = read_csv(&out.join("tournament_comparisons.csv"));
    // Every strategy between the two caps, and each of the four pairings.
    assert_eq!(across.height(), 3 + 4);
}

/// `validate`'s error for `body`, which must name the file and `line`.
fn refusal(dir: &Path, body: &str, line: usize) -> String {
    let path = spec(dir, "bad", body);
    let out = experiment()
        .arg("validate")
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "accepted:\n{body}");
    let stderr = String::from_utf8(out.stderr).expect("utf-8");
    let prefix = format!("Error: {}:{line}: ", path.display());
    stderr
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("expected {prefix}…, got {stderr}"))
        .trim_end()
        .to_string()
}

#[test]
fn what_a_tournament_cannot_be_is_still_refused_at_its_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert_eq!(
        refusal(
            dir.path(),
            "[sweep]\nfirst = [\"never\"]\nsecond = [\"always\"]\nmax_cube = [4, 6]\n",
            9
        ),
        "max_cube must be a power of two (1, 2, 4, ..., 2147483648), got 6"
    );
    assert_eq!(
        refusal(
            dir.path(),
            "[sweep]\nfirst = [\"threshold\"]\nsecond = [\"never\"]\ndouble_at = { from = 0.5, to = 1.2, step = 0.1 }\n",
            9
        ),
        "double_at = 1.1 is out of range (expected a number from 0 to 1)"
    );
    assert_eq!(
        refusal(
            dir.path(),
            "[[sweep]]\nfirst = [\"threshold\"]\nsecond = [\"threshold\", \"never\"]\ndouble_at = [0.5, 0.6]\n\
             [[sweep]]\nfirst = [\"threshold\"]\nsecond = [\"threshold\"]\ndouble_at = [0.6]\n",
            10
        ),
        "two variants are both named 'threshold-threshold-double_at-0.6'"
    );
}

#[test]
fn two_swept_settings_name_each_tournament_by_both() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = spec(
        dir.path(),
        "two",
        "[sweep]\nfirst = [\"threshold\"]\nsecond = [\"never\", \"cautious\"]\n\
         double_at = [0.6, 0.8]\nmax_cube = [2, 64]\n",
    );
    let out = dir.path().join("out");
    run(&path, &out, "2");
    let strategies = read_csv(&out.join("strategies.csv"));
    assert_eq!(
        header(&strategies)[..4],
        ["tournament", "double_at", "max_cube", "strategy"]
    );
    assert_eq!(
        distinct(texts(&strategies, "tournament")),
        [
            "double_at-0.6-max_cube-2",
            "double_at-0.6-max_cube-64",
            "double_at-0.8-max_cube-2",
            "double_at-0.8-max_cube-64"
        ]
    );
    // Two settings differ: no single curve to draw, but the comparisons are there.
    assert!(!out.join("across_tournaments.svg").exists());
    let across = read_csv(&out.join("tournament_comparisons.csv"));
    // threshold, never and cautious between every two of four, and both pairings.
    assert_eq!(across.height(), 3 * 6 + 2 * 6);
}

#[test]
fn a_threshold_set_where_no_player_is_threshold_is_refused_and_one_read_somewhere_is_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Swept for every pairing, double_at would make never-never four times under four names.
    assert_eq!(
        refusal(
            dir.path(),
            "[sweep]\nfirst = [\"never\", \"threshold\"]\nsecond = [\"never\"]\ndouble_at = [0.6, 0.8]\n",
            9
        ),
        "variant 'never-never-double_at-0.6' sets double_at, which game 'chutes' reads only when \
         first is threshold, or second is threshold (here first = never, second = never): leave \
         double_at out of this variant, or sweep it in a [[sweep]] block of its own with the \
         settings that read it"
    );
    assert_eq!(
        refusal(
            dir.path(),
            "[[variant]]\nfirst = \"never\"\nsecond = \"optimal\"\ntake_at = 0.3\n",
            9
        ),
        "variant 'never-optimal-0.3' sets take_at, which game 'chutes' reads only when first is \
         threshold or take_only, or second is threshold or take_only (here first = never, second \
         = optimal): leave take_at out of this variant, or sweep it in a [[sweep]] block of its \
         own with the settings that read it"
    );
    // In [params], a threshold is refused only when no pairing reads it.
    assert_eq!(
        refusal(
            dir.path(),
            "[params]\ntake_at = 0.3\n[sweep]\nfirst = [\"never\", \"always\"]\nsecond = [\"never\"]\n",
            7
        ),
        "take_at is set in [params], but no variant reads it: game 'chutes' reads it only when \
         first is threshold or take_only, or second is threshold or take_only"
    );
    let read_once = spec(
        dir.path(),
        "read_once",
        "[params]\ndouble_at = 0.8\n[sweep]\nfirst = [\"never\", \"threshold\"]\nsecond = [\"never\"]\n",
    );
    experiment()
        .arg("validate")
        .arg(&read_once)
        .assert()
        .success()
        .stdout(predicates::str::contains("2 variants"));
    // The double_at curve sweeps it only where threshold plays, so every variant reads it.
    experiment().args(["validate", SWEEP]).assert().success();
}
