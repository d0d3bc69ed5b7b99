//! Twenty-One's win-rate chart: each family of rules against its number, simulated with its
//! band beside the exact value, and optimal play's exact value as a level.

use super::{is_optimal, Row};
use crate::plot::{Chart, LineChart, LinePanels, Series};

/// Win rate against the rule's parameter: one panel for `stand_at` N and one for
/// `probability` p, simulated with its band and exact, and optimal's exact value as a level.
pub fn win_rate_chart(rows: &[Row]) -> Option<Chart> {
    let optimal = rows.iter().find(|r| is_optimal(r)).map(|r| r.exact.win);
    let panels: Vec<LineChart> = [
        ("stand_at", "stand_at N: hit below N", "N"),
        (
            "probability",
            "probability p: hit while P(no bust) >= p",
            "p",
        ),
    ]
    .into_iter()
    .filter_map(|(name, title, x_label)| {
        let mut family: Vec<&Row> = rows.iter().filter(|r| r.strategy.name() == name).collect();
        if family.is_empty() {
            return None;
        }
        family.sort_by(|a, b| a.param().total_cmp(&b.param()));
        let mut series = vec![
            Series {
                label: "simulated (95% CI band)".into(),
                points: family.iter().map(|r| (r.param(), r.win.point)).collect(),
                band: family
                    .iter()
                    .map(|r| {
                        let ci = r.win.confidence_interval;
                        (r.param(), ci.lower, ci.upper)
                    })
                    .collect(),
                ..Default::default()
            },
            Series {
                label: "exact".into(),
                points: family.iter().map(|r| (r.param(), r.exact.win)).collect(),
                band: Vec::new(),
                ..Default::default()
            },
        ];
        if let Some(level) = optimal {
            let (first, last) = (family[0].param(), family[family.len() - 1].param());
            series.push(Series {
                label: "optimal (exact)".into(),
                points: vec![(first, level), (last, level)],
                band: Vec::new(),
                ..Default::default()
            });
        }
        Some(LineChart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: "player's win rate".into(),
            series,
            markers: true,
            ..Default::default()
        })
    })
    .collect();
    (!panels.is_empty()).then(|| {
        Chart::LinePanels(LinePanels {
            title: "Twenty-One: win rate by standing rule".into(),
            panels,
        })
    })
}
