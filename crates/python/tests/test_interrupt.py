"""Ctrl-C (SIGINT, as a terminal or "interrupt kernel" sends it) stops a run within a second,
raises KeyboardInterrupt, and leaves the checkpoint that resume=True continues to the same
numbers an uninterrupted run gives."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import experiment

# Enough War games to take many seconds on two cores, so the interrupt comes mid-run.
TRIALS = 3_000_000


def interrupt_after(seconds: float) -> list[float]:
    """Sends this process SIGINT after `seconds`; the list gets the time it was sent."""
    sent: list[float] = []

    def fire() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Timer(seconds, fire).start()
    return sent


def test_ctrl_c_stops_the_run_keeps_its_checkpoint_and_resume_finishes_it(
    war_spec: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    sent = interrupt_after(1.5)
    with pytest.raises(KeyboardInterrupt) as raised:
        experiment.run(war_spec, trials=TRIALS, seed=9, out=out, variants="winner_first",
                       checkpoint_every=3600, progress=False)
    stopped = time.monotonic() - sent[0]
    assert stopped < 1.0, f"the run took {stopped:.2f} s to stop"
    message = str(raised.value)
    assert "completed trials are saved in" in message and "resume=True" in message
    checkpoint = tmp_path / "out.checkpoint.json"
    assert checkpoint.is_file()
    assert not out.exists(), "an interrupted run wrote its results folder"

    resumed = experiment.run(war_spec, trials=TRIALS, seed=9, out=out, variants="winner_first",
                             resume=True, progress=False)
    assert not checkpoint.exists()
    assert 0 < resumed.played < TRIALS, "the resumed run replayed the saved trials"
    whole = experiment.run(war_spec, trials=TRIALS, seed=9, variants="winner_first",
                           progress=False)
    for name in whole:
        assert_frame_equal(pl.DataFrame(resumed[name]), pl.DataFrame(whole[name]))


def test_ctrl_c_on_a_run_in_memory_says_nothing_was_kept(war_spec: Path) -> None:
    sent = interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt, match="keeps no checkpoint"):
        experiment.run(war_spec, trials=TRIALS, progress=False)
    assert time.monotonic() - sent[0] < 1.0
