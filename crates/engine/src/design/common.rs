//! The common design as one game: a trial of [`CommonGame`] plays every variant with the
//! trial's common streams and folds each variant's outcome into its own summary, and the
//! per-trial differences of each compared pair into a [`PairedSummary`]. Being one game with
//! one summary, it runs, checkpoints, shards, resumes and merges exactly as any other.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::games::Game;
use crate::rng::{CommonStreams, TrialRng};
use crate::summary::{IntegerMoments, Summary};

/// Every variant of a common design, played trial by trial on the same numbers.
pub struct CommonGame<'a, G> {
    /// The variants' games, in spec order (or the order of the variants being played).
    pub games: Vec<&'a G>,
    /// The experiment's seed (the common streams derive from it and the trial alone).
    pub seed: u64,
    /// The pairs whose per-trial differences are kept.
    pub pairs: PairSet,
    /// `None`: the common design. `Some(streams)`: each variant plays from its own stream
    /// (`streams[v]`, as in an independent design), side by side, for procedures that need
    /// per-trial pairs of independent samples.
    pub own_streams: Option<&'a [u64]>,
}

/// One trial of every variant: their outcomes in spec order, and their paired values
/// ([`Game::PAIRED`]) flattened variant by variant.
pub struct CommonOutcome<O> {
    /// Each variant's outcome.
    pub outcomes: Vec<O>,
    /// `values[v * k + m]`: variant `v`'s value of paired metric `m` (of `k`).
    pub values: Vec<i64>,
    /// As [`CommonGame::pairs`].
    pub pairs: PairSet,
}

/// Which pairs of a common design's variants have their per-trial differences kept (cheap to
/// clone: every trial's outcome carries it to the summary).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairSet {
    /// Every pair `(a, b)` with `a < b`.
    Every,
    /// Each variant `a` with this one, as `(a, b)`.
    With(u32),
    /// These pairs only, in this order (the pairs within groups of `[compare] within`, see
    /// [`group_pairs`]).
    Listed(Arc<[(u32, u32)]>),
}

impl PairSet {
    /// The pair set of `pairs` among `variants` variants: [`PairSet::Every`] or
    /// [`PairSet::With`] when `pairs` is exactly what those give (so that summaries of runs
    /// without groups are written as they always were), else [`PairSet::Listed`].
    pub fn of(variants: usize, pairs: &[(usize, usize)]) -> PairSet {
        let listed: Vec<(u32, u32)> = pairs.iter().map(|&(a, b)| (a as u32, b as u32)).collect();
        let every = PairSet::Every;
        if every.pairs(variants) == pairs {
            return every;
        }
        if let Some(&(_, best)) = pairs.first() {
            let with = PairSet::With(best as u32);
            if with.pairs(variants) == pairs {
                return with;
            }
        }
        PairSet::Listed(listed.into())
    }

    /// The compared pairs among `variants` variants, in order.
    pub fn pairs(&self, variants: usize) -> Vec<(usize, usize)> {
        match self {
            PairSet::Every => (0..variants)
                .flat_map(|a| (a + 1..variants).map(move |b| (a, b)))
                .collect(),
            PairSet::With(best) => (0..variants)
                .filter(|&a| a != *best as usize)
                .map(|a| (a, *best as usize))
                .collect(),
            PairSet::Listed(pairs) => pairs
                .iter()
                .map(|&(a, b)| (a as usize, b as usize))
                .collect(),
        }
    }
}

/// The pairs compared among variants split into `groups` (indices, each group in increasing
/// order): within each group, every pair `(a, b)` with `a < b` when `every(group)`, else each
/// member `a` with the group's `best(group)` as `(a, best)`; all of them ordered by `a`, then
/// `b`. One group of every variant gives [`PairSet::Every`]'s or [`PairSet::With`]'s pairs.
pub fn group_pairs(
    groups: &[Vec<usize>],
    every: impl Fn(&[usize]) -> bool,
    mut best: impl FnMut(&[usize]) -> usize,
) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for group in groups {
        if every(group) {
            for (k, &a) in group.iter().enumerate() {
                pairs.extend(group[k + 1..].iter().map(|&b| (a, b)));
            }
        } else {
            let top = best(group);
            pairs.extend(group.iter().filter(|&&a| a != top).map(|&a| (a, top)));
        }
    }
    pairs.sort_unstable();
    pairs
}

impl<G: Game> Game for CommonGame<'_, G> {
    type Outcome = CommonOutcome<G::Outcome>;
    type Summary = CommonSummary<G::Summary>;

    const INDEXED: bool = true;

    /// Unused: a common trial needs its index, which [`Game::play_at`] takes.
    fn play(&self, _rng: &mut TrialRng) -> Self::Outcome {
        unreachable!("a common design plays through play_at")
    }

    /// Trial `trial` of every variant; `stream` is the job's (the common design's) and
    /// does not enter the numbers.
    fn play_at(&self, seed: u64, _stream: u64, trial: u64) -> Self::Outcome {
        debug_assert_eq!(seed, self.seed);
        self.play_trial(&mut CommonStreams::new(seed, trial), trial)
    }

    fn check_summary(&self, summary: &Self::Summary, trials: u64) -> Result<(), String> {
        self.check_shape(summary)?;
        summary.check(trials)
    }
}

impl<G: Game> CommonGame<'_, G> {
    /// Refuses a summary whose shape is not this game's: a variant list of another length,
    /// paired statistics of other pairs, or of another number of paired values (see
    /// [`Game::check_summary`]).
    fn check_shape(&self, summary: &CommonSummary<G::Summary>) -> Result<(), String> {
        let (n, k) = (self.games.len(), G::PAIRED.len());
        let paired = &summary.paired;
        if summary.variants.len() != n || paired.values.len() != n {
            return Err(format!(
                "it holds {} variants' summaries and paired values of {} variants, but this \
                 run plays {n} variants side by side",
                summary.variants.len(),
                paired.values.len()
            ));
        }
        let (kept, compared) = (paired.pairs(), self.pairs.pairs(n));
        if kept != compared {
            return Err(format!(
                "its paired statistics keep the pairs {kept:?}, but this run compares {compared:?}"
            ));
        }
        let lists = paired.values.iter().chain(&paired.differences);
        if let Some(list) = lists.map(Vec::len).find(|&len| len != k) {
            return Err(format!(
                "its paired statistics hold {list} values per variant or pair, but this game \
                 pairs {k}"
            ));
        }
        Ok(())
    }

    /// Plays trial `trial` of every variant, each from the start of the trial's common
    /// streams.
    pub fn play_trial(&self, streams: &mut CommonStreams, trial: u64) -> CommonOutcome<G::Outcome> {
        let k = G::PAIRED.len();
        let mut values = vec![0; self.games.len() * k];
        let outcomes = self
            .games
            .iter()
            .enumerate()
            .map(|(v, game)| {
                let outcome = match self.own_streams {
                    Some(own) => game.play_at(self.seed, own[v], trial),
                    None => {
                        streams.restart(trial);
                        game.play_common(streams)
                    }
                };
                if k > 0 {
                    game.paired_values(&outcome, &mut values[v * k..(v + 1) * k]);
                }
                outcome
            })
            .collect();
        CommonOutcome {
            outcomes,
            values,
            pairs: self.pairs.clone(),
        }
    }
}

/// Each variant's summary and the paired statistics of a common design.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommonSummary<S> {
    /// Each variant's summary, in spec order: exactly what the variant alone would give in a
    /// common design.
    pub variants: Vec<S>,
    /// The paired statistics.
    pub paired: PairedSummary,
}

/// Exact, mergeable paired statistics: per variant the moments of each paired value, and per
/// compared pair the moments of the per-trial differences (for a 0/1 value, `sum` and
/// `sum_squares` of the differences give the discordant counts: `n10 − n01` and `n10 + n01`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedSummary {
    /// Trials recorded.
    pub trials: u64,
    /// `None`: every pair is compared; `Some(b)`: each variant with variant `b` only (unless
    /// [`PairedSummary::listed`] lists the pairs).
    pub against: Option<u32>,
    /// The compared pairs, when they are neither every pair nor each with one variant (the
    /// pairs within groups of `[compare] within`); not written otherwise, so files of runs
    /// without groups read as they did before groups existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed: Option<Vec<(u32, u32)>>,
    /// `values[v][m]`: variant `v`'s moments of paired value `m`.
    pub values: Vec<Vec<IntegerMoments>>,
    /// `differences[p][m]`: the moments of `a − b` for pair `p` of [`PairedSummary::pairs`].
    pub differences: Vec<Vec<IntegerMoments>>,
}

impl PairedSummary {
    /// The compared pairs, in the order of [`PairedSummary::differences`].
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        self.pair_set().pairs(self.values.len())
    }

    /// The pair set these statistics keep.
    pub fn pair_set(&self) -> PairSet {
        match (&self.listed, self.against) {
            (Some(pairs), _) => PairSet::Listed(pairs.as_slice().into()),
            (None, Some(best)) => PairSet::With(best),
            (None, None) => PairSet::Every,
        }
    }

    /// The moments of variant `a`'s paired value `m` minus variant `b`'s, if that pair is kept.
    pub fn difference(&self, a: usize, b: usize, m: usize) -> Option<&IntegerMoments> {
        let at = self.pairs().iter().position(|&pair| pair == (a, b))?;
        self.differences.get(at)?.get(m)
    }

    /// The exact sum over trials of variant `a`'s paired value `m` times variant `b`'s, Σ a·b:
    /// `a`'s sum of squares when `a == b`, else (Σa² + Σb² − Σ(a−b)²) / 2 from the pair's
    /// kept differences (in either order). `None` when the pair is not kept (or the sum
    /// overflows 128 bits).
    pub fn product(&self, a: usize, b: usize, m: usize) -> Option<i128> {
        let squares = |v: usize| -> Option<i128> {
            i128::try_from(self.values.get(v)?.get(m)?.sum_squares).ok()
        };
        if a == b {
            return squares(a);
        }
        let d = self
            .difference(a, b, m)
            .or_else(|| self.difference(b, a, m))?;
        let d = i128::try_from(d.sum_squares).ok()?;
        let twice = squares(a)?.checked_add(squares(b)?)?.checked_sub(d)?;
        Some(twice / 2)
    }

    fn record(&mut self, values: &[i64], variants: usize, pairs: &PairSet) {
        let k = values.len().checked_div(variants).unwrap_or(0);
        let compared = pairs.pairs(variants);
        if self.trials == 0 {
            (self.against, self.listed) = match pairs {
                PairSet::Every => (None, None),
                PairSet::With(best) => (Some(*best), None),
                PairSet::Listed(pairs) => (None, Some(pairs.to_vec())),
            };
            self.values = vec![vec![IntegerMoments::default(); k]; variants];
            self.differences = vec![vec![IntegerMoments::default(); k]; compared.len()];
        }
        self.trials += 1;
        for (moments, values) in self.values.iter_mut().zip(values.chunks(k.max(1))) {
            for (m, &value) in moments.iter_mut().zip(values) {
                m.record(value);
            }
        }
        for (moments, (a, b)) in self.differences.iter_mut().zip(compared) {
            for (m, moment) in moments.iter_mut().enumerate() {
                moment.record(values[a * k + m] - values[b * k + m]);
            }
        }
    }

    /// Adds the paired statistics of other trials of the same variants and pairs (exact
    /// integer sums, so the order of merging changes nothing).
    pub fn merge(&mut self, other: &PairedSummary) {
        if other.trials == 0 {
            return;
        }
        if self.trials == 0 {
            *self = other.clone();
            return;
        }
        self.trials += other.trials;
        for (mine, theirs) in self
            .values
            .iter_mut()
            .chain(self.differences.iter_mut())
            .zip(other.values.iter().chain(&other.differences))
        {
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.merge(t);
            }
        }
    }

    fn check(&self, trials: u64) -> Result<(), String> {
        crate::summary_check::equal(
            "paired trials",
            self.trials.into(),
            trials.into(),
            "its trial range holds",
        )?;
        let variants = self.values.len();
        if let Some(listed) = &self.listed {
            if let Some((a, b)) = listed
                .iter()
                .find(|&&(a, b)| a == b || a as usize >= variants || b as usize >= variants)
            {
                return Err(format!(
                    "paired pair ({a}, {b}) is not a pair of two of its {variants} variants"
                ));
            }
        }
        let expected = self.pairs().len();
        crate::summary_check::equal(
            "paired pairs",
            self.differences.len() as u128,
            expected as u128,
            "its variants make",
        )?;
        for moments in self.values.iter().chain(&self.differences).flatten() {
            crate::summary_check::equal(
                "paired n",
                moments.n.into(),
                trials.into(),
                "its trial range holds",
            )?;
        }
        Ok(())
    }
}

impl<S: Summary> Summary for CommonSummary<S> {
    type Outcome = CommonOutcome<S::Outcome>;

    fn record(&mut self, outcome: &Self::Outcome) {
        if self.variants.is_empty() {
            self.variants = vec![S::default(); outcome.outcomes.len()];
        }
        for (summary, outcome) in self.variants.iter_mut().zip(&outcome.outcomes) {
            summary.record(outcome);
        }
        self.paired
            .record(&outcome.values, outcome.outcomes.len(), &outcome.pairs);
    }

    fn merge(&mut self, other: &Self) {
        if self.variants.is_empty() {
            self.variants = vec![S::default(); other.variants.len()];
        }
        for (mine, theirs) in self.variants.iter_mut().zip(&other.variants) {
            mine.merge(theirs);
        }
        self.paired.merge(&other.paired);
    }

    fn check(&self, trials: u64) -> Result<(), String> {
        for summary in &self.variants {
            summary.check(trials)?;
        }
        self.paired.check(trials)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Paired;
    use crate::rng::{Purpose, Streams};
    use rand::Rng;

    /// Rolls a die for purpose 1 and wins when it shows at least `at`; draws `extra` numbers
    /// for purpose 2 first, which must not shift the die.
    struct AtLeast {
        at: u32,
        extra: usize,
    }

    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    struct Wins {
        games: u64,
        wins: u64,
    }

    impl Summary for Wins {
        type Outcome = (bool, u32);
        fn record(&mut self, outcome: &(bool, u32)) {
            self.games += 1;
            self.wins += u64::from(outcome.0);
        }
        fn merge(&mut self, other: &Wins) {
            self.games += other.games;
            self.wins += other.wins;
        }
        fn check(&self, trials: u64) -> Result<(), String> {
            crate::summary_check::games_match(self.games, trials)
        }
    }

    impl AtLeast {
        fn play_with(&self, streams: &mut impl Streams) -> (bool, u32) {
            for _ in 0..self.extra {
                streams.rng(Purpose(2)).random::<u64>();
            }
            let die = streams.rng(Purpose(1)).random_range(1..=6);
            (die >= self.at, die)
        }
    }

    impl Game for AtLeast {
        type Outcome = (bool, u32);
        type Summary = Wins;
        fn play(&self, rng: &mut TrialRng) -> (bool, u32) {
            self.play_with(&mut crate::rng::OneStream(rng))
        }
        fn play_common(&self, streams: &mut CommonStreams) -> (bool, u32) {
            self.play_with(streams)
        }
        const PAIRED: &'static [Paired] = &[
            Paired {
                metric: "win_rate",
                scale: 1,
            },
            Paired {
                metric: "mean_die",
                scale: 1,
            },
        ];
        fn paired_values(&self, outcome: &(bool, u32), values: &mut [i64]) {
            values[0] = i64::from(outcome.0);
            values[1] = i64::from(outcome.1);
        }
    }

    fn games() -> Vec<AtLeast> {
        vec![
            AtLeast { at: 4, extra: 0 },
            AtLeast { at: 5, extra: 3 },
            AtLeast { at: 2, extra: 1 },
        ]
    }

    fn run(games: &[AtLeast], pairs: PairSet, trials: std::ops::Range<u64>) -> CommonSummary<Wins> {
        let common = CommonGame {
            games: games.iter().collect(),
            seed: 11,
            pairs,
            own_streams: None,
        };
        let mut summary = CommonSummary::default();
        for trial in trials {
            summary.record(&common.play_at(11, 0, trial));
        }
        summary
    }

    #[test]
    fn every_variant_sees_the_same_die_whatever_else_it_draws() {
        let summary = run(&games(), PairSet::Every, 0..2_000);
        // The die is the same for every variant: its mean differs by exactly zero.
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let d = summary.paired.difference(a, b, 1).expect("kept");
            assert_eq!((d.n, d.sum, d.sum_squares), (2_000, 0, 0));
        }
        // At least 4 against at least 5: they differ exactly when the die shows 4.
        let fours = summary.paired.values[0][1].n; // every trial
        assert_eq!(fours, 2_000);
        let d = summary.paired.difference(0, 1, 0).expect("kept");
        let wins = |v: usize| summary.variants[v].wins as i128;
        assert_eq!(d.sum, wins(0) - wins(1));
        assert_eq!(
            d.sum as u128, d.sum_squares,
            "only (1, 0) pairs: no (0, 1) ones"
        );
    }

    #[test]
    fn products_of_kept_pairs_are_the_exact_sums_of_products() {
        let games = games();
        let trials = 0..700;
        let common = CommonGame {
            games: games.iter().collect(),
            seed: 11,
            pairs: PairSet::Every,
            own_streams: None,
        };
        let outcomes: Vec<_> = trials.clone().map(|t| common.play_at(11, 0, t)).collect();
        let summary = run(&games, PairSet::Every, trials.clone());
        let with = run(&games, PairSet::With(2), trials);
        for m in 0..2 {
            for a in 0..3 {
                for b in 0..3 {
                    let direct: i128 = outcomes
                        .iter()
                        .map(|o| i128::from(o.values[a * 2 + m] * o.values[b * 2 + m]))
                        .sum();
                    assert_eq!(summary.paired.product(a, b, m), Some(direct), "{a} {b} {m}");
                    // Only pairs with variant 2 (and each variant with itself) are kept.
                    let kept = a == b || a == 2 || b == 2;
                    let expected = kept.then_some(direct);
                    assert_eq!(with.paired.product(a, b, m), expected, "{a} {b} {m}");
                }
            }
        }
    }

    #[test]
    fn merging_consecutive_parts_equals_the_whole() {
        let games = games();
        let listed = PairSet::Listed(vec![(1, 2)].into());
        for pairs in [PairSet::Every, PairSet::With(2), listed] {
            let whole = run(&games, pairs.clone(), 0..900);
            let mut parts = run(&games, pairs.clone(), 0..350);
            parts.merge(&run(&games, pairs, 350..900));
            assert_eq!(parts, whole);
            assert_eq!(whole.check(900), Ok(()));
            assert!(whole.check(901).is_err());
        }
        assert_eq!(
            run(&games, PairSet::With(2), 0..10).paired.pairs(),
            [(0, 2), (1, 2)]
        );
    }

    #[test]
    fn pairs_within_groups_are_listed_and_plain_sets_keep_their_old_form() {
        let every = |group: &[usize]| group.len() <= 2;
        let last = |group: &[usize]| *group.last().expect("a group has a member");
        // Groups {0, 2}, {1, 3, 4} (each with its last) and {5}.
        let groups = vec![vec![0, 2], vec![1, 3, 4], vec![5]];
        let pairs = group_pairs(&groups, every, last);
        assert_eq!(pairs, [(0, 2), (1, 4), (3, 4)]);
        let set = PairSet::of(6, &pairs);
        assert!(matches!(set, PairSet::Listed(_)));
        assert_eq!(set.pairs(6), pairs);
        let one = vec![vec![0, 1, 2]];
        assert_eq!(
            PairSet::of(3, &group_pairs(&one, |_| true, last)),
            PairSet::Every
        );
        assert_eq!(
            PairSet::of(3, &group_pairs(&one, |_| false, |_| 1)),
            PairSet::With(1)
        );
        let mut summary = run(&games(), PairSet::Listed(vec![(0, 2)].into()), 0..50);
        assert_eq!(summary.paired.differences.len(), 1);
        assert_eq!(summary.check(50), Ok(()));
        summary.paired.listed = Some(vec![(0, 3)]);
        assert!(summary.check(50).is_err(), "variant 3 does not exist");
        let plain =
            serde_json::to_string(&run(&games(), PairSet::Every, 0..5).paired).expect("serialises");
        assert!(!plain.contains("listed"), "{plain}");
    }

    #[test]
    fn own_streams_play_each_variant_as_the_independent_design_does() {
        let games = games();
        let streams = [5, 6, 7];
        let side_by_side = CommonGame {
            games: games.iter().collect(),
            seed: 11,
            pairs: PairSet::Every,
            own_streams: Some(&streams),
        };
        let mut summary = CommonSummary::<Wins>::default();
        for trial in 0..500 {
            summary.record(&side_by_side.play_at(11, 0, trial));
        }
        for (v, game) in games.iter().enumerate() {
            let mut alone = Wins::default();
            for trial in 0..500 {
                alone.record(&game.play(&mut crate::rng::trial_rng(11, streams[v], trial)));
            }
            assert_eq!(summary.variants[v], alone);
        }
        assert_ne!(
            summary
                .paired
                .difference(0, 1, 1)
                .expect("kept")
                .sum_squares,
            0
        );
    }
}
