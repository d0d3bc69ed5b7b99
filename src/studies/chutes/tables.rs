//! The Chutes & Ladders study's tables: payoffs, strategy averages and the base game.

use super::*;

pub(super) fn payoffs_table(pairings: &[Pairing], max_cube: u32) -> Result<DataFrame> {
    let p = pairings;
    let col = |f: fn(&Pairing) -> Estimate| -> Vec<Estimate> { p.iter().map(f).collect() };
    let rate = |f: fn(&CubeSummary) -> u64| -> Vec<Estimate> {
        p.iter()
            .map(|x| wilson(f(&x.summary), x.summary.games))
            .collect()
    };
    let mut table = TableBuilder::new()
        .text("variant", p.iter().map(|x| x.name.as_str()))
        .text("first", p.iter().map(|x| x.first.name()))
        .text("second", p.iter().map(|x| x.second.name()))
        .count("games", p.iter().map(|x| x.summary.games));
    table = table
        .estimate("mean_payoff", &col(Pairing::mean_payoff))
        .real("sd_payoff", p.iter().map(|x| x.payoff.sd()))
        .real("exact_payoff", p.iter().map(|x| x.exact))
        .real("z", p.iter().map(Pairing::exact_z))
        .real("p_value", p.iter().map(Pairing::exact_p))
        .real("p_holm", p.iter().map(|x| x.exact_p_holm))
        .count("drops", p.iter().map(|x| x.summary.drops));
    table = table.estimate("drop_rate", &rate(|s| s.drops));
    table = table
        .estimate("mean_final_stake", &col(Pairing::final_stake))
        .count("max_cube", p.iter().map(|_| u64::from(max_cube)))
        .count("cap_reached", p.iter().map(|x| x.summary.cap_reached));
    table = table
        .estimate("cap_reached_rate", &rate(|s| s.cap_reached))
        .count("p1_wins", p.iter().map(|x| x.summary.p1_wins));
    table = table.estimate("p1_win_rate", &rate(|s| s.p1_wins)).real(
        "mean_doubles",
        p.iter()
            .map(|x| x.summary.doubles as f64 / x.summary.games as f64),
    );
    table = table.estimate("mean_turns", &col(|x: &Pairing| x.turns().mean_estimate()));
    table.build()
}

pub(super) fn strategies_table(averages: &[Average]) -> Result<DataFrame> {
    let a = averages;
    let col = |f: fn(&Average) -> Estimate| -> Vec<Estimate> { a.iter().map(f).collect() };
    let mut table = TableBuilder::new()
        .text("strategy", a.iter().map(|x| x.name))
        .count("opponents", a.iter().map(|x| x.opponents as u64))
        .count("games", a.iter().map(|x| x.games));
    table = table.estimate("mean_payoff", &col(|x| x.overall));
    table = table.estimate("mean_payoff_first", &col(|x| x.as_first));
    table = table.estimate("mean_payoff_second", &col(|x| x.as_second));
    table.build()
}

pub(super) fn base_game_table(base: &BaseGameSummary, exact: &BaseExact) -> Result<DataFrame> {
    let e = BaseEstimates::new(base);
    let p1_se = stats::binomial_se(exact.p1_wins, base.games);
    let histogram = &base.turn_histogram;
    let median = stats::histogram_median(histogram).map_or(f64::NAN, |m| m as f64);
    let observed = |first: bool| {
        let found = if first {
            histogram.iter().position(|&c| c > 0)
        } else {
            histogram.iter().rposition(|&c| c > 0)
        };
        found.map_or(f64::NAN, |t| t as f64)
    };
    let table = TableBuilder::new()
        .count("games", [base.games])
        .count("p1_wins", [base.p1_wins]);
    let table = table
        .estimate("p1_win_rate", &[e.p1])
        .real("exact_p1_win_rate", [exact.p1_wins])
        .real("p1_win_z", [z_score(e.p1.point, exact.p1_wins, p1_se)]);
    table
        .estimate("mean_turns", &[e.turns])
        .real("exact_mean_turns", [exact.mean_length()])
        .real(
            "mean_turns_z",
            [z_score(
                e.turns.point,
                exact.mean_length(),
                e.turns.standard_error,
            )],
        )
        .real("sd_turns", [e.moments.sd()])
        .real("median_turns", [median])
        .real("exact_median_turns", [exact.median_length() as f64])
        .real("min_turns", [observed(true)])
        .real("exact_min_turns", [exact.min_length() as f64])
        .real("max_turns", [observed(false)])
        .real("solo_mean_turns", [exact.solo.mean])
        .real("solo_median_turns", [f64::from(exact.solo.median)])
        .real("solo_min_turns", [f64::from(exact.solo.min)])
        .build()
}

pub(super) fn base_game_hist_table(base: &BaseGameSummary, exact: &BaseExact) -> Result<DataFrame> {
    let rows: Vec<(usize, u64)> = base
        .turn_histogram
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(t, &c)| (t, c))
        .collect();
    let shares: Vec<Estimate> = rows.iter().map(|&(_, c)| wilson(c, base.games)).collect();
    let table = TableBuilder::new()
        .count("turns", rows.iter().map(|&(t, _)| t as u64))
        .count("count", rows.iter().map(|&(_, c)| c));
    table
        .estimate("share", &shares)
        .real(
            "exact_probability",
            rows.iter()
                .map(|&(t, _)| exact.length.get(t).copied().unwrap_or(0.0)),
        )
        .build()
}
