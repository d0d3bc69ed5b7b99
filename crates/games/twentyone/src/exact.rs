//! Exact Twenty-One probabilities, by enumerating the shoe (one 52-card deck by default)
//! without replacement, at any of the table's [`Rules`].
//!
//! The player sees only his own cards, so every strategy is a function of his hand's
//! composition (how many cards of each value 1..=10 he holds; 10/J/Q/K are alike for play).
//! Every composition the shoe allows with a hard total of at most 21 is a node of a small graph
//! (a few thousand nodes whatever the number of decks: a hard total of 21 bounds the hand),
//! numbered so that a hand comes before every hand it can grow into. On that graph:
//!
//! - the computer's final total is computed exactly for each composition the player may stand
//!   on (the computer draws from the shoe minus the player's cards, hits below 17 and on a soft
//!   17 when the rules say so), by pushing probability forward through the computer's
//!   compositions;
//! - a given strategy is evaluated by pushing the player's probability forward the same way;
//! - the optimal strategy comes from backward induction: at each composition, hit when the
//!   expected value of drawing beats that of standing (ties stand). The value is the chance of
//!   winning, plus half the chance of a push when ties push, plus (natural_pays − 1) / 2 times
//!   the chance of a win on a natural: (mean payoff + 1) / 2, which is the win probability
//!   itself at the default rules.

use std::collections::HashMap;
use std::fmt;

use crate::game::{Hand, HitPolicy, Rules, Strategy, Ties, TARGET, VALUES};

/// Marks a draw that takes the hand over 21 (or that the deck cannot supply).
const NO_STATE: u32 = u32::MAX;

/// Exact probabilities of how a game ends for one strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ExactOutcome {
    /// The player wins.
    pub win: f64,
    /// The player goes over 21.
    pub player_bust: f64,
    /// The player stands and the computer goes over 21.
    pub dealer_bust: f64,
    /// Both stand on the same total (the computer wins these, or they push, as the rules say).
    pub tie: f64,
    /// The player wins standing on a natural (his first two cards making 21); part of `win`.
    pub natural_win: f64,
}

impl ExactOutcome {
    /// The exact mean payoff per game at `rules`: +1 a win (`natural_pays` on a natural), -1 a
    /// loss, 0 a push.
    pub fn mean_payoff(&self, rules: &Rules) -> f64 {
        let pushes = if rules.tie == Ties::Push {
            self.tie
        } else {
            0.0
        };
        let losses = 1.0 - self.win - pushes;
        self.win + (rules.natural_pays - 1.0) * self.natural_win - losses
    }
}

/// What standing on one composition is worth.
#[derive(Clone, Copy, Debug, Default)]
struct StandOdds {
    win: f64,
    tie: f64,
    dealer_bust: f64,
}

/// All compositions the shoe allows with hard total at most 21, numbered in order of card
/// count, with the composition each drawn value leads to, and the rules they are played at.
#[derive(Clone, Debug)]
struct CompositionGraph {
    hands: Vec<Hand>,
    next: Vec<[u32; VALUES]>,
    rules: Rules,
}

impl CompositionGraph {
    fn build(rules: Rules) -> CompositionGraph {
        let full = rules.full_counts();
        let mut hands = vec![Hand::new()];
        let mut ids: HashMap<[u8; VALUES], u32> = HashMap::from([([0; VALUES], 0)]);
        let mut next = Vec::new();
        // Breadth-first from the empty hand: ids grow with the number of cards.
        let mut id = 0;
        while id < hands.len() {
            let counts = hands[id].counts();
            let mut row = [NO_STATE; VALUES];
            for (value, target) in row.iter_mut().enumerate() {
                if counts[value] >= full[value] {
                    continue;
                }
                let mut grown = counts;
                grown[value] += 1;
                let child = Hand::from_counts(grown);
                if child.is_bust() {
                    continue;
                }
                *target = *ids.entry(grown).or_insert_with(|| {
                    hands.push(child);
                    (hands.len() - 1) as u32
                });
            }
            next.push(row);
            id += 1;
        }
        CompositionGraph { hands, next, rules }
    }

    fn len(&self) -> usize {
        self.hands.len()
    }

    /// What standing on `player` is worth, given the computer draws from the other cards.
    /// `reach` is scratch space of one entry per composition.
    fn stand_odds(&self, player: &Hand, reach: &mut [f64]) -> StandOdds {
        let remaining = self.rules.unseen(player);
        let unseen = self.rules.cards() - player.len();
        reach.fill(0.0);
        reach[0] = 1.0;
        let mut finals = [0.0f64; TARGET as usize + 1];
        let mut bust = 0.0;
        for (id, dealer) in self.hands.iter().enumerate() {
            let p = reach[id];
            if p == 0.0 {
                continue;
            }
            if dealer.len() >= 2 && !self.rules.dealer_should_hit(dealer) {
                finals[usize::from(dealer.total())] += p;
                continue;
            }
            let left = (unseen - dealer.len()) as f64;
            let held = dealer.counts();
            for value in 0..VALUES {
                let available = remaining[value].saturating_sub(held[value]);
                if available == 0 {
                    continue;
                }
                let q = p * f64::from(available) / left;
                match self.next[id][value] {
                    NO_STATE => bust += q,
                    target => reach[target as usize] += q,
                }
            }
        }
        let total = usize::from(player.total());
        StandOdds {
            win: bust + finals[..total].iter().sum::<f64>(),
            tie: finals[total],
            dealer_bust: bust,
        }
    }

    /// The chance of each drawn value for `hand` (drawing from the cards it has not seen),
    /// with the composition it leads to.
    fn draws(&self, id: usize) -> impl Iterator<Item = (f64, u32)> + '_ {
        let hand = &self.hands[id];
        let unseen = self.rules.unseen(hand);
        let left = (self.rules.cards() - hand.len()) as f64;
        (0..VALUES)
            .filter(move |&value| unseen[value] > 0)
            .map(move |value| (f64::from(unseen[value]) / left, self.next[id][value]))
    }
}

/// The exact solver at one set of rules: the composition graph and what standing on each
/// composition is worth, computed once (a fraction of a second in release builds) and reused
/// for any strategy.
#[derive(Clone, Debug)]
pub struct Solver {
    graph: CompositionGraph,
    stand: Vec<StandOdds>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// The solver at the default rules.
    pub fn new() -> Solver {
        Solver::with_rules(Rules::default())
    }

    /// Builds the composition graph and the computer's exact odds against every composition,
    /// at `rules`.
    pub fn with_rules(rules: Rules) -> Solver {
        let graph = CompositionGraph::build(rules);
        let mut reach = vec![0.0; graph.len()];
        let stand = graph
            .hands
            .iter()
            .map(|hand| {
                if hand.len() >= 2 {
                    graph.stand_odds(hand, &mut reach)
                } else {
                    StandOdds::default()
                }
            })
            .collect();
        Solver { graph, stand }
    }

    /// The rules the solver plays at.
    pub fn rules(&self) -> &Rules {
        &self.graph.rules
    }

    /// How many player compositions (hard total at most 21) the solver enumerates.
    pub fn state_count(&self) -> usize {
        self.graph.len()
    }

    /// The exact probabilities of how a game ends when the player follows `strategy`.
    pub fn outcome(&self, strategy: &Strategy) -> ExactOutcome {
        let mut reach = vec![0.0; self.graph.len()];
        reach[0] = 1.0;
        let mut outcome = ExactOutcome::default();
        for (id, hand) in self.graph.hands.iter().enumerate() {
            let p = reach[id];
            if p == 0.0 {
                continue;
            }
            if hand.len() >= 2 && !strategy.should_hit(hand, &self.graph.rules) {
                let odds = self.stand[id];
                outcome.win += p * odds.win;
                if is_natural(hand) {
                    outcome.natural_win += p * odds.win;
                }
                outcome.tie += p * odds.tie;
                outcome.dealer_bust += p * odds.dealer_bust;
                continue;
            }
            for (chance, target) in self.graph.draws(id) {
                match target {
                    NO_STATE => outcome.player_bust += p * chance,
                    target => reach[target as usize] += p * chance,
                }
            }
        }
        outcome
    }

    /// What standing on composition `id` is worth: (mean payoff + 1) / 2, the chance of winning
    /// at the default rules.
    fn stand_value(&self, id: usize) -> f64 {
        let rules = &self.graph.rules;
        let odds = self.stand[id];
        let mut value = odds.win;
        if rules.tie == Ties::Push {
            value += odds.tie / 2.0;
        }
        if rules.natural_pays != 1.0 && is_natural(&self.graph.hands[id]) {
            value += (rules.natural_pays - 1.0) / 2.0 * odds.win;
        }
        value
    }

    /// The strategy that maximises the mean payoff (the chance of winning, at the default
    /// rules), by backward induction over the player's compositions.
    pub fn optimal_policy(&self) -> OptimalPolicy {
        let n = self.graph.len();
        let mut value = vec![0.0; n];
        let mut hit = vec![false; n];
        for id in (0..n).rev() {
            let drawing: f64 = self
                .graph
                .draws(id)
                .filter(|&(_, target)| target != NO_STATE)
                .map(|(chance, target)| chance * value[target as usize])
                .sum();
            let standing = self.stand_value(id);
            if self.graph.hands[id].len() < 2 || drawing > standing {
                value[id] = drawing;
                hit[id] = true;
            } else {
                value[id] = standing;
            }
        }
        OptimalPolicy {
            next: self.graph.next.clone(),
            hit,
            value: value[0],
        }
    }
}

/// Whether `hand` is a natural: two cards making 21.
fn is_natural(hand: &Hand) -> bool {
    hand.len() == 2 && hand.total() == TARGET
}

/// The optimal hit/stay decision for every composition the player can hold, as a table.
#[derive(Clone)]
pub struct OptimalPolicy {
    next: Vec<[u32; VALUES]>,
    hit: Vec<bool>,
    value: f64,
}

impl fmt::Debug for OptimalPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OptimalPolicy")
            .field("states", &self.hit.len())
            .field("value", &self.value)
            .finish()
    }
}

impl OptimalPolicy {
    /// Solves the game exactly at the default rules and keeps the optimal decisions.
    pub fn solve() -> OptimalPolicy {
        Solver::new().optimal_policy()
    }

    /// Whether the optimal player holding `hand` hits: a walk of at most one step per card
    /// through the precomputed table. A bust hand, or one the shoe cannot hold, stays.
    pub fn should_hit(&self, hand: &Hand) -> bool {
        let mut id = 0usize;
        for (value, &count) in hand.counts().iter().enumerate() {
            for _ in 0..count {
                match self.next[id][value] {
                    NO_STATE => return false,
                    target => id = target as usize,
                }
            }
        }
        self.hit[id]
    }

    /// The optimal player's exact (mean payoff + 1) / 2: his chance of winning a game at the
    /// default rules, plus half his chance of a push when ties push, plus (natural_pays − 1) / 2
    /// times his chance of a win on a natural.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// How many compositions the table covers.
    pub fn state_count(&self) -> usize {
        self.hit.len()
    }
}

/// The `optimal` strategy reads the table through the rules' own trait.
impl HitPolicy for OptimalPolicy {
    #[inline]
    fn should_hit(&self, hand: &Hand) -> bool {
        OptimalPolicy::should_hit(self, hand)
    }
}

/// The exact probabilities of how a game ends when the player follows `strategy`.
pub fn exact_outcome(strategy: &Strategy) -> ExactOutcome {
    Solver::new().outcome(strategy)
}

/// The exact chance that the player following `strategy` wins a game.
pub fn exact_win_probability(strategy: &Strategy) -> f64 {
    exact_outcome(strategy).win
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Card, Soft17, Suit, TwentyOne, TwentyOneSummary};
    use experiment_engine::games::Game;
    use experiment_engine::rng::trial_rng;
    use experiment_engine::summary::Summary;
    use std::sync::Arc;

    fn hand(values: &[u8]) -> Hand {
        let mut counts = [0u8; VALUES];
        for &v in values {
            counts[usize::from(v - 1)] += 1;
        }
        Hand::from_counts(counts)
    }

    /// The computer's final-total distribution by plain recursion over its ordered draws.
    fn brute_dealer(
        rules: &Rules,
        remaining: &mut [u8; VALUES],
        dealer: Hand,
        p: f64,
        finals: &mut [f64; 32],
    ) {
        if dealer.len() >= 2 && !rules.dealer_should_hit(&dealer) {
            finals[usize::from(dealer.total())] += p;
            return;
        }
        let left: u32 = remaining.iter().map(|&c| u32::from(c)).sum();
        for value in 0..VALUES {
            let count = remaining[value];
            if count == 0 {
                continue;
            }
            let q = p * f64::from(count) / f64::from(left);
            remaining[value] -= 1;
            let mut grown = dealer;
            grown.push(Card::new(value as u8 + 1, Suit::Hearts).expect("valid rank"));
            brute_dealer(rules, remaining, grown, q, finals);
            remaining[value] += 1;
        }
    }

    #[test]
    fn computer_odds_match_plain_recursion_over_ordered_draws() {
        let hits_two_decks = Rules {
            decks: 2,
            soft_17: Soft17::Hit,
            ..Rules::default()
        };
        for rules in [Rules::default(), hits_two_decks] {
            let graph = CompositionGraph::build(rules);
            let mut reach = vec![0.0; graph.len()];
            for player in [hand(&[10, 7]), hand(&[1, 1, 9]), hand(&[2, 3, 4, 5])] {
                let odds = graph.stand_odds(&player, &mut reach);
                let mut finals = [0.0; 32];
                let mut remaining = rules.unseen(&player);
                brute_dealer(&rules, &mut remaining, Hand::new(), 1.0, &mut finals);
                let bust: f64 = finals[22..].iter().sum();
                let total = usize::from(player.total());
                let win = bust + finals[..total].iter().sum::<f64>();
                assert!((odds.dealer_bust - bust).abs() < 1e-12, "{rules:?}");
                assert!((odds.win - win).abs() < 1e-12, "{rules:?}");
                assert!((odds.tie - finals[total]).abs() < 1e-12, "{rules:?}");
            }
        }
    }

    #[test]
    fn a_computer_hitting_soft_seventeen_busts_more_and_more_decks_allow_more_hands() {
        let stands = Solver::new().outcome(&Strategy::StandAt(2));
        let hits = Rules {
            soft_17: Soft17::Hit,
            ..Rules::default()
        };
        let hitting = Solver::with_rules(hits).outcome(&Strategy::StandAt(2));
        assert!(hitting.dealer_bust > stands.dealer_bust);
        let one = CompositionGraph::build(Rules::default()).len();
        let two = CompositionGraph::build(Rules {
            decks: 2,
            ..Rules::default()
        })
        .len();
        let eight = CompositionGraph::build(Rules {
            decks: Rules::MAX_DECKS,
            ..Rules::default()
        })
        .len();
        assert!(one < two && two <= eight, "{one} {two} {eight}");
        // A, A, A, A, A, A, A, A, 2, 2, 2 is 21 only with two decks.
        assert!(eight < 10_000, "a hard 21 bounds the hands: {eight}");
    }

    #[test]
    fn mean_payoff_counts_pushes_and_naturals_as_the_rules_say() {
        let outcome = ExactOutcome {
            win: 0.4,
            player_bust: 0.2,
            dealer_bust: 0.1,
            tie: 0.1,
            natural_win: 0.05,
        };
        assert!((outcome.mean_payoff(&Rules::default()) - (0.4 - 0.6)).abs() < 1e-15);
        let push = Rules {
            tie: Ties::Push,
            natural_pays: 1.5,
            ..Rules::default()
        };
        let expected = 0.4 + 0.5 * 0.05 - 0.5;
        assert!((outcome.mean_payoff(&push) - expected).abs() < 1e-15);
    }

    #[test]
    fn optimal_maximises_the_mean_payoff_when_ties_push_and_naturals_pay_more() {
        let rules = Rules {
            decks: 2,
            tie: Ties::Push,
            soft_17: Soft17::Hit,
            natural_pays: 1.5,
        };
        let solver = Solver::with_rules(rules);
        let optimal = solver.optimal_policy();
        let by_table = solver.outcome(&Strategy::Optimal(Arc::new(optimal.clone())));
        let payoff = by_table.mean_payoff(&rules);
        assert!((payoff - (2.0 * optimal.value() - 1.0)).abs() < 1e-12);
        for n in 2..=21 {
            let fixed = solver.outcome(&Strategy::StandAt(n)).mean_payoff(&rules);
            assert!(payoff >= fixed - 1e-12, "stand_at {n}: {fixed} > {payoff}");
        }
        // The win-maximising table of the default rules does no better here.
        let win_table = Strategy::Optimal(Arc::new(OptimalPolicy::solve()));
        assert!(payoff >= solver.outcome(&win_table).mean_payoff(&rules) - 1e-12);
        // Standing on two cards, the player wins on a natural whenever he is dealt one (an ace
        // and a ten-valued card, 2 × 8/104 × 32/103 at two decks) and the computer ends below 21.
        let dealt = 2.0 * (8.0 / 104.0) * (32.0 / 103.0);
        let mut reach = vec![0.0; solver.state_count()];
        let against_21 = solver.graph.stand_odds(&hand(&[1, 10]), &mut reach).win;
        let stand = solver.outcome(&Strategy::StandAt(2));
        assert!((stand.natural_win - dealt * against_21).abs() < 1e-12);
        assert!(against_21 < 1.0);
    }

    #[test]
    fn graph_holds_each_composition_once_in_order_of_card_count() {
        let graph = CompositionGraph::build(Rules::default());
        assert!(graph.hands.windows(2).all(|w| w[0].len() <= w[1].len()));
        let mut seen = std::collections::HashSet::new();
        assert!(graph.hands.iter().all(|h| seen.insert(h.counts())));
        assert!(graph.hands.iter().all(|h| !h.is_bust()));
        // A, A, A, A, 2, 2, 2, 2, 3, 3, 3 is the longest hand at or under 21.
        assert_eq!(graph.hands.iter().map(Hand::len).max(), Some(11));
    }

    #[test]
    fn standing_on_any_two_cards_never_busts_and_always_hitting_always_busts() {
        let solver = Solver::new();
        let never = solver.outcome(&Strategy::StandAt(2));
        assert_eq!(never.player_bust, 0.0);
        assert!(never.win > 0.0 && never.dealer_bust <= never.win);
        let always = solver.outcome(&Strategy::Probability(0.0));
        assert!((always.player_bust - 1.0).abs() < 1e-12);
        assert_eq!(always.win, 0.0);
    }

    #[test]
    fn computer_busts_as_often_as_a_fresh_stand_at_seventeen_player_against_any_non_busting_player()
    {
        // The cards after a stopping time are distributed like a fresh deck's, so against a
        // player who never busts the computer busts exactly as often as a player who hits below
        // 17 from a fresh deck busts.
        let solver = Solver::new();
        let fresh = solver.outcome(&Strategy::StandAt(17)).player_bust;
        for n in [2, 7, 12] {
            let outcome = solver.outcome(&Strategy::StandAt(n));
            assert_eq!(outcome.player_bust, 0.0);
            assert!((outcome.dealer_bust - fresh).abs() < 1e-12, "stand_at {n}");
        }
    }

    #[test]
    fn optimal_is_at_least_as_good_as_every_fixed_threshold_and_probability() {
        let solver = Solver::new();
        let optimal = solver.optimal_policy();
        let by_table = solver.outcome(&Strategy::Optimal(Arc::new(optimal.clone())));
        assert!((by_table.win - optimal.value()).abs() < 1e-12);
        for n in 2..=21 {
            let win = solver.outcome(&Strategy::StandAt(n)).win;
            assert!(optimal.value() >= win - 1e-12, "stand_at {n}: {win}");
        }
        for tenths in 1..=10 {
            let p = f64::from(tenths) / 10.0;
            let win = solver.outcome(&Strategy::Probability(p)).win;
            assert!(optimal.value() >= win - 1e-12, "probability {p}: {win}");
        }
    }

    #[test]
    fn optimal_stays_on_twenty_and_hits_eleven() {
        let policy = OptimalPolicy::solve();
        assert!(!policy.should_hit(&hand(&[10, 10])));
        assert!(!policy.should_hit(&hand(&[1, 10])));
        assert!(policy.should_hit(&hand(&[5, 6])));
        assert!(!policy.should_hit(&hand(&[10, 10, 5])));
    }

    fn simulate(strategy: Strategy, seed: u64, games: u64) -> TwentyOneSummary {
        simulate_at(Rules::default(), strategy, seed, games)
    }

    fn simulate_at(rules: Rules, strategy: Strategy, seed: u64, games: u64) -> TwentyOneSummary {
        let game = TwentyOne::with_rules(strategy, rules);
        let mut summary = TwentyOneSummary::default();
        for i in 0..games {
            summary.record(&game.play(&mut trial_rng(seed, 0, i)));
        }
        summary
    }

    fn assert_within_four_standard_errors(count: u64, games: u64, exact: f64, what: &str) {
        let observed = count as f64 / games as f64;
        let standard_error = (exact * (1.0 - exact) / games as f64).sqrt();
        assert!(
            (observed - exact).abs() <= 4.0 * standard_error,
            "{what}: simulated {observed}, exact {exact}, s.e. {standard_error}"
        );
    }

    #[test]
    fn simulated_rates_agree_with_exact_values() {
        let solver = Solver::new();
        let games = 200_000;
        for (seed, strategy) in [
            (11, Strategy::StandAt(17)),
            (12, Strategy::Probability(0.5)),
            (13, Strategy::Optimal(Arc::new(solver.optimal_policy()))),
        ] {
            let exact = solver.outcome(&strategy);
            let summary = simulate(strategy.clone(), seed, games);
            let name = strategy.to_string();
            assert_within_four_standard_errors(summary.wins, games, exact.win, &name);
            assert_within_four_standard_errors(
                summary.player_busts,
                games,
                exact.player_bust,
                &name,
            );
            assert_within_four_standard_errors(
                summary.dealer_busts,
                games,
                exact.dealer_bust,
                &name,
            );
            assert_within_four_standard_errors(summary.ties, games, exact.tie, &name);
        }
    }

    #[test]
    fn simulated_rates_and_payoffs_agree_with_exact_values_at_other_rules() {
        let rules = Rules {
            decks: 3,
            tie: Ties::Push,
            soft_17: Soft17::Hit,
            natural_pays: 1.5,
        };
        let solver = Solver::with_rules(rules);
        let games = 200_000;
        for (seed, strategy) in [
            (21, Strategy::StandAt(15)),
            (22, Strategy::Probability(0.4)),
            (23, Strategy::Optimal(Arc::new(solver.optimal_policy()))),
        ] {
            let exact = solver.outcome(&strategy);
            let summary = simulate_at(rules, strategy.clone(), seed, games);
            let name = strategy.to_string();
            assert_within_four_standard_errors(summary.wins, games, exact.win, &name);
            assert_within_four_standard_errors(summary.ties, games, exact.tie, &name);
            let naturals = summary.natural_wins;
            assert_within_four_standard_errors(naturals, games, exact.natural_win, &name);
            // The mean payoff in twentieths, with the standard error of the sample mean.
            let losses = games - summary.wins - summary.ties;
            let (n, wins) = (games as f64, (summary.wins - naturals) as f64);
            let sum = 20.0 * wins + 30.0 * naturals as f64 - 20.0 * losses as f64;
            let squares = 400.0 * (wins + losses as f64) + 900.0 * naturals as f64;
            let mean = sum / n / 20.0;
            let se = ((squares / n - (sum / n).powi(2)) / (n - 1.0)).sqrt() / 20.0;
            let expected = exact.mean_payoff(&rules);
            assert!(
                (mean - expected).abs() < 4.0 * se,
                "{name}: mean payoff {mean}, exact {expected}, s.e. {se}"
            );
        }
    }
}
