//! Relative links of README.md and docs/ point at files that exist and at headings they have.

use std::collections::BTreeSet;
use std::path::Path;

use crate::docs::examples::pages;

/// The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as `-`.
fn anchors(page: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(page).expect("read page");
    text.lines()
        .filter_map(|line| line.strip_prefix('#'))
        .map(|heading| {
            heading
                .trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// Every relative link of README.md and docs/ points at a file or folder that exists, and at a
/// heading of it when it names one.
#[test]
fn every_relative_link_in_the_docs_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        let folder = page.parent().expect("page folder");
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let link = &rest[..end];
            if link.contains("://") {
                continue;
            }
            let (target, anchor) = link.split_once('#').unwrap_or((link, ""));
            let file = if target.is_empty() {
                page.clone()
            } else {
                folder.join(target)
            };
            if !file.exists() {
                broken.push(format!("{}: {link}", page.display()));
            } else if !anchor.is_empty() && !anchors(&file).contains(anchor) {
                broken.push(format!("{}: {link} (no such heading)", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
