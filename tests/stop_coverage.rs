//! Precision targets (`[stop]`) in-process, on the gambler's ruin (the library example's game,
//! written again here against the public API): intervals keep their coverage when each run
//! stops on the interval's width, the stopping point depends on the seed alone, each
//! variant's summary equals a fixed run of the trials it took, and a run continued from a
//! ledger (a resumed checkpoint) takes the same stages.

use std::path::Path;
use std::sync::Arc;

use experiment_engine::analysis::{Kind, Measures, Metric};
use experiment_engine::games::Game;
use experiment_engine::ledger::file::{FileKind, Identity, SummaryFile, FORMAT, FORMAT_VERSION};
use experiment_engine::ledger::Ledger;
use experiment_engine::params::{ParamDef, ParamError, ParamKind, Params};
use experiment_engine::rng::TrialRng;
use experiment_engine::runner::{Runner, RunnerSettings, Stopped};
use experiment_engine::spec::{Experiment, Variant};
use experiment_engine::studies::{run_variants, Rules, Standard};
use experiment_engine::summary::{Histogram, Summary};
use experiment_engine::summary_check;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// One gambler betting one unit at a time from `start` until broke or at `target`.
#[derive(Serialize, Deserialize)]
struct Ruin {
    p: f64,
    start: u32,
    target: u32,
}

struct RuinOutcome {
    ruined: bool,
    bets: u32,
}

impl Game for Ruin {
    type Outcome = RuinOutcome;
    type Summary = RuinSummary;

    fn play(&self, rng: &mut TrialRng) -> RuinOutcome {
        let (mut fortune, mut bets) = (self.start, 0);
        while fortune > 0 && fortune < self.target {
            fortune = if rng.random_bool(self.p) {
                fortune + 1
            } else {
                fortune - 1
            };
            bets += 1;
        }
        RuinOutcome {
            ruined: fortune == 0,
            bets,
        }
    }
}

#[derive(Clone, Default, Serialize, Deserialize)]
struct RuinSummary {
    games: u64,
    ruined: u64,
    durations: Histogram,
}

impl Summary for RuinSummary {
    type Outcome = RuinOutcome;

    fn record(&mut self, outcome: &RuinOutcome) {
        self.games += 1;
        self.ruined += u64::from(outcome.ruined);
        self.durations.record(outcome.bets as usize);
    }

    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.ruined += other.ruined;
        self.durations.merge(&other.durations);
    }

    fn check(&self, trials: u64) -> Result<(), String> {
        summary_check::games_match(self.games, trials)?;
        summary_check::at_most("ruined", self.ruined.into(), self.games.into(), "games")
    }
}

impl Default for Ruin {
    fn default() -> Self {
        Ruin {
            p: 0.45,
            start: 2,
            target: 4,
        }
    }
}

impl Params for Ruin {
    const DECLARED: &'static [ParamDef] = &[
        ParamDef::new(
            "p",
            ParamKind::Float { min: 0.0, max: 1.0 },
            "probability of winning a bet",
        ),
        ParamDef::new(
            "start",
            ParamKind::Int { min: 1, max: 100 },
            "starting units",
        ),
        ParamDef::new(
            "target",
            ParamKind::Int { min: 2, max: 100 },
            "target units",
        ),
    ];

    fn validate(&self) -> Result<(), ParamError> {
        Ok(())
    }
}

impl Rules for Ruin {
    const GAME: &'static str = "ruin_for_stop";
    const DESCRIPTION: &'static str = "Gambler's ruin (test copy)";
    type Game = Ruin;
    type Beside = ();

    fn game(self) -> Ruin {
        self
    }

    fn measures() -> Measures<RuinSummary> {
        let ruin = Kind::Proportion {
            successes: |s: &RuinSummary| s.ruined,
            of: |s| s.games,
        };
        let metrics = vec![
            Metric::new("ruin_rate", "share of games ending broke", ruin),
            Metric::new(
                "mean_duration",
                "bets until the game ends",
                Kind::Mean(|s| s.durations.moments()),
            ),
        ];
        Measures::new("games", |s| s.games, "ruin_rate", metrics)
    }
}

static STUDY: Standard<Ruin> = Standard::NEW;

/// The chance of going broke from `start` before reaching `target`, winning each bet with
/// probability `p` (not 1/2): (r^start - r^target) / (1 - r^target), r = (1 - p) / p.
fn ruin_probability(p: f64, start: i32, target: i32) -> f64 {
    let r = (1.0 - p) / p;
    (r.powi(start) - r.powi(target)) / (1.0 - r.powi(target))
}

/// The spec's experiment: two variants (p = 0.45 and p = 0.4, start 2, target 4) with the
/// precision target `stop` (the lines of a `[stop]` table).
fn ruin_experiment(stop: &str) -> Experiment {
    let text = format!(
        "version = 1\nname = \"ruin_stop\"\ngame = \"ruin_for_stop\"\nseed = 1\ntrials = 200\n\
         [params]\nstart = 2\ntarget = 4\n[sweep]\np = [0.45, 0.4]\n[stop]\n{stop}\n"
    );
    experiment::registry()
        .with(&STUDY)
        .parse(Path::new("ruin_stop.toml"), &text)
        .expect("a valid spec")
        .1
}

fn runner(threads: usize, chunk_size: u64) -> Runner {
    Runner::new(RunnerSettings {
        threads,
        chunk_size,
        show_progress: false,
    })
    .expect("a runner")
}

fn build(variant: &Variant) -> anyhow::Result<Ruin> {
    Ok(variant.params.typed::<Ruin>()?)
}

/// Plays `experiment` on `runner`: each variant's summary and where it stopped.
fn play(experiment: &Experiment, runner: &Runner) -> (Vec<RuinSummary>, Vec<Stopped>) {
    let played = run_variants(experiment, runner, &Ruin::measures(), build).expect("it runs");
    (played.summaries, played.decisions.stops().to_vec())
}

fn json(summaries: &[RuinSummary]) -> String {
    serde_json::to_string(summaries).expect("summaries serialize")
}

const TARGET: &str = "metric = \"ruin_rate\"\nhalf_width = 0.02\nmax_trials = 100_000\n\
                      stage_trials = 150";

/// 4,000 adaptive runs with different seeds: the share of final 95% intervals of the ruin
/// rate (p = 0.45) covering the exact value lies in 0.94-0.96. With 4,000 repeats the
/// standard error of a 0.95 coverage is sqrt(0.95 * 0.05 / 4000) = 0.0034, so the band is
/// about 3 standard errors wide on each side.
#[test]
fn intervals_of_runs_stopped_on_their_width_keep_their_coverage() {
    let exact = ruin_probability(0.45, 2, 4);
    let mut experiment = ruin_experiment(TARGET);
    experiment.variants.truncate(1);
    let runner = runner(2, 256);
    let measures = Ruin::measures();
    let metric = measures.metric("ruin_rate");
    let repeats = 4_000;
    let (mut covered, mut stages) = (0, std::collections::BTreeSet::new());
    for seed in 0..repeats {
        experiment.seed = 1_000 + seed;
        let (summaries, stops) = play(&experiment, &runner);
        let estimate = metric.estimate(&summaries[0]).expect("a proportion");
        let ci = estimate.confidence_interval;
        assert!(stops[0].reached, "seed {seed} reached the cap");
        assert!((ci.upper - ci.lower) / 2.0 <= 0.02);
        covered += u32::from(ci.lower <= exact && exact <= ci.upper);
        stages.insert(stops[0].trials);
    }
    let coverage = f64::from(covered) / repeats as f64;
    eprintln!("coverage {coverage} over {repeats} runs; stopping points {stages:?}");
    assert!(
        (0.94..=0.96).contains(&coverage),
        "coverage {coverage} of {repeats} runs is outside 0.94-0.96"
    );
    // The runs stopped at different stages, so the stopping rule was at work.
    assert!(stages.len() > 1, "every run stopped at {stages:?}");
}

/// The stopping point (and every summary) is the same with 1 or 2 threads and any chunk size.
#[test]
fn the_stopping_point_does_not_depend_on_threads_or_chunks() {
    let experiment = ruin_experiment(
        "metric = \"mean_duration\"\nrelative_half_width = 0.02\nmax_trials = 40_000\n\
         stage_trials = 500",
    );
    let (summaries, stops) = play(&experiment, &runner(1, 7));
    for (threads, chunk) in [(2, 1_000), (2, 64), (1, 4_096)] {
        let (other, other_stops) = play(&experiment, &runner(threads, chunk));
        assert_eq!(other_stops, stops, "{threads} threads, chunks of {chunk}");
        assert_eq!(json(&other), json(&summaries));
    }
    // The two variants need different numbers of trials.
    assert_ne!(stops[0].trials, stops[1].trials, "{stops:?}");
}

/// Each variant's summary is exactly that of a fixed run of the trials it took; a variant that
/// cannot meet its target in `max_trials` stops at the cap.
#[test]
fn each_variant_equals_a_fixed_run_of_its_trials() {
    let experiment = ruin_experiment(TARGET);
    let runner = runner(2, 100);
    let (summaries, stops) = play(&experiment, &runner);
    for (v, stop) in stops.iter().enumerate() {
        assert_eq!(stop.trials % 150, 0, "stages of 150 trials: {stop:?}");
        let mut fixed = ruin_experiment(TARGET);
        fixed.mode = experiment_engine::spec::Mode::Fixed;
        fixed.trials = stop.trials;
        fixed.variants = vec![experiment.variants[v].clone()];
        let (alone, _) = play(&fixed, &runner);
        assert_eq!(json(&alone), json(&summaries[v..=v]), "{}", stop.variant);
    }
    let capped = ruin_experiment("metric = \"ruin_rate\"\nhalf_width = 0.001\nmax_trials = 1_000");
    let (summaries, stops) = play(&capped, &runner);
    assert!(stops.iter().all(|s| !s.reached && s.trials == 1_000));
    assert!(summaries.iter().all(|s| s.games == 1_000));
}

/// The summaries header of a ledger for `experiment` (what a checkpoint carries).
fn header(experiment: &Experiment) -> SummaryFile {
    SummaryFile {
        format: FORMAT.into(),
        format_version: FORMAT_VERSION,
        kind: FileKind::Checkpoint,
        identity: Identity {
            crate_version: String::new(),
            experiment: experiment.name.clone(),
            game: "ruin_for_stop".into(),
            spec_sha256: String::new(),
            seed: experiment.seed,
            trials_per_variant: 100_000,
            chunk_size: 64,
            variants: Vec::new(),
            design: Default::default(),
            stages: None,
        },
        spec_path: String::new(),
        spec: String::new(),
        shard: None,
        threads: 1,
        wall_seconds: 0.0,
        trials_done: 0,
        streams: Vec::new(),
    }
}

/// With a ledger (as `experiment run` has), each stage takes a variant's trials from 0 and the
/// ledger supplies those already played: the same stops and summaries as without. A ledger
/// that already holds trials past a stage's end (an interrupted run's checkpoint) gives the
/// same run again.
#[test]
fn a_run_with_a_ledger_or_resumed_from_one_takes_the_same_stages() {
    let experiment = ruin_experiment(TARGET);
    let (summaries, stops) = play(&experiment, &runner(2, 64));
    assert!(stops.iter().any(|s| s.trials > 300), "{stops:?}");

    let ledger = Arc::new(Ledger::new(header(&experiment)));
    let with_ledger = runner(2, 64).with_ledger(Arc::clone(&ledger));
    let (again, again_stops) = play(&experiment, &with_ledger);
    assert_eq!((json(&again), &again_stops), (json(&summaries), &stops));
    for (variant, stop) in experiment.variants.iter().zip(&stops) {
        assert_eq!(ledger.held(variant.stream), stop.trials);
    }

    // An interrupted run: each variant's trials up to within its last stage, mid-stage.
    let ledger = Arc::new(Ledger::new(header(&experiment)));
    let resumed = runner(1, 64).with_ledger(Arc::clone(&ledger));
    for (variant, stop) in experiment.variants.iter().zip(&stops) {
        let game = build(variant).expect("a game");
        let part = resumed.run(&game, experiment.seed, variant.stream, 0..stop.trials - 77);
        assert_eq!(part.games, stop.trials - 77);
    }
    let (continued, continued_stops) = play(&experiment, &resumed);
    assert_eq!(
        (json(&continued), &continued_stops),
        (json(&summaries), &stops)
    );
}
