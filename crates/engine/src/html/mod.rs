//! `report.html`: one self-contained page per run, built only from what every study returns
//! (its tables with their columns' roles, its report blocks and its charts) and the run's
//! manifest, so a new game gets its page without writing any HTML. Nothing here reads
//! Markdown: the page and `report.md` are two renderings of the same blocks.
//!
//! The page makes no request of its own: the CSS and the few lines of JavaScript are inline,
//! the charts are inline SVG, and there are no fonts, images or scripts from elsewhere. It reads
//! the same with JavaScript off; JavaScript only adds column sorting and the variant filter.

mod blocks;
mod charts;
mod page;
mod tables;

use anyhow::{Context, Result};

use crate::frame::NamedTable;
use crate::manifest::Manifest;
use crate::plot::Chart;
use crate::report::{Block, StudyOutput};
use crate::spec::Experiment;
use crate::staging::Staging;

pub use page::render;

/// Runs with more variants than this get a variant filter box above the tables.
pub const FILTER_VARIANTS: usize = 5;

/// Everything a page is built from.
pub struct Page<'a> {
    /// What question the experiment answers (the spec's description).
    pub description: &'a str,
    /// The study's report body: the plain-language reading, its own tables and the charts it
    /// shows where they stand.
    pub body: &'a [Block],
    /// Every table of the run, in the order the study returned them.
    pub tables: &'a [NamedTable],
    /// Every chart of the run by file stem.
    pub charts: &'a [(String, Chart)],
    /// The formats the tables were written in (the first names a table's file).
    pub formats: &'a [crate::frame::TableFormat],
    /// The record of the run (spec, seed, trials, versions, commit, wall time, trials/s).
    pub manifest: &'a Manifest,
    /// The shell command that reproduces the run, already quoted.
    pub reproduce: &'a str,
}

/// Writes `report.html` into the staging folder unless the spec turned it off
/// (`[output] html = false`); `reproduce` is the shell command that reproduces the run.
pub fn write(
    staging: &mut Staging,
    experiment: &Experiment,
    output: &StudyOutput,
    manifest: &Manifest,
    reproduce: &str,
) -> Result<()> {
    if !experiment.output.html {
        return Ok(());
    }
    let html = page(experiment, output, manifest, reproduce)?;
    std::fs::write(staging.file("report.html"), html).context("cannot write report.html")
}

/// The text of `report.html` for a run of `experiment` that gave `output`, recorded in
/// `manifest`; `reproduce` is the shell command that reproduces the run.
pub fn page(
    experiment: &Experiment,
    output: &StudyOutput,
    manifest: &Manifest,
    reproduce: &str,
) -> Result<String> {
    render(&Page {
        description: &experiment.description,
        body: &output.report,
        tables: &output.tables,
        charts: &output.charts,
        formats: &experiment.output.formats,
        manifest,
        reproduce,
    })
}

/// `text` with the characters that mean something in HTML (text or attribute) escaped, and
/// control characters other than line breaks and tabs (which HTML does not allow) shown as
/// U+FFFD, so that none reaches the page raw.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\r' | '\t' => out.push(c),
            c if c.is_control() => out.push('\u{fffd}'),
            _ => out.push(c),
        }
    }
    out
}

/// `text` as a fragment identifier: lower-case letters, digits and single dashes.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{Role, TableBuilder};
    use crate::plot::{Heatmap, LineChart, Series};

    fn manifest(variants: usize) -> Manifest {
        Manifest {
            format: "experiment-results".into(),
            format_version: 1,
            experiment: "demo".into(),
            game: "war".into(),
            spec_path: "experiments/demo.toml".into(),
            spec_sha256: "ab".repeat(32),
            spec: "version = 1\nname = \"demo\"  # <spec & text>\n".into(),
            seed: 7,
            trials_per_variant: 100,
            random_numbers: Default::default(),
            compare_within: Vec::new(),
            variants: (0..variants).map(|i| format!("v{i}")).collect(),
            chunk_size: 1024,
            threads: 2,
            crate_version: "0.1.0".into(),
            engine_commit: "0123abcd".into(),
            engine_modified: Some(false),
            spec_git_commit: None,
            spec_git_modified: None,
            wall_seconds: 1.25,
            trials_per_second: 160.0,
            simulation_seconds: 1.0,
            simulation_trials_per_second: 200.0,
            files: Vec::new(),
            file_digests: Vec::new(),
            shards: None,
            stop: None,
            select: None,
        }
    }

    fn tables() -> Vec<NamedTable> {
        let summary = TableBuilder::new()
            .text("variant", ["v0", "v1"])
            .role(Role::Label)
            .count("games", [100, 100])
            .interval("mean_turns", [177.5, 180.5], [177.3, 179.9], [177.8, 180.6])
            .named("summary")
            .expect("table");
        let histogram = TableBuilder::new()
            .text("variant", (0..200).map(|i| format!("v{}", i % 2)))
            .role(Role::Label)
            .count("turns", 0..200)
            .role(Role::Bin)
            .count("count", (0..200).map(|i| i * 3))
            .named("histogram")
            .expect("table");
        vec![summary, histogram]
    }

    fn charts() -> Vec<(String, Chart)> {
        let line = Chart::Lines(LineChart {
            title: "Game length".into(),
            x_label: "turns".into(),
            y_label: "share".into(),
            series: vec![Series {
                label: "v0".into(),
                points: vec![(1.0, 0.5), (2.0, 0.5)],
                band: Vec::new(),
                ..Default::default()
            }],
            markers: true,
            ..Default::default()
        });
        let heatmap = Chart::Heatmap(Heatmap {
            title: "Payoff matrix".into(),
            row_label: "first".into(),
            column_label: "second".into(),
            rows: vec!["v0".into(), "v1".into()],
            columns: vec!["v0".into(), "v1".into()],
            values: vec![vec![0.5, -1.0], vec![1.0, 0.0]],
        });
        vec![("game_length".into(), line), ("payoffs".into(), heatmap)]
    }

    fn page_with(variants: usize) -> String {
        page_of(&manifest(variants))
    }

    fn page_of(manifest: &Manifest) -> String {
        let (tables, charts) = (tables(), charts());
        render(&Page {
            description: "Does it <end>?",
            body: &[
                Block::heading(2, "Results"),
                Block::paragraph("Text."),
                Block::figure("game_length", "Game length by variant"),
            ],
            tables: &tables,
            charts: &charts,
            formats: &[crate::frame::TableFormat::Csv],
            manifest,
            reproduce: "experiment run experiments/demo.toml --seed 7 --trials 100",
        })
        .expect("page")
    }

    #[test]
    fn control_characters_never_reach_the_page_raw() {
        assert_eq!(
            escape("a\u{1b}[31m\u{0}b\n\t\u{85}<"),
            "a\u{fffd}[31m\u{fffd}b\n\t\u{fffd}&lt;"
        );
    }

    #[test]
    fn the_page_refers_to_nothing_outside_itself() {
        let html = page_with(2);
        for pattern in [
            "src=\"http",
            "href=\"http",
            "<link",
            "@import",
            "url(",
            "<img",
        ] {
            assert!(!html.contains(pattern), "found {pattern}");
        }
        assert!(html.contains("<style>") && html.contains("<script>"));
        assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    }

    #[test]
    fn every_table_and_chart_of_the_run_is_on_the_page() {
        let html = page_with(2);
        assert!(html.contains("id=\"table-summary\"") && html.contains("id=\"table-histogram\""));
        assert_eq!(html.matches("<svg").count(), 2, "both charts inline");
        assert_eq!(html.matches("role=\"img\"").count(), 2);
        assert!(html.contains("<title id=\"chart-game_length-title\">Game length by variant"));
        assert!(html.contains("<title id=\"chart-payoffs-title\">Payoff matrix"));
        assert!(
            html.contains("v0 0.5000, v1 -1.000"),
            "the matrix's numbers in words"
        );
        // The referenced chart sits in the reading; only the other one in "Charts".
        let charts_section = &html[html.find("id=\"charts\"").expect("charts section")..];
        assert!(
            !charts_section[..charts_section.find("</section>").expect("end")]
                .contains("chart-game_length")
        );
    }

    #[test]
    fn estimates_show_their_interval_in_one_cell_and_long_tables_are_folded() {
        let html = page_with(2);
        assert!(html.contains(">177.5 <span class=\"iv\">[177.3, 177.8]</span></td>"));
        assert!(html.contains(">180.5 <span class=\"iv\">[179.9, 180.6]</span></td>"));
        let histogram = &html[html
            .find("id=\"table-histogram-heading\"")
            .expect("histogram")..];
        assert!(
            histogram[..300].contains("<details>"),
            "{}",
            &histogram[..300]
        );
    }

    #[test]
    fn the_manifest_is_folded_with_spec_seed_versions_commit_and_speed() {
        let html = page_with(2);
        let run = &html[html.find("id=\"run\"").expect("run details")..];
        assert!(run.contains("<details>"));
        for needle in [
            "# &lt;spec &amp; text&gt;",
            "<dd>7</dd>",
            "<dd>100</dd>",
            "experiment 0.1.0",
            "0123abcd",
            "1.25 s",
            "160 trials/s",
        ] {
            assert!(run.contains(needle), "missing {needle}");
        }
        assert!(html.contains("Does it &lt;end&gt;?"));
    }

    /// The run-facts block at the top of the page.
    fn facts_of(html: &str) -> &str {
        let start = html.find("<dl class=\"facts\">").expect("facts");
        let end = start + html[start..].find("</dl>").expect("end of facts");
        &html[start..end]
    }

    #[test]
    fn the_run_facts_state_the_design_of_the_random_numbers() {
        let independent = page_with(2);
        assert!(
            facts_of(&independent).contains(
                "<dt>random numbers</dt><dd>independent (each variant plays from streams of \
                 its own; comparisons are between independent samples)</dd>"
            ),
            "{}",
            facts_of(&independent)
        );
        let mut common = manifest(2);
        common.random_numbers = crate::design::Design::Common;
        let common = page_of(&common);
        assert!(
            facts_of(&common).contains("<dt>random numbers</dt><dd>common (every variant plays"),
            "{}",
            facts_of(&common)
        );
        assert!(!facts_of(&common).contains("independent"));
    }

    #[test]
    fn a_precision_target_run_states_its_rule_and_the_trials_taken() {
        let mut m = manifest(2);
        m.trials_per_variant = 450;
        m.stop = Some(crate::manifest::ManifestStop {
            metric: "mean_turns".into(),
            target: "±0.5".into(),
            stage_trials: 150,
            max_trials: 3000,
            variant_trials: vec![300, 450],
            reached: vec![true, true],
            guaranteed: vec![true, true],
        });
        let html = page_of(&m);
        let words = "<dt>trials per variant</dt><dd>until the precision target, in stages of \
                     150, at most 3000 (the variants played 300 to 450)</dd>";
        assert!(facts_of(&html).contains(words), "{}", facts_of(&html));
        assert!(
            html.contains("on a run of 750 trials"),
            "the footer counts each variant's"
        );
        let run = &html[html.find("id=\"run\"").expect("run details")..];
        assert!(run.contains(words), "the manifest section too");
        m.trials_per_variant = 300;
        m.stop.as_mut().expect("stop").variant_trials = vec![300, 300];
        assert!(page_of(&m).contains("at most 3000 (every variant played 300)</dd>"));
    }

    #[test]
    fn a_selection_states_its_rule_and_the_trials_taken() {
        let mut m = manifest(2);
        m.trials_per_variant = 600;
        m.select = Some(crate::manifest::ManifestSelect {
            metric: "win_rate".into(),
            goal: "max".into(),
            indifference: 0.005,
            confidence: 0.95,
            stage_trials: 200,
            max_trials: 5000,
            stages: 3,
            selected: "b".into(),
            guaranteed: true,
            variant_trials: vec![200, 600],
            eliminated_at_stage: vec![Some(1), None],
            rinott_trials: 9000,
            equal_trials: 10000,
        });
        let html = page_of(&m);
        let words = "<dt>trials per variant</dt><dd>until the variant is eliminated or the only \
                     one left, in stages of 200, at most 5000 (the variants played 200 to 600)</dd>";
        assert!(facts_of(&html).contains(words), "{}", facts_of(&html));
        assert!(
            html.contains("on a run of 800 trials"),
            "the footer counts each variant's"
        );
    }

    #[test]
    fn the_variant_filter_is_offered_only_for_runs_with_many_variants() {
        assert!(!page_with(2).contains("id=\"variant-filter\""));
        assert!(page_with(FILTER_VARIANTS + 1).contains("id=\"variant-filter\""));
    }

    #[test]
    fn escaping_covers_text_and_attributes() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn slugs_keep_letters_digits_and_underscores() {
        assert_eq!(slug("Results per strategy"), "results-per-strategy");
        assert_eq!(slug("mean_turns (a - b)!"), "mean_turns-a-b");
    }
}
