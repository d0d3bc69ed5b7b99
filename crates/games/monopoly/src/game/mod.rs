//! Monopoly landing frequencies: tokens moved by two dice, doubles, Chance and Community
//! Chest cards and the jail, counting where each throw (or, by rule, each turn) ends
//! (movement only: no money, no property).
//!
//! Public tallies are indexed by 0-based board index (index 0 = square 1 "Go", index 10 =
//! square 11 "Jail"); traces speak the board's 1-based square numbers (1 = Go, 40 = Boardwalk).

pub mod board;
pub mod cards;
pub mod engine;
mod machine;
mod random;
pub mod rules;
pub mod stats;
pub mod trace;

use experiment_engine::games::{Game, Paired};
use experiment_engine::rng::{CommonStreams, OneStream, Streams, TrialRng};

pub use board::{BOARD_SIZE, SQUARES};
pub use cards::{Card, CardSource, ChanceCard, ChestCard, Deck, ParseCardError, ScriptedCard};
pub use engine::{take_turn, DiceSource, NoObserver, Player, Roll, TraceEvent, TurnObserver};
pub use random::{pair_throws, CHANCE_SHUFFLE, CHEST_SHUFFLE, FIRST_PAIR_THROWS};
pub use rules::{ChanceDeck, Count, Rules};
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
    strum::VariantArray,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum JailStrategy {
    /// Never pay unless forced: the turn he is sent there is not a jail turn; on each later turn
    /// he throws, leaving on doubles (moving that throw, no extra throw) and otherwise
    /// staying (Jail counted), until his third jail turn, when he moves whatever he throws.
    LongStay,
    /// Pay at once: on his first jail turn he pays and moves that throw (doubles give no
    /// extra throw).
    ShortStay,
    /// Pay at once and play a whole turn: on his first jail turn he pays and plays a free turn
    /// from Jail (doubles throw again, a third double sends him back), Project Euler 84's
    /// reading of "pay to get out on the next turn".
    ShortStayFullTurn,
}

impl JailStrategy {
    /// Every strategy, in declaration order.
    pub const ALL: &'static [Self] = <Self as strum::VariantArray>::VARIANTS;

    /// The snake_case name (from the derives): `long_stay`, `short_stay` or
    /// `short_stay_full_turn`.
    pub fn name(self) -> &'static str {
        self.into()
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
    strum::VariantArray,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum CardModel {
    /// Each draw uniform over the full deck of 15 or 16 cards, as if every card drawn were put
    /// back at once.
    WithReplacement,
    /// Each deck shuffled once per game with the trial RNG, shared by the game's players, and
    /// drawn in order, cycling (the real game).
    ShuffledDeck,
}

impl CardModel {
    /// Both card models, in declaration order.
    pub const ALL: &'static [Self] = <Self as strum::VariantArray>::VARIANTS;

    /// The snake_case name (from the derives): `with_replacement` or `shuffled_deck`.
    pub fn name(self) -> &'static str {
        self.into()
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
    /// The dice, what is counted and the Chance deck.
    pub rules: Rules,
}

impl Default for Monopoly {
    /// The standard set-up: long stay, cards with replacement, 150 turns, 2 players, the
    /// default [`Rules`].
    fn default() -> Self {
        Monopoly {
            jail: JailStrategy::LongStay,
            cards: CardModel::WithReplacement,
            turns: 150,
            players: 2,
            rules: Rules::default(),
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
        self.rules.validate()?;
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

    /// Plays one game through the turn engine, showing every event to `observer`. Events
    /// carry the 0-based player number. [`Game::play`] gives the same landings for the same
    /// stream (with cards drawn with replacement it plays them on a faster state machine).
    pub fn play_observed<O: TurnObserver>(
        &self,
        rng: &mut TrialRng,
        observer: &mut O,
    ) -> MonopolyOutcome {
        self.play_streams_observed(&mut OneStream(rng), observer)
    }

    /// Plays one game through the turn engine from `streams`, one purpose per job the
    /// randomness does (see [`pair_throws`], [`CHANCE_SHUFFLE`], [`CHEST_SHUFFLE`]), showing
    /// every event to `observer`: from [`OneStream`] exactly [`Monopoly::play_observed`]'s
    /// game; from [`CommonStreams`] the common design's.
    pub fn play_streams_observed<S: Streams, O: TurnObserver>(
        &self,
        streams: &mut S,
        observer: &mut O,
    ) -> MonopolyOutcome {
        let landings = match self.cards {
            CardModel::WithReplacement => {
                let mut cards = random::WithReplacement {
                    chance: self.rules.chance.cards(),
                };
                self.play_from(streams, &mut cards, observer)
            }
            CardModel::ShuffledDeck => {
                let mut decks = random::ShuffledDecks::new(streams, self.rules.chance.cards());
                self.play_from(streams, &mut decks, observer)
            }
        };
        MonopolyOutcome { landings }
    }

    /// The engine's game: tables of at most [`TABLE_SIZE`] players, each pair of seats reading
    /// its stream, seeded as its table sits down, turns in seat order.
    #[inline(always)]
    fn play_from<S, C, O>(
        &self,
        streams: &mut S,
        cards: &mut C,
        observer: &mut O,
    ) -> [u32; BOARD_SIZE]
    where
        S: Streams,
        C: random::Cards,
        O: TurnObserver,
    {
        let mut tally = [0u32; BOARD_SIZE];
        let shape = random::Shape::of(&self.rules);
        let mut first = 0u32;
        while first < self.players {
            let seated = (self.players - first).min(TABLE_SIZE as u32) as usize;
            // Tables of eight hold whole pairs: pair `pair` of this table is the game's
            // pair `first / 2 + pair`.
            let mut pairs: Vec<random::PairStream> = (0..seated.div_ceil(2))
                .map(|pair| {
                    let players = (seated - 2 * pair).min(2);
                    random::PairStream::of_pair(streams, first / 2 + pair as u32, players)
                })
                .collect();
            let mut table = [Player::START; TABLE_SIZE];
            for turn in 1..=self.turns {
                for (seat, (id, player)) in (first..).zip(&mut table[..seated]).enumerate() {
                    let stream = &mut pairs[seat / 2];
                    let mut src = random::TurnSource::new(stream, seat % 2, cards, shape);
                    let result = take_turn(
                        self.jail, self.rules, player, id, turn, &mut src, observer, &mut tally,
                    );
                    if let Err(never) = result {
                        match never {}
                    }
                }
            }
            first += seated as u32;
        }
        tally
    }

    /// Whether the state machine plays this game: cards drawn with replacement under the
    /// default [`Rules`] (every other game is played through the turn engine).
    fn on_machine(&self) -> bool {
        self.cards == CardModel::WithReplacement && self.rules == Rules::default()
    }

    /// The same game as [`Monopoly::play_observed`] with cards drawn with replacement, played
    /// on the state machine: players in pairs side by side (their streams are independent).
    fn play_machine<S: Streams>(&self, streams: &mut S) -> [u32; BOARD_SIZE] {
        let machine = machine::Machine::of(self.jail);
        let mut tally: machine::Tally = [0; 64];
        // Tables of eight hold whole pairs, so pairs follow the players' order across tables.
        let mut left = self.players as usize;
        let mut pair = 0;
        while left > 0 {
            let players = left.min(2);
            let mut stream = random::PairStream::of_pair(streams, pair, players);
            machine.play_pair(&mut stream, players, self.turns, &mut tally);
            left -= players;
            pair += 1;
        }
        let mut landings = [0u32; BOARD_SIZE];
        landings.copy_from_slice(&tally[..BOARD_SIZE]);
        landings
    }
}

impl Monopoly {
    /// One game from `streams`: on the state machine when it plays this game, else through
    /// the turn engine (the same landings either way).
    fn play_with<S: Streams>(&self, streams: &mut S) -> MonopolyOutcome {
        if self.on_machine() {
            MonopolyOutcome {
                landings: self.play_machine(streams),
            }
        } else {
            self.play_streams_observed(streams, &mut NoObserver)
        }
    }
}

impl Game for Monopoly {
    type Outcome = MonopolyOutcome;
    type Summary = MonopolySummary;

    fn play(&self, rng: &mut TrialRng) -> MonopolyOutcome {
        self.play_with(&mut OneStream(rng))
    }

    fn play_common(&self, streams: &mut CommonStreams) -> MonopolyOutcome {
        self.play_with(streams)
    }

    /// Per game, all players together: the landings, those on Jail and those on Go.
    const PAIRED: &'static [Paired] = &[
        Paired {
            metric: "mean_landings",
            scale: 1,
        },
        Paired {
            metric: "mean_jail_landings",
            scale: 1,
        },
        Paired {
            metric: "mean_go_landings",
            scale: 1,
        },
    ];

    fn paired_values(&self, outcome: &MonopolyOutcome, values: &mut [i64]) {
        let landings = &outcome.landings;
        values.copy_from_slice(&[
            landings.iter().map(|&c| i64::from(c)).sum(),
            i64::from(landings[usize::from(board::JAIL)]),
            i64::from(landings[usize::from(board::GO)]),
        ]);
    }

    fn play_two(&self, first: &mut TrialRng, second: &mut TrialRng) -> [MonopolyOutcome; 2] {
        if !self.on_machine() || self.players != 2 {
            return [self.play(first), self.play(second)];
        }
        let machine = machine::Machine::of(self.jail);
        let (mut one, mut two): (machine::Tally, machine::Tally) = ([0; 64], [0; 64]);
        machine.play_two_games(
            [
                &mut random::PairStream::next_pair(first, 2),
                &mut random::PairStream::next_pair(second, 2),
            ],
            self.turns,
            [&mut one, &mut two],
        );
        [one, two].map(|tally| {
            let mut landings = [0u32; BOARD_SIZE];
            landings.copy_from_slice(&tally[..BOARD_SIZE]);
            MonopolyOutcome { landings }
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn choice_names_are_the_documented_ones_in_specs_parsing_and_the_command_line() {
        use experiment_engine::games::choice_names::{command_line_names, derived_names};
        let jail = ["long_stay", "short_stay", "short_stay_full_turn"];
        assert_eq!(derived_names(|&j: &JailStrategy| j.name()), jail);
        assert_eq!(command_line_names::<JailStrategy>(), jail);
        let card_models = ["with_replacement", "shuffled_deck"];
        assert_eq!(derived_names(|&c: &CardModel| c.name()), card_models);
        assert_eq!(command_line_names::<CardModel>(), card_models);
    }

    use super::engine::JailCause;
    use super::*;
    use experiment_engine::rng::trial_rng;
    use proptest::prelude::*;

    #[test]
    fn names_round_trip_through_the_derived_parser() {
        for &jail in JailStrategy::ALL {
            assert_eq!(jail.name().parse(), Ok(jail));
        }
        for &cards in CardModel::ALL {
            assert_eq!(cards.name().parse(), Ok(cards));
        }
        assert_eq!("long_stay".parse(), Ok(JailStrategy::LongStay));
        assert_eq!("shuffled_deck".parse(), Ok(CardModel::ShuffledDeck));
        assert!("LongStay".parse::<JailStrategy>().is_err());
        assert!("".parse::<CardModel>().is_err());
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
        for &cards in CardModel::ALL {
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

    #[test]
    fn two_games_side_by_side_equal_two_games_alone() {
        for (jail, cards, players) in [
            (JailStrategy::LongStay, CardModel::WithReplacement, 2),
            (JailStrategy::ShortStay, CardModel::WithReplacement, 2),
            (
                JailStrategy::ShortStayFullTurn,
                CardModel::WithReplacement,
                2,
            ),
            (JailStrategy::LongStay, CardModel::WithReplacement, 3),
            (JailStrategy::LongStay, CardModel::ShuffledDeck, 2),
        ] {
            let game = Monopoly {
                jail,
                cards,
                turns: 60,
                players,
                rules: Rules::default(),
            };
            for i in 0..50 {
                let pair =
                    game.play_two(&mut trial_rng(8, 0, 2 * i), &mut trial_rng(8, 0, 2 * i + 1));
                let alone = [
                    game.play(&mut trial_rng(8, 0, 2 * i)),
                    game.play(&mut trial_rng(8, 0, 2 * i + 1)),
                ];
                assert_eq!(pair, alone);
            }
        }
    }

    #[test]
    fn the_machine_plays_the_engines_game_under_every_jail_strategy() {
        for &jail in JailStrategy::ALL {
            let game = Monopoly {
                jail,
                turns: 200,
                players: 3,
                ..Monopoly::default()
            };
            assert!(game.on_machine());
            for i in 0..30 {
                let engine = game.play_observed(&mut trial_rng(9, 0, i), &mut NoObserver);
                assert_eq!(game.play(&mut trial_rng(9, 0, i)), engine, "{jail:?}");
            }
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
        fn every_game_keeps_the_landing_invariants_under_every_rule(
            seed in any::<u64>(),
            jail in 0usize..3,
            shuffled in any::<bool>(),
            turns in 1u32..80,
            players in 1u32..12,
            die_sides in rules::MIN_DIE_SIDES..=rules::MAX_DIE_SIDES,
            turn_end in any::<bool>(),
            sixteen in any::<bool>(),
            go_to_jail in any::<bool>(),
        ) {
            let rules = Rules {
                die_sides,
                count: if turn_end { Count::TurnEnd } else { Count::EveryThrow },
                chance: if sixteen { ChanceDeck::SixteenCards } else { ChanceDeck::FifteenCards },
                go_to_jail,
            };
            let game = Monopoly {
                jail: JailStrategy::ALL[jail],
                cards: if shuffled { CardModel::ShuffledDeck } else { CardModel::WithReplacement },
                turns,
                players,
                rules,
            };
            let short = game.jail != JailStrategy::LongStay;
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
            let mut doubles_in_turn = 0u32;
            let mut last_landing = None;
            let on_board = |square: u8| (1..=40).contains(&square);
            let face = |value: u8| (1..=die_sides).contains(&value);
            for event in &events {
                match *event {
                    TraceEvent::TurnStart { player, square, jail_turn, .. } => {
                        starts += 1;
                        current = player as usize;
                        doubles_in_turn = 0;
                        prop_assert!(on_board(square) && (square != 31 || !go_to_jail));
                        let max_jail_turn = if short { 1 } else { 3 };
                        prop_assert!(jail_turn <= max_jail_turn);
                        prop_assert!(jail_turn == 0 || square == 11);
                        // In jail at the start of a turn exactly when the previous turn ended
                        // there; with short stay that needs a new arrest, never a stay.
                        prop_assert_eq!(jail_turn > 0, ended_in_jail[current]);
                        ended_in_jail[current] = false;
                    }
                    TraceEvent::SentToJail { cause } => {
                        prop_assert!(go_to_jail || cause != JailCause::GoToJailSquare);
                        ended_in_jail[current] = true;
                        if cause == JailCause::ThirdDoubles {
                            prop_assert_eq!(doubles_in_turn, 3);
                            arrests += 1;
                        }
                    }
                    TraceEvent::StayInJail { .. } => {
                        prop_assert!(!short, "a short-stay player never stays in jail");
                        ended_in_jail[current] = true;
                        stays += 1;
                    }
                    TraceEvent::Roll { first, second } => {
                        prop_assert!(face(first) && face(second));
                        if first == second {
                            doubles_in_turn += 1;
                        }
                        rolls += 1;
                    }
                    TraceEvent::Move { from, to, steps } => {
                        moves += 1;
                        prop_assert!(on_board(from) && on_board(to));
                        prop_assert!((2..=2 * die_sides).contains(&steps));
                    }
                    TraceEvent::CardMove { from, to } => {
                        prop_assert!(on_board(from) && on_board(to));
                    }
                    TraceEvent::Landing { square } => {
                        landings += 1;
                        prop_assert!(on_board(square) && (square != 31 || !go_to_jail));
                        tally[usize::from(square - 1)] += 1;
                        last_landing = Some(square);
                    }
                    _ => {}
                }
            }
            prop_assert_eq!(starts, turns * players);
            if turn_end {
                prop_assert_eq!(landings, starts);
            } else {
                prop_assert_eq!(landings, moves + stays + arrests);
                prop_assert_eq!(landings, rolls);
            }
            prop_assert!(last_landing.is_some());
            prop_assert_eq!(tally, outcome.landings);
            prop_assert!(outcome.landings[30] == 0 || !go_to_jail);
        }
    }
}
