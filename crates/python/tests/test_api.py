"""The API: run (path, text, dict), its results, validate, games, exact, shards and merge."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import experiment
from conftest import listing

WAR_TEXT = """
version = 1
name = "war_text"
game = "war"
seed = 7
trials = 2000

[sweep]
placement = ["winner_first", "loser_first"]
"""

WAR_DICT = {
    "version": 1,
    "name": "war_text",
    "game": "war",
    "seed": 7,
    "trials": 2000,
    "sweep": {"placement": ["winner_first", "loser_first"]},
}


def frames(results: experiment.Results) -> dict[str, pl.DataFrame]:
    return {name: pl.DataFrame(table) for name, table in results.items()}


def test_a_run_returns_its_tables_report_manifest_and_charts_and_writes_nothing(
    war_spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(war_spec.parent)
    before = listing(war_spec.parent)
    results = experiment.run(war_spec, trials=3000, seed=5, progress=False)
    assert listing(war_spec.parent) == before, "a run without out= wrote files"
    assert list(results)[:3] == ["summary", "histogram", "comparisons"]
    assert "cycles" in results
    summary = results["summary"].to_polars()
    assert summary["variant"].to_list() == [
        "winner_first", "loser_first", "random", "high_first", "low_first", "player1_first"
    ]
    assert summary["games"].to_list() == [3000] * 6
    manifest = results.manifest
    assert manifest["experiment"] == "war_placement"
    assert manifest["seed"] == 5 and manifest["trials_per_variant"] == 3000
    assert manifest["files"] == []
    assert results.markdown.startswith("# war_placement")
    assert "<html" in results.html and "</html>" in results.html
    assert results._repr_html_().startswith("<iframe srcdoc=")
    assert results.folder is None
    assert results.played == 6 * 3000
    charts = results.charts
    assert set(charts) == {"estimates", "game_length"}
    assert charts["estimates"].png().startswith(b"\x89PNG")
    assert charts["estimates"].svg().lstrip().startswith("<svg")
    with pytest.raises(KeyError, match="this run's tables are summary"):
        results["nope"]


def test_a_spec_as_text_or_dict_runs_as_the_same_file_does(tmp_path: Path) -> None:
    path = tmp_path / "war_text.toml"
    path.write_text(WAR_TEXT)
    from_file = frames(experiment.run(path, progress=False))
    from_text = frames(experiment.run(WAR_TEXT, progress=False))
    from_dict = frames(experiment.run(WAR_DICT, progress=False))
    assert from_file.keys() == from_text.keys() == from_dict.keys()
    for name, frame in from_file.items():
        assert_frame_equal(from_text[name], frame)
        assert_frame_equal(from_dict[name], frame)


def test_overrides_choose_trials_seed_and_variants(in_repo: Path) -> None:
    results = experiment.run(
        "experiments/war_placement.toml",
        trials=500,
        seed=3,
        variants=["random", "winner_first"],
        progress=False,
    )
    summary = results["summary"].to_polars()
    # Spec order, whatever order they were named in.
    assert summary["variant"].to_list() == ["winner_first", "random"]
    assert summary["games"].to_list() == [500, 500]
    one = experiment.run(
        "experiments/war_placement.toml", trials=500, seed=3, variants="random", progress=False
    )
    assert_frame_equal(
        one["summary"].to_polars().select("variant", "games", "mean_turns"),
        summary.filter(pl.col("variant") == "random").select("variant", "games", "mean_turns"),
    )


def test_the_run_uses_every_core_and_releases_the_gil(in_repo: Path) -> None:
    ticks = 0
    running = True

    def count() -> None:
        nonlocal ticks
        while running:
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        started = time.monotonic()
        results = experiment.run(
            "experiments/war_placement.toml", trials=100_000, seed=1, progress=False
        )
        seconds = time.monotonic() - started
    finally:
        running = False
        counter.join()
    import os

    assert results.manifest["threads"] == len(os.sched_getaffinity(0))
    # A thread holding the GIL for the whole run would have let the counter tick only at the
    # waits' ends (about ten times a second); released, it ticks every millisecond or so.
    assert ticks > 50 * seconds, (ticks, seconds)


def test_validate_returns_the_variants_and_the_spec_facts(in_repo: Path) -> None:
    variants = experiment.validate("experiments/war_placement.toml")
    assert (variants.experiment, variants.game, variants.seed, variants.trials) == (
        "war_placement", "war", 20261130, 1_000_000
    )
    frame = variants.to_polars()
    assert frame["variant"].to_list() == [
        "winner_first", "loser_first", "random", "high_first", "low_first", "player1_first"
    ]
    assert frame["index"].to_list() == list(range(6))
    assert frame["placement"].to_list() == frame["variant"].to_list()
    assert frame["max_turns"].to_list() == [15000] * 6
    assert frame.schema["max_turns"] == pl.Int64
    assert frame["reads"][0] == "placement=winner_first max_turns=15000"


def test_games_lists_every_game_and_parameter_as_list_does(cli: Path) -> None:
    frame = experiment.games().to_polars()
    assert frame["game"].unique(maintain_order=True).to_list() == [
        "war", "monopoly", "chutes", "twentyone"
    ]
    listed = subprocess_list(cli)
    for row in frame.iter_rows(named=True):
        assert f"  {row['parameter']:<14} {row['description']} ({row['values']}" in listed
    war = frame.filter(pl.col("game") == "war")
    assert war.filter(pl.col("parameter") == "ranks")["rule"].to_list() == [True]
    assert war.filter(pl.col("parameter") == "placement")["default"].to_list() == [
        "winner_first"
    ]


def subprocess_list(cli: Path) -> str:
    from conftest import run_cli

    return run_cli(cli, "list").stdout


def test_exact_answers_come_as_tables_that_agree_with_the_printed_text(cli: Path) -> None:
    from conftest import run_cli

    answers = experiment.exact("twentyone", tie="push", decks=2)
    outcomes = answers["exact_outcomes"].to_polars()
    printed = run_cli(cli, "exact", "twentyone", "--tie", "push", "--decks", "2").stdout
    assert answers.text.splitlines()[2:] == printed.splitlines()[2:]  # the timing line aside
    row = outcomes.filter(pl.col("rule") == "stand_at-15").row(0, named=True)
    line = next(l for l in printed.splitlines() if l.startswith("| stand_at-15 |"))
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    assert cells[1:] == [
        f"{row[key]:.6f}" for key in ["win", "player_bust", "dealer_bust", "tie", "loss", "mean_payoff"]
    ]
    best = outcomes.filter(pl.col("best_of_family") == "yes")["rule"].to_list()
    for rule in best:
        assert f": {rule} (win" in printed
    landings = experiment.exact("monopoly", turns=20)["exact_landings"].to_polars()
    assert landings.height == 40 and abs(landings["freq"].sum() - 1) < 1e-12
    chutes = experiment.exact("chutes", pair=["optimal-never", "never-never"], max_cube=64)
    assert list(chutes) == ["exact_values", "exact_payoffs", "exact_averages"]
    payoffs = chutes["exact_payoffs"].to_polars()
    assert payoffs["first"].to_list() == ["optimal", "never"]


def test_exact_refuses_war_unknown_games_options_and_values() -> None:
    with pytest.raises(experiment.ExperimentError, match="War has no exact solver"):
        experiment.exact("war")
    with pytest.raises(experiment.ExperimentError, match="unknown game 'go': the games are war"):
        experiment.exact("go")
    with pytest.raises(experiment.ExperimentError, match="no option 'deck': its options are decks"):
        experiment.exact("twentyone", deck=2)
    with pytest.raises(experiment.ExperimentError, match="--decks"):
        experiment.exact("twentyone", decks=0)


def test_shards_played_apart_and_merged_equal_the_whole_run(tmp_path: Path) -> None:
    spec = tmp_path / "war_text.toml"
    spec.write_text(WAR_TEXT)
    shards = tmp_path / "shards"
    written = [
        experiment.run(spec, shard=(k, 3), out=shards, progress=False) for k in range(3)
    ]
    assert [shard.file.name for shard in written] == [
        "shard-0-of-3.json", "shard-1-of-3.json", "shard-2-of-3.json"
    ]
    assert sum(shard.trials for shard in written) == 2 * 2000
    whole = frames(experiment.run(spec, progress=False))
    merged = experiment.merge(shards, progress=False)
    assert merged.played == 0 and merged.folder is None
    for name, frame in frames(merged).items():
        assert_frame_equal(frame, whole[name])
    out = tmp_path / "merged"
    merged = experiment.merge([shard.file for shard in written], out=out, progress=False)
    assert merged.folder == out and (out / "summary.parquet").is_file()
    assert_frame_equal(pl.read_parquet(out / "summary.parquet"), whole["summary"])
