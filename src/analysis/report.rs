//! The report sections a declaration implies: the estimates per variant and the comparison
//! families, as Markdown.

use std::fmt::Write;

use super::{Analysis, Comparison};
use crate::frame::{format_number, format_p};
use crate::stats::Estimate;

/// An estimate as `177.5 [177.3, 177.8]`, or `no data` when it has none.
pub fn estimate_text(estimate: &Estimate) -> String {
    if estimate.point.is_nan() {
        return "no data".to_string();
    }
    let ci = estimate.confidence_interval;
    if ci.lower.is_nan() {
        format_number(estimate.point)
    } else {
        format!(
            "{} [{}, {}]",
            format_number(estimate.point),
            format_number(ci.lower),
            format_number(ci.upper)
        )
    }
}

/// A share as a percentage with four significant digits, e.g. `46.21%`.
pub fn percent(value: f64) -> String {
    format!("{}%", format_number(100.0 * value))
}

/// The comparisons of one family as a Markdown table (empty when the family has none).
pub fn family_markdown(comparisons: &[Comparison], family: &str) -> String {
    let subset: Vec<&Comparison> = comparisons.iter().filter(|c| c.family == family).collect();
    if subset.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "### {family}\n\n| a | b | test | statistic | p | p (Holm) | effect | 95% CI |\n\
         | --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n"
    );
    for c in subset {
        let ci = c.result.effect.confidence_interval;
        let p_text = |p: f64| {
            if p.is_nan() {
                "no data".to_string()
            } else {
                format_p(p)
            }
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            c.a,
            c.b,
            c.result.test,
            format_number(c.result.statistic),
            p_text(c.result.p_value),
            p_text(c.p_holm),
            format_number(c.result.effect.point),
            if ci.lower.is_nan() {
                "–".to_string()
            } else {
                format!("[{}, {}]", format_number(ci.lower), format_number(ci.upper))
            }
        );
    }
    out.push('\n');
    out
}

impl<S> Analysis<'_, S> {
    /// A Markdown table with one row per variant and a column per proportion and mean, each
    /// shown as `estimate [lower, upper]`.
    pub fn estimates_markdown(&self) -> String {
        let metrics: Vec<_> = self.measures.estimated().collect();
        let mut out = format!("| variant | {} |", self.measures.unit);
        let mut rule = "| --- | ---: |".to_string();
        for metric in &metrics {
            let _ = write!(out, " {} |", metric.name);
            rule.push_str(" ---: |");
        }
        out.push('\n');
        out.push_str(&rule);
        out.push('\n');
        for row in &self.rows {
            let _ = write!(
                out,
                "| {} | {} |",
                row.variant.name,
                (self.measures.trials)(row.summary)
            );
            for metric in &metrics {
                let text = metric
                    .estimate(row.summary)
                    .map_or("–".to_string(), |e| estimate_text(&e));
                let _ = write!(out, " {text} |");
            }
            out.push('\n');
        }
        out
    }

    /// The report's `## Estimates` section: the estimates per variant as a table and the
    /// estimates chart (`estimates.png`).
    pub fn estimates_section(&self) -> String {
        let mut out = String::from("## Estimates\n\n");
        out.push_str(
            "Proportions with Wilson 95% intervals, means with Student-t 95% intervals; every \
             column is in `summary.csv`.\n\n",
        );
        out.push_str(&self.estimates_markdown());
        out.push_str("\n![Estimates by variant](estimates.png)\n\n");
        out
    }

    /// The report a declaration alone gives: estimates per variant, the default charts and
    /// every comparison family.
    pub fn standard_report(&self) -> String {
        let mut out = self.estimates_section();
        out.push_str("## Comparisons\n\n");
        out.push_str(
            "Welch's t for means, two-proportion z for proportions, chi-square homogeneity \
             (sparse tail bins pooled) for distributions; `p_holm` is Holm-corrected within each \
             family; effects are a - b with 95% intervals (Cramér's V for chi-square).\n\n",
        );
        out.push_str(&self.comparisons_markdown());
        out
    }

    /// Every comparison family as a Markdown section, in declaration order.
    pub fn comparisons_markdown(&self) -> String {
        let mut out = String::new();
        if self.rows.len() > super::comparison::ALL_PAIRS_LIMIT {
            let _ = writeln!(
                out,
                "With {} variants (more than {}), each variant is compared with the one with \
                 the highest `{}` rather than every pair with every other.\n",
                self.rows.len(),
                super::comparison::ALL_PAIRS_LIMIT,
                self.measures.headline
            );
        }
        for family in self.measures.families() {
            out.push_str(&family_markdown(&self.comparisons, family.name));
        }
        out
    }

    /// Significant comparisons (Holm p below `alpha`) and all comparisons with data, in a
    /// family.
    pub fn significant(&self, family: &str, alpha: f64) -> (usize, usize) {
        let all: Vec<&Comparison> = self
            .comparisons
            .iter()
            .filter(|c| c.family == family && !c.p_holm.is_nan())
            .collect();
        (all.iter().filter(|c| c.p_holm < alpha).count(), all.len())
    }
}
