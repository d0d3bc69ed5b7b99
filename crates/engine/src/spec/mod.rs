//! Experiment specs: raw TOML ([`ExperimentSpec`]) turned into a validated [`Experiment`] with
//! its expanded variants, with errors that name the file, line and key.
//!
//! The spec layer knows games only through [`GameParams`]: the caller passes the games a spec
//! may name (see `crate::registry`), so this module imports no study.

use std::collections::HashSet;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

pub use crate::design::Design;
pub use crate::frame::TableFormat;
use crate::params::{GameParams, ParamSet};

mod compare;
mod design;
mod locate;
mod mode;
mod names;
mod ranges;
mod raw;
mod select;
mod stages;
mod stop;
mod unused;
mod validate;
mod variants;

pub use compare::Compare;
use locate::{plain_toml_message, Locator};
pub use mode::Mode;
pub use raw::{ExperimentSpec, OutputSpec, Sweep, SweepValues, Sweeps};
pub use select::{Goal, Select, SelectSpec, DEFAULT_CONFIDENCE};
pub use stages::MAX_STAGES;
pub use stop::{Stop, StopFlags, StopSpec, Target};
use validate::validate;
pub use variants::name_piece;

/// The only spec format version this engine reads.
pub const SPEC_VERSION: i64 = 1;
/// Most trials per variant a spec may ask for.
pub const MAX_TRIALS: i64 = crate::summary_check::MAX_TRIALS as i64;
/// Largest spec file read, in bytes (1 MiB).
pub const MAX_SPEC_BYTES: usize = 1 << 20;
/// Most variants a spec may expand to unless it sets `max_variants`.
pub const DEFAULT_MAX_VARIANTS: i64 = 1_000;
/// Most variants any spec may expand to, whatever its `max_variants`.
pub const MAX_VARIANTS: i64 = 100_000;
/// Longest experiment or variant name, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// A spec that cannot be used, located in its file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", path.display(), line.map(|line| format!(":{line}")).unwrap_or_default())]
pub struct SpecError {
    /// The spec file.
    pub path: PathBuf,
    /// The 1-based line, when the problem has a place in the file.
    pub line: Option<usize>,
    /// What is wrong and what would be right.
    pub message: String,
}

/// Validated output settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputSettings {
    /// Formats each table is written in.
    pub formats: Vec<TableFormat>,
    /// Whether plots are drawn.
    pub plots: bool,
    /// Whether `report.html` is written.
    pub html: bool,
}

/// One combination of parameters to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Position in the spec's full expansion (for display only).
    pub index: usize,
    /// The random stream of the variant's trials, derived from its identity (the game and its
    /// canonical parameter values, see [`variant_stream`](crate::rng::variant_stream)), so a
    /// variant gives the same numbers in any spec that contains it, wherever it stands.
    pub stream: u64,
    /// The swept values joined with `-`, or the name given in a `[[variant]]` table.
    pub name: String,
    /// Every game parameter's value.
    pub params: ParamSet,
    /// Which variants it is compared with (its experiment's `[compare]`, the same for every
    /// variant): kept beside each variant so that an analysis of the variants alone compares
    /// them as the spec asks.
    pub compare: Compare,
}

/// A validated experiment, ready to run.
pub struct Experiment {
    /// The spec file it came from.
    pub path: PathBuf,
    /// The spec's text, recorded in the manifest.
    pub source: String,
    /// Name of the experiment.
    pub name: String,
    /// What question the experiment answers.
    pub description: String,
    /// The game (its name and parameters; the registry maps it to its study).
    pub study: &'static dyn GameParams,
    /// Master seed.
    pub seed: u64,
    /// Trials per variant.
    pub trials: u64,
    /// The variants to run, in spec order.
    pub variants: Vec<Variant>,
    /// Whether `--variant` chose only some of the spec's variants (see
    /// [`Experiment::keep_variants`]): a command that reproduces the run must name them.
    pub variant_subset: bool,
    /// Output settings.
    pub output: OutputSettings,
    /// How the variants get their random numbers (`[design] random_numbers`).
    pub design: Design,
    /// Which pairs of variants are compared (`[compare]`; every variant holds a copy).
    pub compare: Compare,
    /// How the run proceeds: fixed trials, to a precision target (`[stop]` or its flags) or
    /// to a selection of the best (`[select]`).
    pub mode: Mode,
}

impl fmt::Debug for Experiment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Experiment")
            .field("name", &self.name)
            .field("game", &self.study.game())
            .field("seed", &self.seed)
            .field("trials", &self.trials)
            .field("design", &self.design)
            .field("compare", &self.compare)
            .field("variants", &self.variants)
            .finish()
    }
}

/// Reads and validates the spec at `path`, a spec for one of `games`.
pub fn load(path: &Path, games: &[&'static dyn GameParams]) -> Result<Experiment, SpecError> {
    let unreadable = |err: std::io::Error| SpecError {
        path: path.to_path_buf(),
        line: None,
        message: format!("cannot read the spec: {err}"),
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| {
            // One byte past the cap is enough to know the file is too large.
            file.take(MAX_SPEC_BYTES as u64 + 1).read_to_end(&mut bytes)
        })
        .map_err(unreadable)?;
    parse_bytes(path, &bytes, games)
}

/// Validates spec bytes as if read from `path`: at most [`MAX_SPEC_BYTES`] of UTF-8 TOML.
pub fn parse_bytes(
    path: &Path,
    bytes: &[u8],
    games: &[&'static dyn GameParams],
) -> Result<Experiment, SpecError> {
    let error = |line, message: String| SpecError {
        path: path.to_path_buf(),
        line,
        message,
    };
    if bytes.len() > MAX_SPEC_BYTES {
        return Err(error(
            None,
            format!(
                "the spec is larger than {MAX_SPEC_BYTES} bytes (1 MiB), the most a spec may \
                 have; a spec is a short text file: is this the right file?"
            ),
        ));
    }
    let source = std::str::from_utf8(bytes).map_err(|err| {
        let valid = &bytes[..err.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        error(
            Some(line),
            "the spec is not UTF-8 text: is this the right file?".to_string(),
        )
    })?;
    parse(path, source, games)
}

/// Validates spec text as if read from `path`.
pub fn parse(
    path: &Path,
    source: &str,
    games: &[&'static dyn GameParams],
) -> Result<Experiment, SpecError> {
    let locate = Locator { path, source };
    let spec: ExperimentSpec = toml::from_str(source).map_err(|err| {
        let span = err.span();
        let start = span.as_ref().map(|span| span.start);
        let written = span.and_then(|span| source.get(span));
        SpecError {
            path: path.to_path_buf(),
            line: start.map(|start| locate.line(start)),
            message: plain_toml_message(
                err.message().trim(),
                start.and_then(|start| locate.key_at(start)),
                written,
            ),
        }
    })?;
    validate(spec, &locate, games)
}

impl Experiment {
    /// Keeps only the named variants (in spec order), failing on a name the spec lacks.
    pub fn keep_variants(&mut self, names: &[String]) -> Result<(), String> {
        if names.is_empty() {
            return Ok(());
        }
        let known: HashSet<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
        if let Some(missing) = names.iter().find(|name| !known.contains(name.as_str())) {
            let known: Vec<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
            return Err(format!(
                "{}: no variant named '{missing}' (expected one of: {})",
                self.path.display(),
                known.join(", ")
            ));
        }
        let wanted: HashSet<&str> = names.iter().map(String::as_str).collect();
        let before = self.variants.len();
        self.variants
            .retain(|variant| wanted.contains(variant.name.as_str()));
        self.variant_subset |= self.variants.len() < before;
        Ok(())
    }
}
