//! Runs of the binaries under test: written specs, quiet runs that must succeed, the tables a
//! run wrote, and runs interrupted once they have saved a checkpoint.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

/// A function giving a binary to run: `experiment`, or the library example's.
pub type Program = fn() -> assert_cmd::Command;

/// Writes `text` as `name` in `dir`, returning its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).expect("spec written");
    path
}

/// The arguments of a quiet run of `spec` into `out` with `args`:
/// `run SPEC --quiet ARGS... --out OUT`.
pub fn quiet_run_args(spec: &Path, out: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec![
        "run".to_string(),
        spec.display().to_string(),
        "--quiet".into(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    all.extend(["--out".to_string(), out.display().to_string()]);
    all
}

/// Runs `spec` quietly into `out` with `args` with the binary `program` gives, returning its
/// stderr; the run must succeed.
pub fn run_quietly(program: Program, spec: &Path, out: &Path, args: &[&str]) -> String {
    let output = program()
        .args(quiet_run_args(spec, out, args))
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "the run failed: {stderr}");
    stderr
}

/// Every CSV and Parquet table of `folder`, by name in order, with its bytes.
pub fn tables(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found: Vec<(String, Vec<u8>)> = fs::read_dir(folder)
        .expect("list the folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            path.extension()
                .is_some_and(|e| e == "csv" || e == "parquet")
        })
        .map(|path| {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            (name, fs::read(&path).expect("table"))
        })
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no tables in {}", folder.display());
    found
}

/// Asserts that two lists of named files (as [`tables`] gives) hold the same names and bytes.
pub fn assert_same_files(expected: &[(String, Vec<u8>)], actual: &[(String, Vec<u8>)], what: &str) {
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(expected), names(actual), "{what}: other files");
    for ((name, a), (_, b)) in expected.iter().zip(actual) {
        assert!(a == b, "{what}: {name} differs");
    }
}

/// The checkpoint a run into `out` saves beside it.
pub fn checkpoint_of(out: &Path) -> PathBuf {
    let name = out.file_name().expect("out has a name").to_string_lossy();
    out.with_file_name(format!("{name}.checkpoint.json"))
}

/// The trials the checkpoint of a run into `out` holds.
pub fn trials_saved(out: &Path) -> u64 {
    let text = fs::read_to_string(checkpoint_of(out)).expect("checkpoint");
    let saved: serde_json::Value = serde_json::from_str(&text).expect("checkpoint is JSON");
    saved["trials_done"].as_u64().expect("trials_done")
}

/// `experiment` started with `args` (a run into `out`, with its stderr piped), once it has
/// saved its first checkpoint; it must not end before, and must save one within a minute.
pub fn spawn_until_checkpoint<S: AsRef<OsStr>>(args: &[S], out: &Path) -> Child {
    let mut child = StdCommand::cargo_bin("experiment")
        .expect("the binary is built")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let started = Instant::now();
    while !checkpoint_of(out).exists() {
        if child.try_wait().expect("wait").is_some() {
            panic!(
                "the run ended before its first checkpoint: {}",
                super::stderr_of(&mut child)
            );
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no checkpoint after a minute"
        );
        sleep(Duration::from_millis(20));
    }
    child
}

/// Sends `signal` to our own child process `child`.
pub fn signal(child: &Child, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    // SAFETY: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "signal sent");
}

/// Interrupts (SIGINT) `experiment` started with `args`, a run into `out`, once it has saved
/// its first checkpoint; the run must exit 130 and leave its checkpoint and no `out`. Returns
/// the trials the checkpoint holds, at least one.
pub fn interrupt_at_first_checkpoint<S: AsRef<OsStr>>(args: &[S], out: &Path) -> u64 {
    let mut child = spawn_until_checkpoint(args, out);
    signal(&child, libc::SIGINT);
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(130), "{}", super::stderr_of(&mut child));
    assert!(checkpoint_of(out).exists(), "the checkpoint is kept");
    assert!(!out.exists(), "an interrupted run wrote results");
    let done = trials_saved(out);
    assert!(done > 0, "the checkpoint holds trials");
    done
}

/// `experiment run ARGS... --quiet --threads 2`, finished, whatever its outcome.
pub fn quiet_run_on_two_threads(args: &[&str]) -> std::process::Output {
    super::experiment()
        .arg("run")
        .args(args)
        .args(["--quiet", "--threads", "2"])
        .output()
        .expect("the binary runs")
}

/// A finished process's standard error as text.
pub fn stderr_text(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Merges the shard files of `shards` into `out` with the binary `program` gives; the merge
/// must succeed.
pub fn merge_quietly(program: Program, shards: &Path, out: &Path) {
    program()
        .arg("merge")
        .arg(shards)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .assert()
        .success();
}

/// The text of shard 0 of `count` (`shard`) as the checkpoint a run of all the trials saves
/// when stopped there: the same summaries, of the whole run.
pub fn shard_as_checkpoint(shard: &str, count: u64) -> String {
    let checkpoint = shard
        .replace("\"kind\":\"shard\"", "\"kind\":\"checkpoint\"")
        .replace(
            &format!("\"shard\":{{\"index\":0,\"count\":{count}}}"),
            "\"shard\":null",
        );
    assert!(checkpoint.contains("\"shard\":null"), "{checkpoint}");
    checkpoint
}
