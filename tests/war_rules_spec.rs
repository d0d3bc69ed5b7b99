//! War's rules from a spec: decks that cannot be played are refused where they are written, a
//! changed rule becomes a column of the tables, and a rule written at its default changes
//! nothing.

use std::path::Path;

/// A small War spec named `name` with `body` after its header.
fn write_spec(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text =
        format!("version = 1\nname = \"{name}\"\ngame = \"war\"\nseed = 3\ntrials = 400\n\n{body}");
    std::fs::write(&path, text).expect("spec written");
    path
}

/// Runs `spec` into `out`, expecting success.
fn run(spec: &Path, out: &Path) {
    crate::common::experiment()
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--out"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn a_deck_that_cannot_be_dealt_evenly_or_does_not_fit_is_refused_at_its_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = [
        (
            "odd_deck",
            "[params]\nranks = 13\nsuits = 3\n",
            ":9: a deck of ranks × suits = 13 × 3 = 39 cards cannot be dealt evenly",
        ),
        (
            "big_deck",
            "[sweep]\nsuits = [2, 5]\n",
            ":8: a deck of ranks × suits = 13 × 5 = 65 cards: the engine holds 2 to 52",
        ),
        (
            "many_down",
            "[params]\nface_down = 6\n",
            ":8: face_down = 6 is out of range (expected a whole number from 0 to 5)",
        ),
        (
            "no_such_rule",
            "[params]\nout_of_cards = \"keeps\"\n",
            "loses, last_card",
        ),
    ];
    for (name, body, expected) in cases {
        let spec = write_spec(dir.path(), name, body);
        let out = dir.path().join(format!("{name}-out"));
        let assert = crate::common::experiment()
            .arg("run")
            .arg(&spec)
            .arg("--out")
            .arg(&out)
            .assert()
            .failure();
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
        assert!(
            stderr.contains(&format!("{name}.toml")) && stderr.contains(expected),
            "{name}: {stderr}"
        );
        assert!(!out.exists(), "{name}: nothing is written");
    }
}

#[test]
fn changed_rules_are_columns_of_the_tables_and_name_the_variants() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write_spec(
        dir.path(),
        "one_down",
        "[params]\nout_of_cards = \"last_card\"\nmax_turns = 3000\n\n[sweep]\nface_down = [1, 3]\n",
    );
    let out = dir.path().join("out");
    run(&spec, &out);
    let summary = crate::common::read_csv(&out.join("summary.csv"));
    let header = crate::common::header(&summary);
    for rule in ["face_down", "out_of_cards"] {
        assert!(header.iter().any(|h| h == rule), "{rule} in {header:?}");
    }
    for unchanged in ["ranks", "suits"] {
        assert!(!header.iter().any(|h| h == unchanged), "{header:?}");
    }
    assert_eq!(
        crate::common::texts(&summary, "variant"),
        ["face_down-1", "face_down-3"]
    );
    assert_eq!(crate::common::numbers(&summary, "face_down"), [1.0, 3.0]);
    assert_eq!(
        crate::common::texts(&summary, "out_of_cards"),
        ["last_card", "last_card"]
    );
    // The study's own results table, in the report, shows them too.
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains("| strategy | face_down | out_of_cards | games |"),
        "{report}"
    );
}

#[test]
fn rules_written_at_their_defaults_change_no_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sweep = "[sweep]\nplacement = [\"winner_first\", \"player1_first\"]\n";
    let plain = write_spec(
        dir.path(),
        "plain",
        &format!("[params]\nmax_turns = 2000\n\n{sweep}"),
    );
    let written = write_spec(
        dir.path(),
        "written",
        &format!(
            "[params]\nmax_turns = 2000\nranks = 13\nsuits = 4\nface_down = 3\n\
             out_of_cards = \"loses\"\n\n{sweep}"
        ),
    );
    let (plain_out, written_out) = (dir.path().join("plain-out"), dir.path().join("written-out"));
    run(&plain, &plain_out);
    run(&written, &written_out);
    for table in [
        "summary.csv",
        "histogram.csv",
        "cycles.csv",
        "comparisons.csv",
    ] {
        let read = |dir: &Path| std::fs::read(dir.join(table)).expect("table");
        assert!(read(&plain_out) == read(&written_out), "{table} differs");
    }
}
