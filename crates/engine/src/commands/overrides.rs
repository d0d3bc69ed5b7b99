//! What the command line changes in an experiment, in one place: `--trials`, `--seed` and
//! `--variant` (as `run` and `slurm` take them, and as `merge` reads them back from the
//! shards), the arguments that choose the same variants again, the runner that `--threads`
//! and `--quiet` ask for, and the folder a command writes into unless `--out` names one
//! (`results/<name>`, `results/<name>-shards`, `results/<name>-scale`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::cli::{RunArgs, SlurmArgs};
use crate::ledger::file::Identity;
use crate::registry::Registry;
use crate::runner::{Runner, RunnerSettings};
use crate::spec::Experiment;
use crate::studies::Study;

/// Changes to an experiment's trials, seed and variants, each `None` (or empty) to keep the
/// spec's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overrides<'a> {
    /// `--trials`: trials per variant.
    pub trials: Option<u64>,
    /// `--seed`: the master seed.
    pub seed: Option<u64>,
    /// `--variant`, each time it was given: the variants to run (none: all of them).
    pub variants: &'a [String],
}

impl<'a> Overrides<'a> {
    /// The overrides of `experiment run`.
    pub fn of_run(args: &'a RunArgs) -> Overrides<'a> {
        Overrides {
            trials: args.trials,
            seed: args.seed,
            variants: &args.variants,
        }
    }

    /// The overrides of `experiment slurm`, which its shard tasks repeat.
    pub fn of_slurm(args: &'a SlurmArgs) -> Overrides<'a> {
        Overrides {
            trials: args.trials,
            seed: args.seed,
            variants: &args.variants,
        }
    }

    /// The trials, seed and variants a summaries file records of its run (`merge`).
    pub fn recorded(identity: &'a Identity) -> Overrides<'a> {
        Overrides {
            trials: Some(identity.trials_per_variant),
            seed: Some(identity.seed),
            variants: &identity.variants,
        }
    }

    /// Applies them to `experiment`: a variant name the spec lacks is refused, naming the
    /// spec file and the spec's variants.
    pub fn apply(&self, experiment: &mut Experiment) -> Result<()> {
        if let Some(trials) = self.trials {
            experiment.trials = trials;
        }
        if let Some(seed) = self.seed {
            experiment.seed = seed;
        }
        experiment
            .keep_variants(self.variants)
            .map_err(anyhow::Error::msg)
    }
}

/// Applies the precision-target flags of `experiment run` (`--stop-metric`, `--half-width`,
/// `--relative-half-width`, `--max-trials`, `--stage-trials`) to `experiment`'s `[stop]`.
pub fn apply_stop(args: &RunArgs, study: &dyn Study, experiment: &mut Experiment) -> Result<()> {
    let flags = crate::spec::StopFlags {
        metric: args.stop_metric.clone(),
        half_width: args.half_width,
        relative_half_width: args.relative_half_width,
        max_trials: args.max_trials,
        stage_trials: args.stage_trials,
    };
    let stop = flags
        .apply(experiment.mode.stop().cloned())
        .map_err(anyhow::Error::msg)?;
    if let Some(stop) = stop {
        if experiment.mode.select().is_some() {
            anyhow::bail!(
                "{}: the precision-target flags cannot be used with a spec that has [select]: a \
             selection stops each variant when it is eliminated; drop the flags or the \
             [select] table",
                experiment.path.display()
            );
        }
        experiment.mode = crate::spec::Mode::Stop(stop);
    }
    check_design(study, experiment)
}

/// Reads and validates the spec at `spec` against `registry`'s games and applies `overrides`.
pub fn load(
    registry: &Registry,
    spec: &Path,
    overrides: Overrides,
) -> Result<(&'static dyn Study, Experiment)> {
    let (study, mut experiment) = registry.load(spec)?;
    overrides.apply(&mut experiment)?;
    check_design(study, &experiment)?;
    Ok((study, experiment))
}

/// As [`load`], for spec text not read from a file: `name` stands for the file in messages
/// (e.g. `<string>`) and in the manifest's `spec_path`.
pub fn load_text(
    registry: &Registry,
    name: &Path,
    text: &str,
    overrides: Overrides,
) -> Result<(&'static dyn Study, Experiment)> {
    let (study, mut experiment) = registry.parse(name, text)?;
    overrides.apply(&mut experiment)?;
    check_design(study, &experiment)?;
    Ok((study, experiment))
}

/// Refuses a common design (`[design] random_numbers = "common"`) for a study that cannot
/// play one, a run in stages (`[stop]`, `[select]`) for a study that cannot play in stages
/// (or cannot play this one, [`Study::check_stages`]),
/// and a `[select]` whose metric the study cannot compare or whose variants are not 2 to
/// [`crate::studies::select::MAX_SELECT_VARIANTS`], before anything runs: the checks `run`,
/// `scale` and `validate` share.
pub fn check_design(study: &dyn Study, experiment: &Experiment) -> Result<()> {
    if experiment.design == crate::design::Design::Common && !study.plays_common() {
        anyhow::bail!(
            "{}: game '{}' cannot play a common design yet: remove the [design] table or set \
             random_numbers = \"independent\"",
            experiment.path.display(),
            study.game()
        );
    }
    if !experiment.compare.is_default() && !study.compares_variants() {
        anyhow::bail!(
            "{}: game '{}' compares strategies, not variants, so [compare] within cannot group \
             its comparisons: remove the [compare] table",
            experiment.path.display(),
            study.game()
        );
    }
    if let Some(table) = experiment.mode.staged() {
        if !study.plays_in_stages() {
            anyhow::bail!(
                "{}: game '{}' cannot run in stages, so {table} cannot be used with it yet: \
                 give a fixed number of trials instead",
                experiment.path.display(),
                study.game()
            );
        }
        study.check_stages(experiment)?;
    }
    if let Some(select) = experiment.mode.select() {
        crate::studies::select::check_metric(select, &study.selectable_metrics())?;
        crate::studies::select::check_variant_count(select, experiment.variants.len())?;
    }
    Ok(())
}

/// The runner of a command: `threads` worker threads (its `--threads`; none: one per core),
/// chunks of `chunk_size` trials, and a progress bar when `progress` is wanted (not
/// `--quiet`) and standard error is a terminal.
pub fn runner(threads: Option<u16>, chunk_size: u64, progress: bool) -> Result<Runner> {
    Runner::new(RunnerSettings {
        threads: threads.map_or(0, usize::from),
        chunk_size,
        show_progress: progress && std::io::stderr().is_terminal(),
    })
}

/// The `--variant=NAME` arguments that choose `experiment`'s variants again, in spec order
/// (none when every variant of the spec runs). The `=` form keeps a name such as `-x` from
/// being taken for an option.
pub fn variant_arguments(experiment: &Experiment) -> Vec<String> {
    if !experiment.variant_subset {
        return Vec::new();
    }
    experiment
        .variants
        .iter()
        .map(|variant| format!("--variant={}", variant.name))
        .collect()
}

/// What a command writes, which names its default folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writes {
    /// A run's results (`run`, `merge`, `slurm`): `results/<name>`.
    Results,
    /// The summaries files of a run's shards (`run --shard`): `results/<name>-shards`.
    Shards,
    /// A ladder of runs (`scale`): `results/<name>-scale`.
    Ladder,
}

/// The folder a command that `writes` writes `experiment`'s files into: `out` (its `--out`)
/// when given, else its default folder under `results/`.
pub fn output_folder(out: Option<&Path>, experiment: &Experiment, writes: Writes) -> PathBuf {
    out.map_or_else(|| default_folder(experiment, writes), Path::to_path_buf)
}

/// The default folder of what a command `writes` for `experiment`, under `results/`.
pub fn default_folder(experiment: &Experiment, writes: Writes) -> PathBuf {
    let suffix = match writes {
        Writes::Results => "",
        Writes::Shards => "-shards",
        Writes::Ladder => "-scale",
    };
    PathBuf::from(crate::staging::RESULTS_FOLDER).join(format!("{}{suffix}", experiment.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn experiment() -> Experiment {
        let registry = crate::testing::registry();
        registry
            .parse(
                Path::new("dir/spec.toml"),
                "name = \"demo\"\ngame = \"toy\"\nversion = 1\nseed = 1\ntrials = 100\n\
                 [sweep]\nplacement = [\"winner_first\", \"random\", \"low_first\"]\n",
            )
            .expect("a valid spec")
            .1
    }

    #[test]
    fn overrides_change_only_what_they_name() {
        let mut kept = experiment();
        Overrides::default()
            .apply(&mut kept)
            .expect("nothing to refuse");
        assert_eq!((kept.trials, kept.seed, kept.variants.len()), (100, 1, 3));
        assert!(!kept.variant_subset);
        assert!(variant_arguments(&kept).is_empty());

        let mut changed = experiment();
        let names = ["low_first".to_string(), "winner_first".to_string()];
        let overrides = Overrides {
            trials: Some(7),
            seed: Some(9),
            variants: &names,
        };
        overrides.apply(&mut changed).expect("known variants");
        assert_eq!((changed.trials, changed.seed), (7, 9));
        // Spec order, whatever the order given.
        assert_eq!(
            variant_arguments(&changed),
            ["--variant=winner_first", "--variant=low_first"]
        );
    }

    #[test]
    fn an_unknown_variant_is_refused_naming_the_spec_and_its_variants() {
        let names = ["nope".to_string()];
        let overrides = Overrides {
            variants: &names,
            ..Overrides::default()
        };
        let error = overrides.apply(&mut experiment()).unwrap_err().to_string();
        assert_eq!(
            error,
            "dir/spec.toml: no variant named 'nope' (expected one of: winner_first, random, \
             low_first)"
        );
    }

    #[test]
    fn every_variant_named_again_is_no_selection() {
        let mut all = experiment();
        let names: Vec<String> = all.variants.iter().map(|v| v.name.clone()).collect();
        let overrides = Overrides {
            variants: &names,
            ..Overrides::default()
        };
        overrides.apply(&mut all).expect("known variants");
        assert!(!all.variant_subset);
        assert!(variant_arguments(&all).is_empty());
    }

    /// A game that plays neither a common design nor in stages (the trait's defaults), on
    /// the toy game's parameters: no built-in game is one any more.
    struct Unstaged;

    impl crate::params::GameParams for Unstaged {
        fn game(&self) -> &'static str {
            "unstaged"
        }

        fn params(&self) -> &'static dyn crate::params::ParamSchema {
            &crate::params::Schema::<crate::testing::ToyParams>::NEW
        }
    }

    impl Study for Unstaged {
        fn description(&self) -> &'static str {
            "a game that cannot run in stages"
        }

        fn run(
            &self,
            _: &Experiment,
            _: &crate::runner::Runner,
        ) -> Result<crate::report::StudyOutput> {
            anyhow::bail!("not played in this test")
        }

        fn headline(
            &self,
            _: &Experiment,
            _: &crate::runner::Runner,
        ) -> Result<crate::analysis::Headline> {
            anyhow::bail!("not played in this test")
        }

        fn estimated_metrics(&self) -> Vec<&'static str> {
            Vec::new()
        }
    }

    #[test]
    fn a_game_that_cannot_play_in_stages_refuses_a_selection_and_a_precision_target() {
        let tables = [
            (
                "[select]\nmetric = \"p1_win_rate\"\ngoal = \"max\"\nindifference = 0.01\n\
                 max_trials = 9000\n",
                "[select]",
            ),
            (
                "[stop]\nmetric = \"p1_win_rate\"\nhalf_width = 0.01\nmax_trials = 9000\n",
                "[stop] (or --stop-metric)",
            ),
        ];
        for (table, named) in tables {
            let (toy, experiment) = crate::testing::registry()
                .parse(
                    Path::new("dir/spec.toml"),
                    &format!(
                        "name = \"demo\"\ngame = \"toy\"\nversion = 1\nseed = 1\n\
                         trials = 100\n[sweep]\nplacement = [\"winner_first\", \"random\"]\n\
                         {table}"
                    ),
                )
                .expect("a valid spec");
            // The toy game plays in stages, as War does; the game without stages is refused.
            check_design(toy, &experiment).expect("the toy game plays in stages");
            let error = check_design(&Unstaged, &experiment)
                .expect_err("refused")
                .to_string();
            assert_eq!(
                error,
                format!(
                    "dir/spec.toml: game 'unstaged' cannot run in stages, so {named} cannot be \
                     used with it yet: give a fixed number of trials instead"
                )
            );
        }
    }

    #[test]
    fn the_default_folders_are_under_results() {
        let experiment = experiment();
        let folder = |out: Option<&Path>, writes| output_folder(out, &experiment, writes);
        assert_eq!(folder(None, Writes::Results), Path::new("results/demo"));
        assert_eq!(
            folder(None, Writes::Shards),
            Path::new("results/demo-shards")
        );
        assert_eq!(
            folder(None, Writes::Ladder),
            Path::new("results/demo-scale")
        );
        let out = Path::new("/tmp/x");
        assert_eq!(folder(Some(out), Writes::Ladder), out);
    }
}
