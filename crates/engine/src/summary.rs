//! Mergeable accumulators: what trials fold into. One implementation of each kind of exact,
//! integer-only accumulator (counts are plain `u64`s): [`IntegerMoments`] for sums and squares,
//! [`Histogram`] for exact distributions of small non-negative integers. Games build their
//! summaries from these; `stats` turns them into estimates.

use std::ops::Deref;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An exact, mergeable aggregate of trial outcomes.
///
/// `merge` must be associative, and a summary built by recording outcomes one by one must equal
/// one built by merging summaries of consecutive slices of the same outcomes. Keeping every
/// field an integer (counts, sums, sums of squares, integer histograms) makes merging exact in
/// any order. Summaries serialize (see `ledger`), so checkpoints and shards can save them and
/// `experiment merge` can read them back. They own their data (`'static`), so the ledger can
/// keep a copy and write it out later.
pub trait Summary: Default + Clone + Send + Serialize + DeserializeOwned + 'static {
    /// What one trial produces.
    type Outcome;
    /// Folds one trial's outcome in.
    fn record(&mut self, outcome: &Self::Outcome);
    /// Folds another summary in (the other summary's trials come after this one's).
    fn merge(&mut self, other: &Self);
    /// Checks a summary read from a file (a checkpoint or a shard) that claims to hold
    /// `trials` trials: its trial count, every count against the others, and every sum
    /// against what `trials` trials can add up to (see `summary_check`), so that summaries
    /// that pass never wrap when merged. The error names the field, e.g. `games 90000 but its
    /// trial range holds 10000`.
    fn check(&self, trials: u64) -> Result<(), String>;
}

/// Count, sum, sum of squares and maximum of an integer-valued quantity, exact and mergeable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntegerMoments {
    /// Observations.
    pub n: u64,
    /// Sum of the observations.
    pub sum: i128,
    /// Sum of their squares.
    pub sum_squares: u128,
    /// Largest observation (0 before any).
    pub max: i64,
}

impl IntegerMoments {
    /// Folds one observation in.
    #[inline]
    pub fn record(&mut self, value: i64) {
        self.n += 1;
        self.sum += i128::from(value);
        self.sum_squares += (i128::from(value) * i128::from(value)) as u128;
        self.max = if self.n == 1 {
            value
        } else {
            self.max.max(value)
        };
    }

    /// Folds another accumulator in.
    pub fn merge(&mut self, other: &IntegerMoments) {
        if other.n == 0 {
            return;
        }
        self.max = if self.n == 0 {
            other.max
        } else {
            self.max.max(other.max)
        };
        self.n += other.n;
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
    }

    /// Moments from an exact histogram whose index is the observed value.
    pub fn from_histogram(histogram: &[u64]) -> IntegerMoments {
        let mut moments = IntegerMoments::default();
        for (value, &count) in histogram.iter().enumerate() {
            moments.n += count;
            moments.sum += value as i128 * i128::from(count);
            moments.sum_squares += (value as u128) * (value as u128) * u128::from(count);
            if count > 0 {
                moments.max = value as i64;
            }
        }
        moments
    }

    /// The mean (NaN with no observations).
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.n as f64
    }

    /// The sample variance (n - 1 denominator), computed from exact integer sums.
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            return f64::NAN;
        }
        let n = self.n as f64;
        // n * sum_sq - sum^2 is exact in integers as long as it fits in 128 bits.
        let sum = self.sum.unsigned_abs();
        match (u128::from(self.n))
            .checked_mul(self.sum_squares)
            .zip(sum.checked_mul(sum))
        {
            Some((a, b)) => a.saturating_sub(b) as f64 / (n * (n - 1.0)),
            None => centred_sum_of_squares(self.n, sum, self.sum_squares) / (n - 1.0),
        }
    }

    /// The standard deviation.
    pub fn sd(&self) -> f64 {
        self.variance().sqrt()
    }
}

/// Σx² − (Σx)²/n, the sum of squared deviations from the mean, from the exact sums `|Σx|` and
/// `Σx²` of `n` observations when `n·Σx²` does not fit in 128 bits (e.g. 10^12 observations
/// near 10^8): with Σx = qn + r (0 ≤ r < n), (Σx)²/n = q·Σx + q·r + r²/n, and every product is
/// at most (Σx)²/n ≤ Σx², so the integer part is exact and only r²/n < n is rounded.
fn centred_sum_of_squares(n: u64, sum: u128, sum_squares: u128) -> f64 {
    let n = u128::from(n);
    let (q, r) = (sum / n, sum % n);
    let whole = sum_squares.saturating_sub(q * sum + q * r);
    let r_squared = r * r;
    // whole − r²/n, with r²/n split into its integer part and its fraction.
    let (r_whole, r_fraction) = (r_squared / n, (r_squared % n) as f64 / n as f64);
    whole.saturating_sub(r_whole) as f64 - r_fraction
}

/// Serializes a fixed-size array as a sequence, for arrays longer than serde's derive supports
/// (`#[serde(with = "crate::summary::fixed_array")]`).
pub mod fixed_array {
    use super::*;

    /// Writes the array as a sequence.
    pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
        array: &[T; N],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        array.as_slice().serialize(serializer)
    }

    /// Reads a sequence of exactly `N` elements.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
        deserializer: D,
    ) -> Result<[T; N], D::Error> {
        let items = Vec::<T>::deserialize(deserializer)?;
        let found = items.len();
        items
            .try_into()
            .map_err(|_| serde::de::Error::invalid_length(found, &format!("{N} elements").as_str()))
    }
}

/// Values a histogram makes room for at its first observation, so that a chunk's histogram of
/// game lengths is not grown again and again.
const FIRST_CAPACITY: usize = 256;

/// An exact histogram of non-negative integers (index = value), growing as values arrive.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    counts: Vec<u64>,
}

impl Histogram {
    /// A histogram from counts by value.
    pub fn from_counts(counts: Vec<u64>) -> Histogram {
        Histogram { counts }
    }

    /// Counts one observation of `value`.
    #[inline]
    pub fn record(&mut self, value: usize) {
        if self.counts.len() <= value {
            if self.counts.capacity() == 0 {
                self.counts.reserve(FIRST_CAPACITY.max(value + 1));
            }
            self.counts.resize(value + 1, 0);
        }
        self.counts[value] += 1;
    }

    /// Adds another histogram's counts, growing as needed.
    pub fn merge(&mut self, other: &Histogram) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
    }

    /// Counts by value.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Observations recorded.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Smallest value observed.
    pub fn min(&self) -> Option<usize> {
        self.counts.iter().position(|&c| c > 0)
    }

    /// Largest value observed.
    pub fn max(&self) -> Option<usize> {
        self.counts.iter().rposition(|&c| c > 0)
    }

    /// Exact count, sum and sum of squares of the observations.
    pub fn moments(&self) -> IntegerMoments {
        IntegerMoments::from_histogram(&self.counts)
    }

    /// (value, count) for every value observed at least once, in increasing order.
    pub fn nonzero(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, &count)| count > 0)
            .map(|(value, &count)| (value, count))
    }
}

impl Deref for Histogram {
    type Target = [u64];

    fn deref(&self) -> &[u64] {
        &self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recording_one_by_one_equals_merging_halves() {
        let values = [3usize, 0, 7, 7, 2, 9, 1];
        let mut whole = Histogram::default();
        let mut moments = IntegerMoments::default();
        values.iter().for_each(|&v| {
            whole.record(v);
            moments.record(v as i64)
        });
        let (mut a, mut b) = (Histogram::default(), Histogram::default());
        let (mut ma, mut mb) = (IntegerMoments::default(), IntegerMoments::default());
        for &v in &values[..3] {
            a.record(v);
            ma.record(v as i64);
        }
        for &v in &values[3..] {
            b.record(v);
            mb.record(v as i64);
        }
        a.merge(&b);
        ma.merge(&mb);
        assert_eq!(a, whole);
        assert_eq!(ma, moments);
        assert_eq!(whole.moments(), moments);
        assert_eq!(moments.max, 9);
    }

    #[test]
    fn the_variance_is_exact_when_the_sums_outgrow_128_bits() {
        // 10^12 observations, half 10^8 − 1 and half 10^8 + 1: the variance is exactly
        // 10^12 / (10^12 − 1), but n·Σx² is about 10^40, past u128.
        let n: u64 = 1_000_000_000_000;
        let half = u128::from(n / 2);
        let (low, high) = (99_999_999u128, 100_000_001u128);
        let moments = IntegerMoments {
            n,
            sum: (half * (low + high)) as i128,
            sum_squares: half * (low * low + high * high),
            max: high as i64,
        };
        assert!(u128::from(n).checked_mul(moments.sum_squares).is_none());
        let exact = n as f64 / (n - 1) as f64;
        assert!(
            (moments.variance() - exact).abs() < 1e-12,
            "{}",
            moments.variance()
        );
        assert_eq!(moments.mean(), 1e8);
        // A constant sample has no variance at any size.
        let constant = IntegerMoments {
            n,
            sum: i128::from(n) * 100_000_000,
            sum_squares: u128::from(n) * 10_000_000_000_000_000,
            max: 100_000_000,
        };
        assert_eq!(constant.variance(), 0.0);
        let negative = IntegerMoments {
            sum: -moments.sum,
            max: -(low as i64),
            ..moments
        };
        assert!((negative.variance() - exact).abs() < 1e-12);
    }

    #[test]
    fn merging_an_empty_accumulator_changes_nothing() {
        let mut moments = IntegerMoments::default();
        moments.record(-4);
        let before = moments;
        moments.merge(&IntegerMoments::default());
        assert_eq!(moments, before);
        assert_eq!(moments.max, -4);
    }
}
