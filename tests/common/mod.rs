//! Helpers the integration tests share: the binary under test and tables read with Polars.
#![allow(dead_code)] // each test file uses the helpers it needs

pub mod chutes_reading;
pub mod runs;

use std::io::Read;
use std::path::Path;
use std::process::Child;

use assert_cmd::Command;
use polars::prelude::{CsvReadOptions, DataFrame, DataType, SerReader};

/// Every shipped spec, `experiments/*.toml` in name order (tests run in the package root).
pub fn shipped_specs() -> Vec<std::path::PathBuf> {
    let mut specs: Vec<std::path::PathBuf> = std::fs::read_dir("experiments")
        .expect("experiments/")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    specs.sort();
    assert!(!specs.is_empty(), "no spec in experiments/");
    specs
}

/// A small War spec named `name` whose variants are named `-x`, `a b` and `plain`: names a
/// command line must quote or mark as values.
pub fn awkward_war_spec(name: &str) -> String {
    let variant = |variant: &str, placement: &str| {
        format!(
            "\n[[variant]]\nname = \"{variant}\"\nplacement = \"{placement}\"\nmax_turns = 2000\n"
        )
    };
    format!(
        "version = 1\nname = \"{name}\"\ngame = \"war\"\nseed = 5\ntrials = 40\n{}{}{}",
        variant("-x", "winner_first"),
        variant("a b", "loser_first"),
        variant("plain", "random")
    )
}

/// The `experiment` binary built by this package.
pub fn experiment() -> Command {
    Command::cargo_bin("experiment").expect("the binary is built")
}

/// The library example's binary (`examples/gamblers_ruin.rs`), which `cargo test` builds
/// beside the test binaries.
pub fn gamblers_ruin() -> Command {
    let deps = std::env::current_exe().expect("test binary path");
    let release = deps
        .parent()
        .and_then(|dir| dir.parent())
        .expect("target/<profile>/deps");
    let binary = release.join("examples").join("gamblers_ruin");
    assert!(binary.exists(), "{} is not built", binary.display());
    Command::new(binary)
}

/// A CSV file written by a run, read the way a user's script would read it.
pub fn read_csv(path: &Path) -> DataFrame {
    CsvReadOptions::default()
        .with_has_header(true)
        .try_into_reader_with_file_path(Some(path.into()))
        .and_then(|reader| reader.finish())
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The column names of a table, in order.
pub fn header(frame: &DataFrame) -> Vec<String> {
    frame
        .get_column_names()
        .iter()
        .map(|name| name.to_string())
        .collect()
}

/// A numeric column as `f64`s (an empty cell is NaN).
pub fn numbers(frame: &DataFrame, name: &str) -> Vec<f64> {
    let column = frame
        .column(name)
        .unwrap_or_else(|e| panic!("no column {name}: {e}"))
        .cast(&DataType::Float64)
        .unwrap_or_else(|e| panic!("column {name} is not numeric: {e}"));
    let values = column.f64().expect("cast to f64");
    (0..values.len())
        .map(|i| values.get(i).unwrap_or(f64::NAN))
        .collect()
}

/// A column as text (an empty cell is the empty string).
pub fn texts(frame: &DataFrame, name: &str) -> Vec<String> {
    let column = frame
        .column(name)
        .unwrap_or_else(|e| panic!("no column {name}: {e}"))
        .cast(&DataType::String)
        .unwrap_or_else(|e| panic!("column {name} cannot be text: {e}"));
    let values = column.str().expect("cast to text");
    (0..values.len())
        .map(|i| values.get(i).unwrap_or_default().to_string())
        .collect()
}

/// A CSV file read with Polars, as its header and its rows of cells in text.
pub fn header_and_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let frame = read_csv(path);
    let names = header(&frame);
    let columns: Vec<Vec<String>> = names.iter().map(|name| texts(&frame, name)).collect();
    let rows = (0..frame.height())
        .map(|row| columns.iter().map(|column| column[row].clone()).collect())
        .collect();
    (names, rows)
}

/// Everything a finished child process wrote to its piped standard error.
pub fn stderr_of(child: &mut Child) -> String {
    let mut text = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut text)
        .expect("read stderr");
    text
}

/// A tmpfs mounted for one test (this needs root) at its path, unmounted when dropped.
pub struct Mount(pub std::path::PathBuf);

impl Mount {
    /// Mounts one at `at` with `options` (e.g. `size=1m`); where that is not allowed the test
    /// says so and passes, except under CI (`CI=true`), where it fails.
    pub fn new(at: &Path, options: &str) -> Option<Mount> {
        std::fs::create_dir_all(at).expect("mount point");
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(at)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if mounted {
            return Some(Mount(at.to_path_buf()));
        }
        let message = "this test needs root to mount a small tmpfs (mount -t tmpfs)";
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{message}, and CI must run it"
        );
        eprintln!("skipped: {message}");
        None
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

/// Every name in `folder`, hidden ones included, sorted.
pub fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", folder.display()))
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A report.md's text without its `- reproduce:` line, which names the output folder.
pub fn report_without_reproduce(path: &std::path::Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
        .lines()
        .filter(|line| !line.starts_with("- reproduce:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first `name` in backticks after `marker` on its line of `text`, if there is one.
pub fn named_after(text: &str, marker: &str) -> Option<String> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let rest = rest.lines().next()?;
    let start = rest.find('`')? + 1;
    let end = start + rest[start..].find('`')?;
    Some(rest[start..end].to_string())
}

/// The text of the file at `path`, or a panic naming it.
pub fn read(path: impl AsRef<Path>) -> String {
    let path = path.as_ref();
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The `manifest.json` of results folder `folder`.
pub fn manifest(folder: &Path) -> serde_json::Value {
    serde_json::from_str(&read(folder.join("manifest.json"))).expect("manifest is JSON")
}

/// The cell of column `name` in `row` of a table whose columns are `header`.
pub fn cell<'a>(header: &[String], row: &'a [String], name: &str) -> &'a str {
    let index = header
        .iter()
        .position(|column| column == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    &row[index]
}

/// The number in the cell of column `name` in `row` (see [`cell`]).
pub fn cell_number(header: &[String], row: &[String], name: &str) -> f64 {
    let text = cell(header, row, name);
    text.parse()
        .unwrap_or_else(|_| panic!("{name} = {text:?} is not a number"))
}
