//! `--help` and docs/guide.md name the same flags for every command, every command's help has
//! examples, and those examples parse and follow the rule for committed results.

use std::collections::BTreeSet;

use crate::docs::committed::check_committed_results;
use crate::docs::invocation::Invocation;
use crate::docs::root;
use crate::docs::shell::{path_var, shell, workspace};

/// The flags a `--help` text lists under "Options:", and the subcommands under "Commands:".
fn help_of(path: &[&str]) -> (String, BTreeSet<String>, Vec<String>) {
    let output = crate::common::experiment()
        .args(path)
        .arg("--help")
        .output()
        .expect("run --help");
    assert!(
        output.status.success(),
        "experiment {} --help failed",
        path.join(" ")
    );
    let text = String::from_utf8(output.stdout).expect("UTF-8 help");
    let mut flags = BTreeSet::new();
    let mut commands = Vec::new();
    let mut section = "";
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        let item = line.trim_start();
        let indent = line.len() - item.len();
        match section {
            "Options:" if indent <= 6 && item.starts_with('-') => {
                let names = item
                    .split_whitespace()
                    .take_while(|word| word.starts_with('-'))
                    .map(|word| word.trim_end_matches(','));
                for flag in names.filter(|flag| flag.starts_with("--")) {
                    if flag != "--help" && flag != "--version" {
                        flags.insert(flag.to_string());
                    }
                }
            }
            "Commands:" if indent == 2 => {
                let name = item.split_whitespace().next().unwrap_or_default();
                if name != "help" {
                    commands.push(name.to_string());
                }
            }
            _ => {}
        }
    }
    (text, flags, commands)
}

/// Every command path (`run`, `play war`, …) with its `--help` text and flags.
pub(crate) fn commands() -> Vec<(String, String, BTreeSet<String>)> {
    let mut found = Vec::new();
    let mut queue: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = queue.pop() {
        let words: Vec<&str> = path.iter().map(String::as_str).collect();
        let (text, flags, subcommands) = help_of(&words);
        if subcommands.is_empty() {
            found.push((path.join(" "), text, flags));
        } else {
            if !path.is_empty() {
                found.push((path.join(" "), text, BTreeSet::new()));
            }
            for sub in subcommands {
                let mut next = path.clone();
                next.push(sub);
                queue.push(next);
            }
        }
    }
    found.sort();
    found
}

/// The flags each `### \`experiment COMMAND\`` section of docs/guide.md names in its tables.
fn guide_flags() -> Vec<(String, BTreeSet<String>)> {
    let guide = std::fs::read_to_string(root().join("docs/guide.md")).expect("docs/guide.md");
    let mut sections: Vec<(String, BTreeSet<String>)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in guide.lines() {
        if line.starts_with('#') {
            current = line
                .strip_prefix("### `experiment ")
                .and_then(|rest| rest.strip_suffix('`'))
                .map(|command| {
                    sections.push((command.to_string(), BTreeSet::new()));
                    sections.len() - 1
                });
            continue;
        }
        let (Some(at), Some(row)) = (current, line.strip_prefix('|')) else {
            continue;
        };
        let first = row.split('|').next().unwrap_or_default();
        for word in first.split(|c: char| c == '`' || c == ',' || c.is_whitespace()) {
            if word.starts_with("--") && word[2..].starts_with(|c: char| c.is_ascii_alphabetic()) {
                sections[at].1.insert(word.to_string());
            }
        }
    }
    sections
}

#[test]
fn help_and_the_guide_name_the_same_flags_for_every_command() {
    let guide = guide_flags();
    let leaves: Vec<_> = commands()
        .into_iter()
        .filter(|(name, _, _)| !matches!(name.as_str(), "play" | "trace" | "exact"))
        .collect();
    let mut problems = Vec::new();
    for (name, _, flags) in &leaves {
        match guide.iter().find(|(command, _)| command == name) {
            None => problems.push(format!("docs/guide.md has no section `experiment {name}`")),
            Some((_, named)) => {
                for flag in flags.difference(named) {
                    problems.push(format!(
                        "experiment {name} --help lists {flag}, the guide does not"
                    ));
                }
                for flag in named.difference(flags) {
                    problems.push(format!(
                        "the guide names {flag} for experiment {name}, --help does not"
                    ));
                }
            }
        }
    }
    for (command, _) in &guide {
        if !leaves.iter().any(|(name, _, _)| name == command) {
            problems.push(format!(
                "docs/guide.md describes `experiment {command}`, which does not exist"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(leaves.len() >= 13, "only {} commands found", leaves.len());
}

#[test]
fn every_command_and_subcommand_has_examples_in_its_help() {
    let mut missing = Vec::new();
    for (name, text, _) in commands() {
        if !(text.contains("\nExample:\n") || text.contains("\nExamples:\n")) {
            missing.push(name);
        }
    }
    let (top, _, _) = help_of(&[]);
    assert!(
        top.contains("\nExamples:\n"),
        "experiment --help has no examples"
    );
    assert!(
        missing.is_empty(),
        "no examples in --help of: {}",
        missing.join(", ")
    );
}

/// The examples `--help` shows parse (with `--help` appended, clap refuses an unknown flag or a
/// bad value) and follow the rule for committed results.
#[test]
fn help_examples_parse_and_never_overwrite_committed_results() {
    let work = workspace();
    let path_var = path_var();
    let mut checked = 0;
    for (name, text, _) in commands().into_iter().chain([{
        let (text, _, _) = help_of(&[]);
        (String::new(), text, BTreeSet::new())
    }]) {
        for line in text.lines().map(str::trim) {
            let Some(example) = line.strip_prefix("experiment ") else {
                continue;
            };
            let example = format!(
                "experiment {}",
                example.split("  (").next().unwrap_or_default()
            );
            let place = format!("experiment {name} --help");
            let (_, invocation, _) = Invocation::find(&example).expect("an engine command");
            if let Err(refused) = check_committed_results(&place, &invocation, work.path()) {
                panic!("{refused}");
            }
            let (status, output) = shell(
                &format!("{} --help", invocation.line()),
                work.path(),
                &path_var,
            );
            assert_eq!(
                status,
                Some(0),
                "{place}: `{example}` does not parse:\n{output}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} help examples found");
}
