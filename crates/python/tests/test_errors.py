"""Every error class: the same messages as the command line, raised as the package's
exceptions (ValueError subclasses), with nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

import experiment
from conftest import ROOT, listing

BAD_KEY = """version = 1
name = "bad"
game = "war"
seed = 1
trials = 10

[params]
placment = "random"
"""


def test_the_exception_classes_are_value_errors() -> None:
    assert issubclass(experiment.ExperimentError, ValueError)
    assert issubclass(experiment.SpecError, experiment.ExperimentError)


def test_a_bad_spec_file_names_its_file_line_key_and_the_valid_choices(
    tmp_path: Path, cli: Path
) -> None:
    import subprocess

    spec = tmp_path / "bad.toml"
    spec.write_text(BAD_KEY)
    with pytest.raises(experiment.SpecError) as raised:
        experiment.run(spec, progress=False)
    message = str(raised.value)
    assert message.startswith(f"{spec}:8: ")
    assert "placment" in message and "placement" in message
    printed = subprocess.run(
        [str(cli), "run", str(spec)], capture_output=True, text=True, check=False
    )
    assert printed.returncode == 1
    assert printed.stderr.strip() == f"Error: {message}"
    with pytest.raises(experiment.SpecError, match=r"bad\.toml:8: "):
        experiment.validate(spec)


def test_a_bad_spec_string_is_located_in_string_and_a_dict_by_its_keys() -> None:
    with pytest.raises(experiment.SpecError, match=r"^<string>:8: .*placment"):
        experiment.run(BAD_KEY, progress=False)
    spec = {"version": 1, "name": "bad", "game": "war", "seed": 1, "trials": 10,
            "params": {"placment": "random"}}
    with pytest.raises(experiment.SpecError, match=r"^<dict>: .*placment") as raised:
        experiment.run(spec, progress=False)
    assert not str(raised.value).startswith("<dict>:8")
    with pytest.raises(experiment.SpecError, match=r"<dict>: .*game 'chess'.*war, monopoly"):
        experiment.validate({**spec, "game": "chess", "params": {}})
    with pytest.raises(experiment.SpecError, match="has no TOML form"):
        experiment.run({**spec, "params": {"max_turns": object()}}, progress=False)
    with pytest.raises(experiment.SpecError, match="64-bit"):
        experiment.run({**spec, "seed": 2**70}, progress=False)


def test_a_missing_file_an_unknown_variant_and_a_wrong_type_are_refused(tmp_path: Path) -> None:
    with pytest.raises(experiment.SpecError, match="nope.toml: cannot read the spec"):
        experiment.run(tmp_path / "nope.toml", progress=False)
    with pytest.raises(experiment.ExperimentError, match="no_such"):
        experiment.run(ROOT / "experiments" / "war_placement.toml", variants="no_such")
    with pytest.raises(TypeError, match="spec must be a path, TOML text or a dict"):
        experiment.run(42, progress=False)  # type: ignore[arg-type]
    with pytest.raises(experiment.ExperimentError, match="shard"):
        experiment.run(ROOT / "experiments" / "war_placement.toml", shard=(3, 2))


def test_a_folder_with_more_trials_is_refused_and_left_as_it_was(
    war_spec: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    experiment.run(war_spec, trials=400, out=out, progress=False)
    before = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}
    with pytest.raises(experiment.ExperimentError, match="replace") as raised:
        experiment.run(war_spec, trials=200, out=out, progress=False)
    assert not isinstance(raised.value, experiment.SpecError)
    after = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}
    assert after == before
    replaced = experiment.run(war_spec, trials=200, out=out, replace=True, progress=False)
    assert replaced.manifest["trials_per_variant"] == 200


def test_resume_without_a_checkpoint_or_folder_is_refused(war_spec: Path, tmp_path: Path) -> None:
    with pytest.raises(experiment.ExperimentError, match="no checkpoint"):
        experiment.run(war_spec, trials=100, out=tmp_path / "o", resume=True, progress=False)
    with pytest.raises(experiment.ExperimentError, match="give out="):
        experiment.run(war_spec, trials=100, resume=True, progress=False)
    assert listing(tmp_path) == ["war_placement.toml"]
