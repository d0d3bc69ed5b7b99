//! SIGINT, SIGTERM and SIGHUP, handled alike: stop the workers, remove what the run was
//! writing, and exit at once with the Unix status 128 + signal (130, 143, 129).
//!
//! Before it exits, the handler calls the savers registered with [`Held::save_on_interrupt`]
//! (a run's checkpoint) and prints what they report.
//!
//! The handler exits the process itself rather than asking the main thread to unwind, so an
//! interrupt is honoured within a moment whatever the run is doing (simulating, analysing or
//! writing). What it must not break, the swap of a finished results folder into place, runs
//! inside [`critical`]: the handler waits for it to end, so a results folder is always
//! either the old one or the new one.

use crate::console::note;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use anyhow::{Context, Result};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// What the handler cleans up.
#[derive(Default)]
struct Pending {
    /// Flags to set so running work stops (e.g. a runner's cancel flag).
    flags: Vec<Arc<AtomicBool>>,
    /// Folders to remove, each with the output folder it was being written for (none for an
    /// old folder already replaced).
    folders: Vec<(PathBuf, Option<PathBuf>)>,
    /// Files to remove (lock files).
    files: Vec<PathBuf>,
    /// Output folders already replaced by complete new results, named in the message.
    complete: Vec<PathBuf>,
    /// What to save before exiting, each under the path it writes, returning a message.
    savers: Vec<(PathBuf, Saver)>,
}

/// Saves something before the process exits and says what it saved.
pub type Saver = Box<dyn Fn() -> String + Send>;

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    flags: Vec::new(),
    folders: Vec::new(),
    files: Vec::new(),
    complete: Vec::new(),
    savers: Vec::new(),
});

/// The handler's list of things to clean up, held: while it is held, a signal waits.
pub struct Held(MutexGuard<'static, Pending>);

/// Holds off interrupts until the returned value is dropped, and gives access to what the
/// handler cleans up. Keep it held only for short steps that must not be cut in half.
pub fn hold() -> Held {
    Held(PENDING.lock().unwrap_or_else(PoisonError::into_inner))
}

impl Held {
    /// Sets `flag` if the process is interrupted.
    pub fn set_on_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.0.flags.push(flag);
    }

    /// Removes `folder` if the process is interrupted; `target` is the output folder it was
    /// being written for, named in the message (none for an old folder being discarded).
    pub fn remove_on_interrupt(&mut self, folder: &Path, target: Option<&Path>) {
        self.0
            .folders
            .push((folder.to_path_buf(), target.map(Path::to_path_buf)));
    }

    /// Removes `file` if the process is interrupted.
    pub fn remove_file_on_interrupt(&mut self, file: &Path) {
        self.0.files.push(file.to_path_buf());
    }

    /// Records that `target` now holds the run's complete results, so that an interrupt from
    /// here on says so rather than suggesting nothing was written.
    pub fn mark_complete(&mut self, target: &Path) {
        self.0.complete.push(target.to_path_buf());
    }

    /// Calls `save` (which writes `path`) if the process is interrupted, after the workers
    /// were told to stop, and prints the message it returns; once an output folder is marked
    /// complete, an interrupt removes `path` instead.
    pub fn save_on_interrupt(&mut self, path: &Path, save: Saver) {
        self.0.savers.push((path.to_path_buf(), save));
    }

    /// Forgets a folder, file or saver registered under `path`.
    pub fn forget(&mut self, path: &Path) {
        self.0.savers.retain(|(saved, _)| saved != path);
        self.0.folders.retain(|(folder, _)| folder != path);
        self.0.files.retain(|file| file != path);
    }
}

/// Whether [`install`] has run: a program that embeds the engine (a Python session) handles
/// its own interrupts and stops a run through its [`crate::runner::Watch`].
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Whether this process handles SIGINT, SIGTERM and SIGHUP itself ([`install`]).
pub fn installed() -> bool {
    INSTALLED.load(Ordering::Relaxed)
}

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (once per process).
pub fn install() -> Result<()> {
    INSTALLED.store(true, Ordering::Relaxed);
    let mut signals =
        Signals::new([SIGINT, SIGTERM, SIGHUP]).context("cannot install the signal handler")?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                stop(signal);
            }
        })
        .context("cannot start the signal handler")?;
    Ok(())
}

/// Sets the flags, removes the registered folders and files, and exits with 128 + `signal`.
fn stop(signal: i32) -> ! {
    let name = match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "SIGHUP",
    };
    // Held until exit: a swap in progress finishes first, and none starts after.
    let held = hold();
    let mut message = format!("\nInterrupted by {name}{}", clean_up(&held.0));
    // Once the results are complete, what the savers would save is obsolete.
    for (path, save) in &held.0.savers {
        if held.0.complete.is_empty() {
            message.push_str(&save());
        } else {
            let _ = std::fs::remove_file(path);
        }
    }
    note!("{message}");
    std::process::exit(128 + signal)
}

/// Sets the flags and removes the registered folders and files; says what that means for
/// the output folders, e.g. ": nothing was written to results/war".
fn clean_up(pending: &Pending) -> String {
    for flag in &pending.flags {
        flag.store(true, Ordering::Relaxed);
    }
    let mut message = String::new();
    for (folder, target) in &pending.folders {
        remove_folder(folder);
        if let Some(target) = target {
            message = format!("{message}: nothing was written to {}", target.display());
        }
    }
    for file in &pending.files {
        let _ = std::fs::remove_file(file);
    }
    for target in &pending.complete {
        message = format!(
            "{message} after the new results were complete in {}",
            target.display()
        );
    }
    message
}

/// For a process about to exit on a fatal error (out of memory): does what an interrupt does
/// but save, and returns what [`clean_up`] says. When the list cannot be had within a second
/// (this thread holds it), nothing is removed and the message says where to look.
pub fn clean_up_for_exit() -> String {
    for _ in 0..100 {
        match PENDING.try_lock() {
            Ok(pending) => return clean_up(&pending),
            Err(std::sync::TryLockError::Poisoned(pending)) => {
                return clean_up(&pending.into_inner())
            }
            Err(std::sync::TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
        }
    }
    ": a staging folder may be left beside the output folder (the next run removes it)".into()
}

/// Removes `folder`, retrying while another thread may still be creating files in it.
pub fn remove_folder(folder: &Path) {
    for _ in 0..10 {
        match std::fs::remove_dir_all(folder) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => continue,
            _ => return,
        }
    }
}
