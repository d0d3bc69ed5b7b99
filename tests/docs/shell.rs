//! Running every example of a page with the real binaries, in a temporary copy of the
//! project's specs, and checking the examples that are not run in the way the list says.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::docs::committed::check_committed_results;
use crate::docs::examples::{examples_in, handling, pages, with_binaries, Handling};
use crate::docs::invocation::{small, Invocation};
use crate::docs::root;

/// The folder holding the library example's binary, built if `cargo test` did not build it.
fn example_binaries() -> PathBuf {
    let deps = std::env::current_exe().expect("test binary path");
    let profile = deps
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps");
    let examples = profile.join("examples");
    if !examples.join("gamblers_ruin").exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let status = Command::new(cargo)
            .args(["build", "--release", "--example", "gamblers_ruin"])
            .current_dir(root())
            .status()
            .expect("cargo build --example gamblers_ruin");
        assert!(status.success(), "cannot build the gamblers_ruin example");
    }
    examples
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create folder");
    for entry in std::fs::read_dir(from).expect("list folder") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy file");
        }
    }
}

/// A temporary copy of the project's specs: experiments/, examples/*.toml and tests/specs/.
pub(crate) fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    copy_tree(&root().join("experiments"), &dir.path().join("experiments"));
    copy_tree(
        &root().join("tests/specs"),
        &dir.path().join("tests").join("specs"),
    );
    std::fs::create_dir_all(dir.path().join("examples")).expect("examples folder");
    for entry in std::fs::read_dir(root().join("examples")).expect("list examples") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|ext| ext == "toml") {
            std::fs::copy(
                &path,
                dir.path().join("examples").join(path.file_name().unwrap()),
            )
            .expect("copy example spec");
        }
    }
    dir
}

/// Runs one shell line in `work`, with the engine's binaries first on the PATH.
pub(crate) fn shell(line: &str, work: &Path, path: &str) -> (Option<i32>, String) {
    let output = Command::new("bash")
        .arg("-c")
        .arg(line)
        .current_dir(work)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .expect("run bash");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code(), text)
}

/// Whether `expected` lines (`...` for any output) appear in `output`, in order.
fn shows(output: &str, expected: &[String]) -> bool {
    let mut lines = output.lines().map(str::trim_end);
    expected
        .iter()
        .filter(|line| line.as_str() != "...")
        .all(|want| lines.any(|line| line == want))
}

/// Runs (or checks) every example of one page in its own copy of the specs.
fn run_page(page: &Path, path_var: &str) -> Vec<String> {
    let text = std::fs::read_to_string(page).expect("read page");
    let work = workspace();
    let mut not_run = Vec::new();
    for example in examples_in(page, &text) {
        let place = &example.place;
        match handling(place, &example.command) {
            Handling::NotRun(how) => {
                check_not_run(place, &example.command, how, work.path(), path_var);
                not_run.push(format!("{place}: {} ({how})", example.command));
                continue;
            }
            Handling::Run => {}
        }
        let command = with_binaries(&example.command);
        let line = match Invocation::find(&command) {
            Some((before, invocation, after)) => {
                check_committed_results(place, &invocation, work.path())
                    .unwrap_or_else(|refused| panic!("{refused}"));
                // A console example's output is checked, so it runs as written.
                let invocation = match example.expected {
                    None => small(invocation),
                    Some(_) => invocation,
                };
                [before, invocation.line(), after]
                    .into_iter()
                    .filter(|part| !part.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            None => command,
        };
        eprintln!("{place}: {line}");
        let (status, output) = shell(&line, work.path(), path_var);
        match &example.expected {
            None => assert_eq!(status, Some(0), "{place}: `{line}` failed:\n{output}"),
            Some(expected) => {
                let fails = expected.iter().any(|line| line.starts_with("Error:"));
                assert_eq!(
                    status,
                    Some(if fails { 1 } else { 0 }),
                    "{place}: `{line}` exited with {status:?}:\n{output}"
                );
                assert!(
                    shows(&output, expected),
                    "{place}: `{line}` does not print what the docs show.\nExpected (in order):\n{}\nGot:\n{output}",
                    expected.join("\n")
                );
            }
        }
    }
    not_run
}

/// Checks an example that is not run in the way its [`Handling::NotRun`] says.
fn check_not_run(place: &str, command: &str, how: &str, work: &Path, path_var: &str) {
    if how.contains("bash -n") {
        let status = Command::new("bash")
            .args(["-n", "scripts/bench.sh"])
            .current_dir(root())
            .status()
            .expect("bash -n");
        assert!(status.success(), "{place}: scripts/bench.sh does not parse");
    } else if how.contains("scripts/python-test.sh") {
        let script = std::fs::read_to_string(root().join("scripts/python-test.sh"))
            .expect("scripts/python-test.sh");
        assert!(
            script.lines().any(|line| line.trim() == command),
            "{place}: scripts/python-test.sh does not run `{command}`"
        );
    } else if how.contains("examples/bench.rs") {
        assert!(
            root().join("examples/bench.rs").is_file(),
            "{place}: no examples/bench.rs"
        );
    } else if how.contains("--help") {
        let command = with_binaries(command);
        let (_, invocation, _) = Invocation::find(&command).expect("an engine command");
        check_committed_results(place, &invocation, work)
            .unwrap_or_else(|refused| panic!("{refused}"));
        let (status, output) = shell(&format!("{} --help", invocation.line()), work, path_var);
        assert_eq!(
            status,
            Some(0),
            "{place}: `{command}` does not parse:\n{output}"
        );
    }
}

pub(crate) fn path_var() -> String {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_experiment"));
    let bin = binary.parent().expect("binary folder").to_path_buf();
    let mut path = vec![bin, example_binaries()];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(path)
        .expect("PATH")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_shell_example_in_the_readme_and_docs_runs() {
    let path_var = path_var();
    let mut not_run = Vec::new();
    let mut examples = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        examples += examples_in(&page, &text).len();
        not_run.extend(run_page(&page, &path_var));
    }
    assert!(
        examples > 50,
        "only {examples} examples found: is the parser right?"
    );
    // The list of examples not run stays small and explicit (docs/README.md).
    assert!(
        not_run.len() <= 6,
        "too many examples are not run:\n{}",
        not_run.join("\n")
    );
    eprintln!("not run:\n{}", not_run.join("\n"));
}
