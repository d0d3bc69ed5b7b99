"""polars, pyarrow and pandas read the tables through the Arrow PyCapsule interface, with the
command line's column names and types."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

import experiment


@pytest.fixture(scope="module")
def results() -> experiment.Results:
    root = Path(__file__).resolve().parents[3]
    return experiment.run(root / "experiments" / "war_placement.toml", trials=1000,
                          progress=False)


def test_polars_reads_a_table_as_a_frame(results: experiment.Results) -> None:
    table = results["summary"]
    frame = pl.DataFrame(table)
    assert frame.columns == table.columns
    assert frame.height == len(table) == 6
    assert frame.schema["variant"] == pl.String
    assert frame.schema["games"] == pl.Int64
    assert frame.schema["p1_win_rate"] == pl.Float64
    assert_frame_equal(table.to_polars(), frame)
    # pl.from_arrow reads a stream as one Struct column (polars' own convention).
    read = pl.from_arrow(table)
    if isinstance(read, pl.Series):
        read = read.struct.unnest()
    assert_frame_equal(read, frame)


def test_pyarrow_reads_a_table_and_the_stream_can_be_taken_once(
    results: experiment.Results,
) -> None:
    table = results["comparisons"]
    arrow = pa.table(table)
    assert arrow.column_names == table.columns
    assert arrow.schema.field("a").type == pa.large_string()
    assert arrow.num_rows == len(table)
    assert table.to_arrow().equals(arrow)
    # A capsule nobody reads is released with it.
    capsule = table.__arrow_c_stream__()
    del capsule
    assert pa.table(table).equals(arrow)


def test_pandas_reads_a_table_with_its_values(results: experiment.Results) -> None:
    frame = results["summary"].to_pandas()
    assert isinstance(frame, pd.DataFrame)
    polars_frame = results["summary"].to_polars()
    assert list(frame.columns) == polars_frame.columns
    assert frame["games"].tolist() == polars_frame["games"].to_list()
    assert frame["mean_turns"].tolist() == polars_frame["mean_turns"].to_list()


def test_every_table_of_every_game_crosses_intact(results: experiment.Results) -> None:
    for name, table in results.items():
        frame = table.to_polars()
        assert frame.height == len(table), name
        assert pa.table(table).num_rows == len(table), name
