//! Monopoly through the command line: the trace of the 48 reference dice, the exact chain, and
//! agreement.

use predicates::prelude::*;

use crate::common::experiment;

const REFERENCE_DICE: &str =
    "6,4,5,3,3,5,6,2,5,4,4,1,2,6,4,4,4,4,2,2,4,3,4,4,1,4,3,4,1,2,3,6,5,4,5,5,\
1,2,5,4,3,3,1,1,2,1,1,3";

#[test]
fn trace_replays_the_seeds_twenty_turns_exactly() {
    // Worked by hand from the rules (see games::monopoly::trace's golden test); the 18th turn
    // lands on Chance 8 and the scripted first card sends the player to jail.
    let expected = r#"{"tally":[0,1,0,1,0,0,0,0,1,0,7,0,1,0,0,1,1,0,2,1,0,0,0,1,1,0,1,0,0,1,0,0,2,0,1,0,0,0,0,0],"landings":[[1,11],[2,19],[3,27],[4,35],[5,4],[6,9],[7,17],[8,25],[8,33],[8,11],[9,11],[10,19],[11,24],[12,11],[13,11],[14,11],[15,20],[16,30],[16,33],[17,2],[18,11],[19,13],[20,16]]}"#;
    experiment()
        .args([
            "trace",
            "monopoly",
            "--dice",
            REFERENCE_DICE,
            "--cards",
            "chance:go_to_jail",
        ])
        .args(["--turns", "20", "--json"])
        .assert()
        .success()
        .stdout(format!("{expected}\n"));
}

#[test]
fn trace_prints_events_then_the_tally() {
    experiment()
        .args([
            "trace",
            "monopoly",
            "--dice",
            REFERENCE_DICE,
            "--cards",
            "chance:go_to_jail",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("## Turn 18"))
        .stdout(predicate::str::contains("Go to Jail"))
        .stdout(predicate::str::contains(
            "Tally: 0 1 0 1 0 0 0 0 1 0 7 0 1 0 0 1 1 0 2 1",
        ));
}

#[test]
fn running_out_of_scripted_dice_is_a_clear_error() {
    experiment()
        .args(["trace", "monopoly", "--dice", "6,4", "--turns", "3"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("out of dice on turn 2"));
}

#[test]
fn an_unknown_card_lists_the_valid_names() {
    experiment()
        .args([
            "trace",
            "monopoly",
            "--dice",
            "6,4",
            "--cards",
            "chance:gotojail",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("chance:go_to_jail"));
}

#[test]
fn exact_prints_forty_squares_with_go_to_jail_never_landed_on() {
    let output = experiment()
        .args([
            "exact",
            "monopoly",
            "--turns",
            "150",
            "--jail",
            "short_stay",
        ])
        .output()
        .expect("runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("utf-8");
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("| ") && l[2..].starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 40);
    assert!(
        rows[30].starts_with("| 31 | Go to jail | 0 | 0 | 0 |"),
        "{}",
        rows[30]
    );
}

#[test]
fn two_hundred_thousand_games_agree_with_the_exact_chain() {
    let dir = tempfile::tempdir().expect("temp dir");
    experiment()
        .args([
            "run",
            "experiments/monopoly_landing.toml",
            "--trials",
            "200000",
            "--quiet",
        ])
        .args([
            "--variant",
            "long_stay-with_replacement",
            "--variant",
            "short_stay-with_replacement",
        ])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Landings for `long_stay-with_replacement`",
        ));
    let (header, rows) = crate::common::header_and_rows(&dir.path().join("landing.csv"));
    for column in [
        "jail", "cards", "square", "name", "group", "count", "freq", "freq_lo", "freq_hi",
    ] {
        assert!(
            header.iter().any(|c| c == column),
            "landing.csv lacks {column}"
        );
    }
    let z_col = header.iter().position(|c| c == "z").expect("z column");
    let count_col = header
        .iter()
        .position(|c| c == "count")
        .expect("count column");
    let mut checked = 0;
    for cells in rows {
        if cells[3] == "31" {
            assert_eq!(cells[count_col], "0", "Go To Jail is never a landing");
            continue;
        }
        let z: f64 = cells[z_col].parse().expect("z is a number");
        assert!(z.abs() < 4.5, "square {} has z = {z}", cells[3]);
        checked += 1;
    }
    assert_eq!(checked, 78, "39 squares for each of the two variants");
}

#[test]
fn a_run_writes_a_summary_row_per_variant_beside_the_landing_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    experiment()
        .args([
            "run",
            "experiments/monopoly_landing.toml",
            "--trials",
            "300",
            "--quiet",
        ])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    for file in ["summary.parquet", "estimates.png", "estimates.svg"] {
        assert!(dir.path().join(file).is_file(), "{file} missing");
    }
    let summary = crate::common::read_csv(&dir.path().join("summary.csv"));
    assert_eq!(
        crate::common::header(&summary),
        [
            "variant",
            "jail",
            "cards",
            "turns",
            "players",
            "games",
            "landings",
            "jail_share",
            "jail_share_lo",
            "jail_share_hi",
            "mean_landings",
            "mean_landings_lo",
            "mean_landings_hi",
            "mean_jail_landings",
            "mean_jail_landings_lo",
            "mean_jail_landings_hi",
            "mean_go_landings",
            "mean_go_landings_lo",
            "mean_go_landings_hi",
        ]
    );
    assert_eq!(summary.height(), 4, "one row per jail rule and card model");
    // Each row agrees with the same variant's squares in landing.csv.
    let landing = crate::common::read_csv(&dir.path().join("landing.csv"));
    let (variants, names) = (
        crate::common::texts(&landing, "variant"),
        crate::common::texts(&landing, "name"),
    );
    let counts = crate::common::numbers(&landing, "count");
    let landings_of = |variant: &str, square: Option<&str>| -> f64 {
        (0..landing.height())
            .filter(|&i| variants[i] == variant && square.is_none_or(|s| names[i] == s))
            .map(|i| counts[i])
            .sum()
    };
    let column = |name: &str| crate::common::numbers(&summary, name);
    let (games, landings) = (column("games"), column("landings"));
    for (i, variant) in crate::common::texts(&summary, "variant").iter().enumerate() {
        assert_eq!(games[i], 300.0);
        assert_eq!(landings[i], landings_of(variant, None));
        let jail = landings_of(variant, Some("Jail"));
        assert!((column("jail_share")[i] - jail / landings[i]).abs() < 1e-12);
        assert!((column("mean_jail_landings")[i] - jail / games[i]).abs() < 1e-9);
        let go = landings_of(variant, Some("Go"));
        assert!((column("mean_go_landings")[i] - go / games[i]).abs() < 1e-9);
        for name in ["jail_share", "mean_landings", "mean_jail_landings"] {
            let (lo, hi) = (
                column(&format!("{name}_lo"))[i],
                column(&format!("{name}_hi"))[i],
            );
            assert!(lo < column(name)[i] && column(name)[i] < hi, "{name} {i}");
        }
    }
    // The summary adds no comparison: the study's own families only.
    let comparisons = crate::common::read_csv(&dir.path().join("comparisons.csv"));
    assert!(crate::common::texts(&comparisons, "family")
        .iter()
        .all(|f| f == "distribution" || f == "square"));
    let report = std::fs::read_to_string(dir.path().join("report.md")).expect("report");
    assert!(report.contains("## Estimates") && report.contains("estimates.png"));
}
