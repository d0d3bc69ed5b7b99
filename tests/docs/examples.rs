//! Finding the shell examples of README.md and docs/ (by the convention of docs/README.md),
//! spelling `cargo run` as the binaries it runs, and the small list of examples that are not
//! run.

use std::path::{Path, PathBuf};

use crate::docs::root;

/// One shell example: where it is written, the command line, and for ```console blocks the
/// output lines it shows.
#[derive(Debug, Clone)]
pub(crate) struct Example {
    pub(crate) place: String,
    pub(crate) command: String,
    pub(crate) expected: Option<Vec<String>>,
}

/// README.md, then every page under docs/, in a fixed order.
pub(crate) fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, into: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|entry| entry.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, into);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                into.push(path);
            }
        }
    }
    let mut pages = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut pages);
    pages
}

/// The text before a `#` that starts a comment (one outside quotes, after white space).
fn strip_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && previous.is_whitespace() => return line[..at].trim_end(),
            _ => {}
        }
        previous = c;
    }
    line.trim_end()
}

/// The shell examples of one page, by the convention of docs/README.md.
pub(crate) fn examples_in(page: &Path, text: &str) -> Vec<Example> {
    let name = page
        .strip_prefix(root())
        .unwrap_or(page)
        .display()
        .to_string();
    let mut examples: Vec<Example> = Vec::new();
    let mut block: Option<String> = None;
    let mut pending = String::new();
    for (index, line) in text.lines().enumerate() {
        let place = format!("{name}:{}", index + 1);
        if let Some(fence) = line.strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some(fence.trim().to_string()),
            };
            continue;
        }
        match block.as_deref() {
            Some("sh" | "bash") => {
                let code = strip_comment(line);
                if code.trim().is_empty() && pending.is_empty() {
                    continue;
                }
                if let Some(start) = code.strip_suffix('\\') {
                    pending.push_str(start);
                    continue;
                }
                pending.push_str(code);
                examples.push(Example {
                    place,
                    command: std::mem::take(&mut pending).trim().to_string(),
                    expected: None,
                });
            }
            Some("console") => {
                if let Some(command) = line.strip_prefix("$ ") {
                    examples.push(Example {
                        place,
                        command: command.trim().to_string(),
                        expected: Some(Vec::new()),
                    });
                } else if let Some(Example {
                    expected: Some(lines),
                    ..
                }) = examples.last_mut()
                {
                    if !line.trim().is_empty() {
                        lines.push(line.trim_end().to_string());
                    }
                } else {
                    panic!("{place}: a console block must start with a '$ ' command line");
                }
            }
            _ => {}
        }
    }
    assert!(block.is_none(), "{name}: a code block is not closed");
    examples
}

/// The example with `cargo run` spelled as the binaries it runs.
pub(crate) fn with_binaries(command: &str) -> String {
    command
        .replace(
            "cargo run --release --example gamblers_ruin -- ",
            "gamblers_ruin ",
        )
        .replace("cargo run --release -- ", "experiment ")
}

/// The exact command `.ci/run` runs: its last line.
fn ci_command() -> String {
    let script = std::fs::read_to_string(root().join(".ci/run")).expect("read .ci/run");
    script
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .expect("a command in .ci/run")
        .trim()
        .to_string()
}

/// How an example is handled.
#[derive(Debug, PartialEq)]
pub(crate) enum Handling {
    /// Run (at small trial counts).
    Run,
    /// Not run; checked in the way it says.
    NotRun(&'static str),
}

/// The explicit, small list of examples that are not run (docs/README.md says why), and how
/// each is still checked. Panics on a `cargo` or script line that is none of them.
pub(crate) fn handling(place: &str, command: &str) -> Handling {
    if command.starts_with("cargo test") {
        assert_eq!(
            command,
            ci_command(),
            "{place}: the test command must be exactly what .ci/run runs"
        );
        return Handling::NotRun("the whole test suite: checked to equal .ci/run");
    }
    if command.starts_with("pip install ./crates/python") || command.contains("maturin build") {
        return Handling::NotRun("builds the Python package: scripts/python-test.sh runs it");
    }
    if command.contains("scripts/bench.sh") {
        return Handling::NotRun("a benchmark: bash -n scripts/bench.sh");
    }
    if command.starts_with("cargo run --release --example bench ") {
        return Handling::NotRun("a benchmark: examples/bench.rs must exist");
    }
    if command.contains("experiment ") && command.contains("--resume") {
        return Handling::NotRun("needs an interrupted run: parsed with --help appended");
    }
    if command.starts_with("cargo ")
        && !command.starts_with("cargo run --release -- ")
        && !command.starts_with("cargo run --release --example gamblers_ruin -- ")
    {
        panic!("{place}: `{command}` is neither run by tests/docs/ nor in its not-run list");
    }
    Handling::Run
}

#[test]
fn the_readme_shows_the_ci_test_command_and_stays_short() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let commands: Vec<String> = examples_in(&root().join("README.md"), &readme)
        .into_iter()
        .map(|example| example.command)
        .collect();
    assert!(
        commands.contains(&ci_command()),
        "README.md must show {}",
        ci_command()
    );
    assert!(
        commands.contains(&"cargo run --release -- run experiments/war_placement.toml".to_string()),
        "README.md must show the main job"
    );
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines, more than 250");
}

/// The quick start promises a run of about ten seconds: its command must play the games, so it
/// writes to a folder of its own, not to `results/war_placement/`, where the committed results
/// of the same run would make it play nothing.
#[test]
fn the_readme_quick_start_plays_its_games_afresh() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let start = readme.find("## Quick start").expect("a quick start");
    let section = &readme[start..];
    let section = &section[..section[3..]
        .find("\n## ")
        .map_or(section.len(), |end| end + 3)];
    let first = examples_in(&root().join("README.md"), section)
        .into_iter()
        .map(|example| example.command)
        .find(|command| command.contains(" run "))
        .expect("the quick start runs a spec");
    assert!(
        first.starts_with("experiment run experiments/war_placement.toml --out ")
            && !first.contains("--out results/"),
        "`{first}` would reuse the committed results and play nothing"
    );
}
