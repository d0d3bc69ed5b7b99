//! A run of more variants than a report shows in full (1,050 War variants of one game each):
//! the report, the page and the charts stay small and say they show a subset, the tables stay
//! complete, and the reading's claims hold against the tables.

use std::path::Path;

use crate::common::{numbers, read_csv, texts};

/// Variants of the spec: 5 placements by 210 turn limits.
const VARIANTS: usize = 1050;

const SPEC: &str = r#"version = 1
name = "many"
game = "war"
seed = 7
trials = 1
max_variants = 1050

[sweep]
placement = ["winner_first", "loser_first", "random", "high_first", "low_first"]
max_turns = { from = 1001, to = 1210 }
"#;

fn size(path: &Path) -> u64 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .len()
}

/// The rows of the first Markdown table after `marker` in `report`, as cells.
fn table_after(report: &str, marker: &str) -> Vec<Vec<String>> {
    let start = report
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in the report"));
    report[start..]
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn a_run_of_many_variants_shows_a_named_subset_and_keeps_every_row_in_its_tables() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("many.toml");
    std::fs::write(&spec, SPEC).expect("spec written");
    let out = dir.path().join("out");
    let run = crate::common::experiment()
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    // Bounded outputs: without the subset the page is about 18 MB and the estimates chart
    // 11 MB at this many variants, growing with every variant.
    for (file, bound) in [
        ("report.html", 5_000_000),
        ("report.md", 400_000),
        ("estimates.svg", 3_000_000),
        ("game_length.svg", 1_000_000),
    ] {
        let bytes = size(&out.join(file));
        assert!(bytes < bound, "{file} has {bytes} bytes, over {bound}");
    }
    let console = String::from_utf8(run.stdout).expect("UTF-8");
    assert!(
        console.contains("Shown: 100 of these 1050 rows"),
        "{console}"
    );
    assert!(
        console.lines().count() < 150,
        "the console shows the subset"
    );

    // The tables are complete.
    let summary = read_csv(&out.join("summary.csv"));
    let names = texts(&summary, "variant");
    assert_eq!(names.len(), VARIANTS);
    let comparisons = read_csv(&out.join("comparisons.csv"));
    assert_eq!(
        comparisons.height(),
        4 * (VARIANTS - 1),
        "4 families, each with the best"
    );

    // The report says what it shows and where the rest is.
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains("This run has 1050 variants, more than the 200"),
        "{report}"
    );
    assert!(report.contains("Every variant is in the table files: `summary.csv`"));
    assert!(report.contains(
        "Shown: 100 of these 1050 rows, those of the 50 with the highest and the 50 with the \
         lowest `mean_turns` estimate, highest first; every row is in `summary.csv`."
    ));
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(html.contains("This run has 1050 variants"));
    assert!(html.contains(
        "the first 200 of its 1050 rows, in file order; every row is in <code>summary.csv</code>"
    ));

    // The rows shown are the 50 highest and 50 lowest mean turns, highest first.
    let shown = table_after(&report, "## Results per strategy");
    assert_eq!(shown.len(), 100);
    let mean: Vec<f64> = numbers(&summary, "mean_turns");
    let mut ranked: Vec<(f64, &str)> = mean
        .iter()
        .zip(&names)
        .filter(|(m, _)| m.is_finite())
        .map(|(m, n)| (*m, n.as_str()))
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let expected: Vec<&str> = ranked[..50]
        .iter()
        .chain(&ranked[ranked.len() - 50..])
        .map(|(_, n)| *n)
        .collect();
    let shown_names: Vec<&str> = shown.iter().map(|row| row[0].as_str()).collect();
    assert_eq!(shown_names, expected);

    // The reading's claims hold: the shortest and longest games are the lowest and highest
    // mean among all variants, and both are among the rows shown; the count of variants with
    // never-ending games is that of the summary table.
    let reading = &report[report.find("## Reading").expect("a reading")..];
    let shortest = format!("shortest with `{}`", ranked[ranked.len() - 1].1);
    let longest = format!("longest with `{}`", ranked[0].1);
    assert!(reading.contains(&shortest), "{reading}");
    assert!(reading.contains(&longest), "{reading}");
    let never = numbers(&summary, "infinite")
        .iter()
        .zip(numbers(&summary, "cycled"))
        .filter(|(i, c)| **i + c > 0.0)
        .count();
    if never > 0 {
        let claim = format!("came in {never} of the {VARIANTS} variants");
        assert!(reading.contains(&claim), "{claim} in {reading}");
    }
    // Comparisons shown are those between shown variants only.
    let pairs = table_after(&report, "### mean_turns");
    assert!(!pairs.is_empty() && pairs.len() < 100);
    for row in &pairs {
        assert!(expected.contains(&row[0].as_str()) && expected.contains(&row[1].as_str()));
    }
}
