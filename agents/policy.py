"""Saved policies as agents: a trained network that plays from the observation and mask.

A saved policy is two small files side by side:

* ``NAME.npz`` — the policy network's weights as numpy arrays (``W0, b0, W1, b1, …``, the last
  pair being the action head), and
* ``NAME.json`` — its metadata: the game, the Gymnasium id and options it was trained with, the
  observation layout's fingerprint and size, the number of actions, the hidden activation, and
  how it was trained.

Acting needs numpy only: the forward pass of a multilayer perceptron is a few matrix products,
written here by hand because loading torch into every tournament worker (and into ``dixenv.play``)
would cost seconds and hundreds of megabytes for what is, at these sizes, microseconds of work.
Stable-Baselines3 / sb3-contrib models are exported with ``export_sb3``. Their own ``.zip`` files are
never loaded by name (``policy:model.zip`` is refused with a ``ValueError``): an SB3 zip holds
pickles, and unpickling runs whatever code the file carries. A zip you made yourself can be converted
once, explicitly, with ``load_sb3_zip_unsafe(path).save(stem)`` (the name says what it risks).

Loading a policy file runs no code from it: the weights are read with ``np.load(...,
allow_pickle=False)`` and the metadata as JSON, and every metadata field and every array (present,
floating-point, finite, shapes chained from ``obs_size`` to ``num_actions``) is checked when the file
is loaded. A damaged or inconsistent file gives a ``ValueError`` that names the file and the problem.

A policy trained with an advisor's hint (``"hint": "heuristic"`` in its metadata,
``dixenv.agents.hints``) has the advisor's move, one-hot, after the observation among its inputs;
``PolicyAgent`` builds the same advisor from its env and adds the hint before every forward pass.

Loading into an environment whose observation layout differs from the one trained on (another
game, player count or dixenv version) fails with a ``ValueError`` that says what differs.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dixenv.agents.base import aec_env

FORMAT = "dixenv-policy/1"
ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def policy_paths(path: str | Path) -> tuple[Path, Path]:
    """(weights ``.npz``, metadata ``.json``) for a policy path given with either suffix or none."""
    path = Path(path)
    stem = path.with_suffix("") if path.suffix in (".npz", ".json") else path
    return stem.with_suffix(".npz"), stem.with_suffix(".json")


@dataclass
class Policy:
    """A multilayer perceptron policy: weights, activation and the metadata it was saved with."""

    weights: list[tuple[np.ndarray, np.ndarray]]  # (W of shape (out, in), b of shape (out,)) per layer
    activation: str
    metadata: dict[str, Any]

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {self.activation!r}; known: {sorted(ACTIVATIONS)}")
        _check_chain(self.weights, "the policy's weights")
        self._act = ACTIVATIONS[self.activation]
        # Transposed once, float32: rows of observations times (in, out) matrices.
        self._layers = [(np.ascontiguousarray(w.T, dtype=np.float32), b.astype(np.float32)) for w, b in self.weights]

    @property
    def obs_size(self) -> int:
        return self._layers[0][0].shape[0]

    @property
    def num_actions(self) -> int:
        return self._layers[-1][0].shape[1]

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Action logits for a batch of observations ``(k, obs_size)`` -> ``(k, num_actions)``."""
        h = np.asarray(observations, dtype=np.float32)
        for w, b in self._layers[:-1]:
            h = self._act(h @ w + b)
        w, b = self._layers[-1]
        return h @ w + b

    def masked_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Logits with illegal actions at -inf (``masks`` is ``(k, num_actions)``, non-zero = legal)."""
        logits = self.logits(observations)
        return np.where(np.asarray(masks, dtype=bool), logits, -np.inf)

    def choose(self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """One legal action per row: the most likely one, or (given ``rng``) one sampled from the policy."""
        logits = self.masked_logits(observations, masks)
        if rng is not None:
            # Gumbel-max: argmax of logits plus Gumbel noise is an exact sample of the softmax,
            # and illegal actions (-inf) can never win.
            logits = logits + rng.gumbel(size=logits.shape)
        return logits.argmax(axis=1)

    # -- files ------------------------------------------------------------------------------------
    def save(self, path: str | Path) -> tuple[Path, Path]:
        """Write ``NAME.npz`` and ``NAME.json``; returns both paths."""
        npz, meta = policy_paths(path)
        arrays = {}
        for i, (w, b) in enumerate(self.weights):
            arrays[f"W{i}"] = np.asarray(w, dtype=np.float32)
            arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
        metadata = {**self.metadata, "format": FORMAT, "activation": self.activation,
                    "layers": [int(w.shape[0]) for w, _ in self.weights]}
        # Never write what ``load`` would refuse (metadata as ``policy_metadata`` makes it, weights that fit it).
        check_metadata(metadata, f"cannot save the policy as {meta}")
        check_arrays(arrays, metadata, f"cannot save the policy as {npz}")
        npz.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(npz, **arrays)
        meta.write_text(json.dumps(metadata, indent=2, sort_keys=True) + "\n")
        return npz, meta

    @classmethod
    def load(cls, path: str | Path) -> "Policy":
        """Read a policy saved by ``save``; no code from the files runs (no pickles).

        ``ValueError`` naming the file if it is missing, an SB3 ``.zip`` (see ``load_sb3_zip_unsafe``),
        unreadable, or inconsistent: every metadata field and every array is checked here.
        """
        if Path(path).suffix.lower() == ".zip":
            _refuse_zip(path)
        npz, meta = policy_paths(path)
        for p in (npz, meta):
            if not p.exists():
                raise ValueError(f"no saved policy at {p}: a policy is NAME.npz (weights) beside NAME.json (metadata)")
        metadata = read_metadata(meta)
        arrays = read_arrays(npz, metadata, meta)
        weights = [(arrays[f"W{i}"], arrays[f"b{i}"]) for i in range(len(metadata["layers"]))]
        return cls(weights, metadata["activation"], metadata)


def export_sb3(model: Any, path: str | Path, metadata: dict[str, Any]) -> tuple[Path, Path]:
    """Save the acting part of an SB3 / sb3-contrib actor-critic ``MlpPolicy`` as a dixenv policy (see ``from_sb3``)."""
    return from_sb3(model, metadata).save(path)


def from_sb3(model: Any, metadata: dict[str, Any]) -> Policy:
    """The acting part of an SB3 / sb3-contrib actor-critic ``MlpPolicy`` as a ``Policy`` (weights copied).

    Only the policy branch and the action head are kept (the value branch is for training only).
    Supported: a flat Box observation with SB3's ``FlattenExtractor``, ``Linear`` layers with one
    activation (tanh or ReLU) and a ``Discrete`` action head.
    """
    import torch.nn as nn

    policy = model.policy
    if type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"only FlattenExtractor policies can be exported, got {type(policy.features_extractor).__name__}")
    layers, activation = [], None
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, nn.Linear):
            layers.append(module)
        else:
            name = {nn.Tanh: "tanh", nn.ReLU: "relu"}.get(type(module))
            if name is None or activation not in (None, name):
                raise ValueError(f"cannot export the activation {type(module).__name__}; tanh or ReLU only")
            activation = name
    layers.append(policy.action_net)
    weights = [(m.weight.detach().cpu().numpy().copy(), m.bias.detach().cpu().numpy().copy()) for m in layers]
    return Policy(weights, activation or "tanh", dict(metadata))


class PolicyAgent:
    """A saved policy playing one seat: ``act`` for one observation, ``act_batch`` for many.

    ``deterministic=True`` (default) plays the most likely legal action; ``False`` samples from the
    policy with the agent's own seeded generator.
    """

    name = "policy"

    def __init__(self, env: Any = None, seed: int | None = None, path: str | Path | None = None, deterministic: bool = True,
                 policy: Policy | None = None):
        if policy is None:
            if path is None:
                raise ValueError("a policy agent needs the path of a saved policy: policy:PATH (NAME.npz beside NAME.json)")
            policy = _load_any(path)
        if not isinstance(deterministic, bool):
            raise ValueError(f"policy parameter deterministic={deterministic!r} must be True or False")
        self.policy = policy
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.hinter = self.featurizer = None
        if env is not None:
            check_compatible(policy.metadata, env, str(path or "the policy"))
        features = policy.metadata.get("features")
        if features:
            # Features computed from the observation are among its inputs (dixenv.agents.features).
            if env is None:
                raise ValueError(f"{path or 'the policy'} was trained with features={features!r}: give the agent its env to compute them")
            from dixenv.agents.features import Featurizer

            self.featurizer = Featurizer(env, features)
            self.featurizer.check_policy(policy.metadata, str(path or "the policy"))
        hint = policy.metadata.get("hint")
        if hint:
            # The policy was trained with an advisor's move among its inputs (dixenv.agents.hints).
            if env is None:
                raise ValueError(f"{path or 'the policy'} was trained with hint={hint!r}: give the agent its env to build the advisor")
            from dixenv.agents.hints import Hinter

            self.hinter = Hinter(env, hint)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling (no effect on a deterministic agent)."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The policy's action for one observation dict."""
        obs = observation["observation"][None, :]
        mask = observation["action_mask"][None, :]
        return int(self.act_batch(obs, mask)[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The policy's actions for a batch: ``(k, obs_size)`` observations, ``(k, num_actions)`` masks."""
        return self.policy.choose(self._inputs(observations, masks), masks, None if self.deterministic else self.rng)

    def masked_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The policy's logits for a batch, illegal actions at -inf (its features and hint computed here)."""
        return self.policy.masked_logits(self._inputs(observations, masks), masks)

    def _inputs(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """What the network reads: the observations, then any features, then any hint."""
        inputs = observations if self.featurizer is None else self.featurizer.extend_batch(observations)
        if self.hinter is not None:  # the advisor reads the observation itself
            inputs = np.concatenate([inputs, self.hinter.hints(observations, masks)], axis=1)
        return inputs


def check_compatible(metadata: dict[str, Any], env: Any, where: str) -> None:
    """``ValueError`` unless the env's game, observation layout and action count are those the policy was trained on."""
    aec = aec_env(env)
    game = aec.game.name
    trained = f"trained on {metadata.get('env_id')} with options {metadata.get('options')}"
    if metadata.get("game") != game:
        raise ValueError(f"{where} plays {metadata.get('game')!r} ({trained}), not {game!r}")
    layout = aec.layout
    if metadata.get("layout") != layout.fingerprint() or metadata.get("obs_size") != layout.size:
        raise ValueError(
            f"{where} was {trained}: its observation layout {metadata.get('layout')} ({metadata.get('obs_size')} floats) "
            f"differs from this environment's {layout.fingerprint()} ({layout.size} floats; options {aec.config}). "
            "Train it again for this configuration or dixenv version."
        )
    actions = aec.action_space(aec.possible_agents[0]).n
    if metadata.get("num_actions") != actions:
        raise ValueError(f"{where} has {metadata.get('num_actions')} actions, this environment {actions}")


def _load_any(path: str | Path) -> Policy:
    """A dixenv policy file (``NAME.npz`` + ``NAME.json``); an SB3 ``.zip`` is refused (``ValueError``).

    Loaded once per process and file version (tournaments build an agent for every game).
    """
    path = Path(path)
    if path.suffix.lower() == ".zip":
        _refuse_zip(path)
    stamp = tuple(p.stat().st_mtime_ns if p.exists() else None for p in policy_paths(path))
    return _load_cached(str(path), stamp)


@functools.lru_cache(maxsize=32)
def _load_cached(path: str, stamp: tuple) -> Policy:
    return Policy.load(Path(path))


def _refuse_zip(path: str | Path) -> None:
    """The ``ValueError`` for an SB3 ``.zip`` given where a policy file is expected."""
    raise ValueError(
        f"{path}: SB3 .zip models are not loaded by name (policy:PATH, make_agent, Policy.load): loading one "
        "unpickles its contents, and a pickle can run any code stored in the file. Play a dixenv policy file "
        "instead (NAME.npz + NAME.json, plain arrays and JSON): experiments.train writes final.npz/final.json "
        "beside its model.zip (play policy:RUN/final); for another model, export it with "
        "dixenv.agents.policy.export_sb3(model, PATH, metadata) (or, for a zip you made yourself and trust, "
        "load_sb3_zip_unsafe(ZIP).save(PATH)) and play policy:PATH."
    )


def load_sb3_zip_unsafe(path: str | Path, metadata: dict[str, Any] | None = None) -> Policy:
    """UNSAFE, RUNS CODE FROM THE FILE: an SB3 / sb3-contrib ``MaskablePPO`` ``.zip`` as a ``Policy``.

    An SB3 zip stores its settings as pickles (cloudpickle) and ``MaskablePPO.load`` unpickles them:
    unpickling executes whatever code the file's author put in it. Call this only on a file you made
    yourself or trust as much as a program you would run; never on a downloaded or shared model.
    Nothing loads zips by name (``policy:PATH``, ``make_agent``, the command lines refuse them); convert
    a trusted one once, ``load_sb3_zip_unsafe("run/model.zip").save("run/policy")``, and play the
    resulting ``policy:run/policy`` (numpy arrays and JSON: no code) from then on.

    ``metadata``: the policy's metadata (``policy_metadata``); by default read from ``PATH.json`` beside
    the zip. Needs the train extra (sb3-contrib).
    """
    path = Path(path)
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:
        raise ImportError(f"loading the SB3 model {path} needs the train extra: pip install 'dixenv[train]'") from exc
    if metadata is None:
        meta_path = path.with_suffix(".json")
        if not meta_path.exists():
            raise ValueError(f"{path} has no metadata file {meta_path} (env id, options, layout); save models with experiments.train")
        metadata = read_metadata(meta_path)
    import tempfile

    model = MaskablePPO.load(path, device="cpu")
    with tempfile.TemporaryDirectory() as tmp:
        return Policy.load(export_sb3(model, Path(tmp) / "policy", metadata)[0])


# -- checking policy files -------------------------------------------------------------------------

def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


#: Metadata fields every policy file has besides ``format``: name -> (check, what it must be).
_FIELDS: dict[str, tuple[Any, Any]] = {
    "activation": (lambda v: isinstance(v, str) and v in ACTIVATIONS, f"one of {sorted(ACTIVATIONS)}"),
    "layers": (lambda v: isinstance(v, list) and len(v) > 0 and all(_is_count(x) for x in v),
               "a non-empty list of layer sizes (positive integers), the last one num_actions"),
    "obs_size": (_is_count, "a positive integer (the observation's length)"),
    "num_actions": (_is_count, "a positive integer (the action count)"),
    "game": (lambda v: isinstance(v, str) and v in _games(), lambda: f"one of the games {list(_games())}"),
    "env_id": (_is_name, "a Gymnasium id such as 'dixenv/Dix-v0'"),
    "options": (lambda v: isinstance(v, dict), "a JSON object of env options"),
    "layout": (_is_name, "the observation layout's fingerprint (a string)"),
}


def _games() -> tuple[str, ...]:
    from dixenv.agents.registry import GAMES  # lazy: the registry names every agent module

    return GAMES


def read_metadata(meta: Path) -> dict[str, Any]:
    """The checked metadata of a policy file ``NAME.json`` (``ValueError`` naming the file and the problem)."""
    meta = Path(meta)
    try:
        text = meta.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{meta} is not UTF-8 text, so not a policy's JSON metadata ({exc})") from None
    except OSError as exc:
        raise ValueError(f"cannot read the policy metadata {meta}: {exc}") from None
    if not text.strip():
        raise ValueError(f"{meta} is empty: expected the policy's metadata, a JSON object (damaged or truncated file?)")
    try:
        metadata = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"{meta} is not valid JSON ({exc}): expected the policy's metadata, a JSON object") from None
    if not isinstance(metadata, dict):
        raise ValueError(f"{meta} holds a JSON {type(metadata).__name__}, not an object of policy metadata "
                         "(format, layers, activation, obs_size, num_actions, game, env_id, options, layout)")
    check_metadata(metadata, str(meta))
    return metadata


def check_metadata(metadata: dict[str, Any], where: str) -> None:
    """``ValueError`` (starting with ``where``) unless ``metadata`` has every field a policy file needs, each valid."""
    if not isinstance(metadata, dict):
        raise ValueError(f"{where}: the metadata is a {type(metadata).__name__}, not a dict")
    fmt = metadata.get("format")
    if fmt != FORMAT:
        raise ValueError(f"{where} is not a dixenv policy (format {fmt!r}, expected {FORMAT!r})")
    for name, (ok, expected) in _FIELDS.items():
        expected = expected() if callable(expected) else expected
        if name not in metadata:
            raise ValueError(f"{where}: the metadata has no {name!r}; expected {expected}")
        if not ok(metadata[name]):
            raise ValueError(f"{where}: {name} is {_short(metadata[name])}; expected {expected}")
    if metadata["layers"][-1] != metadata["num_actions"]:
        raise ValueError(f"{where}: the last of layers {metadata['layers']} is the action head and must be "
                         f"num_actions {metadata['num_actions']}")
    features = metadata.get("features")
    if features is not None:
        from dixenv.agents.features import check_features

        try:
            check_features(metadata["game"], features)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        if not _is_count(metadata.get("features_size")):
            raise ValueError(f"{where}: features_size is {_short(metadata.get('features_size'))}; expected a positive "
                             f"integer (how many inputs the {features!r} features add)")
        if "features_version" in metadata and not _is_count(metadata["features_version"]):
            raise ValueError(f"{where}: features_version is {_short(metadata['features_version'])}; expected a positive "
                             f"integer (the version of the {features!r} features it was trained on)")
    hint = metadata.get("hint")
    if hint is not None:
        from dixenv.agents.hints import check_advisor

        try:
            check_advisor(hint)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if "training" in metadata and not isinstance(metadata["training"], dict):
        raise ValueError(f"{where}: training is {_short(metadata['training'])}; expected a JSON object (how it was trained)")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def read_arrays(npz: Path, metadata: dict[str, Any], meta: Path | str = "the metadata") -> dict[str, np.ndarray]:
    """The checked arrays ``W0, b0, …`` of a policy file ``NAME.npz`` described by (checked) ``metadata``.

    Read with ``allow_pickle=False``: no code from the file runs; an object array is refused.
    ``ValueError`` naming the file and the problem for an unreadable file or arrays that do not fit.
    """
    npz = Path(npz)
    try:
        size = npz.stat().st_size
    except OSError as exc:
        raise ValueError(f"cannot read the policy weights {npz}: {exc}") from None
    if size == 0:
        raise ValueError(f"{npz} is empty (0 bytes): expected the policy's weights, an .npz archive (damaged or truncated file?)")
    try:
        data = np.load(npz, allow_pickle=False)
    except Exception as exc:  # BadZipFile, EOFError, OSError, a refused pickle, …: the bytes are not an npz
        why = (f"{type(exc).__name__}: {exc}" if "pickle" not in str(exc) else
               "neither an npz archive nor a numpy array (numpy would have to unpickle it; refused, as a pickle can run code)")
        raise ValueError(f"{npz} is not a readable .npz archive of policy weights (damaged or truncated file?): {why}") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ValueError(f"{npz} holds a single array, not an .npz archive of policy weights W0, b0, W1, b1, …")
    with data:
        count = len(metadata["layers"])
        expected = [f"{k}{i}" for i in range(count) for k in "Wb"]
        names = list(data.files)
        missing = [n for n in expected if n not in names]
        if missing:
            raise ValueError(f"{npz} lacks the arrays {', '.join(missing)}: {meta} lists {count} layer(s), "
                             f"so the file needs {', '.join(expected)}")
        extra = sorted(set(names) - set(expected))
        if extra:
            raise ValueError(f"{npz} has unexpected arrays {', '.join(extra)}: {meta} lists {count} layer(s) "
                             f"({', '.join(expected)}); weights and metadata do not belong together")
        arrays = {}
        for name in expected:
            try:
                arrays[name] = data[name]
            except Exception as exc:  # an object (pickled) array, a damaged entry
                why = (f"{type(exc).__name__}: {exc}" if "allow_pickle" not in str(exc) else
                       "it is an array of Python objects, which numpy would have to unpickle (refused: a pickle can run code)")
                raise ValueError(f"{npz}: the array {name} cannot be read (damaged file, or not plain numbers): {why}") from None
    check_arrays(arrays, metadata, str(npz), meta)
    return arrays


def check_arrays(arrays: dict[str, np.ndarray], metadata: dict[str, Any], where: str,
                 meta: Path | str = "the metadata") -> None:
    """``ValueError`` (starting with ``where``) unless ``arrays`` are float, finite weights whose shapes fit ``metadata``.

    Layer ``i`` maps its inputs to ``layers[i]`` units: ``W{i}`` is ``(layers[i], inputs)``, ``b{i}`` is
    ``(layers[i],)``; the first layer's inputs are ``obs_size`` (plus ``features_size`` with ``features``,
    plus ``num_actions`` with a ``hint``), every next layer's the previous layer's units.
    """
    layers = metadata["layers"]
    hint, features = metadata.get("hint"), metadata.get("features")
    inputs = metadata["obs_size"] + (metadata["features_size"] if features else 0) + (metadata["num_actions"] if hint else 0)
    source = (f"obs_size {metadata['obs_size']}"
              + (f" + features_size {metadata['features_size']} of the {features!r} features" if features else "")
              + (f" + num_actions {metadata['num_actions']} of the {hint!r} hint" if hint else ""))
    for i, units in enumerate(layers):
        for name, shape, why in (
            (f"W{i}", (units, inputs), f"layer {i} maps {inputs} inputs ({source}) to layers[{i}] = {units} units in {meta}"),
            (f"b{i}", (units,), f"one bias per unit: layers[{i}] = {units} in {meta}"),
        ):
            if name not in arrays:
                raise ValueError(f"{where}: the array {name} is missing")
            a = arrays[name]
            if not np.issubdtype(a.dtype, np.floating):
                raise ValueError(f"{where}: {name} has dtype {a.dtype}; expected floating-point weights")
            if a.shape != shape:
                raise ValueError(f"{where}: {name} has shape {a.shape}, expected {shape} ({why})")
            if not np.isfinite(a).all():
                raise ValueError(f"{where}: {name} holds NaN or infinite values")
        inputs, source = units, f"layers[{i}]"


def _check_chain(weights: list[tuple[np.ndarray, np.ndarray]], where: str) -> None:
    """``ValueError`` unless ``weights`` are (W, b) pairs, W 2-D, b one per row of W, each W taking the previous one's rows."""
    if not weights:
        raise ValueError(f"{where}: a policy needs at least one layer")
    inputs = None
    for i, (w, b) in enumerate(weights):
        w_shape, b_shape = np.shape(w), np.shape(b)
        if len(w_shape) != 2:
            raise ValueError(f"{where}: W{i} has shape {w_shape}; expected a matrix (units, inputs)")
        if b_shape != (w_shape[0],):
            raise ValueError(f"{where}: b{i} has shape {b_shape}; expected ({w_shape[0]},), one bias per row of W{i}")
        if inputs is not None and w_shape[1] != inputs:
            raise ValueError(f"{where}: W{i} takes {w_shape[1]} inputs but layer {i - 1} has {inputs} units")
        inputs = w_shape[0]


def policy_metadata(env_id: str, options: dict[str, Any], env: Any, hint: str | None = None,
                    features: str | None = None, **training: Any) -> dict[str, Any]:
    """The metadata to save with a policy trained on ``env_id`` / ``options`` (``env`` one such env).

    ``hint``: the advisor whose move the policy gets among its inputs (``dixenv.agents.hints``), if any;
    ``features``: the feature set appended to its observations (``dixenv.agents.features``), if any.
    """
    aec = aec_env(env)
    extra = {} if hint is None else {"hint": hint}
    if features is not None:
        from dixenv.agents.features import Featurizer

        featurizer = Featurizer(aec, features)
        extra |= {"features": features, "features_size": featurizer.size, "features_version": featurizer.version}
    return extra | {
        "game": aec.game.name,
        "env_id": env_id,
        "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in options.items()},
        "layout": aec.layout.fingerprint(),
        "obs_size": aec.layout.size,
        "num_actions": int(aec.action_space(aec.possible_agents[0]).n),
        "training": training,
    }
