"""The web table in a real browser: Playwright driving a headless Chromium (Debian's package).

The browser is found as ``$DIXENV_CHROMIUM`` (set by ``.ci/run``), else ``chromium`` or
``chromium-browser`` on the path; the tests skip, saying why, when it or the ``playwright`` package
is missing. For each game a whole game is played by clicking (highlighted cards first, else the move
buttons) and the page's final scores are checked against the engine's; watch mode (pause, step,
views), replays (forwards, backwards, a record file) and a refused illegal click are checked too.

A screenshot of each game's table in the middle of a game is saved as a test artifact, in
``$DIXENV_WEB_ARTIFACTS`` (default: the test's temporary folder); docs/images/web_<game>.png are
these pictures.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed (pip install playwright)")

from dixenv.replay import load_record  # noqa: E402
from dixenv.web.app import create_app  # noqa: E402

TABLES = {  # short games: every one is played to its end by clicking
    "le_dix": ("le_dix", {"num_players": "3", "deals": "[3, 2]"}, ["person", "heuristic", "random"]),
    "dix_de_suite": ("dix_de_suite", {"num_players": "2", "target_score": "100"}, ["person", "heuristic"]),
    "dix": ("dix", {"num_players": "3"}, ["person", "heuristic", "random"]),
    "dix_solo": ("dix", {"solo": True}, ["person"]),
}


def chromium_path() -> str | None:
    for candidate in (os.environ.get("DIXENV_CHROMIUM"), shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    from dixenv.experiments.tournament import run_tournament

    folder = tmp_path_factory.mktemp("records")
    results = run_tournament("le_dix", ["heuristic", "random", "random"], 3, {"deals": (3, 2)}, workers=1, seed=7, record_dir=folder)
    return folder, results


@pytest.fixture(scope="module")
def server(records):
    app = create_app(records_dir=records[0])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium: install Debian's chromium (apt-get install -y chromium) or set DIXENV_CHROMIUM")
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        except Exception as exc:  # noqa: BLE001 - any launch failure is a reason to skip, given
            pytest.skip(f"Chromium at {path} does not start under Playwright: {exc}")
        yield b
        b.close()


@pytest.fixture()
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, bypass_csp=True)  # CSP forbids eval; the test waits use it
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(20_000)
    yield pg
    context.close()
    assert not errors, errors


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    folder = os.environ.get("DIXENV_WEB_ARTIFACTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("web_artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def session_of(app, page):
    gid = page.evaluate("location.hash").split("/")[2].split("?")[0]
    return app.state.store.sessions[gid]


def new_game(page, base, game, options, seats, seed=3):
    page.goto(base + "/#/")
    page.wait_for_selector("#seats input.seat")
    page.select_option("#game", game)
    for name, value in options.items():
        sel = f"#opt-{name}"
        if value is True:
            page.check(sel)
        elif page.eval_on_selector(sel, "e => e.tagName") == "SELECT":
            page.select_option(sel, value)
        else:
            page.fill(sel, value)
        page.dispatch_event(sel, "change")
    inputs = page.locator("#seats input.seat")
    assert inputs.count() == len(seats)
    for k, spec in enumerate(seats):
        inputs.nth(k).fill(spec)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_function("document.querySelector('#new-error').textContent || document.querySelector('#table .info')")
    assert page.text_content("#new-error") == ""
    page.wait_for_selector('body[data-busy="0"]')


def click_once(page, prefer_cards=True) -> bool:
    """One legal click (a highlighted card, else the first move button); False when the game is over."""
    page.wait_for_function("document.querySelector('#table').dataset.over === 'true' || document.querySelectorAll('#moves button').length > 0")
    if page.get_attribute("#table", "data-over") == "true":
        return False
    target = page.locator("#table .legal").first if prefer_cards and page.locator("#table .legal").count() else page.locator("#moves button").first
    target.click()
    page.wait_for_selector('body[data-busy="0"]')
    assert page.text_content("#message") == "", page.text_content("#message")
    return True


def page_scores(page) -> list[float]:
    page.wait_for_selector("#summary table")
    return [float(x) for x in page.locator("#summary tr[data-seat] td.score").all_text_contents()]


@pytest.mark.parametrize("table", sorted(TABLES))
def test_play_a_whole_game_by_clicking(page, server, artifacts, table):
    app, base = server
    game, options, seats = TABLES[table]
    new_game(page, base, game, options, seats)
    clicks, shot = 0, False
    while click_once(page, prefer_cards=clicks % 2 == 0):
        clicks += 1
        if clicks == 6 and not shot:
            page.screenshot(path=str(artifacts / f"web_{table}.png"))
            shot = True
        assert clicks < 2000
    assert shot, "the game ended before its middle"
    session = session_of(app, page)
    engine = [float(s) for s in session.env.unwrapped.scores()]
    assert page_scores(page) == engine
    assert page.locator("#summary tr.winner").count() >= 1
    assert page.locator("#log li.ev.mark").count() >= 2  # deal/round/score markers
    if table == "dix_solo":
        assert "ALIX" in page.text_content("#log")
    if game == "le_dix":
        assert page.locator("#summary th", has_text="bids made").count() == 1
    # the hand of another seat is never on the person's page
    if game == "le_dix":
        assert page.locator("#table .player:not(.me) .card:not(.back)").count() == 0 or session.over


def test_an_illegal_click_is_refused_with_the_engines_reason(page, server):
    app, base = server
    new_game(page, base, "le_dix", {"num_players": "3", "deals": "[6, 5]"}, ["person", "random", "random"], seed=1)
    for _ in range(200):
        if page.locator("#table .card.illegal").count():
            break
        assert click_once(page, prefer_cards=True), "no illegal card appeared in the game"
    card = page.locator("#table .card.illegal").first
    title = card.get_attribute("title")  # "play 5S: you must follow hearts (you hold 7H)"
    session = session_of(app, page)
    before = len(session.env.unwrapped.events)
    card.click()
    page.wait_for_selector('body[data-busy="0"]')
    message = page.text_content("#message")
    move, reason = title.split(": ", 1)
    assert message == f"'{move}' is not legal now: {reason}"
    assert reason == session.env.unwrapped.state.why_illegal(session.env.unwrapped.string_to_action(move))
    assert len(session.env.unwrapped.events) == before


def test_watch_agents_pause_step_and_views(page, server):
    app, base = server
    new_game(page, base, "le_dix", {"num_players": "3", "deals": "[2, 1]"}, ["heuristic", "random", "random"])
    assert page.is_visible("#watch-controls")
    assert page.locator("#table .player .hand .card:not(.back)").count() > 0  # the spectator sees the hands
    page.click("#play-pause")  # pause
    page.wait_for_selector('body[data-busy="0"]')
    n = page.locator("#log li").count()
    time.sleep(0.8)
    assert page.locator("#log li").count() == n  # paused: nothing moves
    page.click("#step")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {n}")
    page.select_option("#viewer", "1")
    page.wait_for_function("document.querySelectorAll('#table .player.me').length === 1")
    assert page.locator("#table .player:not(.me) .card:not(.back)").count() == 0  # seat 1 sees only its own hand
    page.eval_on_selector("#speed", "e => { e.value = 50; }")
    page.click("#play-pause")  # play on, fast
    page.wait_for_selector("#summary table", timeout=60_000)
    session = session_of(app, page)
    assert page_scores(page) == [float(s) for s in session.env.unwrapped.scores()]
    assert "viewer=1" in page.get_attribute("#deep-link", "href")


def test_replay_forwards_backwards_and_from_a_file(page, server, records, tmp_path):
    app, base = server
    folder, results = records
    page.goto(base + "/#/replays")
    page.wait_for_selector("#records button")
    page.locator("#records button").first.click()
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_function("document.querySelector('#pos-text').textContent.startsWith('0/')")
    for _ in range(3):
        page.click("#fwd")
        page.wait_for_selector('body[data-busy="0"]')
    assert page.text_content("#pos-text").startswith("3/")
    page.click("#back")
    page.wait_for_function("document.querySelector('#pos-text').textContent.startsWith('2/')")
    assert "pos=2" in page.evaluate("location.hash")  # a deep link to this position
    link = page.evaluate("location.href")
    page.click("#last")
    page.wait_for_selector("#summary table")
    assert page_scores(page) == results.records[0]["scores"]
    # the deep link opens the same position again
    page.goto(base + "/#/")
    page.goto(link)
    page.wait_for_function("document.querySelector('#pos-text').textContent.startsWith('2/')")
    # a record file
    record = sorted(folder.glob("*.json"))[1]
    page.goto(base + "/#/replays")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.click("#last")
    page.wait_for_selector("#summary table")
    assert page_scores(page) == load_record(record)["scores"]


def test_a_game_link_opens_the_running_game(page, server):
    app, base = server
    new_game(page, base, "dix_de_suite", {"num_players": "2"}, ["person", "random"])
    link = page.evaluate("location.href")
    click_once(page)
    page.goto(base + "/#/")
    page.goto(link)
    page.wait_for_selector("#table .info")
    assert page.locator("#table .player.me").count() == 1
    bad = link.replace("token=", "token=x")
    page.goto(base + "/#/")
    page.goto(bad)
    page.wait_for_function("document.querySelector('#message').textContent.includes('token')")


def seat_page_shows_only_its_own_cards(page, session, seat):
    """The seat's page right now: its own hand as the engine holds it, every other hand as backs only
    (as many as that player holds), and no card of another hand anywhere on the page or in this deal's log."""
    from dixenv.games.le_dix.cards import card_name

    state = session.env.unwrapped.state
    hands = [[card_name(c) for c in h] for h in state.hands]
    mine = page.locator("#table .hand.mine .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(mine) == sorted(hands[seat])
    shown = set(page.locator("#table [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    # the log of this deal (an earlier deal's cards are dealt again)
    log = page.locator("#log li").evaluate_all(
        "els => { const t = els.map(e => e.textContent); const k = t.findLastIndex(x => x.startsWith('deal ')); return t.slice(k).join('\\n'); }")
    public = {card_name(state.trump_card)}  # turned up for all; in the dealer's hand if taken
    for s, hand in enumerate(hands):
        if s == seat:
            continue
        assert page.locator(f'#table .player[data-seat="{s}"] .card.back').count() == len(hand), (s, hand)
        assert page.locator(f'#table .player[data-seat="{s}"] .card:not(.back)').count() == 0
        for c in set(hand) - public:
            assert c not in shown and not re.search(rf"\b{c}\b", log), (seat, s, c)


def caught_up(page, session):
    """Wait until a waiting seat's page (it polls) shows every event of the game so far."""
    n = len(session.env.unwrapped.events)
    page.wait_for_function(f"document.querySelectorAll('#log li').length === {n} && document.body.dataset.busy === '0'")


def test_two_persons_each_play_their_own_seat_from_their_own_page(page, browser, server):
    app, base = server
    new_game(page, base, "le_dix", {"num_players": "3", "deals": "[3, 2]"}, ["person", "person", "random"], seed=12)
    session = session_of(app, page)
    tokens = {seat: token for token, seat in session.tokens.items()}
    # one link per person seat, each with that seat's token in the fragment
    page.wait_for_selector("#seat-links:not([hidden])")
    links = page.locator("#seat-links a")
    assert links.count() == 2
    for seat in (0, 1):
        href = page.get_attribute(f'#seat-links a[data-seat="{seat}"]', "href")
        assert href.startswith(f"#/game/{session.id}?") and f"token={tokens[seat]}" in href
    assert "this tab" in page.text_content('#seat-links a[data-seat="0"]')
    other = browser.new_context(viewport={"width": 1280, "height": 860}, bypass_csp=True)
    errors: list[str] = []
    try:
        page1 = other.new_page()
        page1.on("pageerror", lambda e: errors.append(str(e)))
        page1.set_default_timeout(20_000)
        page1.goto(page.eval_on_selector('#seat-links a[data-seat="1"]', "a => a.href"))
        page1.wait_for_selector("#table .info")
        pages = {0: page, 1: page1}
        for seat, pg in pages.items():
            assert pg.get_attribute("#table .player.me", "data-seat") == str(seat)
            assert pg.eval_on_selector("#viewer", "s => s.disabled && [...s.options].map(o => o.value).join()") == str(seat)
        assert page1.is_hidden("#seat-links")  # the other person's page holds only their own token
        clicks, discards_seen = 0, 0
        while not session.over:
            seat = session.current_seat()
            assert seat in pages, "an agent's turn after a person's move"
            pg = pages[seat]
            pg.wait_for_function("document.querySelectorAll('#moves button').length > 0")  # its poll brings its turn
            assert pages[1 - seat].locator("#moves button").count() == 0  # the other person waits
            assert click_once(pg, prefer_cards=clicks % 2 == 0)
            clicks += 1
            assert clicks < 300
            seat_page_shows_only_its_own_cards(pg, session, seat)
            state = session.env.unwrapped.state
            if state.phase == 1 or clicks % 6 == 0:  # a dealer holds one card more until the discard: seen by the other too
                caught_up(pages[1 - seat], session)
                seat_page_shows_only_its_own_cards(pages[1 - seat], session, 1 - seat)
                discards_seen += state.phase == 1
        assert discards_seen >= 1, "no person dealer took the turned-up card"
        engine = [float(s) for s in session.env.unwrapped.scores()]
        for pg in pages.values():
            assert page_scores(pg) == engine
        # the game is over: a seat's page may switch to the spectator's view
        page1.wait_for_function("!document.querySelector('#viewer').disabled")
        page1.select_option("#viewer", "spectator")
        page1.wait_for_function("document.querySelectorAll('#table .player').length === 3 && !document.querySelector('#table .player.me')")
        assert page1.text_content("#message") == ""
        assert "viewer=spectator" in page1.get_attribute("#deep-link", "href")
    finally:
        other.close()
    assert not errors, errors
