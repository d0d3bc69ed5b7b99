//! Twenty-One when ties push (experiments/literature/twentyone_push.toml): the best standing
//! total and the player's edge there. No published figure for this exact game was found, so the
//! reference is the engine's exact enumeration, stated in the spec: stand_at 15, mean payoff
//! -0.074395 per game. The run's exact values must give that to its precision, and the
//! simulated mean payoffs of the ten rules must cover their exact values with 95% confidence
//! for the sweep as a whole: each rule's Bonferroni interval at 1 - 0.05/10, widened from its
//! reported 95% interval by the ratio of the normal quantiles (2,000,000 games each, so the
//! t and normal quantiles agree to many digits).

use std::path::Path;

use experiment_engine::stats::distributions::normal_quantile;

use crate::common::{experiment, numbers, read_csv, texts};

/// The reference answer, as the spec's comment states it (six decimals).
const BEST: &str = "stand_at-15";
const EDGE: f64 = -0.074395;

#[test]
fn the_best_standing_total_when_ties_push_is_fifteen_exactly_and_the_simulation_covers_it() {
    let out = tempfile::tempdir().expect("a temp dir");
    let spec =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/literature/twentyone_push.toml");
    experiment()
        .arg("run")
        .arg(&spec)
        .arg("--quiet")
        .arg("--out")
        .arg(out.path())
        .assert()
        .success();
    let summary = read_csv(&out.path().join("summary.csv"));
    let variants = texts(&summary, "variant");
    let expected: Vec<String> = (12..=21).map(|n| format!("stand_at-{n}")).collect();
    assert_eq!(variants, expected);
    assert!(texts(&summary, "tie").iter().all(|t| t == "push"));
    let exact = numbers(&summary, "exact_mean_payoff");
    let best = (0..exact.len())
        .max_by(|&a, &b| exact[a].total_cmp(&exact[b]))
        .expect("ten rules");
    assert_eq!(variants[best], BEST, "exact mean payoffs {exact:?}");
    assert_eq!(format!("{:.6}", exact[best]), format!("{EDGE:.6}"));
    // Family-wise 95% over the ten rules: each exact value inside its 99.5% interval.
    let (lo, hi) = (
        numbers(&summary, "mean_payoff_lo"),
        numbers(&summary, "mean_payoff_hi"),
    );
    let widen = normal_quantile(1.0 - 0.05 / 20.0) / normal_quantile(0.975);
    for i in 0..variants.len() {
        let (centre, half) = ((lo[i] + hi[i]) / 2.0, (hi[i] - lo[i]) / 2.0 * widen);
        assert!(
            (exact[i] - centre).abs() <= half,
            "{}: simulated interval {centre} ± {half} misses the exact {}",
            variants[i],
            exact[i]
        );
    }
    // The comparisons rank by mean payoff, each rule against the simulated best.
    let comparisons = read_csv(&out.path().join("comparisons.csv"));
    let families = texts(&comparisons, "family");
    assert_eq!(families.iter().filter(|f| *f == "mean_payoff").count(), 9);
    let report = std::fs::read_to_string(out.path().join("report.md")).expect("report.md");
    assert!(
        report.contains(
            "Exactly, `stand_at-15` is the best stand_at N rule run here (-0.07440 per game)"
        ),
        "{report}"
    );
}

#[test]
fn the_exact_command_names_the_same_best_total_and_edge_when_ties_push() {
    let output = experiment()
        .args(["exact", "twentyone", "--tie", "push"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).expect("UTF-8");
    assert!(text.contains("ties push (payoff 0)"), "{text}");
    assert!(
        text.contains(&format!(
            "Best stand_at rule: {BEST} (win 0.419513, mean payoff {EDGE:.6})"
        )),
        "{text}"
    );
}
