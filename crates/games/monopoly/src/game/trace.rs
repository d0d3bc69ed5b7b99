//! Trace mode: one player's game replayed from scripted dice and cards, event by event, through
//! the same turn engine the simulation uses, so the movement rules can be checked by hand.
//! The events are data; `experiment trace monopoly` (in `commands`) writes them as text.

use super::board::BOARD_SIZE;
use super::cards::{Card, CardSource, ChanceCard, ChestCard, Deck, ScriptedCard};
use super::engine::{take_turn, DiceSource, Player, Roll, TraceEvent, TurnObserver};
use super::rules::Rules;
use super::JailStrategy;

/// What a scripted game did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Every event, in order.
    pub events: Vec<TraceEvent>,
    /// Landings per square (index 0 = square 1, Go).
    pub tally: [u32; BOARD_SIZE],
    /// Each landing as (1-based turn, 1-based square number), in order.
    pub landings: Vec<(u32, u8)>,
}

/// Why a scripted game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// A die value was not 1 to 6.
    #[error("die value {value} at position {} of the dice list is not 1 to 6", index + 1)]
    InvalidDie {
        /// 0-based position in the dice list.
        index: usize,
        /// The value given.
        value: u8,
    },
    /// The dice ran out before the last turn ended.
    #[error(
        "out of dice on turn {turn}: the next throw needs {needed} dice values, only {given} \
         given (two per throw)"
    )]
    OutOfDice {
        /// The turn that needed another throw.
        turn: u32,
        /// Dice values needed to make that throw.
        needed: usize,
        /// Dice values given.
        given: usize,
    },
    /// The next scripted card belongs to the other deck.
    #[error(
        "scripted card {} ({scripted}) was drawn from the {drawn_from} deck on turn {turn}; \
         script the cards in the order the decks are drawn",
        card_index + 1
    )]
    WrongDeck {
        /// The turn of the draw.
        turn: u32,
        /// 0-based position of the card in the script.
        card_index: usize,
        /// The deck actually drawn from.
        drawn_from: Deck,
        /// The card the script named.
        scripted: Card,
    },
}

/// A script stopped the game.
enum Stop {
    OutOfDice { needed: usize },
    WrongDeck { card_index: usize, drawn_from: Deck },
}

/// Dice two values per throw and cards in order, whichever deck asks.
struct Script<'a> {
    dice: &'a [u8],
    next_die: usize,
    cards: &'a [ScriptedCard],
    next_card: usize,
}

impl Script<'_> {
    fn draw(&mut self, deck: Deck) -> Result<Option<Card>, Stop> {
        let Some(&card) = self.cards.get(self.next_card) else {
            return Ok(None);
        };
        if card.deck() != deck {
            return Err(Stop::WrongDeck {
                card_index: self.next_card,
                drawn_from: deck,
            });
        }
        self.next_card += 1;
        Ok(Some(card))
    }
}

impl DiceSource for Script<'_> {
    type Error = Stop;

    fn roll(&mut self) -> Result<Roll, Stop> {
        let needed = self.next_die + 2;
        match self.dice.get(self.next_die..needed) {
            Some(&[first, second]) => {
                self.next_die = needed;
                Ok(Roll { first, second })
            }
            _ => Err(Stop::OutOfDice { needed }),
        }
    }
}

impl CardSource for Script<'_> {
    type Error = Stop;

    fn chance(&mut self) -> Result<ChanceCard, Stop> {
        Ok(match self.draw(Deck::Chance)? {
            Some(Card::Chance(card)) => card,
            _ => ChanceCard::NoMove,
        })
    }

    fn community_chest(&mut self) -> Result<ChestCard, Stop> {
        Ok(match self.draw(Deck::CommunityChest)? {
            Some(Card::CommunityChest(card)) => card,
            _ => ChestCard::NoMove,
        })
    }
}

/// Collects events and (turn, square) landings.
#[derive(Default)]
struct Recorder {
    events: Vec<TraceEvent>,
    landings: Vec<(u32, u8)>,
    turn: u32,
}

impl TurnObserver for Recorder {
    fn event(&mut self, event: TraceEvent) {
        match event {
            TraceEvent::TurnStart { turn, .. } => self.turn = turn,
            TraceEvent::Landing { square } => self.landings.push((self.turn, square)),
            _ => {}
        }
        self.events.push(event);
    }
}

/// Plays `turns` turns of one player from Go with scripted dice (two values per throw, in
/// order) and scripted cards (drawn in order by whichever deck is drawn from; once they run
/// out, every draw is a card that does not move).
pub fn trace(
    dice: &[u8],
    cards: &[ScriptedCard],
    jail: JailStrategy,
    turns: u32,
) -> Result<Trace, TraceError> {
    if let Some((index, &value)) = dice
        .iter()
        .enumerate()
        .find(|(_, value)| !(1..=6).contains(*value))
    {
        return Err(TraceError::InvalidDie { index, value });
    }
    let mut script = Script {
        dice,
        next_die: 0,
        cards,
        next_card: 0,
    };
    let mut recorder = Recorder::default();
    let mut tally = [0u32; BOARD_SIZE];
    let mut player = Player::START;
    for turn in 1..=turns {
        take_turn(
            jail,
            Rules::default(),
            &mut player,
            0,
            turn,
            &mut script,
            &mut recorder,
            &mut tally,
        )
        .map_err(|stop| match stop {
            Stop::OutOfDice { needed } => TraceError::OutOfDice {
                turn,
                needed,
                given: dice.len(),
            },
            Stop::WrongDeck {
                card_index,
                drawn_from,
            } => TraceError::WrongDeck {
                turn,
                card_index,
                drawn_from,
                scripted: cards[card_index],
            },
        })?;
    }
    Ok(Trace {
        events: recorder.events,
        tally,
        landings: recorder.landings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::engine::{JailCause, LeaveCause};
    use proptest::prelude::*;

    const REFERENCE_DICE: [u8; 48] = [
        6, 4, 5, 3, 3, 5, 6, 2, 5, 4, 4, 1, 2, 6, 4, 4, 4, 4, 2, 2, 4, 3, 4, 4, 1, 4, 3, 4, 1, 2,
        3, 6, 5, 4, 5, 5, 1, 2, 5, 4, 3, 3, 1, 1, 2, 1, 1, 3,
    ];

    fn card(text: &str) -> Card {
        match text.parse() {
            Ok(card) => card,
            Err(error) => panic!("{error}"),
        }
    }

    fn run(dice: &[u8], cards: &[&str], jail: JailStrategy, turns: u32) -> Trace {
        let cards: Vec<Card> = cards.iter().map(|c| card(c)).collect();
        match trace(dice, &cards, jail, turns) {
            Ok(trace) => trace,
            Err(error) => panic!("{error}"),
        }
    }

    fn squares(trace: &Trace) -> Vec<u8> {
        trace.landings.iter().map(|&(_, square)| square).collect()
    }

    /// The 48 reference dice's 20 turns, worked by hand (square numbers 1..40, long stay):
    ///  1: 6+4=10, Go(1) -> 11 Jail, just visiting.      2: 5+3 -> 19 Tennessee.
    ///  3: 3+5 -> 27 Atlantic.   4: 6+2 -> 35 Pennsylvania Ave.   5: 5+4 -> 44-40 = 4 Baltic.
    ///  6: 4+1 -> 9 Vermont.     7: 2+6 -> 17 St. James.
    ///  8: 4+4 doubles -> 25 Illinois; 4+4 doubles -> 33 North Carolina; 2+2 third doubles
    ///     -> Jail (11 counted, 33+4 = 37 never reached).
    ///  9: in jail, 4+3 -> stays (11).   10: in jail, 4+4 doubles -> out, 11+8 = 19 Tennessee,
    ///     no extra throw.   11: 1+4 -> 24 Indiana.   12: 3+4 -> 31 Go to jail -> Jail (11).
    /// 13: in jail, 1+2 stays (11).   14: in jail, 3+6 stays (11).
    /// 15: third jail turn, 5+4 -> out anyway, 11+9 = 20 New York.
    /// 16: 5+5 doubles -> 30 Marvin Gardens; 1+2 -> 33 North Carolina.
    /// 17: 5+4 -> 42-40 = 2 Mediterranean.
    /// 18: 3+3 doubles -> 8 Chance, the scripted first card: Go to Jail -> Jail (11), turn over
    ///     despite the doubles.
    /// 19: in jail, 1+1 doubles -> out, 11+2 = 13 Electric Company.   20: 2+1 -> 16 Penn. RR.
    /// 23 throws (46 of the 48 values; 1,3 is left over), 23 landings. A reference R
    /// implementation (taketurn with set.seed(10), whose first Chance draw is card 8, Go to Jail)
    /// does the same: its jail() counts jail_turn 0,1 then moves at jail_turn 2, and a roll while
    /// state == FALSE is never followed by another.
    #[test]
    fn the_reference_script_replays_the_hand_worked_twenty_turns() {
        let trace = run(
            &REFERENCE_DICE,
            &["chance:go_to_jail"],
            JailStrategy::LongStay,
            20,
        );
        let expected: Vec<(u32, u8)> = vec![
            (1, 11),
            (2, 19),
            (3, 27),
            (4, 35),
            (5, 4),
            (6, 9),
            (7, 17),
            (8, 25),
            (8, 33),
            (8, 11),
            (9, 11),
            (10, 19),
            (11, 24),
            (12, 11),
            (13, 11),
            (14, 11),
            (15, 20),
            (16, 30),
            (16, 33),
            (17, 2),
            (18, 11),
            (19, 13),
            (20, 16),
        ];
        assert_eq!(trace.landings, expected);
        let mut tally = [0u32; BOARD_SIZE];
        for (square, count) in [
            (2, 1),
            (4, 1),
            (9, 1),
            (11, 7),
            (13, 1),
            (16, 1),
            (17, 1),
            (19, 2),
            (20, 1),
            (24, 1),
            (25, 1),
            (27, 1),
            (30, 1),
            (33, 2),
            (35, 1),
        ] {
            tally[square - 1] = count;
        }
        assert_eq!(trace.tally, tally);
        let rolls = trace
            .events
            .iter()
            .filter(|e| matches!(e, TraceEvent::Roll { .. }))
            .count();
        assert_eq!(rolls, 23);
        assert!(trace.events.contains(&TraceEvent::CardDrawn {
            square: 8,
            card: Card::Chance(ChanceCard::GoToJail),
        }));
        assert!(trace.events.contains(&TraceEvent::SentToJail {
            cause: JailCause::ThirdDoubles
        }));
        assert!(trace.events.contains(&TraceEvent::LeaveJail {
            cause: LeaveCause::ThirdTurn
        }));
    }

    #[test]
    fn the_reference_script_with_short_stay_pays_out_on_the_first_jail_turn() {
        let trace = run(&REFERENCE_DICE, &[], JailStrategy::ShortStay, 9);
        // Turn 8 ends in jail after third doubles; turn 9 pays and moves 4+3 from 11 to 18,
        // Community Chest, where the exhausted script draws a card that does not move.
        assert_eq!(trace.landings.last(), Some(&(9, 18)));
        assert!(trace.events.contains(&TraceEvent::LeaveJail {
            cause: LeaveCause::PaidFine
        }));
        assert!(trace.events.contains(&TraceEvent::CardDrawn {
            square: 18,
            card: Card::CommunityChest(ChestCard::NoMove),
        }));
    }

    #[test]
    fn third_doubles_sends_to_jail() {
        let trace = run(&[1, 1, 2, 2, 3, 3], &[], JailStrategy::LongStay, 1);
        // 1+1 -> 3 Community Chest (no move), 2+2 -> 7 Oriental, 3+3 -> Jail, never 13.
        assert_eq!(squares(&trace), vec![3, 7, 11]);
        assert!(trace.events.contains(&TraceEvent::SentToJail {
            cause: JailCause::ThirdDoubles
        }));
    }

    #[test]
    fn go_back_three_from_chance_37_draws_community_chest_at_34() {
        // 10 -> 11, 11 -> 22 Kentucky, 11 -> 33 North Carolina, 4 -> 37 Chance.
        let dice = [6, 4, 6, 5, 6, 5, 1, 3];
        let trace = run(
            &dice,
            &["chance:go_back_3", "community_chest:advance_to_go"],
            JailStrategy::LongStay,
            4,
        );
        assert_eq!(squares(&trace), vec![11, 22, 33, 1]);
        let trace = run(&dice, &["chance:go_back_3"], JailStrategy::LongStay, 4);
        assert_eq!(squares(&trace), vec![11, 22, 33, 34]);
    }

    #[test]
    fn a_card_move_keeps_the_doubles_reroll() {
        // 1+1 -> 3 Community Chest, advance to Go; the doubles still give another throw:
        // 3+4 -> 8 Chance, nearest railroad -> 16 Pennsylvania Railroad.
        let trace = run(
            &[1, 1, 3, 4],
            &["community_chest:advance_to_go", "chance:nearest_railroad"],
            JailStrategy::LongStay,
            1,
        );
        assert_eq!(squares(&trace), vec![1, 16]);
    }

    #[test]
    fn a_jail_card_during_doubles_ends_the_turn() {
        let trace = run(
            &[1, 1, 3, 4],
            &["community_chest:go_to_jail"],
            JailStrategy::LongStay,
            1,
        );
        assert_eq!(squares(&trace), vec![11]);
    }

    #[test]
    fn go_to_jail_square_is_never_counted() {
        // 6+6 -> 13, 6+6 -> 25, 3+3 would be third doubles; instead 2+4 -> 31 Go to jail.
        let trace = run(&[6, 6, 6, 6, 2, 4, 1, 2], &[], JailStrategy::LongStay, 2);
        assert_eq!(squares(&trace), vec![13, 25, 11, 11]);
        assert_eq!(trace.tally[30], 0);
    }

    #[test]
    fn long_stay_leaves_on_the_third_jail_turn_without_doubles() {
        // Turn 1: 6+6 -> 13, 6+6 -> 25, 6+6 third doubles -> jail. Long stay: 1+2 stays
        // twice, then moves 1+2 on the third jail turn; short stay pays and moves at once.
        let dice = [6, 6, 6, 6, 6, 6, 1, 2, 1, 2, 1, 2, 1, 2];
        let trace = run(&dice, &[], JailStrategy::LongStay, 5);
        assert_eq!(squares(&trace), vec![13, 25, 11, 11, 11, 14, 17]);
        let short = run(&dice, &[], JailStrategy::ShortStay, 3);
        assert_eq!(squares(&short), vec![13, 25, 11, 14, 17]);
    }

    #[test]
    fn a_full_turn_out_of_jail_throws_again_on_doubles() {
        // Turn 1: 1+1 to Community Chest 3, Go to Jail. Turn 2 he pays and throws 2+2 to
        // Virginia 15: with a full turn the double throws again, 3+4 to Kentucky 22; with
        // short stay his turn ends on 15 and 3+4 is turn 3's throw.
        let dice = [1, 1, 2, 2, 3, 4];
        let cards = ["community_chest:go_to_jail"];
        let full = run(&dice, &cards, JailStrategy::ShortStayFullTurn, 2);
        assert_eq!(full.landings, vec![(1, 11), (2, 15), (2, 22)]);
        let short = run(&dice, &cards, JailStrategy::ShortStay, 3);
        assert_eq!(short.landings, vec![(1, 11), (2, 15), (3, 22)]);
    }

    #[test]
    fn a_short_stay_exit_move_can_draw_a_way_straight_back_to_jail() {
        // Third doubles, then pay and throw 3+4 from 11 to Community Chest 18: Go to Jail.
        // The next turn starts in jail again, and this time he pays and moves on.
        let dice = [6, 6, 6, 6, 6, 6, 3, 4, 1, 2];
        let trace = run(
            &dice,
            &["community_chest:go_to_jail"],
            JailStrategy::ShortStay,
            3,
        );
        assert_eq!(squares(&trace), vec![13, 25, 11, 11, 14]);
        let jailed_starts: Vec<u32> = trace
            .events
            .iter()
            .filter_map(|e| match *e {
                TraceEvent::TurnStart {
                    turn, jail_turn: 1, ..
                } => Some(turn),
                _ => None,
            })
            .collect();
        assert_eq!(jailed_starts, vec![2, 3]);
    }

    #[test]
    fn running_out_of_dice_names_the_turn_and_counts() {
        let cards = [card("chance:go_to_jail")];
        let error =
            trace(&REFERENCE_DICE[..44], &cards, JailStrategy::LongStay, 21).expect_err("short");
        assert_eq!(
            error,
            TraceError::OutOfDice {
                turn: 20,
                needed: 46,
                given: 44
            }
        );
        assert!(error.to_string().contains("turn 20"), "{error}");
        let odd = trace(&[1, 2, 3], &[], JailStrategy::LongStay, 2).expect_err("odd");
        assert_eq!(
            odd,
            TraceError::OutOfDice {
                turn: 2,
                needed: 4,
                given: 3
            }
        );
    }

    #[test]
    fn a_card_scripted_for_the_other_deck_is_an_error() {
        let cards = [card("community_chest:go_to_jail")];
        let error = trace(&REFERENCE_DICE, &cards, JailStrategy::LongStay, 20).expect_err("deck");
        assert_eq!(
            error,
            TraceError::WrongDeck {
                turn: 18,
                card_index: 0,
                drawn_from: Deck::Chance,
                scripted: cards[0],
            }
        );
        assert!(error.to_string().contains("community_chest:go_to_jail"));
    }

    #[test]
    fn dice_outside_one_to_six_are_rejected() {
        let error = trace(&[1, 7], &[], JailStrategy::LongStay, 1).expect_err("seven");
        assert_eq!(error, TraceError::InvalidDie { index: 1, value: 7 });
    }

    proptest! {
        #[test]
        fn every_throw_of_a_script_ends_in_exactly_one_landing(
            dice in prop::collection::vec(1u8..=6, 120),
            turns in 1u32..=20,
            jail in 0usize..3,
        ) {
            let jail = JailStrategy::ALL[jail];
            let trace = trace(&dice, &[], jail, turns).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let rolls = trace.events.iter().filter(|e| matches!(e, TraceEvent::Roll { .. })).count();
            prop_assert_eq!(trace.landings.len(), rolls);
            prop_assert_eq!(trace.tally.iter().sum::<u32>() as usize, rolls);
            prop_assert_eq!(trace.tally[30], 0);
            for &(turn, square) in &trace.landings {
                prop_assert!((1..=turns).contains(&turn));
                prop_assert!((1..=40).contains(&square) && square != 31);
            }
        }
    }
}
