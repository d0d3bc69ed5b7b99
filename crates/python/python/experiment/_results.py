"""What the functions return: a run's results, one shard's file, a game's exact answers."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from . import _engine
from ._tables import Table


class Chart:
    """One of a run's charts: shown as an image in a notebook, or saved with :meth:`png` and
    :meth:`svg` (the ``<name>.png`` and ``<name>.svg`` of a results folder)."""

    __slots__ = ("_results", "name")

    def __init__(self, results: _engine.Results, name: str) -> None:
        self._results = results
        self.name = name

    def png(self) -> bytes:
        """The chart as PNG bytes."""
        return self._results.chart_png(self.name)

    def svg(self) -> str:
        """The chart as an SVG document."""
        return self._results.chart_svg(self.name)

    def _repr_png_(self) -> bytes:
        return self.png()

    def __repr__(self) -> str:
        return f"<experiment.Chart '{self.name}'>"


class _Tables(Mapping[str, Table]):
    """A read-only mapping from table name to :class:`Table`, in order."""

    __slots__ = ("_tables",)
    #: What the tables are, for the message of a missing name.
    _what = "the tables are"

    def __init__(self, tables: list[_engine.Table]) -> None:
        self._tables = {table.name: Table(table) for table in tables}

    def __getitem__(self, name: str) -> Table:
        try:
            return self._tables[name]
        except KeyError:
            raise KeyError(f"no table '{name}': {self._what} {', '.join(self._tables)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    @property
    def tables(self) -> dict[str, Table]:
        """Every table, by name."""
        return dict(self._tables)


class Results(_Tables):
    """A finished run (or merge): its tables by name, report, manifest and charts.

    It is a read-only mapping from table name to :class:`Table`, in the order the report shows
    them (``results["summary"]``, ``list(results)``); in a notebook it shows the report.
    """

    __slots__ = ("_native",)
    _what = "this run's tables are"

    def __init__(self, native: _engine.Results) -> None:
        super().__init__([native.table(name) for name in native.table_names()])
        self._native = native

    @property
    def manifest(self) -> dict[str, Any]:
        """The record of the run: exactly ``manifest.json`` (its ``files`` are those written)."""
        return json.loads(self._native.manifest_json())

    @property
    def markdown(self) -> str:
        """The report as Markdown: exactly ``report.md``."""
        return self._native.markdown()

    @property
    def html(self) -> str:
        """The report as one self-contained HTML page: exactly ``report.html``."""
        return self._native.html()

    @property
    def charts(self) -> dict[str, Chart]:
        """The charts, by name."""
        return {name: Chart(self._native, name) for name in self._native.chart_names()}

    @property
    def folder(self) -> Path | None:
        """The results folder written, or None for a run kept in memory."""
        folder = self._native.folder
        return None if folder is None else Path(folder)

    @property
    def played(self) -> int:
        """Trials this run played itself (a top-up reuses a folder's; a merge plays none)."""
        return self._native.played

    def _repr_html_(self) -> str:
        # The page keeps its own styles inside a frame, away from the notebook's.
        page = html.escape(self.html, quote=True)
        return (
            f'<iframe srcdoc="{page}" style="width: 100%; height: 640px; border: 0;" '
            'title="experiment report"></iframe>'
        )

    def __repr__(self) -> str:
        manifest = self.manifest
        where = f", written to {self.folder}" if self.folder else ""
        return (
            f"<experiment.Results '{manifest['experiment']}' ({manifest['game']}): "
            f"{manifest['trials_per_variant']} trials x {len(manifest['variants'])} variants, "
            f"tables {', '.join(self._tables)}{where}>"
        )


@dataclass(frozen=True)
class Shard:
    """One shard of a run, written as a summaries file for :func:`experiment.merge`."""

    file: Path
    """The shard's summaries file."""
    folder: Path
    """The folder of every shard's file (what :func:`experiment.merge` reads)."""
    trials: int
    """Trials the shard holds."""
    seconds: float
    """Wall-clock seconds it took."""


class ExactAnswers(_Tables):
    """A game's exact answers: a read-only mapping from table name to :class:`Table`, and the
    text ``experiment exact`` prints (:attr:`text`)."""

    __slots__ = ("text",)
    _what = "the exact answers are"

    def __init__(self, text: str, tables: list[_engine.Table]) -> None:
        super().__init__(tables)
        self.text = text

    def _repr_markdown_(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text
