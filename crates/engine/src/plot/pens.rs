//! How the lines of a chart are told apart: each series gets a pen, a palette colour and a
//! dash pattern, and no two series of a chart get the same pen (up to 40 series: ten colours
//! by four patterns).
//! Up to ten series differ by colour alone; beyond, the second ten are dotted, the third
//! dash-dotted and the fourth dashed, or a chart maps a second parameter to the pattern
//! itself ([`super::LineChart::pens`]).

use std::collections::HashSet;

use super::{SeriesStyle, PALETTE};

/// The pattern a line is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dash {
    /// One unbroken line.
    Solid,
    /// Long dashes.
    Dashed,
    /// Dots.
    Dotted,
    /// A dash and a dot in turn.
    DashDot,
}

impl Dash {
    /// Every pattern, in the order charts use them.
    pub const ALL: [Dash; 4] = [Dash::Solid, Dash::Dashed, Dash::Dotted, Dash::DashDot];

    /// Lengths in pixels of the drawn and skipped stretches in turn (empty: solid).
    fn pattern(self) -> &'static [f64] {
        match self {
            Dash::Solid => &[],
            Dash::Dashed => &[10.0, 6.0],
            Dash::Dotted => &[2.0, 4.0],
            Dash::DashDot => &[10.0, 4.0, 2.0, 4.0],
        }
    }
}

/// The colour (an index into [`PALETTE`]) and the dash pattern of one series.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pen {
    /// Index into [`PALETTE`].
    pub colour: usize,
    /// The line's pattern (unused by a series of points).
    pub dash: Dash,
}

/// What tells two series apart on the chart: a series of points has no line, so its pattern
/// does not count.
fn key(pen: Pen, style: SeriesStyle) -> (usize, Option<Dash>) {
    match style {
        SeriesStyle::Points => (pen.colour, None),
        SeriesStyle::Line | SeriesStyle::Dashed => (pen.colour, Some(pen.dash)),
    }
}

/// The pens of series drawn in `styles`, in order. Series `i` takes colour `i` modulo the
/// palette; a dashed line ([`SeriesStyle::Dashed`], a reference level or a fit) is always
/// dashed and chooses first; any other line takes the first pattern that no series has yet in
/// that colour (solid, dotted, dash-dot, then dashed), and a series whose colour has no
/// pattern left moves on to the next colour. Up to 40 series (every colour with every
/// pattern; at most ten dashed series and ten of points), no two look alike; beyond, pens
/// repeat.
pub fn assign(styles: &[SeriesStyle]) -> Vec<Pen> {
    let mut used = HashSet::new();
    let mut pens = vec![
        Pen {
            colour: 0,
            dash: Dash::Solid
        };
        styles.len()
    ];
    let dashed = |i: &usize| styles[*i] == SeriesStyle::Dashed;
    let order = (0..styles.len())
        .filter(dashed)
        .chain((0..styles.len()).filter(|i| !dashed(i)));
    for index in order {
        let style = styles[index];
        let patterns: &[Dash] = match style {
            SeriesStyle::Dashed => &[Dash::Dashed],
            SeriesStyle::Line | SeriesStyle::Points => {
                &[Dash::Solid, Dash::Dotted, Dash::DashDot, Dash::Dashed]
            }
        };
        let free = (0..PALETTE.len())
            .map(|step| (index + step) % PALETTE.len())
            .flat_map(|colour| patterns.iter().map(move |&dash| Pen { colour, dash }))
            .find(|&pen| !used.contains(&key(pen, style)));
        let pen = free.unwrap_or(Pen {
            colour: index % PALETTE.len(),
            dash: patterns[0],
        });
        used.insert(key(pen, style));
        pens[index] = pen;
    }
    pens
}

/// The stretches of the polyline `points` (in pixels) that `dash` draws, each a polyline of
/// its own: the whole line when solid.
pub fn stretches(points: &[(f64, f64)], dash: Dash) -> Vec<Vec<(f64, f64)>> {
    let pattern = dash.pattern();
    if pattern.is_empty() || points.len() < 2 {
        return if points.len() < 2 {
            Vec::new()
        } else {
            vec![points.to_vec()]
        };
    }
    let mut out = Vec::new();
    let (mut step, mut left, mut drawing) = (0, pattern[0], true);
    let mut current = vec![points[0]];
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let length = (x1 - x0).hypot(y1 - y0);
        let mut along = 0.0;
        while length - along > left {
            along += left;
            let t = along / length;
            let point = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
            if drawing {
                current.push(point);
                out.push(std::mem::take(&mut current));
            } else {
                current = vec![point];
            }
            drawing = !drawing;
            step = (step + 1) % pattern.len();
            left = pattern[step];
        }
        left -= length - along;
        if drawing {
            current.push((x1, y1));
        }
    }
    if drawing && current.len() >= 2 {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many series at most get pens no two alike: every colour with every pattern.
    const DISTINCT: usize = PALETTE.len() * Dash::ALL.len();

    fn distinct(styles: &[SeriesStyle]) -> bool {
        let pens = assign(styles);
        let keys: HashSet<_> = pens
            .iter()
            .zip(styles)
            .map(|(&pen, &style)| key(pen, style))
            .collect();
        keys.len() == styles.len()
    }

    #[test]
    fn up_to_ten_lines_differ_by_colour_alone_and_stay_solid() {
        let pens = assign(&[SeriesStyle::Line; 10]);
        for (index, pen) in pens.iter().enumerate() {
            assert_eq!(
                *pen,
                Pen {
                    colour: index,
                    dash: Dash::Solid
                }
            );
        }
    }

    #[test]
    fn more_than_ten_series_never_share_a_colour_and_a_line_style() {
        for n in 11..=DISTINCT {
            assert!(distinct(&vec![SeriesStyle::Line; n]), "{n} lines");
        }
        let pens = assign(&[SeriesStyle::Line; 12]);
        assert_eq!(
            pens[10],
            Pen {
                colour: 0,
                dash: Dash::Dotted
            }
        );
        assert_eq!(
            pens[11],
            Pen {
                colour: 1,
                dash: Dash::Dotted
            }
        );
        // Mixed styles: simulated lines, dashed exact lines and points, as several sets of
        // rules draw them; dashed series stay dashed.
        let cycle = [
            SeriesStyle::Line,
            SeriesStyle::Dashed,
            SeriesStyle::Line,
            SeriesStyle::Points,
        ];
        for n in 11..=DISTINCT {
            let styles: Vec<SeriesStyle> = cycle.iter().copied().cycle().take(n).collect();
            assert!(distinct(&styles), "{n} mixed series");
            for (pen, style) in assign(&styles).iter().zip(&styles) {
                if *style == SeriesStyle::Dashed {
                    assert_eq!(pen.dash, Dash::Dashed);
                }
            }
        }
    }

    #[test]
    fn a_dashed_line_draws_its_pattern_along_the_whole_line() {
        // 100 pixels in dashes of 10 with gaps of 6: 0-10, 16-26, ..., 96-100.
        let drawn = stretches(&[(0.0, 0.0), (52.0, 0.0), (100.0, 0.0)], Dash::Dashed);
        assert_eq!(drawn.len(), 7, "{drawn:?}");
        let length: f64 = drawn
            .iter()
            .flat_map(|s| {
                s.windows(2)
                    .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
            })
            .sum();
        assert!((length - 64.0).abs() < 1e-9, "{length}");
        // The dash across the corner at 52 (48-58) bends there without a break.
        assert_eq!(drawn[3], vec![(48.0, 0.0), (52.0, 0.0), (58.0, 0.0)]);
        assert_eq!(drawn[4], vec![(64.0, 0.0), (74.0, 0.0)]);
        assert_eq!(stretches(&[(0.0, 0.0), (5.0, 5.0)], Dash::Solid).len(), 1);
        assert!(stretches(&[(1.0, 1.0)], Dash::Dotted).is_empty());
    }
}
