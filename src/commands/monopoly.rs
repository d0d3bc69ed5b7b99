//! `experiment trace monopoly` and `experiment exact monopoly`.

use anyhow::{bail, Result};

/// Replays scripted dice and cards for one player and prints the events and tally.
pub fn trace(dice: &[u8], cards: &[String], jail: &str, turns: u32, json: bool) -> Result<()> {
    let _ = (dice, cards, jail, turns, json);
    bail!("trace monopoly is not implemented yet")
}

/// Prints the exact expected landings and long-run frequencies.
pub fn exact(turns: u32, jail: &str) -> Result<()> {
    let _ = (turns, jail);
    bail!("exact monopoly is not implemented yet")
}
