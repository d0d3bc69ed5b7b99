//! `experiment merge`: checks that shard files make up one whole run, merges their summaries
//! and writes exactly what `experiment run` writes for that run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};

use super::overrides::{self, output_folder, Overrides, Writes};
use super::results::{report_done, reproduce_command, Done};
use super::session::{Interrupted, Playing, RunResults};
use super::summaries;
use crate::cli::MergeArgs;
use crate::ledger::check::check_run;
use crate::ledger::file::{FileKind, SummaryFile, MAX_SHARDS};
use crate::ledger::Ledger;
use crate::manifest::{Manifest, MergedShard};
use crate::registry::Registry;
use crate::staging::Staging;

/// Merges the shard files named in `args` and writes the results.
pub fn merge(args: &MergeArgs, registry: &Registry) -> Result<()> {
    let playing = Playing {
        threads: args.threads,
        progress: !args.quiet,
        ..Playing::default()
    };
    let merged = merge_shards(registry, &args.inputs, &playing, args.out.as_deref(), true)?;
    let target = merged.folder.expect("a written merge has a folder");
    report_done(
        &merged.results.output,
        &target,
        &merged.results.manifest,
        Done::Merged(merged.shards),
    )
}

/// Shard files merged into one run's results.
pub struct Merged {
    /// The results, as `experiment run` would have given them.
    pub results: RunResults,
    /// The folder written (when asked to write).
    pub folder: Option<PathBuf>,
    /// How many shard files were merged.
    pub shards: usize,
}

/// Checks that the shard files in `inputs` (files, or folders of `shard-*.json` files) make up
/// one whole run and merges them, analysing on the threads `playing` asks for; when `write`,
/// writes exactly what `experiment run` writes into `out` (none: `results/<name>`).
pub fn merge_shards(
    registry: &Registry,
    inputs: &[PathBuf],
    playing: &Playing,
    out: Option<&Path>,
    write: bool,
) -> Result<Merged> {
    let started = Instant::now();
    let shards = read_shards(inputs)?;
    let first = &shards[0].file;
    let (study, mut experiment) = registry
        .parse(Path::new(&first.spec_path), &first.spec)
        .with_context(|| format!("the spec recorded in {}", shards[0].path.display()))?;
    Overrides::recorded(&first.identity).apply(&mut experiment)?;
    overrides::check_design(study, &experiment)?;
    let identity = summaries::identity(&experiment, first.identity.chunk_size);
    let differences = first
        .identity
        .differences(&identity, "the shards", "their recorded spec");
    if !differences.is_empty() {
        bail!(
            "the shards do not agree with the spec they record ({}): were they written by \
             another version of the engine?",
            differences.join("; ")
        );
    }
    let target = output_folder(out, &experiment, Writes::Results);
    // Every shard must hold all of its share of every stream: checked before anything is
    // played or written, so a merge never simulates.
    let streams = summaries::streams(&experiment, study)?;
    for shard in &shards {
        check_run(&shard.file, &shard.path, &streams, true)
            .context("the shard files do not make up the whole run; nothing was written")?;
    }
    let staging = write.then(|| Staging::new(&target)).transpose()?;

    let ledger = Arc::new(Ledger::new(first.clone()).whole());
    for shard in &shards {
        ledger.add(shard.file.streams.clone());
    }
    let runner = super::session::runner_with_chunks(playing, first.identity.chunk_size)?
        .with_ledger(Arc::clone(&ledger));
    crate::interrupt::hold().set_on_interrupt(runner.cancel_flag());
    // On the pool, as `run` does, so a study sees the same threads whichever command runs it.
    let output = runner.install(|| study.run(&experiment, &runner));
    if let Some(reason) = ledger.refusal() {
        bail!("{reason}; nothing was written");
    }
    if runner.is_cancelled() {
        if !crate::interrupt::installed() {
            let kept = ": nothing was written (the shard files are unchanged)".to_string();
            return Err(Interrupted { kept }.into());
        }
        bail!("interrupted: no results were written");
    }
    let output = output?;

    let mut manifest = Manifest::new(&experiment);
    manifest.threads = runner.threads();
    manifest.chunk_size = runner.chunk_size();
    let shard_seconds: f64 = shards.iter().map(|shard| shard.file.wall_seconds).sum();
    // A common design records each trial of every variant once, under one stream.
    let per_trial = match experiment.design {
        crate::design::Design::Common => experiment.variants.len() as u64,
        crate::design::Design::Independent => 1,
    };
    manifest.trials_per_second = (ledger.trials_done() * per_trial) as f64 / shard_seconds;
    manifest.shards = Some(shards.iter().map(merged_shard).collect());
    let reproduce = reproduce_command(&experiment, manifest.chunk_size, out);
    let mut results = RunResults {
        summaries: ledger.to_file(),
        played: 0,
        reproduce,
        started,
        experiment,
        output,
        manifest,
    };
    let folder = match staging {
        Some(staging) => Some(results.write(staging)?),
        None => None,
    };
    Ok(Merged {
        results,
        folder,
        shards: shards.len(),
    })
}

/// A shard file as read: where from, its content, and the SHA-256 of its text.
struct ShardFile {
    path: PathBuf,
    file: SummaryFile,
    sha256: String,
}

/// What the manifest records of one merged shard file (as it was read, not read again).
fn merged_shard(shard: &ShardFile) -> MergedShard {
    let id = shard.file.shard.expect("read_shards keeps only shards");
    MergedShard {
        index: id.index,
        count: id.count,
        file: shard.path.display().to_string(),
        sha256: shard.sha256.clone(),
        trials: shard.file.trials_done,
        threads: shard.file.threads,
        wall_seconds: shard.file.wall_seconds,
    }
}

/// Reads the shard files in `inputs` (files, or folders whose `shard-*.json` files are read)
/// and checks that they are every shard of one run exactly once, in shard order.
fn read_shards(inputs: &[PathBuf]) -> Result<Vec<ShardFile>> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let found = shard_files_in(input)?;
            if found.is_empty() {
                bail!(
                    "{} holds no shard files (shard-INDEX-of-COUNT.json, written by \
                     `experiment run --shard`)",
                    input.display()
                );
            }
            files.extend(found);
        } else if input.exists() {
            files.push(input.clone());
        } else {
            bail!("{} does not exist", input.display());
        }
        if files.len() as u64 > MAX_SHARDS {
            bail!("more than {MAX_SHARDS} shard files, the most a run may be split into");
        }
    }
    let mut shards = Vec::with_capacity(files.len());
    for path in files {
        let (file, sha256) = SummaryFile::read_with_digest(&path)?;
        if file.kind != FileKind::Shard || file.shard.is_none() {
            bail!(
                "{} is a checkpoint, not a shard: continue its run with `experiment run ... \
                 --resume`",
                path.display()
            );
        }
        shards.push(ShardFile { path, file, sha256 });
    }
    check_one_run(&shards)?;
    shards.sort_by_key(|shard| shard.file.shard.map(|id| id.index));
    Ok(shards)
}

/// The shard files in `folder`, sorted by name.
fn shard_files_in(folder: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let entries =
        std::fs::read_dir(folder).with_context(|| format!("cannot read {}", folder.display()))?;
    for entry in entries {
        let path = entry
            .with_context(|| format!("cannot read {}", folder.display()))?
            .path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with("shard-")
            && name.ends_with(".json")
            && !name.ends_with(".checkpoint.json")
        {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// Checks that `shards` come from one run (spec, seed, trials, chunk size, version) and hold
/// each shard 0..COUNT-1 exactly once, naming the missing, duplicated or foreign ones.
fn check_one_run(shards: &[ShardFile]) -> Result<()> {
    let (first_path, first) = (&shards[0].path, &shards[0].file);
    let count = first.shard.expect("a shard").count;
    for ShardFile { path, file, .. } in &shards[1..] {
        let differences = first.identity.differences(
            &file.identity,
            &first_path.display().to_string(),
            &path.display().to_string(),
        );
        if !differences.is_empty() {
            bail!(
                "the shard files are not of one run: {}",
                differences.join("; ")
            );
        }
        let other = file.shard.expect("a shard").count;
        if other != count {
            bail!(
                "the shard files are not of one run: {} is one of {count} shards but {} one \
                 of {other}",
                first_path.display(),
                path.display()
            );
        }
    }
    let mut by_index: BTreeMap<u64, Vec<&Path>> = BTreeMap::new();
    for ShardFile { path, file, .. } in shards {
        by_index
            .entry(file.shard.expect("a shard").index)
            .or_default()
            .push(path.as_path());
    }
    let duplicated: Vec<String> = by_index
        .iter()
        .filter(|(_, paths)| paths.len() > 1)
        .map(|(index, paths)| {
            let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            format!("shard {index} is in {}", names.join(" and "))
        })
        .collect();
    if !duplicated.is_empty() {
        bail!(
            "duplicated shards: {}; name each shard once",
            duplicated.join("; ")
        );
    }
    let missing: Vec<String> = (0..count)
        .filter(|index| !by_index.contains_key(index))
        .map(|index| index.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(anyhow!(
            "{} of {count} shards missing: shard {} (run them with `experiment run SPEC \
             --shard INDEX/{count}` and the same other arguments)",
            missing.len(),
            missing.join(", ")
        ));
    }
    Ok(())
}
