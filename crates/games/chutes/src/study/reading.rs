//! The plain-language reading of a tournament, computed from what ran: every claim is made
//! only when the pairings that ran support it.

use super::analysed::Inputs;
use super::base::BaseEstimates;
use super::cells::{signed, with_ci};
use super::pairings::{capped_games_dominate, dominant_opponent, same_field, Average, Pairing};
use super::seats;
use crate::game::Racers;
use experiment_engine::analysis::comparison;
use experiment_engine::frame::{format_number, format_p, percent};
use experiment_engine::report::{code, Text};
use experiment_engine::stats::{wilson, ALPHA};

/// The reading's items: the first-player advantage, which strategy makes money, the optimal
/// player's edge (when `optimal` played), the cap, and the simulation against exact values.
pub(super) fn reading(inputs: &Inputs) -> Vec<Text> {
    let mut items = vec![first_player(inputs)];
    items.extend(tournament(inputs));
    let pairings: Vec<&Pairing> = inputs.pairings.iter().collect();
    items.push(against_exact(inputs, &pairings));
    items
}

/// The items that read one tournament: which strategy makes money, the optimal player's edge
/// (when `optimal` played) and the cap.
pub(super) fn tournament(inputs: &Inputs) -> Vec<Text> {
    let mut items = vec![money(inputs)];
    if inputs.by_seat {
        items.push(seats::reading(inputs));
    }
    if inputs.averages.iter().any(|a| a.name == "optimal") {
        items.push(optimal_edge(inputs));
    }
    items.push(cap(inputs));
    items
}

/// The first-player advantage and the length of the base game.
pub(super) fn first_player(inputs: &Inputs) -> Text {
    let Inputs { base, exact, .. } = *inputs;
    let e = BaseEstimates::new(base);
    if exact.racers == Racers::One {
        return Text::new().strong("The single-player game.").plain(format!(
            " One player alone needed {} turns on average over {} base games (95% CI {} to {}); \
             the exact mean is {} (median {}, at least {}).",
            format_number(e.turns.point),
            base.games,
            format_number(e.turns.confidence_interval.lower),
            format_number(e.turns.confidence_interval.upper),
            format_number(exact.solo.mean),
            exact.solo.median,
            exact.solo.min,
        ));
    }
    Text::new().strong("First-player advantage.").plain(format!(
        " Player 1 won {} of {} base games ({}, 95% CI {} to {}); the exact probability is \
             {}. A base game lasts {} moves on average (both players; CI {} to {}; exact {}); \
             one player alone needs {} turns on average (median {}, at least {}).",
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
    ))
}

fn money(inputs: &Inputs) -> Text {
    let Inputs {
        shared,
        pairings,
        averages,
        comparisons,
        ..
    } = *inputs;
    let lead = Text::new().strong("Which strategy makes money.").plain(" ");
    let mut ranked: Vec<&Average> = averages
        .iter()
        .filter(|a| a.overall.point.is_finite())
        .collect();
    ranked.sort_by(|a, b| b.overall.point.total_cmp(&a.overall.point));
    let Some(best) = ranked.first() else {
        return lead.plain(
            "Only self-play ran, which nets to zero for a strategy: there is no average over \
             opponents to rank.",
        );
    };
    let ci = best.overall.confidence_interval;
    let exact = |a: &Average| seats::exact_clause(inputs.by_seat, a.exact.overall);
    let interval = match (ci.lower.is_nan(), exact(best)) {
        (true, e) if e.is_empty() => String::new(),
        (true, e) => format!(" ({})", e.trim_start_matches("; ")),
        (false, e) => format!(" (95% CI {} to {}{e})", signed(ci.lower), signed(ci.upper)),
    };
    let over = format!(
        "{} per game on average over its {} {} {}{interval}",
        signed(best.overall.point),
        best.opponents.len(),
        if best.opponents.len() == 1 {
            "opponent"
        } else {
            "opponents"
        },
        best.seats(),
    );
    let highest = lead
        .clone()
        .code(best.name)
        .plain(format!(" has the highest average, {over}, but "));
    let mut out = match dominant_opponent(best.name, pairings) {
        Some((opponent, capped)) => highest
            .plain("most of it comes from its games against ")
            .code(opponent)
            .plain(if capped {
                format!(", where the cube reached its cap of {}", shared.max_cube)
            } else {
                String::new()
            })
            .plain(
                ": an average that one opponent dominates does not say which strategy plays \
                 best.",
            ),
        None if !same_field(&ranked) => highest.plain(
            "the strategies did not all play the same opponents: averages over different \
             opponents do not say which strategy plays best.",
        ),
        None => lead.code(best.name).plain(format!(" does best: {over}.")),
    };
    let runner_up = ranked.get(1);
    if let Some(next) = runner_up {
        let average = comparison::between(comparisons, "average_payoff", best.name, next.name);
        if let Some((c, gap)) = average.and_then(|c| Some((c, c.effect_for(best.name)?))) {
            out = out
                .plain(" The runner-up is ")
                .code(next.name)
                .plain(format!(
                    " ({}{}); the gap is {} (95% CI {} to {}, Holm p = {}{}).",
                    signed(next.overall.point),
                    exact(next),
                    signed(gap.point),
                    signed(gap.confidence_interval.lower),
                    signed(gap.confidence_interval.upper),
                    format_p(c.p_holm),
                    if c.p_holm < ALPHA {
                        ", significant"
                    } else {
                        ", not significant"
                    }
                ));
        }
        // With one opponent, played in both seats, the average is the head-to-head payoff.
        let head = comparison::between(comparisons, "head_to_head", best.name, next.name)
            .filter(|_| best.opponents.len() > 1);
        if let Some((c, edge)) = head.and_then(|c| Some((c, c.effect_for(best.name)?))) {
            let verdict = if edge.point >= 0.0 {
                format!(" wins {} per game against ", format_number(edge.point))
            } else {
                format!(" loses {} per game to ", format_number(-edge.point))
            };
            out = out
                .plain(
                    " Averages reward exploiting weak opponents; head to head, with each seat \
                     equally, ",
                )
                .code(best.name)
                .plain(verdict)
                .code(next.name)
                .plain(format!(
                    " (its payoff's 95% CI {} to {}, Holm p = {}).",
                    signed(edge.confidence_interval.lower),
                    signed(edge.confidence_interval.upper),
                    format_p(c.p_holm)
                ));
        }
    }
    if let Some(worst) = ranked
        .last()
        .filter(|w| w.name != best.name && Some(w.name) != runner_up.map(|r| r.name))
    {
        out = out.plain(" ").code(worst.name).plain(format!(
            " {} ({}{}).",
            if same_field(&ranked) {
                "does worst"
            } else {
                "has the lowest average"
            },
            with_ci(&worst.overall),
            exact(worst)
        ));
    }
    out
}

fn optimal_edge(inputs: &Inputs) -> Text {
    let Inputs {
        solver,
        comparisons,
        ..
    } = *inputs;
    let heads: Vec<_> = comparisons
        .iter()
        .filter(|c| c.family == "head_to_head")
        .filter_map(|c| Some((c.other("optimal"), c.effect_for("optimal")?)))
        .collect();
    let out = Text::new()
        .strong("The optimal player's edge.")
        .plain(format!(
            " With both players optimal, player 1's exact cubeful equity at the start is {} per \
             unit stake (cubeless: {}). ",
            signed(solver.start_equity()),
            signed(2.0 * solver.win_table().first_player_wins() - 1.0),
        ));
    if heads.is_empty() {
        return out
            .plain("No opponent played ")
            .code("optimal")
            .plain(" in both seats here, so there is no head-to-head payoff to report.");
    }
    out.plain("Head to head, with each seat equally, ")
        .code("optimal")
        .plain(" wins ")
        .append(Text::join(heads, ", ", |(opponent, edge)| {
            Text::new()
                .plain(format!("{} against ", signed(edge.point)))
                .code(opponent)
                .plain(format!(
                    " ({} to {})",
                    signed(edge.confidence_interval.lower),
                    signed(edge.confidence_interval.upper)
                ))
        }))
        .plain(" per game.")
}

fn cap(inputs: &Inputs) -> Text {
    let Inputs {
        shared,
        pairings,
        averages,
        ..
    } = *inputs;
    let lead = Text::new().strong("The cap.");
    let capped: Vec<&Pairing> = pairings
        .iter()
        .filter(|p| p.summary.cap_reached > 0)
        .collect();
    if capped.is_empty() {
        return lead.plain(format!(
            " The cube never reached its cap of {} in the {} {} run.",
            shared.max_cube,
            pairings.len(),
            if pairings.len() == 1 {
                "pairing"
            } else {
                "pairings"
            }
        ));
    }
    let names: Vec<&'static str> = averages.iter().map(|a| a.name).collect();
    let out = lead
        .plain(format!(
            " The cube reached its cap of {} in {} of {} pairings (share of games: ",
            shared.max_cube,
            capped.len(),
            pairings.len(),
        ))
        .append(Text::join(&capped, ", ", |p| {
            code(p.name.as_str()).plain(format!(
                " {}",
                percent(wilson(p.summary.cap_reached, p.summary.games).point)
            ))
        }))
        .plain(format!(
            "). A capped game is won or lost at ±{}",
            shared.max_cube
        ));
    if capped_games_dominate(&names, pairings) {
        out.plain(", so those pairings dominate the averages and have wide intervals.")
    } else {
        out.plain(".")
    }
}

/// The simulation against the exact values over `pairings` (those of `inputs`' tournament, or
/// of every tournament of the run, each Holm-adjusted within its own) and the base game.
pub(super) fn against_exact(inputs: &Inputs, pairings: &[&Pairing]) -> Text {
    let Inputs {
        experiment,
        base,
        exact,
        ..
    } = *inputs;
    let e = BaseEstimates::new(base);
    let off = pairings.iter().filter(|p| p.exact_p_holm < ALPHA).count();
    let worst = pairings
        .iter()
        .map(|p| p.exact_z().abs())
        .fold(0.0f64, f64::max);
    let base_game = match exact.racers {
        Racers::Two => format!(
            "the base game's P(player 1 wins) is {} standard errors from exact, its mean length {}",
            format_number(e.p1_z(base, exact)),
            format_number(e.turns_z(exact)),
        ),
        Racers::One => format!(
            "the single player's mean length is {} standard errors from exact",
            format_number(e.turns_z(exact)),
        ),
    };
    Text::new()
        .strong("Simulation against exact values.")
        .plain(format!(
            " {} of {} pairings differ from the exact payoff after Holm correction (largest |z| \
             = {}); {base_game}.{} {} per pairing, seed {}.",
            off,
            pairings.len(),
            format_number(worst),
            // The pairings of several tournaments: each tournament corrects its own.
            if pairings.len() > inputs.pairings.len() {
                " Each pairing is Holm-corrected within its tournament."
            } else {
                ""
            },
            games_per_pairing(pairings),
            experiment.seed,
        ))
}

/// The games each of `pairings` played: `N games`, or `N to M games` when a run in stages
/// (`[stop]`, `[select]`) gave them different counts.
pub(super) fn games_per_pairing(pairings: &[&Pairing]) -> String {
    let games = pairings.iter().map(|p| p.summary.games);
    match (games.clone().min(), games.max()) {
        (Some(least), Some(most)) if least < most => {
            format!("{least} to {most} games")
        }
        (Some(games), _) => format!("{games} games"),
        (None, _) => "no games".to_string(),
    }
}
