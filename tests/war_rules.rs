//! War's rules as parameters, in the engine: cards are conserved whatever the deck and rules,
//! scripted deals play out exactly under one card face down and the last-card rule, a deck
//! without ties has no wars, and cycle detection stays exact when a turn can move an even
//! number of cards.

use experiment_engine::games::Game;
use experiment_engine::rng::{trial_rng, TrialRng};
use experiment_war::game::{
    OutOfCards, Placement, Player, Rules, TurnOutcome, War, WarOutcome, WarResult, WarState,
};

fn rng() -> TrialRng {
    trial_rng(1, 0, 0)
}

fn rules(ranks: u8, suits: u8, face_down: u8, out_of_cards: OutOfCards) -> Rules {
    Rules {
        ranks,
        suits,
        face_down,
        out_of_cards,
    }
}

/// One card face down, a short player plays his last card face up.
const ONE_DOWN_LAST_CARD: Rules = Rules {
    ranks: 13,
    suits: 4,
    face_down: 1,
    out_of_cards: OutOfCards::LastCard,
};

fn hand(state: &WarState, player: Player) -> Vec<u8> {
    state.hand(player).cards().collect()
}

fn play(rules: Rules, first: &[u8], second: &[u8]) -> WarOutcome {
    let war = War {
        placement: Placement::WinnerFirst,
        max_turns: 1_000,
        rules,
    };
    war.play_from(WarState::from_hands(first, second), &mut rng())
}

/// Every card of the deck, each rank `suits` times, in the hands and (when nobody took it) on
/// the table.
fn assert_conserved(state: &WarState, rules: &Rules, took: bool, context: &str) {
    assert_eq!(state.card_count(), rules.deck_size(), "{context}");
    let mut counts = vec![0usize; usize::from(rules.ranks) + 1];
    for player in [Player::One, Player::Two] {
        let table: &[u8] = if took { &[] } else { state.table(player) };
        for card in state.hand(player).cards().chain(table.iter().copied()) {
            assert!(
                (1..=rules.ranks).contains(&card),
                "{context}: card {card} is not a rank of the deck"
            );
            counts[usize::from(card)] += 1;
        }
    }
    assert!(
        counts[1..].iter().all(|&n| n == usize::from(rules.suits)),
        "{context}: {counts:?}"
    );
}

#[test]
fn cards_are_conserved_at_every_turn_whatever_the_deck_and_rules() {
    let decks = [
        (13, 4),
        (13, 2),
        (52, 1),
        (26, 2),
        (2, 26),
        (1, 52),
        (4, 2),
        (1, 2),
        (5, 6),
    ];
    let mut wars = 0u64;
    let mut short_wars = 0u64;
    for (ranks, suits) in decks {
        for face_down in 0..=5 {
            for out_of_cards in [OutOfCards::Loses, OutOfCards::LastCard] {
                let rules = rules(ranks, suits, face_down, out_of_cards);
                rules.check().expect("a playable deck");
                for &placement in Placement::ALL {
                    for seed in 0..4 {
                        let mut rng = trial_rng(seed, 1, u64::from(face_down));
                        let mut state = WarState::deal_by(&rules, &mut rng);
                        let context = format!("{rules:?} {placement:?} seed {seed}");
                        assert_conserved(&state, &rules, true, &context);
                        for turn in 1..=1_500 {
                            let before =
                                (state.hand(Player::One).len(), state.hand(Player::Two).len());
                            let report = state.play_turn_by(&rules, placement, &mut rng);
                            let context = format!("{context} turn {turn}");
                            assert_conserved(&state, &rules, report.taker.is_some(), &context);
                            wars += u64::from(report.wars);
                            let needed = usize::from(face_down) + 1;
                            if report.wars > 0 && before.0.min(before.1) <= needed {
                                short_wars += 1;
                            }
                            if report.outcome != TurnOutcome::Continue {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(wars > 10_000, "the decks should make wars ({wars})");
    assert!(
        short_wars > 100,
        "some wars should find a player short ({short_wars})"
    );
}

#[test]
fn the_standard_rules_deal_as_the_standard_game() {
    for i in 0..300 {
        let standard = WarState::deal(&mut trial_rng(3, 0, i));
        let by_rules = WarState::deal_by(&Rules::STANDARD, &mut trial_rng(3, 0, i));
        assert!(standard == by_rules, "deal {i}");
    }
}

#[test]
fn with_one_card_down_a_short_player_plays_his_last_card_face_up() {
    // 5 v 5 ties; player 1 holds one card, so his 9 is his war card; player 2 puts 3 down and
    // turns up 5; 9 beats 5 and player 1 takes all five cards, player 2 has none left.
    let mut state = WarState::from_hands(&[5, 9], &[5, 3, 5]);
    let report = state.play_turn_by(&ONE_DOWN_LAST_CARD, Placement::WinnerFirst, &mut rng());
    assert_eq!(report.wars, 1);
    assert_eq!(report.taker, Some(Player::One));
    assert_eq!(report.outcome, TurnOutcome::Won(Player::One));
    assert_eq!(state.table(Player::One), &[5, 9]);
    assert_eq!(state.table(Player::Two), &[5, 3, 5]);
    assert_eq!(hand(&state, Player::One), vec![5, 9, 5, 3, 5]);
    // Running out loses under the same deal: player 1 cannot put down two cards.
    let loses = Rules {
        out_of_cards: OutOfCards::Loses,
        ..ONE_DOWN_LAST_CARD
    };
    let mut state = WarState::from_hands(&[5, 9], &[5, 3, 5]);
    let report = state.play_turn_by(&loses, Placement::WinnerFirst, &mut rng());
    assert_eq!(
        (report.outcome, report.taker),
        (TurnOutcome::Won(Player::Two), None)
    );
}

#[test]
fn a_scripted_game_with_one_card_down_and_the_last_card_rule_plays_out_exactly() {
    // Turn 1: 7 v 7, a war; player 1 has no card left, so his 7 stays his war card; player 2
    // puts 1 down and turns up 4: player 1 takes 7, 7, 1, 4 (winner first). P1 [7, 7, 1, 4],
    // P2 [10]. Turn 2: 7 v 10, P2 takes: P1 [7, 1, 4], P2 [10, 7]. Turn 3: 7 v 10: P1 [1, 4],
    // P2 [7, 10, 7]. Turn 4: 1 v 7: P1 [4], P2 [10, 7, 7, 1]. Turn 5: 4 v 10: player 2 wins.
    let (first, second) = ([7], [7, 1, 4, 10]);
    let mut state = WarState::from_hands(&first, &second);
    let mut rng = rng();
    let expected: [(&[u8], &[u8]); 5] = [
        (&[7, 7, 1, 4], &[10]),
        (&[7, 1, 4], &[10, 7]),
        (&[1, 4], &[7, 10, 7]),
        (&[4], &[10, 7, 7, 1]),
        (&[], &[7, 7, 1, 10, 4]),
    ];
    for (turn, (one, two)) in expected.iter().enumerate() {
        let report = state.play_turn_by(&ONE_DOWN_LAST_CARD, Placement::WinnerFirst, &mut rng);
        assert_eq!(report.wars, u32::from(turn == 0), "turn {}", turn + 1);
        assert_eq!(hand(&state, Player::One), *one, "turn {}", turn + 1);
        assert_eq!(hand(&state, Player::Two), *two, "turn {}", turn + 1);
    }
    let outcome = play(ONE_DOWN_LAST_CARD, &first, &second);
    assert_eq!(
        outcome,
        WarOutcome {
            result: WarResult::Won(Player::Two),
            turns: 5,
            wars: 1,
            double_wars: 0,
        }
    );
}

#[test]
fn a_war_card_that_stays_can_tie_again_and_both_players_empty_draw() {
    // Player 1's 6 stays his war card; player 2 turns up another 6 (a double war), then a 9.
    let mut state = WarState::from_hands(&[6], &[6, 1, 6, 3, 9]);
    let report = state.play_turn_by(&ONE_DOWN_LAST_CARD, Placement::WinnerFirst, &mut rng());
    assert_eq!(report.wars, 2);
    assert_eq!(report.outcome, TurnOutcome::Won(Player::Two));
    assert_eq!(hand(&state, Player::Two), vec![6, 1, 6, 3, 9, 6]);
    let outcome = play(ONE_DOWN_LAST_CARD, &[6], &[6, 1, 6, 3, 9]);
    assert_eq!((outcome.wars, outcome.double_wars), (2, 1));
    // Both up cards tie with nothing left in either hand: nobody can play on.
    let mut state = WarState::from_hands(&[6, 2], &[6, 2]);
    let report = state.play_turn_by(&ONE_DOWN_LAST_CARD, Placement::WinnerFirst, &mut rng());
    assert_eq!((report.outcome, report.taker), (TurnOutcome::Draw, None));
    assert_eq!(report.wars, 2);
    assert_eq!(state.card_count(), 4);
}

#[test]
fn no_card_face_down_turns_up_the_next_card_at_once() {
    let none_down = rules(13, 4, 0, OutOfCards::Loses);
    let mut state = WarState::from_hands(&[8, 3, 11], &[8, 12, 2]);
    let report = state.play_turn_by(&none_down, Placement::WinnerFirst, &mut rng());
    assert_eq!((report.wars, report.taker), (1, Some(Player::Two)));
    assert_eq!(hand(&state, Player::Two), vec![2, 8, 12, 8, 3]);
}

#[test]
fn a_deck_without_ties_never_has_a_war() {
    let no_ties = rules(52, 1, 3, OutOfCards::Loses);
    for &placement in Placement::ALL {
        let war = War {
            placement,
            max_turns: 20_000,
            rules: no_ties,
        };
        for i in 0..200 {
            let outcome = war.play(&mut trial_rng(9, 0, i));
            assert_eq!(outcome.wars, 0, "{placement:?} deal {i}");
        }
    }
}

/// Brent's algorithm as the textbook writes it, comparing after every turn: the turn at which
/// it first sees a repeat (or the game's end) and the period it finds.
fn textbook_brent(war: &War, start: WarState) -> (u32, Option<u32>) {
    let mut rng = rng();
    let (mut state, mut checkpoint) = (start, start);
    let (mut power, mut since, mut turns) = (1, 0, 0);
    while turns < war.max_turns {
        turns += 1;
        let report = state.play_turn_by(&war.rules, war.placement, &mut rng);
        if report.outcome != TurnOutcome::Continue {
            return (turns, None);
        }
        since += 1;
        if state == checkpoint {
            return (turns, Some(since));
        }
        if since == power {
            checkpoint = state;
            power *= 2;
            since = 0;
        }
    }
    (turns, None)
}

#[test]
fn cycle_detection_sees_what_checking_every_turn_sees_under_every_rule() {
    let mut odd_periods = 0;
    for face_down in 0..=5 {
        for out_of_cards in [OutOfCards::Loses, OutOfCards::LastCard] {
            for (ranks, suits) in [(13, 4), (13, 2), (4, 2), (52, 1)] {
                let rules = rules(ranks, suits, face_down, out_of_cards);
                for &placement in Placement::ALL.iter().filter(|p| p.is_deterministic()) {
                    for i in 0..40u64 {
                        let war = War {
                            placement,
                            max_turns: [3_000, 301, 60][i as usize % 3],
                            rules,
                        };
                        let start = WarState::deal_by(&rules, &mut trial_rng(11, 0, i));
                        let outcome = war.play_from(start, &mut rng());
                        let (turns, period) = textbook_brent(&war, start);
                        let context = format!("{rules:?} {placement:?} deal {i}");
                        assert_eq!(outcome.turns, turns, "{context}");
                        match outcome.result {
                            WarResult::Cycled { period: found, .. } => {
                                assert_eq!(Some(found), period, "{context}");
                                if found % 2 == 1 {
                                    odd_periods += 1;
                                }
                            }
                            _ => assert_eq!(period, None, "{context}"),
                        }
                    }
                }
            }
        }
    }
    assert!(
        odd_periods > 0,
        "some rules should cycle with an odd period, which odd-turn-only checks would miss"
    );
}
