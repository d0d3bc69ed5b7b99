//! Random dice and the two card models.
//!
//! Players are seated in pairs (players 1 and 2, 3 and 4, ...; an odd last player alone), and
//! each pair throws from its own stream, seeded from the trial's RNG when the pair's table sits
//! down. Word `j` of a pair's stream (a 64-bit output) gives the first player of the pair his
//! `j`-th 32-bit value (the low half) and the second player his (the high half), so the two
//! players' throws never depend on each other's and a pair can be played side by side. A
//! throw takes its player's next value and turns it, by Lemire's exact multiply-and-reject
//! (a rejected value is skipped), into one uniform value in `0..36 * 240`: the dice pair
//! (`value / 240`, first die major) and, for cards drawn with replacement, a Chance index
//! (`value % 240 >> 4`, 0..15) and a Community Chest index (`value % 240 & 15`, 0..16),
//! independent of each other and of the dice. A throw draws at most one card of each deck, so
//! every throw is one value however its card squares fall.
//!
//! Other rules ([`Rules`]) change only the sizes: a throw's value is uniform in
//! `0..sides² * chance_cards * 16`, split the same way (dice pair major, then the Chance index
//! in the high part of the card choice and the Community Chest index in its low four bits).
//! With the default rules these are the numbers above, so the stream is today's.
//!
//! Purposes ([`Streams`]): each deck's shuffle ([`CHANCE_SHUFFLE`], [`CHEST_SHUFFLE`]) and each
//! pair's throws ([`pair_throws`]). From the trial's one stream ([`experiment_engine::rng::OneStream`], the
//! independent design) they are drawn in the order the game asks: the shuffles, then each
//! pair's seed as its table sits down. In a common design each has its own stream, so every
//! variant of a trial sees the same shuffled decks and every player the same throws (his
//! seat's half of his pair's words, which his partner's pace never shifts); a card drawn with
//! replacement is carried by the throw that reached its square, so a strategy that draws more
//! or fewer cards shifts no number at all.

use std::collections::VecDeque;
use std::convert::Infallible;

use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};

use super::cards::{CardSource, ChanceCard, ChestCard};
use super::engine::{DiceSource, Roll};
use super::rules::Rules;
use experiment_engine::rng::{Purpose, Streams, TrialRng};

/// The purpose of the Chance deck's shuffle (shuffled decks).
pub const CHANCE_SHUFFLE: Purpose = Purpose(1);
/// The purpose of the Community Chest deck's shuffle (shuffled decks).
pub const CHEST_SHUFFLE: Purpose = Purpose(2);
/// The purpose of the first pair's throws (players 1 and 2); pair `p` throws from the
/// purpose `p` after it ([`pair_throws`]).
pub const FIRST_PAIR_THROWS: Purpose = Purpose(16);

/// The purpose of the throws of pair `pair` (0-based: players `2 * pair + 1` and
/// `2 * pair + 2`), each seat reading its own half of the pair's words.
pub fn pair_throws(pair: u32) -> Purpose {
    Purpose(FIRST_PAIR_THROWS.0 + u64::from(pair))
}

/// Card choices carried by one throw's value (15 Chance x 16 Community Chest).
pub(super) const CARD_CHOICES: u32 = 240;
/// Values of one throw: the 36 dice pairs times the card choices.
pub(super) const THROW_VALUES: u32 = 36 * CARD_CHOICES;
/// Lemire's rejection threshold for `THROW_VALUES` on 32 bits (2^32 mod n).
const THRESHOLD: u32 = THROW_VALUES.wrapping_neg() % THROW_VALUES;

/// A throw's value from a uniform 32-bit value, or `None` if Lemire's method rejects it.
#[inline(always)]
pub(super) fn throw_value(bits: u32) -> Option<u32> {
    let product = u64::from(bits) * u64::from(THROW_VALUES);
    (product as u32 >= THRESHOLD).then_some((product >> 32) as u32)
}

/// How one throw's value splits under a variant's rules: dice pairs times card choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    sides: u8,
    card_choices: u32,
    values: u32,
    threshold: u32,
}

impl Shape {
    /// The shape of `rules`' throws.
    pub(super) fn of(rules: &Rules) -> Shape {
        let card_choices = rules.chance.cards().len() as u32 * 16;
        let values = rules.throws() * card_choices;
        Shape {
            sides: rules.die_sides,
            card_choices,
            values,
            threshold: values.wrapping_neg() % values,
        }
    }

    /// A throw's value from a uniform 32-bit value, or `None` if Lemire's method rejects it.
    #[inline(always)]
    fn value(&self, bits: u32) -> Option<u32> {
        let product = u64::from(bits) * u64::from(self.values);
        (product as u32 >= self.threshold).then_some((product >> 32) as u32)
    }
}

/// The stream of one pair of players (seat 0 and seat 1 of the pair).
///
/// Each seat reads its own half of the words in order; a word one seat has read and the other
/// not yet is kept until the other reads it, so the seats may read at any pace and in any
/// interleaving and still see the same values.
#[derive(Clone, Debug)]
pub(super) struct PairStream {
    rng: TrialRng,
    /// Words drawn by `leader` and not yet read by the other seat, oldest first.
    pending: VecDeque<u64>,
    leader: usize,
    /// Seats still reading (a retired seat's halves are dropped).
    active: [bool; 2],
}

impl PairStream {
    /// The stream of pair `pair` (`players` of them: 2, or 1 for an odd last player), seeded
    /// from its purpose's stream ([`pair_throws`]) as its table sits down.
    #[inline]
    pub(super) fn of_pair<S: Streams>(streams: &mut S, pair: u32, players: usize) -> PairStream {
        PairStream::next_pair(streams.rng(pair_throws(pair)), players)
    }

    /// The stream of the next pair to sit down (`players` of them: 2, or 1 for an odd last
    /// player), seeded from the trial's stream.
    pub(super) fn next_pair<R: RngCore>(rng: &mut R, players: usize) -> PairStream {
        PairStream {
            rng: TrialRng::seed_from_u64(rng.next_u64()),
            pending: VecDeque::new(),
            leader: 0,
            active: [true, players > 1],
        }
    }

    /// Both seats' next values, when neither has read ahead of the other (the common case):
    /// one fresh word.
    #[inline(always)]
    pub(super) fn both(&mut self) -> Option<(u32, u32)> {
        if !self.pending.is_empty() {
            return None;
        }
        let word = self.rng.next_u64();
        Some((word as u32, (word >> 32) as u32))
    }

    /// Seat `seat`'s next 32-bit value.
    #[inline]
    pub(super) fn value(&mut self, seat: usize) -> u32 {
        let word = if seat != self.leader && !self.pending.is_empty() {
            self.pending.pop_front().expect("a pending word")
        } else {
            let word = self.rng.next_u64();
            if self.active[1 - seat] {
                self.leader = seat;
                self.pending.push_back(word);
            }
            word
        };
        (word >> (32 * seat)) as u32
    }

    /// Seat `seat`'s next throw value (rejected values skipped).
    #[inline]
    pub(super) fn throw(&mut self, seat: usize) -> u32 {
        loop {
            if let Some(value) = throw_value(self.value(seat)) {
                return value;
            }
        }
    }

    /// Seat `seat`'s next throw value shaped by `shape` (rejected values skipped).
    #[inline]
    pub(super) fn throw_shaped(&mut self, seat: usize, shape: &Shape) -> u32 {
        loop {
            if let Some(value) = shape.value(self.value(seat)) {
                return value;
            }
        }
    }

    /// Seat `seat` reads no more: words are no longer kept for it.
    pub(super) fn retire(&mut self, seat: usize) {
        self.active[seat] = false;
        if self.leader != seat {
            self.pending.clear();
        }
    }
}

/// Where the cards come from, given the card part (`0..CARD_CHOICES`) of the throw that
/// brought the token to the card square.
pub(super) trait Cards {
    /// The Chance card drawn.
    fn chance(&mut self, choice: u32) -> ChanceCard;
    /// The Community Chest card drawn.
    fn community_chest(&mut self, choice: u32) -> ChestCard;
}

/// Each card drawn uniformly from its full deck (as if put back at once), by the throw's card
/// choice.
pub(super) struct WithReplacement {
    /// The Chance deck.
    pub(super) chance: &'static [ChanceCard],
}

impl Cards for WithReplacement {
    #[inline(always)]
    fn chance(&mut self, choice: u32) -> ChanceCard {
        self.chance[(choice >> 4) as usize]
    }

    #[inline(always)]
    fn community_chest(&mut self, choice: u32) -> ChestCard {
        ChestCard::DECK[(choice & 15) as usize]
    }
}

/// Each deck shuffled once when the game starts and then drawn in order, cycling (the real
/// game; "Get out of Jail Free" goes straight back like any other card).
pub(super) struct ShuffledDecks {
    chance: Vec<ChanceCard>,
    next_chance: usize,
    chest: [ChestCard; 16],
    next_chest: usize,
}

impl ShuffledDecks {
    /// Both decks (Chance as in `chance`) shuffled, each from its purpose's stream (from the
    /// trial's one stream: Chance then Community Chest, before any pair's seed is drawn).
    pub(super) fn new<S: Streams>(streams: &mut S, chance: &[ChanceCard]) -> Self {
        let mut chance = chance.to_vec();
        chance.shuffle(streams.rng(CHANCE_SHUFFLE));
        let mut chest = ChestCard::DECK;
        chest.shuffle(streams.rng(CHEST_SHUFFLE));
        ShuffledDecks {
            chance,
            next_chance: 0,
            chest,
            next_chest: 0,
        }
    }
}

impl Cards for ShuffledDecks {
    #[inline(always)]
    fn chance(&mut self, _choice: u32) -> ChanceCard {
        let card = self.chance[self.next_chance];
        self.next_chance = (self.next_chance + 1) % self.chance.len();
        card
    }

    #[inline(always)]
    fn community_chest(&mut self, _choice: u32) -> ChestCard {
        let card = self.chest[self.next_chest];
        self.next_chest = (self.next_chest + 1) % self.chest.len();
        card
    }
}

/// The dice and cards of one player's turn: his seat's throws, and the game's cards.
pub(super) struct TurnSource<'a, C> {
    stream: &'a mut PairStream,
    seat: usize,
    cards: &'a mut C,
    shape: Shape,
    choice: u32,
}

impl<'a, C: Cards> TurnSource<'a, C> {
    /// The source for a turn of the player in seat `seat` of the pair reading `stream`, its
    /// throws shaped by `shape`.
    #[inline(always)]
    pub(super) fn new(
        stream: &'a mut PairStream,
        seat: usize,
        cards: &'a mut C,
        shape: Shape,
    ) -> Self {
        TurnSource {
            stream,
            seat,
            cards,
            shape,
            choice: 0,
        }
    }
}

impl<C: Cards> DiceSource for TurnSource<'_, C> {
    type Error = Infallible;

    #[inline(always)]
    fn roll(&mut self) -> Result<Roll, Infallible> {
        let value = self.stream.throw_shaped(self.seat, &self.shape);
        let dice = value / self.shape.card_choices;
        self.choice = value - dice * self.shape.card_choices;
        Ok(Roll::of(dice, self.shape.sides))
    }
}

impl<C: Cards> CardSource for TurnSource<'_, C> {
    type Error = Infallible;

    #[inline(always)]
    fn chance(&mut self) -> Result<ChanceCard, Infallible> {
        Ok(self.cards.chance(self.choice))
    }

    #[inline(always)]
    fn community_chest(&mut self) -> Result<ChestCard, Infallible> {
        Ok(self.cards.community_chest(self.choice))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiment_engine::rng::{trial_rng, OneStream};

    fn ok<T>(result: Result<T, Infallible>) -> T {
        match result {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }

    #[test]
    fn random_rolls_cover_the_36_throws_evenly() {
        let mut stream = PairStream::next_pair(&mut trial_rng(11, 0, 0), 1);
        let mut replacement = WithReplacement {
            chance: &ChanceCard::DECK,
        };
        let shape = Shape::of(&Rules::default());
        let mut dice = TurnSource::new(&mut stream, 0, &mut replacement, shape);
        let mut counts = [0u32; 36];
        let draws = 360_000;
        for _ in 0..draws {
            let roll = ok(dice.roll());
            counts[usize::from((roll.first - 1) * 6 + roll.second - 1)] += 1;
        }
        // Each count is Binomial(360000, 1/36): mean 10000, sd about 98.6.
        for count in counts {
            assert!((f64::from(count) - 10_000.0).abs() < 4.5 * 98.6, "{count}");
        }
    }

    #[test]
    fn drawing_with_replacement_gives_each_card_its_deck_share() {
        let mut stream = PairStream::next_pair(&mut trial_rng(12, 0, 0), 2);
        let mut replacement = WithReplacement {
            chance: &ChanceCard::DECK,
        };
        let shape = Shape::of(&Rules::default());
        let mut cards = TurnSource::new(&mut stream, 1, &mut replacement, shape);
        let draws = 150_000;
        let mut go_to_jail = 0u32;
        let mut no_move = 0u32;
        let mut chest_jail = 0u32;
        for _ in 0..draws {
            ok(cards.roll());
            match ok(cards.chance()) {
                ChanceCard::GoToJail => go_to_jail += 1,
                ChanceCard::NoMove => no_move += 1,
                _ => {}
            }
            if ok(cards.community_chest()) == ChestCard::GoToJail {
                chest_jail += 1;
            }
        }
        // Binomial(150000, 1/15): sd about 96.6; Binomial(150000, 6/15): sd about 189.7;
        // Binomial(150000, 1/16): sd about 93.8.
        assert!((f64::from(go_to_jail) - 10_000.0).abs() < 4.5 * 96.6);
        assert!((f64::from(no_move) - 60_000.0).abs() < 4.5 * 189.7);
        assert!((f64::from(chest_jail) - 9_375.0).abs() < 4.5 * 93.8);
    }

    #[test]
    fn shuffled_decks_cycle_through_every_card_in_a_fixed_order() {
        let mut decks =
            ShuffledDecks::new(&mut OneStream(&mut trial_rng(13, 0, 0)), &ChanceCard::DECK);
        let first: Vec<ChanceCard> = (0..15).map(|i| decks.chance(i)).collect();
        let second: Vec<ChanceCard> = (0..15).map(|i| decks.chance(i)).collect();
        assert_eq!(first, second);
        let mut sorted_first = first.iter().map(|c| c.name()).collect::<Vec<_>>();
        let mut sorted_deck = ChanceCard::DECK
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>();
        sorted_first.sort();
        sorted_deck.sort();
        assert_eq!(sorted_first, sorted_deck);
        let chest: Vec<ChestCard> = (0..32).map(|i| decks.community_chest(i)).collect();
        assert_eq!(chest[..16], chest[16..]);
        assert_eq!(
            chest[..16]
                .iter()
                .filter(|c| **c == ChestCard::NoMove)
                .count(),
            14
        );
    }

    #[test]
    fn shuffles_differ_between_games() {
        let orders: Vec<Vec<ChanceCard>> = (0..20)
            .map(|i| {
                let mut decks =
                    ShuffledDecks::new(&mut OneStream(&mut trial_rng(14, 0, i)), &ChanceCard::DECK);
                (0..15).map(|c| decks.chance(c)).collect()
            })
            .collect();
        let distinct = orders
            .iter()
            .enumerate()
            .filter(|(i, order)| !orders[..*i].contains(order))
            .count();
        // 15!/(6!) orders of distinguishable card kinds: 20 games repeating one is absurdly rare.
        assert_eq!(distinct, 20);
    }

    #[test]
    fn the_rejection_threshold_is_two_to_the_32_mod_the_throw_values() {
        assert_eq!(u64::from(THRESHOLD), (1u64 << 32) % u64::from(THROW_VALUES));
        // The default rules' shape is the state machine's: the same values from the same bits.
        let shape = Shape::of(&Rules::default());
        assert_eq!((shape.values, shape.threshold), (THROW_VALUES, THRESHOLD));
        assert_eq!(shape.card_choices, CARD_CHOICES);
        for bits in [0, 1, THRESHOLD - 1, THRESHOLD, u32::MAX / 3, u32::MAX] {
            assert_eq!(shape.value(bits), throw_value(bits));
        }
        let four = Shape::of(&Rules {
            die_sides: 4,
            chance: crate::game::ChanceDeck::SixteenCards,
            ..Rules::default()
        });
        assert_eq!(four.values, 16 * 256);
        assert_eq!(u64::from(four.threshold), (1u64 << 32) % (16 * 256));
    }

    #[test]
    fn other_dice_cover_their_throws_evenly() {
        // Two 4-sided dice: each of the 16 throws Binomial(160000, 1/16), sd about 96.8.
        let rules = Rules {
            die_sides: 4,
            ..Rules::default()
        };
        let mut stream = PairStream::next_pair(&mut trial_rng(16, 0, 0), 1);
        let mut replacement = WithReplacement {
            chance: rules.chance.cards(),
        };
        let mut dice = TurnSource::new(&mut stream, 0, &mut replacement, Shape::of(&rules));
        let mut counts = [0u32; 16];
        for _ in 0..160_000 {
            let roll = ok(dice.roll());
            assert!((1..=4).contains(&roll.first) && (1..=4).contains(&roll.second));
            counts[usize::from((roll.first - 1) * 4 + roll.second - 1)] += 1;
        }
        for count in counts {
            assert!((f64::from(count) - 10_000.0).abs() < 4.5 * 96.8, "{count}");
        }
    }

    #[test]
    fn each_seat_sees_its_half_of_the_words_whatever_the_pace() {
        let words: Vec<u64> = {
            let mut rng = TrialRng::seed_from_u64(trial_rng(15, 0, 0).next_u64());
            (0..6).map(|_| rng.next_u64()).collect()
        };
        let mut stream = PairStream::next_pair(&mut trial_rng(15, 0, 0), 2);
        // Seat 1 reads three ahead, then seat 0 catches up and both read in step.
        let ahead: Vec<u32> = (0..3).map(|_| stream.value(1)).collect();
        let behind: Vec<u32> = (0..4).map(|_| stream.value(0)).collect();
        assert_eq!(
            ahead,
            words[..3]
                .iter()
                .map(|w| (w >> 32) as u32)
                .collect::<Vec<_>>()
        );
        assert_eq!(
            behind,
            words[..4].iter().map(|&w| w as u32).collect::<Vec<_>>()
        );
        assert_eq!(stream.value(1), (words[3] >> 32) as u32);
        assert_eq!(
            stream.both(),
            Some((words[4] as u32, (words[4] >> 32) as u32))
        );
        stream.retire(0);
        assert_eq!(stream.value(1), (words[5] >> 32) as u32);
        assert!(stream.pending.is_empty());
    }
}
