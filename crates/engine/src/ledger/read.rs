//! Reading a summaries file's text with bounds: only a regular file (a FIFO, a device such as
//! `/dev/zero` or a folder is refused before it is opened for reading), and at most a size
//! limit, read no further than that limit.

use std::fs::OpenOptions;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

use anyhow::{bail, Context, Result};

/// The largest summaries file read unless [`LIMIT_VARIABLE`] says otherwise, in MiB.
pub const DEFAULT_LIMIT_MIB: u64 = 256;
/// The environment variable that sets the largest summaries file read, in MiB.
pub const LIMIT_VARIABLE: &str = "EXPERIMENT_MAX_SUMMARIES_MIB";
/// The largest limit [`LIMIT_VARIABLE`] may set, in MiB (1 TiB).
const MAX_LIMIT_MIB: u64 = 1 << 20;

/// The largest summaries file read, in bytes: [`LIMIT_VARIABLE`] MiB, or
/// [`DEFAULT_LIMIT_MIB`].
pub fn limit_bytes() -> Result<u64> {
    let mib = match std::env::var(LIMIT_VARIABLE) {
        Err(std::env::VarError::NotPresent) => DEFAULT_LIMIT_MIB,
        Ok(text) => match text.trim().parse::<u64>() {
            Ok(mib) if (1..=MAX_LIMIT_MIB).contains(&mib) => mib,
            _ => bail!(
                "{LIMIT_VARIABLE}={text} is not a size: give a whole number of MiB from 1 to \
                 {MAX_LIMIT_MIB} (the default is {DEFAULT_LIMIT_MIB})"
            ),
        },
        Err(std::env::VarError::NotUnicode(_)) => {
            bail!("{LIMIT_VARIABLE} is not a whole number of MiB")
        }
    };
    Ok(mib << 20)
}

/// The text of the summaries file at `path`: a regular file of at most [`limit_bytes`] bytes
/// of UTF-8.
pub fn read_text(path: &Path) -> Result<String> {
    let cannot = || format!("cannot read summaries file {}", path.display());
    let limit = limit_bytes()?;
    // Looked at before opening: opening a FIFO for reading waits for a writer.
    let metadata = std::fs::metadata(path).with_context(cannot)?;
    refuse_unless_regular(path, &metadata)?;
    refuse_if_larger(path, metadata.len(), limit)?;
    // Opened without waiting, in case it was swapped for a FIFO meanwhile, and checked again.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .with_context(cannot)?;
    refuse_unless_regular(path, &file.metadata().with_context(cannot)?)?;
    let bytes = read_bounded(file, limit, path)?;
    String::from_utf8(bytes).map_err(|err| {
        anyhow::anyhow!(
            "{} is not a summaries file written by `experiment` (not UTF-8 text: {err})",
            path.display()
        )
    })
}

/// Refuses anything but a regular file, naming what it is.
fn refuse_unless_regular(path: &Path, metadata: &std::fs::Metadata) -> Result<()> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    };
    bail!(
        "{} is {what}: a summaries file is a regular file written by `experiment run` (a \
         shard file or a checkpoint)",
        path.display()
    )
}

/// Refuses a file of `size` bytes when it is larger than `limit`.
fn refuse_if_larger(path: &Path, size: u64, limit: u64) -> Result<()> {
    if size <= limit {
        return Ok(());
    }
    bail!(
        "{} is larger than {} MiB, the most a summaries file may have: set {LIMIT_VARIABLE} \
         to a larger number of MiB (e.g. {LIMIT_VARIABLE}={}) to read it",
        path.display(),
        limit >> 20,
        size.div_ceil(1 << 20).max((limit >> 20) + 1)
    )
}

/// Reads `file` to its end, stopping with an error once it has given more than `limit`
/// bytes (a file that grew after its size was looked at).
fn read_bounded(file: impl Read, limit: u64, path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read summaries file {}", path.display()))?;
    if bytes.len() as u64 > limit {
        // The exact size is unknown; say at least one byte more than the limit.
        refuse_if_larger(path, limit + 1, limit)?;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_reader_stops_at_the_limit() {
        let started = std::time::Instant::now();
        let error = read_bounded(std::io::repeat(b'x'), 1 << 20, Path::new("endless"))
            .expect_err("refused");
        assert!(error.to_string().contains("larger than 1 MiB"), "{error}");
        assert!(started.elapsed().as_secs() < 5);
        let read = read_bounded(&b"{}"[..], 1 << 20, Path::new("small")).expect("read");
        assert_eq!(read, b"{}");
    }
}
