//! The Chutes & Ladders study's own data tables: payoffs per pairing, strategy averages and
//! the base game (the summary, histogram and comparisons tables come from the shared analysis).

use anyhow::{Context, Result};

use super::base::{observed_length, BaseEstimates, BaseExact};
use super::pairings::{Average, Pairing};
use crate::game::{BaseGameSummary, CubeSummary};
use experiment_engine::frame::{NamedTable, Role, TableBuilder};
use experiment_engine::stats::{self, wilson, Estimate};

/// `payoffs`: one row per pairing, its simulated payoff against the exact one and the cube's
/// rates, every estimate with its interval.
pub(super) fn payoffs_table(pairings: &[Pairing], max_cube: u32) -> Result<NamedTable> {
    let p = pairings;
    let col = |f: fn(&Pairing) -> Estimate| -> Vec<Estimate> { p.iter().map(f).collect() };
    let rate = |f: fn(&CubeSummary) -> u64| -> Vec<Estimate> {
        p.iter()
            .map(|x| wilson(f(&x.summary), x.summary.games))
            .collect()
    };
    TableBuilder::new()
        .text("variant", p.iter().map(|x| x.name.as_str()))
        .role(Role::Label)
        .text("first", p.iter().map(|x| x.first.name()))
        .role(Role::Parameter)
        .text("second", p.iter().map(|x| x.second.name()))
        .role(Role::Parameter)
        .count("games", p.iter().map(|x| x.summary.games))
        .estimate("mean_payoff", &col(Pairing::mean_payoff))
        .real("sd_payoff", p.iter().map(|x| x.payoff().sd()))
        .real("exact_payoff", p.iter().map(|x| x.exact))
        .real("z", p.iter().map(Pairing::exact_z))
        .real("p_value", p.iter().map(Pairing::exact_p))
        .role(Role::PValue)
        .real("p_holm", p.iter().map(|x| x.exact_p_holm))
        .role(Role::Holm)
        .count("drops", p.iter().map(|x| x.summary.drops))
        .estimate("drop_rate", &rate(|s| s.drops))
        .estimate("mean_final_stake", &col(Pairing::final_stake))
        .count("max_cube", p.iter().map(|_| u64::from(max_cube)))
        .role(Role::Parameter)
        .count("cap_reached", p.iter().map(|x| x.summary.cap_reached))
        .estimate("cap_reached_rate", &rate(|s| s.cap_reached))
        .count("p1_wins", p.iter().map(|x| x.summary.p1_wins))
        .estimate("p1_win_rate", &rate(|s| s.p1_wins))
        .real(
            "mean_doubles",
            p.iter()
                .map(|x| x.summary.doubles as f64 / x.summary.games as f64),
        )
        .estimate("mean_turns", &col(|x: &Pairing| x.turns().mean_estimate()))
        .named("payoffs")
}

/// `strategies`: each strategy's average payoff over its opponents, overall and by seat, and
/// with `exact` each one's exact value.
pub(super) fn strategies_table(averages: &[Average], exact: bool) -> Result<NamedTable> {
    let a = averages;
    let col = |f: fn(&Average) -> Estimate| -> Vec<Estimate> { a.iter().map(f).collect() };
    let table = TableBuilder::new()
        .text("strategy", a.iter().map(|x| x.name))
        .role(Role::Label)
        .count("opponents", a.iter().map(|x| x.opponents.len() as u64))
        .count("games", a.iter().map(|x| x.games))
        .estimate("mean_payoff", &col(|x| x.overall))
        .estimate("mean_payoff_first", &col(|x| x.as_first))
        .estimate("mean_payoff_second", &col(|x| x.as_second));
    if !exact {
        return table.named("strategies");
    }
    table
        .real("exact_mean_payoff", a.iter().map(|x| x.exact.overall))
        .real(
            "exact_mean_payoff_first",
            a.iter().map(|x| x.exact.as_first),
        )
        .real(
            "exact_mean_payoff_second",
            a.iter().map(|x| x.exact.as_second),
        )
        .named("strategies")
}

/// `base_game`: one row of the base game's estimates beside the exact values.
pub(super) fn base_game_table(base: &BaseGameSummary, exact: &BaseExact) -> Result<NamedTable> {
    let e = BaseEstimates::new(base);
    let median = stats::histogram_median(&base.turn_histogram).map_or(f64::NAN, |m| m as f64);
    let observed = |first: bool| observed_length(base, first).map_or(f64::NAN, |t| t as f64);
    TableBuilder::new()
        .count("games", [base.games])
        .count("p1_wins", [base.p1_wins])
        .estimate("p1_win_rate", &[e.p1])
        .real("exact_p1_win_rate", [exact.p1_wins])
        .real("p1_win_z", [e.p1_z(base, exact)])
        .estimate("mean_turns", &[e.turns])
        .real("exact_mean_turns", [exact.mean_length()])
        .real("mean_turns_z", [e.turns_z(exact)])
        .real("sd_turns", [e.moments.sd()])
        .real("median_turns", [median])
        .real("exact_median_turns", [exact.median_length() as f64])
        .real("min_turns", [observed(true)])
        .real("exact_min_turns", [exact.min_length() as f64])
        .real("max_turns", [observed(false)])
        .real("solo_mean_turns", [exact.solo.mean])
        .real("solo_median_turns", [f64::from(exact.solo.median)])
        .real("solo_min_turns", [f64::from(exact.solo.min)])
        .named("base_game")
}

/// `base_game_hist`: the base game's lengths seen, each with its share and exact probability.
pub(super) fn base_game_hist_table(
    base: &BaseGameSummary,
    exact: &BaseExact,
) -> Result<NamedTable> {
    let rows: Vec<(usize, u64)> = base
        .turn_histogram
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(t, &c)| (t, c))
        .collect();
    let shares: Vec<Estimate> = rows.iter().map(|&(_, c)| wilson(c, base.games)).collect();
    TableBuilder::new()
        .count("turns", rows.iter().map(|&(t, _)| t as u64))
        .role(Role::Bin)
        .count("count", rows.iter().map(|&(_, c)| c))
        .estimate("share", &shares)
        .real(
            "exact_probability",
            rows.iter()
                .map(|&(t, _)| exact.length.get(t).copied().unwrap_or(0.0)),
        )
        .named("base_game_hist")
}

/// The tables in `parts` (one per tournament, with the same columns) one under another, with
/// `columns(part)` (one row per row of `part`) inserted before column `at`.
pub(super) fn stacked(
    parts: Vec<NamedTable>,
    at: usize,
    columns: impl Fn(usize, usize) -> TableBuilder,
) -> Result<NamedTable> {
    let mut out: Option<NamedTable> = None;
    for (i, part) in parts.into_iter().enumerate() {
        let extra = columns(i, part.frame.height()).named(&part.name)?;
        let mut frame = part.frame;
        let mut roles = part.roles;
        for (offset, (column, role)) in extra.frame.columns().iter().zip(extra.roles).enumerate() {
            frame.insert_column(at + offset, column.clone())?;
            roles.insert(at + offset, role);
        }
        out = Some(match out {
            None => NamedTable {
                name: part.name,
                frame,
                roles,
            },
            Some(mut done) => {
                done.frame.vstack_mut_owned(frame)?;
                done
            }
        });
    }
    out.context("no table to stack")
}
