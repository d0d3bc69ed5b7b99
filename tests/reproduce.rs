//! The "reproduce" command of report.md and report.html, pasted into bash, runs exactly what
//! produced the folder: the same spec (whatever its path holds), seed, trials, chosen variants
//! (a variant named `-x` included), chunk size and output folder, so the same tables come out.

use std::fs;
use std::path::Path;
use std::process::Command as Process;

use crate::common::runs::tables;
use crate::common::{awkward_war_spec, experiment};

/// A folder name no unquoted command survives.
const HOSTILE: &str = "it's \"q\" $(touch PWNED) `touch PWNED` #1";

/// The command of the `- reproduce:` line of a report.md, out of its Markdown code span.
fn reproduce_line(report: &Path) -> String {
    let text = fs::read_to_string(report).expect("report.md");
    let span = text
        .lines()
        .find_map(|line| line.strip_prefix("- reproduce: "))
        .unwrap_or_else(|| panic!("no reproduce line in {text}"));
    let fence = span.len() - span.trim_start_matches('`').len();
    let inner = &span[fence..span.len() - fence];
    assert_eq!(&span[span.len() - fence..], &span[..fence], "{span}");
    match inner.strip_prefix(' ').and_then(|i| i.strip_suffix(' ')) {
        Some(padded) if padded.starts_with('`') || padded.ends_with('`') => padded.to_string(),
        _ => inner.to_string(),
    }
}

/// The reproduce command of a report.html, its HTML escapes undone.
fn reproduce_html(report: &Path) -> String {
    let html = fs::read_to_string(report).expect("report.html");
    let start = html
        .find("<dt>reproduce</dt><dd><code>")
        .expect("reproduce in the page")
        + "<dt>reproduce</dt><dd><code>".len();
    let end = start + html[start..].find("</code>").expect("end of the code");
    html[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Runs `command` with bash in `cwd`, `experiment` on PATH being the binary under test.
fn run_in_bash(command: &str, cwd: &Path, root: &Path) {
    let bin = root.join("bin");
    if !bin.exists() {
        fs::create_dir(&bin).expect("bin folder");
        std::os::unix::fs::symlink(
            assert_cmd::cargo::cargo_bin("experiment"),
            bin.join("experiment"),
        )
        .expect("symlink");
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Process::new("bash")
        .arg("-c")
        .arg(command)
        .current_dir(cwd)
        .env("PATH", path)
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "`{command}` failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn no_pwned(root: &Path) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("folder") {
            let path = entry.expect("entry").path();
            assert!(
                path.file_name().is_some_and(|n| n != "PWNED"),
                "{} ran",
                path.display()
            );
            if path.is_dir() && !path.is_symlink() {
                stack.push(path);
            }
        }
    }
}

#[test]
fn the_reproduce_command_is_quoted_and_complete_and_gives_the_same_tables() {
    let root = tempfile::tempdir().expect("temporary folder");
    let root = fs::canonicalize(root.path()).expect("canonical");
    let cwd = root.join(HOSTILE);
    fs::create_dir(&cwd).expect("folder");
    fs::write(
        cwd.join(format!("spec {HOSTILE}.toml")),
        awkward_war_spec("reproduced"),
    )
    .expect("spec");
    let spec = format!("spec {HOSTILE}.toml");
    let out = format!("out {HOSTILE}");
    experiment()
        .current_dir(&cwd)
        .args([
            "run",
            &spec,
            "--trials",
            "300",
            "--seed",
            "11",
            "--chunk-size",
            "7",
        ])
        .args(["--variant=-x", "--variant", "a b", "--quiet", "--out", &out])
        .assert()
        .success();
    let folder = cwd.join(&out);
    let command = reproduce_line(&folder.join("report.md"));
    let expected = format!(
        "experiment run {} --seed 11 --trials 300 --variant=-x '--variant=a b' --chunk-size 7 \
         --out {}",
        experiment_engine::shell::quote(&spec),
        experiment_engine::shell::quote(&out)
    );
    assert_eq!(command, expected);
    assert_eq!(reproduce_html(&folder.join("report.html")), command);

    let first = tables(&folder);
    fs::remove_dir_all(&folder).expect("remove the first run");
    run_in_bash(&command, &cwd, &root);
    assert_eq!(tables(&folder), first);
    let report = fs::read_to_string(folder.join("report.md")).expect("report");
    assert!(report.contains("- variants: `-x`, `a b`\n"), "{report}");
    no_pwned(&root);
}

#[test]
fn a_default_run_reproduces_without_out_chunk_size_or_variants() {
    let root = tempfile::tempdir().expect("temporary folder");
    let root = fs::canonicalize(root.path()).expect("canonical");
    fs::write(root.join("-spec.toml"), awkward_war_spec("reproduced")).expect("spec");
    experiment()
        .current_dir(&root)
        .args(["run", "./-spec.toml", "--quiet"])
        .assert()
        .success();
    let folder = root.join("results/reproduced");
    let command = reproduce_line(&folder.join("report.md"));
    assert_eq!(command, "experiment run ./-spec.toml --seed 5 --trials 40");
    let first = tables(&folder);
    fs::remove_dir_all(&folder).expect("remove the first run");
    run_in_bash(&command, &root, &root);
    assert_eq!(tables(&folder), first);
}

#[test]
fn the_scale_report_reproduce_command_is_quoted() {
    let root = tempfile::tempdir().expect("temporary folder");
    let root = fs::canonicalize(root.path()).expect("canonical");
    let cwd = root.join(HOSTILE);
    fs::create_dir(&cwd).expect("folder");
    fs::write(
        cwd.join(format!("spec {HOSTILE}.toml")),
        awkward_war_spec("reproduced"),
    )
    .expect("spec");
    let spec = format!("spec {HOSTILE}.toml");
    let out = format!("scale {HOSTILE}");
    experiment()
        .current_dir(&cwd)
        .args([
            "scale",
            &spec,
            "--trials-list",
            "10, 20",
            "--repeats",
            "1",
            "--quiet",
        ])
        .args(["--out", &out])
        .assert()
        .success();
    let folder = cwd.join(&out);
    let command = reproduce_line(&folder.join("report.md"));
    assert_eq!(
        command,
        format!(
            "experiment scale {} --trials-list '10, 20' --repeats 1 --out {}",
            experiment_engine::shell::quote(&spec),
            experiment_engine::shell::quote(&out)
        )
    );
    assert_eq!(reproduce_html(&folder.join("report.html")), command);
    fs::remove_dir_all(&folder).expect("remove the first ladder");
    run_in_bash(&command, &cwd, &root);
    assert!(folder.join("scaling.csv").is_file());
    no_pwned(&root);
}

#[test]
fn a_merged_report_reproduces_into_the_merges_out_folder() {
    let root = tempfile::tempdir().expect("temporary folder");
    let root = fs::canonicalize(root.path()).expect("canonical");
    fs::write(root.join("spec.toml"), awkward_war_spec("reproduced")).expect("spec");
    for shard in ["0/2", "1/2"] {
        experiment()
            .current_dir(&root)
            .args([
                "run",
                "spec.toml",
                "--quiet",
                "--variant=-x",
                "--shard",
                shard,
            ])
            .args(["--out", "shards"])
            .assert()
            .success();
    }
    experiment()
        .current_dir(&root)
        .args(["merge", "shards", "--out", "merged x"])
        .assert()
        .success();
    let folder = root.join("merged x");
    let command = reproduce_line(&folder.join("report.md"));
    assert_eq!(
        command,
        "experiment run spec.toml --seed 5 --trials 40 --variant=-x --out 'merged x'"
    );
    let first = tables(&folder);
    fs::remove_dir_all(&folder).expect("remove the merged folder");
    run_in_bash(&command, &root, &root);
    assert_eq!(tables(&folder), first);
}
