"""Session-wide runs for the viewer's tests (`viewer_helper`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from viewer_helper import (
    checkpoint_run,
    expanding_evaluation,
    hostile_log,
    hostile_world_run,
    small_evaluation,
    tracked_evaluation,
)


@pytest.fixture(scope="session")
def evaluation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_evaluation(tmp_path_factory.mktemp("evaluation"))


@pytest.fixture(scope="session")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hostile_log(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="session")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return checkpoint_run(tmp_path_factory.mktemp("checkpoint"))


@pytest.fixture(scope="session")
def tracked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tracked_evaluation(tmp_path_factory.mktemp("tracked"))


@pytest.fixture(scope="session")
def expanding(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return expanding_evaluation(tmp_path_factory.mktemp("expanding"))


@pytest.fixture(scope="session")
def hostile_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hostile_world_run(tmp_path_factory.mktemp("hostile_world"))
