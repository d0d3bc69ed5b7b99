//! What happens when things go wrong around a run: concurrent runs, signals, killed processes,
//! read-only or full disks, mount points, folders holding the user's own files; and the
//! manifest's record of the engine's build. Each test runs the real binary. (Closed pipes are
//! in `cli.rs`, out-of-range flags in `cli_numbers.rs`.)

use crate::common::{manifest, read};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common::runs::signal as send;
use crate::common::{experiment, names, stderr_of, Mount};
use assert_cmd::cargo::CommandCargoExt;
use predicates::prelude::*;

fn std_experiment() -> StdCommand {
    StdCommand::cargo_bin("experiment").expect("the binary is built")
}

/// Asserts `folder` is one complete run: exactly the files its manifest lists.
fn assert_complete(folder: &Path) {
    let manifest = manifest(folder);
    let mut listed: Vec<String> = manifest["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f.as_str().expect("name").to_string())
        .collect();
    listed.sort();
    assert_eq!(
        names(folder),
        listed,
        "{} is not one whole run",
        folder.display()
    );
}

/// A War run with `trials` per variant into `out`, not waited for.
fn spawn_war(out: &Path, trials: &str, extra: &[&str]) -> Child {
    std_experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            trials,
            // These runs replace the folder on purpose, whatever it holds.
            "--replace",
        ])
        .arg("--out")
        .arg(out)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn")
}

fn run_war(out: &Path, trials: &str, extra: &[&str]) {
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            trials,
            // These runs replace the folder on purpose, whatever it holds.
            "--replace",
        ])
        .arg("--out")
        .arg(out)
        .args(extra)
        .assert()
        .success();
}

/// Waits until the staging folder of `child` appears beside `out`.
fn wait_for_staging(child: &Child, out: &Path) -> PathBuf {
    let name = out.file_name().expect("name").to_string_lossy();
    let staging = out.with_file_name(format!(".{name}.partial-{}", child.id()));
    let started = Instant::now();
    while !staging.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no staging folder appeared"
        );
        sleep(Duration::from_millis(10));
    }
    staging
}

/// Waits for `child` at most `limit`, killing it and failing the test past that.
fn wait_within(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the run did not stop within {limit:?}");
        }
        sleep(Duration::from_millis(10));
    }
}

#[test]
fn two_concurrent_runs_into_one_folder_never_leave_a_mixed_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let reference = |seed: &str| {
        let out = dir.path().join(format!("seed{seed}"));
        run_war(&out, "2000", &["--seed", seed]);
        read(out.join("summary.csv"))
    };
    let expected = [("1", reference("1")), ("2", reference("2"))];
    assert_ne!(expected[0].1, expected[1].1);
    let out = dir.path().join("shared");
    let mut refused = 0;
    for _ in 0..20 {
        let children = [
            spawn_war(&out, "2000", &["--seed", "1"]),
            spawn_war(&out, "2000", &["--seed", "2"]),
        ];
        let mut succeeded = 0;
        for child in children {
            let output = child.wait_with_output().expect("wait");
            if output.status.success() {
                succeeded += 1;
            } else {
                let stderr = String::from_utf8_lossy(&output.stderr);
                assert!(stderr.contains("another run"), "{stderr}");
                refused += 1;
            }
        }
        assert!(succeeded >= 1, "neither run succeeded");
        assert_complete(&out);
        let seed = manifest(&out)["seed"].to_string();
        let (_, summary) = expected
            .iter()
            .find(|(s, _)| *s == seed)
            .expect("the manifest's seed is one of the two");
        assert_eq!(
            &read(out.join("summary.csv")),
            summary,
            "tables of another seed"
        );
        assert!(read(out.join("report.md")).contains(&format!("- seed: {seed}\n")));
        assert_eq!(
            names(dir.path()),
            vec!["seed1", "seed2", "shared"],
            "leftovers"
        );
    }
    eprintln!("{refused} of 40 runs were refused while the other held the folder");
}

#[test]
fn a_second_run_replaces_the_whole_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    run_war(&out, "200", &[]);
    assert!(out.join("game_length.png").exists());
    experiment()
        .args([
            "run",
            "experiments/monopoly_landing.toml",
            "--quiet",
            "--trials",
            "20",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert_complete(&out);
    assert!(
        !out.join("game_length.png").exists(),
        "a file of the War run stayed"
    );
    assert_eq!(manifest(&out)["game"], "monopoly");
    assert_eq!(names(dir.path()), vec!["out"]);
}

#[test]
fn fails_with_clear_message_on_a_folder_holding_files_the_engine_did_not_write() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    run_war(&out, "200", &[]);
    fs::write(out.join("notes.txt"), "my notes\n").expect("write");
    let before = names(&out);
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            "100000000",
        ])
        .arg("--out")
        .arg(&out)
        .timeout(Duration::from_secs(20))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("notes.txt"))
        .stderr(predicate::str::contains("did not write"))
        .stderr(predicate::str::contains(out.display().to_string()));
    assert_eq!(names(&out), before);
    assert_eq!(read(out.join("notes.txt")), "my notes\n");
    // A folder without a manifest is the user's own: never replaced either.
    let own = dir.path().join("own");
    fs::create_dir(&own).expect("mkdir");
    fs::write(own.join("data.csv"), "1\n").expect("write");
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            "10",
        ])
        .arg("--out")
        .arg(&own)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("data.csv"));
    assert_eq!(names(&own), vec!["data.csv"]);
}

#[test]
fn sigint_sigterm_and_sighup_stop_a_run_at_once_and_leave_the_old_folder_whole() {
    for (signal, code) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("out");
        run_war(&out, "100", &[]);
        let before = read(out.join("manifest.json"));
        // Hours of work, in huge chunks: only a check inside chunks stops it in time.
        let mut child = spawn_war(&out, "1000000000000", &["--chunk-size", "1000000000"]);
        wait_for_staging(&child, &out);
        sleep(Duration::from_millis(300));
        send(&child, signal);
        let sent = Instant::now();
        let status = wait_within(&mut child, Duration::from_secs(10));
        let took = sent.elapsed();
        assert_eq!(status.code(), Some(code), "signal {signal}");
        assert!(
            took < Duration::from_secs(2),
            "signal {signal}: stopped after {took:?}"
        );
        let stderr = stderr_of(&mut child);
        assert!(stderr.contains("Interrupted by SIG"), "{stderr}");
        assert!(stderr.contains("nothing was written"), "{stderr}");
        assert!(!stderr.contains(".partial"), "{stderr}");
        assert_eq!(read(out.join("manifest.json")), before, "signal {signal}");
        assert_eq!(names(dir.path()), vec!["out"], "signal {signal}: leftovers");
    }
}

#[test]
fn sigint_mid_run_into_a_new_folder_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    // With checkpoints off, nothing at all is left (tests/checkpoints.rs covers them on).
    let mut child = spawn_war(&out, "1000000000000", &["--checkpoint-every", "0"]);
    wait_for_staging(&child, &out);
    send(&child, libc::SIGINT);
    let sent = Instant::now();
    let status = wait_within(&mut child, Duration::from_secs(10));
    assert_eq!(status.code(), Some(130));
    assert!(sent.elapsed() < Duration::from_secs(2));
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

#[test]
fn after_sigkill_the_next_run_into_the_same_folder_removes_the_staging_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let mut child = spawn_war(&out, "1000000000000", &[]);
    let staging = wait_for_staging(&child, &out);
    child.kill().expect("SIGKILL");
    wait_within(&mut child, Duration::from_secs(10));
    assert!(
        staging.exists(),
        "SIGKILL cannot clean up: the next run must"
    );
    run_war(&out, "100", &[]);
    assert_complete(&out);
    assert_eq!(names(dir.path()), vec!["out"], "leftovers");
}

#[test]
fn an_interrupt_at_any_moment_leaves_the_old_folder_or_the_new_one_whole() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    run_war(&out, "100", &["--seed", "1"]);
    // Runs as long as this one, interrupted at moments spread over all of it (simulating,
    // analysing, writing) and past its end.
    let started = Instant::now();
    run_war(&dir.path().join("timing"), "5000", &["--seed", "2"]);
    let whole = started.elapsed();
    fs::remove_dir_all(dir.path().join("timing")).expect("remove");
    let (mut interrupted, mut finished_runs) = (0, 0);
    for step in 0..12u32 {
        let old = read(out.join("manifest.json"));
        // Checkpoints off: this test is about the folder (tests/checkpoints.rs covers them).
        let mut child = spawn_war(&out, "5000", &["--seed", "2", "--checkpoint-every", "0"]);
        sleep(whole * step / 10);
        send(&child, libc::SIGINT);
        let status = wait_within(&mut child, Duration::from_secs(30));
        assert_complete(&out);
        assert_eq!(names(dir.path()), vec!["out"], "leftovers at step {step}");
        let finished = status.success();
        // Killed by the signal before the handler was installed, or stopped by the handler.
        let stopped = status.code() == Some(130) || status.signal() == Some(libc::SIGINT);
        assert!(finished || stopped, "step {step}: {status:?}");
        if finished {
            finished_runs += 1;
            assert_eq!(manifest(&out)["seed"], 2);
            run_war(&out, "100", &["--seed", "1"]);
        } else {
            interrupted += 1;
            // Either the signal came before the swap and the old folder stays, or after it
            // (while the old folder was being deleted) and the message says the new one is
            // complete.
            let stderr = stderr_of(&mut child);
            if stderr.contains("after the new results were complete") {
                assert_eq!(manifest(&out)["seed"], 2, "step {step}: {stderr}");
                run_war(&out, "100", &["--seed", "1"]);
            } else {
                assert_eq!(
                    read(out.join("manifest.json")),
                    old,
                    "an interrupted run wrote: {stderr}"
                );
            }
        }
    }
    eprintln!("{interrupted} runs interrupted, {finished_runs} finished first ({whole:?} each)");
    assert!(interrupted > 0, "no run was interrupted");
}

#[test]
fn fails_before_simulating_when_the_output_location_is_read_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(mount) = Mount::new(&dir.path().join("ro"), "ro,size=1m") else {
        return;
    };
    let out = mount.0.join("results");
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            "1000000000",
        ])
        .arg("--out")
        .arg(&out)
        .timeout(Duration::from_secs(20))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "output folder {}",
            out.display()
        )))
        .stderr(predicate::str::contains("Read-only file system"))
        .stderr(predicate::str::contains(".partial").not());
}

#[test]
fn fails_before_simulating_when_the_output_folder_is_a_mount_point() {
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(mount) = Mount::new(&dir.path().join("mnt"), "size=1m") else {
        return;
    };
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            "1000000000",
        ])
        .arg("--out")
        .arg(&mount.0)
        .timeout(Duration::from_secs(20))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "output {} is a mount point",
            mount.0.display()
        )))
        .stderr(predicate::str::contains(".partial").not());
}

#[test]
fn a_full_disk_fails_with_a_plain_message_naming_the_file_and_leaves_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(mount) = Mount::new(&dir.path().join("small"), "size=160k") else {
        return;
    };
    let out = mount.0.join("out");
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            "2000",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "cannot write {}/",
            out.display()
        )))
        .stderr(predicate::str::contains("No space left on device"))
        .stderr(predicate::str::contains("Error(").not())
        .stderr(predicate::str::contains(".partial").not());
    assert!(names(&mount.0).is_empty(), "{:?}", names(&mount.0));
}

fn git(dir: &Path, args: &[&str]) -> String {
    let output = StdCommand::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=test", "-c", "user.email=test@example.com"])
        .args(args)
        .output()
        .expect("git");
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8(output.stdout)
        .expect("utf-8")
        .trim()
        .to_string()
}

#[test]
fn the_manifest_records_the_engine_build_apart_from_the_spec_repository() {
    let repo = tempfile::tempdir().expect("temp dir");
    git(repo.path(), &["init", "-q"]);
    let spec = repo.path().join("war.toml");
    fs::copy("experiments/war_placement.toml", &spec).expect("copy");
    git(repo.path(), &["add", "war.toml"]);
    git(repo.path(), &["commit", "-q", "-m", "spec"]);
    let spec_commit = git(repo.path(), &["rev-parse", "HEAD"]);
    let out = tempfile::tempdir().expect("temp dir");
    let run = |name: &str| {
        let folder = out.path().join(name);
        // Run from inside the spec's repository: its commit is not the engine's.
        experiment()
            .current_dir(repo.path())
            .args(["run", "war.toml", "--quiet", "--trials", "50"])
            .arg("--out")
            .arg(&folder)
            .assert()
            .success();
        manifest(&folder)
    };
    let clean = run("clean");
    assert_eq!(clean["spec_git_commit"], spec_commit.as_str());
    assert_eq!(clean["spec_git_modified"], false);
    assert_eq!(clean["crate_version"], env!("CARGO_PKG_VERSION"));
    let engine = clean["engine_commit"].as_str().expect("engine_commit");
    assert_ne!(engine, spec_commit);
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let built_from = StdCommand::new("git")
        .arg("-C")
        .arg(here)
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string());
    assert_eq!(engine, built_from.as_deref().unwrap_or("unknown"));

    fs::write(&spec, read(&spec).replace("trials = ", "trials =  ")).expect("edit");
    let modified = run("modified");
    assert_eq!(modified["spec_git_commit"], spec_commit.as_str());
    assert_eq!(modified["spec_git_modified"], true);

    // A spec outside any repository records none.
    let loose = tempfile::tempdir().expect("temp dir");
    fs::copy(
        "experiments/war_placement.toml",
        loose.path().join("war.toml"),
    )
    .expect("copy");
    let folder = out.path().join("loose");
    experiment()
        .args(["run", "--quiet", "--trials", "50"])
        .arg(loose.path().join("war.toml"))
        .arg("--out")
        .arg(&folder)
        .assert()
        .success();
    assert!(manifest(&folder)["spec_git_commit"].is_null());
}
