//! `experiment play twentyone` and `experiment exact twentyone`.

mod session;

use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};

use crate::exact::{ExactOutcome, Solver};
use crate::game::{Rules, Soft17, Strategy, Ties, TARGET};
use experiment_engine::cli::ExactAnswers;
use experiment_engine::frame::{Role, TableBuilder};
use experiment_engine::rng::{splitmix64, trial_rng};
use session::play_session;

/// Plays interactively: answers are read from stdin (a terminal or a pipe), the game is
/// written to stdout. Without `seed` the shuffles are seeded from the clock and the process
/// id — the one place the engine does so, since a person expects a new game each time; the
/// seed is printed either way so any game can be replayed with `--seed`.
pub fn play(seed: Option<u64>) -> Result<()> {
    let seed = seed.unwrap_or_else(fresh_seed);
    let mut rng = trial_rng(seed, 0, 0);
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    let played = writeln!(
        stdout,
        "Seed {seed} (replay this game with: experiment play twentyone --seed {seed})"
    )
    .and_then(|()| play_session(&mut stdin.lock(), &mut stdout, &mut rng));
    match played {
        Ok(_) => Ok(()),
        // A reader that stops listening (e.g. `| head`) ends the game, not in an error.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(err) => Err(err).context("the interactive game failed"),
    }
}

/// A seed that differs from run to run: the clock's nanoseconds and the process id, mixed.
fn fresh_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as u64);
    // Specs take seeds up to i64::MAX; keep the printed seed reusable in one.
    splitmix64(nanos ^ u64::from(std::process::id()).rotate_left(32)) >> 1
}

/// The `probability` thresholds `exact twentyone` evaluates: 0.05 to 0.95 in steps of 0.05.
fn probability_grid() -> impl Iterator<Item = f64> {
    (1..=19).map(|step| f64::from(step) / 20.0)
}

/// The rules in words, for the heading of `exact twentyone`: the deck (or shoe), and the play
/// with who takes a tie and, when not the default, the soft 17 and what a natural pays.
fn describe_rules(rules: &Rules) -> (String, String) {
    let deck = match rules.decks {
        1 => "one 52-card deck".to_string(),
        n => format!("a shoe of {n} 52-card decks"),
    };
    let tie = match rules.tie {
        Ties::Dealer => "ties go to the computer",
        Ties::Push => "ties push (payoff 0)",
    };
    let mut play = format!("The player wins when the computer busts or he ends higher; {tie}.");
    if rules.soft_17 == Soft17::Hit {
        play.push_str(" The computer hits a soft 17.");
    }
    if rules.natural_pays != 1.0 {
        play.push_str(&format!(" A win on a natural pays {}.", rules.natural_pays));
    }
    (deck, play)
}

/// The exact outcome probabilities of every `stand_at` N (2 to 21), of `probability` p on a
/// grid, and of the optimal rule, with the best of each, at `rules`: the text `experiment
/// exact twentyone` prints, and the table `exact_outcomes` (with every rule's `family`, its
/// mean payoff, and whether it is the best of its family). When a tie pushes or a natural pays
/// more, the text shows the mean payoff too, and it picks the best.
pub fn exact(rules: Rules) -> Result<ExactAnswers> {
    let started = Instant::now();
    let solver = Solver::with_rules(rules);
    let policy = Arc::new(solver.optimal_policy());
    let seconds = started.elapsed().as_secs_f64();
    let mut strategies: Vec<(String, Strategy)> = (Strategy::STAND_AT_MIN..=TARGET)
        .map(|n| (format!("stand_at-{n}"), Strategy::StandAt(n)))
        .collect();
    strategies
        .extend(probability_grid().map(|p| (format!("probability-{p}"), Strategy::Probability(p))));
    let optimal = Strategy::Optimal(policy);
    strategies.push((optimal.name().to_string(), optimal));
    let outcomes: Vec<(String, Strategy, ExactOutcome)> = strategies
        .into_iter()
        .map(|(name, strategy)| {
            let outcome = solver.outcome(&strategy);
            (name, strategy, outcome)
        })
        .collect();

    let payoff = rules.payoff_matters();
    let (deck, play) = describe_rules(&rules);
    let (payoff_head, payoff_rule) = if payoff {
        (" mean_payoff |", " ---: |")
    } else {
        ("", "")
    };
    let mut text = format!(
        "Twenty-One: exact probabilities, enumerating {deck} without replacement\n\
         ({} player compositions; solved, with the optimal table, in {:.3} s).\n\
         {play}\n\n\
         | rule | win | player_bust | dealer_bust | tie | loss |{payoff_head}\n\
         | --- | ---: | ---: | ---: | ---: | ---: |{payoff_rule}\n",
        solver.state_count(),
        seconds
    );
    let pushes = |o: &ExactOutcome| if rules.tie == Ties::Push { o.tie } else { 0.0 };
    for (name, _, o) in &outcomes {
        text.push_str(&format!(
            "| {name} | {:.6} | {:.6} | {:.6} | {:.6} | {:.6} |",
            o.win,
            o.player_bust,
            o.dealer_bust,
            o.tie,
            1.0 - o.win - pushes(o)
        ));
        if payoff {
            text.push_str(&format!(" {:.6} |", o.mean_payoff(&rules)));
        }
        text.push('\n');
    }
    text.push('\n');
    let score = |o: &ExactOutcome| {
        if payoff {
            o.mean_payoff(&rules)
        } else {
            o.win
        }
    };
    let mut bests = Vec::new();
    for &family in Strategy::NAMES {
        let best = outcomes
            .iter()
            .filter(|(_, strategy, _)| strategy.name() == family)
            .max_by(|a, b| score(&a.2).total_cmp(&score(&b.2)));
        if let Some((name, _, outcome)) = best {
            bests.push(name.as_str());
            text.push_str(&format!(
                "Best {family} rule: {name} (win {:.6}",
                outcome.win
            ));
            if payoff {
                text.push_str(&format!(", mean payoff {:.6}", outcome.mean_payoff(&rules)));
            }
            text.push_str(")\n");
        }
    }
    let table = TableBuilder::new()
        .text("rule", outcomes.iter().map(|(name, _, _)| name))
        .role(Role::Label)
        .text(
            "family",
            outcomes.iter().map(|(_, strategy, _)| strategy.name()),
        )
        .real("win", outcomes.iter().map(|(_, _, o)| o.win))
        .real(
            "player_bust",
            outcomes.iter().map(|(_, _, o)| o.player_bust),
        )
        .real(
            "dealer_bust",
            outcomes.iter().map(|(_, _, o)| o.dealer_bust),
        )
        .real("tie", outcomes.iter().map(|(_, _, o)| o.tie))
        .real(
            "loss",
            outcomes.iter().map(|(_, _, o)| 1.0 - o.win - pushes(o)),
        )
        .real(
            "mean_payoff",
            outcomes.iter().map(|(_, _, o)| o.mean_payoff(&rules)),
        )
        .text(
            "best_of_family",
            outcomes.iter().map(|(name, _, _)| {
                if bests.contains(&name.as_str()) {
                    "yes"
                } else {
                    "no"
                }
            }),
        )
        .named("exact_outcomes")?;
    Ok(ExactAnswers {
        text,
        tables: vec![table],
    })
}
