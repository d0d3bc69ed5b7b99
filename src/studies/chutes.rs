//! The chutes study (not implemented yet).

use anyhow::{bail, Result};

use crate::params::ParamDef;
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::studies::{Study, StudyOutput};

/// Chutes & Ladders with a doubling cube (seed 003).
pub struct ChutesStudy;

impl Study for ChutesStudy {
    fn game(&self) -> &'static str {
        "chutes"
    }

    fn description(&self) -> &'static str {
        "Chutes & Ladders with a doubling cube (seed 003)"
    }

    fn params(&self) -> &'static [ParamDef] {
        &[]
    }

    fn run(&self, _experiment: &Experiment, _runner: &Runner) -> Result<StudyOutput> {
        bail!("the chutes study is not implemented yet")
    }
}
