"""Shared fixtures: the repository (specs are named from its root), the `experiment` program
built from the same sources (for comparisons with the command line), and a clean working
folder for runs that must write nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> Path:
    """The command line built from this checkout: `EXPERIMENT_BIN`, else target/release. A
    missing program fails the test rather than skipping it."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    program = Path(os.environ.get("EXPERIMENT_BIN", target / "release" / "experiment"))
    assert program.is_file(), f"{program} is missing: run `cargo build --release` first"
    return program


def run_cli(cli: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Runs the command line quietly and fails the test on a non-zero exit."""
    done = subprocess.run(
        [str(cli), *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{args}: {done.stderr}"
    return done


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Runs the test from the repository's root, where specs name their paths."""
    monkeypatch.chdir(ROOT)
    return ROOT


@pytest.fixture
def war_spec(tmp_path: Path) -> Path:
    """A copy of the shipped War spec, in a folder of its own."""
    spec = tmp_path / "war_placement.toml"
    shutil.copy(ROOT / "experiments" / "war_placement.toml", spec)
    return spec


def listing(folder: Path) -> list[str]:
    """Every path under `folder`, relative, sorted."""
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))
