//! Words for a POSIX shell: every command line the engine prints or writes into a script (the
//! "reproduce" line of a report, the resume hint, the Slurm job scripts) is quoted here, so
//! that any name or path comes back as the same single word when the line is pasted or run.

/// `text` as one word of a shell command: as it is when it holds only characters no shell
/// treats specially (ASCII letters, digits and `-_./=:,+@%`), otherwise in single quotes
/// (`'it'\''s'`). Text with control characters (a newline, a tab, …) is written in ANSI-C
/// quotes instead (`$'a\nb'`, understood by bash, zsh, ksh and POSIX.1-2024 shells), so that
/// the word stays on one line.
pub fn quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else if control_character(text).is_none() {
        format!("'{}'", text.replace('\'', r"'\''"))
    } else {
        ansi_c_quote(text)
    }
}

/// `words`, each quoted with [`quote`], joined by spaces.
pub fn command<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    words
        .into_iter()
        .map(|word| quote(word.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `path` as a command-line argument: a relative path that starts with `-` gets `./` in
/// front, so that it is not read as an option (quote it with [`quote`] or [`command`]).
pub fn path_argument(path: &std::path::Path) -> String {
    let text = path.display().to_string();
    if text.starts_with('-') {
        format!("./{text}")
    } else {
        text
    }
}

/// The first control character of `text` (a newline, carriage return, tab, NUL, escape, DEL
/// or a C1 control), if any: what must never reach a script line that cannot hold it.
pub fn control_character(text: &str) -> Option<char> {
    text.chars().find(|c| c.is_control())
}

/// `text` in `$'…'` quotes: backslash and single quote escaped, every byte of a control
/// character as `\xHH` (always two digits, so a following hex digit is not taken in).
fn ansi_c_quote(text: &str) -> String {
    let mut out = String::from("$'");
    for c in text.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            '\n' => out.push_str(r"\n"),
            '\t' => out.push_str(r"\t"),
            '\r' => out.push_str(r"\r"),
            c if c.is_control() => {
                let mut bytes = [0; 4];
                for byte in c.encode_utf8(&mut bytes).bytes() {
                    out.push_str(&format!("\\x{byte:02x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_stay_and_others_are_single_quoted() {
        assert_eq!(quote("experiments/war.toml"), "experiments/war.toml");
        assert_eq!(quote("--variant=-x"), "--variant=-x");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("my spec.toml"), "'my spec.toml'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("$(id)"), "'$(id)'");
        assert_eq!(quote("~/a"), "'~/a'");
        assert_eq!(command(["run", "a b", "--seed", "1"]), "run 'a b' --seed 1");
    }

    #[test]
    fn control_characters_use_ansi_c_quotes_on_one_line() {
        assert_eq!(quote("a\nb"), r"$'a\nb'");
        assert_eq!(quote("it's\t\\"), r"$'it\'s\t\\'");
        assert_eq!(quote("\u{7}1"), r"$'\x071'");
        assert_eq!(quote("\u{85}"), r"$'\xc2\x85'");
        assert_eq!(control_character("a\rb"), Some('\r'));
        assert_eq!(control_character("ä b"), None);
    }

    #[test]
    fn quoted_words_come_back_whole_from_bash() {
        let words = [
            "plain",
            "two words",
            "it's",
            "$(touch PWNED)",
            "`id`",
            "a\nb\tc\r",
            "\\'\"",
            "-x",
            "ä\u{1b}[31m",
        ];
        let script = format!("printf '%s\\0' {}", command(words));
        let output = std::process::Command::new("bash")
            .arg("-c")
            .arg(&script)
            .output()
            .expect("bash runs");
        assert!(output.status.success(), "{script}");
        let back: Vec<&[u8]> = output.stdout.split(|&b| b == 0).collect();
        let expected: Vec<&[u8]> = words.iter().map(|w| w.as_bytes()).collect();
        assert_eq!(back[..back.len() - 1], expected[..], "{script}");
    }
}
