"""Training works out of the box: warm start, PPO on dixenv.vector, self-play, logs, saved policy, final table."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training needs the train extra")

from dixenv import le_dix_v0  # noqa: E402
from dixenv.agents.registry import make_agent  # noqa: E402
from dixenv.experiments import train  # noqa: E402
from dixenv.experiments.tournament import run_tournament  # noqa: E402


def test_the_quick_preset_trains_saves_and_the_policy_plays_in_a_two_worker_tournament(tmp_path):
    out = tmp_path / "run"
    summary = train.main(["--timesteps", "2048", "--n-envs", "8", "--warm-start-games", "16", "--eval-every", "1024",
                          "--eval-games", "4", "--final-games", "6", "--no-progress", "--out", str(out),
                          "--workers", "2"])
    for name in ("final.npz", "final.json", "model.zip", "curve.png", "eval.csv", "progress.csv", "summary.json"):
        assert (out / name).exists(), name
    assert list(out.glob("events.out.tfevents.*")), "TensorBoard log"
    assert list((out / "checkpoints").glob("model_*_steps.zip"))
    meta = json.loads((out / "final.json").read_text())
    assert meta["env_id"] == "dixenv/Dix-v0" and meta["options"] == {"num_players": 2}
    assert meta["training"]["timesteps"] == 2048 and meta["training"]["warm_start"]["games"] == 16
    rows = list(csv.DictReader((out / "eval.csv").open()))
    assert [(int(r["step"]), r["table"]) for r in rows] == [(s, t) for s in (0, 1024, 2048) for t in ("heuristic", "random")]
    assert [r["candidate"] for r in summary["final"]] == ["trained", "heuristic", "random"]
    for r in summary["final"]:
        assert r["games"] == 6 and r["win_ci95"][0] <= r["win_share"] <= r["win_ci95"][1]
    results = run_tournament("dix", [f"policy:{out / 'final'}", "heuristic"], 4, {"num_players": 2}, workers=2, seed=9)
    assert results.num_games == 4


def test_self_play_adds_snapshots_and_the_learner_sits_everywhere(tmp_path):
    out = tmp_path / "sp"
    summary = train.main(["--preset", "le_dix", "--option", "num_players=3", "--option", "deals=(2,)", "--timesteps", "1024",
                          "--n-envs", "4", "--warm-start", "none", "--self-play", "0.5", "--snapshot-every", "1",
                          "--eval-every", "0", "--final-games", "3", "--no-progress", "--out", str(out), "--workers", "1",
                          "--ppo", "n_steps=64", "--ppo", "batch_size=64"])
    assert summary["snapshots_added"] >= 3
    assert summary["preset"]["eval_opponents"] == ["heuristic", "heuristic"]  # follows num_players=3
    agent = make_agent("le_dix", f"policy:{out / 'final'}", le_dix_v0.raw_env(num_players=3, deals=(2,)))
    assert agent.deterministic


def _maker(per_seat=("heuristic",), mix=(), self_play=0.0, players=4):
    raw = le_dix_v0.raw_env(num_players=players)
    return train.MatchMaker(raw, list(per_seat), list(mix), self_play)


class _Snapshot:
    def act_batch(self, observations, masks):
        return masks.argmax(axis=1)


def test_match_maker_rotates_the_learner_and_mixes_snapshots_at_the_given_share():
    maker = _maker(self_play=0.25)
    rng = np.random.default_rng(0)
    seats = {maker(0, rng)[0] for _ in range(200)}
    assert seats == {0, 1, 2, 3}
    assert all(type(o).__name__ == "LeDixHeuristic" for o in maker(0, rng)[1]), "no snapshot before the first one"
    snap = _Snapshot()
    maker.add_snapshot(snap)
    drawn = [o is snap for _ in range(2000) for o in maker(1, rng)[1]]
    assert abs(np.mean(drawn) - 0.25) < 0.03


def test_match_maker_mix_draws_baselines_by_weight_and_keeps_one_agent_per_slot():
    maker = _maker(per_seat=(), mix=[("heuristic", 3.0), ("random", 1.0)])
    rng = np.random.default_rng(1)
    names = [type(o).__name__ for _ in range(1000) for o in maker(2, rng)[1]]
    assert abs(names.count("RandomAgent") / len(names) - 0.25) < 0.03
    first = maker(2, rng)[1]
    again = maker(2, rng)[1]
    assert any(a is b for a, b in zip(first, again)), "baseline agents are built once per slot and reused"


def test_match_maker_pool_keeps_the_newest_snapshots():
    maker = _maker(self_play=1.0)
    snaps = [_Snapshot() for _ in range(25)]
    for s in snaps:
        maker.add_snapshot(s)
    assert maker.pool == snaps[-20:]


@pytest.mark.parametrize("items, message", [
    (["heuristic", "random=0.5"], "either one agent per seat"),
    (["random=-1"], "positive number"),
    (["random=x"], "positive number"),
])
def test_bad_opponent_lists_are_refused(items, message):
    with pytest.raises(ValueError, match=message):
        train.parse_opponents(items)


def test_bad_match_maker_settings_are_refused():
    with pytest.raises(ValueError, match="self_play"):
        _maker(self_play=1.5)
    with pytest.raises(ValueError, match="3 opponent"):
        _maker(per_seat=("heuristic", "random"))
    with pytest.raises(ValueError, match="unknown preset"):
        train.get_preset("chess")


def test_a_hinted_run_saves_a_policy_that_plays_with_the_heuristics_hint(tmp_path):
    out = tmp_path / "hint"
    summary = train.main(["--preset", "le_dix", "--option", "num_players=3", "--option", "deals=(2,)", "--timesteps", "512",
                          "--n-envs", "4", "--hint", "heuristic", "--warm-start-games", "30", "--warm-start-epochs", "30",
                          "--dagger-rounds", "0", "--eval-every", "0", "--final-games", "3", "--no-progress", "--out", str(out),
                          "--workers", "1", "--ppo", "n_steps=64", "--ppo", "batch_size=64"])
    assert summary["preset"]["hint"] == "heuristic"
    assert summary["warm_start"]["accuracy"] > 0.95, "with the heuristic's move among the inputs, cloning it is easy"
    meta = json.loads((out / "final.json").read_text())
    assert meta["hint"] == "heuristic"
    agent = make_agent("le_dix", f"policy:{out / 'final'}", le_dix_v0.raw_env(num_players=3, deals=(2,)))
    assert agent.hinter is not None and agent.policy.obs_size == agent.hinter.num_actions + le_dix_v0.raw_env(num_players=3, deals=(2,)).layout.size
    with pytest.raises(SystemExit, match="allowed: heuristic"):
        train.main(["--hint", "oracle"])


@pytest.mark.parametrize("trainer", ["sb3", "selfplay"])
def test_a_run_with_features_saves_a_policy_that_computes_them_when_it_plays(tmp_path, trainer):
    out = tmp_path / trainer
    summary = train.main(["--preset", "le_dix", "--option", "num_players=3", "--option", "deals=(2,)", "--timesteps", "256",
                          "--n-envs", "4", "--features", "cards", "--hint", "none", "--warm-start-games", "6",
                          "--warm-start-epochs", "2", "--dagger-rounds", "1", "--dagger-games", "2", "--eval-every", "0",
                          "--final-games", "3", "--no-progress", "--out", str(out), "--workers", "1", "--trainer", trainer, "--train-reward", "win",
                          "--ppo", "n_steps=64", "--ppo", "batch_size=64"])
    assert summary["preset"]["features"] == "cards"
    meta = json.loads((out / "final.json").read_text())
    env = le_dix_v0.raw_env(num_players=3, deals=(2,))
    agent = make_agent("le_dix", f"policy:{out / 'final'}", env)
    assert meta["features"] == "cards" and agent.featurizer is not None
    assert agent.policy.obs_size == env.layout.size + agent.featurizer.size == env.layout.size + meta["features_size"]
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][agent.act(obs)] == 1
    with pytest.raises(SystemExit, match="not a feature set of dix_de_suite; allowed: rack"):
        train.main(["--preset", "dix_de_suite", "--features", "cards"])
    with pytest.raises(SystemExit, match="not a feature set of dix; allowed: none for this game"):
        train.main(["--preset", "dix", "--features", "cards"])
    with pytest.raises(SystemExit, match="not both"):
        train.main(["--preset", "le_dix", "--features", "cards", "--hint", "heuristic"])


def test_the_selfplay_trainer_starts_from_the_clone_and_ends_with_the_same_table_and_files(tmp_path):
    out = tmp_path / "run"
    summary = train.main(["--trainer", "selfplay", "--timesteps", "1024", "--warm-start-games", "8",
                          "--warm-start-epochs", "1", "--eval-every", "512", "--eval-games", "4", "--final-games", "6",
                          "--no-progress", "--out", str(out), "--workers", "1"])
    for name in ("clone.npz", "final.npz", "final.json", "curve.png", "eval.csv", "summary.json"):
        assert (out / name).exists(), name
    meta = json.loads((out / "final.json").read_text())
    assert meta["env_id"] == "dixenv/Dix-v0" and meta["options"] == {"num_players": 2}
    assert meta["training"]["trainer"] == "experiments.selfplay" and meta["training"]["config"]["init"] == str(out / "clone")
    rows = list(csv.DictReader((out / "eval.csv").open()))
    steps = [int(r["step"]) for r in rows]
    assert steps[0] == 0 and steps == sorted(steps) and len(steps) >= 2 and {r["table"] for r in rows} == {"heuristic"}
    assert sorted(p.stem for p in (out / "snapshots").glob("*.npz")) == sorted(f"step_{s}" for s in steps)
    assert [r["candidate"] for r in summary["final"]] == ["trained", "heuristic", "random"]
    assert summary["selfplay"]["steps"] >= 1024
    assert make_agent("dix", f"policy:{out / 'final'}", __import__("dixenv").dix_v0.raw_env(num_players=2))


@pytest.mark.parametrize("args, message", [
    (["--trainer", "selfplay", "--hint", "heuristic"], "no hint"),
    (["--trainer", "selfplay", "--train-reward", "points"], "pays 'win' or 'margin', not 'points'"),
])
def test_the_selfplay_trainer_refuses_what_it_cannot_do(args, message, capsys):
    with pytest.raises(SystemExit, match=message):
        train.main(args + ["--no-progress", "--timesteps", "1"])


def test_visit_targets_reach_the_preset_and_need_a_tree_search(capsys):
    args = train.build_parser().parse_args(["--preset", "le_dix", "--hint", "none", "--warm-start", "ismcts:iterations=50",
                                            "--warm-start-targets", "visits"])
    assert train.preset_from_args(args).warm_start_targets == "visits"
    with pytest.raises(SystemExit, match="needs a tree search"):
        train.main(["--preset", "le_dix", "--hint", "none", "--warm-start-targets", "visits", "--no-progress", "--timesteps", "1"])
    with pytest.raises(SystemExit):  # argparse names the allowed values
        train.main(["--warm-start-targets", "best", "--no-progress"])
    assert "invalid choice: 'best' (choose from" in capsys.readouterr().err


def test_demonstrations_saved_by_one_run_are_cloned_by_another_and_mismatches_are_refused(tmp_path):
    small = ["--timesteps", "0", "--n-envs", "2", "--warm-start-games", "4", "--warm-start-epochs", "1", "--eval-every", "0",
             "--final-games", "2", "--no-progress", "--workers", "1"]
    first = train.main(small + ["--save-demonstrations", "--out", str(tmp_path / "a")])
    saved = tmp_path / "a" / "demonstrations.npz"
    assert saved.exists() and first["warm_start"]["loaded"] is False
    second = train.main(small + ["--demonstrations", str(saved), "--out", str(tmp_path / "b")])
    ws = second["warm_start"]
    assert ws["loaded"] is True and (ws["games"], ws["decisions"]) == (4, first["warm_start"]["decisions"])
    # the file says who made it, and the run that clones it records that
    assert first["warm_start"]["source"].startswith("heuristic's moves on dixenv/") and "targets move" in first["warm_start"]["source"]
    assert ws["source"] == first["warm_start"]["source"]
    # The clone is fitted to the same data with the same seed: the same policy.
    a, b = np.load(tmp_path / "a" / "final.npz"), np.load(tmp_path / "b" / "final.npz")
    assert all(np.array_equal(a[k], b[k]) for k in a.files)
    with pytest.raises(ValueError, match="moves only, but --warm-start-targets is 'visits'"):
        train.main(small + ["--demonstrations", str(saved), "--warm-start", "ismcts:iterations=20", "--warm-start-targets", "visits",
                            "--out", str(tmp_path / "c")])
    with pytest.raises(ValueError, match=r"inputs and \d+ actions, but this run's policy has"):
        train.main(small + ["--demonstrations", str(saved), "--option", "num_players=3", "--out", str(tmp_path / "d")])
    with pytest.raises(SystemExit, match="warm start, but it is off"):
        train.main(small + ["--demonstrations", str(saved), "--warm-start", "none"])
    with pytest.raises(SystemExit, match="not a demonstrations file"):
        train.main(small + ["--demonstrations", str(tmp_path / "none.npz")])


def test_visit_shares_saved_are_cloned_as_shares_or_as_moves_as_asked(tmp_path):
    small = ["--timesteps", "0", "--n-envs", "2", "--warm-start-epochs", "1", "--eval-every", "0", "--final-games", "2",
             "--no-progress", "--workers", "1"]
    train.main(small + ["--warm-start", "ismcts:iterations=10", "--warm-start-targets", "visits", "--warm-start-games", "2",
                        "--save-demonstrations", "--out", str(tmp_path / "a")])
    saved = tmp_path / "a" / "demonstrations.npz"
    from dixenv.experiments.imitation import Demonstrations

    assert Demonstrations.load(saved).targets is not None
    lines: list[str] = []
    as_moves = train.train(train.preset_from_args(train.build_parser().parse_args(small)), tmp_path / "b", workers=1,
                           progress=False, log=lines.append, demonstrations=Demonstrations.load(saved))
    assert as_moves["warm_start"]["targets"] == "move" and any("visit shares are not used" in line for line in lines)
    as_shares = train.main(small + ["--demonstrations", str(saved), "--warm-start", "ismcts:iterations=10",
                                    "--warm-start-targets", "visits", "--out", str(tmp_path / "c")])
    assert as_shares["warm_start"]["targets"] == "visits" and as_shares["warm_start"]["loaded"] is True
    a, b = np.load(tmp_path / "a" / "final.npz"), np.load(tmp_path / "c" / "final.npz")
    assert all(np.array_equal(a[k], b[k]) for k in a.files), "the same shares and seed: the same clone"
