//! The engine deletes only what it can prove it wrote, and fails with a message rather than a
//! crash: folders and manifests that are not its own, the user's files named like its lock and
//! staging folders, a tight memory limit, standard output on a full device, a full disk during
//! a Parquet write. Each test runs the real binary.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common::{experiment, names, Mount};
use assert_cmd::assert::OutputAssertExt;
use assert_cmd::cargo::CommandCargoExt;
use predicates::prelude::*;

/// Every path under `folder` with its content (folders as "/"), to compare before and after.
fn tree(folder: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("list") {
            let path = entry.expect("entry").path();
            let metadata = fs::symlink_metadata(&path).expect("stat");
            let content = if metadata.file_type().is_symlink() {
                format!("-> {}", fs::read_link(&path).expect("link").display())
            } else if metadata.is_dir() {
                stack.push(path.clone());
                "/".to_string()
            } else {
                String::from_utf8_lossy(&fs::read(&path).expect("read")).into_owned()
            };
            out.push((path, content));
        }
    }
    out.sort();
    out
}

/// A quick War run into `out` with `trials` per variant.
fn war(out: &Path, trials: &str) -> assert_cmd::assert::Assert {
    experiment()
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            trials,
            // These runs replace what the folder holds on purpose (often a fuller run).
            "--replace",
        ])
        .arg("--out")
        .arg(out)
        .timeout(Duration::from_secs(60))
        .assert()
}

/// Asserts a run into `out` is refused before simulating, with `expected` in the message,
/// and that nothing in `root` changed.
fn assert_refused(root: &Path, out: &Path, expected: &[&str]) {
    let before = tree(root);
    let mut assert = experiment()
        .args(["run", "experiments/war_placement.toml", "--quiet"])
        .args(["--trials", "1000000000"])
        .arg("--out")
        .arg(out)
        .timeout(Duration::from_secs(20))
        .assert()
        .code(1);
    for text in expected {
        assert = assert.stderr(predicate::str::contains(*text));
    }
    assert.stderr(predicate::str::contains(out.display().to_string()));
    assert_eq!(
        tree(root),
        before,
        "something in {} changed",
        root.display()
    );
}

#[test]
fn another_tools_manifest_listing_a_folder_deletes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("project");
    fs::create_dir_all(out.join("src")).expect("mkdir");
    fs::write(out.join("src/main.c"), "int main(void) { return 0; }\n").expect("write");
    fs::write(out.join("manifest.json"), r#"{"files":["src"]}"#).expect("write");
    assert_refused(
        dir.path(),
        &out,
        &[
            "did not write",
            "manifest.json (not a manifest of this engine",
            "src (no manifest.json of this engine lists it)",
            "nothing was deleted",
        ],
    );
}

#[test]
fn a_listed_file_replaced_by_a_folder_of_notes_is_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    war(&out, "100").success();
    fs::remove_file(out.join("summary.csv")).expect("rm");
    fs::create_dir(out.join("summary.csv")).expect("mkdir");
    fs::write(out.join("summary.csv/notes.txt"), "my notes\n").expect("write");
    assert_refused(dir.path(), &out, &["summary.csv (a folder)"]);
}

#[test]
fn a_hand_written_manifest_listing_a_thesis_deletes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("thesis");
    fs::create_dir(&out).expect("mkdir");
    fs::write(out.join("thesis.tex"), "\\documentclass{article}\n").expect("write");
    fs::write(
        out.join("manifest.json"),
        r#"{"files":["thesis.tex","manifest.json"]}"#,
    )
    .expect("write");
    assert_refused(
        dir.path(),
        &out,
        &["thesis.tex (no manifest.json of this engine lists it)"],
    );
}

#[test]
fn a_listed_file_whose_content_was_edited_is_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    war(&out, "100").success();
    let edited = fs::read_to_string(out.join("report.md")).expect("read") + "\nMy reading.\n";
    fs::write(out.join("report.md"), edited).expect("write");
    assert_refused(
        dir.path(),
        &out,
        &["report.md (changed since this engine wrote it)"],
    );
}

#[test]
fn a_listed_file_replaced_by_a_link_is_kept_and_so_is_its_target() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    war(&out, "100").success();
    let mine = dir.path().join("mine.csv");
    fs::write(&mine, "my data\n").expect("write");
    fs::remove_file(out.join("summary.csv")).expect("rm");
    symlink(&mine, out.join("summary.csv")).expect("link");
    assert_refused(dir.path(), &out, &["summary.csv (a symbolic link)"]);
    // A link to the user's own folder counts the same.
    fs::remove_file(out.join("summary.csv")).expect("rm");
    let notes = dir.path().join("notes");
    fs::create_dir(&notes).expect("mkdir");
    fs::write(notes.join("a.txt"), "a\n").expect("write");
    symlink(&notes, out.join("notes")).expect("link");
    assert_refused(dir.path(), &out, &["notes (a symbolic link)"]);
}

#[test]
fn a_folder_the_engine_wrote_is_replaced_and_its_manifest_proves_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    war(&out, "100").success();
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).expect("read"))
            .expect("JSON");
    assert_eq!(manifest["format"], "experiment-results");
    assert_eq!(manifest["format_version"], 1);
    let digests = manifest["file_digests"].as_array().expect("digests");
    let mut listed: Vec<&str> = digests
        .iter()
        .map(|d| d["name"].as_str().expect("name"))
        .collect();
    listed.push("manifest.json");
    listed.sort();
    assert_eq!(
        names(&out),
        listed,
        "every file but the manifest has a digest"
    );
    let summary = digests
        .iter()
        .find(|d| d["name"] == "summary.csv")
        .expect("summary");
    let bytes = fs::read(out.join("summary.csv")).expect("read");
    assert_eq!(summary["bytes"], bytes.len());
    assert_eq!(summary["sha256"].as_str().expect("hex").len(), 64);
    // A listed file the user deleted is no reason to refuse.
    fs::remove_file(out.join("report.html")).expect("rm");
    war(&out, "50").success();
    assert!(out.join("report.html").exists());
    assert_eq!(names(dir.path()), vec!["out"]);
}

#[test]
fn results_of_the_previous_engine_version_are_replaced_only_as_it_wrote_them() {
    for committed in ["war_placement", "chutes_doubling", "war_placement-scale"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join(committed);
        fs::create_dir(&out).expect("mkdir");
        for name in names(&Path::new("results").join(committed)) {
            fs::copy(
                Path::new("results").join(committed).join(&name),
                out.join(&name),
            )
            .expect("copy");
        }
        // The committed folders (until they are regenerated) have no digests.
        let text = fs::read_to_string(out.join("manifest.json")).expect("read");
        let mut manifest: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let manifest = manifest.as_object_mut().expect("object");
        for field in ["format", "format_version", "file_digests"] {
            manifest.remove(field);
        }
        fs::write(
            out.join("manifest.json"),
            serde_json::to_string_pretty(manifest).expect("JSON"),
        )
        .expect("write");
        fs::write(out.join("notes.txt"), "mine\n").expect("write");
        assert_refused(
            dir.path(),
            &out,
            &["notes.txt (not listed in manifest.json)"],
        );
        fs::remove_file(out.join("notes.txt")).expect("rm");
        war(&out, "50").success();
        assert!(
            fs::read_to_string(out.join("manifest.json"))
                .expect("read")
                .contains("\"experiment-results\""),
            "{committed} was replaced by a run"
        );
        assert_eq!(names(dir.path()), vec![committed]);
    }
}

#[test]
fn a_users_file_named_like_the_lock_is_never_truncated_or_removed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("o");
    fs::write(dir.path().join(".o.lock"), "my notes\n").expect("write");
    assert_refused(dir.path(), &out, &[".o.lock", "not a lock of this engine"]);
    // A folder or a link of that name is left too.
    fs::remove_file(dir.path().join(".o.lock")).expect("rm");
    fs::create_dir(dir.path().join(".o.lock")).expect("mkdir");
    assert_refused(dir.path(), &out, &["a folder, not a lock of this engine"]);
    fs::remove_dir(dir.path().join(".o.lock")).expect("rm");
    let mine = dir.path().join("mine.txt");
    fs::write(&mine, "mine\n").expect("write");
    symlink(&mine, dir.path().join(".o.lock")).expect("link");
    assert_refused(
        dir.path(),
        &out,
        &["a symbolic link, not a lock of this engine"],
    );
}

#[test]
fn a_lock_left_by_a_killed_run_is_taken_over() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("o");
    fs::write(
        dir.path().join(".o.lock"),
        "experiment-output-lock 1\npid 999999\n",
    )
    .expect("write");
    war(&out, "50").success();
    assert_eq!(names(dir.path()), vec!["o"]);
}

#[test]
fn users_files_named_like_staging_and_old_folders_are_left_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("o");
    for name in [".o.partial-999999", ".o.old-999999"] {
        fs::create_dir(dir.path().join(name)).expect("mkdir");
        fs::write(dir.path().join(name).join("notes.txt"), "mine\n").expect("write");
    }
    fs::write(dir.path().join(".o.partial-999998"), "a file\n").expect("write");
    fs::create_dir(dir.path().join(".o.old-999997")).expect("mkdir");
    let before = tree(dir.path());
    // With the output folder missing, a real old folder would be put back: not the user's.
    war(&out, "50").success();
    assert!(out.join("manifest.json").exists() && !out.join("notes.txt").exists());
    let after: Vec<_> = tree(dir.path())
        .into_iter()
        .filter(|(path, _)| !path.starts_with(&out))
        .collect();
    assert_eq!(after, before);
    // And with the output folder there, they are not deleted either.
    war(&out, "50").success();
    let after: Vec<_> = tree(dir.path())
        .into_iter()
        .filter(|(path, _)| !path.starts_with(&out))
        .collect();
    assert_eq!(after, before);
}

#[test]
fn a_staging_folder_a_killed_run_marked_is_removed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("o");
    let mut child = std::process::Command::new("true").spawn().expect("spawn");
    let dead = child.id();
    child.wait().expect("wait");
    let stale = dir.path().join(format!(".o.partial-{dead}"));
    fs::create_dir(&stale).expect("mkdir");
    fs::write(stale.join("summary.csv"), "half\n").expect("write");
    fs::write(
        stale.join(".experiment-staging"),
        format!("experiment-staging 1\npid {dead}\n"),
    )
    .expect("write");
    war(&out, "50").success();
    assert_eq!(names(dir.path()), vec!["o"]);
}

#[test]
fn a_tight_memory_limit_fails_with_a_message_and_leaves_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let binary = assert_cmd::cargo::cargo_bin("experiment");
    let spec = fs::canonicalize("experiments/war_placement.toml").expect("spec");
    let script = format!(
        "ulimit -v 60000 && exec '{}' run '{}' --trials 1000 --out o",
        binary.display(),
        spec.display()
    );
    let output = StdCommand::new("bash")
        .args(["-c", &script])
        .current_dir(dir.path())
        .output()
        .expect("bash");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the address-space limit (ulimit -v) is 60000 KiB"),
        "{stderr}"
    );
    assert!(stderr.contains("ulimit -v 262144"), "{stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "{stderr}");
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

/// The virtual memory size of process `pid`, in bytes.
fn virtual_size(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let line = status
        .lines()
        .find(|line| line.starts_with("VmSize:"))
        .expect("VmSize");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number");
    kib << 10
}

#[test]
fn running_out_of_memory_mid_run_removes_the_staging_folder_and_lock() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("o");
    let mut child = StdCommand::cargo_bin("experiment")
        .expect("binary")
        .args(["run", "experiments/war_placement.toml", "--quiet"])
        .args(["--trials", "300000"])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let staging = dir.path().join(format!(".o.partial-{}", child.id()));
    let start = Instant::now();
    while !staging.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no staging folder"
        );
        sleep(Duration::from_millis(5));
    }
    sleep(Duration::from_millis(100));
    // From now on the run may grow by 1 MiB only: analysing and writing need more.
    let limit = libc::rlimit {
        rlim_cur: virtual_size(child.id()) + (1 << 20),
        rlim_max: libc::RLIM_INFINITY,
    };
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    // SAFETY: sets a resource limit of our own child process; `limit` outlives the call.
    let status = unsafe { libc::prlimit(pid, libc::RLIMIT_AS, &limit, std::ptr::null_mut()) };
    assert_eq!(status, 0, "prlimit: {}", std::io::Error::last_os_error());
    let stderr = crate::common::stderr_of(&mut child);
    let exit = child.wait().expect("wait");
    assert_eq!(exit.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("Error: out of memory allocating"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("nothing was written to {}", out.display())),
        "{stderr}"
    );
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

#[test]
fn standard_output_on_a_full_device_says_so_and_where_the_results_are() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("o");
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    StdCommand::cargo_bin("experiment")
        .expect("binary")
        .args([
            "run",
            "experiments/war_placement.toml",
            "--quiet",
            "--trials",
            "100",
        ])
        .arg("--out")
        .arg(&out)
        .stdout(full)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "the results were written to {}/, but their summary could not be printed: cannot \
             write to standard output: No space left on device",
            out.display()
        )));
    assert!(out.join("manifest.json").exists());
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    StdCommand::cargo_bin("experiment")
        .expect("binary")
        .args(["exact", "monopoly"])
        .stdout(full)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "cannot write to standard output: No space left on device",
        ));
}

#[test]
fn a_full_disk_during_a_parquet_write_names_the_file_and_the_real_cause() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("parquet_only.toml");
    let text = fs::read_to_string("experiments/war_placement.toml").expect("spec")
        + "\n[output]\nformats = [\"parquet\"]\nplots = false\nhtml = false\n";
    fs::write(&spec, text).expect("write");
    // Three pages: the lock and the staging marker take one each, and the first table
    // (summary.parquet, about 18 kB) does not fit in the third.
    let Some(mount) = Mount::new(&dir.path().join("small"), "size=12k") else {
        return;
    };
    let out = mount.0.join("o");
    experiment()
        .arg("run")
        .arg(&spec)
        .args(["--quiet", "--trials", "100"])
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "cannot write {}: No space left on device (os error 28)",
            out.join("summary.parquet").display()
        )))
        .stderr(predicate::str::contains("thrift").not());
    assert!(names(&mount.0).is_empty(), "{:?}", names(&mount.0));
}
