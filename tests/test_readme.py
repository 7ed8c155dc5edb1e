"""The README and docs stay true: their generated tables are current and CI runs the README's test command."""

from __future__ import annotations

from pathlib import Path

from dixenv.experiments.docs import MARKER, README, blocks, doc_files, render, stale_files

ROOT = Path(__file__).resolve().parent.parent


def test_generated_blocks_in_readme_and_docs_are_current():
    generated = blocks()
    assert stale_files(generated) == [], "stale documentation: run python -m experiments.docs --write"


def test_readme_holds_the_main_generated_tables():
    names = {m.group(1) for m in MARKER.finditer(README.read_text())}
    for game in ("le_dix", "dix_de_suite", "dix"):
        assert {f"{game}-observation", f"{game}-actions"} <= names


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
    assert README in doc_files() and all(p.suffix == ".md" for p in doc_files())
