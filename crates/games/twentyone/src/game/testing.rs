//! Cards by rank for the rules' unit tests.

use super::cards::{Card, Suit};

pub fn card(rank: u8, suit: Suit) -> Card {
    Card::new(rank, suit).expect("test ranks are valid")
}

pub fn cards(ranks: &[u8]) -> Vec<Card> {
    ranks
        .iter()
        .enumerate()
        .map(|(i, &rank)| card(rank, Suit::ALL[i % 4]))
        .collect()
}
