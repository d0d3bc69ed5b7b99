//! The lock of an output folder: the file `.NAME.lock` beside it, locked (`flock`) while a run
//! writes the folder and holding `experiment-output-lock 1` and the run's process id.
//!
//! A file of that name is only ever taken over when it holds that marker (its run has ended:
//! nobody holds the lock); a user's own file of that name, a link or a folder there is never
//! truncated or removed: the run refuses, naming it.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::interrupt;

/// The first line of every lock file this engine writes.
const LOCK_MARKER: &str = "experiment-output-lock 1";
/// How long an empty lock file (its run is between creating and filling it) is waited for.
const EMPTY_WAIT: Duration = Duration::from_millis(20);
const EMPTY_TRIES: u32 = 50;

/// An exclusive lock on an output folder, removed (then unlocked) when dropped.
pub struct OutputLock {
    path: PathBuf,
    file: File,
}

/// What a lock file of this engine says: the process id of its run.
fn owner(content: &str) -> Option<u32> {
    let mut lines = content.lines();
    if lines.next() != Some(LOCK_MARKER) {
        return None;
    }
    let pid = lines.next()?.strip_prefix("pid ")?.parse().ok()?;
    lines.next().is_none().then_some(pid)
}

fn content(file: &mut File) -> io::Result<String> {
    let mut bytes = Vec::new();
    file.rewind()?;
    file.take(4096).read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn open(path: &Path, create: bool) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(create)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

impl OutputLock {
    /// Takes the lock at `path` for the output folder `target` (named in messages), failing
    /// at once if another run holds it or the file there is not this engine's.
    pub fn acquire(path: PathBuf, target: &Path) -> Result<OutputLock> {
        let cannot = || format!("cannot write to output folder {}", target.display());
        let not_ours = |what: &str| {
            format!(
                "output folder {}: {} beside it is {what}, not a lock of this engine, so it was \
                 left as it is; move it away or choose another --out",
                target.display(),
                path.display()
            )
        };
        let mut empty_seen = 0;
        loop {
            let (mut file, created) = match open(&path, true) {
                Ok(file) => (file, true),
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    match open(&path, false) {
                        Ok(file) => (file, false),
                        Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                        Err(error) if error.raw_os_error() == Some(libc::ELOOP) => {
                            bail!(not_ours("a symbolic link"))
                        }
                        Err(error) if error.raw_os_error() == Some(libc::EISDIR) => {
                            bail!(not_ours("a folder"))
                        }
                        Err(error) => return Err(error).with_context(cannot),
                    }
                }
                Err(error) => return Err(error).with_context(cannot),
            };
            if !file.metadata().with_context(cannot)?.is_file() {
                bail!(not_ours("not a regular file"));
            }
            // The run that created the file locks it at once; anyone else only looks.
            let locked = if created {
                file.lock().map_err(TryLockError::Error)
            } else {
                file.try_lock()
            };
            match locked {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let owner = match content(&mut file).ok().as_deref().and_then(owner) {
                        Some(pid) => format!(" (process {pid})"),
                        None => String::new(),
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
            match fs::symlink_metadata(&path) {
                Ok(now) if now.ino() == ours.ino() && now.dev() == ours.dev() => {}
                _ => continue,
            }
            if !created {
                let found = content(&mut file).with_context(cannot)?;
                if found.is_empty() && empty_seen < EMPTY_TRIES {
                    // Its run may be between creating and filling it: look again shortly.
                    empty_seen += 1;
                    drop(file);
                    std::thread::sleep(EMPTY_WAIT);
                    continue;
                }
                if owner(&found).is_none() {
                    bail!(not_ours(match found.is_empty() {
                        true => "an empty file",
                        false => "a file holding something else",
                    }));
                }
            }
            file.set_len(0).with_context(cannot)?;
            file.rewind().with_context(cannot)?;
            write!(file, "{LOCK_MARKER}\npid {}\n", std::process::id()).with_context(cannot)?;
            interrupt::hold().remove_file_on_interrupt(&path);
            return Ok(OutputLock { path, file });
        }
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let mut held = interrupt::hold();
        let still_ours = match (self.file.metadata(), fs::symlink_metadata(&self.path)) {
            (Ok(ours), Ok(now)) => ours.ino() == now.ino() && ours.dev() == now.dev(),
            _ => false,
        };
        if still_ours {
            let _ = fs::remove_file(&self.path);
        }
        held.forget(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_engines_own_lock_content_names_an_owner() {
        assert_eq!(owner("experiment-output-lock 1\npid 42\n"), Some(42));
        assert_eq!(owner("experiment-output-lock 1\npid 42\nmore\n"), None);
        assert_eq!(owner("42"), None);
        assert_eq!(owner("my notes\n"), None);
    }

    #[test]
    fn a_users_file_of_the_locks_name_is_left_as_it_is() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(".out.lock");
        fs::write(&path, "my notes\n").expect("write");
        let error = OutputLock::acquire(path.clone(), &dir.path().join("out"))
            .err()
            .expect("refused");
        assert!(
            error.to_string().contains("not a lock of this engine"),
            "{error}"
        );
        assert_eq!(fs::read_to_string(&path).expect("read"), "my notes\n");
    }

    #[test]
    fn a_lock_left_by_a_killed_run_is_taken_over_and_removed_after() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(".out.lock");
        fs::write(&path, "experiment-output-lock 1\npid 999999\n").expect("write");
        let lock = OutputLock::acquire(path.clone(), &dir.path().join("out")).expect("taken");
        assert_eq!(
            owner(&fs::read_to_string(&path).expect("read")),
            Some(std::process::id())
        );
        drop(lock);
        assert!(!path.exists());
    }
}
