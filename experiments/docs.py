"""Generate the README's observation and action tables from the environments' own data.

``python -m experiments.docs`` prints them; ``--write`` rewrites the marked blocks of README.md
(``<!-- generated: NAME -->`` … ``<!-- end: NAME -->``). A test checks the README is current.
"""

from __future__ import annotations

import argparse
import importlib
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"

# The configuration each table is generated for (sizes that depend on it are said in the caption).
DOC_CONFIGS = {
    "le_dix": {"num_players": 4},
    "dix_de_suite": {"num_players": 2},
    "dix": {"num_players": 4},
}


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


def blocks() -> dict[str, str]:
    """Every generated block, by name, for the games that exist."""
    out = {}
    for game, options in DOC_CONFIGS.items():
        try:
            module = importlib.import_module(f"dixenv.{game}_v0")
        except ImportError:
            continue
        env = module.raw_env(**options)
        caption = ", ".join(f"{k}={v}" for k, v in options.items())
        size = env.observation_space(env.possible_agents[0])["observation"].shape[0]
        out[f"{game}-observation"] = (
            f"Observation for {caption}: {size} floats; pieces with a per-seat row have one row per player, relative to the observer.\n\n"
            + env.layout.markdown_table()
        )
        out[f"{game}-actions"] = f"Actions for {caption}:\n\n" + action_table(env)
    return out


def render_readme(text: str, generated: dict[str, str]) -> str:
    """The README text with each marked block replaced by its generated content."""
    for name, body in generated.items():
        pattern = re.compile(rf"(<!-- generated: {re.escape(name)} -->\n).*?(<!-- end: {re.escape(name)} -->)", re.S)
        text = pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the generated blocks of README.md")
    args = parser.parse_args(argv)
    generated = blocks()
    if args.write:
        README.write_text(render_readme(README.read_text(), generated))
        print(f"rewrote {len(generated)} blocks in {README}")
    else:
        for name, body in generated.items():
            print(f"## {name}\n\n{body}\n")


if __name__ == "__main__":
    main()
