//! The common design of a Chutes run: each tournament's pairings play every trial on the same
//! dice (each player rolling from his own purpose's stream, [`crate::game::PLAYER_DICE`]),
//! as one [`CommonGame`] job per tournament (or every pairing as one job, [`one_job`], so that
//! the tournaments compare on the same dice too), and pairings that differ in one player's
//! strategy are compared pair by pair: the paired t-test of the difference of that player's
//! points per game.

use anyhow::Result;

use super::pairings::Pairing;
use super::tournaments::{tournaments, Tournament};
use crate::game::{CubeMatch, CubeSummary};
use experiment_engine::analysis::comparison::ALL_PAIRS_LIMIT;
use experiment_engine::analysis::Comparison;
use experiment_engine::design::{
    CommonGame, Design, PairSet, PairedSummary, COMMON_LABEL, COMMON_STREAM,
};
use experiment_engine::runner::{Job, Runner};
use experiment_engine::spec::Experiment;
use experiment_engine::stats::paired;
use experiment_engine::summary::IntegerMoments;

/// The family of the paired comparisons in `comparisons.csv`.
pub(super) const FAMILY: &str = "pairing_points";

/// Whether a fixed (not staged) common run of `experiment` plays every pairing as one common
/// job, every pair kept, so that its tournaments compare on the same dice: when it holds more
/// than one tournament and at most [`ALL_PAIRS_LIMIT`] pairings (recorded under
/// [`COMMON_STREAM`]).
pub(super) fn one_job(experiment: &Experiment) -> Result<bool> {
    Ok(experiment.design == Design::Common
        && !super::stages::staged(experiment)
        && experiment.variants.len() <= ALL_PAIRS_LIMIT
        && tournaments(&experiment.variants)?.len() > 1)
}

/// Plays every tournament of `experiment` (`matches` are its variants' games, in variant
/// order) on common dice: each variant's summary, in variant order, and each tournament's
/// paired statistics, in tournament order; with every pairing's when one job plays them all
/// ([`one_job`]), else as one job per tournament. A tournament holds at most 25 pairings
/// (five strategies in each seat), so every pair of its pairings is kept.
pub(super) fn play(
    experiment: &Experiment,
    runner: &Runner,
    tournaments: &[Tournament],
    matches: &[CubeMatch],
) -> Result<super::beside::Plays> {
    let common = |games| CommonGame {
        games,
        seed: experiment.seed,
        pairs: PairSet::Every,
        own_streams: None,
    };
    if one_job(experiment)? {
        let game: CommonGame<'_, CubeMatch> = common(matches.iter().collect());
        let job = Job {
            label: COMMON_LABEL,
            variant: COMMON_STREAM,
            game: &game,
        };
        // Each trial of the one job is a game of every pairing.
        runner.count_each_trial_as(matches.len() as u64);
        let played = runner.run_jobs(&[job], experiment.seed, 0..experiment.trials);
        runner.count_each_trial_as(1);
        let all = played.into_iter().next().expect("one job");
        let paired = tournaments
            .iter()
            .map(|t| super::stages::restrict(&all.paired, &t.variants))
            .collect();
        return Ok((all.variants, paired, Some(all.paired)));
    }
    let commons: Vec<CommonGame<'_, CubeMatch>> = tournaments
        .iter()
        .map(|t| common(t.variants.iter().map(|&v| &matches[v]).collect()))
        .collect();
    let jobs: Vec<Job<'_, CommonGame<'_, CubeMatch>>> = tournaments
        .iter()
        .zip(&commons)
        .map(|(t, game)| {
            let (variant, label) = job_stream(experiment, t);
            Job {
                label,
                variant,
                game,
            }
        })
        .collect();
    // One tournament at a time, each trial of its job counted as a game of each of its
    // pairings (the tournaments hold different numbers of pairings).
    let mut played = Vec::with_capacity(jobs.len());
    for (t, job) in tournaments.iter().zip(&jobs) {
        runner.count_each_trial_as(t.variants.len() as u64);
        played.extend(runner.run_jobs(
            std::slice::from_ref(job),
            experiment.seed,
            0..experiment.trials,
        ));
    }
    runner.count_each_trial_as(1);
    let mut summaries = vec![CubeSummary::default(); experiment.variants.len()];
    let mut paired = Vec::with_capacity(tournaments.len());
    for (t, common) in tournaments.iter().zip(played) {
        for (&v, summary) in t.variants.iter().zip(common.variants) {
            summaries[v] = summary;
        }
        paired.push(common.paired);
    }
    Ok((summaries, paired, None))
}

/// The stream tournament `t`'s common job is recorded under in summaries files, and its label:
/// the job's stream does not enter a common trial's numbers, so the first pairing's names the
/// job, labelled with the tournament (`pairings` when the run has one).
pub(super) fn job_stream<'t>(experiment: &Experiment, t: &'t Tournament) -> (u64, &'t str) {
    let label = if t.label.is_empty() {
        "pairings"
    } else {
        t.label.as_str()
    };
    (experiment.variants[t.variants[0]].stream, label)
}

/// Which player's strategy tells two pairings apart, when exactly one does: +1 for player 1
/// (whose points are the payoff), −1 for player 2 (whose points are its negation).
fn changed_side(a: &Pairing, b: &Pairing) -> Option<i128> {
    match (a.first == b.first, a.second == b.second) {
        (false, true) => Some(1),
        (true, false) => Some(-1),
        _ => None,
    }
}

/// The paired comparisons of a tournament's pairings (in its variant order) that differ in one
/// player's strategy: the mean difference of that player's points per game (a − b).
pub(super) fn comparisons(pairings: &[Pairing], paired: &PairedSummary) -> Vec<Comparison> {
    paired
        .pairs()
        .into_iter()
        .filter_map(|(a, b)| {
            let (pa, pb) = (&pairings[a], &pairings[b]);
            let side = changed_side(pa, pb)?;
            let d = paired.difference(a, b, 0)?;
            let oriented = IntegerMoments {
                sum: side * d.sum,
                ..*d
            };
            let test = paired::paired_t(&paired.values[a][0], &paired.values[b][0], &oriented, 1);
            let mut comparison = Comparison::new(FAMILY, &pa.name, &pb.name, test.result)
                .with_pairing(test.correlation, test.variance_ratio);
            comparison.effect_name = format!(
                "difference in player {}'s points per game, same dice (a - b)",
                if side > 0 { 1 } else { 2 }
            );
            Some(comparison)
        })
        .collect()
}
