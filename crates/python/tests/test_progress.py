"""The progress bar: drawn on standard error (tqdm's when installed, else a line of text), and
silenced by progress=False."""

from __future__ import annotations

from pathlib import Path

import pytest

import experiment


def test_a_long_run_draws_its_progress_and_progress_false_draws_nothing(
    war_spec: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    experiment.run(war_spec, trials=300_000, variants="winner_first", progress=True)
    drawn = capfd.readouterr()
    assert "trials" in drawn.err and "winner_first" in drawn.err
    assert drawn.out == ""
    experiment.run(war_spec, trials=300_000, variants="winner_first", progress=False)
    silent = capfd.readouterr()
    assert silent.err == "" and silent.out == ""
