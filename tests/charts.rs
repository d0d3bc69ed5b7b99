//! The charts a run writes, read from their SVG text: axis titles that say what is drawn and
//! legends that name what the colours mean.

mod common;

use std::fs;
use std::path::Path;

use common::experiment;

/// Runs `spec` with a few trials into a temporary folder and returns the folder.
fn run(spec: &str, trials: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    experiment()
        .args(["run", spec, "--trials", trials, "--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    dir
}

/// The texts of every `<text>` element of an SVG file.
fn texts(path: &Path) -> Vec<String> {
    let svg = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            t.split_once('>')
                .and_then(|(_, rest)| rest.split_once("</text>"))
        })
        .map(|(text, _)| text.trim().to_string())
        .collect()
}

#[test]
fn histogram_axes_name_the_share_and_the_binned_quantity() {
    let dir = run("experiments/war_placement.toml", "300");
    let texts = texts(&dir.path().join("game_length.svg"));
    let y_label = texts
        .iter()
        .find(|t| t.starts_with("share of finished games"))
        .unwrap_or_else(|| panic!("no y axis title in {texts:?}"));
    assert!(
        y_label == "share of finished games" || y_label.contains(" per bin of "),
        "{y_label}"
    );
    assert!(!texts.iter().any(|t| t.contains("per turns")), "{texts:?}");
    assert!(texts.iter().any(|t| t.starts_with("turns")), "{texts:?}");
}

#[test]
fn the_landing_chart_has_a_colour_legend_with_card_squares_apart_from_properties() {
    let dir = run("experiments/monopoly_landing.toml", "50");
    let texts = texts(&dir.path().join("landing.svg"));
    for label in [
        "Chance / Community Chest",
        "railroads",
        "utilities",
        "taxes",
        "light blue",
        "dark blue",
    ] {
        assert!(texts.iter().any(|t| t == label), "no {label} in {texts:?}");
    }
    assert!(
        texts.iter().any(|t| t.starts_with("corners (Go, Jail")),
        "{texts:?}"
    );
}
