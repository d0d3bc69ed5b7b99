//! Landings by group of squares (the eight colour groups, railroads, utilities, taxes, Chance,
//! Community Chest and the corners): each variant's share per group with its interval and the
//! exact chain's share, and each group compared between variants (the `groups` and
//! `group_comparisons` tables).
//!
//! A group's share is a ratio estimator with the game as the independent unit: the sum over
//! games of the group's landings `g` over the sum of all landings `T`, with the delta-method
//! standard error from the per-game sums `Σg²`, `Σg·T` and `ΣT²` (landings within one game
//! are correlated, so they are not treated as independent trials).

use anyhow::Result;

use super::landings::VariantLandings;
use super::table_count;
use crate::game::board::{GROUPS, GROUP_OF};
use crate::game::stats::GROUP_COUNT;
use crate::game::MonopolySummary;
use experiment_engine::analysis::comparison::{self, Comparison};
use experiment_engine::frame::{NamedTable, Role, TableBuilder};
use experiment_engine::spec::Variant;
use experiment_engine::stats::{self, normal_estimate, Estimate};

/// One variant's landings by group.
pub struct VariantGroups<'r, 'a> {
    /// The variant's landings per square.
    pub row: &'r VariantLandings<'a>,
    /// Each group's share of landings, in [`GROUPS`] order.
    pub shares: Vec<Estimate>,
    /// The chain's share of each group (when the chain describes the variant).
    pub exact: Option<Vec<f64>>,
}

impl<'r, 'a> VariantGroups<'r, 'a> {
    /// The groups of `row`.
    pub fn new(row: &'r VariantLandings<'a>) -> Self {
        let shares = (0..GROUP_COUNT).map(|g| share(row.summary, g)).collect();
        let exact = row.exact.as_ref().map(|exact| {
            let mut groups = vec![0.0; GROUP_COUNT];
            for (&e, &group) in exact.iter().zip(&GROUP_OF) {
                groups[usize::from(group)] += e;
            }
            groups
        });
        VariantGroups { row, shares, exact }
    }

    /// The chain's share of group `g` (NaN without a chain).
    fn exact_at(&self, g: usize) -> f64 {
        self.exact.as_ref().map_or(f64::NAN, |e| e[g])
    }

    /// (simulated − exact) share of group `g` in standard errors (NaN without a chain).
    fn z(&self, g: usize) -> f64 {
        let share = &self.shares[g];
        match &self.exact {
            Some(exact) if share.standard_error > 0.0 => {
                (share.point - exact[g]) / share.standard_error
            }
            _ => f64::NAN,
        }
    }
}

/// Group `g`'s share of all landings, a ratio estimator with the game as the unit, with its
/// normal 95% interval.
pub fn share(summary: &MonopolySummary, g: usize) -> Estimate {
    let (point, se) = stats::ratio_estimate(
        summary.games(),
        summary.group_counts()[g],
        summary.group_squares()[g],
        summary.group_totals()[g],
        summary.total(),
        summary.total_squares(),
    );
    normal_estimate(point, se)
}

/// Every group of every variant: its squares, landings, share with interval and standard
/// error, landings per game, and the chain's share with z (the `groups` table).
pub fn groups_table(rows: &[VariantGroups]) -> Result<NamedTable> {
    let cells = || {
        rows.iter()
            .flat_map(|r| (0..GROUP_COUNT).map(move |g| (r, g)))
    };
    let real = |f: &dyn Fn(&VariantGroups, usize) -> f64| {
        cells().map(|(r, g)| f(r, g)).collect::<Vec<f64>>()
    };
    let sizes = |g: usize| GROUP_OF.iter().filter(|&&of| usize::from(of) == g).count() as u64;
    let mut table = TableBuilder::new()
        .text("variant", cells().map(|(r, _)| r.row.variant.name.clone()))
        .role(Role::Label)
        .text("jail", cells().map(|(r, _)| r.row.game.jail.name()))
        .role(Role::Parameter)
        .text("cards", cells().map(|(r, _)| r.row.game.cards.name()))
        .role(Role::Parameter);
    for (name, values) in super::rule_columns(rows.iter().map(|r| r.row), GROUP_COUNT) {
        table = table.text(name, values).role(Role::Parameter);
    }
    table
        .text("group", cells().map(|(_, g)| GROUPS[g]))
        .role(Role::Bin)
        .count("squares", cells().map(|(_, g)| sizes(g)))
        .count(
            "count",
            cells().map(|(r, g)| table_count(r.row.summary.group_counts()[g])),
        )
        .interval(
            "share",
            real(&|r, g| r.shares[g].point),
            real(&|r, g| r.shares[g].confidence_interval.lower.max(0.0)),
            real(&|r, g| r.shares[g].confidence_interval.upper),
        )
        .real("share_se", real(&|r, g| r.shares[g].standard_error))
        .real(
            "per_game",
            real(&|r, g| r.row.summary.group_counts()[g] as f64 / r.row.summary.games() as f64),
        )
        .real("exact_share", real(&|r, g| r.exact_at(g)))
        .real("z", real(&|r, g| r.z(g)))
        .named("groups")
}

/// Every pair of variants (within each group of `[compare] within`) compared group by group (a z-test of the difference in share, family
/// `group`, Holm-corrected over every group of every pair): the `group_comparisons` table.
pub fn group_comparisons(rows: &[VariantGroups]) -> Result<NamedTable> {
    let mut comparisons = Vec::new();
    for (i, a) in rows.iter().enumerate() {
        let (va, compare) = (a.row.variant, &a.row.variant.compare);
        let compared = |b: &&VariantGroups| compare.compares(&va.params, &b.row.variant.params);
        for b in rows[i + 1..].iter().filter(compared) {
            for (g, name) in GROUPS.iter().enumerate() {
                let result = stats::difference_z(&a.shares[g], &b.shares[g]);
                let result = if a.shares[g].point == 0.0 && b.shares[g].point == 0.0 {
                    comparison::no_data(result)
                } else {
                    result
                };
                comparisons.push(
                    Comparison::new("group", &a.row.variant.name, &b.row.variant.name, result)
                        .with_effect_name(format!(
                            "difference in share of landings on {name} (a - b)"
                        )),
                );
            }
        }
    }
    comparison::adjust(&mut comparisons);
    let variants: Vec<&Variant> = rows.iter().map(|r| r.row.variant).collect();
    let mut table = comparison::table(&comparisons, &variants)?;
    table.name = "group_comparisons".to_string();
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::expected_landings_under;
    use crate::game::{ChanceDeck, Count, JailStrategy, Monopoly, Rules};
    use experiment_engine::games::Game;
    use experiment_engine::rng::trial_rng;
    use experiment_engine::summary::Summary;

    /// How often each group's 95% interval, from `games` games, covers the chain's share, over
    /// `runs` independent runs.
    fn coverage(game: Monopoly, games: u64, runs: u64) -> [u64; GROUP_COUNT] {
        let expected = expected_landings_under(game.jail, &game.rules, game.turns);
        let total: f64 = expected.iter().sum();
        let mut exact = [0.0; GROUP_COUNT];
        for (&e, &group) in expected.iter().zip(&GROUP_OF) {
            exact[usize::from(group)] += e / total;
        }
        let mut covered = [0u64; GROUP_COUNT];
        for run in 0..runs {
            let mut summary = MonopolySummary::default();
            for i in 0..games {
                summary.record(&game.play(&mut trial_rng(77, run, i)));
            }
            for (g, slot) in covered.iter_mut().enumerate() {
                let ci = share(&summary, g).confidence_interval;
                if ci.lower <= exact[g] && exact[g] <= ci.upper {
                    *slot += 1;
                }
            }
        }
        covered
    }

    #[test]
    fn group_intervals_cover_the_chain_as_often_as_they_claim() {
        // Of 300 runs a 95% interval should cover about 285 times (binomial sd 3.8); a group
        // below 268 (4.5 sd) has an interval that is too narrow. Long stay clusters Jail's
        // landings within a game, so the corner group tests the game-as-unit error.
        let runs = 300;
        let floor = 268;
        let long_stay = Monopoly {
            turns: 40,
            ..Monopoly::default()
        };
        let other_rules = Monopoly {
            jail: JailStrategy::ShortStayFullTurn,
            turns: 40,
            rules: Rules {
                die_sides: 4,
                count: Count::TurnEnd,
                chance: ChanceDeck::SixteenCards,
                go_to_jail: true,
            },
            ..Monopoly::default()
        };
        for game in [long_stay, other_rules] {
            let covered = coverage(game, 100, runs);
            for (g, &c) in covered.iter().enumerate() {
                assert!(c >= floor, "{game:?}: {} covered {c} of {runs}", GROUPS[g]);
            }
        }
    }
}
