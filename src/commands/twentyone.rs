//! `experiment play twentyone` and `experiment exact twentyone`.

use anyhow::{bail, Result};

/// Plays interactively over stdin/stdout.
pub fn play(seed: Option<u64>) -> Result<()> {
    let _ = seed;
    bail!("play twentyone is not implemented yet")
}

/// Prints the exact win probability of every standing rule.
pub fn exact() -> Result<()> {
    bail!("exact twentyone is not implemented yet")
}
