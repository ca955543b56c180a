"""Shared fixtures of the Python tests (run by ctest as `python_tests`, or by hand:
PYTHONPATH=<build>/python /usr/bin/python3 -m pytest -q tests/python)."""

import os
from pathlib import Path

import pytest

import bristle

SOURCE_DIR = Path(os.environ.get("BRISTLE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD_PYTHON_DIR = Path(bristle.__file__).resolve().parent.parent  # <build>/python


def _executable(env: str, *candidates: Path) -> Path:
    if os.environ.get(env):
        return Path(os.environ[env])
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    pytest.skip(f"{env} not set and no executable at {', '.join(map(str, candidates))}")


@pytest.fixture(scope="session")
def source_dir() -> Path:
    return SOURCE_DIR


@pytest.fixture(scope="session")
def examples() -> Path:
    return SOURCE_DIR / "examples"


@pytest.fixture(scope="session")
def pyref() -> Path:
    """The C++ reference executable (python/reference/bristle_pyref.cpp)."""
    return _executable("BRISTLE_PYREF", BUILD_PYTHON_DIR / "bristle_pyref")


@pytest.fixture(scope="session")
def cli() -> Path:
    """The bristle command line (its CSV output is the C++ side of the scenario comparisons)."""
    return _executable("BRISTLE_CLI", BUILD_PYTHON_DIR.parent / "bristle")


@pytest.fixture(scope="session")
def gallery_context(examples):
    """One gallery Context for every gallery test (each study is computed once)."""
    from bristle import gallery
    return gallery.Context(str(examples), verbose=False)
