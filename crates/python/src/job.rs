//! Work on a thread of its own, which the Python side waits for in short steps with the GIL
//! released: between steps it draws the progress and notices Ctrl-C, which stops the work
//! through the run's [`Watch`] (the run saves its checkpoint and ends with `Interrupted`).

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use experiment_engine::commands::session::RunResults;
use experiment_engine::frame::NamedTable;
use experiment_engine::runner::Watch;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{to_py, ExperimentError};
use crate::results::Results;
use crate::tables::Table;

/// What a job gives when it finishes.
pub enum Outcome {
    /// A run's or a merge's results, and the folder written (if any).
    Results(Box<RunResults>, Option<PathBuf>),
    /// One shard of a run: its summaries file.
    Shard {
        /// The shard's summaries file.
        file: PathBuf,
        /// The folder of every shard's file.
        folder: PathBuf,
        /// Trials the shard holds.
        trials: u64,
        /// Wall-clock seconds it took.
        seconds: f64,
    },
    /// A game's exact answers: the text `experiment exact` prints, and the tables.
    Exact {
        /// The printed text.
        text: String,
        /// The answers as tables.
        tables: Vec<NamedTable>,
    },
}

/// The job's end, once it has come.
type Finished = Mutex<Option<anyhow::Result<Outcome>>>;

/// Work in progress on a thread of its own (see the module's documentation).
#[pyclass(module = "experiment._engine")]
pub struct Job {
    watch: Watch,
    finished: Arc<(Finished, Condvar)>,
}

impl Job {
    /// Starts `work` on a new thread, watched by a new [`Watch`].
    pub fn spawn(work: impl FnOnce(Watch) -> anyhow::Result<Outcome> + Send + 'static) -> Job {
        let watch = Watch::new();
        let finished = Arc::new((Mutex::new(None), Condvar::new()));
        let (given, done) = (watch.clone(), Arc::clone(&finished));
        std::thread::spawn(move || {
            // A panic is an engine bug: it ends the job with an error rather than hanging it.
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(given)))
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the engine panicked (a bug)")));
            let (slot, signal) = &*done;
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(outcome);
            signal.notify_all();
        });
        Job { watch, finished }
    }
}

#[pymethods]
impl Job {
    /// Waits up to `timeout` seconds for the job to finish, with the GIL released; whether it
    /// has finished.
    fn wait(&self, py: Python<'_>, timeout: f64) -> bool {
        let finished = Arc::clone(&self.finished);
        py.detach(move || {
            let (slot, signal) = &*finished;
            let held = slot.lock().unwrap_or_else(PoisonError::into_inner);
            let wait = Duration::from_secs_f64(timeout.clamp(0.0, 3600.0));
            let (held, _) = signal
                .wait_timeout_while(held, wait, |outcome| outcome.is_none())
                .unwrap_or_else(PoisonError::into_inner);
            held.is_some()
        })
    }

    /// How far the work has got: trials done, trials expected in the current part, and what
    /// is being played.
    fn progress(&self) -> (u64, u64, String) {
        let progress = self.watch.progress();
        (progress.done, progress.total, progress.label)
    }

    /// Asks the work to stop; it ends soon after with `KeyboardInterrupt`.
    fn stop(&self) {
        self.watch.stop();
    }

    /// The outcome of a finished job (once): a `Results`, a dict for a shard, or the text and
    /// tables of exact answers; its error raised as the package's exception.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (slot, _) = &*self.finished;
        let outcome = slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .ok_or_else(|| {
                ExperimentError::new_err("the job has not finished, or its result was taken")
            })?;
        match outcome.map_err(to_py)? {
            Outcome::Results(results, folder) => {
                Ok(Bound::new(py, Results::new(*results, folder))?.into_any())
            }
            Outcome::Shard {
                file,
                folder,
                trials,
                seconds,
            } => {
                let dict = PyDict::new(py);
                dict.set_item("file", file)?;
                dict.set_item("folder", folder)?;
                dict.set_item("trials", trials)?;
                dict.set_item("seconds", seconds)?;
                Ok(dict.into_any())
            }
            Outcome::Exact { text, tables } => {
                let tables: Vec<Table> = tables
                    .into_iter()
                    .map(|table| Table::new(&table.name, table.frame))
                    .collect();
                Ok((text, tables).into_pyobject(py)?.into_any())
            }
        }
    }
}
