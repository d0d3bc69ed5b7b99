//! What `experiment run` and `experiment slurm` say about a run with a precision target
//! (`[stop]`) where it cannot go: shards and top-ups.

use std::path::Path;

use super::export::SUMMARIES_FILE;

/// Why a run with a precision target is not split into shards.
pub const NO_SHARDS: &str = "a spec with [stop] (or --stop-metric) cannot be split into shards: \
     each variant's next stage depends on the summary of all its trials so far, which no shard \
     holds; run it whole (with --resume after an interrupt), or give a fixed trials and no \
     [stop] to shard it";

/// Says on stderr, when `target` holds a finished run's summaries, that a run with a
/// precision target does not top them up.
pub fn no_topup(target: &Path) {
    let path = target.join(SUMMARIES_FILE);
    if path.is_file() {
        eprintln!(
            "Not a top-up: {} is not reused, since a run with [stop] is not topped up (where a \
             variant stops depends on every stage before it), so every trial is played and the \
             folder replaced",
            path.display()
        );
    }
}
