"""benchmarks/train_ppo.py refuses a bad flag before training starts, naming it in one `error:` line
(no traceback), and without torch still shows its help and says how to install the `[train]`
extra. Runs without torch: the script imports it only once the flags are checked."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from script_runs import run_without

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "train_ppo.py"


@pytest.fixture
def script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script as a module, whose training is a test failure: errors must come before it."""
    spec = importlib.util.spec_from_file_location("train_ppo_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("training started before the mistake was reported")

    monkeypatch.setattr(module, "train", refuse)
    return module


def refusal(script: ModuleType, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The script's exit status 2 and its last standard-error line (the error)."""
    with pytest.raises(SystemExit) as exit_info:
        script.main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--minutes", "0"], "argument --minutes: expected a positive number, got 0"),
        (["--lr", "-1"], "argument --lr: expected a positive number, got -1"),
        (["--eval-episodes", "0"], "argument --eval-episodes: expected a positive integer, got 0"),
        (["--minibatch", "0"], "argument --minibatch: expected a positive integer, got 0"),
        (["--hidden", "0"], "argument --hidden: expected a positive integer, got 0"),
        (["--agent-steps", "0"], "argument --agent-steps: expected a positive integer, got 0"),
        (["--seed", "-1"], "argument --seed: expected a non-negative integer, got -1"),
        (["--minutes", "abc"], "argument --minutes: invalid float value: 'abc'"),
    ],
)
def test_a_bad_flag_is_refused_by_argparse_naming_it(
    argv: list[str], message: str, script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refusal(script, argv, capsys).endswith(f"error: {message}")


def test_output_paths_that_cannot_be_written_are_refused(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "results"
    afile.write_text("keep me\n", encoding="utf-8")
    line = refusal(script, ["--out", str(afile)], capsys)
    assert line.endswith(f"error: argument --out: {str(afile)!r} exists and is not a folder")
    line = refusal(script, ["--out", str(afile / "below")], capsys)
    assert line.endswith(f"error: argument --out: {str(afile)!r} is not a folder")
    line = refusal(script, ["--save-model", str(afile / "model.pt")], capsys)
    assert line.endswith(f"error: argument --save-model: {str(afile)!r} exists and is not a folder")
    line = refusal(script, ["--save-model", str(tmp_path)], capsys)
    assert line.endswith(f"error: argument --save-model: {str(tmp_path)!r} is a folder, not a file")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--world", "nosuch"], "error: --world: no world 'nosuch': "),
        (["--max-cycles", "0"], "error: --max-cycles: expected a positive integer, got 0"),
        (["--agents", "0"], "error: --agents: expected a positive integer, got 0"),
    ],
)
def test_an_env_setting_the_env_refuses_is_one_error_line(
    argv: list[str], message: str, script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:  # with or without the [train] extra
        script.main(argv)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message) and captured.err.count("\n") == 1


def test_help_works_without_torch(tmp_path: Path) -> None:
    done = run_without("torch", SCRIPT, ["--help"], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: ") and "--agent-steps" in done.stdout


@pytest.mark.parametrize("module", ["torch", "matplotlib"])
def test_without_the_train_extra_the_script_says_how_to_install_it(
    module: str, tmp_path: Path
) -> None:
    if module != "torch":
        pytest.importorskip("torch")  # checked first
    done = run_without(
        module, SCRIPT, ["--agent-steps", "1", "--out", str(tmp_path / "out")], tmp_path
    )
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {module} is not installed; ")
    assert 'pip install "agentodyssey-pz[train]"' in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
