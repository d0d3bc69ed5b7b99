//! The Chutes reading's claims checked against the tables of the same run: each tournament's
//! "Which strategy makes money." item against `strategies.csv` and `comparisons.csv`, and the
//! reading across tournaments against `tournament_comparisons.csv`.

use std::path::Path;

use polars::prelude::DataFrame;

use super::{header, named_after, numbers, read_csv, texts};

/// A column of `frame`, or `fill` on every row when it has none (one tournament).
fn texts_or(frame: &DataFrame, name: &str, fill: &str) -> Vec<String> {
    if header(frame).iter().any(|c| c == name) {
        texts(frame, name)
    } else {
        vec![fill.to_string(); frame.height()]
    }
}

/// The row of `family` comparing `x` and `y` (either way) in `tournament`, with the effect
/// for `x` and its Holm p.
fn chutes_row(out: &Path, family: &str, tournament: &str, x: &str, y: &str) -> Option<(f64, f64)> {
    let c = read_csv(&out.join("comparisons.csv"));
    let (f, a, b) = (texts(&c, "family"), texts(&c, "a"), texts(&c, "b"));
    let t = texts_or(&c, "tournament", "");
    let (effect, holm) = (numbers(&c, "effect"), numbers(&c, "p_holm"));
    (0..f.len())
        .find(|&k| f[k] == family && t[k] == tournament && [&a[k], &b[k]] == [x, y])
        .map(|k| (effect[k], holm[k]))
        .or_else(|| {
            (0..f.len())
                .find(|&k| f[k] == family && t[k] == tournament && [&a[k], &b[k]] == [y, x])
                .map(|k| (-effect[k], holm[k]))
        })
}

/// Each tournament's "Which strategy makes money." item against its rows of `strategies.csv`
/// and `comparisons.csv`: the best and the runner-up, the gap's significance and the sign of
/// the head-to-head payoff; with no runner-up sentence, no row it could have read.
pub fn check_money(out: &Path) {
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    let strategies = read_csv(&out.join("strategies.csv"));
    let (names, means) = (
        texts(&strategies, "strategy"),
        numbers(&strategies, "mean_payoff"),
    );
    let tournaments = texts_or(&strategies, "tournament", "");
    for (i, section) in report.split("\n## Tournament `").enumerate() {
        let Some(line) = section
            .lines()
            .find(|l| l.contains("**Which strategy makes money.**"))
        else {
            continue;
        };
        // Before the first tournament's heading: a run of one tournament.
        let label = if i == 0 {
            ""
        } else {
            section.split('`').next().expect("a label")
        };
        let mut ranked: Vec<(f64, &str)> = (0..names.len())
            .filter(|&k| tournaments[k] == label && means[k].is_finite())
            .map(|k| (means[k], names[k].as_str()))
            .collect();
        ranked.sort_by(|x, y| y.0.total_cmp(&x.0));
        let Some(&(_, best)) = ranked.first() else {
            continue;
        };
        assert_eq!(
            named_after(line, "money.**").as_deref(),
            Some(best),
            "{line}"
        );
        let Some(&(_, next)) = ranked.get(1) else {
            continue;
        };
        let gap = chutes_row(out, "average_payoff", label, best, next);
        if !line.contains("The runner-up is ") {
            assert!(gap.is_none(), "a gap the reading leaves out: {line}");
            continue;
        }
        assert_eq!(
            named_after(line, "runner-up is").as_deref(),
            Some(next),
            "{line}"
        );
        let (effect, holm) = gap.unwrap_or_else(|| panic!("no row for the gap: {line}"));
        assert!(effect >= 0.0, "{line}");
        let significant = line.contains(", significant).");
        assert_eq!(significant, holm < 0.05, "{line}");
        assert_ne!(significant, line.contains("not significant"), "{line}");
        if let Some(rest) = line.split("head to head, with each seat equally, ").nth(1) {
            let (edge, _) = chutes_row(out, "head_to_head", label, best, next)
                .unwrap_or_else(|| panic!("no head-to-head row: {line}"));
            let wins = rest.contains(&format!("`{best}` wins "));
            assert_eq!(wins, edge >= 0.0, "{line}");
        }
    }
}

/// The reading across tournaments against `tournament_comparisons.csv`: "no data" only when
/// it has no rows, and each strategy's count of lower tournaments from its rows (none
/// significantly higher).
pub fn check_across(text: &str, out: &Path) {
    let Some(line) = text.lines().find(|l| l.contains("**Across tournaments.**")) else {
        return;
    };
    let c = read_csv(&out.join("tournament_comparisons.csv"));
    if line.contains("(no data)") {
        assert_eq!(c.height(), 0, "{line}");
    }
    let (f, subject) = (texts(&c, "family"), texts(&c, "subject"));
    let (a, b) = (texts(&c, "a"), texts(&c, "b"));
    let (effect, holm) = (numbers(&c, "effect"), numbers(&c, "p_holm"));
    for part in line
        .split(" averages most in ")
        .skip(1)
        .zip(line.split(" averages most in "))
    {
        let (rest, before) = part;
        let name = before.rsplit('`').nth(1).expect("a strategy");
        let label = rest.split('`').nth(1).expect("a tournament");
        let rows: Vec<usize> = (0..f.len())
            .filter(|&k| f[k] == "strategy_average" && subject[k] == name)
            .filter(|&k| a[k] == label || b[k] == label)
            .collect();
        let seen = |k: usize| if a[k] == label { effect[k] } else { -effect[k] };
        let lower = rows
            .iter()
            .filter(|&&k| holm[k] < 0.05 && seen(k) > 0.0)
            .count();
        let higher = rows
            .iter()
            .filter(|&&k| holm[k] < 0.05 && seen(k) < 0.0)
            .count();
        assert_eq!(
            higher, 0,
            "{name} in {label} is the best by its rows: {line}"
        );
        let claim = rest.split(" averages most in ").next().expect("a part");
        if rows.is_empty() {
            assert!(!claim.contains("compared in"), "{claim}");
        } else {
            let said = format!(
                "{lower} of the {} other tournaments it is compared in",
                rows.len()
            );
            assert!(claim.contains(&said), "{said}: {claim}");
        }
    }
}
