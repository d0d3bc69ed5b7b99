//! What a selection of the best variant adds to a run's output: the `selection` table, a
//! "Selection" section at the end of the report saying which variant was chosen and what is
//! guaranteed, and the same on the console.

use anyhow::Result;

use crate::design::Design;
use crate::frame::{Role, TableBuilder};
use crate::report::{Block, Cell, StudyOutput, Table, Text};
use crate::runner::Selection;
use crate::spec::{Goal, Select};

/// The name of the table (`selection.csv`) a selection writes.
pub const SELECTION_TABLE: &str = "selection";

/// `x` as written in a sentence: `0.95` as `95%` (a probability), trimmed of float noise.
fn percent(x: f64) -> String {
    format!("{}%", (x * 100.0 * 1e9).round() / 1e9)
}

/// Adds what `selection` decided in a run with `select` (random numbers from `design`) to
/// `output`: the `selection` table, the report's "Selection" section and the console's.
pub fn report(
    output: &mut StudyOutput,
    select: &Select,
    design: Design,
    selection: &Selection,
) -> Result<()> {
    let rows = &selection.variants;
    let table = TableBuilder::new()
        .text("variant", rows.iter().map(|r| r.variant.as_str()))
        .role(Role::Label)
        .count("trials", rows.iter().map(|r| r.trials))
        .optional_count("eliminated_at_stage", rows.iter().map(|r| r.eliminated_at))
        .text(
            "selected",
            (0..rows.len()).map(|v| if v == selection.chosen { "yes" } else { "no" }),
        )
        .text(
            "guaranteed",
            (0..rows.len()).map(|_| if selection.guaranteed() { "yes" } else { "no" }),
        )
        .interval(
            &select.metric,
            rows.iter().map(|r| r.point),
            rows.iter().map(|r| r.lower),
            rows.iter().map(|r| r.upper),
        )
        .named(SELECTION_TABLE)?;
    output.put_table(table);
    let blocks = section(select, design, selection);
    output.report.extend(blocks.iter().cloned());
    output.console.extend(blocks.into_iter().skip(1));
    Ok(())
}

/// The guarantee in words: "with probability at least 95%, its mean_payoff is within 0.002 of
/// the best's (the highest)".
pub fn guarantee(select: &Select) -> String {
    let best = match select.goal {
        Goal::Max => "highest",
        Goal::Min => "lowest",
    };
    format!(
        "with probability at least {}, its {} is within {} of the best's (the {best})",
        percent(select.confidence),
        select.metric,
        select.indifference
    )
}

/// The "Selection" section.
fn section(select: &Select, design: Design, selection: &Selection) -> Vec<Block> {
    let chosen = &selection.variants[selection.chosen].variant;
    let total = selection.total_trials();
    let unit = selection.unit;
    let outcome = if let Some((a, b)) = selection.degenerate.first() {
        Text::new()
            .plain("Selected: ")
            .strong(Text::new().code(chosen.as_str()))
            .plain(format!(
                " after {} stages ({total} {unit} over all variants), but nothing is \
                 guaranteed: over the first stage of {} {unit} the per-{} differences of ",
                selection.stages,
                selection.first_stage,
                unit.trim_end_matches('s'),
            ))
            .code(a.as_str())
            .plain(" and ")
            .code(b.as_str())
            .plain(format!(
                "{} were all equal, so the variance estimate of the difference was 0 and the \
                 procedure's allowance between them was 0: one later {} could eliminate either. \
                 The statement \"{}\" needs a first stage in which every pair differs; raise \
                 stage_trials.",
                match selection.degenerate.len() {
                    1 => String::new(),
                    n => format!(" (and {} other pairs)", n - 1),
                },
                unit.trim_end_matches('s'),
                guarantee(select)
            ))
    } else if selection.alone {
        Text::new()
            .plain("Selected: ")
            .strong(Text::new().code(chosen.as_str()))
            .plain(format!(
                ", the one variant left after {} stages ({total} {unit} over all variants). \
                 Guaranteed: {}, provided the per-{} values are close enough to normal for \
                 the procedure's variance estimates (sums of many {unit} are).",
                selection.stages,
                guarantee(select),
                unit.trim_end_matches('s'),
            ))
    } else {
        let left = selection
            .variants
            .iter()
            .filter(|v| v.eliminated_at.is_none())
            .count();
        Text::new()
            .plain(format!(
                "The cap of {} {unit} per variant was reached with {left} variants left \
                 (eliminated_at_stage empty), which the data could not tell apart. ",
                select.max_trials
            ))
            .code(chosen.as_str())
            .plain(format!(
                " has the best estimate among them, but nothing is guaranteed: the statement \
                 \"{}\" holds only when one variant is left.",
                guarantee(select)
            ))
    };
    let method = Text::new()
        .plain(format!(
            "Kim and Nelson's fully sequential procedure, screening after each stage: the first \
         stage of {} {unit} per variant estimated the variance of each pair's per-{} \
         differences in ",
            selection.first_stage,
            unit.trim_end_matches('s'),
        ))
        .code(select.metric.as_str())
        .plain(format!(
            "; after each stage, a variant whose mean fell behind another's by more than the \
         procedure's allowance (which narrows as {unit} accumulate) was eliminated. Random \
         numbers: {}.",
            match design {
                Design::Common => "common, so the differences are paired trial by trial",
                Design::Independent => "independent, each variant from its own streams",
            }
        ));
    let cost = Text::new().plain(format!(
        "This selection played {total} {unit}. For the same guarantee, from the same \
         first-stage variances, Rinott's two-stage procedure with independent sampling would \
         take about {} {unit} and an equal allocation {}: this selection took {} and {} of \
         those.",
        selection.rinott_trials,
        selection.equal_trials,
        ratio(total, selection.rinott_trials),
        ratio(total, selection.equal_trials),
    ));
    let mut blocks = vec![
        Block::heading(2, "Selection"),
        Block::paragraph(outcome),
        Block::paragraph(method),
        Block::paragraph(cost),
    ];
    if let Some((positive, pairs)) = selection.positive_correlations {
        blocks.push(Block::paragraph(Text::new().plain(format!(
            "The comparisons of this report treat the variants as independent samples: they \
             shared random numbers but played different numbers of {unit}, so no paired test \
             covers all of each one's (the selection above is the paired analysis). Over the \
             first stage {positive} of the {pairs} pairs were positively correlated, and for \
             those the unpaired tests are conservative."
        ))));
    }
    blocks.push(Block::Table(table(select, selection)));
    blocks
}

/// `a / b` to two significant figures ("0.52").
fn ratio(a: u64, b: u64) -> String {
    crate::analysis::paired::two_significant(a as f64 / b as f64)
}

/// The report's table: a row per variant.
fn table(select: &Select, selection: &Selection) -> Table {
    let mut table = Table::new([
        ("variant", Role::Label),
        (selection.unit, Role::Count),
        ("eliminated at stage", Role::Text),
        (select.metric.as_str(), Role::Estimate),
        ("lower", Role::Lower),
        ("upper", Role::Upper),
    ]);
    for (v, row) in selection.variants.iter().enumerate() {
        let stage = match row.eliminated_at {
            Some(stage) => stage.to_string(),
            None if v == selection.chosen => "selected".to_string(),
            None => "left at the cap".to_string(),
        };
        table.row(vec![
            Cell::text(row.variant.as_str()),
            Cell::count(row.trials),
            Cell::text(stage),
            Cell::number(row.point),
            Cell::number(row.lower),
            Cell::number(row.upper),
        ]);
    }
    table
}
