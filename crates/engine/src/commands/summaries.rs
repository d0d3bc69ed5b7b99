//! What a run's summaries files (checkpoints and shards, see `ledger`) say about it, built
//! here from its [`Experiment`]: the ledger knows no spec, only these plain descriptions.

use anyhow::Result;

use crate::design::Design;
use crate::digest::sha256_hex;
use crate::ledger::check::RunStreams;
use crate::ledger::file::{FileKind, Identity, ShardId, SummaryFile, FORMAT, FORMAT_VERSION};
use crate::runner::Runner;
use crate::spec::Experiment;
use crate::studies::select::{stage_label, stage_stream};
use crate::studies::Study;

/// The identity of a run of `experiment` in chunks of `chunk_size` trials.
pub fn identity(experiment: &Experiment, chunk_size: u64) -> Identity {
    Identity {
        crate_version: env!("CARGO_PKG_VERSION").to_string(),
        experiment: experiment.name.clone(),
        game: experiment.study.game().to_string(),
        // A precision target (from [stop] or its flags) or a selection is part of what the
        // run is, and its cap is the most trials a stream may hold.
        spec_sha256: match staged_settings(experiment) {
            Some(settings) => sha256_hex(&format!("{}\n{settings}", experiment.source)),
            None => sha256_hex(&experiment.source),
        },
        seed: experiment.seed,
        trials_per_variant: most_trials(experiment),
        chunk_size,
        variants: experiment.variants.iter().map(|v| v.name.clone()).collect(),
        design: experiment.design,
        stages: staged_settings(experiment),
    }
}

/// The settings of a run in stages (`[stop]` or `[select]`) in one line, if it is one.
fn staged_settings(experiment: &Experiment) -> Option<String> {
    experiment.mode.describe(experiment.trials)
}

/// The most trials a variant of `experiment` plays: its trials, or the cap of a run in stages.
fn most_trials(experiment: &Experiment) -> u64 {
    experiment.mode.most_trials(experiment.trials)
}

/// The random streams of a run of `experiment` by `study`: its variants' (in a common design,
/// the streams its common jobs are played and recorded under, [`Study::common_streams`]; in a
/// selection, each stage's) and the study's own.
pub fn streams(experiment: &Experiment, study: &dyn Study) -> Result<RunStreams> {
    if let Some(select) = experiment.mode.select() {
        // Each stage of a selection is one stream, whatever the design.
        let labels: Vec<(u64, String)> = (1..=select.stages(experiment.trials))
            .map(|stage| (stage_stream(stage), stage_label(stage)))
            .collect();
        return Ok(RunStreams::new(
            labels
                .iter()
                .map(|(stream, label)| (*stream, label.as_str())),
            study.other_streams(),
        ));
    }
    if experiment.design == Design::Common {
        let common = study.common_streams(experiment)?;
        return Ok(RunStreams::new(
            common
                .iter()
                .map(|(stream, label)| (*stream, label.as_str())),
            study.other_streams(),
        ));
    }
    Ok(RunStreams::new(
        experiment
            .variants
            .iter()
            .map(|variant| (variant.stream, variant.name.as_str())),
        study.other_streams(),
    ))
}

/// What the summaries files of a run of `experiment` on `runner` (shard `shard`, or all of
/// it) say about it, before any trial is done.
pub fn header(experiment: &Experiment, runner: &Runner, shard: Option<ShardId>) -> SummaryFile {
    SummaryFile {
        format: FORMAT.into(),
        format_version: FORMAT_VERSION,
        kind: FileKind::Checkpoint,
        identity: identity(experiment, runner.chunk_size()),
        spec_path: experiment.path.display().to_string(),
        spec: experiment.source.clone(),
        shard,
        threads: runner.threads(),
        wall_seconds: 0.0,
        trials_done: 0,
        streams: Vec::new(),
    }
}
