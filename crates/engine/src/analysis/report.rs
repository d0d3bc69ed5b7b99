//! The report sections a declaration implies: the estimates per variant and the comparison
//! families, as report blocks.

use super::{paired, Analysis, Comparison};
use crate::frame::TableFormat;
use crate::frame::{format_number, Role};
use crate::report::{Block, Cell, StudyOutput, Subset, Table, Text};

/// What a report's comparisons section says when one variant ran.
pub const ONE_VARIANT: &str = "Only one variant ran: nothing to compare.";

/// The comparisons of one family as a subsection with its table (nothing when the family has
/// none).
pub fn family_blocks(comparisons: &[Comparison], family: &str) -> Vec<Block> {
    let subset: Vec<&Comparison> = comparisons.iter().filter(|c| c.family == family).collect();
    if subset.is_empty() {
        return Vec::new();
    }
    // A common design's comparisons say what the pairing gained.
    let paired = subset.iter().any(|c| !c.variance_ratio.is_nan());
    let mut columns = vec![
        ("a", Role::Label),
        ("b", Role::Label),
        ("test", Role::Text),
        ("statistic", Role::Number),
        ("p", Role::PValue),
        ("p (Holm)", Role::Holm),
        ("effect", Role::Effect),
        ("95% CI", Role::Interval),
    ];
    if paired {
        columns.push(("variance ratio", Role::Number));
    }
    let mut table = Table::new(columns);
    for c in subset {
        let ci = c.result.effect.confidence_interval;
        let mut cells = vec![
            Cell::text(c.a.as_str()),
            Cell::text(c.b.as_str()),
            Cell::text(c.result.test),
            Cell::number(c.result.statistic),
            Cell::p(c.result.p_value),
            Cell::p(c.p_holm),
            Cell::number(c.result.effect.point),
            if ci.lower.is_nan() {
                Cell::missing("–")
            } else {
                Cell::text(format!(
                    "[{}, {}]",
                    format_number(ci.lower),
                    format_number(ci.upper)
                ))
            },
        ];
        if paired {
            cells.push(Cell::number(c.variance_ratio));
        }
        table.row(cells);
    }
    vec![Block::heading(3, family), Block::Table(table)]
}

impl<S> Analysis<'_, S> {
    /// The variants a report of this run shows when it has more than
    /// [`crate::report::subset::REPORT_VARIANTS`]: the highest and the lowest by the headline
    /// estimate (`None`: few enough to show all).
    pub fn subset(&self) -> Option<Subset> {
        let names: Vec<&str> = self.rows.iter().map(|r| r.variant.name.as_str()).collect();
        let points: Vec<f64> = self
            .headline()
            .iter()
            .map(|e| e.as_ref().map_or(f64::NAN, |e| e.point))
            .collect();
        Subset::new(self.measures.headline, &names, &points)
    }

    /// `output` summarised for a run of many variants (see [`Analysis::subset`]), its tables
    /// written in `formats` left complete; as it is for a run of few.
    pub fn summarise(&self, mut output: StudyOutput, formats: &[TableFormat]) -> StudyOutput {
        if let Some(subset) = self.subset() {
            output.summarise(&subset, formats);
        }
        output
    }

    /// A table with one row per variant and a column per proportion and mean, each shown as
    /// `estimate [lower, upper]`.
    pub fn estimates_table(&self) -> Table {
        let metrics: Vec<_> = self.measures.estimated().collect();
        let mut table = Table::new(
            [("variant", Role::Label), (self.measures.unit, Role::Count)]
                .into_iter()
                .chain(metrics.iter().map(|m| (m.name, Role::Estimate))),
        );
        for row in &self.rows {
            let mut cells = vec![
                Cell::text(row.variant.name.as_str()),
                Cell::count((self.measures.trials)(row.summary)),
            ];
            cells.extend(metrics.iter().map(|metric| {
                metric
                    .estimate(row.summary)
                    .map_or(Cell::missing("–"), |e| Cell::estimate(&e))
            }));
            table.row(cells);
        }
        table
    }

    /// The report's `## Estimates` section: the estimates per variant as a table and the
    /// estimates chart (`estimates.png`).
    pub fn estimates_section(&self) -> Vec<Block> {
        vec![
            Block::heading(2, "Estimates"),
            Block::paragraph(
                Text::new()
                    .plain(
                        "Proportions with Wilson 95% intervals, means with Student-t 95% \
                         intervals; every column is in ",
                    )
                    .code("summary.csv")
                    .plain("."),
            ),
            Block::Table(self.estimates_table()),
            Block::figure("estimates", "Estimates by variant"),
        ]
    }

    /// The report a declaration alone gives: estimates per variant, the default charts and
    /// every comparison family; with one variant, one sentence that there is nothing to
    /// compare.
    pub fn standard_report(&self) -> Vec<Block> {
        let mut out = self.estimates_section();
        out.push(Block::heading(2, "Comparisons"));
        if self.rows.len() < 2 {
            out.push(Block::paragraph(ONE_VARIANT));
            return out;
        }
        out.push(self.comparisons_intro());
        out.extend(self.comparisons_blocks());
        out
    }

    /// The paragraph that says how the comparisons were tested, for the design of the run.
    pub fn comparisons_intro(&self) -> Block {
        if self.common.is_some() {
            return paired::methods_paragraph();
        }
        Block::paragraph(
            Text::new()
                .plain(
                    "Welch's t for means, two-proportion z for proportions, chi-square \
                     homogeneity (sparse tail bins pooled) for distributions; ",
                )
                .code("p_holm")
                .plain(
                    " is Holm-corrected within each family; effects are a - b with 95% intervals \
                     (Cramér's V for chi-square).",
                ),
        )
    }

    /// Every comparison family as a subsection, in declaration order; in a common design
    /// with the families left out and what the pairing gained.
    pub fn comparisons_blocks(&self) -> Vec<Block> {
        let mut out = Vec::new();
        if let Some(common) = self.common {
            out.extend(paired::left_out_blocks(self.measures, common));
            if let (Some(best), false) = (common.summary.against, self.grouped()) {
                out.push(Block::paragraph(
                    Text::new()
                        .plain(format!(
                            "With {} variants, each variant is compared with ",
                            self.rows.len()
                        ))
                        .code(self.rows[best as usize].variant.name.as_str())
                        .plain(" rather than every pair with every other."),
                ));
            }
        } else if self.rows.len() > super::comparison::ALL_PAIRS_LIMIT && !self.grouped() {
            out.push(Block::paragraph(
                Text::new()
                    .plain(format!(
                        "With {} variants (more than {}), each variant is compared with the one \
                         with the highest ",
                        self.rows.len(),
                        super::comparison::ALL_PAIRS_LIMIT,
                    ))
                    .code(self.measures.headline)
                    .plain(" rather than every pair with every other."),
            ));
        }
        out.extend(self.grouping_blocks());
        for family in self.measures.families() {
            out.extend(family_blocks(&self.comparisons, family.name));
        }
        if self.common.is_some() {
            out.extend(paired::precision_blocks(self.measures, &self.comparisons));
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
