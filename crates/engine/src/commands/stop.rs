//! What `experiment run` and `experiment slurm` say about a run in stages (a precision target,
//! `[stop]`, or a selection of the best, `[select]`) where it cannot go: shards and top-ups.

use crate::console::note;
use std::path::Path;

use super::export::SUMMARIES_FILE;

/// Why a run in stages (made so by `table`) is not split into shards.
pub fn no_shards(table: &str) -> String {
    format!(
        "a spec with {table} cannot be split into shards: each stage depends on the summary of \
         all the trials before it, which no shard holds; run it whole (with --resume after an \
         interrupt), or give a fixed trials and no {table} to shard it"
    )
}

/// Says on stderr, when `target` holds a finished run's summaries, that a run in stages (made
/// so by `table`) does not top them up.
pub fn no_topup(target: &Path, table: &str) {
    let path = target.join(SUMMARIES_FILE);
    if path.is_file() {
        note!(
            "Not a top-up: {} is not reused, since a run with {table} is not topped up (where a \
             variant stops depends on every stage before it), so every trial is played and the \
             folder replaced",
            path.display()
        );
    }
}
