//! Every shell example in README.md and docs/ runs with the real binary, `--help` and
//! docs/guide.md name the same flags for every command, and no example overwrites the committed
//! results. The convention the examples follow is in docs/README.md.
//!
//! One module per job: `examples` finds the examples of each page and the few not run,
//! `invocation` reads the engine command inside one, `committed` refuses one that would
//! overwrite committed results, `shell` runs a page's examples, `help` compares `--help` with
//! the guide, `wording` keeps user-facing text free of references to an assignment, and `links`
//! checks relative links and their anchors.

mod committed;
mod examples;
mod help;
mod invocation;
mod links;
mod shell;
mod wording;

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
