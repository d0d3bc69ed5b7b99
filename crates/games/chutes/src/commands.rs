//! `experiment play chutes` and `experiment exact chutes`.

use std::fmt::Write;

use anyhow::{anyhow, Result};

use crate::cli::Thresholds as ChutesThresholds;
use crate::exact::ChutesSolver;
use crate::game::{run_base_game_observed, Board, DiceSource, Move, Racers, Strategy};
use crate::study::base::BaseExact;
use crate::study::beside::BASE_GAME_STREAM;
use experiment_engine::cli::ExactAnswers;
use experiment_engine::frame::{format_number, Role, TableBuilder};
use experiment_engine::rng::trial_rng;

/// Prints one base game move by move, ending with who won.
pub fn play(seed: u64) -> Result<()> {
    experiment_engine::commands::emit(&play_text(seed))
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

/// Each seat's thresholds from the flags: its own where given, else the bare ones.
fn seat_thresholds(flags: &ChutesThresholds) -> [(f64, f64); 2] {
    [
        (
            flags.first_double_at.unwrap_or(flags.double_at),
            flags.first_take_at.unwrap_or(flags.take_at),
        ),
        (
            flags.second_double_at.unwrap_or(flags.double_at),
            flags.second_take_at.unwrap_or(flags.take_at),
        ),
    ]
}

/// The pairs to evaluate (`pairs`, or every ordered pair), each strategy with its seat's
/// thresholds.
fn pairs_to_evaluate(
    pairs: &[String],
    flags: &ChutesThresholds,
) -> Result<Vec<(Strategy, Strategy)>> {
    let named: Vec<(Strategy, Strategy)> = if pairs.is_empty() {
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
    let [(d1, t1), (d2, t2)] = seat_thresholds(flags);
    named
        .into_iter()
        .map(|(first, second)| {
            Ok((
                first.with_thresholds(d1, t1)?,
                second.with_thresholds(d2, t2)?,
            ))
        })
        .collect()
}

/// The thresholds the exact payoffs were evaluated with, in words.
fn thresholds_text(flags: &ChutesThresholds) -> String {
    let seats = [
        flags.first_double_at,
        flags.first_take_at,
        flags.second_double_at,
        flags.second_take_at,
    ];
    if seats.iter().all(Option::is_none) {
        return format!(
            "threshold: double_at {}, take_at {}; take_only: take_at {}",
            flags.double_at, flags.take_at, flags.take_at
        );
    }
    let [(d1, t1), (d2, t2)] = seat_thresholds(flags);
    format!(
        "player 1: double_at {d1}, take_at {t1}; player 2: double_at {d2}, take_at {t2}; \
         threshold reads both, take_only only take_at"
    )
}

/// Each strategy of `rows` (first-second pairs with player 1's exact payoff) with its exact
/// average payoff per game over its opponents, overall and by seat, each pairing weighted
/// equally (self-play left out: it nets to zero), as the study's strategy averages are; NaN
/// where it has none.
fn exact_averages(rows: &[(Strategy, Strategy, f64)]) -> Vec<(&'static str, [f64; 3])> {
    let mut names: Vec<&'static str> = Vec::new();
    for name in rows
        .iter()
        .map(|r| r.0.name())
        .chain(rows.iter().map(|r| r.1.name()))
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let mean = |values: &[f64]| {
        if values.is_empty() {
            f64::NAN
        } else {
            values.iter().sum::<f64>() / values.len() as f64
        }
    };
    names
        .into_iter()
        .map(|name| {
            let others = rows.iter().filter(|r| r.0.name() != r.1.name());
            let first: Vec<f64> = others
                .clone()
                .filter(|r| r.0.name() == name)
                .map(|r| r.2)
                .collect();
            let second: Vec<f64> = others
                .filter(|r| r.1.name() == name)
                .map(|r| -r.2)
                .collect();
            let both: Vec<f64> = first.iter().chain(&second).copied().collect();
            (name, [mean(&both), mean(&first), mean(&second)])
        })
        .collect()
}

/// An exact value with its sign to six decimals, or a dash when there is none.
fn signed6(value: f64) -> String {
    if value.is_nan() {
        "–".to_string()
    } else {
        format!("{value:+.6}")
    }
}

/// The exact answers for the standard board: the single-player turn distribution, P(player 1
/// wins), the optimal cubeful start equity (table `exact_values`), the exact payoffs of
/// strategy pairs (`threshold` and `take_only` with the thresholds of `flags`, seat by seat;
/// table `exact_payoffs`) and each strategy's exact average over its opponents, overall and by
/// seat (table `exact_averages`), with the text `experiment exact chutes` prints.
pub fn exact(max_cube: u32, pairs: &[String], flags: &ChutesThresholds) -> Result<ExactAnswers> {
    let pairs = pairs_to_evaluate(pairs, flags)?;
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
        "Exact payoff per game to player 1, by policy evaluation ({}):\n",
        thresholds_text(flags)
    );
    let _ = writeln!(
        out,
        "| first | second | exact_payoff |\n| --- | --- | ---: |"
    );
    let rows: Vec<(Strategy, Strategy, f64)> = pairs
        .into_iter()
        .map(|(first, second)| (first, second, solver.exact_payoff(first, second)))
        .collect();
    for (first, second, payoff) in &rows {
        let _ = writeln!(
            out,
            "| {} | {} | {:+.6} |",
            first.name(),
            second.name(),
            payoff
        );
    }
    let _ = writeln!(
        out,
        "\nExact average payoff per game of each strategy over its opponents above, each pair \
         weighted equally (self-play left out), overall and by seat:\n"
    );
    let _ = writeln!(
        out,
        "| strategy | average | as player 1 | as player 2 |\n| --- | ---: | ---: | ---: |"
    );
    let averages = exact_averages(&rows);
    for (name, [overall, first, second]) in &averages {
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} |",
            signed6(*overall),
            signed6(*first),
            signed6(*second)
        );
    }
    let values = [
        ("solo_mean_turns", base.solo.mean),
        ("solo_median_turns", base.solo.median as f64),
        ("solo_min_turns", base.solo.min as f64),
        ("p1_win_probability", base.p1_wins),
        ("mean_moves", base.mean_length()),
        ("median_moves", base.median_length() as f64),
        ("min_moves", base.min_length() as f64),
        ("start_equity_optimal", solver.start_equity()),
        ("start_equity_cubeless", 2.0 * base.p1_wins - 1.0),
        ("max_cube", f64::from(max_cube)),
    ];
    let tables = vec![
        TableBuilder::new()
            .text("quantity", values.iter().map(|(name, _)| *name))
            .role(Role::Label)
            .real("value", values.iter().map(|(_, value)| *value))
            .named("exact_values")?,
        TableBuilder::new()
            .text("first", rows.iter().map(|(first, _, _)| first.name()))
            .role(Role::Label)
            .text("second", rows.iter().map(|(_, second, _)| second.name()))
            .role(Role::Label)
            .real("exact_payoff", rows.iter().map(|(_, _, payoff)| *payoff))
            .named("exact_payoffs")?,
        TableBuilder::new()
            .text("strategy", averages.iter().map(|(name, _)| *name))
            .role(Role::Label)
            .real(
                "average",
                averages.iter().map(|(_, [overall, _, _])| *overall),
            )
            .real(
                "as_player_1",
                averages.iter().map(|(_, [_, first, _])| *first),
            )
            .real(
                "as_player_2",
                averages.iter().map(|(_, [_, _, second])| *second),
            )
            .named("exact_averages")?,
    ];
    Ok(ExactAnswers { text: out, tables })
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
    fn exact_averages_weight_each_pair_equally_by_seat_and_leave_self_play_out() {
        let (never, always) = (Strategy::Never, Strategy::Always);
        let rows = [
            (never, never, 0.5),
            (never, always, 0.25),
            (always, never, 0.75),
        ];
        let averages = exact_averages(&rows);
        assert_eq!(averages[0], ("never", [-0.25, 0.25, -0.75]));
        assert_eq!(averages[1], ("always", [0.25, 0.75, -0.25]));
        let alone = exact_averages(&rows[..1]);
        assert!(alone[0].1.iter().all(|x| x.is_nan()), "self-play only");
        assert_eq!(signed6(f64::NAN), "–");
    }

    #[test]
    fn the_seat_flags_set_only_their_seat_and_only_strategies_that_read_them() {
        let flags = ChutesThresholds {
            double_at: 0.7,
            take_at: 0.25,
            first_double_at: Some(0.8),
            first_take_at: None,
            second_double_at: None,
            second_take_at: Some(0.3),
        };
        let pairs = pairs_to_evaluate(
            &["threshold-take_only".into(), "never-threshold".into()],
            &flags,
        )
        .expect("valid");
        assert_eq!(
            pairs,
            [
                (
                    Strategy::threshold(0.8, 0.25).expect("valid"),
                    Strategy::take_only(0.3).expect("valid")
                ),
                (
                    Strategy::Never,
                    Strategy::threshold(0.7, 0.3).expect("valid")
                ),
            ]
        );
        assert!(thresholds_text(&flags).starts_with("player 1: double_at 0.8, take_at 0.25;"));
        let bare = ChutesThresholds {
            first_double_at: None,
            second_take_at: None,
            ..flags
        };
        assert_eq!(
            thresholds_text(&bare),
            "threshold: double_at 0.7, take_at 0.25; take_only: take_at 0.25"
        );
        assert_eq!(pairs_to_evaluate(&[], &bare).expect("all").len(), 36);
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
