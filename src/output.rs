//! Writing results: a complete new folder is built beside the output folder and swapped in
//! whole, in one step, only once every file was written. Meanwhile a lock keeps other runs
//! out of the same output folder.
//!
//! The guarantees, for an output folder `results/NAME`:
//! - it is always either the old folder or the complete new one, never a mix: the new folder
//!   is built as `results/.NAME.partial-PID` and exchanged with the old one in one rename
//!   (Linux `renameat2(RENAME_EXCHANGE)`; elsewhere two renames with the old folder kept as a
//!   backup until the second succeeds); the old folder is then deleted;
//! - a second run into the same folder fails at once, naming the process that holds it
//!   (`results/.NAME.lock`, removed when the run ends);
//! - a folder holding files this engine did not write (not listed in its `manifest.json`, or
//!   any file when there is no manifest) is never replaced: the run fails before simulating;
//! - staging folders left by runs that were killed (`.NAME.partial-PID` of a process that no
//!   longer exists) are removed by the next run into the same folder;
//! - every error names the folder the user asked for, never the hidden staging folder.

use std::collections::BTreeSet;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};

use crate::interrupt;

/// A staging folder beside the output folder, removed unless committed.
pub struct Staging {
    /// The staging folder.
    dir: PathBuf,
    /// The output folder as the user named it (for messages).
    target: PathBuf,
    /// Where the output folder is: its real parent and its name.
    place: Place,
    files: Vec<String>,
    committed: bool,
    /// Dropped after the staging folder is removed.
    _lock: OutputLock,
}

/// An output folder's real parent folder and its name in it.
struct Place {
    parent: PathBuf,
    name: String,
}

impl Place {
    /// Resolves `target` (following a symbolic link to the real folder), creating its parent.
    fn resolve(target: &Path) -> Result<Place> {
        let full = if target.exists() {
            fs::canonicalize(target)
                .with_context(|| format!("cannot resolve output folder {}", target.display()))?
        } else {
            let parent = match target.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create output folder {}", target.display()))?;
            let name = target
                .file_name()
                .ok_or_else(|| anyhow!("output {} does not name a folder", target.display()))?;
            fs::canonicalize(parent)
                .with_context(|| format!("cannot resolve output folder {}", target.display()))?
                .join(name)
        };
        match (full.parent(), full.file_name()) {
            (Some(parent), Some(name)) => Ok(Place {
                parent: parent.to_path_buf(),
                name: name.to_string_lossy().into_owned(),
            }),
            _ => bail!(
                "output {} cannot be replaced: it is the root folder",
                target.display()
            ),
        }
    }

    fn path(&self) -> PathBuf {
        self.parent.join(&self.name)
    }

    /// A hidden sibling of the output folder, e.g. `.NAME.partial-PID`.
    fn sibling(&self, kind: &str, pid: u32) -> PathBuf {
        self.parent.join(format!(".{}.{kind}-{pid}", self.name))
    }
}

impl Staging {
    /// Prepares to replace the folder `target`: takes the lock, removes staging folders of dead
    /// runs, checks the folder may be replaced and creates the staging folder beside it, so an
    /// unusable output location fails before any simulation.
    pub fn new(target: &Path) -> Result<Staging> {
        if target.exists() && !target.is_dir() {
            bail!("output {} exists and is not a folder", target.display());
        }
        let place = Place::resolve(target)?;
        let lock = OutputLock::acquire(&place, target)?;
        remove_stale(&place);
        check_replaceable(&place, target)?;
        let dir = place.sibling("partial", std::process::id());
        if dir.exists() {
            fs::remove_dir_all(&dir)
                .with_context(|| format!("cannot write to output folder {}", target.display()))?;
        }
        let mut held = interrupt::hold();
        fs::create_dir(&dir)
            .with_context(|| format!("cannot write to output folder {}", target.display()))?;
        held.remove_on_interrupt(&dir, Some(target));
        drop(held);
        Ok(Staging {
            dir,
            target: target.to_path_buf(),
            place,
            files: Vec::new(),
            committed: false,
            _lock: lock,
        })
    }

    /// Where to write the file that will be called `name` in the output folder.
    pub fn file(&mut self, name: &str) -> PathBuf {
        self.files.push(name.to_string());
        self.dir.join(name)
    }

    /// Writes the file `name` with `write`, which is given the path to write; an error names
    /// the file in the output folder and its cause (e.g. "No space left on device").
    pub fn write(&mut self, name: &str, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
        let path = self.file(name);
        write(&path).map_err(|error| {
            anyhow!(
                "cannot write {}: {}",
                self.target.join(name).display(),
                error.root_cause()
            )
        })
    }

    /// Names of the files written so far.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// Replaces the output folder with the staging folder in one step and deletes the old one.
    pub fn commit(mut self) -> Result<PathBuf> {
        check_replaceable(&self.place, &self.target)?;
        let target = self.place.path();
        let moved = || format!("cannot move the results into {}", self.target.display());
        let mut held = interrupt::hold();
        if !target.exists() {
            fs::rename(&self.dir, &target).with_context(moved)?;
            held.forget(&self.dir);
            held.mark_complete(&self.target);
            self.committed = true;
            return Ok(self.target.clone());
        }
        // The old folder ends up at `old`, which is then deleted.
        let old = match exchange(&self.dir, &target) {
            Ok(()) => self.dir.clone(),
            Err(error) if exchange_unsupported(&error) => {
                let backup = self.place.sibling("old", std::process::id());
                fs::rename(&target, &backup).with_context(moved)?;
                held.remove_on_interrupt(&backup, None);
                if let Err(error) = fs::rename(&self.dir, &target) {
                    let restored = fs::rename(&backup, &target);
                    held.forget(&backup);
                    return Err(error).with_context(|| match restored {
                        Ok(()) => moved(),
                        Err(_) => {
                            format!("{}; the old results are in {}", moved(), backup.display())
                        }
                    });
                }
                held.forget(&self.dir);
                backup
            }
            Err(error) => return Err(error).with_context(moved),
        };
        self.committed = true;
        // From here the output folder is complete: an interrupt only deletes the old one.
        held.forget(&self.dir);
        held.mark_complete(&self.target);
        held.remove_on_interrupt(&old, None);
        drop(held);
        interrupt::remove_folder(&old);
        interrupt::hold().forget(&old);
        Ok(self.target.clone())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            interrupt::remove_folder(&self.dir);
            interrupt::hold().forget(&self.dir);
        }
    }
}

/// Exchanges two folders atomically.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both pointers are valid NUL-terminated strings that outlive the call.
    let status = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if status == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Exchanges two folders atomically (not available here: the caller falls back).
#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

/// Whether `error` means the system or file system cannot exchange folders.
fn exchange_unsupported(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::Unsupported
        || matches!(error.raw_os_error(), Some(code) if code == libc::EINVAL || code == libc::ENOSYS)
}

/// Fails unless the folder at `place` may be replaced whole: it must not exist, or be a folder
/// on the same file system as its parent (not a mount point), holding only files listed in its
/// `manifest.json`.
fn check_replaceable(place: &Place, target: &Path) -> Result<()> {
    let path = place.path();
    let Ok(metadata) = fs::symlink_metadata(&path) else {
        return Ok(());
    };
    if !metadata.is_dir() {
        bail!("output {} exists and is not a folder", target.display());
    }
    let parent = fs::metadata(&place.parent)
        .with_context(|| format!("cannot read output folder {}", target.display()))?;
    if parent.dev() != metadata.dev() {
        bail!(
            "output {} is a mount point, which cannot be replaced in one step; write to a \
             folder inside it instead (e.g. --out {})",
            target.display(),
            target.join("results").display()
        );
    }
    let foreign = foreign_files(&path)
        .with_context(|| format!("cannot read output folder {}", target.display()))?;
    if !foreign.is_empty() {
        let shown: Vec<&str> = foreign.iter().take(5).map(String::as_str).collect();
        let more = match foreign.len() {
            n if n > 5 => format!(" and {} more", n - 5),
            _ => String::new(),
        };
        bail!(
            "output {} holds files this engine did not write ({}{more}); a run replaces the \
             whole folder, so move them elsewhere or choose another --out",
            target.display(),
            shown.join(", ")
        );
    }
    Ok(())
}

/// Names in `folder` that its `manifest.json` does not list (all of them without a manifest).
fn foreign_files(folder: &Path) -> io::Result<Vec<String>> {
    let mut names = BTreeSet::new();
    for entry in fs::read_dir(folder)? {
        names.insert(entry?.file_name().to_string_lossy().into_owned());
    }
    if let Ok(text) = fs::read_to_string(folder.join("manifest.json")) {
        if let Ok(manifest) = serde_json::from_str::<serde_json::Value>(&text) {
            if let Some(files) = manifest["files"].as_array() {
                names.remove("manifest.json");
                for file in files.iter().filter_map(|file| file.as_str()) {
                    names.remove(file);
                }
            }
        }
    }
    Ok(names.into_iter().collect())
}

/// Removes the staging folders of runs into `place` whose process no longer exists, and
/// puts back an old folder whose swap a killed run left half done.
fn remove_stale(place: &Place) {
    let Ok(entries) = fs::read_dir(&place.parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(&format!(".{}.", place.name)) else {
            continue;
        };
        let Some((kind, pid)) = rest.split_once('-') else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() || process_exists(pid) {
            continue;
        }
        match kind {
            "partial" => interrupt::remove_folder(&entry.path()),
            "old" if !place.path().exists() => {
                let _ = fs::rename(entry.path(), place.path());
            }
            "old" => interrupt::remove_folder(&entry.path()),
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

/// An exclusive lock on an output folder: the file `.NAME.lock` beside it, locked and holding
/// the owner's process id; removed (then unlocked) when dropped.
struct OutputLock {
    path: PathBuf,
    _file: File,
}

impl OutputLock {
    /// Takes the lock of `place`, failing at once if another run holds it.
    fn acquire(place: &Place, target: &Path) -> Result<OutputLock> {
        let path = place.parent.join(format!(".{}.lock", place.name));
        let cannot = || format!("cannot write to output folder {}", target.display());
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .with_context(cannot)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let owner = fs::read_to_string(&path).unwrap_or_default();
                    let owner = match owner.trim() {
                        "" => String::new(),
                        pid => format!(" (process {pid})"),
                    };
                    bail!(
                        "another run{owner} is writing to output folder {}; wait for it to end \
                         or choose another --out",
                        target.display()
                    );
                }
                Err(TryLockError::Error(error)) => {
                    return Err(error)
                        .with_context(|| format!("cannot lock output folder {}", target.display()))
                }
            }
            // The previous owner removes the file before unlocking it: if we locked a file
            // that is no longer at `path`, try again with the new one.
            let ours = file.metadata().with_context(cannot)?;
            match fs::metadata(&path) {
                Ok(now) if now.ino() == ours.ino() && now.dev() == ours.dev() => {}
                _ => continue,
            }
            file.set_len(0).with_context(cannot)?;
            write!(file, "{}", std::process::id()).with_context(cannot)?;
            interrupt::hold().remove_file_on_interrupt(&path);
            return Ok(OutputLock { path, _file: file });
        }
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let mut held = interrupt::hold();
        let _ = fs::remove_file(&self.path);
        held.forget(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(folder)
            .expect("list")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    /// Writes `files` and a manifest listing them, as a run does.
    fn run_into(target: &Path, files: &[&str]) -> Result<PathBuf> {
        let mut staging = Staging::new(target)?;
        for name in files {
            fs::write(staging.file(name), "x\n").expect("write");
        }
        let mut listed: Vec<String> = staging.files().to_vec();
        listed.push("manifest.json".into());
        let manifest = serde_json::json!({ "files": listed }).to_string();
        fs::write(staging.file("manifest.json"), manifest).expect("write");
        staging.commit()
    }

    #[test]
    fn nothing_reaches_the_output_folder_until_commit() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        let mut staging = Staging::new(&target).expect("staging");
        fs::write(staging.file("a.csv"), "x\n").expect("write");
        assert!(!target.exists());
        staging.commit().expect("commit");
        assert_eq!(
            fs::read_to_string(target.join("a.csv")).expect("read"),
            "x\n"
        );
        assert_eq!(
            names(root.path()),
            vec!["out"],
            "only the output folder remains"
        );
    }

    #[test]
    fn a_dropped_staging_folder_leaves_nothing_behind() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        {
            let mut staging = Staging::new(&target).expect("staging");
            fs::write(staging.file("a.csv"), "x\n").expect("write");
        }
        assert_eq!(fs::read_dir(root.path()).expect("list").count(), 0);
    }

    #[test]
    fn a_new_run_replaces_the_whole_folder_and_leaves_no_old_files() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        run_into(&target, &["a.csv", "a.png"]).expect("first run");
        run_into(&target, &["b.csv"]).expect("second run");
        assert_eq!(names(&target), vec!["b.csv", "manifest.json"]);
        assert_eq!(names(root.path()), vec!["out"]);
    }

    #[test]
    fn a_folder_with_files_the_engine_did_not_write_is_never_replaced() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        run_into(&target, &["a.csv"]).expect("first run");
        fs::write(target.join("notes.txt"), "mine\n").expect("write");
        let error = run_into(&target, &["b.csv"]).expect_err("refused");
        let message = format!("{error:#}");
        assert!(message.contains("notes.txt"), "{message}");
        assert!(message.contains(&target.display().to_string()), "{message}");
        assert_eq!(names(&target), vec!["a.csv", "manifest.json", "notes.txt"]);
        // A folder without a manifest is the user's own.
        let own = root.path().join("own");
        fs::create_dir(&own).expect("mkdir");
        fs::write(own.join("data.csv"), "1\n").expect("write");
        assert!(Staging::new(&own).is_err());
        assert_eq!(names(&own), vec!["data.csv"]);
    }

    #[test]
    fn an_empty_folder_is_replaced() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        fs::create_dir(&target).expect("mkdir");
        run_into(&target, &["a.csv"]).expect("run");
        assert_eq!(names(&target), vec!["a.csv", "manifest.json"]);
    }

    #[test]
    fn a_second_run_into_the_same_folder_fails_while_the_first_holds_it() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        let first = Staging::new(&target).expect("first");
        let error = Staging::new(&target).err().expect("second refused");
        let message = format!("{error:#}");
        assert!(message.contains("another run"), "{message}");
        assert!(
            message.contains(&std::process::id().to_string()),
            "{message}"
        );
        drop(first);
        Staging::new(&target).expect("free again");
    }

    #[test]
    fn staging_folders_of_dead_processes_are_removed_and_live_ones_kept() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let dead = child.id();
        child.wait().expect("wait");
        let stale = root.path().join(format!(".out.partial-{dead}"));
        fs::create_dir(&stale).expect("mkdir");
        fs::write(stale.join("a.csv"), "x\n").expect("write");
        // Process 1 always exists.
        let live = root.path().join(".out.partial-1");
        fs::create_dir(&live).expect("mkdir");
        let other = root.path().join(".outer.partial-99999999");
        fs::create_dir(&other).expect("mkdir");
        run_into(&target, &["a.csv"]).expect("run");
        assert!(!stale.exists());
        assert!(live.exists() && other.exists());
    }

    #[test]
    fn a_half_done_swap_of_a_killed_run_is_put_back() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        run_into(&target, &["a.csv"]).expect("run");
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let dead = child.id();
        child.wait().expect("wait");
        let backup = root.path().join(format!(".out.old-{dead}"));
        fs::rename(&target, &backup).expect("rename");
        let staging = Staging::new(&target).expect("staging");
        assert_eq!(names(&target), vec!["a.csv", "manifest.json"]);
        assert!(!backup.exists());
        drop(staging);
    }

    #[test]
    fn errors_name_the_output_folder_not_the_staging_folder() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        let mut staging = Staging::new(&target).expect("staging");
        let error = staging
            .write("a.csv", |path| {
                Err(io::Error::other("disk on fire")).with_context(|| path.display().to_string())
            })
            .expect_err("failed write");
        assert_eq!(
            error.to_string(),
            format!(
                "cannot write {}: disk on fire",
                target.join("a.csv").display()
            )
        );
    }
}
