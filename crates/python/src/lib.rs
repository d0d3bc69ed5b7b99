//! `experiment._engine`, the native module of the Python package `experiment`: the engine's
//! runs, merges, checks and exact answers, called in-process on the engine's own threads with
//! the GIL released, each as a [`job::Job`] the Python side waits on (drawing progress and
//! turning Ctrl-C into a stop). Tables leave as Arrow C streams ([`tables::Table`]).
//!
//! The Python API (`python/experiment`) wraps these functions; their stubs are in
//! `python/experiment/_engine.pyi`.

mod errors;
mod job;
mod results;
mod spec;
mod tables;

use std::path::PathBuf;
use std::sync::OnceLock;

use experiment_engine::cli::{ExactAnswers, Verb};
use experiment_engine::commands::inspect;
use experiment_engine::commands::merge::merge_shards;
use experiment_engine::commands::run::{run_into, Ran, Writing};
use experiment_engine::commands::session::{run_experiment, Overrides, Playing};
use experiment_engine::ledger::file::ShardId;
use experiment_engine::registry::Registry;
use pyo3::prelude::*;

use errors::{to_py, ExperimentError, SpecError};
use job::{Job, Outcome};
use spec::SpecSource;
use tables::Table;

/// The built-in games, as the `experiment` program has them.
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(experiment::registry)
}

/// Starts a run of `spec` (see `experiment.run`); `kind` says what `spec` is: `path`, `text`
/// or `dict`. Writes a folder only when `out` is given (or a shard's file, for `shard`).
#[pyfunction]
#[pyo3(signature = (kind, spec, *, trials=None, seed=None, variants=Vec::new(), threads=None,
    chunk_size=None, out=None, resume=false, replace=false, checkpoint_every=30, shard=None))]
#[allow(clippy::too_many_arguments)]
fn start_run(
    kind: &str,
    spec: &Bound<'_, PyAny>,
    trials: Option<u64>,
    seed: Option<u64>,
    variants: Vec<String>,
    threads: Option<u16>,
    chunk_size: Option<u64>,
    out: Option<PathBuf>,
    resume: bool,
    replace: bool,
    checkpoint_every: u64,
    shard: Option<(u64, u64)>,
) -> PyResult<Job> {
    let source = SpecSource::read(kind, spec)?;
    let overrides = Overrides {
        trials,
        seed,
        variants: &variants,
    };
    let (study, experiment) = source.load(registry(), overrides).map_err(to_py)?;
    let shard = shard
        .map(|(index, count)| format!("{index}/{count}").parse::<ShardId>())
        .transpose()
        .map_err(|message| ExperimentError::new_err(format!("shard: {message}")))?;
    let in_memory = out.is_none() && shard.is_none();
    if in_memory && (resume || replace) {
        return Err(ExperimentError::new_err(
            "resume=True and replace=True are about a results folder: give out= too",
        ));
    }
    Ok(Job::spawn(move |watch| {
        let playing = Playing {
            threads,
            chunk_size,
            progress: false,
            watch: Some(watch),
        };
        if in_memory {
            let results = run_experiment(study, experiment, &playing)?;
            return Ok(Outcome::Results(Box::new(results), None));
        }
        let writing = Writing {
            out,
            resume,
            replace,
            checkpoint_every,
            shard,
        };
        Ok(match run_into(study, experiment, &playing, &writing)? {
            Ran::Results(results, folder) => Outcome::Results(results, Some(folder)),
            Ran::Shard {
                file,
                folder,
                trials,
                seconds,
            } => Outcome::Shard {
                file,
                folder,
                trials,
                seconds,
            },
        })
    }))
}

/// Starts merging the shard files in `paths` (files, or folders of `shard-*.json`) into one
/// run's results, written into `out` when given.
#[pyfunction]
#[pyo3(signature = (paths, *, out=None, threads=None))]
fn start_merge(paths: Vec<PathBuf>, out: Option<PathBuf>, threads: Option<u16>) -> Job {
    Job::spawn(move |watch| {
        let playing = Playing {
            threads,
            watch: Some(watch),
            ..Playing::default()
        };
        let write = out.is_some();
        let merged = merge_shards(registry(), &paths, &playing, out.as_deref(), write)?;
        Ok(Outcome::Results(Box::new(merged.results), merged.folder))
    })
}

/// Checks `spec` as `experiment validate` does: returns its name, game, seed, trials per
/// variant, and its variants as a table.
#[pyfunction]
fn validate(kind: &str, spec: &Bound<'_, PyAny>) -> PyResult<(String, String, u64, u64, Table)> {
    let source = SpecSource::read(kind, spec)?;
    let (study, experiment) = source
        .load(registry(), Overrides::default())
        .map_err(to_py)?;
    inspect::check(study, &experiment).map_err(to_py)?;
    let variants = inspect::variants_table(&experiment).map_err(to_py)?;
    Ok((
        experiment.name.clone(),
        study.game().to_string(),
        experiment.seed,
        experiment.trials,
        Table::new("variants", variants),
    ))
}

/// The games, one row per parameter, as `experiment list` shows them.
#[pyfunction]
fn games() -> PyResult<Table> {
    let frame = inspect::games_table(registry()).map_err(to_py)?;
    Ok(Table::new("games", frame))
}

/// The names of the games with an `exact` command, and each command's options (long names).
#[pyfunction]
fn exact_options(game: &str) -> PyResult<Vec<String>> {
    let command = exact_command(game)?;
    Ok(command
        .get_arguments()
        .filter_map(|arg| arg.get_long().map(str::to_string))
        .filter(|long| long != "help")
        .collect())
}

/// The `exact` subcommand of `game`, or an error naming the games.
fn exact_command(game: &str) -> PyResult<clap::Command> {
    registry()
        .find(game)
        .and_then(|study| study.commands())
        .and_then(|commands| commands.command(Verb::Exact))
        .map(|command| command.command)
        .ok_or_else(|| {
            ExperimentError::new_err(format!(
                "unknown game '{game}': the games are {}",
                registry().names().join(", ")
            ))
        })
}

/// Starts computing `game`'s exact answers for `args`, its `exact` command's arguments (e.g.
/// `["--decks", "2"]`); the job's result is the printed text and the tables.
#[pyfunction]
fn start_exact(game: &str, args: Vec<String>) -> PyResult<Job> {
    let command = exact_command(game)?;
    let matches = command
        .try_get_matches_from(std::iter::once(game.to_string()).chain(args))
        .map_err(|err| ExperimentError::new_err(err.render().to_string().trim().to_string()))?;
    let commands = registry()
        .find(game)
        .and_then(|study| study.commands())
        .expect("exact_command found them");
    Ok(Job::spawn(move |_| {
        let ExactAnswers { text, tables } = commands.exact(&matches)?;
        Ok(Outcome::Exact { text, tables })
    }))
}

/// The native module.
#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    experiment::record_build();
    // A report's reproduce command is the command line's equivalent of the run.
    experiment_engine::commands::results::set_program("experiment");
    let py = m.py();
    m.add("ExperimentError", py.get_type::<ExperimentError>())?;
    m.add("SpecError", py.get_type::<SpecError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Job>()?;
    m.add_class::<Table>()?;
    m.add_class::<results::Results>()?;
    m.add_function(wrap_pyfunction!(start_run, m)?)?;
    m.add_function(wrap_pyfunction!(start_merge, m)?)?;
    m.add_function(wrap_pyfunction!(start_exact, m)?)?;
    m.add_function(wrap_pyfunction!(exact_options, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    Ok(())
}
