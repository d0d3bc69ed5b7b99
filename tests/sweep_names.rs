//! Variants of a sweep are named so that a report's "`x` wins" says what `x` is: a swept number
//! carries its key (`stand_at-12`), a swept choice is its own name (`winner_first`).

mod common;

use common::experiment;

fn validate(game_and_params: &str, sweep: &str) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("sweep.toml");
    std::fs::write(
        &path,
        format!(
            "version = 1\nname = \"sweep\"\nseed = 1\ntrials = 10\n{game_and_params}\n\
             [sweep]\n{sweep}"
        ),
    )
    .expect("write spec");
    let out = experiment()
        .arg("validate")
        .arg(&path)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Twenty-One playing `stand_at`, with the sweep to come.
const TWENTYONE: &str = "game = \"twentyone\"\n[params]\nstrategy = \"stand_at\"";

fn names(listing: &str) -> Vec<String> {
    listing
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().nth(1).map(str::to_string))
        .collect()
}

#[test]
fn a_swept_number_is_named_with_its_key() {
    assert_eq!(
        names(&validate(TWENTYONE, "stand_at = [12, 17]\n")),
        ["stand_at-12", "stand_at-17"]
    );
    assert_eq!(
        names(&validate(TWENTYONE, "probability = [0.15, 0.5]\n")),
        ["probability-0.15", "probability-0.5"]
    );
}

#[test]
fn swept_choices_keep_their_names_and_pieces_join_in_sweep_order() {
    assert_eq!(
        names(&validate(
            "game = \"war\"",
            "placement = [\"winner_first\", \"random\"]\nmax_turns = [100, 200]\n"
        )),
        [
            "winner_first-max_turns-100",
            "winner_first-max_turns-200",
            "random-max_turns-100",
            "random-max_turns-200"
        ]
    );
}
