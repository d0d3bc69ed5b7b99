//! A run's results folder, as `run` and `merge` write it (through [`Export`]) and what they
//! print when it is written: the same files, byte for byte, whichever command played the
//! trials.

use crate::console::note;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::overrides::variant_arguments;
use crate::manifest::facts::{too_many_words, RunFacts, VariantNames};
use crate::manifest::Manifest;
use crate::report::{code, markdown, Block, StudyOutput, Text};
use crate::spec::Experiment;

/// How a command came by the trials it wrote, for the line that closes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// `run` played this many trials itself (all variants); a top-up reused the others.
    Played(u64),
    /// `merge` merged this many shard files, playing nothing.
    Merged(usize),
}

/// Prints the study's console text and where the results went, with what the command did
/// (`done`) and how fast.
pub fn report_done(
    output: &StudyOutput,
    target: &Path,
    manifest: &Manifest,
    done: Done,
) -> Result<()> {
    if !output.console.is_empty() {
        let console = markdown::render(&output.console);
        super::emit(&format!("{}\n", console.trim_end_matches('\n'))).with_context(|| {
            format!(
                "the results were written to {}/, but their summary could not be printed",
                target.display()
            )
        })?;
    }
    note!(
        "Results in {}/ ({})",
        target.display(),
        closing(output.trials, manifest.wall_seconds, manifest.threads, done)
    );
    Ok(())
}

/// What the closing line says of a command that wrote `total` trials (all variants) in
/// `seconds` on `threads` threads: the trials it played, the total when some were reused, and
/// its speed, the trials it played over those seconds, so that the numbers agree.
fn closing(total: u64, seconds: f64, threads: usize, done: Done) -> String {
    match done {
        Done::Played(0) => format!(
            "nothing new to play: all {total} trials were reused; written in {seconds:.1} s"
        ),
        Done::Played(played) => {
            let rate = played as f64 / seconds;
            let what = if played == total {
                format!("{total} trials")
            } else {
                format!("played {played} new trials (total {total})")
            };
            format!("{what} in {seconds:.1} s, {rate:.0} trials/s on {threads} threads")
        }
        Done::Merged(shards) => format!(
            "{total} trials from {shards} shard{} merged in {seconds:.1} s",
            if shards == 1 { "" } else { "s" }
        ),
    }
}

/// The command that reproduces a run of `experiment` with chunk size `chunk_size` into `out`
/// (`None`: the default folder), quoted for a POSIX shell: the spec, `--seed`, `--trials`,
/// every variant chosen with `--variant` (as `--variant=NAME`, so a name such as `-x` is not
/// taken for an option), `--chunk-size` unless it is the default, and `--out`.
pub fn reproduce_command(experiment: &Experiment, chunk_size: u64, out: Option<&Path>) -> String {
    let mut words = program_words();
    words.extend([
        "run".into(),
        crate::shell::path_argument(&experiment.path),
        "--seed".into(),
        experiment.seed.to_string(),
        "--trials".into(),
        experiment.trials.to_string(),
    ]);
    words.extend(variant_arguments(experiment));
    if let Some(stop) = experiment.mode.stop() {
        words.extend(stop.arguments(experiment.trials));
    }
    if chunk_size != crate::runner::default_chunk_size(experiment.trials) {
        words.extend(["--chunk-size".to_string(), chunk_size.to_string()]);
    }
    if let Some(out) = out {
        words.extend(["--out".to_string(), crate::shell::path_argument(out)]);
    }
    crate::shell::command(words)
}

/// The program a reproduce command names when the engine runs inside another one (a Python
/// session): set by [`set_program`].
static PROGRAM: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Makes reproduce commands name `program` rather than the running executable: for an
/// embedding (the Python package runs `experiment run`'s work inside `python`).
pub fn set_program(program: &str) {
    let _ = PROGRAM.set(program.to_string());
}

/// The words that start a command running this program again: `experiment`; for another
/// program built on the library (a game of one's own), its file name; for a Cargo example
/// (a program under an `examples` folder), `cargo run --release --example NAME --`; inside
/// an embedding, the program it set ([`set_program`]).
pub fn program_words() -> Vec<String> {
    if let Some(program) = PROGRAM.get() {
        return vec![program.clone()];
    }
    let path = std::env::current_exe()
        .ok()
        .or_else(|| std::env::args_os().next().map(PathBuf::from));
    program_words_of(path.as_deref())
}

/// [`program_words`] for the program at `path` (`None`: unknown, taken for `experiment`).
fn program_words_of(path: Option<&Path>) -> Vec<String> {
    let Some(name) = path
        .and_then(Path::file_name)
        .map(|name| {
            let name = name.to_string_lossy();
            name.strip_suffix(".exe").unwrap_or(&name).to_string()
        })
        .filter(|name| !name.is_empty() && name != "experiment")
    else {
        return vec!["experiment".to_string()];
    };
    let in_examples = path
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .is_some_and(|folder| folder == "examples");
    if in_examples {
        ["cargo", "run", "--release", "--example", &name, "--"]
            .map(String::from)
            .to_vec()
    } else {
        vec![name]
    }
}

/// `report.md`'s blocks: the run's header (name, description, and the facts `manifest`
/// records: game, seed, trials, the design of its random numbers, variants) with the command
/// that reproduces it, above the study's `body`.
pub(super) fn report(
    experiment: &Experiment,
    manifest: &Manifest,
    body: &[Block],
    reproduce: &str,
) -> Vec<Block> {
    let facts = RunFacts::of(manifest);
    let variants = match facts.variants {
        VariantNames::TooMany(count) => {
            let (before, after) = too_many_words();
            Text::new()
                .plain(format!("variants: {count}, {before}"))
                .code("manifest.json")
                .plain(after)
        }
        VariantNames::Listed(names) => Text::new()
            .plain("variants: ")
            .append(Text::join(names, ", ", code)),
    };
    let list = vec![
        Text::new().plain("game: ").code(facts.game),
        Text::new().plain(format!("seed: {}", facts.seed)),
        Text::new().plain(format!("trials per variant: {}", facts.trials)),
        Text::new().plain(format!("random numbers: {}", facts.design)),
        variants,
        Text::new().plain("reproduce: ").code(reproduce),
    ];
    let mut out = vec![
        Block::heading(1, experiment.name.as_str()),
        Block::paragraph(experiment.description.as_str()),
        Block::List(list),
    ];
    out.extend(body.iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closing_line_gives_numbers_that_agree() {
        assert_eq!(
            closing(600, 2.0, 2, Done::Played(600)),
            "600 trials in 2.0 s, 300 trials/s on 2 threads"
        );
        // A top-up: 200 new of 600, at the rate of the 200 it played.
        assert_eq!(
            closing(600, 2.0, 2, Done::Played(200)),
            "played 200 new trials (total 600) in 2.0 s, 100 trials/s on 2 threads"
        );
        assert_eq!(
            closing(600, 0.5, 2, Done::Played(0)),
            "nothing new to play: all 600 trials were reused; written in 0.5 s"
        );
        assert_eq!(
            closing(600, 0.5, 2, Done::Merged(3)),
            "600 trials from 3 shards merged in 0.5 s"
        );
    }

    #[test]
    fn the_program_is_named_as_it_is_run() {
        let words = |path: &str| program_words_of(Some(Path::new(path))).join(" ");
        assert_eq!(words("target/release/experiment"), "experiment");
        assert_eq!(words("/usr/bin/experiment.exe"), "experiment");
        assert_eq!(
            words("target/release/examples/gamblers_ruin"),
            "cargo run --release --example gamblers_ruin --"
        );
        assert_eq!(words("/home/me/bin/my_game"), "my_game");
        assert_eq!(program_words_of(None), ["experiment"]);
    }
}
