//! The page: a header with the run's facts, contents, the reading with its charts, the other
//! charts, every table, and the manifest; inline CSS and JavaScript.

use std::fmt::Write;

use anyhow::Result;

use super::{blocks, charts, escape, slug, tables, Page, FILTER_VARIANTS};
use crate::frame::NamedTable;
use crate::manifest::facts::{too_many_words, RunFacts, VariantNames};
use crate::report::subset::REPORT_VARIANTS;

/// The page's style sheet (screen and A4 print).
const STYLE: &str = include_str!("style.css");
/// Column sorting and the variant filter; the page reads the same without it.
const SCRIPT: &str = include_str!("script.js");

/// The whole page for `page`, as one self-contained HTML document.
pub fn render(page: &Page) -> Result<String> {
    let manifest = page.manifest;
    let reading = blocks::render(page.body, page.charts)?;
    let title = escape(&manifest.experiment);

    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta \
         name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta \
         name=\"generator\" content=\"experiment {version}\">\n<title>{title} · experiment \
         report</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{title}</h1>\n",
        version = escape(&manifest.crate_version),
    );
    if !page.description.trim().is_empty() {
        let _ = writeln!(html, "<p class=\"lede\">{}</p>", escape(page.description));
    }
    html.push_str(&facts(page));
    html.push_str("</header>\n");

    let other_charts: Vec<&(String, crate::plot::Chart)> = page
        .charts
        .iter()
        .filter(|(stem, _)| !reading.charts_shown.contains(stem))
        .collect();
    let mut contents: Vec<(String, String)> = reading.headings.clone();
    if !other_charts.is_empty() {
        contents.push(("charts".into(), "Charts".into()));
    }
    contents.push(("tables".into(), "Tables".into()));
    contents.push(("run".into(), "Run details".into()));
    html.push_str("<nav aria-label=\"Contents\">\n<h2 class=\"nav-title\">Contents</h2>\n<ol>\n");
    for (id, text) in &contents {
        let _ = writeln!(html, "<li><a href=\"#{id}\">{}</a></li>", escape(text));
    }
    html.push_str("</ol>\n</nav>\n<main>\n<div class=\"reading\">\n");
    html.push_str(&reading.html);
    html.push_str("</div>\n");

    if !other_charts.is_empty() {
        html.push_str("<section id=\"charts\" aria-labelledby=\"charts-heading\">\n<h2 id=\"charts-heading\">Charts</h2>\n");
        for (stem, chart) in other_charts {
            let title = charts::own_title(chart).unwrap_or_else(|| stem.clone());
            html.push_str(&charts::figure(stem, chart, &title)?);
        }
        html.push_str("</section>\n");
    }

    html.push_str(
        "<section id=\"tables\" aria-labelledby=\"tables-heading\">\n<h2 \
         id=\"tables-heading\">Tables</h2>\n<p>Every table of the run, as written beside this \
         page. An estimate and its interval columns (<code>x</code>, <code>x_lo</code>, \
         <code>x_hi</code>) are shown as one cell, <code>x [lower, upper]</code>, the 95% \
         confidence interval. Rows whose Holm-corrected p-value is below 0.05 are marked ★ yes \
         and highlighted, with that p-value in bold. Histograms and long tables are folded: open \
         them to see every row.<span class=\"js-only\"> Click a column header to sort by it.</span></p>\n",
    );
    if manifest.variants.len() > FILTER_VARIANTS {
        html.push_str(
            "<div class=\"filter\" hidden>\n<label for=\"variant-filter\">Show only variants \
             containing</label>\n<input type=\"search\" id=\"variant-filter\" \
             autocomplete=\"off\" placeholder=\"e.g. part of a variant name\">\n<output \
             id=\"filter-count\" for=\"variant-filter\"></output>\n</div>\n",
        );
    }
    let names: Vec<String> = page
        .tables
        .iter()
        .map(|t| {
            format!(
                "<a href=\"#table-{}\">{}</a>",
                slug(&t.name),
                escape(&t.name)
            )
        })
        .collect();
    let _ = writeln!(html, "<p class=\"meta\">Tables: {}.</p>", names.join(", "));
    for table in page.tables {
        html.push_str(&preview(page, table));
    }
    html.push_str("</section>\n");

    html.push_str(&run_details(page));
    let _ = write!(
        html,
        "</main>\n<footer>\n<p>Written by <code>experiment</code> {} on a run of {} trials. \
         This page is self-contained: it loads nothing from the network.</p>\n</footer>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        escape(&manifest.crate_version),
        manifest.total_trials(),
    );
    Ok(html)
}

/// The section of `table`: whole, or in a run of more than [`REPORT_VARIANTS`] variants its
/// first [`REPORT_VARIANTS`] rows after a sentence naming the file that holds every row (the
/// page of a run of many variants would otherwise hold tens of thousands of rows).
fn preview(page: &Page, table: &NamedTable) -> String {
    let rows = table.frame.height();
    if page.manifest.variants.len() <= REPORT_VARIANTS || rows <= REPORT_VARIANTS {
        return tables::section(table);
    }
    let first = NamedTable {
        name: table.name.clone(),
        frame: table.frame.head(Some(REPORT_VARIANTS)),
        roles: table.roles.clone(),
    };
    let extension = page.formats.first().map_or("csv", |f| f.extension());
    format!(
        "<p class=\"meta\">{name}: the first {REPORT_VARIANTS} of its {rows} rows, in file \
         order; every row is in <code>{name}.{extension}</code>.</p>\n{}",
        tables::section(&first),
        name = escape(&table.name),
    )
}

/// Trials per variant in words: the number, or the rule of a run in stages with what the
/// variants played.
fn trials_words(facts: &RunFacts) -> String {
    match &facts.played {
        Some(played) => format!("{} ({played})", facts.trials),
        None => facts.trials.clone(),
    }
}

/// The run at a glance: game, seed, trials, design, variants and how to reproduce it.
fn facts(page: &Page) -> String {
    let m = page.manifest;
    let facts = RunFacts::of(m);
    let variants: Vec<String> = match facts.variants {
        VariantNames::TooMany(_) => {
            let (before, after) = too_many_words();
            vec![format!("{before}<code>manifest.json</code>{after}")]
        }
        VariantNames::Listed(names) => names
            .iter()
            .map(|v| format!("<code>{}</code>", escape(v)))
            .collect(),
    };
    format!(
        "<dl class=\"facts\">\n<dt>game</dt><dd><code>{game}</code></dd>\n<dt>seed</dt>\
         <dd>{seed}</dd>\n<dt>trials per variant</dt><dd>{trials}</dd>\n<dt>random \
         numbers</dt><dd>{design}</dd>\n<dt>variants ({count})</dt><dd>{variants}</dd>\n<dt>reproduce</dt><dd><code>{reproduce}</code></dd>\n\
         </dl>\n",
        game = escape(facts.game),
        seed = facts.seed,
        trials = trials_words(&facts),
        design = escape(facts.design),
        count = m.variants.len(),
        variants = variants.join(", "),
        reproduce = escape(page.reproduce),
    )
}

/// The manifest, folded: what was run, with which versions, and how fast.
fn run_details(page: &Page) -> String {
    let m = page.manifest;
    let modified = |flag: Option<bool>| match flag {
        Some(true) => " (with uncommitted changes)",
        _ => "",
    };
    let engine = format!(
        "<code>{}</code>{}",
        escape(&m.engine_commit),
        modified(m.engine_modified)
    );
    let spec_commit =
        m.spec_git_commit
            .as_deref()
            .map_or("not in a git work tree".to_string(), |c| {
                format!(
                    "<code>{}</code>{}",
                    escape(c),
                    modified(m.spec_git_modified)
                )
            });
    format!(
        "<section id=\"run\" aria-labelledby=\"run-heading\">\n<h2 id=\"run-heading\">Run \
         details</h2>\n<details>\n<summary>Manifest: spec, seed, trials, versions, commit, \
         timing</summary>\n<dl class=\"manifest\">\n<dt>experiment</dt><dd>{name}</dd>\n\
         <dt>game</dt><dd>{game}</dd>\n<dt>spec file</dt><dd><code>{path}</code></dd>\n\
         <dt>spec SHA-256</dt><dd><code>{sha}</code></dd>\n<dt>seed</dt><dd>{seed}</dd>\n\
         <dt>trials per variant</dt><dd>{trials}</dd>\n<dt>random numbers</dt>\
         <dd>{design}</dd>\n<dt>variants</dt><dd>{variants}</dd>\n\
         <dt>engine version</dt><dd>experiment {version}</dd>\n<dt>engine commit</dt>\
         <dd>{engine}</dd>\n<dt>spec repository commit</dt><dd>{spec_commit}</dd>\n<dt>threads</dt><dd>{threads}</dd>\n<dt>chunk size</dt>\
         <dd>{chunk} trials</dd>\n<dt>wall time</dt><dd>{wall:.2} s</dd>\n<dt>speed</dt>\
         <dd>{speed:.0} trials/s</dd>\n{shards}</dl>\n<h3>Spec</h3>\n<pre><code>{spec}</code></pre>\n\
         </details>\n</section>\n",
        name = escape(&m.experiment),
        game = escape(&m.game),
        path = escape(&m.spec_path),
        sha = escape(&m.spec_sha256),
        seed = m.seed,
        trials = trials_words(&RunFacts::of(m)),
        design = escape(m.random_numbers.statement()),
        variants = m.variants.len(),
        version = escape(&m.crate_version),
        threads = m.threads,
        chunk = m.chunk_size,
        wall = m.wall_seconds,
        speed = m.trials_per_second,
        shards = merged_shards(m),
        spec = escape(&m.spec),
    )
}

/// The shard files a merged run was made from, one per line (nothing for a plain run).
fn merged_shards(m: &crate::manifest::Manifest) -> String {
    let Some(shards) = &m.shards else {
        return String::new();
    };
    let lines: Vec<String> = shards
        .iter()
        .map(|shard| {
            format!(
                "shard {}/{}: <code>{}</code>, {} trials, {} threads, {:.2} s",
                shard.index,
                shard.count,
                escape(&shard.file),
                shard.trials,
                shard.threads,
                shard.wall_seconds
            )
        })
        .collect();
    format!("<dt>merged from</dt><dd>{}</dd>\n", lines.join("<br>\n"))
}
