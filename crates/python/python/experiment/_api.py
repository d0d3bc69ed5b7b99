"""The package's functions: run, merge, validate, games, exact."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Union

from . import _engine
from ._progress import wait
from ._results import ExactAnswers, Results, Shard
from ._tables import Table

#: A spec: a path to a TOML file, TOML text, or a dict with the spec's keys.
SpecLike = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def _spec(spec: SpecLike) -> tuple[str, Any]:
    """What kind of spec `spec` is, and the spec in that form."""
    if isinstance(spec, Mapping):
        return "dict", dict(spec)
    if isinstance(spec, os.PathLike):
        return "path", os.fspath(spec)
    if isinstance(spec, str):
        # TOML text has a line break or a `key = value`; a path has neither (or exists).
        if "\n" in spec or ("=" in spec and not os.path.exists(spec)):
            return "text", spec
        return "path", spec
    raise TypeError(
        f"spec must be a path, TOML text or a dict, not {type(spec).__name__}"
    )


def _names(variants: str | Sequence[str] | None) -> list[str]:
    if variants is None:
        return []
    if isinstance(variants, str):
        return [variants]
    return list(variants)


def run(
    spec: SpecLike,
    *,
    trials: int | None = None,
    seed: int | None = None,
    variants: str | Sequence[str] | None = None,
    threads: int | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool = True,
    resume: bool = False,
    replace: bool = False,
    shard: tuple[int, int] | None = None,
    chunk_size: int | None = None,
    checkpoint_every: int = 30,
) -> Results | Shard:
    """Runs an experiment, as ``experiment run`` does, and returns its results.

    Args:
        spec: the spec: a path to a TOML file, TOML text (a string with a line break or a
            ``key = value``), or a dict with the spec's keys (``{"version": 1, "name": ...,
            "game": "war", "params": {...}, "sweep": {...}}``).
        trials: trials per variant, in place of the spec's (``--trials``).
        seed: the master seed, in place of the spec's (``--seed``).
        variants: the variants to run, by name (``--variant``); all of them by default.
        threads: worker threads (``--threads``); all cores by default.
        out: the folder to write, exactly as the command line writes it; without it nothing
            is written and the results stay in memory.
        progress: draw a progress bar (tqdm's when installed).
        resume: continue the checkpoint an interrupted run into `out` left (``--resume``).
        replace: replace a folder holding more trials than this run (``--replace``).
        shard: ``(k, n)``: play only shard k of n (from 0) and write its summaries file into
            `out` (default ``results/<name>-shards``) for :func:`merge` (``--shard k/n``).
        chunk_size: trials per parallel chunk (``--chunk-size``); no number depends on it.
        checkpoint_every: seconds between checkpoints of a run into `out` (0: none).

    Returns:
        The run's :class:`Results` (a :class:`Shard` with `shard`).

    Raises:
        SpecError: the spec cannot be used (the message names the file, or ``<string>`` or
            ``<dict>``, the line and key, and the valid choices).
        ExperimentError: the engine refused (e.g. a folder holding more trials, a
            checkpoint in the way) or could not finish.
        KeyboardInterrupt: Ctrl-C (or "interrupt kernel") stopped the run; with `out`, the
            checkpoint is kept and ``resume=True`` continues it.
    """
    kind, value = _spec(spec)
    job = _engine.start_run(
        kind,
        value,
        trials=trials,
        seed=seed,
        variants=_names(variants),
        threads=threads,
        chunk_size=chunk_size,
        out=None if out is None else os.fspath(out),
        resume=resume,
        replace=replace,
        checkpoint_every=checkpoint_every,
        shard=shard,
    )
    outcome = wait(job, progress)
    if isinstance(outcome, dict):
        return Shard(
            file=Path(outcome["file"]),
            folder=Path(outcome["folder"]),
            trials=outcome["trials"],
            seconds=outcome["seconds"],
        )
    return Results(outcome)


def merge(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    out: str | os.PathLike[str] | None = None,
    threads: int | None = None,
    progress: bool = True,
) -> Results:
    """Merges shard files into one run's results, as ``experiment merge`` does.

    Args:
        paths: shard files, or folders of ``shard-*.json`` files (one path or several).
        out: the folder to write, exactly as the command line writes it; without it nothing
            is written.
        threads: worker threads for the analysis; all cores by default.
        progress: draw a progress bar.

    Raises:
        ExperimentError: the files are not every shard of one run exactly once, or fail
            their checks; nothing is written.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    job = _engine.start_merge(
        [os.fspath(path) for path in paths],
        out=None if out is None else os.fspath(out),
        threads=threads,
    )
    return Results(wait(job, progress))


def validate(spec: SpecLike) -> Table:
    """Checks a spec as ``experiment validate`` does, running nothing, and returns its
    variants as a table: ``index``, ``variant``, one column per parameter, and ``reads`` (the
    parameters each variant reads, as ``validate`` prints them). The table also carries the
    spec's ``experiment``, ``game``, ``seed`` and ``trials`` as attributes.

    Raises:
        SpecError: the spec cannot be used.
        ExperimentError: the spec asks for something its game cannot do.
    """
    kind, value = _spec(spec)
    name, game, seed, trials, variants = _engine.validate(kind, value)
    return _Variants(variants, name, game, seed, trials)


class _Variants(Table):
    """The variants of a validated spec, with the spec's name, game, seed and trials."""

    __slots__ = ("experiment", "game", "seed", "trials")

    def __init__(self, native: _engine.Table, experiment: str, game: str, seed: int, trials: int):
        super().__init__(native)
        self.experiment = experiment
        self.game = game
        self.seed = seed
        self.trials = trials


def games() -> Table:
    """The games and their parameters, as ``experiment list`` shows them: one row per
    parameter, with columns ``game``, ``parameter``, ``description``, ``values`` (what it
    accepts), ``default``, ``rule`` (a rule changes nothing at its default) and ``read_when``
    (empty when always read)."""
    return Table(_engine.games())


def exact(game: str, *, progress: bool = False, **rules: Any) -> ExactAnswers:
    """A game's exact answers, as ``experiment exact <game>`` computes them.

    Keyword arguments are the command's options with ``_`` for ``-``:
    ``exact("twentyone", decks=2, tie="push")``, ``exact("monopoly", turns=150)``,
    ``exact("chutes", pair=["optimal-never", "threshold-always"], max_cube=64)``.
    A list gives an option several times; True gives a flag.

    Returns:
        The tables by name (Twenty-One: ``exact_outcomes``; Monopoly: ``exact_landings``;
        Chutes: ``exact_values``, ``exact_payoffs``, ``exact_averages``) and the printed text
        (:attr:`ExactAnswers.text`).

    Raises:
        ExperimentError: an unknown game or option, a bad value, or a game without an exact
            solver (War).
    """
    options = _engine.exact_options(game)
    args: list[str] = []
    for key, value in rules.items():
        flag = key.replace("_", "-")
        if flag not in options:
            valid = ", ".join(option.replace("-", "_") for option in options) or "none"
            raise _engine.ExperimentError(
                f"exact('{game}'): no option '{key}': its options are {valid}"
            )
        values = value if isinstance(value, (list, tuple)) else [value]
        for item in values:
            if item is True:
                args.append(f"--{flag}")
            elif item is not False and item is not None:
                args += [f"--{flag}", str(item)]
    text, tables = wait(_engine.start_exact(game, args), progress, stoppable=False)
    return ExactAnswers(text, tables)
