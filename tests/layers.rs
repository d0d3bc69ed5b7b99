//! The architecture the compiler cannot keep. The crates keep the big boundaries (the engine
//! names no game; a game crate names no other game), and the first test checks that the
//! manifests still declare them so. Inside the engine crate, layers point down, as
//! `crates/engine/src/lib.rs` states them: no module of the engine's lower layers imports
//! (`crate::NAME`, outside comments) a module of a later layer or of the program on top, and
//! the helpers beside the layers import none of either.

use std::fs;
use std::path::{Path, PathBuf};

/// The lower layers, first to last: a module may import its own layer and earlier ones.
const LAYERS: &[&[&str]] = &[
    &["rng", "shuffle", "summary", "summary_check"],
    &["games", "design"],
    &["runner", "ledger"],
    &["stats"],
    &["frame", "plot", "staging"],
    &["report"],
    &["spec", "manifest"],
];
/// What sits on top of the layers and may import any of them.
const TOP: &[&str] = &["analysis", "studies", "html", "registry", "cli", "commands"];
/// Helpers beside the layers, for any of them: they import only each other.
const BESIDE: &[&str] = &[
    "params",
    "digest",
    "interrupt",
    "memory",
    "shell",
    "console",
    "linear",
    "affinity",
];

/// The engine crate's sources.
const ENGINE: &str = "crates/engine/src";
/// The game crates, each a folder under `crates/games/` named after its package's game.
const GAMES: &[&str] = &["war", "monopoly", "chutes", "twentyone"];

/// The workspace crates (package names) that the manifest at `path` depends on, in any table.
fn our_dependencies(path: &str) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let manifest: toml::Table = text.parse().unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut found = Vec::new();
    for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(deps) = manifest.get(table).and_then(|deps| deps.as_table()) {
            found.extend(
                deps.keys()
                    .filter(|name| name.starts_with("experiment"))
                    .cloned(),
            );
        }
    }
    found
}

#[test]
fn the_engine_names_no_game_and_a_game_crate_only_the_engine() {
    assert_eq!(
        our_dependencies("crates/engine/Cargo.toml"),
        Vec::<String>::new()
    );
    for game in GAMES {
        assert_eq!(
            our_dependencies(&format!("crates/games/{game}/Cargo.toml")),
            ["experiment-engine"],
            "crates/games/{game}"
        );
    }
    let mut program = our_dependencies("Cargo.toml");
    program.sort();
    let mut expected: Vec<String> = GAMES.iter().map(|g| format!("experiment-{g}")).collect();
    expected.push("experiment-engine".into());
    expected.sort();
    assert_eq!(
        program, expected,
        "the program lists the engine and every game crate"
    );
}

/// The source files of module `name`: `NAME.rs`, or every file under `NAME/`, in the engine.
fn files_of(name: &str) -> Vec<PathBuf> {
    let file = Path::new(ENGINE).join(format!("{name}.rs"));
    if file.exists() {
        return vec![file];
    }
    let mut files = Vec::new();
    let mut folders = vec![Path::new(ENGINE).join(name)];
    while let Some(folder) = folders.pop() {
        let entries = fs::read_dir(&folder).unwrap_or_else(|e| panic!("no module {name}: {e}"));
        for entry in entries {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Every `(file:line, module)` that module `name` imports from the crate, comments left out.
fn imports_of(name: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for path in files_of(name) {
        let text = fs::read_to_string(&path).expect("source");
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for (at, _) in code.match_indices("crate::") {
                let rest = &code[at + "crate::".len()..];
                let module: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if module != name {
                    found.push((format!("{}:{}", path.display(), number + 1), module));
                }
            }
        }
    }
    found
}

#[test]
fn every_module_of_the_crate_is_placed() {
    let placed: Vec<&str> = LAYERS
        .iter()
        .flat_map(|layer| layer.iter().copied())
        .chain(TOP.iter().copied())
        .chain(BESIDE.iter().copied())
        .collect();
    let lib = fs::read_to_string(Path::new(ENGINE).join("lib.rs")).expect("the engine's lib.rs");
    for line in lib.lines() {
        if let Some(module) = line
            .strip_prefix("pub mod ")
            .and_then(|m| m.strip_suffix(';'))
        {
            assert!(
                placed.contains(&module),
                "module {module} is in no layer of tests/layers.rs: place it where its imports \
                 put it"
            );
        }
    }
}

#[test]
fn lower_layers_import_only_their_own_and_earlier_layers() {
    let mut upward = Vec::new();
    for (index, layer) in LAYERS.iter().enumerate() {
        let later: Vec<&str> = LAYERS[index + 1..]
            .iter()
            .flat_map(|layer| layer.iter().copied())
            .chain(TOP.iter().copied())
            .collect();
        for name in *layer {
            for (at, module) in imports_of(name) {
                if later.contains(&module.as_str()) {
                    upward.push(format!(
                        "{at}: {name} imports {module}, which comes after it"
                    ));
                }
            }
        }
    }
    assert!(upward.is_empty(), "{}", upward.join("\n"));
}

#[test]
fn the_helpers_beside_the_layers_import_only_each_other() {
    let mut outside = Vec::new();
    for name in BESIDE {
        for (at, module) in imports_of(name) {
            if !BESIDE.contains(&module.as_str()) {
                outside.push(format!(
                    "{at}: {name} imports {module}, which is not a helper beside the layers"
                ));
            }
        }
    }
    assert!(outside.is_empty(), "{}", outside.join("\n"));
}

/// One module style: a module with children is `name/mod.rs`, never `name.rs` beside `name/`.
#[test]
fn no_module_file_stands_beside_a_folder_of_the_same_name() {
    let mut both = Vec::new();
    let mut folders = vec![PathBuf::from("src"), PathBuf::from("crates")];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).expect("source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                if path.with_extension("rs").exists() {
                    both.push(path.display().to_string());
                }
                folders.push(path);
            }
        }
    }
    assert!(both.is_empty(), "module file beside its folder: {both:?}");
}
