//! `experiment play chutes` and `experiment exact chutes`.

use std::fmt::Write;

use anyhow::{anyhow, Result};

use crate::exact::chutes::ChutesSolver;
use crate::frame::format_number;
use crate::games::chutes::{
    run_base_game_observed, Board, DiceSource, Move, Racers, Strategy, Thresholds,
};
use crate::rng::trial_rng;
use crate::studies::chutes::{BaseExact, BASE_GAME_STREAM};

/// Prints one base game move by move, ending with who won.
pub fn play(seed: u64) -> Result<()> {
    super::emit(&play_text(seed))
}

/// One base game as text: trial 0 of the base-game stream of a run seeded with `seed`.
fn play_text(seed: u64) -> String {
    let board = Board::milton_bradley();
    let mut rng = trial_rng(seed, BASE_GAME_STREAM, 0);
    let mut out = format!(
        "Chutes & Ladders, seed {seed} (the first base game of `experiment run` with this seed), \
         standard Milton Bradley board.\n"
    );
    for line in play_lines(&board, &mut rng) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// Plays one base game move by move, returning its lines.
///
/// Lines look like `Player 1 rolls 4: 21 -> 25`, followed by `ladder 28 -> 84` or
/// `chute 47 -> 26` when a jump is taken; a move reaching or passing the finish shows `-> 100`.
/// The last line says who won after how many moves of both players, e.g. `Player 1 wins after
/// 31 moves (16 turns of player 1, 15 of player 2)`.
fn play_lines<D: DiceSource + ?Sized>(board: &Board, dice: &mut D) -> Vec<String> {
    let mut lines = Vec::new();
    let outcome = run_base_game_observed(board, dice, &mut |step: Move| {
        lines.push(format!(
            "Player {} rolls {}: {} -> {}",
            step.player + 1,
            step.roll,
            step.from,
            step.landed
        ));
        if step.to != step.landed {
            let kind = if step.to > step.landed {
                "ladder"
            } else {
                "chute"
            };
            lines.push(format!("{kind} {} -> {}", step.landed, step.to));
        }
    });
    // Player 1 moves first, so it has made the odd move out.
    let moves = outcome.turns;
    lines.push(format!(
        "Player {} wins after {moves} moves ({} turns of player 1, {} of player 2)",
        if outcome.p1_won { 1 } else { 2 },
        moves.div_ceil(2),
        moves / 2
    ));
    lines
}

/// Parses `FIRST-SECOND` (e.g. `optimal-never`) into two strategies with default thresholds.
fn parse_pair(pair: &str) -> Result<(Strategy, Strategy)> {
    let (first, second) = pair.split_once('-').ok_or_else(|| {
        anyhow!(
            "--pair '{pair}' must be FIRST-SECOND, e.g. optimal-never (strategies: {})",
            Strategy::NAMES.join(", ")
        )
    })?;
    let strategy =
        |name: &str| Strategy::from_name(name).map_err(|error| anyhow!("--pair '{pair}': {error}"));
    Ok((strategy(first)?, strategy(second)?))
}

/// Prints the exact answers for the standard board: the single-player turn distribution,
/// P(player 1 wins), the optimal cubeful start equity, and exact payoffs of strategy pairs.
pub fn exact(max_cube: u32, pairs: &[String]) -> Result<()> {
    let pairs: Vec<(Strategy, Strategy)> = if pairs.is_empty() {
        Strategy::ALL
            .iter()
            .flat_map(|&first| Strategy::ALL.iter().map(move |&second| (first, second)))
            .collect()
    } else {
        pairs
            .iter()
            .map(|pair| parse_pair(pair))
            .collect::<Result<_>>()?
    };
    let solver = ChutesSolver::new(Board::milton_bradley(), max_cube)
        .map_err(|error| anyhow!("--max-cube: {error}"))?;
    let base = BaseExact::new(&solver, Racers::Two);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Chutes & Ladders, standard Milton Bradley board (9 ladders, 10 chutes), exact values.\n"
    );
    let _ = writeln!(
        out,
        "One player alone: mean {} turns, median {}, minimum {}.",
        format_number(base.solo.mean),
        base.solo.median,
        base.solo.min
    );
    let _ = writeln!(
        out,
        "Two players: P(player 1 wins) = {:.6}; a game lasts {} moves on average (both players \
         counted), median {}, minimum {}.",
        base.p1_wins,
        format_number(base.mean_length()),
        base.median_length(),
        base.min_length()
    );
    let _ = writeln!(
        out,
        "Optimal cubeful equity of the start position (both players optimal, stake 1, cube \
         cap {max_cube}): {:+.6} (cubeless {:+.6}).\n",
        solver.start_equity(),
        2.0 * base.p1_wins - 1.0
    );
    let _ = writeln!(
        out,
        "Exact payoff per game to player 1, by policy evaluation (threshold: double_at {}, \
         take_at {}):\n",
        Thresholds::DEFAULT_DOUBLE_AT,
        Thresholds::DEFAULT_TAKE_AT
    );
    let _ = writeln!(
        out,
        "| first | second | exact_payoff |\n| --- | --- | ---: |"
    );
    for (first, second) in pairs {
        let _ = writeln!(
            out,
            "| {} | {} | {:+.6} |",
            first.name(),
            second.name(),
            solver.exact_payoff(first, second)
        );
    }
    super::emit(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dice that replay a script (panicking, so failing the test, if it runs out).
    struct ScriptedDice<F: FnMut(usize) -> u8>(F, usize);

    impl<F: FnMut(usize) -> u8> DiceSource for ScriptedDice<F> {
        fn roll(&mut self, _player: usize, _sides: u8) -> u8 {
            self.1 += 1;
            (self.0)(self.1 - 1)
        }
    }

    #[test]
    fn golden_game_replays_scripted_dice_line_by_line() {
        let board = Board::milton_bradley();
        let script = [4, 1, 6, 1, 1, 1, 6, 1, 3, 1, 4, 1, 6, 1, 6];
        let lines = play_lines(&board, &mut ScriptedDice(|i| script[i], 0));
        let expected = [
            "Player 1 rolls 4: 0 -> 4",
            "ladder 4 -> 14",
            "Player 2 rolls 1: 0 -> 1",
            "ladder 1 -> 38",
            "Player 1 rolls 6: 14 -> 20",
            "Player 2 rolls 1: 38 -> 39",
            "Player 1 rolls 1: 20 -> 21",
            "ladder 21 -> 42",
            "Player 2 rolls 1: 39 -> 40",
            "Player 1 rolls 6: 42 -> 48",
            "Player 2 rolls 1: 40 -> 41",
            "Player 1 rolls 3: 48 -> 51",
            "ladder 51 -> 67",
            "Player 2 rolls 1: 41 -> 42",
            "Player 1 rolls 4: 67 -> 71",
            "ladder 71 -> 91",
            "Player 2 rolls 1: 42 -> 43",
            "Player 1 rolls 6: 91 -> 97",
            "Player 2 rolls 1: 43 -> 44",
            "Player 1 rolls 6: 97 -> 100",
            "Player 1 wins after 15 moves (8 turns of player 1, 7 of player 2)",
        ];
        assert_eq!(lines, expected);
    }

    #[test]
    fn chutes_are_named_and_a_win_by_player_two_says_so_once() {
        let board = Board::milton_bradley();
        // Player 1 lands on 16 (chute to 6), then dawdles on ones; player 2 rolls sixes.
        let script = |i: usize| match i {
            0 => 6,
            2 => 6,
            4 => 4,
            _ if i.is_multiple_of(2) => 1,
            _ => 6,
        };
        let lines = play_lines(&board, &mut ScriptedDice(script, 0));
        assert!(lines.contains(&"chute 16 -> 6".to_string()), "{lines:?}");
        let last = lines.last().expect("lines");
        assert!(last.starts_with("Player 2 wins after "), "{last}");
        assert_eq!(lines.iter().filter(|l| l.contains(" wins")).count(), 1);
        assert!(lines[lines.len() - 2].ends_with(" -> 100"));
    }

    #[test]
    fn pairs_parse_and_bad_pairs_name_the_valid_strategies() {
        assert_eq!(
            parse_pair("optimal-never").expect("valid"),
            (Strategy::Optimal, Strategy::Never)
        );
        let error = parse_pair("optimal").expect_err("no dash").to_string();
        assert!(error.contains("FIRST-SECOND"), "{error}");
        let error = parse_pair("martingale-never")
            .expect_err("unknown")
            .to_string();
        assert!(
            error.contains("martingale") && error.contains("cautious"),
            "{error}"
        );
    }

    #[test]
    fn the_played_game_is_reproducible_and_ends_with_the_winner() {
        let text = play_text(3);
        assert_eq!(text, play_text(3));
        let last = text.lines().last().expect("lines");
        assert!(
            last.starts_with("Player 1 wins after ") || last.starts_with("Player 2 wins after "),
            "{last}"
        );
        assert!(last.contains(" moves ("), "{last}");
        assert_eq!(
            text.matches(" wins").count(),
            1,
            "the result is printed once"
        );
    }
}
