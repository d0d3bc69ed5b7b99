//! How the player decides between hitting and staying: the built-in strategies, and the
//! solved table the optimal one reads (received as a value: the solver in `exact` provides it).

use std::fmt;
use std::sync::Arc;

use super::hand::{keep_probability_in, Hand, TARGET};
use super::rules::Rules;

/// Why a strategy could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StrategyError {
    /// The name is not one of [`Strategy::NAMES`].
    #[error(
        "unknown Twenty-One strategy {0:?}: expected one of {names}",
        names = Strategy::NAMES.join(", ")
    )]
    UnknownName(String),
    /// The strategy needs a parameter and none was given.
    #[error("the {0} strategy needs a parameter")]
    MissingParameter(&'static str),
    /// The strategy takes no parameter and one was given.
    #[error("the {0} strategy takes no parameter")]
    UnexpectedParameter(&'static str),
    /// `stand_at` needs a whole number from 2 to 21.
    #[error(
        "stand_at needs a whole number from {min} to {TARGET}, got {0}",
        min = Strategy::STAND_AT_MIN
    )]
    StandAtOutOfRange(f64),
    /// `probability` needs a number from 0 to 1.
    #[error("probability needs a number from 0 to 1, got {0}")]
    ProbabilityOutOfRange(f64),
}

/// A hit/stay decision for every hand the player can hold: the optimal strategy's table,
/// solved in `exact`.
pub trait HitPolicy: Send + Sync + fmt::Debug {
    /// Whether the player holding `hand` hits.
    fn should_hit(&self, hand: &Hand) -> bool;
}

/// How the player decides between hitting and staying. Every strategy decides from the
/// player's own hand only (the only cards he sees).
#[derive(Clone, Debug, strum::EnumDiscriminants)]
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
    strum(serialize_all = "snake_case")
)]
pub enum Strategy {
    /// `stand_at` N: hit while the total is below N.
    StandAt(u16),
    /// `probability` p: hit while the chance that the next card keeps the hand at or under 21
    /// (counted over the cards of the shoe the player has not seen) is at least p.
    Probability(f64),
    /// `optimal`: the decision that maximises the chance of winning, from a table precomputed
    /// over hand compositions by exact recursion over the deck.
    Optimal(Arc<dyn HitPolicy>),
}

impl Strategy {
    /// The strategy names, as used by [`Strategy::from_name`] and [`Strategy::name`] (from
    /// [`StrategyName`]'s derives, in declaration order).
    pub const NAMES: &'static [&'static str] = <StrategyName as strum::VariantNames>::VARIANTS;

    /// The smallest threshold `stand_at` accepts (the largest is 21).
    pub const STAND_AT_MIN: u16 = 2;

    /// `stand_at` n: hit while the total is below `n`, which must be in 2..=21.
    pub fn stand_at(n: u16) -> Result<Strategy, StrategyError> {
        if (Self::STAND_AT_MIN..=TARGET).contains(&n) {
            Ok(Strategy::StandAt(n))
        } else {
            Err(StrategyError::StandAtOutOfRange(f64::from(n)))
        }
    }

    /// `probability` p: hit while the keep probability is at least `p`, which must be in [0, 1].
    pub fn probability(p: f64) -> Result<Strategy, StrategyError> {
        if (0.0..=1.0).contains(&p) {
            Ok(Strategy::Probability(p))
        } else {
            Err(StrategyError::ProbabilityOutOfRange(p))
        }
    }

    /// The strategy called `name` (one of [`Strategy::NAMES`]) with its parameter, if any
    /// (`stand_at` and `probability` need one, `optimal` takes none and plays by `policy`).
    pub fn from_name<P: HitPolicy + 'static>(
        name: &str,
        parameter: Option<f64>,
        policy: &Arc<P>,
    ) -> Result<Strategy, StrategyError> {
        let kind: StrategyName = name
            .parse()
            .map_err(|_| StrategyError::UnknownName(name.to_string()))?;
        match (kind, parameter) {
            (StrategyName::StandAt, Some(n)) => {
                if n.fract() == 0.0 && (0.0..=f64::from(TARGET)).contains(&n) {
                    Strategy::stand_at(n as u16)
                } else {
                    Err(StrategyError::StandAtOutOfRange(n))
                }
            }
            (StrategyName::Probability, Some(p)) => Strategy::probability(p),
            (StrategyName::Optimal, None) => {
                Ok(Strategy::Optimal(Arc::clone(policy) as Arc<dyn HitPolicy>))
            }
            (StrategyName::Optimal, Some(_)) => {
                Err(StrategyError::UnexpectedParameter(kind.into()))
            }
            (StrategyName::StandAt | StrategyName::Probability, None) => {
                Err(StrategyError::MissingParameter(kind.into()))
            }
        }
    }

    /// The strategy's name: `stand_at`, `probability` or `optimal`.
    pub fn name(&self) -> &'static str {
        StrategyName::from(self).into()
    }

    /// Whether the player holding `hand` takes another card at a table with `rules` (whose
    /// shoe is what `probability` counts the unseen cards of).
    #[inline]
    pub fn should_hit(&self, hand: &Hand, rules: &Rules) -> bool {
        match self {
            Strategy::StandAt(n) => hand.total() < *n,
            Strategy::Probability(p) => keep_probability_in(hand, &rules.unseen(hand)) >= *p,
            Strategy::Optimal(policy) => policy.should_hit(hand),
        }
    }
}

impl fmt::Display for Strategy {
    /// Formats as e.g. `stand_at 17`, `probability 0.5` or `optimal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::StandAt(n) => write!(f, "{} {n}", self.name()),
            Strategy::Probability(p) => write!(f, "{} {p}", self.name()),
            Strategy::Optimal(_) => f.write_str(self.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn strategy_names_are_the_documented_ones_in_specs_and_parsing() {
        use experiment_engine::games::choice_names::derived_names;
        assert_eq!(
            derived_names(|&s: &StrategyName| s.into()),
            ["stand_at", "probability", "optimal"]
        );
    }

    use super::*;
    use crate::game::hand::Hand;
    use crate::game::testing::cards;

    /// Whether `strategy` hits holding the cards of `ranks`, at one deck.
    fn hits(strategy: &Strategy, ranks: &[u8]) -> bool {
        strategy.should_hit(&Hand::from_cards(&cards(ranks)), &Rules::default())
    }

    #[test]
    fn probability_counts_over_the_unseen_cards_of_the_whole_shoe() {
        // A hard 16 keeps with aces to fives: 20 of the 50 unseen cards at one deck (0.4), 40 of
        // 102 at two (0.392…), so p = 0.395 hits at one deck and stays at two.
        let strategy = Strategy::probability(0.395).expect("valid");
        let two = Rules {
            decks: 2,
            ..Rules::default()
        };
        let sixteen = Hand::from_cards(&cards(&[10, 6]));
        assert!(strategy.should_hit(&sixteen, &Rules::default()));
        assert!(!strategy.should_hit(&sixteen, &two));
        // Two sevens keep a hard 14 with aces to sevens: 6 × 8 + the 6 sevens left, of 102.
        let sevens = Hand::from_cards(&cards(&[7, 7]));
        let keep = keep_probability_in(&sevens, &two.unseen(&sevens));
        assert_eq!(keep, 54.0 / 102.0);
    }

    #[test]
    fn probability_strategy_hits_only_while_the_keep_chance_is_high_enough() {
        let strategy = Strategy::probability(0.5).expect("valid");
        // Hard 12 keeps with 35/50 = 0.7 >= 0.5: hit. Hard 16 keeps with 0.4: stay.
        assert!(hits(&strategy, &[10, 2]));
        assert!(!hits(&strategy, &[10, 6]));
        // A soft hand can never bust on the next card.
        assert!(hits(&strategy, &[1, 7]));
    }

    /// A policy that hits below a fixed total.
    #[derive(Debug)]
    struct HitBelow(u16);

    impl HitPolicy for HitBelow {
        fn should_hit(&self, hand: &Hand) -> bool {
            hand.total() < self.0
        }
    }

    #[test]
    fn optimal_strategy_plays_by_the_policy_it_was_given() {
        let policy = Arc::new(HitBelow(14));
        let strategy = Strategy::from_name("optimal", None, &policy).expect("valid");
        assert_eq!(strategy.name(), "optimal");
        assert_eq!(strategy.to_string(), "optimal");
        assert!(hits(&strategy, &[10, 3]));
        assert!(!hits(&strategy, &[10, 4]));
    }

    #[test]
    fn strategy_parameters_are_validated_with_clear_errors() {
        let policy = Arc::new(HitBelow(17));
        assert!(matches!(Strategy::stand_at(17), Ok(Strategy::StandAt(17))));
        assert_eq!(
            Strategy::stand_at(22).err(),
            Some(StrategyError::StandAtOutOfRange(22.0))
        );
        assert_eq!(
            Strategy::stand_at(1).err(),
            Some(StrategyError::StandAtOutOfRange(1.0))
        );
        assert_eq!(
            Strategy::probability(1.5).err(),
            Some(StrategyError::ProbabilityOutOfRange(1.5))
        );
        assert!(Strategy::probability(f64::NAN).is_err());
        assert!(matches!(
            Strategy::from_name("stand_at", Some(16.5), &policy),
            Err(StrategyError::StandAtOutOfRange(_))
        ));
        assert!(matches!(
            Strategy::from_name("probability", Some(0.3), &policy),
            Ok(Strategy::Probability(_))
        ));
        assert_eq!(
            Strategy::from_name("stand_at", None, &policy).err(),
            Some(StrategyError::MissingParameter("stand_at"))
        );
        assert_eq!(
            Strategy::from_name("optimal", Some(1.0), &policy).err(),
            Some(StrategyError::UnexpectedParameter("optimal"))
        );
        let unknown = Strategy::from_name("martingale", None, &policy).err();
        assert_eq!(
            unknown.map(|e| e.to_string()),
            Some(
                "unknown Twenty-One strategy \"martingale\": expected one of stand_at, \
                 probability, optimal"
                    .to_string()
            )
        );
        assert_eq!(
            Strategy::stand_at(0).map_err(|e| e.to_string()).err(),
            Some("stand_at needs a whole number from 2 to 21, got 0".to_string())
        );
        assert_eq!(Strategy::StandAt(17).to_string(), "stand_at 17");
        assert_eq!(Strategy::StandAt(17).name(), "stand_at");
    }
}
