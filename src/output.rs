//! Writing results: every file goes to a staging folder first and is renamed into the output
//! folder only when all of them were written, so a failed or interrupted run leaves no
//! half-written result.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// A staging folder beside the output folder, removed unless committed.
pub struct Staging {
    dir: PathBuf,
    target: PathBuf,
    files: Vec<String>,
    committed: bool,
}

impl Staging {
    /// Prepares to write into `target` (created when committing).
    pub fn new(target: &Path) -> Result<Staging> {
        let parent = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if target.exists() && !target.is_dir() {
            anyhow::bail!("output {} exists and is not a folder", target.display());
        }
        fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create output folder {}", parent.display()))?;
        let stem = target
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_else(|| "results".to_string());
        let dir = parent.join(format!(".{stem}.partial-{}", std::process::id()));
        if dir.exists() {
            fs::remove_dir_all(&dir).with_context(|| format!("cannot clear {}", dir.display()))?;
        }
        fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Staging {
            dir,
            target: target.to_path_buf(),
            files: Vec::new(),
            committed: false,
        })
    }

    /// Where to write the file that will be called `name` in the output folder.
    pub fn file(&mut self, name: &str) -> PathBuf {
        self.files.push(name.to_string());
        self.dir.join(name)
    }

    /// Names of the files written so far.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// Moves every staged file into the output folder.
    pub fn commit(mut self) -> Result<PathBuf> {
        fs::create_dir_all(&self.target)
            .with_context(|| format!("cannot create output folder {}", self.target.display()))?;
        for name in &self.files {
            let to = self.target.join(name);
            fs::rename(self.dir.join(name), &to)
                .with_context(|| format!("cannot move results into {}", to.display()))?;
        }
        self.committed = true;
        let _ = fs::remove_dir_all(&self.dir);
        Ok(self.target.clone())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let leftovers: Vec<_> = fs::read_dir(root.path()).expect("list").collect();
        assert_eq!(leftovers.len(), 1, "only the output folder remains");
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
}
