"""Generate the documentation's tables and figures from the environments' own data.

Any Markdown file of the project (``README.md``, ``docs/**/*.md``) may hold marked blocks::

    <!-- generated: NAME -->
    … content written by this module …
    <!-- end: NAME -->

``python -m experiments.docs`` prints every block; ``--write`` rewrites the marked blocks of every
file (the README and every Markdown page under ``docs/``, subfolders included). Block names:
``GAME-observation`` and ``GAME-actions`` (for the game's documented configuration),
``GAME-observation-nK`` (for ``num_players=K``), ``GAME-sizes`` (observation sizes per player
count), ``GAME-options`` (the options table, from the game's config dataclass and the
environment's own options) and ``games`` (the README's table of games: ids, players, observation
size, actions). ``tests/test_readme.py`` checks that every file is current.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import re
from pathlib import Path

from dixenv.games import BUILTIN, game_spec

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"<!-- generated: ([\w-]+) -->\n(.*?)<!-- end: \1 -->", re.S)

# The configuration each default table is generated for (sizes that depend on it are said in the
# caption). The docs show dix at 4 players, where its market and auctions are busiest; the games'
# default tables for benchmarks and agents are in their specs.
DOC_CONFIGS = {
    "le_dix": {"num_players": 4},
    "dix_de_suite": {"num_players": 2},
    "dix": {"num_players": 4},
}
#: The player counts of each game, from its spec (``dixenv/games/<game>/spec.py``).
PLAYER_COUNTS = {game: game_spec(game).players for game in DOC_CONFIGS}
EXTRA_PLAYERS = {"dix": "solo"}

# What each option means (the defaults come from the code). A game's options are the fields of its
# config dataclass (``dixenv/games/<game>/config.py``); every field must be described here, and
# the allowed values are the text given or, for booleans, True/False. ``{NAME}`` is filled from the
# config module (its bounds and choices); ``{players}`` with the player counts ``make_config`` accepts.
OPTION_DOCS: dict[str, dict[str, tuple[str | None, str]]] = {
    "le_dix": {
        "num_players": ("{players}", "players"),
        "deals": ("a non-empty sequence of hand sizes, each 1 … 51 // num_players", "the hand size of each deal, in order (one deal per entry)"),
        "scoring": ("{SCORINGS}", '`"exact10"`: +10 for an exact bid; `"oh_hell"`: 10 + bid'),
        "hook": (None, "`True`: the dealer may not bid so that the bids add up to the hand size"),
    },
    "dix_de_suite": {
        "num_players": ("{players}", "players (cards 1–40, 1–50, 1–60)"),
        "target_score": ("int 1 … {MAX_TARGET_SCORE:,}", "the game ends at the end of the round in which someone (with `teams`, a team) reaches this"),
        "max_turns": (
            "int 1 … {MAX_MAX_TURNS:,}",
            "turns (all players together) in one round before the episode is truncated. Uniform random play never "
            "sorts a rack, so it is always truncated; a simple sorting player finishes in a median of 21–40 turns "
            "(see [How `max_turns=1000` was chosen](#how-max_turns1000-was-chosen))",
        ),
        "reshuffle": (None, "shuffle the discard pile when it is turned over (default: turned over in order)"),
        "two_player_run": ("`True`, `False` (needs `num_players=2`)", "an ascending rack must also hold 3 consecutive numbers in consecutive slots to win the round"),
        "teams": ("`True`, `False` (needs `num_players=4`)", "seats 0+2 against 1+3, team points added, each member gets its team's result"),
        "run_bonus": (None, "the round winner adds 50/100/200/400 for its longest run of 3/4/5/6+ consecutive numbers"),
    },
    "dix": {
        "num_players": ("{players} (`2` in solo)", "players"),
        "solo": (None, "play against ALIX (seat 1, played by the environment); needs `num_players=2`"),
        "difficulty": ("{MIN_DIFFICULTY} … {MAX_DIFFICULTY}, solo only", "ALIX's drawing threshold (4 easy … 10 very hard); an error without `solo=True`"),
        "bust_buy": (None, "the variant: on a bust, one buy instead of the consolation token"),
        "auto_pay": (None, "payments made by the documented rule instead of item by item"),
        "deck_spec": ("a `DeckSpec`, or a mapping card → copies (int) or → list of player-count marks 2…5", "another composition of the box"),
    },
}
# Defaults that the dataclass does not hold as the user sees them.
DEFAULT_TEXT = {
    ("dix", "difficulty"): "`{DEFAULT_DIFFICULTY}` in solo",
    ("dix", "deck_spec"): "the 129-card box",
}
# The environment's own options (``CardGameEnv.__init__``), shared by every game; a game may say more.
ENV_OPTION_DOCS = {
    "reward": (
        "{REWARD_MODES}",
        '`"win"`: at the end, (players beaten − players that beat you) / (n − 1), so ±1 or 0 with two players; '
        '`"points"`: game points as they are scored; `"margin"`: at every move, the change of your lead over your '
        "best rival (your score minus the best other score)",
    ),
    "auto_forced": (None, "the environment plays every move that is the only legal one, so agents are only asked real decisions"),
    "render_mode": ("`None`, {RENDER_MODES}", '`"ansi"`: `render()` returns the table as text; `"human"`: prints it; `"rgb_array"`: a picture of it (Pillow, the `render` extra)'),
    "render_viewer": ('`"spectator"`, a seat', 'whose view the `"rgb_array"` picture shows'),
    "record_events": (None, "keep the move log, `env.events` (on with any render mode)"),
}
GAME_OPTION_NOTES = {
    ("le_dix", "auto_forced"): "forced moves: a follow with one legal card, the last card of a hand",
    ("dix_de_suite", "auto_forced"): "every decision of this game offers at least two legal actions, so both settings give the same steps",
    ("dix_de_suite", "reward"): "with teams, every member gets its team's result",
    ("dix", "reward"): 'a seat\'s points are what its collection scores, so `"points"` pays that score\'s change; in solo, `"margin"` is the score difference to ALIX',
    ("dix", "auto_forced"): "forced moves: a bidder who can only pass, a buy with nothing affordable, a payment with one way to pay",
    ("dix", "render_viewer"): "in dix only the draw pile's order is hidden, so it only tags the seat",
}


def doc_files() -> list[Path]:
    """Every Markdown file that may hold generated blocks: the README and ``docs/**/*.md``."""
    return [README, *sorted((ROOT / "docs").rglob("*.md"))]


def _param(word: str) -> bool:
    return any(ch.isdigit() for ch in word) or word != word.lower() or word == "**"


def action_table(env) -> str:
    """The action space as a Markdown table, consecutive ids of one verb grouped in a row."""
    n = env.action_space(env.possible_agents[0]).n
    rows = ["| ids | action strings |", "|---|---|"]
    groups: list[list] = []
    for a in range(n):
        text = env.action_to_string(a)
        words = text.split()
        key = " ".join(words[:-1]) + " *" if len(words) > 1 and _param(words[-1]) else text
        if groups and groups[-1][0] == key:
            groups[-1][2] = a
            groups[-1][4] = text
        else:
            groups.append([key, a, a, text, text])
    for _, first, last, first_text, last_text in groups:
        ids = f"{first}" if first == last else f"{first}–{last}"
        names = f"`{first_text}`" if first == last else f"`{first_text}` … `{last_text}`"
        rows.append(f"| {ids} | {names} |")
    return "\n".join(rows)


def _env(game: str, **options):
    return importlib.import_module(f"dixenv.{game}_v0").raw_env(**options)


def _obs_size(env) -> int:
    return env.observation_space(env.possible_agents[0])["observation"].shape[0]


def observation_block(game: str, options: dict) -> str:
    """The observation table of ``game`` for ``options``, with a caption giving its size."""
    env = _env(game, **options)
    caption = ", ".join(f"{k}={v}" for k, v in options.items())
    return (
        f"Observation for {caption}: {_obs_size(env)} floats; pieces with a per-seat row have one row per player, "
        "relative to the observer. Every entry lies in its range (the observation space's bounds).\n\n"
        + env.layout.markdown_table()
    )


def sizes_block(game: str) -> str:
    """One line: the observation size for each player count."""
    sizes = [f"{_obs_size(_env(game, num_players=n))} floats for {n} players" for n in PLAYER_COUNTS[game]]
    if game == "dix":
        sizes[0] += " (solo included)"
    return "Observation size: " + ", ".join(sizes) + "."


def _code(value) -> str:
    if isinstance(value, str):
        return f'`"{value}"`'
    return f"`{value!r}`"


def _choices(values) -> str:
    return ", ".join(_code(v) for v in values)


def accepted_player_counts(game: str) -> tuple[int, ...]:
    """The player counts the game's ``make_config`` accepts (tried from 1 to 9)."""
    config = importlib.import_module(f"dixenv.games.{game}.config")
    ok = []
    for n in range(1, 10):
        try:
            config.make_config(num_players=n)
        except ValueError:
            continue
        ok.append(n)
    return tuple(ok)


def options_block(game: str) -> str:
    """The options table of ``game``: its config dataclass's fields, then the environment's own options."""
    from dixenv.core.aec import RENDER_MODES, CardGameEnv
    from dixenv.core.rewards import REWARD_MODES

    config = importlib.import_module(f"dixenv.games.{game}.config")
    (cls,) = [
        obj
        for obj in vars(config).values()
        if inspect.isclass(obj) and dataclasses.is_dataclass(obj) and obj.__module__ == config.__name__
    ]
    fields = [f for f in dataclasses.fields(cls) if f.init]
    docs = OPTION_DOCS[game]
    names = [f.name for f in fields]
    if sorted(names) != sorted(docs):
        raise KeyError(f"{game}: options {names} of {cls.__name__} but OPTION_DOCS describes {sorted(docs)}")
    counts = accepted_player_counts(game)
    players = f"`{counts[0]}` … `{counts[-1]}`" if len(counts) > 3 else _choices(counts)
    values = {
        name: (_choices(value) if isinstance(value, tuple) else value)
        for name, value in vars(config).items()
        if name.isupper()
    }
    values.update(players=players, REWARD_MODES=_choices(REWARD_MODES), RENDER_MODES=_choices(RENDER_MODES))
    rows = ["| option | default | allowed | meaning |", "|---|---|---|---|"]

    def row(name, default, allowed, meaning):
        note = GAME_OPTION_NOTES.get((game, name))
        meaning = f"{meaning}; {note}" if note else meaning
        rows.append(f"| `{name}` | {default} | {allowed} | {meaning} |")

    for f in fields:
        allowed, meaning = docs[f.name]
        default = DEFAULT_TEXT.get((game, f.name), None)
        default = default.format(**values) if default else _code(f.default)
        if allowed is None:
            if f.type not in ("bool", bool):
                raise KeyError(f"{game}: option {f.name} needs its allowed values in OPTION_DOCS")
            allowed = "`True`, `False`"
        row(f.name, default, allowed.format(**values), meaning)
    signature = inspect.signature(CardGameEnv.__init__).parameters
    for name, (allowed, meaning) in ENV_OPTION_DOCS.items():
        default = signature[name].default
        row(name, _code(default), (allowed or "`True`, `False`").format(**values), meaning)
    return (
        f"Options of `{game}` (`{game}_v0.env(**options)`, `raw_env(**options)`); a bad option raises "
        "`ValueError` naming the option and the allowed values.\n\n" + "\n".join(rows)
    )


def games_block() -> str:
    """The README's table of games: ids, players, observation size at the default table, actions."""
    import gymnasium
    import pettingzoo  # noqa: F401  (the AEC ids are registered by dixenv)

    import dixenv  # noqa: F401  (registers the ids)

    rows = [
        "| game | what it is | PettingZoo AEC id | Gymnasium ids | players | observation (default table) | actions |",
        "|---|---|---|---|---|---|---|",
    ]
    for game, options in DOC_CONFIGS.items():
        spec = game_spec(game)
        aec_id, gym_ids = spec.aec_id, tuple(spec.gymnasium_ids)
        missing = [i for i in gym_ids if i not in gymnasium.registry]
        if missing:
            raise KeyError(f"{game}: Gymnasium ids {missing} are not registered")
        env = _env(game, **options)
        counts = accepted_player_counts(game)
        players = f"{counts[0]}–{counts[-1]}" + (f", {EXTRA_PLAYERS[game]}" if game in EXTRA_PLAYERS else "")
        n = options["num_players"]
        actions = env.action_space(env.possible_agents[0]).n
        rows.append(
            f"| `{game}` | {spec.title} | `{aec_id}` | {', '.join(f'`{i}`' for i in gym_ids)} | {players} | "
            f"{_obs_size(env)} floats ({n} players) | {actions} |"
        )
    return "\n".join(rows)


def agents_block() -> str:
    """Every agent name of every library game and the class behind it (``dixenv.agents.registry``)."""
    from dixenv.agents.registry import GENERIC, _known

    rows = ["| game | agents of its own (name: class) | every game's |", "|---|---|---|"]
    for game in BUILTIN:
        own = {k: v for k, v in _known(game).items() if k not in GENERIC}
        mine = ", ".join(f"`{k}`: `{v}`" for k, v in sorted(own.items()))
        rows.append(f"| `{game}` | {mine} | {', '.join(f'`{k}`' for k in GENERIC)} |")
    return "\n".join(rows)


def blocks() -> dict[str, str]:
    """Every generated block, by name."""
    out = {"games": games_block(), "agents": agents_block()}
    for game, options in DOC_CONFIGS.items():
        out[f"{game}-options"] = options_block(game)
        out[f"{game}-observation"] = observation_block(game, options)
        caption = ", ".join(f"{k}={v}" for k, v in options.items())
        out[f"{game}-actions"] = f"Actions for {caption}:\n\n" + action_table(_env(game, **options))
        out[f"{game}-sizes"] = sizes_block(game)
        for n in PLAYER_COUNTS[game]:
            out[f"{game}-observation-n{n}"] = observation_block(game, {**options, "num_players": n})
    return out


def render(text: str, generated: dict[str, str]) -> str:
    """``text`` with each marked block replaced by its generated content (``KeyError`` for an unknown name)."""

    def fill(m: re.Match) -> str:
        name = m.group(1)
        if name not in generated:
            raise KeyError(f"unknown generated block {name!r}; known: {sorted(generated)}")
        return f"<!-- generated: {name} -->\n{generated[name]}\n<!-- end: {name} -->"

    return MARKER.sub(fill, text)


def stale_files(generated: dict[str, str] | None = None) -> list[Path]:
    """The documentation files whose generated blocks are not current."""
    generated = blocks() if generated is None else generated
    return [path for path in doc_files() if render(path.read_text(), generated) != path.read_text()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the generated blocks of every documentation file")
    args = parser.parse_args(argv)
    generated = blocks()
    if args.write:
        for path in doc_files():
            text = path.read_text()
            new = render(text, generated)
            if new != text:
                path.write_text(new)
                print(f"rewrote {path.relative_to(ROOT)}")
    else:
        for name, body in generated.items():
            print(f"## {name}\n\n{body}\n")


if __name__ == "__main__":
    main()
