//! Twenty-One and War draw each job's random numbers from a purpose of its own: in a common
//! design every variant of a trial is dealt the same shoe (Twenty-One) or the same deal (War),
//! whatever else a variant draws, and the independent design's draws are the ones the games
//! always made.

use experiment_engine::design::{CommonGame, CommonSummary, PairSet};
use experiment_engine::games::Game;
use experiment_engine::rng::{
    purpose_stream, trial_rng, CommonStreams, Purpose, Streams, TrialRng,
};
use experiment_engine::summary::Summary;
use experiment_twentyone::game::{
    self as twentyone, Deck, Rules, Strategy, TwentyOne, TwentyOneOutcome,
};
use experiment_war::game::{self as war, Placement, War, WarOutcome, WarResult, WarState};
use rand::RngCore;

const SEED: u64 = 20261202;
const TRIALS: u64 = 3_000;

/// The stream of `purpose` in trial `trial` of a common design seeded with [`SEED`].
fn purpose_rng(purpose: Purpose, trial: u64) -> TrialRng {
    trial_rng(SEED, purpose_stream(purpose), trial)
}

/// Every trial of `games` played as one common design, outcome by outcome, and summarised.
fn common<G: Game>(games: &[G]) -> (Vec<Vec<G::Outcome>>, CommonSummary<G::Summary>) {
    let design = CommonGame {
        games: games.iter().collect(),
        seed: SEED,
        pairs: PairSet::Every,
        own_streams: None,
    };
    let mut summary = CommonSummary::default();
    let mut outcomes = Vec::new();
    for trial in 0..TRIALS {
        let played = design.play_at(SEED, 0, trial);
        summary.record(&played);
        outcomes.push(played.outcomes);
    }
    (outcomes, summary)
}

fn stand_at(n: u16) -> TwentyOne {
    TwentyOne::new(Strategy::stand_at(n).expect("a valid threshold"))
}

/// The game `game` plays from the shoe of the [`twentyone::SHOE`] stream of trial `trial`.
fn from_common_shoe(game: &TwentyOne, trial: u64) -> TwentyOneOutcome {
    let mut shoe = Deck::shuffled_shoe(game.rules.decks, &mut purpose_rng(twentyone::SHOE, trial));
    game.play_deck(&mut shoe)
}

#[test]
fn twenty_one_variants_that_differ_in_stand_at_are_dealt_the_same_shoe() {
    let games = [stand_at(16), stand_at(17)];
    let (outcomes, _) = common(&games);
    let mut same_hand = 0;
    for (trial, pair) in outcomes.iter().enumerate() {
        for (game, outcome) in games.iter().zip(pair) {
            assert_eq!(
                *outcome,
                from_common_shoe(game, trial as u64),
                "trial {trial}"
            );
        }
        // Both stand on the same first two cards (17 or more): the same shoe plays the same
        // game to the end.
        if pair[0].player_cards == 2 && pair[0].player_total >= 17 {
            assert_eq!(pair[0], pair[1], "trial {trial}");
            same_hand += 1;
        }
    }
    assert!(
        same_hand > TRIALS / 10,
        "{same_hand} trials stood on two cards"
    );
}

#[test]
fn a_probability_strategy_and_draws_for_other_purposes_do_not_shift_the_shoe() {
    // `probability` decides from the unseen cards and draws no random number of its own; in a
    // common design it is dealt the shoe every other variant is dealt.
    let probability = TwentyOne::new(Strategy::probability(0.5).expect("valid"));
    let games = [probability.clone(), stand_at(12)];
    let (outcomes, _) = common(&games);
    let mut streams = CommonStreams::new(SEED, 0);
    for (trial, pair) in outcomes.iter().enumerate() {
        let trial = trial as u64;
        assert_eq!(pair[0], from_common_shoe(&probability, trial));
        assert_eq!(pair[1], from_common_shoe(&games[1], trial));
        // Numbers drawn first for another purpose (a strategy's own, were there one) leave the
        // shoe as it is.
        streams.restart(trial);
        for _ in 0..=trial % 7 {
            streams.rng(Purpose(99)).next_u64();
        }
        assert_eq!(probability.play_common(&mut streams), pair[0]);
    }
}

#[test]
fn twenty_one_paired_values_are_the_outcomes_rates_and_payoffs() {
    let push = Rules {
        tie: twentyone::Ties::Push,
        natural_pays: 1.5,
        ..Rules::default()
    };
    let games = [
        TwentyOne::with_rules(Strategy::StandAt(15), push),
        TwentyOne::with_rules(Strategy::StandAt(17), push),
        stand_at(17),
    ];
    let names: Vec<_> = TwentyOne::PAIRED.iter().map(|p| p.metric).collect();
    assert_eq!(
        names,
        [
            "win_rate",
            "bust_rate",
            "dealer_bust_rate",
            "tie_rate",
            "mean_payoff"
        ]
    );
    let (outcomes, summary) = common(&games);
    for (v, game) in games.iter().enumerate() {
        let counts = &summary.variants[v];
        let values = &summary.paired.values[v];
        let sums: Vec<i128> = values.iter().map(|m| m.sum).collect();
        let payoff: i64 = outcomes
            .iter()
            .map(|o| game.rules.payoff_twentieths(&o[v]))
            .sum();
        let expected = [
            counts.wins,
            counts.player_busts,
            counts.dealer_busts,
            counts.ties,
        ]
        .map(i128::from);
        assert_eq!(sums[..4], expected, "variant {v}");
        assert_eq!(sums[4], i128::from(payoff), "variant {v}");
        assert!(values.iter().all(|m| m.n == TRIALS));
    }
    // The pair (0, 1) differs in stand_at only: each difference sums to the difference of the
    // variants' sums.
    for (m, name) in names.iter().enumerate() {
        let d = summary
            .paired
            .difference(0, 1, m)
            .expect("every pair is kept");
        let (a, b) = (&summary.paired.values[0][m], &summary.paired.values[1][m]);
        assert_eq!(d.sum, a.sum - b.sum, "{name}");
    }
    // The same shoe, the same rule, other table rules: a push pays 0 where the computer's tie
    // costs 1, so the payoff differs exactly on the ties.
    let d = summary.paired.difference(1, 2, 4).expect("kept");
    let ties = summary.variants[2].ties;
    let natural_wins = summary.variants[2].natural_wins;
    assert_eq!(d.sum, i128::from(20 * ties + 10 * natural_wins));
}

fn war(placement: Placement) -> War {
    War::standard(placement, war::DEFAULT_MAX_TURNS)
}

/// The deal of the [`war::DEAL`] stream of trial `trial`.
fn common_deal(trial: u64) -> WarState {
    WarState::deal(&mut purpose_rng(war::DEAL, trial))
}

#[test]
fn war_placements_are_dealt_the_same_deal_and_random_shuffles_do_not_shift_it() {
    let games = [
        war(Placement::Random),
        war(Placement::WinnerFirst),
        war(Placement::LowFirst),
    ];
    let (outcomes, _) = common(&games);
    for (trial, played) in outcomes.iter().enumerate() {
        let trial = trial as u64;
        let start = common_deal(trial);
        // The random placement shuffles from its own stream, after the deal.
        let random = games[0].play_from(start, &mut purpose_rng(war::SHUFFLE, trial));
        assert_eq!(played[0], random, "trial {trial}");
        // The deterministic placements draw nothing after the deal: any stream gives their game.
        for (game, outcome) in games.iter().zip(played).skip(1) {
            let alone = game.play_from(start, &mut trial_rng(1, 2, 3));
            assert_eq!(*outcome, alone, "{:?} trial {trial}", game.placement);
        }
    }
    // The shuffle stream is not the deal stream: the deal is not what the shuffles draw.
    let mut shuffles = purpose_rng(war::SHUFFLE, 0);
    assert_ne!(WarState::deal(&mut shuffles), common_deal(0));
}

#[test]
fn war_paired_values_are_the_outcomes_rates_over_every_game() {
    let names: Vec<_> = War::PAIRED.iter().map(|p| p.metric).collect();
    assert_eq!(
        names,
        [
            "p1_win_rate",
            "p2_win_rate",
            "draw_rate",
            "infinite_rate",
            "cycled_rate",
            "nonterminating_rate"
        ]
    );
    // A short turn limit, so that some games are infinite.
    let games = [
        War {
            max_turns: 400,
            ..war(Placement::Random)
        },
        war(Placement::Player1First),
    ];
    let (outcomes, summary) = common(&games);
    for (v, counts) in summary.variants.iter().enumerate() {
        let sums: Vec<i128> = summary.paired.values[v].iter().map(|m| m.sum).collect();
        let expected = [
            counts.p1_wins,
            counts.p2_wins,
            counts.draws,
            counts.infinite,
            counts.cycled,
            counts.infinite + counts.cycled,
        ]
        .map(i128::from);
        assert_eq!(sums, expected, "variant {v}");
    }
    assert!(summary.variants[0].infinite > 0 && summary.variants[1].cycled > 0);
    // One trial's values, read off its outcome.
    let mut values = [0; 6];
    for played in &outcomes {
        for (game, outcome) in games.iter().zip(played) {
            game.paired_values(outcome, &mut values);
            let expected = match outcome.result {
                WarResult::Won(war::Player::One) => [1, 0, 0, 0, 0, 0],
                WarResult::Won(war::Player::Two) => [0, 1, 0, 0, 0, 0],
                WarResult::Draw => [0, 0, 1, 0, 0, 0],
                WarResult::Infinite => [0, 0, 0, 1, 0, 1],
                WarResult::Cycled { .. } => [0, 0, 0, 0, 1, 1],
            };
            assert_eq!(values, expected);
        }
    }
}

/// Twenty-One as it was always played: the trial's one stream shuffles the shoe.
fn twenty_one_as_before(game: &TwentyOne, rng: &mut TrialRng) -> TwentyOneOutcome {
    game.play_deck(&mut Deck::shuffled_shoe(game.rules.decks, rng))
}

/// War as it was always played: the trial's one stream deals, then shuffles for `random`.
fn war_as_before(game: &War, rng: &mut TrialRng) -> WarOutcome {
    let start = if game.rules == war::Rules::STANDARD {
        WarState::deal(rng)
    } else {
        WarState::deal_by(&game.rules, rng)
    };
    game.play_from(start, rng)
}

#[test]
fn the_independent_design_draws_what_it_always_drew() {
    let two_decks = Rules {
        decks: 2,
        ..Rules::default()
    };
    let twenty_ones = [
        stand_at(16),
        TwentyOne::with_rules(Strategy::StandAt(13), two_decks),
        TwentyOne::new(Strategy::probability(0.4).expect("valid")),
    ];
    let small_deck = war::Rules {
        ranks: 10,
        ..war::Rules::STANDARD
    };
    let wars = [
        war(Placement::Random),
        War {
            rules: small_deck,
            ..war(Placement::Random)
        },
        war(Placement::HighFirst),
    ];
    for trial in 0..400 {
        let rng = || trial_rng(7, 11, trial);
        for game in &twenty_ones {
            assert_eq!(
                game.play(&mut rng()),
                twenty_one_as_before(game, &mut rng())
            );
        }
        for game in &wars {
            assert_eq!(game.play(&mut rng()), war_as_before(game, &mut rng()));
        }
    }
    // Pinned: one trial of each game (a change to the shuffle, the deal or the rules fails
    // here; the committed results guard the rest).
    let outcome = stand_at(16).play(&mut trial_rng(SEED, 5, 17));
    assert_eq!(outcome, PINNED_TWENTY_ONE);
    let outcome = war(Placement::Random).play(&mut trial_rng(SEED, 5, 17));
    assert_eq!(outcome, PINNED_WAR);
}

const PINNED_TWENTY_ONE: TwentyOneOutcome = TwentyOneOutcome {
    player_won: true,
    player_bust: false,
    dealer_bust: true,
    player_total: 19,
    dealer_total: 22,
    player_cards: 2,
};

const PINNED_WAR: WarOutcome = WarOutcome {
    result: WarResult::Won(war::Player::Two),
    turns: 268,
    wars: 8,
    double_wars: 0,
};
