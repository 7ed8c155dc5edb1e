"""The web table's JSON API (dixenv.web) and game records (dixenv.replay), through Starlette's TestClient."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

import warnings  # noqa: E402

with warnings.catch_warnings():  # starlette >= 1.x nudges towards httpx2; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from dixenv.replay import check_record, load_record, make_env, make_record, replay, save_record  # noqa: E402
from dixenv.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# Short tables: the whole suite plays every game to its end several times.
TABLES = {
    "le_dix": ({"num_players": 3, "deals": [3, 2]}, ["person", "heuristic", "random"]),
    "dix_de_suite": ({"num_players": 2, "target_score": 150}, ["person", "heuristic"]),
    "dix": ({"num_players": 3}, ["person", "heuristic", "random"]),
    "dix_solo": ({"solo": True, "difficulty": 6}, ["person"]),
}


@pytest.fixture()
def client():
    with TestClient(create_app()) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start(client, game, options, seats, seed=5):
    r = client.post("/api/games", json={"game": game, "options": options, "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def play_out(client, info, pick=lambda v: v["moves"][0]["action"]):
    """Play the person's seat to the end with ``pick``; the last view and the number of moves."""
    view, n = info["view"], 0
    while not view["over"]:
        r = client.post(f"/api/games/{info['id']}/moves", json={"action": pick(view)}, headers=bearer(info["token"]))
        assert r.status_code == 200, r.text
        view, n = r.json(), n + 1
    return view, n


def test_import_dixenv_does_not_import_starlette():
    code = "import sys, dixenv, dixenv.web, dixenv.replay; bad = [m for m in ('starlette', 'uvicorn', 'httpx') if m in sys.modules]; print(bad); sys.exit(bool(bad))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stdout + out.stderr


def test_api_lists_endpoints_and_catalog(client):
    api = client.get("/api").json()
    paths = {(e["method"], e["path"]) for e in api["endpoints"]}
    assert ("POST", "/api/games") in paths and ("GET", "/api/replays/{id}") in paths
    games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert set(games) >= {"dix", "dix_de_suite", "le_dix"}
    assert "alix" in games["dix"]["agents"] and "heuristic" in games["le_dix"]["agents"]
    assert "policy" not in games["le_dix"]["agents"]  # policies only as policy:NAME from the folder
    assert {o["name"] for o in games["le_dix"]["options"]} >= {"num_players", "deals", "scoring"}
    assert client.get("/").status_code == 200
    assert client.get("/static/app.js").status_code == 200


@pytest.mark.parametrize("table", sorted(TABLES))
def test_play_a_whole_game_and_replay_its_record_exactly(client, table):
    options, seats = TABLES[table]
    game = "dix" if table == "dix_solo" else table
    info = start(client, game, options, seats)
    view, n = play_out(client, info)
    assert n > 0 and view["summary"]["finished"]
    events = view["events"]
    assert events and any(e["kind"] == "mark" for e in events)
    record = client.get(f"/api/games/{info['id']}/record", headers=bearer(info["token"])).json()
    check_record(record)
    assert record["seats"] == seats and len(record["moves"]) >= n
    env = replay(record)  # the scores are checked too
    assert [float(s) for s in env.unwrapped.scores()] == view["summary"]["scores"]
    if table == "dix_solo":
        assert view["summary"]["names"][1] == "ALIX" and any("ALIX" in e["text"] for e in events)
    if game == "le_dix":
        assert len(view["summary"]["bids_made"]) == 3


def test_le_dix_view_hides_the_other_hands(client):
    info = start(client, "le_dix", {"num_players": 4}, ["person", "random", "random", "random"], seed=11)
    session = client.app.state.store.sessions[info["id"]]
    state = session.env.unwrapped.state
    text = state.render_text()
    view = info["view"]
    me = view["table"]["players"][0]
    assert me["hand"] and all(p["hand"] is None for p in view["table"]["players"][1:])
    trump = view["table"]["trump_card"]
    body = json.dumps(view)
    # every card of another seat's hand (the engine's full table) is absent from the person's whole answer
    for line in text.splitlines():
        m = re.match(r"^\*?\s*player_([123]):.*hand: (.*)$", line)
        if m:
            for card in m.group(2).split():
                if card != trump:
                    assert not re.search(rf"\b{card}\b", body), (card, line)
    # a seat token cannot ask for the spectator's or another seat's view
    assert client.get(f"/api/games/{info['id']}?viewer=spectator", headers=bearer(info["token"])).status_code == 403
    assert client.get(f"/api/games/{info['id']}?viewer=2", headers=bearer(info["token"])).status_code == 403


def test_dix_de_suite_view_hides_the_other_rack(client):
    info = start(client, "dix_de_suite", {}, ["person", "random"], seed=2)
    other = info["view"]["table"]["players"][1]
    assert all(c is None for c, pub in zip(other["rack"], other["public"]) if not pub)
    assert all(isinstance(c, int) for c in info["view"]["table"]["players"][0]["rack"])


def test_tokens_refuse_other_sessions_and_seats(client):
    a = start(client, "le_dix", {"num_players": 3}, ["person", "person", "random"])
    b = start(client, "le_dix", {"num_players": 3}, ["person", "random", "random"])
    gid = a["id"]
    assert client.get(f"/api/games/{gid}").status_code == 403  # no token
    assert client.get(f"/api/games/{gid}", headers=bearer(b["token"])).status_code == 403  # another game's
    assert client.get(f"/api/games/{gid}", headers=bearer("x" * 43)).status_code == 403
    assert client.get("/api/games/nosuchgame", headers=bearer(a["token"])).status_code == 404
    # two persons: each acts only for their own seat
    to_play = a["view"]["to_play"]
    other = [t for s, t in a["tokens"].items() if int(s) != to_play][0]
    mine = a["tokens"][str(to_play)]
    move = client.get(f"/api/games/{gid}", headers=bearer(mine)).json()["moves"][0]["action"]
    before = client.get(f"/api/games/{gid}", headers=bearer(mine)).json()
    r = client.post(f"/api/games/{gid}/moves", json={"action": move}, headers=bearer(other))
    assert r.status_code == 409 and "not your turn" in r.json()["error"]
    assert client.get(f"/api/games/{gid}", headers=bearer(mine)).json()["events_total"] == before["events_total"]
    # a person's token never advances agents
    assert client.post(f"/api/games/{gid}/advance", json={"steps": 1}, headers=bearer(mine)).status_code == 403


def test_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing(client):
    info = start(client, "le_dix", {"num_players": 3}, ["person", "random", "random"], seed=4)
    gid, h = info["id"], bearer(info["token"])
    view = info["view"]
    session = client.app.state.store.sessions[gid]
    u = session.env.unwrapped
    legal = {m["action"] for m in view["moves"]}
    illegal = next(a for a in range(u.action_space("player_0").n) if a not in legal)
    reason = u.state.why_illegal(illegal)
    r = client.post(f"/api/games/{gid}/moves", json={"action": illegal}, headers=h)
    assert r.status_code == 422 and reason in r.json()["error"]
    r = client.post(f"/api/games/{gid}/moves", json={"move": u.action_to_string(illegal)}, headers=h)
    assert r.status_code == 422 and reason in r.json()["error"]
    after = client.get(f"/api/games/{gid}", headers=h).json()
    assert after["events_total"] == view["events_total"] and after["moves"] == view["moves"]
    # the page's card map gives the same reason for the cards it would refuse
    for card in after["cards"].values():
        if not card["legal"]:
            assert card["reason"] == u.state.why_illegal(card["action"])


@pytest.mark.parametrize("body,status,words", [
    (b"{not json", 400, "not valid JSON"),
    (json.dumps({"game": "chess"}).encode(), 400, "unknown game"),
    (json.dumps({"game": "le_dix", "options": {"colour": 1}}).encode(), 400, "unknown option"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 9}}).encode(), 400, "num_players"),
    (json.dumps({"game": "le_dix", "options": {"scoring": "bridge"}}).encode(), 400, "scoring"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3}, "seats": ["person"]}).encode(), 400, "seats must list 3"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3}, "seats": ["person", "os:System", "random"]}).encode(), 400, "unknown agent"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3},
                 "seats": ["person", "dixenv.agents.base:RandomAgent", "random"]}).encode(), 400, "unknown agent"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3},
                 "seats": ["person", "policy:/etc/passwd", "random"]}).encode(), 400, "policy"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3},
                 "seats": ["person", "policy:path=/tmp/x", "random"]}).encode(), 400, "policy"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3},
                 "seats": ["person", "random:path=/tmp/x", "random"]}).encode(), 400, "not accepted"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3},
                 "seats": ["person", "random:bogus=1", "random"]}).encode(), 400, "bogus"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3},
                 "seats": ["person", "ismcts:iterations=1000000000", "random"]}).encode(), 400, "at most 2000"),
    (json.dumps({"game": "le_dix", "options": {"num_players": 3},
                 "seats": ["person", "pimc:seconds=60", "random"]}).encode(), 400, "at most 5"),
    (json.dumps({"game": "le_dix", "seed": -1}).encode(), 400, "seed"),
    (json.dumps([1, 2]).encode(), 400, "JSON object"),
])
def test_bad_requests_get_a_4xx_with_a_message(client, body, status, words):
    store = client.app.state.store
    before = len(store)
    r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert words.lower() in r.json()["error"].lower()
    assert len(store) == before


def test_bad_moves_and_params(client):
    info = start(client, "le_dix", {"num_players": 3}, ["person", "random", "random"])
    gid, h = info["id"], bearer(info["token"])
    for body, words in [({"action": 10**6}, "out of the action space"), ({"action": "x"}, "integer"),
                        ({"move": "fly away"}, "not a move"), ({}, "send")]:
        r = client.post(f"/api/games/{gid}/moves", json=body, headers=h)
        assert r.status_code == 400 and words in r.json()["error"], r.text
    assert client.get(f"/api/games/{gid}?since=x", headers=h).status_code == 400
    assert client.get(f"/api/games/{gid}?viewer=banana", headers=h).status_code == 400
    assert client.post("/api/nothing").status_code == 404


def test_policy_from_the_configured_folder_only(tmp_path):
    for suffix in (".npz", ".json"):
        shutil.copy(ROOT / "agents" / "weights" / f"le_dix_4p{suffix}", tmp_path / f"mine{suffix}")
    with TestClient(create_app(policy_dir=tmp_path)) as c:
        games = {g["name"]: g for g in c.get("/api/catalog").json()["games"]}
        assert "policy:mine" in games["le_dix"]["agents"] and "policy:mine" not in games["dix"]["agents"]
        info = start(c, "le_dix", {"num_players": 4}, ["person", "policy:mine", "policy:mine,deterministic=False", "ppo"])
        assert info["view"]["table"]["kind"] == "le_dix"
        r = c.post("/api/games", json={"game": "le_dix", "seats": ["person", "policy:../mine", "random", "random"]})
        assert r.status_code == 400


def test_watch_mode_advances_agents_with_any_view(client):
    info = start(client, "le_dix", {"num_players": 3, "deals": [2]}, ["heuristic", "random", "random"])
    assert info["persons"] == [] and info["tokens"] == {}
    gid, h = info["id"], bearer(info["token"])
    view = client.get(f"/api/games/{gid}?viewer=spectator", headers=h).json()
    assert all(p["hand"] for p in view["table"]["players"])  # a spectator sees every hand
    seat1 = client.get(f"/api/games/{gid}?viewer=1", headers=h).json()
    assert seat1["table"]["players"][0]["hand"] is None and seat1["table"]["players"][1]["hand"]
    assert seat1["moves"] == []  # nobody clicks for an agent
    r = client.post(f"/api/games/{gid}/advance", json={"steps": 1}, headers=h)
    assert r.status_code == 200 and r.json()["moves_made"] == 1
    assert client.post(f"/api/games/{gid}/moves", json={"action": 0}, headers=h).status_code == 403
    while not r.json()["over"]:
        r = client.post(f"/api/games/{gid}/advance", json={"steps": 50, "viewer": "spectator"}, headers=h)
    assert r.json()["summary"]["finished"]
    assert client.post(f"/api/games/{gid}/advance", json={"steps": 1}, headers=h).status_code == 409
    assert client.post(f"/api/games/{gid}/advance", json={"steps": 0}, headers=h).status_code == 400


def test_sessions_are_freed_after_their_timeouts():
    app = create_app(idle_ttl=1000, finished_ttl=0.0)
    with TestClient(app) as c:
        store = app.state.store
        done = start(c, "le_dix", {"num_players": 3, "deals": [1]}, ["random", "random", "random"])
        live = start(c, "le_dix", {"num_players": 3}, ["person", "random", "random"])
        c.post(f"/api/games/{done['id']}/advance", json={"steps": 100}, headers=bearer(done["token"]))
        store.sweep()
        assert done["id"] not in store.sessions and live["id"] in store.sessions
        assert c.get(f"/api/games/{done['id']}", headers=bearer(done["token"])).status_code == 404
        store.idle_ttl = 0.0
        store.sweep()
        assert len(store) == 0
    app = create_app(max_sessions=1)
    with TestClient(app) as c:
        start(c, "le_dix", {"num_players": 3}, ["person", "random", "random"])
        r = c.post("/api/games", json={"game": "le_dix", "options": {"num_players": 3}, "seats": ["person", "random", "random"]})
        assert r.status_code == 503
    with TestClient(create_app()) as c:
        info = start(c, "le_dix", {"num_players": 3}, ["person", "random", "random"])
        assert c.delete(f"/api/games/{info['id']}", headers=bearer(info["token"])).status_code == 200
        assert c.get(f"/api/games/{info['id']}", headers=bearer(info["token"])).status_code == 404


def tournament_records(tmp_path, game, agents, options, games):
    from dixenv.experiments.tournament import run_tournament

    results = run_tournament(game, agents, games, options, workers=1, seed=3, record_dir=tmp_path)
    paths = sorted(tmp_path.glob("*.json"))
    assert len(paths) == results.num_games
    return results, paths


@pytest.mark.parametrize("game,agents,options", [
    ("le_dix", ["heuristic", "random", "random"], {"deals": (3, 2)}),
    ("dix_de_suite", ["heuristic", "random"], {"target_score": 150}),
    ("dix", ["heuristic"], {"solo": True, "difficulty": 5}),
])
def test_tournament_records_replay_exactly(tmp_path, game, agents, options):
    results, paths = tournament_records(tmp_path, game, agents, options, len(agents))
    for rec, path in zip(results.records, paths):
        record = load_record(path)
        assert record["seed"] == rec["deal_seed"] and record["seats"] == rec["specs"]
        env = replay(record)
        assert [float(s) for s in env.unwrapped.scores()] == rec["scores"]
        assert env.unwrapped.state.is_terminal() != rec["truncated"]
    assert path.stat().st_size < 20_000


def test_evaluate_cli_writes_records(tmp_path):
    from dixenv.experiments.evaluate import main

    assert main(["--game", "le_dix", "--agents", "random", "random", "random", "--games", "3", "--workers", "1",
                 "--option", "deals=(2,)", "--no-progress", "--record", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("le_dix_*.json"))) == 3


def test_a_tampered_record_is_refused(tmp_path):
    _, paths = tournament_records(tmp_path, "le_dix", ["random", "random", "random"], {"deals": (2,)}, 3)
    record = load_record(paths[0])
    bad = dict(record, scores=[s + 1 for s in record["scores"]])
    with pytest.raises(ValueError, match="scores"):
        replay(bad)
    with pytest.raises(ValueError, match="not legal"):
        replay(dict(record, moves=[record["moves"][0]] * 2 + record["moves"]))
    for broken in ({**record, "format": "x"}, {**record, "game": "chess"}, {**record, "moves": ["a"]}, {**record, "seed": -3}):
        with pytest.raises(ValueError):
            check_record(broken)
    # make_record / save_record round trip
    again = make_record(record["game"], {"num_players": 3, "deals": (2,)}, record["seed"], record["seats"], record["moves"])
    assert load_record(save_record(again, tmp_path / "again.json"))["options"]["deals"] == [2]
    assert make_env(again).unwrapped.config.deals == (2,)


def test_replay_api_steps_forwards_and_backwards(tmp_path):
    results, paths = tournament_records(tmp_path, "le_dix", ["heuristic", "random", "random"], {"deals": (3, 2)}, 3)
    with TestClient(create_app(records_dir=tmp_path)) as c:
        names = c.get("/api/records").json()["records"]
        assert names == [p.stem for p in paths]
        info = c.post("/api/replays", json={"name": names[0]}).json()
        rid, h, n = info["id"], bearer(info["token"]), info["length"]
        end = c.get(f"/api/replays/{rid}?pos={n}&viewer=spectator", headers=h).json()
        assert end["over"] and end["summary"]["scores"] == results.records[0]["scores"]
        mid = c.get(f"/api/replays/{rid}?pos={n // 2}&viewer=1", headers=h).json()
        again = c.get(f"/api/replays/{rid}?pos={n // 2}&viewer=1", headers=h).json()
        assert mid == again and mid["position"] == n // 2 and not mid["over"]
        assert mid["table"]["players"][0]["hand"] is None
        assert c.get(f"/api/replays/{rid}?pos={n + 1}", headers=h).status_code == 400
        assert c.get(f"/api/replays/{rid}?pos=0", headers=bearer("nope")).status_code == 403
        # an uploaded record, and broken ones
        record = json.loads(paths[1].read_text())
        info2 = c.post("/api/replays", json={"record": record}).json()
        assert info2["length"] == len(record["moves"])
        assert c.post("/api/replays", json={"record": {**record, "game": "chess"}}).status_code == 400
        assert c.post("/api/replays", json={"name": "../../etc/passwd"}).status_code == 404
        assert c.post("/api/replays", json={}).status_code == 400


@pytest.mark.parametrize("num_players,deals,auto_forced,seed", [
    (3, (3, 2, 1), False, 0), (4, (2, 3), True, 1), (5, (2, 1, 2), False, 2), (3, (5,), False, 3),
])
def test_le_dix_hidden_card_counts_are_exact_at_every_step(num_players, deals, auto_forced, seed):
    """Every seat's view (and the spectator's) shows each player's true hand size, the dealer's
    trump take and discard included: hand sizes are public in le_dix."""
    from dixenv.le_dix_v0 import raw_env
    from dixenv.web.views import table_view

    env = raw_env(num_players=num_players, deals=deals, auto_forced=auto_forced, record_events=True)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    u = env.unwrapped
    phases, steps = set(), 0
    while True:
        state = u.state
        truth = [len(h) for h in state.hands]
        phases.add((state.phase, state.dealer_took))
        for viewer in [None, *range(num_players)]:
            players = table_view(env, viewer)["players"]
            assert [p["hand_count"] for p in players] == truth, (viewer, state.phase, steps)
            if viewer is not None:  # the seat's own hand, the others as backs only
                assert len(players[viewer]["hand"]) == truth[viewer]
                assert all(p["hand"] is None for s, p in enumerate(players) if s != viewer)
        agent = env.agent_selection
        if env.terminations.get(agent) or env.truncations.get(agent):
            break
        legal = state.legal_actions()
        take = [a for a in legal if u.action_to_string(a) == "take trump"]
        action = take[0] if take and state.deal_index % 3 != 2 else legal[int(rng.integers(len(legal)))]  # mostly taken
        env.step(action)
        steps += 1
    assert state.is_terminal() and steps > 10
    assert (1, True) in phases  # a dealer held the turned-up card before discarding: one card more than dealt


def test_a_seat_token_may_look_as_a_spectator_once_the_game_is_over(client):
    from dixenv.web.views import table_view

    info = start(client, "le_dix", {"num_players": 3, "deals": [2]}, ["person", "person", "random"], seed=8)
    gid = info["id"]
    tokens = {int(s): t for s, t in info["tokens"].items()}
    # before the end: a seat token sees its own seat only
    for seat, token in tokens.items():
        r = client.get(f"/api/games/{gid}?viewer=spectator", headers=bearer(token))
        assert r.status_code == 403 and "until the game is over" in r.json()["error"]
        assert client.get(f"/api/games/{gid}?viewer={1 - seat}", headers=bearer(token)).status_code == 403
    view = info["view"]
    while not view["over"]:  # both persons play their own seats, each with their own token
        seat = view["to_play"]
        mine = client.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
        assert mine["viewer"] == seat and mine["moves"]
        r = client.post(f"/api/games/{gid}/moves", json={"action": mine["moves"][0]["action"]}, headers=bearer(tokens[seat]))
        assert r.status_code == 200, r.text
        view = r.json()
        r = client.get(f"/api/games/{gid}?viewer=spectator", headers=bearer(tokens[1 - seat]))
        assert r.status_code == (200 if view["over"] else 403)
    # after the end: the spectator's view for either seat's token, the same as a watcher's
    session = client.app.state.store.sessions[gid]
    for seat, token in tokens.items():
        r = client.get(f"/api/games/{gid}?viewer=spectator", headers=bearer(token))
        assert r.status_code == 200, r.text
        spectator = r.json()
        assert spectator["viewer"] is None and spectator["over"] and spectator["moves"] == []
        assert spectator["table"] == table_view(session.env, None)
        assert spectator["summary"]["scores"] == [float(s) for s in session.env.unwrapped.scores()]
        # still no other seat's view, and no moves
        assert client.get(f"/api/games/{gid}?viewer={1 - seat}", headers=bearer(token)).status_code == 403
        assert client.post(f"/api/games/{gid}/moves", json={"action": 0}, headers=bearer(token)).status_code == 409


def test_dix_deck_spec_is_not_accepted_by_the_api(client):
    """deck_spec (another box of cards, a nested object) is Python-only: not offered, refused by the API."""
    games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert "deck_spec" not in {o["name"] for o in games["dix"]["options"]}
    store = client.app.state.store
    before = len(store)
    for spec in ({"B1": 3, "B2": 3}, None, "standard"):
        r = client.post("/api/games", json={"game": "dix", "options": {"num_players": 3, "deck_spec": spec},
                                            "seats": ["person", "random", "random"]})
        assert r.status_code == 400 and "unknown option(s) 'deck_spec'" in r.json()["error"], r.text
    assert len(store) == before
    # a record naming it is refused too
    info = start(client, "dix", {"num_players": 3}, ["random", "random", "random"])
    record = client.get(f"/api/games/{info['id']}/record", headers=bearer(info["token"])).json()
    record["options"]["deck_spec"] = {"B1": 3}
    r = client.post("/api/replays", json={"record": record})
    assert r.status_code == 400 and "deck_spec" in r.json()["error"]
