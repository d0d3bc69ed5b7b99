//! War's reading: for one strategy whose games never end it speaks of that strategy alone;
//! fairness is judged among the games won by either player, draws left out, and says "no data"
//! where no game had a winner.

use std::path::Path;

#[test]
fn a_lone_cycling_strategy_is_not_set_against_strategies_that_did_not_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/war_placement.toml");
    crate::common::experiment()
        .arg("run")
        .arg(spec)
        .args([
            "--quiet",
            "--trials",
            "300",
            "--variant",
            "player1_first",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    let line = report
        .lines()
        .find(|l| l.starts_with("- **Games that never end.**"))
        .unwrap_or_else(|| panic!("no such item in\n{report}"));
    // About a third of player1_first's games cycle: 300 games all but surely have some.
    assert!(line.contains("`player1_first` "), "{line}");
    assert!(!line.contains("not listed"), "{line}");
}

/// Runs a War spec of `body` (after the header, `trials` games per variant) and returns its
/// folder, which lives as long as the returned temporary directory.
fn run_war(body: &str, trials: u64) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("fair.toml");
    std::fs::write(
        &spec,
        format!(
            "version = 1\nname = \"fair\"\ngame = \"war\"\nseed = 5\ntrials = {trials}\n\n{body}"
        ),
    )
    .expect("spec");
    let out = dir.path().join("out");
    crate::common::experiment()
        .arg("run")
        .arg(&spec)
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    (dir, out)
}

/// The report's fairness item.
fn fairness_line(out: &Path) -> String {
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    report
        .lines()
        .find(|l| l.starts_with("- **Fairness.**"))
        .unwrap_or_else(|| panic!("no fairness item in\n{report}"))
        .to_string()
}

/// The cells of the report's results-table row of `variant`, by column name.
fn results_row(out: &Path, variant: &str) -> Vec<(String, String)> {
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    let cells = |line: &str| -> Vec<String> {
        line.trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    let header = report
        .lines()
        .find(|l| l.starts_with("| strategy |"))
        .map(cells)
        .unwrap_or_else(|| panic!("no results table in\n{report}"));
    let row = report
        .lines()
        .find(|l| l.starts_with(&format!("| {variant} |")))
        .map(cells)
        .unwrap_or_else(|| panic!("no row {variant} in\n{report}"));
    header.into_iter().zip(row).collect()
}

/// The case: with two ranks of two cards and no card face down, a third of the games
/// are drawn and player 1 and player 2 win equally often (the deal and `winner_first` treat
/// them alike). The share of finished games counted the draws against player 1 and was "unfair"
/// at Holm p < 1e-300; the share of games won by either player is not.
#[test]
fn draws_do_not_make_a_symmetric_game_unfair() {
    let (_dir, out) = run_war("[params]\nranks = 2\nsuits = 2\nface_down = 0\n", 20_000);
    let summary = crate::common::read_csv(&out.join("summary.csv"));
    let number = |name: &str| crate::common::numbers(&summary, name)[0];
    let (p1, p2, draws) = (number("p1_wins"), number("p2_wins"), number("draws"));
    assert!(draws > 1_000.0, "the rules draw often: {draws}");
    let share = number("p1_win_share_of_decided");
    assert_eq!(
        share,
        p1 / (p1 + p2),
        "the share of games won by either player"
    );
    // Symmetric: 0.5 exactly in expectation, and this seed's 95% interval covers it.
    let (lo, hi) = (
        number("p1_win_share_of_decided_lo"),
        number("p1_win_share_of_decided_hi"),
    );
    assert!(lo <= 0.5 && 0.5 <= hi, "{share} ({lo} to {hi})");
    let line = fairness_line(&out);
    assert!(!line.contains("differs from 50%"), "{line}");
    assert!(
        line.contains("player 1's share of games won by either player does not differ")
            && line.contains("`p1_win_share_of_decided`"),
        "{line}"
    );
    // The table row the reading cites shows that share.
    let row = results_row(&out, &crate::common::texts(&summary, "variant")[0]);
    let cell = row
        .iter()
        .find(|(name, _)| name == "p1_win_share_of_decided")
        .unwrap_or_else(|| panic!("no share column in {row:?}"));
    let shown: f64 = cell.1.parse().expect("a number");
    assert!((shown - share).abs() < 5e-4, "{shown} shows {share}");
}

/// With one rank every up card ties and every game is drawn: no game has a winner, so there is
/// nothing to judge fairness by, and the reading, the results table and the comparisons say
/// "no data" rather than test a share of 0 against 50%.
#[test]
fn a_game_where_every_game_is_drawn_has_no_fairness_data() {
    let (_dir, out) = run_war(
        "[params]\nranks = 1\nsuits = 4\n\n[sweep]\nplacement = [\"winner_first\", \"random\"]\n",
        500,
    );
    let summary = crate::common::read_csv(&out.join("summary.csv"));
    assert_eq!(crate::common::numbers(&summary, "draws"), [500.0, 500.0]);
    let line = fairness_line(&out);
    assert!(
        line.contains("No game was won by either player") && line.contains("no data"),
        "{line}"
    );
    assert!(!line.contains("differs from 50%"), "{line}");
    for variant in ["winner_first", "random"] {
        let row = results_row(&out, variant);
        assert!(
            row.contains(&("p1_win_share_of_decided".into(), "no data".into())),
            "{variant}: {row:?}"
        );
    }
    let comparisons = crate::common::read_csv(&out.join("comparisons.csv"));
    let families = crate::common::texts(&comparisons, "family");
    let tests = crate::common::texts(&comparisons, "test");
    let rows: Vec<&String> = families
        .iter()
        .zip(&tests)
        .filter(|(family, _)| *family == "p1_win_rate")
        .map(|(_, test)| test)
        .collect();
    assert_eq!(rows, ["no data"], "{families:?} {tests:?}");
}

/// One variant without a game won by either player beside one with many: the pair has no
/// test, the variant without is named as having no data, the other is still tested.
#[test]
fn a_variant_without_a_winner_is_no_data_beside_one_with_winners() {
    let (_dir, out) = run_war(
        "[[variant]]\nname = \"one_rank\"\nranks = 1\nsuits = 4\n\n\
         [[variant]]\nname = \"standard\"\nplacement = \"loser_first\"\n",
        500,
    );
    let line = fairness_line(&out);
    assert!(
        line.contains("`one_rank` had no game won by either player: no data"),
        "{line}"
    );
    assert!(
        line.contains("`standard`") && !line.contains("`standard` had no game"),
        "{line}"
    );
    let comparisons = crate::common::read_csv(&out.join("comparisons.csv"));
    let families = crate::common::texts(&comparisons, "family");
    let tests = crate::common::texts(&comparisons, "test");
    let holm = crate::common::numbers(&comparisons, "p_holm");
    let k = families
        .iter()
        .position(|f| f == "p1_win_rate")
        .expect("a p1_win_rate row");
    assert_eq!(tests[k], "no data");
    assert!(holm[k].is_nan(), "no Holm p-value without a test");
}
