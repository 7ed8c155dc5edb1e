"""The README and docs stay true: their generated tables are current, each game's page holds its tables,
the README's examples run, CI runs the README's test command and builds the docs site."""

from __future__ import annotations

from pathlib import Path

from dixenv.experiments.docs import MARKER, README, blocks, doc_files, render, stale_files

ROOT = Path(__file__).resolve().parent.parent


def test_generated_blocks_in_readme_and_docs_are_current():
    generated = blocks()
    assert stale_files(generated) == [], "stale documentation: run python -m experiments.docs --write"


GAMES = ("le_dix", "dix_de_suite", "dix")


def _block_names(path: Path) -> set[str]:
    return {m.group(1) for m in MARKER.finditer(path.read_text())}


def test_readme_holds_the_games_table():
    assert "games" in _block_names(README)


def test_each_game_page_holds_its_generated_tables():
    for game in GAMES:
        names = _block_names(ROOT / "docs" / "games" / f"{game}.md")
        assert {f"{game}-options", f"{game}-actions"} <= names, (game, names)
        assert any(n == f"{game}-observation" or n.startswith(f"{game}-observation-n") for n in names), (game, names)


def test_the_options_tables_cover_every_config_field():
    import dataclasses
    import importlib
    import inspect

    generated = blocks()
    for game in GAMES:
        config = importlib.import_module(f"dixenv.games.{game}.config")
        classes = [c for c in vars(config).values() if inspect.isclass(c) and dataclasses.is_dataclass(c) and c.__module__ == config.__name__]
        for field in (f for c in classes for f in dataclasses.fields(c) if f.init):
            assert f"| `{field.name}` |" in generated[f"{game}-options"], (game, field.name)


def test_an_unknown_block_name_is_an_error():
    import pytest

    with pytest.raises(KeyError, match="unknown generated block 'no-such'"):
        render("<!-- generated: no-such -->\nx\n<!-- end: no-such -->", blocks())


def test_ci_runs_the_readme_test_command():
    readme_commands = [line for line in README.read_text().splitlines() if line.startswith("python3 -m venv")]
    assert len(readme_commands) == 2
    ci = (ROOT / ".ci" / "run").read_text()
    assert readme_commands[1] in ci


def test_readme_python_examples_run(capsys):
    import re

    code_blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(code_blocks) >= 3
    for block in code_blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102  (our own documentation)


def test_docs_list_is_complete():
    files = doc_files()
    assert README in files and all(p.suffix == ".md" for p in files)
    assert set((ROOT / "docs").rglob("*.md")) <= set(files)  # the docs site's subfolders too
    assert ROOT / "docs" / "games" / "le_dix.md" in files


def test_ci_builds_the_docs_site():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "mkdocs build --strict" in ci
    assert (ROOT / "mkdocs.yml").exists()
