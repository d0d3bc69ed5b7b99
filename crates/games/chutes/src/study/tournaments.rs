//! The run's pairings grouped into tournaments: the variants that agree on every parameter but
//! `first` and `second` play one tournament, with its own solver, payoff matrix and standings.
//!
//! A spec that sweeps only `first` and `second` has one tournament and its tables and report
//! are exactly those of a single round robin; one that also sweeps `double_at`, `max_cube` or
//! any other parameter has one tournament per setting, named by the settings that tell them
//! apart (`double_at-0.5`), and the analysis compares within and across them.

use anyhow::Result;

use super::params::{pairing_params, ChutesParams};
use experiment_engine::frame::{Role, TableBuilder};
use experiment_engine::params::{ParamValue, Params, Used};
use experiment_engine::spec::{name_piece, Variant};

/// The parameters that choose a pairing within a tournament.
const PAIRING_KEYS: [&str; 2] = ["first", "second"];

/// One tournament: the variants that share every setting but the two strategies.
pub(super) struct Tournament {
    /// Its name in tables and the report (`double_at-0.5`); empty when the run has only one.
    pub(super) label: String,
    /// The values of the settings that tell the run's tournaments apart, in declared order
    /// (none when the run has only one tournament).
    pub(super) keys: Settings,
    /// The settings its pairings share (with the strategies of its first pairing).
    pub(super) settings: ChutesParams,
    /// Its pairings, as indices into the experiment's variants, in variant order.
    pub(super) variants: Vec<usize>,
}

/// Settings by name, in declared order.
type Settings = Vec<(&'static str, ParamValue)>;

/// The settings that place a variant in its tournament: every parameter but the strategies.
fn settings_of(variant: &Variant) -> Settings {
    variant
        .params
        .iter()
        .filter(|(name, _)| !PAIRING_KEYS.contains(name))
        .map(|(name, value)| (name, value.clone()))
        .collect()
}

/// The tournaments of `variants`, in the order their first pairing appears.
pub(super) fn tournaments(variants: &[Variant]) -> Result<Vec<Tournament>> {
    let mut groups: Vec<(Settings, Vec<usize>)> = Vec::new();
    for (index, variant) in variants.iter().enumerate() {
        let settings = settings_of(variant);
        match groups.iter_mut().find(|(s, _)| *s == settings) {
            Some((_, members)) => members.push(index),
            None => groups.push((settings, vec![index])),
        }
    }
    // The settings whose value is not the same in every tournament.
    let varying: Vec<&'static str> = groups.first().map_or_else(Vec::new, |(first, _)| {
        first
            .iter()
            .filter(|(name, value)| {
                groups.iter().any(|(settings, _)| {
                    settings
                        .iter()
                        .any(|(other, v)| other == name && v != value)
                })
            })
            .map(|(name, _)| *name)
            .collect()
    });
    groups
        .into_iter()
        .map(|(settings, members)| {
            let keys: Settings = settings
                .into_iter()
                .filter(|(name, _)| varying.contains(name))
                .collect();
            let label = keys
                .iter()
                .map(|(key, value)| name_piece(key, value))
                .collect::<Vec<_>>()
                .join("-");
            Ok(Tournament {
                label,
                keys,
                settings: pairing_params(&variants[members[0]])?,
                variants: members,
            })
        })
        .collect()
}

impl Tournament {
    /// The names of the settings that tell the run's tournaments apart, in declared order.
    pub(super) fn key_names(&self) -> Vec<&'static str> {
        self.keys.iter().map(|(name, _)| *name).collect()
    }
}

/// Whether `strategy` reads setting `key`, as the parameters declare: the thresholds only
/// `threshold` does; every other setting (the cube cap, the board's rules) shapes every pairing.
pub(super) fn reads(strategy: &str, key: &str) -> bool {
    ChutesParams::DECLARED
        .iter()
        .find(|def| def.name == key)
        .is_none_or(|def| match def.used {
            Used::Always => true,
            Used::When(conditions) => conditions
                .iter()
                .any(|(on, choices)| PAIRING_KEYS.contains(on) && choices.contains(&strategy)),
        })
}

/// Columns `tournament` and one per setting that tells the tournaments apart (except those
/// in `skip`, which the table has already), for rows belonging to `rows` in turn.
pub(super) fn tournament_columns(rows: &[&Tournament], skip: &[&str]) -> TableBuilder {
    let keys = rows.first().map_or_else(Vec::new, |t| t.key_names());
    let mut builder = TableBuilder::new()
        .text("tournament", rows.iter().map(|t| t.label.as_str()))
        .role(Role::Parameter);
    for (i, key) in keys.iter().enumerate() {
        if skip.contains(key) {
            continue;
        }
        let values = rows.iter().map(|t| &t.keys[i].1);
        builder = match rows.first().map(|t| &t.keys[i].1) {
            Some(ParamValue::Int(_)) => builder.int(
                key,
                values.map(|v| match v {
                    ParamValue::Int(n) => *n,
                    _ => 0,
                }),
            ),
            Some(ParamValue::Float(_)) => builder.real(
                key,
                values.map(|v| match v {
                    ParamValue::Float(x) => *x,
                    _ => f64::NAN,
                }),
            ),
            _ => builder.text(key, values.map(|v| v.to_string())),
        }
        .role(Role::Parameter);
    }
    builder
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_threshold_strategies_read_the_thresholds_and_every_strategy_the_cap() {
        for key in ["double_at", "take_at"] {
            assert!(reads("threshold", key));
            for other in ["never", "always", "cautious", "optimal"] {
                assert!(!reads(other, key), "{other} reads {key}");
            }
        }
        assert!(["never", "threshold", "optimal"]
            .iter()
            .all(|s| reads(s, "max_cube")));
        assert!(reads("take_only", "take_at") && !reads("take_only", "double_at"));
        for (key, readers) in [
            ("first_double_at", &["threshold"][..]),
            ("first_take_at", &["threshold", "take_only"][..]),
            ("second_double_at", &["threshold"][..]),
            ("second_take_at", &["threshold", "take_only"][..]),
        ] {
            for strategy in [
                "never",
                "always",
                "cautious",
                "threshold",
                "optimal",
                "take_only",
            ] {
                assert_eq!(
                    reads(strategy, key),
                    readers.contains(&strategy),
                    "{strategy} {key}"
                );
            }
        }
    }
}
