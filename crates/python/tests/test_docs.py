"""docs/python.md and README.md: every example of the package runs, in order, in a copy of the
project's specs (the page's notebook walk-through is checked by test_notebook.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT

PAGE = ROOT / "docs" / "python.md"
BEGIN = "<!-- notebook: begin -->"


def test_every_python_example_of_the_page_runs(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    page, _ = PAGE.read_text().split(BEGIN)
    blocks = re.findall(r"^```python\n(.*?)^```", page, re.S | re.M)
    assert len(blocks) >= 6, "the page's Python examples were not found"
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "docs_python"}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)  # noqa: S102 - the docs' own code
    assert (tmp_path / "results" / "war_py" / "report.md").is_file()
    assert (tmp_path / "results" / "war_merged" / "summary.csv").is_file()
    assert not (ROOT / "results" / "war_py").exists()


def test_the_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(), re.S | re.M)
    # The package's example (the others read a results folder with pandas, polars or R).
    blocks = [block for block in blocks if "import experiment" in block]
    assert len(blocks) == 1, "README.md's example of the Python package was not found"
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "readme"}
    exec(compile(blocks[0], "README.md", "exec"), namespace)  # noqa: S102 - the README's code
    assert namespace["summary"].height == 6
