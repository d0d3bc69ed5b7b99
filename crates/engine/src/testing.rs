//! Test fixtures for the engine's own unit tests, which must not depend on any game crate: a
//! game of many random draws, summaries that show any merge out of order, and a study with a
//! game's kind of parameters (a six-way choice and whole numbers) that plays nothing.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::analysis::Headline;
use crate::games::Game;
use crate::params::{GameParams, ParamDef, ParamKind, ParamSchema, Params, Schema};
use crate::registry::Registry;
use crate::report::StudyOutput;
use crate::rng::TrialRng;
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::studies::Study;
use crate::summary::Summary;

/// A ±1 random walk from 0 until it is `distance` away: a trial of many draws (about
/// `distance²`), of a length that varies from trial to trial as a game's does.
pub struct Walk(pub u64);

impl Game for Walk {
    type Outcome = u64;
    type Summary = OrderedHash;

    fn play(&self, rng: &mut TrialRng) -> u64 {
        let (mut position, mut steps) = (0_i64, 0_u64);
        while position.unsigned_abs() < self.0 {
            position += if rand::RngCore::next_u64(rng) & 1 == 0 {
                1
            } else {
                -1
            };
            steps += 1;
        }
        steps
    }
}

/// A trial that draws one number.
pub struct Draw;

impl Game for Draw {
    type Outcome = u64;
    type Summary = OrderedHash;

    fn play(&self, rng: &mut TrialRng) -> u64 {
        rand::RngCore::next_u64(rng)
    }
}

/// A hash of the outcomes that depends on their order (merging is associative but not
/// commutative), so that any merge out of order shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderedHash {
    /// Trials recorded.
    pub trials: u64,
    hash: u64,
    scale: u64,
}

impl Default for OrderedHash {
    fn default() -> OrderedHash {
        OrderedHash {
            trials: 0,
            hash: 0,
            scale: 1,
        }
    }
}

const HASH_BASE: u64 = 0x9E37_79B9_7F4A_7C15;

impl Summary for OrderedHash {
    type Outcome = u64;

    fn record(&mut self, outcome: &u64) {
        self.trials += 1;
        self.hash = self.hash.wrapping_mul(HASH_BASE).wrapping_add(*outcome);
        self.scale = self.scale.wrapping_mul(HASH_BASE);
    }

    fn merge(&mut self, other: &OrderedHash) {
        self.trials += other.trials;
        self.hash = self.hash.wrapping_mul(other.scale).wrapping_add(other.hash);
        self.scale = self.scale.wrapping_mul(other.scale);
    }

    fn check(&self, trials: u64) -> Result<(), String> {
        (self.trials == trials)
            .then_some(())
            .ok_or_else(|| format!("trials {} but its range holds {trials}", self.trials))
    }
}

/// Games counted, and a second count that must never exceed them, as a game's summary checks
/// its own fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games recorded.
    pub games: u64,
    /// Games with the rarer outcome.
    pub rare: u64,
}

impl Summary for Tally {
    type Outcome = bool;

    fn record(&mut self, rare: &bool) {
        self.games += 1;
        self.rare += u64::from(*rare);
    }

    fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.rare += other.rare;
    }

    fn check(&self, trials: u64) -> Result<(), String> {
        if self.games != trials {
            return Err(format!(
                "games {} but its trial range holds {trials}",
                self.games
            ));
        }
        (self.rare <= self.games)
            .then_some(())
            .ok_or_else(|| format!("rare {} of {} games", self.rare, self.games))
    }
}

/// The parameters of [`Toy`]: a six-way choice and two whole numbers, as War's placement,
/// turn limit and face-down cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToyParams {
    /// A choice of six.
    pub placement: String,
    /// A whole number from 1 to 10,000.
    pub max_turns: u32,
    /// A whole number from 0 to 3.
    pub face_down: u8,
}

impl Default for ToyParams {
    fn default() -> Self {
        ToyParams {
            placement: "winner_first".into(),
            max_turns: 1_000,
            face_down: 3,
        }
    }
}

impl Params for ToyParams {
    const DECLARED: &'static [ParamDef] = &[
        ParamDef::new(
            "placement",
            ParamKind::Choice(&[
                "winner_first",
                "loser_first",
                "random",
                "high_first",
                "low_first",
                "player1_first",
            ]),
            "a choice of six",
        ),
        ParamDef::new(
            "max_turns",
            ParamKind::Int {
                min: 1,
                max: 10_000,
            },
            "a whole number",
        ),
        ParamDef::new(
            "face_down",
            ParamKind::Int { min: 0, max: 3 },
            "a small whole number",
        )
        .rule(),
    ];
}

/// A study named "toy" that can be specified, validated and checked as a built-in game can (in
/// stages and in a common design) but plays nothing.
pub struct Toy;

impl GameParams for Toy {
    fn game(&self) -> &'static str {
        "toy"
    }

    fn params(&self) -> &'static dyn ParamSchema {
        &Schema::<ToyParams>::NEW
    }
}

impl Study for Toy {
    fn description(&self) -> &'static str {
        "a test game that plays nothing"
    }

    fn run(&self, _: &Experiment, _: &Runner) -> Result<StudyOutput> {
        anyhow::bail!("the toy game plays nothing")
    }

    fn headline(&self, _: &Experiment, _: &Runner) -> Result<Headline> {
        anyhow::bail!("the toy game plays nothing")
    }

    fn estimated_metrics(&self) -> Vec<&'static str> {
        vec!["p1_win_rate"]
    }

    fn selectable_metrics(&self) -> Vec<&'static str> {
        vec!["p1_win_rate"]
    }

    fn plays_common(&self) -> bool {
        true
    }

    fn plays_in_stages(&self) -> bool {
        true
    }
}

/// A registry of the toy game alone.
pub fn registry() -> Registry {
    Registry::new().with(&Toy)
}
