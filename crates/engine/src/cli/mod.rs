//! The command line, declared with clap. Only declarations live here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::ledger::file::ShardId;

pub mod numbers;
mod verbs;

pub use verbs::{verb_command, ExactAnswers, GameCommand, GameCommands, Verb};

const EXAMPLES: &str = "\
Examples:
  experiment run experiments/war_placement.toml
  experiment run experiments/war_placement.toml --trials 10000 --threads 1 --out /tmp/war
  experiment run experiments/war_placement.toml --variant random --variant low_first --out war-two
  experiment run experiments/war_placement.toml --resume
  experiment run experiments/war_placement.toml --shard 0/4 --out /scratch/war-shards
  experiment merge /scratch/war-shards --out war-merged
  experiment slurm experiments/war_placement.toml --shards 16 --submit
  experiment scale experiments/war_placement.toml
  experiment validate experiments/war_placement.toml
  experiment list
  experiment play war --seed 7 --out game.txt";

/// Reproducible parallel Monte Carlo experiments on tabletop games.
#[derive(Debug, Parser)]
#[command(name = "experiment", version, after_help = EXAMPLES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run an experiment spec and write tables, a report, plots and a manifest.
    #[command(after_help = RUN_EXAMPLES)]
    Run(RunArgs),
    /// Merge the shard files of a run split with `run --shard` and write exactly what `run`
    /// writes: tables, report, plots and manifest.
    #[command(
        after_help = "Examples:\n  experiment merge results/war_placement-shards --out \
        war-merged\n  experiment merge a/shard-0-of-2.json b/shard-1-of-2.json --out war"
    )]
    Merge(MergeArgs),
    /// Write (and with --submit, submit) a Slurm job array running a spec's shards, and a merge
    /// job that runs when every shard succeeded.
    #[command(
        after_help = "Examples:\n  experiment slurm experiments/war_placement.toml --shards 16\n  \
        experiment slurm experiments/war_placement.toml --shards 64 --partition short \
        --time 01:00:00 --cpus-per-task 8 --submit"
    )]
    Slurm(SlurmArgs),
    /// Run a spec at a ladder of trial counts, several times each: how the running time and the
    /// headline result change with the number of trials.
    #[command(
        after_help = "Examples:\n  experiment scale experiments/war_placement.toml\n  \
        experiment scale experiments/war_placement.toml --trials-list 100,1000,10000 --repeats 3 --out war-scale"
    )]
    Scale(ScaleArgs),
    /// Parse and check a spec, print its expanded variants, run nothing.
    #[command(after_help = "Example:\n  experiment validate experiments/war_placement.toml")]
    Validate {
        /// The experiment spec (TOML).
        spec: PathBuf,
    },
    /// List the games, their strategies and parameters.
    #[command(after_help = "Example:\n  experiment list")]
    List,
}

/// Options of `experiment run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The experiment spec (TOML).
    pub spec: PathBuf,
    /// Trials per variant (overrides the spec).
    #[arg(long, value_parser = numbers::whole::<u64>(1, 1_000_000_000_000))]
    pub trials: Option<u64>,
    /// Master seed, 0 to 2^63-1 as in specs (overrides the spec).
    #[arg(long, value_parser = seed_range())]
    pub seed: Option<u64>,
    /// Worker threads, at most four per core [default: all cores].
    #[arg(long, value_parser = threads)]
    pub threads: Option<u16>,
    /// Output folder [default: results/<spec name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Run only this variant (repeatable); results do not depend on which others run.
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
    /// Trials per parallel chunk (results do not depend on it) [default: trials / 64, from 16
    /// to 4096].
    #[arg(long, value_parser = numbers::whole::<u64>(1, u64::MAX))]
    pub chunk_size: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Continue the interrupted run whose checkpoint is beside the output folder (give the
    /// same other arguments).
    #[arg(long)]
    pub resume: bool,
    /// Replace the output folder even when it holds a fuller run of the same spec (more
    /// trials per variant, or variants this run does not play), whose results are then lost.
    #[arg(long)]
    pub replace: bool,
    /// Seconds between checkpoints of the completed trials (0: no checkpoints at all).
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = numbers::whole::<u64>(0, u64::MAX))]
    pub checkpoint_every: u64,
    /// Play only shard INDEX of COUNT (INDEX from 0, e.g. $SLURM_ARRAY_TASK_ID/16) of every
    /// variant's trials and write only its summaries file into --out [default out:
    /// results/<spec name>-shards].
    #[arg(long, value_name = "INDEX/COUNT")]
    pub shard: Option<ShardId>,
    /// Stop each variant once the 95% interval of this metric is narrow enough (sets or
    /// overrides the spec's [stop] metric; needs a half-width and --max-trials without [stop]).
    #[arg(long, value_name = "METRIC")]
    pub stop_metric: Option<String>,
    /// Largest half-width of the stop metric's 95% interval, in its units ([stop] half_width).
    #[arg(long, value_name = "H", value_parser = positive_number,
          conflicts_with = "relative_half_width")]
    pub half_width: Option<f64>,
    /// Largest half-width as a fraction of the estimate ([stop] relative_half_width).
    #[arg(long, value_name = "R", value_parser = positive_number)]
    pub relative_half_width: Option<f64>,
    /// Most trials a variant plays with a precision target ([stop] max_trials).
    #[arg(long, value_parser = numbers::whole::<u64>(1, 1_000_000_000_000))]
    pub max_trials: Option<u64>,
    /// Trials per stage of a precision target ([stop] stage_trials) [default: --trials or the
    /// spec's trials, at most --max-trials].
    #[arg(long, value_parser = numbers::whole::<u64>(1, 1_000_000_000_000))]
    pub stage_trials: Option<u64>,
}

const RUN_EXAMPLES: &str = "\
Examples:
  experiment run experiments/war_placement.toml
  experiment run experiments/war_placement.toml --trials 100000 --out war-100k
  experiment run experiments/war_placement.toml --variant random --threads 1 --quiet --out war-random
  experiment run experiments/war_placement.toml --resume     (after Ctrl-C or a SIGTERM)
  experiment run experiments/war_placement.toml --shard 2/4 --out shards/
  experiment run experiments/war_placement.toml --stop-metric mean_turns --relative-half-width 0.05 --max-trials 100000 --out war-stop";

/// Options of `experiment merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard files, or folders holding them (every shard-*.json inside is read).
    #[arg(required = true, value_name = "DIR_OR_FILE")]
    pub inputs: Vec<PathBuf>,
    /// Output folder [default: results/<spec name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads for the analysis [default: all cores].
    #[arg(long, value_parser = threads)]
    pub threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `experiment slurm`.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// The experiment spec (TOML).
    pub spec: PathBuf,
    /// Shards, one Slurm array task each.
    #[arg(long, value_parser = numbers::whole::<u64>(1, crate::ledger::file::MAX_SHARDS))]
    pub shards: u64,
    /// Slurm partition [default: the cluster's default].
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit of each task, as Slurm writes it (e.g. 30, 01:00:00, 1-00:00:00).
    #[arg(long)]
    pub time: Option<String>,
    /// CPUs of each task, which runs that many threads.
    #[arg(long, default_value_t = 1, value_parser = numbers::whole::<u32>(1, 4096))]
    pub cpus_per_task: u32,
    /// Output folder of the merged results [default: results/<spec name>]; the job scripts,
    /// shard files and logs go beside it, in <out>.slurm/.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Trials per variant (overrides the spec).
    #[arg(long, value_parser = numbers::whole::<u64>(1, 1_000_000_000_000))]
    pub trials: Option<u64>,
    /// Master seed (overrides the spec).
    #[arg(long, value_parser = seed_range())]
    pub seed: Option<u64>,
    /// Run only this variant (repeatable).
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
    /// Submit both jobs with sbatch and print their ids.
    #[arg(long)]
    pub submit: bool,
}

/// The largest seed: specs hold seeds as TOML integers, 0 to 2^63-1, and so does every flag.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Parses a seed flag: a whole number from 0 to [`MAX_SEED`], written as specs write it.
pub fn seed_range() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    numbers::whole::<u64>(0, MAX_SEED)
}

/// Threads per core beyond which `--threads` is refused: more only slow a run down.
pub const THREADS_PER_CORE: usize = 4;

/// Parses `--threads`: 1 to four per core of this machine.
fn threads(text: &str) -> Result<u16, String> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let limit = THREADS_PER_CORE * cores;
    match numbers::whole::<usize>(0, u64::MAX)(text) {
        Ok(threads) if (1..=limit).contains(&threads) => {
            Ok(u16::try_from(threads).unwrap_or(u16::MAX))
        }
        _ => Err(format!(
            "{text} is not in 1..={limit} ({THREADS_PER_CORE} per core on this machine's {cores} \
             cores; more threads only slow a run down)"
        )),
    }
}

/// Options of `experiment scale`.
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// The experiment spec (TOML).
    pub spec: PathBuf,
    /// Trial counts to run, comma-separated, e.g. 1,2,5,10,100 [default: at least 12 counts
    /// log-spaced from 1 to the spec's trials, capped by --max-trials].
    #[arg(long, value_name = "N,N,...")]
    pub trials_list: Option<String>,
    /// Largest trial count to run [default: 100000, or the spec's trials if fewer].
    #[arg(long, value_parser = numbers::whole::<u64>(1, 1_000_000_000_000))]
    pub max_trials: Option<u64>,
    /// Runs at each trial count, each with its own seed.
    #[arg(long, default_value_t = 5, value_parser = numbers::whole::<u32>(1, 1000))]
    pub repeats: u32,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = threads)]
    pub threads: Option<u16>,
    /// Output folder [default: results/<spec name>-scale].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Half-width of the headline metric's 95% interval to report the trials needed for
    /// [default: 1% of each variant's estimate].
    #[arg(long, value_name = "H", value_parser = positive_number)]
    pub half_width: Option<f64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A finite number above 0.
fn positive_number(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok(value),
        _ => Err(format!("'{text}' is not a number above 0 (e.g. 0.001)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_declaration_is_consistent() {
        Cli::command().debug_assert();
    }
}
