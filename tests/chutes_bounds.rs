//! Chutes & Ladders rules that push the exact solvers: dice of many sides under exact landing,
//! whose win table once stalled at a rounding floor and looped for ever, and boards whose games
//! last too long to play, refused with their expected length. Every command runs under a
//! timeout, so a hang fails the test instead of stopping the suite.

use std::path::{Path, PathBuf};
use std::time::Duration;

use experiment_chutes::exact::{solo_turns, WinTable};
use experiment_chutes::game::{Board, BoardName, Overshoot, DIE_SIDES};
use predicates::prelude::*;
use rayon::prelude::*;

use crate::common::experiment;

/// Long enough for the slowest case (a 100-sided die: its win table takes some 6 s on a loaded
/// 2-core machine), far shorter than for ever.
const TIMEOUT: Duration = Duration::from_secs(180);

/// Writes a chutes spec with `trials` and the `[params]` lines `params` and returns its path.
fn write_spec(dir: &Path, trials: u64, params: &str) -> PathBuf {
    let path = dir.join("spec.toml");
    let text = format!(
        "version = 1\nname = \"t\"\ngame = \"chutes\"\nseed = 7\ntrials = {trials}\n[params]\n\
         {params}\n"
    );
    std::fs::write(&path, text).expect("write spec");
    path
}

#[test]
fn exact_landing_with_many_sides_validates_runs_and_scales() {
    for sides in [22, 31, 40, 100] {
        let dir = tempfile::tempdir().expect("temp dir");
        let params = format!("die_sides = {sides}\novershoot = \"stays\"");
        let spec = write_spec(dir.path(), 20, &params);
        experiment()
            .arg("validate")
            .arg(&spec)
            .timeout(TIMEOUT)
            .assert()
            .success();
        let out = dir.path().join("out");
        experiment()
            .args(["run", "--quiet", "--threads", "2", "--out"])
            .arg(&out)
            .arg(&spec)
            .timeout(TIMEOUT)
            .assert()
            .success();
        let payoffs = std::fs::read_to_string(out.join("payoffs.csv")).expect("payoffs.csv");
        assert!(payoffs.lines().count() >= 2, "d{sides}: {payoffs}");
        experiment()
            .args(["scale", "--quiet", "--trials-list", "10", "--repeats", "1"])
            .arg(&spec)
            .arg("--out")
            .arg(dir.path().join("scale"))
            .timeout(TIMEOUT)
            .assert()
            .success();
    }
}

/// P(player 1 wins) from the two independent single-player turn distributions (he wins iff he
/// needs no more turns than player 2), a check of the win table by another route.
fn from_turns(board: &Board) -> f64 {
    let solo = solo_turns(board);
    let mut unfinished = 1.0;
    let mut p1 = 0.0;
    for &p in &solo.probs {
        p1 += p * unfinished;
        unfinished -= p;
    }
    p1
}

#[test]
fn the_win_table_solves_for_every_die_and_overshoot_rule() {
    let cases: Vec<(u8, Overshoot)> = DIE_SIDES
        .flat_map(|sides| [(sides, Overshoot::Wins), (sides, Overshoot::Stays)])
        .collect();
    let solved: Vec<String> = cases
        .par_iter()
        .filter_map(|&(sides, overshoot)| {
            // A 1-sided die cycles on the standard board: refused, nothing to solve.
            let board = Board::new(&BoardName::MiltonBradley.jumps(), sides, overshoot).ok()?;
            let win = WinTable::solve(&board)
                .unwrap_or_else(|error| panic!("d{sides} {overshoot:?}: {error}"));
            let (p1, check) = (win.first_player_wins(), from_turns(&board));
            assert!(
                (p1 - check).abs() < 1e-9,
                "d{sides} {overshoot:?}: {p1} vs {check}"
            );
            Some(format!("d{sides} {overshoot:?}"))
        })
        .collect();
    assert_eq!(solved.len(), 2 * 99, "{solved:?}");
}

/// `board = [[3, 1], [5, 1], ...]`: `k` chutes from the odd squares 3 to 2k + 1 back to 1.
fn odd_chutes(k: u8) -> String {
    let jumps: Vec<String> = (1..=k).map(|i| format!("[{}, 1]", 2 * i + 1)).collect();
    format!("board = [{}]\ndie_sides = 2", jumps.join(", "))
}

#[test]
fn boards_whose_games_would_not_end_in_practice_are_refused_with_their_length() {
    // 49 chutes: some 2^51 turns on average; 23: some 2^25. Both beyond the 1000 turns the
    // engine plays a board to, in validate and in run, before any trial.
    for (k, turns) in [(49, "e15 turns on average"), (23, "e7 turns on average")] {
        let dir = tempfile::tempdir().expect("temp dir");
        let spec = write_spec(dir.path(), 1, &odd_chutes(k));
        let refused = || {
            predicate::str::contains("spec.toml:7: a player alone needs")
                .and(predicate::str::contains(turns))
                .and(predicate::str::contains("more than the 1000"))
        };
        experiment()
            .arg("validate")
            .arg(&spec)
            .timeout(TIMEOUT)
            .assert()
            .failure()
            .stderr(refused());
        let out = dir.path().join("out");
        experiment()
            .args(["run", "--quiet", "--out"])
            .arg(&out)
            .arg(&spec)
            .timeout(TIMEOUT)
            .assert()
            .failure()
            .stderr(refused());
        assert!(!out.exists(), "nothing is written");
    }
    // Seven chutes, some 570 turns: within the bound, it validates.
    let dir = tempfile::tempdir().expect("temp dir");
    experiment()
        .arg("validate")
        .arg(write_spec(dir.path(), 1, &odd_chutes(7)))
        .timeout(TIMEOUT)
        .assert()
        .success();
}
