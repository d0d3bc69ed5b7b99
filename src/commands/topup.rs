//! Top-ups: a run into a folder that holds a finished run of the same spec and seed with
//! fewer trials plays only the new trials, reusing the summaries the first run kept in
//! `summaries.json`; every summary merges exactly, so the tables equal a fresh run's bit for
//! bit. Anything else in the folder is replaced as always, and the run says why it reused
//! nothing.

use std::path::Path;

use super::export::SUMMARIES_FILE;
use super::thousands;
use crate::ledger::check::{check_file, check_run, RunStreams};
use crate::ledger::file::{FileKind, SummaryFile};

/// The summaries of the finished run in `target` that this run (`header`, `streams`) can
/// continue, or `None` (with a note on stderr when the folder held summaries it could not use).
pub fn previous(target: &Path, header: &SummaryFile, streams: &RunStreams) -> Option<SummaryFile> {
    let path = target.join(SUMMARIES_FILE);
    if !path.is_file() {
        return None;
    }
    match usable(&path, header, streams) {
        Ok(saved) => {
            let (had, wanted) = (
                saved.identity.trials_per_variant,
                header.identity.trials_per_variant,
            );
            if had == wanted {
                eprintln!(
                    "Top-up: nothing new to play: {} holds all {} trials per variant asked for; \
                     the results are written again from it",
                    path.display(),
                    thousands(had)
                );
            } else {
                eprintln!(
                    "Top-up: reusing {} trials per variant from {}; playing trials {}..{}",
                    thousands(had),
                    path.display(),
                    thousands(had),
                    thousands(wanted)
                );
            }
            Some(saved)
        }
        Err(why) => {
            eprintln!(
                "Not a top-up: {} {why}, so every trial is played and the folder replaced",
                path.display()
            );
            None
        }
    }
}

/// The file at `path` if it is a finished run of this run's spec, seed, engine and variants
/// with at most its trials, or why not.
fn usable(path: &Path, header: &SummaryFile, streams: &RunStreams) -> Result<SummaryFile, String> {
    let saved = SummaryFile::read(path).map_err(|err| format!("cannot be read ({err:#})"))?;
    if saved.kind != FileKind::Results || saved.shard.is_some() {
        return Err("is not the summaries of a finished run".into());
    }
    let (had, wanted) = (
        saved.identity.trials_per_variant,
        header.identity.trials_per_variant,
    );
    let mut same = saved.identity.clone();
    same.trials_per_variant = wanted;
    same.chunk_size = header.identity.chunk_size;
    let differences = same.differences(&header.identity, "the folder's run", "this run");
    if !differences.is_empty() {
        return Err(format!("is of another run: {}", differences.join("; ")));
    }
    if had > wanted {
        return Err(format!(
            "holds {} trials per variant, more than the {} asked for",
            thousands(had),
            thousands(wanted)
        ));
    }
    check_file(&saved, path)
        .and_then(|()| check_run(&saved, path, streams, false))
        .map_err(|err| format!("fails its checks ({err:#})"))?;
    Ok(saved)
}
