//! `experiment play war`: one game written turn by turn to a file or standard output; and what
//! `experiment exact war` says, War having no exact solver.

use experiment_engine::console::note;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};

use crate::game::{rank_name, Placement, Player, Rules, TurnOutcome, War, WarResult, WarState};
use experiment_engine::rng::trial_rng;

/// Plays one game of War with `placement` and writes it to `path`, or to standard output
/// without one (a reader that stops early, `| head`, ends it quietly).
pub fn play(seed: u64, placement: Placement, max_turns: u32, path: Option<&Path>) -> Result<()> {
    let Some(path) = path else {
        let mut writer = BufWriter::new(std::io::stdout().lock());
        return write_war_game(&mut writer, seed, placement, max_turns)
            .and_then(|()| writer.flush())
            .context("cannot write to standard output");
    };
    let file = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut writer = BufWriter::new(file);
    write_war_game(&mut writer, seed, placement, max_turns)
        .and_then(|()| writer.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    // On standard error, like a run's "Results in" line: standard output stays empty.
    note!(
        "Wrote one game of War (seed {seed}, placement {}) to {}",
        placement.name(),
        path.display()
    );
    Ok(())
}

/// What `experiment exact war` answers: War has no exact solver, and what gives its numbers
/// instead.
pub fn no_exact_solver() -> anyhow::Error {
    anyhow::anyhow!(
        "War has no exact solver: a game depends on the order of the whole shuffled deck, far \
         too many deals to enumerate. Estimate it by simulation with `experiment run \
         experiments/war_placement.toml` (or a spec of your own with game = \"war\"), or watch \
         one game with `experiment play war`. Games with exact solvers: `experiment exact \
         monopoly`, `experiment exact chutes`, `experiment exact twentyone`"
    )
}

/// Writes one game of War turn by turn: the up cards of each flip, who took the table, and a
/// bar of `|` for player 1's cards and `.` for player 2's. A game that cycles (found by the
/// cycle detection runs use, on a copy of the game) is written up to the end of its first
/// cycle, and the file says so with the cycle's period.
pub fn write_war_game(
    out: &mut impl Write,
    seed: u64,
    placement: Placement,
    max_turns: u32,
) -> std::io::Result<()> {
    let mut rng = trial_rng(seed, 0, 0);
    let mut state = WarState::deal(&mut rng);
    let cycle = match (War {
        placement,
        max_turns,
        rules: Rules::STANDARD,
    })
    .play_from(state, &mut rng.clone())
    .result
    {
        WarResult::Cycled { entry_turn, period } => Some((entry_turn, period)),
        _ => None,
    };
    let last = cycle.map_or(max_turns, |(entry, period)| entry + period);
    writeln!(
        out,
        "War, seed {seed}, placement {}. Player 1's cards are '|', player 2's are '.'.",
        placement.name()
    )?;
    writeln!(out, "{}", bar(&state))?;
    for turn in 1..=last {
        let report = state.play_turn(placement, &mut rng);
        let ups = |player| -> Vec<&str> {
            state
                .table(player)
                .iter()
                .step_by(4)
                .map(|&card| rank_name(card))
                .collect()
        };
        let (first, second) = (ups(Player::One), ups(Player::Two));
        let flips: Vec<String> = first
            .iter()
            .zip(&second)
            .map(|(a, b)| format!("{a} v {b}"))
            .collect();
        let taken = state.table(Player::One).len() + state.table(Player::Two).len();
        let action = match report.taker {
            Some(Player::One) => format!("player 1 takes {taken} cards"),
            Some(Player::Two) => format!("player 2 takes {taken} cards"),
            None => "a war cannot be completed".to_string(),
        };
        let wars = match report.wars {
            0 => String::new(),
            1 => " (war!)".to_string(),
            n => format!(" ({n} wars!)"),
        };
        writeln!(
            out,
            "Turn {turn}: {}{wars}: {action}",
            flips.join(", then ")
        )?;
        writeln!(out, "{}", bar(&state))?;
        match report.outcome {
            TurnOutcome::Continue => {}
            TurnOutcome::Won(player) => {
                let number = if player == Player::One { 1 } else { 2 };
                return writeln!(out, "Player {number} wins after {turn} turns.");
            }
            TurnOutcome::Draw => {
                return writeln!(
                    out,
                    "Both players ran out of cards: a draw after {turn} turns."
                )
            }
        }
    }
    if let Some((entry, period)) = cycle {
        let before = if entry == 0 {
            "as dealt".to_string()
        } else {
            format!("as after turn {entry}")
        };
        return writeln!(
            out,
            "Cycle found: the hands after turn {last} are {before}, so these {period} turns \
             repeat forever (a cycle of period {period}); the game counts as cycled."
        );
    }
    writeln!(
        out,
        "No winner after {max_turns} turns: the game counts as infinite."
    )
}

fn bar(state: &WarState) -> String {
    let (first, second) = (state.hand(Player::One).len(), state.hand(Player::Two).len());
    format!(
        "{}{}  {first} v {second}",
        "|".repeat(first),
        ".".repeat(second)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycling_game_is_written_to_the_end_of_its_first_cycle_which_really_repeats() {
        let mut text = Vec::new();
        write_war_game(&mut text, 9, Placement::Player1First, 100_000_000).expect("in memory");
        let text = String::from_utf8(text).expect("UTF-8");
        let last = text.lines().last().expect("a last line");
        assert_eq!(
            last,
            "Cycle found: the hands after turn 242 are as after turn 190, so these 52 turns \
             repeat forever (a cycle of period 52); the game counts as cycled."
        );
        assert_eq!(text.matches("\nTurn ").count(), 242);
        // Replayed: the hands after turn 242 are those after turn 190, and no earlier pair is.
        let mut rng = trial_rng(9, 0, 0);
        let mut state = WarState::deal(&mut rng);
        let mut hands = Vec::new();
        for _ in 0..242 {
            state.play_turn(Placement::Player1First, &mut rng);
            hands.push(state);
        }
        assert!(hands[189] == hands[241]);
        assert!((1..52).all(|period| hands[241 - period] != hands[241]));
    }
}
