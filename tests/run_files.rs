//! One writer for a run's files: `run` and `merge` of the same trials write the same files,
//! byte for byte but for the HTML page (which names the merged shards) and the manifest (its
//! timings and shard list), for every shipped spec.

use crate::common::manifest;
use std::fs;
use std::path::Path;

use crate::common::{experiment, names, shipped_specs};

#[test]
fn run_and_merge_of_the_same_trials_write_the_same_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    for spec in shipped_specs() {
        let stem = spec
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        // Both write into the same folder (one after the other), so that even the reproduce
        // command in report.md, which names --out, is the same.
        let out = dir.path().join(&stem);
        let ran = dir.path().join(format!("{stem}-run"));
        experiment()
            .arg("run")
            .arg(&spec)
            .args(["--trials", "40", "--quiet", "--out"])
            .arg(&out)
            .assert()
            .success();
        fs::rename(&out, &ran).expect("move the run aside");
        let shards = dir.path().join(format!("{stem}-shards"));
        for index in 0..2 {
            experiment()
                .arg("run")
                .arg(&spec)
                .args([
                    "--trials",
                    "40",
                    "--quiet",
                    "--shard",
                    &format!("{index}/2"),
                ])
                .arg("--out")
                .arg(&shards)
                .assert()
                .success();
        }
        experiment()
            .arg("merge")
            .arg(&shards)
            .args(["--quiet", "--out"])
            .arg(&out)
            .assert()
            .success();

        let files = names(&ran);
        assert_eq!(names(&out), files, "{stem}: the merge wrote other files");
        assert_eq!(
            manifest(&out)["files"],
            manifest(&ran)["files"],
            "{stem}: the manifests list other files"
        );
        assert!(files.iter().any(|name| name.ends_with(".csv")), "{stem}");
        for name in files {
            if name == "report.html" || name == "manifest.json" {
                continue;
            }
            if name == "summaries.json" {
                // Its header records the command's threads and seconds; its trials must agree.
                let streams = |folder: &Path| -> serde_json::Value {
                    let text = fs::read_to_string(folder.join(&name)).expect("summaries");
                    serde_json::from_str::<serde_json::Value>(&text).expect("JSON")["streams"]
                        .clone()
                };
                assert_eq!(streams(&ran), streams(&out), "{stem}: other summaries");
                continue;
            }
            assert!(
                fs::read(ran.join(&name)).expect("run file")
                    == fs::read(out.join(&name)).expect("merged file"),
                "{stem}: {name} differs between the run and the merge"
            );
        }
    }
}
