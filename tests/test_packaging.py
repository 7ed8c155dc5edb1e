"""Packaging: everything installs inside the dixenv namespace, and every package folder is listed."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _package_dirs() -> dict[str, Path]:
    """Installed package name -> source folder, from the package-dir mapping."""
    return {name: ROOT / folder for name, folder in PYPROJECT["tool"]["setuptools"]["package-dir"].items()}


def test_every_installed_package_lives_in_the_dixenv_namespace():
    packages = PYPROJECT["tool"]["setuptools"]["packages"]
    assert all(p == "dixenv" or p.startswith("dixenv.") for p in packages), packages
    assert "agents" not in packages and "experiments" not in packages


def test_every_package_folder_is_listed_for_the_wheel():
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = set()
    for name, folder in _package_dirs().items():
        for init in folder.rglob("__init__.py"):
            rel = init.parent.relative_to(folder)
            parts = [] if str(rel) == "." else list(rel.parts)
            if "__pycache__" in parts:
                continue
            full = ".".join([name, *parts])
            # a sub-folder that is itself mapped elsewhere is found under its own name
            found.add(full)
    assert found <= listed, f"package folders missing from pyproject's packages: {sorted(found - listed)}"


def test_licence_typing_marker_and_changelog_ship():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "dixenv" / "py.typed").exists()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["dixenv"]
    assert (ROOT / "CHANGELOG.md").exists()


def test_agents_and_experiments_import_under_the_dixenv_namespace():
    import dixenv.agents.registry
    import dixenv.experiments.tournament

    assert Path(dixenv.agents.registry.__file__).parent == ROOT / "agents"
    assert Path(dixenv.experiments.tournament.__file__).parent == ROOT / "experiments"


def test_console_scripts_name_commands_that_answer_help(capsys):
    import importlib

    import pytest

    scripts = PYPROJECT["project"]["scripts"]
    assert {"dixenv-train", "dixenv-evaluate", "dixenv-play", "dixenv-demo", "dixenv-bench", "dixenv-soak"} <= set(scripts)
    for name, target in scripts.items():
        module_name, _, function = target.partition(":")
        module = importlib.import_module(module_name)
        assert callable(getattr(module, function)), target
        with pytest.raises(SystemExit) as exit_info:
            module.main(["--help"])  # dixenv-train's cli() is main() on sys.argv with exit status 0
        assert exit_info.value.code == 0, name
        assert "usage:" in capsys.readouterr().out
