//! The table rules a spec may change: how many decks are shuffled together, who takes a tie,
//! whether the computer hits a soft 17, and what a win on a natural pays. The defaults are the
//! game as it has always been played here (one deck, ties to the computer, the computer stands
//! on a soft 17, a natural pays like any win).

use super::hand::{Hand, DEALER_STANDS_AT, FULL_DECK_COUNTS, VALUES};
use super::play::TwentyOneOutcome;

/// Who takes a tie (both players at or under 21 with the same total).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Ties {
    /// The computer wins a tie (the player loses one unit).
    #[default]
    Dealer,
    /// A tie is a push: nobody wins, the player's payoff is 0.
    Push,
}

/// What the computer does holding a soft 17 (an ace counted as 11 and a total of 17).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Soft17 {
    /// The computer stands on every 17, soft or hard.
    #[default]
    Stand,
    /// The computer hits a soft 17 (and stands on a hard one).
    Hit,
}

/// The table rules of one game of Twenty-One.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// How many 52-card decks are shuffled together for each game (1 to [`Rules::MAX_DECKS`]).
    pub decks: u8,
    /// Who takes a tie.
    pub tie: Ties,
    /// What the computer does on a soft 17.
    pub soft_17: Soft17,
    /// What a win pays when the player stood on a natural (his first two cards making 21), in
    /// units of the stake; any other win pays 1, a loss costs 1 and a push 0.
    pub natural_pays: f64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            decks: 1,
            tie: Ties::Dealer,
            soft_17: Soft17::Stand,
            natural_pays: 1.0,
        }
    }
}

impl Rules {
    /// The most decks a shoe may hold (eight, as in the largest casino shoes).
    pub const MAX_DECKS: u8 = 8;

    /// The largest payout a natural may have (2 to 1).
    pub const MAX_NATURAL_PAYS: f64 = 2.0;

    /// The payouts of a natural are whole multiples of this (1/20 of the stake: 1, 1.2 for 6:5,
    /// 1.5 for 3:2, 2 for 2:1 …), so that payoffs count exactly in twentieths.
    pub const PAYOUT_STEP: f64 = 0.05;

    /// How many cards of each value the shoe holds, indexed by value - 1.
    pub fn full_counts(&self) -> [u8; VALUES] {
        FULL_DECK_COUNTS.map(|count| count * self.decks)
    }

    /// How many cards the shoe holds.
    pub fn cards(&self) -> usize {
        52 * usize::from(self.decks)
    }

    /// The cards of the shoe that are not in `hand`, counted by value (index value - 1).
    pub fn unseen(&self, hand: &Hand) -> [u8; VALUES] {
        let mut unseen = self.full_counts();
        for (left, held) in unseen.iter_mut().zip(hand.counts()) {
            *left = left.saturating_sub(held);
        }
        unseen
    }

    /// The computer's rule: hit below 17, and on a soft 17 when [`Soft17::Hit`].
    #[inline]
    pub fn dealer_should_hit(&self, hand: &Hand) -> bool {
        let total = hand.total();
        total < DEALER_STANDS_AT
            || (total == DEALER_STANDS_AT && self.soft_17 == Soft17::Hit && hand.is_soft())
    }

    /// Whether a game's payoff can differ from +1 for a win and -1 for anything else: ties push
    /// or a natural pays more than 1. Only then is the mean payoff worth reporting beside the
    /// win rate.
    pub fn payoff_matters(&self) -> bool {
        self.tie == Ties::Push || self.natural_pays != 1.0
    }

    /// Why `natural_pays` is not a payout a natural may have, if it is not: it must be a
    /// multiple of [`Rules::PAYOUT_STEP`] from 1 to [`Rules::MAX_NATURAL_PAYS`].
    pub fn natural_pays_error(natural_pays: f64) -> Option<String> {
        let twentieths = natural_pays / Self::PAYOUT_STEP;
        let whole = (twentieths - twentieths.round()).abs() <= 1e-9;
        (!(whole && (1.0..=Self::MAX_NATURAL_PAYS).contains(&natural_pays))).then(|| {
            format!(
                "natural_pays needs a multiple of 0.05 from 1 to 2 (e.g. 1.2 for 6:5, 1.5 for \
                 3:2), got {natural_pays}"
            )
        })
    }

    /// A natural's payout in twentieths of the stake (e.g. 30 for 1.5).
    pub fn natural_twentieths(&self) -> i64 {
        (self.natural_pays / Self::PAYOUT_STEP).round() as i64
    }

    /// The player's payoff of `outcome` in twentieths of the stake: `natural_pays` for a win on
    /// a natural, 1 for any other win, 0 for a tie that pushes, -1 otherwise.
    pub fn payoff_twentieths(&self, outcome: &TwentyOneOutcome) -> i64 {
        if outcome.player_won {
            if outcome.is_natural() {
                self.natural_twentieths()
            } else {
                20
            }
        } else if outcome.is_tie() && self.tie == Ties::Push {
            0
        } else {
            -20
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::testing::cards;

    #[test]
    fn the_computer_hits_a_soft_seventeen_only_under_that_rule() {
        let hits = Rules {
            soft_17: Soft17::Hit,
            ..Rules::default()
        };
        let soft = Hand::from_cards(&cards(&[1, 6]));
        let hard = Hand::from_cards(&cards(&[10, 7]));
        let soft_eighteen = Hand::from_cards(&cards(&[1, 7]));
        assert!(!Rules::default().dealer_should_hit(&soft));
        assert!(hits.dealer_should_hit(&soft));
        assert!(!hits.dealer_should_hit(&hard));
        assert!(!hits.dealer_should_hit(&soft_eighteen));
        assert!(hits.dealer_should_hit(&Hand::from_cards(&cards(&[10, 6]))));
    }

    #[test]
    fn a_shoe_of_decks_counts_every_value_that_many_times() {
        let two = Rules {
            decks: 2,
            ..Rules::default()
        };
        assert_eq!(two.full_counts(), [8, 8, 8, 8, 8, 8, 8, 8, 8, 32]);
        assert_eq!(two.cards(), 104);
        let hand = Hand::from_cards(&cards(&[10, 13, 1]));
        assert_eq!(two.unseen(&hand), [7, 8, 8, 8, 8, 8, 8, 8, 8, 30]);
        assert_eq!(Rules::default().unseen(&hand), hand.unseen_counts());
        let eight = Rules {
            decks: Rules::MAX_DECKS,
            ..Rules::default()
        };
        assert_eq!(eight.full_counts()[9], 128);
    }

    #[test]
    fn payoffs_follow_ties_and_what_a_natural_pays() {
        let outcome = |won, total, cards, dealer_total| TwentyOneOutcome {
            player_won: won,
            player_bust: false,
            dealer_bust: false,
            player_total: total,
            dealer_total,
            player_cards: cards,
        };
        let push = Rules {
            tie: Ties::Push,
            natural_pays: 1.5,
            ..Rules::default()
        };
        let tie = outcome(false, 18, 2, 18);
        let natural = outcome(true, 21, 2, 20);
        let three_card_21 = outcome(true, 21, 3, 20);
        let loss = outcome(false, 17, 2, 19);
        assert_eq!(Rules::default().payoff_twentieths(&tie), -20);
        assert_eq!(push.payoff_twentieths(&tie), 0);
        assert_eq!(push.payoff_twentieths(&natural), 30);
        assert_eq!(Rules::default().payoff_twentieths(&natural), 20);
        assert_eq!(push.payoff_twentieths(&three_card_21), 20);
        assert_eq!(push.payoff_twentieths(&loss), -20);
        assert!(!Rules::default().payoff_matters());
        assert!(push.payoff_matters());
        let six_to_five = Rules {
            natural_pays: 1.2,
            ..Rules::default()
        };
        assert_eq!(six_to_five.natural_twentieths(), 24);
    }

    #[test]
    fn rule_names_are_the_documented_ones_in_specs_and_on_the_command_line() {
        use experiment_engine::games::choice_names::{command_line_names, derived_names};
        assert_eq!(derived_names(|&t: &Ties| t.into()), ["dealer", "push"]);
        assert_eq!(derived_names(|&s: &Soft17| s.into()), ["stand", "hit"]);
        assert_eq!(command_line_names::<Ties>(), ["dealer", "push"]);
        assert_eq!(command_line_names::<Soft17>(), ["stand", "hit"]);
    }

    #[test]
    fn a_natural_pays_whole_twentieths_from_one_to_two() {
        for fine in [1.0, 1.2, 1.25, 1.5, 2.0] {
            assert_eq!(Rules::natural_pays_error(fine), None, "{fine}");
        }
        for refused in [0.95, 1.23, 2.05, f64::NAN] {
            let message = Rules::natural_pays_error(refused).expect("refused");
            assert!(
                message.contains("multiple of 0.05 from 1 to 2"),
                "{message}"
            );
        }
    }
}
