//! The published results in `experiments/literature/`: every spec there regenerates its
//! committed tables under `results/<name>/` byte for byte (the numbers the docs page
//! `docs/literature.md` quotes). Each game's `tests/literature_<game>.rs` checks the numbers
//! themselves against the published ones.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{experiment, report_without_reproduce as report_text};

fn literature_specs() -> Vec<PathBuf> {
    let mut specs: Vec<PathBuf> = fs::read_dir("experiments/literature")
        .expect("experiments/literature/")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    specs.sort();
    assert!(!specs.is_empty(), "no spec in experiments/literature/");
    specs
}

#[test]
fn every_literature_spec_regenerates_its_committed_tables() {
    let dir = tempfile::tempdir().expect("temp dir");
    for spec in literature_specs() {
        let name = spec
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .to_string();
        let committed = Path::new("results").join(&name);
        assert!(
            committed.join("manifest.json").exists(),
            "{}: no committed results in {}",
            spec.display(),
            committed.display()
        );
        let out = dir.path().join(&name);
        experiment()
            .args(["run", "--quiet", "--out"])
            .arg(&out)
            .arg(&spec)
            .assert()
            .success();
        let mut tables = 0;
        for entry in fs::read_dir(&committed).expect("results folder") {
            let path = entry.expect("entry").path();
            let file = path.file_name().expect("name").to_owned();
            if path
                .extension()
                .is_some_and(|e| e == "csv" || e == "parquet")
            {
                tables += 1;
                let fresh = fs::read(out.join(&file)).expect("regenerated table");
                assert!(
                    fresh == fs::read(&path).expect("committed table"),
                    "{}: {} differs from the committed one",
                    spec.display(),
                    file.to_string_lossy()
                );
            }
        }
        assert!(tables > 0, "{}: no committed tables", committed.display());
        assert_eq!(
            report_text(&out.join("report.md")),
            report_text(&committed.join("report.md")),
            "{}: report.md differs",
            spec.display()
        );
    }
}
