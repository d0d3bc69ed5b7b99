//! The built-in betting strategies, the exact tables they decide by (received as values: the
//! solver in `exact` provides them), and a match between two of them as an experiment variant.

use std::fmt;
use std::sync::Arc;

use super::board::Board;
use super::cube::{cube_levels, run_game, CubeError, CubeOutcome, CubeView, Player};
use super::race::PlayerDice;
use super::summary::CubeSummary;
use super::thresholds::{StrategyError, TakeAt, Thresholds};
use experiment_engine::games::{Game, Paired};
use experiment_engine::rng::{CommonStreams, OneStream, Streams, TrialRng};

/// A built-in betting strategy.
#[derive(Clone, Copy, Debug, PartialEq, strum::EnumDiscriminants)]
#[strum_discriminants(
    name(StrategyName),
    vis(pub),
    doc = "A strategy's name, without its parameters.",
    derive(
        Hash,
        serde::Serialize,
        serde::Deserialize,
        strum::EnumString,
        strum::IntoStaticStr,
        strum::VariantNames
    ),
    serde(rename_all = "snake_case"),
    strum(serialize_all = "snake_case", ascii_case_insensitive)
)]
pub enum Strategy {
    /// Never doubles, always takes.
    Never,
    /// Doubles whenever allowed, always takes.
    Always,
    /// Never doubles, drops every double.
    Cautious,
    /// Doubles / takes by the exact cubeless win probability.
    Threshold(Thresholds),
    /// Maximises expected winnings against an optimal opponent (cubeful value iteration).
    Optimal,
    /// Never doubles; takes a double while the exact cubeless win probability is at least its
    /// threshold (the taking half of `threshold`).
    TakeOnly(TakeAt),
}

impl Strategy {
    /// The names `from_name` accepts (from [`StrategyName`]'s derives, in declaration order).
    pub const NAMES: &'static [&'static str] = <StrategyName as strum::VariantNames>::VARIANTS;

    /// The six strategies, `threshold` and `take_only` with default parameters, in the order of
    /// [`Self::NAMES`].
    pub const ALL: [Strategy; 6] = [
        Strategy::Never,
        Strategy::Always,
        Strategy::Cautious,
        Strategy::Threshold(Thresholds::DEFAULT),
        Strategy::Optimal,
        Strategy::TakeOnly(TakeAt::DEFAULT),
    ];

    /// The strategy with this name (ASCII case-insensitive; `threshold` and `take_only` get
    /// default parameters).
    pub fn from_name(name: &str) -> Result<Strategy, StrategyError> {
        let unknown = || StrategyError::UnknownName {
            name: name.to_string(),
        };
        let wanted: StrategyName = name.trim().parse().map_err(|_| unknown())?;
        Self::ALL
            .into_iter()
            .find(|strategy| StrategyName::from(strategy) == wanted)
            .ok_or_else(unknown)
    }

    /// The `threshold` strategy with validated parameters.
    pub fn threshold(double_at: f64, take_at: f64) -> Result<Strategy, StrategyError> {
        Thresholds::new(double_at, take_at).map(Strategy::Threshold)
    }

    /// The `take_only` strategy with a validated threshold.
    pub fn take_only(take_at: f64) -> Result<Strategy, StrategyError> {
        TakeAt::new(take_at).map(Strategy::TakeOnly)
    }

    /// This strategy with the thresholds it reads set to `double_at` and `take_at` (`threshold`
    /// reads both, `take_only` only `take_at`; every other strategy is returned unchanged).
    pub fn with_thresholds(self, double_at: f64, take_at: f64) -> Result<Strategy, StrategyError> {
        match self {
            Strategy::Threshold(_) => Strategy::threshold(double_at, take_at),
            Strategy::TakeOnly(_) => Strategy::take_only(take_at),
            other => Ok(other),
        }
    }

    /// The strategy's name (one of [`Self::NAMES`]).
    pub fn name(&self) -> &'static str {
        StrategyName::from(self).into()
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Threshold(t) => {
                write!(f, "{}({}, {})", self.name(), t.double_at(), t.take_at())
            }
            Strategy::TakeOnly(t) => write!(f, "{}({})", self.name(), t.take_at()),
            other => f.write_str(other.name()),
        }
    }
}

/// Cubeless win probabilities, which the `threshold` strategy decides by.
pub trait WinOdds: Send + Sync + fmt::Debug {
    /// P(the player to move wins) with the mover on `mover` and the other player on `other`
    /// (squares 0..=99).
    fn mover_wins(&self, mover: u8, other: u8) -> f64;
}

/// Cube decisions from a solved table, which the `optimal` strategy follows.
pub trait CubePolicy: Send + Sync + fmt::Debug {
    /// Whether the mover on `my_square` doubles (asked only when doubling is legal).
    fn should_double(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool;
    /// Whether the player on `my_square` takes a double; `cube` is the pre-double cube from
    /// his view.
    fn should_take(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool;
}

/// A built-in strategy bound to the tables it needs (the solver in `exact` binds them:
/// `ChutesSolver::player`).
#[derive(Clone, Debug)]
pub struct StrategyPlayer {
    strategy: Strategy,
    win: Arc<dyn WinOdds>,
    cube: Option<Arc<dyn CubePolicy>>,
}

impl StrategyPlayer {
    /// Binds `strategy` to the cubeless odds and, for `optimal`, to the cubeful policy (which
    /// must be given for `optimal`; without it `optimal` plays as `threshold` with defaults).
    pub fn new<W, C>(strategy: Strategy, win: Arc<W>, cube: Option<Arc<C>>) -> Self
    where
        W: WinOdds + 'static,
        C: CubePolicy + 'static,
    {
        StrategyPlayer {
            strategy,
            win,
            cube: cube.map(|policy| policy as Arc<dyn CubePolicy>),
        }
    }

    /// The strategy played.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    fn thresholds(&self) -> Thresholds {
        match self.strategy {
            Strategy::Threshold(t) => t,
            _ => Thresholds::default(),
        }
    }
}

impl Player for StrategyPlayer {
    #[inline]
    fn should_double(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
        match (self.strategy, &self.cube) {
            (Strategy::Never | Strategy::Cautious | Strategy::TakeOnly(_), _) => false,
            (Strategy::Always, _) => true,
            (Strategy::Optimal, Some(policy)) => {
                policy.should_double(my_square, their_square, cube)
            }
            (Strategy::Threshold(_) | Strategy::Optimal, _) => {
                // The mover's own odds: he moves next.
                self.win.mover_wins(my_square, their_square) >= self.thresholds().double_at()
            }
        }
    }

    #[inline]
    fn should_take(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
        match (self.strategy, &self.cube) {
            (Strategy::Never | Strategy::Always, _) => true,
            (Strategy::Cautious, _) => false,
            (Strategy::Optimal, Some(policy)) => policy.should_take(my_square, their_square, cube),
            (Strategy::TakeOnly(t), _) => {
                1.0 - self.win.mover_wins(their_square, my_square) >= t.take_at()
            }
            (Strategy::Threshold(_) | Strategy::Optimal, _) => {
                // The taker's odds: the doubler moves next.
                1.0 - self.win.mover_wins(their_square, my_square) >= self.thresholds().take_at()
            }
        }
    }
}

/// A cube game between two built-in strategies as an experiment variant: `first` is player 1
/// and moves first.
#[derive(Clone, Debug)]
pub struct CubeMatch {
    board: Board,
    max_cube: u32,
    first: StrategyPlayer,
    second: StrategyPlayer,
}

impl CubeMatch {
    /// The match of `first` (player 1) against `second` on `board` with cube cap `max_cube`,
    /// which must be a power of two.
    pub fn new(
        board: Board,
        max_cube: u32,
        first: StrategyPlayer,
        second: StrategyPlayer,
    ) -> Result<CubeMatch, CubeError> {
        cube_levels(max_cube)?;
        Ok(CubeMatch {
            board,
            max_cube,
            first,
            second,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The cube cap.
    pub fn max_cube(&self) -> u32 {
        self.max_cube
    }

    /// Player 1's strategy.
    pub fn first(&self) -> Strategy {
        self.first.strategy()
    }

    /// Player 2's strategy.
    pub fn second(&self) -> Strategy {
        self.second.strategy()
    }
}

impl Game for CubeMatch {
    type Outcome = CubeOutcome;
    type Summary = CubeSummary;

    fn play(&self, rng: &mut TrialRng) -> CubeOutcome {
        self.play_with(&mut OneStream(rng))
    }

    fn play_common(&self, streams: &mut CommonStreams) -> CubeOutcome {
        self.play_with(streams)
    }

    /// Per game: the points player 1 won (player 2 won their negation), whether player 1
    /// won, whether a drop ended it, whether the cube reached its cap, the stake paid and the
    /// moves made.
    const PAIRED: &'static [Paired] = &[
        Paired {
            metric: "mean_payoff",
            scale: 1,
        },
        Paired {
            metric: "p1_win_rate",
            scale: 1,
        },
        Paired {
            metric: "drop_rate",
            scale: 1,
        },
        Paired {
            metric: "cap_reached_rate",
            scale: 1,
        },
        Paired {
            metric: "mean_final_stake",
            scale: 1,
        },
        Paired {
            metric: "mean_turns",
            scale: 1,
        },
    ];

    fn paired_values(&self, outcome: &CubeOutcome, values: &mut [i64]) {
        values.copy_from_slice(&[
            outcome.payoff,
            i64::from(outcome.p1_won),
            i64::from(outcome.dropped),
            i64::from(outcome.cap_reached),
            i64::from(outcome.final_stake),
            i64::from(outcome.turns),
        ]);
    }
}

impl CubeMatch {
    /// One game, each player rolling from his own purpose's stream
    /// ([`super::rules::PLAYER_DICE`]).
    fn play_with(&self, streams: &mut impl Streams) -> CubeOutcome {
        run_game(
            &self.first,
            &self.second,
            &self.board,
            self.max_cube,
            &mut PlayerDice(streams),
        )
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn strategy_names_are_the_documented_ones_in_specs_and_parsing() {
        use experiment_engine::games::choice_names::derived_names;
        assert_eq!(
            derived_names(|&s: &StrategyName| s.into()),
            [
                "never",
                "always",
                "cautious",
                "threshold",
                "optimal",
                "take_only"
            ]
        );
    }

    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest};
    use proptest::strategy::Strategy as PropStrategy;

    use super::super::cube::CubeOwner;
    use super::super::testing::{ByDistance, DoubleEarly, ScriptedDice};
    use super::*;
    use experiment_engine::rng::trial_rng;

    fn player(strategy: Strategy) -> StrategyPlayer {
        StrategyPlayer::new(strategy, Arc::new(ByDistance), Some(Arc::new(DoubleEarly)))
    }

    fn cube_match(first: Strategy, second: Strategy, max_cube: u32) -> CubeMatch {
        CubeMatch::new(
            Board::milton_bradley(),
            max_cube,
            player(first),
            player(second),
        )
        .expect("a power of two")
    }

    fn centre() -> CubeView {
        CubeView {
            stake: 1,
            owner: CubeOwner::Centre,
        }
    }

    #[test]
    fn a_cautious_player_drops_the_first_double() {
        let outcome = run_game(
            &player(Strategy::Always),
            &player(Strategy::Cautious),
            &Board::milton_bradley(),
            1024,
            &mut ScriptedDice::new(&[]),
        );
        assert_eq!(
            (outcome.payoff, outcome.turns, outcome.dropped),
            (1, 0, true)
        );
    }

    #[test]
    fn always_against_always_reaches_the_cap_every_game() {
        // The fastest finish takes 7 rolls, so ten doubles always come before any finish.
        let game = cube_match(Strategy::Always, Strategy::Always, 1024);
        for i in 0..2000 {
            let outcome = game.play(&mut trial_rng(11, 0, i));
            assert!(outcome.cap_reached && !outcome.dropped);
            assert_eq!(outcome.final_stake, 1024);
            assert_eq!(outcome.doubles, 10);
            assert_eq!(outcome.payoff.abs(), 1024);
        }
    }

    fn any_strategy() -> impl PropStrategy<Value = Strategy> {
        (0..6usize, 0.0..=1.0f64, 0.0..=1.0f64).prop_map(|(i, d, t)| match i {
            3 => Strategy::threshold(d, t).expect("in range"),
            5 => Strategy::take_only(t).expect("in range"),
            _ => Strategy::ALL[i],
        })
    }

    proptest! {
        #[test]
        fn stakes_are_powers_of_two_within_the_cap(
            first in any_strategy(),
            second in any_strategy(),
            cap_index in 0..4usize,
            seed in any::<u64>(),
        ) {
            let max_cube = [1, 2, 8, 1024][cap_index];
            let game = cube_match(first, second, max_cube);
            let outcome = game.play(&mut trial_rng(seed, 0, 0));
            prop_assert!(outcome.final_stake.is_power_of_two());
            prop_assert!(outcome.final_stake <= max_cube);
            prop_assert_eq!(outcome.payoff.unsigned_abs(), u64::from(outcome.final_stake));
            prop_assert_eq!(outcome.p1_won, outcome.payoff > 0);
            let accepted = outcome.doubles - u32::from(outcome.dropped);
            prop_assert_eq!(outcome.final_stake, 1u32 << accepted);
            prop_assert_eq!(outcome.cap_reached, max_cube > 1 && outcome.final_stake == max_cube);
        }
    }

    #[test]
    fn unknown_names_and_bad_thresholds_give_clear_errors() {
        let error = Strategy::from_name("martingale").expect_err("unknown");
        let message = error.to_string();
        assert!(message.contains("martingale"), "{message}");
        for &name in Strategy::NAMES {
            assert!(message.contains(name), "{message}");
            assert_eq!(Strategy::from_name(name).map(|s| s.name()), Ok(name));
        }
        let all: Vec<&str> = Strategy::ALL.iter().map(Strategy::name).collect();
        assert_eq!(all, Strategy::NAMES, "ALL follows the names' order");
        assert_eq!(Strategy::from_name(" Optimal "), Ok(Strategy::Optimal));
        assert_eq!(
            Strategy::from_name("threshold"),
            Strategy::threshold(0.70, 0.25)
        );
        let error = Strategy::threshold(1.5, 0.25).expect_err("double_at too big");
        assert!(error.to_string().contains("double_at = 1.5"), "{error}");
        let error = Strategy::threshold(0.7, -0.1).expect_err("take_at negative");
        assert!(error.to_string().contains("take_at = -0.1"), "{error}");
        assert!(Strategy::threshold(f64::NAN, 0.25).is_err());
        assert!(Strategy::threshold(0.0, 1.0).is_ok());
    }

    #[test]
    fn an_invalid_cap_is_rejected() {
        let error = CubeMatch::new(
            Board::milton_bradley(),
            1000,
            player(Strategy::Never),
            player(Strategy::Never),
        )
        .expect_err("1000 is not a power of two");
        assert_eq!(error, CubeError::MaxCubeNotPowerOfTwo { max_cube: 1000 });
        let game = cube_match(Strategy::Optimal, Strategy::Never, 8);
        assert_eq!(
            (game.first(), game.second()),
            (Strategy::Optimal, Strategy::Never)
        );
        assert_eq!(game.max_cube(), 8);
        assert_eq!(game.board(), &Board::milton_bradley());
    }

    #[test]
    fn threshold_player_decides_by_the_win_odds_it_was_given() {
        let odds = ByDistance;
        let player = player(Strategy::threshold(0.6, 0.3).expect("valid"));
        for (my, their) in [(0, 0), (99, 0), (0, 99), (50, 60), (70, 40), (90, 91)] {
            let p_mover = odds.mover_wins(my, their);
            assert_eq!(player.should_double(my, their, centre()), p_mover >= 0.6);
            let p_taker = 1.0 - odds.mover_wins(their, my);
            assert_eq!(player.should_take(my, their, centre()), p_taker >= 0.3);
        }
        assert!(player.should_double(99, 0, centre()));
        assert!(!player.should_take(0, 99, centre()));
    }

    /// A player that counts the doubles it offers.
    struct Watched {
        player: StrategyPlayer,
        doubles: std::cell::Cell<u32>,
    }

    impl Player for Watched {
        fn should_double(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
            let doubles = self.player.should_double(my_square, their_square, cube);
            self.doubles.set(self.doubles.get() + u32::from(doubles));
            doubles
        }

        fn should_take(&self, my_square: u8, their_square: u8, cube: CubeView) -> bool {
            self.player.should_take(my_square, their_square, cube)
        }
    }

    proptest! {
        #[test]
        fn take_only_never_doubles_in_either_seat(
            take_at in 0.0..=1.0f64,
            opponent in any_strategy(),
            first in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let watched = Watched {
                player: player(Strategy::take_only(take_at).expect("in range")),
                doubles: std::cell::Cell::new(0),
            };
            let other = player(opponent);
            let board = Board::milton_bradley();
            let mut rng = trial_rng(seed, 0, 0);
            let outcome = if first {
                run_game(&watched, &other, &board, 1024, &mut rng)
            } else {
                run_game(&other, &watched, &board, 1024, &mut rng)
            };
            prop_assert_eq!(watched.doubles.get(), 0);
            if matches!(opponent, Strategy::Never | Strategy::Cautious | Strategy::TakeOnly(_)) {
                prop_assert_eq!((outcome.doubles, outcome.final_stake), (0, 1));
            }
        }
    }

    #[test]
    fn take_only_player_takes_by_its_threshold_as_threshold_does() {
        let odds = ByDistance;
        let take_only = player(Strategy::take_only(0.3).expect("valid"));
        let threshold = player(Strategy::threshold(0.6, 0.3).expect("valid"));
        for (my, their) in [(0, 0), (99, 0), (0, 99), (50, 60), (70, 40), (90, 91)] {
            assert!(!take_only.should_double(my, their, centre()));
            let p_taker = 1.0 - odds.mover_wins(their, my);
            assert_eq!(take_only.should_take(my, their, centre()), p_taker >= 0.3);
            assert_eq!(
                take_only.should_take(my, their, centre()),
                threshold.should_take(my, their, centre())
            );
        }
        assert_eq!(
            Strategy::from_name("take_only"),
            Strategy::take_only(Thresholds::DEFAULT_TAKE_AT)
        );
        assert_eq!(
            Strategy::take_only(0.3).expect("valid").to_string(),
            "take_only(0.3)"
        );
        assert!(Strategy::take_only(1.5).is_err());
        assert_eq!(
            Strategy::Optimal.with_thresholds(0.1, 0.2),
            Ok(Strategy::Optimal)
        );
        assert_eq!(
            Strategy::from_name("take_only").and_then(|s| s.with_thresholds(0.9, 0.4)),
            Strategy::take_only(0.4)
        );
    }

    #[test]
    fn optimal_player_follows_its_cube_policy_and_without_one_plays_threshold() {
        let optimal = player(Strategy::Optimal);
        let at_four = CubeView {
            stake: 4,
            owner: CubeOwner::Them,
        };
        // DoubleEarly doubles from anywhere and takes below a stake of 4.
        assert!(optimal.should_double(0, 99, centre()));
        assert!(optimal.should_take(99, 0, centre()));
        assert!(!optimal.should_take(99, 0, at_four));
        let cubeless = StrategyPlayer::new(
            Strategy::Optimal,
            Arc::new(ByDistance),
            None::<Arc<DoubleEarly>>,
        );
        let default = player(Strategy::threshold(0.70, 0.25).expect("valid"));
        for (my, their) in [(0, 99), (99, 0), (50, 50), (80, 20)] {
            assert_eq!(
                cubeless.should_double(my, their, centre()),
                default.should_double(my, their, centre())
            );
            assert_eq!(
                cubeless.should_take(my, their, centre()),
                default.should_take(my, their, centre())
            );
        }
        assert_eq!(cubeless.strategy(), Strategy::Optimal);
    }
}
