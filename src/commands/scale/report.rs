//! `report.md` of a ladder: both questions answered in plain words with the numbers.

use anyhow::Result;

use crate::commands::thousands;
use crate::frame::{format_number, TableBuilder};
use crate::report::markdown::to_markdown;
use crate::runner::DEFAULT_CHUNK_SIZE;

use super::findings::Findings;
use super::{Ladder, ALPHA, DEFAULT_TOP, MIN_TEST_TRIALS, SPREAD_AT};

/// A duration in the unit that suits it.
pub(super) fn duration(seconds: f64) -> String {
    let magnitude = seconds.abs();
    if !seconds.is_finite() {
        "–".to_string()
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

pub(super) fn report(run: &Ladder, findings: &Findings) -> Result<String> {
    let experiment = run.experiment;
    let variants: Vec<String> = experiment
        .variants
        .iter()
        .map(|v| format!("`{}`", v.name))
        .collect();
    let ladder: Vec<String> = run.ladder.iter().map(|&n| thousands(n)).collect();
    let small = run.ladder.iter().filter(|&&n| n <= SPREAD_AT).count();
    let mut out = format!(
        "# {name}: running time and results against the number of trials\n\n{description}\n\n\
         - game: `{game}`; headline metric: {label} (`{metric}`)\n\
         - variants: {variants}\n\
         - ladder: {ladder} trials per variant ({count} counts, {small} of them from 1 to \
         1,000), each run {repeats} times\n\
         - seeds: repeat 1 plays the spec's seed {seed} (so its rows are what `experiment run \
         --trials N` gives); repeat r plays the seed in the `seed` column, derived from it\n\
         - threads: {threads}\n\
         - reproduce: {command}\n",
        name = experiment.name,
        description = experiment.description,
        game = experiment.study.game(),
        label = run.label,
        metric = run.metric,
        variants = variants.join(", "),
        ladder = ladder.join(", "),
        count = run.ladder.len(),
        repeats = run.repeats,
        seed = experiment.seed,
        threads = run.threads,
        command = crate::commands::code_span(&run.command),
    );
    if run.capped {
        out.push_str(&format!(
            "- the default ladder stops at {} trials, below the spec's {}, so that the whole \
             default War ladder (about 5.7 million games, some 45 s of CPU time) finishes in \
             under a minute on two otherwise idle cores; `--max-trials` moves the top\n",
            thousands(DEFAULT_TOP),
            thousands(experiment.trials)
        ));
    }
    out.push_str(&format!(
        "- whole ladder: {} of wall time, start-up included\n",
        duration(run.elapsed)
    ));
    out.push_str(&format!(
        "- start-up: {} (reading the spec, starting the worker threads and the study's one-off \
         preparation, such as an exact solver a strategy plays from), measured once and \
         included in no row\n\n",
        duration(run.startup)
    ));
    out.push_str(&running_time_section(run, findings)?);
    out.push_str(&results_section(run, findings)?);
    Ok(out)
}

pub(super) fn running_time_section(run: &Ladder, findings: &Findings) -> Result<String> {
    let fit = findings.time;
    let variants = run.experiment.variants.len() as f64;
    let spec_trials = run.experiment.trials as f64;
    let shape = if fit.r_squared >= 0.99 {
        "linear in the number of trials"
    } else {
        "close to linear in the number of trials, with noticeable timing noise"
    };
    let mut out = format!(
        "## Running time against trials\n\n\
         ![Running time against trials](running_time.png)\n\n\
         Running time is {shape}: the least-squares line through the mean wall time of a \
         variant's run at each of the {points} (count, repeat) steps is \
         **seconds = {a} + {b} × trials** (R² = {r2:.4}): {b} per trial, about {rate} trials \
         per second on {threads} threads, plus a fixed {a} per run{intercept_note}. At the \
         spec's {spec} trials that predicts {one} per variant and {all} for all {count} \
         variants. Variants differ in cost per trial (the table at the end of this report \
         gives each one's own slope), which is the spread of the points at each count.\n\n",
        intercept_note = if fit.intercept < 0.0 {
            " (a negative intercept: the fixed cost is too small to separate from the timing \
             noise of the largest runs)"
        } else {
            ""
        },
        points = fit.points,
        a = duration(fit.intercept),
        b = duration(fit.slope),
        r2 = fit.r_squared,
        rate = thousands((1.0 / fit.slope).round() as u64),
        threads = run.threads,
        spec = thousands(run.experiment.trials),
        one = duration(fit.intercept + fit.slope * spec_trials),
        all = duration(variants * (fit.intercept + fit.slope * spec_trials)),
        count = variants,
    );
    if run.ladder.iter().any(|&n| n < DEFAULT_CHUNK_SIZE) && run.threads > 1 {
        out.push_str(&format!(
            "Runs of fewer than {} trials are one chunk of work and use one thread, so their cost \
             per trial is higher than the slope, which the largest runs determine.\n\n",
            thousands(DEFAULT_CHUNK_SIZE)
        ));
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
        .build()?;
    out.push_str("Wall time of the runs at each count, over variants and repeats:\n\n");
    out.push_str(&to_markdown(&table));
    out.push('\n');
    Ok(out)
}

pub(super) fn results_section(run: &Ladder, findings: &Findings) -> Result<String> {
    let width = findings.width;
    let mut out = format!(
        "## Results against trials\n\n\
         ![Headline estimate against trials](convergence.png)\n\n\
         Each panel shows every repeat's estimate of {label} with its 95% interval, the pooled \
         estimate of the repeats at the top of the ladder (dashed) and the envelope c/√trials \
         around it, c fitted at the top.\n\n\
         - **How results vary with the number of trials.** The 95% interval's half-width falls \
         as **trials^{k:.3}** (standard error {se:.3}; fitted on log–log axes within each \
         variant over the counts from {from}; sampling theory says -0.5): a hundred times more \
         trials make the interval ten times narrower.\n",
        label = run.label,
        k = width.slope,
        se = width.slope_se,
        from = thousands(findings.width_from),
    );
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
        out.push_str(&format!(
            "- **Spread of repeats.** At {} trials the {} repeats of a variant differ from their \
             pooled estimate by up to ±{} (`{worst}`, {:.1}% of its estimate of {}); the \
             per-variant spread is in the table below.\n",
            thousands(n),
            run.repeats,
            format_number(spread),
            100.0 * spread / reference.abs(),
            format_number(reference),
        ));
    }
    let agreeing = findings.tests.iter().filter(|t| t.p >= ALPHA).count();
    if findings.tests.is_empty() {
        out.push_str(
            "- **Are repeats consistent?** Not testable here: it needs at least two repeats \
             with usable standard errors.\n",
        );
    } else {
        out.push_str(&format!(
            "- **Are repeats consistent?** Cochran's Q (each repeat against the repeats' \
             inverse-variance pooled estimate, chi-square with repeats - 1 degrees of freedom, \
             summed over variants) finds them consistent at α = {ALPHA} at {agreeing} of {} \
             tested counts; with consistent repeats about 1 count in 20 is flagged by chance. \
             Counts below {MIN_TEST_TRIALS} trials are not tested (the standard errors the test \
             weighs repeats by are themselves too rough there), nor are variants whose estimate \
             has no usable standard error at a count (no finished game, a share of 0 or 1).\n\n",
            findings.tests.len()
        ));
        let tests = &findings.tests;
        let table = TableBuilder::new()
            .count("trials", tests.iter().map(|t| t.trials))
            .count("variants_tested", tests.iter().map(|t| t.variants as u64))
            .real("q", tests.iter().map(|t| t.q))
            .real("df", tests.iter().map(|t| t.df))
            .real("p_value", tests.iter().map(|t| t.p))
            .text(
                "consistent",
                tests
                    .iter()
                    .map(|t| if t.p >= ALPHA { "yes" } else { "no" }),
            )
            .build()?;
        out.push_str(&to_markdown(&table));
        out.push('\n');
    }
    let variants = &findings.variants;
    let count = variants.len();
    let table = TableBuilder::new()
        .text("variant", (0..count).map(|v| run.variant_name(v)))
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
        .build()?;
    out.push_str("\nPer variant:\n\n");
    out.push_str(&to_markdown(&table));
    out.push_str("\nEvery run is a row of `scaling.csv`.\n");
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
        assert_eq!(duration(0.0123), "12.30 ms");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
