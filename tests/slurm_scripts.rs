//! `experiment slurm` against hostile values: a value a batch script cannot hold is refused
//! before anything is written, and every other value comes back whole. The generated scripts'
//! bodies are run with bash as a Slurm task would run them (in the `--chdir` folder, with
//! `SLURM_ARRAY_TASK_ID` set), with `sbatch` and `srun` replaced by stubs on PATH that record
//! any call, and the engine's own `exec` recorded before it runs the real binary: nothing but
//! the engine may run, with exactly the intended arguments.
//!
//! These stubs test the script text only; scripts/slurm-smoke.sh runs the scripts on a real
//! Slurm cluster.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use crate::common::{awkward_war_spec, experiment};

/// A hostile folder name: spaces, both quotes, a command substitution, a comment sign, a
/// Slurm file-pattern sign and a backtick.
const HOSTILE: &str = "it's \"q\" $(touch PWNED) `touch PWNED` #1 %a";

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary folder")
}

/// Every path under `root`, sorted (what a refused command must leave unchanged).
fn tree(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path.clone());
            }
            found.push(path);
        }
    }
    found.sort();
    found
}

fn no_pwned(root: &Path) {
    let pwned: Vec<PathBuf> = tree(root)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "PWNED"))
        .collect();
    assert!(
        pwned.is_empty(),
        "something else than the engine ran: {pwned:?}"
    );
}

/// Runs `experiment slurm` in `cwd` with `args`, expecting a refusal whose message holds
/// `expected`, and checks that nothing was written under `root`.
fn refused(root: &Path, cwd: &Path, args: &[&str], expected: &str) {
    let before = tree(root);
    let output = experiment()
        .current_dir(cwd)
        .arg("slurm")
        .args(args)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(tree(root), before, "{args:?} wrote something");
    no_pwned(root);
}

fn spec_path() -> String {
    fs::canonicalize("experiments/war_placement.toml")
        .expect("the shipped spec")
        .display()
        .to_string()
}

#[test]
fn newlines_and_spaces_in_partition_and_time_are_refused_naming_the_flag() {
    let root = temp();
    let spec = spec_path();
    let out = root.path().join("out").display().to_string();
    let base = ["--shards", "2", "--out", out.as_str()];
    let cases: [(&str, &str, &str); 6] = [
        (
            "--partition",
            "short\ntouch PWNED",
            "--partition $'short\\ntouch PWNED'",
        ),
        (
            "--partition",
            "short --wrap=id",
            "--partition 'short --wrap=id'",
        ),
        ("--partition", "short,", "--partition short,"),
        (
            "--time",
            "1:00:00\ntouch PWNED",
            "--time $'1:00:00\\ntouch PWNED'",
        ),
        ("--time", "1:00 --wrap=id", "--time '1:00 --wrap=id'"),
        ("--time", "1:2:3:4", "--time 1:2:3:4"),
    ];
    for (flag, value, expected) in cases {
        let mut args = vec![spec.as_str()];
        args.extend(base);
        args.extend([flag, value]);
        refused(root.path(), root.path(), &args, expected);
    }
}

#[test]
fn every_slurm_time_format_is_accepted() {
    let root = temp();
    let spec = spec_path();
    for time in [
        "30",
        "30:15",
        "01:00:00",
        "2-12",
        "2-12:30",
        "2-12:30:15",
        "0",
        "UNLIMITED",
        "infinite",
    ] {
        let out = root.path().join(format!("t{}", time.replace(':', "_")));
        experiment()
            .args(["slurm", spec.as_str(), "--shards", "2", "--time", time])
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let script = fs::read_to_string(out.with_extension("slurm").join("shards.sbatch"))
            .expect("the array script");
        assert!(
            script.contains(&format!("\n#SBATCH --time={time}\n")),
            "{script}"
        );
    }
}

#[test]
fn control_characters_in_out_spec_path_or_current_folder_are_refused() {
    let root = temp();
    let spec = spec_path();
    let bad_out = root.path().join("out\ntouch PWNED").display().to_string();
    refused(
        root.path(),
        root.path(),
        &[&spec, "--shards", "2", "--out", &bad_out],
        "--out $'",
    );
    let bad_dir = root.path().join("specs\ntouch PWNED");
    fs::create_dir(&bad_dir).expect("folder");
    fs::write(bad_dir.join("war.toml"), awkward_war_spec("hostile")).expect("spec");
    let bad_spec = bad_dir.join("war.toml").display().to_string();
    let out = root.path().join("out").display().to_string();
    refused(
        root.path(),
        root.path(),
        &[&bad_spec, "--shards", "2", "--out", &out],
        "the spec file $'",
    );
    refused(
        root.path(),
        &bad_dir,
        &[&spec, "--shards", "2", "--out", &out],
        "the current folder $'",
    );
}

/// The arguments of one `#SBATCH` line as sbatch reads them (Slurm's `_get_argument` in
/// src/sbatch/opt.c): white space outside quotes ends an argument, even after a backslash;
/// a backslash takes the next character as it is; `"` or `'` open and close a quote; an
/// unquoted `#` starts a comment; an argument with no character ends the line.
fn sbatch_arguments(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut at = 0;
    let mut arguments = Vec::new();
    loop {
        while at < chars.len() && chars[at].is_whitespace() {
            at += 1;
        }
        let mut argument: Option<String> = None;
        let (mut quote, mut escaped) = (None, false);
        while at < chars.len() && (quote.is_some() || !chars[at].is_whitespace()) {
            let c = chars[at];
            at += 1;
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
                continue;
            } else if let Some(q) = quote {
                if c == q {
                    quote = None;
                    continue;
                }
            } else if c == '"' || c == '\'' {
                quote = Some(c);
                continue;
            } else if c == '#' {
                at = chars.len();
                break;
            }
            argument.get_or_insert_with(String::new).push(c);
        }
        assert!(quote.is_none(), "sbatch refuses an unmatched quote: {line}");
        match argument {
            Some(argument) => arguments.push(argument),
            None => return arguments,
        }
    }
}

/// The `#SBATCH` arguments the real `sbatch` finds in `script`, when sbatch is installed: with
/// a configuration naming no reachable controller it reads the script, prints each argument
/// (`-vvvv`), and fails only when it tries to submit.
fn real_sbatch_arguments(script: &Path, root: &Path) -> Option<Vec<String>> {
    let conf = root.join("parse-only-slurm.conf");
    fs::write(
        &conf,
        "ClusterName=parse\nSlurmctldHost=localhost\nSlurmctldPort=1\nNodeName=n1 CPUs=1\n\
         PartitionName=p Nodes=n1 Default=YES\n",
    )
    .expect("configuration");
    let output = assert_cmd::Command::new("sbatch")
        .arg("-vvvv")
        .arg(script)
        .env("SLURM_CONF", &conf)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .ok()?;
    let prefix = "sbatch: debug2: Found in script, argument \"";
    let found: Vec<String> = String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter_map(|line| line.strip_prefix(prefix)?.strip_suffix('"'))
        .map(str::to_string)
        .collect();
    (!found.is_empty()).then_some(found)
}

/// The `#SBATCH` options of `script`, in order.
fn sbatch_options(script: &str) -> Vec<String> {
    script
        .lines()
        .filter_map(|line| line.strip_prefix("#SBATCH"))
        .flat_map(sbatch_arguments)
        .collect()
}

/// A folder of stub commands that record their arguments into `calls` instead of running:
/// `sbatch` prints the job id 4242 as `--parsable` does.
fn stubs(root: &Path) -> (PathBuf, PathBuf) {
    let bin = root.join("stub-bin");
    fs::create_dir(&bin).expect("stub folder");
    let calls = root.join("stub-calls");
    for (name, reply) in [("sbatch", "echo 4242"), ("srun", "exit 1")] {
        let path = bin.join(name);
        fs::write(
            &path,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"{name} $*\" >> '{}'\n{reply}\n",
                calls.display()
            ),
        )
        .expect("stub");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    (bin, calls)
}

/// Runs the body of `script` with bash as Slurm would (in `chdir`, with `env`), `exec`
/// recording its arguments (NUL-separated) before it runs them; returns what `exec` was given.
fn run_body(script: &Path, chdir: &Path, stub_bin: &Path, env: &[(&str, &str)]) -> Vec<String> {
    let record = script.with_extension("argv");
    let path = format!(
        "{}:{}",
        stub_bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Process::new("bash")
        .arg("-c")
        .arg(r#"exec() { printf '%s\0' "$@" > "$RECORD"; builtin exec "$@"; }; source "$0""#)
        .arg(script)
        .current_dir(chdir)
        .env("PATH", path)
        .env("RECORD", &record)
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = fs::read(&record).expect("exec was called");
    let mut words: Vec<String> = bytes
        .split(|&b| b == 0)
        .map(|w| String::from_utf8(w.to_vec()).expect("UTF-8"))
        .collect();
    words.pop();
    words
}

#[test]
fn hostile_names_and_paths_round_trip_through_the_scripts_and_only_the_engine_runs() {
    let root = temp();
    let root = fs::canonicalize(root.path()).expect("canonical temp");
    let cwd = root.join(HOSTILE);
    fs::create_dir(&cwd).expect("hostile folder");
    let spec_dir = root.join(format!("specs {HOSTILE}"));
    fs::create_dir(&spec_dir).expect("spec folder");
    let spec = spec_dir.join("war.toml");
    fs::write(&spec, awkward_war_spec("hostile")).expect("spec");
    let out = root.join(format!("out {HOSTILE}"));
    let (stub_bin, calls) = stubs(&root);
    let binary = fs::canonicalize(assert_cmd::cargo::cargo_bin("experiment")).expect("binary");

    experiment()
        .current_dir(&cwd)
        .arg("slurm")
        .arg(&spec)
        .args(["--shards", "2", "--trials", "40", "--seed", "9"])
        .args([
            "--variant=-x",
            "--variant",
            "a b",
            "--partition",
            "short,long.1",
        ])
        .args(["--time", "0-00:10:00"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let folder = PathBuf::from(format!("{}.slurm", out.display()));
    let shards = folder.join("shards");
    let logs = folder.join("logs");
    let text = |p: &Path| p.display().to_string();

    let array_script = folder.join("shards.sbatch");
    let array = fs::read_to_string(&array_script).expect("array script");
    let logs_pattern = text(&logs).replace('%', "%%");
    assert_eq!(
        sbatch_options(&array),
        [
            "--job-name=hostile-shards".to_string(),
            "--cpus-per-task=1".into(),
            format!("--chdir={}", text(&cwd)),
            format!("--output={logs_pattern}/shard-%a.out"),
            "--partition=short,long.1".into(),
            "--time=0-00:10:00".into(),
            "--array=0-1".into(),
        ],
        "{array}"
    );
    match real_sbatch_arguments(&array_script, &root) {
        Some(real) => assert_eq!(
            real,
            sbatch_options(&array),
            "the real sbatch reads otherwise"
        ),
        None => eprintln!("sbatch is not installed: #SBATCH lines checked against the model only"),
    }
    for task in ["0", "1"] {
        let argv = run_body(
            &array_script,
            &cwd,
            &stub_bin,
            &[("SLURM_ARRAY_TASK_ID", task), ("SLURM_CPUS_PER_TASK", "1")],
        );
        let expected = [
            text(&binary),
            "run".into(),
            text(&spec),
            "--shard".into(),
            format!("{task}/2"),
            "--threads".into(),
            "1".into(),
            "--out".into(),
            text(&shards),
            "--quiet".into(),
            "--trials".into(),
            "40".into(),
            "--seed".into(),
            "9".into(),
            "--variant=-x".into(),
            "--variant=a b".into(),
        ];
        assert_eq!(argv, expected);
        assert!(shards.join(format!("shard-{task}-of-2.json")).is_file());
    }

    let merge_script = folder.join("merge.sbatch");
    let merge = fs::read_to_string(&merge_script).expect("merge script");
    assert!(sbatch_options(&merge).contains(&format!("--output={logs_pattern}/merge.out")));
    let argv = run_body(&merge_script, &cwd, &stub_bin, &[]);
    assert_eq!(
        argv,
        [
            text(&binary),
            "merge".into(),
            text(&shards),
            "--out".into(),
            text(&out),
            "--threads".into(),
            "1".into(),
            "--quiet".into(),
        ]
    );
    let summary = fs::read_to_string(out.join("report.md")).expect("merged report");
    assert!(
        summary.contains("`-x`") && summary.contains("`a b`"),
        "{summary}"
    );
    assert!(!summary.contains("`plain`"), "{summary}");
    assert!(!calls.exists(), "sbatch or srun was called by a job script");
    no_pwned(&root);
}

#[test]
fn submit_calls_sbatch_with_the_scripts_and_the_dependency() {
    let root = temp();
    let root = fs::canonicalize(root.path()).expect("canonical temp");
    let (stub_bin, calls) = stubs(&root);
    let out = root.join("my out");
    let path = format!(
        "{}:{}",
        stub_bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let spec = spec_path();
    experiment()
        .env("PATH", path)
        .args(["slurm", spec.as_str(), "--shards", "2", "--submit"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stdout("shards job: 4242\nmerge job: 4242\n");
    let folder = root.join("my out.slurm");
    assert_eq!(
        fs::read_to_string(&calls).expect("sbatch was called"),
        format!(
            "sbatch --parsable {}\nsbatch --parsable --dependency=afterok:4242 {}\n",
            folder.join("shards.sbatch").display(),
            folder.join("merge.sbatch").display()
        )
    );
}

#[test]
fn a_failed_merge_submission_names_the_shards_job_already_queued_and_how_to_cancel_it() {
    let root = temp();
    let root = fs::canonicalize(root.path()).expect("canonical temp");
    // A test double of sbatch: the first call (the shards array) succeeds, the second fails.
    let bin = root.join("bin");
    fs::create_dir(&bin).expect("mkdir");
    let sbatch = bin.join("sbatch");
    fs::write(
        &sbatch,
        format!(
            "#!/bin/sh\nif [ -e '{0}/first' ]; then echo 'sbatch: error: QOSMaxSubmitJobPerUserLimit' \
             >&2; exit 1; fi\ntouch '{0}/first'\necho 777\n",
            root.display()
        ),
    )
    .expect("write stub");
    fs::set_permissions(&sbatch, fs::Permissions::from_mode(0o755)).expect("chmod");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = experiment()
        .env("PATH", path)
        .args(["slurm", spec_path().as_str(), "--shards", "2", "--submit"])
        .arg("--out")
        .arg(root.join("out"))
        .output()
        .expect("slurm");
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{said}");
    for words in [
        "QOSMaxSubmitJobPerUserLimit",
        "shards array job 777 WAS submitted",
        "scancel 777",
        "sbatch --dependency=afterok:777",
        "merge.sbatch",
    ] {
        assert!(said.contains(words), "{words}: {said}");
    }
}
