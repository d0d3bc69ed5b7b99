//! War with a 52 × 1 deck against Spivey, "Cycles in War", INTEGERS 10 (2010), #G02: the
//! published cycling deal cycles in the engine, and the literature spec
//! (`experiments/literature/war_no_ties.toml`) has no war at all and a fair game.

use std::path::Path;

use experiment_engine::rng::trial_rng;
use experiment_war::game::{OutOfCards, Placement, Rules, War, WarResult, WarState};

/// The paper's deal of a 52-card deck that cycles, as printed: player 1's hand, then player
/// 2's, top card first.
const SPIVEY_ONE: [u8; 26] = [
    26, 46, 1, 7, 8, 27, 9, 28, 29, 47, 2, 10, 11, 30, 12, 31, 32, 48, 3, 13, 14, 33, 15, 34, 35,
    49,
];
const SPIVEY_TWO: [u8; 26] = [
    16, 36, 17, 37, 38, 50, 4, 18, 19, 39, 20, 40, 41, 51, 5, 21, 22, 42, 23, 43, 44, 52, 6, 24,
    25, 45,
];

const NO_TIES: Rules = Rules {
    ranks: 52,
    suits: 1,
    face_down: 3,
    out_of_cards: OutOfCards::Loses,
};

/// The paper's card `c` in the engine, whose rank 52 is the highest: the deal returns to itself
/// read with card 1 as the strongest (read with 1 as the weakest, player 2 wins it in 276
/// turns).
fn engine_card(c: u8) -> u8 {
    53 - c
}

#[test]
fn the_published_52_card_deal_cycles_from_the_deal_on_in_over_30000_turns() {
    let hands = |cards: &[u8; 26]| cards.map(engine_card);
    let start = WarState::from_hands(&hands(&SPIVEY_ONE), &hands(&SPIVEY_TWO));
    let war = War {
        placement: Placement::WinnerFirst,
        max_turns: 1_000_000,
        rules: NO_TIES,
    };
    let outcome = war.play_from(start, &mut trial_rng(1, 0, 0));
    let WarResult::Cycled { entry_turn, period } = outcome.result else {
        panic!("the published deal should cycle: {outcome:?}");
    };
    // "It takes over 30,000 battles for the deck to return to this ordering."
    assert_eq!(entry_turn, 0, "the deal itself lies on the cycle");
    assert!(period > 30_000, "period {period}");
    assert_eq!(period, 31_920);
    assert_eq!(outcome.wars, 0);
    // Replayed turn by turn: back to the deal after exactly the period, and not before.
    let mut state = start;
    let mut rng = trial_rng(1, 0, 0);
    for turn in 1..=period {
        state.play_turn_by(&NO_TIES, Placement::WinnerFirst, &mut rng);
        assert_eq!(state == start, turn == period, "turn {turn}");
    }
}

#[test]
fn the_no_ties_spec_plays_no_war_and_a_fair_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let spec =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/literature/war_no_ties.toml");
    crate::common::experiment()
        .arg("run")
        .arg(&spec)
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let summary = crate::common::read_csv(&out.join("summary.csv"));
    let header = crate::common::header(&summary);
    // The deck is a changed rule: the table says so.
    for rule in ["ranks", "suits"] {
        assert!(header.iter().any(|h| h == rule), "{header:?}");
    }
    let variants = crate::common::texts(&summary, "variant");
    assert_eq!(variants.len(), 3);
    let number = |name: &str| crate::common::numbers(&summary, name);
    let (games, finished) = (number("games"), number("finished"));
    let (share, lo, hi) = (
        number("p1_win_share_of_decided"),
        number("p1_win_share_of_decided_lo"),
        number("p1_win_share_of_decided_hi"),
    );
    for (i, variant) in variants.iter().enumerate() {
        // Exact: distinct ranks never tie, so no war and no draw (a draw needs a war).
        assert_eq!(number("mean_wars")[i], 0.0, "{variant}");
        assert_eq!(number("max_wars")[i], 0.0, "{variant}");
        assert_eq!(number("draws")[i], 0.0, "{variant}");
        assert_eq!(games[i], 1_000_000.0, "{variant}");
        assert!(finished[i] > 0.0, "{variant}");
        // Exact by symmetry: the deal and these placements treat both players alike, so player
        // 1 wins exactly half of the games won by either player in expectation; the 95%
        // interval covers it.
        assert!(
            lo[i] <= 0.5 && 0.5 <= hi[i],
            "{variant}: share {} ({} to {})",
            share[i],
            lo[i],
            hi[i]
        );
    }
}
