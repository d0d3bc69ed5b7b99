//! Reports built as blocks outside the studies: `experiment scale`'s report is one set of
//! blocks rendered as `report.md` and as the page (nothing shown as Markdown source there),
//! and `experiment exact monopoly` prints its table from a report table.

use std::fs;

use crate::common::experiment;

#[test]
fn the_scale_report_is_drawn_from_blocks_on_the_page_and_in_markdown() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("scale");
    experiment()
        .args(["scale", "experiments/war_placement.toml"])
        .args([
            "--trials-list",
            "10,100,400",
            "--repeats",
            "2",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let markdown = fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(markdown
        .starts_with("# war_placement: running time and results against the number of trials\n\n"));
    assert!(markdown.contains("\n- game: `war`; headline metric: "));
    assert!(markdown.contains(
        "\n## Running time against trials\n\n![Running time against trials](running_time.png)\n\n"
    ));
    assert!(markdown.contains("is **seconds = "));
    assert!(markdown.contains("\nPer variant:\n\n| variant | pooled_at_400 |"));
    assert!(
        !markdown.contains("\n\n\n"),
        "one blank line between blocks"
    );
    let html = fs::read_to_string(out.join("report.html")).expect("report.html");
    let start = html.find("<div class=\"reading\">").expect("reading");
    let reading = &html[start..html.find("<section id=\"tables\"").expect("tables")];
    assert!(!reading.contains("<pre"), "no block is shown as its source");
    for needle in [
        "<h2 id=\"s-running-time-against-trials\">Running time against trials</h2>\n<figure class=\"chart\" id=\"chart-running_time\">",
        "<h2 id=\"s-results-against-trials\">Results against trials</h2>\n<figure class=\"chart\" id=\"chart-convergence\">",
        "<li>game: <code>war</code>; headline metric: ",
        "is <strong>seconds = ",
        "<li><strong>How results vary with the number of trials.</strong>",
        "<tr data-variant=\"winner_first\"><td>winner_first</td>",
    ] {
        assert!(reading.contains(needle), "missing {needle}");
    }
    assert!(
        !reading.contains("**") && !reading.contains('`'),
        "no Markdown marks left"
    );
    assert!(
        !html.contains("id=\"charts\""),
        "both charts stand in the reading, none is left for the Charts section"
    );
}

#[test]
fn exact_monopoly_prints_its_table_with_numbers_right_aligned() {
    let output = experiment()
        .args(["exact", "monopoly", "--turns", "20"])
        .output()
        .expect("run");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(text.contains(
        "| square | name | expected_landings | freq | long_run_freq |\n| ---: | --- | ---: | ---: | ---: |\n| 1 | Go | "
    ), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("| ")).count(), 2 + 40);
}
