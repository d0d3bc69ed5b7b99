//! Every shell example in README.md and docs/ runs with the real binary, `--help` and
//! docs/guide.md name the same flags for every command, and no example overwrites the committed
//! results. The convention the examples follow is in docs/README.md.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Trials per variant every `run` and `slurm` example runs with.
const SMALL_TRIALS: u64 = 40;

/// Flags that change which numbers a run produces: with any of them, a command must not write
/// into a committed results folder.
const CHANGING_FLAGS: [&str; 12] = [
    "--trials",
    "--stop-metric",
    "--half-width",
    "--relative-half-width",
    "--stage-trials",
    "--seed",
    "--chunk-size",
    "--variant",
    "--shard",
    "--trials-list",
    "--max-trials",
    "--repeats",
];

/// Flags of `run`, `slurm`, `scale` and `merge` that take a value (the others are switches).
const VALUED_FLAGS: [&str; 20] = [
    "--trials",
    "--stop-metric",
    "--half-width",
    "--relative-half-width",
    "--stage-trials",
    "--seed",
    "--threads",
    "--out",
    "--variant",
    "--chunk-size",
    "--checkpoint-every",
    "--shard",
    "--shards",
    "--partition",
    "--time",
    "--cpus-per-task",
    "--trials-list",
    "--max-trials",
    "--repeats",
    "--pair",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One shell example: where it is written, the command line, and for ```console blocks the
/// output lines it shows.
#[derive(Debug, Clone)]
struct Example {
    place: String,
    command: String,
    expected: Option<Vec<String>>,
}

/// README.md, then every page under docs/, in a fixed order.
fn pages() -> Vec<PathBuf> {
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
fn examples_in(page: &Path, text: &str) -> Vec<Example> {
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

/// Splits a command line into words the way a POSIX shell would for these simple examples
/// (quotes removed), keeping `|` and `&&` as words of their own.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// A word quoted for the shell when it needs it.
fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The example with `cargo run` spelled as the binaries it runs.
fn with_binaries(command: &str) -> String {
    command
        .replace(
            "cargo run --release --example gamblers_ruin -- ",
            "gamblers_ruin ",
        )
        .replace("cargo run --release -- ", "experiment ")
}

/// One engine invocation inside an example: its words, from the binary's name on.
struct Invocation {
    words: Vec<String>,
}

impl Invocation {
    /// The engine invocation of a shell line, if it has one, and the text around it.
    fn find(line: &str) -> Option<(String, Invocation, String)> {
        let all = words(line);
        let start = all
            .iter()
            .position(|word| word == "experiment" || word == "gamblers_ruin")?;
        let end = all[start..]
            .iter()
            .position(|word| word == "|" || word == "&&" || word == ";")
            .map_or(all.len(), |at| start + at);
        let shell_words = |words: &[String]| {
            words
                .iter()
                .map(|w| match w.as_str() {
                    "|" | "&&" | ";" => w.clone(),
                    _ => quote(w),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let before = shell_words(&all[..start]);
        let after = shell_words(&all[end..]);
        Some((
            before,
            Invocation {
                words: all[start..end].to_vec(),
            },
            after,
        ))
    }

    fn subcommand(&self) -> &str {
        self.words.get(1).map_or("", String::as_str)
    }

    /// The value of `--flag VALUE` or `--flag=VALUE`.
    fn value(&self, flag: &str) -> Option<&str> {
        let prefix = format!("{flag}=");
        self.words.iter().enumerate().find_map(|(at, word)| {
            if word == flag {
                self.words.get(at + 1).map(String::as_str)
            } else {
                word.strip_prefix(&prefix)
            }
        })
    }

    fn has(&self, flag: &str) -> bool {
        let prefix = format!("{flag}=");
        self.words
            .iter()
            .any(|word| word == flag || word.starts_with(&prefix))
    }

    /// The first argument after the subcommand that is neither a flag nor a flag's value.
    fn spec(&self) -> Option<&str> {
        let mut skip = false;
        for word in self.words.iter().skip(2) {
            if skip {
                skip = false;
            } else if word.starts_with('-') {
                skip = VALUED_FLAGS.contains(&word.as_str());
            } else {
                return Some(word);
            }
        }
        None
    }

    /// Drops `flag` (and its value, when `valued`) wherever it appears.
    fn remove(&mut self, flag: &str, valued: bool) {
        let prefix = format!("{flag}=");
        let mut kept = Vec::new();
        let mut skip = false;
        for word in self.words.drain(..) {
            if skip {
                skip = false;
            } else if word == flag {
                skip = valued;
            } else if !word.starts_with(&prefix) {
                kept.push(word);
            }
        }
        self.words = kept;
    }

    fn set(&mut self, flag: &str, value: &str) {
        self.remove(flag, true);
        self.words.push(flag.to_string());
        self.words.push(value.to_string());
    }

    fn line(&self) -> String {
        self.words
            .iter()
            .map(|w| quote(w))
            .collect::<Vec<_>>()
            .join(" ")
    }
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
fn check_committed_results(
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
    let changed: Vec<&str> = CHANGING_FLAGS
        .iter()
        .copied()
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

/// The engine invocation at small trial counts, per docs/README.md.
fn small(mut invocation: Invocation) -> Invocation {
    match invocation.subcommand() {
        "run" | "slurm" => {
            // Every shard needs a trial of each variant.
            let shards: u64 = invocation
                .value("--shards")
                .map_or(1, |n| n.parse().unwrap_or(1));
            let trials = SMALL_TRIALS.max(shards);
            invocation.set("--trials", &trials.to_string());
            invocation.remove("--submit", false);
        }
        "scale" if !invocation.has("--trials-list") => {
            invocation.set("--max-trials", "20");
            invocation.set("--repeats", "1");
        }
        _ => {}
    }
    invocation
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
enum Handling {
    /// Run (at small trial counts).
    Run,
    /// Not run; checked in the way it says.
    NotRun(&'static str),
}

/// The explicit, small list of examples that are not run (docs/README.md says why), and how
/// each is still checked. Panics on a `cargo` or script line that is none of them.
fn handling(place: &str, command: &str) -> Handling {
    if command.starts_with("cargo test") {
        assert_eq!(
            command,
            ci_command(),
            "{place}: the test command must be exactly what .ci/run runs"
        );
        return Handling::NotRun("the whole test suite: checked to equal .ci/run");
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
        panic!("{place}: `{command}` is neither run by tests/docs.rs nor in its not-run list");
    }
    Handling::Run
}

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
fn workspace() -> tempfile::TempDir {
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
fn shell(line: &str, work: &Path, path: &str) -> (Option<i32>, String) {
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

fn path_var() -> String {
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

/// The flags a `--help` text lists under "Options:", and the subcommands under "Commands:".
fn help_of(path: &[&str]) -> (String, BTreeSet<String>, Vec<String>) {
    let output = common::experiment()
        .args(path)
        .arg("--help")
        .output()
        .expect("run --help");
    assert!(
        output.status.success(),
        "experiment {} --help failed",
        path.join(" ")
    );
    let text = String::from_utf8(output.stdout).expect("UTF-8 help");
    let mut flags = BTreeSet::new();
    let mut commands = Vec::new();
    let mut section = "";
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        let item = line.trim_start();
        let indent = line.len() - item.len();
        match section {
            "Options:" if indent <= 6 && item.starts_with('-') => {
                let names = item
                    .split_whitespace()
                    .take_while(|word| word.starts_with('-'))
                    .map(|word| word.trim_end_matches(','));
                for flag in names.filter(|flag| flag.starts_with("--")) {
                    if flag != "--help" && flag != "--version" {
                        flags.insert(flag.to_string());
                    }
                }
            }
            "Commands:" if indent == 2 => {
                let name = item.split_whitespace().next().unwrap_or_default();
                if name != "help" {
                    commands.push(name.to_string());
                }
            }
            _ => {}
        }
    }
    (text, flags, commands)
}

/// Every command path (`run`, `play war`, …) with its `--help` text and flags.
fn commands() -> Vec<(String, String, BTreeSet<String>)> {
    let mut found = Vec::new();
    let mut queue: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = queue.pop() {
        let words: Vec<&str> = path.iter().map(String::as_str).collect();
        let (text, flags, subcommands) = help_of(&words);
        if subcommands.is_empty() {
            found.push((path.join(" "), text, flags));
        } else {
            if !path.is_empty() {
                found.push((path.join(" "), text, BTreeSet::new()));
            }
            for sub in subcommands {
                let mut next = path.clone();
                next.push(sub);
                queue.push(next);
            }
        }
    }
    found.sort();
    found
}

/// The flags each `### \`experiment COMMAND\`` section of docs/guide.md names in its tables.
fn guide_flags() -> Vec<(String, BTreeSet<String>)> {
    let guide = std::fs::read_to_string(root().join("docs/guide.md")).expect("docs/guide.md");
    let mut sections: Vec<(String, BTreeSet<String>)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in guide.lines() {
        if line.starts_with('#') {
            current = line
                .strip_prefix("### `experiment ")
                .and_then(|rest| rest.strip_suffix('`'))
                .map(|command| {
                    sections.push((command.to_string(), BTreeSet::new()));
                    sections.len() - 1
                });
            continue;
        }
        let (Some(at), Some(row)) = (current, line.strip_prefix('|')) else {
            continue;
        };
        let first = row.split('|').next().unwrap_or_default();
        for word in first.split(|c: char| c == '`' || c == ',' || c.is_whitespace()) {
            if word.starts_with("--") && word[2..].starts_with(|c: char| c.is_ascii_alphabetic()) {
                sections[at].1.insert(word.to_string());
            }
        }
    }
    sections
}

#[test]
fn help_and_the_guide_name_the_same_flags_for_every_command() {
    let guide = guide_flags();
    let leaves: Vec<_> = commands()
        .into_iter()
        .filter(|(name, _, _)| !matches!(name.as_str(), "play" | "trace" | "exact"))
        .collect();
    let mut problems = Vec::new();
    for (name, _, flags) in &leaves {
        match guide.iter().find(|(command, _)| command == name) {
            None => problems.push(format!("docs/guide.md has no section `experiment {name}`")),
            Some((_, named)) => {
                for flag in flags.difference(named) {
                    problems.push(format!(
                        "experiment {name} --help lists {flag}, the guide does not"
                    ));
                }
                for flag in named.difference(flags) {
                    problems.push(format!(
                        "the guide names {flag} for experiment {name}, --help does not"
                    ));
                }
            }
        }
    }
    for (command, _) in &guide {
        if !leaves.iter().any(|(name, _, _)| name == command) {
            problems.push(format!(
                "docs/guide.md describes `experiment {command}`, which does not exist"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(leaves.len() >= 13, "only {} commands found", leaves.len());
}

#[test]
fn every_command_and_subcommand_has_examples_in_its_help() {
    let mut missing = Vec::new();
    for (name, text, _) in commands() {
        if !(text.contains("\nExample:\n") || text.contains("\nExamples:\n")) {
            missing.push(name);
        }
    }
    let (top, _, _) = help_of(&[]);
    assert!(
        top.contains("\nExamples:\n"),
        "experiment --help has no examples"
    );
    assert!(
        missing.is_empty(),
        "no examples in --help of: {}",
        missing.join(", ")
    );
}

/// The examples `--help` shows parse (with `--help` appended, clap refuses an unknown flag or a
/// bad value) and follow the rule for committed results.
#[test]
fn help_examples_parse_and_never_overwrite_committed_results() {
    let work = workspace();
    let path_var = path_var();
    let mut checked = 0;
    for (name, text, _) in commands().into_iter().chain([{
        let (text, _, _) = help_of(&[]);
        (String::new(), text, BTreeSet::new())
    }]) {
        for line in text.lines().map(str::trim) {
            let Some(example) = line.strip_prefix("experiment ") else {
                continue;
            };
            let example = format!(
                "experiment {}",
                example.split("  (").next().unwrap_or_default()
            );
            let place = format!("experiment {name} --help");
            let (_, invocation, _) = Invocation::find(&example).expect("an engine command");
            if let Err(refused) = check_committed_results(&place, &invocation, work.path()) {
                panic!("{refused}");
            }
            let (status, output) = shell(
                &format!("{} --help", invocation.line()),
                work.path(),
                &path_var,
            );
            assert_eq!(
                status,
                Some(0),
                "{place}: `{example}` does not parse:\n{output}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} help examples found");
}

/// `--help` states rules rather than calling on documents the reader does not have.
#[test]
fn help_texts_state_rules_rather_than_refer_to_an_assignment() {
    for (name, text, _) in commands() {
        let text = text.to_lowercase();
        assert!(
            !text.contains("original assignment") && !text.contains("the assignment"),
            "experiment {name} --help refers to an assignment"
        );
    }
}

/// `experiment list` (every game's description, parameters and choices) states rules too.
#[test]
fn the_game_list_states_rules_rather_than_refer_to_an_assignment() {
    let out = common::experiment().arg("list").output().expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8").to_lowercase();
    assert!(text.contains("twentyone"), "the list names the games");
    for phrase in ["original assignment", "the assignment", "seed 00"] {
        assert!(!text.contains(phrase), "experiment list says {phrase:?}");
    }
}

/// No user-facing text in the docs calls on documents the reader does not have.
#[test]
fn the_docs_state_rules_rather_than_refer_to_an_assignment() {
    for page in pages() {
        let text = std::fs::read_to_string(&page)
            .expect("read page")
            .to_lowercase();
        for phrase in ["original assignment", "the assignment", "seed 00"] {
            assert!(!text.contains(phrase), "{} says '{phrase}'", page.display());
        }
    }
}

/// The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as `-`.
fn anchors(page: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(page).expect("read page");
    text.lines()
        .filter_map(|line| line.strip_prefix('#'))
        .map(|heading| {
            heading
                .trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// Every relative link of README.md and docs/ points at a file or folder that exists, and at a
/// heading of it when it names one.
#[test]
fn every_relative_link_in_the_docs_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        let folder = page.parent().expect("page folder");
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let link = &rest[..end];
            if link.contains("://") {
                continue;
            }
            let (target, anchor) = link.split_once('#').unwrap_or((link, ""));
            let file = if target.is_empty() {
                page.clone()
            } else {
                folder.join(target)
            };
            if !file.exists() {
                broken.push(format!("{}: {link}", page.display()));
            } else if !anchor.is_empty() && !anchors(&file).contains(anchor) {
                broken.push(format!("{}: {link} (no such heading)", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
