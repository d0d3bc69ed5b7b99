//! Twenty-One's table rules from a spec and the command line: the rules' own columns appear
//! only when a variant changes them, the mean payoff (with its comparisons) only when a rule
//! makes a game's payoff differ from win or lose, and bad rules are refused with the key and
//! the valid choices.

use std::path::Path;

use predicates::prelude::*;

use crate::common::{experiment, header, numbers, read_csv, texts};

/// Writes a Twenty-One spec called `name` with `body` after its header, in `dir`.
fn spec(dir: &Path, name: &str, trials: u64, body: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "version = 1\nname = \"{name}\"\ngame = \"twentyone\"\nseed = 7\ntrials = {trials}\n{body}"
    );
    std::fs::write(&path, text).expect("write the spec");
    path
}

fn run(spec: &Path, out: &Path) {
    experiment()
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--out"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn changed_rules_get_columns_and_pushes_bring_the_mean_payoff_ranked_by_welch_and_holm() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = spec(
        dir.path(),
        "rules",
        20_000,
        "[params]\ndecks = 2\nsoft_17 = \"hit\"\nnatural_pays = 1.5\n\
         [sweep]\ntie = [\"dealer\", \"push\"]\nstand_at = [15, 17]\n",
    );
    let out = dir.path().join("out");
    run(&path, &out);
    let summary = read_csv(&out.join("summary.csv"));
    let columns = header(&summary);
    for column in [
        "decks",
        "tie",
        "soft_17",
        "natural_pays",
        "natural_wins",
        "mean_payoff",
        "mean_payoff_lo",
        "mean_payoff_hi",
        "exact_mean_payoff",
    ] {
        assert!(
            columns.iter().any(|c| c == column),
            "{column} in {columns:?}"
        );
    }
    assert_eq!(texts(&summary, "tie"), ["dealer", "dealer", "push", "push"]);
    assert!(numbers(&summary, "decks").iter().all(|&d| d == 2.0));
    // A push pays more than the same rule's tie lost to the computer, exactly.
    let exact = numbers(&summary, "exact_mean_payoff");
    assert!(exact[2] > exact[0] && exact[3] > exact[1], "{exact:?}");
    // Every rule's mean payoff against the best one's, Welch-tested and Holm-adjusted.
    let comparisons = read_csv(&out.join("comparisons.csv"));
    let family = texts(&comparisons, "family");
    let tests = texts(&comparisons, "test");
    let payoff: Vec<usize> = (0..family.len())
        .filter(|&i| family[i] == "mean_payoff")
        .collect();
    assert_eq!(payoff.len(), 3);
    assert!(payoff.iter().all(|&i| tests[i] == "Welch t"));
    let holm = numbers(&comparisons, "p_holm");
    let p = numbers(&comparisons, "p_value");
    assert!(payoff.iter().all(|&i| holm[i] >= p[i]));
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(report.contains("Welch's t-test"), "{report}");
    assert!(report.contains("exact mean payoffs lie inside"), "{report}");
    assert!(
        report.contains("![Mean payoff per game by rule](mean_payoff.png)"),
        "{report}"
    );
    assert!(out.join("mean_payoff.svg").exists() && out.join("win_rate.svg").exists());
}

#[test]
fn rules_that_leave_every_payoff_win_or_lose_add_their_column_but_no_payoff() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = spec(
        dir.path(),
        "decks",
        5_000,
        "[params]\ndecks = 4\n[sweep]\nstand_at = [15, 16]\n",
    );
    let out = dir.path().join("out");
    run(&path, &out);
    let columns = header(&read_csv(&out.join("summary.csv")));
    assert!(columns.iter().any(|c| c == "decks"), "{columns:?}");
    for absent in [
        "tie",
        "soft_17",
        "natural_pays",
        "natural_wins",
        "mean_payoff",
    ] {
        assert!(
            !columns.iter().any(|c| c == absent),
            "{absent} in {columns:?}"
        );
    }
    let family = texts(&read_csv(&out.join("comparisons.csv")), "family");
    assert!(family.iter().all(|f| f == "win_rate"), "{family:?}");
    assert!(!out.join("mean_payoff.svg").exists());
}

#[test]
fn bad_rules_are_refused_with_the_key_and_what_is_valid() {
    let dir = tempfile::tempdir().expect("a temp dir");
    for (line, message) in [
        (
            "natural_pays = 1.23",
            "natural_pays needs a multiple of 0.05 from 1 to 2",
        ),
        ("decks = 9", "decks = 9 is out of range"),
        ("tie = \"nobody\"", "expected one of: dealer, push"),
        ("soft_17 = \"always\"", "stand, hit"),
    ] {
        let path = spec(dir.path(), "bad", 100, &format!("[params]\n{line}\n"));
        let out = dir.path().join("bad-out");
        experiment()
            .arg("run")
            .arg(&path)
            .arg("--out")
            .arg(&out)
            .assert()
            .failure()
            .stderr(predicate::str::contains("bad.toml:7:").and(predicate::str::contains(message)));
        assert!(!out.exists(), "nothing is written for {line}");
    }
    experiment()
        .args(["exact", "twentyone", "--natural-pays", "0.9"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("--natural-pays").and(predicate::str::contains(
                "natural_pays needs a multiple of 0.05 from 1 to 2",
            )),
        );
}

#[test]
fn the_exact_command_follows_every_rule() {
    let text = |args: &[&str]| {
        let output = experiment()
            .args(["exact", "twentyone"])
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(output).expect("UTF-8")
    };
    let default = text(&[]);
    assert!(default.contains("enumerating one 52-card deck"));
    assert!(!default.contains("mean_payoff"));
    let rules = text(&["--decks", "2", "--soft-17", "hit", "--natural-pays", "1.5"]);
    assert!(
        rules.contains("enumerating a shoe of 2 52-card decks"),
        "{rules}"
    );
    assert!(rules.contains("The computer hits a soft 17."), "{rules}");
    assert!(rules.contains("A win on a natural pays 1.5."), "{rules}");
    assert!(rules.contains("| mean_payoff |"), "{rules}");
    assert_ne!(default.lines().nth(6), rules.lines().nth(6));
}

#[test]
fn a_standing_total_swept_beside_a_strategy_that_ignores_it_is_refused() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = spec(
        dir.path(),
        "ignored",
        100,
        "[sweep]\nstrategy = [\"stand_at\", \"optimal\"]\nstand_at = [15, 16]\n",
    );
    let out = dir.path().join("out");
    experiment()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("ignored.toml:8:")
                .and(predicate::str::contains(
                    "variant 'optimal-stand_at-15' sets stand_at",
                ))
                .and(predicate::str::contains(
                    "reads only when strategy is stand_at",
                )),
        );
    assert!(!out.exists());
    // A probability in [params] that no variant's strategy reads is refused too.
    let path = spec(
        dir.path(),
        "unread",
        100,
        "[params]\nprobability = 0.3\n[sweep]\nstand_at = [15, 16]\n",
    );
    experiment()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "probability is set in [params], but no variant reads it",
        ));
    // The same rules written as a sweep of standing totals beside an optimal variant run.
    let path = spec(
        dir.path(),
        "union",
        1_000,
        "[[sweep]]\nstand_at = [15, 16]\n[[variant]]\nname = \"optimal\"\nstrategy = \"optimal\"\n",
    );
    run(&path, &out);
    let variants = texts(&read_csv(&out.join("summary.csv")), "variant");
    assert_eq!(variants, ["stand_at-15", "stand_at-16", "optimal"]);
}
