"""The README stays true: its generated tables are current and CI runs its test command."""

from __future__ import annotations

from pathlib import Path

from dixenv.experiments.docs import README, blocks, render_readme

ROOT = Path(__file__).resolve().parent.parent


def test_readme_tables_are_generated_from_the_current_code():
    text = README.read_text()
    generated = blocks()
    for name, body in generated.items():
        assert f"<!-- generated: {name} -->\n{body}\n<!-- end: {name} -->" in text, f"README block {name} is missing or stale"
    assert render_readme(text, generated) == text, "README is stale: run python -m experiments.docs --write"


def test_ci_runs_the_readme_test_command():
    readme_commands = [line for line in README.read_text().splitlines() if line.startswith("python3 -m venv")]
    assert len(readme_commands) == 2
    ci = (ROOT / ".ci" / "run").read_text()
    assert readme_commands[1] in ci


def test_readme_python_examples_run(capsys):
    import re

    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 3
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102  (our own documentation)
