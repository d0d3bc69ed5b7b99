//! The Chutes & Ladders study's report: the plain reading, matrices and comparisons.

use super::*;
use crate::frame::format_p as p_text;
use crate::frame::percent;
use crate::report::{estimate_text as plain, markdown};

fn signed(value: f64) -> String {
    if value > 0.0 {
        format!("+{}", format_number(value))
    } else {
        format_number(value)
    }
}

fn with_ci(estimate: &Estimate) -> String {
    let ci = estimate.confidence_interval;
    format!(
        "{} [{}, {}]",
        signed(estimate.point),
        signed(ci.lower),
        signed(ci.upper)
    )
}

/// A Markdown matrix with first-player strategies as rows and second-player ones as columns.
fn matrix(names: &[&str], pairings: &[Pairing], cell: impl Fn(&Pairing) -> String) -> String {
    let mut out = format!(
        "| first \\ second | {} |\n| --- |{}\n",
        names.join(" | "),
        " ---: |".repeat(names.len())
    );
    for row in names {
        let cells: Vec<String> = names
            .iter()
            .map(|column| {
                pairings
                    .iter()
                    .find(|p| p.first.name() == *row && p.second.name() == *column)
                    .map_or("–".to_string(), &cell)
            })
            .collect();
        out.push_str(&format!("| **{row}** | {} |\n", cells.join(" | ")));
    }
    out
}

/// Everything the report is written from.
#[derive(Clone, Copy)]
pub(super) struct Inputs<'a> {
    pub(super) experiment: &'a Experiment,
    pub(super) shared: &'a Shared,
    pub(super) solver: &'a ChutesSolver,
    pub(super) base: &'a BaseGameSummary,
    pub(super) exact: &'a BaseExact,
    pub(super) pairings: &'a [Pairing],
    pub(super) averages: &'a [Average],
    pub(super) comparisons: &'a [Comparison],
    pub(super) analysis: &'a Analysis<'a, CubeSummary>,
}

pub(super) fn report(inputs: &Inputs) -> String {
    let Inputs {
        shared,
        base,
        exact,
        pairings,
        averages,
        comparisons,
        ..
    } = *inputs;
    let names: Vec<&str> = averages.iter().map(|a| a.name).collect();
    let e = BaseEstimates::new(base);
    let mut out = String::new();
    out.push_str("## Reading\n\n");
    out.push_str(&reading(inputs));

    out.push_str("\n## The base game (no cube)\n\n");
    out.push_str(&format!(
        "{} games on the standard Milton Bradley board (9 ladders, 10 chutes), on their own random \
         stream. A game's length counts the moves of both players.\n\n\
         | quantity | simulated (95% CI) | exact |\n| --- | --- | ---: |\n\
         | P(player 1 wins) | {} | {} |\n\
         | mean length (moves) | {} | {} |\n\
         | median length | {} | {} |\n\
         | shortest game | {} | {} |\n\
         | longest game seen | {} | – |\n\
         | one player alone: mean / median / minimum turns | – | {} / {} / {} |\n\n",
        base.games,
        with_ci(&e.p1),
        format_number(exact.p1_wins),
        with_ci(&e.turns),
        format_number(exact.mean_length()),
        stats::histogram_median(&base.turn_histogram).map_or("–".into(), |m| m.to_string()),
        exact.median_length(),
        base.turn_histogram
            .iter()
            .position(|&c| c > 0)
            .map_or("–".into(), |m| m.to_string()),
        exact.min_length(),
        base.turn_histogram
            .iter()
            .rposition(|&c| c > 0)
            .map_or("–".into(), |m| m.to_string()),
        format_number(exact.solo.mean),
        exact.solo.median,
        exact.solo.min,
    ));
    out.push_str("![Game length, simulated and exact](game_length.png)\n\n");

    out.push_str("## Payoff matrix\n\n");
    out.push_str(&format!(
        "Mean payoff per game to player 1 (row strategy, moving first) against player 2 (column), \
         with 95% Student-t intervals; stake 1, cube cap {}, `threshold` doubling at a cubeless \
         win probability of {} and taking at {}. Every cell is `mean_payoff` in `payoffs.csv`.\n\n",
        shared.max_cube,
        format_number(shared.double_at),
        format_number(shared.take_at)
    ));
    out.push_str(&matrix(&names, pairings, |p| with_ci(&p.mean_payoff())));
    out.push_str("\n![Payoff matrix](payoff_matrix.png)\n\n");
    out.push_str("### Simulated against exact\n\n");
    out.push_str(
        "Exact payoffs come from policy evaluation of the two strategies over every (mover, \
         squares, cube owner, stake) state. `z` = (simulated - exact) / standard error; \
         `p (Holm)` is Holm-corrected over the pairings.\n\n\
         | pairing | simulated | exact | z | p (Holm) |\n| --- | ---: | ---: | ---: | ---: |\n",
    );
    for p in pairings {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            p.name,
            signed(p.mean_payoff().point),
            signed(p.exact),
            format_number(p.exact_z()),
            format_number(p.exact_p_holm)
        ));
    }
    out.push_str("\n### The cube in each pairing\n\n");
    out.push_str(
        "| pairing | drop rate | mean final stake | cap reached | P(player 1 wins) | mean doubles | mean moves |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for p in pairings {
        let s = &p.summary;
        out.push_str(&format!(
            "| {} | {} | {} | {} ({}) | {} | {} | {} |\n",
            p.name,
            percent(wilson(s.drops, s.games).point),
            format_number(p.final_stake().point),
            s.cap_reached,
            percent(wilson(s.cap_reached, s.games).point),
            percent(wilson(s.p1_wins, s.games).point),
            format_number(s.doubles as f64 / s.games as f64),
            format_number(p.turns().mean()),
        ));
    }
    out.push_str("\nIntervals for every rate are in `payoffs.csv`.\n\n");
    out.push_str(&markdown::render(&inputs.analysis.estimates_section()));
    out.push_str("Game lengths per pairing, in moves of both players, are in `histogram.csv`.\n\n");

    out.push_str("## Strategies over opponents and seats\n\n");
    out.push_str(
        "A strategy's average is the mean, with equal weight, of its payoff per game in every \
         pairing against another strategy, as player 1 and as player 2 (self-play is left out: \
         it nets to zero for the strategy). Intervals come from the independent pairing means \
         (Welch–Satterthwaite).\n\n\
         | strategy | opponents | average payoff (95% CI) | as player 1 | as player 2 |\n\
         | --- | ---: | --- | --- | --- |\n",
    );
    let mut ranked: Vec<&Average> = averages.iter().collect();
    ranked.sort_by(|a, b| b.overall.point.total_cmp(&a.overall.point));
    for a in ranked {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            a.name,
            a.opponents,
            with_ci(&a.overall),
            with_ci(&a.as_first),
            with_ci(&a.as_second)
        ));
    }

    out.push_str("\n## Comparisons\n\n");
    out.push_str(
        "`average_payoff`: strategy a's average (above) minus b's, a contrast of independent \
         pairing means tested with Welch's t (the games a and b play against each other count in \
         both averages, which the contrast accounts for). `head_to_head`: a's payoff per game \
         against b with each seat weighted equally. `p (Holm)` is corrected within each \
         family.\n\n",
    );
    for family in ["average_payoff", "head_to_head"] {
        let subset: Vec<&Comparison> = comparisons.iter().filter(|c| c.family == family).collect();
        if subset.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "### {family}\n\n| a | b | a - b (95% CI) | t | p | p (Holm) |\n\
             | --- | --- | --- | ---: | ---: | ---: |\n"
        ));
        for c in subset {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                c.a,
                c.b,
                with_ci(&c.result.effect),
                format_number(c.result.statistic),
                p_text(c.result.p_value),
                p_text(c.p_holm)
            ));
        }
        out.push('\n');
    }
    out
}

fn reading(inputs: &Inputs) -> String {
    let Inputs {
        experiment,
        shared,
        solver,
        base,
        exact,
        pairings,
        averages,
        comparisons,
        ..
    } = *inputs;
    let e = BaseEstimates::new(base);
    let mut out = format!(
        "- **First-player advantage.** Player 1 won {} of {} base games ({}, 95% CI {} to {}); \
         the exact probability is {}. A base game lasts {} moves on average (both players; CI \
         {} to {}; exact {}); one player alone needs {} turns on average (median {}, at least \
         {}).\n",
        base.p1_wins,
        base.games,
        percent(e.p1.point),
        percent(e.p1.confidence_interval.lower),
        percent(e.p1.confidence_interval.upper),
        percent(exact.p1_wins),
        format_number(e.turns.point),
        format_number(e.turns.confidence_interval.lower),
        format_number(e.turns.confidence_interval.upper),
        format_number(exact.mean_length()),
        format_number(exact.solo.mean),
        exact.solo.median,
        exact.solo.min,
    );
    let mut ranked: Vec<&Average> = averages
        .iter()
        .filter(|a| a.overall.point.is_finite())
        .collect();
    ranked.sort_by(|a, b| b.overall.point.total_cmp(&a.overall.point));
    if let Some(best) = ranked.first() {
        let ci = best.overall.confidence_interval;
        let over = format!(
            "{} per game on average over its {} {} {} (95% CI {} to {})",
            signed(best.overall.point),
            best.opponents,
            if best.opponents == 1 {
                "opponent"
            } else {
                "opponents"
            },
            seats(best),
            signed(ci.lower),
            signed(ci.upper)
        );
        match dominant_opponent(best.name, pairings) {
            Some(opponent) => out.push_str(&format!(
                "- **Which strategy makes money.** `{}` has the highest average, {over}, but \
                 most of it comes from its games against `{opponent}`{}: an average that one \
                 opponent dominates does not say which strategy plays best.",
                best.name,
                if capped_against(best.name, opponent, pairings) {
                    format!(", where the cube reached its cap of {}", shared.max_cube)
                } else {
                    String::new()
                }
            )),
            None => out.push_str(&format!(
                "- **Which strategy makes money.** `{}` does best: {over}.",
                best.name
            )),
        }
        if let Some(next) = ranked.get(1) {
            let average = comparison::between(comparisons, "average_payoff", best.name, next.name);
            if let Some((c, gap)) = average.and_then(|c| Some((c, c.effect_for(best.name)?))) {
                out.push_str(&format!(
                    " The runner-up is `{}` ({}); the gap is {} (95% CI {} to {}, Holm p = {}{}).",
                    next.name,
                    signed(next.overall.point),
                    signed(gap.point),
                    signed(gap.confidence_interval.lower),
                    signed(gap.confidence_interval.upper),
                    p_text(c.p_holm),
                    if c.p_holm < ALPHA {
                        ", significant"
                    } else {
                        ", not significant"
                    }
                ));
            }
        }
        if let Some(next) = ranked.get(1) {
            let head = comparison::between(comparisons, "head_to_head", best.name, next.name);
            if let Some((c, edge)) = head.and_then(|c| Some((c, c.effect_for(best.name)?))) {
                let verdict = if edge.point >= 0.0 {
                    format!("wins {} per game against", format_number(edge.point))
                } else {
                    format!("loses {} per game to", format_number(-edge.point))
                };
                out.push_str(&format!(
                    " Averages reward exploiting weak opponents; head to head, with each seat \
                     equally, `{}` {verdict} `{}` (its payoff's 95% CI {} to {}, Holm p = {}).",
                    best.name,
                    next.name,
                    signed(edge.confidence_interval.lower),
                    signed(edge.confidence_interval.upper),
                    p_text(c.p_holm)
                ));
            }
        }
        let runner_up = ranked.get(1).map(|r| r.name);
        if let Some(worst) = ranked
            .last()
            .filter(|w| w.name != best.name && Some(w.name) != runner_up)
        {
            out.push_str(&format!(
                " `{}` does worst ({}).",
                worst.name,
                with_ci(&worst.overall)
            ));
        }
        out.push('\n');
    } else {
        out.push_str(
            "- **Which strategy makes money.** Only self-play ran, which nets to zero for a \
             strategy: there is no average over opponents to rank.\n",
        );
    }
    if averages.iter().any(|a| a.name == "optimal") {
        let heads: Vec<String> = comparisons
            .iter()
            .filter(|c| c.family == "head_to_head")
            .filter_map(|c| {
                let edge = c.effect_for("optimal")?;
                Some(format!(
                    "{} against `{}` ({} to {})",
                    signed(edge.point),
                    c.other("optimal"),
                    signed(edge.confidence_interval.lower),
                    signed(edge.confidence_interval.upper)
                ))
            })
            .collect();
        out.push_str(&format!(
            "- **The optimal player's edge.** With both players optimal, player 1's exact \
             cubeful equity at the start is {} per unit stake (cubeless: {}). {}\n",
            signed(solver.start_equity()),
            signed(2.0 * exact.p1_wins - 1.0),
            if heads.is_empty() {
                "No opponent played `optimal` in both seats here, so there is no head-to-head \
                 payoff to report."
                    .to_string()
            } else {
                format!(
                    "Head to head, with each seat equally, `optimal` wins {} per game.",
                    heads.join(", ")
                )
            }
        ));
    }
    let capped: Vec<String> = pairings
        .iter()
        .filter(|p| p.summary.cap_reached > 0)
        .map(|p| {
            format!(
                "`{}` {}",
                p.name,
                percent(wilson(p.summary.cap_reached, p.summary.games).point)
            )
        })
        .collect();
    if capped.is_empty() {
        out.push_str(&format!(
            "- **The cap.** The cube never reached its cap of {} in the {} {} run.\n",
            shared.max_cube,
            pairings.len(),
            if pairings.len() == 1 {
                "pairing"
            } else {
                "pairings"
            }
        ));
    } else {
        out.push_str(&format!(
            "- **The cap.** The cube reached its cap of {} in {} of {} pairings (share of games: \
             {}). A capped game is won or lost at ±{}, so those pairings dominate the averages \
             and have wide intervals.\n",
            shared.max_cube,
            capped.len(),
            pairings.len(),
            capped.join(", "),
            shared.max_cube
        ));
    }
    let off: Vec<&Pairing> = pairings.iter().filter(|p| p.exact_p_holm < ALPHA).collect();
    let worst = pairings
        .iter()
        .map(|p| p.exact_z().abs())
        .fold(0.0f64, f64::max);
    out.push_str(&format!(
        "- **Simulation against exact values.** {} of {} pairings differ from the exact payoff \
         after Holm correction (largest |z| = {}); the base game's P(player 1 wins) is {} \
         standard errors from exact, its mean length {}. {} games per pairing, seed {}.\n",
        off.len(),
        pairings.len(),
        format_number(worst),
        format_number(z_score(
            e.p1.point,
            exact.p1_wins,
            stats::binomial_se(exact.p1_wins, base.games)
        )),
        format_number(z_score(
            e.turns.point,
            exact.mean_length(),
            e.turns.standard_error
        )),
        experiment.trials,
        experiment.seed,
    ));
    out
}

/// Which seats `average` covers: both, or the one it played.
fn seats(average: &Average) -> &'static str {
    match (
        average.as_first.point.is_finite(),
        average.as_second.point.is_finite(),
    ) {
        (true, true) => "and both seats",
        (true, false) => "as player 1 only",
        _ => "as player 2 only",
    }
}

/// The opponent whose pairings with `name` account for more than half of the absolute
/// contributions to `name`'s average payoff, if `name` has two or more opponents and one
/// does.
fn dominant_opponent<'p>(name: &str, pairings: &'p [Pairing]) -> Option<&'p str> {
    let mut contributions: Vec<(&str, f64)> = Vec::new();
    for p in pairings {
        let (opponent, sign) = match (p.first.name() == name, p.second.name() == name) {
            (true, false) => (p.second.name(), 1.0),
            (false, true) => (p.first.name(), -1.0),
            _ => continue,
        };
        let payoff = sign * p.mean_payoff().point;
        match contributions.iter_mut().find(|(o, _)| *o == opponent) {
            Some((_, sum)) => *sum += payoff,
            None => contributions.push((opponent, payoff)),
        }
    }
    if contributions.len() < 2 {
        return None;
    }
    let total: f64 = contributions.iter().map(|(_, c)| c.abs()).sum();
    contributions
        .iter()
        .find(|(_, c)| c.abs() > total / 2.0)
        .map(|(o, _)| *o)
}

/// Whether any game between `name` and `opponent` (either seat) reached the cube's cap.
fn capped_against(name: &str, opponent: &str, pairings: &[Pairing]) -> bool {
    pairings.iter().any(|p| {
        let (a, b) = (p.first.name(), p.second.name());
        ((a == name && b == opponent) || (a == opponent && b == name)) && p.summary.cap_reached > 0
    })
}

pub(super) fn console(
    base: &BaseGameSummary,
    exact: &BaseExact,
    pairings: &[Pairing],
    averages: &[Average],
) -> String {
    let e = BaseEstimates::new(base);
    let names: Vec<&str> = averages.iter().map(|a| a.name).collect();
    let mut out = format!(
        "Base game: P(player 1 wins) {} (exact {}), mean length {} moves (exact {}).\n\n\
         Mean payoff to player 1 (rows) against player 2 (columns):\n\n",
        plain(&e.p1),
        format_number(exact.p1_wins),
        plain(&e.turns),
        format_number(exact.mean_length())
    );
    out.push_str(&matrix(&names, pairings, |p| {
        format!(
            "{} (exact {})",
            signed(p.mean_payoff().point),
            signed(p.exact)
        )
    }));
    out.push_str("\nAverage payoff over opponents and seats:\n\n");
    for a in averages {
        out.push_str(&format!("  {:<10} {}\n", a.name, with_ci(&a.overall)));
    }
    out
}
