//! The Monopoly study's plain-language reading, computed from the landing shares it tabulates:
//! the most-landed squares of each variant with their intervals, what the Jail square counts,
//! and whether the variants' landing distributions differ.

use crate::game::board::JAIL;
use crate::game::SQUARES;
use experiment_engine::analysis::comparison::Comparison;
use experiment_engine::frame::percent;
use experiment_engine::report::Text;
use experiment_engine::stats::{Estimate, ALPHA};

/// How many of each variant's most-landed squares the reading names.
pub const TOP_SQUARES: usize = 3;

/// The squares of `freq` (one share per square, index 0 = Go) in decreasing share, the first
/// on a tie.
pub fn ranked(freq: &[Estimate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..freq.len()).collect();
    order.sort_by(|&a, &b| freq[b].point.total_cmp(&freq[a].point));
    order
}

/// `Name` (square n) with its share and 95% interval.
fn square_text(square: usize, share: &Estimate) -> String {
    let ci = share.confidence_interval;
    format!(
        "{} (square {}) {} (95% CI {} to {})",
        SQUARES[square].0,
        square + 1,
        percent(share.point),
        percent(ci.lower.max(0.0)),
        percent(ci.upper)
    )
}

/// The reading's items: `variants` pairs each variant's name with its 40 landing shares;
/// `distribution` holds the chi-square comparisons of whole landing distributions;
/// `turn_ends` names the variants that count one landing per turn (`counting = "turn_end"`),
/// `no_go_to_jail` those whose Go to jail corner is an ordinary square (`go_to_jail = false`).
pub fn reading(
    variants: &[(&str, &[Estimate])],
    distribution: &[&Comparison],
    turn_ends: &[&str],
    no_go_to_jail: &[&str],
) -> Vec<Text> {
    let mut out: Vec<Text> = variants
        .iter()
        .map(|(name, freq)| {
            let top: Vec<String> = ranked(freq)
                .into_iter()
                .take(TOP_SQUARES)
                .map(|s| square_text(s, &freq[s]))
                .collect();
            Text::new()
                .strong(
                    Text::new()
                        .plain("Most landed on with ")
                        .code(*name)
                        .plain("."),
                )
                .plain(format!(" {}, as shares of all landings.", top.join("; ")))
        })
        .collect();
    let mut jail = Text::new().strong("What Jail counts.").plain(format!(
        " {} (square {}) counts every throw that ends there: a move that stops on it just \
         visiting, an arrest (Go to Jail, a card or three doubles) and each throw spent in \
         jail, so its share is not that of an ordinary square.",
        SQUARES[usize::from(JAIL)].0,
        usize::from(JAIL) + 1
    ));
    if !turn_ends.is_empty() {
        jail = names(jail.plain(" Under "), turn_ends).plain(
            " (counting turn ends) every square counts the turns that end on it instead, and \
             Jail every turn that ends in jail or just visiting.",
        );
    }
    if !no_go_to_jail.is_empty() {
        jail = names(jail.plain(" Under "), no_go_to_jail).plain(
            " (go_to_jail = false) the Go to jail corner (square 31) is an ordinary square, \
             counted like any other, and only a card or three doubles send a player to jail.",
        );
    }
    out.push(jail);
    if !distribution.is_empty() {
        let differ = distribution.iter().filter(|c| c.p_holm < ALPHA).count();
        out.push(Text::new().strong("Between variants.").plain(format!(
            " {differ} of {} pairs of variants differ in their landing distributions \
             (Rao-Scott corrected chi-square, Holm-adjusted p < {ALPHA}).",
            distribution.len()
        )));
    }
    out
}

/// `text` followed by `variants` as code, comma-separated.
fn names(mut text: Text, variants: &[&str]) -> Text {
    for (i, name) in variants.iter().enumerate() {
        if i > 0 {
            text = text.plain(", ");
        }
        text = text.code(*name);
    }
    text
}
