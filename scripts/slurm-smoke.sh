#!/usr/bin/env bash
# Tests `experiment slurm` and `experiment merge` on a REAL single-node Slurm cluster that this
# script starts on this machine, in a temporary folder, and stops again (no mocks):
#
#   1. installs Debian's slurm-wlm and munge with apt-get when they are missing (root only;
#      services are kept from starting during the install);
#   2. (unless --cluster-only) builds the engine: `cargo build --release` (as the tests do);
#   3. starts munged, slurmctld and slurmd from a fresh munge key and a slurm.conf in the
#      temporary folder (their own sockets, ports, pid files, logs, state and spool folders;
#      nothing in /etc/slurm, /etc/munge or /run/munge is used), and waits for the node to be idle;
#   4. sanity check of the cluster: a 4-task array job (`sbatch --array=0-3`) and a job that
#      depends on it (`--dependency=afterok`) and concatenates the tasks' files;
#   5. (unless --cluster-only) runs
#        experiment slurm experiments/war_placement.toml --shards 4 --trials 20000 \
#          --out $tmp/merged --submit
#      waits for the shard array job and the merge job it prints, runs the same spec locally
#      (`experiment run ... --trials 20000 --out $tmp/local`), and checks that every CSV and
#      Parquet file of the local run is byte-identical in the merged results, and that the
#      merged report.html and manifest.json exist;
#   6. however it exits (success, failure, Ctrl-C, SIGTERM), cancels its jobs and stops exactly
#      the daemons it started, by their pids, then removes the temporary folder; after a failure
#      the folder (daemon logs, job logs, outputs) is kept and its path printed.
#
# Usage (as root, from anywhere):
#   scripts/slurm-smoke.sh                  # the whole test (cluster, then the engine)
#   scripts/slurm-smoke.sh --cluster-only   # only steps 1, 3, 4 and 6: checks the cluster itself
#
# Environment:
#   CARGO_TARGET_DIR        where cargo builds (the binary is $CARGO_TARGET_DIR/release/experiment,
#                           default target/release/experiment)
#   SLURM_SMOKE_TIMEOUT     seconds to wait for each job to finish (default 300); the node has
#                           60 s to become idle
#   SLURM_SMOKE_REQUIRE=1   never skip: fail when the packages cannot be installed
#   SLURM_SMOKE_KEEP=1      keep the temporary folder even when the test passes
#
# Exit status: 0 when every check passed. The test is SKIPPED with a message and status 0 only
# when slurm-wlm/munge are missing and cannot be installed (not root, no apt-get, or apt-get fails
# even after `apt-get update`, e.g. no network), unless SLURM_SMOKE_REQUIRE=1. Any other problem
# (a daemon that does not start, a job that fails or times out, a mismatching table) is non-zero;
# Ctrl-C exits 130 and SIGTERM 143, after the same clean-up.
#
# Time on the 2-core development machine: the cluster part (start, sanity jobs, stop) about 10 s,
# the node idle 1-2 s after the daemons start; installing the packages about 7 s when apt's cache
# holds them.
#
# Notes: the cluster runs everything as root (SlurmUser=root, jobs are submitted by root), uses
# proctrack/linuxproc and task/none so no cgroup setup is needed, addresses the node as
# 127.0.0.1 and picks free TCP ports, so it neither needs DNS nor clashes with a Slurm already
# running on the machine. Jobs inherit the submitting environment (sbatch --export=ALL).
set -euo pipefail
cd "$(dirname "$0")/.."
project_root=$(pwd)

job_timeout=${SLURM_SMOKE_TIMEOUT:-300}
node_timeout=60
spec=experiments/war_placement.toml
shards=4
trials=20000

cluster_only=0
tmp=""
munged_pid=""
slurmctld_pid=""
slurmd_pid=""
policy_rc_created=0

say() { echo "slurm-smoke: $*"; }
warn() { echo "slurm-smoke: $*" >&2; }
die() {
  warn "FAILED: $*"
  exit 1
}

usage() {
  sed -n '2,/^set -euo pipefail/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}

parse_args() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --cluster-only) cluster_only=1 ;;
      -h | --help)
        usage
        exit 0
        ;;
      *)
        warn "unknown argument '$1' (valid: --cluster-only, --help)"
        exit 2
        ;;
    esac
    shift
  done
}

# ---------------------------------------------------------------------------------------------
# Packages

slurm_commands=(munged munge unmunge slurmctld slurmd sbatch squeue scontrol scancel sinfo)

missing_commands() {
  local c
  for c in "${slurm_commands[@]}"; do
    command -v "$c" >/dev/null || echo "$c"
  done
}

skip() {
  if [ "${SLURM_SMOKE_REQUIRE:-0}" = 1 ]; then
    die "$* (SLURM_SMOKE_REQUIRE=1, so this is a failure)"
  fi
  warn "SKIPPED: $*; no Slurm test was run"
  exit 0
}

remove_policy_rc() {
  if [ "$policy_rc_created" = 1 ]; then
    rm -f /usr/sbin/policy-rc.d
    policy_rc_created=0
  fi
}

apt_install() {
  apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 slurm-wlm munge
}

install_packages() {
  local missing
  missing=$(missing_commands | xargs)
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    skip "slurm-wlm/munge are not installed (missing: $missing) and cannot be installed here (needs root and apt-get)"
  fi
  say "missing: $missing; installing Debian's slurm-wlm and munge with apt-get"
  # Keep the packages' services (system munged, slurmctld, slurmd) from starting: an existing
  # policy-rc.d is left as it is, otherwise one that denies everything is in place for the
  # install only.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\n# written by slurm-smoke.sh for its apt-get install only\nexit 101\n' \
      >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    policy_rc_created=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  local log ok=0
  log=$(mktemp)
  if apt_install >"$log" 2>&1; then
    ok=1
  else
    say "apt-get install failed; running apt-get update and trying again"
    if apt-get update -q -o DPkg::Lock::Timeout=300 >>"$log" 2>&1 && apt_install >>"$log" 2>&1; then
      ok=1
    fi
  fi
  remove_policy_rc
  if [ "$ok" = 0 ]; then
    tail -n 20 "$log" >&2
    rm -f "$log"
    skip "apt-get could not install slurm-wlm and munge (see the apt-get output above)"
  fi
  rm -f "$log"
  missing=$(missing_commands | xargs)
  [ -z "$missing" ] || die "apt-get installed slurm-wlm and munge but these commands are missing: $missing"
  say "installed $(dpkg-query -W -f '${Package} ${Version}' slurm-wlm 2>/dev/null || echo slurm-wlm)"
  note_system_daemons
}

# Says so when system daemons (started by the packages' install or before) are running: they are
# not ours, so they are left alone; our cluster uses its own socket, ports and files.
note_system_daemons() {
  local d name
  for d in /proc/[0-9]*; do
    name=$(cat "$d/comm" 2>/dev/null) || continue
    case "$name" in
      munged | slurmctld | slurmd)
        say "note: a system $name (pid ${d#/proc/}) is running; it is not this script's and is left alone"
        ;;
    esac
  done
}

# ---------------------------------------------------------------------------------------------
# Cluster

# Whether a process that this script started is still running (not a zombie), checked by pid and
# by its command line naming our temporary folder, so a reused pid is never taken for ours.
ours_alive() {
  local pid=$1 stat args
  [ -n "$pid" ] || return 1
  stat=$(ps -o stat= -p "$pid" 2>/dev/null) || return 1
  case "$stat" in Z*) return 1 ;; esac
  args=$(ps -o args= -p "$pid" 2>/dev/null) || return 1
  case "$args" in *"$tmp"*) return 0 ;; *) return 1 ;; esac
}

stop_daemon() {
  local name=$1 pid=$2
  ours_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    ours_alive "$pid" || break
    sleep 0.1
  done
  if ours_alive "$pid"; then
    warn "$name (pid $pid) did not stop on SIGTERM within 10 s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

cancel_jobs() {
  local jobs
  jobs=$(squeue -h -o %A 2>/dev/null | tr '\n' ' ') || return 0
  [ -n "${jobs// /}" ] || return 0
  say "cancelling jobs still in the queue: $jobs"
  # shellcheck disable=SC2086 # one argument per job id
  scancel $jobs 2>/dev/null || true
  for _ in $(seq 1 30); do
    [ -z "$(squeue -h -o %A 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  warn "jobs still in the queue after scancel: $(squeue -h 2>/dev/null | tr '\n' ';')"
}

# The slurmstepd processes of our slurmd (each job's step daemon; they detach from slurmd, so
# they are found by the SLURM_CONF of our cluster in their environment).
our_stepds() {
  local d
  for d in /proc/[0-9]*; do
    [ "$(cat "$d/comm" 2>/dev/null)" = slurmstepd ] || continue
    if tr '\0' '\n' 2>/dev/null <"$d/environ" | grep -qxF "SLURM_CONF=$tmp/slurm.conf"; then
      echo "${d#/proc/}"
    fi
  done
}

stop_stepds() {
  local pids
  for _ in $(seq 1 50); do
    pids=$(our_stepds)
    [ -z "$pids" ] && return 0
    sleep 0.2
  done
  warn "step daemons of our jobs still running after 10 s; stopping them: $(echo "$pids" | tr '\n' ' ')"
  # shellcheck disable=SC2086 # one argument per pid
  kill -TERM $pids 2>/dev/null || true
  sleep 2
  pids=$(our_stepds)
  # shellcheck disable=SC2086
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
}

cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  remove_policy_rc
  if [ -n "$tmp" ]; then
    if ours_alive "$slurmctld_pid"; then cancel_jobs; fi
    stop_stepds
    stop_daemon slurmd "$slurmd_pid"
    stop_daemon slurmctld "$slurmctld_pid"
    stop_daemon munged "$munged_pid"
    if [ "$status" = 0 ] && [ "${SLURM_SMOKE_KEEP:-0}" != 1 ]; then
      rm -rf "$tmp"
    else
      warn "kept the temporary folder for inspection: $tmp (daemon logs in $tmp/log)"
    fi
  fi
  exit "$status"
}

port_in_use() {
  if command -v ss >/dev/null; then
    [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
  fi
}

# Two consecutive free TCP ports (slurmctld, slurmd), from a random start so that two runs at
# the same time, or a system Slurm on the default ports 6817/6818, do not clash.
pick_ports() {
  local p tries
  for tries in $(seq 1 50); do
    p=$((20000 + RANDOM % 12000)) # below the kernel's ephemeral ports (32768-)
    if ! port_in_use "$p" && ! port_in_use "$((p + 1))"; then
      echo "$p"
      return 0
    fi
  done
  die "found no two free TCP ports after $tries tries"
}

# Prints the end of every file matching the glob PATTERNs (expanded now, not by the caller, so
# that logs written by jobs after the call started are included).
show_logs() {
  local pattern f
  for pattern in "$@"; do
    while IFS= read -r f; do
      [ -f "$f" ] || continue
      warn "----- last lines of $f -----"
      tail -n 30 "$f" >&2
    done < <(compgen -G "$pattern" || true)
  done
}

daemon_logs() {
  show_logs "$tmp/log/munged.log" "$tmp/log/slurmctld.log" "$tmp/log/slurmd.log" \
    "$tmp/log/slurmctld.out" "$tmp/log/slurmd.out"
}

start_munged() {
  # munged insists on: a key readable by its owner only, and "execute for all" on every folder
  # above its socket (so the temporary folder is 0711, not mktemp's 0700).
  mkdir -m 711 "$tmp/munge"
  dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$tmp/munge/munge.key"
  munged --foreground --force \
    --socket="$tmp/munge/munge.socket" \
    --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" \
    --seed-file="$tmp/munge/munged.seed" \
    >"$tmp/log/munged.log" 2>&1 &
  munged_pid=$!
  for _ in $(seq 1 100); do
    if munge -n -S "$tmp/munge/munge.socket" 2>/dev/null |
      unmunge -S "$tmp/munge/munge.socket" >/dev/null 2>&1; then
      say "munged is up (pid $munged_pid)"
      return 0
    fi
    ours_alive "$munged_pid" || break
    sleep 0.1
  done
  daemon_logs
  die "munged did not start (no credential round trip through $tmp/munge/munge.socket)"
}

write_slurm_conf() {
  local node=$1 port=$2 hardware
  # `slurmd -C` prints this machine's real node line: CPUs, sockets, cores, threads, memory.
  hardware=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
  [ -n "$hardware" ] || die "slurmd -C printed no hardware description"
  mkdir -p "$tmp/state" "$tmp/spool" "$tmp/run"
  : >"$tmp/plugstack.conf"
  cat >"$tmp/slurm.conf" <<EOF
# Single-node cluster of scripts/slurm-smoke.sh; everything lives in $tmp.
ClusterName=smoke
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=3600
EnforcePartLimits=ALL
DependencyParameters=kill_invalid_depend
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=$node NodeAddr=127.0.0.1 $hardware State=UNKNOWN
PartitionName=smoke Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

node_state() {
  sinfo -h -n "$1" -o %t 2>/dev/null | head -n 1
}

start_cluster() {
  local node port state
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/slurm-smoke.XXXXXX")
  chmod 711 "$tmp"
  mkdir -p "$tmp/log"
  node=$(hostname -s)
  port=$(pick_ports)
  write_slurm_conf "$node" "$port"
  # Our cluster only: no SLURM_*/SBATCH_*/... settings of the caller's environment (a partition,
  # an account, another cluster) reach our client commands or jobs.
  local var
  for var in $(compgen -e | grep -E '^(SLURM|SBATCH|SQUEUE|SINFO|SCONTROL|SCANCEL|SALLOC|SRUN)_' || true); do
    unset "$var"
  done
  export SLURM_CONF="$tmp/slurm.conf"
  say "cluster folder $tmp; node $node; slurmctld port $port, slurmd port $((port + 1))"

  start_munged
  # -D: stay in the foreground, so $! is the daemon's pid. -i: ignore any state files.
  slurmctld -D -i -f "$SLURM_CONF" >>"$tmp/log/slurmctld.out" 2>&1 &
  slurmctld_pid=$!
  slurmd -D -f "$SLURM_CONF" -N "$node" >>"$tmp/log/slurmd.out" 2>&1 &
  slurmd_pid=$!
  say "started slurmctld (pid $slurmctld_pid) and slurmd (pid $slurmd_pid); waiting for node $node to be idle"

  state=""
  for _ in $(seq 1 $((node_timeout * 4))); do
    ours_alive "$slurmctld_pid" || break
    ours_alive "$slurmd_pid" || break
    state=$(node_state "$node")
    [ "$state" = idle ] && break
    sleep 0.25
  done
  if [ "$state" != idle ]; then
    ours_alive "$slurmctld_pid" || warn "slurmctld exited"
    ours_alive "$slurmd_pid" || warn "slurmd exited"
    scontrol show node "$node" >&2 2>/dev/null || true
    daemon_logs
    die "node $node is not idle after ${node_timeout} s (state: '${state:-unknown}')"
  fi
  say "node $node is idle after $SECONDS s"
}

# ---------------------------------------------------------------------------------------------
# Jobs

# The id printed by `sbatch --parsable` ("ID" or "ID;cluster").
submit() {
  local out
  out=$(sbatch --parsable "$@") || die "sbatch $* failed"
  echo "${out%%;*}"
}

# One line per job (per array task): its id, state, reason, exit code and output file.
job_records() {
  scontrol -o show job "$1" 2>/dev/null |
    grep -o -E '(JobId|ArrayJobId|ArrayTaskId|JobState|Reason|ExitCode|StdOut)=[^ ]*' |
    awk -F= '$1 == "JobId" && NR > 1 { printf "\n" } { printf "%s ", $0 } END { printf "\n" }'
}

# Waits until job ID (all its array tasks) has left the queue, then checks that every task ended
# COMPLETED (scontrol still knows them: MinJobAge=3600). On failure prints the job's records and
# the end of the files matching the LOG_PATTERNs (globs, quoted by the caller).
wait_job() {
  local id=$1 label=$2
  shift 2
  local start=$SECONDS queued reason states
  while :; do
    if ! queued=$(squeue -h -j "$id" -o '%i %T %r' 2>&1); then
      case "$queued" in
        *"Invalid job id"*) queued="" ;;
        *) die "squeue -j $id failed: $queued" ;;
      esac
    fi
    [ -z "$queued" ] && break
    reason=$(echo "$queued" | awk '{print $3}' |
      grep -m 1 -E 'DependencyNeverSatisfied|PartitionConfig|BadConstraints|Invalid' || true)
    if [ -n "$reason" ]; then
      job_records "$id" >&2
      show_logs "$@"
      die "$label (job $id) can never start: $reason"
    fi
    if [ $((SECONDS - start)) -ge "$job_timeout" ]; then
      warn "still queued: $(echo "$queued" | tr '\n' ';')"
      job_records "$id" >&2
      show_logs "$@"
      daemon_logs
      die "$label (job $id) did not finish within $job_timeout s (SLURM_SMOKE_TIMEOUT)"
    fi
    sleep 1
  done
  states=$(scontrol -o show job "$id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 |
    sort | uniq -c | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')
  if ! echo "$states" | grep -q -x "COMPLETED x[0-9]*"; then
    job_records "$id" >&2
    show_logs "$@"
    die "$label (job $id) did not complete: ${states:-slurmctld has no record of it}"
  fi
  say "$label (job $id) finished in $((SECONDS - start)) s: $states"
}

sanity_jobs() {
  local dir="$tmp/sanity" array_id concat_id expected
  mkdir -p "$dir"
  # shellcheck disable=SC2016 # $SLURM_ARRAY_TASK_ID is expanded by the job, not here
  array_id=$(submit --array=0-3 --job-name=smoke-array --chdir="$dir" \
    --output="$dir/array-%A_%a.out" \
    --wrap='echo "$SLURM_ARRAY_TASK_ID" >"task-$SLURM_ARRAY_TASK_ID.txt"')
  concat_id=$(submit --dependency="afterok:$array_id" --job-name=smoke-concat --chdir="$dir" \
    --output="$dir/concat-%j.out" \
    --wrap='cat task-0.txt task-1.txt task-2.txt task-3.txt >all.txt')
  say "sanity: submitted array job $array_id (4 tasks) and dependent job $concat_id"
  wait_job "$array_id" "sanity array job" "$dir/array-*.out"
  wait_job "$concat_id" "sanity dependent job" "$dir/array-*.out" "$dir/concat-*.out"
  expected=$(printf '0\n1\n2\n3')
  [ -f "$dir/all.txt" ] || die "the dependent job wrote no $dir/all.txt"
  [ "$(cat "$dir/all.txt")" = "$expected" ] ||
    die "$dir/all.txt holds '$(tr '\n' ' ' <"$dir/all.txt")', expected '0 1 2 3'"
  say "sanity: array job and dependent job ran; all.txt is 0 1 2 3"
}

# ---------------------------------------------------------------------------------------------
# Engine

bin=""

build_engine() {
  local start=$SECONDS target
  say "building the engine: cargo build --release --bin experiment --example gamblers_ruin"
  command -v cargo >/dev/null || die "cargo is not installed (needed to build the engine; --cluster-only does not)"
  # The same build as `cargo test --release` and scripts/check-report.sh: building an example
  # brings in the dev-dependencies' features, so after the test suite this compiles nothing,
  # where a plain `cargo build --bin experiment` would compile Polars again with other features.
  cargo build --release --bin experiment --example gamblers_ruin || die "cargo build --release failed"
  target=${CARGO_TARGET_DIR:-target}
  bin=$(realpath "$target/release/experiment")
  [ -x "$bin" ] || die "no binary at $target/release/experiment after cargo build"
  say "built $bin in $((SECONDS - start)) s"
}

engine_on_slurm() {
  local merged="$tmp/merged" out shards_id merge_id start=$SECONDS
  say "running: experiment slurm $spec --shards $shards --trials $trials --out $merged --submit"
  out=$("$bin" slurm "$spec" --shards "$shards" --trials "$trials" --out "$merged" --submit) ||
    die "experiment slurm --submit failed (output above)"
  echo "$out"
  shards_id=$(echo "$out" | sed -n 's/^shards job: \([0-9][0-9]*\)$/\1/p' | head -n 1)
  merge_id=$(echo "$out" | sed -n 's/^merge job: \([0-9][0-9]*\)$/\1/p' | head -n 1)
  [ -n "$shards_id" ] || die "experiment slurm printed no line 'shards job: <id>'"
  [ -n "$merge_id" ] || die "experiment slurm printed no line 'merge job: <id>'"
  wait_job "$shards_id" "shard array job" "$merged.slurm/logs/*.out"
  wait_job "$merge_id" "merge job" "$merged.slurm/logs/*.out"
  engine_jobs_summary="shards job $shards_id, merge job $merge_id, $((SECONDS - start)) s on Slurm"
}

engine_local() {
  local start=$SECONDS
  say "running the local reference: experiment run $spec --trials $trials --out $tmp/local"
  "$bin" run "$spec" --trials "$trials" --out "$tmp/local" --quiet ||
    die "the local reference run failed"
  engine_local_summary="local run $((SECONDS - start)) s"
}

compare_results() {
  local f n=0 bad=0
  while IFS= read -r -d '' f; do
    f=${f#"$tmp/local/"}
    n=$((n + 1))
    if [ ! -f "$tmp/merged/$f" ]; then
      warn "missing in the merged results: $f"
      bad=$((bad + 1))
    elif ! cmp -s "$tmp/local/$f" "$tmp/merged/$f"; then
      warn "differs from the local run: $f ($(cmp "$tmp/local/$f" "$tmp/merged/$f" 2>&1 | head -n 1))"
      bad=$((bad + 1))
    fi
  done < <(find "$tmp/local" -type f \( -name '*.csv' -o -name '*.parquet' \) -print0 | sort -z)
  [ "$n" -gt 0 ] || die "the local run wrote no CSV or Parquet file in $tmp/local"
  for f in report.html manifest.json; do
    if [ ! -s "$tmp/merged/$f" ]; then
      warn "missing or empty in the merged results: $f"
      bad=$((bad + 1))
    fi
  done
  [ "$bad" = 0 ] || die "$bad problem(s) comparing the merged results with the local run"
  say "merged results equal the local run byte for byte: $n CSV/Parquet files; report.html and manifest.json present"
}

# ---------------------------------------------------------------------------------------------

main() {
  parse_args "$@"
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  install_packages
  [ "$(id -u)" = 0 ] || die "must run as root (the test cluster runs slurmd and its jobs as root)"
  engine_jobs_summary=""
  engine_local_summary=""
  if [ "$cluster_only" = 0 ]; then
    build_engine
  fi
  SECONDS=0
  start_cluster
  sanity_jobs
  if [ "$cluster_only" = 1 ]; then
    say "PASSED (--cluster-only): cluster up, sanity jobs ran, in $SECONDS s; stopping the daemons"
    return 0
  fi
  engine_on_slurm
  engine_local
  compare_results
  say "PASSED in $SECONDS s: $engine_jobs_summary; $engine_local_summary; project $project_root"
}

main "$@"
