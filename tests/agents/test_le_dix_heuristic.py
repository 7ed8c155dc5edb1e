"""The le_dix heuristic: always legal, deterministic, far better than random, and sensible decisions.

Scenario tests stack the first deal (``tests.games.le_dix.helpers``) with ``auto_forced=False``
and drive every other seat by action strings, so only the decision under test is the agent's.
"""

from __future__ import annotations

import numpy as np
import pytest

from dixenv.agents.base import RandomAgent
from dixenv.agents.le_dix_heuristic import LeDixHeuristic
from dixenv.agents.registry import make_agent
from dixenv import le_dix_v0
from tests.agents.helpers import act as _act
from tests.agents.helpers import play_game as _play_game
from tests.games.le_dix.helpers import make, play

# --- legality and determinism ------------------------------------------------------------------
LEGAL_CASES = [
    dict(num_players=3),
    dict(num_players=4, hook=True),
    dict(num_players=5),
    dict(num_players=5, hook=True, deals=(10, 3, 1)),
    dict(num_players=3, hook=True, deals=(17, 16)),
    dict(num_players=4, deals=(1, 1, 2), auto_forced=False),
    dict(num_players=4, scoring="oh_hell", deals=(12, 5)),
]


@pytest.mark.parametrize("options", LEGAL_CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_heuristic_always_returns_a_legal_action(options):
    env = le_dix_v0.raw_env(**options)
    n = options["num_players"]
    for game in range(8):
        # Mix in random seats so the heuristic meets busted bids, odd tricks and wild positions.
        agents = [
            LeDixHeuristic(env, seed=game) if (s + game) % 2 == 0 else RandomAgent(env, seed=100 * game + s)
            for s in range(n)
        ]
        _play_game(env, agents, seed=game)
        assert env.unwrapped.state.is_terminal()


def test_heuristic_plays_the_wrapped_env():
    env = le_dix_v0.env(num_players=4, deals=(4, 2))
    _play_game(env, [LeDixHeuristic(env, seed=s) for s in range(4)], seed=5)
    assert env.unwrapped.state.is_terminal()
    assert all(score % 10 == 0 and 0 <= score <= 20 for score in env.unwrapped.scores())


def test_heuristic_is_deterministic_for_a_seed():
    env = le_dix_v0.raw_env(num_players=4, deals=(6, 3))
    first = _play_game(env, [LeDixHeuristic(env, seed=7) for _ in range(4)], seed=11)
    second = _play_game(env, [LeDixHeuristic(env, seed=7) for _ in range(4)], seed=11)
    assert first == second


def test_heuristic_reads_only_the_observation():
    env = le_dix_v0.raw_env(num_players=4)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    agent = LeDixHeuristic(env)
    expected = agent.act(obs)
    env.unwrapped.state = None  # any access to the hidden state would now fail
    assert agent.act(obs) == expected


def test_registry_builds_the_heuristic_and_unknown_parameters_fail():
    env = le_dix_v0.raw_env(num_players=3)
    agent = make_agent("le_dix", "heuristic:bid_offset=0.1", env, seed=1)
    assert isinstance(agent, LeDixHeuristic) and agent.name == "heuristic"
    assert agent.params["bid_offset"] == 0.1
    with pytest.raises(ValueError, match="bid_ofset"):
        LeDixHeuristic(env, bid_ofset=0.1)


# --- strength against random agents ------------------------------------------------------------
def test_heuristic_beats_three_random_agents_clearly():
    # 40 fixed-seed games, the heuristic's seat rotating. Measured: heuristic 59.0 points a game
    # (sd 15), random seats 20.2, heuristic wins 96% of the games. The thresholds keep a wide margin.
    env = le_dix_v0.raw_env(num_players=4)
    heuristic = LeDixHeuristic(env, seed=0)
    rnd = RandomAgent(env, seed=0)
    mine, theirs, wins = [], [], 0.0
    for game in range(40):
        hero = game % 4
        _play_game(env, [heuristic if s == hero else rnd for s in range(4)], seed=1000 + game, check_legal=False)
        scores = env.unwrapped.scores()
        mine.append(scores[hero])
        theirs.extend(scores[s] for s in range(4) if s != hero)
        top = [s for s in range(4) if scores[s] == max(scores)]
        wins += (1 / len(top)) if hero in top else 0.0
    assert np.mean(mine) >= np.mean(theirs) + 25
    assert wins / 40 >= 0.7


# --- decisions in stacked deals ----------------------------------------------------------------
LOW_HANDS = {
    0: ["2S", "3S", "4S", "2D", "3D"],
    1: ["AS", "KS", "AD", "KD", "AC"],
    2: ["QS", "JS", "QD", "JD", "KC"],
    3: ["TS", "9S", "TD", "9D", "QC"],
}


def test_only_low_cards_and_no_trump_bids_zero():
    # Player 0, left of the dealer, bids first with five low spades/diamonds; hearts are trump.
    env = make(4, LOW_HANDS, trump="7H", dealer=3)
    play(env, "leave trump")
    assert env.agent_selection == "player_0"
    assert _act(env, LeDixHeuristic(env)) == "bid 0"


def test_ten_low_cards_without_trump_bid_zero():
    hands = {
        0: ["2S", "3S", "4S", "5S", "2D", "3D", "4D", "5D", "2C", "3C"],
        1: ["AS", "KS", "QS", "JS", "AD", "KD", "QD", "AC", "KC", "QC"],
        2: ["TS", "9S", "8S", "JD", "TD", "9D", "JC", "TC", "9C", "AH"],
        3: ["7S", "6S", "8D", "7D", "6D", "8C", "7C", "6C", "KH", "QH"],
    }
    env = make(4, hands, trump="2H", dealer=3, deals=(10,))
    play(env, "leave trump")
    assert _act(env, LeDixHeuristic(env)) == "bid 0"


@pytest.mark.parametrize("card, bid", [("AH", "bid 1"), ("2S", "bid 0")])
def test_one_card_deal_bids_the_exact_odds(card, bid):
    # Hearts trump, player 0 leads: the ace of trumps surely wins; a low spade almost surely loses.
    hands = {0: [card], 1: ["5D"], 2: ["7C"], 3: ["9D"]}
    env = make(4, hands, trump="3H", dealer=3)
    play(env, "leave trump")
    assert _act(env, LeDixHeuristic(env)) == bid


def test_strong_trumps_bid_their_tricks():
    hands = {
        0: ["AH", "KH", "QH", "2S", "3D"],
        1: ["AS", "KS", "AD", "KD", "AC"],
        2: ["QS", "JS", "QD", "JD", "KC"],
        3: ["TS", "9S", "TD", "9D", "QC"],
    }
    env = make(4, hands, trump="7H", dealer=3)
    play(env, "leave trump")
    assert _act(env, LeDixHeuristic(env)) == "bid 3"


def test_needing_one_trick_it_keeps_the_ace_of_trumps_and_ducks_the_low_trump():
    # Hearts trump. Player 3 leads 5H; player 0 (bid 1) holds AH and 3H. The ace takes a trick
    # whenever it is played, so it keeps it and gets rid of the 3H now, under the 5H: one low
    # card fewer that could take an unwanted trick later.
    hands = {
        0: ["AH", "3H", "2C", "4C"],
        1: ["2S", "3S", "4S", "5S"],
        2: ["2D", "3D", "4D", "5D"],
        3: ["5H", "6S", "7S", "8S"],
    }
    env = make(4, hands, trump="9H", dealer=2)
    play(env, "leave trump", "bid 1", "bid 1", "bid 0", "bid 1", "play 5H")
    assert env.agent_selection == "player_0"
    assert _act(env, LeDixHeuristic(env)) == "play 3H"


def test_needing_one_trick_on_lead_it_keeps_the_ace_of_trumps_for_later():
    # Player 0 (bid 1) leads with AH and three low side cards: the ace is a sure trick at any
    # time, so it leads a low card now (it can still lose) rather than cashing the ace.
    hands = {
        0: ["AH", "2C", "3C", "4D"],
        1: ["2S", "3S", "4S", "5S"],
        2: ["6D", "3D", "7D", "5D"],
        3: ["5H", "6S", "7S", "8S"],
    }
    env = make(4, hands, trump="9H", dealer=3)
    play(env, "leave trump", "bid 1", "bid 0", "bid 0", "bid 1")
    assert env.agent_selection == "player_0"
    assert _act(env, LeDixHeuristic(env)) in ("play 2C", "play 3C", "play 4D")


def test_last_to_play_needing_its_last_trick_it_wins_with_a_top_card_and_keeps_the_ten():
    # Player 0 is the dealer, so it plays last: 5S, 9S, 7S are down; TS, KS and AS all win. With
    # its bid made by this trick, the cards it keeps must lose: it keeps the ten, not two top spades.
    hands = {
        0: ["TS", "KS", "AS", "2D"],
        1: ["5S", "3D", "4D", "5D"],
        2: ["9S", "6D", "7D", "8D"],
        3: ["7S", "9D", "TD", "JD"],
    }
    env = make(4, hands, trump="2H", dealer=0)
    play(env, "leave trump", "bid 0", "bid 0", "bid 0", "bid 1", "play 5S", "play 9S", "play 7S")
    assert env.agent_selection == "player_0"
    assert _act(env, LeDixHeuristic(env)) in ("play KS", "play AS")


def test_with_its_bid_made_it_ducks_under_the_winning_card():
    # Player 0 bid 0. Player 3 leads KS: QS is the highest spade that still loses (not 3S, not AS).
    hands = {
        0: ["QS", "AS", "3S", "2D"],
        1: ["2S", "4S", "3D", "4D"],
        2: ["5S", "6D", "7D", "8D"],
        3: ["KS", "9D", "TD", "JD"],
    }
    env = make(4, hands, trump="2H", dealer=2)
    play(env, "leave trump", "bid 1", "bid 0", "bid 0", "bid 1", "play KS")
    assert env.agent_selection == "player_0"
    assert _act(env, LeDixHeuristic(env)) == "play QS"


def test_with_its_bid_made_and_void_it_throws_its_most_dangerous_card_and_never_trumps():
    # Diamonds led, player 0 (bid 0) has none: AS goes; the trump KH would win, 2C is harmless.
    hands = {
        0: ["AS", "2C", "KH", "3C"],
        1: ["2S", "3D", "4D", "5S"],
        2: ["5D", "6D", "7D", "8D"],
        3: ["TD", "9D", "JD", "6S"],
    }
    env = make(4, hands, trump="2H", dealer=2)
    play(env, "leave trump", "bid 1", "bid 0", "bid 0", "bid 1", "play TD")
    assert env.agent_selection == "player_0"
    assert _act(env, LeDixHeuristic(env)) == "play AS"


def test_needing_no_trick_it_leads_a_card_that_cannot_win():
    hands = {
        0: ["AS", "2D", "KH", "3C"],
        1: ["2S", "3D", "4D", "5S"],
        2: ["5D", "6D", "7D", "8D"],
        3: ["TD", "9D", "JD", "6S"],
    }
    env = make(4, hands, trump="2H", dealer=3)
    play(env, "leave trump", "bid 0", "bid 1", "bid 1", "bid 1")
    assert _act(env, LeDixHeuristic(env)) in ("play 2D", "play 3C")


def test_dealer_takes_the_trump_card_and_discards_its_weakest_card():
    hands = {
        0: ["2S", "QS", "KD", "5C"],
        1: ["3S", "4S", "3D", "4D"],
        2: ["5S", "6D", "7D", "8D"],
        3: ["6S", "9D", "TD", "JD"],
    }
    env = make(4, hands, trump="AH", dealer=0)
    agent = LeDixHeuristic(env)
    assert _act(env, agent) == "take trump"
    play(env, "take trump")
    assert _act(env, agent) == "discard 2S"


def test_under_the_hook_the_dealer_bids_a_legal_neighbour_of_its_estimate():
    # The others bid 1+1+1 of 4 tricks; the dealer's natural bid 1 is forbidden by the hook.
    hands = {
        0: ["AH", "2S", "3S", "2D"],
        1: ["AS", "KS", "3D", "4D"],
        2: ["AD", "KD", "5D", "6D"],
        3: ["AC", "KC", "QC", "JC"],
    }
    env = make(4, hands, trump="7H", dealer=0, hook=True)
    play(env, "leave trump", "bid 1", "bid 1", "bid 1")
    assert env.agent_selection == "player_0"
    assert "bid 1" not in [env.action_to_string(a) for a in env.legal_actions()]
    assert _act(env, LeDixHeuristic(env)) in ("bid 0", "bid 2")


# --- the measuring scripts ---------------------------------------------------------------------
def test_stats_script_runs_and_reports_made_rate_and_win_share(capsys):
    from experiments.studies.le_dix_heuristic import le_dix_stats

    le_dix_stats.main(["--games", "2", "--players", "3", "--option", "deals=(3,2)"])
    out = capsys.readouterr().out
    assert "mean over hand sizes" in out and "win share" in out


def test_versus_mode_splits_wins_evenly_between_identical_heuristics(capsys):
    # The same heuristic on both sides plays every rotation of a deal seed identically: a complete
    # seat rotation then gives each side exactly half of the wins and the same mean score.
    from pathlib import Path

    from experiments.studies.le_dix_heuristic import le_dix_stats

    baseline = Path(__file__).resolve().parents[2] / "agents" / "le_dix_heuristic.py"
    r = le_dix_stats.run(4, 8, 3, "versus", {}, {"deals": (4, 2)}, 1, str(baseline))
    assert r["win_share"] / r["games"] == pytest.approx(0.5)
    assert np.mean(r["heur_scores"]) == pytest.approx(np.mean(r["other_scores"]))
    assert r["count"].sum() == r["base_count"].sum() == 8 * 2 * 2
    with pytest.raises(ValueError, match="multiple of players"):
        le_dix_stats.run(4, 6, 3, "versus", {}, {"deals": (2,)}, 1, str(baseline))


def test_calibration_script_fits_one_weight_per_feature():
    from dixenv.agents.le_dix_heuristic import _CALIB
    from experiments.studies.le_dix_heuristic import le_dix_calibrate

    result = le_dix_calibrate.main(["--games", "3", "--players", "4"])
    assert len(result["weights"]) == len(_CALIB)
    assert result["cards"] > 0


def test_phase_swap_bids_with_one_agent_and_plays_with_the_other():
    from dixenv.games.le_dix.state import BIDDING, PLAYING
    from experiments.studies.le_dix_heuristic.phase_swap import PhaseSwap

    env = le_dix_v0.env(num_players=3, deals=(3, 2))
    swap = PhaseSwap(env, seed=1, bidder="heuristic", player="random")
    heuristic = LeDixHeuristic(env)
    env.reset(seed=6)
    bids = plays = 0
    while not env.unwrapped.state.is_terminal():
        obs = env.observe(env.agent_selection)
        action = swap.act(obs)
        if env.unwrapped.state.phase == BIDDING:
            assert action == heuristic.act(obs)
            bids += 1
        elif env.unwrapped.state.phase == PLAYING:
            plays += 1
        env.step(action)
    assert bids == 6 and plays > 0  # single legal cards are played by the env
    # the random player's cards differ from the heuristic's somewhere in a few games
    differ = 0
    for seed in range(4):
        env.reset(seed=seed)
        while not env.unwrapped.state.is_terminal():
            obs = env.observe(env.agent_selection)
            action = swap.act(obs)
            differ += env.unwrapped.state.phase == PLAYING and action != heuristic.act(obs)
            env.step(action)
    assert differ > 0
