//! Chutes and Monopoly draw each job's random numbers from its own purpose: in a common design
//! two variants that differ in one strategy see the same rolls, throws and cards, and in the
//! independent design every draw is what it always was (pinned).

use experiment_chutes::exact::ChutesSolver;
use experiment_chutes::game::{
    run_game, Board, CubeMatch, CubeView, DiceSource, Player, PlayerDice, Strategy, PLAYER_DICE,
};
use experiment_engine::games::Game;
use experiment_engine::rng::{purpose_stream, trial_rng, CommonStreams, TrialRng};
use experiment_monopoly::game::{
    CardModel, JailStrategy, Monopoly, Rules, TraceEvent, TurnObserver,
};
use rand::Rng;

/// A doubling player: doubles when at least `lead` squares ahead, takes when at most `behind`
/// squares behind (so different settings end games at different moves, or by a drop).
struct Lead {
    lead: i32,
    behind: i32,
}

impl Player for Lead {
    fn should_double(&self, mine: u8, theirs: u8, _cube: CubeView) -> bool {
        i32::from(mine) - i32::from(theirs) >= self.lead
    }
    fn should_take(&self, mine: u8, theirs: u8, _cube: CubeView) -> bool {
        i32::from(theirs) - i32::from(mine) <= self.behind
    }
}

/// Each player's rolls as the game made them.
struct Recorded<'a, D> {
    dice: D,
    rolls: &'a mut [Vec<u8>; 2],
}

impl<D: DiceSource> DiceSource for Recorded<'_, D> {
    fn roll(&mut self, player: usize, sides: u8) -> u8 {
        let roll = self.dice.roll(player, sides);
        self.rolls[player].push(roll);
        roll
    }
}

/// Plays trial `trial` of a common design between `first` and `second`, returning each
/// player's rolls and player 1's payoff.
fn common_chutes(first: &Lead, second: &Lead, trial: u64) -> ([Vec<u8>; 2], i64) {
    let mut streams = CommonStreams::new(17, trial);
    let mut rolls = [Vec::new(), Vec::new()];
    let mut dice = Recorded {
        dice: PlayerDice(&mut streams),
        rolls: &mut rolls,
    };
    let outcome = run_game(first, second, &Board::milton_bradley(), 64, &mut dice);
    (rolls, outcome.payoff)
}

/// Whether the shorter of two roll sequences is the start of the longer.
fn agree(a: &[u8], b: &[u8]) -> bool {
    let n = a.len().min(b.len());
    a[..n] == b[..n]
}

#[test]
fn chutes_pairings_differing_in_one_strategy_see_each_players_same_rolls() {
    let (bold, shy, other) = (
        Lead {
            lead: 5,
            behind: 30,
        },
        Lead {
            lead: 40,
            behind: 5,
        },
        Lead {
            lead: 15,
            behind: 15,
        },
    );
    let mut lengths_differ = 0;
    let mut payoffs_differ = 0;
    for trial in 0..400 {
        // Player 1's strategy changes; then player 2's.
        for ((a, b), (c, d)) in [
            ((&bold, &other), (&shy, &other)),
            ((&other, &bold), (&other, &shy)),
        ] {
            let (rolls_a, payoff_a) = common_chutes(a, b, trial);
            let (rolls_b, payoff_b) = common_chutes(c, d, trial);
            for player in 0..2 {
                assert!(
                    agree(&rolls_a[player], &rolls_b[player]),
                    "trial {trial} player {player}"
                );
                // Player k's j-th roll is the j-th roll of his purpose's stream of the trial.
                let mut own: TrialRng = trial_rng(17, purpose_stream(PLAYER_DICE[player]), trial);
                let expected: Vec<u8> = (0..rolls_a[player].len())
                    .map(|_| own.random_range(1..=6))
                    .collect();
                assert_eq!(rolls_a[player], expected);
            }
            lengths_differ += usize::from(rolls_a[0].len() != rolls_b[0].len());
            payoffs_differ += usize::from(payoff_a != payoff_b);
        }
    }
    // The strategies do change the games (else the test would prove nothing).
    assert!(
        lengths_differ > 50 && payoffs_differ > 50,
        "{lengths_differ} {payoffs_differ}"
    );
}

#[test]
fn a_cube_match_plays_its_common_trial_from_the_players_purposes() {
    // Game::play_common of a real pairing gives the outcome of the same game played from the
    // players' purpose streams directly.
    let solver = ChutesSolver::new(Board::milton_bradley(), 1024).expect("valid");
    let game: CubeMatch = solver.cube_match(Strategy::Optimal, Strategy::Cautious);
    for trial in 0..200 {
        let mut streams = CommonStreams::new(5, trial);
        let via_game = game.play_common(&mut streams);
        let mut again = CommonStreams::new(5, trial);
        let direct = run_game(
            &solver.player(Strategy::Optimal),
            &solver.player(Strategy::Cautious),
            &Board::milton_bradley(),
            1024,
            &mut PlayerDice(&mut again),
        );
        assert_eq!(via_game, direct);
    }
}

#[test]
fn chutes_independent_games_are_the_trial_streams_games_pinned() {
    // The independent design rolls every die from the trial's one stream in turn, as every
    // earlier version did: the same game as the stream used directly as dice.
    let solver = ChutesSolver::new(Board::milton_bradley(), 1024).expect("valid");
    let game = solver.cube_match(
        Strategy::threshold(0.7, 0.25).expect("valid"),
        Strategy::Never,
    );
    let (mut payoff, mut turns) = (0i64, 0u64);
    for trial in 0..2_000 {
        let outcome = game.play(&mut trial_rng(20261130, 99, trial));
        let direct = run_game(
            &solver.player(Strategy::threshold(0.7, 0.25).expect("valid")),
            &solver.player(Strategy::Never),
            &Board::milton_bradley(),
            1024,
            &mut trial_rng(20261130, 99, trial),
        );
        assert_eq!(outcome, direct);
        payoff += outcome.payoff;
        turns += u64::from(outcome.turns);
    }
    assert_eq!((payoff, turns), PINNED_CHUTES);
}

/// Sum of payoffs and of moves of the 2,000 games above (the draws of every earlier version).
const PINNED_CHUTES: (i64, u64) = (608, 94_971);

/// Each player's throws, and each card drawn with the player and throw that drew it.
#[derive(Default)]
struct Seen {
    player: usize,
    throws: Vec<Vec<(u8, u8)>>,
    cards: Vec<(usize, usize, String)>,
    chance: Vec<String>,
    chest: Vec<String>,
}

impl TurnObserver for Seen {
    fn event(&mut self, event: TraceEvent) {
        match event {
            TraceEvent::TurnStart { player, .. } => self.player = player as usize,
            TraceEvent::Roll { first, second } => {
                if self.throws.len() <= self.player {
                    self.throws.resize(self.player + 1, Vec::new());
                }
                self.throws[self.player].push((first, second));
            }
            TraceEvent::CardDrawn { card, .. } => {
                let name = format!("{card:?}");
                let throw = self.throws[self.player].len() - 1;
                self.cards.push((self.player, throw, name.clone()));
                if name.starts_with("Chance") {
                    self.chance.push(name);
                } else {
                    self.chest.push(name);
                }
            }
            _ => {}
        }
    }
}

fn monopoly(jail: JailStrategy, cards: CardModel) -> Monopoly {
    Monopoly {
        jail,
        cards,
        turns: 60,
        players: 3,
        rules: Rules::default(),
    }
}

fn common_monopoly(game: &Monopoly, trial: u64) -> Seen {
    let mut seen = Seen::default();
    game.play_streams_observed(&mut CommonStreams::new(23, trial), &mut seen);
    seen
}

#[test]
fn monopoly_jail_strategies_see_the_same_dice_and_cards_in_every_trial() {
    for cards in [CardModel::WithReplacement, CardModel::ShuffledDeck] {
        let mut differ = 0;
        for trial in 0..150 {
            let long = common_monopoly(&monopoly(JailStrategy::LongStay, cards), trial);
            let short = common_monopoly(&monopoly(JailStrategy::ShortStay, cards), trial);
            for player in 0..3 {
                let (a, b) = (&long.throws[player], &short.throws[player]);
                let n = a.len().min(b.len());
                assert_eq!(a[..n], b[..n], "trial {trial} player {player}");
            }
            match cards {
                // A card drawn with replacement rides on the throw that reached its square.
                CardModel::WithReplacement => {
                    for (player, throw, card) in &long.cards {
                        if let Some((_, _, other)) = short
                            .cards
                            .iter()
                            .find(|(p, t, c)| p == player && t == throw && c[..6] == card[..6])
                        {
                            assert_eq!(card, other, "trial {trial}");
                        }
                    }
                }
                // Both decks are shuffled the same: the cards come in the same order.
                CardModel::ShuffledDeck => {
                    for (a, b) in [(&long.chance, &short.chance), (&long.chest, &short.chest)] {
                        let n = a.len().min(b.len());
                        assert_eq!(a[..n], b[..n], "trial {trial}");
                    }
                }
            }
            differ += usize::from(long.throws != short.throws);
        }
        assert!(differ > 50, "the strategies change the games: {differ}");
    }
}

#[test]
fn monopoly_common_trials_are_the_games_common_play_and_the_machine_agrees() {
    // The machine (cards with replacement, default rules) and the turn engine give the same
    // landings from the same common streams.
    for &jail in JailStrategy::ALL {
        let game = monopoly(jail, CardModel::WithReplacement);
        for trial in 0..40 {
            let machine = game.play_common(&mut CommonStreams::new(3, trial));
            let engine =
                game.play_streams_observed(&mut CommonStreams::new(3, trial), &mut Seen::default());
            assert_eq!(machine, engine, "{jail:?}");
        }
    }
}

#[test]
fn monopoly_independent_games_are_pinned() {
    // Jail, Go and all landings summed over 300 games of each jail strategy and card model,
    // three players (two pairs' streams): the draws of every earlier version.
    let mut sums = Vec::new();
    for &jail in JailStrategy::ALL {
        for &cards in CardModel::ALL {
            let game = monopoly(jail, cards);
            let (mut all, mut jailed, mut go) = (0u64, 0u64, 0u64);
            for trial in 0..300 {
                let landings = game.play(&mut trial_rng(102, 7, trial)).landings;
                all += landings.iter().map(|&c| u64::from(c)).sum::<u64>();
                jailed += u64::from(landings[10]);
                go += u64::from(landings[0]);
            }
            sums.push((all, jailed, go));
        }
    }
    assert_eq!(sums, PINNED_MONOPOLY);
}

/// (all, Jail, Go) per jail strategy (long, short, full turn) and card model (with
/// replacement, shuffled).
const PINNED_MONOPOLY: [(u64, u64, u64); 6] = [
    (63_037, 7_391, 1_778),
    (63_012, 7_413, 1_767),
    (63_689, 4_045, 1_953),
    (63_682, 4_047, 1_958),
    (64_170, 4_076, 1_971),
    (64_143, 4_082, 1_978),
];
