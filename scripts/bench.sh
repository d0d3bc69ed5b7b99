#!/usr/bin/env bash
# Speed and memory benchmark of the engine, reported as ratios against a baseline measured in
# the same run (never as timed tests).
#
#   scripts/bench.sh            # all games, default sizes
#   BENCH_SCALE=0.1 scripts/bench.sh   # a quicker, smaller run
#
# For each game it runs the shipped spec with 1 thread and with all threads and prints
# trials/s from manifest.json and the speed-up; for War it also measures peak memory at two
# trial counts (10x apart) to show memory stays flat as trials grow.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/experiment
scale=${BENCH_SCALE:-1}
threads=$(nproc)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

trials_of() { awk -v n="$1" -v s="$scale" 'BEGIN { printf "%d", (n * s < 1) ? 1 : n * s }'; }
rate() { jq -r '.trials_per_second' "$1/manifest.json"; }
peak_kib() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1; }

printf '%-10s %12s %14s %14s %9s  %s\n' game trials "1 thread/s" "$threads threads/s" speedup unit
bench() { # name spec trials unit [multiplier for the unit]
  local name=$1 spec=$2 trials unit=$4 mult=${5:-1}
  trials=$(trials_of "$3")
  "$bin" run "$spec" --trials "$trials" --threads 1 --quiet --out "$out/$name-1" >/dev/null 2>&1
  "$bin" run "$spec" --trials "$trials" --threads "$threads" --quiet --out "$out/$name-n" >/dev/null 2>&1
  local one many
  one=$(rate "$out/$name-1"); many=$(rate "$out/$name-n")
  awk -v n="$name" -v t="$trials" -v a="$one" -v b="$many" -v m="$mult" -v u="$unit" -v th="$threads" \
    'BEGIN { printf "%-10s %12d %14.0f %14.0f %8.2fx  %s\n", n, t, a*m, b*m, b/a, u }'
}
bench war experiments/war_placement.toml 200000 "games/s (6 strategies)"
bench monopoly experiments/monopoly_landing.toml 200000 "player-turns/s (150 turns x 2 players)" 300
[ -f experiments/chutes_doubling.toml ] && bench chutes experiments/chutes_doubling.toml 1000000 "games/s (25 pairings + base game, incl. exact solve)"
[ -f experiments/twentyone_thresholds.toml ] && bench twentyone experiments/twentyone_thresholds.toml 200000 "games/s"

echo
small=$(trials_of 20000); large=$(trials_of 200000)
mem_small=$(peak_kib "$bin" run experiments/war_placement.toml --trials "$small" --quiet --out "$out/mem-small")
mem_large=$(peak_kib "$bin" run experiments/war_placement.toml --trials "$large" --quiet --out "$out/mem-large")
awk -v s="$small" -v l="$large" -v a="$mem_small" -v b="$mem_large" \
  'BEGIN { printf "War peak memory: %d trials %.1f MiB, %d trials %.1f MiB (ratio %.2f for %dx the trials)\n", s, a/1024, l, b/1024, b/a, l/s }'

echo
full_start=$(date +%s.%N)
"$bin" run experiments/war_placement.toml --quiet --out "$out/war-default" >/dev/null 2>&1
awk -v a="$full_start" -v b="$(date +%s.%N)" 'BEGIN { printf "Default War spec (6 x 1,000,000 games + outputs): %.1f s wall\n", b - a }'
