//! The twentyone study (not implemented yet).

use anyhow::{bail, Result};

use crate::params::ParamDef;
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::studies::{Study, StudyOutput};

/// Twenty-One standing rules (seed 001).
pub struct TwentyOneStudy;

impl Study for TwentyOneStudy {
    fn game(&self) -> &'static str {
        "twentyone"
    }

    fn description(&self) -> &'static str {
        "Twenty-One standing rules (seed 001)"
    }

    fn params(&self) -> &'static [ParamDef] {
        &[]
    }

    fn run(&self, _experiment: &Experiment, _runner: &Runner) -> Result<StudyOutput> {
        bail!("the twentyone study is not implemented yet")
    }
}
