//! The charts a run writes, read from their SVG text: axis titles that say what is drawn and
//! legends that name what the colours mean.

use std::fs;
use std::path::Path;

use crate::common::experiment;

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

/// The `y` of the `<text>` element whose text is `label`, for each such element.
fn text_ys(path: &Path, label: &str) -> Vec<f64> {
    let svg = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = svg.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[1].trim() == label && w[0].contains("<text"))
        .filter_map(|w| w[0].split(" y=\"").nth(1)?.split('"').next()?.parse().ok())
        .collect()
}

#[test]
fn twelve_variants_get_twelve_legend_entries_under_the_x_axis() {
    let dir = run("tests/specs/good/war_sweep_12.toml", "50");
    let chart = dir.path().join("game_length.svg");
    let texts = texts(&chart);
    let title = texts
        .iter()
        .find(|t| t.starts_with("turns"))
        .unwrap_or_else(|| panic!("no x axis title in {texts:?}"));
    let axis = text_ys(&chart, title)[0];
    for placement in [
        "winner_first",
        "loser_first",
        "random",
        "high_first",
        "low_first",
        "player1_first",
    ] {
        for face_down in [1, 3] {
            let label = format!("{placement}-face_down-{face_down}");
            let ys = text_ys(&chart, &label);
            assert_eq!(ys.len(), 1, "one legend entry for {label}");
            assert!(
                ys[0] > axis,
                "{label} at y = {} above the axis title",
                ys[0]
            );
        }
    }
}

#[test]
fn twenty_one_charts_zoom_on_the_best_rules_beside_the_whole_range() {
    let dir = run("experiments/twentyone_thresholds.toml", "2000");
    let texts = texts(&dir.path().join("win_rate.svg"));
    for title in [
        "stand_at N: hit below N",
        "N near the best, zoomed",
        "probability p: hit while P(no bust) &gt;= p",
        "p near the best, zoomed",
    ] {
        assert!(texts.iter().any(|t| t == title), "no {title} in {texts:?}");
    }
}
