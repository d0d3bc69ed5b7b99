//! War's plain-language reading, computed from what ran: which strategy's games are shortest
//! and longest, which games never end, and whether the deal stays fair.

use super::{decided, nonterminating, WarParams, SHARE};
use crate::game::WarSummary;
use experiment_engine::analysis::{Analysis, Measured};
use experiment_engine::frame::{format_number, format_p, percent};
use experiment_engine::report::{code, Subset, Text};
use experiment_engine::stats::{self, Estimate, ALPHA};

/// The reading's items: game length, games that never end, fairness. `params` are the
/// variants' parameters and `trials` the games each played.
///
/// In a run of many variants (see [`Analysis::subset`]) the lists name only the variants the
/// report shows, after how many there are in all: the shortest and longest games are the
/// lowest and highest headline (`mean_turns`), which are always shown.
pub fn reading(analysis: &Analysis<WarSummary>, params: &[WarParams], trials: u64) -> Vec<Text> {
    let subset = analysis.subset();
    vec![
        game_length(analysis, subset.as_ref()),
        never_ending(analysis, params, trials, subset.as_ref()),
        fairness(analysis, subset.as_ref()),
    ]
}

/// Where the comparisons a count is over are when the report shows some of them only.
fn in_table(subset: Option<&Subset>) -> &'static str {
    match subset {
        Some(_) => " (every comparison is in the comparisons table)",
        None => "",
    }
}

/// `rows` cut to the variants `subset` shows (all when there is no subset), and the words
/// that say how many there are in all, e.g. "12 of the 5000 variants (every one is in the
/// `summary` table); of the 100 variants shown: ".
fn shown_of<'r, T>(
    rows: Vec<T>,
    name: impl Fn(&T) -> &'r str,
    subset: Option<&Subset>,
) -> (Vec<T>, Option<Text>) {
    let Some(subset) = subset else {
        return (rows, None);
    };
    let all = rows.len();
    let shown: Vec<T> = rows.into_iter().filter(|r| subset.shows(name(r))).collect();
    let words = Text::new()
        .plain(format!(
            "{all} of the {} variants (every one is in the ",
            subset.total
        ))
        .code("summary")
        .plain(format!(
            " table); of the {} variants shown: {}",
            subset.shown.len(),
            if shown.is_empty() { "none" } else { "" }
        ));
    (shown, Some(words))
}

/// The declared `metric`'s estimate for `row`.
fn estimate(analysis: &Analysis<WarSummary>, metric: &str, row: &Measured<WarSummary>) -> Estimate {
    analysis
        .measures
        .metric(metric)
        .estimate(row.summary)
        .unwrap_or_else(|| panic!("{metric} has an interval"))
}

/// The bounds of an estimate's interval, as numbers.
fn bounds(e: &Estimate) -> (String, String) {
    (
        format_number(e.confidence_interval.lower),
        format_number(e.confidence_interval.upper),
    )
}

fn game_length(analysis: &Analysis<WarSummary>, subset: Option<&Subset>) -> Text {
    let rows = &analysis.rows;
    let lead = Text::new().strong("Game length.");
    let finite: Vec<(&str, Estimate)> = rows
        .iter()
        .filter(|r| r.summary.finished() > 0)
        .map(|r| (r.variant.name.as_str(), estimate(analysis, "mean_turns", r)))
        .collect();
    let shortest = finite.iter().min_by(|a, b| a.1.point.total_cmp(&b.1.point));
    let longest = finite.iter().max_by(|a, b| a.1.point.total_cmp(&b.1.point));
    let mut out = if let [(name, e)] = finite.as_slice() {
        let (lo, hi) = bounds(e);
        lead.plain(" Finished games with ")
            .code(*name)
            .plain(format!(
                " last {} turns on average (95% CI {lo} to {hi}){}.",
                format_number(e.point),
                if rows.len() > 1 {
                    "; no other strategy finished a game"
                } else {
                    ""
                }
            ))
    } else if let (Some((_, s)), Some((_, l))) = (shortest, longest) {
        if s.point == l.point {
            return lead.plain(format!(
                " Finished games last {} turns on average with every strategy{}: none is \
                 shorter or longer than another.",
                format_number(s.point),
                if finite.len() < rows.len() {
                    " that finished a game"
                } else {
                    ""
                }
            ));
        }
        let ((s_lo, s_hi), (l_lo, l_hi)) = (bounds(s), bounds(l));
        lead.plain(" Finished games are shortest with ")
            .append(tied_names(&finite, s.point))
            .plain(format!(
                " ({} turns on average, 95% CI {s_lo} to {s_hi}) and longest with ",
                format_number(s.point)
            ))
            .append(tied_names(&finite, l.point))
            .plain(format!(
                " ({} turns, {l_lo} to {l_hi}).",
                format_number(l.point)
            ))
    } else {
        return lead.plain(
            " No game finished (every game cycled or reached the turn limit): there is no game \
             length to report.",
        );
    };
    let (sig, total) = analysis.significant("mean_turns", ALPHA);
    if total > 0 {
        let (dist_sig, dist_total) = analysis.significant("turn_distribution", ALPHA);
        out = out.line_break().plain(format!(
            "{sig} of {total} pairwise differences in mean length are significant after Holm \
             correction (α = {ALPHA}); {dist_sig} of {dist_total} length distributions differ \
             (chi-square){}.",
            in_table(subset)
        ));
    }
    out
}

/// Names listed at most in a tie: beyond them, the tie is counted.
const TIED_NAMES: usize = 5;

/// The names of the strategies whose mean length is `point` exactly, "`a`, `b` and `c`",
/// so a tie at the shortest or longest names every strategy in it (the first
/// [`TIED_NAMES`] and a count of the others, in a run of many variants).
fn tied_names(finite: &[(&str, Estimate)], point: f64) -> Text {
    let names: Vec<&str> = finite
        .iter()
        .filter(|(_, e)| e.point == point)
        .map(|(name, _)| *name)
        .collect();
    let listed = names.len().min(TIED_NAMES);
    let mut text = Text::new();
    for (i, name) in names[..listed].iter().enumerate() {
        if i > 0 {
            text = text.plain(if i + 1 == names.len() { " and " } else { ", " });
        }
        text = text.code(*name);
    }
    if names.len() > listed {
        text = text.plain(format!(" and {} others", names.len() - listed));
    }
    if names.len() > 1 {
        text = text.plain(" (equally)");
    }
    text
}

fn never_ending(
    analysis: &Analysis<WarSummary>,
    params: &[WarParams],
    trials: u64,
    subset: Option<&Subset>,
) -> Text {
    let rows = &analysis.rows;
    let lead = Text::new().strong("Games that never end.");
    let never: Vec<(&Measured<WarSummary>, &WarParams)> = rows
        .iter()
        .zip(params)
        .filter(|(r, _)| nonterminating(r.summary) > 0)
        .collect();
    if never.is_empty() {
        return lead
            .plain(format!(" None of the {trials} games "))
            .append(match rows.as_slice() {
                [only] => Text::new().plain("with ").code(only.variant.name.as_str()),
                _ => Text::new().plain("of any strategy"),
            })
            .plain(" cycled or reached the turn limit.");
    }
    let others = if never.len() < rows.len() && subset.is_none() {
        ". Strategies not listed had none."
    } else {
        "."
    };
    let (never, counted) = shown_of(never, |(row, _)| row.variant.name.as_str(), subset);
    let lead = match counted {
        Some(counted) => lead
            .plain(" Games that cycled or hit the turn limit came in ")
            .append(counted),
        None => lead.plain(" "),
    };
    lead.append(Text::join(never, "; ", |(row, params)| {
        let n = nonterminating(row.summary);
        let est = estimate(analysis, "nonterminating_rate", row);
        code(row.variant.name.as_str()).plain(format!(
            " {n} ({} cycled, {} hit the {}-turn limit; rate {}, CI {} to {})",
            row.summary.cycled,
            row.summary.infinite,
            params.max_turns,
            percent(est.point),
            percent(est.confidence_interval.lower),
            percent(est.confidence_interval.upper)
        ))
    }))
    .plain(others)
}

/// Each strategy's share of the games won by either player that player 1 won, against 50%,
/// Holm-corrected over the strategies that have such a game; draws and unfinished games have no
/// winner and are left out, and a strategy without a game won by either player has no data.
fn fairness(analysis: &Analysis<WarSummary>, subset: Option<&Subset>) -> Text {
    let lead = Text::new().strong("Fairness.");
    let (with_data, without): (Vec<&Measured<WarSummary>>, Vec<&Measured<WarSummary>>) =
        analysis.rows.iter().partition(|r| decided(r.summary) > 0);
    if with_data.is_empty() {
        return lead.plain(format!(
            " No game was won by either player (every game {}), so there is no winner to judge \
             fairness by: no data.",
            if analysis.rows.iter().any(|r| r.summary.draws > 0) {
                "was drawn, cycled or reached the turn limit"
            } else {
                "cycled or reached the turn limit"
            }
        ));
    }
    let p_values: Vec<f64> = with_data
        .iter()
        .map(|r| {
            let n = decided(r.summary) as f64;
            let share = r.summary.p1_wins as f64 / n;
            stats::two_sided_normal_p((share - 0.5) / (0.25 / n).sqrt())
        })
        .collect();
    let unfair: Vec<(&&Measured<WarSummary>, f64)> = with_data
        .iter()
        .zip(stats::holm(&p_values))
        .filter(|(_, p)| *p < ALPHA)
        .collect();
    let mut out = lead
        .plain(
            " The deal is symmetric, so under a placement that treats both players alike player \
             1 should win half of the games won by either player (column ",
        )
        .code(SHARE)
        .plain("; draws and unfinished games have no winner and are left out). ");
    out = if unfair.is_empty() {
        match with_data.as_slice() {
            [only] => out.plain("With ").code(only.variant.name.as_str()).plain(
                ", player 1's share of games won by either player does not differ significantly \
                 from 50% (z-test)",
            ),
            _ => out.plain(
                "For no strategy does player 1's share of games won by either player differ \
                 significantly from 50% (z-test, Holm-corrected over strategies)",
            ),
        }
    } else {
        let (unfair, counted) = shown_of(unfair, |(r, _)| r.variant.name.as_str(), subset);
        let out = out.plain(
            "Player 1's share of games won by either player differs from 50% (z-test, \
             Holm-corrected over strategies) for ",
        );
        match counted {
            Some(counted) => out.append(counted),
            None => out,
        }
        .append(Text::join(unfair, ", ", |(r, p)| {
            let share = estimate(analysis, SHARE, r);
            let (lo, hi) = bounds(&share);
            code(r.variant.name.as_str()).plain(format!(
                " (share {} of the {} games won by either player, 95% CI {lo} to {hi}, Holm p {})",
                format_number(share.point),
                decided(r.summary),
                if p == 0.0 {
                    format_p(p)
                } else {
                    format!("= {}", format_p(p))
                }
            ))
        }))
    };
    if let (false, Some(subset)) = (without.is_empty(), subset) {
        let shown: Vec<&&Measured<WarSummary>> = without
            .iter()
            .filter(|r| subset.shows(&r.variant.name))
            .collect();
        out = out
            .plain(format!(
                " ({} of the {} variants had no game won by either player: no data, and left \
                 out; of those the report shows: ",
                without.len(),
                subset.total
            ))
            .append(if shown.is_empty() {
                Text::new().plain("none")
            } else {
                Text::join(shown, ", ", |r| code(r.variant.name.as_str()))
            })
            .plain(")");
    } else if !without.is_empty() {
        out = out
            .plain(" (")
            .append(Text::join(&without, ", ", |r| {
                code(r.variant.name.as_str())
            }))
            .plain(format!(
                " had no game won by either player: no data, and {} left out)",
                if without.len() == 1 { "is" } else { "are" }
            ));
    }
    let (sig, total) = analysis.significant("p1_win_rate", ALPHA);
    if total > 0 {
        out = out.plain(format!(
            "; {sig} of {total} pairwise differences in player 1's share of games won by either \
             player are significant after Holm correction{}",
            in_table(subset)
        ));
    }
    out.plain(".")
}
