//! The published Chutes & Ladders results, reproduced through the real binary: each spec in
//! `experiments/literature/chutes_*.toml` is run into a temporary folder, the engine's exact
//! value is checked against the published number to the published precision, and the
//! simulated estimate's 95% interval must cover the exact value.

use crate::common::cell_number;
use std::path::Path;

use experiment_chutes::exact::solo_turns;
use experiment_chutes::game::{Board, BoardName, Overshoot};

use crate::common::experiment;
use crate::common::header_and_rows as read_csv;

/// One cell of `base_game.csv`'s single row, as a number.
/// Runs `experiments/literature/<spec>.toml` and checks its single-player game: the exact mean
/// rounds to `published` at `decimals` places, and the simulated mean's 95% interval covers it.
fn reproduces(spec: &str, published: &str, decimals: usize) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    experiment()
        .args([
            "run",
            &format!("experiments/literature/{spec}.toml"),
            "--quiet",
        ])
        .args(["--threads", "2", "--out"])
        .arg(&out)
        .assert()
        .success();
    let (header, rows) = read_csv(&Path::new(&out).join("base_game.csv"));
    let row = &rows[0];
    let exact = cell_number(&header, row, "exact_mean_turns");
    assert_eq!(
        exact,
        cell_number(&header, row, "solo_mean_turns"),
        "{spec}: the base game is the single-player game"
    );
    assert_eq!(
        format!("{exact:.decimals$}"),
        published,
        "{spec}: exact {exact}"
    );
    let (lower, upper) = (
        cell_number(&header, row, "mean_turns_lo"),
        cell_number(&header, row, "mean_turns_hi"),
    );
    assert!(
        lower <= exact && exact <= upper,
        "{spec}: simulated 95% interval {lower} to {upper} misses the exact {exact}"
    );
    assert_eq!(
        cell_number(&header, row, "p1_win_rate"),
        1.0,
        "{spec}: one player"
    );
}

#[test]
fn althoen_king_schilling_1993_one_player_exact_landing() {
    reproduces("chutes_althoen_1993", "39.2251", 4);
}

#[test]
fn possiblywrong_2015_the_48_to_26_board() {
    reproduces("chutes_possiblywrong_2015", "39.5984", 4);
}

#[test]
fn chutes_and_ladders_for_the_impatient_2011_spinner_of_fifteen() {
    reproduces("chutes_impatient_2011", "25.81", 2);
    // The published claim that 1 to 15 is the best range: the exact solver over every spinner
    // from 2 to 100 (a 1-sided spinner never finishes this board and is refused).
    let mean = |sides| {
        let board = Board::new(&BoardName::MiltonBradley.jumps(), sides, Overshoot::Stays);
        solo_turns(&board.expect("valid")).mean
    };
    let best = (2..=100u8)
        .min_by(|&a, &b| mean(a).total_cmp(&mean(b)))
        .expect("spinners");
    assert_eq!(best, 15);
    assert!(Board::new(&BoardName::MiltonBradley.jumps(), 1, Overshoot::Stays).is_err());
}
