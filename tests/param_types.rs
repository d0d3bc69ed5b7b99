//! Typed parameters through the spec layer, with a toy game declared here as a library user
//! would: booleans, strings, lists, tables and either-or kinds, located messages, rules that
//! stay out of a variant's identity at their default, and parameters a variant does not read.

use std::path::Path;

use experiment_engine::params::{GameParams, ParamDef, ParamKind, ParamSchema, Params, Schema};
use experiment_engine::spec::{self, Experiment};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, strum::VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
enum Style {
    Steady,
    Bold,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, strum::VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
enum BoardName {
    Classic,
    Short,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Board {
    Named(BoardName),
    Jumps(Vec<(u8, u8)>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Limits {
    low: u8,
    high: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Toy {
    style: Style,
    boldness: f64,
    board: Board,
    fast: bool,
    label: String,
    limits: Limits,
}

impl Default for Toy {
    fn default() -> Self {
        Toy {
            style: Style::Steady,
            boldness: 0.5,
            board: Board::Named(BoardName::Classic),
            fast: false,
            label: String::new(),
            limits: Limits { low: 1, high: 9 },
        }
    }
}

const PAIR: ParamKind = ParamKind::List {
    item: &ParamKind::Int { min: 1, max: 99 },
    min_len: 2,
    max_len: 2,
};

impl Params for Toy {
    const DECLARED: &'static [ParamDef] = &[
        ParamDef::new(
            "style",
            ParamKind::Choice(<Style as strum::VariantNames>::VARIANTS),
            "how to play",
        ),
        ParamDef::new(
            "boldness",
            ParamKind::Float { min: 0.0, max: 1.0 },
            "bold style's nerve",
        )
        .used_when(&[("style", &["bold"])]),
        ParamDef::new(
            "board",
            ParamKind::OneOf(&[
                ParamKind::Choice(<BoardName as strum::VariantNames>::VARIANTS),
                ParamKind::List {
                    item: &PAIR,
                    min_len: 0,
                    max_len: 20,
                },
            ]),
            "a named board or a list of [from, to] jumps",
        )
        .rule(),
        ParamDef::new("fast", ParamKind::Bool, "fast play").rule(),
        ParamDef::new("label", ParamKind::Text { max_len: 8 }, "a label").rule(),
        ParamDef::new(
            "limits",
            ParamKind::Table(&[
                ParamDef::new("low", ParamKind::Int { min: 0, max: 9 }, "low"),
                ParamDef::new("high", ParamKind::Int { min: 0, max: 9 }, "high"),
            ]),
            "the limits",
        )
        .rule(),
    ];
}

struct ToyGame;

impl GameParams for ToyGame {
    fn game(&self) -> &'static str {
        "toy"
    }
    fn params(&self) -> &'static dyn ParamSchema {
        &Schema::<Toy>::NEW
    }
}

fn parse(body: &str) -> Result<Experiment, String> {
    let text = format!("version = 1\nname = \"t\"\ngame = \"toy\"\nseed = 1\ntrials = 10\n{body}");
    spec::parse(Path::new("toy.toml"), &text, &[&ToyGame]).map_err(|error| error.to_string())
}

fn typed(experiment: &Experiment, index: usize) -> Toy {
    experiment.variants[index]
        .params
        .typed()
        .expect("typed parameters")
}

#[test]
fn lists_tables_booleans_and_strings_reach_the_typed_struct() {
    let experiment = parse(
        "[params]\nboard = [[3, 9], [8, 2]]\nfast = true\nlabel = \"mine\"\n\
         limits = { low = 2, high = 7 }\n",
    )
    .expect("valid");
    let toy = typed(&experiment, 0);
    assert_eq!(toy.board, Board::Jumps(vec![(3, 9), (8, 2)]));
    assert!(toy.fast);
    assert_eq!(toy.label, "mine");
    assert_eq!(toy.limits, Limits { low: 2, high: 7 });
    let named = parse("[params]\nboard = \"short\"\n").expect("valid");
    assert_eq!(typed(&named, 0).board, Board::Named(BoardName::Short));
}

#[test]
fn wrong_values_are_located_and_say_what_is_expected() {
    let cases = [
        (
            "[params]\nboard = [[3, 9], [8, 200]]\n",
            "toy.toml:7:",
            "board[1][1] = 200 is out of range (expected a whole number from 1 to 99)",
        ),
        (
            "[params]\nboard = \"long\"\n",
            "toy.toml:7:",
            "unknown board 'long' (expected one of: classic, short)",
        ),
        (
            "[params]\nfast = \"yes\"\n",
            "toy.toml:7:",
            "fast must be true or false, not the string 'yes'",
        ),
        (
            "[params]\nlimits = { low = 2 }\n",
            "toy.toml:7:",
            "limits is missing its key 'high'",
        ),
        (
            "[params]\nlabel = \"much too long\"\n",
            "toy.toml:7:",
            "label is longer than 8 characters",
        ),
        (
            "[sweep]\nfast = { from = 0, to = 1, step = 1 }\n",
            "toy.toml:7:",
            "'fast' takes true or false, not a range of numbers",
        ),
    ];
    for (body, line, expected) in cases {
        let message = parse(body).expect_err(body);
        assert!(message.contains(line), "{body}: {message}");
        assert!(message.contains(expected), "{body}: {message}");
    }
}

#[test]
fn a_rule_at_its_default_leaves_the_identity_and_the_name_unchanged() {
    let plain = parse("[sweep]\nstyle = [\"steady\", \"bold\"]\n").expect("valid");
    let written = parse(
        "[params]\nfast = false\nboard = \"classic\"\n[sweep]\nstyle = [\"steady\", \"bold\"]\n",
    )
    .expect("valid");
    let changed =
        parse("[params]\nfast = true\n[sweep]\nstyle = [\"steady\", \"bold\"]\n").expect("valid");
    for index in 0..2 {
        assert_eq!(plain.variants[index].stream, written.variants[index].stream);
        assert_ne!(plain.variants[index].stream, changed.variants[index].stream);
    }
    assert_eq!(
        plain.variants[0].params.canonical(),
        "boldness=0.5\nstyle=steady"
    );
    assert_eq!(
        changed.variants[0].params.canonical(),
        "boldness=0.5\nfast=true\nstyle=steady"
    );
    let rules: Vec<String> = changed.variants[0]
        .params
        .changed_rules()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    assert_eq!(rules, ["fast=true"]);
}

#[test]
fn swept_lists_and_booleans_name_their_variants_with_the_key() {
    let experiment =
        parse("[sweep]\nfast = [false, true]\nboard = [\"short\", [[3, 9], [8, 2]]]\n")
            .expect("valid");
    let names: Vec<&str> = experiment
        .variants
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "fast-false-short",
            "fast-false-board-3_9_8_2",
            "fast-true-short",
            "fast-true-board-3_9_8_2"
        ]
    );
}

#[test]
fn a_parameter_a_variant_does_not_read_is_refused_where_it_is_set() {
    let message = parse("[sweep]\nstyle = [\"steady\", \"bold\"]\nboldness = [0.2, 0.8]\n")
        .expect_err("steady ignores boldness");
    assert!(message.contains("toy.toml:8:"), "{message}");
    assert!(
        message.contains(
            "variant 'steady-boldness-0.2' sets boldness, which game 'toy' reads only when \
             style is bold (here style = steady)"
        ),
        "{message}"
    );
    let message = parse("[params]\nboldness = 0.3\n").expect_err("no variant reads it");
    assert!(
        message.contains("boldness is set in [params], but no variant reads it"),
        "{message}"
    );
    // Read by some variant: [params] may set it for all.
    parse("[params]\nboldness = 0.3\n[sweep]\nstyle = [\"steady\", \"bold\"]\n").expect("valid");
    // Swept in its own block with the setting that reads it.
    parse(
        "[[sweep]]\nstyle = [\"steady\"]\n[[sweep]]\nstyle = [\"bold\"]\nboldness = [0.2, 0.8]\n",
    )
    .expect("valid");
    let message = parse("[[variant]]\nstyle = \"steady\"\nboldness = 0.4\n").expect_err("variant");
    assert!(message.contains("toy.toml:8:"), "{message}");
}
