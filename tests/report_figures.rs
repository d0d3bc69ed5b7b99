//! Every chart a report shows was drawn: each shipped spec run with its first variant alone and
//! whole, and every `![caption](stem.png)` of its report checked against the files written.

use std::path::Path;

use crate::common::shipped_specs;

/// The first variant `validate` lists for `spec`.
fn first_variant(spec: &Path) -> String {
    let output = crate::common::experiment()
        .arg("validate")
        .arg(spec)
        .output()
        .expect("validate runs");
    assert!(output.status.success(), "{} is not valid", spec.display());
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    text.lines()
        .skip(1)
        .filter(|line| line.starts_with("  "))
        .find_map(|line| line.split_whitespace().nth(1).map(str::to_string))
        .expect("a variant")
}

/// The images `report` shows, by file name.
fn figures(report: &str) -> Vec<String> {
    report
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|target| target.ends_with(".png"))
        .map(str::to_string)
        .collect()
}

fn check(spec: &Path, variants: &[&str]) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let mut command = crate::common::experiment();
    command
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--trials", "40", "--out"])
        .arg(&out);
    for variant in variants {
        command.args(["--variant", variant]);
    }
    command.assert().success();
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    for figure in figures(&report) {
        assert!(
            out.join(&figure).exists(),
            "{} {variants:?}: the report shows {figure}, which was not drawn",
            spec.display()
        );
    }
}

#[test]
fn every_figure_a_report_shows_exists_for_one_variant_and_for_all() {
    for spec in shipped_specs() {
        let first = first_variant(&spec);
        check(&spec, &[&first]);
        check(&spec, &[]);
    }
}

#[test]
fn twenty_one_with_optimal_play_alone_shows_no_win_rate_chart() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/twentyone_thresholds.toml");
    check(&spec, &["optimal"]);
}
