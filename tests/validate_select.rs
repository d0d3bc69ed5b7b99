//! `experiment validate` refuses what `run` refuses before playing: a `[select]` over fewer
//! than 2 or more than 100 variants, at the `[select]` table's line, with the same message
//! (one check serves both commands). The spec files are the bad specs whose `# expect:` line
//! `tests/cli.rs` holds `validate` to.

use std::path::Path;

use crate::common::experiment;

/// What `experiment ARGS` prints on standard error, having failed with status 1.
fn refusal(args: &[&str], out: Option<&Path>) -> String {
    let mut command = experiment();
    command.args(args);
    if let Some(out) = out {
        command.args(["--quiet", "--out"]).arg(out);
    }
    let output = command.output().expect("runs");
    assert_eq!(output.status.code(), Some(1), "{args:?}: {output:?}");
    String::from_utf8(output.stderr).expect("UTF-8")
}

#[test]
fn validate_and_run_refuse_a_selection_over_1_or_101_variants_alike() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (spec, line, count) in [
        ("tests/specs/bad/select_over_one_variant.toml", 11, 1),
        ("tests/specs/bad/select_over_101_variants.toml", 10, 101),
    ] {
        let validated = refusal(&["validate", spec], None);
        assert!(
            validated.starts_with(&format!(
                "Error: {spec}:{line}: [select] chooses among 2 to 100 variants, and this run \
                 has {count}: "
            )),
            "{validated}"
        );
        let out = dir.path().join("out");
        let ran = refusal(&["run", spec], Some(&out));
        assert_eq!(ran, validated);
        assert!(!out.exists(), "{spec}: run wrote {}", out.display());
    }
}

#[test]
fn a_selection_over_2_or_100_variants_validates_and_run_counts_what_variant_chose() {
    let dir = tempfile::tempdir().expect("temp dir");
    let hundred = dir.path().join("hundred.toml");
    let text = std::fs::read_to_string("tests/specs/bad/select_over_101_variants.toml")
        .expect("the bad spec");
    std::fs::write(&hundred, text.replace("to = 101", "to = 100")).expect("write");
    let output = experiment()
        .arg("validate")
        .arg(&hundred)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("100 variants:"));
    // Two of the 101 chosen with --variant make a selection `run` plays.
    let out = dir.path().join("two");
    experiment()
        .args(["run", "tests/specs/bad/select_over_101_variants.toml"])
        .args(["--variant", "turns-1", "--variant", "turns-2", "--quiet"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("selection.csv").is_file());
    // One chosen is refused at the table's line.
    let said = refusal(
        &[
            "run",
            "tests/specs/bad/select_over_101_variants.toml",
            "--variant",
            "turns-7",
        ],
        Some(&dir.path().join("one")),
    );
    assert!(
        said.contains(":10: [select] chooses among 2 to 100 variants, and this run has 1: "),
        "{said}"
    );
}
