//! War (seed 004): two players, 52 cards, the higher up card takes the table.
//!
//! Ranks run Ace = 1 (low) to King = 13 (high); suits never matter to play, so a card is its
//! rank. The only choice in the game is the order in which a won pile goes under the winner's
//! hand: the [`Placement`] strategy.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;

use crate::games::Game;
use crate::rng::TrialRng;
use crate::summary::Summary;

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 52;
/// Cards each player puts face down in a war before flipping again.
pub const WAR_FACE_DOWN: usize = 3;
/// Default turn limit after which an unfinished game counts as `infinite`.
pub const DEFAULT_MAX_TURNS: u32 = 15_000;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The first player (shown as `|` bars).
    One,
    /// The second player (shown as `.` bars).
    Two,
}

impl Player {
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
    /// The whole pile shuffled uniformly with the trial's RNG.
    Random,
    /// By rank, highest first; ties keep the winner's card first.
    HighFirst,
    /// By rank, lowest first; ties keep the winner's card first.
    LowFirst,
    /// Player 1's cards, then player 2's, whoever won.
    Player1First,
}

impl Placement {
    /// Every strategy, in the order the documentation lists them.
    pub const ALL: [Placement; 6] = [
        Placement::WinnerFirst,
        Placement::LoserFirst,
        Placement::Random,
        Placement::HighFirst,
        Placement::LowFirst,
        Placement::Player1First,
    ];

    /// The strategy's name in specs and tables.
    pub fn name(self) -> &'static str {
        match self {
            Placement::WinnerFirst => "winner_first",
            Placement::LoserFirst => "loser_first",
            Placement::Random => "random",
            Placement::HighFirst => "high_first",
            Placement::LowFirst => "low_first",
            Placement::Player1First => "player1_first",
        }
    }

    /// The strategy called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Placement> {
        Placement::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Whether the game's course is fixed by the deal (so a repeated state means a cycle).
    pub fn is_deterministic(self) -> bool {
        self != Placement::Random
    }
}

/// A player's hand: a queue of ranks in a fixed ring buffer (no allocation while playing).
#[derive(Clone, Copy, Debug)]
pub struct Hand {
    cards: [u8; 64],
    head: u8,
    len: u8,
}

impl Hand {
    const MASK: u8 = 63;

    /// A hand holding `cards`, top card first.
    pub fn from_cards(cards: &[u8]) -> Hand {
        let mut hand = Hand {
            cards: [0; 64],
            head: 0,
            len: 0,
        };
        for &card in cards {
            hand.push_bottom(card);
        }
        hand
    }

    /// Number of cards held.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn take_top(&mut self) -> u8 {
        debug_assert!(self.len > 0);
        let card = self.cards[usize::from(self.head)];
        self.head = (self.head + 1) & Self::MASK;
        self.len -= 1;
        card
    }

    fn push_bottom(&mut self, card: u8) {
        let slot = (self.head + self.len) & Self::MASK;
        self.cards[usize::from(slot)] = card;
        self.len += 1;
    }

    /// The cards, top first.
    pub fn cards(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len).map(move |i| self.cards[usize::from((self.head + i) & Self::MASK)])
    }
}

impl PartialEq for Hand {
    fn eq(&self, other: &Hand) -> bool {
        self.len == other.len && self.cards().eq(other.cards())
    }
}

/// The cards one player has put on the table this turn, in play order.
#[derive(Clone, Copy, Debug)]
struct Pile {
    cards: [u8; DECK_SIZE],
    len: usize,
}

impl Pile {
    const EMPTY: Pile = Pile {
        cards: [0; DECK_SIZE],
        len: 0,
    };

    fn push(&mut self, card: u8) {
        self.cards[self.len] = card;
        self.len += 1;
    }

    fn as_slice(&self) -> &[u8] {
        &self.cards[..self.len]
    }
}

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnOutcome {
    /// A player took the table; both still hold cards.
    Continue,
    /// The game is over and this player has won.
    Won(Player),
    /// Both players ran out of cards at the same moment.
    Draw,
}

/// What happened in one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnReport {
    /// How the turn ended.
    pub outcome: TurnOutcome,
    /// Who took the table, if anyone did (nobody does when a war cannot be completed).
    pub taker: Option<Player>,
    /// Wars (ties of the up cards) in this turn.
    pub wars: u32,
}

/// The state of a game between turns: both hands (the table is empty between turns).
#[derive(Clone, Copy, Debug)]
pub struct WarState {
    hands: [Hand; 2],
    table: [Pile; 2],
    on_table: usize,
    scratch: [u8; DECK_SIZE],
}

impl PartialEq for WarState {
    fn eq(&self, other: &WarState) -> bool {
        self.hands == other.hands
    }
}

impl WarState {
    /// Shuffles a fresh deck with `rng` and deals it alternately, player 1 first.
    pub fn deal(rng: &mut TrialRng) -> WarState {
        let mut deck = [0u8; DECK_SIZE];
        for (i, card) in deck.iter_mut().enumerate() {
            *card = (i % 13) as u8 + 1;
        }
        deck.shuffle(rng);
        let mut first = [0u8; DECK_SIZE / 2];
        let mut second = [0u8; DECK_SIZE / 2];
        for i in 0..DECK_SIZE / 2 {
            first[i] = deck[2 * i];
            second[i] = deck[2 * i + 1];
        }
        WarState::from_hands(&first, &second)
    }

    /// A game starting from the given hands (top card first), for scripted deals.
    pub fn from_hands(first: &[u8], second: &[u8]) -> WarState {
        WarState {
            hands: [Hand::from_cards(first), Hand::from_cards(second)],
            table: [Pile::EMPTY; 2],
            on_table: 0,
            scratch: [0; DECK_SIZE],
        }
    }

    /// A player's hand.
    pub fn hand(&self, player: Player) -> &Hand {
        &self.hands[player.index()]
    }

    /// The cards a player put on the table in the last turn, in play order.
    pub fn table(&self, player: Player) -> &[u8] {
        self.table[player.index()].as_slice()
    }

    /// Cards in both hands and still lying on the table: always 52 for a dealt game.
    pub fn card_count(&self) -> usize {
        self.hands[0].len() + self.hands[1].len() + self.on_table
    }

    /// Plays one turn (with all its wars) and returns what happened.
    pub fn play_turn(&mut self, placement: Placement, rng: &mut TrialRng) -> TurnReport {
        self.table[0].len = 0;
        self.table[1].len = 0;
        let mut wars = 0;
        loop {
            let first = self.hands[0].take_top();
            let second = self.hands[1].take_top();
            self.table[0].push(first);
            self.table[1].push(second);
            self.on_table += 2;
            if first != second {
                let winner = if first > second {
                    Player::One
                } else {
                    Player::Two
                };
                self.collect(winner, placement, rng);
                let loser_hand = &self.hands[1 - winner.index()];
                let outcome = if loser_hand.is_empty() {
                    TurnOutcome::Won(winner)
                } else {
                    TurnOutcome::Continue
                };
                return TurnReport {
                    outcome,
                    taker: Some(winner),
                    wars,
                };
            }
            wars += 1;
            // Each must put down three cards and flip a fourth; cards go down one at a time
            // together, so whoever holds fewer runs out first, and equal short hands draw.
            let needed = WAR_FACE_DOWN + 1;
            let (held_first, held_second) = (self.hands[0].len(), self.hands[1].len());
            if held_first < needed || held_second < needed {
                let outcome = match held_first.cmp(&held_second) {
                    std::cmp::Ordering::Less => TurnOutcome::Won(Player::Two),
                    std::cmp::Ordering::Greater => TurnOutcome::Won(Player::One),
                    std::cmp::Ordering::Equal => TurnOutcome::Draw,
                };
                return TurnReport {
                    outcome,
                    taker: None,
                    wars,
                };
            }
            for _ in 0..WAR_FACE_DOWN {
                for player in 0..2 {
                    let card = self.hands[player].take_top();
                    self.table[player].push(card);
                }
                self.on_table += 2;
            }
        }
    }

    /// Puts the table under the winner's hand in the order `placement` dictates.
    fn collect(&mut self, winner: Player, placement: Placement, rng: &mut TrialRng) {
        let w = winner.index();
        let l = 1 - w;
        let (winner_cards, loser_cards) = (self.table[w].as_slice(), self.table[l].as_slice());
        let total = winner_cards.len() + loser_cards.len();
        let pile = &mut self.scratch[..total];
        let (first, second) = match placement {
            Placement::LoserFirst => (loser_cards, winner_cards),
            Placement::Player1First => (self.table[0].as_slice(), self.table[1].as_slice()),
            _ => (winner_cards, loser_cards),
        };
        pile[..first.len()].copy_from_slice(first);
        pile[first.len()..].copy_from_slice(second);
        match placement {
            // Stable sorts keep the winner's card ahead of an equal loser's card.
            Placement::HighFirst => pile.sort_by(|a, b| b.cmp(a)),
            Placement::LowFirst => pile.sort(),
            Placement::Random => pile.shuffle(rng),
            Placement::WinnerFirst | Placement::LoserFirst | Placement::Player1First => {}
        }
        for &card in pile.iter() {
            self.hands[w].push_bottom(card);
        }
        self.on_table = 0;
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

/// A game of War with a placement strategy and a turn limit.
#[derive(Clone, Copy, Debug)]
pub struct War {
    /// How won cards go under the winner's hand.
    pub placement: Placement,
    /// Turns after which an unfinished, undetected game counts as infinite.
    pub max_turns: u32,
}

/// Running totals of one game, turn by turn.
#[derive(Default)]
struct Tally {
    turns: u32,
    wars: u32,
    double_wars: u32,
}

impl Tally {
    fn add(&mut self, report: &TurnReport) {
        self.turns += 1;
        self.wars += report.wars;
        self.double_wars += report.wars.saturating_sub(1);
    }

    fn outcome(&self, result: WarResult) -> WarOutcome {
        WarOutcome {
            result,
            turns: self.turns,
            wars: self.wars,
            double_wars: self.double_wars,
        }
    }
}

impl War {
    /// Plays a game from a given state to its end, detecting cycles (Brent's algorithm) for
    /// deterministic placements.
    pub fn play_from(&self, start: WarState, rng: &mut TrialRng) -> WarOutcome {
        let detect = self.placement.is_deterministic();
        let mut state = start;
        let mut tally = Tally::default();
        // Brent: compare each state with a checkpoint saved at turns 0, 1, 2, 4, 8, ...
        let mut checkpoint = start;
        let mut power = 1u32;
        let mut since_checkpoint = 0u32;
        while tally.turns < self.max_turns {
            let report = state.play_turn(self.placement, rng);
            tally.add(&report);
            match report.outcome {
                TurnOutcome::Won(player) => return tally.outcome(WarResult::Won(player)),
                TurnOutcome::Draw => return tally.outcome(WarResult::Draw),
                TurnOutcome::Continue => {}
            }
            if !detect {
                continue;
            }
            since_checkpoint += 1;
            if state == checkpoint {
                let period = since_checkpoint;
                let entry_turn = self.cycle_entry(start, period, rng);
                return tally.outcome(WarResult::Cycled { entry_turn, period });
            }
            if since_checkpoint == power {
                checkpoint = state;
                power *= 2;
                since_checkpoint = 0;
            }
        }
        tally.outcome(WarResult::Infinite)
    }

    /// The first turn after which the state lies on a cycle of length `period` (Brent's second
    /// phase: two replays from the deal, `period` turns apart, meet at the cycle's entry).
    fn cycle_entry(&self, start: WarState, period: u32, rng: &mut TrialRng) -> u32 {
        let mut behind = start;
        let mut ahead = start;
        for _ in 0..period {
            ahead.play_turn(self.placement, rng);
        }
        let mut entry = 0;
        while behind != ahead {
            behind.play_turn(self.placement, rng);
            ahead.play_turn(self.placement, rng);
            entry += 1;
        }
        entry
    }
}

impl Game for War {
    type Outcome = WarOutcome;
    type Summary = WarSummary;

    fn play(&self, rng: &mut TrialRng) -> WarOutcome {
        let start = WarState::deal(rng);
        self.play_from(start, rng)
    }
}

/// An integer sum with its sum of squares and maximum, for per-game counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountMoments {
    /// Sum of the values.
    pub sum: u64,
    /// Sum of the squared values.
    pub sum_squares: u128,
    /// Largest value seen.
    pub max: u32,
}

impl CountMoments {
    fn record(&mut self, value: u32) {
        self.sum += u64::from(value);
        self.sum_squares += u128::from(value) * u128::from(value);
        self.max = self.max.max(value);
    }

    fn merge(&mut self, other: &CountMoments) {
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
        self.max = self.max.max(other.max);
    }
}

/// Exact aggregate of many games of War.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarSummary {
    /// Games played.
    pub games: u64,
    /// Games won by player 1.
    pub p1_wins: u64,
    /// Games won by player 2.
    pub p2_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games that reached the turn limit undetected.
    pub infinite: u64,
    /// Games detected as cycling.
    pub cycled: u64,
    /// Finished games by their exact number of turns (index = turns).
    pub turn_histogram: Vec<u64>,
    /// Wars per finished game.
    pub wars: CountMoments,
    /// Double wars per finished game.
    pub double_wars: CountMoments,
    /// Cycled games by cycle period.
    pub cycle_periods: BTreeMap<u32, u64>,
    /// Turns before the cycle, over cycled games.
    pub cycle_entry: CountMoments,
}

impl WarSummary {
    /// Games that ended with a winner or a draw.
    pub fn finished(&self) -> u64 {
        self.p1_wins + self.p2_wins + self.draws
    }
}

impl Summary for WarSummary {
    type Outcome = WarOutcome;

    fn record(&mut self, outcome: &WarOutcome) {
        self.games += 1;
        match outcome.result {
            WarResult::Won(Player::One) => self.p1_wins += 1,
            WarResult::Won(Player::Two) => self.p2_wins += 1,
            WarResult::Draw => self.draws += 1,
            WarResult::Infinite => self.infinite += 1,
            WarResult::Cycled { entry_turn, period } => {
                self.cycled += 1;
                *self.cycle_periods.entry(period).or_default() += 1;
                self.cycle_entry.record(entry_turn);
            }
        }
        if outcome.is_finished() {
            let turns = outcome.turns as usize;
            if self.turn_histogram.len() <= turns {
                self.turn_histogram.resize(turns + 1, 0);
            }
            self.turn_histogram[turns] += 1;
            self.wars.record(outcome.wars);
            self.double_wars.record(outcome.double_wars);
        }
    }

    fn merge(&mut self, other: &WarSummary) {
        self.games += other.games;
        self.p1_wins += other.p1_wins;
        self.p2_wins += other.p2_wins;
        self.draws += other.draws;
        self.infinite += other.infinite;
        self.cycled += other.cycled;
        if self.turn_histogram.len() < other.turn_histogram.len() {
            self.turn_histogram.resize(other.turn_histogram.len(), 0);
        }
        for (mine, theirs) in self.turn_histogram.iter_mut().zip(&other.turn_histogram) {
            *mine += theirs;
        }
        self.wars.merge(&other.wars);
        self.double_wars.merge(&other.double_wars);
        for (&period, &count) in &other.cycle_periods {
            *self.cycle_periods.entry(period).or_default() += count;
        }
        self.cycle_entry.merge(&other.cycle_entry);
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
    use super::*;
    use crate::rng::trial_rng;
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
