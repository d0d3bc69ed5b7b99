//! Monopoly's report for subsets of its variants: a shuffled-deck variant is only pointed at a
//! with-replacement variant to compare it with when one ran.

use std::path::Path;

/// The report of `experiments/monopoly_landing.toml` run with `variants` (40 games each).
fn report(variants: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/monopoly_landing.toml");
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
    std::fs::read_to_string(out.join("report.md")).expect("report.md")
}

/// The line of the `## Simulated against the exact chain` section about `variant`.
fn chain_line(report: &str, variant: &str) -> String {
    let section = &report[report
        .find("## Simulated against the exact chain")
        .unwrap_or_else(|| panic!("no chain section in\n{report}"))..];
    section
        .lines()
        .find(|line| line.starts_with(&format!("- `{variant}`")))
        .unwrap_or_else(|| panic!("no line on {variant} in\n{section}"))
        .to_string()
}

#[test]
fn a_shuffled_deck_alone_is_not_sent_to_a_with_replacement_variant_that_did_not_run() {
    let text = report(&["long_stay-shuffled_deck"]);
    let line = chain_line(&text, "long_stay-shuffled_deck");
    assert!(!line.contains("variant below"), "{line}");
    assert!(
        line.contains("no variant of this run draws cards with replacement"),
        "{line}"
    );
    // Nor beside a with-replacement variant under the other jail rule.
    let text = report(&["long_stay-shuffled_deck", "short_stay-with_replacement"]);
    let line = chain_line(&text, "long_stay-shuffled_deck");
    assert!(!line.contains("variant below"), "{line}");
}

#[test]
fn a_shuffled_deck_beside_its_with_replacement_variant_is_compared_with_it() {
    let text = report(&["long_stay-shuffled_deck", "long_stay-with_replacement"]);
    let line = chain_line(&text, "long_stay-shuffled_deck");
    assert!(
        line.contains("compare it with the with-replacement variant below"),
        "{line}"
    );
    assert!(text.contains("## Comparisons between variants"), "{text}");
    assert!(!text.contains("Only one variant ran"), "{text}");
}
