"""The child-process runner the parity tests and the verb comparison share
(`agentodyssey_pz.integrations.published_engine`), on small programs that need no AgentOdyssey: the
request reaches the child with its root (its working directory and first import path), what
AgentOdyssey would print stays out of the answer, and each failure is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentodyssey_pz.integrations.published_engine import (
    EngineUnavailable,
    engine_package,
    run_child,
)


def test_the_child_reads_the_request_in_the_copy_and_answers_in_json(tmp_path: Path) -> None:
    (tmp_path / "noisy_engine.py").write_text("print('loading')\nVALUE = 7\n", encoding="utf-8")
    program = """
with contextlib.redirect_stdout(io.StringIO()):
    print("chatter while working")
value = load("noisy_engine").VALUE
out.write(json.dumps({"cwd": os.getcwd(), "path0": sys.path[0], "root": root,
                      "value": value, "echo": request["echo"]}))
"""
    answer = run_child(tmp_path, program, {"echo": [1, "two"]}, what="noisy_engine", timeout=60)
    real = str(tmp_path.resolve())
    assert answer == {"cwd": real, "path0": str(tmp_path), "root": str(tmp_path), "value": 7,
                      "echo": [1, "two"]}  # fmt: skip


def test_a_module_that_cannot_be_imported_makes_the_engine_unavailable(tmp_path: Path) -> None:
    hint = r"cannot import AgentOdyssey's absent_engine.*pip install gymnasium numpy termcolor"
    with pytest.raises(EngineUnavailable, match=hint):
        run_child(tmp_path, 'load("absent_engine")', {}, what="absent_engine", timeout=60)


def test_a_failing_child_is_a_runtime_error_with_the_end_of_its_errors(tmp_path: Path) -> None:
    program = "raise ValueError('the engine broke')"
    with pytest.raises(RuntimeError, match=r"AgentOdyssey's games\.x failed:\n(.|\n)*the engine"):
        run_child(tmp_path, program, {}, what="games.x", timeout=60)


def test_engine_packages_follow_the_game_folders() -> None:
    assert engine_package("base") == "games.base"
    assert engine_package("generated/robot_kingdom") == "games.generated.robot_kingdom"
