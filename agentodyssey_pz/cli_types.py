"""Argparse value types for the command line and the training scripts: each refusal names its flag
(argparse adds it) and exits with status 2 before any command runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def int_from(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from `low` (to `high`, if given)."""
    if high is not None:
        wanted = f"an integer from {low} to {high}"
    else:
        wanted = {0: "a non-negative integer", 1: "a positive integer"}.get(
            low, f"an integer >= {low}"
        )

    def parse(text: str) -> int:
        value = int(text)  # a ValueError: argparse's own "invalid int value: 'abc'"
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {value}")
        return value

    parse.__name__ = "int"  # the word argparse puts in "invalid int value"
    return parse


NON_NEGATIVE = int_from(0)
POSITIVE = int_from(1)
# Every world, episode and action seed: Python's generators (and numpy's default_rng, which the
# policies use) take any non-negative integer, however large.
SEED = NON_NEGATIVE
# The map's layout seed goes to networkx, which hands it to numpy's RandomState: 32 bits.
LAYOUT_SEED = int_from(0, 2**32 - 1)


def rule_pack_folder(text: str) -> str:
    """An argparse type: a rule pack folder that exists (a pack is a folder of modules)."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"folder {text!r} does not exist")
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return text


def file_to_write(text: str) -> str:
    """An argparse type: a file path in a folder that exists, checked now rather than when the
    file is written (play's history at the end of the game, where a failure is silent)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        problem = "is not a folder" if folder.exists() else "does not exist"
        raise argparse.ArgumentTypeError(f"folder {str(folder)!r} {problem}")
    return text
