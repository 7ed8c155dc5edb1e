"""Per-game training presets for ``experiments.train`` (the reasons are in docs/results/training.md).

A preset names the single-agent environment and its options, the opponents, the PPO
hyper-parameters and network, the warm start, the self-play settings, and how the result is
evaluated. ``python -m experiments.train --preset NAME`` uses one; every field can be overridden
on the command line.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Preset:
    """Everything a training run needs to know besides the seed and the output folder."""

    env_id: str
    options: dict[str, Any]  # the env's options, opponents excluded (reward="win" is what is measured)
    game: str
    opponents: tuple[str, ...] = ()  # one baseline per opponent seat; "name=weight" entries are mixed per episode
    timesteps: int = 1_000_000
    n_envs: int = 32
    ppo: dict[str, Any] = field(default_factory=dict)
    net_arch: tuple[int, ...] = (256, 256)
    train_reward: str = "win"  # "win" (the measured result) or "points" (shaping: game points as scored)
    hint: str | None = None  # advisor whose move the policy gets among its inputs (dixenv.agents.hints), or None
    features: str | None = None  # feature set appended to the observations (dixenv.agents.features), or None
    warm_start: str | None = "heuristic"  # behaviour cloning of this agent before PPO (None: from scratch)
    warm_start_games: int = 2000
    warm_start_epochs: int = 15
    warm_start_smoothing: float = 0.0  # label smoothing over the legal moves while cloning (keeps PPO exploring)
    warm_start_targets: str = "move"  # clone the warm-start agent's move, or (ismcts) its share of root visits: "visits"
    dagger_rounds: int = 0  # DAgger rounds after the cloning: the clone plays, the warm-start agent labels
    dagger_games: int = 1000  # games per DAgger round
    dagger_epochs: int = 5  # epochs over all the demonstrations so far, after each round
    self_play: float = 0.0  # share of opponent seats taken from the learner's snapshots
    snapshot_every: int = 10  # PPO updates between snapshots added to the pool
    pool_size: int = 20
    eval_every: int = 250_000  # learner steps between evaluations during training
    eval_games: int = 200
    final_games: int = 1000
    eval_opponents: tuple[str, ...] = ()  # the table the candidate joins for evaluation (empty: solo)
    eval_options: dict[str, Any] = field(default_factory=dict)  # the tournament's options (the AEC game's)
    #: "sb3": sb3-contrib's MaskablePPO against the opponents; "selfplay": after the warm start,
    #: ``experiments.selfplay`` (PPO on the compiled engine, every agent seat the learner's or a snapshot's)
    trainer: str = "sb3"
    selfplay: dict[str, Any] = field(default_factory=dict)  # SelfPlayConfig settings for trainer="selfplay"

    def __post_init__(self) -> None:
        if self.trainer not in TRAINERS:
            raise ValueError(f"unknown trainer {self.trainer!r}; trainers: {list(TRAINERS)}")
        if self.hint and self.features:
            raise ValueError(f"a preset takes a hint ({self.hint!r}) or features ({self.features!r}), not both")
        if self.warm_start:
            from dixenv.experiments.imitation import check_targets

            check_targets(self.warm_start_targets, self.warm_start)
        if self.trainer == "selfplay":
            if self.hint:
                raise ValueError(f"the selfplay trainer's policies play from the observation alone: no hint ({self.hint!r})")
            if self.train_reward not in ("win", "margin"):
                raise ValueError(f"the selfplay trainer pays 'win' or 'margin', not {self.train_reward!r}")

    def with_(self, **changes: Any) -> "Preset":
        return replace(self, **changes)


TRAINERS = ("sb3", "selfplay")

_PPO = {"n_steps": 256, "batch_size": 1024, "n_epochs": 4, "learning_rate": 1e-4, "gamma": 0.995, "gae_lambda": 0.95,
        "clip_range": 0.1, "ent_coef": 0.001}

_DDS_GAME_HEURISTIC = "heuristic:secure=1,prefix_weight=0.3"

PRESETS: dict[str, Preset] = {
    # The README's main command: a few minutes on 2 cores. dix at 2 players against the heuristic,
    # where a short PPO run after the clone already beats the heuristic with separated intervals
    # (docs/results/training.md#the-quick-start-command); solo dix at difficulty 4, the earlier
    # quick preset, ended level with the heuristic there (0.908 against 0.900).
    "quick": Preset(
        env_id="dixenv/Dix-v0", options={"num_players": 2}, game="dix", opponents=("heuristic",), timesteps=250_000,
        n_envs=16, ppo={**_PPO, "batch_size": 512}, warm_start_games=600, warm_start_epochs=10, eval_every=125_000,
        eval_games=200, final_games=500, eval_opponents=("heuristic",), eval_options={"num_players": 2},
    ),
    # The score difference to ALIX as reward (margin): with the win reward the policy scored more
    # points without winning measurably more often (docs/results/training.md).
    "dix_solo": Preset(
        env_id="dixenv/DixSolo-v0", options={"difficulty": 6}, game="dix", timesteps=4_000_000, n_envs=32,
        ppo=_PPO, train_reward="margin", warm_start_games=3000, warm_start_epochs=20, eval_options={"solo": True, "difficulty": 6},
    ),
    "le_dix": Preset(
        env_id="dixenv/LeDix-v0", options={"num_players": 4}, game="le_dix", opponents=("heuristic",),
        timesteps=1_000_000, n_envs=32, ppo=_PPO, train_reward="points", hint="heuristic", warm_start_games=2000,
        warm_start_epochs=10, warm_start_smoothing=0.1, eval_opponents=("heuristic",), eval_options={"num_players": 4},
    ),
    # The heuristic that plays for the game (secure=1, prefix_weight=0.3; agents/dix_de_suite_heuristic.py)
    # is both the hint and the cloned expert: with the race heuristic's hint, PPO changed no move that
    # mattered and ended exactly as strong as its opponent (docs/results/training.md).
    "dix_de_suite": Preset(
        env_id="dixenv/DixDeSuite-v0", options={"num_players": 2}, game="dix_de_suite", opponents=("heuristic",),
        timesteps=600_000, n_envs=32, ppo=_PPO, train_reward="points", hint=_DDS_GAME_HEURISTIC,
        warm_start=_DDS_GAME_HEURISTIC, warm_start_games=1000, warm_start_epochs=10, warm_start_smoothing=0.1,
        eval_opponents=("heuristic",), eval_options={"num_players": 2},
    ),
    "dix": Preset(
        env_id="dixenv/Dix-v0", options={"num_players": 2}, game="dix", opponents=("heuristic",),
        timesteps=1_500_000, n_envs=32, ppo=_PPO, warm_start_games=2000, warm_start_epochs=15,
        eval_opponents=("heuristic",), eval_options={"num_players": 2},
    ),
}


def get_preset(name: str) -> Preset:
    """The preset called ``name`` (``ValueError`` listing the known ones)."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; presets: {sorted(PRESETS)}")
    return PRESETS[name]
