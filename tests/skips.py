"""Skips shared by test modules that need something the machine may lack."""

from __future__ import annotations

import shutil

import pytest


def skip_without_cxx() -> None:
    """Skip the calling test unless a C++ compiler is on the PATH (torch.compile's CPU kernels need one)."""
    if not (shutil.which("g++") or shutil.which("c++")):
        pytest.skip("torch.compile's CPU kernels need a C++ compiler")
