//! Embeds the git commit the engine is built from (`EXPERIMENT_BUILD_COMMIT`, "unknown" outside
//! a git work tree) and whether its sources had uncommitted changes (`EXPERIMENT_BUILD_MODIFIED`:
//! "true", "false" or "unknown"), for `manifest.json`.

use std::process::Command;

/// Runs git in the crate's folder and returns its trimmed output, if it succeeded.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    output.status.success().then(|| text.trim().to_string())
}

/// The files and folders the binary is built from (the whole workspace).
const SOURCES: [&str; 5] = ["src", "crates", "build.rs", "Cargo.toml", "Cargo.lock"];

fn main() {
    for source in SOURCES {
        println!("cargo:rerun-if-changed={source}");
    }
    // Only a work tree that tracks this crate says which commit it was built from (not, say, a
    // repository that merely contains an unpacked copy).
    let tracked = git(&["ls-files", "Cargo.toml"]).is_some_and(|files| !files.is_empty());
    let commit = tracked
        .then(|| git(&["rev-parse", "--verify", "HEAD"]))
        .flatten()
        .filter(|commit| !commit.is_empty());
    let modified = commit.as_ref().and_then(|_| {
        let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
        args.extend(SOURCES);
        git(&args).map(|status| (!status.is_empty()).to_string())
    });
    if commit.is_some() {
        // A new commit or a branch switch changes these files.
        let mut refs = vec!["HEAD".to_string(), "packed-refs".to_string()];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            refs.push(branch);
        }
        for name in refs {
            // A file named here that does not exist would rerun this script at every build.
            match git(&["rev-parse", "--git-path", &name]) {
                Some(path) if std::path::Path::new(&path).exists() => {
                    println!("cargo:rerun-if-changed={path}");
                }
                _ => {}
            }
        }
    }
    println!(
        "cargo:rustc-env=EXPERIMENT_BUILD_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    println!(
        "cargo:rustc-env=EXPERIMENT_BUILD_MODIFIED={}",
        modified.as_deref().unwrap_or("unknown")
    );
}
