//! Which files in an output folder this engine can prove it wrote.
//!
//! A results folder's `manifest.json` names its format (`"format": "experiment-results"`,
//! `"format_version": 1`) and records the size and SHA-256 of every other file in the folder
//! (`file_digests`). A folder is the engine's, and may be replaced, only when every entry in it
//! is a regular file (not a folder, not a symbolic link) that its manifest lists with the size
//! and digest it still has. Anything else is the user's.
//!
//! A folder written by an engine version that recorded no digests (a manifest without
//! `format`) cannot be proven byte for byte; it is accepted only when its manifest is one this
//! engine wrote (the fields every such manifest has, and `spec_sha256` the digest of its
//! `spec`), it lists every entry of the folder, and every entry is a regular file with an
//! extension the engine writes.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The `format` a results folder's `manifest.json` names.
pub const RESULTS_FORMAT: &str = "experiment-results";
/// The version of that format this engine writes and reads.
pub const RESULTS_FORMAT_VERSION: u32 = 1;
/// The manifest's file name in a results folder.
pub const MANIFEST: &str = "manifest.json";
/// The largest `manifest.json` read (it holds the spec, itself limited to far less).
const MANIFEST_LIMIT: u64 = 64 << 20;
/// Extensions of the files an engine without digests wrote.
const LEGACY_EXTENSIONS: [&str; 7] = ["csv", "parquet", "png", "svg", "md", "html", "json"];
/// Fields every manifest of an engine without digests has.
const LEGACY_FIELDS: [&str; 6] = [
    "experiment",
    "game",
    "spec",
    "spec_sha256",
    "crate_version",
    "engine_commit",
];

/// The size and SHA-256 of one file of a results folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// The file's name in the folder.
    pub name: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// SHA-256 of its content, in hexadecimal.
    pub sha256: String,
}

/// One entry of a folder that is not provably the engine's, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreign {
    /// The entry's name in the folder.
    pub name: String,
    /// Why it cannot be the engine's, e.g. "a folder".
    pub why: String,
}

impl std::fmt::Display for Foreign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name, self.why)
    }
}

/// The digest of the file `name` in `folder` (followed if it is a link: callers check that).
pub fn digest_file(folder: &Path, name: &str) -> io::Result<FileDigest> {
    let mut file = File::open(folder.join(name))?;
    let mut hasher = Sha256::new();
    let bytes = io::copy(&mut file, &mut hasher)?;
    Ok(FileDigest {
        name: name.to_string(),
        bytes,
        sha256: hex(&hasher.finalize()),
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What kind of entry `metadata` (from `symlink_metadata`) describes, when not a regular file.
fn not_a_file(metadata: &fs::Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_symlink() {
        Some("a symbolic link")
    } else if kind.is_dir() {
        Some("a folder")
    } else if !kind.is_file() {
        Some("not a regular file")
    } else {
        None
    }
}

/// The entries of `folder` (not following links), by name.
fn entries(folder: &Path) -> io::Result<Vec<(String, fs::Metadata)>> {
    let mut entries = Vec::new();
    for entry in fs::read_dir(folder)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        entries.push((name, fs::symlink_metadata(entry.path())?));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries)
}

/// Checks whether every entry of `folder` is provably the engine's: `Ok(names)` lists them
/// (to delete one by one, the manifest last), `Err(foreign)` says which are not and why.
pub fn engine_files(folder: &Path) -> io::Result<Result<Vec<String>, Vec<Foreign>>> {
    let entries = entries(folder)?;
    if entries.is_empty() {
        return Ok(Ok(Vec::new()));
    }
    let manifest = match read_manifest(folder, &entries)? {
        Ok(manifest) => manifest,
        Err(why) => {
            let foreign = entries
                .iter()
                .map(|(name, _)| Foreign {
                    name: name.clone(),
                    why: if name == MANIFEST {
                        why.clone()
                    } else {
                        format!("no {MANIFEST} of this engine lists it")
                    },
                })
                .collect();
            return Ok(Err(foreign));
        }
    };
    let mut foreign = Vec::new();
    let mut names = Vec::new();
    for (name, metadata) in &entries {
        if name == MANIFEST {
            continue;
        }
        let why = match (not_a_file(metadata), &manifest) {
            (Some(kind), _) => Some(kind.to_string()),
            (None, Claims::Digests(digests)) => match digests.get(name.as_str()) {
                None => Some(format!("not listed in {MANIFEST}")),
                Some(listed)
                    if listed.bytes != metadata.len()
                        || digest_file(folder, name)?.sha256 != listed.sha256 =>
                {
                    Some("changed since this engine wrote it".to_string())
                }
                Some(_) => None,
            },
            (None, Claims::Legacy(listed)) => {
                let extension = Path::new(name).extension().and_then(|e| e.to_str());
                if !listed.contains(name.as_str()) {
                    Some(format!("not listed in {MANIFEST}"))
                } else if !extension.is_some_and(|e| LEGACY_EXTENSIONS.contains(&e)) {
                    Some("not a kind of file this engine writes".to_string())
                } else {
                    None
                }
            }
        };
        match why {
            Some(why) => foreign.push(Foreign {
                name: name.clone(),
                why,
            }),
            None => names.push(name.clone()),
        }
    }
    if !foreign.is_empty() {
        return Ok(Err(foreign));
    }
    names.push(MANIFEST.to_string());
    Ok(Ok(names))
}

/// What a manifest of this engine says the folder holds.
enum Claims {
    /// Each file's digest, by name.
    Digests(HashMap<String, FileDigest>),
    /// The names an engine without digests listed.
    Legacy(std::collections::HashSet<String>),
}

/// Reads the folder's manifest: its claims, or why it is not this engine's.
fn read_manifest(
    folder: &Path,
    entries: &[(String, fs::Metadata)],
) -> io::Result<Result<Claims, String>> {
    let Some((_, metadata)) = entries.iter().find(|(name, _)| name == MANIFEST) else {
        return Ok(Err(format!("no {MANIFEST}")));
    };
    if let Some(kind) = not_a_file(metadata) {
        return Ok(Err(kind.to_string()));
    }
    let mut text = Vec::new();
    File::open(folder.join(MANIFEST))?
        .take(MANIFEST_LIMIT)
        .read_to_end(&mut text)?;
    let Ok(serde_json::Value::Object(manifest)) = serde_json::from_slice(&text) else {
        return Ok(Err(
            "not a manifest of this engine: not a JSON object".into()
        ));
    };
    Ok(match manifest.get("format") {
        Some(format) if format == RESULTS_FORMAT => current_claims(&manifest),
        Some(_) => Err(format!(
            "not a manifest of this engine: its format is not \"{RESULTS_FORMAT}\""
        )),
        None => legacy_claims(&manifest),
    })
}

/// The claims of a manifest in the current format.
fn current_claims(manifest: &serde_json::Map<String, serde_json::Value>) -> Result<Claims, String> {
    match manifest.get("format_version").and_then(|v| v.as_u64()) {
        Some(version) if version == u64::from(RESULTS_FORMAT_VERSION) => {}
        Some(version) if version > u64::from(RESULTS_FORMAT_VERSION) => {
            return Err(format!(
                "written by a newer version of this engine (format version {version}; this one \
                 reads {RESULTS_FORMAT_VERSION})"
            ))
        }
        _ => return Err("not a manifest of this engine: no valid format_version".into()),
    }
    let digests: Vec<FileDigest> = manifest
        .get("file_digests")
        .cloned()
        .and_then(|digests| serde_json::from_value(digests).ok())
        .ok_or("not a manifest of this engine: no valid file_digests")?;
    Ok(Claims::Digests(
        digests
            .into_iter()
            .map(|digest| (digest.name.clone(), digest))
            .collect(),
    ))
}

/// The claims of a manifest written before digests were recorded, if it is one this engine
/// wrote.
fn legacy_claims(manifest: &serde_json::Map<String, serde_json::Value>) -> Result<Claims, String> {
    let not_ours = || {
        format!(
            "not a manifest of this engine: no \"format\": \"{RESULTS_FORMAT}\" nor the fields \
             of an earlier version's"
        )
    };
    if LEGACY_FIELDS
        .iter()
        .any(|field| !manifest.get(*field).is_some_and(|v| v.is_string()))
    {
        return Err(not_ours());
    }
    let spec = manifest["spec"].as_str().unwrap_or_default();
    if manifest["spec_sha256"].as_str() != Some(hex(&Sha256::digest(spec.as_bytes())).as_str()) {
        return Err(not_ours());
    }
    let files = manifest
        .get("files")
        .and_then(|files| files.as_array())
        .ok_or_else(not_ours)?;
    let listed: std::collections::HashSet<String> = files
        .iter()
        .filter_map(|file| file.as_str().map(str::to_string))
        .collect();
    if listed.len() != files.len() || !listed.contains(MANIFEST) {
        return Err(not_ours());
    }
    Ok(Claims::Legacy(listed))
}

/// Removes the entries `names` of `folder` one by one (only regular files: a name that is
/// now a folder is left), then the folder itself; `Ok(false)` when something is left in it.
pub fn remove_files_then_folder(folder: &Path, names: &[String]) -> io::Result<bool> {
    for name in names {
        let path = folder.join(name);
        match fs::symlink_metadata(&path) {
            Ok(metadata) if not_a_file(&metadata).is_none() => match fs::remove_file(&path) {
                Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
                _ => {}
            },
            _ => {}
        }
    }
    match fs::remove_dir(folder) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(true),
        Err(error) if error.raw_os_error() == Some(libc::ENOTEMPTY) => Ok(false),
        Err(error) if error.raw_os_error() == Some(libc::EEXIST) => Ok(false),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_results(folder: &Path, files: &[(&str, &str)]) {
        fs::create_dir_all(folder).expect("mkdir");
        let mut digests = Vec::new();
        for (name, content) in files {
            fs::write(folder.join(name), content).expect("write");
            digests.push(digest_file(folder, name).expect("digest"));
        }
        let manifest = serde_json::json!({
            "format": RESULTS_FORMAT,
            "format_version": RESULTS_FORMAT_VERSION,
            "file_digests": digests,
        });
        fs::write(folder.join(MANIFEST), manifest.to_string()).expect("write");
    }

    fn whys(folder: &Path) -> Vec<String> {
        match engine_files(folder).expect("read") {
            Ok(names) => panic!("accepted {names:?}"),
            Err(foreign) => foreign.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_folder_the_engine_wrote_is_its_own_manifest_last() {
        let dir = tempfile::tempdir().expect("temp dir");
        write_results(dir.path(), &[("b.csv", "1\n"), ("a.png", "x")]);
        let names = engine_files(dir.path()).expect("read").expect("ours");
        assert_eq!(names, vec!["a.png", "b.csv", "manifest.json"]);
    }

    #[test]
    fn edits_folders_links_and_unlisted_files_are_the_users() {
        let dir = tempfile::tempdir().expect("temp dir");
        write_results(
            dir.path(),
            &[("a.csv", "1\n"), ("b.csv", "2\n"), ("c.csv", "3\n")],
        );
        fs::write(dir.path().join("a.csv"), "9\n").expect("edit");
        fs::remove_file(dir.path().join("b.csv")).expect("rm");
        fs::create_dir(dir.path().join("b.csv")).expect("mkdir");
        fs::remove_file(dir.path().join("c.csv")).expect("rm");
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join("c.csv")).expect("link");
        fs::write(dir.path().join("notes.txt"), "mine").expect("write");
        assert_eq!(
            whys(dir.path()),
            vec![
                "a.csv (changed since this engine wrote it)",
                "b.csv (a folder)",
                "c.csv (a symbolic link)",
                "notes.txt (not listed in manifest.json)",
            ]
        );
    }

    #[test]
    fn another_tools_manifest_proves_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::write(dir.path().join("thesis.tex"), "mine").expect("write");
        fs::write(dir.path().join(MANIFEST), r#"{"files":["thesis.tex"]}"#).expect("write");
        let whys = whys(dir.path());
        assert!(whys[0].starts_with("manifest.json (not a manifest of this engine"));
        assert_eq!(
            whys[1],
            "thesis.tex (no manifest.json of this engine lists it)"
        );
    }

    #[test]
    fn an_earlier_engines_folder_is_accepted_only_as_it_wrote_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let spec = "name = \"x\"\n";
        let manifest = serde_json::json!({
            "experiment": "x", "game": "war", "spec": spec,
            "spec_sha256": hex(&Sha256::digest(spec.as_bytes())),
            "crate_version": "0.1.0", "engine_commit": "unknown",
            "files": ["summary.csv", "notes.tex", "manifest.json"],
        });
        fs::write(dir.path().join(MANIFEST), manifest.to_string()).expect("write");
        fs::write(dir.path().join("summary.csv"), "1\n").expect("write");
        assert_eq!(
            engine_files(dir.path()).expect("read").expect("ours"),
            vec!["summary.csv", "manifest.json"]
        );
        fs::write(dir.path().join("notes.tex"), "mine").expect("write");
        assert_eq!(
            whys(dir.path()),
            vec!["notes.tex (not a kind of file this engine writes)"]
        );
        fs::remove_file(dir.path().join("notes.tex")).expect("rm");
        let mut forged = manifest.clone();
        forged["spec"] = "name = \"y\"\n".into();
        fs::write(dir.path().join(MANIFEST), forged.to_string()).expect("write");
        assert!(whys(dir.path())[0].contains("not a manifest of this engine"));
    }

    #[test]
    fn only_listed_regular_files_are_removed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path().join("old");
        fs::create_dir(&folder).expect("mkdir");
        fs::write(folder.join("a.csv"), "1").expect("write");
        fs::create_dir(folder.join("b.csv")).expect("mkdir");
        let names = vec!["a.csv".to_string(), "b.csv".to_string()];
        assert!(!remove_files_then_folder(&folder, &names).expect("remove"));
        assert!(!folder.join("a.csv").exists() && folder.join("b.csv").is_dir());
        fs::remove_dir(folder.join("b.csv")).expect("rmdir");
        assert!(remove_files_then_folder(&folder, &names).expect("remove"));
        assert!(!folder.exists());
    }
}
