//! Grouped comparisons (`[compare] within`): a War sweep of `placement` × `face_down` compares
//! only the variants with equal `face_down`, Holm runs over exactly those pairs, and every
//! side's swept parameters are in `comparisons.csv`; in both designs, and the same tables
//! however the run is played; unknown names are refused with their line and the choices.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::Path;

use crate::common::runs::{
    assert_same_files, merge_quietly, run_quietly, shard_as_checkpoint, tables, write,
};
use crate::common::{experiment, numbers, read_csv, texts};
use predicates::prelude::*;

const PLACEMENTS: [&str; 6] = [
    "winner_first",
    "loser_first",
    "random",
    "high_first",
    "low_first",
    "player1_first",
];

/// A War spec sweeping every placement × `face_down` 1 and 3, in `design`, with the given
/// `[compare]` table.
fn spec(design: &str, compare: &str) -> String {
    let placements: Vec<String> = PLACEMENTS.iter().map(|p| format!("\"{p}\"")).collect();
    format!(
        "version = 1\nname = \"war_within\"\ngame = \"war\"\nseed = 33\ntrials = 400\n\n\
         [params]\nmax_turns = 2000\n\n[sweep]\nplacement = [{}]\nface_down = [1, 3]\n\n\
         [design]\nrandom_numbers = \"{design}\"\n\n{compare}",
        placements.join(", ")
    )
}

const WITHIN: &str = "[compare]\nwithin = [\"face_down\"]\n";

/// Holm's step-down adjustment, written out again from its definition: the i-th smallest of
/// m p-values times (m − i), capped at 1 and made monotone.
fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![0.0; p.len()];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((p.len() - rank) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Checks the comparisons of a grouped run in `folder` against its `summary.csv`: only
/// pairs with equal face_down, every such pair once per family, Holm recomputed over exactly
/// those rows, and the a_/b_ columns the variants' own parameters. Returns the families.
fn check_grouped(folder: &Path) -> Vec<String> {
    let summary = read_csv(&folder.join("summary.csv"));
    let names = texts(&summary, "variant");
    let placement: HashMap<String, String> = names
        .iter()
        .cloned()
        .zip(texts(&summary, "strategy")) // War's summary names placement `strategy`
        .collect();
    let face_down: HashMap<String, f64> = names
        .iter()
        .cloned()
        .zip(numbers(&summary, "face_down"))
        .collect();
    assert_eq!(names.len(), 12);

    let comparisons = read_csv(&folder.join("comparisons.csv"));
    let columns: Vec<String> = crate::common::header(&comparisons);
    let tail = &columns[columns.len() - 4..];
    assert_eq!(
        tail,
        ["a_placement", "a_face_down", "b_placement", "b_face_down"]
    );
    assert_eq!(
        comparisons.column("a_face_down").expect("column").dtype(),
        &polars::prelude::DataType::Int64,
        "a whole-number parameter is a number column"
    );
    let family = texts(&comparisons, "family");
    let (a, b) = (texts(&comparisons, "a"), texts(&comparisons, "b"));
    let (p, p_holm) = (
        numbers(&comparisons, "p_value"),
        numbers(&comparisons, "p_holm"),
    );
    let (a_placement, b_placement) = (
        texts(&comparisons, "a_placement"),
        texts(&comparisons, "b_placement"),
    );
    let (a_face, b_face) = (
        numbers(&comparisons, "a_face_down"),
        numbers(&comparisons, "b_face_down"),
    );
    let mut by_family: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for row in 0..family.len() {
        assert_eq!(
            face_down[&a[row]], face_down[&b[row]],
            "{} and {} differ in face_down",
            a[row], b[row]
        );
        assert_eq!(a_placement[row], placement[&a[row]]);
        assert_eq!(b_placement[row], placement[&b[row]]);
        assert_eq!(a_face[row], face_down[&a[row]]);
        assert_eq!(b_face[row], face_down[&b[row]]);
        by_family.entry(family[row].clone()).or_default().push(row);
    }
    assert!(!by_family.is_empty());
    for (name, rows) in &by_family {
        // Two groups of 6: 2 × 6·5/2 pairs, each once.
        assert_eq!(rows.len(), 2 * 15, "family {name}");
        let mut pairs: Vec<(String, String)> =
            rows.iter().map(|&r| (a[r].clone(), b[r].clone())).collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 30, "family {name}: a pair twice");
        let tested: Vec<usize> = rows.iter().copied().filter(|&r| !p[r].is_nan()).collect();
        let expected = holm(&tested.iter().map(|&r| p[r]).collect::<Vec<_>>());
        for (&r, want) in tested.iter().zip(expected) {
            assert!(
                (p_holm[r] - want).abs() <= 1e-12 * want.max(1e-300),
                "family {name}, {} vs {}: p_holm {} but Holm over the 30 pairs gives {want}",
                a[r],
                b[r],
                p_holm[r]
            );
        }
    }
    let report = fs::read_to_string(folder.join("report.md")).expect("report");
    assert!(
        report.contains("Compared within equal `face_down`: 30 pairs in 2 groups"),
        "{report}"
    );
    by_family.into_keys().collect()
}

#[test]
fn an_independent_run_compares_only_variants_with_equal_face_down() {
    let dir = tempfile::tempdir().expect("temp dir");
    let grouped = write(dir.path(), "grouped.toml", &spec("independent", WITHIN));
    let out = dir.path().join("grouped");
    run_quietly(experiment, &grouped, &out, &[]);
    let families = check_grouped(&out);
    assert!(families.contains(&"mean_turns".to_string()), "{families:?}");
    let manifest = fs::read_to_string(out.join("manifest.json")).expect("manifest");
    assert!(
        manifest.contains("\"compare_within\": [\n    \"face_down\"\n  ]"),
        "{manifest}"
    );

    // Without [compare] every one of the 66 pairs is compared, with the same columns.
    let all = write(dir.path(), "all.toml", &spec("independent", ""));
    let every = dir.path().join("all");
    run_quietly(experiment, &all, &every, &[]);
    let comparisons = read_csv(&every.join("comparisons.csv"));
    let family = texts(&comparisons, "family");
    let rows = family.iter().filter(|f| *f == "mean_turns").count();
    assert_eq!(rows, 66);
    assert!(crate::common::header(&comparisons).contains(&"b_face_down".to_string()));
    let manifest = fs::read_to_string(every.join("manifest.json")).expect("manifest");
    assert!(!manifest.contains("compare_within"), "{manifest}");
    // An empty list groups nothing.
    let empty = write(
        dir.path(),
        "empty.toml",
        &spec("independent", "[compare]\nwithin = []\n"),
    );
    let none = dir.path().join("empty");
    run_quietly(experiment, &empty, &none, &[]);
    assert_same_files(
        &[(
            "comparisons.csv".into(),
            fs::read(every.join("comparisons.csv")).expect("csv"),
        )],
        &[(
            "comparisons.csv".into(),
            fs::read(none.join("comparisons.csv")).expect("csv"),
        )],
        "within = [] and no [compare]",
    );
}

#[test]
fn a_common_run_keeps_only_the_grouped_pairs_and_gives_the_same_tables_every_way() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec_path = write(dir.path(), "spec.toml", &spec("common", WITHIN));
    let reference = dir.path().join("reference");
    run_quietly(experiment, &spec_path, &reference, &["--threads", "1"]);
    // A common design compares the per-trial paired metrics only: War's endless games.
    assert_eq!(check_grouped(&reference), ["nonterminating_rate"]);

    // Two shards, merged; and shard 0 as the checkpoint of an interrupted run, resumed.
    let shards = dir.path().join("shards");
    for (index, threads) in [("0/2", "1"), ("1/2", "2")] {
        run_quietly(
            experiment,
            &spec_path,
            &shards,
            &["--shard", index, "--threads", threads],
        );
    }
    let shard_file = fs::read_to_string(shards.join("shard-0-of-2.json")).expect("shard");
    // The paired statistics keep the 30 compared pairs only, listed.
    assert!(shard_file.contains("listed"), "the pairs are written out");
    let merged = dir.path().join("merged");
    merge_quietly(experiment, &shards, &merged);
    assert_same_files(&tables(&reference), &tables(&merged), "2 shards merged");
    let resumed = dir.path().join("resumed");
    fs::write(
        dir.path().join("resumed.checkpoint.json"),
        shard_as_checkpoint(&shard_file, 2),
    )
    .expect("checkpoint");
    run_quietly(
        experiment,
        &spec_path,
        &resumed,
        &["--resume", "--threads", "2"],
    );
    assert_same_files(&tables(&reference), &tables(&resumed), "resumed");
}

#[test]
fn validate_states_the_grouping_and_refuses_names_the_variants_do_not_vary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = write(dir.path(), "good.toml", &spec("independent", WITHIN));
    experiment()
        .arg("validate")
        .arg(&good)
        .assert()
        .success()
        .stdout(predicate::str::contains("compare: within equal face_down"));
    // The [compare] table starts on line 17 of the spec; within is on line 18.
    let cases = [
        (
            "[compare]\nwithin = [\"facedown\"]\n",
            "18: unknown parameter 'facedown' in [compare] within for game 'war' (expected \
             one of the parameters the variants vary: placement, face_down)",
        ),
        (
            "[compare]\nwithin = [\"max_turns\"]\n",
            "18: 'max_turns' in [compare] within has the same value in every variant, so it \
             groups nothing (expected one of the parameters the variants vary: placement, \
             face_down)",
        ),
        (
            "[compare]\nwithin = [\"face_down\", \"face_down\"]\n",
            "18: 'face_down' is listed twice in [compare] within: list it once",
        ),
        (
            "[compare]\nwithin = \"face_down\"\n",
            "18: within in [compare] must be a list of parameter names, not the string \
             'face_down'",
        ),
        (
            "[compare]\nby = [\"face_down\"]\n",
            "18: unknown key 'by' in [compare] (expected one of: within)",
        ),
    ];
    for (compare, message) in cases {
        let bad = write(dir.path(), "bad.toml", &spec("independent", compare));
        experiment()
            .arg("validate")
            .arg(&bad)
            .assert()
            .failure()
            .code(1)
            .stderr(format!("Error: {}:{message}\n", bad.display()));
    }
}

#[test]
fn chutes_refuses_a_grouping_of_its_variants() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write(
        dir.path(),
        "chutes.toml",
        "version = 1\nname = \"c\"\ngame = \"chutes\"\nseed = 1\ntrials = 10\n\n[sweep]\n\
         first = [\"never\", \"always\"]\nsecond = [\"never\", \"always\"]\n\n[compare]\n\
         within = [\"first\"]\n",
    );
    experiment()
        .arg("validate")
        .arg(&spec)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "game 'chutes' compares strategies, not variants, so [compare] within cannot \
             group its comparisons",
        ));
}
