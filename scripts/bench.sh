#!/usr/bin/env bash
# Speed and memory of the engine, as ratios against peers measured in the same run (never as
# timed tests). Prints a table and writes results/bench/bench.csv.
#
#   scripts/bench.sh                        # full sizes, median of 3 alternating runs
#   BENCH_SCALE=0.1 BENCH_RUNS=1 scripts/bench.sh   # a quick, smaller run
#   BENCH_PEERS_ONLY=1 scripts/bench.sh     # only the one-thread comparisons with the C peers
#   BENCH_PLACEMENTS=winner_first scripts/bench.sh   # War against its peer in these placements
#   BENCH_PYTHON=/path/to/venv/bin/python scripts/bench.sh  # also the Python package (installed
#                                                           # in that Python) against the
#                                                           # command line; BENCH_PYTHON_ONLY=1
#                                                           # measures only that
#   BASELINE_BIN=/path/to/old/experiment scripts/bench.sh   # also time the peer workloads and
#                                                           # the default War spec with an older
#                                                           # build, alternating (ratio above 1:
#                                                           # this build is faster)
#
# Peers (../shared/peers, or PEERS_DIR): monopoly_fast.c and war_ref.c, compiled here with cc
# as their headers say. Each comparison runs the same workload with one thread, the engine and
# the peer alternating, and reports the median of whole-process times: wall clock, and CPU
# time (user + system), which is steadier when other work shares the machine. A ratio above 1
# means the engine is faster. Also: the speed-up from 1 to 2 threads of every shipped spec at
# 1,000, 10,000 and 100,000 trials per variant (and of the C War peer at 1,000 and 10,000
# games per strategy, for what two threads give a plain C program here; and of an ideal split
# of the Chutes and War specs' chunks with no engine at all, for what two threads can give this
# work on this machine), start-up time, peak memory at two trial counts, the default War
# spec's wall time, War's cycle detection on and off, Chutes moves/s, Twenty-One hands/s and
# the exact solvers' times (the ideal split and the last four from
# `cargo run --release --example bench`), and what common random numbers give Twenty-One and
# War: variance ratios of paired comparisons and a common trial's cost (from
# `cargo run --release --example crn_twentyone_war`).
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${BENCH_SCALE:-1}
runs=${BENCH_RUNS:-3}
peers=${PEERS_DIR:-../shared/peers}
cargo build --release --quiet
cargo build --release --quiet --example bench
cargo build --release --quiet --example crn_twentyone_war
target=${CARGO_TARGET_DIR:-target}
bin=$target/release/experiment
example=$target/release/examples/bench
crn_example=$target/release/examples/crn_twentyone_war
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p results/bench
csv=results/bench/bench.csv
# A partial run (peers or Python only) keeps the committed record of the full one.
if [ -n "${BENCH_PEERS_ONLY:-}${BENCH_PYTHON_ONLY:-}" ]; then csv=$out/bench.csv; fi
echo "metric,workload,engine,reference,ratio,unit" >"$csv"

trials_of() { awk -v n="$1" -v s="$scale" 'BEGIN { printf "%d", (n * s < 1) ? 1 : n * s }'; }
# Removes the folder a command names after --out, so that every timed run writes a fresh
# results folder: a run into a finished folder of the same trials is a top-up that plays nothing.
fresh_out() {
  local previous=""
  for word in "$@"; do
    if [ "$previous" = "--out" ]; then rm -rf "$word"; fi
    previous=$word
  done
}
# Runs a command quietly into a fresh --out and prints "wall cpu" in seconds.
timed() {
  fresh_out "$@"
  /usr/bin/time -f '%e %U %S' -o "$out/time" "$@" >/dev/null 2>&1
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$out/time"
}
# Runs a command quietly and prints its wall time in seconds, to the microsecond (for runs of
# milliseconds, where /usr/bin/time's hundredths are too coarse).
wall() {
  local start end
  fresh_out "$@"
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", (b - a) / 1e9 }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
largest() { sort -g | tail -n 1; }
smallest() { sort -g | head -n 1; }
row() { # metric workload engine reference ratio unit
  printf '%s,%s,%s,%s,%s,%s\n' "$@" >>"$csv"
}
# A one-variant spec of `game` with the given [params] lines, tables as CSV only, no plots.
spec() { # file game params...
  local file=$1 game=$2
  shift 2
  {
    printf 'version = 1\nname = "bench"\ndescription = "benchmark workload"\n'
    printf 'game = "%s"\nseed = 1\ntrials = 1\n[params]\n' "$game"
    printf '%s\n' "$@"
    printf '[output]\nformats = ["csv"]\nplots = false\n'
  } >"$file"
}
# Alternates the engine and a peer `runs` times; prints "engine_wall engine_cpu peer_wall peer_cpu"
# medians. Usage: versus "engine command" "peer command".
versus() {
  local i
  : >"$out/e"
  : >"$out/p"
  for ((i = 0; i < runs; i++)); do
    eval "timed $1" >>"$out/e"
    eval "timed $2" >>"$out/p"
  done
  echo "$(cut -d' ' -f1 "$out/e" | median) $(cut -d' ' -f2 "$out/e" | median)" \
    "$(cut -d' ' -f1 "$out/p" | median) $(cut -d' ' -f2 "$out/p" | median)"
}
report_versus() { # metric workload reference "e_wall e_cpu p_wall p_cpu" unit label
  local metric=$1 workload=$2 reference=$3 unit=$5 label=$6
  read -r ew ec pw pc <<<"$4"
  local wall cpu
  wall=$(awk -v a="$pw" -v b="$ew" 'BEGIN { printf "%.2f", a / b }')
  cpu=$(awk -v a="$pc" -v b="$ec" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
  printf '%-44s %7.2fx wall (%5.2f s vs %5.2f s)  %5.2fx cpu (%5.2f s vs %5.2f s)\n' \
    "$label" "$wall" "$ew" "$pw" "$cpu" "$ec" "$pc"
  row "$metric" "$workload" "$ew" "$pw" "$wall" "$unit wall"
  row "$metric" "$workload" "$ec" "$pc" "$cpu" "$unit cpu"
}

echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."

# The Python package (installed in BENCH_PYTHON) against the command line, on the same machine
# in the same run: the default War spec's wall time, alternating, into fresh folders (run(out=)
# writes the CLI's folder); the package's import time; and the peak memory of a run of 10^6
# and 10^7 War games from Python and from the command line (flat in the trials for both).
python_bench() {
  local py=$BENCH_PYTHON i
  echo
  echo "== The Python package against the command line =="
  : >"$out/cli"
  : >"$out/py"
  for ((i = 0; i < runs; i++)); do
    timed "$bin" run experiments/war_placement.toml --quiet --out "$out/war-cli" \
      | cut -d' ' -f1 >>"$out/cli"
    rm -rf "$out/war-py"
    timed "$py" -c "import experiment; experiment.run('experiments/war_placement.toml', \
out='$out/war-py', progress=False)" | cut -d' ' -f1 >>"$out/py"
  done
  local cli py_wall ratio
  cli=$(median <"$out/cli")
  py_wall=$(median <"$out/py")
  ratio=$(awk -v a="$py_wall" -v b="$cli" 'BEGIN { printf "%.3f", a / b }')
  printf '%-44s %7.2f s (command line %.2f s: %sx its time)\n' "default War spec wall, Python run()" \
    "$py_wall" "$cli" "$ratio"
  row python_run_vs_cli "war_placement 6 x 1000000" "$py_wall" "$cli" "$ratio" "seconds wall"
  : >"$out/import"
  : >"$out/bare"
  for ((i = 0; i < 5; i++)); do
    wall "$py" -c "import experiment" >>"$out/import"
    wall "$py" -c "pass" >>"$out/bare"
  done
  local imported bare
  imported=$(median <"$out/import")
  bare=$(median <"$out/bare")
  printf '%-44s %7.3f s (Python alone %.3f s)\n' "import experiment" \
    "$(awk -v a="$imported" -v b="$bare" 'BEGIN { print a - b }')" "$bare"
  row python_import "import experiment, minus python -c pass" \
    "$(awk -v a="$imported" -v b="$bare" 'BEGIN { print a - b }')" "" "" "seconds wall"
  local trials kib_py kib_cli
  for trials in $(trials_of 1000000) $(trials_of 10000000); do
    /usr/bin/time -f '%M' -o "$out/mem" "$py" -c "import experiment; experiment.run(\
'experiments/war_placement.toml', trials=$trials, variants='winner_first', progress=False)" \
      >/dev/null 2>&1
    kib_py=$(cat "$out/mem")
    rm -rf "$out/mem-cli"
    /usr/bin/time -f '%M' -o "$out/mem" "$bin" run experiments/war_placement.toml \
      --trials "$trials" --variant winner_first --quiet --out "$out/mem-cli" >/dev/null 2>&1
    kib_cli=$(cat "$out/mem")
    printf '%-44s %7.1f MiB (command line %.1f MiB)\n' "peak memory Python run(), $trials games" \
      "$(awk -v k="$kib_py" 'BEGIN { print k / 1024 }')" "$(awk -v k="$kib_cli" 'BEGIN { print k / 1024 }')"
    row python_peak_memory "war winner_first $trials games" "$kib_py" "$kib_cli" "" "KiB"
  done
}
if [ -n "${BENCH_PYTHON:-}" ]; then
  python_bench
fi
if [ -n "${BENCH_PYTHON_ONLY:-}" ]; then
  exit 0
fi
echo
echo "== One thread against the C peers (same workload; ratio = peer time / engine time) =="
if command -v cc >/dev/null; then
  cc -O3 -march=native -o "$out/monopoly_fast" "$peers/monopoly_fast.c"
  cc -O2 -o "$out/war_ref" "$peers/war_ref.c" -lpthread -lm
  games=$(trials_of 400000)
  spec "$out/monopoly.toml" monopoly 'turns = 150' 'players = 2' 'jail = "long_stay"' \
    'cards = "with_replacement"'
  result=$(versus "$bin run $out/monopoly.toml --trials $games --threads 1 --quiet --out $out/m" \
    "$out/monopoly_fast $games 150 1")
  report_versus monopoly_vs_monopoly_fast "long_stay with_replacement $games games x 150 turns x 2 players" \
    monopoly_fast "$result" seconds "Monopoly ($games games) vs monopoly_fast"
  if [ -n "${BASELINE_BIN:-}" ]; then
    result=$(versus "$bin run $out/monopoly.toml --trials $games --threads 1 --quiet --out $out/m" \
      "$BASELINE_BIN run $out/monopoly.toml --trials $games --threads 1 --quiet --out $out/mb")
    report_versus monopoly_vs_baseline "long_stay with_replacement $games games x 150 turns x 2 players" \
      baseline "$result" seconds "Monopoly ($games games) vs the baseline build"
  fi
  games=$(trials_of 300000)
  for placement in ${BENCH_PLACEMENTS:-winner_first loser_first random high_first low_first player1_first}; do
    spec "$out/war.toml" war 'max_turns = 15000' "placement = \"$placement\""
    result=$(versus "$bin run $out/war.toml --trials $games --threads 1 --quiet --out $out/w" \
      "$out/war_ref run $games 1 1 $placement")
    report_versus war_vs_war_ref "$placement $games games" war_ref "$result" seconds \
      "War $placement ($games games) vs war_ref"
    if [ -n "${BASELINE_BIN:-}" ]; then
      result=$(versus "$bin run $out/war.toml --trials $games --threads 1 --quiet --out $out/w" \
        "$BASELINE_BIN run $out/war.toml --trials $games --threads 1 --quiet --out $out/wb")
      report_versus war_vs_baseline "$placement $games games" baseline "$result" seconds \
        "War $placement ($games games) vs the baseline build"
    fi
  done
else
  echo "no C compiler (cc): the peer comparisons are skipped"
fi
if [ -n "${BENCH_PEERS_ONLY:-}" ]; then
  exit 0
fi

echo
echo "== Two threads against one (every shipped spec; medians from manifest.json) =="
echo "   simulation: trials played per second of simulation (simulation_trials_per_second);"
echo "   whole run: trials per second including the analysis and exact solvers (trials_per_second)"
echo "   ideal split (Chutes, War): the same chunks on running, pinned threads, no engine"
# The ceiling a speed-up is measured against, for Chutes and War: the spec's games in the
# engine's chunks, played by threads already running and pinned, taking chunks from one shared
# counter and merging nothing (`bench split`): what this machine gives two threads for the same
# work, with no pool, no wake-up and no merge. Timed in the same loop as the engine, so both
# see the same moments of the host.
# The game of spec file $1 (its `game = "..."` line) when `bench split` plays it, else nothing.
split_game() {
  local game
  game=$(sed -n 's/^game *= *"\([a-z0-9_]*\)".*/\1/p' "$1" | head -n 1)
  case $game in
    chutes | war) echo "$game" ;;
  esac
}
speedup() { # name spec trials
  local name=$1 file=$2 trials i threads game
  trials=$(trials_of "$3")
  game=$(split_game "$file")
  : >"$out/one"
  : >"$out/two"
  : >"$out/one_run"
  : >"$out/two_run"
  : >"$out/split1"
  : >"$out/split2"
  # Three times the runs: a small run lasts milliseconds, and a moment when the machine lends
  # the second core elsewhere would otherwise decide the median.
  for ((i = 0; i < 3 * runs; i++)); do
    for threads in 1 2; do
      "$bin" run "$file" --trials "$trials" --threads "$threads" --quiet --out "$out/s$threads" \
        >/dev/null 2>&1
      local which=one
      [ "$threads" = 2 ] && which=two
      jq -r '.simulation_trials_per_second' "$out/s$threads/manifest.json" >>"$out/$which"
      jq -r '.trials_per_second' "$out/s$threads/manifest.json" >>"$out/${which}_run"
      if [ -n "$game" ]; then
        "$example" split "$game" "$threads" "$trials" | awk '{ print $2 }' >>"$out/split$threads"
      fi
    done
  done
  local one two one_run two_run best_one best_two
  one=$(median <"$out/one")
  two=$(median <"$out/two")
  one_run=$(median <"$out/one_run")
  two_run=$(median <"$out/two_run")
  # Best against best: the fastest run of each, which a host that takes a core away now and
  # then can only slow, never speed up.
  best_one=$(largest <"$out/one")
  best_two=$(largest <"$out/two")
  awk -v n="$name" -v t="$trials" -v a="$one" -v b="$two" -v c="$one_run" -v d="$two_run" \
    -v e="$best_one" -v f="$best_two" \
    'BEGIN { printf "%-44s %5.2fx simulation (%.0f vs %.0f trials/s), %5.2fx whole run, %5.2fx best against best\n", n " (" t " trials/variant)", b / a, b, a, d / c, f / e }'
  row speedup_2_threads "$name $trials trials per variant (simulation)" "$two" "$one" \
    "$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", b / a }')" "trials/s"
  row speedup_2_threads_best "$name $trials trials per variant (simulation, fastest run of each)" \
    "$best_two" "$best_one" "$(awk -v a="$best_one" -v b="$best_two" 'BEGIN { printf "%.2f", b / a }')" \
    "trials/s"
  row speedup_2_threads_whole_run "$name $trials trials per variant (whole run)" "$two_run" \
    "$one_run" "$(awk -v a="$one_run" -v b="$two_run" 'BEGIN { printf "%.2f", b / a }')" "trials/s"
  if [ -n "$game" ]; then
    one=$(median <"$out/split1")
    two=$(median <"$out/split2")
    local ratio best
    ratio=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
    best=$(awk -v a="$(smallest <"$out/split1")" -v b="$(smallest <"$out/split2")" \
      'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
    printf '%-44s %5.2fx ideal split of the same chunks (%.2f ms vs %.2f ms), %5.2fx best against best\n' \
      "" "$ratio" "$(awk -v s="$two" 'BEGIN { print s * 1000 }')" \
      "$(awk -v s="$one" 'BEGIN { print s * 1000 }')" "$best"
    row speedup_2_threads_ideal_split "$name $trials trials per variant (same chunks, no engine)" \
      "$two" "$one" "$ratio" "seconds"
  fi
}
# Every game at a small, a middling and a large size: 1,000 trials per variant is a run of
# 3 to 10 ms on two threads, where waking a sleeping thread is a visible share of the time.
for spec_file in experiments/*.toml; do
  for trials in 1000 10000 100000; do
    speedup "$(basename "$spec_file" .toml)" "$spec_file" "$trials"
  done
done
# The same question put to the plain C War peer (whole process, as it has no timer of its
# own): what two threads give a C program on this machine at the same numbers of games.
if [ -x "$out/war_ref" ]; then
  for games in 1000 10000; do
    games=$(trials_of "$games")
    : >"$out/one"
    : >"$out/two"
    for ((i = 0; i < 3 * runs; i++)); do
      wall "$out/war_ref" run "$games" 1 1 all >>"$out/one"
      wall "$out/war_ref" run "$games" 1 2 all >>"$out/two"
    done
    one=$(median <"$out/one")
    two=$(median <"$out/two")
    ratio=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
    printf '%-44s %5.2fx whole process (%.3f s vs %.3f s)\n' \
      "war_ref peer ($games games/strategy)" "$ratio" "$two" "$one"
    row speedup_2_threads_war_ref "war_ref all strategies $games games each (whole process)" \
      "$two" "$one" "$ratio" "seconds wall"
  done
fi

echo
echo "== Start-up (a run with 1 trial, whole process, median) and peak memory =="
for spec_file in experiments/*.toml; do
  name=$(basename "$spec_file" .toml)
  : >"$out/start"
  for ((i = 0; i < runs; i++)); do
    timed "$bin" run "$spec_file" --trials 1 --quiet --out "$out/start-$name" \
      | cut -d' ' -f1 >>"$out/start"
  done
  seconds=$(median <"$out/start")
  printf '%-44s %7.2f s\n' "start-up $name" "$seconds"
  row startup "$name 1 trial" "$seconds" "" "" "seconds wall"
done
small=$(trials_of 20000)
large=$(trials_of 200000)
for trials in "$small" "$large"; do
  /usr/bin/time -f '%M' -o "$out/mem" "$bin" run experiments/war_placement.toml --trials "$trials" \
    --quiet --out "$out/mem-$trials" >/dev/null 2>&1
  kib=$(cat "$out/mem")
  printf '%-44s %7.1f MiB\n' "peak memory war_placement, $trials trials" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')"
  row peak_memory "war_placement $trials trials per variant" "$kib" "" "" "KiB"
done

echo
echo "== Default War spec (6 x 1,000,000 games and all outputs, $(nproc) threads) =="
: >"$out/new"
: >"$out/old"
for ((i = 0; i < runs; i++)); do
  timed "$bin" run experiments/war_placement.toml --quiet --out "$out/war-new" | cut -d' ' -f1 >>"$out/new"
  if [ -n "${BASELINE_BIN:-}" ]; then
    timed "$BASELINE_BIN" run experiments/war_placement.toml --quiet --out "$out/war-old" \
      | cut -d' ' -f1 >>"$out/old"
  fi
done
new=$(median <"$out/new")
if [ -n "${BASELINE_BIN:-}" ]; then
  old=$(median <"$out/old")
  ratio=$(awk -v a="$old" -v b="$new" 'BEGIN { printf "%.2f", a / b }')
  printf '%-44s %7.2f s (baseline build %.2f s: %sx faster)\n' "default War spec wall" "$new" "$old" "$ratio"
  row default_war_spec "war_placement 6 x 1000000" "$new" "$old" "$ratio" "seconds wall"
else
  printf '%-44s %7.2f s\n' "default War spec wall" "$new"
  row default_war_spec "war_placement 6 x 1000000" "$new" "" "" "seconds wall"
fi

echo
echo "== Single-thread figures from the bench example =="
{
  "$example" war-cycles "$(trials_of 200000)"
  "$example" chutes "$(trials_of 1000000)"
  "$example" twentyone "$(trials_of 1000000)"
  "$example" exact
} >"$out/example"
while read -r name value unit; do
  printf '%-44s %12s %s\n' "$name" "$value" "$unit"
  row "$name" "one thread" "$value" "" "" "$unit"
done <"$out/example"
echo
echo "== Common random numbers: Twenty-One and War (crn_twentyone_war example, one thread) =="
echo "   variance ratio = (var a + var b) / var(a - b) of a per-game value on common numbers:"
echo "   how many times the games an independent design needs for the same interval;"
echo "   common cost = time of a common trial of every variant / the same on their own streams"
"$crn_example" "$(trials_of 1000000)" "$(trials_of 200000)" >"$out/crn"
while read -r name value unit rest; do
  printf '%-60s %10s %s %s\n' "$name" "$value" "$unit" "$rest"
  row "$name" "common design one thread${rest:+ ${rest//,/}}" "$value" "" "" "$unit"
done <"$out/crn"
echo
echo "Wrote $csv"

# Common random numbers in Chutes and Monopoly (one thread, `examples/crn_chutes_monopoly.rs`):
# the variance ratio of Chutes pairings that differ in one player's strategy and of Monopoly's
# jail strategies (how many times the games an independent design would need for the same
# interval), and what a common trial of every variant costs against independent ones.
crn_chutes_monopoly() {
  cargo build --release --quiet --example crn_chutes_monopoly
  local crn=$target/release/examples/crn_chutes_monopoly
  echo
  echo "== Common random numbers: Chutes and Monopoly =="
  {
    "$crn" chutes "$(trials_of 400000)"
    "$crn" monopoly "$(trials_of 40000)"
  } >"$out/crn_chutes_monopoly"
  while read -r name value unit; do
    printf '%-64s %12s %s\n' "$name" "$value" "$unit"
    row "$name" "one thread" "$value" "" "" "$unit"
  done <"$out/crn_chutes_monopoly"
}
crn_chutes_monopoly

# Choosing the best (`[select]`, one thread, `examples/select_bench.rs`): the games Kim and
# Nelson's procedure takes to pick the best of Twenty-One's stand_at 12..21 by win rate
# (indifference 0.002, 95%), with independent and common random numbers, against what Rinott's
# two-stage procedure and an equal allocation would take for the same guarantee.
select_bench() {
  cargo build --release --quiet --example select_bench
  local select=$target/release/examples/select_bench
  echo
  echo "== Choosing the best: Kim-Nelson against Rinott and an equal allocation =="
  "$select" "$(trials_of 20)" 0.002 >"$out/select"
  # The same screening and constants on ten normal systems with the indifference zone half a
  # standard deviation (`examples/select_normal.rs`), the textbook case.
  cargo build --release --quiet --example select_normal
  "$target/release/examples/select_normal" "$(trials_of 1000)" >>"$out/select"
  while read -r name value unit; do
    printf '%-56s %12s %s\n' "$name" "$value" "$unit"
    row "$name" "one thread" "$value" "" "" "$unit"
  done <"$out/select"
}
select_bench
