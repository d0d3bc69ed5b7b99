//! Chutes in stages (`[stop]`, `[select]`): the pairings play as the variants of any other
//! game do ([`run_variants`]), each pairing a variant, so a precision target stops each
//! pairing on its own metric and a selection chooses among pairings (e.g. the `double_at` of a
//! `threshold` player against a fixed opponent, each value its own one-pairing tournament).
//! The base game is not a variant: it plays the spec's `trials` once beside them.
//!
//! In the common design a precision target plays every pairing as one job on the same dice
//! (recorded under [`COMMON_STREAM`](experiment_engine::design::COMMON_STREAM)), every pair of
//! pairings kept, and each tournament's paired statistics are read out of that job's: exactly
//! those of a fixed common run of the trials taken. A selection keeps no paired statistics (its
//! pairings play different trials), so its tables read as an independent run's, as every
//! game's selection does.

use anyhow::{bail, Result};

use super::tournaments::Tournament;
use crate::game::CubeMatch;
use experiment_engine::analysis::comparison::ALL_PAIRS_LIMIT;
use experiment_engine::design::{Design, PairSet, PairedSummary};
use experiment_engine::runner::{Decisions, Runner};
use experiment_engine::spec::Experiment;
use experiment_engine::studies::run_variants;

/// Whether `experiment` plays in stages (`[stop]` or `[select]`).
pub(super) fn staged(experiment: &Experiment) -> bool {
    experiment.mode.staged().is_some()
}

/// Whether a run of `experiment` in stages records its pairings under one common job: a
/// precision target in the common design (a selection records each stage under its own),
/// [`experiment_engine::design::COMMON_STREAM`].
pub(super) fn one_common_job(experiment: &Experiment) -> bool {
    experiment.design == Design::Common && experiment.mode.stop().is_some()
}

/// Refuses a precision target in the common design over more pairings than are compared pair
/// by pair ([`ALL_PAIRS_LIMIT`]): each tournament's paired statistics are read out of the
/// job's every pair, which a larger job does not keep.
/// A precision target's metric is checked too, before the base game plays.
pub(super) fn check(experiment: &Experiment) -> Result<()> {
    if let Some(stop) = experiment.mode.stop() {
        let names = experiment_engine::studies::estimated_names(&super::measures::measures());
        experiment_engine::studies::stop::check_metric(stop, &names)?;
    }
    let count = experiment.variants.len();
    if let (true, Some(stop)) = (one_common_job(experiment), experiment.mode.stop()) {
        if count > ALL_PAIRS_LIMIT {
            bail!(
                "{}: [stop] in a common design of Chutes takes at most {ALL_PAIRS_LIMIT} \
                 pairings, and this run has {count} (metric given at {}): choose fewer (with \
                 --variant, or fewer strategies in [sweep]), or set [design] random_numbers = \
                 \"independent\"",
                experiment.path.display(),
                stop.metric_at
            );
        }
    }
    Ok(())
}

/// Plays the pairings of `experiment` (`matches` are its variants' games, in variant order;
/// `tournaments` its tournaments) in stages: each pairing's summary, in variant order, and in
/// a common design with a precision target, each tournament's paired statistics, in
/// tournament order, and every pairing's (none otherwise); and what the stages decided.
/// Finishes the runner's progress.
pub(super) fn play(
    experiment: &Experiment,
    runner: &Runner,
    tournaments: &[Tournament],
    matches: &[CubeMatch],
) -> Result<(super::beside::Plays, Decisions)> {
    check(experiment)?;
    let played = run_variants(
        experiment,
        runner,
        &super::measures::measures(),
        |variant| {
            let v = experiment
                .variants
                .iter()
                .position(|other| other.stream == variant.stream)
                .expect("a variant of the experiment");
            Ok(matches[v].clone())
        },
    )?;
    let plays = match played.paired {
        Some(all) if all.trials > 0 => (
            played.summaries,
            tournaments
                .iter()
                .map(|t| restrict(&all, &t.variants))
                .collect(),
            Some(all),
        ),
        _ => (played.summaries, Vec::new(), None),
    };
    Ok((plays, played.decisions))
}

/// The paired statistics of the variants `members` (increasing indices) out of `all`, which
/// keeps every pair: exactly what a job of those variants alone, every pair kept, records
/// (also read by a fixed common run of several tournaments, [`super::common::one_job`]).
pub(super) fn restrict(all: &PairedSummary, members: &[usize]) -> PairedSummary {
    let k = all.values.first().map_or(0, Vec::len);
    let differences = PairSet::Every
        .pairs(members.len())
        .into_iter()
        .map(|(i, j)| {
            (0..k)
                .map(|m| {
                    *all.difference(members[i], members[j], m)
                        .expect("a staged common job keeps every pair")
                })
                .collect()
        })
        .collect();
    PairedSummary {
        trials: all.trials,
        values: members.iter().map(|&v| all.values[v].clone()).collect(),
        differences,
        ..PairedSummary::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiment_engine::summary::IntegerMoments;

    fn moments(value: i64) -> IntegerMoments {
        let mut m = IntegerMoments::default();
        m.record(value);
        m
    }

    #[test]
    fn a_tournament_reads_its_own_pairs_out_of_every_pair() {
        // Four variants, one paired value each: variant v's value is v, each pair's
        // difference a - b.
        let pairs = PairSet::Every.pairs(4);
        let all = PairedSummary {
            trials: 1,
            values: (0..4).map(|v| vec![moments(v)]).collect(),
            differences: pairs
                .iter()
                .map(|&(a, b)| vec![moments(a as i64 - b as i64)])
                .collect(),
            ..PairedSummary::default()
        };
        let part = restrict(&all, &[1, 3]);
        assert_eq!(part.pairs(), [(0, 1)]);
        assert_eq!(part.values, [vec![moments(1)], vec![moments(3)]]);
        assert_eq!(part.differences, [vec![moments(-2)]]);
        assert_eq!(part.trials, 1);
    }
}
