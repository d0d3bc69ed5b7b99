//! Hostile and odd spec inputs: random bytes and mutated specs never panic or hang, size limits
//! answer at once, and a variant's numbers do not depend on where it stands in a spec.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use experiment_engine::params::GameParams;
use experiment_engine::spec;
use proptest::prelude::*;

fn experiment() -> Command {
    Command::cargo_bin("experiment").expect("the binary is built")
}

/// Validates `bytes` as the spec `path`, checking it answers within a second and that any
/// error names the file.
fn check_answer(path: &Path, bytes: &[u8], games: &[&'static dyn GameParams]) {
    let started = Instant::now();
    let answer = spec::parse_bytes(path, bytes, games);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "took {took:?}");
    if let Err(error) = answer {
        let text = error.to_string();
        assert!(
            text.starts_with(&path.display().to_string()),
            "the error does not name the file: {text}"
        );
    }
}

/// Every shipped spec (`experiments/*.toml`), however many there are.
fn shipped_specs() -> Vec<Vec<u8>> {
    let mut specs: Vec<Vec<u8>> = fs::read_dir("experiments")
        .expect("experiments/")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .map(|path| fs::read(path).expect("readable spec"))
        .collect();
    specs.sort();
    assert!(!specs.is_empty(), "no spec in experiments/");
    specs
}

/// One edit of a spec's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    /// Deletes `len` bytes at `at` (a fraction of the length).
    Delete { at: f64, len: usize },
    /// Inserts bytes at `at`.
    Insert { at: f64, bytes: Vec<u8> },
    /// Inserts a TOML-ish token at `at`.
    Token { at: f64, token: &'static str },
    /// Repeats the line at `at` `times` times.
    RepeatLine { at: f64, times: usize },
    /// Cuts the text at `at`.
    Truncate { at: f64 },
}

const TOKENS: &[&str] = &[
    "=",
    "[",
    "]",
    "[[variant]]",
    "[sweep]",
    "[params]",
    "\"",
    "\n",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999",
    "-1",
    "0",
    "1e308",
    "nan",
    "inf",
    "true",
    "\"ä\"",
    "\"a|b\"",
    "{}",
    "[]",
    "max_variants = 100000\n",
    "max_cube = [1, 2, 4, 8]\n",
    "name = \"x\"\n",
    "trials = \"one\"\n",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0f64, 1..64usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (0.0..1.0f64, prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (0.0..1.0f64, prop::sample::select(TOKENS))
            .prop_map(|(at, token)| Mutation::Token { at, token }),
        (0.0..1.0f64, 1..2000usize).prop_map(|(at, times)| Mutation::RepeatLine { at, times }),
        (0.0..1.0f64).prop_map(|at| Mutation::Truncate { at }),
    ]
}

/// The most bytes a mutated spec grows to: past the 1 MiB limit on specs, so that the limit
/// is met too, but never the gigabytes repeated repetitions of a long line would make.
const MUTATED_SPEC_CAP: usize = 1 << 21;

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let position = |at: f64, len: usize| ((at * len as f64) as usize).min(len);
    match mutation {
        Mutation::Delete { at, len } => {
            let start = position(*at, bytes.len());
            let end = (start + len).min(bytes.len());
            bytes.drain(start..end);
        }
        Mutation::Insert { at, bytes: new } => {
            let start = position(*at, bytes.len());
            bytes.splice(start..start, new.iter().copied());
        }
        Mutation::Token { at, token } => {
            let start = position(*at, bytes.len());
            bytes.splice(start..start, token.bytes());
        }
        Mutation::RepeatLine { at, times } => {
            let start = position(*at, bytes.len());
            let line_start = bytes[..start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let line_end = bytes[start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |i| start + i + 1);
            let line = bytes[line_start..line_end].to_vec();
            // A last line without a newline grows into one long line, and repeating that again
            // would grow exponentially: stop a little past the spec size limit, which is then
            // what the parser meets.
            let room = MUTATED_SPEC_CAP.saturating_sub(bytes.len()) / line.len().max(1);
            let copies = line.repeat((*times).min(room));
            bytes.splice(line_end..line_end, copies);
        }
        Mutation::Truncate { at } => {
            let end = position(*at, bytes.len());
            bytes.truncate(end);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic_or_hang_and_errors_name_the_file(
        bytes in prop::collection::vec(any::<u8>(), 0..4096)
    ) {
        let games = experiment::registry().games();
        check_answer(Path::new("fuzz/random.toml"), &bytes, &games);
    }

    #[test]
    fn mutated_shipped_specs_never_panic_or_hang_and_errors_name_the_file(
        which in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..6)
    ) {
        let games = experiment::registry().games();
        let mut specs = shipped_specs();
        let mut bytes = specs.swap_remove(which.index(specs.len()));
        for mutation in &mutations {
            apply(&mut bytes, mutation);
        }
        check_answer(Path::new("fuzz/mutated.toml"), &bytes, &games);
    }
}

#[test]
fn the_shipped_specs_are_valid() {
    let games = experiment::registry().games();
    for bytes in shipped_specs() {
        spec::parse_bytes(Path::new("shipped.toml"), &bytes, &games).expect("valid");
    }
}

#[test]
fn validate_refuses_an_endless_file_at_once() {
    let started = Instant::now();
    experiment()
        .args(["validate", "/dev/urandom"])
        .timeout(Duration::from_secs(10))
        .assert()
        .code(1)
        .stderr(
            "Error: /dev/urandom: the spec is larger than 1048576 bytes (1 MiB), the most a spec \
             may have; a spec is a short text file: is this the right file?\n",
        );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn fails_with_clear_message_on_a_spec_that_is_not_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("binary.toml");
    fs::write(&path, b"version = 1\nname = \"t\xff\"\n").expect("write");
    experiment()
        .arg("validate")
        .arg(&path)
        .assert()
        .code(1)
        .stderr(format!(
            "Error: {}:2: the spec is not UTF-8 text: is this the right file?\n",
            path.display()
        ));
}

#[test]
fn validation_of_a_huge_sweep_is_linear_and_refused_with_the_numbers() {
    // About 1 MiB of values: a quadratic duplicate scan would take minutes.
    let values: Vec<String> = (1..=140_000).map(|n| n.to_string()).collect();
    let text = format!(
        "version = 1\nname = \"t\"\ngame = \"war\"\nseed = 1\ntrials = 10\n[sweep]\n\
         placement = [\"random\", \"low_first\"]\nmax_turns = [{}]\n",
        values.join(",")
    );
    assert!(text.len() < 1 << 20);
    let games = experiment::registry().games();
    let started = Instant::now();
    let error = spec::parse(Path::new("huge.toml"), &text, &games).expect_err("too many");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        error.to_string(),
        "huge.toml:7: the sweep's lists (2 placement × 140000 max_turns) make 280000 variants, \
         more than the 100000 one experiment may have: split it into several specs"
    );
}

#[test]
fn many_listed_variants_validate_in_linear_time() {
    let tables: String = (1..=20_000)
        .map(|n| format!("[[variant]]\nname = \"v{n}\"\nmax_turns = {n}\n"))
        .collect();
    let text = format!(
        "version = 1\nname = \"t\"\ngame = \"war\"\nseed = 1\ntrials = 10\n\
         max_variants = 20000\n{tables}"
    );
    let games = experiment::registry().games();
    let started = Instant::now();
    let experiment = spec::parse(Path::new("many.toml"), &text, &games).expect("valid");
    assert_eq!(experiment.variants.len(), 20_000);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

fn war_spec(dir: &Path, name: &str, placements: &[&str]) -> std::path::PathBuf {
    let list: Vec<String> = placements.iter().map(|p| format!("\"{p}\"")).collect();
    let path = dir.join(format!("{name}.toml"));
    fs::write(
        &path,
        format!(
            "version = 1\nname = \"{name}\"\ngame = \"war\"\nseed = 5\ntrials = 2000\n\
             [output]\nformats = [\"csv\"]\nplots = false\n[sweep]\nplacement = [{}]\n",
            list.join(", ")
        ),
    )
    .expect("write spec");
    path
}

/// The histogram rows of `variant` in a War run's `histogram.csv`.
fn histogram_rows(out: &Path, variant: &str) -> Vec<String> {
    fs::read_to_string(out.join("histogram.csv"))
        .expect("histogram.csv")
        .lines()
        .filter(|line| line.starts_with(&format!("{variant},")))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_variant_gives_the_same_numbers_wherever_it_stands_in_a_spec() {
    let dir = tempfile::tempdir().expect("temp dir");
    let alone = war_spec(dir.path(), "alone", &["low_first"]);
    let among = war_spec(dir.path(), "among", &["random", "high_first", "low_first"]);
    for (spec, out) in [(&alone, "out_alone"), (&among, "out_among")] {
        experiment()
            .arg("run")
            .arg(spec)
            .args(["--quiet", "--out"])
            .arg(dir.path().join(out))
            .assert()
            .success();
    }
    let first = histogram_rows(&dir.path().join("out_alone"), "low_first");
    assert!(first.len() > 10, "a histogram with many bins");
    assert_eq!(
        first,
        histogram_rows(&dir.path().join("out_among"), "low_first")
    );
}

#[test]
fn validate_refuses_what_run_would_refuse() {
    // A Chutes cube cap that is not a power of two: run cannot play it, so validate says so.
    let path = "tests/specs/bad/chutes_cap_not_power_of_two.toml";
    for command in ["validate", "run"] {
        experiment()
            .args(
                [command, path, "--quiet"]
                    .iter()
                    .take(if command == "run" { 3 } else { 2 }),
            )
            .assert()
            .code(1)
            .stderr(predicates::str::contains("max_cube must be a power of two"));
    }
}

#[test]
fn fails_with_plain_words_on_a_die_out_of_range() {
    experiment()
        .args(["trace", "monopoly", "--dice", "3,-1"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "a die shows a whole number from 1 to 6, not '-1'",
        ));
}

/// The error of the shipped War spec with `edit` applied to its text.
fn war_error(edit: impl Fn(&str) -> String) -> String {
    let text = edit(&fs::read_to_string("experiments/war_placement.toml").expect("spec"));
    let games = experiment::registry().games();
    match spec::parse_bytes(Path::new("war.toml"), text.as_bytes(), &games) {
        Ok(_) => panic!("the edited spec was accepted"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn a_duplicate_key_is_named() {
    let error = war_error(|text| text.replacen("seed = ", "seed = 5\nseed = ", 1));
    assert!(
        error.contains("duplicate key 'seed': it is set a second time here"),
        "{error}"
    );
}

/// A whole-number key written as a float (`trials = 1e6`, `seed = 1.0`) is refused at its
/// line with the key, the value as written, why (TOML reads it as a float) and how to write
/// it; a large float that TOML has rounded gets no example.
#[test]
fn whole_numbers_written_as_floats_are_refused_saying_how_to_write_them() {
    let games = experiment::registry().games();
    let path = Path::new("floats.toml");
    let cases = [
        (
            "seed = 1.0\ntrials = 10\n",
            "floats.toml:4: seed = 1.0 is a float (TOML reads a number with a decimal point or \
             an exponent as one): seed must be a whole number from 0 to 9223372036854775807, \
             written with digits only (underscores between them allowed), e.g. seed = 1",
        ),
        (
            "seed = 1\ntrials = 1e6\n",
            "floats.toml:5: trials = 1e6 is a float (TOML reads a number with a decimal point \
             or an exponent as one): trials must be a whole number from 1 to 1000000000000, \
             written with digits only (underscores between them allowed), e.g. trials = 1000000",
        ),
        (
            "seed = 9007199254740993.0\ntrials = 10\n",
            "seed = 9007199254740993.0 is a float (TOML reads a number with a decimal point or \
             an exponent as one): seed must be a whole number from 0 to 9223372036854775807, \
             written with digits only (underscores between them allowed)\n",
        ),
    ];
    for (keys, message) in cases {
        let text = format!("version = 1\nname = \"w\"\ngame = \"war\"\n{keys}");
        let error = match spec::parse_bytes(path, text.as_bytes(), &games) {
            Ok(_) => panic!("{keys} was taken"),
            Err(error) => format!("{error}\n"),
        };
        assert!(error.contains(message), "{error}");
    }
}
