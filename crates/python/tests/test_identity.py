"""Identity with the command line: for every shipped spec at a small trial count, every table
run() returns equals the CLI's Parquet file of the same run (values, names and types), and
run(out=...) writes the CLI's folder."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import experiment
from conftest import ROOT, listing, run_cli

SPECS = sorted((ROOT / "experiments").glob("*.toml")) + sorted(
    (ROOT / "experiments" / "literature").glob("*.toml")
)
TRIALS = "600"
# What differs between two runs of the same spec: how long they took and on what.
TIMINGS = {"wall_seconds", "trials_per_second", "simulation_seconds",
           "simulation_trials_per_second"}


def same_json(a: Path, b: Path) -> None:
    first, second = json.loads(a.read_text()), json.loads(b.read_text())
    for record in (first, second):
        for key in TIMINGS:
            record.pop(key, None)
        # report.html and summaries.json hold the timings (compared above without them);
        # every other file's digest must agree.
        record["file_digests"] = [
            digest for digest in record.get("file_digests", [])
            if digest["name"] not in ("report.html", "summaries.json")
        ]
    assert first == second, a.name


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.stem)
def test_run_equals_the_command_line(spec: Path, cli: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    relative = spec.relative_to(ROOT)
    out = tmp_path / "out"
    run_cli(cli, "run", str(relative), "--trials", TRIALS, "--quiet", "--out", str(out))
    cli_folder = tmp_path / "cli"
    out.rename(cli_folder)

    results = experiment.run(relative, trials=int(TRIALS), progress=False)
    formats = json.loads((cli_folder / "manifest.json").read_text())["files"]
    assert results.manifest["files"] == []
    for name, table in results.items():
        parquet = cli_folder / f"{name}.parquet"
        if f"{name}.parquet" in formats:
            assert_frame_equal(pl.DataFrame(table), pl.read_parquet(parquet), check_exact=True)
        else:
            # A spec whose [output] writes CSV only.
            written = pl.read_csv(cli_folder / f"{name}.csv")
            assert pl.DataFrame(table).columns == written.columns, name
    # The CLI's report names its --out in the reproduce command; the run in memory has none.
    without_out = lambda text: re.sub(r" --out [^\s`]+", "", text)  # noqa: E731
    assert without_out(results.markdown) == without_out((cli_folder / "report.md").read_text())

    written = experiment.run(relative, trials=int(TRIALS), out=out, progress=False)
    assert written.folder == out
    assert listing(out) == listing(cli_folder)
    for path in sorted(cli_folder.iterdir()):
        mine = out / path.name
        if path.name in ("manifest.json", "summaries.json"):
            same_json(mine, path)
        elif path.name == "report.html":
            continue  # it embeds the manifest's timings; its tables come from the same files
        else:
            assert mine.read_bytes() == path.read_bytes(), path.name
    shutil.rmtree(tmp_path)
