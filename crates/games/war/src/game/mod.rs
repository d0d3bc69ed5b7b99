//! War: two players, 52 cards, the higher up card takes the table.
//!
//! Ranks run Ace = 1 (low) to King = 13 (high); suits never matter to play, so a card is its
//! rank. The only choice in the game is the order in which a won pile goes under the winner's
//! hand: the [`Placement`] strategy. The [`Rules`] can change the deck (ranks × suits), the
//! cards face down in a war and what running out of cards during a war does.

mod bits;
mod cycle;
mod rules;
mod state;
mod summary;

use experiment_engine::games::{Game, Paired};
use experiment_engine::rng::{CommonStreams, OneStream, Purpose, Streams, TrialRng};

pub use rules::{OutOfCards, Rules, MAX_DECK, MAX_FACE_DOWN};
pub use state::{Hand, TurnOutcome, TurnReport, WarState};
pub use summary::{CountMoments, WarSummary};

/// The purpose of the deal: the shuffle of the deck that is dealt to the two players. In a
/// common design every variant at the same deck is dealt the same hands.
pub const DEAL: Purpose = Purpose(1);

/// The purpose of the `random` placement's shuffles of won piles, whoever wins them: one stream
/// after the deal, so that shuffling (or not) never shifts the deal. The players' piles share
/// it because only one pile is shuffled per turn and the game's course, which decides whose
/// pile comes next, differs from the first differing turn on anyway: a stream per player would
/// not make two variants' shuffles line up any better.
pub const SHUFFLE: Purpose = Purpose(2);

/// Number of cards in the standard deck.
pub const DECK_SIZE: usize = 52;
/// Default turn limit after which an unfinished game counts as `infinite`.
pub const DEFAULT_MAX_TURNS: u32 = 15_000;
/// The largest turn limit a spec or `play war --max-turns` may set.
pub const MAX_TURN_LIMIT: u32 = 100_000_000;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The first player (shown as `|` bars).
    One,
    /// The second player (shown as `.` bars).
    Two,
}

impl Player {
    #[inline(always)]
    fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }
}

/// The order in which the cards won in a turn go under the winner's hand.
///
/// "Play order" for a player is his up card, then for each war his three face-down cards and
/// his next up card, in the order they hit the table.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::VariantArray,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum Placement {
    /// The winner's cards in play order, then the loser's.
    WinnerFirst,
    /// The loser's cards in play order, then the winner's.
    LoserFirst,
    /// The whole pile shuffled uniformly, from the trial's [`SHUFFLE`] numbers.
    Random,
    /// By rank, highest first; ties keep the winner's card first.
    HighFirst,
    /// By rank, lowest first; ties keep the winner's card first.
    LowFirst,
    /// Player 1's cards, then player 2's, whoever won.
    Player1First,
}

impl Placement {
    /// Every strategy, in the order the documentation lists them (the declaration order).
    pub const ALL: &'static [Placement] = <Placement as strum::VariantArray>::VARIANTS;

    /// The strategy's name in specs and tables (from the derives' `snake_case` renaming).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether the game's course is fixed by the deal (so a repeated state means a cycle).
    pub fn is_deterministic(self) -> bool {
        self != Placement::Random
    }
}

/// How a game of War ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarResult {
    /// This player took all the cards (or the other could not complete a war).
    Won(Player),
    /// Both players ran out of cards at the same moment.
    Draw,
    /// Still going after `max_turns` turns without a detected cycle.
    Infinite,
    /// The whole state repeated: the game would cycle forever.
    Cycled {
        /// Turns played before the state that starts the cycle was first reached.
        entry_turn: u32,
        /// Length of the cycle in turns.
        period: u32,
    },
}

/// One game of War.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarOutcome {
    /// How it ended.
    pub result: WarResult,
    /// Turns played (up to detection for a cycled game, `max_turns` for an infinite one).
    pub turns: u32,
    /// Wars (tied up cards) over the game.
    pub wars: u32,
    /// Wars immediately following another war in the same turn.
    pub double_wars: u32,
}

impl WarOutcome {
    /// Whether the game ended with a winner or a draw.
    pub fn is_finished(&self) -> bool {
        matches!(self.result, WarResult::Won(_) | WarResult::Draw)
    }
}

/// A game of War with a placement strategy, a turn limit and its rules.
#[derive(Clone, Copy, Debug)]
pub struct War {
    /// How won cards go under the winner's hand.
    pub placement: Placement,
    /// Turns after which an unfinished, undetected game counts as infinite.
    pub max_turns: u32,
    /// The deck and the rules of a war ([`Rules::STANDARD`] by default).
    pub rules: Rules,
}

impl War {
    /// `placement` and `max_turns` under the standard rules.
    pub fn standard(placement: Placement, max_turns: u32) -> War {
        War {
            placement,
            max_turns,
            rules: Rules::STANDARD,
        }
    }

    /// Deals from the [`DEAL`] stream and plays with the [`SHUFFLE`] stream: the same code in
    /// both designs (with one stream, the deal's draws and then the shuffles', as always).
    #[inline(always)]
    fn play_streams(&self, streams: &mut impl Streams) -> WarOutcome {
        let deal = streams.rng(DEAL);
        let start = if self.rules == Rules::STANDARD {
            WarState::deal(deal)
        } else {
            WarState::deal_by(&self.rules, deal)
        };
        self.play_from(start, streams.rng(SHUFFLE))
    }
}

impl Game for War {
    type Outcome = WarOutcome;
    type Summary = WarSummary;

    fn play(&self, rng: &mut TrialRng) -> WarOutcome {
        self.play_streams(&mut OneStream(rng))
    }

    fn play_common(&self, streams: &mut CommonStreams) -> WarOutcome {
        self.play_streams(streams)
    }

    /// The study's rates over every game, 0 or 1 per game. The turn and war counts are over
    /// finished games only, and player 1's share of finished games too: those are not paired.
    const PAIRED: &'static [Paired] = &[
        Paired {
            metric: "p1_win_rate",
            scale: 1,
        },
        Paired {
            metric: "p2_win_rate",
            scale: 1,
        },
        Paired {
            metric: "draw_rate",
            scale: 1,
        },
        Paired {
            metric: "infinite_rate",
            scale: 1,
        },
        Paired {
            metric: "cycled_rate",
            scale: 1,
        },
        Paired {
            metric: "nonterminating_rate",
            scale: 1,
        },
    ];

    fn paired_values(&self, outcome: &WarOutcome, values: &mut [i64]) {
        let (p1, p2, draw, infinite, cycled) = match outcome.result {
            WarResult::Won(Player::One) => (1, 0, 0, 0, 0),
            WarResult::Won(Player::Two) => (0, 1, 0, 0, 0),
            WarResult::Draw => (0, 0, 1, 0, 0),
            WarResult::Infinite => (0, 0, 0, 1, 0),
            WarResult::Cycled { .. } => (0, 0, 0, 0, 1),
        };
        values[..6].copy_from_slice(&[p1, p2, draw, infinite, cycled, infinite + cycled]);
    }
}

/// Rank names as printed in turn-by-turn output.
pub fn rank_name(rank: u8) -> &'static str {
    const NAMES: [&str; 13] = [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ];
    NAMES[usize::from(rank - 1)]
}

#[cfg(test)]
mod tests {
    #[test]
    fn placement_names_are_the_documented_ones_in_specs_parsing_and_the_command_line() {
        use experiment_engine::games::choice_names::{command_line_names, derived_names};
        let placements = [
            "winner_first",
            "loser_first",
            "random",
            "high_first",
            "low_first",
            "player1_first",
        ];
        assert_eq!(derived_names(|&p: &Placement| p.name()), placements);
        assert_eq!(command_line_names::<Placement>(), placements);
    }

    use super::*;
    use experiment_engine::rng::trial_rng;
    use experiment_engine::summary::Summary;
    use proptest::prelude::*;

    fn rng() -> TrialRng {
        trial_rng(1, 0, 0)
    }

    fn hand(state: &WarState, player: Player) -> Vec<u8> {
        state.hand(player).cards().collect()
    }

    #[test]
    fn higher_card_takes_both_cards_winner_first() {
        let mut state = WarState::from_hands(&[9, 2], &[5, 3]);
        let report = state.play_turn(Placement::WinnerFirst, &mut rng());
        assert_eq!(report.taker, Some(Player::One));
        assert_eq!(report.outcome, TurnOutcome::Continue);
        assert_eq!(report.wars, 0);
        assert_eq!(hand(&state, Player::One), vec![2, 9, 5]);
        assert_eq!(hand(&state, Player::Two), vec![3]);
    }

    #[test]
    fn taking_the_last_card_wins_the_game() {
        let mut state = WarState::from_hands(&[2], &[13, 4]);
        let report = state.play_turn(Placement::WinnerFirst, &mut rng());
        assert_eq!(report.outcome, TurnOutcome::Won(Player::Two));
        assert_eq!(hand(&state, Player::Two), vec![4, 13, 2]);
    }

    #[test]
    fn a_war_puts_three_down_and_the_next_flip_takes_all_ten() {
        let mut state = WarState::from_hands(&[7, 1, 1, 1, 10, 6], &[7, 2, 2, 2, 3, 8]);
        let report = state.play_turn(Placement::WinnerFirst, &mut rng());
        assert_eq!(report.wars, 1);
        assert_eq!(report.taker, Some(Player::One));
        assert_eq!(state.table(Player::One), &[7, 1, 1, 1, 10]);
        assert_eq!(state.table(Player::Two), &[7, 2, 2, 2, 3]);
        assert_eq!(
            hand(&state, Player::One),
            vec![6, 7, 1, 1, 1, 10, 7, 2, 2, 2, 3]
        );
        assert_eq!(hand(&state, Player::Two), vec![8]);
    }

    #[test]
    fn a_double_war_counts_two_wars_in_one_turn() {
        let first = [5, 1, 1, 1, 9, 2, 2, 2, 4, 11];
        let second = [5, 3, 3, 3, 9, 4, 4, 4, 12, 11];
        let mut state = WarState::from_hands(&first, &second);
        let report = state.play_turn(Placement::WinnerFirst, &mut rng());
        assert_eq!(report.wars, 2);
        assert_eq!(report.taker, Some(Player::Two));
        assert_eq!(hand(&state, Player::Two).len(), 19);
        let war = War {
            placement: Placement::WinnerFirst,
            max_turns: 1,
            rules: Rules::STANDARD,
        };
        let outcome = war.play_from(WarState::from_hands(&first, &second), &mut rng());
        assert_eq!(outcome.wars, 2);
        assert_eq!(outcome.double_wars, 1);
        assert_eq!(outcome.turns, 1);
    }

    #[test]
    fn running_out_during_a_war_loses_at_once() {
        let mut state = WarState::from_hands(&[6, 2, 3], &[6, 1, 1, 1, 1, 1]);
        let report = state.play_turn(Placement::WinnerFirst, &mut rng());
        assert_eq!(report.outcome, TurnOutcome::Won(Player::Two));
        assert_eq!(report.taker, None);
        assert_eq!(state.card_count(), 9);
    }

    #[test]
    fn both_running_out_at_the_same_moment_is_a_draw() {
        let mut state = WarState::from_hands(&[6, 2, 3], &[6, 1, 1]);
        let report = state.play_turn(Placement::WinnerFirst, &mut rng());
        assert_eq!(report.outcome, TurnOutcome::Draw);
        let war = War {
            placement: Placement::WinnerFirst,
            max_turns: 10,
            rules: Rules::STANDARD,
        };
        let outcome = war.play_from(WarState::from_hands(&[6, 2, 3], &[6, 1, 1]), &mut rng());
        assert_eq!(outcome.result, WarResult::Draw);
    }

    /// Player 1 wins a war: his cards in play order are 7,1,1,1,10 and player 2's 7,2,2,2,3.
    fn pile_after(placement: Placement) -> Vec<u8> {
        let mut state = WarState::from_hands(&[7, 1, 1, 1, 10], &[7, 2, 2, 2, 3, 8]);
        state.play_turn(placement, &mut rng());
        hand(&state, Player::One)
    }

    #[test]
    fn each_deterministic_placement_orders_the_pile_as_documented() {
        assert_eq!(
            pile_after(Placement::WinnerFirst),
            vec![7, 1, 1, 1, 10, 7, 2, 2, 2, 3]
        );
        assert_eq!(
            pile_after(Placement::LoserFirst),
            vec![7, 2, 2, 2, 3, 7, 1, 1, 1, 10]
        );
        assert_eq!(
            pile_after(Placement::HighFirst),
            vec![10, 7, 7, 3, 2, 2, 2, 1, 1, 1]
        );
        assert_eq!(
            pile_after(Placement::LowFirst),
            vec![1, 1, 1, 2, 2, 2, 3, 7, 7, 10]
        );
        assert_eq!(
            pile_after(Placement::Player1First),
            vec![7, 1, 1, 1, 10, 7, 2, 2, 2, 3]
        );
    }

    #[test]
    fn player1_first_keeps_player_one_first_when_player_two_wins() {
        let mut state = WarState::from_hands(&[3, 5], &[9, 4]);
        state.play_turn(Placement::Player1First, &mut rng());
        assert_eq!(hand(&state, Player::Two), vec![4, 3, 9]);
        let mut state = WarState::from_hands(&[3, 5], &[9, 4]);
        state.play_turn(Placement::WinnerFirst, &mut rng());
        assert_eq!(hand(&state, Player::Two), vec![4, 9, 3]);
    }

    #[test]
    fn high_first_sorts_the_whole_pile_when_player_two_wins() {
        let mut state = WarState::from_hands(&[7, 1, 1, 1, 4, 2], &[7, 1, 1, 1, 9]);
        state.play_turn(Placement::HighFirst, &mut rng());
        assert_eq!(
            hand(&state, Player::Two),
            vec![9, 7, 7, 4, 1, 1, 1, 1, 1, 1]
        );
    }

    #[test]
    fn random_placement_keeps_the_same_cards() {
        let mut state = WarState::from_hands(&[7, 1, 1, 1, 10], &[7, 2, 2, 2, 3, 8]);
        state.play_turn(Placement::Random, &mut rng());
        let mut cards = hand(&state, Player::One);
        cards.sort();
        assert_eq!(cards, vec![1, 1, 1, 2, 2, 2, 3, 7, 7, 10]);
    }

    #[test]
    fn a_known_cycling_deal_is_detected_with_its_period() {
        // With player1_first, 1 card each that never tie cannot cycle, but a 2 v 2 deal can:
        // P1 [2, 1], P2 [1, 2]: turn 1 P1 takes (2 over 1) -> P1 [1, 2, 1], P2 [2];
        // turn 2 P2 takes -> P1 [2, 1], P2 [1, 2]: back to the deal, period 2, entered at 0.
        let war = War {
            placement: Placement::Player1First,
            max_turns: 1000,
            rules: Rules::STANDARD,
        };
        let outcome = war.play_from(WarState::from_hands(&[2, 1], &[1, 2]), &mut rng());
        assert_eq!(
            outcome.result,
            WarResult::Cycled {
                entry_turn: 0,
                period: 2
            }
        );
        // The same deal with winner_first ends: the state never repeats.
        let war = War {
            placement: Placement::WinnerFirst,
            ..war
        };
        let outcome = war.play_from(WarState::from_hands(&[2, 1], &[1, 2]), &mut rng());
        assert!(outcome.is_finished(), "{outcome:?}");
    }

    fn state_after(first: &[u8], second: &[u8], placement: Placement, turns: u32) -> WarState {
        let mut state = WarState::from_hands(first, second);
        for _ in 0..turns {
            state.play_turn(placement, &mut rng());
        }
        state
    }

    #[test]
    fn detected_cycles_have_their_first_entry_and_shortest_period() {
        let placement = Placement::Player1First;
        let war = War {
            placement,
            max_turns: 1000,
            rules: Rules::STANDARD,
        };
        let mut entered_late = 0;
        for code in 0..3u32.pow(6) {
            let ranks: Vec<u8> = (0..6).map(|i| (code / 3u32.pow(i) % 3) as u8 + 1).collect();
            let (first, second) = ranks.split_at(3);
            let outcome = war.play_from(WarState::from_hands(first, second), &mut rng());
            let WarResult::Cycled { entry_turn, period } = outcome.result else {
                continue;
            };
            let at = |turns| state_after(first, second, placement, turns);
            assert!(at(entry_turn) == at(entry_turn + period), "{ranks:?}");
            for shorter in 1..period {
                assert!(at(entry_turn) != at(entry_turn + shorter), "{ranks:?}");
            }
            if entry_turn > 0 {
                entered_late += 1;
                assert!(
                    at(entry_turn - 1) != at(entry_turn - 1 + period),
                    "{ranks:?}"
                );
            }
        }
        assert!(
            entered_late > 0,
            "some small deal should take turns to enter its cycle"
        );
    }

    #[test]
    fn an_unfinished_random_game_is_infinite_at_the_turn_limit() {
        let war = War {
            placement: Placement::Random,
            max_turns: 3,
            rules: Rules::STANDARD,
        };
        let outcome = war.play_from(WarState::from_hands(&[2, 1], &[1, 2]), &mut rng());
        assert_eq!(outcome.result, WarResult::Infinite);
        assert_eq!(outcome.turns, 3);
    }

    #[test]
    fn recording_one_by_one_equals_merging_halves() {
        let war = War {
            placement: Placement::WinnerFirst,
            max_turns: DEFAULT_MAX_TURNS,
            rules: Rules::STANDARD,
        };
        let outcomes: Vec<WarOutcome> = (0..200)
            .map(|i| war.play(&mut trial_rng(7, 0, i)))
            .collect();
        let mut whole = WarSummary::default();
        outcomes.iter().for_each(|o| whole.record(o));
        let (mut left, mut right) = (WarSummary::default(), WarSummary::default());
        outcomes[..77].iter().for_each(|o| left.record(o));
        outcomes[77..].iter().for_each(|o| right.record(o));
        left.merge(&right);
        assert_eq!(left, whole);
        assert_eq!(whole.games, 200);
        assert_eq!(
            whole.finished() + whole.infinite + whole.cycled,
            whole.games
        );
    }

    /// Brent's algorithm as the textbook writes it, comparing after every turn: the turn at
    /// which it first sees a repeat (or the game's end) and the period it finds.
    fn textbook_brent(war: &War, start: WarState) -> (u32, Option<u32>) {
        let mut rng = rng();
        let (mut state, mut checkpoint) = (start, start);
        let (mut power, mut since, mut turns) = (1, 0, 0);
        while turns < war.max_turns {
            turns += 1;
            if state.play_turn(war.placement, &mut rng).outcome != TurnOutcome::Continue {
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
    fn cycle_detection_checking_odd_turns_only_sees_what_checking_every_turn_sees() {
        let mut cycled = 0;
        for &placement in Placement::ALL.iter().filter(|p| p.is_deterministic()) {
            for i in 0..600u64 {
                let war = War {
                    placement,
                    max_turns: [DEFAULT_MAX_TURNS, 700, 61][i as usize % 3],
                    rules: Rules::STANDARD,
                };
                let start = WarState::deal(&mut trial_rng(11, 0, i));
                let outcome = war.play_from(start, &mut rng());
                let (turns, period) = textbook_brent(&war, start);
                assert_eq!(outcome.turns, turns, "{placement:?} deal {i}");
                match outcome.result {
                    WarResult::Cycled { period: found, .. } => {
                        cycled += 1;
                        assert_eq!(Some(found), period, "{placement:?} deal {i}");
                    }
                    _ => assert_eq!(period, None, "{placement:?} deal {i}"),
                }
            }
        }
        assert!(
            cycled > 50,
            "player1_first deals should cycle often ({cycled})"
        );
    }

    fn placement_strategy() -> impl Strategy<Value = Placement> {
        prop::sample::select(Placement::ALL.to_vec())
    }

    proptest! {
        #[test]
        fn fifty_two_cards_are_conserved_at_every_turn(
            seed in any::<u64>(),
            placement in placement_strategy(),
        ) {
            let mut rng = trial_rng(seed, 0, 0);
            let mut state = WarState::deal(&mut rng);
            prop_assert_eq!(state.card_count(), DECK_SIZE);
            for _ in 0..2_000 {
                let report = state.play_turn(placement, &mut rng);
                prop_assert_eq!(state.card_count(), DECK_SIZE);
                if report.taker.is_some() {
                    let mut ranks = [0u8; 14];
                    for player in [Player::One, Player::Two] {
                        for card in state.hand(player).cards() {
                            ranks[usize::from(card)] += 1;
                        }
                    }
                    prop_assert!(ranks[1..].iter().all(|&n| n == 4));
                }
                if report.outcome != TurnOutcome::Continue {
                    break;
                }
            }
        }
    }
}
