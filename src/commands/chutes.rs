//! `experiment play chutes` and `experiment exact chutes`.

use anyhow::{bail, Result};

/// Prints one base game move by move.
pub fn play(seed: u64) -> Result<()> {
    let _ = seed;
    bail!("play chutes is not implemented yet")
}

/// Prints the exact answers for the default board.
pub fn exact(max_cube: u32, pairs: &[String]) -> Result<()> {
    let _ = (max_cube, pairs);
    bail!("exact chutes is not implemented yet")
}
