"""A table of results, readable by any Arrow consumer through the Arrow PyCapsule interface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _engine

if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    import pandas
    import polars
    import pyarrow


class Table:
    """One table of a run (``summary``, ``comparisons``, a game's own), read-only.

    It exports itself through the Arrow C stream interface (``__arrow_c_stream__``), so
    ``polars.DataFrame(table)``, ``pyarrow.table(table)`` and (pandas 3)
    ``pandas.DataFrame.from_arrow(table)`` read it without files and without a copy through
    Python; :meth:`to_polars`, :meth:`to_pandas` and :meth:`to_arrow` do so for you, importing
    those libraries only when called. Columns keep the types of the command line's Parquet
    files: text as ``large_string``, counts as 64-bit integers, estimates as 64-bit floats.
    """

    __slots__ = ("_native",)

    def __init__(self, native: _engine.Table) -> None:
        self._native = native

    @property
    def name(self) -> str:
        """The table's name: its file stem in a results folder."""
        return self._native.name

    @property
    def columns(self) -> list[str]:
        """The column names, in order."""
        return self._native.column_names

    @property
    def num_rows(self) -> int:
        """The number of rows."""
        return self._native.num_rows

    def __len__(self) -> int:
        return self._native.num_rows

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        """The table as an Arrow C stream in a PyCapsule (the Arrow PyCapsule interface)."""
        return self._native.__arrow_c_stream__(requested_schema)

    def to_polars(self) -> "polars.DataFrame":
        """The table as a polars DataFrame (imports polars)."""
        import polars

        return polars.DataFrame(self)

    def to_arrow(self) -> "pyarrow.Table":
        """The table as a pyarrow Table (imports pyarrow)."""
        import pyarrow

        return pyarrow.table(self)

    def to_pandas(self) -> "pandas.DataFrame":
        """The table as a pandas DataFrame: through pyarrow when it is installed, else through
        pandas' own Arrow reader (pandas 3)."""
        try:
            import pyarrow
        except ImportError:
            import pandas

            from_arrow = getattr(pandas.DataFrame, "from_arrow", None)
            if from_arrow is None:
                raise ImportError(
                    "to_pandas() needs pyarrow (pip install pyarrow) or pandas 3"
                ) from None
            return from_arrow(self)
        return pyarrow.table(self).to_pandas()

    def __repr__(self) -> str:
        return (
            f"<experiment.Table '{self.name}': {self.num_rows} rows, "
            f"columns {', '.join(self.columns)}>"
        )
