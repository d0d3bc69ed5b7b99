//! Checkpoints of `experiment run`: a summaries file beside the output, saved on a timer and
//! on SIGINT/SIGTERM/SIGHUP, continued by `--resume`, never silently overwritten, removed
//! when the run finishes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};

use super::thousands;
use crate::interrupt;
use crate::ledger::check::{check_run, RunStreams};
use crate::ledger::file::{FileKind, SummaryFile};
use crate::ledger::Ledger;

/// The ledger of a run that checkpoints to `path` every `every_seconds` (0: never, and no
/// checkpoint at all), holding what the checkpoint there already holds when `resume` is set.
/// `header` says what the run is and `streams` its random streams; a checkpoint of any other
/// run is refused, naming what differs, and so is one that fails its checks (see
/// `ledger::check`): a checkpoint is never silently set aside.
pub fn open(
    path: &Path,
    resume: bool,
    every_seconds: u64,
    header: SummaryFile,
    streams: &RunStreams,
) -> Result<Arc<Ledger>> {
    if every_seconds == 0 {
        if resume {
            bail!("--resume continues from a checkpoint, and --checkpoint-every 0 turns them off");
        }
        return Ok(Arc::new(Ledger::new(header)));
    }
    let exists = path.exists();
    if exists && !resume {
        let done = SummaryFile::read(path).map_or_else(
            |_| String::new(),
            |file| format!(" ({} trials done)", thousands(file.trials_done)),
        );
        bail!(
            "a checkpoint of an interrupted run is at {}{done}: add --resume (with the same \
             other arguments) to continue it, or remove the file to start again",
            path.display()
        );
    }
    if !exists && resume {
        bail!(
            "--resume: there is no checkpoint at {} (a run removes its checkpoint when it \
             finishes): check --out, or run without --resume",
            path.display()
        );
    }
    let every = Some(Duration::from_secs(every_seconds));
    let ledger = Ledger::new(header.clone()).saving_to(path, every);
    if exists {
        let saved = SummaryFile::read(path).map_err(|err| unusable(path, &format!("{err:#}")))?;
        check_matches(&saved, &header, path)?;
        check_run(&saved, path, streams, false)
            .map_err(|err| unusable(path, &format!("{err:#}")))?;
        ledger.add(saved.streams);
    }
    Ok(Arc::new(ledger))
}

/// The error for a checkpoint at `path` that cannot be used, for `reason`.
pub fn unusable(path: &Path, reason: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "--resume: the checkpoint {} cannot be used: {reason}. It was left as it is; remove it \
         (or move it away) to run again from the first trial",
        path.display()
    )
}

/// Refuses a checkpoint that is not of the run described by `header`.
fn check_matches(saved: &SummaryFile, header: &SummaryFile, path: &Path) -> Result<()> {
    if saved.kind != FileKind::Checkpoint {
        bail!("{} is not a checkpoint", path.display());
    }
    let mut differences =
        saved
            .identity
            .differences(&header.identity, "the checkpoint", "this run");
    if saved.shard != header.shard {
        let shard = |shard: Option<crate::ledger::file::ShardId>| {
            shard.map_or("the whole run".to_string(), |s| format!("shard {s}"))
        };
        differences.push(format!(
            "the checkpoint is of {} but this run is {}",
            shard(saved.shard),
            shard(header.shard)
        ));
    }
    if saved.identity.stages != header.identity.stages && saved.spec != header.spec {
        differences.push("the spec's text differs too".into());
    }
    if !differences.is_empty() {
        let stages = if saved.identity.stages != header.identity.stages {
            " (the stages played so far were decided with the checkpoint's settings, so they \
             cannot change on the way: give the interrupted run's [stop] or [select] settings \
             and flags again, or remove the checkpoint to start again with the new ones)"
        } else {
            ""
        };
        bail!(
            "the checkpoint {} is of another run: {}{stages}; resume with the arguments of the \
             interrupted run, or remove the checkpoint to start again",
            path.display(),
            differences.join("; ")
        );
    }
    Ok(())
}

/// Saves `ledger` to its checkpoint if the process is interrupted, saying how many trials were
/// saved and the command that continues the run. `reused` trials came from a finished run's
/// summaries (a top-up): they are still in that folder, so they alone make no checkpoint.
pub fn save_on_interrupt(ledger: &Arc<Ledger>, reused: u64) {
    let Some(path) = ledger.path().map(Path::to_path_buf) else {
        return;
    };
    let ledger = Arc::clone(ledger);
    let resume = format!(
        "to continue, run:\n  {}",
        resume_command(std::env::args_os())
    );
    interrupt::hold().save_on_interrupt(&path, Box::new(move || save(&ledger, reused, &resume)));
}

/// Saves the checkpoint of a stopped run (if it has one and played anything new) and says
/// what was kept, ending with `resume` (how to continue) when something was saved.
pub fn save(ledger: &Ledger, reused: u64, resume: &str) -> String {
    let Some(path) = ledger.path() else {
        return "; the run keeps no checkpoint, so nothing was kept".to_string();
    };
    // Read before the ledger: every trial the ledger holds was counted first.
    let played = ledger.played();
    if ledger.trials_done() == 0 {
        return "; no trial had finished, so there is no checkpoint".to_string();
    }
    if ledger.trials_done() <= reused {
        return "; no new trial had finished, so there is no checkpoint (the trials it reused \
                are still in the folder's summaries.json)"
            .to_string();
    }
    match ledger.save() {
        Ok(done) => format!(
            "\n{} trials were played in whole chunks; {} completed trials are saved in {} (the \
             chunks in progress are lost, with any that finished after one still in \
             progress); {resume}",
            thousands(played),
            thousands(done),
            path.display()
        ),
        Err(err) => format!("\nthe checkpoint could not be saved: {err:#}"),
    }
}

/// Removes the checkpoint of a finished run.
pub fn finish(ledger: &Ledger) {
    if let Some(path) = ledger.path() {
        interrupt::hold().forget(path);
        let _ = std::fs::remove_file(path);
    }
}

/// Where the checkpoint of a run into the output folder `target` lives: beside it, as
/// `<target>.checkpoint.json`.
pub fn path_beside(target: &Path) -> PathBuf {
    let name = target.file_name().map_or_else(
        || crate::staging::RESULTS_FOLDER.into(),
        |name| name.to_string_lossy().into_owned(),
    );
    target.with_file_name(format!("{name}.checkpoint.json"))
}

/// The command line that resumes this run: the same arguments with `--resume`, quoted for a
/// POSIX shell.
fn resume_command(args: impl Iterator<Item = OsString>) -> String {
    let mut words: Vec<String> = args
        .map(|arg| crate::shell::quote(&arg.to_string_lossy()))
        .collect();
    if !words.iter().any(|word| word == "--resume") {
        words.push("--resume".into());
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resume_command_repeats_the_arguments_quoted_with_resume_added() {
        let args = ["experiment", "run", "my spec.toml", "--out", "it's"].map(OsString::from);
        assert_eq!(
            resume_command(args.into_iter()),
            r"experiment run 'my spec.toml' --out 'it'\''s' --resume"
        );
        let again = ["experiment", "run", "a.toml", "--resume"].map(OsString::from);
        assert_eq!(
            resume_command(again.into_iter()),
            "experiment run a.toml --resume"
        );
    }

    #[test]
    fn the_checkpoint_sits_beside_the_output_folder() {
        assert_eq!(
            path_beside(Path::new("results/war")),
            Path::new("results/war.checkpoint.json")
        );
    }
}
