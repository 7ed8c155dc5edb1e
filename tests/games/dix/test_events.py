"""The move log: every decision, every move the rules make, and the markers, in order, in plain words."""

from __future__ import annotations

import re

import numpy as np
import pytest

from dixenv import dix_v0
from dixenv.games.dix.cards import CARD_NAMES, NUM_TYPES, parse_card
from dixenv.games.dix.game import GAME
from tests.games.dix.helpers import OPTION_SETS, options_id

CARD = re.compile(r"(?<![\w$*#])([BGOP][1-9]|[BGOP]#|W[1-9]|\*\*|\$[1-5])(?![\w#])")


def run(env, actions: list[str]) -> list[tuple[int, str, str]]:
    for text in actions:
        env.step(env.string_to_action(text))
    return [(e.seat, e.kind, e.text) for e in env.events]


def test_a_stacked_three_player_game_logs_every_move_in_order():
    env = dix_v0.raw_env(num_players=3, record_events=True)
    env.reset(seed=0, options={"deck": ["B3", "W5", "$2", "B9", "O2", "G1", "P1"], "first_player": 0})
    got = run(env, ["draw", "bid 2", "pass", "bid 3", "draw", "take numbers", "draw", "draw", "take numbers",
                    "buy O2", "pay G1", "pay token", "skip"])
    assert got == [
        (-1, "mark", "dix, 3 players: 7 cards in the draw pile, 5 tokens each; player_0 starts"),
        (-1, "mark", "turn of player_0, 7 cards in the draw pile"),
        (0, "auto", "player_0 draws B3: tableau total 3"),  # the first draw is the environment's
        (0, "move", "player_0 draws W5: an auction, player_1 bids first"),
        (1, "move", "player_1 bids 2"),
        (2, "move", "player_2 passes"),
        (0, "move", "player_0 bids 3"),
        (0, "auto", "player_0 wins W5 for 3"),
        (0, "forced", "player_0 pays a token: 2 to go"),  # tokens only: the one way to pay
        (0, "forced", "player_0 pays a token: 1 to go"),
        (0, "forced", "player_0 pays a token: paid"),
        (0, "auto", "player_0 takes W5"),
        (0, "move", "player_0 draws $2: tableau total 1, currency 2"),
        (0, "move", "player_0 takes the numbers: B3"),
        (1, "auto", "player_1 gains 2 tokens for the currency on player_0's tableau (now 7)"),
        (2, "auto", "player_2 gains 2 tokens for the currency on player_0's tableau (now 7)"),
        (-1, "auto", "to the discard pile: $2"),
        (0, "forced", "player_0 skips the buy"),  # the market is empty
        (-1, "mark", "turn of player_1, 4 cards in the draw pile"),
        (1, "auto", "player_1 draws B9: tableau total 9"),
        (1, "move", "player_1 draws O2: tableau total 11"),
        (1, "auto", "player_1 busts: total 11 is over 10"),
        (-1, "auto", "to the market: B9 O2"),
        (1, "auto", "player_1 gains a consolation token for the bust (now 1)"),
        (-1, "mark", "turn of player_2, 2 cards in the draw pile"),
        (2, "auto", "player_2 draws G1: tableau total 1"),
        (2, "move", "player_2 draws P1: tableau total 2"),
        (-1, "mark", "the draw pile is empty: this turn ends without another draw, then a final buy round"),
        (2, "move", "player_2 takes the numbers: G1 P1"),
        (2, "move", "player_2 buys O2 for 2"),
        (2, "move", "player_2 pays G1: 1 to go"),
        (2, "move", "player_2 pays a token: paid"),
        (2, "auto", "player_2 takes O2 from the market"),
        (-1, "mark", "final round: one buy each, from player_0 to player_2"),
        (0, "forced", "player_0 skips the buy"),  # B9 is beyond player_0's means
        (1, "move", "player_1 skips the buy"),
        (2, "forced", "player_2 skips the buy"),
        (-1, "mark", "game over: player_0 2 points (money 2, 2 cards), player_1 0 points (money 10, 0 cards), "
                     "player_2 2 points (money 6, 2 cards); player_2 wins"),
    ]


def test_without_auto_forced_the_only_legal_move_is_logged_as_a_decision():
    env = dix_v0.raw_env(num_players=3, record_events=True, auto_forced=False)
    env.reset(seed=0, options={"deck": ["B3", "W5", "$2", "B9"], "first_player": 0})
    got = run(env, ["draw", "bid 2", "pass", "bid 3", "pay token"])
    assert got[-2:] == [(0, "auto", "player_0 wins W5 for 3"), (0, "move", "player_0 pays a token: 2 to go")]


def test_solo_log_explains_alix_winning_a_wild_before_the_players_first_move():
    env = dix_v0.raw_env(solo=True, record_events=True)
    env.reset(seed=0, options={"deck": ["W1", "B2", "$5", "$5", "G3", "O4", "P9", "B5"]})
    assert list(env.unwrapped.state.collections[1])[parse_card("W1")] == 1
    assert [(e.seat, e.kind, e.text) for e in env.events] == [
        (-1, "mark", "dix, solo against ALIX (difficulty 4): 8 cards in the draw pile, 5 tokens each; player_0 starts"),
        (-1, "mark", "turn of player_0, 8 cards in the draw pile"),
        (0, "auto", "player_0 draws W1: an auction, ALIX bids first"),
        (1, "auto", "ALIX bids 5"),
        (0, "forced", "player_0 passes"),  # a bid must beat 5 and player_0 has 5 tokens
        (1, "auto", "ALIX wins W1 for 5"),
        *[(1, "auto", f"ALIX pays a token: {k} to go") for k in (4, 3, 2, 1)],
        (1, "auto", "ALIX pays a token: paid"),
        (1, "auto", "ALIX takes W1"),
    ]


def test_solo_log_explains_the_tokens_the_player_gains_on_alix_turn():
    env = dix_v0.raw_env(solo=True, record_events=True)
    env.reset(seed=0, options={"deck": ["W1", "B2", "$5", "$5", "G3", "O4", "P9", "B5"]})
    before = len(env.events)
    got = run(env, ["draw", "take numbers"])[before:]
    assert got == [
        (0, "move", "player_0 draws B2: tableau total 2"),
        (0, "move", "player_0 takes the numbers: B2"),
        (0, "forced", "player_0 skips the buy"),
        (-1, "mark", "turn of ALIX, 6 cards in the draw pile"),
        (1, "auto", "ALIX draws $5: tableau total -5, currency 5"),  # ALIX's whole turn is the environment's
        (1, "auto", "ALIX draws $5: tableau total -10, currency 10"),
        (1, "auto", "ALIX draws G3: tableau total -7, currency 10"),
        (1, "auto", "ALIX draws O4: tableau total -3, currency 10"),
        (1, "auto", "ALIX draws P9: tableau total 6, currency 10"),
        (1, "auto", "ALIX takes the numbers: G3 O4 P9"),
        (0, "auto", "player_0 gains 10 tokens for the currency on ALIX's tableau (now 10, 5 lost over the cap of 10)"),
        (-1, "auto", "to the discard pile: $5 $5"),
        (1, "auto", "ALIX skips the buy"),
        (-1, "mark", "turn of player_0, 1 card in the draw pile"),
        (0, "auto", "player_0 draws B5: tableau total 5"),
        (-1, "mark", "the draw pile is empty: this turn ends without another draw, then a final buy round"),
    ]
    assert env.unwrapped.state.tokens[0] == 10


def test_solo_bust_on_currency_alix_keeps_her_numbers_and_her_token_is_logged():
    env = dix_v0.raw_env(solo=True, difficulty=10, record_events=True)
    env.reset(seed=0, options={"deck": ["B1", "B2", "$5", "$4", "$3", "G1"]})
    before = len(env.events)
    got = run(env, ["take numbers"])[before:]
    assert got[-8:] == [
        (1, "auto", "ALIX draws $3: tableau total -10, currency 12"),
        (1, "auto", "ALIX busts: currency 12 is over 10"),
        (1, "auto", "ALIX still takes the numbers (solo rule): B2"),
        (1, "auto", "ALIX gains a consolation token for the bust (now 1)"),
        (-1, "auto", "to the discard pile: $3 $4 $5"),
        (-1, "mark", "turn of player_0, 1 card in the draw pile"),
        (0, "auto", "player_0 draws G1: tableau total 1"),
        (-1, "mark", "the draw pile is empty: this turn ends without another draw, then a final buy round"),
    ]


def test_bust_buy_logs_the_buy_before_the_others_are_paid():
    env = dix_v0.raw_env(num_players=3, bust_buy=True, auto_pay=True, record_events=True)
    env.reset(seed=0, options={"deck": ["$2", "B9", "B4", "G1"], "first_player": 0})
    before = len(env.events)
    got = run(env, ["draw", "draw", "buy B4"])[before:]
    assert got == [
        (0, "move", "player_0 draws B9: tableau total 7, currency 2"),
        (0, "move", "player_0 draws B4: tableau total 11, currency 2"),
        (0, "auto", "player_0 busts: total 11 is over 10"),
        (-1, "auto", "to the market: B4 B9"),
        (0, "move", "player_0 buys B4 for 4"),
        *[(0, "auto", f"player_0 pays a token: {k} to go") for k in (3, 2, 1)],  # auto_pay pays by itself
        (0, "auto", "player_0 pays a token: paid"),
        (0, "auto", "player_0 takes B4 from the market"),
        (1, "auto", "player_1 gains 2 tokens for the currency on player_0's tableau (now 7)"),
        (2, "auto", "player_2 gains 2 tokens for the currency on player_0's tableau (now 7)"),
        (-1, "auto", "to the discard pile: $2"),
        (-1, "mark", "turn of player_1, 1 card in the draw pile"),
        (1, "auto", "player_1 draws G1: tableau total 1"),
        (-1, "mark", "the draw pile is empty: this turn ends without another draw, then a final buy round"),
    ]


def test_a_wild_nobody_bids_on_and_the_change_lost_on_a_consolation_token_are_logged():
    env = dix_v0.raw_env(num_players=2, record_events=True)
    env.reset(seed=0, options={"deck": ["B9", "B8", "W5", "G2", "B1"], "first_player": 0})
    # player_0 busts (B9 + B8: a consolation token); player_1 draws W5, nobody bids; player_1 takes
    # G2; player_0 takes B1 and buys B8 with 5 tokens, B1 and the consolation token (3 for the last 2).
    got = run(env, ["draw", "pass", "pass", "draw", "take numbers", "take numbers", "buy B8",
                    *["pay token"] * 5, "pay B1"])  # then the consolation token is the only way left
    texts = [text for _, _, text in got]
    assert "nobody bids: W5 goes to the discard pile" in texts
    assert texts[texts.index("player_0 buys B8 for 8") + 1 :][:8] == [
        *[f"player_0 pays a token: {k} to go" for k in (7, 6, 5, 4, 3)],
        "player_0 pays B1: 2 to go",
        "player_0 pays a consolation token (worth 3): paid, 1 of change lost",
        "player_0 takes B8 from the market",
    ]


def test_no_events_are_kept_unless_asked():
    env = dix_v0.raw_env(num_players=3)
    env.reset(seed=0)
    assert env.events is None and env.unwrapped.state.events is None
    clone = dix_v0.raw_env(num_players=3, record_events=True)
    clone.reset(seed=0)
    assert clone.unwrapped.state.clone().events is None  # a clone records nothing


# --- over random games ---------------------------------------------------------------------------


def random_game_events(options: dict, seed: int, deck: list[str] | None = None, choices_seed: int = 0):
    """Play one random game with the log on; per step, the acting seat and the events it added."""
    env = dix_v0.raw_env(record_events=True, **options)
    env.reset(seed=seed, options={"deck": deck} if deck else None)
    rng = np.random.default_rng(choices_seed)
    steps = [(None, list(env.events))]
    while not all(env.terminations.values()):
        seat = int(env.agent_selection.split("_")[1])
        before = len(env.events)
        legal = env.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
        steps.append((seat, env.events[before:]))
    return env, steps


@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
def test_every_step_logs_its_decision_first_and_the_draws_add_up(options):
    for game in range(15):
        env, steps = random_game_events(options, seed=game, choices_seed=game)
        for seat, events in steps[1:]:
            assert events and events[0].seat == seat and events[0].kind in ("move", "forced")
            assert events[0].text.startswith(f"player_{seat} ")
        events = [e for _, step in steps for e in step]
        assert all(e.kind in ("move", "auto", "forced", "mark") for e in events)
        assert all(e.public is None for e in events)  # dix shows everything it logs face up
        draws = [e for e in events if " draws " in e.text]
        assert len(draws) == env.unwrapped.state.pile_start
        assert events[-1].kind == "mark" and events[-1].text.startswith("game over: ")
        if options.get("solo"):
            assert all(e.kind == "auto" for e in events if e.seat == 1) and not any("player_1" in e.text for e in events)


@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
def test_no_event_names_a_card_still_hidden_in_the_draw_pile(options):
    config = GAME.make_config(**options)
    box = np.array(config.box)
    for game in range(10):
        env = dix_v0.raw_env(record_events=True, **options)
        env.reset(seed=game)
        rng = np.random.default_rng(game)
        seen = 0
        while True:
            state = env.unwrapped.state
            out_of_pile = box - np.array(state.pile_counts)  # copies drawn so far, face up
            for event in env.events[seen:]:
                names = CARD.findall(event.text_for(viewer=(event.seat + 1) % config.num_players))
                for card in set(names):
                    assert names.count(card) <= out_of_pile[parse_card(card)], event.text
            seen = len(env.events)
            if all(env.terminations.values()):
                break
            legal = env.legal_actions()
            env.step(int(legal[rng.integers(len(legal))]))


@pytest.mark.parametrize("options", OPTION_SETS, ids=options_id)
def test_the_log_is_the_same_whatever_the_order_of_the_cards_not_drawn_yet(options):
    # Two piles with the same top cards: the logs agree up to the first draw that differs.
    config = GAME.make_config(**options)
    cards = [CARD_NAMES[t] for t in range(NUM_TYPES) for _ in range(config.box[t])]
    for game in range(6):
        rng = np.random.default_rng(game)
        deck = [cards[i] for i in rng.permutation(len(cards))]
        k = int(rng.integers(5, len(deck) - 5))
        other = deck[:k] + deck[k:][::-1]
        _, a = random_game_events(options, seed=0, deck=deck, choices_seed=game)
        _, b = random_game_events(options, seed=0, deck=other, choices_seed=game)
        flat_a = [(e.seat, e.kind, e.text) for _, step in a for e in step]
        flat_b = [(e.seat, e.kind, e.text) for _, step in b for e in step]
        cut = [i for i, e in enumerate(flat_a) if " draws " in e[2]][k]  # the (k+1)-th draw
        assert flat_a[:cut] == flat_b[:cut]
