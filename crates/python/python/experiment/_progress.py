"""Waiting for the engine's work: a progress bar (tqdm's when installed, else a line of text on
standard error, which notebooks show too), and Ctrl-C turned into a stop."""

from __future__ import annotations

import sys
import time
from typing import Any

from . import _engine

#: Seconds between looks at the work: how soon Ctrl-C is noticed and the bar redrawn.
STEP = 0.1


class _Bar:
    """A progress bar over the trials of the current part of the work."""

    def __init__(self, shown: bool) -> None:
        self._shown = shown
        self._bar: Any = None
        self._total = 0
        self._label = ""
        self._drawn_at = 0.0

    def update(self, done: int, total: int, label: str) -> None:
        if not self._shown or total == 0:
            return
        if total != self._total:
            self.close()
            self._total = total
            self._bar = _new_bar(total)
        if label != self._label and hasattr(self._bar, "set_description_str"):
            self._bar.set_description_str(label)
        self._label = label
        if hasattr(self._bar, "n"):
            self._bar.update(done - self._bar.n)
        else:
            now = time.monotonic()
            if now - self._drawn_at >= 0.5 or done == total:
                self._drawn_at = now
                width = 30
                filled = width * done // total
                sys.stderr.write(
                    f"\r{label:>12} [{'=' * filled}{' ' * (width - filled)}] "
                    f"{done:,}/{total:,} trials"
                )
                sys.stderr.flush()

    def close(self) -> None:
        if self._bar is None:
            return
        if hasattr(self._bar, "close"):
            self._bar.close()
        else:
            sys.stderr.write("\n")
            sys.stderr.flush()
        self._bar = None


def _new_bar(total: int) -> Any:
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return object()
    return tqdm(total=total, unit=" trials", unit_scale=True, leave=False)


def wait(job: _engine.Job, progress: bool, stoppable: bool = True) -> Any:
    """Waits for `job` with the GIL released in steps of :data:`STEP` seconds, drawing its
    progress when `progress`, and returns its result. Ctrl-C stops a `stoppable` job (which
    then raises ``KeyboardInterrupt`` saying what was kept); other work is left to finish
    unseen, and the interrupt is raised at once."""
    bar = _Bar(progress)
    try:
        while not job.wait(STEP):
            bar.update(*job.progress())
        bar.update(*job.progress())
    except KeyboardInterrupt:
        if not stoppable:
            raise
        job.stop()
        while not job.wait(STEP):
            pass
        bar.close()
        # The work ends with KeyboardInterrupt saying what it kept; work that had finished
        # anyway is complete, but the interrupt still stands.
        job.result()
        raise
    finally:
        bar.close()
    return job.result()
