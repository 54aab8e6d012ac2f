"""The tests talk to a real fitd on a private session bus: run them under scripts/private-bus
(Tests/EndToEnd/python_client.sh does, with the worktree's .build/debug/fitd)."""

from __future__ import annotations

import os
import pathlib
import shutil

import pytest

import fitd

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "protocol" / "examples").glob("*.json"))


def pytest_configure(config: pytest.Config) -> None:
    if "DBUS_SESSION_BUS_ADDRESS" not in os.environ or "FITD_BUS_DIR" not in os.environ:
        raise pytest.UsageError("run on a private bus: scripts/private-bus -- .build/pyenv/bin/pytest clients/python")


@pytest.fixture(scope="session")
def fitctl() -> str:
    path = os.environ.get("FITCTL", str(ROOT / ".build" / "debug" / "fitctl"))
    if not os.access(path, os.X_OK):
        path = shutil.which("fitctl") or path
    assert os.access(path, os.X_OK), f"no fitctl at {path} (swift build, or set FITCTL)"
    return path


@pytest.fixture
def fit():
    with fitd.Client() as client:
        yield client
        # A test that changed the user's text scale leaves it as it found it.
        client.reset_text_scale()


@pytest.fixture
async def afit():
    async with fitd.AsyncClient() as client:
        yield client
        await client.reset_text_scale()
