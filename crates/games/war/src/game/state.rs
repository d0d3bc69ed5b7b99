//! The deck, the hands and one turn of War: the rules of play, with a fast path for the common
//! turn without a war.

use super::bits::Bits;
use super::rules::{RuleSet, Rules, Standard, MAX_DECK};
use super::{Placement, Player, DECK_SIZE};
use experiment_engine::rng::TrialRng;

/// Cards a hand's ring can hold (a power of two above the most cards in play, [`MAX_DECK`],
/// with room for the 4-card runs `high_first` and `low_first` write past a hand).
const RING: usize = 64;
const MASK: u32 = RING as u32 - 1;
const _: () = assert!(MAX_DECK + 4 <= RING);

/// An unshuffled standard deck: ranks 1 to 13, four times over.
const FRESH_DECK: [u8; DECK_SIZE] = {
    let mut deck = [0u8; DECK_SIZE];
    let mut i = 0;
    while i < DECK_SIZE {
        deck[i] = (i % 13) as u8 + 1;
        i += 1;
    }
    deck
};

/// A card of a deck dealt under rules other than the standard ones (see [`WarState::deal_by`]).
#[derive(Clone, Copy)]
struct Rank(u8);

/// A view of one player's hand: a queue of ranks in a ring buffer, top card first.
#[derive(Clone, Copy, Debug)]
pub struct Hand<'a> {
    ring: &'a [u8; RING],
    head: u32,
    len: u32,
}

impl<'a> Hand<'a> {
    /// Number of cards held.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cards, top first.
    pub fn cards(self) -> impl Iterator<Item = u8> + 'a {
        let Hand { ring, head, len } = self;
        (0..len).map(move |i| ring[((head + i) & MASK) as usize])
    }
}

/// The cards one player has put on the table this turn, in play order.
#[derive(Clone, Copy, Debug)]
struct Pile {
    cards: [u8; MAX_DECK],
    len: usize,
}

impl Pile {
    const EMPTY: Pile = Pile {
        cards: [0; MAX_DECK],
        len: 0,
    };

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
///
/// Each hand is a ring of ranks; the heads and lengths are plain fields rather than an array
/// so that the game loop keeps them in registers.
#[derive(Clone, Copy, Debug)]
pub struct WarState {
    rings: [[u8; RING]; 2],
    head_one: u32,
    len_one: u32,
    head_two: u32,
    len_two: u32,
    table: [Pile; 2],
    on_table: u32,
    bits: Bits,
}

impl PartialEq for WarState {
    /// Equal hands (the table is empty between turns and the random bits are not state).
    #[inline]
    fn eq(&self, other: &WarState) -> bool {
        self.holds(&other.hands())
    }
}

/// Both hands at one moment, without the table or the random bits: what cycle detection keeps
/// and compares (a third of a [`WarState`], so saving one is a few register moves).
#[derive(Clone, Copy, Debug)]
pub struct Hands {
    rings: [[u8; RING]; 2],
    head_one: u32,
    len_one: u32,
    head_two: u32,
    len_two: u32,
}

/// Whether two rings hold the same `len` cards from their heads on, stopping at the first
/// difference (usually the first card).
#[inline]
fn same_cards(a: &[u8; RING], head_a: u32, b: &[u8; RING], head_b: u32, len: u32) -> bool {
    (0..len).all(|i| a[((head_a + i) & MASK) as usize] == b[((head_b + i) & MASK) as usize])
}

impl WarState {
    /// No cards anywhere: the start of a deal.
    const EMPTY: WarState = WarState {
        rings: [[0; RING]; 2],
        head_one: 0,
        len_one: 0,
        head_two: 0,
        len_two: 0,
        table: [Pile::EMPTY; 2],
        on_table: 0,
        bits: Bits::EMPTY,
    };

    /// Shuffles a fresh standard deck with `rng` and deals it alternately, player 1 first.
    /// (Kept out of line, with the shuffle in it, as the fastest build has it.)
    #[inline(never)]
    pub fn deal(rng: &mut TrialRng) -> WarState {
        let mut deck = FRESH_DECK;
        experiment_engine::shuffle::shuffle(&mut deck, rng);
        WarState::dealt(&deck)
    }

    /// Shuffles a fresh deck of `rules.ranks` × `rules.suits` cards with `rng` and deals it
    /// alternately, player 1 first. The standard deck is dealt exactly as [`WarState::deal`].
    ///
    /// # Panics
    /// If the rules fail [`Rules::check`] (the spec layer refuses them first).
    #[inline(never)]
    pub fn deal_by(rules: &Rules, rng: &mut TrialRng) -> WarState {
        let size = rules.deck_size();
        assert!(rules.check().is_ok(), "unplayable rules {rules:?}");
        // Shuffled as `Rank`s, not bare `u8`s: the same draws and permutation, from a copy of
        // the shuffle of its own, so that the standard deal keeps its copy in line.
        let mut deck = [Rank(0); MAX_DECK];
        for (i, card) in deck[..size].iter_mut().enumerate() {
            *card = Rank((i % usize::from(rules.ranks)) as u8 + 1);
        }
        experiment_engine::shuffle::shuffle(&mut deck[..size], rng);
        let mut cards = [0u8; MAX_DECK];
        for (card, rank) in cards.iter_mut().zip(&deck[..size]) {
            *card = rank.0;
        }
        WarState::dealt(&cards[..size])
    }

    /// The hands dealt alternately from `deck` (of an even number of cards), player 1 first.
    fn dealt(deck: &[u8]) -> WarState {
        let mut state = WarState::EMPTY;
        for (i, pair) in deck.chunks_exact(2).enumerate() {
            state.rings[0][i] = pair[0];
            state.rings[1][i] = pair[1];
        }
        state.len_one = (deck.len() / 2) as u32;
        state.len_two = (deck.len() / 2) as u32;
        state
    }

    /// A game starting from the given hands (top card first), for scripted deals.
    pub fn from_hands(first: &[u8], second: &[u8]) -> WarState {
        let mut state = WarState::EMPTY;
        for &card in first {
            state.push(0, card);
        }
        for &card in second {
            state.push(1, card);
        }
        state
    }

    /// Both hands as they are now.
    #[inline(always)]
    pub fn hands(&self) -> Hands {
        Hands {
            rings: self.rings,
            head_one: self.head_one,
            len_one: self.len_one,
            head_two: self.head_two,
            len_two: self.len_two,
        }
    }

    /// Whether the hands are now exactly `hands`, card for card. Player 1's size and top card
    /// decide almost every comparison, so only they are checked in line.
    #[inline(always)]
    pub fn holds(&self, hands: &Hands) -> bool {
        // One branch for two tests (`&`, not `&&`): sizes often match, top cards rarely too.
        let top_one = self.rings[0][(self.head_one & MASK) as usize];
        let hands_top_one = hands.rings[0][(hands.head_one & MASK) as usize];
        (self.len_one == hands.len_one) & (top_one == hands_top_one) && self.holds_cards(hands)
    }

    /// The rest of [`WarState::holds`]: the same cards, stopping at the first difference
    /// (usually the top card).
    #[inline(never)]
    fn holds_cards(&self, hands: &Hands) -> bool {
        self.len_two == hands.len_two
            && same_cards(
                &self.rings[0],
                self.head_one,
                &hands.rings[0],
                hands.head_one,
                self.len_one,
            )
            && same_cards(
                &self.rings[1],
                self.head_two,
                &hands.rings[1],
                hands.head_two,
                self.len_two,
            )
    }

    /// A player's hand.
    pub fn hand(&self, player: Player) -> Hand<'_> {
        let p = player.index();
        Hand {
            ring: &self.rings[p],
            head: if p == 0 { self.head_one } else { self.head_two },
            len: self.len(p),
        }
    }

    /// The cards a player put on the table in the last turn, in play order.
    pub fn table(&self, player: Player) -> &[u8] {
        self.table[player.index()].as_slice()
    }

    /// Cards in both hands and still lying on the table: always the deck's size for a dealt
    /// game.
    pub fn card_count(&self) -> usize {
        (self.len_one + self.len_two + self.on_table) as usize
    }

    /// Cards held by player `p` (0 or 1).
    #[inline(always)]
    fn len(&self, p: usize) -> u32 {
        if p == 0 {
            self.len_one
        } else {
            self.len_two
        }
    }

    /// Puts `card` under player `p`'s hand.
    #[inline(always)]
    fn push(&mut self, p: usize, card: u8) {
        let (head, len) = if p == 0 {
            (self.head_one, &mut self.len_one)
        } else {
            (self.head_two, &mut self.len_two)
        };
        self.rings[p][((head + *len) & MASK) as usize] = card;
        *len += 1;
    }

    /// Plays one turn (with all its wars) under the standard rules and returns what happened.
    #[inline(always)]
    pub fn play_turn(&mut self, placement: Placement, rng: &mut TrialRng) -> TurnReport {
        self.turn(placement, Standard, rng)
    }

    /// Plays one turn (with all its wars) under `rules` and returns what happened.
    pub fn play_turn_by(
        &mut self,
        rules: &Rules,
        placement: Placement,
        rng: &mut TrialRng,
    ) -> TurnReport {
        if *rules == Rules::STANDARD {
            self.turn(placement, Standard, rng)
        } else {
            self.turn(placement, *rules, rng)
        }
    }

    /// One turn under `rules`.
    ///
    /// A turn without a war (the common case) takes a branch-free fast path: two cards, one
    /// comparison, and the pair goes under the winner's hand in the order `placement` dictates.
    /// The rules matter only once the up cards tie.
    #[inline(always)]
    pub(super) fn turn<R: RuleSet>(
        &mut self,
        placement: Placement,
        rules: R,
        rng: &mut TrialRng,
    ) -> TurnReport {
        let first = self.rings[0][(self.head_one & MASK) as usize];
        let second = self.rings[1][(self.head_two & MASK) as usize];
        self.head_one = (self.head_one + 1) & MASK;
        self.head_two = (self.head_two + 1) & MASK;
        self.len_one -= 1;
        self.len_two -= 1;
        self.table[0].cards[0] = first;
        self.table[1].cards[0] = second;
        self.table[0].len = 1;
        self.table[1].len = 1;
        if first == second {
            return self.war(placement, rules, rng);
        }
        let two_wins = second > first;
        let (high, low) = if two_wins {
            (second, first)
        } else {
            (first, second)
        };
        // Without a war the winner's card is the higher one.
        let (top, bottom) = match placement {
            Placement::WinnerFirst | Placement::HighFirst => (high, low),
            Placement::LoserFirst | Placement::LowFirst => (low, high),
            Placement::Player1First => (first, second),
            Placement::Random => {
                if self.bits.bit(rng) {
                    (low, high)
                } else {
                    (high, low)
                }
            }
        };
        let w = usize::from(two_wins);
        let end = if two_wins {
            self.head_two + self.len_two
        } else {
            self.head_one + self.len_one
        };
        self.rings[w][(end & MASK) as usize] = top;
        self.rings[w][((end + 1) & MASK) as usize] = bottom;
        let gain = 2 * u32::from(two_wins);
        self.len_one += 2 - gain;
        self.len_two += gain;
        self.on_table = 0;
        let winner = if two_wins { Player::Two } else { Player::One };
        let outcome = if self.len_one == 0 || self.len_two == 0 {
            TurnOutcome::Won(winner)
        } else {
            TurnOutcome::Continue
        };
        TurnReport {
            outcome,
            taker: Some(winner),
            wars: 0,
        }
    }

    /// The rest of a turn whose up cards (already on the table) tied.
    #[inline(never)]
    fn war<R: RuleSet>(
        &mut self,
        placement: Placement,
        rules: R,
        rng: &mut TrialRng,
    ) -> TurnReport {
        self.on_table = 2;
        let mut wars = 0;
        // Each puts down `face_down` cards and flips one more.
        let needed = rules.face_down() + 1;
        loop {
            wars += 1;
            if self.len_one >= needed && self.len_two >= needed {
                self.lay_both(needed);
            } else if rules.last_card() {
                // A short player puts down what he has, the last card face up; with nothing
                // left his up card stays. With nothing left on either side, nobody can play on.
                if self.len_one == 0 && self.len_two == 0 {
                    return TurnReport {
                        outcome: TurnOutcome::Draw,
                        taker: None,
                        wars,
                    };
                }
                self.lay(0, self.len_one.min(needed));
                self.lay(1, self.len_two.min(needed));
            } else {
                // Running out loses; cards go down one at a time together, so whoever holds
                // fewer runs out first, and equal short hands draw.
                let outcome = match self.len_one.cmp(&self.len_two) {
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
            let first = self.table[0].cards[self.table[0].len - 1];
            let second = self.table[1].cards[self.table[1].len - 1];
            if first != second {
                let winner = if first > second {
                    Player::One
                } else {
                    Player::Two
                };
                self.collect(winner, placement, rules, rng);
                let outcome = if self.len(1 - winner.index()) == 0 {
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
        }
    }

    /// Both players move `count` cards (each holds at least that many) from their hands to the
    /// table, together.
    #[inline(always)]
    fn lay_both(&mut self, count: u32) {
        let (head_one, head_two) = (self.head_one, self.head_two);
        let (pile_one, pile_two) = (self.table[0].len, self.table[1].len);
        for i in 0..count {
            self.table[0].cards[pile_one + i as usize] =
                self.rings[0][((head_one + i) & MASK) as usize];
            self.table[1].cards[pile_two + i as usize] =
                self.rings[1][((head_two + i) & MASK) as usize];
        }
        self.table[0].len += count as usize;
        self.table[1].len += count as usize;
        self.head_one = (head_one + count) & MASK;
        self.head_two = (head_two + count) & MASK;
        self.len_one -= count;
        self.len_two -= count;
        self.on_table += 2 * count;
    }

    /// Player `p` moves `count` cards (he holds at least that many) from his hand to the table.
    fn lay(&mut self, p: usize, count: u32) {
        let (head, len) = if p == 0 {
            (&mut self.head_one, &mut self.len_one)
        } else {
            (&mut self.head_two, &mut self.len_two)
        };
        let pile = &mut self.table[p];
        for i in 0..count {
            pile.cards[pile.len + i as usize] = self.rings[p][((*head + i) & MASK) as usize];
        }
        pile.len += count as usize;
        *head = (*head + count) & MASK;
        *len -= count;
        self.on_table += count;
    }

    /// Puts the table under the winner's hand in the order `placement` dictates.
    fn collect<R: RuleSet>(
        &mut self,
        winner: Player,
        placement: Placement,
        rules: R,
        rng: &mut TrialRng,
    ) {
        let w = winner.index();
        let (head, len) = if w == 0 {
            (self.head_one, self.len_one)
        } else {
            (self.head_two, self.len_two)
        };
        let gained = (self.table[0].len + self.table[1].len) as u32;
        if w == 0 {
            self.len_one += gained;
        } else {
            self.len_two += gained;
        }
        self.on_table = 0;
        let (one, two) = (self.table[0].as_slice(), self.table[1].as_slice());
        let ring = &mut self.rings[w];
        let mut end = head + len;
        if matches!(placement, Placement::HighFirst | Placement::LowFirst) {
            let high_first = placement == Placement::HighFirst;
            let ranks = rules.ranks();
            // A count per rank, on the stack: 13 ranks under the standard rules.
            if ranks <= Rules::STANDARD.ranks {
                put_sorted::<14>(ring, end, one, two, ranks, high_first);
            } else {
                put_sorted::<{ MAX_DECK + 1 }>(ring, end, one, two, ranks, high_first);
            }
            return;
        }
        let (winner_cards, loser_cards) = if w == 0 { (one, two) } else { (two, one) };
        let (first, second) = match placement {
            Placement::LoserFirst => (loser_cards, winner_cards),
            Placement::Player1First => (one, two),
            _ => (winner_cards, loser_cards),
        };
        if placement == Placement::Random {
            let mut scratch = [0u8; MAX_DECK];
            let pile = &mut scratch[..gained as usize];
            pile[..first.len()].copy_from_slice(first);
            pile[first.len()..].copy_from_slice(second);
            self.bits.shuffle(pile, rng);
            for &card in pile.iter() {
                ring[(end & MASK) as usize] = card;
                end += 1;
            }
            return;
        }
        // Both piles hold as many cards unless a player ran short; one war (five each under
        // the standard rules) is by far the most common table, and a fixed count lets the copy
        // unroll.
        let one_war = 1 + rules.face_down() as usize + 1;
        if first.len() == one_war && second.len() == one_war {
            for i in 0..one_war {
                ring[((end + i as u32) & MASK) as usize] = first[i];
                ring[((end + (one_war + i) as u32) & MASK) as usize] = second[i];
            }
            return;
        }
        for &card in first.iter().chain(second) {
            ring[(end & MASK) as usize] = card;
            end += 1;
        }
    }
}

/// Writes the cards of `one` and `two` (ranks 1 to `ranks`, below `N`) into `ring` from `end`
/// on, sorted by rank, highest or lowest first.
///
/// Cards are bare ranks, so a stable sort is a count of each rank; each rank's run (at most 4
/// cards from a standard deck) is written in full and the end moved by its count, without a
/// branch per card (the ring has at least `RING - MAX_DECK` = 12 free slots past the hand).
#[inline(always)]
fn put_sorted<const N: usize>(
    ring: &mut [u8; RING],
    mut end: u32,
    one: &[u8],
    two: &[u8],
    ranks: u8,
    high_first: bool,
) {
    let mut counts = [0u32; N];
    for &card in one.iter().chain(two) {
        counts[usize::from(card)] += 1;
    }
    let mut put = |rank: u8| {
        let count = counts[usize::from(rank)];
        for i in 0..4 {
            ring[((end + i) & MASK) as usize] = rank;
        }
        // More than four of a rank only with more than four suits, or in a scripted deal.
        for i in 4..count {
            ring[((end + i) & MASK) as usize] = rank;
        }
        end += count;
    };
    if high_first {
        (1..=ranks).rev().for_each(&mut put);
    } else {
        (1..=ranks).for_each(&mut put);
    }
}
