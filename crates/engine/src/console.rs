//! Messages to the person at the terminal. A message that cannot be written (standard error
//! closed, a full disk under a Slurm log) is dropped rather than ending the program: the work
//! and its exit status matter more than the words about them. `println!` and `eprintln!`
//! would panic instead (exit 101), so the engine writes its messages only through [`note!`].

use std::fmt;
use std::io::Write;

/// Writes one line to standard error; a failure to write is ignored (see the module's doc).
pub fn write_note(message: fmt::Arguments<'_>) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr
        .write_fmt(message)
        .and_then(|()| stderr.write_all(b"\n"));
}

/// `eprintln!` that never panics: formats its arguments and writes them as one line to
/// standard error through [`write_note`].
#[macro_export]
#[doc(hidden)]
macro_rules! console_note {
    ($($arg:tt)*) => {
        $crate::console::write_note(format_args!($($arg)*))
    };
}
pub use super::console_note as note;
