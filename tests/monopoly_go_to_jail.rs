//! Monopoly's `go_to_jail` rule: with `go_to_jail = false` the Go to jail corner is an
//! ordinary square (three doubles and the Go to Jail cards still send a player to jail). The
//! simulation against the exact chain under the rule, a spec that sets it, specs that leave it
//! at its default keeping their streams, and `experiment exact monopoly`'s rule flags.

use std::path::Path;

use crate::common::{experiment, header, numbers, read_csv, texts};
use experiment_engine::games::Game;
use experiment_engine::rng::trial_rng;
use experiment_engine::stats::ratio_estimate;
use experiment_engine::summary::Summary;
use experiment_monopoly::exact::{expected_landings_under, stationary_frequencies_under};
use experiment_monopoly::game::{
    CardModel, ChanceDeck, Count, JailStrategy, Monopoly, MonopolySummary, Rules, BOARD_SIZE,
};
use predicates::prelude::*;

/// Index of the Go to jail corner (square 31).
const GO_TO_JAIL: usize = 30;
/// Index of Jail (square 11).
const JAIL: usize = 10;

/// The rules of today's game with the Go to jail corner an ordinary square.
fn without_go_to_jail() -> Rules {
    Rules {
        go_to_jail: false,
        ..Rules::default()
    }
}

/// Every square's simulated share of landings against the chain's, for `games` games of
/// `game`: each within 4.5 delta-method standard errors. For 40 squares the chance that any
/// correct one strays that far is below 40 × 6.8e-6 = 2.7e-4 (two-sided normal tail at 4.5),
/// while a rule the chain and the simulation read differently (the corner arresting in one
/// and not the other) moves squares 11 and 31 by over a hundred standard errors.
fn agrees_with_the_chain(game: Monopoly, games: u64, seed: u64) {
    let mut summary = MonopolySummary::default();
    for i in 0..games {
        summary.record(&game.play(&mut trial_rng(seed, 0, i)));
    }
    let expected = expected_landings_under(game.jail, &game.rules, game.turns);
    let total: f64 = expected.iter().sum();
    for (index, &exact) in expected.iter().enumerate() {
        let exact = exact / total;
        let (freq, se) = ratio_estimate(
            summary.games(),
            summary.counts()[index],
            summary.count_squares()[index],
            summary.count_totals()[index],
            summary.total(),
            summary.total_squares(),
        );
        assert!(se > 0.0, "{game:?} square {}: no spread", index + 1);
        let z = (freq - exact) / se;
        assert!(
            z.abs() < 4.5,
            "{game:?} square {}: sim {freq:.5} exact {exact:.5} se {se:.6} z {z:.2}",
            index + 1
        );
    }
    // The corner is landed on like an ordinary square: about one landing in 40.
    assert!(summary.counts()[GO_TO_JAIL] > 0);
}

#[test]
fn without_go_to_jail_the_simulation_agrees_with_the_exact_chain() {
    for (jail, count, seed) in [
        (JailStrategy::LongStay, Count::EveryThrow, 3101),
        (JailStrategy::ShortStay, Count::EveryThrow, 3102),
        (JailStrategy::ShortStayFullTurn, Count::TurnEnd, 3103),
    ] {
        let game = Monopoly {
            jail,
            cards: CardModel::WithReplacement,
            turns: 150,
            players: 2,
            rules: Rules {
                count,
                ..without_go_to_jail()
            },
        };
        agrees_with_the_chain(game, 20_000, seed);
    }
}

#[test]
fn without_go_to_jail_the_chain_lands_on_the_corner_and_less_on_jail() {
    for &jail in JailStrategy::ALL {
        let with = stationary_frequencies_under(jail, &Rules::default());
        let without = stationary_frequencies_under(jail, &without_go_to_jail());
        assert_eq!(with[GO_TO_JAIL], 0.0);
        // An ordinary square of that stretch of the board: between its neighbours' shares
        // give or take a fifth.
        let neighbours = [without[GO_TO_JAIL - 1], without[GO_TO_JAIL + 1]];
        let (low, high) = (
            neighbours[0].min(neighbours[1]),
            neighbours[0].max(neighbours[1]),
        );
        assert!(
            without[GO_TO_JAIL] > 0.8 * low && without[GO_TO_JAIL] < 1.2 * high,
            "{jail:?}: {} beside {neighbours:?}",
            without[GO_TO_JAIL]
        );
        // Without the corner's arrests Jail loses landings.
        assert!(without[JAIL] < with[JAIL], "{jail:?}");
        assert!((without.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}

/// Writes `body` as a Monopoly spec named `name` in `dir` and returns its path.
fn spec(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!("version = 1\nname = \"{name}\"\ngame = \"monopoly\"\nseed = 31\n{body}");
    std::fs::write(&path, text).expect("write spec");
    path
}

fn run(spec: &Path, out: &Path) {
    experiment()
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--threads", "2", "--out"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn a_spec_without_go_to_jail_counts_the_corner_and_its_tables_say_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = spec(
        dir.path(),
        "corner",
        "trials = 1500\n[params]\nturns = 100\n[sweep]\ngo_to_jail = [true, false]\n",
    );
    let out = dir.path().join("out");
    run(&path, &out);
    let landing = read_csv(&out.join("landing.csv"));
    assert!(header(&landing).contains(&"go_to_jail".to_string()));
    let variant = texts(&landing, "variant");
    let square = numbers(&landing, "square");
    let (count, exact, z) = (
        numbers(&landing, "count"),
        numbers(&landing, "exact_freq"),
        numbers(&landing, "z"),
    );
    let mut corners = 0;
    for i in 0..landing.height() {
        if square[i] != 31.0 {
            continue;
        }
        corners += 1;
        if variant[i] == "go_to_jail-false" {
            assert!(count[i] > 0.0 && exact[i] > 0.0, "row {i}");
            // Bonferroni over the 40 squares of a variant at family-wise 0.001: |z| < 4.05.
            assert!(z[i].abs() < 4.05, "z {}", z[i]);
        } else {
            assert_eq!((count[i], exact[i]), (0.0, 0.0));
        }
    }
    assert_eq!(corners, 2);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains(
            "Under `go_to_jail-false` (go_to_jail = false) the Go to jail corner (square 31) is \
             an ordinary square"
        ),
        "{report}"
    );
}

#[test]
fn specs_that_leave_go_to_jail_at_its_default_keep_their_streams_and_tables() {
    let dir = tempfile::tempdir().expect("temp dir");
    let body =
        "trials = 300\n[params]\nturns = 40\n[sweep]\njail = [\"long_stay\", \"short_stay\"]\n";
    let unset = spec(dir.path(), "same", body);
    run(&unset, &dir.path().join("unset"));
    let set = spec(
        dir.path(),
        "same",
        &body.replace("turns = 40\n", "turns = 40\ngo_to_jail = true\n"),
    );
    run(&set, &dir.path().join("set"));
    for table in [
        "summary.csv",
        "landing.csv",
        "groups.csv",
        "comparisons.csv",
    ] {
        let read = |folder: &str| {
            std::fs::read(dir.path().join(folder).join(table)).expect("a table of the run")
        };
        assert!(read("unset") == read("set"), "{table} differs");
    }
    let summary = read_csv(&dir.path().join("set").join("summary.csv"));
    assert!(!header(&summary).contains(&"go_to_jail".to_string()));
}

/// The long-run shares `experiment exact monopoly ARGS` prints, by square (index 0 = Go).
fn exact_long_run(args: &[&str]) -> Vec<f64> {
    let output = experiment()
        .args(["exact", "monopoly"])
        .args(args)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{args:?}: {output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let shares: Vec<f64> = text
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // | square | name | expected_landings | freq | long_run_freq |
            cells.get(1)?.parse::<u32>().ok()?;
            cells.get(5)?.parse().ok()
        })
        .collect();
    assert_eq!(shares.len(), BOARD_SIZE, "{text}");
    shares
}

#[test]
fn exact_monopoly_follows_every_rule_flag_as_the_chain_does() {
    let cases: [(&[&str], JailStrategy, Rules); 4] = [
        (&[], JailStrategy::LongStay, Rules::default()),
        (
            &["--go-to-jail", "false"],
            JailStrategy::LongStay,
            without_go_to_jail(),
        ),
        (
            &["--counting", "turn_end", "--jail", "short_stay"],
            JailStrategy::ShortStay,
            Rules {
                count: Count::TurnEnd,
                ..Rules::default()
            },
        ),
        (
            &[
                "--jail",
                "short_stay_full_turn",
                "--die-sides",
                "4",
                "--chance-deck",
                "sixteen_cards",
                "--go-to-jail",
                "true",
            ],
            JailStrategy::ShortStayFullTurn,
            Rules {
                die_sides: 4,
                chance: ChanceDeck::SixteenCards,
                ..Rules::default()
            },
        ),
    ];
    for (args, jail, rules) in cases {
        let printed = exact_long_run(args);
        let chain = stationary_frequencies_under(jail, &rules);
        for (square, (&p, &c)) in printed.iter().zip(&chain).enumerate() {
            // Printed to 4 significant figures: off by at most half a unit of the fourth.
            assert!(
                (p - c).abs() <= 6e-4 * c,
                "{args:?} square {}: printed {p}, chain {c}",
                square + 1
            );
        }
        assert_eq!(printed[GO_TO_JAIL] > 0.0, !rules.go_to_jail, "{args:?}");
    }
    // Project Euler 84's four-sided dice: Jail, Pennsylvania Railroad, Illinois Avenue on top.
    let pe84 = exact_long_run(&[
        "--jail",
        "short_stay_full_turn",
        "--die-sides",
        "4",
        "--chance-deck",
        "sixteen_cards",
    ]);
    let mut order: Vec<usize> = (0..BOARD_SIZE).collect();
    order.sort_by(|&a, &b| pe84[b].total_cmp(&pe84[a]));
    assert_eq!(order[..3], [10, 15, 24]);
    // The header names the rules the chain followed.
    experiment()
        .args(["exact", "monopoly", "--go-to-jail", "false", "--turns", "10"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "die_sides = 6, counting = every_throw, chance_deck = fifteen_cards, go_to_jail = false",
        ));
}

#[test]
fn exact_monopoly_has_a_flag_for_every_rule_a_spec_can_set() {
    let list = experiment().arg("list").output().expect("list");
    let list = String::from_utf8(list.stdout).expect("UTF-8");
    let rules: Vec<&str> = list
        .split("\n\n")
        .find(|game| game.starts_with("monopoly:"))
        .expect("monopoly in the list")
        .lines()
        .filter(|line| line.contains("a rule: at its default"))
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(rules.len() >= 4, "{rules:?}");
    let help = experiment()
        .args(["exact", "monopoly", "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8(help.stdout).expect("UTF-8");
    for rule in rules {
        let flag = format!("--{}", rule.replace('_', "-"));
        assert!(
            help.contains(&flag),
            "exact monopoly has no {flag}:\n{help}"
        );
    }
}

#[test]
fn exact_monopolys_bad_rule_values_are_refused_with_the_valid_choices() {
    for (args, expected) in [
        (["--die-sides", "13"], "13 is not in 2..=12"),
        (["--die-sides", "1"], "1 is not in 2..=12"),
        (
            ["--counting", "every_landing"],
            "[possible values: every_throw, turn_end]",
        ),
        (
            ["--chance-deck", "seventeen"],
            "[possible values: fifteen_cards, sixteen_cards]",
        ),
        (["--go-to-jail", "maybe"], "[possible values: true, false]"),
    ] {
        experiment()
            .args(["exact", "monopoly"])
            .args(args)
            .assert()
            .failure()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(args[0]).and(predicate::str::contains(expected)));
    }
}
