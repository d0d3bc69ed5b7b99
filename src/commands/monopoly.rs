//! `experiment trace monopoly` and `experiment exact monopoly`.

use anyhow::{anyhow, Result};
use serde::Serialize;

use crate::exact::monopoly::{expected_landings, stationary_frequencies};
use crate::frame::{to_markdown, TableBuilder};
use crate::games::monopoly::{
    trace as replay, JailStrategy, ScriptedCard, Trace, TraceError, SQUARES,
};
use crate::params::{ParamKind, Params};

/// The `--json` form of a trace.
#[derive(Serialize)]
struct TraceJson {
    tally: Vec<u32>,
    landings: Vec<(u32, u8)>,
}

/// The turn limit of Monopoly specs (`turns`), which the commands share.
fn turns_limit() -> (i64, i64) {
    crate::studies::monopoly::MonopolyParams::DECLARED
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

/// A trace as text, or as JSON.
fn trace_text(trace: &Trace, json: bool) -> Result<String> {
    Ok(if json {
        let out = TraceJson {
            tally: trace.tally.to_vec(),
            landings: trace.landings.clone(),
        };
        serde_json::to_string(&out)? + "\n"
    } else {
        trace.to_string()
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
        Ok(trace) => return super::emit(&trace_text(&trace, json)?),
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
    super::emit(&trace_text(&partial, json)?)?;
    Err(anyhow!(
        "{error}; turns 1 to {done} of the {turns} asked for are shown above"
    ))
}

/// Prints the exact expected landings over a game and the long-run frequencies.
pub fn exact(turns: u32, jail: JailStrategy) -> Result<()> {
    check_turns(turns)?;
    let expected = expected_landings(jail, turns);
    let total: f64 = expected.iter().sum();
    let stationary = stationary_frequencies(jail);
    let table = TableBuilder::new()
        .count("square", 1..=SQUARES.len() as u64)
        .text("name", SQUARES.iter().map(|s| s.0))
        .real("expected_landings", expected.iter().copied())
        .real("freq", expected.iter().map(|e| e / total))
        .real("long_run_freq", stationary.iter().copied())
        .build()?;
    super::emit(&format!(
        "Exact Markov chain, jail {}, cards drawn with replacement: expected landings of one \
         player over {turns} turns from Go ({total:.4} in all), their share, and the long-run \
         share.\n\n{}",
        jail.name(),
        to_markdown(&table)
    ))
}
