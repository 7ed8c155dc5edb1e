"""dixenv's games inside OpenSpiel: each one registered as an OpenSpiel Python game.

Importing this module (it needs the optional ``open-spiel`` package, in the ``dev`` extra)
registers three games with ``pyspiel.register_game``, as OpenSpiel's own
``open_spiel/python/games/*.py`` do::

    import pyspiel
    import dixenv.openspiel  # registers dixenv_le_dix, dixenv_dix_de_suite, dixenv_dix

    game = pyspiel.load_game("dixenv_le_dix(players=4,deals=5,hook=true)")  # one deal of 5 cards
    game = pyspiel.load_game("dixenv_le_dix", {"players": 4, "hand_sizes": "5;3;1"})
    str(game)  # 'dixenv_le_dix(hand_sizes=5;3;1,hook=False,players=4,returns=win,rng_seed=-1,scoring=exact10)'
    pyspiel.load_game(str(game)) == game  # every game round-trips through its own string
    state = game.new_initial_state()
    state.legal_actions(), state.action_to_string(state.legal_actions()[0])

**Parameters** are written as in OpenSpiel's game strings, ``name(key=value,key=value)``: an
integer where a count makes sense, ``true``/``false`` for the flags, a word for a choice. The
game's string (``str(game)``, ``game.get_parameters()``) writes every parameter in one canonical
form, so ``pyspiel.load_game(str(game))`` gives an equal game, for every parameter.

* ``players`` is OpenSpiel's name for the player count (as in ``kuhn_poker``, ``oh_hell``);
  ``num_players``, dixenv's name and this export's before, is kept as an alias. Game strings
  always write ``players``; giving both with different values is refused (a ``players`` equal to
  its default counts as not given: OpenSpiel hands a Python game every parameter, defaults filled).
* Lists are ``;``-separated (as OpenSpiel's ``tiny_hanabi`` ``payoff=10;0;0;4``): OpenSpiel's
  parser ends a value at every comma, takes a value of digits and ``-`` (``1-2-3``) for a
  malformed integer and aborts, and types each value by its look (``5`` is an int, ``5;3`` a
  string), then checks it against the parameter's one type before the game sees it. So le_dix's
  deal schedule has two parameters: ``deals=N`` (an int) is one deal of ``N`` cards a hand, and
  ``hand_sizes=10;9;8`` (a string; the dict API also reads commas or spaces) any schedule; the
  default is ``hand_sizes=10;9;8;7;6;5;4;3;2;1``. The game string writes exactly one of them:
  ``deals=N`` for one deal (``hand_sizes=N`` would load back as an int and be refused; a string
  ``hand_sizes=5;`` is read too), ``hand_sizes`` for several. Both given with different
  schedules are refused.
* dix ``difficulty``: 0 (the default) without ``solo``; with ``solo=true``, 0 means ALIX's
  default difficulty (4) and the string writes the difficulty played.
* ``returns``: ``win`` or ``points`` (below). ``rng_seed`` seeds the game's generator: -1 (the
  default) for fresh entropy, else 0 to 2**31 - 1 (OpenSpiel's ints are 32-bit).

A bad value raises ``ValueError`` naming the parameter and the allowed values; a wrong type
(``players=3.5``, ``hook=1``) is refused by OpenSpiel itself (``Wrong type for parameter hook.
Expected type: kBool, got kInt``). ``load_game("le_dix", deals=(5, 3))`` takes dixenv's own
spellings (a tuple, an int or a string for ``deals``) and converts them.

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

**Copies.** ``pickle`` (and ``copy.deepcopy``) of a state gives a state that continues exactly
like the original under the same actions: it is OpenSpiel's own ``state.serialize()`` (history,
move number, and our engine with its generator, so the later deals, draws and reshuffles are the
original's), read back by ``game.deserialize_state``, which works directly too. A pickled game is
its game string plus the game's generator, so the copy deals what the original would deal next;
a state pickled alone brings a copy of its game (pickle states and their game together to share
one). Pickling a state that has not dealt yet deals it first, as ``clone`` does.

**What does not apply** (each checked by running it; the tests pin all three):

* ``pyspiel.random_sim_test`` needs ``serialize=False``: with ``serialize=True`` it stops at
  ``GetRNGState unimplemented``. OpenSpiel serializes a sampled-stochastic game together with its
  generator (``Game::GetRNGState``), and a Python game cannot provide it (pybind11 exposes no
  override), so ``game.serialize()`` and ``pyspiel.serialize_game_and_state`` fail too; use
  ``pickle`` or ``state.serialize()`` / ``game.deserialize_state``.
* OpenSpiel's ``MCTSBot`` runs, but it searches clones of the true state: it sees every hidden
  card and, as a clone keeps the engine's generator, every future draw (the next card of the
  pile, the next deal). It is no fair opponent; ``ISMCTSBot`` (worlds from
  ``resample_from_infostate``) and ``DixenvBot`` are.
* Algorithms that walk the game tree from ``new_initial_state()`` (CFR, ``nash_conv`` and
  ``exploitability``, best responses, ``get_all_states``) cannot run on
  sampled chance: without chance nodes a tree holds only the deal its root drew, and each new
  root draws another. Python's ``cfr.CFRSolver`` and ``exploitability.nash_conv`` (even of the
  uniform policy) fail with a ``KeyError`` on an information state of another deal,
  ``pyspiel.CFRSolver`` iterates on one deal only, and ``pyspiel.nash_conv`` fails (``No policy
  found``, or an unknown information state for the uniform policy).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pyspiel

from dixenv.core.game import Game, GameState
from dixenv.core.options import is_int
from dixenv.core.rewards import win_rewards

RETURNS = ("win", "points")
#: Parameters every exported game has, after its own, with their defaults.
COMMON = {"returns": "win", "rng_seed": -1}
#: The default of a parameter that stands for "not given" (``num_players``, le_dix ``deals``).
NOT_GIVEN = -1
MAX_SEED = (1 << 31) - 1  # OpenSpiel's int parameters are 32-bit
#: le_dix's full schedule (``dixenv.games.le_dix.config.DEFAULT_DEALS``) as a parameter value.
LE_DIX_HAND_SIZES = "10;9;8;7;6;5;4;3;2;1"


@dataclass(frozen=True)
class Export:
    """How one dixenv game is offered to OpenSpiel: its name, parameters and size bounds."""

    short_name: str
    long_name: str
    game: Callable[[], Game]  # imported lazily: registering a game costs nothing
    defaults: dict[str, Any]  # the game's own OpenSpiel parameters and their defaults
    min_players: int
    max_players: int
    options: Callable[[dict[str, Any]], dict[str, Any]]  # canonical parameters -> make_config options
    max_points: Callable[[Any], float]  # the most game points one seat can end with
    max_length: Callable[[Any], int]  # the most moves a game can last
    # Game-specific checks and canonical forms of the parameters (players already resolved).
    normalize: Callable[[dict[str, Any]], dict[str, Any]] = lambda p: p
    # Aliases, never written in a game string, and their "not given" value.
    aliases: dict[str, Any] = field(default_factory=lambda: {"num_players": NOT_GIVEN})

    @property
    def specification(self) -> dict[str, Any]:
        """OpenSpiel's ``parameter_specification``: every parameter the game takes, with its default."""
        return {**self.defaults, **self.aliases, **COMMON}


def _le_dix_game() -> Game:
    from dixenv.games.le_dix.game import GAME

    return GAME


def _dix_de_suite_game() -> Game:
    from dixenv.games.dix_de_suite.game import GAME

    return GAME


def _dix_game() -> Game:
    from dixenv.games.dix.game import GAME

    return GAME


def _check_int(name: str, value: Any, low: int, high: int, why: str = "") -> int:
    if not is_int(value):
        raise ValueError(f"parameter {name}={value!r} must be an integer from {low} to {high}{why}")
    if not low <= int(value) <= high:
        raise ValueError(f"parameter {name}={value!r} is out of range; allowed: {low} to {high}{why}")
    return int(value)


def _hand_sizes(name: str, value: Any) -> tuple[int, ...]:
    """The hand sizes of a le_dix schedule written ``10;9;8`` (commas or spaces also read), or an int."""
    if is_int(value):
        return (int(value),)
    if isinstance(value, str):
        parts = [p for p in re.split(r"[;,\s]+", value.strip()) if p]
        if parts and all(p.isdigit() for p in parts):
            return tuple(int(p) for p in parts)
    elif isinstance(value, (tuple, list)) and value and all(is_int(v) for v in value):
        return tuple(int(v) for v in value)
    raise ValueError(f"parameter {name}={value!r} must be hand sizes separated by ';', e.g. 10;9;8 or 5 (an int)")


def _le_dix_normalize(params: dict[str, Any]) -> dict[str, Any]:
    """``deals=N`` (an int) or ``hand_sizes=a;b;c`` (a string) -> exactly one of them, canonical.

    One deal is written ``deals=N`` (an int: ``hand_sizes=N`` would read as an int and be refused
    by OpenSpiel's type check when the string is loaded again), several ``hand_sizes=a;b;c``.
    """
    from dixenv.games.le_dix.cards import NUM_CARDS

    n = params["players"]
    most = (NUM_CARDS - 1) // n  # every hand dealt plus one card turned up
    why = f" (cards a hand with {n} players)"
    text, deals = params.pop("hand_sizes"), params.pop("deals")
    sizes = _hand_sizes("hand_sizes", text)
    if deals != NOT_GIVEN:
        deals = _check_int("deals", deals, 1, most, why)
        if text != LE_DIX_HAND_SIZES and sizes != (deals,):
            raise ValueError(
                f"parameters deals={deals} and hand_sizes={text!r} disagree; deals=N is one deal of N cards "
                "a hand: give one of them"
            )
        sizes = (deals,)
    for size in sizes:
        if not 1 <= size <= most:
            raise ValueError(f"parameter hand_sizes={text!r}: hand size {size} is out of range; allowed: 1 to {most}{why}")
    if len(sizes) == 1:
        params["deals"] = sizes[0]
    else:
        params["hand_sizes"] = ";".join(map(str, sizes))
    return params


def _le_dix_options(params: dict[str, Any]) -> dict[str, Any]:
    deals = (params["deals"],) if "deals" in params else _hand_sizes("hand_sizes", params["hand_sizes"])
    return {"num_players": params["players"], "deals": deals, "scoring": params["scoring"], "hook": params["hook"]}


def _le_dix_max_points(config: Any) -> float:
    from dixenv.games.le_dix.state import max_total_points

    return float(max_total_points(config))


def _le_dix_max_length(config: Any) -> int:
    n = config.num_players
    return sum(2 + n + n * h for h in config.deals)  # trump choice, discard, bids, plays


def _dix_de_suite_options(params: dict[str, Any]) -> dict[str, Any]:
    return {"num_players" if k == "players" else k: v for k, v in params.items() if k not in COMMON}


def _dix_de_suite_max_points(config: Any) -> float:
    from dixenv.games.dix_de_suite.scoring import max_round_points

    # Below the target before the last round, then at most one round's points (team: two seats').
    per_round = max_round_points(config.run_bonus) * (2 if config.teams else 1)
    return float(config.target_score - 1 + per_round)


def _dix_de_suite_max_length(config: Any) -> int:
    from dixenv.games.dix_de_suite.scoring import POINTS_PER_CARD

    rounds = -(-config.target_score // POINTS_PER_CARD)  # every seat gains at least 5 a round
    return rounds * config.max_turns * 2  # two decisions a turn


def _dix_normalize(params: dict[str, Any]) -> dict[str, Any]:
    """``difficulty=0`` with ``solo=true``: ALIX's default difficulty, written out."""
    from dixenv.games.dix.config import DEFAULT_DIFFICULTY

    if params["solo"]:
        if params["difficulty"] == 0:
            params["difficulty"] = DEFAULT_DIFFICULTY
    elif params["difficulty"] != 0:
        raise ValueError(f"parameter difficulty={params['difficulty']} only applies with solo=true (0 otherwise)")
    return params


def _dix_options(params: dict[str, Any]) -> dict[str, Any]:
    options = {"num_players": params["players"], **{k: params[k] for k in ("solo", "bust_buy", "auto_pay")}}
    if params["solo"]:
        options["difficulty"] = params["difficulty"]
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


LE_DIX_EXPORT = Export(
        "dixenv_le_dix", "dixenv le_dix (trick-taking with exact bids)", _le_dix_game,
        {"players": 4, "deals": NOT_GIVEN, "hand_sizes": LE_DIX_HAND_SIZES, "scoring": "exact10", "hook": False},
        3, 5, _le_dix_options, _le_dix_max_points, _le_dix_max_length, normalize=_le_dix_normalize,
)
DIX_DE_SUITE_EXPORT = Export(
        "dixenv_dix_de_suite", "dixenv dix_de_suite (Rack-O)", _dix_de_suite_game,
        {"players": 2, "target_score": 500, "max_turns": 1000, "reshuffle": False, "two_player_run": False,
         "teams": False, "run_bonus": False},
        2, 4, _dix_de_suite_options, _dix_de_suite_max_points, _dix_de_suite_max_length,
)
DIX_EXPORT = Export(
        "dixenv_dix", "dixenv dix (TEN)", _dix_game,
        {"players": 2, "solo": False, "difficulty": 0, "bust_buy": False, "auto_pay": False},
        2, 5, _dix_options, _dix_max_points, _dix_max_length,
        normalize=_dix_normalize,
)


def _exports() -> dict[str, Export]:
    """Game -> its export, for every registered game whose spec names one (its ``openspiel`` field)."""
    from dixenv.games import game_specs

    return {spec.name: spec.load("openspiel") for spec in game_specs() if spec.openspiel is not None}


#: Every registered game's export at the time this module was first imported (OpenSpiel's registry
#: takes each game once: a game registered later calls ``register_export``).
EXPORTS: dict[str, Export] = _exports()


def canonical_parameters(export: Export, given: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The game's parameters in their canonical form (aliases resolved, defaults filled, values checked).

    Returns them with the name the player count was given under (``players`` or ``num_players``),
    so that later messages name the parameter the user wrote.
    """
    spec = export.specification
    params = dict(spec)
    for name, value in given.items():
        if name not in spec:
            raise ValueError(f"unknown parameter {name!r} of {export.short_name}; parameters: {', '.join(sorted(spec))}")
        default = spec[name]
        if isinstance(default, bool):
            ok, kind = isinstance(value, (bool, np.bool_)), "true or false"
        elif isinstance(default, int):
            ok, kind = is_int(value), "an integer"
        else:
            ok, kind = isinstance(value, str), "a string"
        if not ok:
            raise ValueError(f"parameter {name}={value!r} must be {kind}")
        params[name] = value if isinstance(default, str) else type(default)(value)
    players, alias = params["players"], params.pop("num_players")
    name = "players"
    if alias != NOT_GIVEN:
        if players != export.defaults["players"] and players != alias:
            raise ValueError(
                f"parameters players={players} and num_players={alias} disagree; num_players is an alias "
                "of players (OpenSpiel's name): give one of them"
            )
        players, name = alias, "num_players"
    params["players"] = _check_int(name, players, export.min_players, export.max_players)
    if params["returns"] not in RETURNS:
        raise ValueError(f"parameter returns={params['returns']!r} is not allowed; allowed: {', '.join(RETURNS)}")
    seed = params["rng_seed"]
    if not (seed == -1 or 0 <= seed <= MAX_SEED):
        raise ValueError(f"parameter rng_seed={seed} must be -1 (fresh entropy) or a seed from 0 to {MAX_SEED}")
    return export.normalize(params), name


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
        parameter_specification=export.specification,
    )


class DixenvGame(pyspiel.Game):
    """One dixenv game as an OpenSpiel game (built by ``pyspiel.load_game``; see the module docstring)."""

    export: Export  # set by each registered subclass

    def __init__(self, params: dict[str, Any] | None = None):
        params, players_name = canonical_parameters(self.export, params or {})
        returns, seed = params["returns"], params["rng_seed"]
        self.dixenv_game = self.export.game()
        #: The dixenv options of this game (what ``raw_env(**options)`` takes for the same rules).
        self.options = self.export.options(params)
        try:
            self.config = self.dixenv_game.make_config(**self.options)
        except ValueError as error:  # name the OpenSpiel parameters, not dixenv's options
            message = str(error).replace("option ", "parameter ").replace("num_players", players_name)
            raise ValueError(f"{self.export.short_name}: {message}") from None
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
        super().__init__(game_type(self.export, returns), info, params)
        self.rng = np.random.default_rng(None if seed < 0 else seed)

    def new_initial_state(self) -> "DixenvState":
        """A new game; its deal is drawn when the state is first used (a clone's deal never is)."""
        return DixenvState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "DixenvObserver":
        """Our observation of one seat (for both the observation and the information state)."""
        return DixenvObserver(self, iig_obs_type, params)

    def __reduce__(self) -> tuple:
        """Pickle as the game string plus the game's generator (the copy deals what this game deals next)."""
        return (_unpickle_game, (str(self), self.rng.bit_generator.state))


def _unpickle_game(text: str, rng_state: dict) -> DixenvGame:
    game = pyspiel.load_game(text)
    game.rng.bit_generator.state = rng_state
    return game


def _unpickle_state(game: DixenvGame, data: str) -> "DixenvState":
    return game.deserialize_state(data)


class _Engine:
    """The engine state behind an OpenSpiel state, dealt on first use; OpenSpiel's clone copies it with ``clone()``.

    OpenSpiel clones a Python state by building a new initial state and then ``copy.deepcopy``-ing
    our attributes over it: dealing at construction would waste a deal and a draw of the game's
    generator at every clone. So the deal waits for the first use, and a copy deals the original
    first (a fresh state and its clone then share one deal). A pickle (OpenSpiel's
    ``state.serialize()`` pickles the state's attributes) deals too, and keeps the engine alone.
    """

    __slots__ = ("_game", "_state")

    def __init__(self, game: "DixenvGame | None", state: GameState | None = None):
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

    def __reduce__(self) -> tuple:
        return (_Engine, (None, self.state))


class DixenvState(pyspiel.State):
    """An OpenSpiel state running a dixenv rules engine."""

    def __init__(self, game: DixenvGame, engine: GameState | None = None):
        super().__init__(game)
        self._engine = _Engine(game, engine)

    @property
    def engine(self) -> GameState:
        """The dixenv engine state (read it, never change it behind OpenSpiel's back)."""
        return self._engine.state

    def __reduce__(self) -> tuple:
        """Pickle through OpenSpiel's ``serialize()``: history, move number and the engine with its generator."""
        return (_unpickle_state, (self.get_game(), self.serialize()))
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
        self._pieces = [(p.name, layout.slices[p.name]) for p in layout.pieces]

    # Read from our observer each time rather than kept: a copy (deepcopy, pickle) of kept views
    # would no longer be views of the copy's tensor.
    @property
    def tensor(self) -> np.ndarray:
        """The flat observation (OpenSpiel's ``observer.tensor``)."""
        return self._observer.tensor

    @property
    def dict(self) -> dict[str, np.ndarray]:
        """Named, reshaped views of ``tensor`` (OpenSpiel's ``observer.dict``)."""
        return self._observer.layout.views

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


def register_export(game: str) -> type[DixenvGame]:
    """Register with OpenSpiel a game added to dixenv's registry after this module was imported."""
    if game not in EXPORTS:
        export = _exports().get(game)
        if export is None:
            raise ValueError(f"game {game!r} names no OpenSpiel export in its spec")
        EXPORTS[game] = export
        GAME_CLASSES[game] = _register(export)
        SHORT_NAMES[game] = export.short_name
    return GAME_CLASSES[game]


def load_game(game: str, **params: Any) -> DixenvGame:
    """``pyspiel.load_game`` of a dixenv game by its dixenv name: ``load_game("le_dix", deals=5)``.

    Takes dixenv's spellings too: le_dix ``deals`` as an int, a tuple of hand sizes or a string
    (``"10,9,8"``, ``"10;9;8"``), numpy numbers; ``players`` and ``num_players`` given with
    different values are refused.
    """
    if game not in SHORT_NAMES:
        raise ValueError(f"unknown dixenv game {game!r}; games are {', '.join(SHORT_NAMES)}")
    params = {k: v.item() if isinstance(v, np.generic) else v for k, v in params.items()}
    if "players" in params and "num_players" in params and params["players"] != params["num_players"]:
        raise ValueError(
            f"parameters players={params['players']} and num_players={params['num_players']} disagree; "
            "num_players is an alias of players (OpenSpiel's name): give one of them"
        )
    if game == "le_dix" and "deals" in params and not is_int(params["deals"]):
        sizes = _hand_sizes("deals", params.pop("deals"))
        if len(sizes) == 1:
            params["deals"] = sizes[0]
        elif "hand_sizes" in params:
            raise ValueError("give le_dix's schedule once: deals (dixenv's name) or hand_sizes")
        else:
            params["hand_sizes"] = ";".join(map(str, sizes))
    return pyspiel.load_game(SHORT_NAMES[game], params)
