//! Chutes & Ladders in the common design (`[design] random_numbers = "common"`): every way of
//! playing a run (threads and chunk sizes, shards and `experiment merge`, a checkpoint
//! resumed, a run interrupted and resumed, a top-up) gives the tables and report of one
//! uninterrupted run byte for byte; and the report says, per compared pair of pairings, how
//! much more precise the common dice made the comparison, which an independent run's never
//! says.

use std::fs;
use std::path::Path;

use crate::common::runs::{
    assert_same_files, checkpoint_of, interrupt_at_first_checkpoint, merge_quietly, quiet_run_args,
    run_quietly, shard_as_checkpoint, tables, write,
};
use crate::common::{experiment, numbers, read_csv, report_without_reproduce, texts};

/// Two tournaments (two cube caps) of four pairings each, in the design `design`.
fn spec(design: &str, trials: u64) -> String {
    format!(
        "version = 1\nname = \"chutes_common\"\ngame = \"chutes\"\nseed = 29\ntrials = {trials}\n\
         [params]\ntake_at = 0.25\ndouble_at = 0.6\n[sweep]\nfirst = [\"never\", \"threshold\"]\n\
         second = [\"always\", \"threshold\"]\nmax_cube = [16, 64]\n[design]\n\
         random_numbers = \"{design}\"\n"
    )
}

/// Runs `spec` into `out` with `args`, returning stderr; the run must succeed.
fn run(spec: &Path, out: &Path, args: &[&str]) -> String {
    run_quietly(experiment, spec, out, args)
}

/// Every CSV and Parquet table of `folder` with its bytes, and report.md without its
/// `- reproduce:` line (which names the folder and the run's arguments).
fn contents(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = tables(folder);
    assert!(found.len() > 4, "too few tables in {}", folder.display());
    let report = report_without_reproduce(&folder.join("report.md"));
    found.push(("report.md".into(), report.into_bytes()));
    found
}

fn assert_same(expected: &Path, actual: &Path, what: &str) {
    assert_same_files(&contents(expected), &contents(actual), what);
}

#[test]
fn a_common_chutes_run_gives_the_same_tables_every_way_it_is_played() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write(dir.path(), "spec.toml", &spec("common", 3000));
    let reference = dir.path().join("reference");
    run(&spec, &reference, &["--threads", "1"]);

    let threads = dir.path().join("threads");
    run(&spec, &threads, &["--threads", "2"]);
    assert_same(&reference, &threads, "2 threads");
    let chunks = dir.path().join("chunks");
    run(&spec, &chunks, &["--threads", "2", "--chunk-size", "37"]);
    assert_same(&reference, &chunks, "chunks of 37");

    // Three shards on different threads, merged.
    let shards = dir.path().join("shards");
    for (index, threads) in [("0/3", "1"), ("1/3", "2"), ("2/3", "2")] {
        run(&spec, &shards, &["--shard", index, "--threads", threads]);
    }
    let shard_file = fs::read_to_string(shards.join("shard-0-of-3.json")).expect("shard");
    assert!(shard_file.contains("\"design\":\"common\""), "{shard_file}");
    let merged = dir.path().join("merged");
    merge_quietly(experiment, &shards, &merged);
    assert_same(&reference, &merged, "3 shards merged");

    // A checkpoint holding the first shard's trials (the file a run of all the trials saves
    // when stopped there), finished with --resume.
    let resumed = dir.path().join("resumed");
    let checkpoint = shard_as_checkpoint(&shard_file, 3);
    fs::write(dir.path().join("resumed.checkpoint.json"), checkpoint).expect("checkpoint");
    run(&spec, &resumed, &["--resume", "--threads", "2"]);
    assert!(!dir.path().join("resumed.checkpoint.json").exists());
    assert_same(&reference, &resumed, "resumed from a checkpoint");

    // A top-up: a third of the trials, then all of them into the same folder.
    let topped = dir.path().join("topped");
    run(&spec, &topped, &["--trials", "1000"]);
    let said = run(&spec, &topped, &["--threads", "2"]);
    assert!(said.contains("Top-up: reusing 1,000 trials"), "{said}");
    assert_same(&reference, &topped, "topped up");
}

#[test]
fn a_common_chutes_run_interrupted_and_resumed_equals_an_uninterrupted_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Long enough on one thread that a checkpoint is saved well before the end.
    let spec = write(dir.path(), "spec.toml", &spec("common", 800_000));
    let out = dir.path().join("out");
    let checkpoint = checkpoint_of(&out);
    let arguments = ["--threads", "1", "--checkpoint-every", "1"];
    interrupt_at_first_checkpoint(&quiet_run_args(&spec, &out, &arguments), &out);

    let mut resume = arguments.to_vec();
    resume.push("--resume");
    run(&spec, &out, &resume);
    assert!(
        !checkpoint.exists(),
        "a finished run removes its checkpoint"
    );
    let whole = dir.path().join("whole");
    run(&spec, &whole, &["--threads", "2"]);
    assert_same(&whole, &out, "interrupted and resumed");
}

#[test]
fn the_report_says_how_much_more_precise_the_common_dice_made_each_comparison() {
    let dir = tempfile::tempdir().expect("temp dir");
    let common_spec = write(dir.path(), "common.toml", &spec("common", 4000));
    let common = dir.path().join("common");
    run(&common_spec, &common, &["--threads", "2"]);
    let report = fs::read_to_string(common.join("report.md")).expect("report");

    // The pairs compared on the same dice, with their variance ratios.
    let frame = read_csv(&common.join("comparisons.csv"));
    let families = texts(&frame, "family");
    let ratios = numbers(&frame, "variance_ratio");
    let (a, b) = (texts(&frame, "a"), texts(&frame, "b"));
    let paired: Vec<usize> = (0..families.len())
        .filter(|&row| families[row] == "pairing_points")
        .collect();
    // Per tournament, two pairs differ in the first player's strategy, two in the second's.
    assert_eq!(paired.len(), 8, "{families:?}");
    assert!(report.contains("### pairing_points"), "{report}");
    for &row in &paired {
        let ratio = ratios[row];
        assert!(ratio.is_finite() && ratio > 0.0, "row {row}: {ratio}");
        let words = experiment_engine::analysis::paired::precision_words(ratio).expect("words");
        let sentence = format!("{} − {}: ", a[row], b[row]);
        let line = report
            .lines()
            .find(|line| line.contains(&sentence) && line.contains(&words))
            .unwrap_or_else(|| panic!("no sentence for {sentence}{words} in\n{report}"));
        assert!(line.starts_with("- "), "one item per pair: {line}");
    }
    assert!(report.contains("times more precise: an independent design would need"));

    // A strategy's average over correlated pairings has its interval from every pair's
    // covariance (exact sums of products), and both contrast families are filled in.
    let strategies = read_csv(&common.join("strategies.csv"));
    for column in ["mean_payoff", "mean_payoff_lo", "mean_payoff_hi"] {
        let values = numbers(&strategies, column);
        assert!(values.iter().all(|v| v.is_finite()), "{column}: {values:?}");
    }
    assert!(
        report.contains("| strategy | opponents | average payoff (95% CI) | as player 1 |"),
        "{report}"
    );
    // Per tournament: never, threshold and always have averages (three pairs); no two
    // strategies meet in both seats, and the report says so.
    assert!(
        report.contains("`head_to_head`: no data. No two strategies"),
        "{report}"
    );
    for (family, count) in [("average_payoff", 6), ("head_to_head", 0)] {
        let rows: Vec<usize> = (0..families.len())
            .filter(|&row| families[row] == family)
            .collect();
        assert_eq!(rows.len(), count, "{family}: {families:?}");
        let tests = texts(&frame, "test");
        for &row in &rows {
            assert_eq!(
                tests[row],
                experiment_engine::stats::common_contrast::TEST,
                "{family}"
            );
            assert!(ratios[row] > 0.0, "{family}: {}", ratios[row]);
        }
        assert_eq!(
            report.contains(&format!("### {family}")),
            count > 0,
            "{report}"
        );
    }
    // Eight pairings: one job played them all, so the tournaments compare on the same dice.
    let between = read_csv(&common.join("tournament_comparisons.csv"));
    assert!(between.height() > 0);
    let tests = texts(&between, "test");
    assert!(
        tests
            .iter()
            .all(|t| t == experiment_engine::stats::common_contrast::TEST),
        "{tests:?}"
    );
    assert!(!report.contains("has no rows"), "{report}");
    assert!(!report.contains("(no data)"), "{report}");
    assert!(!report.contains("different opponents"), "{report}");
    assert!(!report.contains("Welch–Satterthwaite"), "{report}");

    // An independent run of the same spec says nothing of it.
    let independent_spec = write(dir.path(), "independent.toml", &spec("independent", 4000));
    let independent = dir.path().join("independent");
    run(&independent_spec, &independent, &["--threads", "2"]);
    let report = fs::read_to_string(independent.join("report.md")).expect("report");
    assert!(report.contains("Welch–Satterthwaite"), "{report}");
    let strategies = read_csv(&independent.join("strategies.csv"));
    let bounds = numbers(&strategies, "mean_payoff_lo");
    assert!(bounds.iter().any(|b| b.is_finite()), "{bounds:?}");
    for absent in ["pairing_points", "more precise", "same dice", "no data"] {
        assert!(
            !report.contains(absent),
            "{absent} in an independent report"
        );
    }
}

/// The rows of the table whose header starts with `| strategy | average |` in the output of
/// `experiment exact chutes`: each strategy's exact averages (overall, as player 1, as player
/// 2; NaN for a dash).
fn exact_averages(text: &str) -> Vec<(String, [f64; 3])> {
    let table = text
        .split("| strategy | average |")
        .nth(1)
        .expect("the averages table");
    table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let value = |cell: &str| cell.parse::<f64>().unwrap_or(f64::NAN);
            (
                cells[1].to_string(),
                [value(cells[2]), value(cells[3]), value(cells[4])],
            )
        })
        .collect()
}

#[test]
fn common_dice_intervals_cover_the_exact_averages_and_head_to_head_payoffs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (firsts, seconds) = (
        ["never", "threshold", "cautious"],
        ["always", "threshold", "never"],
    );
    let text = format!(
        "version = 1\nname = \"cover\"\ngame = \"chutes\"\nseed = 41\ntrials = 20000\n\
         [params]\ndouble_at = 0.6\nmax_cube = 16\n[sweep]\nfirst = {firsts:?}\n\
         second = {seconds:?}\n[design]\nrandom_numbers = \"common\"\n"
    );
    let spec = write(dir.path(), "cover.toml", &text);
    let out = dir.path().join("out");
    run(&spec, &out, &["--threads", "2"]);
    let mut exact = experiment();
    exact.args(["exact", "chutes", "--max-cube", "16", "--double-at", "0.6"]);
    for first in firsts {
        for second in seconds {
            exact.args(["--pair", &format!("{first}-{second}")]);
        }
    }
    let output = exact.output().expect("exact runs");
    assert!(output.status.success());
    let averages = exact_averages(&String::from_utf8(output.stdout).expect("UTF-8"));
    assert_eq!(averages.len(), 4, "{averages:?}");

    // Each 95% interval widened to a family-wise 99.9% one over the intervals checked (both
    // ends come from the run's own standard errors): a miss is then a 1-in-1000 event.
    let strategies = read_csv(&out.join("strategies.csv"));
    let names = texts(&strategies, "strategy");
    let mut checked = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let (_, values) = averages
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no exact average for {name}"));
        for (column, exact) in ["mean_payoff", "mean_payoff_first", "mean_payoff_second"]
            .into_iter()
            .zip(values)
        {
            let point = numbers(&strategies, column)[k];
            let hi = numbers(&strategies, &format!("{column}_hi"))[k];
            assert_eq!(point.is_nan(), exact.is_nan(), "{name} {column}");
            if exact.is_finite() {
                checked.push((format!("{name} {column}"), point, hi - point, *exact));
            }
        }
    }
    // Head to head, each seat equally: half of (a-b) minus half of (b-a), exactly.
    let payoffs = read_csv(&out.join("payoffs.csv"));
    let (first, second) = (texts(&payoffs, "first"), texts(&payoffs, "second"));
    let exact_payoff = numbers(&payoffs, "exact_payoff");
    let exact_of = |a: &str, b: &str| {
        (0..first.len())
            .find(|&k| first[k] == a && second[k] == b)
            .map(|k| exact_payoff[k])
    };
    let comparisons = read_csv(&out.join("comparisons.csv"));
    let families = texts(&comparisons, "family");
    let (a, b) = (texts(&comparisons, "a"), texts(&comparisons, "b"));
    let (effect, effect_hi) = (
        numbers(&comparisons, "effect"),
        numbers(&comparisons, "effect_hi"),
    );
    for k in (0..families.len()).filter(|&k| families[k] == "head_to_head") {
        let ab = exact_of(&a[k], &b[k]).expect("a-b played");
        let ba = exact_of(&b[k], &a[k]).expect("b-a played");
        let exact = (ab - ba) / 2.0;
        checked.push((
            format!("{} vs {}", a[k], b[k]),
            effect[k],
            effect_hi[k] - effect[k],
            exact,
        ));
    }
    assert!(checked.len() > 8, "{checked:?}");
    use experiment_engine::stats::distributions::normal_quantile;
    let widen =
        normal_quantile(1.0 - 0.001 / (2.0 * checked.len() as f64)) / normal_quantile(0.975);
    for (what, point, half, exact) in &checked {
        assert!(*half > 0.0, "{what}: an interval of width {half}");
        assert!(
            (point - exact).abs() <= widen * half,
            "{what}: {point} ± {} misses the exact {exact}",
            widen * half
        );
    }
}

#[test]
fn common_tournaments_compare_on_the_same_dice_and_cover_the_exact_differences() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = "version = 1\nname = \"between\"\ngame = \"chutes\"\nseed = 43\ntrials = 20000\n\
         [params]\nmax_cube = 16\n[sweep]\nfirst = [\"threshold\"]\n\
         second = [\"never\", \"threshold\"]\ndouble_at = [0.6, 0.7, 0.8]\n[design]\n\
         random_numbers = \"common\"\n";
    let spec = write(dir.path(), "between.toml", text);
    let one = dir.path().join("one");
    run(&spec, &one, &["--threads", "1"]);
    let two = dir.path().join("two");
    run(&spec, &two, &["--threads", "2"]);
    assert_same(&one, &two, "2 threads");

    // Every comparison between tournaments is a paired t on the same dice, with a p-value
    // and an interval, and the reading's counts are those of the table's rows.
    let between = read_csv(&one.join("tournament_comparisons.csv"));
    let report = fs::read_to_string(one.join("report.md")).expect("report");
    crate::common::chutes_reading::check_across(&report, &one);
    assert!(!report.contains("(no data)"), "{report}");
    assert!(
        report.contains("a paired t-test of the per-game contrast"),
        "{report}"
    );
    let families = texts(&between, "family");
    let (subject, a, b) = (
        texts(&between, "subject"),
        texts(&between, "a"),
        texts(&between, "b"),
    );
    let (effect, lo, hi, p) = (
        numbers(&between, "effect"),
        numbers(&between, "effect_lo"),
        numbers(&between, "effect_hi"),
        numbers(&between, "p_value"),
    );
    // Two strategies (threshold, never) and two pairings (threshold-never,
    // threshold-threshold), each over the three pairs of tournaments.
    assert_eq!(families.len(), 12, "{families:?}");
    for k in 0..families.len() {
        assert!(
            [effect[k], lo[k], hi[k], p[k]]
                .iter()
                .all(|x| x.is_finite()),
            "row {k}"
        );
        assert_eq!(
            texts(&between, "test")[k],
            experiment_engine::stats::common_contrast::TEST
        );
    }

    // Each interval, widened to a family-wise 99.9% one, covers the exact difference of the
    // exact averages (`experiment exact chutes`) or payoffs (payoffs.csv) of the two tournaments.
    // The exact averages of a tournament `double_at-d`, from `experiment exact chutes`.
    let exact_average = |name: &str, tournament: &str| -> f64 {
        let at = tournament
            .strip_prefix("double_at-")
            .expect("a double_at tournament");
        let mut exact = experiment();
        exact.args(["exact", "chutes", "--max-cube", "16", "--double-at", at]);
        exact.args(["--pair", "threshold-never", "--pair", "threshold-threshold"]);
        let output = exact.output().expect("exact runs");
        assert!(output.status.success());
        let averages = exact_averages(&String::from_utf8(output.stdout).expect("UTF-8"));
        let (_, values) = averages
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no exact average of {name}: {averages:?}"));
        values[0]
    };
    let payoffs = read_csv(&one.join("payoffs.csv"));
    let (p_tournament, first, second) = (
        texts(&payoffs, "tournament"),
        texts(&payoffs, "first"),
        texts(&payoffs, "second"),
    );
    let p_exact = numbers(&payoffs, "exact_payoff");
    let exact_in = |family: &str, subject: &str, tournament: &str| -> f64 {
        if family == "strategy_average" {
            Some(exact_average(subject, tournament))
        } else {
            (0..first.len())
                .find(|&k| {
                    format!("{}-{}", first[k], second[k]) == subject
                        && p_tournament[k] == tournament
                })
                .map(|k| p_exact[k])
        }
        .unwrap_or_else(|| panic!("no exact value of {subject} in {tournament}"))
    };
    use experiment_engine::stats::distributions::normal_quantile;
    let widen =
        normal_quantile(1.0 - 0.001 / (2.0 * families.len() as f64)) / normal_quantile(0.975);
    for k in 0..families.len() {
        let exact =
            exact_in(&families[k], &subject[k], &a[k]) - exact_in(&families[k], &subject[k], &b[k]);
        let half = hi[k] - effect[k];
        assert!(half > 0.0, "row {k}: an interval of width {half}");
        assert!(
            (effect[k] - exact).abs() <= widen * half,
            "{} {} {} - {}: {} ± {} misses the exact {exact}",
            families[k],
            subject[k],
            a[k],
            b[k],
            effect[k],
            widen * half
        );
    }
}

/// The trials the closing line reports: `N trials in` of "Results in DIR/ (N trials in …".
fn trials_said(stderr: &str) -> u64 {
    let start = stderr.find("/ (").expect("a closing line") + 3;
    let rest = &stderr[start..];
    rest[..rest.find(" trials in").expect("N trials in")]
        .parse()
        .expect("a number")
}

/// A common run counts a game of every pairing (and of the base game), as an independent run
/// does, whether its pairings play as one job or as one job per tournament: before, a trial of
/// a tournament's common job counted once, so the closing line spoke of "new trials" of a total.
#[test]
fn a_common_run_counts_every_pairings_games_as_an_independent_run_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let four = ["never", "always", "cautious", "threshold"];
    let list = |names: &[&str]| format!("{names:?}");
    for (pairings, first) in [(16, list(&four[..2])), (32, list(&four))] {
        for design in ["independent", "common"] {
            let text = format!(
                "version = 1\nname = \"count\"\ngame = \"chutes\"\nseed = 3\ntrials = 500\n\
                 [sweep]\nfirst = {first}\nsecond = {}\nmax_cube = [16, 64]\n[design]\n\
                 random_numbers = \"{design}\"\n",
                list(&four)
            );
            let spec = write(
                dir.path(),
                &format!("count_{pairings}_{design}.toml"),
                &text,
            );
            let out = dir.path().join(format!("out_{pairings}_{design}"));
            let stderr = run(&spec, &out, &[]);
            assert_eq!(
                trials_said(&stderr),
                500 * (pairings + 1),
                "{design}, {pairings} pairings: {stderr}"
            );
        }
    }
}
