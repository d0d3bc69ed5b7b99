//! The report of a ladder (`report.md` and `report.html`): both questions answered in plain
//! words with the numbers, as report blocks.

use anyhow::Result;

use crate::commands::thousands;
use crate::frame::{format_number, Role, TableBuilder};
use crate::report::{code, Block, Table, Text};
use crate::runner::DEFAULT_CHUNK_SIZE;

use super::findings::Findings;
use super::{Ladder, ALPHA, DEFAULT_TOP, MIN_TEST_TRIALS, SPREAD_AT};

/// A duration in the unit that suits it.
pub(super) fn duration(seconds: f64) -> String {
    let magnitude = seconds.abs();
    if !seconds.is_finite() {
        "–".to_string()
    } else if magnitude >= 2.0 * 86_400.0 {
        format!("{:.1} days", seconds / 86_400.0)
    } else if magnitude >= 2.0 * 3_600.0 {
        format!("{:.1} h", seconds / 3_600.0)
    } else if magnitude >= 120.0 {
        format!("{:.1} min", seconds / 60.0)
    } else if magnitude >= 1.0 {
        format!("{seconds:.2} s")
    } else if magnitude >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else if magnitude >= 1e-6 {
        format!("{:.2} µs", seconds * 1e6)
    } else {
        format!("{:.1} ns", seconds * 1e9)
    }
}

/// The ladder's report: its facts, then both questions answered.
pub(super) fn blocks(run: &Ladder, findings: &Findings) -> Result<Vec<Block>> {
    let experiment = run.experiment;
    let ladder: Vec<String> = run.ladder.iter().map(|&n| thousands(n)).collect();
    let small = run.ladder.iter().filter(|&&n| n <= SPREAD_AT).count();
    let mut facts = vec![
        Text::new()
            .plain("game: ")
            .code(experiment.study.game())
            .plain(format!("; headline metric: {} (", run.label))
            .code(run.metric)
            .plain(")"),
        Text::new()
            .plain("variants: ")
            .append(Text::join(&experiment.variants, ", ", |v| {
                code(v.name.as_str())
            })),
        Text::new().plain(format!(
            "ladder: {} trials per variant ({} counts, {small} of them from 1 to 1,000), each \
             run {} times",
            ladder.join(", "),
            run.ladder.len(),
            run.repeats,
        )),
        Text::new()
            .plain(format!(
                "seeds: repeat 1 plays the spec's seed {} (so its rows are what ",
                experiment.seed
            ))
            .code("experiment run --trials N")
            .plain(" gives); repeat r plays the seed in the ")
            .code("seed")
            .plain(" column, derived from it"),
        Text::new().plain(format!("threads: {}", run.threads)),
        Text::new().plain("reproduce: ").code(run.command.as_str()),
    ];
    if run.capped {
        facts.push(
            Text::new()
                .plain(format!(
                    "the default ladder stops at {} trials, below the spec's {}, so that the \
                     whole default War ladder (about 5.7 million games, some 45 s of CPU time) \
                     finishes in under a minute on two otherwise idle cores; ",
                    thousands(DEFAULT_TOP),
                    thousands(experiment.trials)
                ))
                .code("--max-trials")
                .plain(" moves the top"),
        );
    }
    facts.push(Text::new().plain(format!(
        "whole ladder: {} of wall time, start-up included",
        duration(run.elapsed)
    )));
    facts.push(Text::new().plain(format!(
        "start-up: {} (reading the spec, starting the worker threads and the study's one-off \
         preparation, such as an exact solver a strategy plays from), measured once and \
         included in no row",
        duration(run.startup)
    )));
    let mut out = vec![
        Block::heading(
            1,
            format!(
                "{}: running time and results against the number of trials",
                experiment.name
            ),
        ),
        Block::paragraph(experiment.description.as_str()),
        Block::List(facts),
    ];
    out.extend(running_time_section(run, findings)?);
    out.extend(results_section(run, findings)?);
    Ok(out)
}

pub(super) fn running_time_section(run: &Ladder, findings: &Findings) -> Result<Vec<Block>> {
    let fit = findings.time;
    let variants = run.experiment.variants.len() as f64;
    let spec_trials = run.experiment.trials as f64;
    let shape = if fit.r_squared >= 0.99 {
        "linear in the number of trials"
    } else {
        "close to linear in the number of trials, with noticeable timing noise"
    };
    let (a, b) = (duration(fit.intercept), duration(fit.slope));
    let intercept_note = if fit.intercept < 0.0 {
        " (a negative intercept: the fixed cost is too small to separate from the timing \
         noise of the largest runs)"
    } else {
        ""
    };
    let mut out = vec![
        Block::heading(2, "Running time against trials"),
        Block::figure("running_time", "Running time against trials"),
        Block::paragraph(
            Text::new()
                .plain(format!(
                    "Running time is {shape}: the least-squares line through the mean wall time \
                     of a variant's run at each of the {} (count, repeat) steps is ",
                    fit.points
                ))
                .strong(format!("seconds = {a} + {b} × trials"))
                .plain(format!(
                    " (R² = {r2:.4}): {b} per trial, about {rate} trials per second on \
                     {threads} threads, plus a fixed {a} per run{intercept_note}. At the spec's \
                     {spec} trials that predicts {one} per variant and {all} for all {variants} \
                     variants. Variants differ in cost per trial (the table at the end of this \
                     report gives each one's own slope), which is the spread of the points at \
                     each count.",
                    r2 = fit.r_squared,
                    rate = thousands((1.0 / fit.slope).round() as u64),
                    threads = run.threads,
                    spec = thousands(run.experiment.trials),
                    one = duration(fit.intercept + fit.slope * spec_trials),
                    all = duration(variants * (fit.intercept + fit.slope * spec_trials)),
                )),
        ),
    ];
    if run.ladder.iter().any(|&n| n < DEFAULT_CHUNK_SIZE) && run.threads > 1 {
        out.push(Block::paragraph(format!(
            "Runs of fewer than {} trials are one chunk of work and use one thread, so their cost \
             per trial is higher than the slope, which the largest runs determine.",
            thousands(DEFAULT_CHUNK_SIZE)
        )));
    }
    let mut trials = Vec::new();
    let (mut median, mut per_trial, mut low, mut high, mut predicted) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for &n in &run.ladder {
        let mut seconds: Vec<f64> = run
            .rows
            .iter()
            .filter(|r| r.trials == n)
            .map(|r| r.seconds)
            .collect();
        seconds.sort_by(f64::total_cmp);
        let middle = seconds[seconds.len() / 2];
        trials.push(n);
        median.push(middle);
        per_trial.push(middle / n as f64 * 1e6);
        low.push(seconds[0]);
        high.push(seconds[seconds.len() - 1]);
        predicted.push(fit.intercept + fit.slope * n as f64);
    }
    let table = TableBuilder::new()
        .count("trials", trials)
        .real("median_seconds", median)
        .real("min_seconds", low)
        .real("max_seconds", high)
        .real("fitted_seconds", predicted)
        .real("median_us_per_trial", per_trial)
        .named("running_time")?;
    out.push(Block::paragraph(
        "Wall time of the runs at each count, over variants and repeats:",
    ));
    out.push(Block::Table(Table::from_named(&table)));
    Ok(out)
}

pub(super) fn results_section(run: &Ladder, findings: &Findings) -> Result<Vec<Block>> {
    let width = findings.width;
    let mut out = vec![
        Block::heading(2, "Results against trials"),
        Block::figure("convergence", "Headline estimate against trials"),
        Block::paragraph(format!(
            "Each panel shows every repeat's estimate of {} with its 95% interval, the pooled \
             estimate of the repeats at the top of the ladder (dashed) and the envelope \
             c/√trials around it, c fitted at the top.",
            run.label
        )),
    ];
    let mut items = vec![Text::new()
        .strong("How results vary with the number of trials.")
        .plain(" The 95% interval's half-width falls as ")
        .strong(format!("trials^{:.3}", width.slope))
        .plain(format!(
            " (standard error {:.3}; fitted on log–log axes within each variant over the counts \
             from {}; sampling theory says -0.5): a hundred times more trials make the interval \
             ten times narrower.",
            width.slope_se,
            thousands(findings.width_from),
        ))];
    if let Some(n) = findings.spread_at {
        let (worst, spread, reference) = findings
            .variants
            .iter()
            .enumerate()
            .filter(|(_, f)| f.spread.is_finite())
            .max_by(|a, b| a.1.spread.total_cmp(&b.1.spread))
            .map_or((String::from("–"), f64::NAN, f64::NAN), |(v, f)| {
                (run.variant_name(v).to_string(), f.spread, f.reference)
            });
        items.push(
            Text::new()
                .strong("Spread of repeats.")
                .plain(format!(
                    " At {} trials the {} repeats of a variant differ from their pooled \
                     estimate by up to ±{} (",
                    thousands(n),
                    run.repeats,
                    format_number(spread),
                ))
                .code(worst)
                .plain(format!(
                    ", {:.1}% of its estimate of {}); the per-variant spread is in the table \
                     below.",
                    100.0 * spread / reference.abs(),
                    format_number(reference),
                )),
        );
    }
    let agreeing = findings.tests.iter().filter(|t| t.p >= ALPHA).count();
    let consistent = Text::new().strong("Are repeats consistent?");
    if findings.tests.is_empty() {
        items.push(consistent.plain(
            " Not testable here: it needs at least two repeats with usable standard errors.",
        ));
        out.push(Block::List(items));
    } else {
        items.push(consistent.plain(format!(
            " Cochran's Q (each repeat against the repeats' inverse-variance pooled estimate, \
             chi-square with repeats - 1 degrees of freedom, summed over variants) finds them \
             consistent at α = {ALPHA} at {agreeing} of {} tested counts; with consistent \
             repeats about 1 count in 20 is flagged by chance. Counts below {MIN_TEST_TRIALS} \
             trials are not tested (the standard errors the test weighs repeats by are \
             themselves too rough there), nor are variants whose estimate has no usable \
             standard error at a count (no finished game, a share of 0 or 1).",
            findings.tests.len()
        )));
        out.push(Block::List(items));
        let tests = &findings.tests;
        let table = TableBuilder::new()
            .count("trials", tests.iter().map(|t| t.trials))
            .count("variants_tested", tests.iter().map(|t| t.variants as u64))
            .real("q", tests.iter().map(|t| t.q))
            .real("df", tests.iter().map(|t| t.df))
            .real("p_value", tests.iter().map(|t| t.p))
            .role(Role::PValue)
            .text(
                "consistent",
                tests
                    .iter()
                    .map(|t| if t.p >= ALPHA { "yes" } else { "no" }),
            )
            .named("consistency")?;
        out.push(Block::Table(Table::from_named(&table)));
    }
    let variants = &findings.variants;
    let count = variants.len();
    let table = TableBuilder::new()
        .text("variant", (0..count).map(|v| run.variant_name(v)))
        .role(Role::Label)
        .real(
            &format!("pooled_at_{}", run.top()),
            variants.iter().map(|f| f.reference),
        )
        .real(
            &format!("spread_at_{}", findings.spread_at.unwrap_or(0)),
            variants.iter().map(|f| f.spread),
        )
        .real(
            "half_width_exponent",
            variants.iter().map(|f| f.width.slope),
        )
        .real("us_per_trial", variants.iter().map(|f| f.time.slope * 1e6))
        .named("per_variant")?;
    out.push(Block::paragraph("Per variant:"));
    out.push(Block::Table(Table::from_named(&table)));
    out.push(Block::paragraph(
        Text::new()
            .plain("Every run is a row of ")
            .code("scaling.csv")
            .plain("."),
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_written_in_a_fitting_unit() {
        assert_eq!(duration(0.0008), "800.00 µs");
        assert_eq!(duration(4.3e-6), "4.30 µs");
        assert_eq!(duration(2.5), "2.50 s");
        assert_eq!(duration(119.0), "119.00 s");
        assert_eq!(duration(600.0), "10.0 min");
        assert_eq!(duration(3.0 * 3_600.0), "3.0 h");
        assert_eq!(duration(5.0 * 86_400.0), "5.0 days");
        assert_eq!(duration(0.0123), "12.30 ms");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
