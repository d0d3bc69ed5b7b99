//! Readings computed from what ran: every shipped spec run with one variant, with two, with
//! the variants the issue found wrong readings for, and whole, and each reading's claims
//! checked against the tables of the same run.

use std::path::{Path, PathBuf};

use crate::common::{chutes_reading, named_after, numbers, read_csv, shipped_specs, texts};

/// The game and variant names `validate` prints for `spec`.
fn game_and_variants(spec: &Path) -> (String, Vec<String>) {
    let output = crate::common::experiment()
        .arg("validate")
        .arg(spec)
        .output()
        .expect("validate runs");
    assert!(output.status.success(), "{} is not valid", spec.display());
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let game = text
        .split("on game '")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("the game is named")
        .to_string();
    let variants = text
        .lines()
        .skip(1)
        .filter(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().nth(1).map(str::to_string))
        .collect();
    (game, variants)
}

/// Trials per variant small enough for a test, large enough for every game to finish some.
fn trials(game: &str) -> &'static str {
    match game {
        "monopoly" => "40",
        _ => "300",
    }
}

/// Runs `spec` with `variants` (all when empty) into a fresh folder and returns it.
fn run(spec: &Path, game: &str, variants: &[&str]) -> (tempfile::TempDir, PathBuf) {
    run_trials(spec, trials(game), variants)
}

/// As [`run`], with `trials` per variant.
fn run_trials(spec: &Path, trials: &str, variants: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let mut command = crate::common::experiment();
    command
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--trials", trials, "--out"])
        .arg(&out);
    for variant in variants {
        command.args(["--variant", variant]);
    }
    command.assert().success();
    (dir, out)
}

/// The `## Reading` section of a run's report.
fn reading(out: &Path) -> String {
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    let start = report
        .find("## Reading")
        .unwrap_or_else(|| panic!("no reading in\n{report}"));
    let rest = &report[start + 2..];
    let end = rest.find("\n## ").map_or(rest.len(), |i| i + 1);
    rest[..end].to_string()
}

/// The row label of the largest (or smallest) finite value of `column` in `frame`.
fn extreme(frame: &polars::prelude::DataFrame, label: &str, column: &str, max: bool) -> String {
    let labels = texts(frame, label);
    let values = numbers(frame, column);
    let best = (0..values.len())
        .filter(|&i| values[i].is_finite())
        .reduce(|b, i| {
            if (max && values[i] > values[b]) || (!max && values[i] < values[b]) {
                i
            } else {
                b
            }
        })
        .expect("a finite value");
    labels[best].clone()
}

/// Claims every reading must not make, whatever ran.
fn check_common(text: &str, out: &Path) {
    for wrong in [
        "0 of 0",
        "1 opponents",
        "(no opponent played in both seats)",
    ] {
        assert!(!text.contains(wrong), "reading says {wrong:?}:\n{text}");
    }
    // A test without information has no p-value; none reads p = 1 with a zero-width effect.
    let comparisons = read_csv(&out.join("comparisons.csv"));
    let tests = texts(&comparisons, "test");
    let p = numbers(&comparisons, "p_value");
    let (lo, hi) = (
        numbers(&comparisons, "effect_lo"),
        numbers(&comparisons, "effect_hi"),
    );
    let ratios = if crate::common::header(&comparisons).contains(&"variance_ratio".to_string()) {
        numbers(&comparisons, "variance_ratio")
    } else {
        Vec::new()
    };
    for k in 0..tests.len() {
        if tests[k] == "no data" {
            assert!(p[k].is_nan(), "row {k}: a no-data test with a p-value");
        } else if ratios.get(k).is_some_and(|r| r.is_infinite()) && tests[k].starts_with("paired t")
        {
            // On common numbers a mean difference that never varied while its sides did is
            // read as known exactly (zero-width), not missing; McNemar's interval stays wide.
        } else {
            assert!(
                !(p[k] == 1.0 && lo[k] == 0.0 && hi[k] == 0.0),
                "row {k}: a 0-against-0 test reads p = 1"
            );
        }
    }
}

fn check_war(text: &str, out: &Path, variants: usize) {
    let summary = read_csv(&out.join("summary.csv"));
    if variants == 1 {
        assert!(
            !text.contains("shortest") && !text.contains("longest"),
            "{text}"
        );
        assert!(!text.contains("pairwise"), "{text}");
    } else {
        let labels = texts(&summary, "variant");
        let means = numbers(&summary, "mean_turns");
        let mean_of = |name: &str| means[labels.iter().position(|l| l == name).expect("row")];
        let lowest = mean_of(&extreme(&summary, "variant", "mean_turns", false));
        let highest = mean_of(&extreme(&summary, "variant", "mean_turns", true));
        if lowest == highest {
            assert!(text.contains("none is shorter or longer"), "{text}");
            assert!(!text.contains("shortest"), "{text}");
            return;
        }
        let shortest = named_after(text, "shortest with").expect("a shortest strategy");
        let longest = named_after(text, "longest with").expect("a longest strategy");
        assert_eq!(mean_of(&shortest), lowest, "{text}");
        assert_eq!(mean_of(&longest), highest, "{text}");
    }
}

/// The whole number after `marker` in `text`.
fn count_after(text: &str, marker: &str) -> usize {
    let rest = &text[text
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in\n{text}"))
        + marker.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no count after {marker:?} in\n{text}"))
}

/// The reading's "Against the reference." sentence agrees with the rows of `comparisons.csv`
/// that involve the reference it names: the rules below and above it, and those it cannot be
/// told from.
fn check_against_the_reference(text: &str, out: &Path, family: &str) {
    let line = text
        .lines()
        .find(|l| l.contains("**Against the reference.**"))
        .unwrap_or_else(|| panic!("no sentence on the reference in\n{text}"));
    let reference =
        named_after(line, "**Against the reference.**").expect("the reference is named");
    let comparisons = read_csv(&out.join("comparisons.csv"));
    let (families, a, b) = (
        texts(&comparisons, "family"),
        texts(&comparisons, "a"),
        texts(&comparisons, "b"),
    );
    let (effect, holm) = (
        numbers(&comparisons, "effect"),
        numbers(&comparisons, "p_holm"),
    );
    let (mut below, mut above, mut tied) = (0, 0, Vec::new());
    let mut rows = 0;
    for k in 0..families.len() {
        if families[k] != family || (a[k] != reference && b[k] != reference) {
            continue;
        }
        rows += 1;
        let (rule, seen) = if b[k] == reference {
            (&a[k], effect[k])
        } else {
            (&b[k], -effect[k])
        };
        if holm[k] < 0.05 {
            if seen < 0.0 {
                below += 1;
            } else if seen > 0.0 {
                above += 1;
            }
        } else {
            tied.push(format!("`{rule}`"));
        }
    }
    assert!(rows > 0, "no test involves {reference}:\n{line}");
    assert_eq!(count_after(line, "compares them: "), below, "{line}");
    assert_eq!(
        count_after(line, &format!("{below} of ")),
        rows,
        "the rules compared with {reference}:\n{line}"
    );
    assert_eq!(count_after(line, "than it and "), above, "{line}");
    if tied.is_empty() {
        assert!(
            line.contains("None is statistically indistinguishable"),
            "{line}"
        );
    } else {
        let listed = line
            .split("Not distinguishable from it at this sample size: ")
            .nth(1)
            .unwrap_or_else(|| panic!("no undistinguished rules in {line}"));
        assert_eq!(listed.trim_end_matches('.'), tied.join(", "), "{line}");
    }
}

fn check_twentyone(text: &str, out: &Path, variants: usize) {
    let summary = read_csv(&out.join("summary.csv"));
    let ranked = if summary
        .get_column_names()
        .iter()
        .any(|c| c.as_str() == "mean_payoff")
    {
        "mean_payoff"
    } else {
        "win_rate"
    };
    let best = extreme(&summary, "variant", ranked, true);
    if variants > 1 {
        check_against_the_reference(text, out, ranked);
    }
    if variants == 1 {
        assert!(!text.contains("Best rule"), "{text}");
        assert!(text.contains("Only one rule ran"), "{text}");
    } else {
        assert_eq!(
            named_after(text, "**Best rule.**").as_deref(),
            Some(best.as_str())
        );
        let exact = extreme(&summary, "variant", &format!("exact_{ranked}"), true);
        if exact != best {
            assert_eq!(
                named_after(text, "the best of these rules is").as_deref(),
                Some(exact.as_str())
            );
        }
    }
}

fn check_chutes(text: &str, out: &Path) {
    let payoffs = read_csv(&out.join("payoffs.csv"));
    let (first, second) = (texts(&payoffs, "first"), texts(&payoffs, "second"));
    let payoff = numbers(&payoffs, "mean_payoff");
    let capped = numbers(&payoffs, "cap_reached");
    if capped.iter().all(|&c| c == 0.0) {
        assert!(
            !text.contains("pairings dominate the averages"),
            "no pairing reached the cap:\n{text}"
        );
    }
    let strategies = read_csv(&out.join("strategies.csv"));
    if let Some(best) = named_after(text, "**Which strategy makes money.**") {
        assert_eq!(
            best,
            extreme(&strategies, "strategy", "mean_payoff", true),
            "{text}"
        );
        // Contributions of each opponent to the best strategy's average.
        let mut by_opponent: Vec<(String, f64)> = Vec::new();
        let mut seats = (false, false);
        for k in 0..payoff.len() {
            let (opponent, sign) = if first[k] == best && second[k] != best {
                seats.0 = true;
                (&second[k], 1.0)
            } else if second[k] == best && first[k] != best {
                seats.1 = true;
                (&first[k], -1.0)
            } else {
                continue;
            };
            match by_opponent.iter_mut().find(|(o, _)| o == opponent) {
                Some((_, sum)) => *sum += sign * payoff[k],
                None => by_opponent.push((opponent.clone(), sign * payoff[k])),
            }
        }
        let total: f64 = by_opponent.iter().map(|(_, c)| c.abs()).sum();
        let dominated =
            by_opponent.len() > 1 && by_opponent.iter().any(|(_, c)| c.abs() > total / 2.0);
        if dominated {
            assert!(
                !text.contains("does best"),
                "best from a dominated average:\n{text}"
            );
        }
        if seats != (true, true) {
            assert!(!text.contains("opponents and both seats"), "{text}");
        }
    }
    chutes_reading::check_money(out);
    chutes_reading::check_across(text, out);
}

fn check_monopoly(text: &str, out: &Path, variants: &[String]) {
    assert!(text.contains("just visiting"), "{text}");
    let landing = read_csv(&out.join("landing.csv"));
    let (names, squares) = (texts(&landing, "variant"), texts(&landing, "name"));
    let freq = numbers(&landing, "freq");
    for variant in variants {
        let top = (0..freq.len())
            .filter(|&i| &names[i] == variant)
            .reduce(|b, i| if freq[i] > freq[b] { i } else { b })
            .expect("the variant's squares");
        let marker = format!("**Most landed on with `{variant}`.** ");
        let start = text.find(&marker).unwrap_or_else(|| panic!("{text}")) + marker.len();
        assert!(
            text[start..].starts_with(&squares[top]),
            "{variant}: the most landed square is {}:\n{text}",
            squares[top]
        );
    }
}

/// Runs `spec` with `chosen` variants (all when empty) and checks its reading.
fn check(spec: &Path, game: &str, all: &[String], chosen: &[&str]) {
    check_trials(spec, game, all, chosen, trials(game));
}

/// As [`check`], with `trials` per variant.
fn check_trials(spec: &Path, game: &str, all: &[String], chosen: &[&str], trials: &str) {
    // Shown with a failure: which run a claim was checked on.
    println!(
        "checking {} with {chosen:?} at {trials} trials",
        spec.display()
    );
    let (_dir, out) = run_trials(spec, trials, chosen);
    let text = reading(&out);
    let ran: Vec<String> = if chosen.is_empty() {
        all.to_vec()
    } else {
        chosen.iter().map(|v| v.to_string()).collect()
    };
    check_common(&text, &out);
    match game {
        "war" => check_war(&text, &out, ran.len()),
        "twentyone" => check_twentyone(&text, &out, ran.len()),
        "chutes" => check_chutes(&text, &out),
        "monopoly" => check_monopoly(&text, &out, &ran),
        _ => {}
    }
}

#[test]
fn every_spec_reads_right_with_one_variant_two_and_all() {
    for spec in shipped_specs() {
        let (game, variants) = game_and_variants(&spec);
        check(&spec, &game, &variants, &[&variants[0]]);
        if variants.len() > 1 {
            check(&spec, &game, &variants, &[&variants[0], &variants[1]]);
        }
        check(&spec, &game, &variants, &[]);
    }
}

#[test]
fn the_variant_sets_the_issue_found_wrong_readings_for_read_right() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    for (file, chosen) in [
        ("chutes_doubling.toml", vec!["optimal-never"]),
        ("chutes_doubling.toml", vec!["optimal-optimal"]),
        (
            "chutes_doubling.toml",
            vec!["always-threshold", "threshold-always"],
        ),
        ("war_placement.toml", vec!["random"]),
        ("twentyone_thresholds.toml", vec!["optimal"]),
    ] {
        let spec = dir.join(file);
        let (game, variants) = game_and_variants(&spec);
        check(&spec, &game, &variants, &chosen);
    }
    // One pairing, one seat each: the reading says so.
    let spec = dir.join("chutes_doubling.toml");
    let (_dir, out) = run(&spec, "chutes", &["optimal-never"]);
    let text = reading(&out);
    assert!(text.contains("1 opponent as player 1 only"), "{text}");
    assert!(text.contains("never reached its cap"), "{text}");
}

#[test]
fn war_0_against_0_tests_read_no_data() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/war_placement.toml");
    let (_dir, out) = run(&spec, "war", &["winner_first", "random"]);
    let comparisons = read_csv(&out.join("comparisons.csv"));
    let families = texts(&comparisons, "family");
    let tests = texts(&comparisons, "test");
    let row = families
        .iter()
        .position(|f| f == "nonterminating_rate")
        .expect("a nonterminating_rate row");
    assert_eq!(
        tests[row], "no data",
        "no game of either strategy is endless"
    );
    for column in ["statistic", "p_value", "p_holm", "effect", "effect_lo"] {
        assert!(numbers(&comparisons, column)[row].is_nan(), "{column}");
    }
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("| winner_first | random | no data | – | no data | no data | – | – |"),
        "{report}"
    );
}

#[test]
fn play_chutes_prints_its_result_once_in_moves() {
    let output = crate::common::experiment()
        .args(["play", "chutes", "--seed", "3"])
        .output()
        .expect("play runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(text.matches(" wins").count(), 1, "{text}");
    assert!(!text.contains("won:"), "{text}");
    let last = text.lines().last().expect("lines");
    assert!(last.contains(" moves ("), "{last}");
    // The moves of both players: as many rolls as the game printed.
    let rolls = text.lines().filter(|l| l.contains(" rolls ")).count();
    assert!(last.contains(&format!("after {rolls} moves")), "{last}");
}

#[test]
fn play_war_out_says_where_it_wrote_the_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("game.txt");
    let output = crate::common::experiment()
        .args(["play", "war", "--seed", "7", "--out"])
        .arg(&path)
        .output()
        .expect("play runs");
    assert!(output.status.success());
    assert!(output.stdout.is_empty(), "standard output stays empty");
    let message = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(path.exists());
}

/// Twenty-One with pushes, 3:2 naturals, six decks and a computer that hits soft 17, standing
/// at 12 to 21, in `design`.
fn push_spec(dir: &Path, design: &str) -> PathBuf {
    let path = dir.join(format!("push_{design}.toml"));
    std::fs::write(
        &path,
        format!(
            "version = 1\nname = \"push\"\ngame = \"twentyone\"\nseed = 5\ntrials = 1000\n\
             [params]\ndecks = 6\nsoft_17 = \"hit\"\ntie = \"push\"\nnatural_pays = 1.5\n\
             [sweep]\nstand_at = {{ from = 12, to = 21 }}\n\
             [design]\nrandom_numbers = \"{design}\"\n"
        ),
    )
    .expect("spec written");
    path
}

/// Every subset a small generator picks: the same subsets at every run of the test.
fn subsets(all: &[String], count: usize) -> Vec<Vec<&str>> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..count)
        .map(|_| {
            let picked: Vec<&str> = all
                .iter()
                .filter(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    state >> 62 == 0
                })
                .map(String::as_str)
                .collect();
            picked
        })
        .filter(|picked| !picked.is_empty())
        .collect()
}

#[test]
fn twentyone_reads_against_the_reference_its_table_shows_in_both_designs() {
    let dir = tempfile::tempdir().expect("temp dir");
    for design in ["independent", "common"] {
        let spec = push_spec(dir.path(), design);
        let (game, all) = game_and_variants(&spec);
        // Enough games that some rules differ significantly and some do not.
        check_trials(&spec, &game, &all, &[], "40000");
        for one in &all {
            check(&spec, &game, &all, &[one]);
        }
        for chosen in subsets(&all, 6) {
            check_trials(&spec, &game, &all, &chosen, "5000");
        }
    }
}

/// `text` (a spec) with its design set to `design`: the `random_numbers` line of its
/// `[design]` table replaced, or a `[design]` table added.
fn with_design(text: &str, design: &str) -> String {
    let line = format!("random_numbers = \"{design}\"");
    if text.contains("[design]") {
        text.lines()
            .map(|l| {
                if l.trim_start().starts_with("random_numbers") {
                    line.clone()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        format!("{text}\n[design]\n{line}\n")
    }
}

/// Checks the reading of `spec` in both designs: every variant alone, four pseudo-random
/// subsets and all variants.
fn check_everywhere(spec: &Path, dir: &Path) {
    let text = std::fs::read_to_string(spec).expect("spec");
    let stem = spec.file_stem().expect("stem").to_string_lossy();
    for design in ["independent", "common"] {
        let copy = dir.join(format!("{stem}_{design}.toml"));
        std::fs::write(&copy, with_design(&text, design)).expect("spec written");
        let (game, all) = game_and_variants(&copy);
        for one in &all {
            check(&copy, &game, &all, &[one]);
        }
        for chosen in subsets(&all, 4) {
            check(&copy, &game, &all, &chosen);
        }
        check(&copy, &game, &all, &[]);
    }
}

/// Every shipped and literature spec, in both designs, with every single variant, random
/// subsets and all of them: each claim of the reading matches the tables it cites.
#[test]
fn every_shipped_and_literature_spec_reads_right_in_both_designs_and_any_subset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut specs = shipped_specs();
    let mut literature: Vec<PathBuf> = std::fs::read_dir(root.join("literature"))
        .expect("experiments/literature")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    literature.sort();
    assert!(literature.len() >= 6, "the literature specs are missing");
    specs.extend(literature);
    for spec in specs {
        check_everywhere(&spec, dir.path());
    }
}

/// Rule variants: War decks with draws, Chutes boards and dice, every Twenty-One table rule.
#[test]
fn rule_variants_read_right_in_both_designs_and_any_subset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut specs = vec![
        (
            "war_draws",
            "game = \"war\"\n[params]\nranks = 2\nsuits = 2\nface_down = 0\nmax_turns = 2000\n\
             [sweep]\nplacement = [\"winner_first\", \"loser_first\", \"random\"]\n"
                .to_string(),
        ),
        (
            "war_one_rank",
            "game = \"war\"\n[params]\nranks = 1\nsuits = 4\nmax_turns = 200\n\
             [sweep]\nplacement = [\"winner_first\", \"random\"]\n"
                .to_string(),
        ),
        (
            "chutes_board",
            "game = \"chutes\"\n[params]\nboard = [[3, 40], [20, 2], [55, 90], [97, 10]]\n\
             die_sides = 4\novershoot = \"stays\"\nmax_cube = 16\n\
             [sweep]\nfirst = [\"never\", \"optimal\", \"threshold\"]\n\
             second = [\"never\", \"take_only\"]\n"
                .to_string(),
        ),
    ];
    for decks in [1, 6] {
        for tie in ["dealer", "push"] {
            for soft_17 in ["stand", "hit"] {
                for natural_pays in ["1", "1.5"] {
                    specs.push((
                        "twentyone_rules",
                        format!(
                            "game = \"twentyone\"\n[params]\ndecks = {decks}\ntie = \"{tie}\"\n\
                             soft_17 = \"{soft_17}\"\nnatural_pays = {natural_pays}\n\
                             [sweep]\nstand_at = {{ from = 14, to = 18 }}\n"
                        ),
                    ));
                }
            }
        }
    }
    for (index, (name, body)) in specs.iter().enumerate() {
        let path = dir.path().join(format!("{name}_{index}.toml"));
        std::fs::write(
            &path,
            format!("version = 1\nname = \"{name}\"\nseed = {index}\ntrials = 300\n{body}"),
        )
        .expect("spec written");
        check_everywhere(&path, dir.path());
    }
}

/// Chutes with `never`, `threshold` and `cautious` in each seat, every cube cap of `caps`
/// its own tournament, on `board` (a TOML value, or the standard board when empty), in
/// `design`.
fn chutes_spec(dir: &Path, design: &str, board: &str, caps: &str) -> PathBuf {
    let path = dir.join(format!("chutes_{design}_{}.toml", board.len() + caps.len()));
    let board = if board.is_empty() {
        String::new()
    } else {
        format!("board = {board}\n")
    };
    std::fs::write(
        &path,
        format!(
            "version = 1\nname = \"chutes\"\ngame = \"chutes\"\nseed = 13\ntrials = 1000\n\
             [params]\ndouble_at = 0.65\n{board}\
             [sweep]\nfirst = [\"never\", \"threshold\", \"cautious\"]\n\
             second = [\"never\", \"threshold\", \"cautious\"]\nmax_cube = {caps}\n\
             [design]\nrandom_numbers = \"{design}\"\n"
        ),
    )
    .expect("spec written");
    path
}

#[test]
fn chutes_reads_its_tables_in_both_designs_on_any_board() {
    let dir = tempfile::tempdir().expect("temp dir");
    for design in ["independent", "common"] {
        for (board, caps) in [("", "[64]"), ("[[3, 40], [60, 20], [90, 99]]", "[4, 64]")] {
            let spec = chutes_spec(dir.path(), design, board, caps);
            let (game, all) = game_and_variants(&spec);
            check_trials(&spec, &game, &all, &[], "3000");
            for one in &all {
                check(&spec, &game, &all, &[one]);
            }
            for chosen in subsets(&all, 4) {
                check_trials(&spec, &game, &all, &chosen, "1000");
            }
        }
    }
}
