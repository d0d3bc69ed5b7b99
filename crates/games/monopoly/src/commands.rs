//! `experiment trace monopoly` and `experiment exact monopoly`. The trace's play-by-play text
//! is written here, from the events the rules report to their observer.

use std::fmt::Write;

use anyhow::{anyhow, Result};
use serde::Serialize;

use crate::exact::{expected_landings_under, stationary_frequencies_under};
use crate::game::board::name;
use crate::game::engine::{JailCause, LeaveCause};
use crate::game::{
    trace as replay, Card, JailStrategy, Rules, ScriptedCard, Trace, TraceError, TraceEvent,
    SQUARES,
};
use experiment_engine::cli::ExactAnswers;
use experiment_engine::frame::{Role, TableBuilder};
use experiment_engine::params::{ParamKind, Params};
use experiment_engine::report::markdown::table_text;
use experiment_engine::report::Table;

/// The `--json` form of a trace.
#[derive(Serialize)]
struct TraceJson {
    tally: Vec<u32>,
    landings: Vec<(u32, u8)>,
}

/// The turn limit of Monopoly specs (`turns`), which the commands share.
fn turns_limit() -> (i64, i64) {
    crate::study::MonopolyParams::DECLARED
        .iter()
        .find_map(|def| match (def.name, def.kind) {
            ("turns", ParamKind::Int { min, max }) => Some((min, max)),
            _ => None,
        })
        .expect("Monopoly declares an integer parameter `turns`")
}

/// Fails unless `turns` is within the limit specs have.
fn check_turns(turns: u32) -> Result<()> {
    let (min, max) = turns_limit();
    if !(min..=max).contains(&i64::from(turns)) {
        return Err(anyhow!(
            "--turns {turns} is not in {min}..={max} (the same limit as `turns` in a spec)"
        ));
    }
    Ok(())
}

/// A square's 1-based number and name, e.g. `11, Jail`.
fn square(number: u8) -> String {
    format!("{number}, {}", name(number.wrapping_sub(1)))
}

/// One event as a line of the verbose play-by-play: the roll, the move, the card, the jail.
fn event_line(event: &TraceEvent) -> String {
    match *event {
        TraceEvent::TurnStart {
            player,
            turn,
            square: at,
            jail_turn,
        } => {
            let mut line = format!("## Turn {turn} (player {}) at {}", player + 1, square(at));
            if jail_turn > 0 {
                let _ = write!(line, ", in jail: jail turn {jail_turn}");
            }
            line
        }
        TraceEvent::Roll { first, second } => format!("Rolled: {first} {second}"),
        TraceEvent::Move { from, to, steps } => format!(
            "Player at: {}. Player moves: {steps}. Player now at: {}.",
            square(from),
            square(to)
        ),
        TraceEvent::CardDrawn { square: at, card } => {
            let deck = match card {
                Card::Chance(_) => "Chance",
                Card::CommunityChest(_) => "Community Chest",
            };
            format!(
                "Drew {deck} card on {}: {} ({card})",
                square(at),
                card.title()
            )
        }
        TraceEvent::CardMove { from, to } => {
            format!("Card moves player from {} to {}.", square(from), square(to))
        }
        TraceEvent::SentToJail { cause } => match cause {
            JailCause::GoToJailSquare => "Going to jail: landed on Go to jail",
            JailCause::Card => "Going to jail: drew Go to Jail",
            JailCause::ThirdDoubles => "Going to jail: third doubles in a turn",
        }
        .to_string(),
        TraceEvent::RollAgain => "Rolled doubles, take another turn".to_string(),
        TraceEvent::LeaveJail { cause } => match cause {
            LeaveCause::Doubles => "Jail: rolled doubles, getting out of jail",
            LeaveCause::ThirdTurn => "Third turn in jail, getting out of jail",
            LeaveCause::PaidFine => "Paid the fine, getting out of jail",
        }
        .to_string(),
        TraceEvent::StayInJail { jail_turn } => format!("Staying in jail (jail turn {jail_turn})"),
        TraceEvent::Landing { square: at } => format!("Tally at: {}", square(at)),
    }
}

/// The events one per line, then the 40 landing counts (square 1 first) on one line.
fn play_by_play(trace: &Trace) -> String {
    let mut out = String::new();
    for event in &trace.events {
        out.push_str(&event_line(event));
        out.push('\n');
    }
    let tally: Vec<String> = trace.tally.iter().map(u32::to_string).collect();
    let _ = writeln!(out, "Tally: {}", tally.join(" "));
    out
}

/// A trace as text, or as JSON.
fn trace_text(trace: &Trace, json: bool) -> Result<String> {
    Ok(if json {
        let out = TraceJson {
            tally: trace.tally.to_vec(),
            landings: trace.landings.clone(),
        };
        serde_json::to_string(&out)? + "\n"
    } else {
        play_by_play(trace)
    })
}

/// Replays scripted dice and cards for one player and prints the events and tally. A script
/// that stops early (out of dice, a card for the other deck) still prints the turns before
/// the one it could not finish, then fails with the reason.
pub fn trace(
    dice: &[u8],
    cards: &[String],
    jail: JailStrategy,
    turns: u32,
    json: bool,
) -> Result<()> {
    check_turns(turns)?;
    let cards: Vec<ScriptedCard> = cards
        .iter()
        .map(|text| text.parse().map_err(|e| anyhow!("--cards: {e}")))
        .collect::<Result<_>>()?;
    let error = match replay(dice, &cards, jail, turns) {
        Ok(trace) => return experiment_engine::commands::emit(&trace_text(&trace, json)?),
        Err(error) => error,
    };
    let stopped_on = match error {
        TraceError::OutOfDice { turn, .. } | TraceError::WrongDeck { turn, .. } => turn,
        TraceError::InvalidDie { .. } => return Err(error.into()),
    };
    let done = stopped_on - 1;
    if done == 0 {
        return Err(error.into());
    }
    // The same script replays the turns it could finish.
    let partial = replay(dice, &cards, jail, done)?;
    experiment_engine::commands::emit(&trace_text(&partial, json)?)?;
    Err(anyhow!(
        "{error}; turns 1 to {done} of the {turns} asked for are shown above"
    ))
}

/// The exact expected landings over a game and the long-run frequencies under `rules`: the
/// table `exact_landings`, and the text `experiment exact monopoly` prints.
pub fn exact(turns: u32, jail: JailStrategy, rules: &Rules) -> Result<ExactAnswers> {
    check_turns(turns)?;
    rules.validate().map_err(|e| anyhow!("--die-sides: {e}"))?;
    let expected = expected_landings_under(jail, rules, turns);
    let total: f64 = expected.iter().sum();
    let stationary = stationary_frequencies_under(jail, rules);
    let table = TableBuilder::new()
        .count("square", 1..=SQUARES.len() as u64)
        .text("name", SQUARES.iter().map(|s| s.0))
        .role(Role::Label)
        .real("expected_landings", expected.iter().copied())
        .real("freq", expected.iter().map(|e| e / total))
        .real("long_run_freq", stationary.iter().copied())
        .named("exact_landings")?;
    let text = format!(
        "Exact Markov chain, jail {}, cards drawn with replacement, {}: expected landings of \
         one player over {turns} turns from Go ({total:.4} in all), their share, and the \
         long-run share.\n\n{}",
        jail.name(),
        rules_text(rules),
        table_text(&Table::from_named(&table))
    );
    Ok(ExactAnswers {
        text,
        tables: vec![table],
    })
}

/// The rules as a spec writes them: `die_sides = 6, counting = every_throw, ...`.
fn rules_text(rules: &Rules) -> String {
    format!(
        "die_sides = {}, counting = {}, chance_deck = {}, go_to_jail = {}",
        rules.die_sides,
        rules.count.name(),
        rules.chance.name(),
        rules.go_to_jail
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_lines_name_the_squares() {
        let line = event_line(&TraceEvent::Move {
            from: 17,
            to: 25,
            steps: 8,
        });
        assert_eq!(
            line,
            "Player at: 17, St. James Place. Player moves: 8. Player now at: 25, Illinois Avenue."
        );
        assert_eq!(
            event_line(&TraceEvent::Landing { square: 11 }),
            "Tally at: 11, Jail"
        );
        let start = TraceEvent::TurnStart {
            player: 0,
            turn: 9,
            square: 11,
            jail_turn: 1,
        };
        assert_eq!(
            event_line(&start),
            "## Turn 9 (player 1) at 11, Jail, in jail: jail turn 1"
        );
    }

    #[test]
    fn the_seed_script_prints_its_jail_events_and_ends_with_the_tally() {
        let dice = [
            6, 4, 5, 3, 3, 5, 6, 2, 5, 4, 4, 1, 2, 6, 4, 4, 4, 4, 2, 2, 4, 3, 4, 4, 1, 4, 3, 4, 1,
            2, 3, 6, 5, 4, 5, 5, 1, 2, 5, 4, 3, 3, 1, 1, 2, 1, 1, 3,
        ];
        let cards: Vec<ScriptedCard> = vec!["chance:go_to_jail".parse().expect("a card")];
        let trace = replay(&dice, &cards, JailStrategy::LongStay, 20).expect("20 turns");
        let text = play_by_play(&trace);
        assert_eq!(text.lines().count(), trace.events.len() + 1);
        assert!(
            text.contains("Going to jail: third doubles in a turn"),
            "{text}"
        );
        assert!(
            text.contains("Third turn in jail, getting out of jail"),
            "{text}"
        );
        assert!(text.contains(
            "Drew Chance card on 8, Chance: Go to Jail (chance:go_to_jail)\nGoing to jail: drew Go to Jail\n"
        ));
        assert!(text.ends_with(
            "Tally: 0 1 0 1 0 0 0 0 1 0 7 0 1 0 0 1 1 0 2 1 0 0 0 1 1 0 1 0 0 1 0 0 2 0 1 0 0 0 0 0\n"
        ));
    }
}
