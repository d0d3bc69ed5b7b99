//! `report.html`: every run writes one self-contained page beside `report.md`, a game added
//! outside the engine gets one without writing HTML, and `[output] html = false` turns it off.

mod common;

use std::fs;
use std::path::Path;

use common::{experiment, gamblers_ruin};

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// File stems in `dir` with extension `ext`.
fn stems(dir: &Path, ext: &str) -> Vec<String> {
    let mut stems: Vec<String> = fs::read_dir(dir)
        .expect("list")
        .filter_map(|entry| {
            let path = entry.expect("entry").path();
            if path.extension()? != ext {
                return None;
            }
            Some(path.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    stems.sort();
    stems
}

/// Checks that the page in `dir` holds every table and chart the run wrote, refers to no
/// other site and shows intervals in one cell.
fn assert_complete_page(dir: &Path) -> String {
    let html = read(&dir.join("report.html"));
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    assert!(
        !html.contains("<img") && !html.contains("<link"),
        "nothing loaded from files"
    );
    let tables = stems(dir, "csv");
    assert!(!tables.is_empty());
    for table in &tables {
        assert!(
            html.contains(&format!(
                "<table class=\"data sortable\" id=\"table-{table}\""
            )),
            "table {table} is missing"
        );
    }
    let charts = stems(dir, "svg");
    assert!(!charts.is_empty());
    for chart in &charts {
        assert!(
            html.contains(&format!("<figure class=\"chart\" id=\"chart-{chart}\">")),
            "chart {chart} is missing"
        );
    }
    assert_eq!(html.matches("<svg ").count(), charts.len());
    assert_eq!(html.matches("role=\"img\"").count(), charts.len());
    let interval_cell = html
        .split("<td class=\"num\"")
        .any(|cell| cell.contains(" [") && cell.contains(", ") && cell.contains("]</td>"));
    assert!(interval_cell, "no estimate shown as `x [lo, hi]`");
    html
}

#[test]
fn run_writes_a_self_contained_report_html_beside_report_md() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("war");
    experiment()
        .args(["run", "experiments/war_placement.toml", "--trials", "500"])
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("report.md").is_file());
    let html = assert_complete_page(&out);
    assert!(
        html.contains("<h2 id=\"s-reading\">Reading</h2>"),
        "the reading is rendered"
    );
    assert!(
        html.contains("id=\"variant-filter\""),
        "six variants get a filter box"
    );
    assert!(html.contains("<summary>Manifest"), "the manifest is folded");
    assert!(
        html.contains("★ yes"),
        "player1_first differs significantly"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&out.join("manifest.json"))).expect("manifest is JSON");
    let files = manifest["files"].as_array().expect("files");
    assert!(
        files.iter().any(|f| f == "report.html"),
        "the manifest lists the page"
    );
}

#[test]
fn html_false_in_the_spec_turns_the_page_off() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("no_html.toml");
    fs::write(
        &spec,
        "version = 1\nname = \"no_html\"\ngame = \"war\"\nseed = 3\ntrials = 50\n\n\
         [output]\nhtml = false\n",
    )
    .expect("write spec");
    let out = dir.path().join("out");
    experiment()
        .arg("run")
        .arg(&spec)
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("report.md").is_file());
    assert!(!out.join("report.html").exists());
}

#[test]
fn a_game_added_outside_the_engine_gets_its_page_without_writing_html() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("ruin");
    gamblers_ruin()
        .args(["run", "examples/gamblers_ruin.toml", "--trials", "400"])
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let html = assert_complete_page(&out);
    assert!(html.contains("<h1>gamblers_ruin</h1>"));
}
