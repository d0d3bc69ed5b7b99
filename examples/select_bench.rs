//! What choosing the best (`[select]`) costs, for `scripts/bench.sh` and `docs/methods.md`:
//! Twenty-One `stand_at` 12..21, the best win rate within an indifference zone at 95%, over
//! repeated selections (each its own seed) with independent and with common random numbers.
//! For each it prints the mean games Kim and Nelson's procedure took over all ten variants, and
//! what Rinott's two-stage procedure (independent sampling) and an equal allocation would take
//! for the same guarantee from the same first-stage variances, and the ratios. Prints
//! `name value unit` lines; nothing here is asserted (`tests/select_twentyone.rs` checks the
//! guarantee).
//!
//!   cargo run --release --example select_bench -- 20 0.002
//!
//! The arguments are the repeats per design (default 20) and the indifference zone (default
//! 0.002 in win rate).

use std::path::Path;

use experiment_engine::runner::{Runner, RunnerSettings, Selection};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let repeats: u64 = args.first().map_or(20, |a| a.parse().expect("repeats"));
    let indifference: f64 = args
        .get(1)
        .map_or(0.002, |a| a.parse().expect("an indifference zone"));
    for design in ["independent", "common"] {
        let mut kn = 0.0;
        let mut rinott = 0.0;
        let mut equal = 0.0;
        for seed in 0..repeats {
            let selection = select(seed, design, indifference);
            kn += selection.total_trials() as f64;
            rinott += selection.rinott_trials as f64;
            equal += selection.equal_trials as f64;
        }
        let n = repeats as f64;
        let name = format!("select_twentyone_10_rules_{design}");
        println!("{name}_kn_games {:.0} games", kn / n);
        println!("{name}_rinott_games {:.0} games", rinott / n);
        println!("{name}_equal_games {:.0} games", equal / n);
        println!("{name}_kn_over_rinott {:.3} ratio", kn / rinott);
        println!("{name}_kn_over_equal {:.3} ratio", kn / equal);
    }
}

/// One selection among `stand_at` 12..21 in `design`.
fn select(seed: u64, design: &str, indifference: f64) -> Selection {
    let spec = format!(
        "version = 1\nname = \"select_bench\"\ngame = \"twentyone\"\nseed = {seed}\n\
         trials = 2_000\n[sweep]\nstand_at = {{ from = 12, to = 21 }}\n[design]\n\
         random_numbers = \"{design}\"\n[select]\nmetric = \"win_rate\"\ngoal = \"max\"\n\
         indifference = {indifference}\nmax_trials = 20_000_000\n"
    );
    let (study, experiment) = experiment::registry()
        .parse(Path::new("select_bench.toml"), &spec)
        .expect("a valid spec");
    let runner = Runner::new(RunnerSettings {
        threads: 1,
        chunk_size: 10_000,
        show_progress: false,
    })
    .expect("a runner");
    let output = study.run(&experiment, &runner).expect("it runs");
    output.decisions.selection().cloned().expect("a selection")
}
