//! Twenty-One: a simplified blackjack against the computer.
//!
//! By default one shuffled 52-card deck per game. Ranks 2-10 score their face value, J/Q/K
//! score 10, and an ace scores 11 unless that takes the hand over 21, when it scores 1 (with
//! several aces the hand counts the best total at most 21, if there is one). The player takes
//! two cards and hits or stays; going over 21 loses at once. Then the computer takes the next
//! two cards and hits until its total is at least 17 (it stands on a soft 17). If the computer
//! goes over 21 the player wins; otherwise the higher total wins and a tie goes to the
//! computer. Those are the default [`Rules`]; a spec may change the number of decks, who takes
//! a tie, the computer's soft 17 and what a win on a natural pays.
//!
//! One module per concern: [`cards`] (cards and the shoe), [`hand`] (scoring), [`rules`] (the
//! table rules, the computer's among them), [`strategy`] (the player's rules), [`play`] (one
//! game, observed) and [`summary`] (what trials fold into). The interactive game lives in
//! `commands`; it plays through [`play_round`] like the simulation.

pub mod cards;
pub mod hand;
pub mod play;
pub mod rules;
pub mod strategy;
pub mod summary;
#[cfg(test)]
mod testing;

pub use cards::{Card, Deck, Suit, DECK_SIZE, FRESH_DECK};
pub use hand::{
    hand_total, keep_probability, keep_probability_in, Hand, DEALER_STANDS_AT, FULL_DECK_COUNTS,
    TARGET, VALUES,
};
pub use play::{play_round, Event, Player, TwentyOne, TwentyOneOutcome, SHOE};
pub use rules::{Rules, Soft17, Ties};
pub use strategy::{HitPolicy, Strategy, StrategyError, StrategyName};
pub use summary::TwentyOneSummary;
