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
    run_war(500, &out);
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

/// Runs the War spec with `trials` games per strategy into `out`.
fn run_war(trials: u32, out: &Path) {
    experiment()
        .args(["run", "experiments/war_placement.toml", "--trials"])
        .arg(trials.to_string())
        .arg("--quiet")
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// The part of the page holding the study's reading (before the run's own tables).
fn reading(html: &str) -> &str {
    let start = html.find("<div class=\"reading\">").expect("reading");
    let end = html.find("<section id=\"tables\"").expect("tables section");
    &html[start..end]
}

#[test]
fn the_reading_tables_show_intervals_in_one_cell_and_mark_significant_comparisons() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("war");
    run_war(500, &out);
    let markdown = read(&out.join("report.md"));
    assert!(
        markdown.contains("| mean_turns_lo | mean_turns_hi |") && markdown.contains("| 95% CI |"),
        "report.md keeps its own columns"
    );
    let html = read(&out.join("report.html"));
    let reading = reading(&html);
    assert!(
        !reading.contains("_lo</th>") && !reading.contains("_hi</th>"),
        "no separate bound columns in the reading's tables"
    );
    assert!(
        !reading.contains(">95% CI</th>"),
        "no separate interval column"
    );
    assert!(reading.contains("mean_turns <span class=\"ci\">[95% CI]</span>"));
    let interval_cells = reading
        .split("<td class=\"num\"")
        .skip(1)
        .filter(|cell| {
            let cell = &cell[..cell.find("</td>").expect("cell end")];
            cell.contains(" [") && cell.ends_with(']')
        })
        .count();
    // Six strategies' mean turns, and the effect of each comparison with an interval: 15 of
    // mean turns, 15 of player 1's share, and the 5 non-terminating rates against
    // `player1_first` (the other 10 compare 0 with 0 and read "no data"; the histogram
    // family's effect has no interval).
    assert!(interval_cells >= 6 + 35, "{interval_cells} interval cells");
    // player1_first plays far longer games than every other strategy at any sample size.
    let row = reading
        .lines()
        .find(|l| l.starts_with("<tr") && l.contains("<td>winner_first</td><td>player1_first</td>"))
        .expect("the comparison of winner_first with player1_first");
    assert!(row.starts_with("<tr class=\"sig\""), "{row}");
    assert!(row.contains("<td><strong>★ yes</strong></td>"), "{row}");
    assert!(reading.contains("<th scope=\"col\">Holm p &lt; 0.05</th>"));
    assert!(reading.contains("rows significant at Holm p &lt; 0.05 (marked ★ yes"));
    assert!(
        reading.contains("<table class=\"data sortable\">")
            && reading.contains("<th scope=\"col\" class=\"num\">"),
        "sortable, numbers right-aligned"
    );
}

#[test]
fn histograms_are_folded_whatever_their_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("war");
    // Few games: the cycle histogram has far fewer than 60 rows.
    run_war(200, &out);
    let html = read(&out.join("report.html"));
    let cycles = read(&out.join("cycles.csv")).lines().count() - 1;
    assert!(cycles > 0 && cycles <= 60, "{cycles} rows of cycles");
    assert!(html.contains(&format!(
        "<details>\n<summary>Show all {cycles} rows of cycles (a histogram)</summary>"
    )));
    assert!(html.contains("rows of histogram (a histogram)</summary>"));
    // The reading's copy of the cycle histogram is folded too; the summary table is not.
    assert!(reading(&html).contains(&format!(
        "<details>\n<summary>Show all {cycles} rows (a histogram)</summary>"
    )));
    let summary = &html[html.find("id=\"table-summary-heading\"").expect("summary")..];
    assert!(!summary[..summary.find("</section>").expect("end")].contains("<details>"));
}
