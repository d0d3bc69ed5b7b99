//! Writing results: a complete new folder is built beside the output folder and swapped in
//! whole, in one step, only once every file was written. Meanwhile a lock keeps other runs
//! out of the same output folder.
//!
//! The guarantees, for an output folder `results/NAME`:
//! - it is always either the old folder or the complete new one, never a mix: the new folder
//!   is built as `results/.NAME.partial-PID` and exchanged with the old one in one rename
//!   (Linux `renameat2(RENAME_EXCHANGE)`; elsewhere two renames with the old folder kept as a
//!   backup until the second succeeds); the old folder's files are then deleted one by one;
//! - a second run into the same folder fails at once, naming the process that holds it
//!   (`results/.NAME.lock`, removed when the run ends; see [`lock`]);
//! - only what the engine can prove it wrote is deleted: an existing folder is replaced only
//!   if it is empty or every entry in it is a file its `manifest.json` lists with the size
//!   and SHA-256 it still has (see [`identity`]); otherwise the run fails before simulating,
//!   naming each entry and why;
//! - staging folders left by runs that were killed (`.NAME.partial-PID` of a process that no
//!   longer exists, marked as the engine's) are removed by the next run into the same folder
//!   (see [`stale`]);
//! - every error names the folder the user asked for, never the hidden staging folder.

pub mod identity;
mod lock;
mod stale;

use crate::console::note;
use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};

use crate::interrupt;
use identity::{engine_files, remove_files_then_folder, FileDigest, Foreign};
use lock::OutputLock;
use stale::{mark, removable, remove_stale, STAGING_MARKER};

/// The folder a command writes into by default (`results/<spec name>`), and the name a
/// folder path without a name of its own stands for.
pub const RESULTS_FOLDER: &str = "results";

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
        crate::memory::check_address_space()?;
        crate::frame::start_table_writers()?;
        let place = Place::resolve(target)?;
        let lock = OutputLock::acquire(place.parent.join(format!(".{}.lock", place.name)), target)?;
        remove_stale(&place);
        check_replaceable(&place, target)?;
        let dir = place.sibling("partial", std::process::id());
        let cannot = || format!("cannot write to output folder {}", target.display());
        if fs::symlink_metadata(&dir).is_ok() {
            // Left by an earlier process with this same id.
            match removable(&dir, std::process::id()).with_context(cannot)? {
                Some(names) if remove_files_then_folder(&dir, &names).with_context(cannot)? => {}
                _ => bail!(
                    "output folder {}: {} beside it is not a staging folder of this engine, so it \
                     was left as it is; move it away or choose another --out",
                    target.display(),
                    dir.display()
                ),
            }
        }
        let mut held = interrupt::hold();
        fs::create_dir(&dir).with_context(cannot)?;
        held.remove_on_interrupt(&dir, Some(target));
        drop(held);
        let staging = Staging {
            dir,
            target: target.to_path_buf(),
            place,
            files: Vec::new(),
            committed: false,
            _lock: lock,
        };
        mark(&staging.dir).with_context(cannot)?;
        Ok(staging)
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

    /// The size and SHA-256 of each file written so far, for the manifest (which must list
    /// them all for a later run to replace the folder).
    pub fn digests(&self) -> Result<Vec<FileDigest>> {
        self.files
            .iter()
            .map(|name| {
                identity::digest_file(&self.dir, name).with_context(|| {
                    format!("cannot read back {}", self.target.join(name).display())
                })
            })
            .collect()
    }

    /// Replaces the output folder with the staging folder in one step and deletes the old
    /// one's files. The staging folder must hold a manifest listing all its files with their
    /// digests ([`Staging::digests`]), so that a later run can replace it in turn.
    pub fn commit(mut self) -> Result<PathBuf> {
        let old_names = check_replaceable(&self.place, &self.target)?;
        let moved = || format!("cannot move the results into {}", self.target.display());
        fs::remove_file(self.dir.join(STAGING_MARKER)).with_context(moved)?;
        if let Err(foreign) = engine_files(&self.dir).with_context(moved)? {
            bail!(
                "{}: the new results do not match their own manifest ({})",
                moved(),
                listing(&foreign)
            );
        }
        let target = self.place.path();
        let mut held = interrupt::hold();
        if fs::symlink_metadata(&target).is_err() {
            fs::rename(&self.dir, &target).with_context(moved)?;
            held.forget(&self.dir);
            held.mark_complete(&self.target);
            self.committed = true;
            return Ok(self.target.clone());
        }
        // The old folder ends up at `old`, whose files are then deleted.
        let old = match exchange(&self.dir, &target) {
            Ok(()) => self.dir.clone(),
            Err(error) if exchange_unsupported(&error) => {
                let backup = self.place.sibling("old", std::process::id());
                if fs::symlink_metadata(&backup).is_ok() {
                    bail!(
                        "{}: {} is in the way (not made by this run); move it away",
                        moved(),
                        backup.display()
                    );
                }
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
        let removed = remove_files_then_folder(&old, &old_names);
        interrupt::hold().forget(&old);
        match removed {
            Ok(true) => {}
            _ => note!(
                "Note: the previous results of {} are left in {}: something there could not \
                 be removed",
                self.target.display(),
                old.display()
            ),
        }
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

/// Up to five entries and why, then how many more.
fn listing(foreign: &[Foreign]) -> String {
    let shown: Vec<String> = foreign.iter().take(5).map(ToString::to_string).collect();
    match foreign.len() {
        n if n > 5 => format!("{} and {} more", shown.join(", "), n - 5),
        _ => shown.join(", "),
    }
}

/// Fails unless the folder at `place` may be replaced whole: it must not exist, or be a folder
/// on the same file system as its parent (not a mount point) that is empty or provably the
/// engine's (see [`identity`]). Returns the names of its entries, to delete once replaced.
fn check_replaceable(place: &Place, target: &Path) -> Result<Vec<String>> {
    let path = place.path();
    let Ok(metadata) = fs::symlink_metadata(&path) else {
        return Ok(Vec::new());
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
            target.join(RESULTS_FOLDER).display()
        );
    }
    match engine_files(&path)
        .with_context(|| format!("cannot read output folder {}", target.display()))?
    {
        Ok(names) => Ok(names),
        Err(foreign) => bail!(
            "output {} holds files this engine did not write, or cannot prove it wrote: {}; a \
             run replaces the whole folder, so move them elsewhere or choose another --out \
             (nothing was deleted)",
            target.display(),
            listing(&foreign)
        ),
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
        write_manifest(&mut staging);
        staging.commit()
    }

    /// Writes the manifest a run writes last: its format and the digests of the files.
    fn write_manifest(staging: &mut Staging) {
        let manifest = serde_json::json!({
            "format": identity::RESULTS_FORMAT,
            "format_version": identity::RESULTS_FORMAT_VERSION,
            "file_digests": staging.digests().expect("digests"),
        })
        .to_string();
        fs::write(staging.file("manifest.json"), manifest).expect("write");
    }

    #[test]
    fn nothing_reaches_the_output_folder_until_commit() {
        let root = tempfile::tempdir().expect("temp dir");
        let target = root.path().join("out");
        let mut staging = Staging::new(&target).expect("staging");
        fs::write(staging.file("a.csv"), "x\n").expect("write");
        assert!(!target.exists());
        write_manifest(&mut staging);
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
        assert_eq!(names(&target), vec!["a.csv", "manifest.json"], "no marker");
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
        fs::write(stale.join(STAGING_MARKER), stale::marker(dead)).expect("write");
        // Not marked as the engine's: the user's, kept.
        let unmarked = root.path().join(".out.partial-999999");
        fs::create_dir(&unmarked).expect("mkdir");
        // Process 1 always exists.
        let live = root.path().join(".out.partial-1");
        fs::create_dir(&live).expect("mkdir");
        let other = root.path().join(".outer.partial-99999999");
        fs::create_dir(&other).expect("mkdir");
        run_into(&target, &["a.csv"]).expect("run");
        assert!(!stale.exists());
        assert!(live.exists() && other.exists() && unmarked.exists());
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
