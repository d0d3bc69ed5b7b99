//! A run as a library call (`commands::session::run_in_memory`): the tables, report and page
//! it returns in memory are exactly what `experiment run` writes into a folder, for every
//! shipped spec, and it writes nothing.

use std::fs::File;
use std::path::Path;

use experiment_engine::commands::session::{run_in_memory, Overrides, Playing};
use polars::prelude::{ParquetReader, SerReader};

use crate::common::{experiment, report_without_reproduce, shipped_specs};

/// Trials per variant: enough for every table to have rows, few enough for every spec.
const TRIALS: u64 = 300;

#[test]
fn a_run_in_memory_gives_the_tables_and_report_the_command_writes() {
    for spec in shipped_specs() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("out");
        experiment()
            .args([
                "run",
                spec.to_str().expect("a path"),
                "--quiet",
                "--threads",
                "2",
            ])
            .args(["--trials", &TRIALS.to_string(), "--out"])
            .arg(&out)
            .assert()
            .success();
        let committed = Path::new("results").join(spec.file_stem().expect("a name"));
        let before = listing(&committed);
        let results = run_in_memory(
            &experiment::registry(),
            &spec,
            Overrides {
                trials: Some(TRIALS),
                ..Overrides::default()
            },
            Playing {
                threads: Some(1),
                ..Playing::default()
            },
        )
        .unwrap_or_else(|err| panic!("{}: {err:#}", spec.display()));
        assert!(!results.output.tables.is_empty(), "{}", spec.display());
        for table in &results.output.tables {
            let path = out.join(format!("{}.parquet", table.name));
            let Ok(file) = File::open(&path) else {
                // A spec whose [output] writes CSV only: compare with its CSV instead.
                let csv = out.join(format!("{}.csv", table.name));
                let written = crate::common::read_csv(&csv);
                assert_eq!(written.height(), table.frame.height(), "{}", csv.display());
                assert_eq!(
                    crate::common::header(&written),
                    crate::common::header(&table.frame),
                    "{}",
                    csv.display()
                );
                continue;
            };
            let written = ParquetReader::new(file).finish().expect("parquet");
            assert!(
                written.equals_missing(&table.frame),
                "{}: the table in memory differs from the file\n{}\n{}",
                path.display(),
                table.frame,
                written
            );
        }
        let markdown: Vec<String> = results
            .markdown()
            .lines()
            .filter(|line| !line.starts_with("- reproduce:"))
            .map(String::from)
            .collect();
        assert_eq!(
            markdown.join("\n"),
            report_without_reproduce(&out.join("report.md")),
            "{}",
            spec.display()
        );
        let page = results.html().expect("the page");
        assert!(page.starts_with("<!DOCTYPE html>"), "{}", spec.display());
        assert_eq!(results.manifest.trials_per_variant, TRIALS);
        assert!(results.manifest.files.is_empty(), "nothing was written");
        assert_eq!(
            listing(&committed),
            before,
            "{} was written",
            committed.display()
        );
    }
}

/// The files of `folder` with their sizes and modification times (none when it does not exist).
fn listing(folder: &Path) -> Vec<(String, u64, std::time::SystemTime)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .map(|entry| {
            let entry = entry.expect("entry");
            let meta = entry.metadata().expect("metadata");
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, meta.len(), meta.modified().expect("a time"))
        })
        .collect();
    files.sort();
    files
}
