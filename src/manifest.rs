//! `manifest.json`: what was run, how, and how fast.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::spec::Experiment;

/// The record of one run.
#[derive(Debug, Serialize)]
pub struct Manifest {
    /// Experiment name.
    pub experiment: String,
    /// Game played.
    pub game: String,
    /// Spec file path as given.
    pub spec_path: String,
    /// SHA-256 of the spec text.
    pub spec_sha256: String,
    /// The spec text.
    pub spec: String,
    /// Master seed used (after any `--seed`).
    pub seed: u64,
    /// Trials per variant (after any `--trials`).
    pub trials_per_variant: u64,
    /// Variants run, in order.
    pub variants: Vec<String>,
    /// Trials per parallel chunk.
    pub chunk_size: u64,
    /// Worker threads.
    pub threads: usize,
    /// Version of this engine.
    pub crate_version: String,
    /// Git commit of the working directory, when available.
    pub git_commit: Option<String>,
    /// Wall-clock seconds of simulation and analysis.
    pub wall_seconds: f64,
    /// Trials per second over the whole run.
    pub trials_per_second: f64,
    /// Files written next to this manifest.
    pub files: Vec<String>,
}

/// SHA-256 of `text` in hexadecimal.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The current git commit, if the working directory is in a repository.
pub fn git_commit() -> Option<String> {
    let output = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

impl Manifest {
    /// The manifest of a finished run of `experiment`.
    pub fn new(experiment: &Experiment, threads: usize, chunk_size: u64) -> Manifest {
        Manifest {
            experiment: experiment.name.clone(),
            game: experiment.study.game().to_string(),
            spec_path: experiment.path.display().to_string(),
            spec_sha256: sha256_hex(&experiment.source),
            spec: experiment.source.clone(),
            seed: experiment.seed,
            trials_per_variant: experiment.trials,
            variants: experiment.variants.iter().map(|v| v.name.clone()).collect(),
            chunk_size,
            threads,
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: git_commit(),
            wall_seconds: 0.0,
            trials_per_second: 0.0,
            files: Vec::new(),
        }
    }
}
