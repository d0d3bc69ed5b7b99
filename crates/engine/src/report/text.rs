//! Running text: plain words, code spans (names a user types: variants, columns, files) and
//! strong emphasis, built piece by piece so that no renderer has to find them again.

/// One piece of running text.
#[derive(Clone, Debug, PartialEq)]
pub enum Inline {
    /// Words as they are.
    Plain(String),
    /// A name to be typed exactly, shown in a code font.
    Code(String),
    /// Words that lead an item or carry its finding, shown strong.
    Strong(Vec<Inline>),
    /// A line break inside a paragraph or list item (Markdown continues the item on an
    /// indented line).
    Break,
}

/// A run of [`Inline`]s: a paragraph, a list item, a heading, a cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Text(pub Vec<Inline>);

impl Text {
    /// Empty text.
    pub fn new() -> Text {
        Text::default()
    }

    /// The text with `words` appended as they are.
    pub fn plain(mut self, words: impl Into<String>) -> Text {
        let words = words.into();
        if !words.is_empty() {
            self.0.push(Inline::Plain(words));
        }
        self
    }

    /// The text with `name` appended as a code span.
    pub fn code(mut self, name: impl Into<String>) -> Text {
        self.0.push(Inline::Code(name.into()));
        self
    }

    /// The text with `strong` appended, shown strong.
    pub fn strong(mut self, strong: impl Into<Text>) -> Text {
        self.0.push(Inline::Strong(strong.into().0));
        self
    }

    /// The text with a line break appended.
    pub fn line_break(mut self) -> Text {
        self.0.push(Inline::Break);
        self
    }

    /// The text with all of `more` appended.
    pub fn append(mut self, more: impl Into<Text>) -> Text {
        self.0.extend(more.into().0);
        self
    }

    /// `items` joined by `separator`, each shown as `item` makes it.
    pub fn join<T>(
        items: impl IntoIterator<Item = T>,
        separator: &str,
        item: impl Fn(T) -> Text,
    ) -> Text {
        let mut out = Text::new();
        for (i, value) in items.into_iter().enumerate() {
            if i > 0 {
                out = out.plain(separator);
            }
            out = out.append(item(value));
        }
        out
    }

    /// Whether it has no pieces.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The words without any marking (code spans as their names), line breaks as spaces.
    pub fn words(&self) -> String {
        let mut out = String::new();
        push_words(&self.0, &mut out);
        out
    }
}

fn push_words(inlines: &[Inline], out: &mut String) {
    for inline in inlines {
        match inline {
            Inline::Plain(s) | Inline::Code(s) => out.push_str(s),
            Inline::Strong(inner) => push_words(inner, out),
            Inline::Break => out.push(' '),
        }
    }
}

impl From<&str> for Text {
    fn from(words: &str) -> Text {
        Text::new().plain(words)
    }
}

impl From<String> for Text {
    fn from(words: String) -> Text {
        Text::new().plain(words)
    }
}

impl From<&String> for Text {
    fn from(words: &String) -> Text {
        Text::new().plain(words.as_str())
    }
}

/// A code span alone, e.g. a variant's name.
pub fn code(name: impl Into<String>) -> Text {
    Text::new().code(name)
}
