"""Type stubs of the native module `experiment._engine` (crates/python/src). The public API is
the package's own functions (experiment.run, ...), which wrap these."""

from typing import Any, Literal

__version__: str

class ExperimentError(ValueError):
    """The engine refused or could not finish the work; the message says why and what to do."""

class SpecError(ExperimentError):
    """A spec that cannot be used: the message names its file (or <string>, <dict>), the line
    and key, and the valid choices."""

class Table:
    """One table, exported through the Arrow C stream interface."""

    @property
    def name(self) -> str: ...
    @property
    def column_names(self) -> list[str]: ...
    @property
    def num_rows(self) -> int: ...
    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...
    def __len__(self) -> int: ...

class Results:
    """A finished run's results, in memory."""

    def table_names(self) -> list[str]: ...
    def table(self, name: str) -> Table: ...
    def markdown(self) -> str: ...
    def html(self) -> str: ...
    def manifest_json(self) -> str: ...
    @property
    def folder(self) -> str | None: ...
    @property
    def played(self) -> int: ...
    def chart_names(self) -> list[str]: ...
    def chart_png(self, name: str) -> bytes: ...
    def chart_svg(self, name: str) -> str: ...

class Job:
    """Work in progress on a thread of its own."""

    def wait(self, timeout: float) -> bool:
        """Waits up to `timeout` seconds (GIL released); whether the work has finished."""
    def progress(self) -> tuple[int, int, str]:
        """Trials done, trials expected in the current part, and what is being played."""
    def stop(self) -> None:
        """Asks the work to stop; it ends soon after with KeyboardInterrupt."""
    def result(self) -> Any:
        """The outcome of a finished job, once; its error raised."""

def start_run(
    kind: Literal["path", "text", "dict"],
    spec: Any,
    *,
    trials: int | None = None,
    seed: int | None = None,
    variants: list[str] = ...,
    threads: int | None = None,
    chunk_size: int | None = None,
    out: str | None = None,
    resume: bool = False,
    replace: bool = False,
    checkpoint_every: int = 30,
    shard: tuple[int, int] | None = None,
) -> Job: ...
def start_merge(paths: list[str], *, out: str | None = None, threads: int | None = None) -> Job: ...
def start_exact(game: str, args: list[str]) -> Job: ...
def exact_options(game: str) -> list[str]: ...
def validate(kind: Literal["path", "text", "dict"], spec: Any) -> tuple[str, str, int, int, Table]: ...
def games() -> Table: ...
