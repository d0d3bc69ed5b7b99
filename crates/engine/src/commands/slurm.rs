//! `experiment slurm`: writes a Slurm job array that runs a spec's shards and a merge job that
//! depends on it, and with `--submit` submits both with `sbatch`. No cluster code of our own:
//! Slurm schedules, retries and reports.

use crate::console::note;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use super::overrides::{self, output_folder, variant_arguments, Overrides, Writes};
use crate::cli::SlurmArgs;
use crate::registry::Registry;
use crate::shell;

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

/// Writes the job scripts for `args` and, with `--submit`, submits them. Every value the
/// scripts hold is checked first (see [`checked`]): a value a script cannot hold is refused
/// before anything is written.
pub fn slurm(args: &SlurmArgs, registry: &Registry) -> Result<()> {
    let (_, experiment) = overrides::load(registry, &args.spec, Overrides::of_slurm(args))?;
    if let Some(table) = experiment.mode.staged() {
        bail!("experiment slurm: {}", super::stop::no_shards(table));
    }
    if experiment.trials < args.shards {
        bail!(
            "--shards {}: {} trials per variant cannot be split into {} shards of at least one \
             trial each",
            args.shards,
            experiment.trials,
            args.shards
        );
    }
    if let Some(partition) = &args.partition {
        check_partition(partition)?;
    }
    if let Some(time) = &args.time {
        check_time(time)?;
    }
    let workdir = std::env::current_dir().context("cannot read the current folder")?;
    let workdir = checked("the current folder", &workdir, "run from another folder")?;
    let out = absolute(
        &output_folder(args.out.as_deref(), &experiment, Writes::Results),
        &workdir,
    )?;
    let out = checked("--out", &out, "choose another output folder")?;
    if out.contains('\\') {
        bail!(
            "--out {}: Slurm's --output file patterns cannot hold a backslash (it turns off \
             their %a); choose another output folder; nothing was written",
            shell::quote(&out)
        );
    }
    let spec = std::fs::canonicalize(&args.spec)
        .with_context(|| format!("cannot resolve {}", args.spec.display()))?;
    let spec = checked("the spec file", &spec, "move or rename it")?;
    let binary = std::env::current_exe().context("cannot find this program's own path")?;
    let binary = checked("this program", &binary, "move or rename it")?;
    let out = PathBuf::from(out);
    let layout = Layout::beside(&out);
    for folder in [&layout.shards, &layout.logs] {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
    }
    let scripts = Scripts {
        args,
        name: &experiment.name,
        variants: variant_arguments(&experiment),
        binary: &binary,
        spec: &spec,
        workdir: &workdir,
        out: &out.display().to_string(),
        layout: &layout,
    };
    write_script(&layout.array_script, &scripts.array())?;
    write_script(&layout.merge_script, &scripts.merge())?;
    if args.submit {
        let array = sbatch(&[], &layout.array_script)?;
        let merge = sbatch(
            &[format!("--dependency=afterok:{array}")],
            &layout.merge_script,
        )
        .map_err(|err| {
            anyhow::anyhow!(
                "{err:#}. The shards array job {array} WAS submitted and is queued: submit only                  the merge job once the problem is fixed (sbatch --dependency=afterok:{array}                  {}), or cancel the shards with `scancel {array}` before running `experiment                  slurm --submit` again, which would queue every shard a second time",
                shell::quote(&layout.merge_script.display().to_string())
            )
        })?;
        super::emit(&format!("shards job: {array}\nmerge job: {merge}\n"))?;
        note!(
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
            shell::quote(&layout.array_script.display().to_string()),
            shell::quote(&layout.merge_script.display().to_string()),
        ))?;
    }
    Ok(())
}

/// Refuses a `--partition` that is not a Slurm partition name or a comma-separated list of
/// them (letters, digits, `_`, `-` and `.`): anything else could end the `#SBATCH` line or add
/// options to it.
fn check_partition(partition: &str) -> Result<()> {
    let name = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    if partition.split(',').all(name) {
        return Ok(());
    }
    bail!(
        "--partition {}: a Slurm partition is named with letters, digits, '_', '-' and '.' \
         (several are separated by commas, e.g. short,long); nothing was written",
        shell::quote(partition)
    )
}

/// Refuses a `--time` that is not in one of the forms sbatch reads: `minutes`,
/// `minutes:seconds`, `hours:minutes:seconds`, `days-hours`, `days-hours:minutes`,
/// `days-hours:minutes:seconds`, or `UNLIMITED` / `INFINITE` (any case).
fn check_time(time: &str) -> Result<()> {
    let number =
        |part: &str| (1..=9).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit());
    let fields = |part: &str, most: usize| {
        let parts: Vec<&str> = part.split(':').collect();
        parts.len() <= most && parts.iter().all(|p| number(p))
    };
    let valid = time.eq_ignore_ascii_case("unlimited")
        || time.eq_ignore_ascii_case("infinite")
        || match time.split_once('-') {
            Some((days, rest)) => number(days) && fields(rest, 3),
            None => fields(time, 3),
        };
    if valid {
        return Ok(());
    }
    bail!(
        "--time {}: Slurm reads a time limit as minutes, minutes:seconds, \
         hours:minutes:seconds, days-hours, days-hours:minutes, days-hours:minutes:seconds or \
         UNLIMITED (e.g. 30, 01:00:00, 2-12); nothing was written",
        shell::quote(time)
    )
}

/// `path` as text a job script can hold: valid UTF-8 without control characters (a newline
/// would end an `#SBATCH` line or a command). `what` names the path, `remedy` says what to do.
fn checked(what: &str, path: &Path, remedy: &str) -> Result<String> {
    let Some(text) = path.to_str() else {
        bail!(
            "{what} {} is not valid UTF-8, which the job scripts cannot hold: {remedy}; nothing \
             was written",
            path.display()
        );
    };
    if let Some(c) = shell::control_character(text) {
        bail!(
            "{what} {} holds a control character ('{}'), which a job script cannot hold: \
             {remedy}; nothing was written",
            shell::quote(text),
            c.escape_debug()
        );
    }
    Ok(text.to_string())
}

impl Layout {
    fn beside(out: &Path) -> Layout {
        let name = out.file_name().map_or_else(
            || crate::staging::RESULTS_FOLDER.into(),
            |n| n.to_string_lossy().into_owned(),
        );
        let folder = out.with_file_name(format!("{name}.slurm"));
        Layout {
            shards: folder.join("shards"),
            logs: folder.join("logs"),
            array_script: folder.join("shards.sbatch"),
            merge_script: folder.join("merge.sbatch"),
        }
    }
}

/// Everything the two job scripts are written from, every path already [`checked`].
struct Scripts<'a> {
    args: &'a SlurmArgs,
    name: &'a str,
    /// `--variant=NAME` for each variant chosen with `--variant`, in spec order (none: every
    /// variant runs).
    variants: Vec<String>,
    binary: &'a str,
    spec: &'a str,
    workdir: &'a str,
    out: &'a str,
    layout: &'a Layout,
}

impl Scripts<'_> {
    /// The `#SBATCH` lines both jobs share, after the job's own name and log file.
    fn header(&self, job: &str, log: &str) -> String {
        let logs = self.layout.logs.display().to_string();
        let mut text = format!(
            "#!/bin/bash\n# Written by `experiment slurm` for {spec}; submit with sbatch.\n\
             #SBATCH --job-name={name}-{job}\n#SBATCH --cpus-per-task={cpus}\n\
             #SBATCH --chdir={workdir}\n#SBATCH --output={output}\n",
            spec = self.spec,
            name = self.name,
            cpus = self.args.cpus_per_task,
            workdir = sbatch_value(self.workdir),
            // In an --output file pattern `%` introduces a replacement such as %a; `%%` is `%`.
            output = sbatch_value(&format!("{}/{log}", logs.replace('%', "%%"))),
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
        let folder = shell::quote(&self.layout.shards.display().to_string());
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
            binary = shell::quote(self.binary),
            spec = shell::quote(self.spec),
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
            binary = shell::quote(self.binary),
            shards = shell::quote(&self.layout.shards.display().to_string()),
            out = shell::quote(self.out),
        );
        text
    }

    /// `--trials`, `--seed` and `--variant=NAME` as given to `experiment slurm`, each one
    /// quoted word (so a variant named `-x` is not taken for an option).
    fn overrides(&self) -> String {
        let mut words = Vec::new();
        if let Some(trials) = self.args.trials {
            words.extend(["--trials".to_string(), trials.to_string()]);
        }
        if let Some(seed) = self.args.seed {
            words.extend(["--seed".to_string(), seed.to_string()]);
        }
        words.extend(self.variants.iter().cloned());
        words
            .iter()
            .map(|word| format!(" {}", shell::quote(word)))
            .collect()
    }
}

/// `text` as one argument of an `#SBATCH` line, in double quotes. sbatch splits those lines at
/// white space outside quotes (even after a backslash), takes an unquoted `#` as the start of a
/// comment, and inside quotes reads `\` as taking the next character as it is; so `text` is
/// quoted whole, with `\` and `"` escaped. `text` holds no control characters (see
/// [`checked`]): no line can hold a newline.
fn sbatch_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `path` made absolute against `workdir` (its parent resolved if it exists), without creating
/// anything: the jobs may start elsewhere, and nothing is written before every value is checked.
fn absolute(path: &Path, workdir: &str) -> Result<PathBuf> {
    let Some(name) = path.file_name() else {
        bail!("--out {} does not name a folder", path.display());
    };
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => Path::new(workdir).join(parent),
        _ => PathBuf::from(workdir),
    };
    let parent = std::fs::canonicalize(&parent).unwrap_or(parent);
    Ok(parent.join(name))
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
