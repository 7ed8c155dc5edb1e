"""dixenv's games inside OpenSpiel: each one registered as an OpenSpiel Python game.

Importing this module (it needs the optional ``open-spiel`` package, in the ``dev`` extra)
registers three games with ``pyspiel.register_game``, as OpenSpiel's own
``open_spiel/python/games/*.py`` do::

    import pyspiel
    import dixenv.openspiel  # registers dixenv_le_dix, dixenv_dix_de_suite, dixenv_dix

    game = pyspiel.load_game("dixenv_le_dix", {"num_players": 4, "deals": "5", "hook": True})
    state = game.new_initial_state()
    state.legal_actions(), state.action_to_string(state.legal_actions()[0])

The state runs our rules engine (``dixenv/games/<game>/state.py``) unchanged:

* **Chance** is *sampled stochastic*: the engines deal and shuffle with their own generator (the
  first deal from a seed drawn from the game's generator, ``rng_seed``; later deals, rounds and
  reshuffles from the state's generator, which ``clone`` copies, so a clone has the same future),
  so OpenSpiel sees no chance nodes. Explicit chance nodes would need every shuffle of every
  engine (ten deals, reshuffled piles, new rounds) to become a chance action, a second set of
  rules beside the engines; ``ISMCTSBot``, MCTS and random simulation accept sampled chance.
  ``resample_from_infostate(player, sampler)`` draws a world with the engine's
  ``sample_hidden(player, rng)``, its generator seeded from the sampler's numbers.
* **Tensors**: ``observation_tensor`` and ``information_state_tensor`` are our observation of
  the seat (``dixenv/games/<game>/observation.py``, the same vector and layout as the
  environments, named views in the observer's ``dict``). dixenv observations carry the public
  history a player could remember, so one vector serves both; it summarises earlier deals or
  rounds (scores, the previous deal), so it is not perfect recall across them. The strings are
  the non-zero entries of that vector, piece by piece, so equal strings mean equal tensors.
* **Actions** are the environments' ids; ``action_to_string`` uses our vocabulary (``play TH``).
* **Returns** (parameter ``returns``): ``win`` (default) gives each seat ``win_rewards`` of
  ``dixenv.core.rewards`` at the end, in [-1, 1], zero-sum; ``points`` gives the final game points
  (general-sum). Both are paid at the end only (terminal reward model). A dix_de_suite game
  truncated by ``max_turns`` ends with 0 for everyone (nobody wins, as in the tournaments).
* Every decision is a move: forced moves (a single legal action) are not skipped, as OpenSpiel
  expects; solo dix plays ALIX (seat 1) inside the engine, so only seat 0 ever acts.

Game parameters are the game's options with OpenSpiel's scalar types: le_dix ``deals`` is a
string of hand sizes (``"10,9,8,7,6,5,4,3,2,1"``, or ``"5"``); ``rng_seed`` (-1: fresh entropy)
seeds the game's generator. Bad values raise ``ValueError`` naming the option.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pyspiel

from dixenv.core.game import Game, GameState
from dixenv.core.rewards import win_rewards

RETURNS = ("win", "points")


@dataclass(frozen=True)
class Export:
    """How one dixenv game is offered to OpenSpiel: its name, parameters and size bounds."""

    short_name: str
    long_name: str
    game: Callable[[], Game]  # imported lazily: registering a game costs nothing
    defaults: dict[str, Any]  # OpenSpiel parameters (scalars) and their defaults
    min_players: int
    max_players: int
    options: Callable[[dict[str, Any]], dict[str, Any]]  # OpenSpiel parameters -> make_config options
    max_points: Callable[[Any], float]  # the most game points one seat can end with
    max_length: Callable[[Any], int]  # the most moves a game can last


def _le_dix_game() -> Game:
    from dixenv.games.le_dix.game import GAME

    return GAME


def _dix_de_suite_game() -> Game:
    from dixenv.games.dix_de_suite.game import GAME

    return GAME


def _dix_game() -> Game:
    from dixenv.games.dix.game import GAME

    return GAME


def _le_dix_options(params: dict[str, Any]) -> dict[str, Any]:
    text = params["deals"]
    try:
        deals = tuple(int(part) for part in str(text).split(","))
    except ValueError:
        raise ValueError(f"parameter deals={text!r} must be hand sizes separated by commas, e.g. '10,9,8' or '5'") from None
    return {"num_players": params["num_players"], "deals": deals, "scoring": params["scoring"], "hook": params["hook"]}


def _le_dix_max_points(config: Any) -> float:
    from dixenv.games.le_dix.state import max_total_points

    return float(max_total_points(config))


def _le_dix_max_length(config: Any) -> int:
    n = config.num_players
    return sum(2 + n + n * h for h in config.deals)  # trump choice, discard, bids, plays


def _dix_de_suite_max_points(config: Any) -> float:
    from dixenv.games.dix_de_suite.scoring import max_round_points

    # Below the target before the last round, then at most one round's points (team: two seats').
    per_round = max_round_points(config.run_bonus) * (2 if config.teams else 1)
    return float(config.target_score - 1 + per_round)


def _dix_de_suite_max_length(config: Any) -> int:
    from dixenv.games.dix_de_suite.scoring import POINTS_PER_CARD

    rounds = -(-config.target_score // POINTS_PER_CARD)  # every seat gains at least 5 a round
    return rounds * config.max_turns * 2  # two decisions a turn


def _dix_options(params: dict[str, Any]) -> dict[str, Any]:
    options = {k: params[k] for k in ("num_players", "solo", "bust_buy", "auto_pay")}
    if params["solo"]:
        options["difficulty"] = params["difficulty"]
    elif params["difficulty"] != 0:
        raise ValueError(f"parameter difficulty={params['difficulty']} only applies with solo=True (0 otherwise)")
    return options


def _dix_max_points(config: Any) -> float:
    from dixenv.games.dix.cards import NUM_NUMBERS

    return float(4 * (NUM_NUMBERS + 1))  # a full 1–9 run in each colour


def _dix_max_length(config: Any) -> int:
    from dixenv.games.dix.actions import MAX_BID

    # Per card drawn: a draw decision, one bid per seat, a payment of at most MAX_BID items and a
    # buy; then a final buy round. A generous bound: OpenSpiel only checks that games stay under it.
    n, cards = config.num_players, sum(config.box)
    return cards * (2 + n + 2 * MAX_BID) + n * (2 + MAX_BID)


EXPORTS: dict[str, Export] = {
    "le_dix": Export(
        "dixenv_le_dix", "dixenv le_dix (trick-taking with exact bids)", _le_dix_game,
        {"num_players": 4, "deals": "10,9,8,7,6,5,4,3,2,1", "scoring": "exact10", "hook": False},
        3, 5, _le_dix_options, _le_dix_max_points, _le_dix_max_length,
    ),
    "dix_de_suite": Export(
        "dixenv_dix_de_suite", "dixenv dix_de_suite (Rack-O)", _dix_de_suite_game,
        {"num_players": 2, "target_score": 500, "max_turns": 1000, "reshuffle": False, "two_player_run": False,
         "teams": False, "run_bonus": False},
        2, 4, lambda p: dict(p), _dix_de_suite_max_points, _dix_de_suite_max_length,
    ),
    "dix": Export(
        "dixenv_dix", "dixenv dix (TEN)", _dix_game,
        {"num_players": 2, "solo": False, "difficulty": 0, "bust_buy": False, "auto_pay": False},
        2, 5, _dix_options, _dix_max_points, _dix_max_length,
    ),
}


def game_type(export: Export, returns: str = "win") -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of an exported game (``returns`` decides the utility)."""
    utility = pyspiel.GameType.Utility.ZERO_SUM if returns == "win" else pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=export.short_name,
        long_name=export.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=export.max_players,
        min_num_players=export.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**export.defaults, "returns": "win", "rng_seed": -1},
    )


class DixenvGame(pyspiel.Game):
    """One dixenv game as an OpenSpiel game (built by ``pyspiel.load_game``; see the module docstring)."""

    export: Export  # set by each registered subclass

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**self.export.defaults, "returns": "win", "rng_seed": -1, **(params or {})}
        returns = params.pop("returns")
        if returns not in RETURNS:
            raise ValueError(f"parameter returns={returns!r}; allowed: {', '.join(RETURNS)}")
        seed = params.pop("rng_seed")
        self.dixenv_game = self.export.game()
        #: The dixenv options of this game (what ``raw_env(**options)`` takes for the same rules).
        self.options = self.export.options(params)
        self.config = self.dixenv_game.make_config(**self.options)
        self.returns_mode = returns
        n = self.config.num_players
        if returns == "win":
            low, high, total = -1.0, 1.0, 0.0
        else:
            low, high, total = 0.0, self.export.max_points(self.config), None
        info = pyspiel.GameInfo(
            num_distinct_actions=self.dixenv_game.num_actions(self.config),
            max_chance_outcomes=0,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=self.export.max_length(self.config),
        )
        super().__init__(game_type(self.export, returns), info, {**params, "returns": returns, "rng_seed": seed})
        self.rng = np.random.default_rng(None if seed < 0 else seed)

    def new_initial_state(self) -> "DixenvState":
        """A new game; its deal is drawn when the state is first used (a clone's deal never is)."""
        return DixenvState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "DixenvObserver":
        """Our observation of one seat (for both the observation and the information state)."""
        return DixenvObserver(self, iig_obs_type, params)


class _Engine:
    """The engine state behind an OpenSpiel state, dealt on first use; OpenSpiel's clone copies it with ``clone()``.

    OpenSpiel clones a Python state by building a new initial state and then ``copy.deepcopy``-ing
    our attributes over it: dealing at construction would waste a deal and a draw of the game's
    generator at every clone. So the deal waits for the first use, and a copy deals the original
    first (a fresh state and its clone then share one deal).
    """

    __slots__ = ("_game", "_state")

    def __init__(self, game: "DixenvGame", state: GameState | None = None):
        self._game, self._state = game, state

    @property
    def state(self) -> GameState:
        if self._state is None:
            game = self._game
            seed = int(game.rng.integers(1 << 63))
            self._state = game.dixenv_game.new_state(game.config, np.random.default_rng(seed), {}, None)
        return self._state

    def __deepcopy__(self, memo: dict) -> "_Engine":
        return _Engine(self._game, self.state.clone())


class DixenvState(pyspiel.State):
    """An OpenSpiel state running a dixenv rules engine."""

    def __init__(self, game: DixenvGame, engine: GameState | None = None):
        super().__init__(game)
        self._engine = _Engine(game, engine)

    @property
    def engine(self) -> GameState:
        """The dixenv engine state (read it, never change it behind OpenSpiel's back)."""
        return self._engine.state

    # --- the OpenSpiel state API ------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL`` once the game is over (or truncated)."""
        seat = self.engine.current_player()
        return pyspiel.PlayerId.TERMINAL if seat < 0 else seat

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.engine.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.get_game()
        return game.dixenv_game.action_to_string(game.config, int(action))

    def is_terminal(self) -> bool:
        """True once the game is over (a truncated dix_de_suite round ends it too)."""
        return self.engine.current_player() < 0

    def returns(self) -> list[float]:
        """Per seat: ``win_rewards`` or the final points at the end (``returns`` parameter), 0 before."""
        engine = self.engine
        n = engine.num_seats
        if engine.current_player() >= 0 or engine.is_truncated():
            return [0.0] * n
        if self.get_game().returns_mode == "win":
            return [float(v) for v in win_rewards(engine.ranking_keys(), engine.teams())]
        return [float(s) for s in engine.scores()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "DixenvState":
        """A state drawn among those ``player_id`` cannot tell from this one (the engine's ``sample_hidden``)."""
        words = [int(probability_sampler() * (1 << 32)) for _ in range(4)]
        world = self.engine.sample_hidden(int(player_id), np.random.default_rng(words))
        return DixenvState(self.get_game(), world)

    def __str__(self) -> str:
        return self.engine.render_text()


class DixenvObserver:
    """OpenSpiel's PyObserver for a dixenv game: our observer's tensor, its named views and a string."""

    def __init__(self, game: DixenvGame, iig_obs_type: Any = None, params: Any = None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and not (
            iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("dixenv observers show one seat's view (public and its own private information) only")
        self._observer = game.dixenv_game.make_observer(game.config)
        layout = self._observer.layout
        self.tensor = self._observer.tensor
        self.dict = dict(layout.views)
        self._pieces = [(p.name, layout.slices[p.name]) for p in layout.pieces]

    def set_from(self, state: DixenvState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` may know of ``state``."""
        self._observer.set_from(state.engine, int(player))

    def string_from(self, state: DixenvState, player: int) -> str:
        """The non-zero entries of ``player``'s observation, piece by piece (equal strings, equal tensors)."""
        self.set_from(state, player)
        tensor = self.tensor
        parts = [f"player_{int(player)}"]
        for name, where in self._pieces:
            block = tensor[where]
            nonzero = np.flatnonzero(block)
            if len(nonzero):
                parts.append(f"{name}: " + " ".join(f"{i}={block[i]:g}" for i in nonzero.tolist()))
        return "\n".join(parts)


class DixenvBot(pyspiel.Bot):
    """A dixenv agent (``"heuristic"``, ``"ismcts:iterations=100"``, …) as an OpenSpiel bot of an exported game.

    The agent plays as it does in the environments: it gets the observation of the seat to act
    and its mask, from a bare ``raw_env`` of the same options pointed at the OpenSpiel state's
    engine (search agents draw their worlds from that engine's ``sample_hidden``). The bot never
    changes the state; OpenSpiel applies the action it returns.
    """

    def __init__(self, game: DixenvGame, agent: str, seed: int | None = None, **params: Any):
        pyspiel.Bot.__init__(self)
        from dixenv.agents.registry import env_module, make_agent  # lazy: dixenv does not import its agents

        self._env = env_module(game.dixenv_game.name).raw_env(**game.options)
        self.agent = make_agent(game.dixenv_game.name, agent, self._env, seed=seed, **params)

    def step(self, state: DixenvState) -> int:
        """The agent's action for the seat to act in ``state``."""
        raw = self._env
        raw.state = state.engine
        raw.agent_selection = f"player_{state.current_player()}"
        return int(self.agent.act(raw.observe(raw.agent_selection)))

    def restart_at(self, state: DixenvState) -> None:
        """Nothing to forget: the agent reads each position afresh."""

    def inform_action(self, state: DixenvState, player_id: int, action: int) -> None:
        """Nothing to remember: dixenv observations carry the history."""


def _register(export: Export) -> type[DixenvGame]:
    """Register one exported game with OpenSpiel; returns its game class."""
    cls = type(f"Dixenv_{export.short_name}", (DixenvGame,), {"export": export, "__doc__": f"OpenSpiel game {export.short_name}."})
    pyspiel.register_game(game_type(export), cls)
    return cls


GAME_CLASSES: dict[str, type[DixenvGame]] = {name: _register(export) for name, export in EXPORTS.items()}
SHORT_NAMES: dict[str, str] = {name: export.short_name for name, export in EXPORTS.items()}


def load_game(game: str, **params: Any) -> DixenvGame:
    """``pyspiel.load_game`` of a dixenv game by its dixenv name: ``load_game("le_dix", deals="5")``."""
    if game not in SHORT_NAMES:
        raise ValueError(f"unknown dixenv game {game!r}; games are {', '.join(SHORT_NAMES)}")
    return pyspiel.load_game(SHORT_NAMES[game], params)
