//! `report.html`: every run writes one self-contained page beside `report.md`, a game added
//! outside the engine gets one without writing HTML, and `[output] html = false` turns it off.

use crate::common::read;
use std::fs;
use std::path::Path;

use crate::common::{experiment, gamblers_ruin};

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
    let html = read(dir.join("report.html"));
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
    let interval_cell = html.split("<td class=\"num\"").any(|cell| {
        cell.contains(" <span class=\"iv\">[")
            && cell.contains(", ")
            && cell.contains("]</span></td>")
    });
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
        html.contains("id=\"variant-filter\""),
        "six variants get a filter box"
    );
    assert!(html.contains("<summary>Manifest"), "the manifest is folded");
    assert!(
        html.contains("★ yes"),
        "player1_first differs significantly"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&read(out.join("manifest.json"))).expect("manifest is JSON");
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

/// Runs the gambler's ruin example (a game outside the engine, its report all shared
/// blocks) with 400 games per variant into `out`.
fn run_ruin(out: &Path) {
    gamblers_ruin()
        .args(["run", "examples/gamblers_ruin.toml", "--trials", "400"])
        .arg("--quiet")
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

#[test]
fn a_game_added_outside_the_engine_gets_its_page_without_writing_html() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("ruin");
    run_ruin(&out);
    let html = assert_complete_page(&out);
    assert!(html.contains("<h1>gamblers_ruin</h1>"));
    let reading = reading(&html);
    for heading in [
        "<h2 id=\"s-estimates\">Estimates</h2>",
        "<h2 id=\"s-comparisons\">Comparisons</h2>",
    ] {
        assert!(reading.contains(heading), "{heading} in the reading");
        assert!(
            html.contains(&format!("<li><a href=\"#{}", &heading[8..20])),
            "{heading} in the contents"
        );
    }
    // The estimates chart stands in the reading where its figure is, and only there.
    let figure = "<figure class=\"chart\" id=\"chart-estimates\">";
    assert!(reading.contains(figure));
    assert_eq!(html.matches(figure).count(), 1);
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
    let out = dir.path().join("ruin");
    run_ruin(&out);
    let markdown = read(out.join("report.md"));
    assert!(
        markdown.contains("| effect | 95% CI |"),
        "report.md keeps its own interval column"
    );
    let html = read(out.join("report.html"));
    let reading = reading(&html);
    assert!(
        !reading.contains(">95% CI</th>"),
        "no separate interval column"
    );
    assert!(reading.contains("effect <span class=\"ci\">[95% CI]</span>"));
    let interval_cells = reading
        .split("<td class=\"num\"")
        .skip(1)
        .filter(|cell| {
            let cell = &cell[..cell.find("</td>").expect("cell end")];
            cell.contains(" <span class=\"iv\">[") && cell.ends_with("]</span>")
        })
        .count();
    // Four variants' two estimates, and the effect of each of the 6 pairs in the two families
    // of estimates (the histogram family's Cramér's V has no interval).
    assert!(
        interval_cells >= 4 * 2 + 2 * 6,
        "{interval_cells} interval cells"
    );
    // Winning each bet with probability 0.45 ruins the gambler far more often than 0.52.
    let row = reading
        .lines()
        .find(|l| l.starts_with("<tr") && l.contains("<td>p-0.45</td><td>p-0.52</td>"))
        .expect("the comparison of p-0.45 with p-0.52");
    assert!(
        row.starts_with("<tr class=\"sig\" data-variant=\"p-0.45 p-0.52\">"),
        "{row}"
    );
    assert!(row.contains("<td><strong>★ yes</strong></td>"), "{row}");
    assert!(reading.contains("<th scope=\"col\">Holm p &lt; 0.05</th>"));
    assert!(reading.contains("rows significant at Holm p &lt; 0.05 (marked ★ yes"));
    assert!(
        reading.contains("<table class=\"data sortable\">")
            && reading.contains("<th scope=\"col\" class=\"num\">"),
        "sortable, numbers right-aligned"
    );
    assert!(
        !reading.contains("<pre"),
        "every block is drawn, none shown as source"
    );
}

#[test]
fn histograms_are_folded_and_other_short_tables_are_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("ruin");
    run_ruin(&out);
    let html = read(out.join("report.html"));
    let rows = read(out.join("histogram.csv")).lines().count() - 1;
    assert!(html.contains(&format!(
        "<details>\n<summary>Show all {rows} rows of histogram (a histogram)</summary>"
    )));
    let summary = &html[html.find("id=\"table-summary-heading\"").expect("summary")..];
    assert!(!summary[..summary.find("</section>").expect("end")].contains("<details>"));
}
