//! One game: the player draws and decides, then the computer draws by its fixed rule. The
//! simulation and the interactive game play through the same [`play_round`], which tells a
//! [`Player`] every card dealt and asks it to hit or stay.

use std::convert::Infallible;

use super::cards::{Card, Deck};
use super::hand::{Hand, TARGET};
use super::rules::Rules;
use super::strategy::Strategy;
use super::summary::TwentyOneSummary;
use experiment_engine::games::{Game, Paired};
use experiment_engine::rng::{CommonStreams, OneStream, Purpose, Streams, TrialRng};

/// The one purpose Twenty-One's randomness serves: the shuffle of the game's shoe. No strategy
/// draws a random number (`probability` decides from the unseen cards, deterministically), so
/// in a common design every variant at the same number of decks is dealt the same shoe.
pub const SHOE: Purpose = Purpose(1);

/// How one game of Twenty-One ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwentyOneOutcome {
    /// Whether the player won (a tie is never a win: it goes to the computer or pushes).
    pub player_won: bool,
    /// Whether the player went over 21 (the computer then does not play).
    pub player_bust: bool,
    /// Whether the computer went over 21 (never when the player went bust).
    pub dealer_bust: bool,
    /// The player's final best total (his hard total when bust).
    pub player_total: u8,
    /// The computer's final best total, or 0 when the player went bust and the computer did
    /// not play.
    pub dealer_total: u8,
    /// How many cards the player ended with.
    pub player_cards: u8,
}

impl TwentyOneOutcome {
    /// Whether the game was a tie (both at or under 21 with the same total), which the computer
    /// wins or which pushes, as the rules say.
    pub fn is_tie(&self) -> bool {
        !self.player_bust && !self.dealer_bust && self.player_total == self.dealer_total
    }

    /// Whether the player stood on a natural: his first two cards, making 21.
    pub fn is_natural(&self) -> bool {
        !self.player_bust && self.player_cards == 2 && u16::from(self.player_total) == TARGET
    }
}

fn small(value: impl TryInto<u8>) -> u8 {
    value.try_into().unwrap_or(u8::MAX)
}

/// Something that happened at the table, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The player was dealt `card`: one of his first two, or one he hit for.
    PlayerCard(Card),
    /// The computer was dealt `card`: one of its first two, or one its rule drew.
    DealerCard(Card),
    /// The game is over.
    Finished(TwentyOneOutcome),
}

/// The player's side of the table: decides to hit or stay, and sees every event. The
/// simulation's player follows a [`Strategy`] and ignores the events; an interactive player
/// asks a person and shows the events.
pub trait Player {
    /// Why a game may stop before its end (e.g. the person left); `Infallible` for a strategy.
    type Stop;

    /// Whether to take another card holding `hand` (at most 21, at least two cards).
    fn hit(&mut self, hand: &Hand) -> Result<bool, Self::Stop>;

    /// One event of the game; by default ignored.
    #[inline]
    fn event(&mut self, _event: Event) -> Result<(), Self::Stop> {
        Ok(())
    }
}

/// Plays one game from `deck` as it lies (the player takes the top two cards, then the cards
/// he hits for; the computer takes the next two and hits by `rules`). Stops early only when
/// `player` does. A game never needs more than the 52 cards; were the deck to run out, the
/// hand drawing would stop as it is.
pub fn play_round<P: Player + ?Sized>(
    deck: &mut Deck,
    rules: &Rules,
    player: &mut P,
) -> Result<TwentyOneOutcome, P::Stop> {
    let mut hand = Hand::new();
    while hand.len() < 2 || (!hand.is_bust() && player.hit(&hand)?) {
        let Some(card) = deck.deal() else { break };
        hand.push(card);
        player.event(Event::PlayerCard(card))?;
    }
    let player_total = small(hand.total());
    let player_cards = small(hand.len());
    let outcome = if hand.is_bust() {
        TwentyOneOutcome {
            player_won: false,
            player_bust: true,
            dealer_bust: false,
            player_total,
            dealer_total: 0,
            player_cards,
        }
    } else {
        let mut dealer = Hand::new();
        while dealer.len() < 2 || rules.dealer_should_hit(&dealer) {
            let Some(card) = deck.deal() else { break };
            dealer.push(card);
            player.event(Event::DealerCard(card))?;
        }
        let dealer_bust = dealer.is_bust();
        let dealer_total = small(dealer.total());
        TwentyOneOutcome {
            player_won: dealer_bust || player_total > dealer_total,
            player_bust: false,
            dealer_bust,
            player_total,
            dealer_total,
            player_cards,
        }
    };
    player.event(Event::Finished(outcome))?;
    Ok(outcome)
}

/// A player following a strategy at a table's rules, blind to the events.
struct Follows<'a>(&'a Strategy, &'a Rules);

impl Player for Follows<'_> {
    type Stop = Infallible;

    #[inline]
    fn hit(&mut self, hand: &Hand) -> Result<bool, Infallible> {
        Ok(self.0.should_hit(hand, self.1))
    }
}

/// One configured Twenty-One variant: the player's strategy against the computer, at the
/// table's rules.
#[derive(Clone, Debug)]
pub struct TwentyOne {
    /// How the player decides to hit or stay.
    pub strategy: Strategy,
    /// The table's rules (decks, ties, the computer's soft 17, what a natural pays).
    pub rules: Rules,
}

impl TwentyOne {
    /// The game with the player following `strategy`, at the default rules.
    pub fn new(strategy: Strategy) -> TwentyOne {
        TwentyOne::with_rules(strategy, Rules::default())
    }

    /// The game with the player following `strategy` at `rules`.
    pub fn with_rules(strategy: Strategy, rules: Rules) -> TwentyOne {
        TwentyOne { strategy, rules }
    }

    /// Plays one game from `deck` as it lies (the player takes the top two cards).
    pub fn play_deck(&self, deck: &mut Deck) -> TwentyOneOutcome {
        let Ok(outcome) = play_round(deck, &self.rules, &mut Follows(&self.strategy, &self.rules));
        outcome
    }

    /// Plays one game with a shoe shuffled from the [`SHOE`] stream: the same code in both
    /// designs.
    fn play_with(&self, streams: &mut impl Streams) -> TwentyOneOutcome {
        let mut deck = Deck::shuffled_shoe(self.rules.decks, streams.rng(SHOE));
        self.play_deck(&mut deck)
    }
}

impl Game for TwentyOne {
    type Outcome = TwentyOneOutcome;
    type Summary = TwentyOneSummary;

    fn play(&self, rng: &mut TrialRng) -> TwentyOneOutcome {
        self.play_with(&mut OneStream(rng))
    }

    fn play_common(&self, streams: &mut CommonStreams) -> TwentyOneOutcome {
        self.play_with(streams)
    }

    /// The study's metrics over every game: the four rates (0 or 1 per game) and the payoff
    /// (in twentieths of the stake, the step of a natural's payout).
    const PAIRED: &'static [Paired] = &[
        Paired {
            metric: "win_rate",
            scale: 1,
        },
        Paired {
            metric: "bust_rate",
            scale: 1,
        },
        Paired {
            metric: "dealer_bust_rate",
            scale: 1,
        },
        Paired {
            metric: "tie_rate",
            scale: 1,
        },
        Paired {
            metric: "mean_payoff",
            scale: 20,
        },
    ];

    fn paired_values(&self, outcome: &TwentyOneOutcome, values: &mut [i64]) {
        values[0] = i64::from(outcome.player_won);
        values[1] = i64::from(outcome.player_bust);
        values[2] = i64::from(outcome.dealer_bust);
        values[3] = i64::from(outcome.is_tie());
        values[4] = self.rules.payoff_twentieths(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cards::Suit;
    use crate::game::rules::{Soft17, Ties};
    use crate::game::testing::{card, cards};
    use experiment_engine::rng::trial_rng;

    fn play_stacked(strategy: Strategy, top: &[Card]) -> TwentyOneOutcome {
        let mut deck = Deck::stacked(top).expect("distinct cards");
        TwentyOne::new(strategy).play_deck(&mut deck)
    }

    #[test]
    fn ties_go_to_the_computer() {
        // Player 10, 8 stands on 18; computer 9, 9 stands on 18.
        let outcome = play_stacked(Strategy::StandAt(17), &cards(&[10, 8, 9, 9]));
        assert_eq!(
            outcome,
            TwentyOneOutcome {
                player_won: false,
                player_bust: false,
                dealer_bust: false,
                player_total: 18,
                dealer_total: 18,
                player_cards: 2,
            }
        );
        assert!(outcome.is_tie());
    }

    #[test]
    fn scripted_deck_plays_hits_then_computer_hits_to_a_soft_seventeen() {
        // Player 5, 6, then hits a K to 21; computer 2, 4, then A makes soft 17: stands.
        let outcome = play_stacked(Strategy::StandAt(17), &cards(&[5, 6, 13, 2, 4, 1, 10]));
        assert_eq!(
            outcome,
            TwentyOneOutcome {
                player_won: true,
                player_bust: false,
                dealer_bust: false,
                player_total: 21,
                dealer_total: 17,
                player_cards: 3,
            }
        );
    }

    fn play_at(rules: Rules, strategy: Strategy, top: &[Card]) -> TwentyOneOutcome {
        let mut deck = Deck::stacked_shoe(rules.decks, top).expect("cards the shoe holds");
        TwentyOne::with_rules(strategy, rules).play_deck(&mut deck)
    }

    #[test]
    fn a_tie_that_pushes_pays_nothing_and_is_no_win() {
        // Player 10, 8 stands on 18; computer 9, 9 stands on 18: a push.
        let push = Rules {
            tie: Ties::Push,
            ..Rules::default()
        };
        let outcome = play_at(push, Strategy::StandAt(17), &cards(&[10, 8, 9, 9]));
        assert!(outcome.is_tie() && !outcome.player_won);
        assert_eq!(push.payoff_twentieths(&outcome), 0);
        assert_eq!(Rules::default().payoff_twentieths(&outcome), -20);
    }

    #[test]
    fn a_computer_that_hits_soft_seventeen_draws_on_ace_six() {
        // Player 10, 9 stands on 19; computer A, 6 (soft 17), then 2: 19 under the hit rule.
        let top = cards(&[10, 9, 1, 6, 2, 10]);
        let stands = play_stacked(Strategy::StandAt(17), &top);
        assert!(stands.player_won);
        assert_eq!(stands.dealer_total, 17);
        let hits = Rules {
            soft_17: Soft17::Hit,
            ..Rules::default()
        };
        let drawn = play_at(hits, Strategy::StandAt(17), &top);
        assert!(!drawn.player_won && drawn.is_tie());
        assert_eq!((drawn.player_total, drawn.dealer_total), (19, 19));
    }

    #[test]
    fn a_natural_pays_what_the_rules_say_and_a_two_deck_shoe_deals_a_card_twice() {
        // Two decks: the player's A and K of hearts, the computer's A and K of hearts again.
        let two = Rules {
            decks: 2,
            tie: Ties::Push,
            natural_pays: 1.5,
            ..Rules::default()
        };
        let pair = [card(1, Suit::Hearts), card(13, Suit::Hearts)];
        let both = play_at(two, Strategy::StandAt(17), &[pair, pair].concat());
        assert!(both.is_natural() && both.is_tie() && !both.player_won);
        assert_eq!(two.payoff_twentieths(&both), 0);
        // The player's natural against the computer's 10, 9: a win paying 1.5.
        let win = play_at(two, Strategy::StandAt(17), &cards(&[1, 13, 10, 9]));
        assert!(win.is_natural() && win.player_won);
        assert_eq!(two.payoff_twentieths(&win), 30);
        assert_eq!(Deck::stacked(&[pair, pair].concat()), None);
    }

    #[test]
    fn player_bust_loses_at_once_and_computer_does_not_play() {
        let outcome = play_stacked(Strategy::StandAt(17), &cards(&[10, 6, 9, 2, 3]));
        assert!(outcome.player_bust && !outcome.player_won && !outcome.dealer_bust);
        assert_eq!((outcome.player_total, outcome.dealer_total), (25, 0));
        assert_eq!(outcome.player_cards, 3);
    }

    #[test]
    fn computer_bust_is_a_player_win_even_on_a_low_total() {
        // Player stays on 12 (stand_at 12); computer 10, 6, hits 8 to 24.
        let outcome = play_stacked(Strategy::StandAt(12), &cards(&[10, 2, 10, 6, 8]));
        assert!(outcome.player_won && outcome.dealer_bust && !outcome.player_bust);
        assert_eq!((outcome.player_total, outcome.dealer_total), (12, 24));
    }

    #[test]
    fn same_trial_stream_replays_the_same_game() {
        let game = TwentyOne::new(Strategy::StandAt(17));
        for i in 0..50 {
            assert_eq!(
                game.play(&mut trial_rng(3, 1, i)),
                game.play(&mut trial_rng(3, 1, i))
            );
        }
    }

    /// Answers from a script and records every event.
    struct Scripted {
        answers: Vec<bool>,
        asked: Vec<u16>,
        events: Vec<Event>,
    }

    impl Player for Scripted {
        type Stop = &'static str;

        fn hit(&mut self, hand: &Hand) -> Result<bool, &'static str> {
            self.asked.push(hand.total());
            if self.answers.is_empty() {
                Err("left the table")
            } else {
                Ok(self.answers.remove(0))
            }
        }

        fn event(&mut self, event: Event) -> Result<(), &'static str> {
            self.events.push(event);
            Ok(())
        }
    }

    fn scripted(answers: &[bool]) -> Scripted {
        Scripted {
            answers: answers.to_vec(),
            asked: Vec::new(),
            events: Vec::new(),
        }
    }

    #[test]
    fn the_player_sees_every_card_in_order_and_the_result_last() {
        use Suit::*;
        let top = [
            card(10, Hearts),
            card(6, Spades),
            card(2, Clubs),
            card(9, Diamonds),
            card(7, Clubs),
            card(1, Hearts),
        ];
        let mut deck = Deck::stacked(&top).expect("distinct cards");
        let mut player = scripted(&[true, false]);
        let outcome =
            play_round(&mut deck, &Rules::default(), &mut player).expect("the script suffices");
        assert_eq!(player.asked, [16, 18]);
        let expected = [
            Event::PlayerCard(top[0]),
            Event::PlayerCard(top[1]),
            Event::PlayerCard(top[2]),
            Event::DealerCard(top[3]),
            Event::DealerCard(top[4]),
            Event::DealerCard(top[5]),
            Event::Finished(outcome),
        ];
        assert_eq!(player.events, expected);
        assert!(outcome.player_won);
        assert_eq!((outcome.player_total, outcome.dealer_total), (18, 17));
        // The same deck and decisions give the same outcome as a strategy standing on 18.
        let mut deck = Deck::stacked(&top).expect("distinct cards");
        assert_eq!(
            TwentyOne::new(Strategy::StandAt(18)).play_deck(&mut deck),
            outcome
        );
    }

    #[test]
    fn a_bust_hand_is_not_asked_again_and_a_stopping_player_ends_the_game() {
        let mut deck = Deck::stacked(&cards(&[10, 6, 9])).expect("distinct cards");
        let mut player = scripted(&[true]);
        let outcome =
            play_round(&mut deck, &Rules::default(), &mut player).expect("no second question");
        assert!(outcome.player_bust);
        assert_eq!(player.asked, [16]);
        assert!(!player
            .events
            .iter()
            .any(|e| matches!(e, Event::DealerCard(_))));
        let mut deck = Deck::stacked(&cards(&[10, 6, 9])).expect("distinct cards");
        let mut leaving = scripted(&[]);
        assert_eq!(
            play_round(&mut deck, &Rules::default(), &mut leaving),
            Err("left the table")
        );
        assert_eq!(leaving.events.len(), 2, "only the opening cards were dealt");
    }
}
