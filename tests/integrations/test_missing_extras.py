"""Without the `[rllib]` extra, the RLlib integration and benchmarks/train_rllib.py say which module
is missing and how to install it (`pip install "agentodyssey-pz[rllib]"`), rather than a bare
ModuleNotFoundError. Runs whether or not ray and torch are installed: the tests hide them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from script_runs import run_without

INTEGRATION = "agentodyssey_pz.integrations.rllib"
INSTALL = 'pip install "agentodyssey-pz[rllib]"'
SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "train_rllib.py"


def hide(monkeypatch: pytest.MonkeyPatch, package: str) -> None:
    """Make `package` (and its submodules) fail to import for this test."""
    for name in [n for n in sys.modules if n.startswith(f"{package}.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, package, None)  # None: the import fails


def import_integration(monkeypatch: pytest.MonkeyPatch) -> ImportError:
    monkeypatch.delitem(sys.modules, INTEGRATION, raising=False)  # import it afresh
    with pytest.raises(ImportError) as exc_info:
        __import__(INTEGRATION)
    return exc_info.value


def test_without_ray_the_import_error_names_ray_and_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "torch", ModuleType("torch"))  # torch present, whatever it is
    hide(monkeypatch, "ray")
    error = import_integration(monkeypatch)
    cause = error.__cause__
    assert isinstance(cause, ModuleNotFoundError) and cause.name is not None
    assert cause.name.split(".")[0] == "ray"  # 'ray.rllib' here: a hidden ray is not a package
    assert str(error) == f"{INTEGRATION} needs {cause.name!r}, which is not installed: {INSTALL}"


def test_without_torch_the_import_error_names_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    hide(monkeypatch, "torch")
    error = import_integration(monkeypatch)
    assert str(error) == f"{INTEGRATION} needs 'torch', which is not installed: {INSTALL}"
    assert isinstance(error.__cause__, ModuleNotFoundError) and error.__cause__.name == "torch"


def run_without_ray(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_without("ray", SCRIPT, argv, cwd)


def test_the_rllib_script_shows_its_help_without_ray(tmp_path: Path) -> None:
    done = run_without_ray(["--help"], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: ") and "--env-runners" in done.stdout


def test_the_rllib_script_without_ray_says_how_to_install_it(tmp_path: Path) -> None:
    done = run_without_ray(["--iterations", "1"], tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {INTEGRATION} needs ")
    assert done.stderr.endswith(f"which is not installed: {INSTALL}\n")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
