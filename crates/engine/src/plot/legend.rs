//! Legends drawn outside a chart's plotting area, in rows under (or over) it, so they never
//! cover the data.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::pens::{stretches, Dash};
use super::{DrawResult, FONT};

/// How a legend entry marks its series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A short line drawn in its series' pattern.
    Line(Dash),
    /// A dot.
    Dot,
    /// A filled square (bar colours).
    Square,
}

/// One entry of a legend.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The text beside the mark.
    pub label: String,
    /// Colour of the mark.
    pub colour: RGBColor,
    /// The mark's shape.
    pub mark: Mark,
}

/// Width of the mark (long enough to show a dash-dot pattern), and the gaps after it and after
/// each entry, in units of the font size.
const MARK: f64 = 2.6;
const GAP_AFTER_MARK: f64 = 0.4;
const GAP_AFTER_ENTRY: f64 = 1.6;
/// Width of one character, roughly, in units of the font size.
const CHAR: f64 = 0.6;

fn entry_width(entry: &Entry, font: f64) -> f64 {
    font * (MARK + GAP_AFTER_MARK + CHAR * entry.label.chars().count() as f64 + GAP_AFTER_ENTRY)
}

/// The legend's grid when rows are at most `width` pixels wide: the most columns whose widths
/// (each its widest entry's) fit, entries filling the rows in turn, so the entries of successive
/// rows stand in columns. Returns the width of each column.
fn columns(entries: &[Entry], width: u32, font: f64) -> Vec<f64> {
    let widths: Vec<f64> = entries.iter().map(|e| entry_width(e, font)).collect();
    let fit = |count: usize| -> Vec<f64> {
        (0..count)
            .map(|column| {
                widths
                    .iter()
                    .skip(column)
                    .step_by(count)
                    .fold(0.0, |widest: f64, &w| widest.max(w))
            })
            .collect()
    };
    (1..=entries.len().max(1))
        .rev()
        .map(fit)
        .find(|columns| columns.len() == 1 || columns.iter().sum::<f64>() <= f64::from(width))
        .unwrap_or_default()
}

/// The entries of each row of the legend's grid (see [`columns`]).
fn rows(entries: &[Entry], width: u32, font: f64) -> Vec<&[Entry]> {
    let count = columns(entries, width, font).len().max(1);
    entries.chunks(count).collect()
}

/// Height in pixels of a legend of `entries` laid out in rows `width` pixels wide (0 without
/// entries).
pub fn height(entries: &[Entry], width: u32, font: f64) -> u32 {
    let lines = rows(entries, width, font).len() as f64;
    if lines == 0.0 {
        0
    } else {
        (font * (1.6 * lines + 0.8)).ceil() as u32
    }
}

/// Draws `entries` in centred rows filling `area`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    font: f64,
) -> DrawResult<DB> {
    let (width, _) = area.dim_in_pixel();
    let style = TextStyle::from((FONT, font).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let widths = columns(entries, width, font);
    // The grid is centred; its last column has no gap after it.
    let total = widths.iter().sum::<f64>() - font * GAP_AFTER_ENTRY;
    let start = ((f64::from(width) - total) / 2.0).max(0.0);
    for (line, row) in rows(entries, width, font).into_iter().enumerate() {
        let mut x = start;
        let y = (font * (0.4 + 1.6 * line as f64 + 0.8)) as i32;
        for (entry, cell) in row.iter().zip(&widths) {
            let (left, right) = (x as i32, (x + font * MARK) as i32);
            let colour = entry.colour;
            match entry.mark {
                Mark::Line(dash) => {
                    let line = [
                        (f64::from(left), f64::from(y)),
                        (f64::from(right), f64::from(y)),
                    ];
                    for stretch in stretches(&line, dash) {
                        let pixels = stretch.iter().map(|&(x, y)| (x as i32, y as i32));
                        area.draw(&PathElement::new(
                            pixels.collect::<Vec<_>>(),
                            colour.stroke_width(3),
                        ))?;
                    }
                }
                Mark::Dot => area.draw(&Circle::new(
                    ((left + right) / 2, y),
                    (font / 3.0) as i32,
                    colour.filled(),
                ))?,
                Mark::Square => {
                    let half = (font / 2.0) as i32;
                    let centre = (left + right) / 2;
                    area.draw(&Rectangle::new(
                        [(centre - half, y - half), (centre + half, y + half)],
                        colour.filled(),
                    ))?
                }
            }
            let text_x = x + font * (MARK + GAP_AFTER_MARK);
            area.draw(&Text::new(
                entry.label.clone(),
                (text_x as i32, y),
                style.clone(),
            ))?;
            x += cell;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(label: &str) -> Entry {
        Entry {
            label: label.into(),
            colour: BLACK,
            mark: Mark::Line(Dash::Solid),
        }
    }

    #[test]
    fn entries_wrap_into_rows_that_fit_the_width() {
        let entries: Vec<Entry> = (0..30).map(|i| entry(&format!("variant-{i:02}"))).collect();
        let laid = rows(&entries, 1000, 16.0);
        assert!(laid.len() > 1, "30 entries do not fit one row");
        assert_eq!(laid.iter().map(|r| r.len()).sum::<usize>(), 30);
        let widths = columns(&entries, 1000, 16.0);
        assert!(widths.iter().sum::<f64>() <= 1000.0, "{widths:?}");
        assert!(laid[..laid.len() - 1]
            .iter()
            .all(|r| r.len() == widths.len()));
        // One long label among short ones widens its own column only.
        let mut mixed: Vec<Entry> = (0..12).map(|i| entry(&format!("v{i}"))).collect();
        mixed[1] = entry(&"a much longer label than the others".repeat(2));
        let widths = columns(&mixed, 1000, 16.0);
        assert!(widths.len() > 2, "{widths:?}");
        assert!(widths.iter().sum::<f64>() <= 1000.0);
        assert_eq!(height(&[], 1000, 16.0), 0);
        assert!(height(&entries, 1000, 16.0) > height(&entries[..1], 1000, 16.0));
    }
}
