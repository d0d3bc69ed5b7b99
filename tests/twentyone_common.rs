//! Twenty-One in the common design when ties push (the mean payoff ranks the rules): the
//! mean-payoff comparisons are paired t-tests on the same shoes, each against the rule the
//! paired summary compares with, carrying their correlation and variance ratio, and their
//! intervals hold the exact differences from enumeration.

use crate::common::{experiment, header_and_rows};
use experiment_twentyone::exact::Solver;
use experiment_twentyone::game::{Rules, Strategy, Ties};

#[test]
fn mean_payoff_comparisons_are_paired_and_cover_the_exact_differences() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = dir.path().join("push.toml");
    std::fs::write(
        &spec,
        "version = 1\nname = \"push_common\"\ngame = \"twentyone\"\nseed = 5\ntrials = 200_000\n\
         [params]\ntie = \"push\"\n[sweep]\nstand_at = [13, 15, 17]\n[design]\n\
         random_numbers = \"common\"\n",
    )
    .expect("spec");
    let out = dir.path().join("out");
    experiment()
        .arg("run")
        .arg(&spec)
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let (names, rows) = header_and_rows(&out.join("comparisons.csv"));
    let col = |name: &str| names.iter().position(|n| n == name).expect(name);
    let payoff: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r[col("family")] == "mean_payoff")
        .collect();
    assert_eq!(payoff.len(), 3, "every pair of three rules: {rows:?}");
    let rules = Rules {
        tie: Ties::Push,
        ..Rules::default()
    };
    let solver = Solver::with_rules(rules);
    let exact = |name: &str| {
        let n: u16 = name.trim_start_matches("stand_at-").parse().expect("N");
        solver.outcome(&Strategy::StandAt(n)).mean_payoff(&rules)
    };
    for row in payoff {
        assert_eq!(row[col("test")], "paired t", "{row:?}");
        let ratio: f64 = row[col("variance_ratio")].parse().expect("a ratio");
        assert!(ratio > 1.0, "common shoes help: {row:?}");
        let difference = exact(&row[col("a")]) - exact(&row[col("b")]);
        let lo: f64 = row[col("effect_lo")].parse().expect("lo");
        let hi: f64 = row[col("effect_hi")].parse().expect("hi");
        assert!(
            lo <= difference && difference <= hi,
            "{difference} outside {row:?}"
        );
    }
}
