//! Top-ups: a run into a folder that holds a finished run of the same spec and seed with
//! fewer trials plays only the new trials, reusing the summaries the first run kept in
//! `summaries.json`; every summary merges exactly, so the tables equal a fresh run's bit for
//! bit. A folder holding a fuller run of the same spec (more trials per variant, or other
//! variants) is refused unless `--replace` asks for it ([`refuse_fuller`]); anything else in
//! the folder is replaced as always, and the run says why it reused nothing.

use crate::console::note;
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
                note!(
                    "Top-up: nothing new to play: {} holds all {} trials per variant asked for; \
                     the results are written again from it",
                    path.display(),
                    thousands(had)
                );
            } else {
                note!(
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
            note!(
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

/// Refuses, unless `replace` (its `--replace`), a run (`header`) into `target` when the
/// folder holds a finished run of the same spec text that this one would lose work of: more
/// trials per variant, or variants this run does not play. A folder whose summaries cannot be
/// read, or hold another spec's run, is no obstacle (the run says why it reuses nothing).
pub fn refuse_fuller(target: &Path, header: &SummaryFile, replace: bool) -> anyhow::Result<()> {
    let path = target.join(SUMMARIES_FILE);
    if replace || !path.is_file() {
        return Ok(());
    }
    let Ok(saved) = SummaryFile::read(&path) else {
        return Ok(());
    };
    let (had, wanted) = (&saved.identity, &header.identity);
    let same_spec = saved.kind == FileKind::Results
        && saved.spec == header.spec
        && had.experiment == wanted.experiment
        && had.game == wanted.game;
    if !same_spec {
        return Ok(());
    }
    let missing: Vec<&str> = had
        .variants
        .iter()
        .filter(|name| !wanted.variants.contains(name))
        .map(String::as_str)
        .collect();
    let mut losses = Vec::new();
    if had.trials_per_variant > wanted.trials_per_variant {
        losses.push(format!(
            "this run asks for {} trials per variant",
            thousands(wanted.trials_per_variant)
        ));
    }
    if !missing.is_empty() {
        losses.push(format!(
            "this run does not play {} {}",
            if missing.len() == 1 {
                "variant"
            } else {
                "variants"
            },
            missing.join(", ")
        ));
    }
    if losses.is_empty() {
        return Ok(());
    }
    anyhow::bail!(
        "output folder {} holds a fuller run of the same spec ({} trials per variant of {} \
         variant{}: {}, seed {}), but {}; replacing it would lose those \
         results, so nothing was played: choose another folder with --out, or add --replace \
         to replace it",
        target.display(),
        thousands(had.trials_per_variant),
        had.variants.len(),
        if had.variants.len() == 1 { "" } else { "s" },
        had.variants.join(", "),
        had.seed,
        losses.join(" and ")
    )
}
