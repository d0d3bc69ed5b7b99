//! Writing a command's files, in one place (as hyperfine's export manager is for its
//! exporters): every table in every format, the charts, `report.md`, `report.html` and
//! `manifest.json`, into a staging folder that is swapped into place only once all of them are
//! written. `run`, `merge` and `scale` all write through [`Export::publish`].

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use crate::frame::{write_table, TableFormat};
use crate::ledger::file::SummaryFile;
use crate::manifest::Manifest;
use crate::report::{markdown, Block, StudyOutput};
use crate::spec::Experiment;
use crate::staging::Staging;

/// The name of a results folder's summaries file (see [`Export::summaries`]).
pub const SUMMARIES_FILE: &str = "summaries.json";

/// Everything one output folder holds, before it is written.
pub struct Export<'a> {
    /// The experiment the files are of (`report.html` shows its description and settings).
    pub experiment: &'a Experiment,
    /// The tables and charts to write, and the report `report.html` is made from.
    pub output: &'a StudyOutput,
    /// The formats every table is written in.
    pub formats: &'a [TableFormat],
    /// Whether the charts are drawn (each as PNG and SVG).
    pub charts: bool,
    /// The whole of `report.md`, title and run facts included.
    pub report: Vec<Block>,
    /// The command that reproduces the files, quoted for a POSIX shell.
    pub reproduce: &'a str,
    /// The run's summaries, kept as `summaries.json` so a later run can top it up.
    pub summaries: Option<&'a SummaryFile>,
}

impl Export<'_> {
    /// Writes the files into `staging` in a fixed order (tables, `summaries.json`, `report.md`, charts,
    /// `report.html`, `manifest.json`) and swaps the folder into place, returning it.
    /// `manifest` gets the wall time since `started` (before `report.html`, which shows it)
    /// and the list of files with their digests; `manifest_json` then gives the text of
    /// `manifest.json` from it (a command may add fields of its own).
    pub fn publish(
        &self,
        mut staging: Staging,
        manifest: &mut Manifest,
        started: Instant,
        manifest_json: impl FnOnce(&Manifest) -> Result<String>,
    ) -> Result<PathBuf> {
        for table in &self.output.tables {
            for &format in self.formats {
                let name = format!("{}.{}", table.name, format.extension());
                staging.write(&name, |path| {
                    write_table(&mut table.frame.clone(), path, format)
                })?;
            }
        }
        if let Some(summaries) = self.summaries {
            staging.write(SUMMARIES_FILE, |path| summaries.write(path))?;
        }
        let report = markdown::render(&self.report);
        staging.write("report.md", |path| Ok(std::fs::write(path, &report)?))?;
        if self.charts {
            for (stem, chart) in &self.output.charts {
                staging.write(&format!("{stem}.png"), |path| chart.save_png(path))?;
                staging.write(&format!("{stem}.svg"), |path| chart.save_svg(path))?;
            }
        }
        manifest.wall_seconds = started.elapsed().as_secs_f64();
        crate::html::write(
            &mut staging,
            self.experiment,
            self.output,
            manifest,
            self.reproduce,
        )?;
        manifest.list_files(&staging)?;
        let json = manifest_json(manifest)?;
        staging.write("manifest.json", |path| Ok(std::fs::write(path, json)?))?;
        staging.commit()
    }
}

/// `value` as the text of a JSON file: pretty-printed, with a final newline.
pub fn json_text<T: Serialize>(value: &T) -> Result<String> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}
