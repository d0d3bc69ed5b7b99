//! `experiment trace monopoly` and `experiment exact monopoly`.

use anyhow::{anyhow, Result};
use serde::Serialize;

use crate::exact::monopoly::{expected_landings, stationary_frequencies};
use crate::frame::{to_markdown, TableBuilder};
use crate::games::monopoly::{trace as replay, JailStrategy, ScriptedCard, SQUARES};

/// The `--json` form of a trace.
#[derive(Serialize)]
struct TraceJson {
    tally: Vec<u32>,
    landings: Vec<(u32, u8)>,
}

/// Replays scripted dice and cards for one player and prints the events and tally.
pub fn trace(
    dice: &[u8],
    cards: &[String],
    jail: JailStrategy,
    turns: u32,
    json: bool,
) -> Result<()> {
    let cards: Vec<ScriptedCard> = cards
        .iter()
        .map(|text| text.parse().map_err(|e| anyhow!("--cards: {e}")))
        .collect::<Result<_>>()?;
    let trace = replay(dice, &cards, jail, turns)?;
    if json {
        let out = TraceJson {
            tally: trace.tally.to_vec(),
            landings: trace.landings.clone(),
        };
        println!("{}", serde_json::to_string(&out)?);
    } else {
        print!("{trace}");
    }
    Ok(())
}

/// Prints the exact expected landings over a game and the long-run frequencies.
pub fn exact(turns: u32, jail: JailStrategy) -> Result<()> {
    if turns == 0 {
        return Err(anyhow!("--turns must be at least 1"));
    }
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
    println!(
        "Exact Markov chain, jail {}, cards drawn with replacement: expected landings of one \
         player over {turns} turns from Go ({total:.4} in all), their share, and the long-run \
         share.\n",
        jail.name()
    );
    print!("{}", to_markdown(&table));
    Ok(())
}
