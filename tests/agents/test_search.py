"""The search agents (ismcts, pimc): legal, reproducible, information-only, and sensible choices."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dixenv import dix_de_suite_v0, dix_v0, le_dix_v0
from dixenv.agents import search as S
from dixenv.agents.search import dix as SD, dix_de_suite as SDS, le_dix as SL
from dixenv.agents.base import RandomAgent
from dixenv.agents.registry import make_agent
from dixenv.games.dix_de_suite.state import PHASE_SOURCE
from tests.agents.helpers import play_game
from tests.games.dix_de_suite.helpers import make as make_dix_de_suite
from tests.games.le_dix.helpers import make as make_le_dix

#: A short dix box (30 cards: numbers, wilds and currency) so that whole games stay quick.
SMALL_DIX_DECK = {
    "B1": 2, "B2": 2, "B3": 2, "B4": 1, "G1": 2, "G2": 2, "G3": 1, "O5": 2, "O6": 1, "P7": 1, "P8": 1,
    "B#": 1, "W3": 1, "**": 1, "$1": 4, "$2": 3, "$3": 2, "$4": 1,
}
#: Small tables for each game, searched with a small budget (the tests stay quick).
TABLES = {
    "le_dix": (le_dix_v0, dict(num_players=4, deals=(3, 2))),
    "dix_de_suite": (dix_de_suite_v0, dict(num_players=2, target_score=80, max_turns=120)),
    "dix": (dix_v0, dict(num_players=2, deck_spec=SMALL_DIX_DECK)),
}
AGENTS = ["ismcts:iterations=8", "pimc:iterations=8,worlds=2"]


def _hidden_facts(state):
    """What the seat to act cannot see of a state (the other hands, the piles, their order)."""
    name = type(state).__name__
    if name == "LeDixState":
        return [list(h) for h in state.hands], sorted(state.undealt)
    if name == "DixDeSuiteState":
        return [list(r) for r in state.racks], list(state.draw_pile)
    return list(state.pile)


def _env(game: str, **extra):
    module, options = TABLES[game]
    return module.raw_env(**{**options, **extra})


def _decision(env, seed: int, skip: int):
    """Reset with ``seed`` and let random players make ``skip`` decisions; the env waits at the next one."""
    env.reset(seed=seed)
    rnd = RandomAgent(env, seed=seed)
    for _ in range(skip):
        env.step(rnd.act(env.observe(env.agent_selection)))
    return env.observe(env.agent_selection)


class OnlySampleHidden:
    """Stands in for the env's state: anything but ``sample_hidden`` (and the seat it is asked for) fails."""

    def __init__(self, state, seat: int):
        self._state, self._seat, self.calls = state, seat, 0

    def sample_hidden(self, seat, rng):
        assert seat == self._seat, f"sample_hidden asked for seat {seat}, the seat to act is {self._seat}"
        self.calls += 1
        return self._state.sample_hidden(seat, rng)

    def __getattr__(self, name):
        raise AssertionError(f"a search agent read state.{name}: only sample_hidden is allowed")


# --- the registry and the protocol ----------------------------------------------------------------


@pytest.mark.parametrize("game", list(TABLES))
@pytest.mark.parametrize("spec", AGENTS)
def test_search_agents_play_whole_games_legally(game, spec):
    env = _env(game)
    agents = [make_agent(game, spec, env, seed=s) for s in range(env.unwrapped.config.num_players)]
    chosen = play_game(env, agents, seed=3)  # the helper checks every move against the mask
    assert chosen
    assert env.unwrapped.state.current_player() < 0


def test_heuristic_rollouts_play_legally():
    env = _env("le_dix", deals=(2,))
    agents = [make_agent("le_dix", "ismcts:iterations=5,rollout=heuristic", env, seed=s) for s in range(4)]
    assert play_game(env, agents, seed=1)


@pytest.mark.parametrize("game", list(TABLES))
@pytest.mark.parametrize("spec", ["ismcts:iterations=8", "pimc:iterations=8"])
def test_search_reads_the_state_only_through_sample_hidden(game, spec):
    env = _env(game)
    agent = make_agent(game, spec, env, seed=0)
    for skip in (0, 5):
        obs = _decision(env, seed=skip, skip=skip)
        raw = env.unwrapped
        seat = int(raw.agent_selection.rsplit("_", 1)[1])
        real = raw.state
        raw.state = proxy = OnlySampleHidden(real, seat)
        try:
            action = agent.act(obs) if obs["action_mask"].sum() > 1 else None
        finally:
            raw.state = real
        if action is not None:
            assert obs["action_mask"][action] == 1
            moves = int(obs["action_mask"].sum())
            if spec.startswith("pimc") or agent.root == "paired":  # one world for every move in turn
                assert proxy.calls == -(-agent.last_search["iterations"] // moves)
            else:  # one world per iteration
                assert proxy.calls == agent.last_search["iterations"]


def _hidden_twin(env, rng_seed: int):
    """A copy of ``env`` whose state differs from it only in what the seat to act cannot see."""
    raw = env.unwrapped
    seat = int(raw.agent_selection.rsplit("_", 1)[1])
    twin = type(raw)(**TABLES[raw.game.name][1])
    twin.reset(seed=0)
    twin.state = raw.state.sample_hidden(seat, np.random.default_rng(rng_seed))
    twin.agent_selection = raw.agent_selection
    return twin


@pytest.mark.parametrize("game", list(TABLES))
@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=10",
        "pimc:iterations=10",
        "ismcts:iterations=4,rollout=heuristic,depth=12",
        "ismcts:iterations=10,opponents=own",
        "ismcts:iterations=12,root=halving",
    ],
)
def test_same_move_when_only_hidden_facts_differ(game, spec):
    differed, _ = _same_moves_in_hidden_twins(game, spec, seed=10, skips=(0, 3, 8))
    assert differed >= 1  # the twins really differed in hidden facts


def _same_moves_in_hidden_twins(game: str, spec: str, seed: int, skips: tuple[int, ...]) -> tuple[int, int]:
    """At the decision after each of ``skips`` random moves, ``spec`` (seeded alike) plays the same
    move in the env and in a twin that differs only in hidden facts; (twins that differed, decisions compared)."""
    env = _env(game)
    differed = compared = 0
    for skip in skips:
        obs = _decision(env, seed=seed + skip, skip=skip)
        if obs["action_mask"].sum() < 2:
            continue
        twin = _hidden_twin(env, rng_seed=skip)
        twin_obs = twin.observe(twin.agent_selection)
        assert np.array_equal(obs["observation"], twin_obs["observation"])
        differed += _hidden_facts(env.unwrapped.state) != _hidden_facts(twin.state)
        a = make_agent(game, spec, env, seed=5).act(obs)
        assert make_agent(game, spec, twin, seed=5).act(twin_obs) == a
        compared += 1
    return differed, compared


@pytest.mark.parametrize("game", list(TABLES))
def test_same_seed_same_move_and_reset_replays_it(game):
    env = _env(game)
    obs = _decision(env, seed=2, skip=4)
    if obs["action_mask"].sum() < 2:
        obs = _decision(env, seed=2, skip=5)
    one = make_agent(game, "ismcts:iterations=20", env, seed=9)
    two = make_agent(game, "ismcts:iterations=20", env, seed=9)
    first = one.act(obs)
    assert two.act(obs) == first
    assert one.last_search == two.last_search | {"seconds": one.last_search["seconds"]}
    one.reset(9)
    assert one.act(obs) == first


def test_iterations_and_seconds_bound_the_search():
    env = _env("le_dix")
    obs = _decision(env, seed=1, skip=0)
    agent = make_agent("le_dix", "ismcts:iterations=17", env, seed=0)
    agent.act(obs)
    assert agent.last_search["iterations"] == 17
    assert sum(agent.last_search["visits"].values()) == 17
    pimc = make_agent("le_dix", "pimc:iterations=7", env, seed=0)
    pimc.act(obs)
    assert pimc.last_search["iterations"] == 7
    timed = make_agent("le_dix", "ismcts:seconds=0.02,iterations=100000", env, seed=0)
    assert obs["action_mask"][timed.act(obs)] == 1
    assert 1 <= timed.last_search["iterations"] < 100000


def test_a_forced_move_needs_no_search():
    env = make_le_dix(3, {0: ["AS"], 1: ["2H"], 2: ["3D"]}, trump="4C", dealer=2, deals=(1,))
    env.step(env.string_to_action("leave trump"))
    agent = make_agent("le_dix", "ismcts:iterations=5", env, seed=0)
    obs = env.observe(env.agent_selection)
    assert agent.act(obs) in np.flatnonzero(obs["action_mask"])
    env.step(env.string_to_action("bid 1"))
    env.step(env.string_to_action("bid 0"))
    env.step(env.string_to_action("bid 0"))
    agent.last_search = {}
    obs = env.observe(env.agent_selection)  # player_0 holds one card: a single legal move
    assert env.action_to_string(agent.act(obs)) == "play AS"
    assert agent.last_search == {}


# --- options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, message",
    [
        (dict(iterations=0), "iterations"),
        (dict(iterations=2.5), "iterations"),
        (dict(seconds=-1), "seconds"),
        (dict(rollout="smart"), "rollout"),
        (dict(horizon="round"), "horizon"),  # le_dix has deals, not rounds
        (dict(value="money"), "value"),
        (dict(value="win", horizon="deal"), "horizon='game'"),
        (dict(depth=-2), "depth"),
        (dict(c=-0.1), "c="),
        (dict(worlds=True), "worlds"),
        (dict(opponents="nobody"), "opponents"),
        (dict(expand="all"), "expand"),
        (dict(root="first"), "root"),
        (dict(colour="blue"), "unknown search option.*colour for ismcts; options: expand, root, iterations"),
    ],
)
def test_bad_search_options_are_refused_by_name(params, message):
    env = _env("le_dix")
    with pytest.raises(ValueError, match=message):
        make_agent("le_dix", "ismcts", env, **params)


def test_rollout_dot_options_are_the_heuristic_rollouts_parameters():
    env = _env("dix_de_suite")
    agent = make_agent("dix_de_suite", "ismcts:iterations=4,rollout=heuristic,rollout.secure=1,rollout.prefix_weight=0.3", env, seed=1)
    assert agent._policy.params["secure"] == 1.0 and agent._policy.params["prefix_weight"] == 0.3
    assert make_agent("dix_de_suite", "ismcts:rollout=heuristic", env)._policy.params["secure"] == 0.0
    obs = _decision(env, seed=3, skip=5)
    assert obs["action_mask"][agent.act(obs)] == 1
    with pytest.raises(ValueError, match="rollout.secure set the heuristic rollout's parameters, but rollout='greedy'"):
        make_agent("dix_de_suite", "ismcts:rollout.secure=1", env)
    with pytest.raises(ValueError, match="unknown DixDeSuiteHeuristic parameter.*colour"):
        make_agent("dix_de_suite", "pimc:rollout=heuristic,rollout.colour=1", env)


def test_tree_options_are_refused_by_pimc_by_name():
    with pytest.raises(ValueError, match="unknown search option.*root for pimc; options: iterations, .*opponents"):
        make_agent("dix", "pimc:root=paired", _env("dix"))


def test_each_game_has_its_own_defaults_and_options_override_them():
    dix = make_agent("dix", "ismcts", _env("dix"))
    assert (dix.rollout, dix.value, dix.c, dix.opponents, dix.expand, dix.root) == ("greedy", "margin", 0.0, "policy", "policy", "paired")
    le_dix = make_agent("le_dix", "ismcts", _env("le_dix"))
    assert (le_dix.rollout, le_dix.value, le_dix.c, le_dix.opponents, le_dix.expand, le_dix.root) == ("greedy", "points", 0.7, "tree", "random", "ucb")
    tuned = make_agent("dix", "ismcts:c=0.5,opponents=tree,expand=random,root=ucb,value=win", _env("dix"))
    assert (tuned.value, tuned.c, tuned.opponents, tuned.expand, tuned.root) == ("win", 0.5, "tree", "random", "ucb")


def _wide_decision(env, seed: int, moves: int = 5):
    """The first decision after a reset with ``seed`` (random play) that has at least ``moves`` legal moves."""
    for skip in range(40):
        obs = _decision(env, seed=seed, skip=skip)
        if obs["action_mask"].sum() >= moves:
            return obs
    raise AssertionError(f"no decision with {moves} legal moves")


def test_a_paired_root_plays_every_root_move_on_each_world():
    env = _env("le_dix", deals=(8,))
    obs = _wide_decision(env, seed=3)
    legal = np.flatnonzero(obs["action_mask"]).tolist()
    agent = make_agent("le_dix", f"ismcts:iterations={5 * len(legal) + 2},root=paired", env, seed=0)
    action = agent.act(obs)
    visits = agent.last_search["visits"]
    assert sorted(visits.values())[0] >= 5 and max(visits.values()) - min(visits.values()) <= 1
    means = agent.last_search["means"]
    assert means[action] == max(means.values())  # the best mean is played, not the most visited


def test_a_halving_root_spends_its_budget_on_the_better_half_of_the_moves_round_by_round():
    env = _env("le_dix", deals=(8,))
    obs = _wide_decision(env, seed=3, moves=5)
    legal = np.flatnonzero(obs["action_mask"]).tolist()
    budget = 40 * len(legal)
    agent = make_agent("le_dix", f"ismcts:iterations={budget},root=halving", env, seed=0)
    action = agent.act(obs)
    stats = agent.last_search
    assert stats["iterations"] <= budget
    visits, means = stats["visits"], stats["means"]
    rounds = math.ceil(math.log2(len(legal)))
    first_round = budget // (rounds * len(legal))
    assert min(visits.values()) == first_round  # every move plays the first round's worlds
    assert visits[action] == max(visits.values()) > first_round  # the survivor played every round
    # A move eliminated in a round has no better mean than the best of the moves that outlived it.
    for a in legal:
        for b in legal:
            if visits[a] < visits[b]:
                assert means[a] <= max(means[x] for x in legal if visits[x] >= visits[b])
    again = make_agent("le_dix", f"ismcts:iterations={budget},root=halving", env, seed=0)
    assert again.act(obs) == action and again.last_search["visits"] == visits


def test_a_halving_root_needs_a_budget_of_iterations():
    with pytest.raises(ValueError, match="root='halving'.*iterations"):
        make_agent("dix", "ismcts:seconds=0.5,root=halving", _env("dix"))
    with pytest.raises(ValueError, match="root=.*allowed: ucb, paired, halving"):
        make_agent("dix", "ismcts:root=best", _env("dix"))


def test_policy_expansion_tries_the_rollout_move_first_and_widens_slowly():
    env = _env("le_dix", deals=(8,))
    obs = _wide_decision(env, seed=3)
    legal = np.flatnonzero(obs["action_mask"]).tolist()
    agent = make_agent("le_dix", "ismcts:iterations=20,expand=policy", env, seed=0)
    agent.act(obs)
    tried = [a for a, v in agent.last_search["visits"].items() if v]
    assert len(tried) == 1 + 2  # 1 + floor(sqrt(19 // 4)) moves considered after 20 visits
    greedy = SL._le_dix_greedy(env.unwrapped.state, legal)
    assert greedy in tried


def test_a_game_without_a_greedy_rollout_refuses_it_by_name(monkeypatch):
    import dataclasses

    monkeypatch.setattr(SD, "RULES", dataclasses.replace(SD.RULES, greedy=None))  # the module dix's spec names
    make_agent("le_dix", "ismcts:rollout=greedy", _env("le_dix"))
    with pytest.raises(ValueError, match="rollout='greedy' has no policy for dix"):
        make_agent("dix", "ismcts:rollout=greedy", _env("dix"))


# --- values -------------------------------------------------------------------------------------


class _Table:
    """A stand-in end state: scores, teams, and terminal or cut short."""

    def __init__(self, scores, teams=None, terminal=True, truncated=False):
        self._scores, self._teams, self._terminal, self._truncated = scores, teams, terminal, truncated
        self.num_seats = len(scores)

    def scores(self):
        return self._scores

    def ranking_keys(self):
        return [(s,) for s in self._scores]

    def teams(self):
        return self._teams

    def is_terminal(self):
        return self._terminal

    def is_truncated(self):
        return self._truncated

    def current_player(self):
        return -1 if self._terminal or self._truncated else 0


def _agent_with(value: str, base, scale: float, game: str = "dix_de_suite", horizon: str = "round"):
    agent = make_agent(game, f"ismcts:value={value},horizon={horizon}", _env(game))
    agent._base, agent._scale = [float(b) for b in base], scale
    return agent


def test_points_and_margin_values_measure_the_gain_since_the_root():
    points = _agent_with("points", [100, 40, 0], 75.0)
    assert points._values(_Table([175, 70, 15]), True) == pytest.approx([1.0, 0.4, 0.2])
    margin = _agent_with("margin", [100, 40, 0], 75.0)
    assert margin._values(_Table([175, 70, 15]), True) == pytest.approx([1.0 - 0.3, 0.4 - 0.6, 0.2 - 0.7])


def test_team_values_are_shared_by_teammates():
    margin = _agent_with("margin", [0, 0, 0, 0], 75.0)
    values = margin._values(_Table([75, 10, 15, 20], teams=[0, 1, 0, 1]), True)
    assert values == pytest.approx([(90 - 30) / 75, (30 - 90) / 75] * 2)


def test_win_values_follow_the_ranking_and_a_truncated_game_is_worth_nothing():
    win = _agent_with("win", [0, 0, 0], 1.0, horizon="game")
    assert win._values(_Table([30, 10, 20]), True) == pytest.approx([1.0, -1.0, 0.0])
    assert win._values(_Table([30, 10, 20], terminal=False, truncated=True), True) == [0.0, 0.0, 0.0]


def test_longest_increasing_subsequence():
    assert SDS._lis_length([1, 2, 3]) == 3
    assert SDS._lis_length([5, 1, 2, 9, 3, 4]) == 4
    assert SDS._lis_length([9, 8, 7]) == 1


def test_dix_de_suite_estimate_favours_the_more_sorted_rack():
    env = make_dix_de_suite({0: [1, 3, 5, 7, 9, 11, 13, 15, 17, 40], 1: [39, 2, 38, 4, 37, 6, 36, 8, 35, 10]}, discard=20, dealer=1)
    est = SDS._dix_de_suite_estimate(env.unwrapped.state)
    assert est[0] > est[1]
    assert est[0] <= 75 and est[1] >= 5


@pytest.mark.parametrize(
    "game, options, phases_reached",
    [
        ("le_dix", dict(auto_forced=False), 3),  # bidding, the dealer's discard, play (and the trump choice)
        ("dix_de_suite", dict(num_players=3, auto_forced=False, target_score=80), 2),  # source, placement
        ("dix", dict(num_players=3, auto_forced=False, bust_buy=True), 4),  # decision, auction, payment, buy
        ("dix", dict(solo=True, difficulty=8, auto_forced=False), 4),
    ],
)
def test_greedy_rollouts_are_legal_in_every_phase(game, options, phases_reached):
    env = _env(game, **options)
    rnd = RandomAgent(env, seed=0)
    greedy = S.rules_for(game).greedy
    phases = set()
    for seed in range(3):
        env.reset(seed=seed)
        while not (env.unwrapped.state.is_terminal() or env.unwrapped.state.is_truncated()):
            state = env.unwrapped.state
            legal = state.legal_actions()
            phases.add(state.phase)
            assert greedy(state, legal) in legal
            env.step(rnd.act(env.observe(env.agent_selection)))
    assert len(phases) >= phases_reached, f"only phases {phases} were reached"


def test_dix_greedy_rollout_plays_alix_rules_from_every_seat():
    """Draw below a tableau total of 6 (currency at most 10), bid only up to 3, buy only in the final round."""
    from dixenv.games.dix import actions as A
    from dixenv.games.dix.state import AUCTION, BUY, BUY_FINAL, DECIDE

    env = _env("dix", num_players=3)
    rnd = RandomAgent(env, seed=1)
    seen = dict.fromkeys(["draw", "take", "bid", "pass", "skip", "final buy"], 0)
    for seed in range(6):
        env.reset(seed=seed)
        while not env.unwrapped.state.is_terminal():
            state = env.unwrapped.state
            legal = state.legal_actions()
            move = SD._dix_greedy(state, legal)
            if state.phase == DECIDE:
                wants = state.tableau_total < SD.GREEDY_DRAW_BELOW and state.tableau_currency <= 10 and A.DRAW in legal
                assert move == (A.DRAW if wants else A.TAKE_NUMBERS)
                seen["draw" if wants else "take"] += 1
            elif state.phase == AUCTION:
                bids = [a for a in legal if a != A.PASS]
                cheap = bool(bids) and bids[0] - A.BID_BASE <= SD.GREEDY_TOP_BID
                assert move == (bids[0] if cheap else A.PASS)
                seen["bid" if cheap else "pass"] += 1
            elif state.phase == BUY:
                final = state.buy_kind == BUY_FINAL and len(legal) > 1
                assert move == (legal[0] if final else A.SKIP)
                seen["final buy" if final else "skip"] += 1
            env.step(rnd.act(env.observe(env.agent_selection)))
    assert all(seen.values()), seen


# --- sensible choices ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["ismcts:iterations=60", "pimc:iterations=60", "ismcts:iterations=60,rollout=random", "ismcts:iterations=60,opponents=own"]
)
@pytest.mark.parametrize("bid, lead", [(1, "play AS"), (0, "play 2S")])
def test_le_dix_search_leads_to_make_its_bid(spec, bid, lead):
    # Two cards each, clubs trump, player_0 leads. Leading AS takes the first trick, then 2S is
    # beaten: one trick. Leading 2S loses the first trick, and AS most likely the second (it
    # wins it only if a spade is led, and here player_1 trumps it): no trick. The search does not
    # see the other hands; the orders of the outcomes hold in most worlds it draws.
    hands = {0: ["AS", "2S"], 1: ["3S", "2C"], 2: ["5S", "6S"]}
    env = make_le_dix(3, hands, trump="9C", dealer=2, deals=(2,))
    for text in ["leave trump", f"bid {bid}", "bid 0", "bid 0"]:
        env.step(env.string_to_action(text))
    agent = make_agent("le_dix", spec, env, seed=0)
    assert env.agent_selection == "player_0"
    assert env.action_to_string(agent.act(env.observe("player_0"))) == lead


@pytest.mark.parametrize("spec", ["ismcts:iterations=40", "pimc:iterations=40"])
def test_dix_de_suite_search_takes_the_discard_that_sorts_its_rack(spec):
    rack = [1, 3, 5, 7, 9, 30, 13, 15, 17, 19]  # 30 out of place: the discard 11 sorts the rack
    env = make_dix_de_suite({0: rack, 1: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]}, discard=11, draw=list(range(21, 30)), dealer=1)
    assert env.unwrapped.state.phase == PHASE_SOURCE and env.agent_selection == "player_0"
    agent = make_agent("dix_de_suite", spec, env, seed=0)
    assert env.action_to_string(agent.act(env.observe("player_0"))) == "take discard"
    env.step(env.string_to_action("take discard"))
    assert env.action_to_string(agent.act(env.observe("player_0"))) == "swap 6"


def test_ismcts_beats_random_in_short_le_dix_games():
    env = _env("le_dix", deals=(4,))
    made = {"ismcts": 0, "random": 0}
    for seed in range(6):
        agents = [make_agent("le_dix", "ismcts:iterations=40,rollout=greedy", env, seed=seed)] + [
            RandomAgent(env, seed=seed + s) for s in range(1, 4)
        ]
        play_game(env, agents, seed=seed)
        scores = env.unwrapped.scores()
        made["ismcts"] += scores[0] > 0
        made["random"] += sum(s > 0 for s in scores[1:]) / 3
    assert made["ismcts"] > made["random"] + 1


# --- dix_de_suite: the turn horizon, the cost estimate, a narrower root ---------------------------

TURN_SPEC = "ismcts:iterations=12,horizon=turn,estimate=cost,rollout=heuristic,opponents=policy,expand=policy,c=0,root=paired,width=3"


def _simulation_after_a_draw(env, agent, seed: int):
    """Reset with ``seed``; a simulation of ``agent`` from the first seat's turn, that seat having drawn
    (a turn counts once the card is placed). Returns the env's state, the simulated world, the seat."""
    env.reset(seed=seed)
    state = env.unwrapped.state
    seat = state.current_player()
    world = state.clone()
    agent._seat = seat
    agent._begin(world)
    agent._start()
    world.apply_action(world.legal_actions()[0])  # draw
    return state, world, seat


@pytest.mark.parametrize("num_players", [2, 3])
def test_a_turn_horizon_stops_at_the_seats_next_decision_after_the_others_moved(num_players):
    env = _env("dix_de_suite", num_players=num_players)
    agent = make_agent("dix_de_suite", "ismcts:horizon=turn,rollout=heuristic", env, seed=0)
    went_on = 0
    for seed in range(4):
        state, world, seat = _simulation_after_a_draw(env, agent, seed)
        turns_before = list(world.seat_turns)
        finished = agent._play_out(world)
        if world.round == state.round:  # the round went on: the simulation waits at the seat's next turn
            assert not finished
            assert world.current_player() == seat and world.phase == PHASE_SOURCE
            moved = [s for s in range(num_players) if world.seat_turns[s] > turns_before[s]]
            assert sorted(moved) == list(range(num_players))  # this seat's turn and every other seat's
            went_on += 1
        else:
            assert finished
    assert went_on >= 1


def test_the_cost_estimate_favours_the_rack_the_heuristic_rates_better():
    # Seat 0 needs one card (slot 10); seat 1's rack is far from sorted.
    env = make_dix_de_suite({0: [1, 3, 5, 7, 9, 11, 13, 15, 17, 12], 1: [39, 2, 38, 4, 37, 6, 36, 8, 35, 10]}, discard=20, dealer=1)
    agent = make_agent("dix_de_suite", "ismcts:estimate=cost", env)
    est = SDS._dix_de_suite_cost_estimate(agent, env.unwrapped.state)
    assert est[0] > est[1]
    assert 0 <= est[1] < est[0] <= 75
    with_lis = make_agent("dix_de_suite", "ismcts:preset=defaults", env)  # plain ismcts is the strongest preset
    assert with_lis.estimate == "lis" and agent.estimate == "cost"


@pytest.mark.parametrize("spec", [TURN_SPEC, "pimc:iterations=12,horizon=turn,estimate=cost,rollout=heuristic,width=3"])
def test_a_narrow_root_searches_the_policy_move_and_the_best_others_only(spec):
    rack = [1, 3, 5, 7, 9, 30, 13, 15, 17, 19]
    env = make_dix_de_suite({0: rack, 1: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]}, discard=11, draw=list(range(21, 30)), dealer=1)
    env.step(env.string_to_action("take discard"))  # the placement of 11: ten legal swaps
    obs = env.observe("player_0")
    agent = make_agent("dix_de_suite", spec, env, seed=0)
    action = agent.act(obs)
    assert action in agent.last_search["visits"] and len(agent.last_search["visits"]) == 3
    assert env.action_to_string(action) == "swap 6"  # the move that sorts the rack, and the heuristic's
    heuristic = make_agent("dix_de_suite", "heuristic", env)
    assert heuristic.act(obs) in agent.last_search["visits"]


REPLY_SPEC = "ismcts:iterations=12,horizon=move,estimate=reply,rollout=heuristic,decisions=place,width=3,root=paired"


@pytest.mark.parametrize("spec", [TURN_SPEC, REPLY_SPEC])
def test_turn_search_reads_only_what_its_seat_knows(spec):
    env = _env("dix_de_suite")
    for skip in (0, 1, 3, 8, 9):
        obs = _decision(env, seed=10 + skip, skip=skip)
        if obs["action_mask"].sum() < 2:
            continue
        twin = _hidden_twin(env, rng_seed=skip)
        a = make_agent("dix_de_suite", spec, env, seed=5).act(obs)
        b = make_agent("dix_de_suite", spec, twin, seed=5).act(twin.observe(twin.agent_selection))
        assert a == b


@pytest.mark.parametrize("num_players", [2, 3])
def test_a_move_horizon_stops_as_soon_as_another_seat_is_to_act(num_players):
    env = _env("dix_de_suite", num_players=num_players)
    agent = make_agent("dix_de_suite", "ismcts:horizon=move,rollout=heuristic", env, seed=0)
    for seed in range(4):
        state, world, seat = _simulation_after_a_draw(env, agent, seed)  # the seat has a card to place
        turns_before = list(world.seat_turns)
        finished = agent._play_out(world)
        assert world.round == state.round and not finished
        assert world.current_player() == (seat + 1) % num_players and world.phase == PHASE_SOURCE
        assert world.seat_turns[seat] == turns_before[seat] + 1  # the placement was played, nothing after
        assert [t for s, t in enumerate(world.seat_turns) if s != seat] == [t for s, t in enumerate(turns_before) if s != seat]


def test_turn_cost_credits_the_seat_to_act_with_the_rest_of_its_turn():
    # Seat 0 to act; the discard top 11 sorts its rack in slot 6, and the heuristic takes it.
    rack = [1, 3, 5, 7, 9, 30, 13, 15, 17, 19]
    env = make_dix_de_suite({0: rack, 1: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]}, discard=11, draw=list(range(21, 30)), dealer=1)
    heuristic = make_agent("dix_de_suite", "heuristic", env)
    source = env.observe("player_0")
    assert env.action_to_string(heuristic.act(source)) == "take discard"
    before = heuristic.rack_cost(source["observation"])
    credited = heuristic.turn_cost(source)
    assert credited < before
    env.step(env.string_to_action("take discard"))
    place = env.observe("player_0")
    assert env.action_to_string(heuristic.act(place)) == "swap 6"
    # Placing the card where the heuristic puts it is the best of the turn's placements.
    assert heuristic.turn_cost(place) == pytest.approx(heuristic._placement_costs(np.array([11]))[:, 0].min())


def test_turn_cost_of_a_drawn_card_the_heuristic_discards_is_the_rack_as_it_is():
    env = _env("dix_de_suite")
    # A swap must gain more than 100 (no swap does): every drawn card is discarded.
    heuristic = make_agent("dix_de_suite", "heuristic:swap_margin=100", env)
    seen = 0
    for seed in range(3):
        env.reset(seed=seed)
        for _ in range(60):  # heuristic play: later in a round, drawn cards are often discarded
            if any(env.terminations.values()) or any(env.truncations.values()):
                break
            obs = env.observe(env.agent_selection)
            action = heuristic.act(obs)
            if action == SDS.dds_actions.DISCARD and obs["action_mask"][SDS.dds_actions.DISCARD]:
                assert heuristic.turn_cost(obs) == pytest.approx(heuristic.rack_cost(obs["observation"]))
                seen += 1
            env.step(action)
    assert seen >= 3


def test_the_reply_estimate_credits_the_next_seat_with_the_card_left_to_it():
    # Seat 1 to act: the discard top 11 sorts its rack, so its turn is worth more than its rack.
    rack = [1, 3, 5, 7, 9, 30, 13, 15, 17, 19]
    env = make_dix_de_suite({0: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20][::-1], 1: rack}, discard=11, draw=list(range(21, 30)), dealer=0)
    state = env.unwrapped.state
    assert state.current_player() == 1
    agent = make_agent("dix_de_suite", "ismcts:estimate=reply", env)
    cost = SDS._dix_de_suite_cost_estimate(agent, state)
    reply = SDS._dix_de_suite_reply_estimate(agent, state)
    assert reply[1] > cost[1] and reply[0] < cost[0]


def test_a_search_of_placements_only_plays_the_source_by_the_rollout_policy():
    env = _env("dix_de_suite")
    agent = make_agent("dix_de_suite", REPLY_SPEC, env, seed=0)
    heuristic = make_agent("dix_de_suite", "heuristic", env)
    searched = policy = 0
    for seed in range(12):
        obs = _decision(env, seed=seed, skip=seed % 4)
        if obs["action_mask"].sum() < 2:
            continue
        action = agent.act(obs)
        if env.unwrapped.state.phase == PHASE_SOURCE:
            assert agent.last_search["searched"] is False and action == heuristic.act(obs)
            policy += 1
        else:
            assert agent.last_search["iterations"] >= 3 and len(agent.last_search["visits"]) <= 3
            searched += 1
    assert searched and policy


@pytest.mark.parametrize(
    "game, params, message",
    [
        ("dix_de_suite", dict(estimate="exact"), "estimate='exact'; allowed: lis, cost, reply"),
        ("le_dix", dict(estimate="cost"), "estimate='cost': le_dix has no estimates"),
        ("le_dix", dict(horizon="turn"), "horizon='turn'; allowed: deal, game"),
        ("le_dix", dict(horizon="move"), "horizon='move'; allowed: deal, game"),
        ("dix", dict(horizon="turn"), "horizon='turn'; allowed: game"),
        ("dix_de_suite", dict(decisions="source"), "decisions='source'; allowed: all, place"),
        ("le_dix", dict(decisions="place"), "decisions='place': le_dix searches every decision"),
        ("dix_de_suite", dict(width=-1), "width=-1; allowed: an integer >= 0"),
        ("dix_de_suite", dict(width=3), "width=3 needs root='paired' or root='halving'"),  # dix_de_suite's root is ucb
    ],
)
def test_bad_turn_estimate_and_width_options_are_refused_by_name(game, params, message):
    with pytest.raises(ValueError, match=message):
        make_agent(game, "ismcts", _env(game), **params)


def test_a_move_horizon_search_is_one_ply_so_ismcts_and_pimc_agree():
    # horizon=move stops every simulation after the root move: the paired ismcts root and pimc
    # play the same worlds and reach the same means.
    options = "iterations=24,horizon=move,estimate=reply,rollout=heuristic,decisions=place,width=3"
    env = _env("dix_de_suite")
    searched = 0
    for seed in range(12):
        obs = _decision(env, seed=seed, skip=1 + 2 * (seed % 6))
        if obs["action_mask"].sum() < 2:
            continue
        tree = make_agent("dix_de_suite", f"ismcts:{options},root=paired", env, seed=3)
        flat = make_agent("dix_de_suite", f"pimc:{options}", env, seed=3)
        assert tree.act(obs) == flat.act(obs)
        assert tree.last_search.get("means") == flat.last_search.get("means")
        searched += "means" in tree.last_search
    assert searched >= 3


# --- dix_de_suite estimate=game: the chance of winning the game ------------------------------------
def test_game_values_are_the_even_game_of_the_rules():
    values = SDS._dix_de_suite_game_values(500)
    goal = 100  # 500 points in 5s
    assert values.shape == (goal, goal)
    np.testing.assert_allclose(values + values.T, 1.0, atol=1e-12)  # the seats are alike
    assert values[0, 0] == pytest.approx(0.5) and values[60, 60] == pytest.approx(0.5)
    assert np.all(np.diff(values, axis=0) >= -1e-12)  # more points never hurt
    assert np.all(np.diff(values, axis=1) <= 1e-12)
    # One round from the target with the other far behind: won whoever takes the round (its loser
    # scores 5 at least, and 75 does not take the other past 99 × 5).
    assert values[99, 0] == pytest.approx(1.0)
    # Once a seat reaches the target the rules decide: the highest wins, equal ones share.
    assert SDS._dix_de_suite_game_value(values, goal, 100, 95) == 1.0
    assert SDS._dix_de_suite_game_value(values, goal, 95, 100) == 0.0
    assert SDS._dix_de_suite_game_value(values, goal, 100, 100) == 0.5
    assert SDS._dix_de_suite_game_value(values, goal, 99, 99) == values[99, 99]


PREFIX_5 = [3, 6, 9, 12, 15, 2, 21, 24, 27, 33]  # slots 1..5 ascend; a card above 15 in slot 6 makes 6


def _prefix_5_after_drawing_38(scores):
    used = set(PREFIX_5) | {1, 38}
    opponent = [c for c in range(40, 0, -1) if c not in used][:10]
    env = make_dix_de_suite({0: PREFIX_5, 1: opponent}, 1, draw=[38], dealer=1)
    env.unwrapped.state.scores_[:] = scores
    env.step(env.unwrapped.string_to_action("draw"))
    return env


def test_game_estimate_sorts_the_prefix_that_wins_the_game():
    spec = "ismcts:iterations=32,horizon=move,estimate=game,rollout=heuristic,decisions=place,root=paired"
    for seed in range(3):
        # 470 + 6 × 5 = 500 > 380 + 75: 38 in slot 6 wins the game whoever sorts first, so every
        # world scores it exactly 1.
        env = _prefix_5_after_drawing_38([470, 380])
        agent = make_agent("dix_de_suite", spec, env, seed=seed)
        action = agent.act(env.observe(env.agent_selection))
        assert env.unwrapped.action_to_string(action) == "swap 6"
        assert agent.last_search["means"][action] == 1.0
        # Far from the target the same prefix wins nothing yet.
        env = _prefix_5_after_drawing_38([300, 300])
        agent = make_agent("dix_de_suite", spec, env, seed=seed)
        agent.act(env.observe(env.agent_selection))
        assert max(agent.last_search["means"].values()) < 0.9


@pytest.mark.parametrize(
    "options, spec, message",
    [
        (dict(num_players=3), "estimate=game", "covers 2 players"),
        (dict(num_players=4, teams=True), "estimate=game", "covers 2 players"),
        (dict(num_players=2, run_bonus=True), "estimate=game", "covers 2 players"),
        (dict(num_players=2), "estimate=game,value=margin", "needs value='win'"),
        (dict(num_players=2), "estimate=reply,value=win", "needs horizon='game'"),
    ],
)
def test_game_estimate_refuses_what_it_does_not_cover(options, spec, message):
    env = dix_de_suite_v0.raw_env(**options)
    with pytest.raises(ValueError, match=message):
        make_agent("dix_de_suite", f"ismcts:horizon=move,{spec}", env)


def test_game_estimate_plays_legal_games():
    env = dix_de_suite_v0.raw_env(num_players=2, target_score=150)
    spec = "ismcts:iterations=4,horizon=move,estimate=game,rollout=heuristic,decisions=place,width=2,root=paired"
    agents = [make_agent("dix_de_suite", spec, env, seed=1), make_agent("dix_de_suite", "heuristic", env)]
    actions = play_game(env, agents, seed=2)  # every move checked legal
    assert env.unwrapped.state.is_terminal() and len(actions) > 50


# --- deviate: SPARTA's rule, the rollout policy's move unless another is clearly better -----------
DEVIATE_OPTIONS = "iterations=16,horizon=move,estimate=reply,rollout=heuristic,decisions=place,width=3"


def _searched_placements(env, count: int):
    """Observations of ``count`` placements with a choice, from random play on fixed seeds."""
    found = []
    for seed in range(60):
        obs = _decision(env, seed=seed, skip=1 + 2 * (seed % 9))
        if obs["action_mask"].sum() >= 2 and env.unwrapped.state.phase != PHASE_SOURCE:
            found.append(seed)
        if len(found) == count:
            return found
    raise AssertionError("too few placements with a choice")


@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_a_deviation_threshold_above_any_gap_plays_the_rollout_policy(kind):
    # Values are a share of the round's span: no mean beats another by 10, so the policy's move stays.
    env = _env("dix_de_suite")
    root = ",root=paired" if kind == "ismcts" else ""
    agent = make_agent("dix_de_suite", f"{kind}:{DEVIATE_OPTIONS}{root},deviate=10", env, seed=0)
    heuristic = make_agent("dix_de_suite", "heuristic", env)
    for seed in _searched_placements(env, 8):
        obs = _decision(env, seed=seed, skip=1 + 2 * (seed % 9))
        assert agent.act(obs) == heuristic.act(obs) == agent.last_search["policy_move"]


def test_a_deviation_threshold_keeps_the_policy_move_unless_the_best_beats_it_by_more():
    env = _env("dix_de_suite")
    kept = deviated = 0
    for seed in _searched_placements(env, 20):
        obs = _decision(env, seed=seed, skip=1 + 2 * (seed % 9))
        plain = make_agent("dix_de_suite", f"ismcts:{DEVIATE_OPTIONS},root=paired", env, seed=4)  # same seed: same worlds
        best = plain.act(obs)
        means = plain.last_search["means"]
        policy_move = make_agent("dix_de_suite", "heuristic", env).act(obs)
        gap = means[best] - means[policy_move]
        # A threshold just below the gap lets the search's best through; one just above keeps the policy's move.
        low = make_agent("dix_de_suite", f"ismcts:{DEVIATE_OPTIONS},root=paired,deviate={gap / 2 if gap > 0 else 0}", env, seed=4)
        high = make_agent("dix_de_suite", f"ismcts:{DEVIATE_OPTIONS},root=paired,deviate={gap + 1e-6}", env, seed=4)
        assert high.act(obs) == policy_move and high.last_search["means"] == means
        if gap > 0:
            assert low.act(obs) == best
            deviated += 1
        else:
            kept += 1
    assert kept and deviated  # both cases were seen


@pytest.mark.parametrize(
    "params, message",
    [
        (dict(deviate=-0.1), "deviate=-0.1; allowed: a number >= 0"),
        (dict(deviate="high"), "deviate='high'; allowed: a number >= 0"),
        (dict(deviate=0.05), "deviate=0.05 needs root='paired'"),  # dix_de_suite's root is ucb
        (dict(deviate=0.05, root="halving"), "deviate=0.05 needs root='paired'.*got root='halving'"),
    ],
)
def test_bad_deviation_thresholds_are_refused_by_name(params, message):
    with pytest.raises(ValueError, match=message):
        make_agent("dix_de_suite", "ismcts", _env("dix_de_suite"), **params)


# --- round_win: how rack costs become chances of sorting first -------------------------------------
def test_fitted_round_win_is_the_logistic_fit_in_log_costs_with_the_tempo_of_the_seat_to_act():
    env = make_dix_de_suite({0: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20][::-1], 1: [1, 3, 5, 7, 9, 30, 13, 15, 17, 19]},
                            discard=11, draw=list(range(21, 30)), dealer=0)
    state = env.unwrapped.state
    assert state.current_player() == 1
    fitted = make_agent("dix_de_suite", "ismcts:horizon=move,estimate=reply,round_win=fitted", env)
    softmax = make_agent("dix_de_suite", "ismcts:horizon=move,estimate=reply", env)
    assert softmax.round_win == "softmax"
    costs = [12.0, 3.0]
    p = SDS._dix_de_suite_sort_chances(fitted, state, costs)
    acting = 1 / (1 + math.exp(-(SDS.DDS_FIT_TEMPO + SDS.DDS_FIT_SLOPE * math.log((1 + 12.0) / (1 + 3.0)))))
    assert p[1] == pytest.approx(acting) and sum(p) == pytest.approx(1.0)
    # Equal costs: the seat to act, its turn already counted, is behind by the tempo of the other's turn.
    assert SDS._dix_de_suite_sort_chances(fitted, state, [5.0, 5.0])[1] == pytest.approx(1 / (1 + math.exp(-SDS.DDS_FIT_TEMPO)))
    # The same gap decides more at low costs; the softmax gives both gaps the same chance.
    assert SDS._dix_de_suite_sort_chances(fitted, state, [4.0, 2.0])[1] > SDS._dix_de_suite_sort_chances(fitted, state, [34.0, 32.0])[1]
    low, high = (SDS._dix_de_suite_sort_chances(softmax, state, c)[1] for c in ([4.0, 2.0], [34.0, 32.0]))
    assert low == pytest.approx(high) == pytest.approx(1 / (1 + math.exp(-2.0 / SDS.COST_TAU)))
    # The reply estimate reads the chances: its seat values move with the model.
    assert SDS._dix_de_suite_reply_estimate(fitted, state) != SDS._dix_de_suite_reply_estimate(softmax, state)


def test_fitted_round_win_plays_legal_games():
    env = dix_de_suite_v0.raw_env(num_players=2, target_score=150)
    spec = "ismcts:iterations=4,horizon=move,estimate=game,rollout=heuristic,decisions=place,width=2,root=paired,round_win=fitted"
    agents = [make_agent("dix_de_suite", spec, env, seed=1), make_agent("dix_de_suite", "heuristic", env)]
    actions = play_game(env, agents, seed=2)
    assert env.unwrapped.state.is_terminal() and len(actions) > 50


@pytest.mark.parametrize(
    "game, options, spec, message",
    [
        ("dix_de_suite", dict(num_players=2), "round_win=exact", "round_win='exact'; allowed: softmax, fitted"),
        ("dix_de_suite", dict(num_players=2), "estimate=cost,round_win=fitted", "needs game dix_de_suite with estimate='reply' or 'game'.*estimate='cost'"),
        ("dix_de_suite", dict(num_players=2), "round_win=softmax", "estimate='lis'"),  # the default estimate
        ("dix_de_suite", dict(num_players=3), "estimate=reply,round_win=fitted", "fitted on 2-player games.*num_players=3"),
        ("dix_de_suite", dict(num_players=2, two_player_run=True), "estimate=reply,round_win=fitted", "two_player_run=True"),
        ("dix_de_suite", dict(num_players=2, run_bonus=True), "estimate=reply,round_win=fitted", "run_bonus=True"),
        ("le_dix", dict(), "round_win=fitted", "got game 'le_dix'"),
    ],
)
def test_bad_round_win_options_are_refused_by_name(game, options, spec, message):
    env = {"dix_de_suite": dix_de_suite_v0, "le_dix": le_dix_v0}[game].raw_env(**options)
    with pytest.raises(ValueError, match=message):
        make_agent(game, f"ismcts:horizon=move,{spec}" if game == "dix_de_suite" else f"ismcts:{spec}", env)


# --- belief: worlds that model what the other seats' play reveals ---------------------------------
BELIEF_SPEC = "ismcts:iterations=8,horizon=move,estimate=game,rollout=heuristic,decisions=place,width=2,root=paired,belief=progress"


def test_progress_belief_refines_every_world_the_search_draws():
    env = _env("dix_de_suite")
    agent = make_agent("dix_de_suite", BELIEF_SPEC, env, seed=1)
    assert agent.belief == "progress" and make_agent("dix_de_suite", "ismcts:preset=defaults", env).belief == "uniform"
    refined = []
    real = agent._refine
    agent._refine = lambda world, seat, rng: refined.append(seat) or real(world, seat, rng)
    drawn = 0
    for skip in range(12):
        obs = _decision(env, seed=4, skip=skip)
        if obs["action_mask"].sum() < 2:
            continue
        before = len(refined)
        assert obs["action_mask"][agent.act(obs)] == 1
        seat = int(env.unwrapped.agent_selection.rsplit("_", 1)[1])
        assert set(refined[before:]) <= {seat}
        drawn += len(refined) - before
    assert drawn >= 8  # every world drawn, searched or not (decisions=place reads one to tell the kind)


@pytest.mark.parametrize("spec", [BELIEF_SPEC, "pimc:iterations=6,rollout=greedy,depth=6,belief=progress"])
def test_same_move_under_the_belief_when_only_hidden_facts_differ(spec):
    differed, compared = _same_moves_in_hidden_twins("dix_de_suite", spec, seed=20, skips=(3, 9, 15, 21))
    assert differed >= 1 and compared >= 2


def test_progress_belief_plays_legal_games_at_every_table():
    for players in (2, 3, 4):
        env = dix_de_suite_v0.raw_env(num_players=players, target_score=80, max_turns=200)
        agents = [make_agent("dix_de_suite", "pimc:iterations=4,rollout=greedy,depth=4,belief=progress", env, seed=1)]
        agents += [make_agent("dix_de_suite", "heuristic", env) for _ in range(players - 1)]
        assert play_game(env, agents, seed=players)
        assert env.unwrapped.state.current_player() < 0


@pytest.mark.parametrize(
    "game, spec, message",
    [
        ("dix_de_suite", "ismcts:belief=sorted", "belief='sorted'; allowed: uniform, progress"),
        ("le_dix", "ismcts:belief=progress", "belief='progress'; allowed: uniform"),
        ("dix", "pimc:belief=progress", "belief='progress'; allowed: uniform"),
    ],
)
def test_bad_beliefs_are_refused_by_name(game, spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(game, spec, _env(game))
