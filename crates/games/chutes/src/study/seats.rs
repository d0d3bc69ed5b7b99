//! A run that sets a seat key (`first_double_at`, `first_take_at`, `second_double_at`,
//! `second_take_at`), in which a strategy may play each seat under thresholds of its own: its
//! report gives every strategy's average, overall and by seat, beside its exact value (the
//! pairings' exact payoffs weighted as the averages weight the simulated ones), reads the seat
//! averages against them, and says which thresholds each seat played. A run without seat keys
//! keeps the tables and report it always had.

use anyhow::Result;

use super::analysed::{Analysed, Inputs};
use super::cells::signed;
use super::pairings::Average;
use super::params::{pairing_params, ChutesParams};
use experiment_engine::frame::{format_number, Role};
use experiment_engine::report::{code, Block, Cell, Table, Text};
use experiment_engine::spec::Experiment;
use experiment_engine::stats::Estimate;

/// Whether some pairing of `experiment` sets a seat key.
pub(super) fn by_seat(experiment: &Experiment) -> Result<bool> {
    for variant in &experiment.variants {
        if pairing_params(variant)?.sets_a_seat() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The columns of the exact averages in the report's strategies table.
pub(super) const EXACT_COLUMNS: [(&str, Role); 3] = [
    ("exact", Role::Number),
    ("exact as player 1", Role::Number),
    ("exact as player 2", Role::Number),
];

/// A signed exact value as a cell (a dash where there is none).
fn exact_cell(value: f64) -> Cell {
    if value.is_nan() {
        Cell::missing("–")
    } else {
        Cell::shown(signed(value), value)
    }
}

/// `a`'s exact averages as cells of [`EXACT_COLUMNS`].
pub(super) fn exact_cells(a: &Average) -> [Cell; 3] {
    [a.exact.overall, a.exact.as_first, a.exact.as_second].map(exact_cell)
}

/// What the exact columns of the strategies table hold.
pub(super) fn exact_note() -> Text {
    Text::new()
        .plain(" The exact averages weight the pairings' exact payoffs (policy evaluation, column ")
        .code("exact_payoff")
        .plain(" of ")
        .code("payoffs.csv")
        .plain(") the same way; they are ")
        .code("exact_mean_payoff")
        .plain(", ")
        .code("exact_mean_payoff_first")
        .plain(" and ")
        .code("exact_mean_payoff_second")
        .plain(" in ")
        .code("strategies.csv")
        .plain(".")
}

/// `; exact +0.5` when the averages are shown beside their exact values (`by_seat`), else
/// nothing.
pub(super) fn exact_clause(by_seat: bool, value: f64) -> String {
    if by_seat && value.is_finite() {
        format!("; exact {}", signed(value))
    } else {
        String::new()
    }
}

/// The thresholds the payoff matrix's pairings played, after its cube cap: one pair for
/// `threshold` as before, unless a seat key is set or `take_only` plays (`names`), when each
/// seat's thresholds are given.
pub(super) fn thresholds(shared: &ChutesParams, names: &[&str], by_seat: bool) -> Text {
    if !by_seat && !names.contains(&"take_only") {
        return Text::new().code("threshold").plain(format!(
            " doubling at a cubeless win probability of {} and taking at {}",
            format_number(shared.double_at),
            format_number(shared.take_at)
        ));
    }
    let seat = |double_at: f64, take_at: f64| {
        format!(
            "doubles at a cubeless win probability of {} and takes at {}",
            format_number(double_at),
            format_number(take_at)
        )
    };
    Text::new()
        .plain("thresholds by seat (")
        .code("threshold")
        .plain(" reads both, ")
        .code("take_only")
        .plain(" only the take): player 1 ")
        .plain(seat(
            shared.first_double_at.or(shared.double_at),
            shared.first_take_at.or(shared.take_at),
        ))
        .plain(", player 2 ")
        .plain(seat(
            shared.second_double_at.or(shared.double_at),
            shared.second_take_at.or(shared.take_at),
        ))
}

/// One seat average of a strategy: which seat, the simulated average and its exact value.
struct Seat<'a> {
    strategy: &'static str,
    seat: &'static str,
    simulated: &'a Estimate,
    exact: f64,
}

/// The seat averages of `a`, in seat order (only the seats it played against another
/// strategy).
fn seats_of(a: &Average) -> Vec<Seat<'_>> {
    [
        ("as player 1", &a.as_first, a.exact.as_first),
        ("as player 2", &a.as_second, a.exact.as_second),
    ]
    .into_iter()
    .filter(|(_, simulated, _)| simulated.point.is_finite())
    .map(|(seat, simulated, exact)| Seat {
        strategy: a.name,
        seat,
        simulated,
        exact,
    })
    .collect()
}

/// A seat average with its interval (if it has one) and its exact value.
fn seat_text(seat: &Seat) -> String {
    let ci = seat.simulated.confidence_interval;
    let interval = if ci.lower.is_nan() {
        String::new()
    } else {
        format!("95% CI {} to {}; ", signed(ci.lower), signed(ci.upper))
    };
    format!(
        "{} {} ({interval}exact {})",
        seat.seat,
        signed(seat.simulated.point),
        signed(seat.exact)
    )
}

/// The reading's item on seats: each strategy's average in each seat it played, beside its
/// exact value (rows of the strategies table), and whether the exact values lie within the
/// simulated averages' intervals.
pub(super) fn reading(inputs: &Inputs) -> Text {
    let lead = Text::new()
        .strong("Seats, against exact values.")
        .plain(" ");
    let played: Vec<&Average> = inputs
        .averages
        .iter()
        .filter(|a| a.overall.point.is_finite())
        .collect();
    if played.is_empty() {
        return lead.plain(
            "Only self-play ran, so no strategy has an average by seat to set beside an exact \
             value.",
        );
    }
    let out = lead
        .plain(
            "Each strategy's average payoff per game over its opponents in each seat it played, \
             beside its exact value (the pairings' exact payoffs weighted alike; the strategies \
             table below): ",
        )
        .append(Text::join(&played, "; ", |a| {
            let seats: Vec<String> = seats_of(a).iter().map(seat_text).collect();
            code(a.name).plain(format!(" {}", seats.join(" and ")))
        }))
        .plain(".");
    let all: Vec<Seat> = played.iter().flat_map(|a| seats_of(a)).collect();
    let outside: Vec<&Seat> = all
        .iter()
        .filter(|s| {
            let ci = s.simulated.confidence_interval;
            !(ci.lower..=ci.upper).contains(&s.exact)
        })
        .collect();
    if outside.is_empty() {
        return out.plain(format!(
            " Every exact value lies within the 95% interval of its simulated average ({} seat \
             {}).",
            all.len(),
            if all.len() == 1 {
                "average"
            } else {
                "averages"
            }
        ));
    }
    out.plain(format!(
        " {} of the {} exact values lie outside the 95% interval of the simulated average: ",
        outside.len(),
        all.len()
    ))
    .append(Text::join(&outside, ", ", |s| {
        code(s.strategy).plain(format!(" {}", s.seat))
    }))
    .plain(".")
}

/// The strategies of `played`, in the order they first appear.
fn strategies(played: &[Analysed]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for &name in played.iter().flat_map(|p| &p.names) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// `name`'s exact average over opponents and seats in `played`, if it has one.
fn exact_average(played: &Analysed, name: &str) -> Option<f64> {
    played
        .averages
        .iter()
        .find(|a| a.name == name)
        .map(|a| a.exact.overall)
        .filter(|x| x.is_finite())
}

/// The tournament where `name`'s exact average is highest, with that average.
pub(super) fn exact_best<'p>(played: &'p [Analysed], name: &str) -> Option<(&'p str, f64)> {
    played
        .iter()
        .filter_map(|p| Some((p.tournament.label.as_str(), exact_average(p, name)?)))
        .max_by(|x, y| x.1.total_cmp(&y.1))
}

/// The across-tournament standings' exact counterpart: each strategy's exact average by
/// tournament.
pub(super) fn exact_standings(played: &[Analysed]) -> Vec<Block> {
    let names = strategies(played);
    let mut table = Table::new(
        std::iter::once(("tournament".to_string(), Role::Label))
            .chain(names.iter().map(|n| (n.to_string(), Role::Number))),
    );
    for p in played {
        let mut cells = vec![Cell::text(code(p.tournament.label.as_str()))];
        cells.extend(
            names
                .iter()
                .map(|name| exact_cell(exact_average(p, name).unwrap_or(f64::NAN))),
        );
        table.row(cells);
    }
    vec![
        Block::paragraph(
            Text::new()
                .plain(
                    "The same averages, exact: the pairings' exact payoffs weighted alike (a \
                     dash where the strategy did not play; ",
                )
                .code("exact_mean_payoff")
                .plain(" in ")
                .code("strategies.csv")
                .plain("):"),
        ),
        Block::Table(table),
    ]
}
