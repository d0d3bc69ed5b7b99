//! Monopoly's rules as spec parameters (die_sides, counting, chance_deck, the jail strategies) and
//! its landings by group (`groups.csv`, `group_comparisons.csv`), through the real binary.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{experiment, header, numbers, read_csv, texts};
use predicates::prelude::*;

/// Writes `body` as a spec named `name` in `dir` and returns its path.
fn spec(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!("version = 1\nname = \"{name}\"\ngame = \"monopoly\"\nseed = 23\n{body}");
    std::fs::write(&path, text).expect("write spec");
    path
}

/// Two variants under other rules (two 4-sided dice and turn ends counted; the 16-card Chance
/// deck with short stay and a full turn) and today's game.
const RULES_SPEC: &str = "trials = 600\n\
[params]\nturns = 60\nplayers = 2\n\
[[variant]]\nname = \"four_sided-turn_end\"\ndie_sides = 4\ncounting = \"turn_end\"\n\
[[variant]]\nname = \"sixteen-full_turn\"\nchance_deck = \"sixteen_cards\"\njail = \"short_stay_full_turn\"\n\
[[variant]]\nname = \"today\"\n";

#[test]
fn rules_run_from_a_spec_and_groups_agree_with_the_chain() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let path = spec(dir.path(), "rules", RULES_SPEC);
    experiment()
        .args(["run"])
        .arg(&path)
        .args(["--quiet", "--threads", "2", "--out"])
        .arg(&out)
        .assert()
        .success();

    // The reading says what Jail counts under each counting rule.
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains("Under `four_sided-turn_end` (counting turn ends)"),
        "{report}"
    );

    // The tables show the rules some variant changes, under their own names.
    let landing = read_csv(&out.join("landing.csv"));
    let columns = header(&landing);
    for rule in ["die_sides", "counting", "chance_deck"] {
        assert!(columns.contains(&rule.to_string()), "{columns:?}");
    }
    let summary = read_csv(&out.join("summary.csv"));
    assert!(header(&summary).contains(&"die_sides".to_string()));

    let groups = read_csv(&out.join("groups.csv"));
    let variant = texts(&groups, "variant");
    let group = texts(&groups, "group");
    let (share, lo, hi, se) = (
        numbers(&groups, "share"),
        numbers(&groups, "share_lo"),
        numbers(&groups, "share_hi"),
        numbers(&groups, "share_se"),
    );
    let (exact, z, per_game, squares) = (
        numbers(&groups, "exact_share"),
        numbers(&groups, "z"),
        numbers(&groups, "per_game"),
        numbers(&groups, "squares"),
    );
    assert_eq!(groups.height(), 3 * 14);
    // The chain's group shares are the sums of its square shares.
    let landing_variant = texts(&landing, "variant");
    let landing_group = texts(&landing, "group");
    let landing_exact = numbers(&landing, "exact_freq");
    let mut from_squares: BTreeMap<(String, String), f64> = BTreeMap::new();
    for i in 0..landing.height() {
        *from_squares
            .entry((landing_variant[i].clone(), landing_group[i].clone()))
            .or_default() += landing_exact[i];
    }
    let mut totals: BTreeMap<String, (f64, f64, f64, f64)> = BTreeMap::new();
    for i in 0..groups.height() {
        let key = (variant[i].clone(), group[i].clone());
        assert!((exact[i] - from_squares[&key]).abs() < 1e-12, "{key:?}");
        assert!(lo[i] <= share[i] && share[i] <= hi[i], "{key:?}");
        // 14 groups x 3 variants = 42 tests: Bonferroni's two-sided z for a family-wise 0.001
        // is 4.35; a wrong chain, rule or interval shows up far beyond it at 600 games.
        assert!(z[i].abs() < 4.35, "{key:?}: z {}", z[i]);
        assert!(se[i] > 0.0 || share[i] == 0.0);
        let entry = totals.entry(variant[i].clone()).or_default();
        entry.0 += share[i];
        entry.1 += exact[i];
        entry.2 += per_game[i];
        entry.3 += squares[i];
    }
    for (name, (shares, exacts, landings, squares)) in &totals {
        assert!(
            (shares - 1.0).abs() < 1e-9 && (exacts - 1.0).abs() < 1e-9,
            "{name}"
        );
        assert_eq!(*squares, 40.0);
        if name == "four_sided-turn_end" {
            // One landing per turn: 60 turns for each of 2 players, exactly.
            assert_eq!(*landings, 120.0);
        } else {
            assert!(*landings > 120.0, "{name}: {landings}");
        }
    }

    // Every group of every pair compared, Holm-adjusted within the family.
    let comparisons = read_csv(&out.join("group_comparisons.csv"));
    assert_eq!(comparisons.height(), 3 * 14);
    assert!(texts(&comparisons, "family").iter().all(|f| f == "group"));
    let (p, holm) = (
        numbers(&comparisons, "p_value"),
        numbers(&comparisons, "p_holm"),
    );
    for (p, holm) in p.iter().zip(&holm) {
        assert!(holm >= p && *holm <= 1.0, "{p} {holm}");
    }
    // Counting only turn ends drops the squares a doubles throw passes through (one throw in
    // four is a double with 4-sided dice) while every turn spent in jail still counts: the
    // corners' share (Jail's above all) differs between four_sided-turn_end and today.
    let a = texts(&comparisons, "a");
    let b = texts(&comparisons, "b");
    let effect = texts(&comparisons, "effect_name");
    let corner = (0..comparisons.height())
        .find(|&i| a[i] == "four_sided-turn_end" && b[i] == "today" && effect[i].contains("corner"))
        .expect("a corner comparison");
    assert!(holm[corner] < 0.05, "{}", holm[corner]);
}

#[test]
fn rules_out_of_range_are_refused_with_the_key_and_the_choices() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (body, key, expected) in [
        (
            "trials = 10\n[params]\ndie_sides = 13\n",
            "die_sides",
            "2 to 12",
        ),
        (
            "trials = 10\n[params]\ndie_sides = 1\n",
            "die_sides",
            "2 to 12",
        ),
        (
            "trials = 10\n[params]\ncounting = \"every_landing\"\n",
            "counting",
            "turn_end",
        ),
        (
            "trials = 10\n[params]\nchance_deck = \"seventeen\"\n",
            "chance_deck",
            "sixteen_cards",
        ),
    ] {
        let path = spec(dir.path(), "bad", body);
        let out = dir.path().join("bad-out");
        experiment()
            .args(["run"])
            .arg(&path)
            .arg("--out")
            .arg(&out)
            .assert()
            .failure()
            .stderr(predicate::str::contains(key).and(predicate::str::contains(expected)));
        assert!(!out.exists(), "nothing written for {body}");
    }
}
