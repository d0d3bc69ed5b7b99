"""Parallel, reproducible Monte Carlo experiments on tabletop games, run in-process.

The engine of the ``experiment`` command line, called from Python: a run uses every core
(with the GIL released), gives the same numbers as the command line for the same spec and
seed, and returns its tables as Arrow tables that polars, pandas and pyarrow read directly::

    import experiment
    import polars as pl

    results = experiment.run("experiments/war_placement.toml", trials=20_000, seed=1)
    summary = pl.DataFrame(results["summary"])
    results          # in a notebook: the report

The functions:

- :func:`run` plays a spec (a path, TOML text or a dict) and returns :class:`Results`, or one
  shard's :class:`Shard` with ``shard=(k, n)``; it writes a results folder only when ``out``
  is given (exactly the command line's folder).
- :func:`merge` merges shard files into one run's :class:`Results`.
- :func:`validate` checks a spec as ``experiment validate`` does and returns its variants.
- :func:`games` lists the games and their parameters, as ``experiment list`` does.
- :func:`exact` computes a game's exact answers, as ``experiment exact`` does.

Errors: a spec that cannot be used raises :class:`SpecError`, any other refusal
:class:`ExperimentError` (both ``ValueError``); Ctrl-C stops a run within a second and raises
``KeyboardInterrupt``, keeping the checkpoint that ``resume=True`` continues when the run
writes a folder.
"""

from ._engine import ExperimentError, SpecError, __version__
from ._api import exact, games, merge, run, validate
from ._results import Chart, ExactAnswers, Results, Shard
from ._tables import Table

__all__ = [
    "Chart",
    "ExactAnswers",
    "ExperimentError",
    "Results",
    "Shard",
    "SpecError",
    "Table",
    "__version__",
    "exact",
    "games",
    "merge",
    "run",
    "validate",
]
