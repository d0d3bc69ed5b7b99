//! Monopoly landing frequencies: tokens moved by two dice, doubles, Chance and Community
//! Chest cards and the jail, counting where each move ends (the seed's homework rules).
//!
//! Public tallies are indexed by 0-based board index (index 0 = square 1 "Go", index 10 =
//! square 11 "Jail"); traces speak the seed's 1-based square numbers.

pub mod board;
pub mod cards;
pub mod engine;
mod random;
pub mod stats;
pub mod trace;

use rand::RngCore;

use crate::games::Game;
use crate::rng::TrialRng;

pub use board::{BOARD_SIZE, SQUARES};
pub use cards::{Card, CardSource, ChanceCard, ChestCard, Deck, ParseCardError, ScriptedCard};
pub use engine::{take_turn, DiceSource, NoObserver, Player, Roll, TraceEvent, TurnObserver};
pub use stats::MonopolySummary;
pub use trace::{trace, Trace, TraceError};

/// How a player gets out of jail.
#[derive(
    Clone,
    Copy,
    Debug,
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
#[value(rename_all = "snake_case")]
pub enum JailStrategy {
    /// Never pay (the seed's): the turn he is sent there is not a jail turn; on each later
    /// turn he throws, leaving on doubles (moving that throw, no extra throw) and otherwise
    /// staying (Jail counted), until his third jail turn, when he moves whatever he throws.
    LongStay,
    /// Pay at once: on his first jail turn he pays and moves that throw (doubles give no
    /// extra throw).
    ShortStay,
}

impl JailStrategy {
    /// Both strategies.
    pub const ALL: [Self; 2] = [JailStrategy::LongStay, JailStrategy::ShortStay];

    /// The snake_case name: `long_stay` or `short_stay`.
    pub fn name(self) -> &'static str {
        match self {
            JailStrategy::LongStay => "long_stay",
            JailStrategy::ShortStay => "short_stay",
        }
    }

    /// The strategy with this snake_case name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// How cards are drawn.
#[derive(
    Clone,
    Copy,
    Debug,
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
#[value(rename_all = "snake_case")]
pub enum CardModel {
    /// Each draw uniform over the full deck (the seed's code).
    WithReplacement,
    /// Each deck shuffled once per game with the trial RNG, shared by the game's players, and
    /// drawn in order, cycling (the real game).
    ShuffledDeck,
}

impl CardModel {
    /// Both card models.
    pub const ALL: [Self; 2] = [CardModel::WithReplacement, CardModel::ShuffledDeck];

    /// The snake_case name: `with_replacement` or `shuffled_deck`.
    pub fn name(self) -> &'static str {
        match self {
            CardModel::WithReplacement => "with_replacement",
            CardModel::ShuffledDeck => "shuffled_deck",
        }
    }

    /// The card model with this snake_case name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Most players seated at one table: their turns interleave (player 1, player 2, ... each
/// turn) as in the real game. Larger games are played as consecutive tables of this size
/// sharing the game's decks; for `players <= TABLE_SIZE` that is exactly the real turn order.
pub const TABLE_SIZE: usize = 8;

/// One variant: a game of `turns` turns for `players` non-interacting players, all starting
/// on Go; one trial is one game, whose landings of all players add into one tally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Monopoly {
    /// How players leave jail.
    pub jail: JailStrategy,
    /// How cards are drawn.
    pub cards: CardModel,
    /// Turns per player per game.
    pub turns: u32,
    /// Players per game.
    pub players: u32,
}

impl Default for Monopoly {
    /// The seed's set-up: long stay, cards with replacement, 150 turns, 2 players.
    fn default() -> Self {
        Monopoly {
            jail: JailStrategy::LongStay,
            cards: CardModel::WithReplacement,
            turns: 150,
            players: 2,
        }
    }
}

/// One game's landings, all players together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonopolyOutcome {
    /// Landings per square (index 0 = square 1, Go).
    pub landings: [u32; BOARD_SIZE],
}

impl Monopoly {
    /// Checks the set-up: at least one turn and one player, and few enough throws per game
    /// (at most 3 per turn) that no square's per-game count can overflow a `u32` (counts
    /// saturate rather than wrap if this is ignored).
    pub fn validate(&self) -> Result<(), String> {
        if self.turns == 0 || self.players == 0 {
            return Err(format!(
                "a Monopoly game needs at least one turn and one player (got {} turns, {} players)",
                self.turns, self.players
            ));
        }
        let throws = 3 * u64::from(self.turns) * u64::from(self.players);
        if throws > u64::from(u32::MAX) {
            return Err(format!(
                "{} turns x {} players is too many for per-game u32 landing counts \
                 (at most {} player-turns)",
                self.turns,
                self.players,
                u32::MAX / 3
            ));
        }
        Ok(())
    }

    /// Plays one game, showing every event to `observer` ([`Game::play`] is this with
    /// [`NoObserver`]). Events carry the 0-based player number.
    pub fn play_observed<R: RngCore, O: TurnObserver>(
        &self,
        rng: &mut R,
        observer: &mut O,
    ) -> MonopolyOutcome {
        let landings = match self.cards {
            CardModel::WithReplacement => {
                self.play_from(&mut random::WithReplacement::new(rng), observer)
            }
            CardModel::ShuffledDeck => {
                self.play_from(&mut random::ShuffledDecks::new(rng), observer)
            }
        };
        MonopolyOutcome { landings }
    }

    #[inline(always)]
    fn play_from<S, O>(&self, src: &mut S, observer: &mut O) -> [u32; BOARD_SIZE]
    where
        S: DiceSource<Error = std::convert::Infallible>
            + CardSource<Error = std::convert::Infallible>,
        O: TurnObserver,
    {
        let mut tally = [0u32; BOARD_SIZE];
        let mut first = 0u32;
        while first < self.players {
            let seated = (self.players - first).min(TABLE_SIZE as u32);
            let mut table = [Player::START; TABLE_SIZE];
            for turn in 1..=self.turns {
                for (id, player) in (first..).zip(&mut table[..seated as usize]) {
                    let result = take_turn(self.jail, player, id, turn, src, observer, &mut tally);
                    if let Err(never) = result {
                        match never {}
                    }
                }
            }
            first += seated;
        }
        tally
    }
}

impl Game for Monopoly {
    type Outcome = MonopolyOutcome;
    type Summary = MonopolySummary;

    fn play(&self, rng: &mut TrialRng) -> MonopolyOutcome {
        self.play_observed(rng, &mut NoObserver)
    }
}

#[cfg(test)]
mod tests {
    use super::engine::JailCause;
    use super::*;
    use crate::exact::monopoly::expected_landings;
    use crate::rng::trial_rng;
    use crate::summary::Summary;
    use proptest::prelude::*;

    #[test]
    fn names_round_trip() {
        for jail in JailStrategy::ALL {
            assert_eq!(JailStrategy::from_name(jail.name()), Some(jail));
        }
        for cards in CardModel::ALL {
            assert_eq!(CardModel::from_name(cards.name()), Some(cards));
        }
        assert_eq!(
            JailStrategy::from_name("long_stay"),
            Some(JailStrategy::LongStay)
        );
        assert_eq!(
            CardModel::from_name("shuffled_deck"),
            Some(CardModel::ShuffledDeck)
        );
        assert_eq!(JailStrategy::from_name("LongStay"), None);
        assert_eq!(CardModel::from_name(""), None);
    }

    #[test]
    fn validation_rejects_empty_and_overflowing_games() {
        assert!(Monopoly::default().validate().is_ok());
        let empty = Monopoly {
            players: 0,
            ..Monopoly::default()
        };
        assert!(empty.validate().is_err());
        let huge = Monopoly {
            turns: u32::MAX,
            ..Monopoly::default()
        };
        assert!(huge.validate().is_err());
    }

    #[test]
    fn a_game_is_a_pure_function_of_its_rng() {
        for cards in CardModel::ALL {
            let game = Monopoly {
                cards,
                ..Monopoly::default()
            };
            let a = game.play(&mut trial_rng(5, 0, 1));
            let b = game.play(&mut trial_rng(5, 0, 1));
            let c = game.play(&mut trial_rng(5, 0, 2));
            assert_eq!(a, b);
            assert_ne!(a, c);
            assert!(a.landings.iter().sum::<u32>() >= 300);
            assert_eq!(a.landings[30], 0);
        }
    }

    /// Simulated relative frequencies against the exact chain (cards with replacement):
    /// every square within 4.5 delta-method standard errors.
    fn agrees_with_exact_chain(jail: JailStrategy, turns: u32, games: u64, seed: u64) {
        let game = Monopoly {
            jail,
            cards: CardModel::WithReplacement,
            turns,
            players: 2,
        };
        let mut summary = MonopolySummary::default();
        for i in 0..games {
            summary.record(&game.play(&mut trial_rng(seed, 0, i)));
        }
        let expected = expected_landings(jail, turns);
        let expected_total: f64 = expected.iter().sum();
        for (index, &exact) in expected.iter().enumerate() {
            let exact = exact / expected_total;
            let (freq, se) = summary.frequency(index);
            if index == 30 {
                assert_eq!((freq, exact), (0.0, 0.0));
                continue;
            }
            let z = (freq - exact) / se;
            assert!(
                z.abs() < 4.5,
                "{} square {}: sim {freq:.5} exact {exact:.5} se {se:.6} z {z:.2}",
                jail.name(),
                index + 1
            );
        }
        // The expected landings per game (two players) against the mean game total.
        let mean_total = summary.total() as f64 / games as f64;
        assert!((mean_total - 2.0 * expected_total).abs() < 0.05 * expected_total);
    }

    #[test]
    fn long_stay_simulation_agrees_with_the_exact_chain() {
        agrees_with_exact_chain(JailStrategy::LongStay, 150, 20_000, 2024);
    }

    #[test]
    fn short_stay_simulation_agrees_with_the_exact_chain() {
        agrees_with_exact_chain(JailStrategy::ShortStay, 150, 20_000, 2025);
    }

    #[test]
    fn short_games_follow_the_chain_from_go() {
        agrees_with_exact_chain(JailStrategy::LongStay, 3, 40_000, 2026);
    }

    #[test]
    fn shuffled_decks_shift_go_and_jail_only_slightly() {
        // Not an exact model, but each deck still sends 1 draw in 15 or 16 to Go and to
        // jail: frequencies stay within 10% of the replacement chain's long-run shares.
        let game = Monopoly {
            cards: CardModel::ShuffledDeck,
            ..Monopoly::default()
        };
        let mut summary = MonopolySummary::default();
        for i in 0..5_000 {
            summary.record(&game.play(&mut trial_rng(77, 1, i)));
        }
        let expected = expected_landings(JailStrategy::LongStay, 150);
        let total: f64 = expected.iter().sum();
        for index in [0, 10] {
            let (freq, _) = summary.frequency(index);
            let exact = expected[index] / total;
            assert!(
                (freq / exact - 1.0).abs() < 0.1,
                "{index}: {freq} vs {exact}"
            );
        }
    }

    /// Collects every event of a game.
    #[derive(Default)]
    struct Events(Vec<TraceEvent>);

    impl TurnObserver for Events {
        fn event(&mut self, event: TraceEvent) {
            self.0.push(event);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn every_game_keeps_the_landing_invariants(
            seed in any::<u64>(),
            short in any::<bool>(),
            shuffled in any::<bool>(),
            turns in 1u32..80,
            players in 1u32..12,
        ) {
            let game = Monopoly {
                jail: if short { JailStrategy::ShortStay } else { JailStrategy::LongStay },
                cards: if shuffled { CardModel::ShuffledDeck } else { CardModel::WithReplacement },
                turns,
                players,
            };
            let mut events = Events::default();
            let outcome = game.play_observed(&mut trial_rng(seed, 0, 0), &mut events);
            let events = events.0;
            prop_assert_eq!(outcome, game.play(&mut trial_rng(seed, 0, 0)));

            let mut tally = [0u32; BOARD_SIZE];
            let (mut landings, mut rolls, mut moves, mut stays, mut arrests) = (0, 0, 0, 0, 0);
            let mut starts = 0u32;
            // Per player: did his previous turn end in jail (sent there, or stayed)?
            let mut ended_in_jail = vec![false; players as usize];
            let mut current = 0usize;
            let on_board = |square: u8| (1..=40).contains(&square);
            for event in &events {
                match *event {
                    TraceEvent::TurnStart { player, square, jail_turn, .. } => {
                        starts += 1;
                        current = player as usize;
                        prop_assert!(on_board(square) && square != 31);
                        let max_jail_turn = if short { 1 } else { 3 };
                        prop_assert!(jail_turn <= max_jail_turn);
                        prop_assert!(jail_turn == 0 || square == 11);
                        // In jail at the start of a turn exactly when the previous turn ended
                        // there; with short stay that needs a new arrest, never a stay.
                        prop_assert_eq!(jail_turn > 0, ended_in_jail[current]);
                        ended_in_jail[current] = false;
                    }
                    TraceEvent::SentToJail { cause } => {
                        ended_in_jail[current] = true;
                        if cause == JailCause::ThirdDoubles {
                            arrests += 1;
                        }
                    }
                    TraceEvent::StayInJail { .. } => {
                        prop_assert!(!short, "a short-stay player never stays in jail");
                        ended_in_jail[current] = true;
                        stays += 1;
                    }
                    TraceEvent::Roll { .. } => rolls += 1,
                    TraceEvent::Move { from, to, steps } => {
                        moves += 1;
                        prop_assert!(on_board(from) && on_board(to) && (2..=12).contains(&steps));
                    }
                    TraceEvent::CardMove { from, to } => {
                        prop_assert!(on_board(from) && on_board(to));
                    }
                    TraceEvent::Landing { square } => {
                        landings += 1;
                        prop_assert!(on_board(square) && square != 31);
                        tally[usize::from(square - 1)] += 1;
                    }
                    _ => {}
                }
            }
            prop_assert_eq!(starts, turns * players);
            prop_assert_eq!(landings, moves + stays + arrests);
            prop_assert_eq!(landings, rolls);
            prop_assert_eq!(tally, outcome.landings);
            prop_assert_eq!(outcome.landings[30], 0);
        }
    }
}
