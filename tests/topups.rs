//! Top-ups: a run with more trials into a folder holding a finished run of the same spec and
//! seed plays only the new trials and writes the tables a fresh run writes, byte for byte;
//! a folder of another seed is played afresh and says why; a folder holding more trials or
//! other variants of the same spec is kept unless `--replace` is given.

use std::fs;
use std::path::Path;

use crate::common::{experiment, report_without_reproduce, shipped_specs};

/// The folder's tables (CSV and Parquet) and report.md without its `- reproduce:` line.
fn contents(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(folder)
        .expect("results folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            path.extension()
                .is_some_and(|e| e == "csv" || e == "parquet" || e == "md")
        })
        .map(|path| {
            let bytes = if path.extension().is_some_and(|e| e == "md") {
                report_without_reproduce(&path).into_bytes()
            } else {
                fs::read(&path).expect("file")
            };
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .to_string();
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

fn run(spec: &Path, trials: &str, out: &Path, extra: &[&str]) -> String {
    let output = experiment()
        .arg("run")
        .arg(spec)
        .args(["--trials", trials, "--quiet", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{}: {stderr}", spec.display());
    stderr
}

#[test]
fn a_top_up_of_every_shipped_spec_equals_a_fresh_run_of_all_its_trials() {
    let dir = tempfile::tempdir().expect("temp dir");
    for spec in shipped_specs() {
        let stem = spec
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .to_string();
        let grown = dir.path().join(format!("{stem}-grown"));
        let fresh = dir.path().join(format!("{stem}-fresh"));
        run(&spec, "30", &grown, &["--threads", "1"]);
        assert!(
            grown.join("summaries.json").is_file(),
            "{stem}: no summaries.json"
        );
        let said = run(
            &spec,
            "70",
            &grown,
            &["--threads", "2", "--chunk-size", "7"],
        );
        assert!(
            said.contains("Top-up: reusing 30 trials per variant") && said.contains("30..70"),
            "{stem}: {said}"
        );
        run(&spec, "70", &fresh, &[]);
        let (grown, fresh) = (contents(&grown), contents(&fresh));
        assert!(grown.len() > 1, "{stem}: {} files", grown.len());
        for ((name, a), (other, b)) in grown.iter().zip(&fresh) {
            assert_eq!(name, other, "{stem}: other files");
            assert!(
                a == b,
                "{stem}: {name} of the top-up differs from the fresh run's"
            );
        }
        assert_eq!(grown.len(), fresh.len(), "{stem}: other files");
    }
}

#[test]
fn another_seed_or_fewer_trials_play_everything_again_and_say_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = Path::new("experiments/war_placement.toml");
    let out = dir.path().join("war");
    run(spec, "50", &out, &[]);
    let said = run(spec, "60", &out, &["--seed", "9"]);
    assert!(
        said.contains("Not a top-up:")
            && said.contains("the seed is 20261130 in the folder's run but 9 in this run"),
        "{said}"
    );
    // Fewer trials replace the fuller folder only when --replace asks for it.
    let said = run(spec, "20", &out, &["--seed", "9", "--replace"]);
    assert!(
        said.contains("holds 60 trials per variant, more than the 20 asked for"),
        "{said}"
    );
    // The folder now holds the 20-trial run, whole.
    let summary = fs::read_to_string(out.join("summary.csv")).expect("summary");
    assert!(
        summary.lines().nth(1).expect("a row").contains(",20,"),
        "{summary}"
    );
}

/// Runs `args` into `out` and returns its status code and standard error.
fn refused(spec: &Path, out: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = experiment()
        .arg("run")
        .arg(spec)
        .args(["--quiet", "--out"])
        .arg(out)
        .args(args)
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    (output.status.code(), stderr)
}

#[test]
fn fewer_trials_or_fewer_variants_never_replace_a_fuller_folder_unasked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = Path::new("experiments/war_placement.toml");
    let out = dir.path().join("war");
    run(spec, "60", &out, &[]);
    let before = contents(&out);
    let manifest = fs::read(out.join("manifest.json")).expect("manifest");
    let (code, said) = refused(spec, &out, &["--trials", "20"]);
    assert_eq!(code, Some(1), "{said}");
    let folder = format!("output folder {} holds a fuller run", out.display());
    for words in [
        folder.as_str(),
        "60 trials per variant of 6 variants",
        "this run asks for 20 trials per variant",
        "nothing was played",
        "--out",
        "--replace",
    ] {
        assert!(said.contains(words), "{words}: {said}");
    }
    let (code, said) = refused(spec, &out, &["--trials", "60", "--variant", "random"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(
            "this run does not play variants winner_first, loser_first, high_first, low_first, \
             player1_first"
        ),
        "{said}"
    );
    // Another seed with fewer trials loses the folder's trials just as well.
    let (code, said) = refused(spec, &out, &["--trials", "30", "--seed", "5"]);
    assert_eq!(code, Some(1), "{said}");
    assert_eq!(contents(&out), before, "a refused run changed the tables");
    assert_eq!(
        fs::read(out.join("manifest.json")).expect("manifest"),
        manifest,
        "a refused run rewrote the folder"
    );
    // With --replace the smaller run replaces it.
    run(spec, "20", &out, &["--variant", "random", "--replace"]);
    let summary = fs::read_to_string(out.join("summary.csv")).expect("summary");
    assert_eq!(summary.lines().count(), 2, "{summary}");
    // A run of every variant and as many trials is no loss: it proceeds.
    run(spec, "20", &out, &[]);
}

#[test]
fn an_edited_summaries_file_is_never_reused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = Path::new("experiments/war_placement.toml");
    let out = dir.path().join("war");
    run(spec, "40", &out, &[]);
    let path = out.join("summaries.json");
    let text = fs::read_to_string(&path).expect("summaries");
    // One more game won by player 1 in some part.
    let edited = text.replacen("\"p1_wins\":", "\"p1_wins\":1", 1);
    assert_ne!(edited, text, "the summaries hold p1_wins");
    fs::write(&path, edited).expect("edited");
    // The folder is no longer the engine's alone: the run neither reuses nor replaces it.
    let output = experiment()
        .arg("run")
        .arg(spec)
        .args(["--trials", "80", "--quiet", "--out"])
        .arg(&out)
        .output()
        .expect("run");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{said}");
    assert!(
        said.contains("summaries.json (changed since this engine wrote it)")
            && !said.contains("Top-up"),
        "{said}"
    );
}

#[test]
fn a_top_up_to_the_trials_already_there_says_there_is_nothing_new_to_play() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = Path::new("experiments/war_placement.toml");
    let out = dir.path().join("war");
    run(spec, "40", &out, &[]);
    let before = contents(&out);
    let said = run(spec, "40", &out, &["--threads", "2"]);
    assert!(
        said.contains("Top-up: nothing new to play:")
            && said.contains("holds all 40 trials per variant asked for"),
        "{said}"
    );
    assert!(
        said.contains("(nothing new to play: all 240 trials were reused;"),
        "{said}"
    );
    assert!(
        !said.contains("playing trials") && !said.contains("trials/s"),
        "{said}"
    );
    assert_eq!(contents(&out), before, "the same tables and report");
}

/// The closing line of a top-up counts the trials it played as new, beside the total it wrote,
/// and its speed is over the new ones: 240 new of 480, at 240 over the seconds it gives.
#[test]
fn the_closing_line_of_a_top_up_gives_the_new_trials_and_the_total() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = Path::new("experiments/war_placement.toml");
    let out = dir.path().join("war");
    let fresh = run(spec, "40", &out, &[]);
    assert!(fresh.contains(" (240 trials in "), "{fresh}");
    let said = run(spec, "80", &out, &[]);
    let line = said
        .lines()
        .find(|l| l.starts_with("Results in "))
        .unwrap_or_else(|| panic!("no closing line in {said}"));
    let rest = line
        .split_once("(played 240 new trials (total 480) in ")
        .unwrap_or_else(|| panic!("{line}"))
        .1;
    let (seconds, rate) = rest.split_once(" s, ").expect("seconds, then the rate");
    let seconds: f64 = seconds.parse().expect("seconds");
    let rate: f64 = rate
        .split_once(" trials/s")
        .and_then(|(r, _)| r.parse().ok())
        .expect("a rate");
    // The seconds are shown to 0.1 s: 240 trials over them, within that rounding.
    let (slow, fast) = (240.0 / (seconds + 0.05), 240.0 / (seconds - 0.05).max(1e-9));
    assert!(
        slow - 1.0 <= rate && rate <= fast + 1.0,
        "{line}: {rate} is not 240 trials over {seconds} s"
    );
}
