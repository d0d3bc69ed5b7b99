//! Summaries files forged inside the summaries the structure checks used to take as they are
//! (issue 34): a common design's variant list, its paired statistics (their trials, their
//! pairs, their values per variant) and a `[select]` stage's variant list, each with its digest
//! recomputed as the format requires. `merge` and `--resume` refuse them with a message naming
//! the file and what is wrong, and exit 1 (never a panic's 101), writing no results.

use std::fs;
use std::path::Path;

use crate::common::experiment;
use crate::common::runs::{
    checkpoint_of, interrupt_at_first_checkpoint, quiet_run_args, shard_as_checkpoint, write,
};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// A War spec of three placements in the common design, 600 trials.
const SPEC: &str = "version = 1\nname = \"war_common\"\ngame = \"war\"\nseed = 17\n\
                    trials = 600\n\n[params]\nmax_turns = 3000\n\n[sweep]\n\
                    placement = [\"random\", \"high_first\", \"low_first\"]\n\n[design]\n\
                    random_numbers = \"common\"\n";

/// Rewrites the summary of every part of the stream labelled `label` in the summaries file
/// at `path` with `change`, recomputing every part's digest (the file is written again) as
/// the format documents it (`experiment-summaries 2 stream S trials A B`, a newline, the
/// summary's JSON text).
fn forge(path: &Path, label: &str, change: fn(&mut Value)) {
    let mut file: Value = serde_json::from_str(&fs::read_to_string(path).expect("read"))
        .expect("a JSON summaries file");
    let mut forged = 0;
    for record in file["streams"].as_array_mut().expect("streams") {
        let chosen = record["label"] == label;
        let stream = record["stream"].as_u64().expect("a stream");
        for part in record["parts"].as_array_mut().expect("parts") {
            if chosen {
                change(&mut part["summary"]);
                forged += 1;
            }
            let trials = [0, 1].map(|i| part["trials"][i].as_u64().expect("a trial"));
            let summary = serde_json::to_string(&part["summary"]).expect("JSON");
            let text = format!(
                "experiment-summaries 2 stream {stream} trials {} {}\n{summary}",
                trials[0], trials[1]
            );
            let digest: String = Sha256::digest(text.as_bytes())
                .iter()
                .map(|byte| format!("{byte:02x}"))
                .collect();
            part["sha256"] = digest.into();
        }
    }
    assert!(forged > 0, "no part labelled {label}");
    fs::write(path, serde_json::to_string(&file).expect("JSON")).expect("write");
}

/// The list `key` of `value`, to edit.
fn list<'a>(value: &'a mut Value, key: &str) -> &'a mut Vec<Value> {
    value[key].as_array_mut().expect("a list")
}

type Forgery = fn(&mut Value);

/// Each forgery of a common design's summary, and what the refusal says of it.
fn forgeries() -> [(Forgery, &'static str); 4] {
    let dropped: Forgery = |summary| {
        list(summary, "variants").pop();
        list(&mut summary["paired"], "values").pop();
        list(&mut summary["paired"], "differences").truncate(1);
    };
    let more_trials: Forgery = |summary| {
        let trials = summary["paired"]["trials"].as_u64().expect("trials");
        summary["paired"]["trials"] = (trials + 7).into();
    };
    let other_pairs: Forgery = |summary| {
        summary["paired"]["against"] = 1.into();
        list(&mut summary["paired"], "differences").truncate(2);
    };
    let fewer_values: Forgery = |summary| {
        for key in ["values", "differences"] {
            for moments in list(&mut summary["paired"], key) {
                moments.as_array_mut().expect("a list").pop();
            }
        }
    };
    [
        (
            dropped,
            "it holds 2 variants' summaries and paired values of 2 variants, but this run \
             plays 3 variants side by side",
        ),
        (
            more_trials,
            "paired trials 307 but its trial range holds 300",
        ),
        (
            other_pairs,
            "its paired statistics keep the pairs [(0, 1), (2, 1)], but this run compares \
             [(0, 1), (0, 2), (1, 2)]",
        ),
        (
            fewer_values,
            "values per variant or pair, but this game pairs",
        ),
    ]
}

/// Asserts that `output` is a refusal (exit 1, not a panic) naming `file` and saying `what`.
fn refused(output: &std::process::Output, file: &Path, what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: ", file.display())),
        "{stderr}"
    );
    assert!(stderr.contains(what), "{stderr}");
}

#[test]
fn merge_refuses_shards_forged_inside_a_common_design_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write(dir.path(), "spec.toml", SPEC);
    let pristine = dir.path().join("shards");
    for index in ["0/2", "1/2"] {
        experiment()
            .arg("run")
            .arg(&spec)
            .args(["--quiet", "--shard", index, "--out"])
            .arg(&pristine)
            .assert()
            .success();
    }
    for (n, (change, what)) in forgeries().into_iter().enumerate() {
        let folder = dir.path().join(format!("forged-{n}"));
        fs::create_dir(&folder).expect("folder");
        for name in ["shard-0-of-2.json", "shard-1-of-2.json"] {
            fs::copy(pristine.join(name), folder.join(name)).expect("copy");
        }
        let forged = folder.join("shard-1-of-2.json");
        forge(&forged, "common design", change);
        let out = dir.path().join(format!("merged-{n}"));
        let output = experiment()
            .arg("merge")
            .arg(&folder)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("runs");
        refused(&output, &forged, what);
        assert!(!out.exists(), "a refused merge wrote {}", out.display());
    }
}

#[test]
fn resume_refuses_a_checkpoint_forged_inside_a_common_design_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write(dir.path(), "spec.toml", SPEC);
    let shards = dir.path().join("shards");
    experiment()
        .arg("run")
        .arg(&spec)
        .args(["--quiet", "--shard", "0/2", "--out"])
        .arg(&shards)
        .assert()
        .success();
    // Shard 0 of 2 is what a checkpoint of the first 300 trials holds.
    let half = fs::read_to_string(shards.join("shard-0-of-2.json")).expect("shard");
    for (n, (change, what)) in forgeries().into_iter().enumerate() {
        let out = dir.path().join(format!("out-{n}"));
        let checkpoint = checkpoint_of(&out);
        fs::write(&checkpoint, shard_as_checkpoint(&half, 2)).expect("checkpoint");
        forge(&checkpoint, "common design", change);
        let before = fs::read(&checkpoint).expect("forged");
        let mut args = quiet_run_args(&spec, &out, &[]);
        args.push("--resume".into());
        let output = experiment().args(&args).output().expect("runs");
        refused(&output, &checkpoint, what);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("It was left as it is"), "{stderr}");
        assert_eq!(fs::read(&checkpoint).expect("kept"), before);
        assert!(!out.exists(), "a refused resume wrote {}", out.display());
    }
}

#[test]
fn resume_refuses_a_selection_checkpoint_whose_stage_lacks_a_variant() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = write(
        dir.path(),
        "select.toml",
        "version = 1\nname = \"select\"\ngame = \"twentyone\"\nseed = 3\ntrials = 2_000\n\
         [sweep]\nstand_at = { from = 12, to = 21 }\n[design]\n\
         random_numbers = \"independent\"\n[select]\nmetric = \"win_rate\"\ngoal = \"max\"\n\
         indifference = 0.0008\nmax_trials = 20_000_000\nstage_trials = 20_000\n",
    );
    let out = dir.path().join("out");
    let arguments = ["--threads", "1", "--checkpoint-every", "1"];
    interrupt_at_first_checkpoint(&quiet_run_args(&spec, &out, &arguments), &out);
    let checkpoint = checkpoint_of(&out);
    forge(&checkpoint, "[select] stage 1", |summary| {
        list(summary, "variants").pop();
        list(&mut summary["paired"], "values").pop();
    });
    let mut args = quiet_run_args(&spec, &out, &arguments);
    args.push("--resume".into());
    let output = experiment().args(&args).output().expect("runs");
    refused(
        &output,
        &checkpoint,
        "([select] stage 1) part 0: it holds 9 variants' summaries and paired values of 9 \
         variants, but this run plays 10 variants side by side",
    );
    assert!(!out.exists(), "a refused resume wrote results");
}
