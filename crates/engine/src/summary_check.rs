//! Checks of summaries read back from files (checkpoints and shards, see `ledger`): each
//! game's [`Summary::check`](crate::summary::Summary::check) is made of these, so that a
//! damaged or edited file is refused, naming the field, instead of being merged into wrong
//! tables or wrapping around.
//!
//! Every check is a bound that adds up: a summary of `n` trials may hold at most what `n`
//! trials can produce, and each field is wide enough for [`MAX_TRIALS`] trials of the largest
//! values a trial can record. Summaries that pass, of at most [`MAX_TRIALS`] trials in all,
//! therefore merge without any count or sum wrapping.

use crate::summary::{Histogram, IntegerMoments};

/// The most trials the summaries of one stream may hold in all, and so the most trials per
/// variant a spec may ask for (`spec::MAX_TRIALS` is this limit).
pub const MAX_TRIALS: u64 = 1_000_000_000_000;

/// What a check gives: nothing, or what is wrong, naming the field.
pub type Checked = Result<(), String>;

/// `value` of field `name` must be `expected`, which `what` names: e.g. `games 90000 but its
/// trial range holds 10000`.
pub fn equal(name: &str, value: u128, expected: u128, what: &str) -> Checked {
    if value == expected {
        Ok(())
    } else {
        Err(format!("{name} {value} but {what} {expected}"))
    }
}

/// A summary's `games` must be the `trials` of its trial range, the first check of every
/// game's [`Summary::check`](crate::summary::Summary::check).
pub fn games_match(games: u64, trials: u64) -> Checked {
    equal(
        "games",
        games.into(),
        trials.into(),
        "its trial range holds",
    )
}

/// `value` of field `name` may be at most `bound`, which `what` names: e.g. `p1_wins 12 is
/// more than games 10`.
pub fn at_most(name: &str, value: u128, bound: u128, what: &str) -> Checked {
    if value <= bound {
        Ok(())
    } else {
        Err(format!("{name} {value} is more than {what} {bound}"))
    }
}

/// The sum of `values`, the fields `name` names, refused when it does not fit in 64 bits.
pub fn total(name: &str, values: impl IntoIterator<Item = u64>) -> Result<u64, String> {
    values
        .into_iter()
        .try_fold(0u64, u64::checked_add)
        .ok_or_else(|| format!("{name} add up to more than 2^64 - 1"))
}

/// The sum of 128-bit `values`, the fields `name` names, refused when it does not fit.
pub fn wide_total(name: &str, values: impl IntoIterator<Item = u128>) -> Result<u128, String> {
    values
        .into_iter()
        .try_fold(0u128, u128::checked_add)
        .ok_or_else(|| format!("{name} add up to more than 2^128 - 1"))
}

/// A histogram (`name`) of `expected` observations, which `what` names, of values below
/// `values`.
pub fn histogram(
    name: &str,
    histogram: &Histogram,
    expected: u64,
    what: &str,
    values: usize,
) -> Checked {
    let counted = total(
        &format!("the counts of {name}"),
        histogram.counts().iter().copied(),
    )?;
    equal(
        &format!("{name} counts"),
        counted.into(),
        expected.into(),
        what,
    )?;
    at_most(
        &format!("{name}'s largest value"),
        histogram.max().unwrap_or(0) as u128,
        values.saturating_sub(1) as u128,
        "the most it may record,",
    )
}

/// Moments (`name`) of `expected` integer observations, each between `-bound` and `bound`.
pub fn moments(name: &str, moments: &IntegerMoments, expected: u64, bound: u64) -> Checked {
    equal(
        &format!("{name}.n"),
        moments.n.into(),
        expected.into(),
        "its games are",
    )?;
    let n = u128::from(moments.n);
    let bound = u128::from(bound);
    if moments.n == 0 {
        let empty = moments.sum == 0 && moments.sum_squares == 0 && moments.max == 0;
        return empty
            .then_some(())
            .ok_or_else(|| format!("{name} has no observations but non-zero sums"));
    }
    at_most(
        &format!("{name}.max"),
        u128::from(moments.max.unsigned_abs()),
        bound,
        "the largest value it may record,",
    )?;
    at_most(
        &format!("{name}.sum's size"),
        moments.sum.unsigned_abs(),
        n.saturating_mul(bound),
        "n times the largest value,",
    )?;
    if moments.sum > i128::from(moments.max) * n as i128 {
        return Err(format!(
            "{name}.sum {} is more than n times its max {}",
            moments.sum, moments.max
        ));
    }
    at_most(
        &format!("{name}.sum_squares"),
        moments.sum_squares,
        n.saturating_mul(bound).saturating_mul(bound),
        "n times the largest square,",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_check_names_the_field_and_the_bound() {
        assert_eq!(
            equal("games", 90_000, 10_000, "its trial range holds"),
            Err("games 90000 but its trial range holds 10000".into())
        );
        assert!(at_most("wins", 3, 3, "games").is_ok());
        assert_eq!(
            total("a + b", [u64::MAX, 1]),
            Err("a + b add up to more than 2^64 - 1".into())
        );
        // Counts that would wrap to the right total are refused, not added.
        let wrapping = Histogram::from_counts(vec![u64::MAX, 1, 4]);
        assert!(histogram("h", &wrapping, 4, "games", 10).is_err());
        let fine = Histogram::from_counts(vec![1, 0, 3]);
        assert!(histogram("h", &fine, 4, "games", 3).is_ok());
        assert!(histogram("h", &fine, 4, "games", 2).is_err());
        let mut observed = IntegerMoments::default();
        [-3, 5, 2].iter().for_each(|&v| observed.record(v));
        assert!(moments("m", &observed, 3, 5).is_ok());
        assert!(moments("m", &observed, 3, 4).is_err());
        assert!(moments("m", &observed, 2, 5).is_err());
        let forged = IntegerMoments {
            sum_squares: u128::MAX,
            ..observed
        };
        assert!(moments("m", &forged, 3, 5).is_err());
    }
}
