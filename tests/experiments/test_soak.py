"""The soak tool: a small run of every game passes, and a broken invariant is caught and replayable."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dixenv.experiments import soak
from dixenv.games import BUILTIN


def test_a_small_soak_of_every_game_and_configuration_passes():
    games = {g: len(soak.configurations(g)) for g in soak.GAMES}
    totals = soak.run(games, seed=3, workers=1, progress=False)
    assert totals["failures"] == []
    assert totals["games"] == games
    assert all(totals["moves"][g] > (10 if g in BUILTIN else 1) * games[g] for g in games)


def test_every_configuration_gets_its_share_of_games():
    tasks = soak.plan({"dix": 1000}, seed=0)
    assert len(tasks) == 1000
    counts = {}
    for config, _ in tasks:
        counts[config] = counts.get(config, 0) + 1
    assert set(counts) == set(soak.configurations("dix"))
    solo = [c for c in counts if dict(c.options).get("solo")]
    assert {dict(c.options)["difficulty"] for c in solo} == set(range(4, 11))
    assert len({seed for _, seed in tasks}) == 1000


def test_the_sorting_policy_finishes_dix_de_suite_rounds():
    config = soak.Config("dix_de_suite", (("num_players", 3), ("target_score", 100)), "sorting")
    n, moves = soak.play_one(config, seed=5)
    assert n == len(moves) and n < 3000


def _break_observation_after(monkeypatch, moves: int):
    """Make the dix observer write an out-of-bounds value once the draw pile is down to ``moves`` cards."""
    from dixenv.games.dix.observation import DixObserver

    original = DixObserver.set_from

    def broken(self, state, seat):
        original(self, state, seat)
        if len(state.pile) <= moves:
            self.tensor[0] = 7.0  # collection_numbers is 0..1

    monkeypatch.setattr(DixObserver, "set_from", broken)


def test_a_broken_invariant_is_reported_with_the_moves_that_replay_it(monkeypatch, tmp_path):
    config = soak.Config("dix", (("num_players", 3),))
    _break_observation_after(monkeypatch, 40)
    with pytest.raises(soak.SoakFailure, match="out of its bounds in \\['collection_numbers'\\]") as info:
        soak.play_one(config, seed=11)
    moves = info.value.moves
    assert moves, "the failure comes with the moves that lead to it"
    record = {"game": "dix", "options": {"num_players": 3}, "policy": "random", "seed": 11, "moves": moves}
    path = tmp_path / "failure.json"
    path.write_text(json.dumps(record))
    assert "collection_numbers" in soak.replay(json.loads(path.read_text()))
    assert soak.main(["--replay", str(path)]) == 1
    monkeypatch.undo()
    assert soak.replay(record) is None, "with the bug gone the same moves pass every check"


def test_the_command_line_writes_a_summary_and_returns_zero(tmp_path, capsys):
    assert soak.main(["--games", "4", "--game", "le_dix", "--out", str(tmp_path), "--no-progress"]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == {"le_dix": 4} and summary["failures"] == 0
    assert "le_dix" in capsys.readouterr().out


def test_a_failure_in_a_worker_run_is_collected(monkeypatch):
    from dixenv.games.le_dix.state import LeDixState

    def broken(self):
        raise AssertionError("planted")

    monkeypatch.setattr(LeDixState, "check_invariants", broken)
    totals = soak.run({"le_dix": 2}, seed=0, workers=1, progress=False)
    assert len(totals["failures"]) == 2 and all("planted" in f["error"] for f in totals["failures"])
    assert all(isinstance(f["seed"], int) for f in totals["failures"])
    assert np.all([f["moves"] == [] for f in totals["failures"]])


def test_tally_adds_up_runs_with_distinct_seeds_and_refuses_a_repeated_seed(tmp_path, capsys):
    paths = []
    for seed in (3, 4):
        out = tmp_path / f"s{seed}"
        assert soak.main(["--games", "3", "--game", "dix", "--seed", str(seed), "--out", str(out), "--no-progress"]) == 0
        paths.append(out / "summary.json")
    runs = [json.loads(p.read_text()) for p in paths]
    capsys.readouterr()
    assert soak.main(["--tally", *map(str, paths)]) == 0
    text = capsys.readouterr().out
    moves = sum(r["moves"]["dix"] for r in runs)
    assert f"{moves:,}" in text and "failures: 0; 2 run(s), seeds 3, 4" in text
    with pytest.raises(ValueError, match="both have seed 3"):
        soak.tally([str(paths[0]), str(paths[0])])


def _git_or_skip(*args, cwd):
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_the_summary_records_the_commit_of_each_checkout_the_code_comes_from(tmp_path, monkeypatch):
    import re

    import dixenv.agents

    _git_or_skip("--version", cwd=tmp_path)
    own = soak._commit()
    if own is None:
        pytest.skip("not run from a git checkout")
    assert re.fullmatch(r"[0-9a-f]{7,}(\+dirty)?", own)
    # the agents from another checkout (an editable install of one checkout used from another)
    other = tmp_path / "other"
    (other / "agents").mkdir(parents=True)
    (other / "agents" / "__init__.py").write_text("")
    _git_or_skip("init", "-q", cwd=other)
    _git_or_skip("add", ".", cwd=other)
    _git_or_skip("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "other", cwd=other)
    monkeypatch.setattr(dixenv.agents, "__file__", str(other / "agents" / "__init__.py"))
    mixed = soak._commit()
    assert mixed.count(";") == 1 and "dixenv.agents" in mixed and str(other.resolve()) in mixed
    assert own.split("+")[0] in mixed
    (other / "agents" / "__init__.py").write_text("x = 1\n")
    assert re.search(r"[0-9a-f]{7,}\+dirty \(" + re.escape(str(other.resolve())), soak._commit())


def test_the_compiled_soak_plays_both_engines_side_by_side_and_reports_a_mismatch(monkeypatch, tmp_path, capsys):
    pytest.importorskip("numba")
    assert soak.main(["--compiled", "--games", "24", "--no-progress", "--out", str(tmp_path)]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["compiled_against_reference"] and summary["games"] == {"le_dix": 24, "dix_de_suite": 24, "dix": 24}
    assert summary["failures"] == 0
    # A compiled engine that scores one point too many is caught, with a record that replays the slot alone.
    from dixenv.games.le_dix.compiled import DEAL, LeDixBatch

    real = LeDixBatch.scores
    monkeypatch.setattr(LeDixBatch, "scores", lambda self, out=None: real(self, out) + (self.ints[:, DEAL : DEAL + 1] > 0))
    config = soak.configurations("le_dix")[0]
    _, failures = soak.compare_compiled(config, [5, 6])
    assert failures and "scores" in failures[0]["error"] and failures[0]["compiled"]
    assert soak.replay(failures[0]) is not None
    monkeypatch.setattr(LeDixBatch, "scores", real)
    assert soak.replay(failures[0]) is None


def test_the_compiled_env_soak_plays_both_single_envs_side_by_side_and_reports_a_mismatch(monkeypatch, tmp_path, capsys):
    pytest.importorskip("numba")
    assert soak.main(["--compiled-env", "--games", "17", "--no-progress", "--out", str(tmp_path)]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["compiled_env_against_env"] and summary["games"] == {"le_dix": 17, "dix_de_suite": 17, "dix": 17}
    assert summary["failures"] == 0 and min(summary["moves"].values()) > 17 * 10
    assert "--compiled-env: ['toy'] have no compiled single env yet" in capsys.readouterr().err  # the test-only game
    # A compiled env whose observation of the player to act is off in one entry is caught, and the record replays it.
    from dixenv.games.le_dix.compiled import LeDixArrayState

    real = LeDixArrayState._call

    def off_by_one(self, ops, action=-1, seat=-1, obs=None):
        real(self, ops, action, seat, obs)
        self.obs[0] += 1.0

    monkeypatch.setattr(LeDixArrayState, "_call", off_by_one)
    config = soak.configurations("le_dix")[0]
    module = __import__("dixenv.le_dix_v0", fromlist=["env"])
    n, played, error = soak.compare_env(config, 5, module.env(**config.kwargs), module.env(engine="compiled", **config.kwargs))
    assert error is not None and error.startswith("observation")
    record = {"game": "le_dix", "options": config.kwargs, "policy": config.policy, "seed": 5, "compiled_env": True,
              "moves": played, "error": error}
    assert soak.replay(record) == error
    monkeypatch.setattr(LeDixArrayState, "_call", real)
    assert soak.replay(record) is None
