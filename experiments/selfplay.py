"""Self-play PPO fed straight from the compiled engines: every seat of N games through one forward pass.

``python -m experiments.selfplay --game le_dix --games 256 --steps 2000000 --out runs/le_dix_sp``

Why a PPO of our own rather than sb3-contrib's MaskablePPO: SB3 sees one learner seat per
environment through a ``VecEnv``, so self-play goes through opponents that act inside the env,
one Python call per slot and seat. Here the learner plays every seat it holds, in every game at
once: each decision round asks the compiled batch for the observation and mask of the seat to act
in all N games (``batch.observe(-1)``, ``batch.masks()``), runs the network once over the rows the
learner owns, the frozen snapshots once over theirs, and applies every move in one compiled call.
No per-game Python runs on the hot path. The update is CleanRL's PPO (clipped objective, GAE,
minibatches, Adam), with illegal actions masked out of the softmax.

Seats and rewards. At every deal of a game slot, each seat is given to the learner (probability
``1 - snapshot_share - baseline_share``, and always at least one seat), to a frozen snapshot of the
learner drawn from the pool (``--snapshot-every`` updates adds one; ``random`` plays until the pool
has one), or to a baseline agent such as the heuristic (``--baseline heuristic``; it acts row by row
in Python, so its seats cost what the agent costs per decision). The
learner's transitions are chained per (game, seat): a seat's next decision is its successor, and
the game's result (``win_rewards`` of the ranking: (seats beaten - seats that beat it) / (n - 1), or
the team's) is the reward of its last decision. At the end of a rollout a seat still playing is
bootstrapped from the critic's value of its own observation.

A teacher (``--teacher PATH --teacher-coef C``, a saved policy of the same table) adds C times
KL(teacher || actor) over the learner's decisions to the loss, keeping PPO near its moves.

The policy is saved in dixenv's format (``NAME.npz`` + ``NAME.json``, ``dixenv.agents.policy``):
the actor is a plain MLP, so ``policy:NAME`` plays it on either engine with numpy alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from dixenv.core.options import ENV_OPTIONS
from dixenv.experiments.masking import masked_log_softmax
from dixenv.games import game_spec


@dataclass(frozen=True)
class SelfPlayConfig:
    """Everything a run needs besides its seed and output folder."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    num_games: int = 256  # game slots played at once
    rollout: int = 32  # decision rounds per rollout (each round: one decision in every slot)
    total_steps: int = 1_000_000  # learner decisions to train on
    net_arch: tuple[int, ...] = (256, 256)
    learning_rate: float = 3e-4
    gamma: float = 1.0  # one reward, at the end of a game: no discount within it
    gae_lambda: float = 0.95
    clip: float = 0.2
    epochs: int = 4
    minibatch: int = 4096
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    snapshot_share: float = 0.0  # share of seats played by frozen snapshots of the learner
    baseline: str | None = None  # an agent of the registry (e.g. "heuristic") that may take seats
    baseline_share: float = 0.0  # share of seats it plays
    snapshot_every: int = 10  # PPO updates between snapshots added to the pool
    pool_size: int = 10
    torch_threads: int = 1
    reward: str = "win"  # "win": win_rewards of the ranking; "margin": the final lead / margin_scale, at the end;
    # "margin_dense": the same lead paid as the scores move; "points": the seat's own score, paid as it moves
    margin_scale: float = 10.0  # points per unit of the margin, margin_dense and points rewards
    init: str | None = None  # a saved dixenv policy whose weights start the actor (a warm start)
    critic_warmup: int = 0  # first updates that train the critic alone (the actor as loaded)
    features: str | None = None  # a feature set appended to the observations (dixenv.agents.features), e.g. "cards"
    compile: bool = False  # torch.compile the loss (faster updates after a compilation; needs a C++ compiler)
    teacher: str | None = None  # a saved dixenv policy whose move distribution the actor is pulled toward
    teacher_coef: float = 0.0  # weight of KL(teacher || actor) on the learner's decisions in the loss

    def __post_init__(self) -> None:
        if self.reward not in REWARDS:
            raise ValueError(f"unknown reward {self.reward!r}; allowed: {list(REWARDS)}")
        if not self.clip > 0:
            raise ValueError(f"clip must be positive, got {self.clip!r}")
        if not self.margin_scale > 0:
            raise ValueError(f"margin_scale must be positive, got {self.margin_scale!r}")
        if self.critic_warmup < 0:
            raise ValueError(f"critic_warmup must be >= 0, got {self.critic_warmup!r}")
        if not self.teacher_coef >= 0:
            raise ValueError(f"teacher_coef must be >= 0, got {self.teacher_coef!r}")
        if (self.teacher is None) != (self.teacher_coef == 0):
            raise ValueError(f"a teacher needs a teacher_coef above 0 and a teacher_coef a teacher; got teacher="
                             f"{self.teacher!r}, teacher_coef={self.teacher_coef!r}")
        for name in ("snapshot_share", "baseline_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if self.snapshot_share + self.baseline_share > 1.0:
            raise ValueError(f"snapshot_share + baseline_share must be at most 1, got "
                             f"{self.snapshot_share!r} + {self.baseline_share!r}")
        if self.features is not None:
            from dixenv.agents.features import check_features

            check_features(self.game, self.features)
        if self.baseline_share > 0 and not self.baseline:
            raise ValueError(f"baseline_share={self.baseline_share!r} needs a baseline agent (e.g. baseline='heuristic')")


#: What a game pays each seat: its ``win_rewards`` result at the end (``win``); its final lead over the
#: best rival (``dixenv.core.rewards.margins``) divided by ``margin_scale`` at the end (``margin``; keeps
#: the win's sign); or that lead paid as it changes (``margin_dense``): each decision earns the change
#: of its seat's lead until the seat's next decision, so a seat's rewards sum to its final lead less
#: its lead at its first decision (as the env's ``reward="margin"`` pays them), and a round's points
#: reach the decisions of that round. Games scored over many rounds (dix_de_suite: about seven to
#: 500 points) give the end-only rewards almost no signal per decision. ``points`` pays the seat's own
#: score the same way (the env's ``reward="points"``): in le_dix a made bid pays its seat whatever the
#: rivals score.
REWARDS = ("win", "margin", "margin_dense", "points")
DENSE = ("margin_dense", "points")  # the rewards paid as the scores move


BASELINE = -3  # Table.owner's code for the baseline agent's seats


class Table:
    """N games of one compiled batch, each seat owned by the learner or a frozen player; outcomes per seat."""

    def __init__(self, game: str, options: dict[str, Any], n: int, seed: int):
        from dixenv.compiled.rng import seed_rows
        from dixenv.compiled.vector import _batch_class

        spec = game_spec(game)
        record = spec.game_record()
        game_options = {k: v for k, v in options.items() if k not in ENV_OPTIONS}
        self.config = record.make_config(**game_options)
        probe = record.new_state(self.config, np.random.default_rng(0), {}, None)
        self.teams = probe.teams()
        self.seats = list(record.agent_seats(self.config))  # seats agents play (solo dix: seat 0)
        self.num_players = self.config.num_players
        self.batch = _batch_class(spec.name)(self.config, n)
        self.n = n
        self.rng = np.random.default_rng(seed)
        self.batch.new_games(np.arange(n), seed_rows(range(seed, seed + n)))
        self.batch.play_forced()
        self.obs_size, self.num_actions = self.batch.obs_size, self.batch.num_actions
        #: owner[g, seat]: 0 the learner, k > 0 the pool's player k - 1, -1 random, -3 the baseline
        #: agent (no agent: -2).
        self.owner = np.full((n, self.num_players), -2, dtype=np.int64)

    def deal_owners(self, slots: np.ndarray, snapshot_share: float, pool_size: int, baseline_share: float = 0.0) -> None:
        """Give each agent seat of ``slots`` to the learner, a frozen player or the baseline; at least one
        learner seat per game."""
        k = len(self.seats)
        for g in slots.tolist():
            u = self.rng.random(k)
            frozen = (u >= baseline_share) & (u < baseline_share + snapshot_share)
            base = u < baseline_share
            keep = self.rng.integers(k)
            frozen[keep] = base[keep] = False
            picks = self.rng.integers(pool_size, size=k) + 1 if pool_size else np.full(k, -1)
            self.owner[g, self.seats] = np.where(base, BASELINE, np.where(frozen, picks, 0))

    def results(self, slots: np.ndarray) -> np.ndarray:
        """(len(slots), num_players) game results (``win_rewards``) of games that ended."""
        from dixenv.compiled.vector import game_results

        return np.array(game_results(self.batch, slots, self.teams), dtype=np.float64).reshape(len(slots), self.num_players)

    def scores(self, slots: np.ndarray) -> np.ndarray:
        """(len(slots), num_players) the games' scores now."""
        return np.asarray(self.batch.scores(), dtype=np.float64).reshape(self.n, self.num_players)[slots]

    def margins(self, slots: np.ndarray) -> np.ndarray:
        """(len(slots), num_players) the games' leads now (``dixenv.core.rewards.margins`` of their scores).

        The rule is ``margins``'; this is it over rows of the batch's scores at once, because the
        ``margin_dense`` reward asks for every game's leads after each decision round."""
        scores = self.scores(slots)
        out = np.zeros_like(scores)
        teams = np.asarray(self.teams if self.teams is not None else range(self.num_players))
        for s in range(self.num_players):
            rivals = teams != teams[s]
            if rivals.any():
                out[:, s] = scores[:, s] - scores[:, rivals].max(axis=1)
        return out

    def redeal(self, slots: np.ndarray) -> None:
        """A new game in each of ``slots`` (each slot's generator deals on)."""
        self.batch.new_games(slots)
        self.batch.play_forced(slots)


def _mlp(sizes: Sequence[int], torch: Any) -> Any:
    layers: list[Any] = []
    for a, b in zip(sizes[:-2], sizes[1:-1]):
        layers += [torch.nn.Linear(a, b), torch.nn.Tanh()]
    layers.append(torch.nn.Linear(sizes[-2], sizes[-1]))
    return torch.nn.Sequential(*layers)


class ActorCritic:
    """Separate actor and critic MLPs (tanh), as SB3's default ``MlpPolicy``; the actor exports to numpy."""

    def __init__(self, obs_size: int, num_actions: int, net_arch: Sequence[int], lr: float, seed: int):
        import torch

        self.torch = torch
        torch.manual_seed(seed)
        self.actor = _mlp([obs_size, *net_arch, num_actions], torch)
        self.critic = _mlp([obs_size, *net_arch, 1], torch)
        # The action head starts near uniform, the value head near zero (CleanRL's orthogonal init scales).
        with torch.no_grad():
            self.actor[-1].weight.mul_(0.01)
            self.critic[-1].weight.mul_(1.0)
        self.params = list(self.actor.parameters()) + list(self.critic.parameters())
        self.optimizer = torch.optim.Adam(self.params, lr=lr, eps=1e-5)

    def act(self, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sampled actions, their log-probabilities and the values, for a batch of rows."""
        torch = self.torch
        with torch.no_grad():
            x = torch.from_numpy(obs)
            logits = self.actor(x).numpy()
            values = self.critic(x).numpy()[:, 0]
        logits = np.where(masks.astype(bool), logits, -np.inf)
        z = logits - logits.max(axis=1, keepdims=True)
        logp_all = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        actions = (logits + rng.gumbel(size=logits.shape)).argmax(axis=1)  # a sample of the softmax
        return actions, logp_all[np.arange(len(actions)), actions], values

    def values(self, obs: np.ndarray) -> np.ndarray:
        with self.torch.no_grad():
            return self.critic(self.torch.from_numpy(obs)).numpy()[:, 0]

    def numpy_weights(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The actor's layers as (W (out, in), b) arrays: ``dixenv.agents.policy.Policy``'s format."""
        return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
                for m in self.actor if isinstance(m, self.torch.nn.Linear)]


class Rollout:
    """The learner's transitions of one rollout, chained per (game, seat) for GAE."""

    def __init__(self, capacity: int, obs_size: int, num_actions: int):
        self.obs = np.zeros((capacity, obs_size), dtype=np.float32)
        self.masks = np.zeros((capacity, num_actions), dtype=bool)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.logp = np.zeros(capacity, dtype=np.float32)
        self.values = np.zeros(capacity, dtype=np.float32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.done = np.zeros(capacity, dtype=bool)
        self.next = np.full(capacity, -1, dtype=np.int64)  # the same seat's next decision in this rollout
        self.boot = np.zeros(capacity, dtype=np.float32)  # the value after the last decision of an open stream
        self.size = 0

    def add(self, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray, logp: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Store a batch of decisions; return their indices."""
        k = len(actions)
        idx = np.arange(self.size, self.size + k)
        self.obs[idx], self.masks[idx], self.actions[idx], self.logp[idx], self.values[idx] = obs, masks, actions, logp, values
        self.size += k
        return idx

    def advantages(self, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
        """GAE over each seat's chain of decisions (``next`` always points later, so one backward pass)."""
        m = self.size
        adv = np.zeros(m, dtype=np.float32)
        for i in range(m - 1, -1, -1):
            j = self.next[i]
            if self.done[i]:
                adv[i] = self.rewards[i] - self.values[i]
            elif j >= 0:
                adv[i] = self.rewards[i] + gamma * self.values[j] - self.values[i] + gamma * lam * adv[j]
            else:
                adv[i] = self.rewards[i] + gamma * self.boot[i] - self.values[i]
        return adv, adv + self.values[:m]


class SelfPlay:
    """The training loop: rollouts from the compiled table, PPO updates, a pool of frozen snapshots."""

    def __init__(self, cfg: SelfPlayConfig, seed: int = 0):
        import torch

        torch.set_num_threads(cfg.torch_threads)
        self.cfg, self.seed = cfg, seed
        self.table = Table(cfg.game, cfg.options, cfg.num_games, seed)
        self.featurizer = None
        self.input_size = self.table.obs_size  # what the networks read: the observation, then any features
        if cfg.features:
            from dixenv.agents.features import Featurizer

            self.featurizer = Featurizer(game_spec(cfg.game).env_module_().raw_env(**cfg.options), cfg.features)
            self.input_size += self.featurizer.size
        self.net = ActorCritic(self.input_size, self.table.num_actions, cfg.net_arch, cfg.learning_rate, seed)
        self.rng = np.random.default_rng(seed + 1)
        self.pool: list[Any] = []  # dixenv.agents.policy.Policy snapshots
        self.baseline = None
        if cfg.baseline:
            from dixenv.agents.registry import make_agent

            env = game_spec(cfg.game).env_module_().raw_env(**cfg.options)
            self.baseline = make_agent(cfg.game, cfg.baseline, env, seed=seed + 2)
        if cfg.init:
            self.load_actor(cfg.init)
        # Kickstarting (Schmitt et al., 2018) and AlphaStar's KL to its supervised policy: the loss adds
        # teacher_coef * KL(teacher || actor) on the learner's own decisions, so PPO improves on a teacher
        # (e.g. a clone of a search's visit shares) while it stays near its move distribution, instead of
        # starting from the teacher and drifting from it. The teacher may have another network size.
        self.teacher = self._load_saved(cfg.teacher, "take as teacher") if cfg.teacher else None
        self._losses = self._loss_terms
        if cfg.compile:
            # torch.compile (TorchInductor: C++ kernels, built by the machine's compiler) fuses the
            # loss's small element-wise ops and their gradients, which weigh most in eager torch's
            # time for small networks and minibatches: the trainer ran 1.1-1.4x faster at
            # MaskablePPO's settings (experiments/bench.py --train --train-compile). It costs seconds
            # of compilation at the start (about 30 s without torch's cache; again for a new
            # minibatch size) and needs a C++ compiler, hence an option.
            import torch

            self._losses = torch.compile(self._loss_terms)
        self.table.deal_owners(np.arange(cfg.num_games), 0.0, 0, cfg.baseline_share)
        self.reset_counters()
        self.results: list[float] = []  # the learner's results in finished games against snapshots or the baseline

    def reset_counters(self) -> None:
        """Zero what ``train`` counts and reports: steps, updates, games, env and learn seconds.

        The bench calls it after an untimed first update (the ``--compile`` warm-up).
        """
        self.steps = self.updates = self.games = 0
        self.env_seconds = self.learn_seconds = 0.0

    def _load_saved(self, path: str | Path, role: str) -> Any:
        """A saved dixenv policy made for this table (``ValueError`` naming what differs)."""
        from dixenv.agents.policy import Policy

        saved = Policy.load(path)
        want = self.policy().metadata
        for key in ("game", "layout", "obs_size", "num_actions", "features"):
            if saved.metadata.get(key) != want.get(key):
                raise ValueError(f"cannot {role} {path}: its {key} is {saved.metadata.get(key)!r}, this table's "
                                 f"{want.get(key)!r} (it was trained on {saved.metadata.get('env_id')} with options "
                                 f"{saved.metadata.get('options')})")
        if self.featurizer is not None:
            self.featurizer.check_policy(saved.metadata, f"cannot {role} {path}: the policy")
        if saved.metadata.get("hint"):
            raise ValueError(f"cannot {role} {path}: it takes the hint {saved.metadata['hint']!r} as an input; "
                             "this trainer's policies play from the observation alone")
        return saved

    def load_actor(self, path: str | Path) -> None:
        """Start the actor from a saved dixenv policy (``ValueError`` unless it was made for this table and net)."""
        saved = self._load_saved(path, "start from")
        layers = [m for m in self.net.actor if isinstance(m, self.net.torch.nn.Linear)]
        shapes = [tuple(m.weight.shape) for m in layers]
        if saved.activation != "tanh" or [w.shape for w, _ in saved.weights] != shapes:
            raise ValueError(f"cannot start from {path}: its network is {saved.activation} "
                             f"{[w.shape[0] for w, _ in saved.weights][:-1]}, this trainer's tanh {list(self.cfg.net_arch)}")
        with self.net.torch.no_grad():
            for m, (w, b) in zip(layers, saved.weights):
                m.weight.copy_(self.net.torch.from_numpy(np.asarray(w, dtype=np.float32)))
                m.bias.copy_(self.net.torch.from_numpy(np.asarray(b, dtype=np.float32)))

    # -- rollouts ----------------------------------------------------------------------------------
    def collect(self) -> Rollout:
        """``cfg.rollout`` decision rounds in every slot; the learner's decisions in a ``Rollout``."""
        cfg, table, batch = self.cfg, self.table, self.table.batch
        n, p = table.n, table.num_players
        buf = Rollout(n * cfg.rollout, self.input_size, table.num_actions)
        last = np.full((n, p), -1, dtype=np.int64)  # each (game, seat)'s latest open transition
        obs = np.empty((n, table.obs_size), dtype=np.float32)
        masks = np.empty((n, table.num_actions), dtype=np.int8)
        dense = cfg.reward in DENSE
        standing = table.scores if cfg.reward == "points" else table.margins  # what a dense reward pays the change of
        lead = standing(np.arange(n)) / cfg.margin_scale if dense else None
        for _ in range(cfg.rollout):
            t0 = time.perf_counter()
            current = batch.current_players()
            batch.observe(-1, out=obs)
            batch.masks(out=masks)
            owner = table.owner[np.arange(n), np.maximum(current, 0)]
            actions = np.full(n, -1, dtype=np.int64)
            self.env_seconds += time.perf_counter() - t0
            x = obs  # the networks' inputs
            if self.featurizer is not None:  # features only for the rows a network reads (a baseline reads obs)
                x = np.zeros((n, self.input_size), dtype=np.float32)
                read = np.flatnonzero((current >= 0) & (owner != BASELINE))
                if read.size:
                    x[read] = self.featurizer.extend_batch(obs[read])
            mine = np.flatnonzero((current >= 0) & (owner == 0))
            if mine.size:
                a, logp, v = self.net.act(x[mine], masks[mine], self.rng)
                actions[mine] = a
                idx = buf.add(x[mine], masks[mine].astype(bool), a, logp, v)
                prev = last[mine, current[mine]]
                buf.next[prev[prev >= 0]] = idx[prev >= 0]
                last[mine, current[mine]] = idx
            for k in np.unique(owner[(current >= 0) & (owner != 0)]).tolist():
                rows = np.flatnonzero((current >= 0) & (owner == k))
                if k == BASELINE:  # one Python call per row: what a baseline agent costs
                    actions[rows] = [self.baseline.act({"observation": obs[r], "action_mask": masks[r]}) for r in rows]
                elif k > 0 and k <= len(self.pool):
                    actions[rows] = self.pool[k - 1].choose(x[rows], masks[rows], self.rng)
                else:  # random until the pool has that player
                    noise = self.rng.random((rows.size, table.num_actions))
                    actions[rows] = np.where(masks[rows] > 0, noise, -1.0).argmax(axis=1)
            t0 = time.perf_counter()
            batch.apply(actions)
            batch.play_forced()
            over = batch.terminal()
            cut = batch.truncated() & ~over if hasattr(batch, "truncated") else np.zeros(n, dtype=bool)
            ended = np.flatnonzero(over | cut)
            if dense:  # each open decision earns the change of its seat's lead or score (a change before it, none)
                now = standing(np.arange(n)) / cfg.margin_scale
                g, s = np.nonzero((last >= 0) & (now != lead))
                buf.rewards[last[g, s]] += (now - lead)[g, s]
                lead = now
            if ended.size:
                # a game cut short (dix_de_suite's turn limit) has no result: its last decisions get 0
                # (under the dense rewards they keep what the scores paid them on the way)
                paid = table.results(ended) if cfg.reward == "win" else table.margins(ended) / cfg.margin_scale
                results = np.where(cut[ended, None], 0.0, paid)
                for j, g in enumerate(ended.tolist()):
                    for s in range(p):
                        i = last[g, s]
                        if i >= 0:
                            buf.rewards[i] += 0.0 if dense else results[j, s]
                            buf.done[i] = True
                            last[g, s] = -1
                    learner = table.owner[g] == 0
                    if not learner.all():
                        self.results.append(float(results[j][learner].mean()))
                self.games += ended.size
                table.redeal(ended)
                table.deal_owners(ended, cfg.snapshot_share if self.pool else 0.0, len(self.pool), cfg.baseline_share)
                if dense:
                    lead[ended] = standing(ended) / cfg.margin_scale
            self.env_seconds += time.perf_counter() - t0
        # open chains: bootstrap from the critic's value of the seat's own observation now
        for s in range(p):
            open_ = np.flatnonzero(last[:, s] >= 0)
            if open_.size:
                seen = batch.observe(np.full(n, s, dtype=np.int64))[open_]
                if self.featurizer is not None:
                    seen = self.featurizer.extend_batch(seen)
                buf.boot[last[open_, s]] = self.net.values(seen)
        self.steps += buf.size
        return buf

    # -- updates -----------------------------------------------------------------------------------
    def _loss_terms(self, x: Any, legal: Any, actions: Any, old_logp: Any, a: Any, ret: Any,
                    teacher_p: Any = None, teacher_logp: Any = None) -> tuple[Any, Any, Any, Any]:
        """A minibatch's clipped policy loss, value loss, entropy (CleanRL's PPO) and KL(teacher || actor)
        (0 without a teacher; ``teacher_p`` is 0 and ``teacher_logp`` 0 on illegal moves)."""
        net, clip = self.net, self.cfg.clip
        logp_all, probs = masked_log_softmax(net.actor(x), legal)
        logp = logp_all.gather(1, actions[:, None])[:, 0]
        entropy = -(probs * logp_all).sum(dim=1).mean()
        kl = (teacher_p * (teacher_logp - logp_all)).sum(dim=1).mean() if teacher_p is not None else x.new_zeros(())
        if len(a) > 1:  # a last minibatch of one row has no spread (SB3 skips it the same way)
            a = (a - a.mean()) / (a.std() + 1e-8)
        ratio = (logp - old_logp).exp()
        pg = net.torch.max(-a * ratio, -a * ratio.clamp(1 - clip, 1 + clip)).mean()
        v_loss = 0.5 * ((net.critic(x)[:, 0] - ret) ** 2).mean()
        return pg, v_loss, entropy, kl

    def teacher_targets(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The teacher's (probabilities, log-probabilities) over the legal moves of these rows; both 0 off the mask
        (the losses' ``masked_log_softmax``, its meaningless log-probabilities of illegal moves zeroed)."""
        legal = self.net.torch.from_numpy(masks.astype(np.float32))
        logp, probs = masked_log_softmax(self.net.torch.from_numpy(self.teacher.logits(obs)), legal)
        return probs.numpy(), (logp * legal).numpy()

    def update(self, buf: Rollout) -> dict[str, float]:
        """CleanRL's PPO update over the rollout; returns the last minibatch's losses."""
        torch, cfg, net = self.net.torch, self.cfg, self.net
        t0 = time.perf_counter()
        adv, returns = buf.advantages(cfg.gamma, cfg.gae_lambda)
        m = buf.size
        obs = torch.from_numpy(buf.obs[:m])
        legal = torch.from_numpy(buf.masks[:m].astype(np.float32))
        actions = torch.from_numpy(buf.actions[:m])
        old_logp = torch.from_numpy(buf.logp[:m])
        adv_t, ret_t = torch.from_numpy(adv), torch.from_numpy(returns.astype(np.float32))
        t_p = t_logp = None
        if self.teacher is not None:
            t_p, t_logp = (torch.from_numpy(t) for t in self.teacher_targets(buf.obs[:m], buf.masks[:m]))
        stats: dict[str, float] = {}
        for _ in range(cfg.epochs):
            order = self.rng.permutation(m)
            for start in range(0, m, cfg.minibatch):
                mb = torch.from_numpy(order[start : start + cfg.minibatch])
                teach = (t_p[mb], t_logp[mb]) if t_p is not None else (None, None)
                pg, v_loss, entropy, kl = self._losses(obs[mb], legal[mb], actions[mb], old_logp[mb], adv_t[mb],
                                                       ret_t[mb], *teach)
                loss = cfg.vf_coef * v_loss
                if self.updates >= cfg.critic_warmup:  # the critic learns the loaded actor's values first
                    loss = loss + pg - cfg.ent_coef * entropy + cfg.teacher_coef * kl
                net.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.params, cfg.max_grad_norm)
                net.optimizer.step()
                stats = {"policy_loss": pg.item(), "value_loss": v_loss.item(), "entropy": entropy.item()}
                if t_p is not None:
                    stats["teacher_kl"] = kl.item()
        self.updates += 1
        if cfg.snapshot_share > 0 and self.updates % cfg.snapshot_every == 0:
            self.pool.append(self.policy())
            self.pool = self.pool[-cfg.pool_size :]
        self.learn_seconds += time.perf_counter() - t0
        return stats

    def policy(self, training: dict[str, Any] | None = None) -> Any:
        """The actor as a ``dixenv.agents.policy.Policy`` (metadata for this game and options)."""
        from dixenv.agents.policy import Policy, policy_metadata

        spec = game_spec(self.cfg.game)
        env_id = spec.versus_id or next(iter(spec.gymnasium_ids), spec.aec_id)
        options = dict(self.cfg.options)
        if options.get("solo"):  # the metadata names the env and the options it takes, as experiments.train's
            env_id = "dixenv/DixSolo-v0"
            del options["solo"]
        env = spec.env_module_().raw_env(**self.cfg.options)
        meta = policy_metadata(env_id, options, env, features=self.cfg.features,
                               **(training or {"trainer": "experiments.selfplay"}))
        return Policy(self.net.numpy_weights(), "tanh", meta)

    def evaluate(self, opponents: Sequence[str], games: int, seed: int, workers: int = 1, folder: Path | None = None) -> dict[str, Any]:
        """The current actor against ``opponents`` (one spec per other seat) in the tournament code:
        seats rotated on replayed deals, ``games`` games on deals seeded from ``seed``."""
        import tempfile

        from dixenv.experiments.tournament import run_tournament

        with tempfile.TemporaryDirectory() as tmp:
            path = (folder or Path(tmp)) / "eval"
            self.policy().save(path)
            results = run_tournament(self.cfg.game, [f"policy:{path}", *opponents], games, options=dict(self.cfg.options),
                                     workers=workers, seed=seed)
            mine = next(iter(results.summary().values()))
        return {"steps": self.steps, "games": mine["games"], "win_share": mine["win_share"], "win_ci95": mine["win_ci95"],
                "mean_score": mine["mean_score"]}

    def train(self, progress: bool = True, log: Any = print, eval_every: int = 0, eval_games: int = 200,
              eval_opponents: Sequence[str] = (), eval_seed: int = 10**6, workers: int = 1,
              checkpoints: Path | None = None) -> dict[str, Any]:
        """Rollouts and updates until ``total_steps`` learner decisions; the run's figures.

        ``eval_every`` > 0: every that many steps, ``evaluate`` against ``eval_opponents`` (the
        learning curve, in the summary's ``curve``; its time is not in ``steps_per_second``), and,
        given ``checkpoints`` (a folder), the policy evaluated is kept there as ``step_<steps>``.
        """
        from dixenv.experiments.progress import progress_bar

        bar = progress_bar(self.cfg.total_steps, progress, unit="step", desc=f"selfplay {self.cfg.game}")
        start = time.perf_counter()
        stats: dict[str, float] = {}
        curve: list[dict[str, Any]] = []
        eval_seconds = 0.0
        next_eval = eval_every
        while self.steps < self.cfg.total_steps:
            before = self.steps
            buf = self.collect()
            if before == 0 and buf.size < self.cfg.minibatch:
                log(f"note: a rollout gave {buf.size:,} learner decisions, fewer than a minibatch "
                    f"({self.cfg.minibatch:,}): one gradient step an epoch (a smaller minibatch takes more)")
            stats = self.update(buf)
            bar.update(self.steps - before)
            recent = self.results[-500:]
            bar.set_postfix(games=self.games, vs_pool=f"{np.mean(recent):+.3f}" if recent else "-")
            if eval_every and self.steps >= next_eval:
                t0 = time.perf_counter()
                curve.append(self.evaluate(eval_opponents, eval_games, eval_seed, workers))
                if checkpoints is not None:
                    self.policy({"trainer": "experiments.selfplay", "steps": self.steps}).save(checkpoints / f"step_{self.steps}")
                eval_seconds += time.perf_counter() - t0
                log(f"step {self.steps:,}: win share {curve[-1]['win_share']:.3f} "
                    f"[{curve[-1]['win_ci95'][0]:.3f}, {curve[-1]['win_ci95'][1]:.3f}] over {curve[-1]['games']} games")
                next_eval += eval_every
        bar.close()
        seconds = time.perf_counter() - start - eval_seconds
        return {"steps": self.steps, "games": self.games, "updates": self.updates, "seconds": seconds,
                "steps_per_second": self.steps / seconds, "env_seconds": self.env_seconds,
                "learn_seconds": self.learn_seconds, "eval_seconds": eval_seconds, "curve": curve, "last_losses": stats}


def main(argv: Sequence[str] | None = None) -> int:
    """Train by self-play on the compiled engine and save the policy."""
    p = argparse.ArgumentParser(prog="python -m experiments.selfplay", description=__doc__.splitlines()[0])
    p.add_argument("--game", required=True)
    p.add_argument("--option", action="append", default=[], help="a game option, key=value (repeatable)")
    p.add_argument("--games", type=int, default=256, help="game slots played at once (default 256)")
    p.add_argument("--rollout", type=int, default=32, help="decision rounds per rollout (default 32)")
    p.add_argument("--steps", type=int, default=1_000_000, help="learner decisions to train on")
    p.add_argument("--net", type=int, nargs="+", default=[256, 256], help="hidden layer sizes (default 256 256)")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--clip", type=float, default=0.2, help="PPO's clip range (default 0.2)")
    p.add_argument("--minibatch", type=int, default=4096, help="rows per gradient step (default 4096)")
    p.add_argument("--epochs", type=int, default=4, help="passes over each rollout (default 4)")
    p.add_argument("--gamma", type=float, default=1.0, help="discount per decision (default 1: one reward, at the end)")
    p.add_argument("--reward", choices=REWARDS, default="win",
                   help="win (the ranking's result), margin (final lead / --margin-scale, at the end), "
                        "margin_dense (the same lead, paid as the scores move) or points (the seat's own score / "
                        "--margin-scale, paid as it moves)")
    p.add_argument("--margin-scale", type=float, default=10.0,
                   help="points per unit of the margin, margin_dense and points rewards (default 10)")
    p.add_argument("--init", default=None, help="a saved policy (PATH of PATH.npz/.json) to start the actor from")
    p.add_argument("--features", default=None,
                   help="a feature set appended to the observations (dixenv.agents.features; le_dix: cards, cards_bid; dix_de_suite: rack)")
    p.add_argument("--teacher", default=None,
                   help="a saved policy (PATH) whose move distribution the actor is pulled toward (needs --teacher-coef)")
    p.add_argument("--teacher-coef", type=float, default=0.0,
                   help="weight of KL(teacher || actor) in the loss (default 0: no teacher)")
    p.add_argument("--critic-warmup", type=int, default=0, help="first updates that train only the critic (default 0)")
    p.add_argument("--snapshot-share", type=float, default=0.0, help="share of seats played by frozen snapshots")
    p.add_argument("--baseline", default=None, help="an agent that may take seats, e.g. heuristic (acts in Python)")
    p.add_argument("--baseline-share", type=float, default=0.0, help="share of seats the baseline plays")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-every", type=int, default=0, help="evaluate every this many steps (0: only at the end)")
    p.add_argument("--eval-games", type=int, default=200, help="games per evaluation during training (default 200)")
    p.add_argument("--final-games", type=int, default=1000, help="games of the final evaluation (0: none; default 1000)")
    p.add_argument("--eval-opponents", nargs="*", default=None,
                   help="one agent spec per other seat (default: the game's heuristic at every other seat)")
    p.add_argument("--eval-seed", type=int, default=10**6, help="deal seed of the evaluations (training never deals from it)")
    p.add_argument("--workers", type=int, default=1, help="processes for the evaluations")
    p.add_argument("--out", type=Path, required=True, help="folder for final.npz/final.json and summary.json")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--compile", action="store_true",
                   help="torch.compile the loss: faster updates after seconds of compilation (needs a C++ compiler)")
    args = p.parse_args(argv)
    from dixenv.agents.registry import parse_key_values

    cfg = SelfPlayConfig(game=game_spec(args.game).name, options=parse_key_values(args.option), num_games=args.games,
                         rollout=args.rollout, total_steps=args.steps, net_arch=tuple(args.net), learning_rate=args.lr,
                         ent_coef=args.ent_coef, clip=args.clip, snapshot_share=args.snapshot_share, minibatch=args.minibatch,
                         baseline=args.baseline, baseline_share=args.baseline_share,
                         epochs=args.epochs, gamma=args.gamma, reward=args.reward, margin_scale=args.margin_scale,
                         init=args.init, critic_warmup=args.critic_warmup, features=args.features, compile=args.compile,
                         teacher=args.teacher, teacher_coef=args.teacher_coef)
    run = SelfPlay(cfg, seed=args.seed)
    others = len(run.table.seats) - 1
    opponents = args.eval_opponents if args.eval_opponents is not None else ["heuristic"] * others
    summary = run.train(progress=not args.no_progress, eval_every=args.eval_every, eval_games=args.eval_games,
                        eval_opponents=opponents, eval_seed=args.eval_seed, workers=args.workers,
                        checkpoints=args.out / "checkpoints")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.final_games:
        summary["final"] = run.evaluate(opponents, args.final_games, args.eval_seed + 1, args.workers, folder=args.out)
        summary["final"]["opponents"] = list(opponents)
    run.policy({"trainer": "experiments.selfplay", "config": {**asdict(cfg), "net_arch": list(cfg.net_arch)},
                "seed": args.seed, "steps": run.steps}).save(args.out / "final")
    summary["command"] = "python -m experiments.selfplay " + " ".join(sys.argv[1:] if argv is None else argv)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "last_losses"}, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
