//! What a killed run leaves beside an output folder, and how the next run tells it apart from
//! the user's own files of the same names.
//!
//! A staging folder `.NAME.partial-PID` holds the marker file `.experiment-staging` (written
//! first, removed just before the folder is swapped in), which says `experiment-staging 1`
//! and the run's process id. A staging folder, or an old folder `.NAME.old-PID` kept during
//! a fallback swap, of a process that no longer exists is removed (an old folder put back
//! when the output folder is missing) only when it is provably the engine's: it holds the
//! marker of that very process and nothing but regular files, or it is a results folder this
//! engine wrote (see [`super::identity`]). Anything else of those names is left alone.

use std::fs;
use std::io;
use std::path::Path;

use super::identity::{engine_files, remove_files_then_folder};
use super::Place;

/// The marker file's name inside a staging folder.
pub const STAGING_MARKER: &str = ".experiment-staging";

/// The marker's content for the run with process id `pid`.
pub fn marker(pid: u32) -> String {
    format!("experiment-staging 1\npid {pid}\n")
}

/// Writes the marker of this process into the new staging folder `dir`.
pub fn mark(dir: &Path) -> io::Result<()> {
    fs::write(dir.join(STAGING_MARKER), marker(std::process::id()))
}

/// The names to remove, marker last, if `folder` is provably the engine's: the staging
/// folder of process `pid` (its marker and only regular files) or one of its results folders.
pub fn removable(folder: &Path, pid: u32) -> io::Result<Option<Vec<String>>> {
    let metadata = fs::symlink_metadata(folder)?;
    if !metadata.is_dir() {
        return Ok(None);
    }
    let marker_path = folder.join(STAGING_MARKER);
    let marked = fs::symlink_metadata(&marker_path).is_ok_and(|m| m.is_file())
        && fs::read(&marker_path)? == marker(pid).as_bytes();
    if marked {
        let mut names = Vec::new();
        for entry in fs::read_dir(folder)? {
            let entry = entry?;
            if !fs::symlink_metadata(entry.path())?.is_file() {
                return Ok(None);
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            if name != STAGING_MARKER {
                names.push(name);
            }
        }
        names.push(STAGING_MARKER.to_string());
        return Ok(Some(names));
    }
    // An empty folder proves nothing: it may be the user's.
    Ok(engine_files(folder)?.ok().filter(|names| !names.is_empty()))
}

/// Removes the staging folders of runs into `place` whose process no longer exists, and
/// puts back an old folder whose swap a killed run left half done; only what is provably
/// the engine's (see the module's documentation).
pub fn remove_stale(place: &Place) {
    let Ok(entries) = fs::read_dir(&place.parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(&format!(".{}.", place.name)) else {
            continue;
        };
        let Some((kind, digits)) = rest.split_once('-') else {
            continue;
        };
        let Ok(pid) = digits.parse::<u32>() else {
            continue;
        };
        // Only the names this engine gives (no sign, no leading zero).
        if pid.to_string() != digits || pid == std::process::id() || process_exists(pid) {
            continue;
        }
        let path = entry.path();
        match (kind, removable(&path, pid)) {
            ("partial", Ok(Some(names))) => {
                let _ = remove_files_then_folder(&path, &names);
            }
            ("old", Ok(Some(_))) if !place.path().exists() => {
                let _ = fs::rename(&path, place.path());
            }
            ("old", Ok(Some(names))) => {
                let _ = remove_files_then_folder(&path, &names);
            }
            _ => {}
        }
    }
}

/// Whether a process `pid` exists.
fn process_exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let status = unsafe { libc::kill(pid, 0) };
    status == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staging_folder_is_removable_only_with_its_own_marker_and_plain_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path().join(".out.partial-999999");
        fs::create_dir(&folder).expect("mkdir");
        assert_eq!(removable(&folder, 999999).expect("read"), None, "empty");
        fs::write(folder.join("a.csv"), "1").expect("write");
        assert_eq!(removable(&folder, 999999).expect("read"), None);
        fs::write(folder.join(STAGING_MARKER), marker(999998)).expect("write");
        assert_eq!(
            removable(&folder, 999999).expect("read"),
            None,
            "another pid"
        );
        fs::write(folder.join(STAGING_MARKER), marker(999999)).expect("write");
        assert_eq!(
            removable(&folder, 999999).expect("read"),
            Some(vec!["a.csv".to_string(), STAGING_MARKER.to_string()])
        );
        fs::create_dir(folder.join("notes")).expect("mkdir");
        assert_eq!(removable(&folder, 999999).expect("read"), None, "a folder");
    }
}
