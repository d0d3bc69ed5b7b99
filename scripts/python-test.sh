#!/usr/bin/env bash
# The Python package's tests: builds crates/python into a fresh virtual environment with pip
# (maturin compiles the native module with cargo, in this checkout's target folder, so the
# engine's crates that `cargo test --release` built are reused), builds the wheel as
# docs/python.md shows, installs the readers the tests use (polars, pandas, pyarrow) and the
# notebook runner, then runs crates/python/tests with pytest: the API, every error class,
# Ctrl-C, the identity with the command line (target/release/experiment, brought up to date
# first, so that a binary built before the last commit does not record another), the docs' Python examples and the example notebook executed headless. The
# environment is removed afterwards (the Jupyter kernel is started and stopped by the test);
# a failure exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m venv "$work/venv"
# shellcheck disable=SC1091
source "$work/venv/bin/activate"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_QUIET=1
started=$(date +%s)
pip install ./crates/python
installed=$(date +%s)
echo "python-test: built and installed the package in $((installed - started)) s"
pip install maturin pytest polars pandas pyarrow matplotlib nbclient nbformat ipykernel
rm -rf "${CARGO_TARGET_DIR:-target}/wheels"
cd crates/python && maturin build --release --auditwheel skip
cd "$root"
wheel=$(ls "${CARGO_TARGET_DIR:-target}"/wheels/experiment-*.whl)
echo "python-test: wheel $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB"
target=${CARGO_TARGET_DIR:-$root/target}
[[ "$target" = /* ]] || target="$root/$target"
# A no-op when the binary is current; a binary left from before a commit would name another
# commit in its manifests than the package does.
cargo build --release --quiet --bin experiment
export EXPERIMENT_BIN="$target/release/experiment"
tests_started=$(date +%s)
python -m pytest crates/python/tests -q -p no:cacheprovider
echo "python-test: tests passed in $(($(date +%s) - tests_started)) s; $(($(date +%s) - started)) s in all"
