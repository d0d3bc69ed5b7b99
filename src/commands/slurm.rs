//! `experiment slurm`: writes a Slurm job array that runs a spec's shards and a merge job that
//! depends on it, and with `--submit` submits both with `sbatch`. No cluster code of our own:
//! Slurm schedules, retries and reports.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use super::checkpoint::shell_quote;
use crate::cli::SlurmArgs;
use crate::registry::Registry;

/// The files of one Slurm submission, all in the folder `<out>.slurm/`.
struct Layout {
    /// Where the shard tasks write their summaries files.
    shards: PathBuf,
    /// Slurm's output of every task.
    logs: PathBuf,
    /// The job array script.
    array_script: PathBuf,
    /// The merge job script.
    merge_script: PathBuf,
}

/// Writes the job scripts for `args` and, with `--submit`, submits them.
pub fn slurm(args: &SlurmArgs, registry: &Registry) -> Result<()> {
    let (_, mut experiment) = registry.load(&args.spec)?;
    if let Some(trials) = args.trials {
        experiment.trials = trials;
    }
    experiment
        .select_variants(&args.variants)
        .map_err(anyhow::Error::msg)?;
    if experiment.trials < args.shards {
        bail!(
            "--shards {}: {} trials per variant cannot be split into {} shards of at least one \
             trial each",
            args.shards,
            experiment.trials,
            args.shards
        );
    }
    let out = absolute(
        &args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("results").join(&experiment.name)),
    )?;
    let layout = Layout::beside(&out);
    for folder in [&layout.shards, &layout.logs] {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
    }
    let binary = std::env::current_exe().context("cannot find this program's own path")?;
    let spec = std::fs::canonicalize(&args.spec)
        .with_context(|| format!("cannot resolve {}", args.spec.display()))?;
    let workdir = std::env::current_dir().context("cannot read the current folder")?;
    let scripts = Scripts {
        args,
        name: &experiment.name,
        binary: &binary,
        spec: &spec,
        workdir: &workdir,
        out: &out,
        layout: &layout,
    };
    write_script(&layout.array_script, &scripts.array())?;
    write_script(&layout.merge_script, &scripts.merge())?;
    if args.submit {
        let array = sbatch(&[], &layout.array_script)?;
        let merge = sbatch(
            &[format!("--dependency=afterok:{array}")],
            &layout.merge_script,
        )?;
        super::emit(&format!("shards job: {array}\nmerge job: {merge}\n"))?;
        eprintln!(
            "Submitted {} shards of {}; the merged results will be in {} (logs in {}). \
             Follow with: squeue -j {array},{merge}",
            args.shards,
            experiment.name,
            out.display(),
            layout.logs.display()
        );
    } else {
        super::emit(&format!(
            "Wrote {} and {}.\nSubmit both with:\n  array=$(sbatch --parsable {})\n  \
             sbatch --dependency=afterok:$array {}\n",
            layout.array_script.display(),
            layout.merge_script.display(),
            shell_quote(&layout.array_script.display().to_string()),
            shell_quote(&layout.merge_script.display().to_string()),
        ))?;
    }
    Ok(())
}

impl Layout {
    fn beside(out: &Path) -> Layout {
        let name = out
            .file_name()
            .map_or_else(|| "results".into(), |n| n.to_string_lossy().into_owned());
        let folder = out.with_file_name(format!("{name}.slurm"));
        Layout {
            shards: folder.join("shards"),
            logs: folder.join("logs"),
            array_script: folder.join("shards.sbatch"),
            merge_script: folder.join("merge.sbatch"),
        }
    }
}

/// Everything the two job scripts are written from.
struct Scripts<'a> {
    args: &'a SlurmArgs,
    name: &'a str,
    binary: &'a Path,
    spec: &'a Path,
    workdir: &'a Path,
    out: &'a Path,
    layout: &'a Layout,
}

impl Scripts<'_> {
    /// The `#SBATCH` lines both jobs share, after the job's own name and log file.
    fn header(&self, job: &str, log: &str) -> String {
        let mut text = format!(
            "#!/bin/bash\n# Written by `experiment slurm` for {spec}; submit with sbatch.\n\
             #SBATCH --job-name={name}-{job}\n#SBATCH --cpus-per-task={cpus}\n\
             #SBATCH --chdir={workdir}\n#SBATCH --output={log}\n",
            spec = self.spec.display(),
            name = self.name,
            cpus = self.args.cpus_per_task,
            workdir = self.workdir.display(),
            log = self.layout.logs.join(log).display(),
        );
        if let Some(partition) = &self.args.partition {
            let _ = writeln!(text, "#SBATCH --partition={partition}");
        }
        if let Some(time) = &self.args.time {
            let _ = writeln!(text, "#SBATCH --time={time}");
        }
        text
    }

    /// The job array: task `i` runs shard `i`, resuming its own checkpoint if an earlier
    /// attempt left one (a task resubmitted after a time limit or a node failure).
    fn array(&self) -> String {
        let shards = self.args.shards;
        let mut text = self.header("shards", "shard-%a.out");
        let _ = write!(
            text,
            "#SBATCH --array=0-{last}\nset -euo pipefail\n\
             shard=\"$SLURM_ARRAY_TASK_ID/{shards}\"\n\
             checkpoint={folder}/\"shard-$SLURM_ARRAY_TASK_ID-of-{shards}.checkpoint.json\"\n\
             resume=()\nif [ -e \"$checkpoint\" ]; then resume=(--resume); fi\n\
             exec {binary} run {spec} --shard \"$shard\" --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" \
             --out {folder} --quiet{overrides} \"${{resume[@]}}\"\n",
            last = shards - 1,
            folder = quote(&self.layout.shards),
            binary = quote(self.binary),
            spec = quote(self.spec),
            overrides = self.overrides(),
        );
        text
    }

    /// The merge job, run once every task of the array succeeded.
    fn merge(&self) -> String {
        let mut text = self.header("merge", "merge.out");
        let _ = write!(
            text,
            "set -euo pipefail\nexec {binary} merge {shards} --out {out} \
             --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" --quiet\n",
            binary = quote(self.binary),
            shards = quote(&self.layout.shards),
            out = quote(self.out),
        );
        text
    }

    /// `--trials`, `--seed` and `--variant` as given to `experiment slurm`.
    fn overrides(&self) -> String {
        let mut text = String::new();
        if let Some(trials) = self.args.trials {
            let _ = write!(text, " --trials {trials}");
        }
        if let Some(seed) = self.args.seed {
            let _ = write!(text, " --seed {seed}");
        }
        for variant in &self.args.variants {
            let _ = write!(text, " --variant {}", shell_quote(variant));
        }
        text
    }
}

fn quote(path: &Path) -> String {
    shell_quote(&path.display().to_string())
}

/// `path` made absolute against the current folder (its parent resolved, so it may not exist
/// yet), since the jobs may start elsewhere.
fn absolute(path: &Path) -> Result<PathBuf> {
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    let parent = std::fs::canonicalize(parent)
        .with_context(|| format!("cannot resolve {}", parent.display()))?;
    match path.file_name() {
        Some(name) => Ok(parent.join(name)),
        None => bail!("--out {} does not name a folder", path.display()),
    }
}

fn write_script(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Submits `script` with `sbatch --parsable` and returns the job id.
fn sbatch(options: &[String], script: &Path) -> Result<String> {
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(options)
        .arg(script)
        .output()
        .map_err(|err| {
            anyhow::anyhow!(
                "cannot run sbatch ({err}): is this a Slurm login node? The job scripts are \
                 written; submit {} yourself",
                script.display()
            )
        })?;
    if !output.status.success() {
        bail!(
            "sbatch {} failed: {}",
            script.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&output.stdout);
    // --parsable prints "jobid" or "jobid;cluster".
    let id = text
        .trim()
        .split(';')
        .next()
        .unwrap_or_default()
        .to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        bail!("sbatch printed no job id for {}: {text}", script.display());
    }
    Ok(id)
}
