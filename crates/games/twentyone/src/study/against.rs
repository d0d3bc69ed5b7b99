//! Each rule against the reference rule: which rule the comparisons table is read against,
//! the tests that involve it seen from the other rule (effects rule − reference), and the
//! reading's sentence, built from exactly those rows.

use super::{best, Ranking, Row};
use experiment_engine::analysis::Comparison;
use experiment_engine::design::PairedSummary;
use experiment_engine::report::{code, Text};
use experiment_engine::stats::{Estimate, ALPHA};

/// The rule every other is read against, and why it is the one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The row with the highest simulated ranked value: in an independent design each rule is
    /// tested against it, in a common design of every pair it is read from the pairs.
    Best(usize),
    /// The row a pilot of the common design picked (more variants than every pair allows):
    /// each rule is tested against it, whichever rule is best in the results.
    Pilot(usize),
}

impl Reference {
    /// The reference of `rows` ranked by `ranking`, whose ranked tests are `comparisons`:
    /// the pilot's pick when the paired summary compares with one variant; the best row when
    /// the paired summary keeps every pair; else the rule every test is made against (the
    /// best row by the tested estimate). None without rows.
    pub fn of(
        rows: &[Row],
        ranking: Ranking,
        comparisons: &[&Comparison],
        paired: Option<&PairedSummary>,
    ) -> Option<Self> {
        let index = |name: &str| rows.iter().position(|r| r.variant.name == name);
        match (paired.map(|p| p.against), comparisons.first()) {
            (Some(Some(pick)), _) => Some(Reference::Pilot(pick as usize)),
            (None, Some(first)) => index(&first.b).map(Reference::Best),
            _ => best(rows, ranking).map(Reference::Best),
        }
    }

    /// The reference's row.
    pub fn index(self) -> usize {
        match self {
            Reference::Best(i) | Reference::Pilot(i) => i,
        }
    }

    /// Why it is the reference, for a sentence: "the rule with the highest simulated win
    /// rate".
    pub fn why(self, what: &str) -> String {
        match self {
            Reference::Best(_) => format!("the rule with the highest simulated {what}"),
            Reference::Pilot(_) => {
                "the rule a pilot of 1,024 games on a stream of its own picked".to_string()
            }
        }
    }
}

/// The tests of the family that ranks the rules, and the rule they are read against.
#[derive(Clone, Copy)]
pub struct Ranked<'c> {
    /// The family's tests, as `comparisons.csv` holds them.
    pub comparisons: &'c [&'c Comparison],
    /// The reference (none without rows).
    pub reference: Option<Reference>,
}

/// One rule against the reference: the test of the pair, seen from the rule.
pub struct Against<'c> {
    /// The rule.
    pub rule: &'c str,
    /// The reference rule.
    pub reference: &'c str,
    /// The difference rule − reference, with its 95% interval.
    pub effect: Estimate,
    /// The test as `comparisons.csv` holds it (in its own order of the pair).
    pub comparison: &'c Comparison,
}

impl Against<'_> {
    /// Whether the difference is significant after Holm's correction.
    pub fn significant(&self) -> bool {
        self.comparison.p_holm < ALPHA
    }
}

/// The tests of `comparisons` that involve `reference`, each seen from the other rule, in the
/// order of `comparisons`.
pub fn against<'c>(comparisons: &[&'c Comparison], reference: &'c str) -> Vec<Against<'c>> {
    comparisons
        .iter()
        .filter(|c| c.a == reference || c.b == reference)
        .filter_map(|&c| {
            let rule = c.other(reference);
            Some(Against {
                rule,
                reference,
                effect: c.effect_for(rule)?,
                comparison: c,
            })
        })
        .collect()
}

/// The reading's sentence on `against` (the rows of the comparisons table): how many rules
/// are significantly below and above the reference, and which cannot be told from it (how
/// many, in a run of more rules than a report shows in full).
pub fn sentence(against: &[Against], reference: Reference, ranking: Ranking) -> Text {
    let lead = Text::new().strong("Against the reference.");
    let Some(first) = against.first() else {
        return lead.plain(" Only one rule ran: there is nothing to compare.");
    };
    let what = match ranking {
        Ranking::WinRate => "win rate",
        Ranking::MeanPayoff => "mean payoff per game",
    };
    let (less, more) = match ranking {
        Ranking::WinRate => ("win significantly less often", "significantly more often"),
        Ranking::MeanPayoff => ("pay significantly less per game", "significantly more"),
    };
    let below = against
        .iter()
        .filter(|a| a.significant() && a.effect.point < 0.0)
        .count();
    let above = against
        .iter()
        .filter(|a| a.significant() && a.effect.point > 0.0)
        .count();
    let tied: Vec<&Against> = against.iter().filter(|a| !a.significant()).collect();
    let mut out = lead
        .plain(" Each rule's ")
        .plain(what)
        .plain(" against that of ")
        .code(first.reference)
        .plain(format!(
            " ({}), as the table below compares them: {below} of {} other rules {less} \
             than it and {above} {more} (Holm-adjusted p < {ALPHA}). ",
            reference.why(what),
            against.len(),
        ));
    out = if tied.is_empty() {
        out.plain("None is statistically indistinguishable from it.")
    } else if against.len() >= experiment_engine::report::subset::REPORT_VARIANTS {
        // A run of many rules: the report shows some of them, so the count, not the names.
        out.plain(format!(
            "{} rules are not distinguishable from it at this sample size (every test is in the \
             comparisons table).",
            tied.len()
        ))
    } else {
        out.plain("Not distinguishable from it at this sample size: ")
            .append(Text::join(tied, ", ", |a| code(a.rule)))
            .plain(".")
    };
    out
}
