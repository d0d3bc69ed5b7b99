//! The exact Markov chain of Monopoly landings with cards drawn with replacement, under any
//! [`Rules`] (the dice's sides, what is counted, the Chance deck, whether the Go to jail corner
//! arrests).
//!
//! A state is where a player stands at the start of a turn: one of the 40 squares (free) or
//! his jail turn (1, 2 or 3 for long stay; 1 for short stay). The doubles within a turn are
//! enumerated inside the turn, so one step of the chain is one whole turn, and each turn
//! carries the expected number of landings it makes on each square: one per throw where the
//! throw ends ([`Count::EveryThrow`]), or one where the turn ends ([`Count::TurnEnd`]).

use crate::game::board::{advance, SquareKind, BOARD_SIZE, GO, JAIL, KINDS};
use crate::game::cards::{CardEffect, ChestCard};
use crate::game::{Count, JailStrategy, Rules};
use experiment_engine::linear::solve;

/// Free states on the 40 squares, then up to three jail turns.
const STATES: usize = BOARD_SIZE + 3;

/// Where a move ends once its square's rules are applied.
#[derive(Clone, Copy)]
struct Rest {
    /// Probability of resting free on each square.
    free: [f64; BOARD_SIZE],
    /// Probability of being sent to jail.
    jailed: f64,
}

/// The rest distribution after the dice put the token on `index`, under `rules` (the Chance
/// deck, and whether the Go to jail corner arrests or is an ordinary square).
fn resolve(index: u8, rules: &Rules) -> Rest {
    let mut rest = Rest {
        free: [0.0; BOARD_SIZE],
        jailed: 0.0,
    };
    match KINDS[usize::from(index)] {
        SquareKind::Plain => rest.free[usize::from(index)] = 1.0,
        SquareKind::GoToJail if !rules.go_to_jail => rest.free[usize::from(index)] = 1.0,
        SquareKind::GoToJail => rest.jailed = 1.0,
        SquareKind::Chance => {
            let chance = rules.chance.cards();
            let weight = 1.0 / chance.len() as f64;
            for card in chance {
                follow(card.effect(index), index, weight, rules, &mut rest);
            }
        }
        SquareKind::CommunityChest => {
            let weight = 1.0 / ChestCard::DECK.len() as f64;
            for card in ChestCard::DECK {
                follow(card.effect(), index, weight, rules, &mut rest);
            }
        }
    }
    rest
}

/// Adds a card's effect, drawn with probability `weight` on the square at `from`.
fn follow(effect: CardEffect, from: u8, weight: f64, rules: &Rules, rest: &mut Rest) {
    match effect {
        CardEffect::Stay => rest.free[usize::from(from)] += weight,
        CardEffect::Jail => rest.jailed += weight,
        CardEffect::MoveTo(to) => {
            let next = resolve(to, rules);
            for (slot, p) in rest.free.iter_mut().zip(next.free) {
                *slot += weight * p;
            }
            rest.jailed += weight * next.jailed;
        }
    }
}

/// One turn from each state: the next-state distribution and expected landings per square.
struct TurnTable {
    states: usize,
    sides: u8,
    transition: [[f64; STATES]; STATES],
    landings: [[f64; BOARD_SIZE]; STATES],
}

/// The state of a player starting his `k`-th jail turn.
fn jail_state(k: usize) -> usize {
    BOARD_SIZE + k - 1
}

impl TurnTable {
    fn new(jail: JailStrategy, rules: &Rules) -> Self {
        let rests: Vec<Rest> = (0..BOARD_SIZE as u8)
            .map(|index| resolve(index, rules))
            .collect();
        let jail_turns = match jail {
            JailStrategy::LongStay => 3,
            JailStrategy::ShortStay | JailStrategy::ShortStayFullTurn => 1,
        };
        let sides = rules.die_sides;
        let p = 1.0 / f64::from(rules.throws());
        let mut table = TurnTable {
            states: BOARD_SIZE + jail_turns,
            sides,
            transition: [[0.0; STATES]; STATES],
            landings: [[0.0; BOARD_SIZE]; STATES],
        };
        for start in 0..BOARD_SIZE {
            table.free_throw(start, start as u8, 0, 1.0, &rests);
        }
        for k in 1..=jail_turns {
            let state = jail_state(k);
            if jail == JailStrategy::ShortStayFullTurn {
                table.free_throw(state, JAIL, 0, 1.0, &rests);
                continue;
            }
            for first in 1..=sides {
                for second in 1..=sides {
                    let leaves = jail == JailStrategy::ShortStay || first == second || k == 3;
                    if leaves {
                        table.settle(state, advance(JAIL, first + second), p, &rests);
                    } else {
                        table.landings[state][usize::from(JAIL)] += p;
                        table.transition[state][jail_state(k + 1)] += p;
                    }
                }
            }
        }
        if rules.count == Count::TurnEnd {
            table.count_turn_ends();
        }
        table
    }

    /// Replaces the landings per throw by one landing per turn, where the turn ends: the free
    /// square it ends on, or Jail for any jail state.
    fn count_turn_ends(&mut self) {
        for (landings, transition) in self.landings.iter_mut().zip(&self.transition) {
            *landings = [0.0; BOARD_SIZE];
            for (state, &t) in transition.iter().enumerate().take(self.states) {
                let square = if state < BOARD_SIZE {
                    state
                } else {
                    usize::from(JAIL)
                };
                landings[square] += t;
            }
        }
    }

    /// A free throw from `index` by a player who started the turn in state `start`, has thrown
    /// `doubles` doubles so far this turn, and got here with probability `p`.
    fn free_throw(&mut self, start: usize, index: u8, doubles: u8, p: f64, rests: &[Rest]) {
        let throws = f64::from(self.sides) * f64::from(self.sides);
        for first in 1..=self.sides {
            for second in 1..=self.sides {
                let q = p / throws;
                let double = first == second;
                if double && doubles == 2 {
                    self.landings[start][usize::from(JAIL)] += q;
                    self.transition[start][jail_state(1)] += q;
                    continue;
                }
                let rest = &rests[usize::from(advance(index, first + second))];
                self.landings[start][usize::from(JAIL)] += q * rest.jailed;
                self.transition[start][jail_state(1)] += q * rest.jailed;
                for (square, &r) in rest.free.iter().enumerate() {
                    if r == 0.0 {
                        continue;
                    }
                    self.landings[start][square] += q * r;
                    if double {
                        self.free_throw(start, square as u8, doubles + 1, q * r, rests);
                    } else {
                        self.transition[start][square] += q * r;
                    }
                }
            }
        }
    }

    /// A move out of jail to `index` with probability `p`: one landing, turn over.
    fn settle(&mut self, start: usize, index: u8, p: f64, rests: &[Rest]) {
        let rest = &rests[usize::from(index)];
        self.landings[start][usize::from(JAIL)] += p * rest.jailed;
        self.transition[start][jail_state(1)] += p * rest.jailed;
        for (square, &r) in rest.free.iter().enumerate() {
            self.landings[start][square] += p * r;
            self.transition[start][square] += p * r;
        }
    }

    /// Expected landings per square under a start-of-turn distribution.
    fn landings_from(&self, distribution: &[f64; STATES]) -> [f64; BOARD_SIZE] {
        let mut landings = [0.0; BOARD_SIZE];
        for (state, &weight) in distribution.iter().enumerate().take(self.states) {
            for (slot, &l) in landings.iter_mut().zip(&self.landings[state]) {
                *slot += weight * l;
            }
        }
        landings
    }
}

/// Expected landings per square (index 0 = Go) of ONE player over a game of `turns` turns
/// starting free on Go, with cards drawn with replacement, under the default [`Rules`].
pub fn expected_landings(jail: JailStrategy, turns: u32) -> [f64; BOARD_SIZE] {
    expected_landings_under(jail, &Rules::default(), turns)
}

/// [`expected_landings`] under `rules`.
pub fn expected_landings_under(jail: JailStrategy, rules: &Rules, turns: u32) -> [f64; BOARD_SIZE] {
    let table = TurnTable::new(jail, rules);
    let mut distribution = [0.0; STATES];
    distribution[usize::from(GO)] = 1.0;
    let mut expected = [0.0; BOARD_SIZE];
    for _ in 0..turns {
        for (slot, l) in expected.iter_mut().zip(table.landings_from(&distribution)) {
            *slot += l;
        }
        let mut next = [0.0; STATES];
        for (state, &weight) in distribution.iter().enumerate().take(table.states) {
            for (slot, &t) in next.iter_mut().zip(&table.transition[state]) {
                *slot += weight * t;
            }
        }
        distribution = next;
    }
    expected
}

/// The long-run share of landings on each square (index 0 = Go; sums to 1) with cards drawn
/// with replacement, under the default [`Rules`]: stationary start-of-turn distribution times
/// landings per turn.
pub fn stationary_frequencies(jail: JailStrategy) -> [f64; BOARD_SIZE] {
    stationary_frequencies_under(jail, &Rules::default())
}

/// [`stationary_frequencies`] under `rules`.
pub fn stationary_frequencies_under(jail: JailStrategy, rules: &Rules) -> [f64; BOARD_SIZE] {
    let table = TurnTable::new(jail, rules);
    let n = table.states;
    // Solve pi (I - P) = 0 with sum(pi) = 1: rows of `a` are equations, one per target state,
    // the first replaced by the normalisation.
    let mut a = vec![vec![0.0; n + 1]; n];
    for (target, row) in a.iter_mut().enumerate() {
        for (source, cell) in row.iter_mut().take(n).enumerate() {
            let identity = if source == target { 1.0 } else { 0.0 };
            *cell = identity - table.transition[source][target];
        }
    }
    a[0] = vec![1.0; n + 1];
    let pi = solve(a);
    let mut distribution = [0.0; STATES];
    distribution[..n].copy_from_slice(&pi);
    let landings = table.landings_from(&distribution);
    let total: f64 = landings.iter().sum();
    landings.map(|l| l / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_turn_ends_somewhere_with_at_least_one_landing() {
        for &jail in JailStrategy::ALL {
            let table = TurnTable::new(jail, &Rules::default());
            for state in 0..table.states {
                let out: f64 = table.transition[state].iter().sum();
                assert!((out - 1.0).abs() < 1e-12, "state {state}: {out}");
                let landings: f64 = table.landings[state].iter().sum();
                assert!((1.0..1.25).contains(&landings), "state {state}: {landings}");
            }
            for state in table.states..STATES {
                assert_eq!(table.transition[state].iter().sum::<f64>(), 0.0);
            }
        }
    }

    /// A spread of rules: every die size, both counts, both Chance decks, Go to jail in play
    /// or not.
    fn some_rules() -> Vec<Rules> {
        let mut rules = Vec::new();
        // Both bounds and the sizes between that matter most (7 to 11 add nothing new).
        for die_sides in [2, 3, 4, 5, 6, 12] {
            for &count in Count::ALL {
                for &chance in crate::game::ChanceDeck::ALL {
                    for go_to_jail in [true, false] {
                        rules.push(Rules {
                            die_sides,
                            count,
                            chance,
                            go_to_jail,
                        });
                    }
                }
            }
        }
        rules
    }

    #[test]
    fn every_rule_keeps_the_chain_a_chain_and_lands_on_go_to_jail_only_without_it() {
        for &jail in JailStrategy::ALL {
            for rules in some_rules() {
                let table = TurnTable::new(jail, &rules);
                // A turn of free throws: one, another after each of up to two doubles.
                let doubles = 1.0 / f64::from(rules.die_sides);
                let most = 1.0 + doubles + doubles * doubles;
                for state in 0..table.states {
                    let out: f64 = table.transition[state].iter().sum();
                    assert!((out - 1.0).abs() < 1e-12, "{rules:?} state {state}: {out}");
                    let landings: f64 = table.landings[state].iter().sum();
                    if rules.count == Count::TurnEnd {
                        assert!((landings - 1.0).abs() < 1e-12, "{rules:?}: {landings}");
                    } else {
                        assert!(landings > 1.0 - 1e-12 && landings < most + 1e-12);
                    }
                    if rules.go_to_jail {
                        assert_eq!(table.landings[state][30], 0.0, "{rules:?}");
                    }
                }
                let long_run = stationary_frequencies_under(jail, &rules);
                assert_eq!(long_run[30] > 0.0, !rules.go_to_jail, "{rules:?}");
                assert!((long_run.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                assert!(long_run.iter().all(|&f| f >= 0.0));
            }
        }
    }

    #[test]
    fn the_default_rules_are_todays_chain() {
        for &jail in JailStrategy::ALL {
            let rules = Rules::default();
            assert_eq!(
                expected_landings(jail, 40),
                expected_landings_under(jail, &rules, 40)
            );
        }
    }

    #[test]
    fn counting_turn_ends_counts_one_landing_per_turn() {
        let rules = Rules {
            count: Count::TurnEnd,
            ..Rules::default()
        };
        for &jail in JailStrategy::ALL {
            let game = expected_landings_under(jail, &rules, 150);
            assert!((game.iter().sum::<f64>() - 150.0).abs() < 1e-9);
            // The first turn from Go ends on Oriental (index 6) by a throw of 6 without doubles
            // (4/36), or by doubles and a later throw: more than 4/36, less than the throw-count
            // bound of the default count.
            let first = expected_landings_under(jail, &rules, 1);
            let every = expected_landings(jail, 1);
            assert!(first[6] > 4.0 / 36.0 && first[6] < every[6], "{}", first[6]);
        }
    }

    #[test]
    fn project_euler_84_four_sided_dice_put_jail_r2_and_e3_on_top() {
        let rules = Rules {
            die_sides: 4,
            chance: crate::game::ChanceDeck::SixteenCards,
            ..Rules::default()
        };
        let long_run = stationary_frequencies_under(JailStrategy::ShortStayFullTurn, &rules);
        let mut order: Vec<usize> = (0..BOARD_SIZE).collect();
        order.sort_by(|&a, &b| long_run[b].total_cmp(&long_run[a]));
        assert_eq!(order[..3], [10, 15, 24]);
    }

    #[test]
    fn expected_landings_sum_to_the_expected_throws() {
        for &jail in JailStrategy::ALL {
            let one = expected_landings(jail, 1);
            let total: f64 = one.iter().sum();
            // From Go: one throw, a second with doubles (1/6) unless that move jailed (only a
            // Community Chest Go to Jail card on square 3, 1/36 * 1/16), a third after two
            // doubles (1/36) unless jailed: bounded by 1 + 1/6 + 1/36.
            let upper = 1.0 + 1.0 / 6.0 + 1.0 / 36.0;
            let lower = 1.0 + 1.0 / 6.0 - 1.0 / 36.0 / 16.0;
            assert!(total > lower && total < upper, "{total}");
            let game: f64 = expected_landings(jail, 150).iter().sum();
            assert!(game > 150.0 && game < 150.0 * upper, "{game}");
        }
    }

    #[test]
    fn the_first_throw_from_go_is_counted_exactly() {
        // Square 7 (Oriental, index 6) in turn 1: a first throw of 6 (5/36), or a double 1+1
        // to Community Chest 3 that stays (1/36 * 14/16) or goes to Go (1/36 * 1/16) then
        // 4 (3/36) or 6 (5/36) more; or double 2+2 to 5 then 2 (1/36); or 3+3 to Chance 8,
        // staying is 8 not 7; Go Back 3 from 8 is 5, then... only the paths above reach 7
        // with a second throw: from 3 throw 4 (3/36), from 1 throw 6 (5/36), from 5 throw 2
        // (1/36); third throws after two doubles are enumerated by the chain as well, so
        // check only that the chain's value lies between first-and-second-throw bounds.
        let two_throw = 5.0 / 36.0
            + (1.0 / 36.0) * (14.0 / 16.0) * (3.0 / 36.0)
            + (1.0 / 36.0) * (1.0 / 16.0) * (5.0 / 36.0)
            + (1.0 / 36.0) * (1.0 / 36.0);
        let third_throw_cap = 1.0 / 36.0 / 36.0;
        for &jail in JailStrategy::ALL {
            let oriental = expected_landings(jail, 1)[6];
            assert!(oriental >= two_throw - 1e-15, "{oriental} < {two_throw}");
            assert!(oriental <= two_throw + third_throw_cap, "{oriental}");
        }
    }

    #[test]
    fn go_to_jail_is_never_landed_and_jail_leads() {
        for &jail in JailStrategy::ALL {
            let long_run = stationary_frequencies(jail);
            let game = expected_landings(jail, 150);
            assert_eq!(long_run[30], 0.0);
            assert_eq!(game[30], 0.0);
            assert!((long_run.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let top = (0..BOARD_SIZE)
                .max_by(|&i, &j| long_run[i].total_cmp(&long_run[j]))
                .unwrap_or(0);
            if jail == JailStrategy::LongStay {
                assert_eq!(top, usize::from(JAIL));
            }
            assert!(long_run.iter().all(|&f| f >= 0.0));
        }
    }

    #[test]
    fn long_games_approach_the_stationary_shares() {
        for &jail in JailStrategy::ALL {
            let long_run = stationary_frequencies(jail);
            let game = expected_landings(jail, 20_000);
            let total: f64 = game.iter().sum();
            for (square, (&g, &s)) in game.iter().zip(&long_run).enumerate() {
                assert!(
                    (g / total - s).abs() < 1e-4,
                    "square {}: {g} {s}",
                    square + 1
                );
            }
        }
    }
}
