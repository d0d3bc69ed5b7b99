//! The guard that no example writes into a committed results folder unless it runs that
//! shipped spec unchanged, as shipped (docs/guide.md).

use std::path::Path;

use crate::docs::invocation::Invocation;
use crate::docs::root;
use crate::docs::shell::workspace;

/// Flags of `run`, `scale` and `slurm` that cannot change which numbers a run writes: where and
/// how fast it runs, and how Slurm schedules it.
const NEUTRAL_FLAGS: [&str; 7] = [
    "--threads",
    "--out",
    "--checkpoint-every",
    "--shards",
    "--partition",
    "--time",
    "--cpus-per-task",
];

/// Flags that change which numbers a run produces: with any of them, a command must not write
/// into a committed results folder. Every flag of `run`, `scale` and `slurm` that takes a value,
/// read from the clap declaration, except the [`NEUTRAL_FLAGS`]: a new flag counts as changing
/// until it is declared neutral.
pub(crate) fn changing_flags() -> Vec<String> {
    let command = experiment_engine::commands::command_line(&experiment::registry());
    let mut flags: Vec<String> = ["run", "scale", "slurm"]
        .into_iter()
        .flat_map(|name| {
            let sub = command.find_subcommand(name).expect("a subcommand");
            sub.get_arguments()
                .filter(|arg| arg.get_action().takes_values())
                .filter_map(|arg| arg.get_long())
                .map(|long| format!("--{long}"))
                .collect::<Vec<_>>()
        })
        .filter(|flag| !NEUTRAL_FLAGS.contains(&flag.as_str()))
        .collect();
    flags.sort();
    flags.dedup();
    flags
}

/// The committed results folder (e.g. `results/war_placement`) a path lies in, if any.
fn committed_folder(out: &str) -> Option<String> {
    let path = out.trim_start_matches("./").trim_end_matches('/');
    let mut parts = path.split('/');
    if parts.next() != Some("results") {
        return None;
    }
    let folder = parts.next()?;
    root()
        .join("results")
        .join(folder)
        .is_dir()
        .then(|| format!("results/{folder}"))
}

/// Refuses an example that would write into a committed results folder without running that
/// shipped spec unchanged, as shipped (the rule of docs/guide.md). `work` is the folder the
/// example runs in, where the spec is read.
pub(crate) fn check_committed_results(
    place: &str,
    invocation: &Invocation,
    work: &Path,
) -> Result<(), String> {
    let subcommand = invocation.subcommand();
    let out = match subcommand {
        "merge" => {
            let out = invocation.value("--out");
            if out.is_some_and(|out| committed_folder(out).is_none()) {
                return Ok(());
            }
            return Err(format!(
                "{place}: a merge example must give --out outside the committed results: {}",
                invocation.line()
            ));
        }
        "run" | "slurm" | "scale" => invocation.value("--out").map(str::to_string),
        _ => return Ok(()),
    };
    let spec_path = invocation
        .spec()
        .unwrap_or_else(|| panic!("{place}: no spec in {}", invocation.line()));
    let out = out.unwrap_or_else(|| {
        let text = std::fs::read_to_string(work.join(spec_path))
            .unwrap_or_else(|e| panic!("{place}: cannot read {spec_path}: {e}"));
        let spec: toml::Value = toml::from_str(&text)
            .unwrap_or_else(|e| panic!("{place}: {spec_path} is not TOML: {e}"));
        let name = spec
            .get("name")
            .and_then(toml::Value::as_str)
            .unwrap_or_else(|| panic!("{place}: {spec_path} has no name"));
        let suffix = match subcommand {
            "scale" => "-scale",
            "run" if invocation.has("--shard") => "-shards",
            _ => "",
        };
        format!("results/{name}{suffix}")
    });
    let Some(folder) = committed_folder(&out) else {
        return Ok(());
    };
    let shipped = spec_path.starts_with("experiments/")
        && std::fs::read(work.join(spec_path)).ok() == std::fs::read(root().join(spec_path)).ok();
    let changed: Vec<String> = changing_flags()
        .into_iter()
        .filter(|flag| invocation.has(flag))
        .collect();
    if shipped && changed.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{place}: this example would replace the committed {folder} with {}: give it --out \
         elsewhere (docs/guide.md, 'Examples never overwrite the committed results'): {}",
        if shipped {
            format!("a run changed by {}", changed.join(", "))
        } else {
            format!("a run of {spec_path}, which is not the shipped spec as shipped")
        },
        invocation.line()
    ))
}

/// Refusing an example that would replace committed results is itself tested.
#[test]
fn an_example_that_would_overwrite_committed_results_is_refused() {
    let work = workspace();
    let verdict = |line: &str| {
        let (_, invocation, _) = Invocation::find(line).expect("an engine command");
        check_committed_results("test", &invocation, work.path()).is_ok()
    };
    assert!(verdict("experiment run experiments/war_placement.toml"));
    assert!(verdict(
        "experiment run experiments/war_placement.toml --threads 1 --quiet"
    ));
    assert!(verdict(
        "experiment run experiments/war_placement.toml --trials 5 --out war-5"
    ));
    assert!(!verdict(
        "experiment run experiments/war_placement.toml --trials 5"
    ));
    assert!(!verdict(
        "experiment run experiments/war_placement.toml --variant=random"
    ));
    assert!(!verdict(
        "experiment run experiments/chutes_doubling.toml --seed 3"
    ));
    assert!(!verdict(
        "experiment run experiments/war_placement.toml --trials 5 --out results/war_placement/"
    ));
    assert!(!verdict(
        "experiment scale experiments/war_placement.toml --repeats 2"
    ));
    assert!(!verdict(
        "experiment slurm experiments/war_placement.toml --shards 2 --trials 9"
    ));
    assert!(!verdict("experiment merge shards/"));
    assert!(!verdict(
        "experiment merge shards/ --out results/war_placement"
    ));
    assert!(verdict("experiment merge shards/ --out war-merged"));
    // A copy still named like a shipped spec, changed, writes into that spec's folder.
    let copy = work.path().join("my_war.toml");
    let shipped = std::fs::read_to_string(root().join("experiments/war_placement.toml")).unwrap();
    std::fs::write(
        &copy,
        shipped.replace("max_turns = 15000", "max_turns = 100"),
    )
    .unwrap();
    assert!(!verdict("experiment run my_war.toml"));
    std::fs::write(
        &copy,
        shipped.replace("name = \"war_placement\"", "name = \"my_war\""),
    )
    .unwrap();
    assert!(verdict("experiment run my_war.toml"));
}

#[test]
fn the_changing_flags_are_every_valued_run_flag_but_the_neutral_ones() {
    let changing = changing_flags();
    for flag in [
        "--trials",
        "--seed",
        "--variant",
        "--shard",
        "--chunk-size",
        "--max-trials",
    ] {
        assert!(
            changing.iter().any(|f| f == flag),
            "{flag} missing from {changing:?}"
        );
    }
    for flag in NEUTRAL_FLAGS {
        assert!(
            !changing.iter().any(|f| f == flag),
            "{flag} in {changing:?}"
        );
    }
}
