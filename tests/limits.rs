//! The analysis at the limits: every game's full analysis (tables, written as CSV and
//! Parquet, report, charts as SVG; what `experiment run` does after playing) on summaries of 10^12 trials per variant, the most a
//! spec allows, holding the largest values each game can record: War games cycling after
//! 10^8 turns and reaching the 10^8-turn limit, Monopoly games of 4×10^9 landings (the most a
//! game's u32 tallies allow), Chutes stakes of 2^31 (the largest cube cap).
//!
//! Each summary is a thousand hand-made outcomes merged into itself up to 10^12 trials, so
//! every rate, mean and maximum is the same as in the thousand-trial summary and every count
//! is 10^9 times larger. The test asserts that nothing panics or hangs, that every number the
//! thousand-trial analysis gives is a number at 10^12 too (no NaN or infinity from overflow or
//! cancellation), and that the summary table's columns scale as they must: rates, means and
//! maxima unchanged, counts 10^9 times larger, standard errors √10^9 times smaller (z
//! statistics as much larger), intervals inside the thousand-trial ones.

use std::path::Path;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use experiment_chutes::game::{BaseGameSummary, BaseOutcome, CubeOutcome, CubeSummary};
use experiment_chutes::study as chutes;
use experiment_engine::frame::write_table;
use experiment_engine::report::StudyOutput;
use experiment_engine::runner::Decisions;
use experiment_engine::spec::{Experiment, TableFormat};
use experiment_engine::studies::{self, Played, Rules, SummaryOf};
use experiment_engine::summary::Summary;
use experiment_monopoly::game::{MonopolyOutcome, MonopolySummary, BOARD_SIZE};
use experiment_monopoly::study as monopoly;
use experiment_twentyone::game::{TwentyOneOutcome, TwentyOneSummary};
use experiment_twentyone::study as twentyone;
use experiment_war::game::{Player, WarOutcome, WarResult, WarSummary};
use experiment_war::study as war;
use polars::prelude::{AnyValue, DataFrame};

/// Trials in each hand-made summary.
const BASE: u64 = 1_000;
/// The most trials per variant a spec allows.
const LIMIT: u64 = 1_000_000_000_000;

/// A deterministic stream of numbers for the hand-made outcomes.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % bound
    }
}

/// Genuine summaries of `trials` trials each pass the checks a summaries file's parts face
/// (`Summary::check`), however large: the checks refuse only what no run can record.
fn passes_the_file_checks<S: Summary>(summaries: &[S], trials: u64) {
    for (i, summary) in summaries.iter().enumerate() {
        if let Err(reason) = summary.check(trials) {
            panic!("variant {i} of {trials} trials fails its check: {reason}");
        }
    }
}

/// `summary` merged with itself into `times` copies (binary doubling: 40 merges for 10^9).
fn times<S: Summary>(summary: &S, mut times: u64) -> S {
    let (mut total, mut power) = (S::default(), summary.clone());
    while times > 0 {
        if times & 1 == 1 {
            total.merge(&power);
        }
        let copy = power.clone();
        power.merge(&copy);
        times >>= 1;
    }
    total
}

fn summaries<S: Summary>(variants: usize, outcome: impl Fn(&mut Lcg, u64) -> S::Outcome) -> Vec<S> {
    (0..variants as u64)
        .map(|v| {
            let mut rng = Lcg(v + 1);
            let mut summary = S::default();
            for i in 0..BASE {
                summary.record(&outcome(&mut rng, i));
            }
            summary
        })
        .collect()
}

fn experiment(spec: &Path, trials: u64) -> Experiment {
    let (_, mut experiment) = experiment::registry().load(spec).expect("the spec loads");
    experiment.trials = trials;
    experiment
}

/// A spec file written into `dir` from `text`.
fn spec(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).expect("spec written");
    path
}

/// What a fixed run of `experiment` (independent design) that played `summaries`, and
/// `beside` them what the game plays besides its variants, gives: the whole analysis of the
/// study of `R`, as `experiment run` makes it after playing.
fn analysed<R: Rules>(
    experiment: &Experiment,
    summaries: Vec<SummaryOf<R>>,
    beside: &R::Beside,
) -> StudyOutput {
    let played = Played {
        summaries,
        paired: None,
        decisions: Decisions::None,
    };
    studies::analyse::<R>(experiment, &played, beside).expect("the study's analysis")
}

/// Runs `analyse` for the thousand-trial and the 10^12-trial summaries and checks the two
/// outputs, failing if either takes more than ten minutes (a hang guard, not a speed test).
fn check(name: &'static str, analyse: impl Fn(u64) -> StudyOutput + Send + 'static) {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let small = analyse(1);
        let large = analyse(LIMIT / BASE);
        let _ = send.send((small, large));
    });
    let (small, large) = match receive.recv_timeout(Duration::from_secs(600)) {
        Ok(outputs) => outputs,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{name}: the analysis did not finish"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{name}: the analysis panicked"),
    };
    let dir = tempfile::tempdir().expect("temporary folder");
    for (stem, chart) in &large.charts {
        chart
            .save_svg(&dir.path().join(format!("{stem}.svg")))
            .unwrap_or_else(|e| panic!("{name}: chart {stem}: {e}"));
    }
    for table in &large.tables {
        for format in [TableFormat::Csv, TableFormat::Parquet] {
            let path = dir
                .path()
                .join(format!("{}.{}", table.name, format.extension()));
            write_table(&mut table.frame.clone(), &path, format)
                .unwrap_or_else(|e| panic!("{name}: table {}: {e}", table.name));
        }
    }
    let report = experiment_engine::report::markdown::render(&large.report);
    assert!(!report.contains("NaN"), "{name}: the report says NaN");
    assert_eq!(small.tables.len(), large.tables.len(), "{name}");
    for (a, b) in small.tables.iter().zip(&large.tables) {
        assert_eq!(a.name, b.name);
        numbers_stay_numbers(name, &a.name, &a.frame, &b.frame);
        if a.name == "summary" {
            summary_scales(name, &a.frame, &b.frame);
        }
    }
}

fn number(value: AnyValue) -> Option<f64> {
    match value {
        AnyValue::Float64(x) => Some(x),
        AnyValue::Float32(x) => Some(f64::from(x)),
        AnyValue::Int64(x) => Some(x as f64),
        AnyValue::Int32(x) => Some(f64::from(x)),
        AnyValue::UInt64(x) => Some(x as f64),
        AnyValue::UInt32(x) => Some(f64::from(x)),
        _ => None,
    }
}

/// Every cell that is a finite number at a thousand trials is one at 10^12.
fn numbers_stay_numbers(game: &str, table: &str, small: &DataFrame, large: &DataFrame) {
    assert_eq!(small.shape(), large.shape(), "{game} {table}");
    for (a, b) in small.columns().iter().zip(large.columns()) {
        for row in 0..a.len() {
            let (x, y) = (a.get(row).unwrap(), b.get(row).unwrap());
            if let Some(x) = number(x).filter(|x| x.is_finite()) {
                let y = number(y.clone());
                assert!(
                    y.is_some_and(f64::is_finite),
                    "{game} {table}.{} row {row}: {x} at {BASE} trials but {y:?} at 10^12",
                    a.name()
                );
            }
        }
    }
}

/// Each column of the summary table is unchanged (a rate, a mean, a maximum), 10^9 times
/// larger (a count; or 2^63 − 1, where count columns saturate), √10^9 times smaller (a
/// standard error) or larger (a z statistic), or an interval bound inside the thousand-trial
/// interval.
fn summary_scales(game: &str, small: &DataFrame, large: &DataFrame) {
    let k = (LIMIT / BASE) as f64;
    // Standard deviations move by √(n/(n − 1)) between the two sizes, n ≥ 250 here.
    let close = |a: f64, b: f64| (a - b).abs() <= 3e-3 * a.abs().max(b.abs());
    for (a, b) in small.columns().iter().zip(large.columns()) {
        let column = a.name().to_string();
        for row in 0..a.len() {
            let (Some(x), Some(y)) = (number(a.get(row).unwrap()), number(b.get(row).unwrap()))
            else {
                continue;
            };
            if !x.is_finite() {
                continue;
            }
            let ok = if column.ends_with("_lo") {
                y >= x - 1e-12 * x.abs()
            } else if column.ends_with("_hi") {
                y <= x + 1e-12 * x.abs()
            } else if y == i64::MAX as f64 {
                // Count columns are 64-bit integers, saturated past 2^63 − 1.
                x * k >= y
            } else {
                // A z statistic against an exact value grows as √k.
                [1.0, k, 1.0 / k.sqrt(), k.sqrt()]
                    .iter()
                    .any(|&factor| close(x * factor, y))
            };
            assert!(
                ok,
                "{game} summary.{column} row {row}: {x} at {BASE} trials, {y} at 10^12"
            );
        }
    }
}

#[test]
fn war_at_ten_to_the_twelve_games_of_up_to_ten_to_the_eight_turns() {
    let dir = tempfile::tempdir().unwrap();
    let path = spec(
        dir.path(),
        "war_limits",
        "version = 1\nname = \"war_limits\"\ngame = \"war\"\nseed = 1\ntrials = 1000\n\
         [params]\nmax_turns = 100_000_000\n[sweep]\nplacement = [\"random\", \"high_first\"]\n",
    );
    let base: Vec<WarSummary> = summaries(2, |rng, i| match i % 4 {
        // Cycling after nearly 10^8 turns, with long periods.
        0 => {
            let period = 1 + rng.below(100_000) as u32;
            let entry_turn = 99_999_999 - period - rng.below(1_000) as u32;
            WarOutcome {
                result: WarResult::Cycled { entry_turn, period },
                turns: entry_turn + period,
                wars: rng.below(1_000_000) as u32,
                double_wars: rng.below(1_000) as u32,
            }
        }
        1 if i % 8 == 1 => WarOutcome {
            result: WarResult::Infinite,
            turns: 100_000_000,
            wars: 10_000_000,
            double_wars: 1_000_000,
        },
        _ => {
            // Finished games, one in ten a million turns long with a war every turn.
            let turns = if i % 10 == 2 {
                1_000_000 - rng.below(10) as u32
            } else {
                10 + rng.below(3_000) as u32
            };
            let result = match rng.below(21) {
                0 => WarResult::Draw,
                r if r % 2 == 0 => WarResult::Won(Player::One),
                _ => WarResult::Won(Player::Two),
            };
            WarOutcome {
                result,
                turns,
                wars: turns,
                double_wars: turns / 2,
            }
        }
    });
    check("war", move |k| {
        let scaled: Vec<WarSummary> = base.iter().map(|s| times(s, k)).collect();
        passes_the_file_checks(&scaled, BASE * k);
        analysed::<war::WarParams>(&experiment(&path, BASE * k), scaled, &())
    });
}

#[test]
fn monopoly_at_ten_to_the_twelve_games_of_four_billion_landings() {
    let dir = tempfile::tempdir().unwrap();
    let path = spec(
        dir.path(),
        "monopoly_limits",
        "version = 1\nname = \"monopoly_limits\"\ngame = \"monopoly\"\nseed = 1\n\
         trials = 1000\n[params]\nturns = 1_000_000\nplayers = 1_000\n\
         [sweep]\njail = [\"long_stay\", \"short_stay\"]\n",
    );
    // Up to u32::MAX / BOARD_SIZE landings per square: about 4.3×10^9 a game.
    let most = u64::from(u32::MAX) / BOARD_SIZE as u64;
    let base: Vec<MonopolySummary> = summaries(2, |rng, i| {
        let mut landings = [0u32; BOARD_SIZE];
        for (square, count) in landings.iter_mut().enumerate() {
            *count = if i % 2 == 0 {
                (most - rng.below(most / 10 + square as u64 + 1)) as u32
            } else {
                rng.below(most) as u32
            };
        }
        MonopolyOutcome { landings }
    });
    check("monopoly", move |k| {
        let scaled: Vec<MonopolySummary> = base.iter().map(|s| times(s, k)).collect();
        passes_the_file_checks(&scaled, BASE * k);
        analysed::<monopoly::MonopolyParams>(&experiment(&path, BASE * k), scaled, &())
    });
}

#[test]
fn twentyone_at_ten_to_the_twelve_hands() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/twentyone_thresholds.toml");
    let variants = experiment(&path, BASE).variants.len();
    let base: Vec<TwentyOneSummary> = summaries(variants, |rng, _| {
        let player_bust = rng.below(4) == 0;
        let player_total = if player_bust {
            22 + rng.below(9) as u8
        } else {
            12 + rng.below(10) as u8
        };
        let dealer_bust = !player_bust && rng.below(3) == 0;
        let dealer_total = if player_bust {
            0
        } else if dealer_bust {
            22 + rng.below(5) as u8
        } else {
            17 + rng.below(5) as u8
        };
        TwentyOneOutcome {
            player_won: !player_bust && (dealer_bust || player_total > dealer_total),
            player_bust,
            dealer_bust,
            player_total,
            dealer_total,
            player_cards: 2 + rng.below(5) as u8,
        }
    });
    check("twentyone", move |k| {
        let scaled: Vec<TwentyOneSummary> = base.iter().map(|s| times(s, k)).collect();
        passes_the_file_checks(&scaled, BASE * k);
        analysed::<twentyone::TwentyOneParams>(&experiment(&path, BASE * k), scaled, &())
    });
}

#[test]
fn chutes_at_ten_to_the_twelve_games_with_the_largest_cube() {
    let dir = tempfile::tempdir().unwrap();
    let path = spec(
        dir.path(),
        "chutes_limits",
        "version = 1\nname = \"chutes_limits\"\ngame = \"chutes\"\nseed = 1\ntrials = 1000\n\
         [params]\nmax_cube = 2147483648\n\
         [sweep]\nfirst = [\"always\", \"optimal\"]\nsecond = [\"never\", \"always\"]\n",
    );
    let pairings = experiment(&path, BASE).variants.len();
    // Stakes of every power of two up to the cap, 2^31.
    let base: Vec<CubeSummary> = summaries(pairings, |rng, i| {
        let doubles = (i % 32) as u32;
        let stake = 1u32 << doubles;
        let p1_won = rng.below(2) == 0;
        let dropped = doubles > 0 && rng.below(3) == 0;
        CubeOutcome {
            payoff: if p1_won { 1 } else { -1 } * i64::from(stake),
            final_stake: stake,
            dropped,
            cap_reached: doubles == 31,
            doubles,
            turns: 7 + rng.below(400) as u32,
            p1_won,
        }
    });
    let solo: Vec<BaseGameSummary> = summaries(1, |rng, _| BaseOutcome {
        p1_won: rng.below(2) == 0,
        turns: 7 + rng.below(600) as u32,
    });
    let solvers = chutes::solvers(&experiment(&path, BASE)).expect("the solvers");
    check("chutes", move |k| {
        let scaled: Vec<CubeSummary> = base.iter().map(|s| times(s, k)).collect();
        passes_the_file_checks(&scaled, BASE * k);
        let base_game = times(&solo[0], k);
        passes_the_file_checks(std::slice::from_ref(&base_game), BASE * k);
        let beside = chutes::Beside {
            solvers: solvers.clone(),
            base: base_game,
            tournaments: Vec::new(),
            all: None,
        };
        analysed::<chutes::ChutesParams>(&experiment(&path, BASE * k), scaled, &Some(beside))
    });
}
