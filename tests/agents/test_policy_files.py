"""Policy files loaded by name are data, never code, and a damaged one is refused by name at load time.

``policy:PATH`` (``make_agent``, ``PolicyAgent``, the single-agent envs' ``opponents``, every command
line) reads ``NAME.npz`` with ``allow_pickle=False`` and ``NAME.json``; an SB3 ``.zip`` (pickles
inside) is refused with a ``ValueError`` saying what to do instead, and never opened. Every field of
the metadata and every array of the weights is checked when the file is loaded: a damaged file gives
a ``ValueError`` naming the file and the problem, not a numpy/zipfile/json exception at load time or
at the first ``act``.
"""

from __future__ import annotations

import base64
import json
import pickle
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import dixenv  # noqa: F401  (registers the ids)
from dixenv import dix_v0
from dixenv.agents.policy import Policy, PolicyAgent, policy_metadata
from dixenv.agents.registry import make_agent
from dixenv.agents.zoo import WEIGHTS_DIR

ENV_ID, OPTIONS = "dixenv/Dix-v0", {"num_players": 2}
HIDDEN = 8


# -- helpers -------------------------------------------------------------------------------------


def _base_policy(folder: Path, name: str = "base") -> Path:
    """A small valid policy for 2-player dix saved as ``folder/NAME.npz`` + ``.json``; returns the stem."""
    env = gymnasium.make(ENV_ID, **OPTIONS)
    rng = np.random.default_rng(0)
    size, actions = env.observation_space.shape[0], env.action_space.n
    weights = [(rng.normal(size=(HIDDEN, size)), rng.normal(size=HIDDEN)),
               (rng.normal(size=(actions, HIDDEN)), rng.normal(size=actions))]
    stem = folder / name
    Policy(weights, "tanh", policy_metadata(ENV_ID, OPTIONS, env, seed=0)).save(stem)
    return stem


def _arrays(stem: Path) -> dict[str, np.ndarray]:
    with np.load(stem.with_suffix(".npz")) as data:
        return {k: data[k] for k in data.files}


def _meta(stem: Path) -> dict:
    return json.loads(stem.with_suffix(".json").read_text())


class _Touch:
    """A harmless payload: unpickling it creates ``path`` (so a test can see whether it ran)."""

    def __init__(self, path: Path):
        self.path = str(path)

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def _crafted_sb3_zip(path: Path, marker: Path) -> None:
    """An SB3-style ``model.zip`` whose ``data`` entry holds a serialized (pickled) payload that touches ``marker``."""
    payload = base64.b64encode(pickle.dumps(_Touch(marker))).decode()
    data = {"policy_class": {":type:": "<class 'abc.ABCMeta'>", ":serialized:": payload},
            "observation_space": {":type:": "<class 'gymnasium.spaces.box.Box'>", ":serialized:": payload}}
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data", json.dumps(data))
        zf.writestr("_stable_baselines3_version", "2.0.0")


@pytest.fixture
def base(tmp_path):
    return _base_policy(tmp_path)


# -- pickles never run ---------------------------------------------------------------------------


@pytest.fixture
def crafted(tmp_path, base):
    """``model.zip`` (crafted) beside a valid ``model.json``, and the marker file its payload would create."""
    marker = tmp_path / "PAYLOAD_RAN"
    _crafted_sb3_zip(tmp_path / "model.zip", marker)
    (tmp_path / "model.json").write_text(base.with_suffix(".json").read_text())
    return tmp_path / "model.zip", marker


def test_the_crafted_payload_would_run_if_unpickled(crafted, tmp_path):
    """The fixture is a real payload: unpickling its data entry creates the marker (so its absence below means something)."""
    path, marker = crafted
    with zipfile.ZipFile(path) as zf:
        entry = json.loads(zf.read("data"))["policy_class"][":serialized:"]
    pickle.loads(base64.b64decode(entry))
    assert marker.exists()
    marker.unlink()


ZIP_ROUTES = {
    "make_agent": lambda p: make_agent("dix", f"policy:{p}", dix_v0.raw_env(num_players=2)),
    "make_agent path=": lambda p: make_agent("dix", f"policy:path={p},deterministic=False", dix_v0.raw_env(num_players=2)),
    "make_agent upper-case suffix": lambda p: make_agent("dix", f"policy:{p.with_name('MODEL.ZIP')}", dix_v0.raw_env(num_players=2)),
    "make_agent param": lambda p: make_agent("dix", "policy", dix_v0.raw_env(num_players=2), path=str(p)),
    "PolicyAgent": lambda p: PolicyAgent(None, path=p),
    "Policy.load": lambda p: Policy.load(p),
    "gymnasium opponents": lambda p: gymnasium.make(ENV_ID, num_players=2, opponents=f"policy:{p}").reset(seed=0),
}


@pytest.mark.parametrize("route", sorted(ZIP_ROUTES))
def test_an_sb3_zip_is_never_unpickled_by_name(crafted, route):
    path, marker = crafted
    if route == "make_agent upper-case suffix":
        path.rename(path.with_name("MODEL.ZIP"))
        path = path.with_name("MODEL.ZIP")
    with pytest.raises(ValueError, match=r"(?s)\.zip.*not loaded by name.*pickle.*export_sb3"):
        ZIP_ROUTES[route](path)
    assert not marker.exists(), "loading a policy by name ran code stored in the file"


def test_a_zip_disguised_as_npz_is_refused_without_running_it(crafted, tmp_path, base):
    path, marker = crafted
    disguised = tmp_path / "disguised"
    path.rename(disguised.with_suffix(".npz"))
    (disguised.with_suffix(".json")).write_text(base.with_suffix(".json").read_text())
    with pytest.raises(ValueError, match=re.escape(str(disguised.with_suffix(".npz")))):
        make_agent("dix", f"policy:{disguised}", dix_v0.raw_env(num_players=2))
    assert not marker.exists()


def test_a_pickled_object_array_in_the_npz_is_refused_without_running_it(tmp_path, base):
    marker = tmp_path / "PAYLOAD_RAN"
    arrays = _arrays(base)
    arrays["W0"] = np.array([_Touch(marker)], dtype=object)
    np.savez(base.with_suffix(".npz"), **arrays)
    with pytest.raises(ValueError, match=re.escape(str(base.with_suffix(".npz")))):
        PolicyAgent(None, path=base)
    assert not marker.exists()


def test_play_refuses_a_zip_opponent_without_running_it(crafted):
    path, marker = crafted
    from dixenv import play

    lines: list[str] = []
    status = play.main(["dix", "--players", "2", "--opponents", f"policy:{path}"], input_fn=_no_input, print_fn=lines.append)
    assert status != 0 and not marker.exists()
    assert re.search(r"not loaded by name", "\n".join(lines))


def test_evaluate_refuses_a_zip_agent_without_running_it(crafted, capsys):
    path, marker = crafted
    from dixenv.experiments import evaluate

    status = evaluate.main(["--game", "dix", "--agents", f"policy:{path}", "random", "--option", "num_players=2",
                            "--games", "2", "--workers", "1", "--no-progress"])
    assert status != 0 and not marker.exists()
    assert "not loaded by name" in capsys.readouterr().err


def test_the_explicit_opt_in_says_it_runs_code():
    from dixenv.agents import policy

    doc = policy.load_sb3_zip_unsafe.__doc__
    assert "pickle" in doc and "trust" in doc


# -- damaged files -------------------------------------------------------------------------------


def _npz(stem: Path) -> Path:
    return stem.with_suffix(".npz")


def _json(stem: Path) -> Path:
    return stem.with_suffix(".json")


def _write_meta(stem: Path, meta) -> None:
    _json(stem).write_text(json.dumps(meta))


def _with_meta(**changes):
    def damage(stem: Path) -> None:
        meta = _meta(stem)
        for key, value in changes.items():
            if value is _DROP:
                meta.pop(key)
            else:
                meta[key] = value
        _write_meta(stem, meta)
    return damage


def _with_arrays(**changes):
    def damage(stem: Path) -> None:
        arrays = _arrays(stem)
        for key, value in changes.items():
            if value is _DROP:
                arrays.pop(key)
            else:
                arrays[key] = value(arrays) if callable(value) else value
        np.savez(_npz(stem), **arrays)
    return damage


_DROP = object()


def _save_npy(path: Path) -> None:
    with open(path, "wb") as f:
        np.save(f, np.zeros(3))


def _truncate(stem: Path) -> None:
    data = _npz(stem).read_bytes()
    _npz(stem).write_bytes(data[: len(data) // 2])


def _shape_of(shape):
    return lambda arrays: np.zeros(shape, dtype=np.float32)


#: case -> (damage, file named in the message (npz/json), words of the problem)
DAMAGES = {
    "truncated npz": (_truncate, _npz, r"not a readable \.npz|truncated|damaged"),
    "empty npz": (lambda s: _npz(s).write_bytes(b""), _npz, r"empty"),
    "npz of text": (lambda s: _npz(s).write_text("hello"), _npz, r"not a readable \.npz|damaged"),
    "npz is a single .npy": (lambda s: _save_npy(_npz(s)), _npz, r"npz"),
    "empty json": (lambda s: _json(s).write_text(""), _json, r"JSON"),
    "json not json": (lambda s: _json(s).write_text("{layers: 3"), _json, r"JSON"),
    "json not utf-8": (lambda s: _json(s).write_bytes(b"\xff\xfe{}"), _json, r"JSON|UTF-8"),
    "json list": (lambda s: _write_meta(s, [1, 2, 3]), _json, r"object"),
    "json without layers": (_with_meta(layers=_DROP), _json, r"layers"),
    "layers: 3": (_with_meta(layers=3), _json, r"layers"),
    "layers empty": (_with_meta(layers=[]), _json, r"layers"),
    "layers of strings": (_with_meta(layers=["8", "178"]), _json, r"layers"),
    "layers with a zero": (_with_meta(layers=[0, 178]), _json, r"layers"),
    "layers disagree with num_actions": (_with_meta(layers=[HIDDEN, 177]), _json, r"num_actions|layers"),
    "layers longer than the weights": (_with_meta(layers=[HIDDEN, HIDDEN, 178]), _npz, r"W1|W2"),
    "layers shorter than the weights": (_with_meta(layers=[178]), _npz, r"W0|W1|shape|unexpected"),
    "no format": (_with_meta(format=_DROP), _json, r"format"),
    "other format": (_with_meta(format="something/2"), _json, r"format"),
    "no activation": (_with_meta(activation=_DROP), _json, r"activation"),
    "unknown activation": (_with_meta(activation="sigmoid"), _json, r"activation"),
    "no obs_size": (_with_meta(obs_size=_DROP), _json, r"obs_size"),
    "obs_size a string": (_with_meta(obs_size="372"), _json, r"obs_size"),
    "obs_size negative": (_with_meta(obs_size=-1), _json, r"obs_size"),
    "obs_size a bool": (_with_meta(obs_size=True), _json, r"obs_size"),
    "no num_actions": (_with_meta(num_actions=_DROP), _json, r"num_actions"),
    "num_actions a float": (_with_meta(num_actions=178.0), _json, r"num_actions"),
    "no layout": (_with_meta(layout=_DROP), _json, r"layout"),
    "layout a number": (_with_meta(layout=12), _json, r"layout"),
    "no game": (_with_meta(game=_DROP), _json, r"game"),
    "unknown game": (_with_meta(game="chess"), _json, r"game"),
    "no env_id": (_with_meta(env_id=_DROP), _json, r"env_id"),
    "env_id a list": (_with_meta(env_id=["dixenv/Dix-v0"]), _json, r"env_id"),
    "no options": (_with_meta(options=_DROP), _json, r"options"),
    "options a list": (_with_meta(options=[["num_players", 2]]), _json, r"options"),
    "hint not an advisor": (_with_meta(hint="alix"), _json, r"hint"),
    "hint a number": (_with_meta(hint=3), _json, r"hint"),
    "training a string": (_with_meta(training="ppo"), _json, r"training"),
    "missing W1": (_with_arrays(W1=_DROP), _npz, r"W1"),
    "missing b0": (_with_arrays(b0=_DROP), _npz, r"b0"),
    "extra array": (_with_arrays(W9=np.zeros((2, 2), dtype=np.float32)), _npz, r"W9"),
    "W0 input != obs_size": (_with_arrays(W0=_shape_of((HIDDEN, 371))), _npz, r"W0.*371.*372|obs_size"),
    "W1 input != W0 output": (_with_arrays(W1=_shape_of((178, HIDDEN + 1))), _npz, r"W1"),
    "W0 rows != layers": (_with_arrays(W0=_shape_of((HIDDEN + 1, 372)), b0=_shape_of((HIDDEN + 1,))), _npz, r"W0.*layers|layers.*W0"),
    "b0 wrong length": (_with_arrays(b0=_shape_of((HIDDEN + 1,))), _npz, r"b0"),
    "b1 two-dimensional": (_with_arrays(b1=_shape_of((178, 1))), _npz, r"b1"),
    "W0 one-dimensional": (_with_arrays(W0=_shape_of((HIDDEN * 372,))), _npz, r"W0"),
    "integer weights": (_with_arrays(W1=lambda a: a["W1"].astype(np.int64)), _npz, r"W1.*(dtype|float)"),
    "string weights": (_with_arrays(b1=lambda a: a["b1"].astype(str)), _npz, r"b1.*(dtype|float)"),
    "NaN weights": (_with_arrays(W0=lambda a: np.where(np.eye(*a["W0"].shape) > 0, np.nan, a["W0"])), _npz, r"W0.*(NaN|finite)"),
    "infinite bias": (_with_arrays(b1=lambda a: np.full_like(a["b1"], np.inf)), _npz, r"b1.*(finite|inf)"),
    "missing npz": (lambda s: _npz(s).unlink(), _npz, r"no saved policy"),
    "missing json": (lambda s: _json(s).unlink(), _json, r"no saved policy"),
}


@pytest.mark.parametrize("case", list(DAMAGES))
def test_a_damaged_policy_is_refused_at_load_naming_the_file_and_the_problem(case, base):
    damage, named, problem = DAMAGES[case]
    damage(base)
    with pytest.raises(ValueError) as info:
        Policy.load(base)
    message = str(info.value)
    assert str(named(base)) in message, message
    assert re.search(problem, message), message


@pytest.mark.parametrize("case", ["truncated npz", "json list", "W0 input != obs_size", "integer weights"])
def test_make_agent_refuses_a_damaged_policy_before_it_plays(case, base):
    DAMAGES[case][0](base)
    with pytest.raises(ValueError, match=re.escape(str(base))):
        make_agent("dix", f"policy:{base}", dix_v0.raw_env(num_players=2))


def test_the_valid_base_and_every_shipped_policy_load(base, tmp_path):
    agent = make_agent("dix", f"policy:{base}", dix_v0.raw_env(num_players=2))
    assert agent.policy.obs_size == 372 and agent.policy.num_actions == 178
    shipped = sorted(WEIGHTS_DIR.glob("*.json"))
    assert shipped
    for meta in shipped:
        policy = Policy.load(meta)
        hint, features = policy.metadata.get("hint"), policy.metadata.get("features")
        expected = (policy.metadata["obs_size"] + (policy.metadata["features_size"] if features else 0)
                    + (policy.metadata["num_actions"] if hint else 0))
        assert policy.obs_size == expected


def test_a_policy_in_memory_with_unchained_shapes_is_refused():
    with pytest.raises(ValueError, match="W1"):
        Policy([(np.zeros((4, 10)), np.zeros(4)), (np.zeros((3, 5)), np.zeros(3))], "tanh", {})
    with pytest.raises(ValueError, match="b0"):
        Policy([(np.zeros((4, 10)), np.zeros(5))], "tanh", {})


# -- the command line ----------------------------------------------------------------------------


def _no_input(prompt: str) -> str:
    raise EOFError


@pytest.mark.parametrize("case", ["truncated npz", "empty npz", "json without layers", "json list", "layers: 3",
                                  "W0 input != obs_size", "NaN weights"])
def test_play_reports_a_damaged_policy_without_a_traceback(case, base):
    from dixenv import play

    damage, named, problem = DAMAGES[case]
    damage(base)
    lines: list[str] = []
    status = play.main(["dix", "--players", "2", "--opponents", f"policy:{base}"], input_fn=_no_input, print_fn=lines.append)
    text = "\n".join(lines)
    assert status != 0
    assert str(named(base)) in text and re.search(problem, text), text


def test_play_as_a_process_prints_the_message_and_exits_non_zero(base):
    _truncate(base)
    done = subprocess.run([sys.executable, "-m", "dixenv.play", "dix", "--players", "2", "--opponents", f"policy:{base}"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out
    assert str(_npz(base)) in out, out


# -- metadata says how a policy was trained, not where -------------------------------------------


def _absolute_paths(command: str) -> list[str]:
    return re.findall(r"(?:^|[\s:=,(])(/[^\s,]+)", command)


def test_the_shipped_policies_record_their_training_command_without_absolute_paths():
    for meta in sorted(WEIGHTS_DIR.glob("*.json")):
        training = json.loads(meta.read_text())["training"]
        # a fine-tuned policy records its own command and, under init_training, the one it started from
        chain = [training] + ([training["init_training"]] if "init_training" in training else [])
        for step in chain:
            command = step["command"]
            assert not _absolute_paths(command), (meta.name, command)
            if command.startswith("python -m experiments.selfplay "):  # --out is required there: a relative folder
                assert re.search(r"--out runs/\S+$", command), (meta.name, command)
                # it starts from a shipped file, or from the folder its init_training command writes (runs/PRESET)
                start = re.search(r"--init (\S+)", command).group(1)
                preset = re.match(r"python -m experiments.train --preset (\S+)", training.get("init_training", {}).get("command", ""))
                assert start.startswith("agents/weights/") or (preset and start == f"runs/{preset.group(1)}/final"), (meta.name, command)
            else:
                assert command.startswith("python -m experiments.train --preset "), (meta.name, command)
                assert "--out" not in command, (meta.name, command)
        assert chain[-1]["command"].startswith("python -m experiments.train --preset "), meta.name


def test_train_records_the_command_without_the_machines_paths(tmp_path):
    from dixenv.experiments import train

    out = tmp_path / "runs" / "solo"
    args = ["--preset", "dix_solo", "--out", str(out), "--workers", "1", "--opponents", f"policy:{tmp_path / 'runs' / 'old' / 'final'}",
            "--env", "dixenv/DixSolo-v0", "--option", "deals=(5,)"]
    command = train.recorded_command(args, out)
    assert command == ("python -m experiments.train --preset dix_solo --workers 1 --opponents policy:../old/final "
                       "--env dixenv/DixSolo-v0 --option 'deals=(5,)'")  # quoted as a shell needs it
    assert train.recorded_command([f"--out={out}", "--preset", "quick"], out) == "python -m experiments.train --preset quick"
    assert train.recorded_command(["--out", "runs/x", "--timesteps", "10"], Path("runs/x")) == "python -m experiments.train --timesteps 10"
    mixed = train.recorded_command(["--opponents", f"policy:{tmp_path}/pool/a,deterministic=False=0.5", "heuristic=0.5"], out)
    assert mixed == "python -m experiments.train --opponents policy:../../pool/a,deterministic=False=0.5 heuristic=0.5"
    assert not _absolute_paths(mixed)
