"""Generate the documentation's tables and figures from the environments' own data.

Any Markdown file of the project (``README.md``, ``docs/*.md``) may hold marked blocks::

    <!-- generated: NAME -->
    … content written by this module …
    <!-- end: NAME -->

``python -m experiments.docs`` prints every block; ``--write`` rewrites the marked blocks of every
file. Block names: ``GAME-observation`` and ``GAME-actions`` (for the game's documented
configuration), ``GAME-observation-nK`` (for ``num_players=K``) and ``GAME-sizes`` (observation
sizes per player count). ``tests/test_readme.py`` checks that every file is current.
"""

from __future__ import annotations

import argparse
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"<!-- generated: ([\w-]+) -->\n(.*?)<!-- end: \1 -->", re.S)

# The configuration each default table is generated for (sizes that depend on it are said in the caption).
DOC_CONFIGS = {
    "le_dix": {"num_players": 4},
    "dix_de_suite": {"num_players": 2},
    "dix": {"num_players": 4},
}
PLAYER_COUNTS = {"le_dix": (3, 4, 5), "dix_de_suite": (2, 3, 4), "dix": (2, 3, 4, 5)}


def doc_files() -> list[Path]:
    """Every Markdown file that may hold generated blocks."""
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


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


def blocks() -> dict[str, str]:
    """Every generated block, by name."""
    out = {}
    for game, options in DOC_CONFIGS.items():
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
