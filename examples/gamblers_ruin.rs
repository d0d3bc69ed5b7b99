//! A fifth game written outside the engine, against its public API only: the gambler's ruin.
//!
//! A gambler starts with `start` units and bets one unit at a time (or the stakes of the list
//! `stakes` in turn), winning each bet with probability `p`, until reaching `target` units or
//! going broke. The engine runs it, analyses
//! it and writes the same outputs as for its built-in games:
//!
//! ```text
//! cargo run --release --example gamblers_ruin -- run examples/gamblers_ruin.toml
//! cargo run --release --example gamblers_ruin -- scale examples/gamblers_ruin.toml
//! ```

use std::process::ExitCode;

use experiment_engine::analysis::{Kind, Measures, Metric};
use experiment_engine::declare_params;
use experiment_engine::games::{Game, Paired};
use experiment_engine::params::{ParamDef, ParamError, ParamKind, Params};
use experiment_engine::rng::TrialRng;
use experiment_engine::studies::{Rules, Standard};
use experiment_engine::summary::{Histogram, Summary};
use experiment_engine::summary_check;
use rand::Rng;
use serde::{Deserialize, Serialize};

declare_params! {
    /// The rules, and the parameters a spec sets: one gambler, one bet at a time.
    #[derive(Serialize, Deserialize)]
    struct Ruin {
        p: f64 = 0.5,
            ParamKind::Float { min: 0.0, max: 1.0 },
            "probability of winning each one-unit bet";
        start: u32 = 10,
            ParamKind::Int { min: 1, max: 10_000 },
            "units the gambler starts with";
        target: u32 = 20,
            ParamKind::Int { min: 2, max: 10_000 },
            "units at which the gambler stops, having won";
        // Added after the first results: a rule, so specs without it keep their streams.
        stakes: Vec<u32> = vec![1],
            ParamKind::List { item: &ParamKind::Int { min: 1, max: 10_000 }, min_len: 1, max_len: 100 },
            "stakes of successive bets, in turn (capped at the fortune and at what the target needs)",
            rule;
    }
}

/// How one game ended.
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
            // Never more than the gambler has or than reaching the target needs.
            let stake = self.stakes[bets as usize % self.stakes.len()]
                .min(fortune)
                .min(self.target - fortune);
            fortune = if rng.random_bool(self.p) {
                fortune + stake
            } else {
                fortune - stake
            };
            bets += 1;
        }
        RuinOutcome {
            ruined: fortune == 0,
            bets,
        }
    }

    // In a common design (`[design] random_numbers = "common"`) every variant plays trial i
    // from the same stream (the whole game is one purpose), and these per-game values are
    // compared pair by pair.
    const PAIRED: &'static [Paired] = &[
        Paired {
            metric: "ruin_rate",
            scale: 1,
        },
        Paired {
            metric: "mean_duration",
            scale: 1,
        },
    ];

    fn paired_values(&self, outcome: &RuinOutcome, values: &mut [i64]) {
        values[0] = i64::from(outcome.ruined);
        values[1] = i64::from(outcome.bets);
    }
}

/// Many games folded together with the engine's exact accumulators.
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
        summary_check::at_most("ruined", self.ruined.into(), self.games.into(), "games")?;
        let what = "games is";
        summary_check::histogram("durations", &self.durations, self.games, what, usize::MAX)
    }
}

impl Params for Ruin {
    const DECLARED: &'static [ParamDef] = Self::FIELDS;

    fn validate(&self) -> Result<(), ParamError> {
        let (key, message) = if self.start >= self.target {
            ("start", "start must be below target")
        } else if self.p == 0.0 || self.p == 1.0 {
            ("p", "p must be strictly between 0 and 1")
        } else {
            return Ok(());
        };
        Err(ParamError {
            key,
            message: message.into(),
        })
    }
}

/// The game as the engine knows it: its name, its parameters (the rules themselves) and what
/// it measures; the shared analysis does the rest.
impl Rules for Ruin {
    const GAME: &'static str = "gamblers_ruin";
    const DESCRIPTION: &'static str =
        "Gambler's ruin (library example): one-unit bets until broke or at the target";
    type Game = Ruin;
    type Beside = ();

    fn game(self) -> Ruin {
        self
    }

    /// What one game measures; the engine derives tables, tests, charts and report from it.
    fn measures() -> Measures<RuinSummary> {
        let ruin = Kind::Proportion {
            successes: |s: &RuinSummary| s.ruined,
            of: |s| s.games,
        };
        let durations = Kind::Histogram {
            table: "histogram",
            bin: "bets",
            counts: |s: &RuinSummary| s.durations.counts(),
        };
        let metrics = vec![
            Metric::new("ruin_rate", "share of games ending broke", ruin),
            Metric::new(
                "mean_duration",
                "bets until the game ends",
                Kind::Mean(|s| s.durations.moments()),
            ),
            Metric::new("duration", "games", durations),
        ];
        Measures::new("games", |s| s.games, "ruin_rate", metrics)
    }
}

/// Running out of memory removes the staging folder and lock and ends with a message, as in
/// the engine's own binary.
#[global_allocator]
static ALLOCATOR: experiment_engine::memory::GuardedAllocator =
    experiment_engine::memory::GuardedAllocator;

fn main() -> ExitCode {
    experiment::record_build();
    experiment_engine::commands::main(&experiment::registry().with(&Standard::<Ruin>::NEW))
}
