//! The monopoly study (not implemented yet).

use anyhow::{bail, Result};

use crate::params::ParamDef;
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::studies::{Study, StudyOutput};

/// Monopoly landing frequencies (seed 000).
pub struct MonopolyStudy;

impl Study for MonopolyStudy {
    fn game(&self) -> &'static str {
        "monopoly"
    }

    fn description(&self) -> &'static str {
        "Monopoly landing frequencies (seed 000)"
    }

    fn params(&self) -> &'static [ParamDef] {
        &[]
    }

    fn run(&self, _experiment: &Experiment, _runner: &Runner) -> Result<StudyOutput> {
        bail!("the monopoly study is not implemented yet")
    }
}
