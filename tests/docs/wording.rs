//! User-facing text (`--help`, `experiment list`, the docs) states rules rather than calling on
//! documents the reader does not have.

use crate::docs::examples::pages;
use crate::docs::help::commands;

/// `--help` states rules rather than calling on documents the reader does not have.
#[test]
fn help_texts_state_rules_rather_than_refer_to_an_assignment() {
    for (name, text, _) in commands() {
        let text = text.to_lowercase();
        assert!(
            !text.contains("original assignment") && !text.contains("the assignment"),
            "experiment {name} --help refers to an assignment"
        );
    }
}

/// `experiment list` (every game's description, parameters and choices) states rules too.
#[test]
fn the_game_list_states_rules_rather_than_refer_to_an_assignment() {
    let out = crate::common::experiment()
        .arg("list")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8").to_lowercase();
    assert!(text.contains("twentyone"), "the list names the games");
    for phrase in ["original assignment", "the assignment", "seed 00"] {
        assert!(!text.contains(phrase), "experiment list says {phrase:?}");
    }
}

/// No user-facing text in the docs calls on documents the reader does not have.
#[test]
fn the_docs_state_rules_rather_than_refer_to_an_assignment() {
    for page in pages() {
        let text = std::fs::read_to_string(&page)
            .expect("read page")
            .to_lowercase();
        for phrase in ["original assignment", "the assignment", "seed 00"] {
            assert!(!text.contains(phrase), "{} says '{phrase}'", page.display());
        }
    }
}
