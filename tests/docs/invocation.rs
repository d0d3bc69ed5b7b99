//! The engine invocation inside a shell line: its words (split and quoted as a shell would),
//! its flags, and the same invocation at small trial counts.

/// Trials per variant every `run` and `slurm` example runs with.
const SMALL_TRIALS: u64 = 40;

/// Every flag of the command line that takes a value (the others are switches), read from
/// its clap declaration.
pub(crate) fn valued_flags() -> &'static [String] {
    static FLAGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FLAGS.get_or_init(|| {
        let command = experiment_engine::commands::command_line(&experiment::registry());
        let mut flags = Vec::new();
        let mut commands = vec![&command];
        while let Some(command) = commands.pop() {
            commands.extend(command.get_subcommands());
            flags.extend(
                command
                    .get_arguments()
                    .filter(|arg| arg.get_action().takes_values())
                    .filter_map(|arg| arg.get_long())
                    .map(|long| format!("--{long}")),
            );
        }
        flags.sort();
        flags.dedup();
        flags
    })
}

/// Splits a command line into words the way a POSIX shell would for these simple examples
/// (quotes removed), keeping `|` and `&&` as words of their own.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// A word quoted for the shell when it needs it.
fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// One engine invocation inside an example: its words, from the binary's name on.
pub(crate) struct Invocation {
    words: Vec<String>,
}

impl Invocation {
    /// The engine invocation of a shell line, if it has one, and the text around it.
    pub(crate) fn find(line: &str) -> Option<(String, Invocation, String)> {
        let all = words(line);
        let start = all
            .iter()
            .position(|word| word == "experiment" || word == "gamblers_ruin")?;
        let end = all[start..]
            .iter()
            .position(|word| word == "|" || word == "&&" || word == ";")
            .map_or(all.len(), |at| start + at);
        let shell_words = |words: &[String]| {
            words
                .iter()
                .map(|w| match w.as_str() {
                    "|" | "&&" | ";" => w.clone(),
                    _ => quote(w),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let before = shell_words(&all[..start]);
        let after = shell_words(&all[end..]);
        Some((
            before,
            Invocation {
                words: all[start..end].to_vec(),
            },
            after,
        ))
    }

    pub(crate) fn subcommand(&self) -> &str {
        self.words.get(1).map_or("", String::as_str)
    }

    /// The value of `--flag VALUE` or `--flag=VALUE`.
    pub(crate) fn value(&self, flag: &str) -> Option<&str> {
        let prefix = format!("{flag}=");
        self.words.iter().enumerate().find_map(|(at, word)| {
            if word == flag {
                self.words.get(at + 1).map(String::as_str)
            } else {
                word.strip_prefix(&prefix)
            }
        })
    }

    pub(crate) fn has(&self, flag: &str) -> bool {
        let prefix = format!("{flag}=");
        self.words
            .iter()
            .any(|word| word == flag || word.starts_with(&prefix))
    }

    /// The first argument after the subcommand that is neither a flag nor a flag's value.
    pub(crate) fn spec(&self) -> Option<&str> {
        let mut skip = false;
        for word in self.words.iter().skip(2) {
            if skip {
                skip = false;
            } else if word.starts_with('-') {
                skip = valued_flags().iter().any(|flag| flag == word);
            } else {
                return Some(word);
            }
        }
        None
    }

    /// Drops `flag` (and its value, when `valued`) wherever it appears.
    fn remove(&mut self, flag: &str, valued: bool) {
        let prefix = format!("{flag}=");
        let mut kept = Vec::new();
        let mut skip = false;
        for word in self.words.drain(..) {
            if skip {
                skip = false;
            } else if word == flag {
                skip = valued;
            } else if !word.starts_with(&prefix) {
                kept.push(word);
            }
        }
        self.words = kept;
    }

    fn set(&mut self, flag: &str, value: &str) {
        self.remove(flag, true);
        self.words.push(flag.to_string());
        self.words.push(value.to_string());
    }

    pub(crate) fn line(&self) -> String {
        self.words
            .iter()
            .map(|w| quote(w))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The engine invocation at small trial counts, per docs/README.md.
pub(crate) fn small(mut invocation: Invocation) -> Invocation {
    match invocation.subcommand() {
        "run" | "slurm" => {
            // Every shard needs a trial of each variant.
            let shards: u64 = invocation
                .value("--shards")
                .map_or(1, |n| n.parse().unwrap_or(1));
            let trials = SMALL_TRIALS.max(shards);
            invocation.set("--trials", &trials.to_string());
            invocation.remove("--submit", false);
        }
        "scale" if !invocation.has("--trials-list") => {
            invocation.set("--max-trials", "20");
            invocation.set("--repeats", "1");
        }
        _ => {}
    }
    invocation
}
