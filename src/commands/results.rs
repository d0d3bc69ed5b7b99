//! A run's results folder, as `run` and `merge` write it (through [`Export`]) and what they
//! print when it is written: the same files, byte for byte, whichever command played the
//! trials.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};

use super::export::{json_text, Export};
use super::overrides::variant_arguments;
use crate::ledger::file::{FileKind, SummaryFile};
use crate::ledger::Ledger;
use crate::manifest::Manifest;
use crate::output::Staging;
use crate::report::{code, markdown, Block, StudyOutput, Text};
use crate::spec::Experiment;

/// Writes a study's output (tables, the summaries in `ledger`, report, charts, HTML report and `manifest`) into
/// `staging` and swaps it into place, returning the output folder. `started` is when the
/// work began, for the manifest's wall time; `out` is the run's `--out` (`None`: the default
/// folder), which the reports' "reproduce" command repeats.
pub fn write_results(
    staging: Staging,
    experiment: &Experiment,
    output: &StudyOutput,
    ledger: &Ledger,
    manifest: &mut Manifest,
    started: Instant,
    out: Option<&Path>,
) -> Result<PathBuf> {
    let reproduce = reproduce_command(experiment, manifest.chunk_size, out);
    let summaries = SummaryFile {
        kind: FileKind::Results,
        shard: None,
        ..ledger.to_file()
    };
    Export {
        experiment,
        output,
        formats: &experiment.output.formats,
        charts: experiment.output.plots,
        report: report(experiment, &output.report, &reproduce),
        reproduce: &reproduce,
        summaries: Some(&summaries),
    }
    .publish(staging, manifest, started, json_text)
}

/// Prints the study's console text and where the results went; `nothing_new` says that the
/// command played no trial, every one being reused (a top-up to the trials already there).
pub fn report_done(
    output: &StudyOutput,
    target: &Path,
    manifest: &Manifest,
    nothing_new: bool,
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
    if nothing_new {
        eprintln!(
            "Results in {}/ (nothing new to play: all {} trials were reused; written in {:.1} s)",
            target.display(),
            output.trials,
            manifest.wall_seconds
        );
        return Ok(());
    }
    eprintln!(
        "Results in {}/ ({} trials in {:.1} s, {:.0} trials/s on {} threads)",
        target.display(),
        output.trials,
        manifest.wall_seconds,
        manifest.trials_per_second,
        manifest.threads
    );
    Ok(())
}

/// The command that reproduces a run of `experiment` with chunk size `chunk_size` into `out`
/// (`None`: the default folder), quoted for a POSIX shell: the spec, `--seed`, `--trials`,
/// every variant chosen with `--variant` (as `--variant=NAME`, so a name such as `-x` is not
/// taken for an option), `--chunk-size` unless it is the default, and `--out`.
pub fn reproduce_command(experiment: &Experiment, chunk_size: u64, out: Option<&Path>) -> String {
    let mut words = vec![
        "experiment".to_string(),
        "run".into(),
        crate::shell::path_argument(&experiment.path),
        "--seed".into(),
        experiment.seed.to_string(),
        "--trials".into(),
        experiment.trials.to_string(),
    ];
    words.extend(variant_arguments(experiment));
    if let Some(stop) = &experiment.stop {
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

/// `report.md`'s blocks: the run's header (name, description, game, seed, trials, the design
/// of its random numbers, variants
/// and the command that reproduces it) above the study's `body`.
fn report(experiment: &Experiment, body: &[Block], reproduce: &str) -> Vec<Block> {
    let mut facts = vec![
        Text::new().plain("game: ").code(experiment.study.game()),
        Text::new().plain(format!("seed: {}", experiment.seed)),
        Text::new().plain(match (&experiment.stop, &experiment.select) {
            (Some(stop), _) => format!(
                "trials per variant: until the precision target, in stages of {}, at most {}",
                stop.stage(experiment.trials),
                stop.max_trials
            ),
            (None, Some(select)) => format!(
                "trials per variant: until the variant is eliminated or the only one left, in \
                 stages of {}, at most {}",
                select.stage(experiment.trials),
                select.max_trials
            ),
            (None, None) => format!("trials per variant: {}", experiment.trials),
        }),
        Text::new().plain(format!("random numbers: {}", experiment.design.statement())),
    ];
    facts.extend([
        Text::new()
            .plain("variants: ")
            .append(Text::join(&experiment.variants, ", ", |v| code(&v.name))),
        Text::new().plain("reproduce: ").code(reproduce),
    ]);
    let mut out = vec![
        Block::heading(1, experiment.name.as_str()),
        Block::paragraph(experiment.description.as_str()),
        Block::List(facts),
    ];
    out.extend(body.iter().cloned());
    out
}
