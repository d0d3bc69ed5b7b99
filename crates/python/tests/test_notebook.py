"""The example notebook runs headless from top to bottom, failing on any cell's error, and
docs/python.md's walk-through is that notebook, with the text its cells print."""

from __future__ import annotations

import os

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import ROOT

NOTEBOOK = ROOT / "examples" / "twentyone_notebook.ipynb"
PAGE = ROOT / "docs" / "python.md"
BEGIN, END = "<!-- notebook: begin -->", "<!-- notebook: end -->"


@pytest.fixture(scope="module")
def executed() -> nbformat.NotebookNode:
    """The notebook, executed in a kernel of this environment's Python, from the project root."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    ).execute()
    return notebook


def test_the_example_notebook_runs_without_an_error_and_draws_its_charts(
    executed: nbformat.NotebookNode,
) -> None:
    outputs = [output for cell in executed.cells if cell.cell_type == "code"
               for output in cell.get("outputs", [])]
    assert not [output for output in outputs if output.get("output_type") == "error"]
    images = [output for output in outputs if "image/png" in output.get("data", {})]
    assert len(images) >= 2, "the notebook's charts were not drawn"
    shown = [output for output in outputs if "text/html" in output.get("data", {})]
    assert any("<iframe srcdoc=" in "".join(output["data"]["text/html"]) for output in shown)


def render(notebook: nbformat.NotebookNode) -> str:
    """The notebook as Markdown: text cells as they are, code in python blocks, and what the
    code prints (its stream output) in text blocks."""
    parts = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source.strip())
            continue
        parts.append(f"```python\n{cell.source.strip()}\n```")
        printed = "".join(
            output.get("text", "") for output in cell.get("outputs", [])
            if output.get("output_type") == "stream"
        )
        if printed.strip():
            parts.append(f"```text\n{printed.strip()}\n```")
    return "\n\n".join(parts)


def test_the_docs_walk_through_is_the_notebook_with_what_it_prints(
    executed: nbformat.NotebookNode,
) -> None:
    rendered = render(executed)
    text = PAGE.read_text()
    before, rest = text.split(BEGIN)
    shown, after = rest.split(END)
    if os.environ.get("UPDATE_DOCS") == "1":
        PAGE.write_text(f"{before}{BEGIN}\n{rendered}\n{END}{after}")
        return
    assert shown.strip() == rendered, (
        "docs/python.md's walk-through differs from examples/twentyone_notebook.ipynb: rerun "
        "with UPDATE_DOCS=1 to write it again"
    )
