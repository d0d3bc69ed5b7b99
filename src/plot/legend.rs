//! Legends drawn outside a chart's plotting area, in rows under (or over) it, so they never
//! cover the data.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{DrawResult, FONT};

/// How a legend entry marks its series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A short solid line.
    Line,
    /// A short dashed line.
    Dashed,
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

/// Width of the mark, and the gaps after it and after each entry, in units of the font size.
const MARK: f64 = 1.6;
const GAP_AFTER_MARK: f64 = 0.4;
const GAP_AFTER_ENTRY: f64 = 1.6;
/// Width of one character, roughly, in units of the font size.
const CHAR: f64 = 0.6;

fn entry_width(entry: &Entry, font: f64) -> f64 {
    font * (MARK + GAP_AFTER_MARK + CHAR * entry.label.chars().count() as f64 + GAP_AFTER_ENTRY)
}

/// The entries of each row, when rows are at most `width` pixels wide.
fn rows(entries: &[Entry], width: u32, font: f64) -> Vec<&[Entry]> {
    let mut rows = Vec::new();
    let (mut start, mut used) = (0, 0.0);
    for (i, entry) in entries.iter().enumerate() {
        let w = entry_width(entry, font);
        if i > start && used + w > f64::from(width) {
            rows.push(&entries[start..i]);
            (start, used) = (i, 0.0);
        }
        used += w;
    }
    if start < entries.len() {
        rows.push(&entries[start..]);
    }
    rows
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
    for (line, row) in rows(entries, width, font).into_iter().enumerate() {
        let total: f64 =
            row.iter().map(|e| entry_width(e, font)).sum::<f64>() - font * GAP_AFTER_ENTRY;
        let mut x = ((f64::from(width) - total) / 2.0).max(0.0);
        let y = (font * (0.4 + 1.6 * line as f64 + 0.8)) as i32;
        for entry in row {
            let (left, right) = (x as i32, (x + font * MARK) as i32);
            let colour = entry.colour;
            match entry.mark {
                Mark::Line => area.draw(&PathElement::new(
                    vec![(left, y), (right, y)],
                    colour.stroke_width(3),
                ))?,
                Mark::Dashed => {
                    let dash = ((right - left) / 5).max(1);
                    for k in [0, 2, 4] {
                        area.draw(&PathElement::new(
                            vec![(left + k * dash, y), (left + (k + 1) * dash, y)],
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
            x += entry_width(entry, font);
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
            mark: Mark::Line,
        }
    }

    #[test]
    fn entries_wrap_into_rows_that_fit_the_width() {
        let entries: Vec<Entry> = (0..30).map(|i| entry(&format!("variant-{i:02}"))).collect();
        let laid = rows(&entries, 1000, 16.0);
        assert!(laid.len() > 1, "30 entries do not fit one row");
        assert_eq!(laid.iter().map(|r| r.len()).sum::<usize>(), 30);
        for row in laid {
            let width: f64 = row.iter().map(|e| entry_width(e, 16.0)).sum();
            assert!(row.len() == 1 || width <= 1000.0, "{width}");
        }
        assert_eq!(height(&[], 1000, 16.0), 0);
        assert!(height(&entries, 1000, 16.0) > height(&entries[..1], 1000, 16.0));
    }
}
